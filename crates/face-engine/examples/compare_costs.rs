//! Where the time of one side of a compare goes: times decode, primary-face detection, the
//! landmark fit, alignment and embedding separately on JPEG files, and prints the median of
//! each in milliseconds.
//!
//! `cargo run --release -p facegate-face-engine --example compare_costs -- FILE.jpg...`

use std::time::Instant;

use facegate_face_engine::{FaceEngine, FaceModel, Image};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

fn timed<T>(samples: &mut Vec<f64>, work: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = work();
    samples.push(start.elapsed().as_secs_f64() * 1000.0);
    out
}

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let files: Vec<Vec<u8>> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read(p).expect("readable file"))
        .collect();
    let names = [
        "decode",
        "primary_face",
        "landmarks",
        "align",
        "embed",
        "total",
    ];
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for _ in 0..20 {
        for bytes in &files {
            let start = Instant::now();
            let image = timed(&mut samples[0], || Image::decode(bytes).expect("decode"));
            let face = timed(&mut samples[1], || {
                engine.primary_face(&image).expect("face")
            });
            let mesh = timed(&mut samples[2], || {
                engine.landmarks(&image, &face).expect("mesh")
            });
            let aligned = timed(&mut samples[3], || {
                engine.align(&image, &mesh).expect("align")
            });
            timed(&mut samples[4], || {
                engine.embed(FaceModel::DEFAULT, &aligned).expect("embed")
            });
            samples[5].push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    for (name, stage) in names.iter().zip(samples) {
        println!(
            "{name:>13}: {:7.2} ms (median of {})",
            median(stage.clone()),
            stage.len()
        );
    }
}
