//! Who may reach what over HTTP: tenant isolation and the per-key rate limit.

use facegate_blackbox_tests::{Api, Part, create_key, send, start_server, testdata_file};

#[test]
fn tenants_are_isolated_over_http() {
    let server = start_server(&[]);
    let tenant = |name: &str| Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, name),
    };
    let (a, b) = (tenant("tenant-a"), tenant("tenant-b"));
    let shared_name = serde_json::json!({"external_id": "shared-name"});
    assert_eq!(
        a.post_json("/api/v2/collections", shared_name.clone())
            .status,
        201
    );
    let face = a.post_form(
        "/api/v2/collections/shared-name/faces",
        &[
            ("image", testdata_file("identities/tv-cast/amy/amy1.png")),
            ("external_face_id", Part::Text("amy".into())),
        ],
    );
    let face_id = face.body["face_id"].as_str().expect("face id").to_owned();
    // b cannot see, search or delete a's collection and face
    assert_eq!(
        b.get("/api/v2/collections/shared-name").code(),
        "collection_not_found"
    );
    let search = format!("/api/v2/collections/shared-name/search-by-face/{face_id}");
    assert_eq!(b.post(&search).code(), "collection_not_found");
    assert_eq!(b.delete("/api/v2/collections/shared-name").status, 404);
    let listed = b.get("/api/v2/collections");
    assert_eq!(listed.body["collections"].as_array().map(Vec::len), Some(0));
    // the same external_id under b is its own collection
    assert_eq!(b.post_json("/api/v2/collections", shared_name).status, 201);
    let face_count =
        |api: &Api| api.get("/api/v2/collections/shared-name").body["face_count"].clone();
    assert_eq!(face_count(&b), 0);
    assert_eq!(face_count(&a), 1);
}

#[test]
fn rate_limit_per_key_answers_429_with_retry_after() {
    let server = start_server(&[
        ("FACEGATE__RATE_LIMIT__PER_SECOND", "3"),
        ("FACEGATE__RATE_LIMIT__PER_MINUTE", "1000"),
    ]);
    let (a, b) = (create_key(&server, "busy"), create_key(&server, "quiet"));
    let url = format!("{}/api/v2/collections", server.base_url);
    let statuses: Vec<u16> = (0..6)
        .map(|_| send("GET", &url, Some(&a), None, vec![]).status)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let limited = (0..5)
        .map(|_| {
            agent
                .get(&url)
                .header("Authorization", format!("Bearer {a}"))
                .call()
                .expect("response")
        })
        .find(|r| r.status() == 429)
        .expect("a 429");
    let retry_after: u64 = limited
        .headers()
        .get("Retry-After")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert_eq!(
        send("GET", &url, Some(&b), None, vec![]).status,
        200,
        "another key is not limited"
    );
}
