//! Errors raised by domain rules (validation of caller-supplied values).

use thiserror::Error;

/// A domain rule was broken by caller input.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DomainError {
    /// An identifier is empty, too long or has characters outside the allowed set.
    #[error("invalid {field}: {reason}")]
    InvalidIdentifier { field: &'static str, reason: String },
    /// A confidence or similarity lies outside 0..1.
    #[error("{field} must be between 0 and 1")]
    OutOfUnitRange { field: &'static str },
    /// A session status change the lifecycle does not allow.
    #[error("a session cannot go from {from} to {to}")]
    InvalidTransition {
        from: &'static str,
        to: &'static str,
    },
}

impl crate::ErrorCode for DomainError {
    fn error_code(&self) -> crate::Code {
        use crate::Code;
        match self {
            DomainError::InvalidIdentifier { .. } => Code::InvalidIdentifier,
            DomainError::OutOfUnitRange { .. } => Code::InvalidParameter,
            DomainError::InvalidTransition { .. } => Code::InvalidState,
        }
    }
}
