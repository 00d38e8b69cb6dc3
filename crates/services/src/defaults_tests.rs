//! The defaults live in one place, `defaults.toml`: the session service's and the pgvector
//! index's own defaults are held to it here (the web layer's are held in `http`'s tests), so a
//! change to one that misses the other fails.

use crate::compose::session_settings;
use crate::settings::Settings;

#[test]
fn the_session_services_defaults_are_the_built_in_settings() {
    let settings = Settings::built_in();
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
    assert_eq!(wired.allow_no_flash, own.allow_no_flash);
}

#[test]
fn the_pgvector_index_default_is_the_built_in_setting() {
    assert_eq!(
        Settings::built_in().database.pgvector_ef_search,
        storage::pgvector::EF_SEARCH
    );
}

#[test]
fn the_built_in_settings_are_valid() {
    Settings::built_in()
        .validate()
        .expect("the built-in settings validate");
}
