//! Direct (key-less) sessions: attempts counted per client address and fingerprint, the
//! captcha checked against a siteverify endpoint, and the operator's switch.

use facegate_blackbox_tests::receiver::fake_captcha_verifier;
use facegate_blackbox_tests::{json_body, send, start_server};
use serde_json::{Value, json};

#[test]
fn direct_sessions_count_attempts_and_check_the_captcha() {
    let server = start_server(&[("FACEGATE__SESSIONS__DIRECT__MAX_ATTEMPTS", "2")]);
    let url = format!("{}/api/v1/session", server.base_url);
    let create = |body: Value| {
        let (ct, bytes) = json_body(body);
        send("POST", &url, None, ct, bytes)
    };
    let first = create(json!({}));
    assert_eq!(first.status, 201, "{:?}", first.body);
    assert_eq!(
        (
            first.body["attempt_number"].as_u64(),
            first.body["max_attempts"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert!(
        first.body["challenge_count"]
            .as_u64()
            .is_some_and(|n| (3..=6).contains(&n))
    );
    let empty_body = send("POST", &url, None, None, Vec::new());
    assert_eq!(
        empty_body.body["attempt_number"].as_u64(),
        Some(2),
        "{:?}",
        empty_body.body
    );
    let over = create(json!({}));
    assert_eq!((over.status, over.code()), (429, "too_many_attempts"));
    let other_browser = create(json!({"fingerprint_id": "browser-b"}));
    assert_eq!(
        other_browser.status, 201,
        "attempts count per fingerprint and address"
    );

    let verifier = fake_captcha_verifier();
    let guarded = start_server(&[
        (
            "FACEGATE__SESSIONS__DIRECT__CAPTCHA_VERIFY_URL",
            verifier.as_str(),
        ),
        ("FACEGATE__SESSIONS__DIRECT__CAPTCHA_SECRET", "test-secret"),
    ]);
    let url = format!("{}/api/v1/session", guarded.base_url);
    let create = |body: Value| {
        let (ct, bytes) = json_body(body);
        send("POST", &url, None, ct, bytes)
    };
    assert_eq!(create(json!({})).code(), "captcha_failed");
    assert_eq!(
        create(json!({"captcha_token": "bad"})).code(),
        "captcha_failed"
    );
    assert_eq!(create(json!({"captcha_token": "good"})).status, 201);

    let closed = start_server(&[("FACEGATE__SESSIONS__DIRECT__ENABLED", "false")]);
    let reply = send(
        "POST",
        &format!("{}/api/v1/session", closed.base_url),
        None,
        Some("application/json"),
        b"{}".to_vec(),
    );
    assert_eq!(
        (reply.status, reply.code()),
        (403, "direct_sessions_disabled")
    );
}
