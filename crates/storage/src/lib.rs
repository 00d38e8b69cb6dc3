//! Facegate's storage layer: diesel over SQLite (the embedded default) and PostgreSQL (the
//! scale-out store) from one pool, embedded migrations, repositories returning domain types,
//! secrets kept only as HMAC digests, retention, and the two vector indexes behind
//! `domain::VectorIndex`: the in-memory exact one and pgvector's.

pub mod audit_frames;
pub mod collections;
pub mod connection;
pub mod deployment;
mod dialect;
mod error;
pub mod memory_index;
pub mod outbox;
pub mod pgvector;
pub mod retention;
mod schema;
pub mod search;
pub mod secrets;
pub mod session_records;
pub mod sessions;
pub mod streams;
pub mod tenants;
pub mod vector;
pub mod webhook_secrets;
pub mod webhooks;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use domain::{SharedClock, SystemClock};

pub use connection::{AnyConnection, Backend, DbConnection, DbPool};
pub use error::{Entity, StorageError, StorageResult};
pub use secrets::ServerSecret;

/// A handle on the database: the pool, its backend, the server secret for digests and the
/// clock every stored time reads.
#[derive(Clone)]
pub struct Store {
    pool: DbPool,
    backend: Backend,
    secret: ServerSecret,
    clock: SharedClock,
    /// Whether faces carry a pgvector column (set by `migrate`).
    pgvector: Arc<AtomicBool>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend)
            .finish()
    }
}

impl Store {
    /// Opens `url`, applies pending migrations and returns the store.
    pub fn open(url: &str, secret: ServerSecret) -> StorageResult<Self> {
        let store = Self::open_without_migrating(url, secret)?;
        store.migrate()?;
        Ok(store)
    }

    /// Applies pending migrations; returns how many ran.
    pub fn migrate(&self) -> StorageResult<usize> {
        let mut conn = self.conn()?;
        let applied = connection::run_migrations(&mut conn)?;
        let has_vectors = dialect::has_search_vectors(&mut conn).map_err(StorageError::from)?;
        self.pgvector.store(has_vectors, Ordering::Relaxed);
        Ok(applied)
    }

    /// Whether search runs on pgvector's HNSW index (PostgreSQL with the extension).
    pub fn pgvector_enabled(&self) -> bool {
        self.pgvector.load(Ordering::Relaxed)
    }

    /// Opens `url` without touching the schema.
    pub fn open_without_migrating(url: &str, secret: ServerSecret) -> StorageResult<Self> {
        let backend = Backend::of(url);
        let pool_size = match backend {
            Backend::Sqlite => 8,
            Backend::Postgres => 16,
        };
        let pool = connection::open_pool(url, pool_size)?;
        Ok(Self {
            pool,
            backend,
            secret,
            clock: Arc::new(SystemClock),
            pgvector: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The same store reading `clock` (the system's by default) for every stored time, expiry
    /// and lease.
    pub fn with_clock(mut self, clock: SharedClock) -> Self {
        self.clock = clock;
        self
    }

    /// The clock this store reads.
    pub fn clock(&self) -> &SharedClock {
        &self.clock
    }

    /// Now, in unix milliseconds, by this store's clock.
    pub fn now_millis(&self) -> i64 {
        self.clock.now_millis()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn conn(&self) -> StorageResult<DbConnection> {
        Ok(self.pool.get()?)
    }

    pub(crate) fn secret(&self) -> &ServerSecret {
        &self.secret
    }

    /// Hex HMAC digest of `value` under the server secret (for keys that must not be stored in
    /// the clear, such as a direct session's fingerprint and client address).
    pub fn digest_hex(&self, value: &str) -> String {
        hex::encode(self.secret.digest(value))
    }

    /// Whether the database answers a trivial query (readiness).
    pub fn ping(&self) -> StorageResult<()> {
        use diesel::connection::SimpleConnection;
        let mut conn = self.conn()?;
        conn.batch_execute("SELECT 1")
            .map_err(|e| StorageError::Unavailable(e.to_string()))
    }

    /// A raw pooled connection, for migrations run by the CLI and tests.
    pub fn connection(&self) -> StorageResult<DbConnection> {
        self.conn()
    }
}

pub(crate) fn parse_uuid(value: &str) -> StorageResult<uuid::Uuid> {
    uuid::Uuid::parse_str(value).map_err(|e| StorageError::Corrupt(format!("uuid {value}: {e}")))
}

/// Little-endian f32 blob of an embedding.
pub fn embedding_to_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// An embedding from its little-endian f32 blob.
pub fn embedding_from_blob(blob: &[u8]) -> StorageResult<Vec<f32>> {
    if !blob.len().is_multiple_of(4) {
        return Err(StorageError::Corrupt(format!(
            "embedding blob of {} bytes",
            blob.len()
        )));
    }
    Ok(blob
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
