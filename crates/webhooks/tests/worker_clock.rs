//! The outbox worker on a clock the test advances (`WebhookWorker::tick_at`): a delivery whose
//! receiver never answers is attempted once at each due time of the backoff schedule, never
//! before it, and after the last attempt never again, however far the clock moves. Nothing
//! sleeps.

use std::sync::Arc;

use domain::{DeliveryStatus, SessionKind, SessionMode};
use facegate_webhooks::backoff::{MAX_ATTEMPTS, SCHEDULE_SECONDS};
use facegate_webhooks::delivery::Deliverer;
use facegate_webhooks::guard::AddressGuard;
use facegate_webhooks::worker::{DeliveryCounters, WebhookWorker};
use storage::sessions::NewSession;
use storage::{ServerSecret, Store};

/// A port on the loopback that nothing listens on: each attempt is refused at once.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}

#[test]
fn a_failing_delivery_is_tried_at_each_due_time_and_never_after_the_last() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("facegate.db");
    let store = Store::open(
        path.to_str().expect("utf-8 path"),
        ServerSecret::new(b"worker clock".to_vec()),
    )
    .expect("store");
    let tenant = store.create_tenant("bank").expect("tenant").id;
    let (session, _token) = store
        .create_session(&NewSession {
            tenant_id: tenant,
            kind: SessionKind::Managed,
            mode: SessionMode::Passive,
            reference_id: None,
            redirect_url: None,
            webhook_url: None,
            fingerprint_id: None,
            challenge_count: 0,
            draw_seed: domain::SessionSeed::from_bytes([7; 32]),
            attempt_number: 1,
            max_attempts: 3,
            allow_no_flash: true,
            lifetime_ms: 60_000,
            reference_embedding: None,
            reference_face_model: None,
            match_threshold: None,
        })
        .expect("session");
    let url = format!("https://127.0.0.1:{}/hooks", closed_port());
    let queued = store
        .enqueue_webhook(tenant, session.id, &url, r#"{"verdict":"pass"}"#)
        .expect("queued");
    let guard = AddressGuard::new(vec!["127.0.0.0/8".parse().expect("network")]);
    let counters = Arc::new(DeliveryCounters::default());
    let worker = WebhookWorker::new(
        store.clone(),
        Deliverer::new(guard, None).expect("deliverer"),
        counters.clone(),
    );

    let mut due = queued.next_attempt_at;
    for attempt in 1..=MAX_ATTEMPTS {
        assert_eq!(worker.tick_at(due - 1), 0, "attempt {attempt} ran early");
        assert_eq!(worker.tick_at(due), 1, "attempt {attempt} did not run");
        let delivery = store.webhook_delivery(queued.id).expect("delivery");
        assert_eq!(delivery.attempts, attempt);
        if attempt == MAX_ATTEMPTS {
            assert_eq!(delivery.status, DeliveryStatus::Failed);
            break;
        }
        assert_eq!(delivery.status, DeliveryStatus::Pending);
        // the next attempt is due the schedule's delay after this one, plus its jitter (up to
        // a fifth) and the refusal's own few milliseconds
        let delay = delivery.next_attempt_at - due;
        let scheduled = SCHEDULE_SECONDS[attempt as usize - 1] as i64 * 1000;
        assert!(
            (scheduled..=scheduled + scheduled / 5 + 5_000).contains(&delay),
            "attempt {attempt}: next after {delay} ms, scheduled {scheduled} ms"
        );
        due = delivery.next_attempt_at;
    }
    // a year on, the delivery that gave up is never claimed again
    assert_eq!(worker.tick_at(due + 365 * 24 * 3_600_000), 0);
    let by_outcome = counters.by_outcome();
    assert_eq!(
        by_outcome,
        [
            ("delivered", 0),
            ("retry", u64::from(MAX_ATTEMPTS) - 1),
            ("gave_up", 1)
        ]
    );
}
