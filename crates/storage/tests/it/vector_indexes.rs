//! The `domain::VectorIndex` seam held to one contract: every index a store can serve (the
//! in-memory one on both databases, pgvector's on PostgreSQL with the extension) finds a stored
//! face first, forgets a deleted face and a deleted collection at once, sees a write made
//! through another index over the same database, and agrees with the others on the best match.

use crate::common;

use domain::ExternalId;
use facegate_storage::search::FaceSearch;

fn ext(value: &str) -> ExternalId {
    ExternalId::parse("external_id", value).expect("valid id")
}

/// The bundled embedder's width, so pgvector's column serves these vectors.
const WIDTH: usize = 512;

#[test]
fn every_index_finds_forgets_and_agrees_with_the_others() {
    for (backend, db) in common::backends() {
        let tenant = db.store.create_tenant("t").expect("tenant").id;
        db.store
            .create_collection(tenant, &ext("people"), "")
            .expect("collection");
        let indexes = common::indexes(&db.store);
        let searches: Vec<(&str, FaceSearch)> = indexes
            .into_iter()
            .map(|(name, index)| (name, FaceSearch::new(db.store.clone(), index)))
            .collect();
        assert_eq!(
            searches.len(),
            if backend == "postgres" && db.store.pgvector_enabled() {
                2
            } else {
                1
            },
            "{backend}"
        );
        // faces written through the first index; every index must see them
        let (_, writer) = &searches[0];
        let ids: Vec<_> = (0..40)
            .map(|i| {
                writer
                    .index_face(
                        tenant,
                        &ext("people"),
                        &ext(&format!("p{i}")),
                        "m",
                        &common::unit(i, WIDTH),
                        "{}",
                    )
                    .expect("index")
                    .id
            })
            .collect();
        let query = common::unit(11, WIDTH);
        for (name, search) in &searches {
            let hits = search
                .search(tenant, &ext("people"), &query, 3, -1.0)
                .expect("search");
            assert_eq!(
                hits[0].face_id, ids[11],
                "{backend}/{name}: the face itself first"
            );
            assert!((hits[0].cosine - 1.0).abs() < 1e-4, "{backend}/{name}");
            let strict = search
                .search(tenant, &ext("people"), &query, 10, 0.99)
                .expect("search");
            assert_eq!(strict.len(), 1, "{backend}/{name}: min_cosine filters");
        }
        // a delete through the last index is gone from every index's next search
        let (_, deleter) = searches.last().expect("one index at least");
        deleter
            .delete_face(tenant, &ext("people"), ids[11])
            .expect("delete");
        for (name, search) in &searches {
            let hits = search
                .search(tenant, &ext("people"), &query, 40, -1.0)
                .expect("search");
            assert!(
                hits.iter().all(|h| h.face_id != ids[11]),
                "{backend}/{name}: deleted face gone"
            );
            assert_eq!(hits.len(), 39, "{backend}/{name}");
        }
        deleter
            .delete_collection(tenant, &ext("people"))
            .expect("drop collection");
        for (name, search) in &searches {
            assert!(
                search
                    .search(tenant, &ext("people"), &query, 5, -1.0)
                    .is_err(),
                "{backend}/{name}: a deleted collection is not found"
            );
        }
    }
}
