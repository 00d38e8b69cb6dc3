//! Opening the store from configuration, including the server secret: taken from
//! `security.server_secret`, or (SQLite only) generated once and kept beside the database.

use std::path::PathBuf;

use storage::{ServerSecret, Store};

use crate::error::ServicesError;
use crate::settings::Settings;

/// The server secret: configured, or read from / created in `<database>.secret`.
pub fn server_secret(settings: &Settings) -> Result<ServerSecret, ServicesError> {
    let configured = settings.security.server_secret.trim();
    if !configured.is_empty() {
        return Ok(ServerSecret::new(configured.as_bytes().to_vec()));
    }
    let path = PathBuf::from(format!("{}.secret", settings.database.url.trim()));
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        if existing.len() >= 32 {
            return Ok(ServerSecret::new(existing.as_bytes().to_vec()));
        }
        return Err(ServicesError::SecretFile {
            path,
            reason: "holds a secret shorter than 32 characters".into(),
        });
    }
    let generated = storage::secrets::random_hex(32);
    if let Err(e) = write_private(&path, &generated) {
        return Err(ServicesError::SecretFile {
            path,
            reason: format!("cannot be created: {e}"),
        });
    }
    tracing::info!(path = %path.display(), "generated the server secret");
    Ok(ServerSecret::new(generated.into_bytes()))
}

#[cfg(unix)]
fn write_private(path: &std::path::Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(contents.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &std::path::Path, contents: &str) -> std::io::Result<()> {
    std::fs::write(path, contents)
}

/// Opens the database without migrating it (the CLI's `migrate`, `keys` and `webhooks`
/// commands; [`crate::Services::open`] migrates).
pub fn open_store(settings: &Settings) -> Result<Store, ServicesError> {
    Ok(Store::open_without_migrating(
        settings.database.url.trim(),
        server_secret(settings)?,
    )?)
}
