//! The repository suite, run on SQLite always and on PostgreSQL when
//! `FACEGATE_TEST_DATABASE_URL` is set: keys, collections, faces, tenant isolation,
//! migrations and errors (sessions, retention and webhooks: `sessions.rs`).

use crate::common;

use domain::{ExternalId, TenantId};
use facegate_storage::{ServerSecret, StorageError, Store, connection};

fn ext(value: &str) -> ExternalId {
    ExternalId::parse("external_id", value).expect("valid id")
}

#[test]
fn api_keys_are_stored_as_digests_and_checked() {
    for (backend, db) in common::backends() {
        let store = &db.store;
        let tenant = store.create_tenant("acme").expect("tenant");
        assert!(
            matches!(
                store.create_tenant("acme"),
                Err(StorageError::Conflict { .. })
            ),
            "{backend}"
        );
        let (key, plaintext) = store.create_api_key(tenant.id).expect("key");
        assert_eq!(
            store.authenticate_api_key(&plaintext).expect("auth"),
            Some(tenant.id),
            "{backend}"
        );
        let mut tampered = plaintext.clone();
        tampered.pop();
        tampered.push(if plaintext.ends_with('0') { '1' } else { '0' });
        assert_eq!(
            store.authenticate_api_key(&tampered).expect("auth"),
            None,
            "{backend}"
        );
        assert_eq!(
            store.authenticate_api_key("garbage").expect("auth"),
            None,
            "{backend}"
        );
        // a different server secret cannot validate the key
        let other = Store::open(&db.url, ServerSecret::new(b"other".to_vec())).expect("open");
        assert_eq!(
            other.authenticate_api_key(&plaintext).expect("auth"),
            None,
            "{backend}"
        );
        store.revoke_api_key(&key.id).expect("revoke");
        assert_eq!(
            store.authenticate_api_key(&plaintext).expect("auth"),
            None,
            "{backend}"
        );
        assert!(matches!(
            store.revoke_api_key("0000000000000000"),
            Err(StorageError::NotFound { .. })
        ));
        let listed = store.list_api_keys().expect("list");
        assert_eq!(listed.len(), 1);
        assert!(listed[0].0.revoked_at.is_some());
        assert_eq!(listed[0].1, "acme");
    }
}

#[test]
fn collections_are_unique_per_tenant_and_isolated() {
    for (backend, db) in common::backends() {
        let store = &db.store;
        let a = store.create_tenant("a").expect("tenant").id;
        let b = store.create_tenant("b").expect("tenant").id;
        ids_are_unique_per_tenant_and_lists_page(store, (a, b), backend);
        a_face_is_its_tenants_alone_and_goes_with_its_collection(store, (a, b), backend);
    }
}

/// `customers` is refused a second time for tenant `a`, yet tenant `b` may have its own; a
/// missing collection is `NotFound`; `a`'s six collections page by four; `b` sees only its own.
fn ids_are_unique_per_tenant_and_lists_page(
    store: &Store,
    (a, b): (TenantId, TenantId),
    backend: &str,
) {
    store
        .create_collection(a, &ext("customers"), "first", domain::FaceModel::FrFeature)
        .expect("create");
    assert!(
        matches!(
            store.create_collection(a, &ext("customers"), "again", domain::FaceModel::FrFeature),
            Err(StorageError::Conflict { .. })
        ),
        "{backend}"
    );
    store
        .create_collection(
            b,
            &ext("customers"),
            "b's own",
            domain::FaceModel::FrFeature,
        )
        .expect("same id, other tenant");
    assert_eq!(
        store
            .collection(b, &ext("customers"))
            .expect("get")
            .description,
        "b's own"
    );
    assert!(matches!(
        store.collection(a, &ext("missing")),
        Err(StorageError::NotFound { .. })
    ));
    for i in 0..5 {
        // every other collection SFace's: the model is the collection's, read back as made
        let model = domain::FaceModel::ALL[i % 2];
        let made = store
            .create_collection(a, &ext(&format!("c{i}")), "", model)
            .expect("create");
        assert_eq!(made.face_model, model, "{backend}");
        assert_eq!(
            store
                .collection_id_and_model(a, &ext(&format!("c{i}")))
                .expect("read")
                .1,
            model,
            "{backend}"
        );
    }
    let first = store.list_collections(a, 4, None).expect("page 1");
    assert_eq!(first.items.len(), 4);
    let second = store
        .list_collections(a, 4, first.next_token.as_deref())
        .expect("page 2");
    assert_eq!(second.items.len(), 2);
    assert!(second.next_token.is_none());
    assert!(
        store.list_collections(b, 10, None).expect("b").items.len() == 1,
        "{backend}: b sees only its own"
    );
}

/// A face of `a`'s `customers` is neither read nor deleted by `b`, nor `a`'s collections
/// deleted; its embedding round-trips; deleting the collection deletes it.
fn a_face_is_its_tenants_alone_and_goes_with_its_collection(
    store: &Store,
    (a, b): (TenantId, TenantId),
    backend: &str,
) {
    let (face, _) = store
        .insert_face(
            a,
            &ext("customers"),
            &ext("user-1"),
            "m",
            &common::unit(1, 8),
            "{}",
        )
        .expect("face");
    assert!(
        matches!(
            store.face(b, &ext("customers"), face.id),
            Err(StorageError::NotFound { .. })
        ),
        "{backend}"
    );
    assert!(
        matches!(
            store.delete_face(b, &ext("customers"), face.id),
            Err(StorageError::NotFound { .. })
        ),
        "{backend}"
    );
    assert!(
        matches!(
            store.delete_collection(b, &ext("c0")),
            Err(StorageError::NotFound { .. })
        ),
        "{backend}"
    );
    let back = store.face(a, &ext("customers"), face.id).expect("own face");
    assert_eq!(
        back.embedding,
        common::unit(1, 8),
        "{backend}: embedding round-trips as LE f32"
    );
    assert_eq!(
        store
            .collection(a, &ext("customers"))
            .expect("get")
            .face_count,
        Some(1)
    );
    store
        .delete_collection(a, &ext("customers"))
        .expect("delete");
    assert!(matches!(
        store.face(a, &ext("customers"), face.id),
        Err(StorageError::NotFound { .. })
    ));
}

#[test]
fn search_sees_index_and_delete_at_once_across_processes() {
    for (backend, db) in common::backends() {
        let tenant = db.store.create_tenant("t").expect("tenant").id;
        db.store
            .create_collection(tenant, &ext("people"), "", domain::FaceModel::FrFeature)
            .expect("collection");
        let here = common::search_over(&db.store);
        // a second "process": its own index over the same database
        let there =
            common::search_over(&Store::open(&db.url, common::secret()).expect("second store"));
        let mut ids = Vec::new();
        for i in 0..50 {
            ids.push(
                here.index_face(
                    tenant,
                    &ext("people"),
                    &ext(&format!("u{i}")),
                    "m",
                    &common::unit(i, 32),
                    "{}",
                )
                .expect("index")
                .id,
            );
        }
        let query = common::unit(7, 32);
        let hits = there
            .search(tenant, &ext("people"), &query, 5, -1.0)
            .expect("search");
        assert_eq!(hits[0].face_id, ids[7], "{backend}");
        assert!((hits[0].cosine - 1.0).abs() < 1e-5);
        there
            .delete_face(tenant, &ext("people"), ids[7])
            .expect("delete elsewhere");
        let hits = here
            .search(tenant, &ext("people"), &query, 5, -1.0)
            .expect("search");
        assert!(
            hits.iter().all(|h| h.face_id != ids[7]),
            "{backend}: delete by another process visible at once"
        );
        let paged = db
            .store
            .list_faces(tenant, &ext("people"), 20, None)
            .expect("page");
        assert_eq!(paged.items.len(), 20);
        assert!(paged.next_token.is_some());
        here.delete_collection(tenant, &ext("people"))
            .expect("drop");
        assert!(matches!(
            there.search(tenant, &ext("people"), &query, 5, -1.0),
            Err(StorageError::NotFound { .. })
        ));
    }
}

#[test]
fn migrations_go_up_down_and_up_again() {
    for (backend, db) in common::backends() {
        let mut conn = db.store.connection().expect("conn");
        connection::revert_all_migrations(&mut conn).expect("down");
        // PostgreSQL has two more migrations: the optional pgvector columns and indexes
        let expected = if backend == "postgres" { 11 } else { 9 };
        let applied = connection::run_migrations(&mut conn).expect("up");
        assert_eq!(applied, expected, "{backend}");
        assert_eq!(connection::run_migrations(&mut conn).expect("noop"), 0);
        drop(conn);
        let tenant = db
            .store
            .create_tenant("after-migrations")
            .expect("schema usable")
            .id;
        // a collection written as before face models (no `face_model`) reads as `fr_feature`,
        // the model every such collection was embedded with
        use diesel::RunQueryDsl;
        let mut conn = db.store.connection().expect("conn");
        diesel::sql_query(format!(
            "INSERT INTO collections (id, tenant_id, external_id, description, created_at, version) \
             VALUES ('{}', '{}', 'before-face-models', '', 0, 0)",
            uuid::Uuid::now_v7(),
            tenant.0
        ))
        .execute(&mut *conn)
        .expect("old-style row");
        drop(conn);
        let old = db
            .store
            .collection(tenant, &ext("before-face-models"))
            .expect("read");
        assert_eq!(old.face_model, domain::FaceModel::FrFeature, "{backend}");
    }
}

#[test]
fn unreachable_database_is_unavailable_not_a_panic() {
    let result = Store::open("postgres://facegate@127.0.0.1:1/none", common::secret());
    assert!(
        matches!(result, Err(StorageError::Unavailable(_))),
        "{result:?}"
    );
    let result = Store::open("/nonexistent-dir/sub/facegate.db", common::secret());
    assert!(
        matches!(result, Err(StorageError::Unavailable(_))),
        "{result:?}"
    );
}
