//! What every live stream of this process shares: the analysis pool (`crate::pool`), the
//! registry of streams (`crate::live::registry`: one state per session, so a session streams on
//! one connection at a time) and the live counters.

use crate::live::registry::StreamRegistry;
use crate::pool::FairPool;

/// The pool, the stream registry and the counters of this process.
#[derive(Debug)]
pub struct LiveHub {
    pub(crate) pool: FairPool,
    pub(crate) streams: StreamRegistry,
    pub(crate) counters: crate::stats::LiveCounters,
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
        }
    }

    /// Sessions streaming now in this process, or storing the verdict they reached.
    pub fn connected(&self) -> usize {
        self.streams.not_releasing()
    }
}
