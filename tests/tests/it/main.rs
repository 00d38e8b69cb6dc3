//! Facegate's black-box tests: each starts the real `facegate` binary (or a cluster of it
//! behind HAProxy, or Chromium against it) and talks to it only as a client would.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-blackbox-tests --test it webhook_delivery::`.

mod active_session;
mod api_access;
mod api_concurrency;
mod api_conformance;
mod api_errors;
mod api_onboarding;
mod binary;
mod clients;
mod cluster_consistency;
mod cluster_faults;
mod direct_sessions;
mod front_door;
mod hostile_input;
mod liveness_sessions;
mod liveness_with_verify;
mod metrics;
mod screen_light_sessions;
mod serving;
mod session_attacks;
mod session_records;
mod session_refusals;
mod slow_clients;
mod socket_floods;
mod socket_refusals;
mod tenant_isolation;
mod token_guessing;
mod web_ui;
mod web_ui_cameras;
mod web_ui_embedded_and_active;
mod web_ui_languages;
mod web_ui_no_flash;
mod web_ui_serving;
mod webhook_delivery;
