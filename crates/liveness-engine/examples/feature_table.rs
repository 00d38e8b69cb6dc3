//! Writes the development set of the fitted liveness decision (issue 66) as CSV on stdout:
//! one row per session of the camera-family evaluation (`tests/accuracy/camera_family.rs`,
//! both halves, every family drawn, the same seeds as the tests and the report), with the
//! session's labels (half, class, clip, source footage, truth, camera family, screen-to-ambient
//! ratio, today's verdict) and every feature the layers' table exports
//! (`liveness_engine::layers::feature_names`), NaN where a layer could not measure. Simulated
//! light and cameras on real footage. Many minutes on 2 vCPU:
//! `cargo run -p facegate-liveness-engine --release --example feature_table > features.csv`;
//! `-- --half calibration|held-back` keeps one half.

use facegate_liveness_engine::SessionMode;
use facegate_liveness_engine::layers::feature_names;
use liveness_rig::camera_model::CameraFamily;
use liveness_rig::eval::camera_family::{jobs, run};
use liveness_rig::eval::in_parallel;
use liveness_rig::eval::set::{Half, Truth};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only_half = match args.as_slice() {
        [] => None,
        [flag, half] if flag == "--half" => Some(half.clone()),
        _ => panic!("arguments: [--half calibration|held-back]"),
    };
    let mut header = [
        "half", "class", "clip", "source", "truth", "family", "ratio", "verdict",
    ]
    .map(String::from)
    .to_vec();
    let names = feature_names(SessionMode::Passive);
    header.extend(names.iter().cloned());
    println!("{}", header.join(","));
    for (half, half_name) in [
        (Half::Calibration, "calibration"),
        (Half::HeldBack, "held-back"),
    ] {
        if only_half.as_deref().is_some_and(|h| h != half_name) {
            continue;
        }
        let jobs = jobs(half);
        let runs = in_parallel(&jobs, |job| {
            (
                job.case.sources.first().cloned().unwrap_or_default(),
                run(job, &CameraFamily::ALL, "family"),
            )
        });
        for (source, r) in runs {
            let features: Vec<String> = r
                .report
                .layers
                .iter()
                .flat_map(|l| l.features.iter().map(|v| format!("{v}")))
                .collect();
            assert_eq!(features.len(), names.len(), "{}: features", r.name);
            let truth = match r.truth {
                Truth::Live => "live",
                Truth::Attack => "attack",
            };
            let labels = [
                half_name.to_string(),
                r.label.clone(),
                r.name.clone(),
                source,
                truth.to_string(),
                r.family.name().to_string(),
                r.ratio.to_string(),
                format!("{:?}", r.report.verdict).to_lowercase(),
            ];
            let row: Vec<String> = labels
                .iter()
                .map(|v| csv_field(v))
                .chain(features)
                .collect();
            println!("{}", row.join(","));
        }
    }
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(value: &str) -> String {
    if value.contains([',', '"']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}
