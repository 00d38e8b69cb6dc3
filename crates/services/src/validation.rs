//! The checks [`Settings::load`] runs before anything starts: each error names the key.

use crate::settings::{Settings, SettingsError, parse_embed_origins};

impl Settings {
    pub(crate) fn validate(&self) -> Result<(), SettingsError> {
        self.bind_address()?;
        let url = self.database.url.trim();
        if url.is_empty() {
            return Err(SettingsError::Invalid {
                key: "database.url",
                reason: "must not be empty".into(),
            });
        }
        if url.contains("://")
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(SettingsError::Invalid {
                key: "database.url",
                reason: "must be a SQLite file path or a postgres:// URL".into(),
            });
        }
        if !(storage::pgvector::EF_SEARCH_RANGE).contains(&self.database.pgvector_ef_search) {
            return Err(SettingsError::Invalid {
                key: "database.pgvector_ef_search",
                reason: format!(
                    "must be between {} and {}",
                    storage::pgvector::EF_SEARCH_RANGE.start(),
                    storage::pgvector::EF_SEARCH_RANGE.end()
                ),
            });
        }
        if !self.models.dir.as_os_str().is_empty()
            && !self.models.dir.join("manifest.toml").is_file()
        {
            return Err(SettingsError::Invalid {
                key: "models.dir",
                reason: format!("{} holds no manifest.toml", self.models.dir.display()),
            });
        }
        self.liveness.fitted_decision()?;
        let secret = self.security.server_secret.trim();
        if !secret.is_empty() && secret.len() < 32 {
            return Err(SettingsError::Invalid {
                key: "security.server_secret",
                reason: "must be at least 32 characters".into(),
            });
        }
        if secret.is_empty() && self.is_postgres() {
            return Err(SettingsError::Invalid {
                key: "security.server_secret",
                reason: "is required with PostgreSQL (every replica must share it)".into(),
            });
        }
        if !(1..=24 * 60).contains(&self.sessions.lifetime_minutes) {
            return Err(SettingsError::Invalid {
                key: "sessions.lifetime_minutes",
                reason: "must be between 1 and 1440".into(),
            });
        }
        for (key, seconds) in [
            (
                "sessions.sweep_interval_seconds",
                self.sessions.sweep_interval_seconds,
            ),
            (
                "server.body_timeout_seconds",
                self.server.body_timeout_seconds,
            ),
            ("server.body_idle_seconds", self.server.body_idle_seconds),
            (
                "server.stalled_client_seconds",
                self.server.stalled_client_seconds,
            ),
        ] {
            if seconds == 0 {
                return Err(SettingsError::Invalid {
                    key,
                    reason: "must be at least 1".into(),
                });
            }
        }
        self.webhook_allowed_networks()?;
        self.trusted_proxies()?;
        parse_embed_origins(&self.ui.embed_origins).map_err(|reason| SettingsError::Invalid {
            key: "ui.embed_origins",
            reason,
        })?;
        let tls = &self.server.tls;
        if tls.cert_file.trim().is_empty() != tls.key_file.trim().is_empty() {
            return Err(SettingsError::Invalid {
                key: "server.tls.cert_file",
                reason: "server.tls.cert_file and server.tls.key_file go together".into(),
            });
        }
        let public = self.public_url();
        if !(public.starts_with("http://") || public.starts_with("https://")) {
            return Err(SettingsError::Invalid {
                key: "server.public_url",
                reason: "must start with https:// (or http:// for local trials)".into(),
            });
        }
        if self.sessions.audit_frames > sessions::audit::MAX_AUDIT_FRAMES {
            return Err(SettingsError::Invalid {
                key: "sessions.audit_frames",
                reason: format!(
                    "must be between 0 and {}",
                    sessions::audit::MAX_AUDIT_FRAMES
                ),
            });
        }
        if !(1..=3600).contains(&self.sessions.socket_idle_seconds) {
            return Err(SettingsError::Invalid {
                key: "sessions.socket_idle_seconds",
                reason: "must be between 1 and 3600".into(),
            });
        }
        if self.sessions.direct.max_attempts == 0 || self.sessions.direct.window_minutes == 0 {
            return Err(SettingsError::Invalid {
                key: "sessions.direct.max_attempts",
                reason: "max_attempts and window_minutes must be at least 1".into(),
            });
        }
        if !self.sessions.direct.captcha_verify_url.is_empty()
            && self.sessions.direct.captcha_secret.is_empty()
        {
            return Err(SettingsError::Invalid {
                key: "sessions.direct.captcha_secret",
                reason: "is required when captcha_verify_url is set".into(),
            });
        }
        if self.limits.max_image_pixels < 10_000 {
            return Err(SettingsError::Invalid {
                key: "limits.max_image_pixels",
                reason: "must be at least 10000".into(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pgvector_candidate_list_is_held_to_pgvectors_bounds() {
        let mut settings = Settings::built_in();
        for (ef_search, valid) in [(0, false), (1, true), (1000, true), (1001, false)] {
            settings.database.pgvector_ef_search = ef_search;
            match settings.validate() {
                Ok(()) => assert!(valid, "{ef_search} accepted"),
                Err(SettingsError::Invalid { key, reason }) => {
                    assert!(!valid, "{ef_search} refused: {reason}");
                    assert_eq!(key, "database.pgvector_ef_search");
                    assert_eq!(reason, "must be between 1 and 1000");
                }
                Err(other) => panic!("{ef_search}: {other}"),
            }
        }
    }
}
