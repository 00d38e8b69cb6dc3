//! The storage layer's integration tests, each on SQLite and, where `FACEGATE_TEST_DATABASE_URL`
//! names one, on PostgreSQL with pgvector.
//!
//! One test executable per crate (issue 69): each file is a module, so the crate links once.
//! A filter runs one file's tests:
//! `cargo test -p facegate-storage --test it repositories::`.

mod common;

mod concurrency;
mod deployment;
mod pgvector_recall;
mod repositories;
mod session_records;
mod sessions;
mod vector_indexes;
mod webhook_secrets;
