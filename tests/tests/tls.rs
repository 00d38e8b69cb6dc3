//! Built-in TLS: with `server.tls.cert_file` and `key_file` the service speaks HTTPS itself
//! (so `wss://` works without a proxy), and `session_url` defaults to `https://`.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::receiver::TestCa;
use facegate_blackbox_tests::{create_key, start_server_unready};
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
