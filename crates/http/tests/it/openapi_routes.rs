//! In-process tests of the operational routes and of the OpenAPI document against the
//! router: every documented operation is routed, every routed one documented.

use std::collections::BTreeSet;

use actix_web::test;
use common::{code, fixture, request};
use serde_json::Value;

use crate::common;

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
    let mut operation_ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            documented.insert(format!("{} {path}", method.to_uppercase()));
            let id = operation["operationId"].as_str().expect("an operationId");
            // generated clients name their methods by it: two alike break them
            assert!(
                operation_ids.insert(id.to_owned()),
                "operationId `{id}` twice"
            );
        }
    }
    // every route this file exercises is documented ...
    let routed: BTreeSet<String> = [
        "POST /api/v2/faces:detect",
        "POST /api/v2/faces:compare",
        "POST /api/v1/compare-faces",
        "POST /api/v1/managed-session",
        "POST /api/v1/session",
        "GET /api/v1/session/{id}/result",
        "GET /api/v1/session/{id}/photo",
        "GET /api/v1/session/{id}/webhook-deliveries",
        "GET /api/v1/session/{id}/audit-frames",
        "GET /api/v1/sessions",
        "DELETE /api/v1/session/{id}",
        "POST /api/v1/compare-with-session",
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
        "GET /",
        "GET /api/docs",
        "GET /verify/{id}",
        "GET /demo",
        "GET /sdk/facegate.js",
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
            .replace("{id}", "00000000-0000-0000-0000-000000000000")
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
    // the documented default threshold is the one the handlers apply
    for form in ["CompareForm", "CompareV1Form", "CompareWithSessionForm"] {
        let default = &schemas[form]["properties"]["threshold"]["default"];
        let default = default.as_f64().expect("a threshold default") as f32;
        assert_eq!(default, services::app::DEFAULT_THRESHOLD, "{form}");
    }
    let detect = &doc["paths"]["/api/v2/faces:detect"]["post"]["responses"];
    for status in ["200", "400", "401", "413", "415", "429"] {
        assert!(
            detect[status].is_object(),
            "detect lacks {status}: {detect}"
        );
    }

    let (status, body) = call!(app, "GET", "/healthz", None, None);
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
    let (status, body) = call!(app, "GET", "/readyz", None, None);
    assert_eq!((status, body["status"].as_str()), (200, Some("ready")));
    let (status, _) = call!(app, "GET", "/metrics", None, None);
    assert_eq!(status, 200);
    let (status, body) = call!(app, "GET", "/api/v3/nothing", None, None);
    assert_eq!((status, code(&body)), (404, "route_not_found"));
}

/// The error codes are one enum: the OpenAPI document lists exactly its names, and the table
/// of `docs/api.md` has a row for each with its status.
#[actix_web::test]
async fn the_error_codes_of_the_document_and_the_docs_are_the_enum() {
    use facegate_http::codes::Code;
    let f = fixture();
    let app = app!(f);
    let (_, doc) = call!(app, "GET", "/api/openapi.json", None, None);
    let listed: BTreeSet<&str> = doc["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
        ["enum"]
        .as_array()
        .expect("an enum of codes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let codes: BTreeSet<&str> = Code::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(listed, codes);

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
    let api = std::fs::read_to_string(&path).expect("docs/api.md");
    let rows: Vec<Vec<&str>> = api
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| line.split('|').map(str::trim).collect())
        .filter(|cells: &Vec<&str>| cells.len() > 3)
        .collect();
    for code in Code::ALL {
        let name = format!("`{}`", code.name());
        let status = code.http_status().to_string();
        let documented = rows.iter().any(|cells| {
            cells[1].split(" / ").any(|s| s == status) && cells[2].split(", ").any(|c| c == name)
        });
        assert!(documented, "docs/api.md has no row `| {status} | {name} |`");
    }
}

/// A known path called with another method is 405 with an `Allow` header naming the methods
/// it takes; an unknown path stays 404.
#[actix_web::test]
async fn a_known_path_with_another_method_is_405_with_allow() {
    let f = fixture();
    let app = app!(f);
    for (method, uri, allow) in [
        ("TRACE", "/healthz", "GET"),
        ("POST", "/readyz", "GET"),
        ("DELETE", "/api/v2/collections", "GET, POST"),
        ("PUT", "/api/v2/collections/x/faces", "GET, POST"),
        ("GET", "/api/v2/faces:detect", "POST"),
    ] {
        let response =
            test::call_service(&app, request(method, uri, Some(&f.key), None).to_request()).await;
        assert_eq!(response.status().as_u16(), 405, "{method} {uri}");
        let allowed = response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        assert_eq!(allowed.as_deref(), Some(allow), "{method} {uri}");
        let body: Value = test::read_body_json(response).await;
        assert_eq!(code(&body), "method_not_allowed", "{method} {uri}");
    }
}
