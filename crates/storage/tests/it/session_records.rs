//! Session records on every backend: the tenant's list runs newest first and pages by a
//! keyset cursor that neither repeats nor skips sessions created in the same millisecond,
//! filters combine, and another tenant's sessions never show; erasure deletes the session with
//! its audit frames and webhook delivery, answers a second time as already erased, and treats
//! another tenant's session as unknown; a completion after erasure stores nothing.

use crate::common;

use std::collections::BTreeSet;

use domain::{SessionKind, SessionMode, SessionStatus, TenantId, Verdict};
use facegate_storage::outbox::NewDelivery;
use facegate_storage::session_records::{Erasure, SessionCursor, SessionFilter};
use facegate_storage::sessions::{NewSession, SessionOutcome};
use facegate_storage::{StorageError, Store};
use uuid::Uuid;

fn create(store: &Store, tenant: TenantId, reference_id: &str) -> Uuid {
    let (session, _) = store
        .create_session(&NewSession {
            tenant_id: tenant,
            kind: SessionKind::Managed,
            mode: SessionMode::Passive,
            reference_id: Some(reference_id.into()),
            redirect_url: None,
            webhook_url: Some("https://example.com/hook".into()),
            fingerprint_id: None,
            challenge_count: 0,
            draw_seed: domain::SessionSeed::from_bytes([7; 32]),
            attempt_number: 1,
            max_attempts: 1,
            allow_no_flash: true,
            lifetime_ms: 600_000,
            reference_embedding: None,
            reference_face_model: None,
            match_threshold: None,
        })
        .expect("session");
    session.id
}

fn outcome() -> SessionOutcome {
    SessionOutcome {
        verdict: Verdict::Pass,
        confidence: 0.9,
        layers_json: "[]".into(),
        photo: Some((vec![0xFF, 0xD8, 0xFF, 0xD9], 0.8)),
        face_match: None,
        audit_frames: vec![vec![0xFF, 0xD8, 1, 0xFF, 0xD9]],
    }
}

fn hook() -> NewDelivery {
    NewDelivery {
        url: "https://example.com/hook".into(),
        payload: "{}".into(),
    }
}

/// Every id of `filter`, `page` at a time, in the order served.
fn all_pages(store: &Store, tenant: TenantId, filter: &SessionFilter, page: usize) -> Vec<Uuid> {
    let mut ids = Vec::new();
    let mut after = None;
    loop {
        let listed = store
            .list_sessions(tenant, filter, page, after)
            .expect("list");
        assert!(listed.items.len() <= page);
        ids.extend(listed.items.iter().map(|s| s.id));
        let Some(token) = listed.next_token else {
            return ids;
        };
        after = Some(SessionCursor::parse(&token).expect("a token of ours"));
    }
}

#[test]
fn the_list_pages_without_repeats_and_erasure_leaves_only_a_tombstone() {
    for (backend, db) in common::backends() {
        let store = &db.store;
        let tenant = store.create_tenant("bank").expect("tenant").id;
        let other = store.create_tenant("other").expect("tenant").id;
        // created back to back: many share a millisecond, which the cursor must tell apart
        let ids: Vec<Uuid> = (0..25)
            .map(|i| create(store, tenant, if i % 2 == 0 { "even" } else { "odd" }))
            .collect();
        create(store, other, "even");
        the_list_pages_newest_first_without_repeats(store, tenant, &ids, backend);
        a_completed_session_is_erased_with_its_delivery(store, (tenant, other), ids[3], backend);
        // a stream that finishes after the erasure stores nothing and queues no webhook
        let streaming = ids[5];
        store.begin_session(streaming).expect("begin");
        assert_eq!(
            store.erase_session(tenant, streaming).expect("erase"),
            Erasure::Erased
        );
        assert!(matches!(
            store.complete_session(streaming, &outcome(), Some(&hook())),
            Err(StorageError::NotFound { .. })
        ));
        assert!(
            !store.session_exists(streaming).expect("exists"),
            "{backend}"
        );
        assert_eq!(
            all_pages(store, tenant, &SessionFilter::default(), 30).len(),
            23
        );
    }
}

/// The tenant's `ids` (and not the other tenant's session) are listed once each, newest first
/// with ties broken by id, and a filter on the reference keeps its 13.
fn the_list_pages_newest_first_without_repeats(
    store: &Store,
    tenant: TenantId,
    ids: &[Uuid],
    backend: &str,
) {
    let listed = all_pages(store, tenant, &SessionFilter::default(), 7);
    assert_eq!(listed.len(), 25, "{backend}");
    assert_eq!(
        listed.iter().collect::<BTreeSet<_>>(),
        ids.iter().collect::<BTreeSet<_>>(),
        "{backend}: every session once"
    );
    let sessions: Vec<_> = listed
        .iter()
        .map(|id| store.session(*id).expect("session"))
        .collect();
    assert!(
        sessions
            .windows(2)
            .all(|w| (w[0].created_at, w[0].id) > (w[1].created_at, w[1].id)),
        "{backend}: newest first, ties by id"
    );
    let even = SessionFilter {
        reference_id: Some("even".into()),
        ..SessionFilter::default()
    };
    assert_eq!(all_pages(store, tenant, &even, 4).len(), 13, "{backend}");
}

/// `done`, completed with a pass and a webhook, is found by the status and verdict filters;
/// the other tenant cannot erase it; erased, it answers as already erased the second time, and
/// its audit frames and webhook delivery are gone with it.
fn a_completed_session_is_erased_with_its_delivery(
    store: &Store,
    (tenant, other): (TenantId, TenantId),
    done: Uuid,
    backend: &str,
) {
    store.begin_session(done).expect("begin");
    store
        .complete_session(done, &outcome(), Some(&hook()))
        .expect("complete");
    let passed = SessionFilter {
        status: Some(SessionStatus::Completed),
        verdict: Some(Verdict::Pass),
        ..SessionFilter::default()
    };
    assert_eq!(all_pages(store, tenant, &passed, 10), [done], "{backend}");
    assert_eq!(
        store
            .webhook_deliveries_of_session(tenant, done)
            .expect("deliveries")
            .len(),
        1
    );
    assert_eq!(
        store.erase_session(other, done).expect("erase"),
        Erasure::Unknown
    );
    assert_eq!(
        store.erase_session(tenant, done).expect("erase"),
        Erasure::Erased
    );
    assert_eq!(
        store.erase_session(tenant, done).expect("erase"),
        Erasure::AlreadyErased,
        "{backend}"
    );
    assert_eq!(
        store.erase_session(tenant, Uuid::new_v4()).expect("erase"),
        Erasure::Unknown
    );
    assert!(!store.session_exists(done).expect("exists"), "{backend}");
    assert!(store.session_audit_frames(done).expect("frames").is_empty());
    assert!(
        store
            .webhook_deliveries_of_session(tenant, done)
            .expect("deliveries")
            .is_empty(),
        "{backend}: the delivery and its attempts go with the session"
    );
    assert!(
        all_pages(store, tenant, &passed, 10).is_empty(),
        "{backend}"
    );
}

#[test]
fn cursors_read_back_only_what_the_list_wrote() {
    let cursor = SessionCursor {
        created_at: 1_764_000_000_000,
        id: Uuid::new_v4(),
    };
    assert_eq!(SessionCursor::parse(&cursor.token()), Some(cursor));
    for garbage in [
        "",
        ".",
        "12",
        "-1.abc",
        "x.00000000000000000000000000000000",
        "99999999999999999999.0",
    ] {
        assert_eq!(SessionCursor::parse(garbage), None, "{garbage}");
    }
}
