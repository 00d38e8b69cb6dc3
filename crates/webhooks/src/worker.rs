//! The outbox worker: claims due deliveries (leased, so several processes never send the same
//! attempt at once), sends each signed with the tenant's secrets in force, records the attempt
//! and schedules the next. At least once: a process killed mid-attempt leaves its lease to run
//! out, and the delivery is claimed again with the same `webhook-id`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use storage::Store;
use storage::webhooks::{AttemptReport, ClaimedDelivery, NextStep};

use crate::backoff;
use crate::delivery::{AttemptResult, Deliverer, TIMEOUT, elapsed_ms};

/// A claim lasts this long: well past one attempt's timeout.
pub const LEASE_MS: i64 = 3 * TIMEOUT.as_millis() as i64;
/// Deliveries claimed per round.
const BATCH: usize = 16;

/// Attempts this process has recorded, by outcome (for the metrics).
#[derive(Debug, Default)]
pub struct DeliveryCounters {
    pub delivered: AtomicU64,
    pub retried: AtomicU64,
    pub gave_up: AtomicU64,
}

impl DeliveryCounters {
    fn count(&self, next: NextStep) {
        let counter = match next {
            NextStep::Delivered => &self.delivered,
            NextStep::RetryAt(_) => &self.retried,
            NextStep::GiveUp => &self.gave_up,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// `(outcome, attempts)` as the metrics name them.
    pub fn by_outcome(&self) -> [(&'static str, u64); 3] {
        [
            ("delivered", self.delivered.load(Ordering::Relaxed)),
            ("retry", self.retried.load(Ordering::Relaxed)),
            ("gave_up", self.gave_up.load(Ordering::Relaxed)),
        ]
    }
}

/// Delivers queued webhooks from the store.
#[derive(Debug, Clone)]
pub struct WebhookWorker {
    store: Store,
    deliverer: Deliverer,
    counters: Arc<DeliveryCounters>,
}

impl WebhookWorker {
    /// A worker that counts its attempts in `counters`.
    pub fn new(store: Store, deliverer: Deliverer, counters: Arc<DeliveryCounters>) -> Self {
        Self {
            store,
            deliverer,
            counters,
        }
    }

    /// One round: claims what is due now and attempts each. Returns how many were attempted.
    pub fn tick(&self) -> usize {
        self.tick_at(self.store.now_millis())
    }

    /// One round at `now` (unix ms): claims what is due by then and attempts each, recording
    /// the attempts as started at `now` and scheduling retries from it (tests advance this
    /// clock instead of sleeping). Returns how many were attempted.
    pub fn tick_at(&self, now: i64) -> usize {
        let claimed = match self.store.claim_due_webhooks(now, BATCH, LEASE_MS) {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::warn!(error = %e, "webhook claim failed");
                return 0;
            }
        };
        // each attempt starts when the one before it ended: `now` plus the round's time so far
        let round = Instant::now();
        for claim in &claimed {
            self.attempt(claim, now + elapsed_ms(round));
        }
        claimed.len()
    }

    fn attempt(&self, claim: &ClaimedDelivery, started_at: i64) {
        let delivery = &claim.delivery;
        // the first delivery of a tenant creates its secret; every secret in force signs
        let secrets = self
            .store
            .webhook_secret(delivery.tenant_id)
            .and_then(|_| self.store.webhook_secrets(delivery.tenant_id));
        let secrets = match secrets {
            Ok(secrets) => secrets,
            Err(e) => return tracing::warn!(error = %e, "webhook secrets unreadable"),
        };
        let start = Instant::now();
        let webhook_id = crate::webhook_id(delivery.id);
        let timestamp = started_at / 1000;
        let result = self.deliverer.attempt(
            &delivery.url,
            &webhook_id,
            timestamp,
            &delivery.payload,
            &secrets,
        );
        let attempts = delivery.attempts + 1;
        let retry = |retry_after| match backoff::next_delay_ms(attempts, retry_after) {
            Some(delay) => NextStep::RetryAt(started_at + elapsed_ms(start) + delay as i64),
            None => NextStep::GiveUp,
        };
        let (status_code, error, next) = match result {
            AttemptResult::Answered { status, .. } if (200..300).contains(&status) => {
                (Some(status), None, NextStep::Delivered)
            }
            AttemptResult::Answered { status: 410, .. } => (
                Some(410),
                Some("410 Gone: the receiver asked to stop".to_string()),
                NextStep::GiveUp,
            ),
            AttemptResult::Answered {
                status,
                retry_after,
            } => (
                Some(status),
                Some(format!("HTTP {status}")),
                retry(retry_after),
            ),
            AttemptResult::Failed(error) => (None, Some(error), retry(None)),
        };
        let report = AttemptReport {
            started_at,
            duration_ms: elapsed_ms(start),
            status_code,
            error,
            next,
        };
        tracing::info!(delivery = %delivery.id, session = %delivery.session_id, attempt = attempts, status = ?status_code, next = ?next, "webhook attempt");
        match self.store.record_webhook_attempt(claim, &report) {
            Ok(true) => self.counters.count(next),
            Ok(false) => {
                tracing::warn!(delivery = %delivery.id, "webhook lease lost before the attempt was recorded")
            }
            Err(e) => {
                tracing::warn!(error = %e, "webhook attempt not recorded; it will be retried")
            }
        }
    }

    /// Runs rounds until `shutdown` is set, pausing `idle` when nothing was due.
    pub fn run(&self, shutdown: &AtomicBool, idle: Duration) {
        while !shutdown.load(Ordering::Relaxed) {
            if self.tick() == 0 {
                std::thread::sleep(idle);
            }
        }
    }

    /// Starts [`run`](Self::run) on its own thread.
    pub fn spawn(
        self,
        shutdown: Arc<AtomicBool>,
        idle: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        std::thread::Builder::new()
            .name("webhook-worker".into())
            .spawn(move || self.run(&shutdown, idle))
    }
}
