//! The embedded vector index: exact search over [`CollectionMatrices`] in this process's memory,
//! kept current from the store. Each collection's `version` (bumped by every face write, by any
//! process) tells whether the local copy is current; a stale collection is reloaded before it is
//! searched, so a delete made by any process takes effect in the next search everywhere.

use std::collections::HashMap;

use domain::{SearchHit, VectorIndex};
use parking_lot::Mutex;
use uuid::Uuid;

use crate::Store;
use crate::error::{StorageError, StorageResult};
use crate::vector::CollectionMatrices;

/// The exact in-memory index over a store's faces.
#[derive(Debug)]
pub struct MemoryVectorIndex {
    store: Store,
    matrices: CollectionMatrices,
    /// Version of each collection as loaded in `matrices`. Held while a collection is reloaded
    /// or updated, so a version and the content it describes always change together.
    versions: Mutex<HashMap<Uuid, i64>>,
}

impl MemoryVectorIndex {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            matrices: CollectionMatrices::new(),
            versions: Mutex::new(HashMap::new()),
        }
    }

    fn ensure_fresh(&self, collection_id: Uuid) -> StorageResult<()> {
        let mut versions = self.versions.lock();
        let current = self.store.collection_version(collection_id)?;
        if versions.get(&collection_id) != Some(&current) {
            let (version, vectors) = self.store.collection_vectors(collection_id)?;
            self.matrices.load_collection(collection_id, &vectors);
            versions.insert(collection_id, version);
        }
        Ok(())
    }

    /// Applies a local write when no other writer came between; otherwise marks the collection
    /// stale so the next search reloads it.
    fn after_write(
        &self,
        collection_id: Uuid,
        new_version: i64,
        apply: impl FnOnce(&CollectionMatrices),
    ) {
        let mut versions = self.versions.lock();
        if versions.get(&collection_id) == Some(&(new_version - 1)) {
            apply(&self.matrices);
            versions.insert(collection_id, new_version);
        } else {
            versions.remove(&collection_id);
        }
    }
}

impl VectorIndex for MemoryVectorIndex {
    type Error = StorageError;

    fn name(&self) -> &'static str {
        "memory"
    }

    /// Loads every collection of every tenant.
    fn prepare(&self) -> StorageResult<usize> {
        let mut versions = self.versions.lock();
        let mut faces = 0;
        for id in self.store.all_collection_ids()? {
            let (version, vectors) = self.store.collection_vectors(id)?;
            faces += vectors.len();
            self.matrices.load_collection(id, &vectors);
            versions.insert(id, version);
        }
        Ok(faces)
    }

    fn face_stored(&self, collection_id: Uuid, version: i64, face_id: Uuid, vector: &[f32]) {
        self.after_write(collection_id, version, |matrices| {
            matrices.upsert(collection_id, face_id, vector)
        });
    }

    fn face_deleted(&self, collection_id: Uuid, version: i64, face_id: Uuid) {
        self.after_write(collection_id, version, |matrices| {
            matrices.remove(collection_id, face_id)
        });
    }

    fn collection_deleted(&self, collection_id: Uuid) {
        let mut versions = self.versions.lock();
        self.matrices.remove_collection(collection_id);
        versions.remove(&collection_id);
    }

    fn search(
        &self,
        collection_id: Uuid,
        query: &[f32],
        k: usize,
        min_cosine: f32,
    ) -> StorageResult<Vec<SearchHit>> {
        self.ensure_fresh(collection_id)?;
        Ok(self.matrices.search(collection_id, query, k, min_cosine))
    }
}
