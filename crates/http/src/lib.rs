//! Facegate's HTTP layer: application state, route registration and operational endpoints.

pub mod health;

use std::sync::Arc;

use actix_web::web;
use face_engine::FaceEngine;
use storage::search::FaceSearch;

/// Shared state handed to every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    pub engine: Arc<FaceEngine>,
    pub search: Arc<FaceSearch>,
}

/// Registers every route of the service on an actix `ServiceConfig`.
pub fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(web::Data::new(state))
            .route("/healthz", web::get().to(health::healthz))
            .route("/readyz", web::get().to(health::readyz));
    }
}
