//! `facegate serve`: opens and migrates the database, rebuilds the search index, loads the
//! models once, starts the retention sweeper, then serves HTTP.

use std::sync::Arc;
use std::time::Duration;

use actix_web::{App, HttpServer};
use face_engine::FaceEngine;
use http::AppState;
use storage::search::FaceSearch;

use crate::settings::Settings;

pub fn run(settings: &Settings) -> Result<(), String> {
    let address = settings.bind_address().map_err(|e| e.to_string())?;
    let store = crate::database::open(settings)?;
    let applied = store.migrate().map_err(|e| e.to_string())?;
    let search = Arc::new(FaceSearch::new(store.clone()));
    let faces = search.rebuild_all().map_err(|e| e.to_string())?;
    tracing::info!(backend = ?store.backend(), applied, faces, "database ready");
    tracing::info!(models = %settings.models.dir.display(), "loading models");
    let engine = Arc::new(FaceEngine::load(&settings.models.dir).map_err(|e| e.to_string())?);
    tracing::info!(embedder = engine.embedder_id(), %address, "models loaded; listening");
    spawn_retention_sweeper(
        store,
        Duration::from_secs(settings.sessions.sweep_interval_seconds),
    );
    let limits = http::ratelimit::RateLimits {
        per_second: settings.rate_limit.per_second,
        per_minute: settings.rate_limit.per_minute,
    };
    let limiter = Arc::new(http::ratelimit::RateLimiter::new(limits));
    let metrics = Arc::new(http::observability::Metrics::default());
    let state = AppState {
        engine,
        search,
        limiter,
        metrics,
        inference: Arc::new(http::gate::InferenceGate::per_core()),
    };
    let workers = match settings.server.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    actix_web::rt::System::new()
        .block_on(async move {
            HttpServer::new(move || {
                App::new()
                    .wrap(actix_web::middleware::from_fn(
                        http::observability::request_log,
                    ))
                    .configure(http::configure(state.clone()))
            })
            .workers(workers)
            .bind(address)?
            .run()
            .await
        })
        .map_err(|e| format!("server: {e}"))
}

/// Expires sessions past their lifetime and deletes their photos, every `interval`.
fn spawn_retention_sweeper(store: storage::Store, interval: Duration) {
    std::thread::Builder::new()
        .name("retention-sweeper".into())
        .spawn(move || {
            loop {
                match store.sweep_expired_sessions(storage::now_millis()) {
                    Ok((0, 0)) => {}
                    Ok((expired, photos)) => tracing::info!(expired, photos, "retention sweep"),
                    Err(e) => tracing::warn!(error = %e, "retention sweep failed"),
                }
                std::thread::sleep(interval);
            }
        })
        .map(|_| ())
        .unwrap_or_else(|e| tracing::error!(error = %e, "cannot start the retention sweeper"));
}
