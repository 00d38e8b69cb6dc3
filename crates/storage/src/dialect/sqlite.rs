//! SQLite's SQL: per-connection pragmas, write transactions that take the lock when they
//! begin, migrations, and the counter and lease upserts with `?` placeholders.

use diesel::connection::{AnsiTransactionManager, SimpleConnection};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel::sqlite::SqliteConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use uuid::Uuid;

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

#[derive(QueryableByName)]
struct Hits {
    #[diesel(sql_type = BigInt)]
    hits: i64,
}

pub(super) fn count_hit(
    lite: &mut SqliteConnection,
    name: &str,
    window_start: i64,
    expires_at: i64,
) -> QueryResult<i64> {
    diesel::sql_query(
        "INSERT INTO request_counters (name, window_start, hits, expires_at) \
         VALUES (?, ?, 1, ?) ON CONFLICT (name, window_start) \
         DO UPDATE SET hits = request_counters.hits + 1 RETURNING hits",
    )
    .bind::<Text, _>(name)
    .bind::<BigInt, _>(window_start)
    .bind::<BigInt, _>(expires_at)
    .get_result::<Hits>(lite)
    .map(|row| row.hits)
}

pub(super) fn claim_stream(
    lite: &mut SqliteConnection,
    id: Uuid,
    holder: &str,
    lease_until: i64,
    now: i64,
) -> QueryResult<usize> {
    diesel::sql_query(
        "INSERT INTO session_streams (session_id, holder, lease_until) VALUES (?, ?, ?) \
         ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, \
         lease_until = excluded.lease_until \
         WHERE session_streams.lease_until < ? OR session_streams.holder = excluded.holder",
    )
    .bind::<Text, _>(id.to_string())
    .bind::<Text, _>(holder)
    .bind::<BigInt, _>(lease_until)
    .bind::<BigInt, _>(now)
    .execute(lite)
}
