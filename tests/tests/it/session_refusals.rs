//! Session creation and reads refuse what they must, each with its documented code: malicious
//! redirect and webhook URLs (a battery of spellings), bad bodies, wrong and oversized tokens.

use facegate_blackbox_tests::{create_key, get, post_managed_session, send, start_server};
use serde_json::json;

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
        let redirect = post_managed_session(&server, &key, json!({"redirect_url": url}));
        assert_eq!(
            (redirect.status, redirect.code()),
            (400, "invalid_redirect_url"),
            "redirect {url:?}"
        );
        let webhook = post_managed_session(&server, &key, json!({"webhook_url": url}));
        assert_eq!(
            (webhook.status, webhook.code()),
            (400, "invalid_webhook_url"),
            "webhook {url:?}"
        );
        tried += 2;
    }
    // a name that does not resolve is the browser's business for a redirect, not for a webhook
    let unresolved = post_managed_session(
        &server,
        &key,
        json!({"redirect_url": "https://no-such-host.invalid/back"}),
    );
    assert_eq!(unresolved.status, 201, "{:?}", unresolved.body);
    let unresolved = post_managed_session(
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
        post_managed_session(&server, &key, json!({"mode": "sleepy"})).code(),
        "invalid_mode"
    );
    assert_eq!(
        post_managed_session(&server, &key, json!({"reference_id": "x".repeat(10_000)})).code(),
        "invalid_reference_id"
    );
    let no_key = send("POST", &url, None, Some("application/json"), b"{}".to_vec());
    assert_eq!((no_key.status, no_key.code()), (401, "unauthorized"));
    let created = post_managed_session(&server, &key, json!({}));
    assert_eq!(
        created.status, 201,
        "redirect_url is optional: {:?}",
        created.body
    );
    assert_eq!(created.body["mode"], "active");
    let id = created.body["session_id"].as_str().expect("id");
    for token in ["wrong", &"a".repeat(10_000), ""] {
        let reply = get(
            &format!(
                "{}/api/v1/session/{id}/result?token={token}",
                server.base_url
            ),
            None,
        );
        assert_eq!(
            (reply.status, reply.code()),
            (404, "session_not_found"),
            "token of {} bytes",
            token.len()
        );
    }
    let unknown = get(
        &format!(
            "{}/api/v1/session/00000000-0000-0000-0000-000000000000/result?token=x",
            server.base_url
        ),
        None,
    );
    assert_eq!((unknown.status, unknown.code()), (404, "session_not_found"));
    let junk_id = get(
        &format!(
            "{}/api/v1/session/..%2F..%2Fetc/result?token=x",
            server.base_url
        ),
        None,
    );
    assert_eq!(junk_id.status, 404);
}
