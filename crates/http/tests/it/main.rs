//! The HTTP layer's integration tests: the one app factory in-process, with real engines
//! and an embedded database.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-http --test it face_routes::`.

#[macro_use]
mod common;

mod collection_routes;
mod face_routes;
mod lockout_routes;
mod openapi_routes;
mod upload_limits;
