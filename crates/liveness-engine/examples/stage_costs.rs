//! Where one frame's analysis time goes: times each stage of `observe` separately (decode,
//! selfie detector, mesh pass, anti-spoof, embedding, pixel signals, parallax patches and the
//! pair measure of the motion layer) over the JPEG frames of a folder, and prints the median of
//! each in milliseconds.
//!
//! `cargo run --release -p facegate-liveness-engine --example stage_costs -- models FRAMES_DIR`

use std::path::PathBuf;
use std::time::Instant;

use face_engine::{DetectMode, DetectOptions, FaceEngine, Image};
use facegate_liveness_engine::motion::parallax::{FacePatch, ParallaxTracker};
use facegate_liveness_engine::observation::rigid_points_and_eye_span;
use facegate_liveness_engine::signals;

/// Capture time between the folder's frames, as a session analyses them (10 fps).
const FRAME_GAP_MS: u64 = 100;

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
    let mut args = std::env::args().skip(1);
    let models = PathBuf::from(args.next().expect("models dir"));
    let frames = PathBuf::from(args.next().expect("frames dir"));
    let engine = FaceEngine::load(&models).expect("models");
    let mut paths: Vec<_> = std::fs::read_dir(&frames)
        .expect("frames dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    paths.truncate(60);
    let names = [
        "decode",
        "detect_selfie",
        "mesh",
        "anti_spoof",
        "embedding",
        "thumbnail",
        "moire",
        "boundary",
        "parallax_patch",
        "parallax_pair",
        "detect_group",
    ];
    let mut tracker = ParallaxTracker::default();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let selfie = DetectOptions {
        mode: DetectMode::Selfie,
        max_faces: 4,
        ..DetectOptions::default()
    };
    let group = DetectOptions {
        max_faces: 4,
        ..DetectOptions::default()
    };
    for (index, path) in paths.iter().enumerate() {
        let bytes = std::fs::read(path).expect("frame");
        let image = timed(&mut samples[0], || Image::decode(&bytes).expect("decode"));
        let faces = timed(&mut samples[1], || {
            engine.detect(&image, &selfie).expect("stage")
        });
        let Some(face) = faces.into_iter().next() else {
            continue;
        };
        let mesh = timed(&mut samples[2], || {
            engine.landmarks_single_pass(&image, &face).expect("stage")
        });
        timed(&mut samples[3], || {
            engine.anti_spoof(&image, &face).expect("stage")
        });
        timed(&mut samples[4], || {
            engine
                .embed(
                    face_engine::FaceModel::FrFeature,
                    &engine.align(&image, &mesh).expect("stage"),
                )
                .expect("stage")
        });
        timed(&mut samples[5], || {
            signals::face_thumbnail(image.rgb(), &face.bbox)
        });
        timed(&mut samples[6], || {
            signals::moire_peak(image.rgb(), &face.bbox)
        });
        timed(&mut samples[7], || {
            signals::boundary_sharpness_ratio(image.rgb(), &face.bbox)
        });
        let patch = timed(&mut samples[8], || {
            FacePatch::capture(image.rgb(), &face.bbox)
        });
        let (rigid, eye_span) = rigid_points_and_eye_span(&mesh);
        let mut pair = Vec::new();
        if timed(&mut pair, || {
            tracker.push(patch, &rigid, eye_span, FRAME_GAP_MS * index as u64)
        })
        .is_some()
        {
            samples[9].extend(pair);
        }
        timed(&mut samples[10], || {
            engine.detect(&image, &group).expect("stage")
        });
    }
    println!("{} frames from {}", paths.len(), frames.display());
    for role in face_engine::ModelRole::ALL {
        let mut runs = Vec::new();
        for _ in 0..30 {
            timed(&mut runs, || engine.run_model_once(role).expect("model"));
        }
        println!("{:>16}: {:7.2} ms (model alone, zeros)", role, median(runs));
    }
    for (name, stage) in names.iter().zip(samples) {
        println!(
            "{name:>16}: {:7.2} ms (median of {})",
            median(stage.clone()),
            stage.len()
        );
    }
}
