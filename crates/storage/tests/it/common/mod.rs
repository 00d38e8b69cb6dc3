//! Test backends: a fresh SQLite file always, and a fresh PostgreSQL database when
//! `FACEGATE_TEST_DATABASE_URL` points at a server (each test gets its own database).

#![allow(dead_code)]

use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use std::sync::Arc;

use facegate_storage::memory_index::MemoryVectorIndex;
use facegate_storage::pgvector::PgvectorIndex;
use facegate_storage::search::{FaceSearch, SharedVectorIndex};
use facegate_storage::{ServerSecret, Store};

/// A store on a throw-away database; dropping it removes the database.
pub struct TestDb {
    pub store: Store,
    pub url: String,
    cleanup: Option<(String, String)>,
    _dir: Option<tempfile::TempDir>,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((admin_url, name)) = self.cleanup.take() else {
            return;
        };
        if let Ok(mut conn) = PgConnection::establish(&admin_url) {
            let _ = conn.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

pub fn secret() -> ServerSecret {
    ServerSecret::new(b"test server secret".to_vec())
}

pub fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = dir
        .path()
        .join("facegate.db")
        .to_string_lossy()
        .into_owned();
    TestDb {
        store: Store::open(&url, secret()).expect("sqlite opens"),
        url,
        cleanup: None,
        _dir: Some(dir),
    }
}

/// Whether this run is CI (`CI=true`), where a skipped PostgreSQL half is a failure.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// A fresh PostgreSQL database, or `None` when none is configured. Under `CI=true` a missing
/// `FACEGATE_TEST_DATABASE_URL` fails the test instead: CI must not pass by skipping.
pub fn postgres() -> Option<TestDb> {
    create_postgres(true)
}

/// A fresh PostgreSQL database whose schema is not migrated yet (`store` opened without
/// migrating), or `None` when none is configured.
pub fn postgres_unmigrated() -> Option<TestDb> {
    create_postgres(false)
}

fn create_postgres(migrated: bool) -> Option<TestDb> {
    let Ok(admin_url) = std::env::var("FACEGATE_TEST_DATABASE_URL") else {
        assert!(
            !in_ci(),
            "CI=true but FACEGATE_TEST_DATABASE_URL is not set: the PostgreSQL half cannot skip in CI"
        );
        return None;
    };
    let name = format!("facegate_test_{}", uuid::Uuid::new_v4().simple());
    let mut admin =
        PgConnection::establish(&admin_url).expect("FACEGATE_TEST_DATABASE_URL reachable");
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create test database");
    let base = admin_url
        .rsplit_once('/')
        .map_or(admin_url.as_str(), |(b, _)| b);
    let url = format!("{base}/{name}");
    let store = match migrated {
        true => Store::open(&url, secret()).expect("postgres opens"),
        false => Store::open_without_migrating(&url, secret()).expect("postgres opens"),
    };
    Some(TestDb {
        store,
        url,
        cleanup: Some((admin_url, name)),
        _dir: None,
    })
}

/// Every configured backend: SQLite always, PostgreSQL when configured.
pub fn backends() -> Vec<(&'static str, TestDb)> {
    let mut all = vec![("sqlite", sqlite())];
    match postgres() {
        Some(db) => all.push(("postgres", db)),
        None => {
            eprintln!("FACEGATE_TEST_DATABASE_URL not set: PostgreSQL half of this test skipped")
        }
    }
    all
}

/// A deterministic unit vector.
pub fn unit(seed: u64, dim: usize) -> Vec<f32> {
    facegate_storage::vector::pseudo_random_unit_vector(seed, dim)
}

/// Every vector index the store can serve, by name: the in-memory one always, pgvector's
/// where the store has the extension (what `Services::open` would choose comes last).
pub fn indexes(store: &Store) -> Vec<(&'static str, SharedVectorIndex)> {
    let mut all: Vec<(&'static str, SharedVectorIndex)> =
        vec![("memory", Arc::new(MemoryVectorIndex::new(store.clone())))];
    if store.pgvector_enabled() {
        all.push((
            "pgvector",
            Arc::new(PgvectorIndex::new(
                store.clone(),
                facegate_storage::pgvector::EF_SEARCH,
            )),
        ));
    }
    all
}

/// Search over `store` through the index `Services::open` would choose for it.
pub fn search_over(store: &Store) -> FaceSearch {
    let (_, index) = indexes(store)
        .pop()
        .expect("the memory index is always there");
    FaceSearch::new(store.clone(), index)
}

/// Search over `store` through the exact in-memory index.
pub fn exact_search_over(store: &Store) -> FaceSearch {
    FaceSearch::new(
        store.clone(),
        Arc::new(MemoryVectorIndex::new(store.clone())),
    )
}
