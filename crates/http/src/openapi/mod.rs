//! The OpenAPI 3.1 document served at `GET /api/openapi.json`. It is assembled from the
//! `#[utoipa::path]` annotations on the handlers and the `ToSchema` derives on the bodies, so
//! it changes with the code; `tests/openapi_routes.rs` checks that every documented operation is
//! routed and every routed operation documented. The request bodies and shared answers the
//! handlers name are in [`bodies`] (which names no handler); the constraints the validators
//! enforce are written in by `constraints`.

use actix_web::HttpResponse;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

use app::dto;

use crate::routes::{front, session_records};
use crate::{collections, error, faces, health, observability, search, session_routes, ui};

pub mod bodies;
mod constraints;

use bodies::QualityFilterName;

struct BearerKey;

impl Modify for BearerKey {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    }
}

#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Facegate",
        description = "Face detection, comparison, collections and 1:N search, and liveness \
                       sessions. Errors are always `{\"error\": {\"code\", \"message\"}}`; the \
                       codes are listed in docs/api.md.\n\n\
                       **Live stream** (`GET /ws/{session_id}?token=`, a WebSocket; OpenAPI has no \
                       operation for it). Client to server: binary messages, each one JPEG frame \
                       of at most 1,500,000 bytes. A frame may carry its capture time as a JPEG \
                       comment (COM segment, marker 0xFFFE) right after the start-of-image \
                       marker: `facegate:capture_ms=<n>`, whole milliseconds from the client's \
                       receipt of the `ready` message to the frame's capture, optionally \
                       ending in `;camera=locked` or `;camera=auto` (whether the camera held \
                       its white balance; a claim that never passes or fails a session). The \
                       server times the frame by it within [arrival - 400 ms, arrival + 20 ms] \
                       and by its arrival otherwise. Server to client: JSON text `{\"type\", \"data\"}`: \
                       `ready`, then `illumination` exactly as \
                       `{\"type\": \"illumination\", \"data\": {\"colors\": [\"#rrggbb\", ...], \
                       \"step_ms\": N}}` (11 colours, N 340-400, once per session, never on a \
                       reconnect; the page shows `colors[k]` from receipt + k x step_ms on, \
                       filling the screen around the face oval), `face_detected`, `guidance`, \
                       `challenge`, `challenge_result`, `verdict`, `error`. Details: docs/api.md."
    ),
    paths(
        faces::detect,
        faces::compare,
        faces::compare_v1,
        session_routes::create_managed,
        session_routes::create_direct,
        session_routes::result,
        session_routes::photo,
        session_routes::compare_with_session,
        session_routes::webhook_deliveries,
        session_routes::audit_frames,
        session_records::list,
        session_records::erase,
        collections::create,
        collections::list,
        collections::get,
        collections::delete,
        collections::index_face,
        collections::list_faces,
        collections::get_face,
        collections::delete_face,
        search::search_by_face,
        search::search_by_image,
        health::healthz,
        health::readyz,
        observability::metrics,
        openapi_json,
        front::front_door,
        front::api_docs,
        ui::verify,
        ui::demo,
        ui::sdk,
    ),
    components(schemas(
        error::ErrorBody,
        dto::FaceDto,
        sessions::live::ClientMessage,
        session_routes::SessionModeName,
        QualityFilterName
    )),
    modifiers(&BearerKey)
)]
pub struct ApiDoc;

/// The document as served: what the annotations assemble, with the validators' constraints
/// written in ([`constraints`]).
pub fn document() -> serde_json::Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    constraints::constrain(&mut doc);
    doc
}

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "operations",
    responses((status = 200, description = "This document", content_type = "application/json")),
)]
pub async fn openapi_json() -> HttpResponse {
    // built and serialised once: the document never changes while the process runs
    static SERVED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let json = SERVED.get_or_init(|| document().to_string());
    HttpResponse::Ok()
        .content_type("application/json")
        .body(json.as_str())
}
