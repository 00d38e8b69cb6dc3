//! A stream's analysis on the shared pool: one job per session at a time, the lease renewed
//! while frames come, each frame fed to the engine and its events sent to the client; the
//! verdict hands over to `record.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use liveness_engine::LivenessEvent;
use liveness_engine::mailbox::TakenFrame;

use super::{ClientMessage, Live, STREAM_LEASE_MS, STREAM_LEASE_RENEW, SocketError, StreamEnd};

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
    pub(super) fn schedule(self: &Arc<Self>) {
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
        match store.claim_session_stream(id, &self.holder, STREAM_LEASE_MS, store.now_millis()) {
            Ok(true) => {}
            Ok(false) => tracing::warn!(session = %id, "stream lease taken over after it ran out"),
            Err(e) => tracing::warn!(session = %id, error = %e, "stream lease not renewed"),
        }
        true
    }

    /// The session was erased while streaming: analyse nothing more, store nothing, and close.
    pub(super) fn end_erased(&self) {
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
        engine_session.set_replica_crowded(self.service.live.crowded_for_looks());
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
