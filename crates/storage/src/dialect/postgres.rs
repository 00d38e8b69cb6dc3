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

/// The vector columns of `faces` with an HNSW index, by width: one per face model
/// (`fr_feature` 512-d, SFace 128-d).
pub const SEARCH_VECTOR_COLUMNS: [(usize, &str); 2] =
    [(512, "embedding_vector"), (128, "embedding_vector_128")];

/// The indexed column for vectors of `width`, if there is one.
pub fn search_vector_column(width: usize) -> Option<&'static str> {
    SEARCH_VECTOR_COLUMNS
        .iter()
        .find(|(w, _)| *w == width)
        .map(|(_, column)| *column)
}

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
    let Some(column) = search_vector_column(vector.len()) else {
        return Ok(());
    };
    // `column` is one of SEARCH_VECTOR_COLUMNS' constants, never input
    diesel::sql_query(format!(
        "UPDATE faces SET {column} = CAST($1 AS vector) WHERE id = $2"
    ))
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

/// The `k` nearest faces of a collection by inner product through the HNSW index of the
/// query's width (the caller checks there is one), exploring `ef_search` candidates, best
/// first.
pub(crate) fn nearest_faces(
    pg: &mut PgConnection,
    collection_id: Uuid,
    query: &[f32],
    k: usize,
    ef_search: usize,
) -> QueryResult<Vec<NearestFace>> {
    let column = search_vector_column(query.len()).ok_or_else(|| {
        diesel::result::Error::QueryBuilderError(
            format!("no vector index for width {}", query.len()).into(),
        )
    })?;
    pg.transaction(|c| {
        diesel::sql_query(format!("SET LOCAL hnsw.ef_search = {ef_search}")).execute(c)?;
        diesel::sql_query("SET LOCAL hnsw.iterative_scan = strict_order").execute(c)?;
        // `column` is one of SEARCH_VECTOR_COLUMNS' constants, never input
        diesel::sql_query(format!(
            "SELECT id, (-({column} <#> CAST($1 AS vector)))::float8 AS cosine FROM faces \
             WHERE collection_id = $2 AND {column} IS NOT NULL \
             ORDER BY {column} <#> CAST($1 AS vector) LIMIT $3"
        ))
        .bind::<Text, _>(vector_literal(query))
        .bind::<Text, _>(collection_id.to_string())
        .bind::<Integer, _>(k as i32)
        .load::<NearestFace>(c)
    })
}
