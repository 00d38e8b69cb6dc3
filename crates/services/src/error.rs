//! What can stop the services from opening: the crate's one error.

use std::path::PathBuf;

use thiserror::Error;

use crate::settings::SettingsError;

/// Why [`crate::Services::open`] (or a worker's start) failed, naming what to fix.
#[derive(Debug, Error)]
pub enum ServicesError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("database: {0}")]
    Storage(#[from] storage::StorageError),
    #[error("server secret file {}: {reason}", path.display())]
    SecretFile { path: PathBuf, reason: String },
    #[error(
        "security.server_secret differs from the one this database was set up with: every \
         replica must share one secret (API keys, session tokens and webhook secrets are sealed \
         under it); refusing to start"
    )]
    SecretMismatch,
    #[error("models: {0}")]
    Models(#[from] face_engine::EngineError),
    #[error("sessions: {0}")]
    Sessions(#[from] sessions::SessionError),
    #[error("webhooks: {0}")]
    Webhooks(#[from] webhooks::WebhookError),
    #[error("cannot start the {worker}: {source}")]
    Worker {
        worker: &'static str,
        source: std::io::Error,
    },
}
