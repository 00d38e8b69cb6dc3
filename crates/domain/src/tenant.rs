//! Tenants and their API keys. A key's secret is never stored, only its HMAC digest.

use serde::Serialize;
use uuid::Uuid;

use crate::UnixMillis;
use crate::ids::TenantId;

/// An organisation whose resources are isolated from every other tenant's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tenant {
    pub id: TenantId,
    pub name: String,
    pub created_at: UnixMillis,
}

/// An API key's stored record: the non-secret key id, its tenant and lifecycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiKey {
    /// Public, non-secret identifier embedded in the key (`fg_<id>_<secret>`).
    pub id: String,
    pub tenant_id: TenantId,
    pub created_at: UnixMillis,
    pub revoked_at: Option<UnixMillis>,
}

impl ApiKey {
    pub fn is_active(&self) -> bool {
        self.revoked_at.is_none()
    }
}

impl TenantId {
    pub fn as_uuid(&self) -> Uuid {
        self.0
    }
}
