//! The OpenAPI 3.1 document served at `GET /api/openapi.json`. It is assembled from the
//! `#[utoipa::path]` annotations on the handlers that the route table names (`routes::table`,
//! which also routes them, so no path is written twice) and the `ToSchema` derives on the
//! bodies, so it changes with the code; `tests/it/openapi_routes.rs` checks the operations the
//! contract names against it. The request bodies and shared answers the
//! handlers name are in [`bodies`] (which names no handler); the constraints the validators
//! enforce are written in by `constraints`.

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::sessions::OptionalDirectBody;

use crate::app::dto;

use crate::{error, session_routes};

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
                       operation for it; `&liveness_path=no_flash` opens the no-flash path: no \
                       colours, a passive session asks head turns, refused with close 4003 where \
                       the session has `allow_no_flash: false`). Client to server: binary \
                       messages, each one JPEG frame \
                       of at most 1,500,000 bytes. A frame may carry its capture time as a JPEG \
                       comment (COM segment, marker 0xFFFE) right after the start-of-image \
                       marker: `facegate:capture_ms=<n>`, whole milliseconds from the client's \
                       receipt of the `ready` message to the frame's capture, optionally \
                       ending in `;camera=locked` or `;camera=auto` (whether the camera held \
                       its white balance; a claim that never passes or fails a session). The \
                       server times the frame by it within [arrival - 400 ms, arrival + 20 ms] \
                       and by its arrival otherwise. A connection takes at most `ready`'s \
                       `max_fps` frames a second (30; a second's worth may come at once): a frame \
                       past it is set aside unread, never failing the session, and the server \
                       says `slow_down` (at most once a second). Server to client: JSON text \
                       `{\"type\", \"data\"}`: `ready`, then `illumination` exactly as \
                       `{\"type\": \"illumination\", \"data\": {\"colors\": [\"#rrggbb\", ...], \
                       \"step_ms\": N}}` (11 colours, N 340-400, once per session, never on a \
                       reconnect; the page shows `colors[k]` from receipt + k x step_ms on, \
                       filling the screen around the face oval), `face_detected`, `guidance`, \
                       `challenge`, `challenge_result`, `slow_down`, `verdict`, `error`. \
                       Details: docs/api.md."
    ),
    components(schemas(
        error::ErrorBody,
        dto::FaceDto,
        crate::sessions::live::ClientMessage,
        session_routes::SessionModeName,
        QualityFilterName
    )),
    modifiers(&BearerKey)
)]
pub struct ApiDoc;

/// The document as served: the description and shared schemas here, the operations of the
/// route table (`routes::table`, the handlers' annotations), and the validators' constraints
/// written in (`constraints`).
pub fn document() -> serde_json::Value {
    let mut api = ApiDoc::openapi();
    api.merge(crate::routes::table::DocumentedOperations::openapi());
    // what a route's annotation cannot say, its module says on its operation
    OptionalDirectBody.modify(&mut api);
    let mut doc = serde_json::to_value(api).unwrap_or_default();
    constraints::constrain(&mut doc);
    doc
}

/// [`document`] serialised, built once per process (it never changes while the process runs);
/// the factory hands it to `GET /api/openapi.json` through the state, so the route table does
/// not import this module, which imports it.
pub fn served() -> &'static str {
    static SERVED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SERVED.get_or_init(|| document().to_string())
}
