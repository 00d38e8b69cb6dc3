//! The screen-light check on an overloaded server (issue 29's capacity goal): frames go through
//! the real one-frame mailbox, and a worker takes one only every ~300 ms, as a server running
//! 32 sessions on 2 cores does. The frames the mailbox replaced while the colours were shown
//! are set aside, and the light check reads them: live footage of the held-back half (light
//! rendered by the test camera, simulated) still follows the sequence and passes. Without the
//! set-aside frames the same sessions can only end `retry` (`too_few_frames`), which is what
//! capped the capacity with the light on at 24 sessions (docs/benchmarks.md).

mod common;

use domain::Verdict;
use facegate_liveness_engine::mailbox::{LatestFrame, PendingFrame, TakenFrame};
use facegate_liveness_engine::{LightFinding, LightReading, SessionMode, VerdictReport};
use liveness_rig::light_camera::Scene;
use rand::Rng;

use common::eval_frames::case_rng;
use common::eval_set::{Case, Half, Split, live_cases};
use common::{in_parallel, lit};

/// Capture time between two frames a busy worker takes.
const WORKER_PERIOD_MS: u64 = 300;
/// A mid-range screen-to-ambient ratio, as the load generator renders.
const RATIO: f32 = 0.2;

struct Run {
    name: String,
    report: VerdictReport,
    light: Option<LightReading>,
}

/// One passive session of `case` whose worker takes a frame every [`WORKER_PERIOD_MS`];
/// `set_aside`: whether the frames replaced meanwhile reach the light check.
fn run_overloaded(case: &Case, set_aside: bool) -> Run {
    let seed: u64 = case_rng(&format!("overloaded {}", case.name)).random();
    let mut session = lit::seeded_session(SessionMode::Passive, seed);
    assert!(session.illumination().is_some(), "the light check is on");
    let mut camera = lit::camera_for(&session, Scene::LiveFace, RATIO, seed);
    let mailbox = LatestFrame::for_session(&session);
    let mut next_take = 0;
    for (i, frame) in case.frames().into_iter().enumerate() {
        let t = (i as f64 * 1000.0 / f64::from(case.fps)).round() as u64;
        mailbox.put(PendingFrame {
            jpeg: camera.capture_stamped(&frame, t),
            timestamp_ms: t,
        });
        if t < next_take {
            continue;
        }
        next_take = t + WORKER_PERIOD_MS;
        let Some(taken) = mailbox.take() else {
            continue;
        };
        let taken = match set_aside {
            true => taken,
            false => TakenFrame {
                light_only: Vec::new(),
                ..taken
            },
        };
        session.push_taken(&taken);
        if session.verdict().is_some() {
            break;
        }
    }
    Run {
        name: case.name.clone(),
        report: session.conclude(),
        light: session.light_reading(),
    }
}

#[test]
fn an_overloaded_server_reads_the_light_from_the_frames_it_set_aside() {
    let cases: Vec<Case> = live_cases(&Split::standard(), Half::HeldBack)
        .into_iter()
        .filter(|c| c.class == "live")
        .collect();
    assert!(cases.len() >= 4, "{} held-back live cases", cases.len());
    let jobs: Vec<(Case, bool)> = cases
        .iter()
        .flat_map(|case| [(case.clone(), true), (case.clone(), false)])
        .collect();
    let runs = in_parallel(&jobs, |(case, set_aside)| {
        (*set_aside, run_overloaded(case, *set_aside))
    });
    for (set_aside, run) in &runs {
        let light = run.light.map(|l| l.describe()).unwrap_or_default();
        println!(
            "set aside {set_aside}: {} {:?} {:.2} {:?} | {light}",
            run.name, run.report.verdict, run.report.confidence, run.report.reasons
        );
    }
    for (set_aside, run) in &runs {
        let finding = run.light.map(|l| l.finding);
        if *set_aside {
            assert_eq!(finding, Some(LightFinding::Follows), "{}", run.name);
            assert_eq!(run.report.verdict, Verdict::Pass, "{}", run.name);
        } else {
            // measured (2026-11-26, 11-colour sequences): analysed alone, ~300 ms apart, the
            // frames are too few to judge in 6 of 8 sessions; in the other two the 12 frames
            // judged followed (correlation 0.91 against a chance bar of 0.87: pass) or did not
            // beat chance (0.88: retry). Never attack evidence, never `fail`
            assert_ne!(
                finding.map(LightFinding::evidence),
                Some(facegate_liveness_engine::Evidence::Attack),
                "{}",
                run.name
            );
            assert_ne!(run.report.verdict, Verdict::Fail, "{}", run.name);
        }
    }
    let judged_alone = runs
        .iter()
        .filter(|(set_aside, run)| {
            !set_aside && run.light.map(|l| l.finding) != Some(LightFinding::TooFewFrames)
        })
        .count();
    assert!(
        judged_alone <= 2,
        "{judged_alone} judged without the set-aside frames"
    );
}
