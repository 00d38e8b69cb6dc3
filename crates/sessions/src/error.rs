//! The errors of session orchestration. `http` maps each variant to a status and a stable code.

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
