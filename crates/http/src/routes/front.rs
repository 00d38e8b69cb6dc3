//! The front door: `GET /`, a small page that says what this server is, its version, and
//! where its demo, API reference and health endpoints are; and `GET /api/docs`, the OpenAPI
//! document rendered by the embedded Swagger UI (`web-ui/vendor/swagger-ui`, Apache-2.0, with
//! its licence). Both are served like the verification pages: `self`-only policy, nothing from
//! another origin.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::routes::ui::render_filled;

/// The version this binary was built as.
const VERSION: &str = env!("CARGO_PKG_VERSION");

#[utoipa::path(
    get,
    path = "/",
    tag = "operations",
    responses((status = 200, description = "The front door: what this server is, its version, \
        and links to the demo, the API reference and the health endpoints", content_type = "text/html")),
)]
pub async fn front_door(state: web::Data<AppState>) -> HttpResponse {
    let settings = state.sessions.settings();
    let demo_hidden = if settings.direct.enabled {
        ""
    } else {
        "hidden"
    };
    render_filled(
        &state.ui,
        "index.html",
        StatusCode::OK,
        &[
            ("version", VERSION),
            ("origin", settings.public_url.as_str()),
            ("demo_hidden", demo_hidden),
        ],
    )
}

#[utoipa::path(
    get,
    path = "/api/docs",
    tag = "operations",
    responses((status = 200, description = "The API reference: this document rendered by the \
        embedded Swagger UI", content_type = "text/html")),
)]
pub async fn api_docs(state: web::Data<AppState>) -> HttpResponse {
    render_filled(
        &state.ui,
        "api-docs.html",
        StatusCode::OK,
        &[("version", VERSION)],
    )
}

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "operations",
    responses((status = 200, description = "This document", content_type = "application/json")),
)]
pub async fn openapi_json(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(state.openapi_json)
}
