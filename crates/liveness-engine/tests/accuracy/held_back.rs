//! Liveness on footage the thresholds were not set on (issue 15): the evaluation set of
//! `liveness_rig::eval::set`, split by source, reported and asserted on its held-back half in
//! passive and active mode, with the screen's light check on and its light rendered by the
//! test camera (`liveness_rig::eval::lit`, issue 29: simulated light on real footage). The
//! asserted rates are the measured ones (docs/accuracy.md).
//! `cargo run -p facegate-liveness-engine --release --example held_back_calibration` prints
//! the calibration half, on which the cut-offs were set.
//!
//! The passive sweep's sessions and table are `sweep.rs`; this file holds the tests.

use liveness_rig::eval;
use liveness_rig::eval::held_back as sweep;

use domain::Verdict;
use facegate_liveness_engine::challenge::draw_challenges_from;
use facegate_liveness_engine::{ChallengeKind, LivenessConfig, LivenessSession, SessionMode};
use liveness_rig::light_camera::Scene;
use liveness_rig::replay::{LabelFile, ReplayOutcome, SegmentLabels, replay_scripted};
use rand::Rng;

use eval::attacks::attack_cases;
use eval::frames::case_rng;
use eval::set::{Case, Half, Split, Truth, live_cases};
use eval::{FPS, engine, first_of_each, in_parallel, lit, video};
use sweep::{Run, evaluate, jobs, table};

/// The attack classes the CI sample runs in active mode (an active attack session is the
/// longest, 450 frames): a print, a replay and a face swap.
const ACTIVE_SAMPLE_CLASSES: [&str; 3] = [
    "print simulation",
    "live video on a screen",
    "two people swapped in the hold",
];

/// The CI sample of the sweep: the first session of each class and mode (in active mode, of
/// [`ACTIVE_SAMPLE_CLASSES`]), a live class's first one in a dim room (0.2 or more, where the
/// whole sweep passes every live session of a clear camera), each exactly the session the
/// sweep runs.
fn sample(jobs: Vec<(usize, Case, SessionMode)>) -> Vec<(usize, Case, SessionMode)> {
    let eligible = jobs
        .into_iter()
        .filter(|(index, case, _)| case.truth == Truth::Attack || lit::ratio_for(*index) >= 0.2)
        .filter(|(_, case, mode)| {
            *mode == SessionMode::Passive || ACTIVE_SAMPLE_CLASSES.contains(&case.class)
        });
    first_of_each(eligible, |(_, case, mode)| {
        (case.class, format!("{mode:?}"))
    })
}

/// Labelled held-back videos answering challenge plans drawn per session.
/// With `sample`, only the plans the sweep lights as a dim room (0.2 or more): the CI sample.
fn active_live(half: Half, sample: bool) -> Vec<ReplayOutcome> {
    let split = Split::standard();
    let labels =
        LabelFile::parse(include_str!("../data/video_segments.toml")).expect("label file parses");
    let mut plans = Vec::new();
    for labelled in &labels.video {
        if split.half_of(&format!("video/{}", labelled.video)) != Some(half) {
            continue;
        }
        let kinds: Vec<ChallengeKind> = ChallengeKind::ALL
            .into_iter()
            .filter(|k| labelled.segments.iter().any(|s| s.kind == (*k).into()))
            .collect();
        if kinds.len() < 2 {
            continue;
        }
        for draw in 0..3 {
            let mut rng = case_rng(&format!("active {} {draw}", labelled.video));
            plans.push((
                labelled.clone(),
                draw_challenges_from(&mut rng, &kinds, 3, 4),
            ));
        }
    }
    let indexed: Vec<(usize, &(SegmentLabels, Vec<ChallengeKind>))> = plans
        .iter()
        .enumerate()
        .filter(|(index, _)| !sample || lit::ratio_for(*index) >= 0.2)
        .collect();
    in_parallel(&indexed, |(index, (labelled, plan))| {
        let seed: u64 = case_rng(&format!("active light {} {index}", labelled.video)).random();
        let mut session = LivenessSession::replaying(
            engine(),
            LivenessConfig::default(),
            SessionMode::Active,
            plan.clone(),
            lit::sequence(seed),
        )
        .expect("session");
        let mut camera = lit::camera_for(&session, Scene::LiveFace, lit::ratio_for(*index), seed);
        let mut outcome = replay_scripted(
            &mut session,
            &video(&labelled.video),
            labelled,
            FPS,
            1_500,
            Some(&mut camera),
        )
        .expect("scripted replay");
        outcome.recording = format!("{} light {}", outcome.recording, lit::ratio_for(*index));
        outcome
    })
}

#[test]
fn a_split_with_a_source_in_both_halves_is_refused() {
    let refused = Split::from_assignments([
        ("video/webcam-man-1".to_string(), Half::Calibration),
        ("video/talking-woman".to_string(), Half::HeldBack),
        ("video/webcam-man-1".to_string(), Half::HeldBack),
    ]);
    let error = refused.expect_err("a source in both halves");
    assert!(error.contains("webcam-man-1"), "{error}");
    // a case drawing on both halves is refused too
    let split = Split::from_assignments([
        ("video/webcam-man-1".to_string(), Half::Calibration),
        ("video/talking-woman".to_string(), Half::HeldBack),
    ])
    .expect("a clean split");
    let standard = Split::standard();
    let mixed = attack_cases(&standard, Half::HeldBack, false)
        .into_iter()
        .find(|c| c.sources.len() == 2)
        .expect("a two-source case");
    let mut mixed = mixed;
    mixed.sources = vec![
        "video/webcam-man-1".to_string(),
        "video/talking-woman".to_string(),
    ];
    assert!(split.half_of_case(&mixed).is_err());
    // and the standard split keeps every source in one half, every case in one half
    for half in [Half::Calibration, Half::HeldBack] {
        for case in live_cases(&standard, half)
            .into_iter()
            .chain(attack_cases(&standard, half, false))
        {
            assert_eq!(standard.half_of_case(&case), Ok(half), "{}", case.name);
        }
    }
}

/// Prints each live `outcome` under `label` with its layers, then how many passed and failed;
/// returns (passed, failed).
pub(crate) fn print_live(label: &str, active: &[ReplayOutcome]) -> (usize, usize) {
    for o in active {
        println!(
            "{label} {} {:?} {:?} {:.3} {}",
            o.recording,
            o.challenges,
            o.report.verdict,
            o.report.confidence,
            serde_json::to_string(&o.report.layers).unwrap_or_default()
        );
    }
    let failed = active
        .iter()
        .filter(|o| o.report.verdict == Verdict::Fail)
        .count();
    let passed = active
        .iter()
        .filter(|o| o.report.verdict == Verdict::Pass)
        .count();
    println!(
        "{label}: {passed} of {} passed, {failed} failed",
        active.len()
    );
    (passed, failed)
}

/// No live session fails (too little evidence is `retry`) and no attack passes.
fn assert_no_live_fail_and_no_attack_pass(runs: &[Run]) {
    let named = |r: &Run| format!("{:?} {} {}", r.mode, r.case.class, r.case.name);
    let live_failed: Vec<_> = runs
        .iter()
        .filter(|r| r.case.truth == Truth::Live && r.report.verdict == Verdict::Fail)
        .map(named)
        .collect();
    assert!(
        live_failed.is_empty(),
        "live sessions failed: {live_failed:?}"
    );
    let passed: Vec<String> = runs
        .iter()
        .filter(|r| r.case.truth == Truth::Attack && r.report.verdict == Verdict::Pass)
        .map(named)
        .collect();
    assert!(passed.is_empty(), "attacks passed: {passed:?}");
}

/// CI's share of the sweep below: one session per class and mode, each exactly as the
/// sweep runs it. Live footage filmed by a clear camera, lit as a dim room, passes; the hand-held, low-light and NUAA live controls never fail; no attack passes;
/// the active plans lit as a dim room pass.
#[test]
fn held_back_sample_ends_as_the_sweep_measured() {
    let runs = evaluate(&sample(jobs(Half::HeldBack)));
    table(&runs);
    assert_no_live_fail_and_no_attack_pass(&runs);
    for class in ["live", "live 320x240 10fps q50", "live near-still"] {
        let run = runs
            .iter()
            .find(|r| r.case.class == class)
            .unwrap_or_else(|| panic!("{class} in the sample"));
        assert_eq!(
            run.report.verdict,
            Verdict::Pass,
            "{class} {}",
            run.case.name
        );
    }
    let active = active_live(Half::HeldBack, true);
    assert!(active.len() >= 2, "active plans in the sample");
    let (passed, _) = print_live("active live", &active);
    assert_eq!(
        passed,
        active.len(),
        "active live sessions in a dim room pass"
    );
}

/// The whole held-back half at every ratio in turn (about 12 minutes on 2 vCPU): the
/// figures of docs/accuracy.md, held to what it measured.
#[test]
#[ignore = "the held-back sweep (about 12 minutes on 2 vCPU); its CI sample runs above"]
fn held_back_half_meets_the_measured_rates() {
    let runs = evaluate(&jobs(Half::HeldBack));
    let rows = table(&runs);
    let active = active_live(Half::HeldBack, false);
    let (active_passed, active_failed) = print_live("active live", &active);
    assert_no_live_fail_and_no_attack_pass(&runs);
    assert_eq!(active_failed, 0, "active live sessions failed");
    // measured 2026-11-26 (2 vCPU, 708 s), after issue 39's chance bar: every live session of
    // a clear camera (start, middle, 320x240, near-still, hand-held) lit at 0.2 or 0.3 passes;
    // at 0.05 and 0.1 six of 14 end in `retry` (five with the light below what other
    // sessions' sequences reach, one with too little motion), none `fail`. Rows: live 6 of 8,
    // 320x240 3 of 4, near-still 3 of 4, hand-held 2 of 4, active 5 of 6 (the one at 0.05
    // `retry`), low light 0 of 4 and the NUAA control 0 of 5 (`retry`, the model's view).
    // Held to those counts and to every dim-room session passing.
    let dim_room_not_passed: Vec<String> = runs
        .iter()
        .filter(|r| CLEAR_CAMERA_CLASSES.contains(&r.case.class) && r.ratio >= 0.2)
        .filter(|r| r.report.verdict != Verdict::Pass)
        .map(|r| format!("{} {} @ {}", r.case.class, r.case.name, r.ratio))
        .collect();
    assert!(
        dim_room_not_passed.is_empty(),
        "live in a dim room did not pass: {dim_room_not_passed:?}"
    );
    for (class, at_least) in [
        ("live", 6),
        ("live 320x240 10fps q50", 3),
        ("live near-still", 3),
        ("live hand-held camera", 2),
    ] {
        let row = &rows[&("Passive".to_string(), class)];
        assert!(row.sessions >= 4, "{class} sessions {}", row.sessions);
        assert!(row.pass >= at_least, "{class}: passed {}", row.pass);
    }
    assert!(active_passed >= 5, "active live sessions passed");
}

/// The live classes filmed by a clear camera (not the low-light or NUAA controls).
const CLEAR_CAMERA_CLASSES: [&str; 4] = [
    "live",
    "live 320x240 10fps q50",
    "live near-still",
    "live hand-held camera",
];
