//! The analysis pool shared by every live stream of this process.
//!
//! The pool serves its jobs in the order they came, from one queue, and a session has at most
//! one job in it: after analysing a frame, a session with another waiting goes to the back,
//! behind every session that waited meanwhile (issue 42). A work-stealing pool runs a job that
//! a worker spawns before the jobs the sockets sent it, so a session that kept receiving frames
//! kept its worker for a burst of analyses while the others' mailboxes overflowed; under 64
//! sessions on 2 cores most sessions got their first analysis after the light's colours were
//! over (docs/benchmarks.md).
//!
//! A verdict's record (the portrait, the match with the reference, the stored result) is made
//! in the job that reached the verdict, before the verdict is sent (issue 67: a verdict a
//! client is shown is one the tenant can read). Issue 42 had put it in a later lane behind
//! the frames; that made the verdict earlier than its record by up to 3 s under load.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queue {
    /// Jobs with when each was queued.
    jobs: VecDeque<(Instant, Job)>,
    closed: bool,
}

/// Jobs in arrival order, the signal that one came, and how long the served ones waited.
#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    served: AtomicU64,
    waited_micros: AtomicU64,
}

/// How the pool's queue has kept up, for the metrics (`facegate_session_analysis_queue_*`):
/// under load this is where a session's time goes before its frame is even looked at.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueueStats {
    /// Jobs waiting for a worker now.
    pub waiting: usize,
    /// Jobs a worker has taken since the process started.
    pub served: u64,
    /// Their time in the queue, in all.
    pub waited_seconds: f64,
}

/// A fixed number of worker threads serving one first-in, first-out queue; they stop when the pool is dropped, after the jobs already queued.
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
    pub(crate) fn new(threads: usize) -> Self {
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
        let queued = (Instant::now(), Box::new(job) as Job);
        self.shared.queue.lock().jobs.push_back(queued);
        self.shared.ready.notify_one();
    }

    /// The queue's figures now.
    pub(crate) fn stats(&self) -> QueueStats {
        let waiting = self.shared.queue.lock().jobs.len();
        QueueStats {
            waiting,
            served: self.shared.served.load(Ordering::Relaxed),
            waited_seconds: self.shared.waited_micros.load(Ordering::Relaxed) as f64 / 1e6,
        }
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
                if let Some((queued, job)) = queue.jobs.pop_front() {
                    let waited = u64::try_from(queued.elapsed().as_micros()).unwrap_or(u64::MAX);
                    shared.served.fetch_add(1, Ordering::Relaxed);
                    shared.waited_micros.fetch_add(waited, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_serves_the_jobs_in_the_order_they_came() {
        let pool = FairPool::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let (done, finished) = std::sync::mpsc::channel();
        for name in ["frame a", "frame b", "verdict and record", "frame c"] {
            let log = log.clone();
            pool.spawn(move || log.lock().push(name));
        }
        pool.spawn(move || done.send(()).expect("the test waits"));
        finished.recv().expect("the pool ran every job");
        assert_eq!(
            *log.lock(),
            ["frame a", "frame b", "verdict and record", "frame c"]
        );
        let stats = pool.stats();
        assert_eq!((stats.waiting, stats.served), (0, 5), "{stats:?}");
        assert!(stats.waited_seconds >= 0.0, "{stats:?}");
    }
}
