//! Facegate's storage layer: diesel over SQLite (embedded) and PostgreSQL (scale-out), the
//! embedded migrations and vector search.
//!
//! Not built yet: the storage issue fills this crate. Nothing in the service uses it today, so
//! nothing depends on it pretending to work.
