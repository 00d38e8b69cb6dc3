//! A client's live stream. Frames go into the engine's one-frame mailbox (a newer frame
//! replaces one not yet analysed), and one bounded pool shared by every session analyses them,
//! at most one job per session at a time: a slow server drops frames and never queues them.
//! On the verdict, the same worker stores the result, portrait, audit frames and webhook outbox
//! row in one transaction (assembled by `outcome.rs`), and only then sends the `verdict`
//! message and ends the stream: a backend that reads the result the moment its client sees the
//! verdict reads it `completed` (issue 67). While the record is made the session cannot be
//! streamed again. One connection streams a session at a time across every
//! replica: it holds the session's stream lease in the store, renewed while frames are
//! analysed and released when it ends, or once its record is stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use domain::{Session, SessionStatus};
use liveness_engine::capture_time;
use liveness_engine::mailbox::{LatestFrame, PendingFrame, TakenFrame};
use liveness_engine::{LivenessEvent, LivenessSession, Opening};
use parking_lot::Mutex;
use uuid::Uuid;

mod record;

use crate::audit::AuditSampler;
pub use crate::hub::LiveHub;
pub use crate::messages::{
    ClientMessage, EventSink, SocketError, StreamEnd, redirect_with_session,
};
use crate::read::Credential;
use crate::{SessionError, SessionResult, SessionService};

/// Largest JPEG frame accepted (the spec's 1.5 MB, taken as 1,500,000 bytes).
pub const MAX_FRAME_BYTES: usize = 1_500_000;
/// How long a stream lease lasts unless renewed: how soon a session whose replica died can be
/// streamed again elsewhere.
pub const STREAM_LEASE_MS: i64 = 10_000;
/// Renew the lease when it is this old.
const STREAM_LEASE_RENEW: std::time::Duration = std::time::Duration::from_secs(3);

struct Live {
    service: SessionService,
    session: Session,
    /// This connection's name in the session's stream lease.
    holder: String,
    lease_renewed: Mutex<Instant>,
    engine_session: Mutex<Option<LivenessSession>>,
    mailbox: LatestFrame,
    scheduled: AtomicBool,
    finished: AtomicBool,
    audit: Mutex<AuditSampler>,
    sink: Arc<dyn EventSink>,
}

/// A connected client's stream; dropping it frees the session for a reconnect.
pub struct LiveStream {
    live: Arc<Live>,
    started: Instant,
    /// The time given to the previous frame (`capture_time::frame_time` keeps them in order).
    last_frame_ms: Mutex<Option<u64>>,
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
        if self.live.recording.lock().contains(&id) {
            // the verdict was given; its record is being stored
            return Err(SessionError::AlreadyCompleted);
        }
        if !self.live.connected.lock().insert(id) {
            return Err(SessionError::AlreadyConnected);
        }
        let ended = self.live.releasing.lock().remove(&id);
        if let Some(ended) = ended {
            let _ = self.store.release_session_stream(id, &ended);
        }
        let holder = Uuid::new_v4().to_string();
        let opened = self
            .store
            .claim_session_stream(id, &holder, STREAM_LEASE_MS, storage::now_millis())
            .map_err(SessionError::from)
            .and_then(|claimed| match claimed {
                true => self.open_engine_session(&session),
                false => Err(SessionError::AlreadyConnected),
            });
        let engine_session = match opened {
            Ok(engine_session) => engine_session,
            Err(e) => {
                self.live.connected.lock().remove(&id);
                if !matches!(e, SessionError::AlreadyConnected) {
                    let _ = self.store.release_session_stream(id, &holder);
                }
                return Err(e);
            }
        };
        let mailbox = LatestFrame::for_session(&engine_session);
        sink.send(ClientMessage::Ready {
            mode: session.mode.as_str(),
            challenge_count: session.challenge_count,
        });
        if let Some(sequence) = engine_session.illumination() {
            sink.send(ClientMessage::illumination(sequence));
        }
        Ok(LiveStream {
            live: Arc::new(Live {
                service: self.clone(),
                session,
                holder,
                lease_renewed: Mutex::new(Instant::now()),
                engine_session: Mutex::new(Some(engine_session)),
                mailbox,
                scheduled: AtomicBool::new(false),
                finished: AtomicBool::new(false),
                audit: Mutex::new(AuditSampler::new(self.settings.audit_frames)),
                sink,
            }),
            started: Instant::now(),
            last_frame_ms: Mutex::new(None),
        })
    }

    fn open_engine_session(&self, session: &Session) -> SessionResult<LivenessSession> {
        let reconnect = session.status == SessionStatus::InProgress;
        let begun = match self.store.begin_session(session.id) {
            Err(storage::StorageError::Domain(_)) => return Err(SessionError::AlreadyCompleted),
            Err(storage::StorageError::NotFound { .. }) => return Err(SessionError::NotFound),
            other => other?,
        };
        // the seed drawn at creation: the same challenges on every opening, and the light
        // sequence on the first only
        let opening = if reconnect {
            Opening::Reconnect
        } else {
            Opening::First
        };
        Ok(LivenessSession::new(
            self.engine.clone(),
            self.settings.liveness.clone(),
            begun.session.mode,
            &mut crate::session_rng(&begun.draw_seed),
            opening,
        )?)
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

    /// Hands one JPEG frame to the analysis, timed by the capture time the client wrote into
    /// it, within what the arrival allows, or else by its arrival (`capture_time`). Oversized
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
        let arrival_ms = self.started.elapsed().as_millis() as u64;
        let timestamp_ms = {
            let mut last = self.last_frame_ms.lock();
            let time = capture_time::frame_time(capture_time::read_stamp(&jpeg), arrival_ms, *last);
            *last = Some(time);
            time
        };
        let replaced = self.live.mailbox.put(PendingFrame { jpeg, timestamp_ms });
        self.live.service.live.counters.frame(replaced);
        self.live.schedule();
        Ok(())
    }

    /// Frames replaced before they were analysed.
    pub fn dropped_frames(&self) -> u64 {
        self.live.mailbox.dropped()
    }
}

impl Drop for LiveStream {
    fn drop(&mut self) {
        let service = &self.live.service;
        let id = self.live.session.id;
        // a blocking store call: on the analysis pool, not the transport's thread
        let (store, holder) = (service.store.clone(), self.live.holder.clone());
        service.live.connected.lock().remove(&id);
        if service.live.recording.lock().contains(&id) {
            // the record releases the lease once it is stored
            return;
        }
        service.live.releasing.lock().insert(id, holder.clone());
        let hub = service.live.clone();
        service.live.pool.spawn(move || {
            if let Err(e) = store.release_session_stream(id, &holder) {
                tracing::warn!(session = %id, error = %e, "stream lease not released; it runs out");
            }
            let mut releasing = hub.releasing.lock();
            if releasing.get(&id) == Some(&holder) {
                releasing.remove(&id);
            }
        });
    }
}

impl Live {
    /// Analyses the waiting frame, then goes to the back of the pool's queue if another came
    /// meanwhile (one job per session at a time, and one analysis per turn: every session
    /// streaming gets its turn before any gets a second).
    fn drain(self: Arc<Self>) {
        if let Some(frame) = self.mailbox.take()
            && self.analyse(frame)
        {
            return;
        }
        self.scheduled.store(false, Ordering::SeqCst);
        // a frame put before the store above found the session scheduled and left it to us
        if self.mailbox.is_waiting() {
            self.schedule();
        }
    }

    /// Queues this session's job on the pool unless one is queued or running already.
    fn schedule(self: &Arc<Self>) {
        if self
            .scheduled
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            let live = self.clone();
            self.service.live.pool.spawn(move || live.drain());
        }
    }

    /// Keeps the stream lease while frames keep coming (called on the analysis pool); `false`
    /// once the session was erased, so the stream stops.
    fn renew_lease(&self) -> bool {
        let mut renewed = self.lease_renewed.lock();
        if renewed.elapsed() < STREAM_LEASE_RENEW {
            return true;
        }
        *renewed = Instant::now();
        let id = self.session.id;
        let store = &self.service.store;
        if let Ok(false) = store.session_exists(id) {
            return false;
        }
        match store.claim_session_stream(id, &self.holder, STREAM_LEASE_MS, storage::now_millis()) {
            Ok(true) => {}
            Ok(false) => tracing::warn!(session = %id, "stream lease taken over after it ran out"),
            Err(e) => tracing::warn!(session = %id, error = %e, "stream lease not renewed"),
        }
        true
    }

    /// The session was erased while streaming: analyse nothing more, store nothing, and close.
    fn end_erased(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.engine_session.lock().take();
        self.audit.lock().take();
        tracing::info!(session = %self.session.id, "stream closed: the session was erased");
        self.sink.send(ClientMessage::Error {
            code: SocketError::SessionNotFound,
            message: "this session was erased".into(),
        });
        self.sink
            .end(StreamEnd::Refused(SocketError::SessionNotFound));
    }

    /// Feeds one frame (and those set aside for the light check); `true` once the stream is
    /// over.
    fn analyse(self: &Arc<Self>, frame: TakenFrame) -> bool {
        if !self.renew_lease() {
            self.end_erased();
            return true;
        }
        let mut guard = self.engine_session.lock();
        let Some(engine_session) = guard.as_mut() else {
            return true;
        };
        self.audit.lock().offer(&frame.newest.jpeg);
        let events = {
            let _pass = self.service.inference.enter();
            engine_session.push_taken(&frame)
        };
        for event in events {
            match event {
                LivenessEvent::Verdict(report) => {
                    let engine_session = guard.take();
                    drop(guard);
                    self.finish(report, engine_session);
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
}
