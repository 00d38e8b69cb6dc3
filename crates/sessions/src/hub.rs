//! The analysis pool shared by every live stream of this process, and the registry of the
//! sessions streaming now (a session streams on one connection at a time).

use std::collections::{HashMap, HashSet};

use parking_lot::Mutex;
use uuid::Uuid;

/// The pool and the registry of connected sessions of this process.
#[derive(Debug)]
pub struct LiveHub {
    pub(crate) pool: rayon::ThreadPool,
    pub(crate) connected: Mutex<HashSet<Uuid>>,
    /// Stream leases of ended connections not yet released in the store (session → holder):
    /// a reconnect to this process releases them first instead of meeting its own old lease.
    pub(crate) releasing: Mutex<HashMap<Uuid, String>>,
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
            releasing: Mutex::new(HashMap::new()),
            counters: Default::default(),
        }
    }

    /// Sessions streaming now in this process.
    pub fn connected(&self) -> usize {
        self.connected.lock().len()
    }
}
