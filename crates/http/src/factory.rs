//! The one app factory: [`AppStateBuilder`] makes the shared state from the engine, the store
//! and the session service, and [`app`] builds the actix `App` with its whole middleware stack
//! (request log and metrics outermost, then the lock-out, then the body deadlines) around every
//! route. The binary, the route tests and the fuzz targets all call these two, so a test
//! exercises exactly what production serves.

use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, Error};
use face_engine::FaceEngine;
use storage::search::FaceSearch;

use crate::deadline::BodyDeadlines;
use crate::guessing::FailedCredentials;
use crate::ratelimit::{RateLimiter, RateLimits};
use crate::{AppState, configure, observability};

/// The built-in `security.failed_credentials_per_minute` (the binary's defaults.toml; a test
/// holds the two alike).
pub const DEFAULT_FAILED_CREDENTIALS_PER_MINUTE: u32 = 30;

/// Everything [`AppState`] is made of that is a setting rather than a service. The defaults
/// are the service's own (`docs/operations.md`).
#[derive(Debug, Clone)]
pub struct AppStateBuilder {
    engine: Arc<FaceEngine>,
    search: Arc<FaceSearch>,
    sessions: sessions::SessionService,
    rate_limits: RateLimits,
    failed_credentials_per_minute: u32,
    trusted_proxies: Vec<ipnet::IpNet>,
    ui: crate::ui::UiSettings,
    deliveries: Arc<webhooks::DeliveryCounters>,
    body_deadlines: BodyDeadlines,
    upload_limits: app::UploadLimits,
}

impl AppStateBuilder {
    /// The state around `engine`, the face index `search` (with its store) and `sessions`,
    /// with the default limits.
    pub fn new(
        engine: Arc<FaceEngine>,
        search: Arc<FaceSearch>,
        sessions: sessions::SessionService,
    ) -> Self {
        Self {
            engine,
            search,
            sessions,
            rate_limits: RateLimits::default(),
            failed_credentials_per_minute: DEFAULT_FAILED_CREDENTIALS_PER_MINUTE,
            trusted_proxies: Vec::new(),
            ui: crate::ui::UiSettings::default(),
            deliveries: Arc::default(),
            body_deadlines: BodyDeadlines::default(),
            upload_limits: app::UploadLimits::default(),
        }
    }

    /// Per-key request limits (`rate_limit.*`; 0 turns a window off).
    pub fn rate_limits(mut self, limits: RateLimits) -> Self {
        self.rate_limits = limits;
        self
    }

    /// No per-key rate limit and no lock-out: for route tests and fuzz targets, which send
    /// many requests from one address and key.
    pub fn limits_off(self) -> Self {
        self.rate_limits(RateLimits {
            per_second: 0,
            per_minute: 0,
        })
        .failed_credentials_per_minute(0)
    }

    /// Refused credentials per address and minute before the lock-out (0 turns it off).
    pub fn failed_credentials_per_minute(mut self, per_minute: u32) -> Self {
        self.failed_credentials_per_minute = per_minute;
        self
    }

    /// Balancers whose `X-Forwarded-For` is believed.
    pub fn trusted_proxies(mut self, proxies: Vec<ipnet::IpNet>) -> Self {
        self.trusted_proxies = proxies;
        self
    }

    /// Who may frame the verification page.
    pub fn ui(mut self, ui: crate::ui::UiSettings) -> Self {
        self.ui = ui;
        self
    }

    /// The webhook worker's attempt counters, shown in the metrics.
    pub fn deliveries(mut self, deliveries: Arc<webhooks::DeliveryCounters>) -> Self {
        self.deliveries = deliveries;
        self
    }

    /// What every upload is held to (`limits.max_image_pixels`).
    pub fn upload_limits(mut self, limits: app::UploadLimits) -> Self {
        self.upload_limits = limits;
        self
    }

    /// How long a request body may take.
    pub fn body_deadlines(mut self, deadlines: BodyDeadlines) -> Self {
        self.body_deadlines = deadlines;
        self
    }

    /// The state. On PostgreSQL the rate limits and the lock-out are counted in the database,
    /// so every replica on it sees the same counts; on SQLite they live in this process.
    pub fn build(self) -> AppState {
        let store = self.search.store().clone();
        let (limiter, failed_credentials) = match store.backend() {
            storage::Backend::Postgres => (
                RateLimiter::shared(self.rate_limits, store.clone()),
                FailedCredentials::shared(self.failed_credentials_per_minute, store),
            ),
            storage::Backend::Sqlite => (
                RateLimiter::new(self.rate_limits),
                FailedCredentials::new(self.failed_credentials_per_minute),
            ),
        };
        // one gate for HTTP inference and live-session frames alike
        let operations = app::Operations::new(self.search.store().clone());
        let faces = app::FaceServices::new(
            self.engine,
            self.search,
            self.sessions.inference_gate(),
            self.upload_limits,
        );
        AppState {
            faces,
            limiter: Arc::new(limiter),
            metrics: Arc::new(observability::Metrics::default()),
            sessions: self.sessions,
            operations,
            trusted_proxies: Arc::new(self.trusted_proxies),
            ui: Arc::new(self.ui),
            failed_credentials: Arc::new(failed_credentials),
            deliveries: self.deliveries,
            body_deadlines: self.body_deadlines,
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
