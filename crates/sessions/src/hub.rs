//! What every live stream of this process shares: the analysis pool (`crate::pool`), the
//! registry of streams (`crate::live::registry`: one state per session, so a session streams on
//! one connection at a time) and the live counters.

use crate::live::registry::StreamRegistry;
use crate::pool::FairPool;

/// Sessions streaming at once, per analysis thread, for which a server behind them judges
/// faces under the colours for the look at their end (`liveness.look_when_behind`); past it
/// every session spares the model there ([`LiveHub::crowded_for_looks`]). Measured on two Zen 4
/// cores (docs/benchmarks.md, "Looks only within the replica's capacity"): at 32 sessions every
/// one ended at its look (p95 5.5 s); at 64 the model's runs under the colours kept the worker
/// away from each session for 1.4-1.9 s, most looks fell short of their faces, and the p95
/// rose by 0.9 s over not judging them at all.
pub(crate) const LOOK_SESSIONS_PER_THREAD: usize = 16;

/// The pool, the stream registry and the counters of this process.
#[derive(Debug)]
pub struct LiveHub {
    pub(crate) pool: FairPool,
    pub(crate) streams: StreamRegistry,
    pub(crate) counters: crate::stats::LiveCounters,
    /// [`LOOK_SESSIONS_PER_THREAD`] × the pool's threads.
    look_sessions: usize,
}

impl LiveHub {
    pub fn new(threads: usize) -> Self {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        } else {
            threads
        };
        Self {
            pool: FairPool::new(threads),
            streams: StreamRegistry::default(),
            counters: Default::default(),
            look_sessions: LOOK_SESSIONS_PER_THREAD * threads,
        }
    }

    /// Whether more sessions stream now than the replica judges faces under the colours for
    /// ([`LOOK_SESSIONS_PER_THREAD`] a thread): each take tells its session
    /// (`LivenessSession::set_replica_crowded`).
    pub(crate) fn crowded_for_looks(&self) -> bool {
        self.streams.streaming() > self.look_sessions
    }

    /// Sessions streaming now in this process, or storing the verdict they reached.
    pub fn connected(&self) -> usize {
        self.streams.not_releasing()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replica_is_crowded_for_looks_past_its_sessions_a_thread() {
        let hub = LiveHub::new(2);
        let ids: Vec<uuid::Uuid> = (0..=2 * LOOK_SESSIONS_PER_THREAD)
            .map(|_| uuid::Uuid::new_v4())
            .collect();
        for (opened, id) in ids.iter().enumerate() {
            assert_eq!(
                hub.crowded_for_looks(),
                opened > 2 * LOOK_SESSIONS_PER_THREAD,
                "{opened} streaming"
            );
            hub.streams.connect(*id, "a connection").expect("opens");
        }
        assert!(
            hub.crowded_for_looks(),
            "one session past two threads' share"
        );
        // a session whose verdict was reached no longer streams
        hub.streams.verdict_reached(ids[0], "a connection");
        assert!(!hub.crowded_for_looks());
    }
}
