//! Shared by the in-process route tests: the fixture (real models, a temporary SQLite
//! database, two tenants with a key each), multipart and JSON bodies, and the `call!` and
//! `app!` macros that send one request through actix's full service stack.
#![allow(dead_code, unused_macros)]

use std::path::PathBuf;

use actix_web::test;
use facegate_http::AppState;
use serde_json::Value;
use services::{sessions, storage};

macro_rules! boundary {
    () => {
        "facegate-route-test-4d2e"
    };
}
pub const BOUNDARY: &str = boundary!();
const FORM_CONTENT_TYPE: &str = concat!("multipart/form-data; boundary=", boundary!());

pub fn testdata(relative: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata")
        .join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub enum Part<'a> {
    File(&'a [u8]),
    Text(&'a str),
}

pub fn multipart(fields: &[(&str, Part<'_>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, part) in fields {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match part {
            Part::File(bytes) => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{name}\"; filename=\"f.jpg\"\r\n\
                         Content-Type: application/octet-stream\r\n\r\n"
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
            Part::Text(value) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}")
                    .as_bytes(),
            ),
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

pub struct Fixture {
    pub state: AppState,
    /// The database under `state`, for tests that build their own services over it.
    pub store: storage::Store,
    /// The session use cases under `state`, for tests that make a session without a stream.
    pub sessions: sessions::SessionService,
    pub key: String,
    pub other_key: String,
    _dir: tempfile::TempDir,
}

pub fn fixture() -> Fixture {
    fixture_with(|_| {})
}

/// The fixture over the services the binary opens (`services::Services::open`), on the
/// built-in settings as `adjust` leaves them; the rate limits and the lock-out are off unless
/// `adjust` turns them on, as each test sends many requests from one address.
pub fn fixture_with(adjust: impl FnOnce(&mut services::Settings)) -> Fixture {
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = services::Settings::for_tests(dir.path(), &models);
    settings.request_limits_off();
    adjust(&mut settings);
    let services = services::Services::open(&settings).expect("services");
    let store = services.store.clone();
    let sessions = services.sessions.clone();
    let tenant = store.ensure_tenant("routes").expect("tenant");
    let other = store.ensure_tenant("other").expect("tenant");
    let (_, key) = store.create_api_key(tenant.id).expect("key");
    let (_, other_key) = store.create_api_key(other.id).expect("key");
    let state = facegate_http::AppStateBuilder::new(services, &settings)
        .expect("web settings")
        .build();
    Fixture {
        state,
        store,
        sessions,
        key,
        other_key,
        _dir: dir,
    }
}

/// Builds one request; the body is a content type and bytes.
pub fn request(
    method: &str,
    uri: &str,
    key: Option<&str>,
    body: Option<(&str, Vec<u8>)>,
) -> actix_web::test::TestRequest {
    let mut request = test::TestRequest::default()
        .method(method.parse().expect("method"))
        .uri(uri);
    if let Some(key) = key {
        request = request.insert_header(("Authorization", format!("Bearer {key}")));
    }
    if let Some((content_type, bytes)) = body {
        request = request
            .insert_header(("Content-Type", content_type.to_owned()))
            .set_payload(bytes);
    }
    request
}

/// Sends one request to the app; yields the status and the JSON body (`Null` when not JSON).
macro_rules! call {
    ($app:expr, $method:expr, $uri:expr, $key:expr, $body:expr) => {{
        let response =
            test::call_service(&$app, request($method, $uri, $key, $body).to_request()).await;
        let status = response.status().as_u16();
        let bytes = test::read_body(response).await;
        (
            status,
            serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null),
        )
    }};
}

pub fn form(fields: &[(&str, Part<'_>)]) -> Option<(&'static str, Vec<u8>)> {
    Some((FORM_CONTENT_TYPE, multipart(fields)))
}

pub fn json(value: Value) -> Option<(&'static str, Vec<u8>)> {
    Some(("application/json", value.to_string().into_bytes()))
}

pub fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

/// The app the binary serves (`facegate_http::app`, the whole middleware stack) around the
/// fixture's state.
macro_rules! app {
    ($fixture:expr) => {
        test::init_service(facegate_http::app($fixture.state.clone())).await
    };
}
