//! The domain's integration tests: enum names and reason codes held to the docs.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-domain --test it enum_names::`.

mod enum_names;
mod reason_docs;
