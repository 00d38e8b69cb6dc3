//! The use cases of running the service rather than of faces or sessions: which tenant an API
//! key names, whether the database answers (readiness) and the webhook outbox's backlog (the
//! metrics). The web layer reaches the store only through these and the other use cases.

use storage::Store;
use storage::webhooks::WebhookBacklog;

use crate::AppResult;

/// The operational use cases over the store.
#[derive(Debug, Clone)]
pub struct Operations {
    store: Store,
}

impl Operations {
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// The tenant of a presented API key, `None` when no stored key matches (compared in
    /// constant time against the key's HMAC digest by the store).
    pub fn tenant_of_api_key(&self, presented: &str) -> AppResult<Option<domain::TenantId>> {
        Ok(self.store.authenticate_api_key(presented)?)
    }

    /// Whether the database answers a trivial query now.
    pub fn database_reachable(&self) -> bool {
        self.store.ping().is_ok()
    }

    /// Deliveries pending in the whole deployment and the age of the oldest.
    pub fn webhook_backlog(&self) -> AppResult<WebhookBacklog> {
        Ok(self.store.webhook_backlog()?)
    }
}
