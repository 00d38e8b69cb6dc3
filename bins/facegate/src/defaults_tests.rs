//! The defaults live in one place, `defaults.toml`: every other reader that keeps a default of
//! its own (the session service's, the app state builder's, the upload limits', the body
//! deadlines') is held to it here, so a change to one that misses the other fails.

use config::{Config, File, FileFormat};

use crate::serve::{body_deadlines, session_settings};
use crate::settings::{DEFAULTS, Settings};

/// The built-in settings alone: no `facegate.toml`, no environment.
fn built_in() -> Settings {
    Config::builder()
        .add_source(File::from_str(DEFAULTS, FileFormat::Toml))
        .build()
        .and_then(Config::try_deserialize)
        .expect("defaults.toml deserialises")
}

#[test]
fn the_session_services_defaults_are_the_built_in_settings() {
    let settings = built_in();
    let wired = session_settings(&settings);
    let own = sessions::SessionSettings::defaults(&settings.public_url());
    assert_eq!(wired.public_url, own.public_url);
    assert_eq!(wired.lifetime_ms, own.lifetime_ms);
    assert_eq!(wired.direct.enabled, own.direct.enabled);
    assert_eq!(wired.direct.max_attempts, own.direct.max_attempts);
    assert_eq!(wired.direct.window_seconds, own.direct.window_seconds);
    assert_eq!(wired.direct.tenant, own.direct.tenant);
    assert_eq!(wired.direct.captcha.is_some(), own.direct.captcha.is_some());
    assert_eq!(wired.liveness, own.liveness);
    assert_eq!(wired.compare_threshold, own.compare_threshold);
    assert_eq!(wired.socket_idle_seconds, own.socket_idle_seconds);
    assert_eq!(wired.randomness, own.randomness);
    assert_eq!(wired.max_image_pixels, own.max_image_pixels);
    assert_eq!(wired.audit_frames, own.audit_frames);
}

#[test]
fn the_web_layers_defaults_are_the_built_in_settings() {
    let settings = built_in();
    assert_eq!(
        http::ratelimit::RateLimits {
            per_second: settings.rate_limit.per_second,
            per_minute: settings.rate_limit.per_minute,
        },
        http::ratelimit::RateLimits::default()
    );
    assert_eq!(
        settings.security.failed_credentials_per_minute,
        http::DEFAULT_FAILED_CREDENTIALS_PER_MINUTE
    );
    assert_eq!(
        body_deadlines(&settings),
        http::deadline::BodyDeadlines::default()
    );
    assert_eq!(
        settings.limits.max_image_pixels,
        app::UploadLimits::default().max_image_pixels
    );
}
