//! `facegate serve`: listens at once (answering 502 `backend_starting` while it prepares), then
//! opens and migrates the database, rebuilds the search index and loads the models, and serves
//! HTTP with its background workers (retention sweeper, webhook delivery) sharing one shutdown
//! signal; on exit it drains in-flight requests and joins the workers.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use actix_web::{HttpServer, web};
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
    // port 0 asks the kernel for a free port: the log, and `session_url` when no
    // `server.public_url` is set, name the one it gave
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // accepted connections inherit it: a client that stops reading what it asked for is
    // dropped by the kernel instead of holding its connection and buffers for ever
    let stalled = Duration::from_secs(settings.server.stalled_client_seconds);
    socket2::SockRef::from(&listener)
        .set_tcp_user_timeout(Some(stalled))
        .map_err(|e| format!("server.stalled_client_seconds: {e}"))?;
    let mut settings = settings.clone();
    settings.server.bind = address.to_string();
    let shutdown = Arc::new(AtomicBool::new(false));
    let workers_shutdown = shutdown.clone();
    let outcome = actix_web::rt::System::new().block_on(async move {
        let starting = HttpServer::new(http::starting_app)
            .workers(1)
            .disable_signals()
            .listen(listener.try_clone().map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .run();
        let starting_handle = starting.handle();
        let starting_task = actix_web::rt::spawn(starting);
        tracing::info!(%address, tls = settings.tls_enabled(), "listening; starting up");
        let prepared = web::block(move || prepare(settings, workers_shutdown))
            .await
            .map_err(|e| e.to_string())??;
        let (state, workers, http_workers) = prepared;
        let server = HttpServer::new(move || http::app(state.clone()))
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

pub(crate) fn body_deadlines(settings: &Settings) -> http::deadline::BodyDeadlines {
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
    let allowed = settings
        .webhook_allowed_networks()
        .map_err(|e| e.to_string())?;
    let guard = webhooks::AddressGuard::new(allowed);
    let sessions = sessions::SessionService::new(
        store.clone(),
        engine.clone(),
        guard.clone(),
        session_settings(&settings),
        settings.sessions.analysis_threads,
    )
    .map_err(|e| e.to_string())?;
    let mut workers = vec![
        sessions::sweeper::RetentionSweeper::new(store.clone())
            .spawn(
                shutdown.clone(),
                Duration::from_secs(settings.sessions.sweep_interval_seconds),
            )
            .map_err(|e| format!("cannot start the retention sweeper: {e}"))?,
    ];
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
    let state = http::AppStateBuilder::new(engine, search, sessions)
        .rate_limits(limits)
        .failed_credentials_per_minute(settings.security.failed_credentials_per_minute)
        .trusted_proxies(settings.trusted_proxies().map_err(|e| e.to_string())?)
        .ui(http::ui::UiSettings::new(&settings.ui.embed_origins)
            .map_err(|e| format!("ui.embed_origins: {e}"))?)
        .deliveries(deliveries)
        .body_deadlines(body_deadlines(&settings))
        .upload_limits(app::UploadLimits {
            max_image_pixels: settings.limits.max_image_pixels,
        })
        .build();
    let http_workers = match settings.server.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    Ok((state, workers, http_workers))
}

pub(crate) fn session_settings(settings: &Settings) -> sessions::SessionSettings {
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
        liveness: liveness_engine::LivenessConfig {
            illumination_enabled: settings.liveness.illumination.enabled,
            ..liveness_engine::LivenessConfig::default()
        },
        compare_threshold: app::DEFAULT_THRESHOLD,
        socket_idle_seconds: settings.sessions.socket_idle_seconds,
        randomness: match settings.sessions.rng_seed {
            Some(seed) => {
                tracing::warn!(
                    seed,
                    "sessions.rng_seed is set: every session draws the same challenges (tests only)"
                );
                sessions::SessionRandomness::Seeded(seed)
            }
            None => sessions::SessionRandomness::Os,
        },
        max_image_pixels: settings.limits.max_image_pixels,
        audit_frames: settings.sessions.audit_frames,
    }
}
