//! What every replica of a deployment shares through the database beyond the resources
//! themselves: request counters in fixed time windows (per-key rate limits and the failed
//! credential lock-out, so quotas do not multiply with the replica count) and the server
//! secret's check value (a replica started with another secret refuses to start).

use diesel::prelude::*;

use crate::schema::{deployment_facts, request_counters};
use crate::{Entity, StorageError, StorageResult, Store};

/// The fact under which the server secret's check value is kept.
const SECRET_CHECK: &str = "server_secret_check";
/// The label the check value is derived from (an HMAC of it, never the secret).
const SECRET_CHECK_LABEL: &str = "facegate deployment server secret check v1";

/// One counter's state after a hit or a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterWindow {
    /// Hits counted in the current window (including this one, after a hit).
    pub hits: i64,
    /// When the current window ends, unix milliseconds.
    pub resets_at: i64,
}

impl CounterWindow {
    /// Whole seconds from `now` until the window resets, at least 1.
    pub fn seconds_left(&self, now: i64) -> u64 {
        ((self.resets_at - now).max(0) as u64).div_ceil(1000).max(1)
    }
}

fn window_start(now: i64, window_ms: i64) -> i64 {
    now - now.rem_euclid(window_ms.max(1))
}

impl Store {
    /// Counts one hit on the counter `name` in the fixed window of `window_ms` that holds
    /// `now`, atomically across every replica (one upsert), and returns the window's count.
    pub fn count_hit(&self, name: &str, window_ms: i64, now: i64) -> StorageResult<CounterWindow> {
        let start = window_start(now, window_ms);
        let resets_at = start + window_ms;
        let mut conn = self.conn()?;
        let hits = crate::dialect::count_hit(&mut conn, name, start, resets_at)
            .map_err(|e| StorageError::from_diesel(Entity::RequestCounter, e))?;
        Ok(CounterWindow { hits, resets_at })
    }

    /// The count of `name` in the window of `window_ms` that holds `now` (0 when none).
    pub fn hits_in_window(
        &self,
        name: &str,
        window_ms: i64,
        now: i64,
    ) -> StorageResult<CounterWindow> {
        use request_counters as rc;
        let start = window_start(now, window_ms);
        let hits = rc::table
            .filter(rc::name.eq(name))
            .filter(rc::window_start.eq(start))
            .select(rc::hits)
            .first::<i64>(&mut *self.conn()?)
            .optional()
            .map_err(|e| StorageError::from_diesel(Entity::RequestCounter, e))?
            .unwrap_or(0);
        Ok(CounterWindow {
            hits,
            resets_at: start + window_ms,
        })
    }

    /// Deletes counters whose window ended before `now`; returns how many.
    pub fn sweep_request_counters(&self, now: i64) -> StorageResult<usize> {
        use request_counters as rc;
        diesel::delete(rc::table.filter(rc::expires_at.le(now)))
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::RequestCounter, e))
    }

    /// Whether this process's server secret is the deployment's: the first replica to start
    /// records an HMAC of a fixed label under its secret; every later one must produce the
    /// same value (compared in constant time). `false` means tokens and keys issued by the
    /// peers would not verify here, so the caller must refuse to start.
    pub fn server_secret_matches(&self) -> StorageResult<bool> {
        use deployment_facts as df;
        let check = hex::encode(self.secret().derive_key(SECRET_CHECK_LABEL));
        let mut conn = self.conn()?;
        let recorded = diesel::insert_into(df::table)
            .values((
                df::name.eq(SECRET_CHECK),
                df::value.eq(&check),
                df::created_at.eq(self.now_millis()),
            ))
            .execute(&mut *conn)
            .map_err(|e| StorageError::from_diesel(Entity::DeploymentFact, e));
        match recorded {
            // a peer (or an earlier start) recorded it first
            Ok(_) | Err(StorageError::Conflict { .. }) => {}
            Err(other) => return Err(other),
        }
        let stored: String = df::table
            .find(SECRET_CHECK)
            .select(df::value)
            .first(&mut *conn)
            .map_err(|e| StorageError::from_diesel(Entity::DeploymentFact, e))?;
        let stored = hex::decode(stored.trim()).unwrap_or_default();
        Ok(self.secret().verify(SECRET_CHECK_LABEL, &stored))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_start_on_their_boundary_and_seconds_round_up() {
        assert_eq!(window_start(61_500, 60_000), 60_000);
        assert_eq!(window_start(60_000, 60_000), 60_000);
        assert_eq!(window_start(999, 1_000), 0);
        let window = CounterWindow {
            hits: 3,
            resets_at: 120_000,
        };
        assert_eq!(window.seconds_left(61_500), 59);
        assert_eq!(window.seconds_left(119_999), 1);
        assert_eq!(window.seconds_left(130_000), 1);
    }
}
