//! The one error shape of the API, `{"error": {"code", "message"}}`, and the exhaustive
//! mapping of every domain, engine and storage error to a status and a stable code
//! (listed in docs/api.md).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use domain::DomainError;
use face_engine::EngineError;
use serde::Serialize;
use storage::{Entity, StorageError};
use utoipa::ToSchema;

pub use domain::Code;

/// An API error: a [`Code`] (which gives the HTTP status), a human message, and the
/// seconds to put in `Retry-After`.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// Seconds to put in `Retry-After` (rate limiting, unavailability).
    pub retry_after: Option<u64>,
}

/// Put into a response's extensions when it refused a credential (a session id and token that
/// do not match): the lock-out (`crate::guessing`) counts it against the client address.
#[derive(Debug, Clone, Copy)]
pub struct RefusedCredential;

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// A stable, machine-readable `code` (listed in docs/api.md) and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    #[schema(schema_with = code_schema)]
    pub code: String,
    pub message: String,
}

/// The schema of `error.code`: one of [`Code::ALL`].
fn code_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(Code::ALL.iter().map(|code| code.name())))
        .examples([Code::ImageTooLarge.name()])
        .build()
}

impl ApiError {
    /// An error answered with `code`'s own status.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        let status =
            StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Self::with_status(status, code, message)
    }

    /// An error answered with another status than `code`'s own (only `invalid_json`'s 413
    /// and 415 answers, as documented).
    pub fn with_status(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn unauthorized() -> Self {
        Self::new(
            Code::Unauthorized,
            "a valid API key is required: Authorization: Bearer <key>",
        )
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Code::InternalError, message)
    }

    /// The same error with `Retry-After: seconds`.
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
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
                code: self.code.name().to_owned(),
                message: self.message.clone(),
            },
        });
        if self.code == Code::SessionNotFound {
            // a session id and token that do not match: counted against the client address
            response.extensions_mut().insert(RefusedCredential);
        }
        response
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        let message = e.to_string();
        match e {
            EngineError::EmptyImage => Self::new(Code::EmptyImage, message),
            EngineError::UnsupportedFormat => Self::new(Code::UnsupportedImageFormat, message),
            EngineError::CorruptImage(_) => Self::new(Code::InvalidImage, message),
            EngineError::TooManyPixels { .. } => Self::new(Code::ImageTooManyPixels, message),
            EngineError::NoFace => Self::new(Code::NoFace, message),
            EngineError::MultipleFaces { .. } => Self::new(Code::MultipleFaces, message),
            EngineError::FaceModelMismatch { .. } => Self::new(Code::EmbedderMismatch, message),
            EngineError::ModelMissing { .. }
            | EngineError::EmbedderWidth { .. }
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
            StorageError::NotFound { entity } => match entity {
                Entity::Collection => Self::new(Code::CollectionNotFound, message),
                Entity::Face => Self::new(Code::FaceNotFound, message),
                Entity::Session => Self::new(Code::SessionNotFound, "Session not found"),
                Entity::SessionAttempt
                | Entity::SessionStream
                | Entity::Tenant
                | Entity::ApiKey
                | Entity::DeploymentFact
                | Entity::RequestCounter
                | Entity::WebhookDelivery
                | Entity::WebhookSecret
                | Entity::Record => Self::new(Code::NotFound, message),
            },
            StorageError::Conflict { entity } => match entity {
                Entity::Collection => Self::new(Code::CollectionAlreadyExists, message),
                Entity::Face
                | Entity::Session
                | Entity::SessionAttempt
                | Entity::SessionStream
                | Entity::Tenant
                | Entity::ApiKey
                | Entity::DeploymentFact
                | Entity::RequestCounter
                | Entity::WebhookDelivery
                | Entity::WebhookSecret
                | Entity::Record => Self::new(Code::Conflict, message),
            },
            StorageError::Unavailable(_) => {
                tracing::warn!(error = %message, "database unavailable");
                Self::new(
                    Code::DatabaseUnavailable,
                    "the database is unavailable; retry shortly",
                )
                .retry_after(2)
            }
            StorageError::EmbedderMismatch { .. } => Self::new(Code::EmbedderMismatch, message),
            StorageError::Corrupt(_) | StorageError::Migration(_) => {
                tracing::error!(error = %message, "storage failure");
                Self::internal("storage failure")
            }
            StorageError::SessionFinished { .. } => Self::new(Code::InvalidState, message),
            StorageError::Domain(domain) => domain.into(),
        }
    }
}

impl From<app::AppError> for ApiError {
    fn from(e: app::AppError) -> Self {
        use app::AppError as A;
        let message = e.to_string();
        match e {
            A::Engine(e) => e.into(),
            A::Storage(e) => e.into(),
            A::Domain(e) => e.into(),
            A::TextTooLong { .. } => Self::new(Code::FieldTooLong, message),
            A::InvalidFaceId => Self::new(Code::InvalidIdentifier, message),
            A::FaceQualityTooLow { .. } => Self::new(Code::FaceQualityTooLow, message),
            A::Internal(_) => {
                tracing::error!(error = %message, "use case failure");
                Self::internal("internal failure")
            }
        }
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        let message = e.to_string();
        match e {
            DomainError::InvalidIdentifier { .. } => Self::new(Code::InvalidIdentifier, message),
            DomainError::OutOfUnitRange { .. } => Self::new(Code::InvalidParameter, message),
            DomainError::InvalidTransition { .. } => Self::new(Code::InvalidState, message),
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
            S::NotFound => Self::new(Code::SessionNotFound, "Session not found"),
            S::InvalidMode => Self::new(Code::InvalidMode, message),
            S::InvalidReferenceId { .. } => Self::new(Code::InvalidReferenceId, message),
            S::InvalidReferenceImage(_) => Self::new(Code::InvalidReferenceImage, message),
            S::ReferenceTooLarge { .. } => Self::new(Code::ImageTooLarge, message),
            S::ReferenceHasNoFace => Self::new(Code::ReferenceNoFace, message),
            S::InvalidMatchThreshold => Self::new(Code::InvalidMatchThreshold, message),
            S::InvalidFingerprint { .. } => Self::new(Code::InvalidFingerprintId, message),
            S::InvalidRedirectUrl(_) => Self::new(Code::InvalidRedirectUrl, message),
            S::InvalidWebhookUrl(_) => Self::new(Code::InvalidWebhookUrl, message),
            S::DirectSessionsDisabled => Self::new(Code::DirectSessionsDisabled, message),
            S::TooManyAttempts {
                retry_after_seconds,
            } => Self::new(Code::TooManyAttempts, message).retry_after(retry_after_seconds),
            S::CaptchaFailed => Self::new(Code::CaptchaFailed, message),
            S::NotVerified => Self::new(Code::SessionNotVerified, message),
            S::AlreadyCompleted => Self::new(Code::SessionCompleted, message),
            S::AlreadyConnected => Self::new(Code::SessionBusy, message),
            S::FrameTooLarge { .. } => Self::new(Code::FrameTooLarge, message),
            S::PhotoNotAvailable => Self::new(Code::PhotoNotAvailable, message),
            S::NoFlashDisabled => Self::new(Code::NoFlashDisabled, message),
            S::NoFlashNotAllowed => Self::new(Code::NoFlashNotAllowed, message),
            S::InvalidListParameter(_) => Self::new(Code::InvalidParameter, message),
            S::Storage(e) => e.into(),
            S::Engine(e) => e.into(),
            S::Liveness(e) => {
                tracing::error!(error = %e, "liveness engine failure");
                Self::internal("liveness engine failure")
            }
        }
    }
}

/// The answer to a path no route matches (`route_not_found`).
pub(crate) async fn route_not_found() -> actix_web::HttpResponse {
    ApiError::new(Code::RouteNotFound, "no route matches this path").error_response()
}
