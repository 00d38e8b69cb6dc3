//! PostgreSQL's own SQL: migrations under an advisory lock, a transaction's advisory lock on a
//! subject, and pgvector (the face vector column and its HNSW search).

use diesel::pg::PgConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Integer, Text};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use uuid::Uuid;

const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// The advisory lock that serialises migrations of replicas starting together.
const MIGRATION_LOCK: i64 = 0x6661_6365_6761_7465; // "facegate"

/// Width of the `faces.embedding_vector` column (the bundled embedder's).
pub const SEARCH_VECTOR_WIDTH: usize = 512;

/// Applies pending migrations holding a session advisory lock, so replicas starting at once
/// migrate one after another: the second finds nothing pending instead of racing the first.
pub(super) fn run_migrations(pg: &mut PgConnection) -> Result<usize, String> {
    diesel::sql_query("SELECT pg_advisory_lock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK)
        .execute(pg)
        .map_err(|e| format!("migration lock: {e}"))?;
    let applied = pg
        .run_pending_migrations(MIGRATIONS)
        .map(|v| v.len())
        .map_err(|e| e.to_string());
    let unlocked = diesel::sql_query("SELECT pg_advisory_unlock($1)")
        .bind::<BigInt, _>(MIGRATION_LOCK)
        .execute(pg);
    if let Err(e) = unlocked {
        tracing::warn!(error = %e, "releasing the migration lock failed");
    }
    applied
}

pub(super) fn revert_all_migrations(pg: &mut PgConnection) -> Result<(), String> {
    pg.revert_all_migrations(MIGRATIONS)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A transaction-scoped advisory lock keyed by `subject`'s hash.
pub(super) fn lock_subject_for_transaction(
    pg: &mut PgConnection,
    subject: &str,
) -> QueryResult<()> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind::<Text, _>(subject)
        .execute(pg)
        .map(|_| ())
}

#[derive(QueryableByName)]
struct Present {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

pub(super) fn has_search_vector_column(pg: &mut PgConnection) -> QueryResult<bool> {
    diesel::sql_query(
        "SELECT count(*) AS n FROM information_schema.columns \
         WHERE table_name = 'faces' AND column_name = 'embedding_vector'",
    )
    .get_result::<Present>(pg)
    .map(|present| present.n > 0)
}

fn vector_literal(vector: &[f32]) -> String {
    let parts: Vec<String> = vector.iter().map(|v| format!("{v}")).collect();
    format!("[{}]", parts.join(","))
}

pub(super) fn set_search_vector(
    pg: &mut PgConnection,
    face_id: &str,
    vector: &[f32],
) -> QueryResult<()> {
    if vector.len() != SEARCH_VECTOR_WIDTH {
        return Ok(());
    }
    diesel::sql_query("UPDATE faces SET embedding_vector = CAST($1 AS vector) WHERE id = $2")
        .bind::<Text, _>(vector_literal(vector))
        .bind::<Text, _>(face_id)
        .execute(pg)
        .map(|_| ())
}

/// One row of an HNSW search: a face id and its cosine to the query.
#[derive(QueryableByName)]
pub(crate) struct NearestFace {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Double)]
    pub cosine: f64,
}

/// The `k` nearest faces of a collection by inner product through the HNSW index, exploring
/// `ef_search` candidates, best first.
pub(crate) fn nearest_faces(
    pg: &mut PgConnection,
    collection_id: Uuid,
    query: &[f32],
    k: usize,
    ef_search: usize,
) -> QueryResult<Vec<NearestFace>> {
    pg.transaction(|c| {
        diesel::sql_query(format!("SET LOCAL hnsw.ef_search = {ef_search}")).execute(c)?;
        diesel::sql_query("SET LOCAL hnsw.iterative_scan = strict_order").execute(c)?;
        diesel::sql_query(
            "SELECT id, (-(embedding_vector <#> CAST($1 AS vector)))::float8 AS cosine FROM faces \
             WHERE collection_id = $2 AND embedding_vector IS NOT NULL \
             ORDER BY embedding_vector <#> CAST($1 AS vector) LIMIT $3",
        )
        .bind::<Text, _>(vector_literal(query))
        .bind::<Text, _>(collection_id.to_string())
        .bind::<Integer, _>(k as i32)
        .load::<NearestFace>(c)
    })
}
