//! A managed passive session end to end against the real binary: streamed over the WebSocket
//! from a shared live video, it passes; its result, ICAO portrait, signed webhook (to an HTTPS
//! receiver with a test CA), attempt log, single use and compare-with-session all hold.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    Part, cli, create_key, create_managed_session, get, get_bytes, multipart, send,
    start_webhook_server, testdata_file,
};
use serde_json::{Value, json};

/// The session under test and who reads it.
struct Managed {
    base_url: String,
    key: String,
    id: String,
    token: String,
}

impl Managed {
    fn url(&self, path: &str) -> String {
        format!("{}/api/v1/session/{}{path}", self.base_url, self.id)
    }

    fn token_read(&self) -> facegate_blackbox_tests::Reply {
        let url = format!("{}?token={}", self.url("/result"), self.token);
        get(&url, None)
    }
}

#[test]
fn a_managed_passive_session_passes_end_to_end_with_a_signed_webhook() {
    let ca = TestCa::new();
    let receiver = HttpsReceiver::start(&ca, 0, |_| 200);
    let server = start_webhook_server(&ca);
    let key = create_key(&server, "bank");
    let secret = cli(&server, &["webhooks", "secret", "--tenant", "bank"]);
    assert!(secret.starts_with("whsec_"), "{secret}");
    let session = create_with_webhook(&server, key, receiver.port);
    nothing_is_ready_before_the_verdict(&session);
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    streams_to_a_pass_and_a_normal_close(&session, &frames);
    let photo_url = the_token_reads_the_spec_fields_only(&session);
    the_key_reads_the_layers_and_each_portrait_requirement(&session);
    the_portrait_is_one_centred_face_of_480_by_600(&session, &photo_url);
    let other = create_key(&server, "other");
    one_signed_webhook_arrives_and_is_logged(&session, &receiver, &secret, &other);
    the_socket_refuses_the_completed_session(&session);
    compare_with_session_matches_only_its_person_for_its_tenant(&session, &frames[60], &other);
}

fn create_with_webhook(
    server: &facegate_blackbox_tests::Server,
    key: String,
    receiver_port: u16,
) -> Managed {
    let created = create_managed_session(
        server,
        &key,
        json!({
            "mode": "passive",
            "reference_id": "customer-42",
            "redirect_url": "https://bank.example/onboarding/done?step=3",
            "webhook_url": format!("https://127.0.0.1:{receiver_port}/hooks/facegate"),
        }),
    );
    let id = created["session_id"].as_str().expect("id").to_owned();
    let token = created["token"].as_str().expect("token").to_owned();
    assert!(token.len() >= 32, "token of at least 128 bits");
    assert_eq!(
        created["session_url"].as_str(),
        Some(format!("{}/verify/{id}?token={token}", server.base_url).as_str())
    );
    assert_eq!(created["reference_id"], "customer-42");
    Managed {
        base_url: server.base_url.clone(),
        key,
        id,
        token,
    }
}

fn nothing_is_ready_before_the_verdict(session: &Managed) {
    let before = session.token_read();
    assert_eq!(
        (before.status, before.body["status"].as_str()),
        (200, Some("created"))
    );
    let (status, _) = get_bytes(&format!(
        "{}?token={}",
        session.url("/photo"),
        session.token
    ));
    assert_eq!(status, 202, "photo before the verdict");
}

fn streams_to_a_pass_and_a_normal_close(session: &Managed, frames: &[Vec<u8>]) {
    // a lit session's verdict is that of a server that keeps up: one at a time
    let _turn = live::exclusive_lit_sessions();
    let mut socket = live::open(&session.base_url, &session.id, &session.token);
    let outcome = live::stream_lit(
        &mut socket,
        frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 101),
    );
    live::assert_no_engine_internals(&outcome.messages);
    assert_eq!(
        outcome.messages.first().map(|m| m["type"].clone()),
        Some(json!("ready"))
    );
    let verdict = outcome
        .verdict()
        .unwrap_or_else(|| panic!("no verdict: {:?}", outcome.messages));
    assert_eq!(verdict["verdict"], "pass", "{verdict}");
    let id = &session.id;
    assert_eq!(
        verdict["redirect_url"].as_str(),
        Some(format!("https://bank.example/onboarding/done?step=3&session_id={id}").as_str()),
        "only session_id is added to the redirect"
    );
    assert_eq!(
        outcome.close_code,
        Some(1000),
        "normal close after the verdict"
    );
}

/// The browser's read: the spec's fields, no layers, reasons or portrait checks. Returns the
/// portrait's URL.
fn the_token_reads_the_spec_fields_only(session: &Managed) -> String {
    let result = session.token_read();
    assert_eq!(result.status, 200);
    assert_eq!(result.body["status"], "completed");
    assert_eq!(result.body["verdict"], "pass");
    for field in ["layers", "reasons", "photo_quality"] {
        assert!(
            result.body.get(field).is_none(),
            "the browser never sees {field}"
        );
    }
    result.body["photo_url"]
        .as_str()
        .expect("photo_url")
        .to_owned()
}

/// The tenant's read: its reference, the layers, the portrait checked requirement by
/// requirement, a pass's reasons (only failed portrait requirements), no audit frames (off by
/// default).
fn the_key_reads_the_layers_and_each_portrait_requirement(session: &Managed) {
    let keyed = get(&session.url("/result"), Some(&session.key));
    assert_eq!(keyed.body["reference_id"], "customer-42");
    assert!(
        keyed.body["layers"]["layers"].is_array(),
        "the tenant's key sees the layers: {}",
        keyed.body
    );
    let requirements = keyed.body["photo_quality"]
        .as_array()
        .expect("photo_quality");
    assert_eq!(requirements.len(), 15, "{}", keyed.body);
    assert!(requirements.iter().all(|r| r["requirement"].is_string()
        && r["value"].is_number()
        && r["passed"].is_boolean()
        && (r["min"].is_number() || r["max"].is_number())));
    let failed: Vec<String> = requirements
        .iter()
        .filter(|r| r["passed"] == false)
        .map(|r| {
            format!(
                "portrait_requirement_failed:{}",
                r["requirement"].as_str().unwrap_or("")
            )
        })
        .collect();
    let reasons: Vec<String> = keyed.body["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        reasons, failed,
        "a pass's reasons are its failed requirements"
    );
    let score = keyed.body["photo_quality_score"].as_f64().expect("score");
    assert!(failed.is_empty() || score < 0.6, "{score} with {failed:?}");
    let audit = get(&session.url("/audit-frames"), Some(&session.key));
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(
        audit.body["frames"],
        json!([]),
        "audit frames are off by default"
    );
}

fn the_portrait_is_one_centred_face_of_480_by_600(session: &Managed, photo_url: &str) {
    let (status, jpeg) = get_bytes(&format!("{}{photo_url}", session.base_url));
    assert_eq!(status, 200);
    let portrait = image::load_from_memory(&jpeg).expect("portrait decodes");
    assert_eq!((portrait.width(), portrait.height()), (480, 600));
    let image = face_engine::Image::decode(&jpeg).expect("decode");
    let face = facegate_blackbox_tests::engine()
        .single_face(&image)
        .expect("one face in the portrait");
    let centre_x = face.bbox.x + face.bbox.width / 2.0;
    assert!(
        (centre_x - 240.0).abs() < 48.0,
        "face centred horizontally: {centre_x}"
    );
    assert!(
        face.bbox.height > 0.45 * 600.0 && face.bbox.height < 0.9 * 600.0,
        "head size {}",
        face.bbox.height
    );
}

/// One webhook, signed with the tenant's secret, carrying the verdict; the delivery log
/// shows it delivered to its tenant and to nobody else.
fn one_signed_webhook_arrives_and_is_logged(
    session: &Managed,
    receiver: &HttpsReceiver,
    secret: &str,
    other_key: &str,
) {
    let got = receiver.wait_for(1, Duration::from_secs(20));
    assert_eq!(got.len(), 1, "one webhook");
    let hook = &got[0];
    let webhook_id = hook.headers["webhook-id"].clone();
    let timestamp: i64 = hook.headers["webhook-timestamp"]
        .parse()
        .expect("timestamp");
    assert!(
        webhooks::signing::verify(
            secret,
            &webhook_id,
            timestamp,
            &hook.body,
            &hook.headers["webhook-signature"]
        ),
        "signature verifies"
    );
    let payload: Value = serde_json::from_str(&hook.body).expect("json payload");
    assert_eq!(payload["session_id"], session.id.as_str());
    assert_eq!(payload["verdict"], "pass");
    assert_eq!(payload["reference_id"], "customer-42");
    assert!(payload["confidence"].as_f64().is_some_and(|c| c >= 0.7));
    let deliveries = get(&session.url("/webhook-deliveries"), Some(&session.key));
    assert_eq!(deliveries.status, 200);
    let delivery = &deliveries.body["deliveries"][0];
    assert_eq!(delivery["status"], "delivered", "{}", deliveries.body);
    assert_eq!(delivery["webhook_id"].as_str(), Some(webhook_id.as_str()));
    let foreign = get(&session.url("/webhook-deliveries"), Some(other_key));
    assert_eq!((foreign.status, foreign.code()), (404, "session_not_found"));
}

/// Single use: the socket refuses a session with a verdict.
fn the_socket_refuses_the_completed_session(session: &Managed) {
    let again = live::send_and_wait_close(
        &session.base_url,
        &session.id,
        &session.token,
        Vec::new(),
        Duration::from_secs(5),
    );
    assert_eq!(
        (again.error_code(), again.close_code),
        (Some("session_completed"), Some(4009))
    );
}

/// compare-with-session: the same person matches, another does not; without the tenant's
/// key, or with another tenant's, the session is unknown.
fn compare_with_session_matches_only_its_person_for_its_tenant(
    session: &Managed,
    frame_of_the_person: &[u8],
    other_key: &str,
) {
    let compare = |probe: Part, key: Option<&str>| {
        let (ct, body) = multipart(&[
            ("session_id", Part::Text(session.id.clone())),
            ("probe", probe),
        ]);
        send(
            "POST",
            &format!("{}/api/v1/compare-with-session", session.base_url),
            key,
            Some(&ct),
            body,
        )
    };
    let frame = || Part::File("f.jpg".into(), frame_of_the_person.to_vec());
    let same = compare(frame(), Some(&session.key));
    assert_eq!(same.status, 200, "{:?}", same.body);
    assert_eq!(same.body["is_match"], true, "{}", same.body);
    assert_eq!(
        same.body["threshold"].as_f64().map(|t| (t * 100.0).round()),
        Some(65.0)
    );
    let stranger = compare(
        testdata_file("identities/celebs/id00/img1.jpg"),
        Some(&session.key),
    );
    assert_eq!(stranger.body["is_match"], false, "{}", stranger.body);
    let without_key = compare(frame(), None);
    assert_eq!(
        without_key.code(),
        "session_not_found",
        "a managed session's portrait needs its tenant's key"
    );
    let foreign = compare(frame(), Some(other_key));
    assert_eq!(foreign.code(), "session_not_found");
}
