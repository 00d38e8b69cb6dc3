//! The screen-light check (issue 29) on the evaluation set, split by source, with the light
//! rendered by the test camera (`light_camera`: simulated light on real footage). Live footage
//! of the held-back half passes at the extremes of the screen-to-ambient ratio (0.05, a bright
//! office; 0.3, a dim room), no attack camera passes in either mode, and too little light
//! ends in `retry` with the `more_screen_light` guidance, never in `fail`.
//! `cargo run -p facegate-liveness-engine --release --example screen_light_calibration` prints
//! the calibration half (where the cut-offs were set) and the held-back half at every ratio.
//!
//! The sessions and what every run is held to are `sessions.rs`; this file holds the tests.

use liveness_rig::eval;
use liveness_rig::eval::screen_light as sessions;

use domain::{ReasonCode, Verdict};
use facegate_liveness_engine::{LightFinding, SessionMode};
use liveness_rig::light_camera::Scene;

use eval::set::{Case, Half, Split, live_cases};
use eval::{first_of_each, in_parallel, lit};
use sessions::{
    LitRun, STILL_CAMERA_CLASSES, assert_no_live_fail_and_attacks_refused_for_their_reasons,
    evaluate, lit_jobs, print_runs, run_jobs, run_lit,
};

/// CI's share of the sweep below: the first session of each label (class and ratio), each
/// exactly as the sweep runs it. In a dim room (0.3) every live class passes.
#[test]
fn held_back_sample_in_bright_and_dim_light_ends_as_the_sweep_measured() {
    let jobs = first_of_each(
        lit_jobs(
            Half::HeldBack,
            &[0.05, 0.3],
            &[0.05, 0.3],
            SessionMode::Passive,
        ),
        |(_, label, _, _)| label.clone(),
    );
    let runs = run_jobs(&jobs, SessionMode::Passive);
    print_runs(&runs);
    assert_no_live_fail_and_attacks_refused_for_their_reasons(&runs);
    for class in STILL_CAMERA_CLASSES
        .into_iter()
        .chain(["live hand-held camera"])
    {
        let label = format!("{class} @ 0.3");
        let run = runs
            .iter()
            .find(|r| r.label == label)
            .unwrap_or_else(|| panic!("{label} in the sample"));
        assert_eq!(run.report.verdict, Verdict::Pass, "{label} {}", run.name);
    }
}

/// The whole held-back half at both ratios (15-30 minutes on 2 vCPU).
#[test]
#[ignore = "the held-back sweep at 0.05 and 0.3 (15-30 minutes on 2 vCPU); its CI sample runs above"]
fn held_back_live_passes_in_bright_and_dim_light_and_no_light_attack_passes() {
    let runs = evaluate(
        Half::HeldBack,
        &[0.05, 0.3],
        &[0.05, 0.3],
        SessionMode::Passive,
    );
    print_runs(&runs);
    assert_no_live_fail_and_attacks_refused_for_their_reasons(&runs);
    let passed_of = |class: &str, ratio: f32| {
        let label = format!("{class} @ {ratio}");
        let runs: Vec<&LitRun> = runs.iter().filter(|r| r.label == label).collect();
        let passed = runs
            .iter()
            .filter(|r| r.report.verdict == Verdict::Pass)
            .count();
        (passed, runs.len())
    };
    // measured: in a dim room every session of a camera that stands still passes, and so
    // does every hand-held one (one clip, expressions-woman-1, is held so close that the
    // model counts only when the light backs it: relief 0.29 ± 0.02). In a bright office
    // (0.05) a match must beat what other sessions' sequences reach at a false-match rate of
    // 1e-3 (issue 39), and the weak answer often does not. With the fitted decision deciding
    // (2026-12-05): live 7 of 8, 320x240 2 of 4, near-still 3 of 4, low light 3 of 4,
    // hand-held 0 of 4 passed (the rules alone, 2026-11-26: 4, 3, 4, –, 1), every other one
    // `retry`, none `fail`: where the light follows but its relief is within about one
    // standard error of 0.12 and motion saw no parallax, a live face reads like the trimmed
    // sheets the model was fitted to stop (docs/accuracy.md). Held to at least those counts;
    // the hand-held class is held only to never failing.
    for class in STILL_CAMERA_CLASSES
        .into_iter()
        .chain(["live hand-held camera"])
    {
        let (passed, sessions) = passed_of(class, 0.3);
        assert!(sessions >= 4, "{class} @ 0.3: {sessions} sessions");
        assert_eq!(passed, sessions, "{class} @ 0.3");
    }
    for (class, at_least) in [
        ("live", 7),
        ("live near-still", 3),
        ("live 320x240 10fps q50", 2),
        ("live low light", 3),
    ] {
        let (passed, _) = passed_of(class, 0.05);
        assert!(passed >= at_least, "{class} @ 0.05: {passed} passed");
    }
}

#[test]
fn too_little_light_ends_in_retry_with_new_guidance_never_fail_or_pass() {
    let split = Split::standard();
    let cases: Vec<Case> = live_cases(&split, Half::HeldBack)
        .into_iter()
        .filter(|c| c.class == "live")
        .collect();
    let runs = in_parallel(&cases, |case| {
        run_lit(
            case,
            "live @ 0.005",
            Scene::LiveFace,
            0.005,
            SessionMode::Passive,
        )
    });
    print_runs(&runs);
    assert!(runs.len() >= 4);
    for run in &runs {
        assert_eq!(run.report.verdict, Verdict::Retry, "{}", run.name);
        assert!(
            run.asked_for_light,
            "{}: no more_screen_light guidance",
            run.name
        );
        assert_eq!(
            run.light.map(|l| l.finding.evidence()),
            Some(facegate_liveness_engine::Evidence::None),
            "{}",
            run.name
        );
    }
}

/// A live face in a dim room behind a slow mobile link, from a client that writes no capture
/// times: its frames are timed by arrival, 700 ms after their capture, so the light lines up
/// beyond the delay the check searches. It must not be failed as answering another sequence:
/// the session ends in `retry` (`unaligned`). The same frames with capture times that say so
/// late an answer read as another sequence's answer, attack evidence that the motion layer and
/// the model dispute (a live head): `retry` with `conflicting_evidence`, never `fail`.
#[test]
fn a_live_face_timed_by_arrival_over_a_slow_link_is_never_failed() {
    const LINK_MS: u64 = 700;
    let split = Split::standard();
    let case = live_cases(&split, Half::HeldBack)
        .into_iter()
        .find(|c| c.class == "live")
        .expect("a held-back live case");
    let run = |stamped: bool| {
        let mut session = lit::seeded_session(SessionMode::Passive, 7);
        let mut camera = lit::camera_for(&session, Scene::LiveFace, 0.3, 7);
        for (i, frame) in case.frames().into_iter().enumerate() {
            let captured = liveness_rig::replay::frame_capture_ms(i, case.fps);
            let frame = match stamped {
                true => camera.capture_stamped(&frame, captured),
                false => camera.capture(&frame, captured),
            };
            session.push_frame(&frame, captured + LINK_MS);
            if session.verdict().is_some() {
                break;
            }
        }
        if session.verdict().is_none() {
            session.close();
        }
        (
            session.conclude(),
            session.light_reading().expect("light on"),
        )
    };
    let (report, light) = run(false);
    assert_eq!(
        light.finding,
        LightFinding::Unaligned,
        "{}",
        light.describe()
    );
    assert_eq!(report.verdict, Verdict::Retry, "{:?}", report.reasons);
    assert!(report.reasons.contains(&ReasonCode::NoLightResponse));
    let (report, light) = run(true);
    assert_eq!(
        light.finding,
        LightFinding::OtherSequence,
        "{}",
        light.describe()
    );
    assert_eq!(report.verdict, Verdict::Retry, "{:?}", report.reasons);
    assert!(
        report.reasons.contains(&ReasonCode::ConflictingEvidence),
        "{:?}",
        report.reasons
    );
}
