//! The per-address lock-out through the app the binary serves (`facegate_http::app`): refused
//! credentials lock one address out of key and token guessing, but never out of the probes
//! and the metrics, and never a request whose API key is valid.

use actix_web::test;
use common::{code, fixture_with};
use serde_json::Value;

use crate::common;

const GUESSER: &str = "203.0.113.7:40000";
const NEIGHBOUR: &str = "203.0.113.8:40000";

/// One GET from `peer`, optionally with an API key: the status and the JSON body.
macro_rules! get {
    ($app:expr, $uri:expr, $key:expr, $peer:expr) => {{
        let mut request = test::TestRequest::get()
            .uri($uri)
            .peer_addr($peer.parse().expect("peer address"));
        let key: Option<&str> = $key;
        if let Some(key) = key {
            request = request.insert_header(("Authorization", format!("Bearer {key}")));
        }
        let response = test::call_service(&$app, request.to_request()).await;
        let status = response.status().as_u16();
        let bytes = test::read_body(response).await;
        (
            status,
            serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null),
        )
    }};
}

#[actix_web::test]
async fn a_locked_out_address_keeps_its_probes_metrics_and_valid_keys() {
    let f = fixture_with(|settings| settings.security.failed_credentials_per_minute = 5);
    let app = app!(f);
    let session = "/api/v1/session/0190d7a4-7c3e-7d1a-8f00-000000000001/result?token=wrong";
    for _ in 0..3 {
        let (status, _) = get!(app, "/api/v2/collections", Some("fg_wrong"), GUESSER);
        assert_eq!(status, 401);
    }
    for _ in 0..2 {
        let (status, body) = get!(app, session, None, GUESSER);
        assert_eq!((status, code(&body)), (404, "session_not_found"));
    }
    // five refusals: the address is locked out of guessing ...
    let (status, body) = get!(app, "/api/v2/collections", Some("fg_wrong"), GUESSER);
    assert_eq!((status, code(&body)), (429, "too_many_failed_attempts"));
    let (status, body) = get!(app, session, None, GUESSER);
    assert_eq!((status, code(&body)), (429, "too_many_failed_attempts"));
    let (status, _) = get!(app, "/verify/x?token=y", None, GUESSER);
    assert_eq!(status, 429, "the verification link is guarded too");
    // ... but never out of the probes and the metrics ...
    for probe in ["/healthz", "/readyz", "/metrics"] {
        let (status, _) = get!(app, probe, None, GUESSER);
        assert_eq!(status, 200, "{probe} from a locked-out address");
    }
    // ... nor out of requests with a valid key, whose refusals are no guesses
    let (status, body) = get!(app, "/api/v2/collections", Some(&f.key), GUESSER);
    assert_eq!(status, 200, "a valid key from a locked-out address: {body}");
    for _ in 0..10 {
        let (status, body) = get!(app, "/api/v2/collections/nope", Some(&f.key), NEIGHBOUR);
        assert_eq!((status, code(&body)), (404, "collection_not_found"));
    }
    let (status, _) = get!(app, "/api/v2/collections", Some("fg_wrong"), NEIGHBOUR);
    assert_eq!(
        status, 401,
        "a neighbour's 404s with a valid key were not counted"
    );
}
