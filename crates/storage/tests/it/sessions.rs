//! Liveness sessions in the store on every backend: tokens kept as digests, single use,
//! the reference embedding held until completion or expiry, the webhook outbox and its
//! attempt log, and retention deleting photos.

use crate::common;

use domain::{SessionKind, SessionMode, SessionStatus, TenantId, Verdict};
use facegate_storage::Store;
use facegate_storage::outbox::NewDelivery;
use facegate_storage::sessions::{NewSession, SessionOutcome};
use facegate_storage::webhooks::{AttemptReport, NextStep};
use uuid::Uuid;

#[test]
fn sessions_keep_tokens_as_digests_and_retention_deletes_photos() {
    for (backend, db) in common::backends() {
        let store = &db.store;
        let tenant = store.create_tenant("t").expect("tenant").id;
        let (session, token) = a_session_is_read_by_its_token_only(store, tenant, backend);
        let outcome = completion_keeps_one_verdict_and_drops_the_reference(store, session, backend);
        let (_, digest) = store.session_and_token_digest(session).expect("row");
        assert!(store.token_matches(&token, &digest), "{backend}");
        assert_eq!(
            store.session_photo_of(session).expect("photo"),
            outcome.photo.map(|(jpeg, _)| jpeg)
        );
        the_sweep_expires_sessions_and_deletes_photos_after_their_lifetime(
            store, tenant, session, backend,
        );
        the_outbox_leases_retries_and_logs_each_attempt(store, tenant, session, backend);
        webhook_secrets_rotate_with_an_overlap(store, tenant, backend);
        attempts_are_counted_per_subject_up_to_the_limit(store);
    }
}

fn new_session(tenant: TenantId, lifetime_ms: i64) -> NewSession {
    NewSession {
        tenant_id: tenant,
        kind: SessionKind::Managed,
        mode: SessionMode::Passive,
        reference_id: Some("ref-1".into()),
        redirect_url: Some("https://example.com/back".into()),
        webhook_url: None,
        fingerprint_id: None,
        challenge_count: 0,
        draw_seed: domain::SessionSeed::from_bytes([7; 32]),
        attempt_number: 1,
        max_attempts: 3,
        allow_no_flash: true,
        lifetime_ms,
        reference_embedding: Some(vec![0.6, 0.8]),
        reference_face_model: Some(domain::FaceModel::Sface),
        match_threshold: Some(0.7),
    }
}

/// A new session holds its reference; its token opens it and a wrong one does not. Returns
/// its id and token.
fn a_session_is_read_by_its_token_only(
    store: &Store,
    tenant: TenantId,
    backend: &str,
) -> (Uuid, String) {
    let (session, token) = store
        .create_session(&new_session(tenant, 60_000))
        .expect("session");
    assert_eq!(session.status, SessionStatus::Created);
    assert!(session.has_reference && session.match_threshold == Some(0.7));
    assert_eq!(
        store
            .session_reference_embedding(session.id)
            .expect("reference"),
        Some((domain::FaceModel::Sface, vec![0.6, 0.8])),
        "{backend}"
    );
    let (read, digest) = store.session_and_token_digest(session.id).expect("row");
    assert_eq!(read.id, session.id);
    assert_ne!(
        digest,
        token.as_bytes(),
        "{backend}: only a digest is stored"
    );
    assert!(store.token_matches(&token, &digest), "{backend}");
    assert!(!store.token_matches("wrong", &digest), "{backend}");
    (session.id, token)
}

/// Started (twice: a reconnect), completed once with a webhook: the verdict, photo, match
/// and audit frames are kept, the reference goes, and nothing moves it again.
fn completion_keeps_one_verdict_and_drops_the_reference(
    store: &Store,
    session: Uuid,
    backend: &str,
) -> SessionOutcome {
    let begun = store.begin_session(session).expect("start");
    // the seed given at creation is what every opening of the session draws from
    assert_eq!(begun.draw_seed, domain::SessionSeed::from_bytes([7; 32]));
    store
        .begin_session(session)
        .expect("a reconnect keeps it in progress");
    let outcome = SessionOutcome {
        verdict: Verdict::Pass,
        confidence: 0.91,
        layers_json: "[]".into(),
        photo: Some((vec![0xFF, 0xD8, 0xFF, 0xD9], 0.8)),
        face_match: Some(domain::FaceMatch::new(0.82, 0.7)),
        audit_frames: vec![
            vec![0xFF, 0xD8, 1, 0xFF, 0xD9],
            vec![0xFF, 0xD8, 2, 0xFF, 0xD9],
        ],
    };
    let webhook = NewDelivery {
        url: "https://example.com/hook".into(),
        payload: "{}".into(),
    };
    let done = store
        .complete_session(session, &outcome, Some(&webhook))
        .expect("complete");
    assert_eq!(done.verdict, Some(Verdict::Pass));
    assert!(done.has_photo);
    assert_eq!(done.face_match, Some(domain::FaceMatch::new(0.82, 0.7)));
    assert_eq!(
        store.session_audit_frames(session).expect("audit frames"),
        outcome.audit_frames,
        "{backend}: the audit frames open in order"
    );
    assert!(done.face_match.is_some_and(|m| m.is_match));
    assert!(
        !done.has_reference,
        "{backend}: the reference goes with the verdict"
    );
    assert_eq!(
        store.session_reference_embedding(session).expect("gone"),
        None,
        "{backend}"
    );
    assert!(
        store
            .complete_session(session, &outcome, Some(&webhook))
            .is_err(),
        "{backend}: a second completion is refused, so one verdict and one delivery"
    );
    assert!(
        store.begin_session(session).is_err(),
        "{backend}: single use"
    );
    assert!(
        store
            .set_session_status(session, SessionStatus::InProgress)
            .is_err(),
        "{backend}: no way back"
    );
    outcome
}

fn the_sweep_expires_sessions_and_deletes_photos_after_their_lifetime(
    store: &Store,
    tenant: TenantId,
    completed: Uuid,
    backend: &str,
) {
    let (short, _) = store
        .create_session(&new_session(tenant, -1))
        .expect("already expired");
    let (expired, photos) = store
        .sweep_expired_sessions(store.now_millis())
        .expect("sweep");
    assert!(expired >= 1 && photos == 0, "{backend}: {expired} {photos}");
    assert_eq!(
        store.session(short.id).expect("row").status,
        SessionStatus::Expired,
        "{backend}: the sweep marks it expired"
    );
    assert_eq!(
        store.session_reference_embedding(short.id).expect("row"),
        None,
        "{backend}: an expired session's reference is deleted by the sweep"
    );
    // the completed session's photo goes once its lifetime has passed
    let (_, photos) = store
        .sweep_expired_sessions(store.now_millis() + 120_000)
        .expect("sweep later");
    assert_eq!(photos, 1, "{backend}");
    assert!(
        store
            .session_audit_frames(completed)
            .expect("audit frames")
            .is_empty(),
        "{backend}: retention deletes the audit frames with the photo"
    );
}

/// The completion's one delivery: leased once, a spent lease records nothing, the retry is
/// claimed again and delivered, both attempts logged, and only for its tenant.
fn the_outbox_leases_retries_and_logs_each_attempt(
    store: &Store,
    tenant: TenantId,
    session: Uuid,
    backend: &str,
) {
    let claimed = store
        .claim_due_webhooks(store.now_millis(), 10, 30_000)
        .expect("claim");
    assert_eq!(
        claimed.len(),
        1,
        "{backend}: the completion queued one delivery"
    );
    let delivery = claimed[0].delivery.clone();
    assert!(
        store
            .claim_due_webhooks(store.now_millis(), 10, 30_000)
            .expect("claim again")
            .is_empty(),
        "{backend}: leased"
    );
    let report = |next| AttemptReport {
        started_at: store.now_millis(),
        duration_ms: 5,
        status_code: Some(503),
        error: Some("503".into()),
        next,
    };
    assert!(
        store
            .record_webhook_attempt(&claimed[0], &report(NextStep::RetryAt(store.now_millis())))
            .expect("retry")
    );
    assert!(
        !store
            .record_webhook_attempt(&claimed[0], &report(NextStep::Delivered))
            .expect("stale lease"),
        "{backend}: a spent lease records nothing"
    );
    let again = store
        .claim_due_webhooks(store.now_millis() + 1, 10, 30_000)
        .expect("claim the retry");
    assert_eq!(again.len(), 1);
    assert!(
        store
            .record_webhook_attempt(&again[0], &report(NextStep::Delivered))
            .expect("delivered")
    );
    let after = store.webhook_delivery(delivery.id).expect("get");
    assert_eq!(after.attempts, 2);
    assert_eq!(after.status, domain::DeliveryStatus::Delivered);
    let listed = store
        .webhook_deliveries_of_session(tenant, session)
        .expect("list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].1.len(), 2, "{backend}: both attempts logged");
    let other = store.create_tenant("other").expect("tenant").id;
    assert!(
        store
            .webhook_deliveries_of_session(other, session)
            .expect("list")
            .is_empty(),
        "{backend}: another tenant sees nothing"
    );
}

fn webhook_secrets_rotate_with_an_overlap(store: &Store, tenant: TenantId, backend: &str) {
    let first = store.webhook_secret(tenant).expect("secret");
    assert!(first.starts_with("whsec_"));
    assert_eq!(store.webhook_secret(tenant).expect("same"), first);
    let second = store.rotate_webhook_secret(tenant, 60_000).expect("rotate");
    assert_eq!(
        store.webhook_secrets(tenant).expect("in force"),
        vec![second.clone(), first],
        "{backend}: both sign during the overlap"
    );
    store.rotate_webhook_secret(tenant, 0).expect("rotate now");
    assert_eq!(store.webhook_secrets(tenant).expect("in force").len(), 1);
}

fn attempts_are_counted_per_subject_up_to_the_limit(store: &Store) {
    for expected in [Some(1), Some(2), None] {
        assert_eq!(
            store
                .record_session_attempt("subject", 0, 2)
                .expect("count"),
            expected
        );
    }
}
