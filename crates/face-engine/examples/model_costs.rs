//! Times each bundled model alone in tract, the way `bench/ort_compare.py` times it in
//! onnxruntime: one thread, five warm-up runs, best of two medians of 60 runs. The input is
//! fixed-seed uniform values in [0, 1) (all zeros would make some graphs carry slow denormal
//! floats); the time includes building the input tensor and copying the outputs out, as the
//! engine does. `FACEGATE_PLAIN_TRACT=1` times tract as it ships, without our kernels.
//!
//! `cargo run --release -p facegate-face-engine --example model_costs`

use std::time::Instant;

use facegate_face_engine::{FaceEngine, ModelRole};

fn median_ms(engine: &FaceEngine, role: ModelRole, runs: usize) -> f64 {
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            engine.run_model_once(role).expect("model runs");
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    for role in ModelRole::ALL {
        for _ in 0..5 {
            engine.run_model_once(role).expect("model runs");
        }
        let best = (0..2)
            .map(|_| median_ms(&engine, role, 60))
            .fold(f64::INFINITY, f64::min);
        println!("{role} {best:.3}");
    }
}
