//! Webhook deliveries: the outbox of verdict notifications (one row per session, inserted in the
//! transaction that completes it), leased claims that are safe for several processes, the
//! attempt log, and the per-session listing for inspection.

use diesel::prelude::*;
use domain::{DeliveryStatus, TenantId, WebhookAttempt, WebhookDelivery};
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::outbox::{DeliveryRow, NewDelivery, insert_delivery};
use crate::schema::{webhook_attempts as wa, webhook_deliveries as wd};
use crate::{Store, secrets};

/// The webhook outbox's backlog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookBacklog {
    pub pending: u64,
    /// Milliseconds since the epoch; `None` when nothing is pending.
    pub oldest_created_at: Option<i64>,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = wa)]
struct AttemptRow {
    id: String,
    delivery_id: String,
    attempt: i32,
    started_at: i64,
    duration_ms: i64,
    status_code: Option<i32>,
    outcome: String,
    error: Option<String>,
}

/// A delivery claimed by one process: only the holder of `lease` may record its attempt.
#[derive(Debug, Clone)]
pub struct ClaimedDelivery {
    pub delivery: WebhookDelivery,
    pub lease: String,
}

/// What one attempt did, and what happens next.
#[derive(Debug, Clone)]
pub struct AttemptReport {
    pub started_at: i64,
    pub duration_ms: i64,
    pub status_code: Option<u16>,
    pub error: Option<String>,
    pub next: NextStep,
}

/// After an attempt: done, try again at a time, or give up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextStep {
    Delivered,
    RetryAt(i64),
    GiveUp,
}

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::WebhookDelivery, e)
}

impl Store {
    /// Queues a delivery for a session, due now (the completion path queues it itself).
    pub fn enqueue_webhook(
        &self,
        tenant: TenantId,
        session_id: Uuid,
        url: &str,
        payload: &str,
    ) -> StorageResult<WebhookDelivery> {
        let new = NewDelivery {
            url: url.to_owned(),
            payload: payload.to_owned(),
        };
        insert_delivery(
            &mut *self.conn()?,
            &tenant.0.to_string(),
            session_id,
            &new,
            self.now_millis(),
        )?;
        self.delivery_of_session(session_id)
    }

    fn delivery_of_session(&self, session_id: Uuid) -> StorageResult<WebhookDelivery> {
        wd::table
            .filter(wd::session_id.eq(session_id.to_string()))
            .first::<DeliveryRow>(&mut *self.conn()?)
            .map_err(db)?
            .into_domain()
    }

    /// Claims up to `limit` due deliveries: each gets a fresh lease token and is pushed
    /// `lease_ms` into the future, so no other process picks it up while this one sends it
    /// (keep `lease_ms` longer than the request timeout). A claim is a compare-and-set on the
    /// row's due time, so two processes never both win the same attempt.
    pub fn claim_due_webhooks(
        &self,
        now: i64,
        limit: usize,
        lease_ms: i64,
    ) -> StorageResult<Vec<ClaimedDelivery>> {
        let mut conn = self.conn()?;
        let due = wd::table
            .filter(wd::status.eq(DeliveryStatus::Pending.as_str()))
            .filter(wd::next_attempt_at.le(now))
            .order(wd::next_attempt_at)
            .limit(limit as i64)
            .load::<DeliveryRow>(&mut *conn)
            .map_err(db)?;
        let mut claimed = Vec::new();
        for row in due {
            let lease = secrets::random_hex(16);
            let won = diesel::update(
                wd::table
                    .find(&row.id)
                    .filter(wd::status.eq(DeliveryStatus::Pending.as_str()))
                    .filter(wd::next_attempt_at.eq(row.next_attempt_at)),
            )
            .set((
                wd::next_attempt_at.eq(now + lease_ms),
                wd::lease_token.eq(Some(&lease)),
            ))
            .execute(&mut *conn)
            .map_err(db)?;
            if won == 1 {
                claimed.push(ClaimedDelivery {
                    delivery: row.into_domain()?,
                    lease,
                });
            }
        }
        Ok(claimed)
    }

    /// Records an attempt of a claimed delivery and its next step. Returns `false` (and records
    /// nothing) when the lease was lost: the claim expired and another process took it over.
    pub fn record_webhook_attempt(
        &self,
        claim: &ClaimedDelivery,
        report: &AttemptReport,
    ) -> StorageResult<bool> {
        let (status, next) = match report.next {
            NextStep::Delivered => (DeliveryStatus::Delivered, self.now_millis()),
            NextStep::RetryAt(at) => (DeliveryStatus::Pending, at),
            NextStep::GiveUp => (DeliveryStatus::Failed, self.now_millis()),
        };
        let outcome = match report.next {
            NextStep::Delivered => "delivered",
            NextStep::RetryAt(_) => "retry",
            NextStep::GiveUp => "gave_up",
        };
        let id = claim.delivery.id.to_string();
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, StorageError> {
            let changed = diesel::update(
                wd::table
                    .find(&id)
                    .filter(wd::lease_token.eq(Some(&claim.lease))),
            )
            .set((
                wd::status.eq(status.as_str()),
                wd::attempts.eq(wd::attempts + 1),
                wd::next_attempt_at.eq(next),
                wd::last_error.eq(&report.error),
                wd::lease_token.eq(None::<String>),
            ))
            .execute(c)
            .map_err(db)?;
            if changed == 0 {
                return Ok(false);
            }
            // the lease made this process the only writer since the claim
            let attempt = claim.delivery.attempts as i32 + 1;
            diesel::insert_into(wa::table)
                .values(AttemptRow {
                    id: Uuid::now_v7().to_string(),
                    delivery_id: id.clone(),
                    attempt,
                    started_at: report.started_at,
                    duration_ms: report.duration_ms,
                    status_code: report.status_code.map(i32::from),
                    outcome: outcome.into(),
                    error: report.error.clone(),
                })
                .execute(c)
                .map_err(db)?;
            Ok(true)
        })
    }

    /// Deliveries still pending in the whole deployment, and when the oldest was queued (for
    /// the backlog metrics).
    pub fn webhook_backlog(&self) -> StorageResult<WebhookBacklog> {
        let mut conn = self.conn()?;
        let pending = wd::table.filter(wd::status.eq(DeliveryStatus::Pending.as_str()));
        let count: i64 = pending.count().get_result(&mut *conn).map_err(db)?;
        let oldest: Option<i64> = pending
            .select(diesel::dsl::min(wd::created_at))
            .first(&mut *conn)
            .map_err(db)?;
        Ok(WebhookBacklog {
            pending: count.max(0) as u64,
            oldest_created_at: oldest,
        })
    }

    pub fn webhook_delivery(&self, id: Uuid) -> StorageResult<WebhookDelivery> {
        wd::table
            .find(id.to_string())
            .first::<DeliveryRow>(&mut *self.conn()?)
            .map_err(db)?
            .into_domain()
    }

    /// The delivery of a session of `tenant` with its attempts, oldest first (none when the
    /// session had no webhook).
    pub fn webhook_deliveries_of_session(
        &self,
        tenant: TenantId,
        session_id: Uuid,
    ) -> StorageResult<Vec<(WebhookDelivery, Vec<WebhookAttempt>)>> {
        let mut conn = self.conn()?;
        let rows = wd::table
            .filter(wd::session_id.eq(session_id.to_string()))
            .filter(wd::tenant_id.eq(tenant.0.to_string()))
            .load::<DeliveryRow>(&mut *conn)
            .map_err(db)?;
        let mut out = Vec::new();
        for row in rows {
            let attempts = wa::table
                .filter(wa::delivery_id.eq(&row.id))
                .order(wa::attempt)
                .load::<AttemptRow>(&mut *conn)
                .map_err(db)?
                .into_iter()
                .map(|a| WebhookAttempt {
                    attempt: a.attempt.max(0) as u32,
                    started_at: a.started_at,
                    duration_ms: a.duration_ms,
                    status_code: a.status_code.and_then(|c| u16::try_from(c).ok()),
                    outcome: a.outcome,
                    error: a.error,
                })
                .collect();
            out.push((row.into_domain()?, attempts));
        }
        Ok(out)
    }
}
