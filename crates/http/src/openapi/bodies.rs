//! The request bodies and shared answers the handlers' `#[utoipa::path]` annotations name: the
//! multipart forms (which exist only to describe request bodies: the handlers read them field
//! by field with `upload::read_form`) and the 401/429 and upload answers every such route
//! shares. Kept apart from the document (`openapi/mod.rs`), which names the handlers, so that
//! no import runs in a circle.
//! A form field is text or absent, never `null`, so their optional fields are declared
//! not-required rather than nullable (`Option<T>` would let a client send `null`).

use utoipa::{IntoResponses, ToSchema};

use crate::error;

/// One image in the multipart field `image` (JPEG, PNG or WebP, at most 8 MB).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
pub struct ImageForm {
    #[schema(value_type = String, format = Binary)]
    image: Vec<u8>,
}

/// Two images and an optional decision threshold (default 0.65, the spec's solid match).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
pub struct CompareForm {
    #[schema(value_type = String, format = Binary)]
    source_image: Vec<u8>,
    #[schema(value_type = String, format = Binary)]
    target_image: Vec<u8>,
    #[schema(required = false, minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: f32,
    /// The face model that embeds both faces (default `sface`); the similarity is calibrated
    /// for it, so a threshold means the same false-accept rate with either model.
    #[schema(value_type = crate::app::dto::FaceModelSchema, required = false)]
    face_model: String,
}

/// The v1 compare form: `reference`, `probe` and an optional `threshold` (default 0.65).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
pub struct CompareV1Form {
    #[schema(value_type = String, format = Binary)]
    reference: Vec<u8>,
    #[schema(value_type = String, format = Binary)]
    probe: Vec<u8>,
    #[schema(required = false, minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: f32,
    /// The face model that embeds both faces (default `sface`); the similarity is calibrated
    /// for it, so a threshold means the same false-accept rate with either model.
    #[schema(value_type = crate::app::dto::FaceModelSchema, required = false)]
    face_model: String,
}

/// A probe image, the session whose portrait it is compared with, an optional `threshold`
/// (default 0.65, as compare-faces) and, for a direct session, its `token` (a managed session
/// takes its tenant's API key instead).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
pub struct CompareWithSessionForm {
    #[schema(
        pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    session_id: String,
    #[schema(value_type = String, format = Binary)]
    probe: Vec<u8>,
    #[schema(required = false, minimum = 0.0, maximum = 1.0, default = 0.65)]
    threshold: f32,
    #[schema(required = false)]
    token: String,
}

/// The face to index, its caller-side id, and whether low-quality faces are refused
/// (`auto`, the default) or indexed anyway (`none`).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[serde(deny_unknown_fields)]
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

/// The answers of the routes that take either the tenant's API key or the session's token,
/// besides their own.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)]
pub enum KeyOrTokenErrors {
    /// an `Authorization` header with a key that is not valid (`unauthorized`)
    #[response(status = 401)]
    Unauthorized(error::ErrorBody),
    /// over the key's rate limit (`rate_limited`), or this address is locked out (`too_many_failed_attempts`)
    #[response(status = 429)]
    RateLimited(error::ErrorBody),
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
