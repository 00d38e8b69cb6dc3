//! In-process tests of every route through actix's full service stack (extractors, auth,
//! upload limits, error mapping) with the real models, a temporary SQLite database and
//! photos from `../shared/testdata`. The black-box tests in `tests/` run the real binary.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use actix_web::{App, test};
use facegate_http::{AppState, configure};
use serde_json::Value;

const BOUNDARY: &str = "facegate-route-test-4d2e";

fn testdata(relative: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata")
        .join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

enum Part<'a> {
    File(&'a [u8]),
    Text(&'a str),
}

fn multipart(fields: &[(&str, Part<'_>)]) -> Vec<u8> {
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

struct Fixture {
    state: AppState,
    key: String,
    other_key: String,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = Arc::new(face_engine::FaceEngine::load(&models).expect("models"));
    let dir = tempfile::tempdir().expect("temp dir");
    let url = dir.path().join("routes.db").to_string_lossy().into_owned();
    let store = storage::Store::open(&url, storage::ServerSecret::new(b"route-test".to_vec()))
        .expect("store");
    let tenant = store.ensure_tenant("routes").expect("tenant");
    let other = store.ensure_tenant("other").expect("tenant");
    let (_, key) = store.create_api_key(tenant.id).expect("key");
    let (_, other_key) = store.create_api_key(other.id).expect("key");
    let limits = facegate_http::ratelimit::RateLimits {
        per_second: 0,
        per_minute: 0,
    };
    let state = AppState {
        engine,
        search: Arc::new(storage::search::FaceSearch::new(store)),
        limiter: Arc::new(facegate_http::ratelimit::RateLimiter::new(limits)),
        metrics: Arc::new(facegate_http::observability::Metrics::default()),
        inference: Arc::new(facegate_http::gate::InferenceGate::per_core()),
    };
    Fixture {
        state,
        key,
        other_key,
        _dir: dir,
    }
}

/// Builds one request; the body is a content type and bytes.
fn request(
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

fn form(fields: &[(&str, Part<'_>)]) -> Option<(&'static str, Vec<u8>)> {
    let content_type: &'static str =
        Box::leak(format!("multipart/form-data; boundary={BOUNDARY}").into_boxed_str());
    Some((content_type, multipart(fields)))
}

fn json(value: Value) -> Option<(&'static str, Vec<u8>)> {
    Some(("application/json", value.to_string().into_bytes()))
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

macro_rules! app {
    ($fixture:expr) => {
        test::init_service(App::new().configure(configure($fixture.state.clone()))).await
    };
}

#[actix_web::test]
async fn detect_and_both_compare_routes() {
    let f = fixture();
    let app = app!(f);
    let key = Some(f.key.as_str());
    let (amy1, amy2, raj) = (
        testdata("identities/tv-cast/amy/amy1.png"),
        testdata("identities/tv-cast/amy/amy2.png"),
        testdata("identities/tv-cast/raj/raj1.png"),
    );
    let (status, body) = call!(
        app,
        "POST",
        "/api/v2/faces:detect",
        key,
        form(&[("image", Part::File(&amy1))])
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["faces"].as_array().map(Vec::len), Some(1), "{body}");
    assert!(body["faces"][0]["landmarks"]["right_eye"]["x"].is_number());
    let (status, body) = call!(
        app,
        "POST",
        "/api/v2/faces:detect",
        key,
        form(&[("image", Part::File(&testdata("nonfaces/dogs.jpg")))])
    );
    assert_eq!(
        (status, body["faces"].as_array().map(Vec::len)),
        (200, Some(0))
    );

    let same = form(&[
        ("source_image", Part::File(&amy1)),
        ("target_image", Part::File(&amy2)),
    ]);
    let (status, body) = call!(app, "POST", "/api/v2/faces:compare", key, same);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["is_match"], true, "{body}");
    assert!(body["source_face"]["bounding_box"]["width"].is_number());
    let other = form(&[
        ("reference", Part::File(&amy1)),
        ("probe", Part::File(&raj)),
        ("threshold", Part::Text("0.5")),
    ]);
    let (status, body) = call!(app, "POST", "/api/v1/compare-faces", key, other);
    assert_eq!(status, 200, "{body}");
    let fields: BTreeSet<&str> = body
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        fields,
        BTreeSet::from(["similarity", "is_match", "threshold"])
    );
    assert_eq!(body["is_match"], false, "{body}");
    // v2 field names are not v1's
    let v1_names = form(&[
        ("reference", Part::File(&amy1)),
        ("probe", Part::File(&amy2)),
    ]);
    let (status, body) = call!(app, "POST", "/api/v2/faces:compare", key, v1_names);
    assert_eq!((status, code(&body)), (400, "unknown_field"), "{body}");
    for uri in [
        "/api/v2/faces:detect",
        "/api/v2/faces:compare",
        "/api/v1/compare-faces",
    ] {
        let (status, body) = call!(
            app,
            "POST",
            uri,
            None,
            form(&[("image", Part::File(&amy1))])
        );
        assert_eq!((status, code(&body)), (401, "unauthorized"), "{uri}");
    }
}

#[actix_web::test]
async fn collection_routes_create_list_get_delete() {
    let f = fixture();
    let app = app!(f);
    let key = Some(f.key.as_str());
    for name in ["alpha", "beta", "gamma"] {
        let (status, body) = call!(
            app,
            "POST",
            "/api/v2/collections",
            key,
            json(serde_json::json!({"external_id": name, "description": "Zoë's ✓"}))
        );
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["description"], "Zoë's ✓");
    }
    let (status, body) = call!(
        app,
        "POST",
        "/api/v2/collections",
        key,
        json(serde_json::json!({"external_id": "alpha"}))
    );
    assert_eq!((status, code(&body)), (409, "collection_already_exists"));
    let (status, page) = call!(app, "GET", "/api/v2/collections?max_results=2", key, None);
    assert_eq!(status, 200);
    assert_eq!(page["collections"].as_array().map(Vec::len), Some(2));
    let token = page["next_token"].as_str().expect("next token").to_owned();
    let (_, rest) = call!(
        app,
        "GET",
        &format!("/api/v2/collections?next_token={token}"),
        key,
        None
    );
    assert_eq!(rest["collections"][0]["external_id"], "gamma", "{rest}");
    assert!(rest["next_token"].is_null());
    let (status, body) = call!(app, "GET", "/api/v2/collections/beta", key, None);
    assert_eq!(
        (status, body["face_count"].as_u64()),
        (200, Some(0)),
        "{body}"
    );
    let (status, _) = call!(app, "DELETE", "/api/v2/collections/beta", key, None);
    assert_eq!(status, 204);
    let (status, body) = call!(app, "GET", "/api/v2/collections/beta", key, None);
    assert_eq!((status, code(&body)), (404, "collection_not_found"));
    let (status, body) = call!(app, "DELETE", "/api/v2/collections/beta", key, None);
    assert_eq!((status, code(&body)), (404, "collection_not_found"));
    // another tenant sees none of it
    let (_, body) = call!(app, "GET", "/api/v2/collections", Some(&f.other_key), None);
    assert_eq!(
        body["collections"].as_array().map(Vec::len),
        Some(0),
        "{body}"
    );
}

#[actix_web::test]
async fn face_routes_index_list_get_delete_and_search() {
    let f = fixture();
    let app = app!(f);
    let key = Some(f.key.as_str());
    call!(
        app,
        "POST",
        "/api/v2/collections",
        key,
        json(serde_json::json!({"external_id": "staff"}))
    );
    let mut ids = Vec::new();
    for (person, file) in [("amy", "amy1"), ("raj", "raj1"), ("penny", "penny1")] {
        let image = testdata(&format!("identities/tv-cast/{person}/{file}.png"));
        let (status, body) = call!(
            app,
            "POST",
            "/api/v2/collections/staff/faces",
            key,
            form(&[
                ("image", Part::File(&image)),
                ("external_face_id", Part::Text(person)),
                ("quality_filter", Part::Text("none"))
            ])
        );
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["external_face_id"], person);
        ids.push(body["face_id"].as_str().expect("face id").to_owned());
    }
    let (status, page) = call!(
        app,
        "GET",
        "/api/v2/collections/staff/faces?max_results=2",
        key,
        None
    );
    assert_eq!(
        (status, page["faces"].as_array().map(Vec::len)),
        (200, Some(2)),
        "{page}"
    );
    let (status, face) = call!(
        app,
        "GET",
        &format!("/api/v2/collections/staff/faces/{}", ids[1]),
        key,
        None
    );
    assert_eq!(
        (status, face["external_face_id"].as_str()),
        (200, Some("raj")),
        "{face}"
    );

    let uri = format!(
        "/api/v2/collections/staff/search-by-face/{}?max_faces=2",
        ids[0]
    );
    let (status, body) = call!(app, "POST", &uri, key, None);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hits"][0]["external_face_id"], "amy", "{body}");
    assert!(body["hits"].as_array().is_some_and(|h| h.len() <= 2));
    let amy2 = testdata("identities/tv-cast/amy/amy2.png");
    let (status, body) = call!(
        app,
        "POST",
        "/api/v2/collections/staff/search-by-image?min_similarity=0.5",
        key,
        form(&[("image", Part::File(&amy2))])
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hits"][0]["external_face_id"], "amy", "{body}");
    assert!(body["searched_face"]["bounding_box"].is_object());
    for hit in body["hits"].as_array().expect("hits") {
        assert!(
            hit["similarity"].as_f64().is_some_and(|s| s >= 0.5),
            "{hit}"
        );
    }
    for bad in [
        "max_faces=0",
        "max_faces=abc",
        "max_faces=4097",
        "min_similarity=2",
        "top=3",
    ] {
        let (status, body) = call!(
            app,
            "POST",
            &format!("/api/v2/collections/staff/search-by-face/{}?{bad}", ids[0]),
            key,
            None
        );
        assert_eq!(status, 400, "{bad}: {body}");
    }

    let (status, _) = call!(
        app,
        "DELETE",
        &format!("/api/v2/collections/staff/faces/{}", ids[1]),
        key,
        None
    );
    assert_eq!(status, 204);
    let (status, body) = call!(
        app,
        "GET",
        &format!("/api/v2/collections/staff/faces/{}", ids[1]),
        key,
        None
    );
    assert_eq!((status, code(&body)), (404, "face_not_found"));
    let (_, body) = call!(app, "GET", "/api/v2/collections/staff", key, None);
    assert_eq!(body["face_count"].as_u64(), Some(2), "{body}");
    // the other tenant cannot reach the face by its id
    let (status, body) = call!(
        app,
        "GET",
        &format!("/api/v2/collections/staff/faces/{}", ids[0]),
        Some(&f.other_key),
        None
    );
    assert_eq!((status, code(&body)), (404, "collection_not_found"));
}

#[actix_web::test]
async fn operational_routes_and_the_openapi_document_match_the_router() {
    let f = fixture();
    let app = app!(f);
    let (status, doc) = call!(app, "GET", "/api/openapi.json", None, None);
    assert_eq!(status, 200);
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{doc}"
    );
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            documented.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    // every route this file exercises is documented ...
    let routed: BTreeSet<String> = [
        "POST /api/v2/faces:detect",
        "POST /api/v2/faces:compare",
        "POST /api/v1/compare-faces",
        "POST /api/v2/collections",
        "GET /api/v2/collections",
        "GET /api/v2/collections/{external_id}",
        "DELETE /api/v2/collections/{external_id}",
        "POST /api/v2/collections/{external_id}/faces",
        "GET /api/v2/collections/{external_id}/faces",
        "GET /api/v2/collections/{external_id}/faces/{face_id}",
        "DELETE /api/v2/collections/{external_id}/faces/{face_id}",
        "POST /api/v2/collections/{external_id}/search-by-face/{face_id}",
        "POST /api/v2/collections/{external_id}/search-by-image",
        "GET /healthz",
        "GET /readyz",
        "GET /metrics",
        "GET /api/openapi.json",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(documented, routed);
    // ... and every documented operation reaches a handler (not the router's 404)
    for operation in &documented {
        let (method, path) = operation.split_once(' ').expect("operation");
        let uri = path
            .replace("{external_id}", "nope")
            .replace("{face_id}", "00000000-0000-0000-0000-000000000000");
        let (_, body) = call!(app, method, &uri, Some(&f.key), None);
        assert_ne!(code(&body), "route_not_found", "{operation}");
    }
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    for name in [
        "ErrorBody",
        "FaceDto",
        "SearchResponse",
        "CompareV1Response",
        "IndexFaceForm",
    ] {
        assert!(schemas.contains_key(name), "{name} missing");
    }
    assert!(doc["components"]["securitySchemes"]["api_key"].is_object());

    let (status, body) = call!(app, "GET", "/healthz", None, None);
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
    let (status, body) = call!(app, "GET", "/readyz", None, None);
    assert_eq!((status, body["status"].as_str()), (200, Some("ready")));
    let (status, _) = call!(app, "GET", "/metrics", None, None);
    assert_eq!(status, 200);
    let (status, body) = call!(app, "GET", "/api/v3/nothing", None, None);
    assert_eq!((status, code(&body)), (404, "route_not_found"));
}
