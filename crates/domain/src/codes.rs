//! The one list of error codes: every `{"error": {"code"}}` the API answers, with its HTTP
//! status and what it means. It lives in the lowest crate so that every layer can name a code;
//! the web layer (`http::error`) maps every crate's error onto one, the OpenAPI document's
//! error schema lists [`Code::ALL`], and a test holds the error table of `docs/api.md` to it.

/// Declares [`Code`] with its wire name, HTTP status and description.
macro_rules! error_codes {
    ($($variant:ident = $status:literal, $name:literal, $description:literal;)*) => {
        /// A stable, machine-readable error code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            /// Every code, in the order of the table in `docs/api.md`.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The name on the wire (`error.code`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// The HTTP status this code is answered with (`invalid_json` alone may also be
            /// answered 413 or 415, see its description).
            pub fn http_status(self) -> u16 {
                match self {
                    $(Code::$variant => $status,)*
                }
            }

            /// When the code is answered.
            pub fn description(self) -> &'static str {
                match self {
                    $(Code::$variant => $description,)*
                }
            }
        }
    };
}

error_codes! {
    MissingField = 400, "missing_field", "a required multipart field is absent";
    InvalidFieldType = 400, "invalid_field_type", "a file field sent as text (or the reverse), a text field not UTF-8";
    UnknownField = 400, "unknown_field", "a multipart field the route does not take";
    DuplicateField = 400, "duplicate_field", "a multipart field sent twice";
    FieldTooLong = 400, "field_too_long", "a text field over 4096 bytes (`description` over 1024)";
    InvalidMultipart = 400, "invalid_multipart", "the body is not valid multipart/form-data, or its boundary is not 1 to 70 characters";
    EmptyImage = 400, "empty_image", "a zero-byte image";
    InvalidImage = 400, "invalid_image", "recognised format, undecodable data (for example a truncated JPEG)";
    InvalidIdentifier = 400, "invalid_identifier", "an `external_id`, `external_face_id` or `face_id` of the wrong form";
    InvalidParameter = 400, "invalid_parameter", "a query or form parameter out of its range or set, or a query parameter given twice";
    UnknownParameter = 400, "unknown_parameter", "an unknown query parameter";
    InvalidFaceModel = 400, "invalid_face_model", "a `face_model` that is not one of the shipped face models (`fr_feature`, `sface`); the message lists them";
    InvalidJson = 400, "invalid_json", "a malformed JSON body (413 when over 64 KB, or 12 MB for a managed session, which may carry a reference image; 415 without a JSON content type)";
    InvalidMode = 400, "invalid_mode", "`mode` other than `passive` or `active`";
    InvalidReferenceId = 400, "invalid_reference_id", "`reference_id` empty, over 256 characters, or with control characters";
    InvalidReferenceImage = 400, "invalid_reference_image", "`reference_image` is not base64 (standard alphabet, padded)";
    ReferenceNoFace = 400, "reference_no_face", "no face was found in `reference_image`";
    InvalidMatchThreshold = 400, "invalid_match_threshold", "`match_threshold` not a number from 0 to 1";
    NoFlashDisabled = 400, "no_flash_disabled", "`allow_no_flash: true` on a deployment whose `liveness.illumination.allow_no_flash` is false";
    InvalidFingerprintId = 400, "invalid_fingerprint_id", "`fingerprint_id` empty, over 256 characters, or with control characters";
    InvalidRedirectUrl = 400, "invalid_redirect_url", "a `redirect_url` that is not a public https URL";
    InvalidWebhookUrl = 400, "invalid_webhook_url", "a `webhook_url` that is not a public https URL that resolves";
    WebsocketUpgradeRequired = 400, "websocket_upgrade_required", "a plain HTTP request to `/ws/{id}`";
    Unauthorized = 401, "unauthorized", "a missing, malformed, unknown or revoked API key";
    DirectSessionsDisabled = 403, "direct_sessions_disabled", "`sessions.direct.enabled = false`";
    CaptchaFailed = 403, "captcha_failed", "the captcha token is missing or did not verify";
    CollectionNotFound = 404, "collection_not_found", "unknown (or another tenant's) collection";
    FaceNotFound = 404, "face_not_found", "unknown (or another tenant's) face";
    NoFlashNotAllowed = 403, "no_flash_not_allowed", "a stream asked for the no-flash path on a session that does not allow it (socket close 4003)";
    SessionNotFound = 404, "session_not_found", "unknown or expired session, wrong or missing token, another tenant's session";
    PhotoNotAvailable = 404, "photo_not_available", "the session's verdict is not `pass`";
    RouteNotFound = 404, "route_not_found", "no route for this path";
    MethodNotAllowed = 405, "method_not_allowed", "a known path called with a method it does not take; `Allow` lists the methods it does";
    NotFound = 404, "not_found", "a record of another kind does not exist";
    BodyTimeout = 408, "body_timeout", "the request body arrived too slowly";
    CollectionAlreadyExists = 409, "collection_already_exists", "the tenant already has this `external_id`";
    EmbedderMismatch = 409, "embedder_mismatch", "the collection's faces were embedded by another model than this replica runs";
    Conflict = 409, "conflict", "a record of another kind already exists";
    InvalidState = 409, "invalid_state", "the session cannot move to that state";
    SessionNotVerified = 409, "session_not_verified", "compare-with-session on a session without a `pass`";
    SessionCompleted = 409, "session_completed", "the session already has a verdict";
    SessionBusy = 409, "session_busy", "another socket streams this session";
    ImageTooLarge = 413, "image_too_large", "an image over 8 MB";
    RequestTooLarge = 413, "request_too_large", "a multipart body over 16.25 MB in total";
    ImageTooManyPixels = 413, "image_too_many_pixels", "an image declaring more than `limits.max_image_pixels`";
    FrameTooLarge = 413, "frame_too_large", "a liveness frame over 1,500,000 bytes";
    UnsupportedImageFormat = 415, "unsupported_image_format", "not JPEG, PNG or WebP";
    NoFace = 422, "no_face", "no face where one is needed";
    MultipleFaces = 422, "multiple_faces", "several faces where one is needed";
    FaceQualityTooLow = 422, "face_quality_too_low", "`quality_filter=auto` refused the face";
    TooManyFailedAttempts = 429, "too_many_failed_attempts", "this address is locked out after refused credentials";
    RateLimited = 429, "rate_limited", "the API key is over its rate limit";
    TooManyAttempts = 429, "too_many_attempts", "direct sessions over `max_attempts` for this fingerprint and address";
    InternalError = 500, "internal_error", "a model or the store failed (logged; never expected)";
    BackendStarting = 502, "backend_starting", "the process is starting";
    DatabaseUnavailable = 503, "database_unavailable", "the database cannot be reached";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An error that names the [`Code`] a client is answered with. Each crate implements it beside
/// its own error (as meilisearch's `ErrorCode`), matching every variant, so the web layer keeps
/// one conversion and never names another crate's variants.
pub trait ErrorCode: std::error::Error {
    /// The code a client is answered with.
    fn error_code(&self) -> Code;

    /// Seconds a client should wait before trying again (`Retry-After`), where the error knows.
    fn retry_after_seconds(&self) -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_statuses_are_errors() {
        let mut names = HashSet::new();
        for code in Code::ALL {
            assert!(names.insert(code.name()), "{} twice", code.name());
            assert!(
                code.name()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                code.name()
            );
            assert!((400..600).contains(&code.http_status()), "{code}");
        }
    }
}
