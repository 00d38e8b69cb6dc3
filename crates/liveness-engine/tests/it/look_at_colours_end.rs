//! The one look at the colours' end (issue 67): a lit passive session on live footage ends when
//! the colours' window does where the fitted decision's early pass point allows, waits for the
//! camera's settling and the unlit faces where it does not, and takes its look either way.

use std::sync::Arc;

use domain::Verdict;
use facegate_liveness_engine::fitted::FittedDecision;
use facegate_liveness_engine::{
    CAMERA_SETTLE_MS, LivenessConfig, LivenessSession, LookOutcome, MIN_MODEL_FACES, SessionMode,
    VerdictReport,
};
use liveness_rig::eval::{FPS, lit, video};
use liveness_rig::light_camera::Scene;
use liveness_rig::replay;

/// One lit passive session on a live clip (light at 0.2 of the ambient, the tests' seed 29)
/// under the bundled decision with `early_pass_at`, acting on its look or not; the session and
/// the capture time of its last analysed frame.
fn session(early_pass_at: Option<f64>, act_on_look: bool) -> (LivenessSession, u64) {
    let bundled = FittedDecision::bundled().expect("the bundled coefficients");
    let config = LivenessConfig {
        fitted_decision: Some(Arc::new(FittedDecision {
            early_pass_at,
            ..bundled
        })),
        verdict_at_colours_end: act_on_look,
        ..LivenessConfig::default()
    };
    let mut session = lit::seeded_session_with(SessionMode::Passive, 29, config);
    let mut camera = lit::camera_for(&session, Scene::LiveFace, 0.2, 29);
    let recording = video("expressions-man-2");
    let frames = recording
        .frames
        .iter()
        .map(|path| std::fs::read(path).expect("frame"));
    replay::play_through(&mut session, frames, FPS, Some(&mut camera));
    let last = session
        .observations()
        .last()
        .map_or(0, |frame| frame.timestamp_ms);
    (session, last)
}

/// A report as it reads, to compare two (a layer's unmeasured features are NaN, which no
/// `==` holds equal).
fn same(report: Option<&VerdictReport>) -> String {
    format!("{report:?}")
}

#[test]
fn a_sure_session_ends_at_its_look_and_an_unsure_one_waits_for_the_unlit_faces() {
    let (waited, waited_until) = session(None, true);
    let settled_from = waited.model_window_start_ms().expect("a lit session");
    let look = waited
        .early_look()
        .expect("a look at the colours' end")
        .clone();
    let verdict = waited.verdict().expect("a verdict").clone();
    assert_eq!(verdict.verdict, Verdict::Pass, "{verdict:?}");
    assert!(
        waited_until >= settled_from,
        "without an early point the session waits"
    );
    let at_look = look
        .fitted_live_probability
        .expect("the look's probability");
    assert_eq!(look.verdict, Verdict::Pass, "{look:?}");

    // an early point the look reaches: the session ends with the look, before the settling
    let (early, early_until) = session(Some(f64::from(at_look)), true);
    assert_eq!(
        same(early.verdict()),
        same(early.early_look()),
        "the verdict is the look's"
    );
    assert_eq!(
        same(early.early_look()),
        same(Some(&look)),
        "the same look either way"
    );
    let ended_at_look = match early.look_outcome() {
        LookOutcome::Taken {
            ended,
            verdict,
            live_probability,
            ..
        } => ended && verdict == Verdict::Pass && live_probability == Some(at_look),
        LookOutcome::NotDue | LookOutcome::TooFewFaces { .. } => false,
    };
    assert!(ended_at_look, "{:?}", early.look_outcome());
    assert!(
        early_until < settled_from - CAMERA_SETTLE_MS / 2,
        "ended at {early_until} ms, the colours' window ends at {} ms",
        settled_from - CAMERA_SETTLE_MS
    );

    // reached but not acted on (the development set's look table): the session waits
    let (recorded, recorded_until) = session(Some(f64::from(at_look)), false);
    assert_eq!(same(recorded.early_look()), same(Some(&look)));
    assert_eq!(same(recorded.verdict()), same(Some(&verdict)));
    assert_eq!(recorded_until, waited_until);
    let looked_and_waited = match recorded.look_outcome() {
        LookOutcome::Taken {
            ended,
            judged,
            at_ms,
            ..
        } => !ended && judged >= MIN_MODEL_FACES && at_ms < settled_from,
        LookOutcome::NotDue | LookOutcome::TooFewFaces { .. } => false,
    };
    assert!(looked_and_waited, "{:?}", recorded.look_outcome());

    // a point above the look's probability: the session waits
    let (unsure, unsure_until) = session(Some(f64::from(at_look) + 1e-3), true);
    assert_eq!(same(unsure.verdict()), same(Some(&verdict)));
    assert_eq!(unsure_until, waited_until);
}
