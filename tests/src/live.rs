//! Driving liveness sessions over the real WebSocket: a client that streams the frames of
//! shared footage (`footage.rs`) at a given rate while collecting the server's messages.

use std::net::TcpStream;
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use liveness_engine::Illumination;
use liveness_engine::capture_time;
use liveness_engine::illumination::PALETTE;
use liveness_rig::light_camera::{LightCamera, Scene};

pub use crate::footage::{labelled_frames, video_frames, with_sensor_noise};
pub use crate::palette::PaletteFrames;

/// One lit session streamed at a time ([`crate::exclusive_machine`]), held for a whole test. A rendering
/// camera draws each frame in the test's own process while the server analyses the stream;
/// two such tests side by side on CI's two cores starve both servers, which then analyse each
/// session too sparsely to make any attack finding of the light (`TooFewFrames`, a `retry`)
/// and line up fewer frames for a live face. The verdicts those tests assert are those of a
/// server that keeps up.
pub fn exclusive_lit_sessions() -> MutexGuard<'static, ()> {
    crate::exclusive_machine()
}

/// What a streamed session saw.
#[derive(Debug, Default)]
pub struct StreamOutcome {
    pub messages: Vec<serde_json::Value>,
    pub close_code: Option<u16>,
    pub frames_sent: usize,
}

impl StreamOutcome {
    /// The `verdict` message's data, if one came.
    pub fn verdict(&self) -> Option<&serde_json::Value> {
        self.messages
            .iter()
            .find(|m| m["type"] == "verdict")
            .map(|m| &m["data"])
    }

    pub fn error_code(&self) -> Option<&str> {
        self.messages
            .iter()
            .find(|m| m["type"] == "error")
            .and_then(|m| m["data"]["code"].as_str())
    }
}

/// A client's session socket.
pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// Opens `ws://…/ws/{id}?token=`, with the test process's face engine loaded first.
pub fn open(base_url: &str, session_id: &str, token: &str) -> WebSocket<MaybeTlsStream<TcpStream>> {
    open_reporting_replica(base_url, session_id, token).0
}

/// Opens the socket like [`open`] and also returns which replica the balancer chose (its
/// `X-Facegate-Replica` response header; `None` without a balancer).
pub fn open_reporting_replica(
    base_url: &str,
    session_id: &str,
    token: &str,
) -> (WebSocket<MaybeTlsStream<TcpStream>>, Option<String>) {
    // the stream's clock starts when the socket opens: load the rendering camera's face
    // engine first, or its load (hundreds of ms on a cold machine) delays every frame and the
    // colours past the light check's delay window (a live face was failed as
    // `other_sequence`)
    crate::engine();
    let url = format!(
        "{}/ws/{session_id}?token={token}",
        base_url.replacen("http://", "ws://", 1)
    );
    let (socket, response) = tungstenite::connect(url).expect("websocket handshake");
    if let MaybeTlsStream::Plain(tcp) = socket.get_ref() {
        tcp.set_read_timeout(Some(Duration::from_millis(5)))
            .expect("read timeout");
    }
    let replica = response
        .headers()
        .get("x-facegate-replica")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (socket, replica)
}

/// Sends `frames` (looping) at `fps` until the server closes or `max` passes; collects messages.
pub fn stream(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    frames: &[Vec<u8>],
    fps: u32,
    max: Duration,
) -> StreamOutcome {
    let mut sent = 0;
    stream_scripted(socket, fps, max, |event| match event {
        ScriptEvent::FrameDue if !frames.is_empty() => {
            sent += 1;
            ScriptAction::Send(frames[(sent - 1) % frames.len()].clone())
        }
        _ => ScriptAction::Continue,
    })
}

/// Like [`stream`], and reads `result_url` (with `key`) the moment the `verdict` message
/// arrives, before reading anything else from the socket, as a backend told by its client's
/// `onComplete` would (issue 67: what a client is shown as final reads final). Returns that read
/// too (`None` without a verdict).
pub fn stream_reading_at_verdict(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    frames: &[Vec<u8>],
    fps: u32,
    max: Duration,
    result_url: &str,
    key: Option<&str>,
) -> (StreamOutcome, Option<crate::Reply>) {
    let (mut sent, mut read) = (0, None);
    let outcome = stream_scripted(socket, fps, max, |event| match event {
        ScriptEvent::FrameDue if !frames.is_empty() => {
            sent += 1;
            ScriptAction::Send(frames[(sent - 1) % frames.len()].clone())
        }
        ScriptEvent::Message(message) if message["type"] == "verdict" => {
            read = Some(crate::get(result_url, key));
            ScriptAction::Continue
        }
        _ => ScriptAction::Continue,
    });
    (outcome, read)
}

/// How a lit client times its frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameTiming {
    /// Each frame carries its capture time from the `ready` message on
    /// (`liveness_engine::capture_time`), as the web UI's frames do.
    Stamped,
    /// No capture time: the server times each frame by its arrival.
    ArrivalOnly,
    /// Each frame reaches the socket a seeded 0..=`max_lag_ms` after its capture (in order),
    /// as over a jittery uplink or from a starved client; `stamped` as above.
    Jittered {
        max_lag_ms: u64,
        seed: u64,
        stamped: bool,
    },
}

/// The client's clock for capture times: when the `ready` message arrived, in the stream's
/// milliseconds; frames are stamped from it (`liveness_engine::capture_time`).
#[derive(Debug, Default)]
struct ReadyClock(Option<u64>);

impl ReadyClock {
    /// Notes `message` arriving at `now` if it is `ready`; whether it was.
    fn note(&mut self, message: &serde_json::Value, now: u64) -> bool {
        let ready = message["type"] == "ready";
        if ready {
            self.0 = Some(now);
        }
        ready
    }

    /// `frame` with its capture time when `stamped` and `ready` has arrived; else as it is.
    fn stamp(&self, frame: &[u8], captured: u64, stamped: bool) -> Vec<u8> {
        match self.0.filter(|_| stamped) {
            Some(ready) => capture_time::stamp(frame, captured.saturating_sub(ready)),
            None => frame.to_vec(),
        }
    }
}

/// A person in front of the page, filmed by the rendering camera: like [`stream`], but each
/// frame is captured through `camera`, which renders the light of the colours the page shows
/// once the `illumination` message arrives (`liveness_rig::light_camera`). Times are the
/// camera's, from the start of the call. Frames carry their capture time
/// ([`FrameTiming::Stamped`]).
pub fn stream_lit(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    frames: &[Vec<u8>],
    fps: u32,
    max: Duration,
    camera: &mut LightCamera,
) -> StreamOutcome {
    stream_lit_timed(socket, frames, fps, max, camera, FrameTiming::Stamped)
}

/// Like [`stream_lit`], with frames timed as `timing` says.
pub fn stream_lit_timed(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    frames: &[Vec<u8>],
    fps: u32,
    max: Duration,
    camera: &mut LightCamera,
    timing: FrameTiming,
) -> StreamOutcome {
    let start = Instant::now();
    let (max_lag_ms, seed, stamped) = match timing {
        FrameTiming::Stamped => (0, 0, true),
        FrameTiming::ArrivalOnly => (0, 0, false),
        FrameTiming::Jittered {
            max_lag_ms,
            seed,
            stamped,
        } => (max_lag_ms, seed, stamped),
    };
    let mut lags = StdRng::seed_from_u64(seed);
    let (mut ready, mut last_capture) = (ReadyClock::default(), None::<u64>);
    let mut sent = 0;
    stream_scripted(socket, fps, max, |event| {
        let now = start.elapsed().as_millis() as u64;
        match event {
            ScriptEvent::FrameDue if !frames.is_empty() => {
                let lag = lags.random_range(0..=max_lag_ms);
                let captured = now
                    .saturating_sub(lag)
                    .max(last_capture.map_or(0, |t| t + 1));
                last_capture = Some(captured);
                let frame = camera.capture(&frames[sent % frames.len()], captured);
                sent += 1;
                ScriptAction::Send(ready.stamp(&frame, captured, stamped))
            }
            ScriptEvent::Message(message) if ready.note(message, now) => ScriptAction::Continue,
            ScriptEvent::Message(message) if message["type"] == "illumination" => {
                let sequence: Illumination = serde_json::from_value(message["data"].clone())
                    .expect("an illumination message");
                camera.show(sequence, now);
                ScriptAction::Continue
            }
            _ => ScriptAction::Continue,
        }
    })
}

/// The rendering camera of a live face at screen-to-ambient light `ratio` (0.05 a bright
/// office, 0.3 a dim room), seeded.
pub fn live_camera(ratio: f32, seed: u64) -> LightCamera {
    LightCamera::new(crate::engine(), Scene::LiveFace, ratio, seed)
}

/// Like [`stream_lit`], with frames rendered ahead of time ([`PaletteFrames`]); each carries
/// its capture time when `stamped`.
pub fn stream_prerendered(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    frames: &PaletteFrames,
    fps: u32,
    max: Duration,
    stamped: bool,
) -> StreamOutcome {
    let start = Instant::now();
    let mut shown: Option<(Illumination, u64)> = None;
    let mut ready = ReadyClock::default();
    let mut sent = 0;
    stream_scripted(socket, fps, max, |event| {
        let now = start.elapsed().as_millis() as u64;
        match event {
            ScriptEvent::FrameDue if !frames.variants.is_empty() => {
                let variants = &frames.variants[sent % frames.variants.len()];
                sent += 1;
                let color = shown.as_ref().and_then(|(sequence, at)| {
                    sequence.color_at(now as i64 - frames.delay_ms as i64 - *at as i64)
                });
                let index = color
                    .and_then(|c| PALETTE.iter().position(|p| *p == c.0))
                    .map_or(0, |i| i + 1);
                ScriptAction::Send(ready.stamp(&variants[index], now, stamped))
            }
            ScriptEvent::Message(message) if ready.note(message, now) => ScriptAction::Continue,
            ScriptEvent::Message(message) if message["type"] == "illumination" => {
                if let Ok(sequence) = serde_json::from_value(message["data"].clone()) {
                    shown = Some((sequence, now));
                }
                ScriptAction::Continue
            }
            _ => ScriptAction::Continue,
        }
    })
}

/// What a scripted client is told.
#[derive(Debug)]
pub enum ScriptEvent<'a> {
    /// It is time for the next frame.
    FrameDue,
    /// The server sent this message.
    Message(&'a serde_json::Value),
}

/// What a scripted client does.
#[derive(Debug)]
pub enum ScriptAction {
    Send(Vec<u8>),
    Continue,
    /// Hang up (the outcome so far is returned).
    Abort,
}

/// Runs `script` at `fps` until the server closes, the script aborts or `max` passes.
pub fn stream_scripted(
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
    fps: u32,
    max: Duration,
    mut script: impl FnMut(ScriptEvent<'_>) -> ScriptAction,
) -> StreamOutcome {
    let mut outcome = StreamOutcome::default();
    let start = Instant::now();
    let interval = Duration::from_secs_f64(1.0 / f64::from(fps.max(1)));
    let mut next_send = start;
    let mut sending = true;
    while start.elapsed() < max {
        if sending && Instant::now() >= next_send {
            match script(ScriptEvent::FrameDue) {
                ScriptAction::Send(frame) => {
                    if socket.send(Message::Binary(frame.into())).is_err() {
                        sending = false;
                    } else {
                        outcome.frames_sent += 1;
                    }
                }
                ScriptAction::Continue => {}
                ScriptAction::Abort => break,
            }
            next_send += interval;
        }
        match socket.read() {
            Ok(Message::Text(text)) => {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(text.as_str()) {
                    let action = script(ScriptEvent::Message(&value));
                    outcome.messages.push(value);
                    if matches!(action, ScriptAction::Abort) {
                        break;
                    }
                }
            }
            Ok(Message::Close(frame)) => {
                outcome.close_code = frame.map(|f| u16::from(f.code));
                let _ = socket.flush();
                break;
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    outcome
}

/// Reads `socket`, sending nothing, until the server's `ready` message (≤ `max`): from then on
/// the stream holds its session.
pub fn await_ready(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, max: Duration) -> bool {
    let outcome = stream_scripted(socket, 1, max, |event| match event {
        ScriptEvent::Message(message) if message["type"] == "ready" => ScriptAction::Abort,
        _ => ScriptAction::Continue,
    });
    outcome.messages.iter().any(|m| m["type"] == "ready")
}

/// Opens, sends nothing or the given messages, and reads until the server closes (≤ `max`).
pub fn send_and_wait_close(
    base_url: &str,
    session_id: &str,
    token: &str,
    messages: Vec<Message>,
    max: Duration,
) -> StreamOutcome {
    let mut socket = open(base_url, session_id, token);
    for message in messages {
        if socket.send(message).is_err() {
            break;
        }
    }
    stream(&mut socket, &[], 1, max)
}

/// Asserts that no message reveals engine internals (per-layer scores, end reasons) to the
/// browser.
pub fn assert_no_engine_internals(messages: &[serde_json::Value]) {
    for m in messages {
        let text = m.to_string();
        assert!(
            !text.contains("layers") && !text.contains("end_reason"),
            "browser saw scores: {text}"
        );
    }
}
