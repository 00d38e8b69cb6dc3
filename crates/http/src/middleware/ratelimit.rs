//! Per-API-key rate limiting over two windows (per second and per minute). A request over
//! either limit gets `429 rate_limited` with `Retry-After`. On one process (SQLite) the windows
//! are token buckets in memory; on a shared database (PostgreSQL, several replicas) they are
//! fixed windows counted in the database, so the limit holds for the whole deployment instead
//! of multiplying with the replica count.

use std::collections::HashMap;
use std::time::Instant;

use parking_lot::Mutex;

/// Requests allowed per key; 0 disables that window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    pub per_second: u32,
    pub per_minute: u32,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl Bucket {
    fn full(capacity: f64, now: Instant) -> Self {
        Self {
            tokens: capacity,
            updated: now,
        }
    }

    /// Refills at `rate` tokens a second up to `capacity`; returns the wait for one token.
    fn refill(&mut self, capacity: f64, rate: f64, now: Instant) -> f64 {
        let elapsed = now.duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate).min(capacity);
        self.updated = now;
        if self.tokens >= 1.0 {
            0.0
        } else {
            (1.0 - self.tokens) / rate
        }
    }
}

/// Why a request may not go on.
#[derive(Debug)]
pub enum LimitRefusal {
    /// Over a limit: the seconds to wait (at least 1).
    Wait(u64),
    /// The shared counters could not be reached.
    Store(crate::storage::StorageError),
}

/// The limiter shared by every worker.
#[derive(Debug)]
pub struct RateLimiter {
    limits: RateLimits,
    buckets: Mutex<HashMap<String, (Bucket, Bucket)>>,
    /// Counts in the database instead of in memory (every replica sees the same counts).
    shared: Option<crate::storage::Store>,
}

impl RateLimiter {
    /// Limits counted in this process.
    pub fn new(limits: RateLimits) -> Self {
        Self {
            limits,
            buckets: Mutex::new(HashMap::new()),
            shared: None,
        }
    }

    /// Limits counted in `store`, shared by every replica on it.
    pub fn shared(limits: RateLimits, store: crate::storage::Store) -> Self {
        Self {
            shared: Some(store),
            ..Self::new(limits)
        }
    }

    /// Takes one request of `key_id`'s allowance. Blocking when shared: call it from a
    /// blocking thread.
    pub fn check(&self, key_id: &str) -> Result<(), LimitRefusal> {
        match &self.shared {
            Some(store) => self.check_shared(store, key_id),
            None => self
                .check_at(key_id, Instant::now())
                .map_err(LimitRefusal::Wait),
        }
    }

    fn check_shared(
        &self,
        store: &crate::storage::Store,
        key_id: &str,
    ) -> Result<(), LimitRefusal> {
        let now = store.now_millis();
        let windows = [
            ("s", 1_000, self.limits.per_second),
            ("m", 60_000, self.limits.per_minute),
        ];
        for (unit, window_ms, limit) in windows {
            if limit == 0 {
                continue;
            }
            let counted = store
                .count_hit(&format!("rate|{unit}|{key_id}"), window_ms, now)
                .map_err(LimitRefusal::Store)?;
            if counted.hits > i64::from(limit) {
                return Err(LimitRefusal::Wait(counted.seconds_left(now)));
            }
        }
        Ok(())
    }

    fn check_at(&self, key_id: &str, now: Instant) -> Result<(), u64> {
        let (per_second, per_minute) = (
            f64::from(self.limits.per_second),
            f64::from(self.limits.per_minute),
        );
        let mut buckets = self.buckets.lock();
        let (second, minute) = buckets
            .entry(key_id.to_owned())
            .or_insert_with(|| (Bucket::full(per_second, now), Bucket::full(per_minute, now)));
        let wait_second = if per_second > 0.0 {
            second.refill(per_second, per_second, now)
        } else {
            0.0
        };
        let wait_minute = if per_minute > 0.0 {
            minute.refill(per_minute, per_minute / 60.0, now)
        } else {
            0.0
        };
        let wait = wait_second.max(wait_minute);
        if wait > 0.0 {
            return Err(wait.ceil().max(1.0) as u64);
        }
        if per_second > 0.0 {
            second.tokens -= 1.0;
        }
        if per_minute > 0.0 {
            minute.tokens -= 1.0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn per_second_and_per_minute_windows_both_apply() {
        let limiter = RateLimiter::new(RateLimits {
            per_second: 2,
            per_minute: 3,
        });
        let t0 = Instant::now();
        assert!(limiter.check_at("k", t0).is_ok());
        assert!(limiter.check_at("k", t0).is_ok());
        assert_eq!(
            limiter.check_at("k", t0),
            Err(1),
            "third in the same second"
        );
        assert!(
            limiter.check_at("other", t0).is_ok(),
            "keys are independent"
        );
        let t1 = t0 + Duration::from_secs(1);
        assert!(limiter.check_at("k", t1).is_ok());
        let wait = limiter
            .check_at("k", t1 + Duration::from_secs(1))
            .expect_err("minute window spent");
        assert!((2..=20).contains(&wait), "{wait}");
    }

    #[test]
    fn zero_disables_a_window() {
        let limiter = RateLimiter::new(RateLimits {
            per_second: 0,
            per_minute: 0,
        });
        let t0 = Instant::now();
        assert!((0..1000).all(|_| limiter.check_at("k", t0).is_ok()));
    }
}
