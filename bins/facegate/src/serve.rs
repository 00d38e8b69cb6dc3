//! `facegate serve`: loads the models once, then starts the actix-web server.

use std::sync::Arc;

use actix_web::{App, HttpServer};
use face_engine::FaceEngine;
use http::AppState;

use crate::settings::Settings;

pub fn run(settings: &Settings) -> Result<(), String> {
    let address = settings.bind_address().map_err(|e| e.to_string())?;
    tracing::info!(models = %settings.models.dir.display(), "loading models");
    let engine = Arc::new(FaceEngine::load(&settings.models.dir).map_err(|e| e.to_string())?);
    tracing::info!(embedder = engine.embedder_id(), %address, "models loaded; listening");
    let state = AppState { engine };
    let workers = match settings.server.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    actix_web::rt::System::new()
        .block_on(async move {
            HttpServer::new(move || App::new().configure(http::configure(state.clone())))
                .workers(workers)
                .bind(address)?
                .run()
                .await
        })
        .map_err(|e| format!("server: {e}"))
}
