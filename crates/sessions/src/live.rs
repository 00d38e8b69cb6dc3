//! A client's live stream. Frames go into the engine's one-frame mailbox (a newer frame
//! replaces one not yet analysed), and one bounded pool shared by every session analyses them,
//! at most one job per session at a time: a slow server drops frames and never queues them.
//! On the verdict: one transaction stores the result, portrait and webhook outbox row; then the
//! `verdict` message goes out; then the stream ends normally.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use domain::{Session, SessionMode, SessionStatus, Verdict};
use liveness_engine::challenge::draw_challenges;
use liveness_engine::mailbox::{LatestFrame, PendingFrame};
use liveness_engine::{
    ChallengeKind, Guidance, LivenessEvent, LivenessMode, LivenessSession, VerdictReport,
};
use parking_lot::Mutex;
use serde::Serialize;
use storage::sessions::{NewDelivery, SessionOutcome};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::read::Credential;
use crate::{SessionError, SessionResult, SessionService};

/// Largest JPEG frame accepted (the spec's 1.5 MB, taken as 1,500,000 bytes).
pub const MAX_FRAME_BYTES: usize = 1_500_000;

/// A server → client message, `{"type": …, "data": {…}}`. Per-layer scores never appear here.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message: what the session will ask.
    Ready {
        #[schema(example = "passive")]
        mode: &'static str,
        challenge_count: u32,
    },
    FaceDetected {
        confidence: f32,
        centered: bool,
    },
    /// A hint: `no_face`, `one_face_only`, `move_closer`, `center_face`, `too_dark`,
    /// `hold_still`, `look_at_camera`, `invalid_frame`, `frame_out_of_order`.
    Guidance {
        #[schema(value_type = String)]
        code: Guidance,
    },
    Challenge {
        #[serde(rename = "type")]
        #[schema(value_type = String, example = "blink")]
        kind: ChallengeKind,
        index: usize,
    },
    ChallengeResult {
        index: usize,
        passed: bool,
    },
    /// The final decision. `redirect_url` (managed sessions with one) is where to send the
    /// user: the caller's URL with `session_id` added, and nothing else.
    Verdict {
        #[schema(value_type = String, example = "pass")]
        verdict: Verdict,
        confidence: f32,
        redirect_url: Option<String>,
    },
    Error {
        code: &'static str,
        message: String,
    },
}

/// How a stream ended, for the transport to choose its close code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEnd {
    /// The verdict was stored and sent (or another stream had already given it).
    Completed,
    /// The result could not be stored; the client may reconnect and try again.
    ServerError,
}

/// Where a stream's messages go (the WebSocket, or a test's collector).
pub trait EventSink: Send + Sync + 'static {
    fn send(&self, message: ClientMessage);
    /// No more messages follow.
    fn end(&self, end: StreamEnd);
}

/// The pool and the registry of connected sessions of this process.
#[derive(Debug)]
pub struct LiveHub {
    pool: rayon::ThreadPool,
    connected: Mutex<HashSet<Uuid>>,
    pub(crate) counters: crate::stats::LiveCounters,
}

impl LiveHub {
    pub fn new(threads: usize) -> Self {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        } else {
            threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("liveness-{i}"))
            .build()
            .unwrap_or_else(|_| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .unwrap_or_else(|e| panic!("no thread for liveness analysis: {e}"))
            });
        Self {
            pool,
            connected: Mutex::new(HashSet::new()),
            counters: Default::default(),
        }
    }

    /// Sessions streaming now in this process.
    pub fn connected(&self) -> usize {
        self.connected.lock().len()
    }
}

struct Live {
    service: SessionService,
    session: Session,
    engine_session: Mutex<Option<LivenessSession>>,
    mailbox: LatestFrame,
    scheduled: AtomicBool,
    finished: AtomicBool,
    sink: Arc<dyn EventSink>,
}

/// A connected client's stream; dropping it frees the session for a reconnect.
pub struct LiveStream {
    live: Arc<Live>,
    started: Instant,
}

impl std::fmt::Debug for LiveStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveStream")
            .field("session", &self.live.session.id)
            .finish_non_exhaustive()
    }
}

impl SessionService {
    /// Opens the stream of session `id` for the holder of `token`. Refused when the session
    /// already has a verdict (single use) or another connection streams it.
    pub fn connect(
        &self,
        id: Uuid,
        token: &str,
        sink: Arc<dyn EventSink>,
    ) -> SessionResult<LiveStream> {
        let session = self.authorize(id, Credential::Token(token))?;
        if session.status == SessionStatus::Completed {
            return Err(SessionError::AlreadyCompleted);
        }
        if !self.live.connected.lock().insert(id) {
            return Err(SessionError::AlreadyConnected);
        }
        let opened = self.open_engine_session(&session);
        let engine_session = match opened {
            Ok(engine_session) => engine_session,
            Err(e) => {
                self.live.connected.lock().remove(&id);
                return Err(e);
            }
        };
        sink.send(ClientMessage::Ready {
            mode: session.mode.as_str(),
            challenge_count: session.challenge_count,
        });
        Ok(LiveStream {
            live: Arc::new(Live {
                service: self.clone(),
                session,
                engine_session: Mutex::new(Some(engine_session)),
                mailbox: LatestFrame::new(),
                scheduled: AtomicBool::new(false),
                finished: AtomicBool::new(false),
                sink,
            }),
            started: Instant::now(),
        })
    }

    fn open_engine_session(&self, session: &Session) -> SessionResult<LivenessSession> {
        let begun = match self.store.begin_session(session.id) {
            Err(storage::StorageError::Domain(_)) => return Err(SessionError::AlreadyCompleted),
            Err(storage::StorageError::NotFound { .. }) => return Err(SessionError::NotFound),
            other => other?,
        };
        let config = self.settings.liveness.clone();
        let engine_session = match begun.mode {
            SessionMode::Passive => {
                LivenessSession::new(self.engine.clone(), config, LivenessMode::Passive)?
            }
            SessionMode::Active => {
                let count = (begun.challenge_count as usize)
                    .clamp(config.min_challenges, config.max_challenges);
                let plan = draw_challenges(&mut rand::rng(), count, count);
                LivenessSession::with_challenges(
                    self.engine.clone(),
                    config,
                    LivenessMode::Active,
                    plan,
                )?
            }
        };
        Ok(engine_session)
    }

    /// Sessions streaming now in this process.
    pub fn live_sessions(&self) -> usize {
        self.live.connected()
    }
}

impl LiveStream {
    pub fn session_id(&self) -> Uuid {
        self.live.session.id
    }

    /// When the session's lifetime ends (unix ms): the transport closes the stream then.
    pub fn expires_at(&self) -> i64 {
        self.live.session.expires_at
    }

    /// Whether the verdict was given (the transport closes after the `verdict` message).
    pub fn is_finished(&self) -> bool {
        self.live.finished.load(Ordering::SeqCst)
    }

    /// Hands one JPEG frame to the analysis; it is stamped with its arrival time. Oversized
    /// frames are refused; a frame not yet analysed when the next arrives is dropped.
    pub fn push_frame(&self, jpeg: Vec<u8>) -> SessionResult<()> {
        if jpeg.len() > MAX_FRAME_BYTES {
            return Err(SessionError::FrameTooLarge {
                max: MAX_FRAME_BYTES,
            });
        }
        if self.is_finished() {
            return Ok(());
        }
        let timestamp_ms = self.started.elapsed().as_millis() as u64;
        let replaced = self.live.mailbox.put(PendingFrame { jpeg, timestamp_ms });
        self.live.service.live.counters.frame(replaced);
        if self
            .live
            .scheduled
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            let live = self.live.clone();
            self.live.service.live.pool.spawn(move || live.drain());
        }
        Ok(())
    }

    /// Frames replaced before they were analysed.
    pub fn dropped_frames(&self) -> u64 {
        self.live.mailbox.dropped()
    }
}

impl Drop for LiveStream {
    fn drop(&mut self) {
        self.live
            .service
            .live
            .connected
            .lock()
            .remove(&self.live.session.id);
    }
}

impl Live {
    /// Analyses frames until the mailbox is empty (one job per session at a time).
    fn drain(&self) {
        loop {
            while let Some(frame) = self.mailbox.take() {
                if self.analyse(frame) {
                    return;
                }
            }
            self.scheduled.store(false, Ordering::SeqCst);
            // a frame put between the last take and the store above would wait for the next
            // frame: take it now unless a new job was scheduled for it
            let Some(frame) = self.mailbox.take() else {
                return;
            };
            if self
                .scheduled
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                self.mailbox.put(frame);
                return;
            }
            if self.analyse(frame) {
                return;
            }
        }
    }

    /// Feeds one frame; `true` once the stream is over.
    fn analyse(&self, frame: PendingFrame) -> bool {
        let mut guard = self.engine_session.lock();
        let Some(engine_session) = guard.as_mut() else {
            return true;
        };
        let events = engine_session.push_frame(&frame.jpeg, frame.timestamp_ms);
        for event in events {
            match event {
                LivenessEvent::Verdict(report) => {
                    let engine_session = guard.take();
                    drop(guard);
                    self.finish(&report, engine_session.as_ref());
                    return true;
                }
                LivenessEvent::FaceDetected {
                    confidence,
                    centered,
                } => self.sink.send(ClientMessage::FaceDetected {
                    confidence,
                    centered,
                }),
                LivenessEvent::Guidance { code } => {
                    self.sink.send(ClientMessage::Guidance { code })
                }
                LivenessEvent::Challenge { kind, index } => {
                    self.sink.send(ClientMessage::Challenge { kind, index })
                }
                LivenessEvent::ChallengeResult { index, passed } => self
                    .sink
                    .send(ClientMessage::ChallengeResult { index, passed }),
            }
        }
        false
    }

    fn finish(&self, report: &VerdictReport, engine_session: Option<&LivenessSession>) {
        self.finished.store(true, Ordering::SeqCst);
        let session = &self.session;
        let photo = match (
            report.verdict,
            engine_session.and_then(LivenessSession::portrait),
        ) {
            (Verdict::Pass, Some(Ok(portrait))) => {
                Some((portrait.jpeg, portrait.quality.photo_quality_score))
            }
            (Verdict::Pass, other) => {
                tracing::warn!(session = %session.id, error = ?other.and_then(Result::err), "pass without a portrait");
                None
            }
            _ => None,
        };
        let outcome = SessionOutcome {
            verdict: report.verdict,
            confidence: report.confidence,
            layers_json: serde_json::json!({
                "end_reason": report.end_reason,
                "layers": report.layers,
            })
            .to_string(),
            photo,
        };
        let webhook = session.webhook_url.as_ref().map(|url| NewDelivery {
            url: url.clone(),
            payload: serde_json::json!({
                "type": "session.completed",
                "session_id": session.id,
                "verdict": report.verdict,
                "confidence": report.confidence,
                "reference_id": session.reference_id,
                "mode": session.mode.as_str(),
                "completed_at": storage::now_millis(),
            })
            .to_string(),
        });
        match self
            .service
            .store
            .complete_session(session.id, &outcome, webhook.as_ref())
        {
            Ok(_) => {
                self.service.live.counters.verdict(report.verdict);
                tracing::info!(session = %session.id, verdict = ?report.verdict, confidence = report.confidence, "session completed");
                self.sink.send(ClientMessage::Verdict {
                    verdict: report.verdict,
                    confidence: report.confidence,
                    redirect_url: session
                        .redirect_url
                        .as_deref()
                        .map(|url| redirect_with_session(url, session.id)),
                });
                self.sink.end(StreamEnd::Completed);
            }
            Err(storage::StorageError::Domain(_)) => {
                self.sink.send(ClientMessage::Error {
                    code: "already_completed",
                    message: "this session already has a verdict".into(),
                });
                self.sink.end(StreamEnd::Completed);
            }
            Err(e) => {
                tracing::error!(session = %session.id, error = %e, "session result not stored");
                self.sink.send(ClientMessage::Error {
                    code: "result_not_stored",
                    message: "the result could not be stored; reconnect to try again".into(),
                });
                self.sink.end(StreamEnd::ServerError);
            }
        }
    }
}

/// `redirect_url` with the query parameter `session_id` added (replacing one already there);
/// the verdict never travels in the redirect.
pub fn redirect_with_session(redirect_url: &str, session_id: Uuid) -> String {
    match url::Url::parse(redirect_url) {
        Ok(mut url) => {
            let kept: Vec<(String, String)> = url
                .query_pairs()
                .filter(|(k, _)| k != "session_id")
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            url.query_pairs_mut()
                .clear()
                .extend_pairs(kept)
                .append_pair("session_id", &session_id.to_string());
            url.into()
        }
        Err(_) => redirect_url.to_owned(),
    }
}
