//! The screen-light check on an overloaded server (issue 29's capacity goal): frames go through
//! the real one-frame mailbox, and a worker takes one only every ~300 ms, as a server running
//! 32 sessions on 2 cores does. The frames the mailbox replaced while the colours were shown
//! are set aside, and the light check reads them: live footage of the held-back half (light
//! rendered by the test camera, simulated) still follows the sequence and passes. Without the
//! set-aside frames the same sessions can only end `retry` (`too_few_frames`), which is what
//! capped the capacity with the light on at 24 sessions (docs/benchmarks.md). At a take a
//! second (64 sessions on 2 cores, issue 42) the set-aside lane thins itself evenly over the
//! whole second, and the frames replaced in the first unlit 1.5 s after the colours are set
//! aside too, for the anti-spoof model: the hold gets its ten model-judged faces by the first
//! take after that span, and the live sessions still pass. A worker that is behind analyses a
//! key frame a second while the colours show, and embeds every other face once it has two;
//! after the colours, it judges the frames between key frames by the anti-spoof model alone.
//! The look at the colours' end under load: `look_under_load`.

use liveness_rig::eval;

use domain::Verdict;
use facegate_liveness_engine::mailbox::{LatestFrame, PendingFrame, TakenFrame, model_lane};
use facegate_liveness_engine::{
    KEY_FRAME_GAP_MS, LANE_KEY_FRAME_GAP_MS, LightFinding, LightReading, LivenessConfig,
    LivenessSession, LookOutcome, SessionMode, VerdictReport,
};
use liveness_rig::light_camera::Scene;
use rand::Rng;

use eval::frames::case_rng;
use eval::set::{Case, Half, Split, live_cases};
use eval::{in_parallel, lit};

mod look_under_load;

/// Capture time between two frames a busy worker takes.
const WORKER_PERIOD_MS: u64 = 300;
/// The same, on a server analysing each session about once a second.
const SATURATED_WORKER_PERIOD_MS: u64 = 1_000;
/// Frames streamed a session (20 s at 15 fps): a server that takes a session's frame once a
/// second needs more than the clip's 10 s to see five faces the model may judge after the
/// colours, as a client keeps streaming until the verdict.
const SESSION_FRAMES: usize = 300;
/// A mid-range screen-to-ambient ratio, as the load generator renders.
const RATIO: f32 = 0.2;

struct Run {
    name: String,
    report: VerdictReport,
    light: Option<LightReading>,
    /// Capture time of the frame that brought the verdict (`None`: the clip ran out first).
    verdict_at_ms: Option<u64>,
    /// Capture times of the analysed frames.
    analyses_ms: Vec<u64>,
    /// Capture times of the unlit frames the anti-spoof model judged in a carried face box.
    carried_ms: Vec<u64>,
    /// The same, of the frames the colours may tint (for the look at the colours' end).
    coloured_carried_ms: Vec<u64>,
    /// What became of the session's look at the colours' end.
    look: LookOutcome,
    /// Whether the session ended with it.
    ended_at_look: bool,
    /// Capture time the colours' window ends at.
    window_end_ms: u64,
    /// Capture time from which the anti-spoof model may judge frames.
    model_window_start_ms: u64,
    /// Per analysed face, in order: whether it was sampled for identity.
    embedded: Vec<bool>,
    /// The capture time between takes that ended while the colours showed.
    take_gaps_ms: Vec<u64>,
}

/// One passive session of `case` whose worker takes a frame every `period_ms`, the first at
/// `first_take_ms`; `set_aside`: whether the frames replaced meanwhile reach the light check;
/// `act_on_look`: whether the session may end with its look at the colours' end, which it then
/// may take while its worker is behind (`LivenessConfig::look_when_behind`); `crowded`: whether
/// its replica streams more sessions than it judges faces under the colours for
/// (`LivenessSession::set_replica_crowded`, told at every take).
fn run_overloaded(
    case: &Case,
    set_aside: bool,
    period_ms: u64,
    first_take_ms: u64,
    act_on_look: bool,
    crowded: bool,
) -> Run {
    let seed: u64 = case_rng(&format!("overloaded {}", case.name)).random();
    let config = LivenessConfig {
        verdict_at_colours_end: act_on_look,
        look_when_behind: act_on_look,
        ..LivenessConfig::default()
    };
    let mut session = lit::seeded_session_with(SessionMode::Passive, seed, config);
    assert!(session.illumination().is_some(), "the light check is on");
    let mut camera = lit::camera_for(&session, Scene::LiveFace, RATIO, seed);
    let mailbox = LatestFrame::for_session(&session);
    let mut next_take = first_take_ms;
    let mut verdict_at_ms = None;
    for (i, frame) in back_and_forth(case.frames(), SESSION_FRAMES)
        .into_iter()
        .enumerate()
    {
        let t = liveness_rig::replay::frame_capture_ms(i, case.fps);
        mailbox.put(PendingFrame {
            jpeg: camera.capture_stamped(&frame, t),
            timestamp_ms: t,
        });
        if t < next_take {
            continue;
        }
        next_take = t + period_ms;
        let Some(taken) = mailbox.take() else {
            continue;
        };
        let taken = match set_aside {
            true => taken,
            // the server before the lane: it analysed every frame it took
            false => TakenFrame {
                set_aside: Vec::new(),
                replaced: 0,
                ..taken
            },
        };
        session.set_replica_crowded(crowded);
        session.push_taken(&taken);
        if session.verdict().is_some() {
            verdict_at_ms = Some(t);
            break;
        }
    }
    let window_end_ms = session.illumination().map_or(0, |s| s.window_end_ms());
    let model_window_start_ms = session.model_window_start_ms().unwrap_or(0);
    let observations = session.observations();
    Run {
        name: case.name.clone(),
        analyses_ms: observations.iter().map(|o| o.timestamp_ms).collect(),
        carried_ms: carried(&session, false),
        coloured_carried_ms: carried(&session, true),
        look: session.look_outcome(),
        ended_at_look: matches!(
            session.look_outcome(),
            LookOutcome::Taken { ended: true, .. }
        ),
        window_end_ms,
        model_window_start_ms,
        embedded: observations
            .iter()
            .filter_map(|o| o.face.as_ref())
            .map(|face| face.embedding.is_some())
            .collect(),
        take_gaps_ms: session.take_gaps_under_colours_ms().to_vec(),
        report: session.conclude(),
        light: session.light_reading(),
        verdict_at_ms,
    }
}

/// Capture times of the frames the anti-spoof model judged in a carried face box, under the
/// colours or not.
fn carried(session: &LivenessSession, under_colours: bool) -> Vec<u64> {
    session
        .carried_box_judgements()
        .iter()
        .filter(|j| j.under_colours == under_colours)
        .map(|j| j.timestamp_ms)
        .collect()
}

/// `frames` played forward, then back, and so on, until there are `count`: a person who keeps
/// swaying (the test camera adds fresh noise to every frame, so no two are alike).
fn back_and_forth(frames: Vec<Vec<u8>>, count: usize) -> Vec<Vec<u8>> {
    let turn: Vec<usize> = (0..frames.len())
        .chain((1..frames.len() - 1).rev())
        .collect();
    turn.iter()
        .cycle()
        .take(count)
        .map(|&i| frames[i].clone())
        .collect()
}

fn held_back_live_cases() -> Vec<Case> {
    let cases: Vec<Case> = live_cases(&Split::standard(), Half::HeldBack)
        .into_iter()
        .filter(|c| c.class == "live")
        .collect();
    assert!(cases.len() >= 4, "{} held-back live cases", cases.len());
    cases
}

fn print(label: &str, run: &Run) {
    let light = run.light.map(|l| l.describe()).unwrap_or_default();
    println!(
        "{label}: {} {:?} {:.2} {:?} at {:?} ms, fitted p {:?} | {light}",
        run.name,
        run.report.verdict,
        run.report.confidence,
        run.report.reasons,
        run.verdict_at_ms,
        run.report.fitted_live_probability
    );
}

#[test]
fn an_overloaded_server_reads_the_light_from_the_frames_it_set_aside() {
    let cases = held_back_live_cases();
    let jobs: Vec<(Case, bool)> = cases
        .iter()
        .flat_map(|case| [(case.clone(), true), (case.clone(), false)])
        .collect();
    let runs = in_parallel(&jobs, |(case, set_aside)| {
        (
            *set_aside,
            run_overloaded(case, *set_aside, WORKER_PERIOD_MS, 0, false, false),
        )
    });
    for (set_aside, run) in &runs {
        print(&format!("set aside {set_aside}"), run);
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
    for (_, run) in runs.iter().filter(|(set_aside, _)| *set_aside) {
        assert_key_frames_only(run);
    }
}

/// Behind the session, the worker analysed a key frame a second while the colours showed, and
/// read the other frames it took for the light only; after the colours, it judged the frames
/// between key frames by the anti-spoof model alone, in the key frame's face box (issue 42).
fn assert_key_frames_only(run: &Run) {
    let lit: Vec<u64> = run
        .analyses_ms
        .iter()
        .copied()
        .filter(|&t| t < run.window_end_ms)
        .collect();
    let one_a_second = |times: &[u64]| times.windows(2).all(|w| w[1] - w[0] >= KEY_FRAME_GAP_MS);
    assert!(
        !lit.is_empty() && one_a_second(&lit),
        "{}: analyses while lit at {lit:?} ms",
        run.name
    );
    let first_carried = run.carried_ms.first().copied();
    assert!(
        first_carried.is_some_and(|t| t >= run.window_end_ms),
        "{}: judged in a carried box at {:?} ms, the colours' window ends at {} ms",
        run.name,
        run.carried_ms,
        run.window_end_ms
    );
    let after: Vec<u64> = run
        .analyses_ms
        .iter()
        .copied()
        .filter(|&t| first_carried.is_some_and(|first| t > first))
        .collect();
    assert!(
        one_a_second(&after),
        "{}: analyses after the first carried judgement at {after:?} ms",
        run.name
    );
}

/// Sessions of the held-back live cases whose worker takes a frame a second, the first at
/// `first_take_ms`, waiting past their look at the colours' end (the path of a session that
/// does not pass there), printed under `label`; each followed the light and passed.
fn saturated_runs(label: &str, first_take_ms: u64) -> Vec<Run> {
    let runs = in_parallel(&held_back_live_cases(), |case| {
        run_overloaded(
            case,
            true,
            SATURATED_WORKER_PERIOD_MS,
            first_take_ms,
            false,
            false,
        )
    });
    for run in &runs {
        print(label, run);
    }
    for run in &runs {
        let finding = run.light.map(|l| l.finding);
        assert_eq!(finding, Some(LightFinding::Follows), "{}", run.name);
        assert_eq!(run.report.verdict, Verdict::Pass, "{}", run.name);
    }
    runs
}

#[test]
fn a_server_that_analyses_each_session_once_a_second_still_passes_live_faces() {
    for run in saturated_runs("a take a second", 0) {
        // analyses a second apart: after the first two samples, every other face is
        // sampled for identity, never two in a row (issue 42)
        let second = (0..run.embedded.len()).filter(|&i| run.embedded[i]).nth(1);
        let after_two = second.map_or(&[][..], |i| &run.embedded[i..]);
        assert!(
            after_two.windows(2).all(|w| !(w[0] && w[1]))
                && after_two.get(1..).is_some_and(|rest| rest.contains(&true)),
            "{}: faces sampled for identity {:?}",
            run.name,
            run.embedded
        );
        // the model lane: the frames replaced in the first unlit 1.5 s are judged at the next
        // take, so the hold has its ten model-judged faces by the first take after that span
        // (before the lane, it waited for five spread over two seconds, one a take)
        let lane = model_lane(run.model_window_start_ms);
        let lane_end = lane.end;
        assert!(
            run.verdict_at_ms
                .is_some_and(|t| t <= lane_end + SATURATED_WORKER_PERIOD_MS),
            "{}: verdict at {:?} ms, the model lane ends at {lane_end} ms",
            run.name,
            run.verdict_at_ms
        );
        let in_lane = run
            .carried_ms
            .iter()
            .filter(|&&t| lane.contains(&t))
            .count();
        assert!(
            in_lane >= 5,
            "{}: {in_lane} faces judged in the model lane, at {:?} ms",
            run.name,
            run.carried_ms
        );
        // in the lane's span a key frame of the camera's settling still counts as recent, so
        // no frame there is analysed in full within LANE_KEY_FRAME_GAP_MS of the last analysis
        let lane_key_frames_apart = run
            .analyses_ms
            .windows(2)
            .all(|w| !lane.contains(&w[1]) || w[1] - w[0] >= LANE_KEY_FRAME_GAP_MS);
        assert!(
            lane_key_frames_apart,
            "{}: analyses at {:?} ms, the model lane spans {lane:?} ms",
            run.name, run.analyses_ms
        );
    }
}

#[test]
fn a_first_analysis_two_seconds_into_the_colours_still_reads_the_frames_before_it() {
    // the newest frame's face gives the box the frames set aside before it are read in
    for run in saturated_runs("first take at 2 s", 2_000) {
        let frames = run.light.map_or(0, |l| l.frames);
        // measured (2026-11-27): 40–45 lit frames; the 16 set aside before the first take
        // are among them (read before it, they had no face box and were passed over)
        assert!(frames >= 36, "{}: {frames} lit frames", run.name);
    }
}
