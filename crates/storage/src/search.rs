//! Face search over collections: the store is the source of truth, and a vector index (the
//! `domain::VectorIndex` seam: [`crate::memory_index::MemoryVectorIndex`] or
//! [`crate::pgvector::PgvectorIndex`], chosen by the composition root) serves search and is
//! told of every write.

use std::sync::Arc;

use domain::{ExternalId, IndexedFace, SearchHit, TenantId, VectorIndex};
use uuid::Uuid;

use crate::Store;
use crate::error::{StorageError, StorageResult};

/// A vector index over a store, as the face use cases hold it.
pub type SharedVectorIndex = Arc<dyn VectorIndex<Error = StorageError>>;

/// Collections, faces and their search, kept in step.
#[derive(Debug, Clone)]
pub struct FaceSearch {
    store: Store,
    index: SharedVectorIndex,
}

impl FaceSearch {
    /// Search over `store`'s faces through `index` (which must read the same store).
    pub fn new(store: Store, index: SharedVectorIndex) -> Self {
        Self { store, index }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The index's backend name (`memory`, `pgvector`).
    pub fn index_name(&self) -> &'static str {
        self.index.name()
    }

    /// Makes the index ready (start-up); returns the number of faces it loaded into memory.
    pub fn prepare(&self) -> StorageResult<usize> {
        self.index.prepare()
    }

    /// Stores a face and makes it searchable.
    pub fn index_face(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
        external_face_id: &ExternalId,
        model_id: &str,
        embedding: &[f32],
        detail: &str,
    ) -> StorageResult<IndexedFace> {
        let (face, version) = self.store.insert_face(
            tenant,
            collection,
            external_face_id,
            model_id,
            embedding,
            detail,
        )?;
        self.index
            .face_stored(face.collection_id, version, face.id, embedding);
        Ok(face)
    }

    /// Deletes a face; it stops appearing in searches at once.
    pub fn delete_face(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
        face_id: Uuid,
    ) -> StorageResult<()> {
        let (collection_id, version) = self.store.delete_face(tenant, collection, face_id)?;
        self.index.face_deleted(collection_id, version, face_id);
        Ok(())
    }

    /// Deletes a collection and its faces.
    pub fn delete_collection(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
    ) -> StorageResult<()> {
        let collection_id = self.store.delete_collection(tenant, collection)?;
        self.index.collection_deleted(collection_id);
        Ok(())
    }

    /// The `k` faces most similar to `query` (raw cosine ≥ `min_cosine`), best first.
    pub fn search(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> StorageResult<Vec<SearchHit>> {
        let collection_id = self.store.collection_id(tenant, collection)?;
        self.index.search(collection_id, query, k, min_cosine)
    }

    /// Like [`FaceSearch::search`], with each hit's `external_face_id`; the collection is
    /// resolved once. Faces deleted between the scan and the look-up are dropped.
    pub fn search_named(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> StorageResult<Vec<(SearchHit, String)>> {
        let collection_id = self.store.collection_id(tenant, collection)?;
        let hits = self.index.search(collection_id, query, k, min_cosine)?;
        let ids: Vec<Uuid> = hits.iter().map(|h| h.face_id).collect();
        let mut names = self.store.external_face_ids(tenant, collection_id, &ids)?;
        Ok(hits
            .into_iter()
            .filter_map(|h| names.remove(&h.face_id).map(|name| (h, name)))
            .collect())
    }
}
