//! Session records for backends (issue 41) against the real binary, on SQLite and on
//! PostgreSQL: `GET /api/v1/sessions` lists the tenant's sessions newest first, filters by
//! `reference_id`, status, verdict and creation time, pages with `next_token` without repeats,
//! carries no image and refuses malformed filters; `DELETE /api/v1/session/{id}` erases a passed
//! session's result, portrait, audit frames and webhook record (204, and 204 again), after which
//! every read answers as for an unknown session; another tenant's session answers 404; a session
//! erased while it streams is closed with `session_not_found` and leaves no verdict and no
//! webhook. The screen-light check is off here (its own tests are `screen_light_sessions.rs`);
//! challenge draws are seeded.

use std::collections::BTreeSet;
use std::time::Duration;

use facegate_blackbox_tests::database::{Backend, backends};
use facegate_blackbox_tests::live::{self, ScriptAction, ScriptEvent, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{Api, Server, create_key, id_and_token, start_server_on};
use serde_json::{Value, json};

/// The server's database opened beside it, to look at rows (not at what its secret seals).
fn store_of(server: &Server) -> storage::Store {
    storage::Store::open_without_migrating(
        &server.database_url(),
        storage::ServerSecret::new(vec![7u8; 32]),
    )
    .expect("the server's database opens")
}

fn uuid_of(id: &str) -> uuid::Uuid {
    uuid::Uuid::parse_str(id).expect("uuid")
}

/// Creates a passive managed session with `body`; returns its id and token.
fn create(api: &Api, body: Value) -> (String, String) {
    let reply = api.post_json("/api/v1/managed-session", body);
    assert_eq!(reply.status, 201, "{}", reply.body);
    id_and_token(&reply.body)
}

/// The ids of one listing of `query`.
fn listed(api: &Api, query: &str) -> (Vec<String>, Value) {
    let reply = api.get(&format!("/api/v1/sessions{query}"));
    assert_eq!(reply.status, 200, "{query}: {}", reply.body);
    let ids = reply.body["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .map(|s| s["session_id"].as_str().expect("session_id").to_owned())
        .collect();
    (ids, reply.body["next_token"].clone())
}

/// Streams webcam-man-1 to a verdict; asserts it passed.
fn pass(server: &Server, id: &str, token: &str) {
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, id, token);
    let outcome = live::stream(&mut socket, &frames, 15, Duration::from_secs(40));
    let verdict = outcome.verdict().map(|v| v["verdict"].clone());
    assert_eq!(verdict, Some(json!("pass")), "{:?}", outcome.messages);
}

/// Pages through `query` `max_results=1` at a time; returns every id seen, in order.
fn every_page(api: &Api, query: &str) -> Vec<String> {
    let (mut ids, mut next) = listed(api, &format!("?max_results=1{query}"));
    while let Some(token) = next.as_str() {
        let (page, following) = listed(api, &format!("?max_results=1{query}&next_token={token}"));
        assert_eq!(page.len(), 1, "a full page before the last");
        ids.extend(page);
        next = following;
    }
    ids
}

fn check_listing(api: &Api, other: &Api, ids: &[String; 3]) {
    let name = &api.base_url;
    let (all, next) = listed(api, "");
    let [oldest, middle, newest] = ids.clone();
    assert_eq!(
        all,
        [newest.clone(), middle.clone(), oldest.clone()],
        "newest first"
    );
    assert_eq!(next, Value::Null, "one page holds three");
    assert_eq!(
        every_page(api, ""),
        all,
        "{name}: pages repeat and skip nothing"
    );
    let (by_reference, _) = listed(api, "?reference_id=order-1");
    assert_eq!(by_reference, [newest.clone(), oldest.clone()]);
    assert_eq!(
        listed(api, "?status=completed").0,
        std::slice::from_ref(&oldest)
    );
    assert_eq!(
        listed(api, "?verdict=pass").0,
        std::slice::from_ref(&oldest)
    );
    assert_eq!(listed(api, "?status=created").0, [newest.clone(), middle]);
    assert_eq!(
        every_page(api, "&reference_id=order-1"),
        [newest, oldest],
        "filters hold across pages"
    );
    // the server reads the system's clock
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970");
    let later = now.as_millis() as i64 + 60_000;
    assert!(listed(api, &format!("?created_after={later}")).0.is_empty());
    assert_eq!(listed(api, &format!("?created_before={later}")).0, all);
    assert!(listed(other, "").0.is_empty(), "another tenant sees none");

    let page = api.get("/api/v1/sessions?verdict=pass").body;
    let item = &page["sessions"][0];
    assert_eq!(item["reference_id"], "order-1");
    assert!(item["photo_url"].is_string(), "{item}");
    let text = page.to_string();
    assert!(
        text.len() < 16 * 1024 && !text.contains("/9j/"),
        "no image travels in the list: {} bytes",
        text.len()
    );
    for (query, code) in [
        ("?status=expired", "invalid_parameter"),
        ("?verdict=maybe", "invalid_parameter"),
        ("?max_results=0", "invalid_parameter"),
        ("?max_results=101", "invalid_parameter"),
        ("?created_after=yesterday", "invalid_parameter"),
        ("?next_token=not-a-token", "invalid_parameter"),
        ("?reference_id=", "invalid_reference_id"),
        ("?limit=5", "unknown_parameter"),
    ] {
        let reply = api.get(&format!("/api/v1/sessions{query}"));
        assert_eq!(
            (reply.status, reply.code()),
            (400, code),
            "{query}: {}",
            reply.body
        );
    }
}

fn check_erasure(server: &Server, api: &Api, other: &Api, id: &str, token: &str) {
    let store = store_of(server);
    let uuid = uuid_of(id);
    let path = format!("/api/v1/session/{id}");
    let kept = api.get(&format!("{path}/audit-frames"));
    assert_eq!(
        kept.body["frames"].as_array().map(Vec::len),
        Some(2),
        "{}",
        kept.body
    );
    let foreign = other.delete(&path);
    assert_eq!((foreign.status, foreign.code()), (404, "session_not_found"));
    assert_eq!(api.get(&format!("{path}/result")).status, 200, "untouched");

    assert_eq!(api.delete(&path).status, 204);
    assert_eq!(
        api.delete(&path).status,
        204,
        "erasing again is not an error"
    );
    for read in ["result", "photo", "audit-frames", "webhook-deliveries"] {
        let reply = api.get(&format!("{path}/{read}"));
        assert_eq!(
            (reply.status, reply.code()),
            (404, "session_not_found"),
            "{read}"
        );
    }
    let by_token = facegate_blackbox_tests::session_result(server, id, token);
    assert_eq!(by_token.status, 404, "the token reads nothing either");
    assert!(store.session_audit_frames(uuid).expect("frames").is_empty());
    assert!(
        !store.session_exists(uuid).expect("store"),
        "the row with its portrait and result is gone"
    );
    assert!(
        !listed(api, "").0.contains(&id.to_owned()),
        "no longer listed"
    );
    let unknown = api.delete(&format!("/api/v1/session/{}", uuid::Uuid::new_v4()));
    assert_eq!((unknown.status, unknown.code()), (404, "session_not_found"));
    let malformed = api.delete("/api/v1/session/not-a-uuid");
    assert_eq!(malformed.status, 404);
}

/// Erased while it streams: the socket is told `session_not_found` and closed, no verdict is
/// given and nothing is stored.
fn check_erased_while_streaming(server: &Server, api: &Api, webhook_url: &str) {
    let (id, token) = create(api, json!({"mode": "passive", "webhook_url": webhook_url}));
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    let mut sent = 0usize;
    let outcome =
        live::stream_scripted(
            &mut socket,
            15,
            Duration::from_secs(30),
            |event| match event {
                ScriptEvent::FrameDue => {
                    sent += 1;
                    if sent == 8 {
                        assert_eq!(api.delete(&format!("/api/v1/session/{id}")).status, 204);
                    }
                    ScriptAction::Send(frames[(sent - 1) % frames.len()].clone())
                }
                ScriptEvent::Message(_) => ScriptAction::Continue,
            },
        );
    assert_eq!(outcome.verdict(), None, "{:?}", outcome.messages);
    assert_eq!(outcome.error_code(), Some("session_not_found"));
    assert_eq!(outcome.close_code, Some(4004));
    let store = store_of(server);
    assert!(!store.session_exists(uuid_of(&id)).expect("store"));
    let reply = api.get(&format!("/api/v1/session/{id}/result"));
    assert_eq!(reply.status, 404);
}

fn check_backend(backend: Backend) {
    let ca = TestCa::new();
    let receiver = HttpsReceiver::start(&ca, 0, |_| 200);
    let server = start_server_on(
        backend,
        &[
            ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
            (
                "FACEGATE__WEBHOOKS__CA_FILE",
                ca.ca_file.to_str().expect("path"),
            ),
            ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
            ("FACEGATE__LIVENESS__ILLUMINATION__ENABLED", "false"),
            ("FACEGATE__SESSIONS__RNG_SEED", "41"),
            ("FACEGATE__SESSIONS__AUDIT_FRAMES", "2"),
        ],
    );
    let api = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "bank"),
    };
    let other = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "another-bank"),
    };
    let webhook_url = format!("https://127.0.0.1:{}/hooks/facegate", receiver.port);
    let (passed, token) = create(
        &api,
        json!({"mode": "passive", "reference_id": "order-1", "webhook_url": webhook_url}),
    );
    pass(&server, &passed, &token);
    receiver.wait_for(1, Duration::from_secs(20));
    let (waiting, _) = create(&api, json!({"mode": "passive", "reference_id": "order-2"}));
    std::thread::sleep(Duration::from_millis(2)); // distinct creation times
    let (newest, _) = create(&api, json!({"mode": "passive", "reference_id": "order-1"}));
    check_listing(&api, &other, &[passed.clone(), waiting, newest]);
    check_erasure(&server, &api, &other, &passed, &token);
    check_erased_while_streaming(&server, &api, &webhook_url);
    let delivered: BTreeSet<String> = receiver
        .received()
        .iter()
        .filter_map(|r| serde_json::from_str::<Value>(&r.body).ok())
        .filter_map(|p| p["session_id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        delivered,
        BTreeSet::from([passed]),
        "{}: only the session that completed before its erasure sent a webhook",
        backend.name()
    );
}

#[test]
fn a_backend_lists_its_sessions_and_erases_one_on_request() {
    for backend in backends() {
        check_backend(backend);
    }
}
