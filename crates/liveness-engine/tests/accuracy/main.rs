//! The liveness accuracy sweeps (held-back half, screen light, camera family): each runs its CI
//! sample by default and the whole sweep as an ignored test, by hand:
//! `cargo test -p facegate-liveness-engine --release --test accuracy -- --ignored held_back::`.
//! Their sessions and tables are `liveness_rig::eval`, shared with the calibration examples.

mod camera_family;
mod held_back;
mod no_flash;
mod screen_light;
