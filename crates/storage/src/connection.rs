//! One r2d2 pool over SQLite or PostgreSQL (`#[derive(MultiConnection)]`), SQLite tuned for
//! concurrent writers (WAL, busy timeout, foreign keys), and the embedded per-backend migrations.

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool, PooledConnection};
use diesel::sqlite::SqliteConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::error::{StorageError, StorageResult};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// A connection to either backend.
#[allow(missing_debug_implementations)] // the backends' connections are not Debug
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Sqlite(SqliteConnection),
    Postgresql(PgConnection),
}

pub type DbPool = Pool<ConnectionManager<AnyConnection>>;
pub type DbConnection = PooledConnection<ConnectionManager<AnyConnection>>;

/// Which backend a URL selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Per-connection SQLite settings: WAL so readers never block the writer, a busy timeout so
/// concurrent writers wait instead of failing with "database is locked", and foreign keys.
#[derive(Debug)]
struct SqlitePragmas;

impl CustomizeConnection<AnyConnection, diesel::r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut AnyConnection) -> Result<(), diesel::r2d2::Error> {
        if let AnyConnection::Sqlite(c) = conn {
            c.batch_execute(
                // busy_timeout first: switching to WAL needs a lock that another new
                // connection may hold for a moment
                "PRAGMA busy_timeout = 15000; PRAGMA journal_mode = WAL; \
                 PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
            .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// Opens a pool for `url` (a SQLite path or a `postgres://` URL).
pub fn open_pool(url: &str, max_size: u32) -> StorageResult<DbPool> {
    let manager = ConnectionManager::<AnyConnection>::new(url);
    Pool::builder()
        .max_size(max_size)
        .min_idle(Some(1))
        // a broken connection is detected by the driver on use; a SELECT 1 on every checkout
        // costs a round trip per repository call
        .test_on_check_out(false)
        .connection_timeout(Duration::from_secs(5))
        .connection_customizer(Box::new(SqlitePragmas))
        .build(manager)
        .map_err(|e| StorageError::Unavailable(e.to_string()))
}

/// Applies every pending migration of the connection's backend; returns how many ran.
pub fn run_migrations(conn: &mut AnyConnection) -> StorageResult<usize> {
    let applied = match conn {
        AnyConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        AnyConnection::Postgresql(c) => c
            .run_pending_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    applied.map_err(|e| StorageError::Migration(e.to_string()))
}

/// Reverts every applied migration (used by tests and `facegate migrate --down`).
pub fn revert_all_migrations(conn: &mut AnyConnection) -> StorageResult<()> {
    let reverted = match conn {
        AnyConnection::Sqlite(c) => c.revert_all_migrations(SQLITE_MIGRATIONS).map(|_| ()),
        AnyConnection::Postgresql(c) => c.revert_all_migrations(POSTGRES_MIGRATIONS).map(|_| ()),
    };
    reverted.map_err(|e| StorageError::Migration(e.to_string()))
}
