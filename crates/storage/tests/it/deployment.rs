//! What replicas share beyond the resources, on both backends: request counters seen alike by
//! every process, the server-secret check, collections refusing another embedder's vectors,
//! stream leases (one connection per session across processes), and migrations started by
//! several processes at once.

use crate::common;

use domain::{ExternalId, TenantId};
use facegate_storage::{ServerSecret, StorageError, Store};

fn ext(value: &str) -> ExternalId {
    ExternalId::parse("external_id", value).expect("valid id")
}

#[test]
fn counters_are_shared_by_every_process_on_the_database() {
    for (backend, db) in common::backends() {
        // a second pool on the same database stands for another replica
        let peer = Store::open(&db.url, common::secret()).expect("peer opens");
        let now = 1_800_000_000_500;
        let mut counts = Vec::new();
        for n in 0..6 {
            let store = if n % 2 == 0 { &db.store } else { &peer };
            counts.push(store.count_hit("rate|m|k1", 60_000, now).expect("hit").hits);
        }
        assert_eq!(counts, [1, 2, 3, 4, 5, 6], "{backend}");
        let read = peer.hits_in_window("rate|m|k1", 60_000, now).expect("read");
        assert_eq!(read.hits, 6, "{backend}");
        assert_eq!(read.resets_at, 1_800_000_060_000, "{backend}");
        // the next window starts from zero; other names are independent
        let next = db
            .store
            .count_hit("rate|m|k1", 60_000, read.resets_at)
            .expect("next window");
        assert_eq!(next.hits, 1, "{backend}");
        assert_eq!(
            db.store
                .hits_in_window("rate|m|k2", 60_000, now)
                .expect("other")
                .hits,
            0
        );
        // concurrent hits from both pools: none lost
        std::thread::scope(|scope| {
            for store in [&db.store, &peer, &db.store, &peer] {
                scope.spawn(move || {
                    for _ in 0..25 {
                        store.count_hit("burst", 1_000, now).expect("hit");
                    }
                });
            }
        });
        assert_eq!(
            db.store
                .hits_in_window("burst", 1_000, now)
                .expect("read")
                .hits,
            100,
            "{backend}"
        );
        assert!(
            db.store
                .sweep_request_counters(now + 120_000)
                .expect("sweep")
                >= 2
        );
        assert_eq!(
            db.store
                .hits_in_window("burst", 1_000, now)
                .expect("read")
                .hits,
            0
        );
    }
}

#[test]
fn a_process_with_another_server_secret_is_told() {
    for (backend, db) in common::backends() {
        assert!(
            db.store.server_secret_matches().expect("first"),
            "{backend}"
        );
        let same = Store::open(&db.url, common::secret()).expect("same secret");
        assert!(same.server_secret_matches().expect("same"), "{backend}");
        let other = Store::open(&db.url, ServerSecret::new(b"another secret".to_vec()))
            .expect("another secret");
        assert!(
            !other.server_secret_matches().expect("other"),
            "{backend}: a different secret must not match"
        );
    }
}

#[test]
fn a_collection_refuses_vectors_of_another_embedder() {
    for (backend, db) in common::backends() {
        let tenant: TenantId = db.store.ensure_tenant("acme").expect("tenant").id;
        db.store
            .create_collection(tenant, &ext("customers"), "", domain::FaceModel::FrFeature)
            .expect("collection");
        let dim = 512;
        db.store
            .insert_face(
                tenant,
                &ext("customers"),
                &ext("a"),
                "embedder-v1",
                &common::unit(1, dim),
                "{}",
            )
            .expect("first face");
        let refused = db.store.insert_face(
            tenant,
            &ext("customers"),
            &ext("b"),
            "embedder-v2",
            &common::unit(2, dim),
            "{}",
        );
        match refused {
            Err(StorageError::EmbedderMismatch {
                collection,
                this_replica,
            }) => {
                assert_eq!(
                    (collection.as_str(), this_replica.as_str()),
                    ("embedder-v1", "embedder-v2"),
                    "{backend}"
                );
            }
            other => panic!("{backend}: {other:?}"),
        }
        let page = db
            .store
            .list_faces(tenant, &ext("customers"), 10, None)
            .expect("faces");
        assert_eq!(page.items.len(), 1, "{backend}: nothing written");
    }
}

#[test]
fn migrations_started_by_several_processes_at_once_apply_once() {
    let Some(db) = common::postgres_unmigrated() else {
        return;
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let url = db.url.clone();
                scope.spawn(move || {
                    let store = Store::open_without_migrating(&url, common::secret())?;
                    store.migrate()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    let applied: Vec<usize> = results
        .into_iter()
        .map(|r| r.expect("every process migrates without error"))
        .collect();
    let total = applied.iter().sum::<usize>();
    assert!(
        applied.iter().filter(|n| **n > 0).count() == 1 && total >= 4,
        "one process applies them all, the others find nothing pending: {applied:?}"
    );
    assert!(db.store.ping().is_ok());
}

#[test]
fn one_connection_holds_a_session_stream_across_processes() {
    for (backend, db) in common::backends() {
        let peer = Store::open(&db.url, common::secret()).expect("peer opens");
        let id = uuid::Uuid::now_v7();
        let now = 1_800_000_000_000;
        assert!(
            db.store
                .claim_session_stream(id, "a", 10_000, now)
                .expect("a"),
            "{backend}"
        );
        assert!(
            !peer
                .claim_session_stream(id, "b", 10_000, now + 1_000)
                .expect("b"),
            "{backend}: held by a"
        );
        // a renews; b is still refused after a's first lease would have run out
        assert!(
            db.store
                .claim_session_stream(id, "a", 10_000, now + 5_000)
                .expect("renew")
        );
        assert!(
            !peer
                .claim_session_stream(id, "b", 10_000, now + 12_000)
                .expect("b")
        );
        // a's process dies: its lease runs out and b takes over
        assert!(
            peer.claim_session_stream(id, "b", 10_000, now + 15_001)
                .expect("b"),
            "{backend}"
        );
        // a late release by a does not free b's stream
        db.store.release_session_stream(id, "a").expect("release a");
        assert!(
            !db.store
                .claim_session_stream(id, "c", 10_000, now + 16_000)
                .expect("c")
        );
        peer.release_session_stream(id, "b").expect("release b");
        assert!(
            db.store
                .claim_session_stream(id, "c", 10_000, now + 16_000)
                .expect("c"),
            "{backend}"
        );
        assert_eq!(
            db.store.sweep_session_streams(now + 30_000).expect("sweep"),
            1
        );
    }
}
