//! The vector-search contract behind collections: exact or approximate nearest neighbours by
//! cosine over L2-normalised embeddings.

use uuid::Uuid;

/// One search result: a face and its raw cosine similarity to the query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchHit {
    pub face_id: Uuid,
    pub cosine: f32,
}

/// Nearest-neighbour search over the faces of each collection. Implementations must make an
/// upsert or removal visible to every later search at once.
pub trait VectorIndex: Send + Sync {
    /// Adds or replaces a face's vector.
    fn upsert(&self, collection_id: Uuid, face_id: Uuid, vector: &[f32]);
    /// Removes a face; unknown faces are ignored.
    fn remove(&self, collection_id: Uuid, face_id: Uuid);
    /// Drops a whole collection.
    fn remove_collection(&self, collection_id: Uuid);
    /// The `k` most similar faces with cosine at least `min_cosine`, best first.
    fn search(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> Vec<SearchHit>;
    /// Number of faces held for a collection.
    fn len(&self, collection_id: Uuid) -> usize;
}
