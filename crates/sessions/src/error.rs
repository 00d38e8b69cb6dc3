//! The errors of session orchestration, each with the stable code a client is answered with
//! (`domain::ErrorCode`, beside the enum).

use thiserror::Error;

#[derive(Debug, Error)]
pub enum SessionError {
    /// Unknown, expired, or the token/key does not match: one answer, so there is no oracle.
    #[error("Session not found")]
    NotFound,
    #[error("`mode` must be `passive` or omitted (active)")]
    InvalidMode,
    #[error("`reference_id` must be at most {max} printable characters")]
    InvalidReferenceId { max: usize },
    #[error("`fingerprint_id` must be at most {max} printable characters")]
    InvalidFingerprint { max: usize },
    #[error("`reference_image` is not base64 of an image: {0}")]
    InvalidReferenceImage(String),
    #[error("`reference_image` may be at most {max} bytes after base64 decoding")]
    ReferenceTooLarge { max: usize },
    #[error("no face was found in `reference_image`")]
    ReferenceHasNoFace,
    #[error("`match_threshold` must be a number from 0 to 1")]
    InvalidMatchThreshold,
    #[error("redirect_url refused: {0}")]
    InvalidRedirectUrl(webhooks::UrlRefusal),
    #[error("webhook_url refused: {0}")]
    InvalidWebhookUrl(webhooks::UrlRefusal),
    #[error("direct sessions are switched off on this deployment")]
    DirectSessionsDisabled,
    #[error("too many attempts; retry in {retry_after_seconds} s")]
    TooManyAttempts { retry_after_seconds: u64 },
    #[error("the captcha was missing or did not verify")]
    CaptchaFailed,
    #[error("the session has no `pass` verdict")]
    NotVerified,
    #[error("the session already has a verdict; create a new session")]
    AlreadyCompleted,
    #[error("another connection is streaming this session")]
    AlreadyConnected,
    #[error("a frame may be at most {max} bytes")]
    FrameTooLarge { max: usize },
    #[error("{0}")]
    InvalidListParameter(String),
    #[error(
        "`allow_no_flash` is true but this deployment does not offer the no-flash path (`liveness.illumination.allow_no_flash = false`)"
    )]
    NoFlashDisabled,
    #[error("this session does not allow the no-flash path; connect without `liveness_path`")]
    NoFlashNotAllowed,
    #[error("the portrait is only available after a `pass`")]
    PhotoNotAvailable,
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    #[error(transparent)]
    Engine(#[from] face_engine::EngineError),
    #[error("liveness engine: {0}")]
    Liveness(#[from] liveness_engine::LivenessError),
}

pub type SessionResult<T> = Result<T, SessionError>;

impl domain::ErrorCode for SessionError {
    fn error_code(&self) -> domain::Code {
        use SessionError as S;
        use domain::Code;
        match self {
            S::NotFound => Code::SessionNotFound,
            S::InvalidMode => Code::InvalidMode,
            S::InvalidReferenceId { .. } => Code::InvalidReferenceId,
            S::InvalidReferenceImage(_) => Code::InvalidReferenceImage,
            S::ReferenceTooLarge { .. } => Code::ImageTooLarge,
            S::ReferenceHasNoFace => Code::ReferenceNoFace,
            S::InvalidMatchThreshold => Code::InvalidMatchThreshold,
            S::InvalidFingerprint { .. } => Code::InvalidFingerprintId,
            S::InvalidRedirectUrl(_) => Code::InvalidRedirectUrl,
            S::InvalidWebhookUrl(_) => Code::InvalidWebhookUrl,
            S::DirectSessionsDisabled => Code::DirectSessionsDisabled,
            S::TooManyAttempts { .. } => Code::TooManyAttempts,
            S::CaptchaFailed => Code::CaptchaFailed,
            S::NotVerified => Code::SessionNotVerified,
            S::AlreadyCompleted => Code::SessionCompleted,
            S::AlreadyConnected => Code::SessionBusy,
            S::FrameTooLarge { .. } => Code::FrameTooLarge,
            S::PhotoNotAvailable => Code::PhotoNotAvailable,
            S::NoFlashDisabled => Code::NoFlashDisabled,
            S::NoFlashNotAllowed => Code::NoFlashNotAllowed,
            S::InvalidListParameter(_) => Code::InvalidParameter,
            S::Storage(e) => e.error_code(),
            S::Engine(e) => e.error_code(),
            S::Liveness(e) => e.error_code(),
        }
    }

    fn retry_after_seconds(&self) -> Option<u64> {
        match self {
            SessionError::TooManyAttempts {
                retry_after_seconds,
            } => Some(*retry_after_seconds),
            SessionError::Storage(e) => e.retry_after_seconds(),
            SessionError::NotFound
            | SessionError::InvalidMode
            | SessionError::InvalidReferenceId { .. }
            | SessionError::InvalidReferenceImage(_)
            | SessionError::ReferenceTooLarge { .. }
            | SessionError::ReferenceHasNoFace
            | SessionError::InvalidMatchThreshold
            | SessionError::InvalidFingerprint { .. }
            | SessionError::InvalidRedirectUrl(_)
            | SessionError::InvalidWebhookUrl(_)
            | SessionError::DirectSessionsDisabled
            | SessionError::CaptchaFailed
            | SessionError::NotVerified
            | SessionError::AlreadyCompleted
            | SessionError::AlreadyConnected
            | SessionError::FrameTooLarge { .. }
            | SessionError::PhotoNotAvailable
            | SessionError::NoFlashDisabled
            | SessionError::NoFlashNotAllowed
            | SessionError::InvalidListParameter(_)
            | SessionError::Engine(_)
            | SessionError::Liveness(_) => None,
        }
    }
}
