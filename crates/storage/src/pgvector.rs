//! pgvector's index on PostgreSQL: each face's vector is also written to the vector column of
//! its width (`faces.embedding_vector`, 512-d for `fr_feature`; `embedding_vector_128` for
//! SFace) in the transaction that stores the face (when the extension was there at migration
//! time), and searched through that column's HNSW index. A vector of a width no column has
//! (`SEARCH_VECTOR_COLUMNS`) is searched exactly in memory instead.

use domain::{SearchHit, VectorIndex};
use uuid::Uuid;

use crate::Store;
use crate::dialect::postgres;
use crate::error::{StorageError, StorageResult};
use crate::memory_index::MemoryVectorIndex;

pub use crate::dialect::postgres::{SEARCH_VECTOR_COLUMNS, search_vector_column};
/// The HNSW candidate list (`hnsw.ef_search`) of `database.pgvector_ef_search`'s default, for
/// indexes made without the settings (tests); held to `defaults.toml` by `services`. At 100 a random 128-d million-face collection found the
/// enrolled person first for 54% of probes, at 400 a 100k one for all (docs/benchmarks.md,
/// "A million faces"); recall@10 against exact search is held in the tests.
pub const EF_SEARCH: usize = 400;
/// The values `hnsw.ef_search` may take (pgvector's own bounds).
pub const EF_SEARCH_RANGE: std::ops::RangeInclusive<usize> = 1..=1000;

/// Search through pgvector's HNSW index; the store must be PostgreSQL with the extension
/// (`Store::pgvector_enabled`).
#[derive(Debug)]
pub struct PgvectorIndex {
    store: Store,
    /// Collections whose vectors are of another width than the column's.
    other_widths: MemoryVectorIndex,
    /// `hnsw.ef_search` for each search (at least the `k` asked for).
    ef_search: usize,
}

impl PgvectorIndex {
    /// An index searching with `ef_search` candidates (clamped to [`EF_SEARCH_RANGE`]).
    pub fn new(store: Store, ef_search: usize) -> Self {
        Self {
            other_widths: MemoryVectorIndex::new(store.clone()),
            store,
            ef_search: ef_search.clamp(*EF_SEARCH_RANGE.start(), *EF_SEARCH_RANGE.end()),
        }
    }
}

impl VectorIndex for PgvectorIndex {
    type Error = StorageError;

    fn name(&self) -> &'static str {
        "pgvector"
    }

    /// Nothing to load: the database holds the index.
    fn prepare(&self) -> StorageResult<usize> {
        Ok(0)
    }

    fn face_stored(&self, collection_id: Uuid, version: i64, face_id: Uuid, vector: &[f32]) {
        self.other_widths
            .face_stored(collection_id, version, face_id, vector);
    }

    fn face_deleted(&self, collection_id: Uuid, version: i64, face_id: Uuid) {
        self.other_widths
            .face_deleted(collection_id, version, face_id);
    }

    fn collection_deleted(&self, collection_id: Uuid) {
        self.other_widths.collection_deleted(collection_id);
    }

    fn search(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> StorageResult<Vec<SearchHit>> {
        if search_vector_column(query.len()).is_none() {
            return self
                .other_widths
                .search(collection_id, query, k, min_cosine);
        }
        let ef_search = self.ef_search.max(k).min(*EF_SEARCH_RANGE.end());
        let crate::AnyConnection::Postgresql(pg) = &mut *self.store.conn()? else {
            return Err(StorageError::Unavailable(
                "pgvector search on a store that is not PostgreSQL".into(),
            ));
        };
        postgres::nearest_faces(pg, collection_id, query, k, ef_search)
            .map_err(StorageError::from)?
            .into_iter()
            .filter(|row| row.cosine as f32 >= min_cosine)
            .map(|row| {
                Ok(SearchHit {
                    face_id: crate::parse_uuid(&row.id)?,
                    cosine: row.cosine as f32,
                })
            })
            .collect()
    }
}
