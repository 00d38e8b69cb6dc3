//! A verdict's record, made before the `verdict` message goes out (issue 67): the outcome
//! (`crate::outcome`: portrait, match, reasons, audit frames, webhook row) in one transaction,
//! so that whatever the client is shown as final the tenant reads as final at that moment.
//! Then the session is let go (a reconnect answers `session_completed` once it is stored) and
//! its stream lease released, whatever happened, a panic included.

use std::sync::atomic::Ordering;

use liveness_engine::{LivenessSession, VerdictReport};

use super::{ClientMessage, Live, SocketError, StreamEnd, redirect_with_session};

/// What became of a verdict's record; it decides what the client is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recorded {
    /// Stored: the client gets the verdict.
    Stored,
    /// The tenant erased the session meanwhile: nothing was stored.
    Erased,
    /// Another stream's verdict was stored first (never expected: the stream lease rules it
    /// out); this one was dropped.
    AlreadyCompleted,
    /// The store refused it: the session stays `in_progress`, to be streamed again.
    NotStored,
}

impl Live {
    /// Stores the verdict's record (the portrait, the match, the one transaction) on this
    /// worker, then gives the verdict: the client is shown as final only what the tenant can
    /// read as final (issue 67). A record the store refused is never shown as a verdict: the
    /// client is told `result_not_stored` and may stream the session again.
    pub(super) fn finish(&self, report: VerdictReport, engine_session: Option<LivenessSession>) {
        let session = &self.session;
        if let Ok(false) = self.service.store.session_exists(session.id) {
            // erased since the lease was last renewed: no verdict for a session that is gone
            self.end_erased();
            return;
        }
        self.finished.store(true, Ordering::SeqCst);
        self.service
            .live
            .streams
            .verdict_reached(session.id, &self.holder);
        // the look at the colours' end tells whether a session under load still ended there
        let look = engine_session.as_ref().map(LivenessSession::look_outcome);
        // how long the worker stayed away from the session while the colours showed (capture
        // time between takes): whether it was near enough to judge faces for the look
        let take_gaps_ms = engine_session
            .as_ref()
            .map(|s| s.take_gaps_under_colours_ms())
            .filter(|gaps| !gaps.is_empty());
        tracing::info!(session = %session.id, verdict = ?report.verdict, confidence = report.confidence, fitted_live_probability = ?report.fitted_live_probability, ?look, ?take_gaps_ms, "verdict reached");
        let recorded = self.record(&report, engine_session.as_ref());
        let refusal = match recorded {
            Recorded::Stored => None,
            Recorded::Erased => {
                self.end_erased();
                return;
            }
            Recorded::AlreadyCompleted => Some((
                SocketError::SessionCompleted,
                "this session already has a verdict",
            )),
            Recorded::NotStored => Some((
                SocketError::ResultNotStored,
                "the verdict could not be stored; connect again",
            )),
        };
        match refusal {
            None => {
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
            Some((code, message)) => {
                self.sink.send(ClientMessage::Error {
                    code,
                    message: message.into(),
                });
                self.sink.end(StreamEnd::Refused(code));
            }
        }
    }

    /// Stores what the verdict left behind, then lets the session go: a record that could
    /// not be stored leaves it `in_progress`, to be streamed again (docs/api.md).
    fn record(&self, report: &VerdictReport, engine_session: Option<&LivenessSession>) -> Recorded {
        let session = &self.session;
        let _done = RecordDone(self);
        let audit_frames = self.audit.lock().take();
        let finished =
            self.service
                .outcome_of(session, self.path, report, engine_session, audit_frames);
        let stored = self.service.store.complete_session(
            session.id,
            &finished.outcome,
            finished.webhook.as_ref(),
        );
        match stored {
            Ok(_) => {
                self.service.live.counters.verdict(report.verdict);
                if let Some(engine_session) = engine_session {
                    self.service
                        .live
                        .counters
                        .look(engine_session.look_outcome());
                }
                tracing::info!(session = %session.id, "session completed");
                Recorded::Stored
            }
            Err(storage::StorageError::NotFound { .. }) => {
                tracing::info!(session = %session.id, "session erased before its result was stored");
                Recorded::Erased
            }
            Err(storage::StorageError::SessionFinished { .. }) => {
                tracing::warn!(session = %session.id, "session already had a verdict; this one was not stored");
                Recorded::AlreadyCompleted
            }
            Err(e) => {
                self.service.live.counters.record_not_stored();
                tracing::error!(session = %session.id, error = %e, "session result not stored; the session stays in progress");
                Recorded::NotStored
            }
        }
    }
}

/// Ends a record: the session may be connected again and its stream lease is released.
struct RecordDone<'a>(&'a Live);

impl Drop for RecordDone<'_> {
    fn drop(&mut self) {
        let (live, id) = (self.0, self.0.session.id);
        live.service.live.streams.record_done(id, &live.holder);
        if let Err(e) = live.service.store.release_session_stream(id, &live.holder) {
            tracing::warn!(session = %id, error = %e, "stream lease not released; it runs out");
        }
    }
}
