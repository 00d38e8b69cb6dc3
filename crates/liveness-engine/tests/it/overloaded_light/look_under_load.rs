//! The look at the colours' end on an overloaded server (issue 67): a worker behind the
//! session judges about one face a colour step in the key frame's box, so a live session passes
//! at its look whether the worker comes back every 300 ms or every second; a worker back every
//! two seconds, or a replica crowded past its share (`LivenessSession::set_replica_crowded`),
//! spares the model under the colours, and the session waits for its unlit faces. The harness
//! (the mailbox, the worker's period, the held-back live cases) is the parent module's.

use facegate_liveness_engine::{COLOURED_JUDGEMENT_GAP_MS, MIN_MODEL_FACES, WORKER_BACK_SOON_MS};

use super::*;

#[test]
fn a_loaded_server_judges_faces_under_the_colours_and_a_live_session_passes_at_its_look() {
    // a take every 300 ms (32 sessions on two cores) and a take a second (64 at best): behind
    // the session while the colours show, the worker judges about one face a colour step in
    // the key frame's box, so the session looks at the colours' end and ends there, before the
    // camera's settling and the model lane (issue 67); a worker back every two seconds (64 as
    // issue 42 measured) would have the hold's faces only after the settling, and spares the
    // model under the colours
    let jobs: Vec<(Case, u64)> = held_back_live_cases()
        .into_iter()
        .flat_map(|case| {
            [
                WORKER_PERIOD_MS,
                SATURATED_WORKER_PERIOD_MS,
                2 * SATURATED_WORKER_PERIOD_MS,
            ]
            .map(|period| (case.clone(), period))
        })
        .collect();
    let runs = in_parallel(&jobs, |(case, period)| {
        (*period, run_overloaded(case, true, *period, 0, true, false))
    });
    for (period, run) in &runs {
        print(
            &format!("a take every {period} ms, acting on the look"),
            run,
        );
    }
    for (period, run) in &runs {
        // the worker's time away under the colours, as the server logs it: its period, to
        // the next frame
        assert!(
            !run.take_gaps_ms.is_empty()
                && run
                    .take_gaps_ms
                    .iter()
                    .all(|&gap| (*period..*period + 100).contains(&gap)),
            "{} ({period} ms): takes {:?} ms apart under the colours",
            run.name,
            run.take_gaps_ms
        );
    }
    for (period, run) in runs
        .iter()
        .filter(|(period, _)| *period >= WORKER_BACK_SOON_MS)
    {
        assert!(
            run.coloured_carried_ms.is_empty()
                && matches!(run.look, LookOutcome::TooFewFaces { judged, .. }
                    if judged < MIN_MODEL_FACES),
            "{} ({period} ms): faces judged under the colours at {:?} ms, look {:?}",
            run.name,
            run.coloured_carried_ms,
            run.look
        );
        assert_eq!(run.report.verdict, Verdict::Pass, "{}", run.name);
    }
    let runs: Vec<&(u64, Run)> = runs
        .iter()
        .filter(|(period, _)| *period < WORKER_BACK_SOON_MS)
        .collect();
    for (period, run) in &runs {
        let coloured = &run.coloured_carried_ms;
        assert!(
            coloured.len() >= MIN_MODEL_FACES
                && coloured
                    .windows(2)
                    .all(|w| w[1] - w[0] >= COLOURED_JUDGEMENT_GAP_MS)
                && coloured.iter().all(|&t| t <= run.window_end_ms),
            "{} ({period} ms): faces judged under the colours at {coloured:?} ms, analysed at {:?} ms, window ends at {} ms",
            run.name,
            run.analyses_ms,
            run.window_end_ms
        );
        assert!(
            run.carried_ms.is_empty() || !run.ended_at_look,
            "{}: unlit faces judged before a verdict at the look",
            run.name
        );
        assert_eq!(run.report.verdict, Verdict::Pass, "{}", run.name);
    }
    let at_look = runs.iter().filter(|(_, run)| run.ended_at_look).count();
    for (period, run) in runs.iter().filter(|(_, run)| run.ended_at_look) {
        // at the first take once the window is over and the hold has its time: by the first
        // take after the settling at the latest, with no unlit face judged (above), where a
        // session that does not look waits for the model lane's ten
        assert!(
            matches!(run.look, LookOutcome::Taken { at_ms, judged, verdict: Verdict::Pass, .. }
                if run.verdict_at_ms.is_some_and(|t| at_ms <= t) && judged >= MIN_MODEL_FACES)
                && run
                    .verdict_at_ms
                    .is_some_and(|t| t < run.model_window_start_ms + period),
            "{}: ended at its look at {:?} ms, the window ends at {} ms",
            run.name,
            run.verdict_at_ms,
            run.window_end_ms
        );
    }
    // measured (2026-12-06): every one, at fitted probabilities of 0.70-0.96 against the early
    // pass point's 0.512, on the same faces at either rate (the lanes keep every lit frame)
    assert_eq!(at_look, runs.len(), "sessions that ended at their look");
}

#[test]
fn a_crowded_replica_spares_the_model_under_the_colours_and_the_session_waits() {
    // the worker back every 300 ms, as at 32 sessions on two cores, but the replica streams
    // more sessions than it judges faces under the colours for: no face is judged there, the
    // session takes no look and passes after the camera's settling and its unlit faces
    let runs = in_parallel(&held_back_live_cases(), |case| {
        run_overloaded(case, true, WORKER_PERIOD_MS, 0, true, true)
    });
    for run in &runs {
        print("a take every 300 ms, crowded", run);
        assert!(
            run.coloured_carried_ms.is_empty()
                && matches!(
                    run.look,
                    LookOutcome::TooFewFaces { .. } | LookOutcome::Taken { ended: false, .. }
                )
                && !run.ended_at_look,
            "{}: faces judged under the colours at {:?} ms, look {:?}",
            run.name,
            run.coloured_carried_ms,
            run.look
        );
        assert_eq!(run.report.verdict, Verdict::Pass, "{}", run.name);
    }
}
