//! The webhook outbox's rows: what a completed session queues ([`NewDelivery`], inserted in the
//! transaction that completes it by `insert_delivery`) and the row itself. Sessions write
//! them, the webhook repository claims and records them; both depend on this module and not on
//! each other.

use diesel::prelude::*;
use domain::{DeliveryStatus, TenantId, WebhookDelivery};
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::webhook_deliveries as wd;
use crate::{AnyConnection, parse_uuid};

/// The webhook to queue with a session's outcome (the outbox row).
#[derive(Debug, Clone)]
pub struct NewDelivery {
    pub url: String,
    pub payload: String,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = wd)]
pub(crate) struct DeliveryRow {
    pub(crate) id: String,
    pub(crate) tenant_id: String,
    pub(crate) session_id: String,
    pub(crate) url: String,
    pub(crate) payload: String,
    pub(crate) status: String,
    pub(crate) attempts: i32,
    pub(crate) next_attempt_at: i64,
    pub(crate) last_error: Option<String>,
    pub(crate) created_at: i64,
    pub(crate) lease_token: Option<String>,
}

impl DeliveryRow {
    pub(crate) fn into_domain(self) -> StorageResult<WebhookDelivery> {
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

/// Inserts the outbox row of a session (inside the caller's transaction); due now.
pub(crate) fn insert_delivery(
    conn: &mut AnyConnection,
    tenant_id: &str,
    session_id: Uuid,
    new: &NewDelivery,
    now: i64,
) -> StorageResult<()> {
    let row = DeliveryRow {
        id: Uuid::now_v7().to_string(),
        tenant_id: tenant_id.to_owned(),
        session_id: session_id.to_string(),
        url: new.url.clone(),
        payload: new.payload.clone(),
        status: DeliveryStatus::Pending.as_str().into(),
        attempts: 0,
        next_attempt_at: now,
        last_error: None,
        created_at: now,
        lease_token: None,
    };
    diesel::insert_into(wd::table)
        .values(row)
        .execute(conn)
        .map_err(|e| StorageError::from_diesel(Entity::WebhookDelivery, e))?;
    Ok(())
}
