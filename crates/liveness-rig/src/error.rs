//! Errors of the test rig: recordings and segment labels read from disk.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum RigError {
    #[error("recording `{path}` cannot be read: {reason}")]
    Recording { path: String, reason: String },
    #[error("segment labels are invalid: {0}")]
    Segments(String),
    #[error("the development set is refused: {0}")]
    DevelopmentSet(String),
}
