//! Cost of analysing one camera frame (decode, selfie detector, one mesh pass, anti-spoof,
//! pixel signals), with and without the all-faces count and the identity embedding that a
//! session adds on some frames, and the motion layer's per-frame work (the two grey patches and
//! the pair measure against a frame 300 ms earlier), the room test's (the frame's coarse copy
//! and the outer band searched against the frame 300 ms earlier), and the light check's
//! per-frame and per-session work, and the anti-spoof model alone in a carried face box (the
//! cheap tier of a session its server fell behind). Frames come from the shared webcam video
//! (ffmpeg).

use std::path::Path;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use face_engine::geometry::Affine;
use face_engine::{FaceEngine, Image};
use facegate_liveness_engine::illumination::sample::LightSample;
use facegate_liveness_engine::illumination::{Illumination, reading};
use facegate_liveness_engine::motion::parallax::{self, FacePatch};
use facegate_liveness_engine::motion::room::{self, RoomPatch};
use facegate_liveness_engine::observation::{Analysis, observe};
use rand::SeedableRng;

fn webcam_frame(at: &str) -> Vec<u8> {
    let out = std::env::temp_dir().join(format!("facegate-bench-webcam-frame-{at}.jpg"));
    if !out.exists() {
        // extract into a unique name and rename into place, so a concurrent run never reads a
        // half-written frame
        let staging = out.with_extension(format!("{}.jpg", std::process::id()));
        let video = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/testdata/videos/webcam-man-1.mp4");
        let status = Command::new("ffmpeg")
            .args(["-v", "error", "-y", "-ss", at, "-i"])
            .arg(&video)
            .args(["-frames:v", "1", "-vf", "scale=640:-2", "-q:v", "3"])
            .arg(&staging)
            .status()
            .expect("ffmpeg");
        assert!(status.success());
        std::fs::rename(&staging, &out).expect("frame into place");
    }
    std::fs::read(out).expect("frame")
}

fn frame_analysis(c: &mut Criterion) {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let jpeg = webcam_frame("2");
    let mut group = c.benchmark_group("liveness_frame");
    group.sample_size(30);
    group.bench_function("analyse_640x480", |b| {
        b.iter(|| {
            let image = Image::decode(&jpeg).expect("decode");
            observe(&engine, &image, 0, Analysis::PLAIN).expect("observe")
        })
    });
    group.bench_function("analyse_with_face_count", |b| {
        b.iter(|| {
            let image = Image::decode(&jpeg).expect("decode");
            observe(
                &engine,
                &image,
                0,
                Analysis {
                    count_all_faces: true,
                    ..Analysis::PLAIN
                },
            )
            .expect("observe")
        })
    });
    group.bench_function("analyse_with_embedding", |b| {
        b.iter(|| {
            let image = Image::decode(&jpeg).expect("decode");
            observe(
                &engine,
                &image,
                0,
                Analysis {
                    embedding: true,
                    ..Analysis::PLAIN
                },
            )
            .expect("observe")
        })
    });
    let earlier = Image::decode(&webcam_frame("1.7")).expect("decode");
    let image = Image::decode(&jpeg).expect("decode");
    let face_of = |image: &Image| {
        observe(&engine, image, 0, Analysis::PLAIN)
            .expect("observe")
            .face
            .expect("a face in the webcam frame")
    };
    let (before, now) = (face_of(&earlier), face_of(&image));
    let old_patch = FacePatch::capture(earlier.rgb(), &before.bbox);
    let predict =
        Affine::fit_similarity(&before.rigid_points, &now.rigid_points).expect("similarity");
    group.bench_function("motion_measures", |b| {
        b.iter(|| {
            let patch = FacePatch::capture(image.rgb(), &now.bbox);
            // the frames at 1.7 s and 2 s: 300 ms apart
            parallax::measure(&old_patch, &patch, &predict, before.eye_span, 300)
        })
    });
    // the room test (issue 29): the frame's coarse grey copy, and the outer band's blocks
    // searched in the frame 300 ms later
    let old_room = RoomPatch::capture(earlier.rgb(), &before.bbox);
    group.bench_function("room_capture", |b| {
        b.iter(|| RoomPatch::capture(image.rgb(), &now.bbox))
    });
    let new_room = RoomPatch::capture(image.rgb(), &now.bbox);
    group.bench_function("room_classify_pair", |b| {
        b.iter(|| room::classify(&old_room, &new_room))
    });
    // the light check (issue 29): one frame's regions, a frame between two analysed ones
    // (decode and regions, no inference), and the reading over a session's samples
    group.bench_function("light_sample", |b| {
        b.iter(|| LightSample::read(image.rgb(), &now.bbox))
    });
    group.bench_function("light_sample_between_frames", |b| {
        b.iter(|| {
            let decoded = Image::decode(&jpeg).expect("decode");
            LightSample::read(decoded.rgb(), &now.bbox)
        })
    });
    // issue 42's cheap tier after the colours: a frame between two key frames judged by the
    // anti-spoof model alone in the key frame's face box (decode and the one model)
    group.bench_function("anti_spoof_in_carried_box", |b| {
        b.iter(|| {
            let decoded = Image::decode(&jpeg).expect("decode");
            engine
                .anti_spoof_in_box(&decoded, &before.bbox)
                .expect("anti-spoof")
        })
    });
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(29));
    let sample = LightSample::read(image.rgb(), &now.bbox);
    let samples: Vec<(u64, LightSample)> = (0..45).map(|i| (i * 66, sample)).collect();
    group.bench_function("light_reading_45_samples", |b| {
        b.iter(|| reading::read(&samples, &sequence))
    });
    group.finish();
}

criterion_group!(benches, frame_analysis);
criterion_main!(benches);
