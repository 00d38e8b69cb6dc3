//! The application layer's one error type: what a use case refuses, in its own terms and never
//! as an HTTP status (each variant names its error code here, `domain::ErrorCode`).

use thiserror::Error;

/// Why a use case of faces, collections or search did not complete.
#[derive(Debug, Error)]
pub enum AppError {
    /// The image could not be read, or no usable face was found in it.
    #[error(transparent)]
    Engine(#[from] face_engine::EngineError),
    /// The store refused or could not be reached.
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    /// A value broke a domain rule (an identifier, a range).
    #[error(transparent)]
    Domain(#[from] domain::DomainError),
    /// A free-text field over its length.
    #[error("`{field}` must be at most {max} characters")]
    TextTooLong { field: &'static str, max: usize },
    /// A face id that is not a UUID.
    #[error("face_id must be a UUID")]
    InvalidFaceId,
    /// `quality_filter=auto` refused the face, with the reasons.
    #[error("the face was not indexed: {}", reasons.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", "))]
    FaceQualityTooLow { reasons: Vec<crate::QualityReason> },
    /// A worker thread stopped, or a value could not be serialised (never expected).
    #[error("internal failure: {0}")]
    Internal(String),
}

/// The result of a use case.
pub type AppResult<T> = Result<T, AppError>;

impl domain::ErrorCode for AppError {
    fn error_code(&self) -> domain::Code {
        use domain::Code;
        match self {
            AppError::Engine(e) => e.error_code(),
            AppError::Storage(e) => e.error_code(),
            AppError::Domain(e) => e.error_code(),
            AppError::TextTooLong { .. } => Code::FieldTooLong,
            AppError::InvalidFaceId => Code::InvalidIdentifier,
            AppError::FaceQualityTooLow { .. } => Code::FaceQualityTooLow,
            AppError::Internal(_) => Code::InternalError,
        }
    }

    fn retry_after_seconds(&self) -> Option<u64> {
        match self {
            AppError::Storage(e) => e.retry_after_seconds(),
            AppError::Engine(_)
            | AppError::Domain(_)
            | AppError::TextTooLong { .. }
            | AppError::InvalidFaceId
            | AppError::FaceQualityTooLow { .. }
            | AppError::Internal(_) => None,
        }
    }
}
