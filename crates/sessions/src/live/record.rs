//! A verdict's record, made in the analysis pool's later lane after the `verdict` message went
//! out: the outcome (`crate::outcome`: portrait, match, reasons, audit frames, webhook row) in
//! one transaction; then the session is let go (a reconnect answers `session_completed` once
//! it is stored) and its stream lease released, whatever happened, a panic included.

use liveness_engine::{LivenessSession, VerdictReport};

use super::Live;

impl Live {
    /// Stores what the verdict left behind, then lets the session go: a record that could
    /// not be stored leaves it `in_progress`, to be streamed again (docs/api.md).
    pub(super) fn record(&self, report: &VerdictReport, engine_session: Option<&LivenessSession>) {
        let session = &self.session;
        let _done = RecordDone(self);
        let audit_frames = self.audit.lock().take();
        let finished = self
            .service
            .outcome_of(session, report, engine_session, audit_frames);
        let stored = self.service.store.complete_session(
            session.id,
            &finished.outcome,
            finished.webhook.as_ref(),
        );
        match stored {
            Ok(_) => {
                self.service.live.counters.verdict(report.verdict);
                tracing::info!(session = %session.id, "session completed");
            }
            Err(storage::StorageError::NotFound { .. }) => {
                tracing::info!(session = %session.id, "session erased before its result was stored");
            }
            Err(storage::StorageError::Domain(_)) => {
                tracing::warn!(session = %session.id, "session already had a verdict; this one was not stored");
            }
            Err(e) => {
                self.service.live.counters.record_not_stored();
                tracing::error!(session = %session.id, error = %e, "session result not stored; the session stays in progress");
            }
        }
    }
}

/// Ends a record: the session may be connected again and its stream lease is released.
struct RecordDone<'a>(&'a Live);

impl Drop for RecordDone<'_> {
    fn drop(&mut self) {
        let (live, id) = (self.0, self.0.session.id);
        live.service.live.recording.lock().remove(&id);
        if let Err(e) = live.service.store.release_session_stream(id, &live.holder) {
            tracing::warn!(session = %id, error = %e, "stream lease not released; it runs out");
        }
    }
}
