//! Opening a session's stream (authorised by its token, one connection at a time through the
//! registry and the store's stream lease) and closing it when the connection ends.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use domain::{LivenessPath, Session, SessionStatus};
use liveness_engine::mailbox::LatestFrame;
use liveness_engine::{LivenessSession, Opening};
use parking_lot::Mutex;
use uuid::Uuid;

use super::registry::{AfterDisconnect, ConnectRefusal};
use super::{ClientMessage, EventSink, Live, LiveStream, STREAM_LEASE_MS};
use crate::audit::AuditSampler;
use crate::read::Credential;
use crate::{SessionError, SessionResult, SessionService};

impl SessionService {
    /// Opens the stream of session `id` for the holder of `token` on `path` (the no-flash
    /// path only where the session allows it). Refused when the session already has a verdict
    /// (single use) or another connection streams it.
    pub fn connect(
        &self,
        id: Uuid,
        token: &str,
        path: LivenessPath,
        sink: Arc<dyn EventSink>,
    ) -> SessionResult<LiveStream> {
        let session = self.authorize(id, Credential::Token(token))?;
        if session.status == SessionStatus::Completed {
            return Err(SessionError::AlreadyCompleted);
        }
        if path == LivenessPath::NoFlash && !session.allow_no_flash {
            return Err(SessionError::NoFlashNotAllowed);
        }
        let holder = Uuid::new_v4().to_string();
        let ended = self
            .live
            .streams
            .connect(id, &holder)
            .map_err(|refusal| match refusal {
                ConnectRefusal::AlreadyConnected => SessionError::AlreadyConnected,
                // the verdict was given; its record is being stored
                ConnectRefusal::AlreadyCompleted => SessionError::AlreadyCompleted,
            })?;
        if let Some(ended) = ended {
            let _ = self.store.release_session_stream(id, &ended);
        }
        let opened = self
            .store
            .claim_session_stream(id, &holder, STREAM_LEASE_MS, self.store.now_millis())
            .map_err(SessionError::from)
            .and_then(|claimed| match claimed {
                true => self.open_engine_session(&session, path),
                false => Err(SessionError::AlreadyConnected),
            });
        let engine_session = match opened {
            Ok(engine_session) => engine_session,
            Err(e) => {
                self.live.streams.connect_failed(id, &holder);
                if !matches!(e, SessionError::AlreadyConnected) {
                    let _ = self.store.release_session_stream(id, &holder);
                }
                return Err(e);
            }
        };
        let mailbox = LatestFrame::for_session(&engine_session);
        let path = engine_session.liveness_path();
        sink.send(ClientMessage::Ready {
            mode: session.mode,
            challenge_count: engine_session.challenge_plan().len() as u32,
            liveness_path: path,
            max_fps: super::MAX_FPS,
        });
        if let Some(sequence) = engine_session.illumination() {
            sink.send(ClientMessage::illumination(sequence));
        }
        Ok(LiveStream {
            live: Arc::new(Live {
                service: self.clone(),
                session,
                holder,
                path,
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
            rate: Mutex::new(super::FrameRate::default()),
        })
    }

    fn open_engine_session(
        &self,
        session: &Session,
        path: LivenessPath,
    ) -> SessionResult<LivenessSession> {
        let reconnect = session.status == SessionStatus::InProgress;
        let begun = match self.store.begin_session(session.id) {
            Err(storage::StorageError::SessionFinished { .. }) => {
                return Err(SessionError::AlreadyCompleted);
            }
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
            path,
        )?)
    }

    /// Sessions streaming now in this process.
    pub fn live_sessions(&self) -> usize {
        self.live.connected()
    }
}

impl Drop for LiveStream {
    fn drop(&mut self) {
        let service = &self.live.service;
        let (id, holder) = (self.live.session.id, self.live.holder.clone());
        if service.live.streams.disconnected(id, &holder) == AfterDisconnect::Nothing {
            // the record releases the lease once it is stored, or a newer connection holds it
            return;
        }
        // a blocking store call: on the analysis pool, not the transport's thread
        let (store, hub) = (service.store.clone(), service.live.clone());
        service.live.pool.spawn(move || {
            if let Err(e) = store.release_session_stream(id, &holder) {
                tracing::warn!(session = %id, error = %e, "stream lease not released; it runs out");
            }
            hub.streams.released(id, &holder);
        });
    }
}
