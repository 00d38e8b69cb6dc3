//! Errors of the liveness engine. A session never fails on a bad frame (it answers with
//! guidance and counts it); these are for settings and for replaying recordings from disk.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum LivenessError {
    #[error("invalid liveness configuration: {0}")]
    InvalidConfig(String),
    #[error("recording `{path}` cannot be read: {reason}")]
    Recording { path: String, reason: String },
    #[error("segment labels are invalid: {0}")]
    Segments(String),
}
