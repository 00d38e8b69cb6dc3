//! Webhook deliveries: an outbox of verdict notifications with retry bookkeeping, safe for
//! several processes (a delivery is claimed by moving its next attempt time forward).

use diesel::prelude::*;
use domain::{DeliveryStatus, TenantId, WebhookDelivery};
use uuid::Uuid;

use crate::error::{StorageError, StorageResult};
use crate::schema::webhook_deliveries as wd;
use crate::{Store, now_millis, parse_uuid};

#[derive(Queryable, Insertable)]
#[diesel(table_name = wd)]
struct DeliveryRow {
    id: String,
    tenant_id: String,
    session_id: String,
    url: String,
    payload: String,
    status: String,
    attempts: i32,
    next_attempt_at: i64,
    last_error: Option<String>,
    created_at: i64,
}

impl DeliveryRow {
    fn into_domain(self) -> StorageResult<WebhookDelivery> {
        Ok(WebhookDelivery {
            id: parse_uuid(&self.id)?,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            session_id: parse_uuid(&self.session_id)?,
            url: self.url,
            payload: self.payload,
            status: DeliveryStatus::parse(&self.status).ok_or_else(|| {
                StorageError::Corrupt(format!("delivery status `{}`", self.status))
            })?,
            attempts: self.attempts.max(0) as u32,
            next_attempt_at: self.next_attempt_at,
            last_error: self.last_error,
            created_at: self.created_at,
        })
    }
}

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel("webhook delivery", e)
}

impl Store {
    /// Queues a delivery, due now.
    pub fn enqueue_webhook(
        &self,
        tenant: TenantId,
        session_id: Uuid,
        url: &str,
        payload: &str,
    ) -> StorageResult<WebhookDelivery> {
        let now = now_millis();
        let row = DeliveryRow {
            id: Uuid::now_v7().to_string(),
            tenant_id: tenant.0.to_string(),
            session_id: session_id.to_string(),
            url: url.to_owned(),
            payload: payload.to_owned(),
            status: DeliveryStatus::Pending.as_str().into(),
            attempts: 0,
            next_attempt_at: now,
            last_error: None,
            created_at: now,
        };
        diesel::insert_into(wd::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(db)?;
        row.into_domain()
    }

    /// Claims up to `limit` due deliveries: each is pushed `lease_ms` into the future so that no
    /// other process picks it up while this one is sending it.
    pub fn claim_due_webhooks(
        &self,
        now: i64,
        limit: usize,
        lease_ms: i64,
    ) -> StorageResult<Vec<WebhookDelivery>> {
        let due = wd::table
            .filter(wd::status.eq(DeliveryStatus::Pending.as_str()))
            .filter(wd::next_attempt_at.le(now))
            .order(wd::next_attempt_at)
            .limit(limit as i64)
            .load::<DeliveryRow>(&mut *self.conn()?)
            .map_err(db)?;
        let mut claimed = Vec::new();
        for row in due {
            let won = diesel::update(
                wd::table
                    .find(&row.id)
                    .filter(wd::next_attempt_at.eq(row.next_attempt_at)),
            )
            .set(wd::next_attempt_at.eq(now + lease_ms))
            .execute(&mut *self.conn()?)
            .map_err(db)?;
            if won == 1 {
                claimed.push(row.into_domain()?);
            }
        }
        Ok(claimed)
    }

    /// Records an attempt's outcome: delivered, retry at `retry_at`, or given up (`None`).
    pub fn record_webhook_attempt(
        &self,
        id: Uuid,
        outcome: Result<(), (String, Option<i64>)>,
    ) -> StorageResult<()> {
        let (status, next, error) = match outcome {
            Ok(()) => (DeliveryStatus::Delivered, now_millis(), None),
            Err((error, Some(retry_at))) => (DeliveryStatus::Pending, retry_at, Some(error)),
            Err((error, None)) => (DeliveryStatus::Failed, now_millis(), Some(error)),
        };
        diesel::update(wd::table.find(id.to_string()))
            .set((
                wd::status.eq(status.as_str()),
                wd::attempts.eq(wd::attempts + 1),
                wd::next_attempt_at.eq(next),
                wd::last_error.eq(error),
            ))
            .execute(&mut *self.conn()?)
            .map_err(db)
            .map(|_| ())
    }

    pub fn webhook_delivery(&self, id: Uuid) -> StorageResult<WebhookDelivery> {
        wd::table
            .find(id.to_string())
            .first::<DeliveryRow>(&mut *self.conn()?)
            .map_err(db)?
            .into_domain()
    }
}
