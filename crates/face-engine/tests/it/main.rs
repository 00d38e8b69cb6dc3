//! The face engine's integration tests on the bundled models and `../shared/testdata`.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-face-engine --test it detection::`.

mod common;

mod detection;
mod model_loading;
mod portrait_and_spoof;
mod rewrite_counts;
mod tract_rewrites;
mod verification;
