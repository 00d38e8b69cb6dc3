//! Many sessions at once on this machine: each session's camera offers 10 frames per second
//! (real time) into its one-frame mailbox; a pool of worker threads (one per core) analyses
//! whatever is newest. Prints, per session count, frames offered, analysed and dropped, and
//! the delay from capture to analysed result (p50, p99).
//! Usage: `sessions_load MODELS_DIR FRAMES_DIR SESSIONS [SECONDS]`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use face_engine::FaceEngine;
use facegate_liveness_engine::mailbox::{LatestFrame, PendingFrame};
use facegate_liveness_engine::{LivenessConfig, LivenessSession, Opening, SessionMode};
use liveness_rig::replay::Recording;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let engine = Arc::new(FaceEngine::load(Path::new(&args[1]))?);
    let recording = Recording::open(Path::new(&args[2]))?;
    let sessions: usize = args[3].parse()?;
    let seconds: u64 = args.get(4).map_or(Ok(10), |s| s.parse())?;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let frames: Arc<Vec<Vec<u8>>> = Arc::new(
        recording
            .frames
            .iter()
            .take(300)
            .map(std::fs::read)
            .collect::<Result<_, _>>()?,
    );
    // long passive holds so sessions keep working for the whole run
    let config = LivenessConfig {
        passive_hold_ms: 600_000,
        max_session_ms: 900_000,
        ..LivenessConfig::default()
    };
    let states: Vec<Arc<Mutex<LivenessSession>>> = (0..sessions)
        .map(|_| {
            LivenessSession::new(
                engine.clone(),
                config.clone(),
                SessionMode::Passive,
                &mut rand::rng(),
                Opening::First,
                facegate_liveness_engine::LivenessPath::Light,
            )
            .map(|s| Arc::new(Mutex::new(s)))
        })
        .collect::<Result<_, _>>()?;
    let boxes: Vec<Arc<LatestFrame>> = states
        .iter()
        .map(|state| {
            let session = state.lock().unwrap_or_else(|e| e.into_inner());
            Arc::new(LatestFrame::for_session(&session))
        })
        .collect();
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let delays = Arc::new(Mutex::new(Vec::new()));
    let cameras: Vec<_> = boxes
        .iter()
        .enumerate()
        .map(|(k, mailbox)| {
            let (mailbox, frames, stop) = (mailbox.clone(), frames.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut offered = 0u64;
                // stagger the cameras over one frame period
                std::thread::sleep(Duration::from_millis((k as u64 * 7) % 100));
                while !stop.load(Ordering::Relaxed) {
                    let t = start.elapsed().as_millis() as u64;
                    mailbox.put(PendingFrame {
                        jpeg: frames[offered as usize % frames.len()].clone(),
                        timestamp_ms: t,
                    });
                    offered += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                offered
            })
        })
        .collect();
    let pool: Vec<_> = (0..workers)
        .map(|w| {
            let (boxes, states, stop, delays) =
                (boxes.clone(), states.clone(), stop.clone(), delays.clone());
            std::thread::spawn(move || {
                let mut analysed = 0u64;
                let mut next = w;
                while !stop.load(Ordering::Relaxed) {
                    let mut idle = true;
                    for _ in 0..boxes.len() {
                        next = (next + 1) % boxes.len();
                        let Ok(mut session) = states[next].try_lock() else {
                            continue;
                        };
                        if let Some(frame) = boxes[next].take() {
                            session.push_taken(&frame);
                            let delay =
                                start.elapsed().as_millis() as u64 - frame.newest.timestamp_ms;
                            delays.lock().map(|mut d| d.push(delay)).ok();
                            analysed += 1;
                            idle = false;
                        }
                    }
                    if idle {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                analysed
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let offered: u64 = cameras.into_iter().map(|c| c.join().unwrap_or(0)).sum();
    let analysed: u64 = pool.into_iter().map(|p| p.join().unwrap_or(0)).sum();
    let dropped: u64 = boxes.iter().map(|b| b.dropped()).sum();
    let mut d = delays.lock().map(|d| d.clone()).unwrap_or_default();
    d.sort_unstable();
    let pct = |q: f64| {
        d.get(((d.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "sessions {sessions}, workers {workers}, {seconds} s: offered {offered}, analysed {analysed} ({:.1} fps per session), dropped {dropped} ({:.0}%), capture-to-result p50 {} ms p99 {} ms",
        analysed as f64 / seconds as f64 / sessions as f64,
        100.0 * dropped as f64 / offered.max(1) as f64,
        pct(0.5),
        pct(0.99)
    );
    Ok(())
}
