//! The front door (issue 41) against the real binary: `GET /` says what the server is, its
//! version and where the demo, the API reference and the health endpoints are; `GET /api/docs`
//! renders the OpenAPI document with the embedded Swagger UI under the `self`-only policy. In
//! Chromium the reference shows every operation of the document, and neither page fetches
//! anything from another origin.

use std::collections::BTreeSet;

use facegate_blackbox_tests::browser::{assert_accessible, exclusive_browser, run_browser_script};
use facegate_blackbox_tests::{get_bytes, start_server};
use serde_json::json;

/// Every operation of the served document as `METHOD path`.
fn documented_operations(base_url: &str) -> BTreeSet<String> {
    let (status, body) = get_bytes(&format!("{base_url}/api/openapi.json"));
    assert_eq!(status, 200);
    let doc: serde_json::Value = serde_json::from_slice(&body).expect("json");
    let mut operations = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            operations.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    operations
}

#[test]
fn the_front_door_and_the_api_reference_are_served_from_this_origin_only() {
    let server = start_server(&[]);
    let (status, page) = get_bytes(&format!("{}/", server.base_url));
    let page = String::from_utf8(page).expect("utf-8");
    assert_eq!(status, 200);
    for expected in [
        env!("CARGO_PKG_VERSION"),
        "href=\"/api/docs\"",
        "href=\"/api/openapi.json\"",
        "href=\"/demo\"",
        "href=\"/healthz\"",
        "href=\"/readyz\"",
        "href=\"/metrics\"",
    ] {
        assert!(page.contains(expected), "the front door names {expected}");
    }
    assert!(!page.contains("{{"), "every placeholder is filled");
    let (status, docs) = get_bytes(&format!("{}/api/docs", server.base_url));
    let docs = String::from_utf8(docs).expect("utf-8");
    assert_eq!(status, 200);
    let licence = docs
        .split('"')
        .find(|part| part.ends_with("/vendor/swagger-ui/LICENSE"))
        .expect("the page links the renderer's licence");
    let (status, text) = get_bytes(&format!("{}{licence}", server.base_url));
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&text).contains("Apache License"));

    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let report = run_browser_script(
        "docs.mjs",
        &json!({"name": "front-door", "base_url": server.base_url}),
    );
    assert_eq!(report["front_status"], 200, "{report:#}");
    assert_eq!(report["docs_status"], 200, "{report:#}");
    let policy = report["docs_csp"].as_str().expect("a policy");
    assert!(
        policy.contains("script-src 'self'") && policy.contains("style-src 'self'"),
        "{policy}"
    );
    assert!(!policy.contains("unsafe"), "{policy}");
    for url in report["requests"].as_array().expect("requests") {
        let url = url.as_str().expect("url");
        assert!(
            url.starts_with(&server.base_url) || url.starts_with("data:"),
            "nothing is fetched from another origin: {url}"
        );
    }
    let rendered: BTreeSet<String> = report["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .map(|o| o.as_str().expect("text").to_owned())
        .collect();
    assert_eq!(rendered, documented_operations(&server.base_url));
    assert_accessible(&report);
    let refused_loads: Vec<_> = report["console_errors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter(|e| !e.as_str().unwrap_or("").contains("inline style"))
        .collect();
    assert!(refused_loads.is_empty(), "{refused_loads:#?}");
}
