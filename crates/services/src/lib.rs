//! Facegate's composition root, without actix: the settings (built-in defaults in
//! `defaults.toml`, then a file, then the environment) and [`Services::open`], which builds the
//! store, the face index, the engine, the one inference gate and both families of use cases
//! (faces in crate `app`, liveness sessions in crate `sessions`) from them, plus the background
//! workers. The binary serves what it opens; the route tests, the session tests and the fuzz
//! targets open the same. `app` and `sessions` stay two crates under it (docs/architecture.md
//! says why).

mod compose;
mod database;
mod error;
pub mod settings;
mod validation;

/// The crates a front end drives, re-exported so that a front end (`http`) depends on this
/// composition root and `domain` only.
pub use {app, face_engine, sessions, storage, webhooks};

pub use compose::Services;
pub use database::{open_store, server_secret};
pub use error::ServicesError;
pub use settings::{Settings, SettingsError};

#[cfg(test)]
mod architecture_tests;
#[cfg(test)]
mod defaults_tests;
