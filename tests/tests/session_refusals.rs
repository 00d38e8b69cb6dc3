//! Liveness sessions refuse what they must, each with its documented code: malicious redirect
//! and webhook URLs (a battery of spellings), bad bodies, WebSocket refusals (wrong token,
//! second socket, oversized frame, text), direct-session attempts and captcha, and the
//! 502-then-ready start-up.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::live;
use facegate_blackbox_tests::receiver::fake_captcha_verifier;
use facegate_blackbox_tests::{
    Server, create_key, json_body, send, start_server, start_server_unready,
};
use serde_json::{Value, json};
use tungstenite::Message;

fn post_session(server: &Server, key: &str, body: Value) -> facegate_blackbox_tests::Reply {
    let (ct, bytes) = json_body(body);
    send(
        "POST",
        &format!("{}/api/v1/managed-session", server.base_url),
        Some(key),
        ct,
        bytes,
    )
}

const BAD_URLS: [&str; 34] = [
    "http://bank.example/back",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "//evil.example/back",
    "/relative/path",
    "ftp://bank.example/",
    "https://127.0.0.1/",
    "https://127.1/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0x7f.0.0.1/",
    "https://0177.0.0.1/",
    "https://017700000001/",
    "https://0/",
    "https://0.0.0.0/",
    "https://localhost/",
    "https://LocalHost./",
    "https://api.localhost/",
    "https://[::1]/",
    "https://[::]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://169.254.169.254/latest/meta-data/",
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://192.168.0.1/",
    "https://100.64.0.1/",
    "https://[fc00::1]/",
    "https://[fe80::1]/",
    "https://224.0.0.1/",
    "https://255.255.255.255/",
    "https://192.0.2.1/",
    "https://user:pass@bank.example/",
    "https://bank.example/\r\nX-Injected: 1",
];

#[test]
fn malicious_redirect_and_webhook_urls_are_refused_in_every_spelling() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let mut tried = 0;
    for url in BAD_URLS {
        let redirect = post_session(&server, &key, json!({"redirect_url": url}));
        assert_eq!(
            (redirect.status, redirect.code()),
            (400, "invalid_redirect_url"),
            "redirect {url:?}"
        );
        let webhook = post_session(&server, &key, json!({"webhook_url": url}));
        assert_eq!(
            (webhook.status, webhook.code()),
            (400, "invalid_webhook_url"),
            "webhook {url:?}"
        );
        tried += 2;
    }
    // a name that does not resolve is the browser's business for a redirect, not for a webhook
    let unresolved = post_session(
        &server,
        &key,
        json!({"redirect_url": "https://no-such-host.invalid/back"}),
    );
    assert_eq!(unresolved.status, 201, "{:?}", unresolved.body);
    let unresolved = post_session(
        &server,
        &key,
        json!({"webhook_url": "https://no-such-host.invalid/hook"}),
    );
    assert_eq!(unresolved.code(), "invalid_webhook_url");
    println!("{tried} malicious URLs refused");
}

#[test]
fn bad_bodies_get_documented_codes() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let url = format!("{}/api/v1/managed-session", server.base_url);
    let raw = |body: &str| {
        send(
            "POST",
            &url,
            Some(&key),
            Some("application/json"),
            body.as_bytes().to_vec(),
        )
    };
    assert_eq!(raw("{not json").code(), "invalid_json");
    assert_eq!(
        raw(r#"{"mode":"passive","surprise":1}"#).code(),
        "invalid_json"
    );
    assert_eq!(
        post_session(&server, &key, json!({"mode": "sleepy"})).code(),
        "invalid_mode"
    );
    assert_eq!(
        post_session(&server, &key, json!({"reference_id": "x".repeat(10_000)})).code(),
        "invalid_reference_id"
    );
    let no_key = send("POST", &url, None, Some("application/json"), b"{}".to_vec());
    assert_eq!((no_key.status, no_key.code()), (401, "unauthorized"));
    let created = post_session(&server, &key, json!({}));
    assert_eq!(
        created.status, 201,
        "redirect_url is optional: {:?}",
        created.body
    );
    assert_eq!(created.body["mode"], "active");
    let id = created.body["session_id"].as_str().expect("id");
    for token in ["wrong", &"a".repeat(10_000), ""] {
        let reply = send(
            "GET",
            &format!(
                "{}/api/v1/session/{id}/result?token={token}",
                server.base_url
            ),
            None,
            None,
            Vec::new(),
        );
        assert_eq!(
            (reply.status, reply.code()),
            (404, "session_not_found"),
            "token of {} bytes",
            token.len()
        );
    }
    let unknown = send(
        "GET",
        &format!(
            "{}/api/v1/session/00000000-0000-0000-0000-000000000000/result?token=x",
            server.base_url
        ),
        None,
        None,
        Vec::new(),
    );
    assert_eq!((unknown.status, unknown.code()), (404, "session_not_found"));
    let junk_id = send(
        "GET",
        &format!(
            "{}/api/v1/session/..%2F..%2Fetc/result?token=x",
            server.base_url
        ),
        None,
        None,
        Vec::new(),
    );
    assert_eq!(junk_id.status, 404);
}

#[test]
fn the_socket_refuses_wrong_tokens_second_sockets_big_frames_and_text() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let created = post_session(&server, &key, json!({"mode": "passive"}));
    let id = created.body["session_id"].as_str().expect("id").to_owned();
    let token = created.body["token"].as_str().expect("token").to_owned();
    let wait = Duration::from_secs(10);

    let wrong = live::send_and_wait_close(&server.base_url, &id, "wrong", Vec::new(), wait);
    assert_eq!(
        (wrong.error_code(), wrong.close_code),
        (Some("session_not_found"), Some(4004))
    );
    let long =
        live::send_and_wait_close(&server.base_url, &id, &"t".repeat(10_000), Vec::new(), wait);
    assert_eq!(long.close_code, Some(4004));
    let unknown =
        live::send_and_wait_close(&server.base_url, "not-a-uuid", &token, Vec::new(), wait);
    assert_eq!(unknown.close_code, Some(4004));

    let mut first = live::open(&server.base_url, &id, &token);
    let _ = live::stream(&mut first, &[], 1, Duration::from_millis(300));
    let second = live::send_and_wait_close(&server.base_url, &id, &token, Vec::new(), wait);
    assert_eq!(
        (second.error_code(), second.close_code),
        (Some("session_busy"), Some(4029))
    );
    // 100 more sockets to the same session: every one refused, none held
    for _ in 0..100 {
        let extra = live::send_and_wait_close(&server.base_url, &id, &token, Vec::new(), wait);
        assert_eq!(extra.close_code, Some(4029));
    }
    first
        .send(Message::Binary(vec![0xFF; 1_600_000].into()))
        .expect("send big frame");
    let big = live::stream(&mut first, &[], 1, wait);
    assert_eq!(
        (big.error_code(), big.close_code),
        (Some("frame_too_large"), Some(1009))
    );

    let text = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        vec![Message::Text("hello".into())],
        wait,
    );
    assert_eq!(
        (text.error_code(), text.close_code),
        (Some("text_not_accepted"), Some(1003))
    );

    // a 10 MB frame: refused the same way, memory stays bounded
    let huge = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        vec![Message::Binary(vec![0u8; 10_000_000].into())],
        wait,
    );
    assert_eq!(huge.close_code, Some(1009));

    // 1,000 junk frames in about a second: the socket stays up, answers guidance, no 5xx after
    let mut flood = live::open(&server.base_url, &id, &token);
    for _ in 0..1000 {
        if flood.send(Message::Binary(vec![1, 2, 3].into())).is_err() {
            break;
        }
    }
    let after = live::stream(&mut flood, &[], 1, Duration::from_secs(2));
    assert!(
        after
            .messages
            .iter()
            .any(|m| m["type"] == "guidance" || m["type"] == "verdict"),
        "{:?}",
        after.messages
    );
    let health = send(
        "GET",
        &format!("{}/healthz", server.base_url),
        None,
        None,
        Vec::new(),
    );
    assert_eq!(health.status, 200);
}

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

#[test]
fn the_listener_answers_502_while_starting_then_serves() {
    let server = start_server_unready(&[]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut starting, mut health_503) = (None, false);
    loop {
        assert!(Instant::now() < deadline, "never became healthy");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let Ok(mut reply) = agent
            .get(&format!("{}/api/v2/collections", server.base_url))
            .call()
        else {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        };
        if reply.status() == 502 {
            let retry_after = reply.headers().get("retry-after").is_some();
            let body: Value = reply.body_mut().read_json().expect("json");
            starting = Some((body["error"]["code"].clone(), retry_after));
            health_503 |= agent
                .get(&format!("{}/healthz", server.base_url))
                .call()
                .is_ok_and(|r| r.status() == 503);
            continue;
        }
        assert_eq!(reply.status(), 401, "ready: the route wants a key");
        break;
    }
    let (code, retry_after) = starting.expect("a 502 while the models loaded");
    assert_eq!(code, "backend_starting");
    assert!(retry_after, "Retry-After on 502");
    assert!(health_503, "/healthz answered 503 while starting");
    let health = send(
        "GET",
        &format!("{}/healthz", server.base_url),
        None,
        None,
        Vec::new(),
    );
    assert_eq!(health.status, 200);
}

#[test]
fn idle_sockets_and_clients_that_never_read_are_closed_and_free_the_session() {
    let server = start_server(&[("FACEGATE__SESSIONS__SOCKET_IDLE_SECONDS", "2")]);
    let key = create_key(&server, "t");
    let created = post_session(&server, &key, json!({"mode": "passive"}));
    let id = created.body["session_id"].as_str().expect("id").to_owned();
    let token = created.body["token"].as_str().expect("token").to_owned();

    // held open with no frames: closed 4000 after the idle timeout
    let started = Instant::now();
    let idle = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        Vec::new(),
        Duration::from_secs(10),
    );
    assert_eq!(
        (idle.error_code(), idle.close_code),
        (Some("idle_timeout"), Some(4000))
    );
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );

    // a client that sends frames but never reads (so never answers a ping) is dropped, and
    // the session is free again for a reconnect
    let mut silent = live::open(&server.base_url, &id, &token);
    let junk = vec![0xFFu8, 0xD8, 0xFF, 0xD9];
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if silent.send(Message::Binary(junk.clone().into())).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(silent);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let again = live::send_and_wait_close(
            &server.base_url,
            &id,
            &token,
            Vec::new(),
            Duration::from_secs(5),
        );
        if again.close_code != Some(4029) {
            assert_eq!(
                again.messages.first().map(|m| m["type"].clone()),
                Some(json!("ready"))
            );
            break;
        }
        assert!(Instant::now() < deadline, "the session stayed busy");
        std::thread::sleep(Duration::from_millis(200));
    }
}
