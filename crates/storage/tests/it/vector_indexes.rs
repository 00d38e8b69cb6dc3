//! The `domain::VectorIndex` seam held to one contract: every index a store can serve (the
//! in-memory one on both databases, pgvector's on PostgreSQL with the extension) finds a stored
//! face first, forgets a deleted face and a deleted collection at once, sees a write made
//! through another index over the same database, and agrees with the others on the best match;
//! for each face model's width (pgvector has an HNSW column for each).

use crate::common;

use domain::ExternalId;
use facegate_storage::search::FaceSearch;

fn ext(value: &str) -> ExternalId {
    ExternalId::parse("external_id", value).expect("valid id")
}

#[test]
fn every_index_finds_forgets_and_agrees_with_the_others() {
    for (backend, db) in common::backends() {
        let tenant = db.store.create_tenant("t").expect("tenant").id;
        for model in domain::FaceModel::ALL {
            check(backend, &db, tenant, model);
        }
    }
}

/// The contract on one collection of `model` (vectors of its width, which pgvector's column
/// of that width serves).
fn check(backend: &str, db: &common::TestDb, tenant: domain::TenantId, model: domain::FaceModel) {
    let on_pgvector = backend == "postgres" && db.store.pgvector_enabled();
    let backend = format!("{backend}/{model}");
    let people = ext(&format!("people-{model}"));
    let width = model.dimensions();
    {
        db.store
            .create_collection(tenant, &people, "", model)
            .expect("collection");
        let indexes = common::indexes(&db.store);
        let searches: Vec<(&str, FaceSearch)> = indexes
            .into_iter()
            .map(|(name, index)| (name, FaceSearch::new(db.store.clone(), index)))
            .collect();
        assert_eq!(searches.len(), if on_pgvector { 2 } else { 1 }, "{backend}");
        // faces written through the first index; every index must see them
        let (_, writer) = &searches[0];
        let ids: Vec<_> = (0..40)
            .map(|i| {
                writer
                    .index_face(
                        tenant,
                        &people,
                        &ext(&format!("p{i}")),
                        "m",
                        &common::unit(i, width),
                        "{}",
                    )
                    .expect("index")
                    .id
            })
            .collect();
        let query = common::unit(11, width);
        for (name, search) in &searches {
            let hits = search
                .search(tenant, &people, &query, 3, -1.0)
                .expect("search");
            assert_eq!(
                hits[0].face_id, ids[11],
                "{backend}/{name}: the face itself first"
            );
            assert!((hits[0].cosine - 1.0).abs() < 1e-4, "{backend}/{name}");
            let strict = search
                .search(tenant, &people, &query, 10, 0.99)
                .expect("search");
            assert_eq!(strict.len(), 1, "{backend}/{name}: min_cosine filters");
        }
        // a delete through the last index is gone from every index's next search
        let (_, deleter) = searches.last().expect("one index at least");
        deleter
            .delete_face(tenant, &people, ids[11])
            .expect("delete");
        for (name, search) in &searches {
            let hits = search
                .search(tenant, &people, &query, 40, -1.0)
                .expect("search");
            assert!(
                hits.iter().all(|h| h.face_id != ids[11]),
                "{backend}/{name}: deleted face gone"
            );
            assert_eq!(hits.len(), 39, "{backend}/{name}");
        }
        deleter
            .delete_collection(tenant, &people)
            .expect("drop collection");
        for (name, search) in &searches {
            assert!(
                search.search(tenant, &people, &query, 5, -1.0).is_err(),
                "{backend}/{name}: a deleted collection is not found"
            );
        }
    }
}
