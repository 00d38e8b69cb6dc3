//! The one app factory: [`AppStateBuilder`] makes the shared state from the services
//! (`services::Services::open`) and the web layer's settings, and [`app`] builds the actix
//! `App` with its whole middleware stack (request log and metrics outermost, then the
//! lock-out, then the body deadlines) around every route. The binary, the route tests and the
//! fuzz targets all call these two, so a test exercises exactly what production serves.

use std::sync::Arc;
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, Error};
use services::{Services, Settings, SettingsError};

use crate::deadline::BodyDeadlines;
use crate::guessing::FailedCredentials;
use crate::ratelimit::{RateLimiter, RateLimits};
use crate::routes::configure;
use crate::{AppState, observability};

/// The services and the web layer's settings that [`AppState`] is made of.
#[derive(Debug, Clone)]
pub struct AppStateBuilder {
    services: Services,
    rate_limits: RateLimits,
    failed_credentials_per_minute: u32,
    trusted_proxies: Vec<ipnet::IpNet>,
    ui: crate::ui::UiSettings,
    body_deadlines: BodyDeadlines,
}

impl AppStateBuilder {
    /// The state around `services`, with the web layer's settings from `settings` (rate
    /// limits, the lock-out, trusted proxies, who may frame the page, body deadlines): the
    /// defaults are `settings`' own, never a copy kept here.
    pub fn new(services: Services, settings: &Settings) -> Result<Self, SettingsError> {
        let ui = crate::ui::UiSettings::new(&settings.ui.embed_origins).map_err(|reason| {
            SettingsError::Invalid {
                key: "ui.embed_origins",
                reason,
            }
        })?;
        Ok(Self {
            services,
            rate_limits: RateLimits {
                per_second: settings.rate_limit.per_second,
                per_minute: settings.rate_limit.per_minute,
            },
            failed_credentials_per_minute: settings.security.failed_credentials_per_minute,
            trusted_proxies: settings.trusted_proxies()?,
            ui,
            body_deadlines: BodyDeadlines {
                whole: Duration::from_secs(settings.server.body_timeout_seconds),
                idle: Duration::from_secs(settings.server.body_idle_seconds),
            },
        })
    }

    /// The state. On PostgreSQL the rate limits and the lock-out are counted in the database,
    /// so every replica on it sees the same counts; on SQLite they live in this process.
    pub fn build(self) -> AppState {
        let services = self.services;
        let store = services.store;
        let clock = store.clock().clone();
        let (limiter, failed_credentials) = match store.backend() {
            crate::storage::Backend::Postgres => (
                RateLimiter::shared(self.rate_limits, store.clone()),
                FailedCredentials::shared(self.failed_credentials_per_minute, store),
            ),
            crate::storage::Backend::Sqlite => (
                RateLimiter::new(self.rate_limits),
                FailedCredentials::new(self.failed_credentials_per_minute),
            ),
        };
        AppState {
            faces: services.faces,
            limiter: Arc::new(limiter),
            metrics: Arc::new(observability::Metrics::default()),
            sessions: services.sessions,
            operations: services.operations,
            trusted_proxies: Arc::new(self.trusted_proxies),
            ui: Arc::new(self.ui),
            failed_credentials: Arc::new(failed_credentials),
            deliveries: services.deliveries,
            body_deadlines: self.body_deadlines,
            clock,
            openapi_json: crate::openapi::served(),
        }
    }
}

/// The actix `App` that serves `state`: every route behind the whole middleware stack.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = Error,
        InitError = (),
    >,
> {
    let deadlines = state.body_deadlines;
    App::new()
        .wrap(from_fn(move |req, next| {
            crate::deadline::limit_body_time(deadlines, req, next)
        }))
        .wrap(from_fn(crate::guessing::refuse_guessers))
        .wrap(from_fn(observability::request_log))
        .configure(configure(state))
}

/// The `App` of the start-up listener, before the state exists: every request is answered 502
/// `backend_starting` with `Retry-After`.
pub fn starting_app() -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = Error,
        InitError = (),
    >,
> {
    App::new().default_service(actix_web::web::to(crate::health::starting))
}
