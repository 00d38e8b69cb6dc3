//! The screen-light check (issue 29) on the evaluation set, split by source, with the light
//! rendered by the test camera (`light_camera`: simulated light on real footage). Live footage
//! of the held-back half passes at the extremes of the screen-to-ambient ratio (0.05, a bright
//! office; 0.3, a dim room), no attack camera passes in either mode, and too little light
//! ends in `retry` with the `more_screen_light` guidance, never in `fail`.
//! `cargo test -p facegate-liveness-engine --release --test screen_light -- --ignored --nocapture`
//! prints the calibration half (where the cut-offs were set) and every ratio.

mod common;

use std::collections::BTreeMap;

use domain::{ReasonCode, Verdict};
use facegate_liveness_engine::{
    Guidance, Illumination, LightFinding, LightReading, LivenessEvent, SessionMode, VerdictReport,
};
use liveness_rig::light_camera::Scene;
use rand::{Rng, SeedableRng};

use common::eval_attacks::attack_cases;
use common::eval_frames::case_rng;
use common::eval_set::{Case, Half, Split, Truth, live_cases};
use common::{in_parallel, lit};

/// The attack cameras of the issue, by name.
fn attack_scene(name: &str, seed: u64) -> Scene {
    match name {
        "replay on a screen" => Scene::ScreenReplay,
        "print" => Scene::Print,
        "injected, no answer" => Scene::Injected,
        "injected, tinted in sync" => Scene::TintedStream,
        "another session's sequence" => Scene::OtherSequence(Illumination::draw(
            &mut rand::rngs::StdRng::seed_from_u64(seed ^ 0x5eed),
        )),
        other => panic!("no scene {other}"),
    }
}

const ATTACK_CAMERAS: [&str; 5] = [
    "replay on a screen",
    "print",
    "injected, no answer",
    "injected, tinted in sync",
    "another session's sequence",
];

struct LitRun {
    label: String,
    name: String,
    truth: Truth,
    report: VerdictReport,
    light: Option<LightReading>,
    asked_for_light: bool,
}

/// Whether `events` hold the `more_screen_light` guidance.
fn asks_for_light(events: &[LivenessEvent]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            LivenessEvent::Guidance {
                code: Guidance::MoreScreenLight
            }
        )
    })
}

/// One session of `case` through a camera filming `scene` at `ratio`.
fn run_lit(case: &Case, label: &str, scene: Scene, ratio: f32, mode: SessionMode) -> LitRun {
    let seed: u64 = case_rng(&format!("{label} {} {ratio}", case.name)).random();
    let mut session = lit::seeded_session(mode, seed);
    let mut camera = lit::camera_for(&session, scene, ratio, seed);
    let mut asked_for_light = false;
    for (i, frame) in case.frames().into_iter().enumerate() {
        let t = (i as f64 * 1000.0 / f64::from(case.fps)).round() as u64;
        let events = session.push_frame(&camera.capture_stamped(&frame, t), t);
        if std::env::var("LIGHT_EVENTS").is_ok() && !events.is_empty() {
            println!("{label} {} {t}: {events:?}", case.name);
        }
        asked_for_light |= asks_for_light(&events);
        if session.verdict().is_some() {
            break;
        }
    }
    if session.verdict().is_none() {
        asked_for_light |= asks_for_light(&session.close());
    }
    LitRun {
        label: label.to_string(),
        name: case.name.clone(),
        truth: case.truth,
        report: session.conclude(),
        light: session.light_reading(),
        asked_for_light,
    }
}

fn print_runs(runs: &[LitRun]) {
    let mut rows: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    for r in runs {
        let light = r.light.map(|l| l.describe()).unwrap_or_default();
        let blocking: Vec<String> = r
            .report
            .layers
            .iter()
            .filter(|l| {
                l.evidence != facegate_liveness_engine::Evidence::Measured || l.score < 0.35
            })
            .map(|l| format!("{:?}:{:?}", l.layer, l.evidence))
            .collect();
        let room = r
            .report
            .layers
            .iter()
            .find(|l| l.layer == facegate_liveness_engine::Layer::Motion)
            .and_then(|l| {
                l.reason
                    .rsplit_once("; room ")
                    .map(|(_, room)| room.to_string())
            })
            .unwrap_or_default();
        println!(
            "{} | {} | {:?} {:.3} {:?} | {light} | {} | room {room}",
            r.label,
            r.name,
            r.report.verdict,
            r.report.confidence,
            r.report.end_reason,
            blocking.join(",")
        );
        let row = rows.entry(&r.label).or_default();
        row[match r.report.verdict {
            Verdict::Pass => 0,
            Verdict::Retry => 1,
            Verdict::Fail => 2,
        }] += 1;
    }
    let mut reasons: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for r in runs {
        let codes: Vec<String> = r.report.reasons.iter().map(|c| c.code()).collect();
        *reasons.entry((&r.label, codes.join("+"))).or_default() += 1;
    }
    for ((label, codes), n) in &reasons {
        println!("REASONS {label} | {codes} | {n}");
    }
    println!("| class @ ratio | pass | retry | fail |\n|---|---|---|---|");
    for (label, [pass, retry, fail]) in rows {
        println!("| {label} | {pass} | {retry} | {fail} |");
    }
}

/// Print attacks of the evaluation set: photos on paper or card, moved in front of the camera.
const PRINT_CLASSES: [&str; 5] = [
    "print simulation",
    "nuaa print",
    "cut-out in a live room",
    "tight crop",
    "loose crop",
];

/// The live cases of `half` at each of `ratios`; the attack cameras at each of
/// `attack_ratios`: a screen replay, an injected stream that does not answer, one tinted in
/// sync and a face answering another session's sequence, each on the half's live footage;
/// and a print on the half's printed-photo attacks.
fn evaluate(half: Half, ratios: &[f32], attack_ratios: &[f32], mode: SessionMode) -> Vec<LitRun> {
    run_jobs(&lit_jobs(half, ratios, attack_ratios, mode), mode)
}

/// A session to run: the case, its label (class and ratio), the attack camera if any, the
/// ratio.
type LitJob = (Case, String, Option<&'static str>, f32);

/// The sessions [`evaluate`] runs, in order.
fn lit_jobs(half: Half, ratios: &[f32], attack_ratios: &[f32], mode: SessionMode) -> Vec<LitJob> {
    let split = Split::standard();
    let live = live_cases(&split, half);
    let mut jobs: Vec<LitJob> = Vec::new();
    for case in &live {
        for &ratio in ratios {
            jobs.push((
                case.clone(),
                format!("{} @ {ratio}", case.class),
                None,
                ratio,
            ));
        }
    }
    for case in live
        .iter()
        .filter(|c| c.class == "live" && c.name.ends_with("@start"))
    {
        for camera in ATTACK_CAMERAS.iter().filter(|c| **c != "print") {
            for &ratio in attack_ratios {
                let mut attack = case.clone();
                attack.truth = Truth::Attack;
                jobs.push((attack, format!("{camera} @ {ratio}"), Some(*camera), ratio));
            }
        }
    }
    for case in attack_cases(&split, half, mode == SessionMode::Active)
        .into_iter()
        .filter(|c| PRINT_CLASSES.contains(&c.class))
    {
        for &ratio in attack_ratios {
            jobs.push((
                case.clone(),
                format!("print ({}) @ {ratio}", case.class),
                Some("print"),
                ratio,
            ));
        }
    }
    jobs
}

fn run_jobs(jobs: &[LitJob], mode: SessionMode) -> Vec<LitRun> {
    in_parallel(jobs, |(case, label, camera, ratio)| {
        let scene = camera.map_or(Scene::LiveFace, |c| attack_scene(c, case.name.len() as u64));
        run_lit(case, label, scene, *ratio, mode)
    })
}

/// Live footage filmed by a camera that stands still: clear, near-still and low-resolution.
/// The reason codes an attack camera's refusals carry (at least one each; measured on the
/// held-back half, docs/api.md "Reason codes").
fn expected_reasons(label: &str) -> &'static [ReasonCode] {
    use ReasonCode::*;
    if label.starts_with("replay on a screen") {
        &[
            ScreenReplaySuspected,
            PrintSuspected,
            InjectionSuspected,
            NoLightResponse,
            PresentationAttackSuspected,
            ConflictingEvidence,
        ]
    } else if label.starts_with("injected, no answer") {
        &[NoLightResponse]
    } else if label.starts_with("injected, tinted") {
        &[PrintSuspected]
    } else if label.starts_with("another session's sequence") {
        &[InjectionSuspected, NoLightResponse]
    } else {
        // photos on paper or card: flat, flagged by the model, or too little to judge
        &[
            PrintSuspected,
            PresentationAttackSuspected,
            TooLittleMotion,
            FaceNotFound,
            ConflictingEvidence,
        ]
    }
}

const STILL_CAMERA_CLASSES: [&str; 3] = ["live", "live near-still", "live 320x240 10fps q50"];

/// No live session fails, no attack passes, and each attack is refused with at least one of
/// its expected reasons.
fn assert_no_live_fail_and_attacks_refused_for_their_reasons(runs: &[LitRun]) {
    let live_failed: Vec<_> = runs
        .iter()
        .filter(|r| r.truth == Truth::Live && r.report.verdict == Verdict::Fail)
        .map(|r| format!("{} {}", r.label, r.name))
        .collect();
    assert!(
        live_failed.is_empty(),
        "live sessions failed: {live_failed:?}"
    );
    let attacks_passed: Vec<_> = runs
        .iter()
        .filter(|r| r.truth == Truth::Attack && r.report.verdict == Verdict::Pass)
        .map(|r| format!("{} {}", r.label, r.name))
        .collect();
    assert!(
        attacks_passed.is_empty(),
        "attacks passed: {attacks_passed:?}"
    );
    let unexplained: Vec<_> = runs
        .iter()
        .filter(|r| r.truth == Truth::Attack)
        .filter(|r| {
            !r.report
                .reasons
                .iter()
                .any(|c| expected_reasons(&r.label).contains(c))
        })
        .map(|r| format!("{} {} {:?}", r.label, r.name, r.report.reasons))
        .collect();
    assert!(
        unexplained.is_empty(),
        "attacks without their expected reasons: {unexplained:?}"
    );
}

/// CI's share of the sweep below: the first session of each label (class and ratio), each
/// exactly as the sweep runs it. In a dim room (0.3) every live class passes.
#[test]
fn held_back_sample_in_bright_and_dim_light_ends_as_the_sweep_measured() {
    let mut seen = std::collections::BTreeSet::new();
    let jobs: Vec<LitJob> = lit_jobs(
        Half::HeldBack,
        &[0.05, 0.3],
        &[0.05, 0.3],
        SessionMode::Passive,
    )
    .into_iter()
    .filter(|(_, label, _, _)| seen.insert(label.clone()))
    .collect();
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
    // 1e-3 (issue 39), and the weak answer often does not: 2026-11-26, live 4 of 8,
    // 320x240 3 of 4, near-still 4 of 4, hand-held 1 of 4 passed, every other one `retry`
    // (`no_light_response`), none `fail` (docs/accuracy.md). Held to at least those counts.
    for class in STILL_CAMERA_CLASSES
        .into_iter()
        .chain(["live hand-held camera"])
    {
        let (passed, sessions) = passed_of(class, 0.3);
        assert!(sessions >= 4, "{class} @ 0.3: {sessions} sessions");
        assert_eq!(passed, sessions, "{class} @ 0.3");
    }
    for (class, at_least) in [
        ("live", 4),
        ("live near-still", 4),
        ("live 320x240 10fps q50", 3),
        ("live hand-held camera", 1),
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

#[test]
#[ignore = "prints the calibration half and the held-back half at every ratio (minutes)"]
fn calibration() {
    let ratios = [0.02, 0.05, 0.1, 0.2, 0.3];
    for half in [Half::Calibration, Half::HeldBack] {
        println!("== {half:?}");
        print_runs(&evaluate(half, &ratios, &[0.05, 0.3], SessionMode::Passive));
    }
}

/// A live face in a dim room behind a slow mobile link, from a client that writes no capture
/// times: its frames are timed by arrival, 700 ms after their capture, so the light lines up
/// beyond the delay the check searches. It must not be failed as answering another sequence:
/// the session ends in `retry` (`unaligned`). The same frames with capture times that say so
/// late an answer are attack evidence.
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
            let captured = (i as f64 * 1000.0 / f64::from(case.fps)).round() as u64;
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
    assert_eq!(report.verdict, Verdict::Fail, "{:?}", report.reasons);
}
