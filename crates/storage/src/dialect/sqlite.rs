//! SQLite's own SQL: per-connection pragmas, write transactions that take the lock when they
//! begin, and migrations.

use diesel::connection::{AnsiTransactionManager, SimpleConnection};
use diesel::prelude::*;
use diesel::sqlite::SqliteConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

/// Per-connection settings: WAL so readers never block the writer, a busy timeout so
/// concurrent writers wait instead of failing with "database is locked", and foreign keys.
/// `busy_timeout` comes first: switching to WAL needs a lock that another new connection may
/// hold for a moment.
pub(crate) fn configure_connection(lite: &mut SqliteConnection) -> QueryResult<()> {
    lite.batch_execute(
        "PRAGMA busy_timeout = 15000; PRAGMA journal_mode = WAL; \
         PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    )
}

/// Begins a transaction that writes with `BEGIN IMMEDIATE`, so it takes the write lock at once
/// and waits for other writers within the busy timeout (see `connection::write_transaction`).
pub(crate) fn begin_write(lite: &mut SqliteConnection) -> QueryResult<()> {
    AnsiTransactionManager::begin_transaction_sql(lite, "BEGIN IMMEDIATE")
}

pub(super) fn run_migrations(lite: &mut SqliteConnection) -> Result<usize, String> {
    lite.run_pending_migrations(MIGRATIONS)
        .map(|v| v.len())
        .map_err(|e| e.to_string())
}

pub(super) fn revert_all_migrations(lite: &mut SqliteConnection) -> Result<(), String> {
    lite.revert_all_migrations(MIGRATIONS)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
