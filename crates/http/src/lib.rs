//! Facegate's HTTP layer: application state, route registration, authentication, uploads,
//! the one error shape, and the operational endpoints.

mod auth;
mod client;
pub mod codes;
mod collections;
pub mod deadline;
pub mod error;
mod faces;
mod factory;
pub mod guessing;
pub mod health;
mod liveness;
pub mod observability;
pub mod openapi;
mod openapi_constraints;
mod ops_metrics;
mod params;
pub mod ratelimit;
mod routes;
mod search;
pub use factory::{AppStateBuilder, DEFAULT_FAILED_CREDENTIALS_PER_MINUTE, app, starting_app};
pub mod ui;
pub mod upload;
mod ws;

use std::sync::Arc;

use actix_web::web;

use crate::error::ApiError;

/// Shared state handed to every handler; made by [`AppStateBuilder`].
#[derive(Debug, Clone)]
pub struct AppState {
    /// The Face Services use cases (crate `app`), with the engine and the face index.
    pub faces: app::FaceServices,
    pub limiter: Arc<ratelimit::RateLimiter>,
    pub metrics: Arc<observability::Metrics>,
    /// Liveness sessions (crate `sessions`).
    pub sessions: sessions::SessionService,
    /// Balancers whose `X-Forwarded-For` is believed (`server.trusted_proxies`).
    pub trusted_proxies: Arc<Vec<ipnet::IpNet>>,
    /// The verification UI's settings (who may frame it).
    pub ui: Arc<ui::UiSettings>,
    /// Refused credentials per client address (see [`guessing`]).
    pub failed_credentials: Arc<guessing::FailedCredentials>,
    /// Webhook attempts of this process's worker, by outcome (for the metrics).
    pub deliveries: Arc<webhooks::DeliveryCounters>,
    /// How long a request body may take (see [`deadline`]).
    pub body_deadlines: deadline::BodyDeadlines,
}

/// Runs a blocking use case on actix's blocking pool and maps its error.
pub(crate) async fn blocking<T, E>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    E: Into<ApiError> + Send + 'static,
{
    web::block(work).await?.map_err(Into::into)
}

/// Largest JSON body accepted (collection creation and future JSON routes).
pub(crate) const MAX_JSON_BYTES: usize = 64 * 1024;
/// Largest `POST /api/v1/managed-session` body: room for an 8 MB `reference_image` in base64.
pub(crate) const MAX_SESSION_JSON_BYTES: usize = 12 * 1024 * 1024;

pub use routes::configure;
