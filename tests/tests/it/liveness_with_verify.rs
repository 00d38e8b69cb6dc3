//! Liveness with verify (issue 31) against the real binary, on SQLite and on PostgreSQL: a
//! managed passive session created with a `reference_image` of the same person ends with
//! `match.is_match` true in the result read with the API key and in the signed webhook, one of
//! another person with false; the browser's token never sees the match; a reference that is
//! not base64, is over 8 MB, or shows no face is refused; the reference's embedding is gone
//! after completion and after expiry. Audit frames are on here (2 per session): the key reads
//! them, nobody else, and the retention sweep deletes them. The screen-light check is off here (its own tests are
//! `screen_light_sessions.rs`), so the sessions rest on the recorded footage alone; challenge
//! draws are seeded. Every result here is read the moment its client is sent the verdict, and
//! under load too (eight sessions at once) it reads `completed` with that verdict and its match.

use std::time::Duration;

use base64::Engine as _;
use facegate_blackbox_tests::database::{Backend, backends};
use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    Server, create_key, create_managed_session, get, post_managed_session, send, start_server_on,
};
use serde_json::{Value, json};

fn base64_of(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn testdata(relative: &str) -> Vec<u8> {
    std::fs::read(
        facegate_blackbox_tests::repo_root()
            .join("../shared/testdata")
            .join(relative),
    )
    .expect("testdata file")
}

/// The store the server writes to, opened beside it (no migration, no secret check).
fn store_of(server: &Server) -> storage::Store {
    storage::Store::open_without_migrating(
        &server.database_url(),
        storage::ServerSecret::new(vec![7u8; 32]),
    )
    .expect("the server's database opens")
}

/// One passive session of webcam-man-1 created with `reference`; returns its id and the
/// result read with the key.
fn verified_session(server: &Server, key: &str, body: Value) -> (String, Value) {
    let created = create_managed_session(server, key, body);
    let id = created["session_id"].as_str().expect("id").to_owned();
    let token = created["token"].as_str().expect("token").to_owned();
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    // the key's read is made the moment the `verdict` message arrives: the match is there
    let (outcome, keyed) = live::stream_reading_at_verdict(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &format!("{}/api/v1/session/{id}/result", server.base_url),
        Some(key),
    );
    live::assert_no_engine_internals(&outcome.messages);
    assert!(
        outcome
            .messages
            .iter()
            .all(|m| m.get("data").is_none_or(|d| d.get("match").is_none())),
        "no socket message carries the match"
    );
    let keyed = keyed.expect("a verdict, and the result read at it");
    let verdict = &outcome.verdict().expect("a verdict")["verdict"];
    assert_eq!(verdict, "pass", "{}", keyed.body);
    assert_eq!(keyed.body["status"], "completed", "read at the verdict");
    let by_token = send(
        "GET",
        &format!(
            "{}/api/v1/session/{id}/result?token={token}",
            server.base_url
        ),
        None,
        None,
        Vec::new(),
    );
    assert!(
        by_token.body.get("match").is_none(),
        "the browser never sees the match: {}",
        by_token.body
    );
    assert_eq!(keyed.status, 200);
    (id, keyed.body)
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
            ("FACEGATE__SESSIONS__RNG_SEED", "31"),
            ("FACEGATE__SESSIONS__AUDIT_FRAMES", "2"),
        ],
    );
    let key = create_key(&server, "bank");
    let store = store_of(&server);
    let name = backend.name();

    // the same person: a frame from later in the same recording stands in for the ID photo
    let later = video_frames("webcam-man-1", 1, 0.0, 60.0);
    let same = later.last().expect("a frame").clone();
    let (id, result) = verified_session(
        &server,
        &key,
        json!({
            "mode": "passive",
            "reference_image": base64_of(&same),
            "webhook_url": format!("https://127.0.0.1:{}/hooks/facegate", receiver.port),
        }),
    );
    let matched = &result["match"];
    assert_eq!(matched["is_match"], true, "{name}: {result}");
    assert!(
        matched["threshold"]
            .as_f64()
            .is_some_and(|t| (t - 0.65).abs() < 1e-6),
        "{name}: the default threshold: {matched}"
    );
    assert!(
        matched["similarity"].as_f64().is_some_and(|s| s >= 0.65),
        "{name}: {matched}"
    );
    let uuid = uuid_of(&id);
    assert_eq!(
        store.session_reference_embedding(uuid).expect("row"),
        None,
        "{name}: the reference is deleted when the session completes"
    );
    // audit frames (on here, 2 per session): sealed at rest, readable with the key only
    let audit_url = format!("{}/api/v1/session/{id}/audit-frames", server.base_url);
    let audit = get(&audit_url, Some(&key));
    let frames = audit.body["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 2, "{name}: at most the configured count");
    for frame in frames {
        let jpeg = base64::engine::general_purpose::STANDARD
            .decode(frame.as_str().expect("base64"))
            .expect("base64 decodes");
        image::load_from_memory(&jpeg).expect("an audit frame is the camera's JPEG");
    }
    let anonymous = get(&audit_url, None);
    assert_eq!(anonymous.status, 401, "{name}: the key is required");
    let other_key = create_key(&server, "another-bank");
    let foreign = get(&audit_url, Some(&other_key));
    assert_eq!(
        foreign.status, 404,
        "{name}: another tenant's session is not found"
    );
    let hooks = receiver.wait_for(1, Duration::from_secs(20));
    let payload: Value = serde_json::from_str(&hooks[0].body).expect("json");
    assert!(
        payload["reasons"].is_array(),
        "{name}: the webhook carries the reasons: {payload}"
    );
    assert_eq!(
        payload["match"]["is_match"], true,
        "{name}: the webhook carries it"
    );
    for field in ["similarity", "threshold"] {
        let (hook, read) = (payload["match"][field].as_f64(), matched[field].as_f64());
        assert!(
            hook.zip(read).is_some_and(|(h, r)| (h - r).abs() < 1e-6),
            "{name}: webhook {field} {hook:?}, result {read:?}"
        );
    }

    // another person, with a threshold of the session's own
    let other = testdata("identities/celebs/id00/img1.jpg");
    let (_, result) = verified_session(
        &server,
        &key,
        json!({"mode": "passive", "reference_image": base64_of(&other), "match_threshold": 0.7}),
    );
    assert_eq!(result["match"]["is_match"], false, "{name}: {result}");
    assert!(
        result["match"]["threshold"]
            .as_f64()
            .is_some_and(|t| (t - 0.7).abs() < 1e-6),
        "{name}: the session's threshold: {result}"
    );

    // refused references
    let refused = |body: Value| {
        let reply = post_managed_session(&server, &key, body);
        (reply.status, reply.code().to_owned())
    };
    assert_eq!(
        refused(json!({"reference_image": "not base64!"})),
        (400, "invalid_reference_image".into())
    );
    assert_eq!(
        refused(json!({"reference_image": base64_of(&testdata("nonfaces/background.jpg"))})),
        (400, "reference_no_face".into())
    );
    assert_eq!(
        refused(json!({"reference_image": base64_of(&vec![0xFF; 8 * 1024 * 1024 + 1])})),
        (413, "image_too_large".into())
    );
    assert_eq!(
        refused(json!({"reference_image": base64_of(b"plain text, no image")})),
        (415, "unsupported_image_format".into())
    );
    assert_eq!(
        refused(json!({"reference_image": "A".repeat(13 * 1024 * 1024)})),
        (413, "invalid_json".into()),
        "{name}: a body over 12 MB is cut off"
    );
    assert_eq!(
        refused(json!({"reference_image": base64_of(&same), "match_threshold": 1.5})),
        (400, "invalid_match_threshold".into())
    );

    // expiry: a session that never streams loses its reference to the retention sweep
    let waiting = create_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "reference_image": base64_of(&same)}),
    );
    let waiting = uuid_of(waiting["session_id"].as_str().expect("id"));
    assert!(
        store
            .session_reference_embedding(waiting)
            .expect("row")
            .is_some(),
        "{name}: held while the session waits"
    );
    let after_lifetime = store.now_millis() + 2 * 30 * 60 * 1000;
    store
        .sweep_expired_sessions(after_lifetime)
        .expect("retention sweep");
    assert_eq!(
        store.session_reference_embedding(waiting).expect("row"),
        None,
        "{name}: the reference is deleted when the session expires"
    );
    assert!(
        store
            .session_audit_frames(uuid)
            .expect("audit frames")
            .is_empty(),
        "{name}: the retention sweep deletes the audit frames with the session's photo"
    );
}

fn uuid_of(id: &str) -> uuid::Uuid {
    uuid::Uuid::parse_str(id).expect("uuid")
}

#[test]
fn a_session_with_a_reference_image_says_whether_the_live_person_matches_it() {
    for backend in backends() {
        check_backend(backend);
    }
}

/// Sessions streamed at once on CI's two cores, each read the moment its verdict arrives.
const CONCURRENT_SESSIONS: usize = 8;

#[test]
fn under_load_a_result_read_at_the_verdict_is_already_final_with_its_match() {
    let server = start_server_on(
        Backend::Sqlite,
        &[
            ("FACEGATE__LIVENESS__ILLUMINATION__ENABLED", "false"),
            ("FACEGATE__SESSIONS__RNG_SEED", "67"),
        ],
    );
    let key = create_key(&server, "bank");
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let reference = base64_of(
        video_frames("webcam-man-1", 1, 0.0, 60.0)
            .last()
            .expect("frame"),
    );
    let sessions: Vec<(String, String)> = (0..CONCURRENT_SESSIONS)
        .map(|_| {
            let created = create_managed_session(
                &server,
                &key,
                json!({"mode": "passive", "reference_image": reference}),
            );
            let field = |name: &str| created[name].as_str().expect(name).to_owned();
            (field("session_id"), field("token"))
        })
        .collect();
    let reads: Vec<(Value, Value)> = std::thread::scope(|scope| {
        let streams: Vec<_> = sessions
            .iter()
            .map(|(id, token)| {
                let (server, key, frames) = (&server, &key, &frames);
                scope.spawn(move || {
                    let mut socket = live::open(&server.base_url, id, token);
                    let (outcome, read) = live::stream_reading_at_verdict(
                        &mut socket,
                        frames,
                        15,
                        Duration::from_secs(60),
                        &format!("{}/api/v1/session/{id}/result", server.base_url),
                        Some(key),
                    );
                    let verdict = outcome
                        .verdict()
                        .cloned()
                        .unwrap_or_else(|| panic!("{id}: no verdict: {:?}", outcome.messages));
                    (verdict, read.expect("read at the verdict").body)
                })
            })
            .collect();
        streams
            .into_iter()
            .map(|s| s.join().expect("a session's thread"))
            .collect()
    });
    for (shown, read) in &reads {
        assert_eq!(read["status"], "completed", "read at the verdict: {read}");
        assert_eq!(read["verdict"], shown["verdict"], "{read}");
        if read["verdict"] == "pass" {
            assert_eq!(
                read["match"]["is_match"], true,
                "the match is there: {read}"
            );
        }
    }
}
