//! Facegate's HTTP layer: application state, route registration, authentication, uploads,
//! the one error shape, and the operational endpoints.

mod auth;
mod client;
mod collections;
pub mod deadline;
mod dto;
pub mod error;
mod faces;
pub mod gate;
pub mod guessing;
pub mod health;
mod liveness;
pub mod observability;
pub mod openapi;
mod ops_metrics;
mod params;
pub mod ratelimit;
mod search;
mod service;
pub use service::DEFAULT_THRESHOLD;
pub mod ui;
pub mod upload;
mod ws;

use std::sync::Arc;

use actix_web::{HttpResponse, web};
use face_engine::FaceEngine;
use storage::search::FaceSearch;

use crate::error::ApiError;

/// Shared state handed to every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    pub engine: Arc<FaceEngine>,
    pub search: Arc<FaceSearch>,
    pub limiter: Arc<ratelimit::RateLimiter>,
    pub metrics: Arc<observability::Metrics>,
    /// Bounds concurrent inference to the cores (see [`gate`]).
    pub inference: Arc<gate::InferenceGate>,
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
}

impl AppState {
    /// Runs `work` (inference, and the storage it needs) on the blocking pool behind the
    /// inference gate: every route that runs a model goes through here.
    pub(crate) async fn infer<T: Send + 'static>(
        &self,
        work: impl FnOnce(&FaceEngine, &FaceSearch) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (engine, search, gate) = (
            self.engine.clone(),
            self.search.clone(),
            self.inference.clone(),
        );
        web::block(move || {
            let _pass = gate.enter();
            work(&engine, &search)
        })
        .await?
    }

    /// [`AppState::infer`] for work that can use a second core: `work` learns whether a
    /// second place in the gate was free (it is then held until `work` returns), so the
    /// gate's bound on busy cores still holds.
    pub(crate) async fn infer_on_spare_core<T: Send + 'static>(
        &self,
        work: impl FnOnce(&FaceEngine, bool) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (engine, gate) = (self.engine.clone(), self.inference.clone());
        web::block(move || {
            let _pass = gate.enter();
            let spare = gate.try_enter();
            work(&engine, spare.is_some())
        })
        .await?
    }
}

/// Largest JSON body accepted (collection creation and future JSON routes).
pub(crate) const MAX_JSON_BYTES: usize = 64 * 1024;

/// Registers every route of the service on an actix `ServiceConfig`.
pub fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let json = web::JsonConfig::default()
            .limit(MAX_JSON_BYTES)
            .error_handler(|e, _| {
                if let actix_web::error::JsonPayloadError::Payload(payload) = &e
                    && deadline::is_body_timeout(payload)
                {
                    return deadline::body_timeout().into();
                }
                let status = match &e {
                    actix_web::error::JsonPayloadError::Overflow { .. }
                    | actix_web::error::JsonPayloadError::OverflowKnownLength { .. } => {
                        actix_web::http::StatusCode::PAYLOAD_TOO_LARGE
                    }
                    actix_web::error::JsonPayloadError::ContentType => {
                        actix_web::http::StatusCode::UNSUPPORTED_MEDIA_TYPE
                    }
                    _ => actix_web::http::StatusCode::BAD_REQUEST,
                };
                ApiError::new(status, "invalid_json", e.to_string()).into()
            });
        let query = web::QueryConfig::default()
            .error_handler(|e, _| ApiError::bad_request("invalid_parameter", e.to_string()).into());
        let path = web::PathConfig::default().error_handler(|e, _| {
            ApiError::bad_request("invalid_identifier", e.to_string()).into()
        });
        cfg.app_data(web::Data::new(state))
            .app_data(json)
            .app_data(query)
            .app_data(path)
            .route("/healthz", web::get().to(health::healthz))
            .route("/readyz", web::get().to(health::readyz))
            .route("/metrics", web::get().to(observability::metrics))
            .route("/api/openapi.json", web::get().to(openapi::openapi_json))
            .route("/api/v1/compare-faces", web::post().to(faces::compare_v1))
            .route(
                "/api/v1/managed-session",
                web::post().to(liveness::create_managed),
            )
            .route("/api/v1/session", web::post().to(liveness::create_direct))
            .route(
                "/api/v1/session/{id}/result",
                web::get().to(liveness::result),
            )
            .route("/api/v1/session/{id}/photo", web::get().to(liveness::photo))
            .route(
                "/api/v1/session/{id}/webhook-deliveries",
                web::get().to(liveness::webhook_deliveries),
            )
            .route(
                "/api/v1/compare-with-session",
                web::post().to(liveness::compare_with_session),
            )
            .route("/ws/{session_id}", web::get().to(ws::stream))
            .route("/verify/{id}", web::get().to(ui::verify))
            .route("/demo", web::get().to(ui::demo))
            .route("/sdk/facegate.js", web::get().to(ui::sdk))
            .route("/ui/{version}/{path:.*}", web::get().to(ui::asset))
            .route("/api/v2/faces:detect", web::post().to(faces::detect))
            .route("/api/v2/faces:compare", web::post().to(faces::compare))
            .route("/api/v2/collections", web::post().to(collections::create))
            .route("/api/v2/collections", web::get().to(collections::list))
            .route(
                "/api/v2/collections/{external_id}",
                web::get().to(collections::get),
            )
            .route(
                "/api/v2/collections/{external_id}",
                web::delete().to(collections::delete),
            )
            .route(
                "/api/v2/collections/{external_id}/faces",
                web::post().to(collections::index_face),
            )
            .route(
                "/api/v2/collections/{external_id}/faces",
                web::get().to(collections::list_faces),
            )
            .route(
                "/api/v2/collections/{external_id}/faces/{face_id}",
                web::get().to(collections::get_face),
            )
            .route(
                "/api/v2/collections/{external_id}/faces/{face_id}",
                web::delete().to(collections::delete_face),
            )
            .route(
                "/api/v2/collections/{external_id}/search-by-face/{face_id}",
                web::post().to(search::search_by_face),
            )
            .route(
                "/api/v2/collections/{external_id}/search-by-image",
                web::post().to(search::search_by_image),
            )
            .default_service(web::to(not_found));
    }
}

async fn not_found() -> HttpResponse {
    HttpResponse::NotFound().json(serde_json::json!({
        "error": {"code": "route_not_found", "message": "no route matches this method and path"}
    }))
}
