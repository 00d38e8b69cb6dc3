//! Webhook deliveries: the verdict notification queued for a session, with its retry state.

use serde::Serialize;
use uuid::Uuid;

use crate::UnixMillis;
use crate::ids::TenantId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum DeliveryStatus {
    Pending,
    Delivered,
    Failed,
}

impl DeliveryStatus {
    /// Its name in the API and the database (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The delivery status a stored or sent name names.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WebhookDelivery {
    pub id: Uuid,
    pub tenant_id: TenantId,
    pub session_id: Uuid,
    pub url: String,
    /// The JSON body posted to `url`.
    pub payload: String,
    pub status: DeliveryStatus,
    pub attempts: u32,
    pub next_attempt_at: UnixMillis,
    pub last_error: Option<String>,
    pub created_at: UnixMillis,
}

/// One delivery attempt, as the inspection endpoint lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WebhookAttempt {
    pub attempt: u32,
    pub started_at: UnixMillis,
    pub duration_ms: i64,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// `delivered`, `retry` or `gave_up`.
    pub outcome: String,
    pub error: Option<String>,
}
