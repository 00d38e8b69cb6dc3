//! The one error shape of the API, `{"error": {"code", "message"}}`, and the exhaustive
//! mapping of every domain, engine and storage error to a status and a stable code
//! (listed in docs/api.md).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use domain::DomainError;
use face_engine::EngineError;
use serde::Serialize;
use storage::StorageError;
use utoipa::ToSchema;

/// An API error: HTTP status, stable machine-readable code and a human message.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Seconds to put in `Retry-After` (rate limiting, unavailability).
    pub retry_after: Option<u64>,
}

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// A stable, machine-readable `code` (listed in docs/api.md) and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    #[schema(example = "image_too_large")]
    pub code: String,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a valid API key is required: Authorization: Bearer <key>",
        )
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(seconds) = self.retry_after {
            response.insert_header(("Retry-After", seconds.to_string()));
        }
        let mut response = response.json(ErrorBody {
            error: ErrorDetail {
                code: self.code.to_owned(),
                message: self.message.clone(),
            },
        });
        if self.code == "session_not_found" {
            // a session id and token that do not match: counted against the client address
            response
                .extensions_mut()
                .insert(crate::guessing::RefusedCredential);
        }
        response
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        let message = e.to_string();
        match e {
            EngineError::EmptyImage => Self::bad_request("empty_image", message),
            EngineError::UnsupportedFormat => Self::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_image_format",
                message,
            ),
            EngineError::CorruptImage(_) => Self::bad_request("invalid_image", message),
            EngineError::TooManyPixels { .. } => Self::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "image_too_many_pixels",
                message,
            ),
            EngineError::NoFace => Self::new(StatusCode::UNPROCESSABLE_ENTITY, "no_face", message),
            EngineError::MultipleFaces { .. } => {
                Self::new(StatusCode::UNPROCESSABLE_ENTITY, "multiple_faces", message)
            }
            EngineError::ModelMissing { .. }
            | EngineError::ModelChecksum { .. }
            | EngineError::Manifest(_)
            | EngineError::Inference { .. } => {
                tracing::error!(error = %message, "engine failure");
                Self::internal("inference failed")
            }
        }
    }
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> Self {
        let message = e.to_string();
        match e {
            StorageError::NotFound {
                entity: "collection",
            } => Self::new(StatusCode::NOT_FOUND, "collection_not_found", message),
            StorageError::NotFound { entity: "face" } => {
                Self::new(StatusCode::NOT_FOUND, "face_not_found", message)
            }
            StorageError::NotFound { entity: "session" } => Self::new(
                StatusCode::NOT_FOUND,
                "session_not_found",
                "Session not found",
            ),
            StorageError::NotFound { .. } => Self::new(StatusCode::NOT_FOUND, "not_found", message),
            StorageError::Conflict {
                entity: "collection",
            } => Self::new(StatusCode::CONFLICT, "collection_already_exists", message),
            StorageError::Conflict { .. } => Self::new(StatusCode::CONFLICT, "conflict", message),
            StorageError::Unavailable(_) => {
                tracing::warn!(error = %message, "database unavailable");
                let mut error = Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "database_unavailable",
                    "the database is unavailable; retry shortly",
                );
                error.retry_after = Some(2);
                error
            }
            StorageError::EmbedderMismatch { .. } => {
                Self::new(StatusCode::CONFLICT, "embedder_mismatch", message)
            }
            StorageError::Corrupt(_) | StorageError::Migration(_) => {
                tracing::error!(error = %message, "storage failure");
                Self::internal("storage failure")
            }
            StorageError::Domain(domain) => domain.into(),
        }
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        let message = e.to_string();
        match e {
            DomainError::InvalidIdentifier { .. } => {
                Self::bad_request("invalid_identifier", message)
            }
            DomainError::OutOfUnitRange { .. } => Self::bad_request("invalid_parameter", message),
            DomainError::InvalidTransition { .. } => {
                Self::new(StatusCode::CONFLICT, "invalid_state", message)
            }
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(_: actix_web::error::BlockingError) -> Self {
        Self::internal("worker pool unavailable")
    }
}

impl From<sessions::SessionError> for ApiError {
    fn from(e: sessions::SessionError) -> Self {
        use sessions::SessionError as S;
        let message = e.to_string();
        match e {
            S::NotFound => Self::new(
                StatusCode::NOT_FOUND,
                "session_not_found",
                "Session not found",
            ),
            S::InvalidMode => Self::bad_request("invalid_mode", message),
            S::InvalidReferenceId { .. } => Self::bad_request("invalid_reference_id", message),
            S::InvalidFingerprint { .. } => Self::bad_request("invalid_fingerprint_id", message),
            S::InvalidRedirectUrl(_) => Self::bad_request("invalid_redirect_url", message),
            S::InvalidWebhookUrl(_) => Self::bad_request("invalid_webhook_url", message),
            S::DirectSessionsDisabled => {
                Self::new(StatusCode::FORBIDDEN, "direct_sessions_disabled", message)
            }
            S::TooManyAttempts {
                retry_after_seconds,
            } => {
                let mut error =
                    Self::new(StatusCode::TOO_MANY_REQUESTS, "too_many_attempts", message);
                error.retry_after = Some(retry_after_seconds);
                error
            }
            S::CaptchaFailed => Self::new(StatusCode::FORBIDDEN, "captcha_failed", message),
            S::NotVerified => Self::new(StatusCode::CONFLICT, "session_not_verified", message),
            S::AlreadyCompleted => Self::new(StatusCode::CONFLICT, "session_completed", message),
            S::AlreadyConnected => Self::new(StatusCode::CONFLICT, "session_busy", message),
            S::FrameTooLarge { .. } => {
                Self::new(StatusCode::PAYLOAD_TOO_LARGE, "frame_too_large", message)
            }
            S::PhotoNotAvailable => {
                Self::new(StatusCode::NOT_FOUND, "photo_not_available", message)
            }
            S::Storage(e) => e.into(),
            S::Engine(e) => e.into(),
            S::Liveness(e) => {
                tracing::error!(error = %e, "liveness engine failure");
                Self::internal("liveness engine failure")
            }
        }
    }
}
