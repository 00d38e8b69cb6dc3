//! The analysis pool shared by every live stream of this process, and the registry of the
//! sessions streaming now (a session streams on one connection at a time).
//!
//! The pool serves its jobs in the order they came, from one queue, and a session has at most
//! one job in it: after analysing a frame, a session with another waiting goes to the back,
//! behind every session that waited meanwhile (issue 42). A work-stealing pool runs a job that
//! a worker spawns before the jobs the sockets sent it, so a session that kept receiving frames
//! kept its worker for a burst of analyses while the others' mailboxes overflowed; under 64
//! sessions on 2 cores most sessions got their first analysis after the light's colours were
//! over (docs/benchmarks.md).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};
use uuid::Uuid;

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
}

/// Jobs in arrival order, and the signal that one came.
#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// A fixed number of worker threads serving one first-in, first-out queue; they stop when the
/// pool is dropped, after the jobs already queued.
pub(crate) struct FairPool {
    shared: Arc<Shared>,
    threads: usize,
}

impl std::fmt::Debug for FairPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FairPool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl FairPool {
    fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let mut started = 0;
        for i in 0..threads {
            let worker = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("liveness-{i}"))
                .spawn(move || serve(&worker));
            match spawned {
                Ok(_) => started += 1,
                Err(e) => tracing::error!(error = %e, "no thread for liveness analysis"),
            }
        }
        if started == 0 {
            panic!("no thread for liveness analysis");
        }
        Self {
            shared,
            threads: started,
        }
    }

    /// Queues `job` behind every job queued before it.
    pub(crate) fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        self.shared.queue.lock().jobs.push_back(Box::new(job));
        self.shared.ready.notify_one();
    }
}

impl Drop for FairPool {
    fn drop(&mut self) {
        self.shared.queue.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

fn serve(shared: &Shared) {
    loop {
        let job = {
            let mut queue = shared.queue.lock();
            loop {
                if let Some(job) = queue.jobs.pop_front() {
                    break job;
                }
                if queue.closed {
                    return;
                }
                shared.ready.wait(&mut queue);
            }
        };
        // a job that panics ends itself, not the worker
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
    }
}

/// The pool and the registry of connected sessions of this process.
#[derive(Debug)]
pub struct LiveHub {
    pub(crate) pool: FairPool,
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
        let pool = FairPool::new(threads);
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
