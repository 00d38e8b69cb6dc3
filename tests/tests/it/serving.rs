//! How the service serves: the listener answers 502 `backend_starting` while it starts, then
//! serves; with `server.tls.cert_file` and `key_file` it speaks HTTPS itself (so `wss://` works
//! without a proxy), and `session_url` defaults to `https://`.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::receiver::TestCa;
use facegate_blackbox_tests::{create_key, get, start_server_unready};
use serde_json::Value;

#[test]
fn the_service_serves_https_with_its_own_certificate() {
    let ca = TestCa::new();
    let server = start_server_unready(&[
        (
            "FACEGATE__SERVER__TLS__CERT_FILE",
            ca.cert_file.to_str().expect("path"),
        ),
        (
            "FACEGATE__SERVER__TLS__KEY_FILE",
            ca.key_file.to_str().expect("path"),
        ),
    ]);
    let https = server.base_url.replacen("http://", "https://", 1);
    let pem = std::fs::read(&ca.ca_file).expect("ca");
    let root = ureq::tls::Certificate::from_pem(&pem).expect("ca pem");
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::new_with_certs(&[root]))
        .build();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .build()
        .into();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let healthy = agent
            .get(&format!("{https}/healthz"))
            .call()
            .is_ok_and(|r| r.status() == 200);
        if healthy {
            break;
        }
        assert!(Instant::now() < deadline, "no HTTPS health within 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    let key = create_key(&server, "t");
    let mut created = agent
        .post(&format!("{https}/api/v1/managed-session"))
        .header("Authorization", &format!("Bearer {key}"))
        .send_json(serde_json::json!({"mode": "passive"}))
        .expect("create over https");
    assert_eq!(created.status(), 201);
    let body: Value = created.body_mut().read_json().expect("json");
    assert!(
        body["session_url"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://127.0.0.1:")),
        "{body}"
    );
    // plain HTTP on the TLS port gets nothing useful
    let plain = ureq::get(&format!("{}/healthz", server.base_url)).call();
    assert!(plain.is_err() || plain.is_ok_and(|r| r.status() != 200));
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
    let health = get(&format!("{}/healthz", server.base_url), None);
    assert_eq!(health.status, 200);
}
