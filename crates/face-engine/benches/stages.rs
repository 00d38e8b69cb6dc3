//! Criterion benchmarks of each engine stage on real test photos, single-threaded calls:
//! decode, detect (selfie and group paths), landmarks, align+embed, anti-spoof, portrait,
//! and a whole compare of two ~1-megapixel JPEGs.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use facegate_face_engine::{DetectMode, DetectOptions, FaceEngine, FaceModel, Image};

fn testdata(relative: &str) -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata");
    std::fs::read(root.join(relative)).expect("testdata present beside the repo")
}

/// Re-encodes `relative` scaled to about one megapixel, as a JPEG.
fn one_megapixel_jpeg(relative: &str) -> Vec<u8> {
    let img = image::load_from_memory(&testdata(relative)).expect("decode");
    let scale = (1_000_000.0 / (img.width() * img.height()) as f64).sqrt();
    let resized = img.resize(
        (img.width() as f64 * scale) as u32,
        (img.height() as f64 * scale) as u32,
        image::imageops::FilterType::Triangle,
    );
    let mut out = std::io::Cursor::new(Vec::new());
    resized
        .write_to(&mut out, image::ImageFormat::Jpeg)
        .expect("encode");
    out.into_inner()
}

fn stages(c: &mut Criterion) {
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let selfie_bytes = testdata("spoof/samples/live.jpg");
    let selfie = Image::decode(&selfie_bytes).expect("selfie");
    let selfie_options = DetectOptions {
        mode: DetectMode::Selfie,
        ..DetectOptions::default()
    };
    let face = engine
        .detect(&selfie, &selfie_options)
        .expect("detect")
        .remove(0);
    let mesh = engine.landmarks(&selfie, &face).expect("mesh");
    let aligned = engine.align(&selfie, &mesh).expect("align");
    let group = Image::decode(&testdata("groups/annotated/2008_007676.jpg")).expect("group");

    c.bench_function("decode_jpeg_480x640", |b| {
        b.iter(|| Image::decode(black_box(&selfie_bytes)))
    });
    c.bench_function("detect_selfie_480x640", |b| {
        b.iter(|| engine.detect(black_box(&selfie), &selfie_options))
    });
    c.bench_function("detect_group_500x334_7_faces", |b| {
        b.iter(|| engine.detect(black_box(&group), &DetectOptions::default()))
    });
    c.bench_function("landmarks_468_two_passes", |b| {
        b.iter(|| engine.landmarks(black_box(&selfie), &face))
    });
    c.bench_function("align_112", |b| {
        b.iter(|| engine.align(black_box(&selfie), &mesh))
    });
    c.bench_function("embed", |b| {
        b.iter(|| engine.embed(FaceModel::DEFAULT, black_box(&aligned)))
    });
    c.bench_function("anti_spoof", |b| {
        b.iter(|| engine.anti_spoof(black_box(&selfie), &face))
    });
    c.bench_function("portrait_480x600", |b| {
        b.iter(|| engine.portrait(black_box(&selfie), &face))
    });

    for role in facegate_face_engine::ModelRole::ALL {
        c.bench_function(&format!("model_only_{role}"), |b| {
            b.iter(|| engine.run_model_once(black_box(role)))
        });
    }

    let reference = one_megapixel_jpeg("identities/celebs/id00/img1.jpg");
    let probe = one_megapixel_jpeg("identities/celebs/id00/img11.jpg");
    c.bench_function("compare_two_1mp_jpegs", |b| {
        b.iter(|| {
            let embed = |bytes: &[u8]| {
                let img = Image::decode(bytes).expect("decode");
                let face = engine.primary_face(&img).expect("face");
                engine
                    .embed_face(FaceModel::DEFAULT, &img, &face)
                    .expect("embed")
            };
            engine
                .compare(&embed(black_box(&reference)), &embed(black_box(&probe)))
                .expect("one model")
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = stages
}
criterion_main!(benches);
