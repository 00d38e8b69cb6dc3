//! `facegate serve`: listens at once (answering 502 `backend_starting` while it prepares), then
//! opens and migrates the database, rebuilds the search index and loads the models, and serves
//! HTTP with its background workers (retention sweeper, webhook delivery) sharing one shutdown
//! signal; on exit it drains in-flight requests and joins the workers.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use actix_web::{App, HttpServer, web};
use http::AppState;
use storage::search::FaceSearch;

use crate::settings::Settings;

/// Seconds in-flight requests get to finish on shutdown.
const SHUTDOWN_GRACE_SECONDS: u64 = 30;

pub fn run(settings: &Settings) -> Result<(), String> {
    let address = settings.bind_address().map_err(|e| e.to_string())?;
    let tls = match settings.tls_enabled() {
        true => Some(crate::tls::server_config(&settings.server.tls)?),
        false => None,
    };
    let listener = TcpListener::bind(address).map_err(|e| format!("bind {address}: {e}"))?;
    // accepted connections inherit it: a client that stops reading what it asked for is
    // dropped by the kernel instead of holding its connection and buffers for ever
    let stalled = Duration::from_secs(settings.server.stalled_client_seconds);
    socket2::SockRef::from(&listener)
        .set_tcp_user_timeout(Some(stalled))
        .map_err(|e| format!("server.stalled_client_seconds: {e}"))?;
    let settings = settings.clone();
    let shutdown = Arc::new(AtomicBool::new(false));
    let workers_shutdown = shutdown.clone();
    let outcome = actix_web::rt::System::new().block_on(async move {
        let starting =
            HttpServer::new(|| App::new().default_service(web::to(http::health::starting)))
                .workers(1)
                .disable_signals()
                .listen(listener.try_clone().map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?
                .run();
        let starting_handle = starting.handle();
        let starting_task = actix_web::rt::spawn(starting);
        tracing::info!(%address, tls = settings.tls_enabled(), "listening; starting up");
        let deadlines = body_deadlines(&settings);
        let prepared = web::block(move || prepare(settings, workers_shutdown))
            .await
            .map_err(|e| e.to_string())??;
        let (state, workers, http_workers) = prepared;
        let server = HttpServer::new(move || {
            App::new()
                .wrap(actix_web::middleware::from_fn(move |req, next| {
                    http::deadline::limit_body_time(deadlines, req, next)
                }))
                .wrap(actix_web::middleware::from_fn(
                    http::guessing::refuse_guessers,
                ))
                .wrap(actix_web::middleware::from_fn(
                    http::observability::request_log,
                ))
                .configure(http::configure(state.clone()))
        })
        .workers(http_workers)
        .shutdown_timeout(SHUTDOWN_GRACE_SECONDS);
        let server = match tls {
            Some(config) => server.listen_rustls_0_23(listener, config),
            None => server.listen(listener),
        }
        .map_err(|e| e.to_string())?
        .run();
        starting_handle.stop(true).await;
        let _ = starting_task.await;
        tracing::info!(%address, "ready");
        let served = server.await.map_err(|e| format!("server: {e}"));
        Ok::<_, String>((served, workers))
    });
    shutdown.store(true, Ordering::SeqCst);
    let (served, workers) = outcome?;
    for worker in workers {
        let _ = worker.join();
    }
    served
}

fn body_deadlines(settings: &Settings) -> http::deadline::BodyDeadlines {
    http::deadline::BodyDeadlines {
        whole: Duration::from_secs(settings.server.body_timeout_seconds),
        idle: Duration::from_secs(settings.server.body_idle_seconds),
    }
}

type Prepared = (AppState, Vec<JoinHandle<()>>, usize);

/// Everything before serving: database, index, models, services and background workers.
fn prepare(settings: Settings, shutdown: Arc<AtomicBool>) -> Result<Prepared, String> {
    let store = crate::database::open(&settings)?;
    let applied = store.migrate().map_err(|e| e.to_string())?;
    if !store.server_secret_matches().map_err(|e| e.to_string())? {
        return Err(
            "security.server_secret differs from the one this database was set up \
                    with: every replica must share one secret (API keys, session tokens and \
                    webhook secrets are sealed under it); refusing to start"
                .into(),
        );
    }
    let search = Arc::new(FaceSearch::new(store.clone()));
    let faces = search.rebuild_all().map_err(|e| e.to_string())?;
    tracing::info!(backend = ?store.backend(), applied, faces, "database ready");
    let engine = Arc::new(settings.models.load_engine()?);
    tracing::info!(embedder = engine.embedder_id(), "models loaded");
    let allowed = webhooks::guard::parse_networks(&settings.webhooks.allowed_networks)?;
    let guard = webhooks::AddressGuard::new(allowed);
    let sessions = sessions::SessionService::new(
        store.clone(),
        engine.clone(),
        guard.clone(),
        session_settings(&settings),
        settings.sessions.analysis_threads,
    )
    .map_err(|e| e.to_string())?;
    let mut workers = vec![spawn_retention_sweeper(
        store.clone(),
        Duration::from_secs(settings.sessions.sweep_interval_seconds),
        shutdown.clone(),
    )?];
    let deliveries = Arc::new(webhooks::DeliveryCounters::default());
    if settings.webhooks.deliver {
        let ca_file = Some(settings.webhooks.ca_file.trim())
            .filter(|f| !f.is_empty())
            .map(std::path::Path::new);
        let deliverer = webhooks::Deliverer::new(guard, ca_file).map_err(|e| e.to_string())?;
        let worker = webhooks::WebhookWorker::new(store.clone(), deliverer, deliveries.clone())
            .spawn(
                shutdown,
                Duration::from_millis(settings.webhooks.poll_interval_ms.max(10)),
            )
            .map_err(|e| format!("cannot start the webhook worker: {e}"))?;
        workers.push(worker);
    }
    let limits = http::ratelimit::RateLimits {
        per_second: settings.rate_limit.per_second,
        per_minute: settings.rate_limit.per_minute,
    };
    // on a shared database every replica counts against the same limits
    let (limiter, failed_credentials) = {
        let per_minute = settings.security.failed_credentials_per_minute;
        match store.backend() {
            storage::Backend::Postgres => (
                http::ratelimit::RateLimiter::shared(limits, store.clone()),
                http::guessing::FailedCredentials::shared(per_minute, store.clone()),
            ),
            storage::Backend::Sqlite => (
                http::ratelimit::RateLimiter::new(limits),
                http::guessing::FailedCredentials::new(per_minute),
            ),
        }
    };
    let state = AppState {
        engine,
        search,
        limiter: Arc::new(limiter),
        metrics: Arc::new(http::observability::Metrics::default()),
        inference: Arc::new(http::gate::InferenceGate::per_core()),
        sessions,
        trusted_proxies: Arc::new(webhooks::guard::parse_networks(
            &settings.server.trusted_proxies,
        )?),
        ui: Arc::new(
            http::ui::UiSettings::new(&settings.ui.embed_origins)
                .map_err(|e| format!("ui.embed_origins: {e}"))?,
        ),
        failed_credentials: Arc::new(failed_credentials),
        deliveries,
    };
    let http_workers = match settings.server.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    Ok((state, workers, http_workers))
}

fn session_settings(settings: &Settings) -> sessions::SessionSettings {
    let direct = &settings.sessions.direct;
    sessions::SessionSettings {
        public_url: settings.public_url(),
        lifetime_ms: settings.sessions.lifetime_minutes as i64 * 60_000,
        direct: sessions::DirectSessionPolicy {
            enabled: direct.enabled,
            max_attempts: direct.max_attempts,
            window_seconds: direct.window_minutes * 60,
            tenant: direct.tenant.clone(),
            captcha: (!direct.captcha_verify_url.trim().is_empty()).then(|| {
                sessions::CaptchaVerifier {
                    verify_url: direct.captcha_verify_url.trim().to_owned(),
                    secret: direct.captcha_secret.clone(),
                }
            }),
        },
        liveness: liveness_engine::LivenessConfig::default(),
        compare_threshold: http::DEFAULT_THRESHOLD,
        socket_idle_seconds: settings.sessions.socket_idle_seconds,
    }
}

/// Expires sessions past their lifetime, deletes their photos and drops finished request
/// counters and stream leases, every `interval`, until `shutdown`.
fn spawn_retention_sweeper(
    store: storage::Store,
    interval: Duration,
    shutdown: Arc<AtomicBool>,
) -> Result<JoinHandle<()>, String> {
    std::thread::Builder::new()
        .name("retention-sweeper".into())
        .spawn(move || {
            while !shutdown.load(Ordering::Relaxed) {
                match store.sweep_expired_sessions(storage::now_millis()) {
                    Ok((0, 0)) => {}
                    Ok((expired, photos)) => tracing::info!(expired, photos, "retention sweep"),
                    Err(e) => tracing::warn!(error = %e, "retention sweep failed"),
                }
                let now = storage::now_millis();
                if let Err(e) = store
                    .sweep_request_counters(now)
                    .and_then(|_| store.sweep_session_streams(now))
                {
                    tracing::warn!(error = %e, "sweeping counters and stream leases failed");
                }
                // sleep in short steps so shutdown is prompt
                let mut slept = Duration::ZERO;
                while slept < interval && !shutdown.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    slept += Duration::from_millis(200);
                }
            }
        })
        .map_err(|e| format!("cannot start the retention sweeper: {e}"))
}
