//! The defaults live in one place, `services`' `defaults.toml`: the readers that keep a
//! default of their own are held to it (the session service's in `services`, the upload
//! limits' here), and the web layer takes its own from the settings.

#[test]
fn the_upload_limits_default_is_the_built_in_setting() {
    let settings = services::Settings::built_in();
    assert_eq!(
        settings.limits.max_image_pixels,
        app::UploadLimits::default().max_image_pixels
    );
}
