//! pgvector on PostgreSQL: each face's vector is also written to `faces.embedding_vector`
//! (when the extension was available at migration time) and searched through an HNSW index.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Integer, Text};
use domain::SearchHit;
use uuid::Uuid;

use crate::AnyConnection;
use crate::error::{StorageError, StorageResult};

/// Dimension of the `embedding_vector` column (the bundled embedder's).
pub const PGVECTOR_DIM: usize = 512;
/// HNSW candidate list size; recall@10 against exact search is measured in the tests.
pub const EF_SEARCH: usize = 100;

#[derive(QueryableByName)]
struct Present {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Hit {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Double)]
    cosine: f64,
}

fn literal(vector: &[f32]) -> String {
    let parts: Vec<String> = vector.iter().map(|v| format!("{v}")).collect();
    format!("[{}]", parts.join(","))
}

/// Whether the schema has the pgvector column (PostgreSQL with the extension).
pub(crate) fn detect(conn: &mut AnyConnection) -> StorageResult<bool> {
    let AnyConnection::Postgresql(pg) = conn else {
        return Ok(false);
    };
    let present = diesel::sql_query(
        "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'faces' AND column_name = 'embedding_vector'",
    )
    .get_result::<Present>(pg)
    .map_err(StorageError::from)?;
    Ok(present.n > 0)
}

/// Writes a face's vector column (inside the caller's transaction).
pub(crate) fn set_vector(
    conn: &mut AnyConnection,
    face_id: &str,
    vector: &[f32],
) -> Result<(), diesel::result::Error> {
    let AnyConnection::Postgresql(pg) = conn else {
        return Ok(());
    };
    if vector.len() != PGVECTOR_DIM {
        return Ok(());
    }
    diesel::sql_query("UPDATE faces SET embedding_vector = CAST($1 AS vector) WHERE id = $2")
        .bind::<Text, _>(literal(vector))
        .bind::<Text, _>(face_id)
        .execute(pg)
        .map(|_| ())
}

/// Approximate top-k by inner product within one collection.
pub(crate) fn search(
    conn: &mut AnyConnection,
    collection_id: Uuid,
    query: &[f32],
    k: usize,
    min_cosine: f32,
) -> StorageResult<Vec<SearchHit>> {
    let AnyConnection::Postgresql(pg) = conn else {
        return Ok(Vec::new());
    };
    let ef = EF_SEARCH.max(k).min(1000);
    let hits = pg
        .transaction::<_, diesel::result::Error, _>(|c| {
            diesel::sql_query(format!("SET LOCAL hnsw.ef_search = {ef}")).execute(c)?;
            diesel::sql_query("SET LOCAL hnsw.iterative_scan = strict_order").execute(c)?;
            diesel::sql_query(
                "SELECT id, (-(embedding_vector <#> CAST($1 AS vector)))::float8 AS cosine FROM faces \
                 WHERE collection_id = $2 AND embedding_vector IS NOT NULL \
                 ORDER BY embedding_vector <#> CAST($1 AS vector) LIMIT $3",
            )
            .bind::<Text, _>(literal(query))
            .bind::<Text, _>(collection_id.to_string())
            .bind::<Integer, _>(k as i32)
            .load::<Hit>(c)
        })
        .map_err(StorageError::from)?;
    hits.into_iter()
        .filter(|h| h.cosine as f32 >= min_cosine)
        .map(|h| {
            Ok(SearchHit {
                face_id: crate::parse_uuid(&h.id)?,
                cosine: h.cosine as f32,
            })
        })
        .collect()
}
