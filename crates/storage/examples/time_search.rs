//! Times each storage step of one search-by-face request on a seeded database (profiling aid).
//! Usage: time_search DATABASE_URL TENANT COLLECTION FACE_ID

use std::time::Instant;

use domain::ExternalId;
use facegate_storage::memory_index::MemoryVectorIndex;
use facegate_storage::search::FaceSearch;
use facegate_storage::{ServerSecret, Store};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let store = Store::open(&args[1], ServerSecret::new(b"x".to_vec())).expect("open");
    let tenant = store.tenant_by_name(&args[2]).expect("tenant").id;
    let collection = ExternalId::parse("external_id", &args[3]).expect("id");
    let face_id = uuid::Uuid::parse_str(&args[4]).expect("uuid");
    let search = FaceSearch::new(
        store.clone(),
        std::sync::Arc::new(MemoryVectorIndex::new(store.clone())),
    );
    search.prepare().expect("load the index");
    for _ in 0..3 {
        let t = Instant::now();
        let face = store.face(tenant, &collection, face_id).expect("face");
        let t_face = t.elapsed();
        let t = Instant::now();
        let named = search
            .search_named(tenant, &collection, &face.embedding, 10, -1.0)
            .expect("search");
        let t_search = t.elapsed();
        println!(
            "face {t_face:?} search with names {t_search:?} ({} hits)",
            named.len()
        );
    }
}
