//! Facegate's HTTP layer: application state, route registration, authentication, uploads,
//! the one error shape, and the operational endpoints. Its rooms: `routes/` (the handlers, one
//! file a family; `configure` registers them all), `middleware/` (what runs around them: the
//! API-key extractor, rate limits, the lock-out, body deadlines, request log and metrics) and
//! `openapi/` (the document, the bodies it describes, the validators' constraints).

mod client;
pub use domain::codes;
pub mod error;
mod factory;
mod middleware;
pub mod openapi;
mod params;
mod routes;
pub mod upload;

pub use factory::{AppStateBuilder, app, starting_app};
pub(crate) use middleware::{auth, ops_metrics};
pub use middleware::{deadline, guessing, observability, ratelimit};
pub(crate) use routes::sessions as session_routes;
pub use routes::{health, ui};

use std::sync::Arc;

// The crates behind the composition root, reached through it: `http` depends on `services` and
// `domain` only.
pub(crate) use services::{app, sessions, storage, webhooks};

use actix_web::web;

use crate::error::ApiError;

/// Shared state handed to every handler; made by [`AppStateBuilder`].
#[derive(Debug, Clone)]
pub struct AppState {
    /// The Face Services use cases (crate `app`), with the engine and the face index.
    pub(crate) faces: crate::app::FaceServices,
    pub(crate) limiter: Arc<ratelimit::RateLimiter>,
    pub(crate) metrics: Arc<observability::Metrics>,
    /// Liveness sessions (crate `sessions`).
    pub(crate) sessions: sessions::SessionService,
    /// API keys, readiness and the webhook backlog (crate `app`).
    pub(crate) operations: crate::app::Operations,
    /// Balancers whose `X-Forwarded-For` is believed (`server.trusted_proxies`).
    pub(crate) trusted_proxies: Arc<Vec<ipnet::IpNet>>,
    /// The verification UI's settings (who may frame it).
    pub(crate) ui: Arc<ui::UiSettings>,
    /// Refused credentials per client address (see [`guessing`]).
    pub(crate) failed_credentials: Arc<guessing::FailedCredentials>,
    /// Webhook attempts of this process's worker, by outcome (for the metrics).
    pub(crate) deliveries: Arc<crate::webhooks::DeliveryCounters>,
    /// How long a request body may take (see [`deadline`]).
    pub(crate) body_deadlines: deadline::BodyDeadlines,
    /// The services' one clock (the metrics' webhook backlog age reads it).
    pub(crate) clock: domain::SharedClock,
    /// The OpenAPI document as served ([`openapi::served`]).
    pub(crate) openapi_json: &'static str,
}

/// Runs a blocking use case on actix's blocking pool and maps its error.
pub(crate) async fn blocking<T, E>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    E: Into<ApiError> + Send + 'static,
{
    web::block(work)
        .await
        .map_err(ApiError::from_blocking)?
        .map_err(Into::into)
}

/// Largest JSON body accepted (collection creation and future JSON routes).
pub(crate) const MAX_JSON_BYTES: usize = 64 * 1024;
/// Largest `POST /api/v1/managed-session` body: room for an 8 MB `reference_image` in base64.
pub(crate) const MAX_SESSION_JSON_BYTES: usize = 12 * 1024 * 1024;
