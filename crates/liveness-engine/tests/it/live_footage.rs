//! Live footage must pass: every shared video replayed at its own timestamps in passive mode
//! (several sessions per video, starting at different points, the screen's light rendered by
//! the test camera at ratios from 0.05 to 0.3), and labelled videos answering
//! randomly drawn challenges through a scripted camera in active mode. The asserted rates are
//! the measured ones (docs/accuracy.md).

use liveness_rig::eval;

use domain::Verdict;
use facegate_liveness_engine::challenge::draw_challenges_from;
use facegate_liveness_engine::{ChallengeKind, LivenessConfig, LivenessSession, SessionMode};
use liveness_rig::light_camera::{LightCamera, Scene};
use liveness_rig::replay::{self, ClassSummary, LabelFile, ReplayOutcome, replay_scripted};
use rand::SeedableRng;

use eval::{FPS, VIDEOS, engine, in_parallel, lit, video};

/// Seconds between the starts of two passive sessions on one video.
const SESSION_SPACING_S: f32 = 4.0;
/// Most passive sessions per video.
const SESSIONS_PER_VIDEO: usize = 3;
/// Screen-light to ambient ratios the rendering camera uses, in turn.
const LIGHT_RATIOS: [f32; 4] = lit::RATIOS;

fn print(outcome: &ReplayOutcome) {
    println!(
        "{} {:?} {:.3} {:?} {}",
        outcome.recording,
        outcome.report.verdict,
        outcome.report.confidence,
        outcome.challenges,
        serde_json::to_string(&outcome.report.layers).unwrap_or_default()
    );
}

#[test]
fn every_video_passes_in_passive_mode() {
    let outcomes: Vec<ReplayOutcome> = in_parallel(&VIDEOS, |name| {
        let recording = video(name);
        let spacing = (SESSION_SPACING_S * FPS) as usize;
        // a session needs about 4 s of footage
        let usable = recording.frames.len().saturating_sub((4.0 * FPS) as usize);
        (0..=usable)
            .step_by(spacing)
            .take(SESSIONS_PER_VIDEO)
            .enumerate()
            .map(|(k, start)| {
                // the screen's light rendered onto the footage (simulated), at every ratio
                // from a bright office to a dim room
                let ratio = LIGHT_RATIOS[k % LIGHT_RATIOS.len()];
                let seed = start as u64 * 31 + name.len() as u64;
                let mut camera = LightCamera::new(engine(), Scene::LiveFace, ratio, seed);
                let mut session = lit::seeded_session(SessionMode::Passive, seed);
                // a clip shorter than a session plays on back and forth, as a person who
                // keeps swaying would (one is 3.1 s)
                let mut order: Vec<usize> = (start..recording.frames.len()).collect();
                while order.len() < 150 && recording.frames.len() > 1 {
                    let last = *order.last().unwrap_or(&0);
                    let back = last.checked_sub(1).unwrap_or(1);
                    order.extend((0..=back).rev().chain(1..recording.frames.len()));
                }
                let frames = order
                    .iter()
                    .map(|&i| std::fs::read(&recording.frames[i]).expect("frame"));
                let (report, sent) =
                    replay::play_through(&mut session, frames, FPS, Some(&mut camera));
                let mut outcome = ReplayOutcome {
                    recording: recording.name.clone(),
                    report,
                    challenges: Vec::new(),
                    frames_sent: sent,
                };
                outcome.recording = format!("{name}@{start} light {ratio}");
                outcome
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    outcomes.iter().for_each(print);
    let summary = ClassSummary::of("live passive", &outcomes);
    println!("{summary:?}");
    // docs/accuracy.md reports 21 live passive sessions
    assert_eq!(summary.sessions, 21, "live passive sessions");
    // measured: 16 of 21 pass and none fails (2026-11-26). Since issue 39 a match to the
    // light must beat what other sessions' sequences reach at a false-match rate of 1e-3, and
    // weak answers at the low ratios end in `retry` (`no_light_response`), never `fail`; before
    // that bar 20 of 21 passed (docs/accuracy.md)
    let failed: Vec<_> = outcomes
        .iter()
        .filter(|o| o.report.verdict == Verdict::Fail)
        .map(|o| &o.recording)
        .collect();
    assert!(failed.is_empty(), "live sessions failed: {failed:?}");
    assert!(
        summary.pass >= 16,
        "{} of 21 live sessions passed",
        summary.pass
    );
}

#[test]
fn labelled_videos_answer_random_challenges_and_pass() {
    let labels =
        LabelFile::parse(include_str!("../data/video_segments.toml")).expect("label file parses");
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let mut plans = Vec::new();
    for labelled in &labels.video {
        // random orders of the actions this footage holds
        let kinds: Vec<ChallengeKind> = ChallengeKind::ALL
            .into_iter()
            .filter(|k| labelled.segments.iter().any(|s| s.kind == (*k).into()))
            .collect();
        if kinds.len() < 2 {
            continue;
        }
        for _ in 0..3 {
            plans.push((
                labelled.clone(),
                draw_challenges_from(&mut rng, &kinds, 3, 4),
            ));
        }
    }
    assert_eq!(plans.len(), 12, "active plans, as docs/accuracy.md reports");
    let indexed: Vec<_> = plans.iter().enumerate().collect();
    let outcomes: Vec<ReplayOutcome> = in_parallel(&indexed, |(index, (labelled, plan))| {
        let recording = video(&labelled.video);
        let seed = 7_000 + *index as u64;
        let mut session = LivenessSession::replaying(
            engine(),
            LivenessConfig::default(),
            SessionMode::Active,
            plan.clone(),
            lit::sequence(seed),
        )
        .expect("session");
        let ratio = lit::ratio_for(*index);
        let mut camera = lit::camera_for(&session, Scene::LiveFace, ratio, seed);
        let mut outcome = replay_scripted(
            &mut session,
            &recording,
            labelled,
            FPS,
            1_500,
            Some(&mut camera),
        )
        .expect("scripted replay");
        outcome.recording = format!("{} light {ratio}", outcome.recording);
        outcome
    });
    outcomes.iter().for_each(print);
    let summary = ClassSummary::of("live active", &outcomes);
    println!("{summary:?}");
    // measured: every plan passes, talking-man-bluescreen's two-frame blink included (the
    // session watches every frame while a blink is asked; docs/accuracy.md, issue 15)
    let failed: Vec<_> = outcomes
        .iter()
        .filter(|o| o.report.verdict != Verdict::Pass)
        .map(|o| format!("{} {:?}", o.recording, o.challenges))
        .collect();
    assert!(
        failed.is_empty(),
        "active sessions that did not pass: {failed:?}"
    );
    assert_eq!(summary.pass, 12, "active sessions passed");
}

/// Also the portrait's cost at the verdict: it starts from the face and first mesh pass its
/// frame's analysis kept, so it runs no selfie detector and one mesh pass (the fit's second),
/// beside the group detector's count of other faces (before: two selfie detector runs and
/// three mesh passes). The session has an engine of its own, so its counts are its own.
#[test]
fn a_passing_session_yields_an_icao_portrait() {
    let recording = video("expressions-man-2");
    let engine = std::sync::Arc::new(
        face_engine::FaceEngine::load(&eval::root().join("models")).expect("models load"),
    );
    let mut session = LivenessSession::new(
        engine.clone(),
        LivenessConfig::default(),
        SessionMode::Passive,
        &mut rand::rngs::StdRng::seed_from_u64(29),
        facegate_liveness_engine::Opening::First,
        facegate_liveness_engine::LivenessPath::Light,
    )
    .expect("session");
    let frames = recording
        .frames
        .iter()
        .map(|path| std::fs::read(path).expect("frame"));
    let mut camera = lit::camera_for(&session, Scene::LiveFace, 0.2, 29);
    let (report, _) = replay::play_through(&mut session, frames, FPS, Some(&mut camera));
    assert_eq!(report.verdict, Verdict::Pass);
    let runs = |model: &str| {
        let stats = engine.inference_stats();
        stats.iter().find(|(m, ..)| m == model).map_or(0, |s| s.1)
    };
    let before = ["detector_selfie", "detector_group", "landmarks"].map(runs);
    let portrait = session.portrait().expect("a best frame").expect("portrait");
    let after = ["detector_selfie", "detector_group", "landmarks"].map(runs);
    let portrait_runs = [0, 1, 2].map(|i| after[i] - before[i]);
    assert_eq!(
        portrait_runs,
        [0, 1, 1],
        "selfie, group and mesh runs of the portrait"
    );
    let decoded = face_engine::Image::decode(&portrait.jpeg).expect("portrait is a JPEG");
    assert_eq!((decoded.width(), decoded.height()), (480, 600));
    let score = portrait.quality.photo_quality_score;
    println!("photo_quality_score {score:.3}");
    assert!(score > 0.6, "photo_quality_score {score}");
}
