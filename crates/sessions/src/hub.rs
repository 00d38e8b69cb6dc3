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
//!
//! A second lane holds the work a verdict leaves behind (the portrait, the match with the
//! reference, the stored record): it runs when no frame waits, or once it has waited
//! [`LATER_MAX_WAIT`], so every session streaming gets its verdict before the records of the
//! sessions that already have theirs are made, and a record still waits a bounded time under
//! a load that never lets up.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use uuid::Uuid;

type Job = Box<dyn FnOnce() + Send>;

/// The longest a job of the later lane waits while frames keep the workers busy.
pub(crate) const LATER_MAX_WAIT: Duration = Duration::from_secs(3);

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// Jobs that yield to the frames, with when each was queued.
    later: VecDeque<(Instant, Job)>,
    closed: bool,
}

impl Queue {
    /// The later lane's oldest job once it waited its longest, else the oldest frame job,
    /// else the later lane's oldest.
    fn next(&mut self) -> Option<Job> {
        let overdue = self
            .later
            .front()
            .is_some_and(|(queued, _)| queued.elapsed() >= LATER_MAX_WAIT);
        if overdue || self.jobs.is_empty() {
            return self.later.pop_front().map(|(_, job)| job);
        }
        self.jobs.pop_front()
    }
}

/// Jobs in arrival order, and the signal that one came.
#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// A fixed number of worker threads serving one first-in, first-out queue, and a later lane
/// behind it; they stop when the pool is dropped, after the jobs already queued.
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

    /// Queues `job` in the later lane: after the frame jobs, or first once it waited
    /// [`LATER_MAX_WAIT`].
    pub(crate) fn spawn_later(&self, job: impl FnOnce() + Send + 'static) {
        let queued = (Instant::now(), Box::new(job) as Job);
        self.shared.queue.lock().later.push_back(queued);
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
                if let Some(job) = queue.next() {
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
    /// Sessions whose verdict was sent and whose record is still being made (in the later
    /// lane): they cannot be streamed again meanwhile.
    pub(crate) recording: Mutex<HashSet<Uuid>>,
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
            recording: Mutex::new(HashSet::new()),
            counters: Default::default(),
        }
    }

    /// Sessions streaming now in this process.
    pub fn connected(&self) -> usize {
        self.connected.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued(log: &Arc<Mutex<Vec<&'static str>>>, name: &'static str) -> Job {
        let log = log.clone();
        Box::new(move || log.lock().push(name))
    }

    fn drain(queue: &mut Queue) {
        while let Some(job) = queue.next() {
            job();
        }
    }

    #[test]
    fn the_later_lane_waits_for_the_frames_until_it_waited_its_longest() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut queue = Queue::default();
        queue
            .later
            .push_back((Instant::now(), queued(&log, "record")));
        queue.jobs.push_back(queued(&log, "frame a"));
        queue.jobs.push_back(queued(&log, "frame b"));
        drain(&mut queue);
        assert_eq!(*log.lock(), ["frame a", "frame b", "record"]);

        log.lock().clear();
        let long_ago = Instant::now()
            .checked_sub(LATER_MAX_WAIT)
            .expect("an instant one wait ago");
        queue.jobs.push_back(queued(&log, "frame a"));
        queue
            .later
            .push_back((long_ago, queued(&log, "overdue record")));
        queue
            .later
            .push_back((Instant::now(), queued(&log, "new record")));
        queue.jobs.push_back(queued(&log, "frame b"));
        drain(&mut queue);
        assert_eq!(
            *log.lock(),
            ["overdue record", "frame a", "frame b", "new record"]
        );
    }
}
