//! The OpenAPI 3.1 document served at `GET /api/openapi.json`. It is assembled from the
//! `#[utoipa::path]` annotations on the handlers and the `ToSchema` derives on the bodies, so
//! it changes with the code; `tests/openapi_routes.rs` checks that every documented operation is
//! routed and every routed operation documented. The multipart forms below exist only to
//! describe request bodies: the handlers read them field by field with `upload::read_form`.

use actix_web::HttpResponse;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

use app::dto;

use crate::{collections, error, faces, health, liveness, observability, search, ui};

/// One image in the multipart field `image` (JPEG, PNG or WebP, at most 8 MB).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ImageForm {
    #[schema(value_type = String, format = Binary)]
    image: Vec<u8>,
}

/// Two images and an optional decision threshold (default 0.65, the spec's solid match).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct CompareForm {
    #[schema(value_type = String, format = Binary)]
    source_image: Vec<u8>,
    #[schema(value_type = String, format = Binary)]
    target_image: Vec<u8>,
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: Option<f32>,
}

/// The v1 compare form: `reference`, `probe` and an optional `threshold` (default 0.65).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct CompareV1Form {
    #[schema(value_type = String, format = Binary)]
    reference: Vec<u8>,
    #[schema(value_type = String, format = Binary)]
    probe: Vec<u8>,
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: Option<f32>,
}

/// A probe image, the session whose portrait it is compared with, an optional `threshold`
/// (default 0.65, as compare-faces) and, for a direct session, its `token` (a managed session
/// takes its tenant's API key instead).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct CompareWithSessionForm {
    #[schema(
        pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    session_id: String,
    #[schema(value_type = String, format = Binary)]
    probe: Vec<u8>,
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: Option<f32>,
    token: Option<String>,
}

/// The face to index, its caller-side id, and whether low-quality faces are refused
/// (`auto`, the default) or indexed anyway (`none`).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct IndexFaceForm {
    #[schema(value_type = String, format = Binary)]
    image: Vec<u8>,
    #[schema(pattern = "^[A-Za-z0-9_.:-]{1,255}$")]
    external_face_id: String,
    #[schema(value_type = Option<QualityFilterName>)]
    quality_filter: Option<String>,
}

/// `auto` refuses small, blurry and turned faces (`face_quality_too_low`); `none` indexes any.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum QualityFilterName {
    Auto,
    None,
}

/// The answers of every route behind an API key, besides its own.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)]
pub enum KeyErrors {
    /// missing, unknown or revoked API key (`unauthorized`)
    #[response(status = 401)]
    Unauthorized(error::ErrorBody),
    /// over the key's rate limit (`rate_limited`, counted for the whole deployment on
    /// PostgreSQL); see `Retry-After`
    #[response(status = 429)]
    RateLimited(error::ErrorBody),
}

/// The answers of every route that reads an uploaded image, besides its own.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)]
pub enum UploadErrors {
    /// missing field, empty or unreadable image (`missing_field`, `empty_image`, `invalid_image`, ...)
    #[response(status = 400)]
    BadUpload(error::ErrorBody),
    /// the body arrived too slowly (`body_timeout`, see `server.body_timeout_seconds`)
    #[response(status = 408)]
    BodyTimeout(error::ErrorBody),
    /// a file over 8 MB or a body over the total bound (`image_too_large`, `request_too_large`, `image_too_many_pixels`)
    #[response(status = 413)]
    TooLarge(error::ErrorBody),
    /// not JPEG, PNG or WebP, or not multipart (`unsupported_image_format`, `unsupported_media_type`)
    #[response(status = 415)]
    UnsupportedMedia(error::ErrorBody),
}

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
        liveness::create_managed,
        liveness::create_direct,
        liveness::result,
        liveness::photo,
        liveness::compare_with_session,
        liveness::webhook_deliveries,
        liveness::audit_frames,
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
        ui::verify,
        ui::demo,
        ui::sdk,
    ),
    components(schemas(
        error::ErrorBody,
        dto::FaceDto,
        sessions::live::ClientMessage,
        liveness::SessionModeName,
        QualityFilterName
    )),
    modifiers(&BearerKey)
)]
pub struct ApiDoc;

/// The document as served: what the annotations assemble, with the validators' constraints
/// written in ([`crate::openapi_constraints`]).
pub fn document() -> serde_json::Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    crate::openapi_constraints::constrain(&mut doc);
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
