//! The services' one clock. Every stored time, expiry, lease and retry reads it, so a test
//! moves time ([`ManualClock`]) instead of sleeping, and production reads the system's
//! ([`SystemClock`]). `services::Services::open_with_clock` hands one to every layer.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::UnixMillis;

/// Now, in unix milliseconds.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now_millis(&self) -> UnixMillis;
}

/// A clock shared by every layer of one process.
pub type SharedClock = Arc<dyn Clock>;

/// The system's wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_millis(&self) -> UnixMillis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as UnixMillis)
    }
}

/// A clock that moves only when told: tests set the time a rule depends on.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: AtomicI64,
}

impl ManualClock {
    /// A clock standing at `now`.
    pub fn at(now: UnixMillis) -> Self {
        Self {
            now: AtomicI64::new(now),
        }
    }

    /// Moves the clock on by `millis`.
    pub fn advance(&self, millis: i64) {
        self.now.fetch_add(millis, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_millis(&self) -> UnixMillis {
        self.now.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::at(1_000);
        assert_eq!(clock.now_millis(), 1_000);
        clock.advance(250);
        assert_eq!(clock.now_millis(), 1_250);
    }

    #[test]
    fn the_system_clock_reads_the_present() {
        // 2026-01-01 in unix milliseconds: any present reading is later
        assert!(SystemClock.now_millis() > 1_767_225_600_000);
    }
}
