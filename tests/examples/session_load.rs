//! Session capacity: N concurrent passive sessions over real WebSockets, each streaming a shared
//! live video at 15 fps with the light of its session's colour sequence rendered on the face
//! (simulated, rendered ahead of time), against a running server. Prints, per N, time to verdict (p50, p95),
//! how many results read `in_progress` when read right after the verdict, the time until the
//! result reads `completed` (p95, polled every 500 ms while it does not), frames sent per
//! session, how many verdicts were `pass`, and the reason codes of the others (read with the
//! key, as a backend would). Each frame carries its capture time
//! (`liveness_engine::capture_time`) unless `FACEGATE_LOAD_STAMPS=0`; `FACEGATE_LOAD_VERBOSE=1`
//! prints the layers of each session that did not pass. `FACEGATE_LOAD_CACHE=folder` keeps
//! the rendered footage there between runs (empty it when the rendering camera changes).
//! `FACEGATE_LOAD_SPREAD_S=seconds` starts the N sessions evenly over that time instead of all
//! at once (arrivals spread out, as a service's users come); each session's time to verdict
//! still counts from its own start.
//!
//! `FACEGATE_URL=http://127.0.0.1:8080 FACEGATE_KEY=fg_… cargo run --release -p
//! facegate-blackbox-tests --example session_load -- 1 4 8 16 32` (bench/sessions.sh does it all).

use std::time::{Duration, Instant};

use facegate_blackbox_tests::live::{self, video_frames};
use serde_json::json;

/// Display-to-camera delay of the rendered light.
const LIGHT_DELAY_MS: u64 = 150;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// How often a session's result is read until it is `completed`.
const RECORD_POLL: Duration = Duration::from_millis(500);

/// The tenant's read of session `id` made as soon as its stream closed after the verdict
/// (whether it said `in_progress`), then repeated every [`RECORD_POLL`] while it reads
/// `in_progress` (for at most 30 s); the last read, and when it was made, in seconds since
/// `began`.
fn read_completed(
    base_url: &str,
    key: &str,
    id: &str,
    began: Instant,
) -> (facegate_blackbox_tests::Reply, bool, f64) {
    let url = format!("{base_url}/api/v1/session/{id}/result");
    let pending = |reply: &facegate_blackbox_tests::Reply| {
        reply.status == 200 && reply.body["status"] == "in_progress"
    };
    let mut keyed = facegate_blackbox_tests::get(&url, Some(key));
    let pending_at_verdict = pending(&keyed);
    let deadline = Instant::now() + Duration::from_secs(30);
    while pending(&keyed) && Instant::now() < deadline {
        std::thread::sleep(RECORD_POLL);
        keyed = facegate_blackbox_tests::get(&url, Some(key));
    }
    (keyed, pending_at_verdict, began.elapsed().as_secs_f64())
}

fn main() {
    let base_url = std::env::var("FACEGATE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".into());
    let key = std::env::var("FACEGATE_KEY").expect("FACEGATE_KEY: an API key of the server");
    let counts: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let counts = if counts.is_empty() {
        vec![1, 4, 8, 16, 32]
    } else {
        counts
    };
    // frames carry their capture time, as the web UI's do; FACEGATE_LOAD_STAMPS=0 leaves them
    // out, so the server times them by arrival (a before/after on one binary)
    let stamped = std::env::var("FACEGATE_LOAD_STAMPS").map_or(true, |v| v != "0");
    let spread = std::env::var("FACEGATE_LOAD_SPREAD_S")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(Duration::ZERO, Duration::from_secs_f64);
    let videos = [
        "webcam-man-1",
        "expressions-woman-1",
        "talking-woman",
        "expressions-man-glasses",
    ];
    // each clip rendered once under every colour of the light check's palette (simulated
    // light of a live face at a screen-to-ambient ratio of 0.2), so the client does no
    // rendering while it streams
    let cache = std::env::var_os("FACEGATE_LOAD_CACHE").map(std::path::PathBuf::from);
    let clips: Vec<live::PaletteFrames> = videos
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let render = || {
                live::PaletteFrames::render(
                    &video_frames(v, 15, 0.0, 8.0),
                    0.2,
                    LIGHT_DELAY_MS,
                    i as u64,
                )
            };
            match &cache {
                Some(dir) => live::PaletteFrames::kept_in(
                    &dir.join(format!("{v}-{i}")),
                    LIGHT_DELAY_MS,
                    render,
                ),
                None => render(),
            }
        })
        .collect();
    // `live::open` loads the rendering camera's face engine before the socket opens; with the
    // footage from the cache nothing has loaded it yet, and the first sessions of this process
    // would count its load (about 0.6 s) in their time to verdict: load it before any is timed
    facegate_blackbox_tests::engine();
    println!(
        "| sessions | pass | time to verdict p50 (s) | p95 (s) | read `in_progress` at the verdict | result completed p95 (s) | frames sent / session | wall (s) | reasons of the others |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in counts {
        let start = Instant::now();
        let results: Vec<(bool, f64, usize, String, f64, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .map(|i| {
                    let (base_url, key, frames) = (&base_url, &key, &clips[i % clips.len()]);
                    scope.spawn(move || {
                        std::thread::sleep(spread.mul_f64(i as f64 / n as f64));
                        let created = facegate_blackbox_tests::create_managed_session_at(
                            base_url,
                            key,
                            json!({"mode": "passive"}),
                        );
                        let id = created["session_id"].as_str().expect("id").to_owned();
                        let token = created["token"].as_str().expect("token").to_owned();
                        let began = Instant::now();
                        let mut socket = live::open(base_url, &id, &token);
                        let outcome = live::stream_prerendered(
                            &mut socket,
                            frames,
                            15,
                            Duration::from_secs(60),
                            stamped,
                        );
                        let pass = outcome.verdict().is_some_and(|v| v["verdict"] == "pass");
                        let elapsed = began.elapsed().as_secs_f64();
                        // why a session did not pass, as its tenant's backend reads it at the
                        // verdict (and, should that say `in_progress`, once it is `completed`)
                        let (keyed, pending_at_verdict, recorded) =
                            read_completed(base_url, key, &id, began);
                        let reasons = keyed.body["reasons"]
                            .as_array()
                            .map(|r| {
                                r.iter()
                                    .filter_map(|c| c.as_str())
                                    .collect::<Vec<_>>()
                                    .join("+")
                            })
                            .unwrap_or_default();
                        if !pass && std::env::var_os("FACEGATE_LOAD_VERBOSE").is_some() {
                            eprintln!(
                                "{id}: {} {}; stream: close {:?}, error {:?}, {} messages, last {:?}",
                                keyed.body["verdict"],
                                keyed.body["layers"],
                                outcome.close_code,
                                outcome.error_code(),
                                outcome.messages.len(),
                                outcome.messages.last()
                            );
                        }
                        (
                            pass,
                            elapsed,
                            outcome.frames_sent,
                            reasons,
                            recorded,
                            pending_at_verdict,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("session thread"))
                .collect()
        });
        let mut times: Vec<f64> = results.iter().map(|r| r.1).collect();
        times.sort_by(f64::total_cmp);
        let mut recorded: Vec<f64> = results.iter().map(|r| r.4).collect();
        recorded.sort_by(f64::total_cmp);
        let passed = results.iter().filter(|r| r.0).count();
        let pending_at_verdict = results.iter().filter(|r| r.5).count();
        let frames = results.iter().map(|r| r.2).sum::<usize>() as f64 / n as f64;
        let mut reasons = std::collections::BTreeMap::<&str, usize>::new();
        for r in results.iter().filter(|r| !r.0) {
            *reasons.entry(r.3.as_str()).or_default() += 1;
        }
        println!(
            "| {n} | {passed}/{n} | {:.2} | {:.2} | {pending_at_verdict}/{n} | {:.2} | {frames:.0} | {:.1} | {reasons:?} |",
            percentile(&times, 50.0),
            percentile(&times, 95.0),
            percentile(&recorded, 95.0),
            start.elapsed().as_secs_f64()
        );
    }
}
