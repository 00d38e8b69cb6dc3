//! The liveness engine's integration tests on real footage from `../shared/testdata`, with the
//! harness of `liveness_rig::eval`.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-liveness-engine --test it attacks::`.

mod attacks;
mod bad_input;
mod frame_cache;
mod live_footage;
mod look_at_colours_end;
mod no_flash;
mod overloaded_light;
mod portrait_requirements;
