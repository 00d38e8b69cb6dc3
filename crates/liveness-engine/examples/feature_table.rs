//! Writes the development set of the fitted liveness decision (issue 66) as CSV on stdout:
//! one row per session of the camera-family evaluation (`tests/accuracy/camera_family.rs`,
//! both halves, every family drawn, the same seeds as the tests and the report) and of its
//! trimmed sheets (`camera_family::trimmed_sheet_jobs`), with the session's labels (half,
//! draw, class, clip, source footage, truth, camera family, screen-to-ambient ratio, the
//! rules' verdict) and the fitted decision's inputs (`liveness_engine::fitted::input_names`:
//! each layer's outcome and every feature it exports), NaN where a layer could not measure.
//! Simulated light and cameras on real footage. About 15 minutes a draw on 2 vCPU:
//! `cargo run -p facegate-liveness-engine --release --example feature_table > features.csv`;
//! `-- --half calibration|held-back` keeps one half; `-- --draws N` runs every job N times,
//! each draw with its own seed (a new camera, ratio and session of the same people; draw 1 is
//! the tests' seed); `-- --from-draw K` starts at draw K (more draws added to a set);
//! `-- --look-to PATH` also writes there the same rows at each session's one look at the
//! colours' end (`LivenessSession::early_look`; the verdict column `none` and every input NaN
//! where a session took no look), every session then waiting past its look, so the rows on
//! stdout are the verdict after the wait (`fit_liveness --look`). `-- --loaded-looks MS` writes
//! on stdout only the look table, each session read as a loaded server reads it, taking its
//! newest frame every MS of capture time (`liveness_rig::eval::loaded`; 300 as at 32 sessions
//! on two cores, 1000 as at 64): `fit_liveness --look` then cross-validates the look on it.

use facegate_liveness_engine::fitted::{input_names, inputs};
use facegate_liveness_engine::fusion::fuse;
use facegate_liveness_engine::{SessionMode, Verdict, VerdictReport};
use liveness_rig::camera_model::CameraFamily;
use std::io::Write;

use liveness_rig::eval::camera_family::{
    TESTS_SALT, jobs, run, run_past_the_look, trimmed_sheet_jobs,
};
use liveness_rig::eval::in_parallel;
use liveness_rig::eval::loaded::run_loaded_to_the_look;
use liveness_rig::eval::set::{Half, Truth};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut only_half = None;
    let mut draws = 1usize;
    let mut first_draw = 1usize;
    let mut look_to = None;
    let mut loaded_every_ms = None;
    for pair in args.chunks(2) {
        match pair {
            [flag, half] if flag == "--half" => only_half = Some(half.clone()),
            [flag, n] if flag == "--draws" => draws = n.parse().expect("--draws N"),
            [flag, n] if flag == "--from-draw" => first_draw = n.parse().expect("--from-draw K"),
            [flag, path] if flag == "--look-to" => look_to = Some(path.clone()),
            [flag, ms] if flag == "--loaded-looks" => {
                loaded_every_ms = Some(ms.parse::<u64>().expect("--loaded-looks MS"))
            }
            _ => panic!(
                "arguments: [--half calibration|held-back] [--draws N] [--from-draw K] [--look-to PATH | --loaded-looks MS]"
            ),
        }
    }
    let mut looks = look_to
        .as_ref()
        .map(|path| std::fs::File::create(path).expect("--look-to: a writable path"));
    assert!(
        loaded_every_ms.is_none() || look_to.is_none(),
        "--loaded-looks writes its look table on stdout: give it without --look-to"
    );
    assert!(
        (1..=draws).contains(&first_draw),
        "--from-draw {first_draw} must lie within the draws 1..={draws}"
    );
    let mut header = [
        "half", "draw", "class", "clip", "source", "truth", "family", "ratio", "verdict",
    ]
    .map(String::from)
    .to_vec();
    header.extend(input_names(SessionMode::Passive));
    println!("{}", header.join(","));
    if let Some(file) = looks.as_mut() {
        writeln!(file, "{}", header.join(",")).expect("--look-to: written");
    }
    for (half, half_name) in [
        (Half::Calibration, "calibration"),
        (Half::HeldBack, "held-back"),
    ] {
        if only_half.as_deref().is_some_and(|h| h != half_name) {
            continue;
        }
        let mut half_jobs = jobs(half);
        half_jobs.extend(trimmed_sheet_jobs(half));
        for draw in first_draw..=draws {
            // draw 1 is the tests' salt, so its verdicts are the tests' verdicts
            let salt = match draw {
                1 => TESTS_SALT.to_string(),
                n => format!("family draw {n}"),
            };
            let runs = in_parallel(&half_jobs, |job| {
                (
                    job.case.sources.first().cloned().unwrap_or_default(),
                    match (loaded_every_ms, &look_to) {
                        (Some(ms), _) => run_loaded_to_the_look(job, &CameraFamily::ALL, &salt, ms),
                        (None, Some(_)) => run_past_the_look(job, &CameraFamily::ALL, &salt),
                        (None, None) => run(job, &CameraFamily::ALL, &salt),
                    },
                )
            });
            for (source, r) in runs {
                let truth = match r.truth {
                    Truth::Live => "live",
                    Truth::Attack => "attack",
                };
                let labels = [
                    half_name.to_string(),
                    draw.to_string(),
                    r.label.clone(),
                    r.name.clone(),
                    source,
                    truth.to_string(),
                    r.family.name().to_string(),
                    r.ratio.to_string(),
                ];
                if loaded_every_ms.is_some() {
                    println!("{}", row(&labels, r.early_look.as_ref(), header.len()));
                    continue;
                }
                println!("{}", row(&labels, Some(&r.report), header.len()));
                if let Some(file) = looks.as_mut() {
                    let line = row(&labels, r.early_look.as_ref(), header.len());
                    writeln!(file, "{line}").expect("--look-to: written");
                }
            }
        }
    }
}

/// One session's row: its `labels`, the rules' verdict (which the fit keeps or overturns) and
/// the inputs of `report`; `none` and NaN inputs without a report (a session that took no
/// look at the colours' end).
fn row(labels: &[String], report: Option<&VerdictReport>, width: usize) -> String {
    let verdict = report.map_or("none".to_string(), |r| {
        format!("{:?}", rules_verdict(r)).to_lowercase()
    });
    let values: Vec<String> = match report {
        Some(r) => inputs(&r.layers)
            .into_iter()
            .map(|v| format!("{v}"))
            .collect(),
        None => vec!["NaN".to_string(); width - labels.len() - 1],
    };
    let row: Vec<String> = labels
        .iter()
        .map(|v| csv_field(v))
        .chain([verdict])
        .chain(values)
        .collect();
    assert_eq!(row.len(), width, "{}: columns", labels[3]);
    row.join(",")
}

/// The verdict of the rules alone (`fusion::fuse` over the session's layers), before the
/// fitted decision.
fn rules_verdict(report: &VerdictReport) -> Verdict {
    fuse(
        SessionMode::Passive,
        report.layers.clone(),
        report.end_reason,
    )
    .verdict
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(value: &str) -> String {
    if value.contains([',', '"']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}
