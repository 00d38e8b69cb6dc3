//! Face search over collections: the store is the source of truth, the in-memory index the
//! fast path. Each collection's `version` (bumped by every face write, by any process) tells
//! whether the local index is current; a stale collection is reloaded before it is searched,
//! so a delete made by any process takes effect in the next search everywhere.

use std::collections::HashMap;

use domain::{ExternalId, IndexedFace, SearchHit, TenantId, VectorIndex};
use parking_lot::Mutex;
use uuid::Uuid;

use crate::Store;
use crate::error::StorageResult;
use crate::vector::MemoryVectorIndex;

/// Collections, faces and their search, kept in step.
#[derive(Debug)]
pub struct FaceSearch {
    store: Store,
    index: MemoryVectorIndex,
    /// Version of each collection as loaded in `index`. Held while the index is reloaded or
    /// updated, so a version and the content it describes always change together.
    versions: Mutex<HashMap<Uuid, i64>>,
}

impl FaceSearch {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            index: MemoryVectorIndex::new(),
            versions: Mutex::new(HashMap::new()),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn uses_pgvector(&self, query_len: usize) -> bool {
        self.store.pgvector_enabled() && query_len == crate::pgvector::PGVECTOR_DIM
    }

    /// Loads every collection (start-up); returns the number of faces loaded. With pgvector
    /// the database's HNSW index serves search and nothing is loaded.
    pub fn rebuild_all(&self) -> StorageResult<usize> {
        if self.store.pgvector_enabled() {
            return Ok(0);
        }
        let mut versions = self.versions.lock();
        let mut faces = 0;
        for id in self.store.all_collection_ids()? {
            let (version, vectors) = self.store.collection_vectors(id)?;
            faces += vectors.len();
            self.index.load_collection(id, &vectors);
            versions.insert(id, version);
        }
        Ok(faces)
    }

    fn ensure_fresh(&self, collection_id: Uuid) -> StorageResult<()> {
        let mut versions = self.versions.lock();
        let current = self.store.collection_version(collection_id)?;
        if versions.get(&collection_id) != Some(&current) {
            let (version, vectors) = self.store.collection_vectors(collection_id)?;
            self.index.load_collection(collection_id, &vectors);
            versions.insert(collection_id, version);
        }
        Ok(())
    }

    /// Applies a local write to the index when no other writer came between; otherwise marks
    /// the collection stale so the next search reloads it.
    fn after_write(
        &self,
        collection_id: Uuid,
        new_version: i64,
        apply: impl FnOnce(&MemoryVectorIndex),
    ) {
        let mut versions = self.versions.lock();
        if versions.get(&collection_id) == Some(&(new_version - 1)) {
            apply(&self.index);
            versions.insert(collection_id, new_version);
        } else {
            versions.remove(&collection_id);
        }
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
        self.after_write(face.collection_id, version, |index| {
            index.upsert(face.collection_id, face.id, embedding)
        });
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
        self.after_write(collection_id, version, |index| {
            index.remove(collection_id, face_id)
        });
        Ok(())
    }

    /// Deletes a collection and its faces.
    pub fn delete_collection(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
    ) -> StorageResult<()> {
        let collection_id = self.store.delete_collection(tenant, collection)?;
        let mut versions = self.versions.lock();
        self.index.remove_collection(collection_id);
        versions.remove(&collection_id);
        Ok(())
    }

    fn search_in(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> StorageResult<Vec<SearchHit>> {
        if self.uses_pgvector(query.len()) {
            return self
                .store
                .search_pgvector(collection_id, query, k, min_cosine);
        }
        self.ensure_fresh(collection_id)?;
        Ok(self.index.search(collection_id, query, k, min_cosine))
    }

    /// Exact search in this process's memory even where pgvector serves `search` (used to
    /// measure pgvector's recall).
    pub fn search_exact(
        &self,
        tenant: TenantId,
        collection: &ExternalId,
        query: &[f32],
        k: usize,
    ) -> StorageResult<Vec<SearchHit>> {
        let collection_id = self.store.collection_id(tenant, collection)?;
        self.ensure_fresh(collection_id)?;
        Ok(self.index.search(collection_id, query, k, -1.0))
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
        self.search_in(
            self.store.collection_id(tenant, collection)?,
            query,
            k,
            min_cosine,
        )
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
        let hits = self.search_in(collection_id, query, k, min_cosine)?;
        let ids: Vec<Uuid> = hits.iter().map(|h| h.face_id).collect();
        let mut names = self.store.external_face_ids(tenant, collection_id, &ids)?;
        Ok(hits
            .into_iter()
            .filter_map(|h| names.remove(&h.face_id).map(|name| (h, name)))
            .collect())
    }
}
