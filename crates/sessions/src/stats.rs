//! What this process's live sessions have done, for the metrics: frames received, dropped
//! (replaced in a session's mailbox before analysis) and set aside past a connection's
//! `max_fps`, verdicts by outcome, what became of lit passive sessions' looks at the colours'
//! end, the records of verdicts being stored or not stored, and the analysis pool's queue wait.

use std::sync::atomic::{AtomicU64, Ordering};

use domain::Verdict;
use liveness_engine::LookOutcome;

use crate::SessionService;
pub use crate::pool::QueueStats;

/// Counters kept by the live sessions of one process.
#[derive(Debug, Default)]
pub(crate) struct LiveCounters {
    frames: AtomicU64,
    dropped: AtomicU64,
    over_rate: AtomicU64,
    passed: AtomicU64,
    failed: AtomicU64,
    retried: AtomicU64,
    looks_ended: AtomicU64,
    looks_not_sure: AtomicU64,
    looks_too_few_faces: AtomicU64,
    records_not_stored: AtomicU64,
}

impl LiveCounters {
    /// A frame arrived; `replaced` when it took the place of one never analysed.
    pub(crate) fn frame(&self, replaced: bool) {
        self.frames.fetch_add(1, Ordering::Relaxed);
        if replaced {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A frame arrived past the connection's `max_fps` and was set aside unread.
    pub(crate) fn over_rate(&self) {
        self.frames.fetch_add(1, Ordering::Relaxed);
        self.over_rate.fetch_add(1, Ordering::Relaxed);
    }

    /// A verdict's record was stored.
    pub(crate) fn verdict(&self, verdict: Verdict) {
        let counter = match verdict {
            Verdict::Pass => &self.passed,
            Verdict::Fail => &self.failed,
            Verdict::Retry => &self.retried,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// A stored verdict's session looked at the colours' end (`LookOutcome`), or never came to
    /// its look (not a lit passive session, or one that ended before: not counted).
    pub(crate) fn look(&self, look: LookOutcome) {
        let counter = match look {
            LookOutcome::NotDue => return,
            LookOutcome::TooFewFaces { .. } => &self.looks_too_few_faces,
            LookOutcome::Taken { ended: true, .. } => &self.looks_ended,
            LookOutcome::Taken { ended: false, .. } => &self.looks_not_sure,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// A verdict was given but its record could not be stored.
    pub(crate) fn record_not_stored(&self) {
        self.records_not_stored.fetch_add(1, Ordering::Relaxed);
    }
}

/// A snapshot of the live sessions of this process.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveStats {
    /// Sessions streaming now.
    pub active: usize,
    pub frames: u64,
    pub frames_dropped: u64,
    /// Frames that came past a connection's `max_fps`, set aside unread (`slow_down`).
    pub frames_over_rate: u64,
    /// `(verdict, count)` for `pass`, `fail` and `retry`.
    pub verdicts: [(&'static str, u64); 3],
    /// `(outcome, count)` of the lit passive sessions' looks at the colours' end, for stored
    /// verdicts: `ended` (the session ended with it, about 2 s sooner), `not_sure` (taken, below
    /// the early pass point: the session waited for the unlit faces), `too_few_faces` (too few
    /// faces judged under the colours: a server behind its sessions).
    pub looks: [(&'static str, u64); 3],
    /// Verdicts reached whose record (result, portrait, webhook) is being stored; each is sent
    /// once its record is.
    pub records_pending: usize,
    /// Verdicts reached whose record the store refused: no verdict was sent, and those
    /// sessions stay `in_progress`.
    pub records_not_stored: u64,
    /// The analysis pool's queue: jobs waiting now, served, and their wait in all.
    pub analysis_queue: QueueStats,
}

impl SessionService {
    /// Waits until every verdict this process reached has its record stored (and sent), or
    /// `limit` passed; returns how many are still pending (for shutdown: a verdict reached is
    /// not dropped with the process).
    pub fn wait_for_records(&self, limit: std::time::Duration) -> usize {
        let deadline = std::time::Instant::now() + limit;
        loop {
            let pending = self.live.streams.recording();
            if pending == 0 || std::time::Instant::now() >= deadline {
                return pending;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The live sessions' figures since this process started.
    pub fn live_stats(&self) -> LiveStats {
        let counters = &self.live.counters;
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        LiveStats {
            active: self.live.connected(),
            frames: load(&counters.frames),
            frames_dropped: load(&counters.dropped),
            frames_over_rate: load(&counters.over_rate),
            verdicts: [
                ("pass", load(&counters.passed)),
                ("fail", load(&counters.failed)),
                ("retry", load(&counters.retried)),
            ],
            looks: [
                ("ended", load(&counters.looks_ended)),
                ("not_sure", load(&counters.looks_not_sure)),
                ("too_few_faces", load(&counters.looks_too_few_faces)),
            ],
            records_pending: self.live.streams.recording(),
            records_not_stored: load(&counters.records_not_stored),
            analysis_queue: self.live.pool.stats(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_look_is_counted_under_its_outcome_and_a_look_never_due_is_not() {
        let counters = LiveCounters::default();
        let taken = |ended| LookOutcome::Taken {
            at_ms: 4_800,
            judged: 12,
            verdict: Verdict::Pass,
            live_probability: Some(0.9),
            ended,
        };
        counters.look(taken(true));
        counters.look(taken(true));
        counters.look(taken(false));
        counters.look(LookOutcome::TooFewFaces {
            at_ms: 5_100,
            judged: 4,
        });
        counters.look(LookOutcome::NotDue);
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        assert_eq!(
            [
                load(&counters.looks_ended),
                load(&counters.looks_not_sure),
                load(&counters.looks_too_few_faces),
            ],
            [2, 1, 1]
        );
    }
}
