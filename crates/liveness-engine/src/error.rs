//! Errors of the liveness engine. A session never fails on a bad frame (it answers with
//! guidance and counts it); this is for its settings. (Recordings read from disk are the test
//! rig's, `facegate-liveness-rig`.)

use thiserror::Error;

#[derive(Debug, Error)]
pub enum LivenessError {
    #[error("invalid liveness configuration: {0}")]
    InvalidConfig(String),
    /// Coefficients of the fitted decision that do not fit the engine's inputs.
    #[error("the fitted decision's coefficients do not fit this engine: {0}")]
    FittedDecision(String),
}

impl domain::ErrorCode for LivenessError {
    fn error_code(&self) -> domain::Code {
        match self {
            LivenessError::InvalidConfig(_) | LivenessError::FittedDecision(_) => {
                domain::Code::InternalError
            }
        }
    }
}
