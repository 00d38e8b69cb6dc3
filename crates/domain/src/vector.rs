//! The vector-search seam behind collections: nearest neighbours by cosine over L2-normalised
//! embeddings. The store keeps every face and bumps its collection's version on each write; an
//! index is told of each write with that version, and searches. Storage has two: an exact index
//! in the process's memory, kept current from the store, and pgvector's HNSW index in
//! PostgreSQL. The composition root (`Services::open`) chooses one.

use uuid::Uuid;

/// One search result: a face and its raw cosine similarity to the query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchHit {
    pub face_id: Uuid,
    pub cosine: f32,
}

/// Where a collection's faces are searched. An implementation makes a write it was told of, or
/// one that another process made to the same store, visible to every later search at once.
pub trait VectorIndex: Send + Sync + std::fmt::Debug {
    /// What a search or the start-up load fails with (the store's error).
    type Error;

    /// The backend's name, for logs: `memory` or `pgvector`.
    fn name(&self) -> &'static str;

    /// Makes the index ready at start-up; returns how many faces it loaded into memory.
    fn prepare(&self) -> Result<usize, Self::Error>;

    /// A face was stored; its collection's version after the write is `version`.
    fn face_stored(&self, collection_id: Uuid, version: i64, face_id: Uuid, vector: &[f32]);

    /// A face was deleted; its collection's version after the write is `version`.
    fn face_deleted(&self, collection_id: Uuid, version: i64, face_id: Uuid);

    /// A collection and its faces were deleted.
    fn collection_deleted(&self, collection_id: Uuid);

    /// The `k` most similar faces with cosine at least `min_cosine`, best first.
    fn search(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> Result<Vec<SearchHit>, Self::Error>;
}
