//! Facegate webhooks: the verdict notifications of liveness sessions, delivered at least once
//! from the storage outbox.
//!
//! - [`guard`]: the SSRF address guard for `webhook_url` and `redirect_url`.
//! - [`signing`]: Standard Webhooks signatures.
//! - [`backoff`]: the retry schedule.
//! - [`delivery`]: one HTTPS attempt through the guarded resolver.
//! - [`worker`]: the outbox worker (`tick_at(now)` on a clock a test advances, `run(shutdown)`
//!   for the service).

pub mod backoff;
pub mod delivery;
pub mod guard;
pub mod signing;
pub mod worker;

pub use delivery::Deliverer;
pub use guard::{AddressGuard, UrlRefusal};
pub use worker::{DeliveryCounters, WebhookWorker};

/// Errors of setting up delivery.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error("webhooks.ca_file: {0}")]
    CaFile(String),
    #[error("webhooks.allowed_networks: {0}")]
    AllowedNetworks(String),
}

/// The `webhook-id` of a delivery: the same on every attempt, so receivers can deduplicate.
pub fn webhook_id(delivery_id: uuid::Uuid) -> String {
    format!("msg_{}", delivery_id.simple())
}
