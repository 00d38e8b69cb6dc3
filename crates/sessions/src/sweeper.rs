//! The retention sweeper, in the shape of the webhook worker: [`RetentionSweeper::tick`] runs
//! one sweep (expire unfinished sessions past their lifetime and delete their photos, drop
//! finished request counters and stream leases), [`RetentionSweeper::run`] repeats it until
//! shutdown, and [`RetentionSweeper::spawn`] runs that on its own thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use storage::{StorageResult, Store};

/// What one sweep removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Unfinished sessions moved to `expired`.
    pub expired_sessions: usize,
    /// Photos deleted with their sessions' retention.
    pub deleted_photos: usize,
    /// Request counters whose window ended.
    pub counters: usize,
    /// Stream leases that ran out.
    pub stream_leases: usize,
}

/// Sweeps one store.
#[derive(Debug, Clone)]
pub struct RetentionSweeper {
    store: Store,
}

impl RetentionSweeper {
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// One sweep at `now` (unix ms).
    pub fn tick_at(&self, now: i64) -> StorageResult<SweepReport> {
        let (expired_sessions, deleted_photos) = self.store.sweep_expired_sessions(now)?;
        let counters = self.store.sweep_request_counters(now)?;
        let stream_leases = self.store.sweep_session_streams(now)?;
        Ok(SweepReport {
            expired_sessions,
            deleted_photos,
            counters,
            stream_leases,
        })
    }

    /// One sweep now, logged.
    pub fn tick(&self) -> StorageResult<SweepReport> {
        let report = self.tick_at(self.store.now_millis())?;
        if report.expired_sessions > 0 || report.deleted_photos > 0 {
            tracing::info!(
                expired = report.expired_sessions,
                photos = report.deleted_photos,
                "retention sweep"
            );
        }
        Ok(report)
    }

    /// Sweeps every `interval` until `shutdown` is set (checked every 200 ms, so shutdown is
    /// prompt).
    pub fn run(&self, shutdown: &AtomicBool, interval: Duration) {
        const STEP: Duration = Duration::from_millis(200);
        while !shutdown.load(Ordering::Relaxed) {
            if let Err(e) = self.tick() {
                tracing::warn!(error = %e, "retention sweep failed");
            }
            let mut slept = Duration::ZERO;
            while slept < interval && !shutdown.load(Ordering::Relaxed) {
                std::thread::sleep(STEP);
                slept += STEP;
            }
        }
    }

    /// Starts [`run`](Self::run) on its own thread.
    pub fn spawn(
        self,
        shutdown: Arc<AtomicBool>,
        interval: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        std::thread::Builder::new()
            .name("retention-sweeper".into())
            .spawn(move || self.run(&shutdown, interval))
    }
}
