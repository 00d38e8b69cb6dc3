//! pgvector on PostgreSQL (when `FACEGATE_TEST_DATABASE_URL` is set and the extension is
//! installed): recall@10 of the HNSW index against exact search, and deletes visible at once.

use crate::common;

use domain::{ExternalId, TenantId};
use facegate_storage::search::FaceSearch;

fn ext(value: &str) -> ExternalId {
    ExternalId::parse("external_id", value).expect("valid id")
}

#[test]
fn hnsw_recall_at_10_is_at_least_0_99_and_deletes_apply_at_once() {
    let Some(db) = common::postgres() else {
        eprintln!("FACEGATE_TEST_DATABASE_URL not set: pgvector test skipped");
        return;
    };
    if !db.store.pgvector_enabled() {
        assert!(
            !common::in_ci(),
            "CI=true but the pgvector extension is not installed: the HNSW test cannot skip in CI"
        );
        eprintln!(
            "pgvector extension not installed: PostgreSQL search runs the exact in-memory path"
        );
        return;
    }
    let tenant = db.store.create_tenant("t").expect("tenant").id;
    let search = common::search_over(&db.store);
    assert_eq!(search.index_name(), "pgvector");
    let exact = common::exact_search_over(&db.store);
    let n = 3000;
    index_units(&search, tenant, "big", "u", 0, n);
    index_units(&search, tenant, "other", "o", 100_000, 200);
    let recall = recall_at_10(&search, &exact, tenant);
    println!(
        "pgvector recall@10 = {recall:.4} over 50 queries, {n} faces, ef_search {}",
        facegate_storage::pgvector::EF_SEARCH
    );
    assert!(recall >= 0.99, "recall@10 {recall}");

    let target = common::unit(5, 512);
    let best = search
        .search(tenant, &ext("big"), &target, 1, -1.0)
        .expect("search")[0];
    assert!((best.cosine - 1.0).abs() < 1e-4);
    search
        .delete_face(tenant, &ext("big"), best.face_id)
        .expect("delete");
    let after = search
        .search(tenant, &ext("big"), &target, 5, -1.0)
        .expect("search");
    assert!(
        after.iter().all(|h| h.face_id != best.face_id),
        "deleted face still found"
    );
    // results never leak from another collection
    assert!(
        search
            .search(tenant, &ext("other"), &target, 300, -1.0)
            .expect("search")
            .len()
            == 200
    );
}

/// A collection `name` holding `count` unit vectors (`common::unit(first + i)`), external ids
/// `{prefix}{i}`.
fn index_units(
    search: &FaceSearch,
    tenant: TenantId,
    name: &str,
    prefix: &str,
    first: u64,
    count: u64,
) {
    search
        .store()
        .create_collection(tenant, &ext(name), "", domain::FaceModel::FrFeature)
        .expect("collection");
    for i in 0..count {
        search
            .index_face(
                tenant,
                &ext(name),
                &ext(&format!("{prefix}{i}")),
                "m",
                &common::unit(first + i, 512),
                "{}",
            )
            .expect("index");
    }
}

/// The share of the exact top 10 that the HNSW search finds, over 50 queries near stored
/// faces (like a real re-identification) in `big`.
fn recall_at_10(search: &FaceSearch, exact: &FaceSearch, tenant: TenantId) -> f64 {
    let (mut found, mut wanted) = (0usize, 0usize);
    for q in 0..50 {
        let mut query = common::unit(q * 37, 512);
        let noise = common::unit(500_000 + q, 512);
        query
            .iter_mut()
            .zip(&noise)
            .for_each(|(a, b)| *a = 0.8 * *a + 0.6 * b);
        let approx = search
            .search(tenant, &ext("big"), &query, 10, -1.0)
            .expect("pgvector search");
        let exact = exact
            .search(tenant, &ext("big"), &query, 10, -1.0)
            .expect("exact search");
        wanted += exact.len();
        found += exact
            .iter()
            .filter(|e| approx.iter().any(|a| a.face_id == e.face_id))
            .count();
    }
    found as f64 / wanted as f64
}
