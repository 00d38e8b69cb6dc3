//! Fuzzes the JSON bodies and identifiers of every route that takes them, through the real
//! actix app in process (SQLite store in a temporary folder, the shipped models): the first
//! byte picks the route, the rest is the body, or the path segment and query string. Findings:
//! a panic, a 5xx, or an error that is not the JSON error body with a code.
#![no_main]

use actix_web::test;
use libfuzzer_sys::fuzz_target;

struct Fixture {
    state: facegate_http::AppState,
    key: String,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = facegate_services::Settings::for_tests(dir.path(), &models);
    // the app the binary serves; the limits off, since every input comes from one address
    settings.request_limits_off();
    let services = facegate_services::Services::open(&settings).expect("services");
    let tenant = services.store.ensure_tenant("fuzz").expect("tenant");
    let (_, key) = services.store.create_api_key(tenant.id).expect("key");
    let state = facegate_http::AppStateBuilder::new(services, &settings)
        .expect("web settings")
        .build();
    Fixture {
        state,
        key,
        _dir: dir,
    }
}

fn encoded(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("%{b:02X}")).collect()
}

thread_local! {
    static RUNTIME: actix_web::rt::Runtime = actix_web::rt::Runtime::new().expect("runtime");
    static FIXTURE: Fixture = fixture();
}

fuzz_target!(|data: &[u8]| {
    let Some((&route, rest)) = data.split_first() else {
        return;
    };
    let (method, uri, body) = match route % 7 {
        0 => ("POST", "/api/v2/collections".to_owned(), rest),
        1 => ("POST", "/api/v1/managed-session".to_owned(), rest),
        2 => ("POST", "/api/v1/session".to_owned(), rest),
        3 => ("GET", format!("/api/v2/collections?{}", String::from_utf8_lossy(rest)), &[][..]),
        4 => ("GET", format!("/api/v2/collections/{}/faces", encoded(rest)), &[][..]),
        5 => ("POST", format!("/api/v2/collections/x/search-by-face/{}", encoded(rest)), &[][..]),
        _ => ("GET", format!("/api/v1/session/{}/result?token={}", encoded(rest), encoded(rest)), &[][..]),
    };
    let Ok(uri_ok) = uri.parse::<actix_web::http::Uri>() else {
        return;
    };
    FIXTURE.with(|fixture| {
        RUNTIME.with(|runtime| {
            runtime.block_on(async {
                let app = test::init_service(facegate_http::app(fixture.state.clone())).await;
                let request = test::TestRequest::default()
                    .method(method.parse().expect("method"))
                    .uri(&uri_ok.to_string())
                    .insert_header(("Authorization", format!("Bearer {}", fixture.key)))
                    .insert_header(("Content-Type", "application/json"))
                    .set_payload(body.to_vec())
                    .to_request();
                let response = test::call_service(&app, request).await;
                let status = response.status();
                let bytes = test::read_body(response).await;
                assert!(!status.is_server_error(), "{method} {uri}: {status}");
                if status.is_client_error() {
                    let error: serde_json::Value =
                        serde_json::from_slice(&bytes).expect("a JSON error body");
                    assert!(error["error"]["code"].is_string(), "{method} {uri}: {error}");
                }
            })
        })
    });
});
