//! The session service without the web, on a real SQLite store and the shipped models.
//!
//! One test executable for the crate (issue 69): each file is a module. A filter runs one
//! file's tests: `cargo test -p facegate-sessions --test it no_flash::`.

mod common;
mod frame_rate;
mod no_flash;
mod streams;
