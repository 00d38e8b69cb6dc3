//! Every documented error code of the API, against the real binary; never a 500. One server,
//! one tenant, and a helper for each family of refusals.

use facegate_blackbox_tests::{Api, Part, Reply, create_key, send, start_server, testdata_file};

const LIVE_FACE: &str = "spoof/samples/live.jpg";
const UNKNOWN_FACE: &str = "01a200da-0000-7000-8000-000000000000";

fn detect(api: &Api, parts: &[(&str, Part)]) -> Reply {
    api.post_form("/api/v2/faces:detect", parts)
}

#[test]
fn every_error_code_is_documented_and_never_a_500() {
    let server = start_server(&[]);
    let api = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "errors"),
    };
    missing_and_unknown_credentials_are_401(&api);
    multipart_fields_and_images_are_checked(&api);
    a_200_mb_body_is_cut_off_at_the_request_bound(&api);
    collection_names_are_checked(&api);
    face_ids_and_query_parameters_are_checked(&api);
}

fn missing_and_unknown_credentials_are_401(api: &Api) {
    let url = format!("{}/api/v2/faces:detect", api.base_url);
    assert_eq!(
        send("POST", &url, None, None, vec![]).code(),
        "unauthorized"
    );
    let url = format!("{}/api/v2/collections", api.base_url);
    let unknown_key = send("GET", &url, Some("fg_0000000000000000_00"), None, vec![]);
    assert_eq!(unknown_key.status, 401);
}

fn multipart_fields_and_images_are_checked(api: &Api) {
    let compare = "/api/v2/faces:compare";
    let one_image = api.post_form(compare, &[("source_image", testdata_file(LIVE_FACE))]);
    assert_eq!(one_image.code(), "missing_field");
    let no_boundary = api.call(
        "POST",
        "/api/v2/faces:detect",
        Some("multipart/form-data"),
        vec![],
    );
    assert_eq!(no_boundary.status, 400);
    let text = detect(api, &[("image", Part::Text("not a file".into()))]);
    assert_eq!(text.code(), "invalid_field_type");
    let empty = detect(api, &[("image", Part::File("a.jpg".into(), vec![]))]);
    assert_eq!(empty.code(), "empty_image");
    let prose = detect(
        api,
        &[(
            "image",
            Part::File("notes.jpg".into(), b"just some text".to_vec()),
        )],
    );
    assert_eq!(
        (prose.status, prose.code()),
        (415, "unsupported_image_format")
    );
    let too_big = detect(
        api,
        &[(
            "image",
            Part::File("big.jpg".into(), vec![0xFF; 8 * 1024 * 1024 + 1]),
        )],
    );
    assert_eq!((too_big.status, too_big.code()), (413, "image_too_large"));
    let exactly = detect(
        api,
        &[(
            "image",
            Part::File("max.jpg".into(), vec![0xFF; 8 * 1024 * 1024]),
        )],
    );
    assert_ne!(exactly.code(), "image_too_large", "8 MB exactly is allowed");
    let renamed = detect(api, &[("photo", testdata_file(LIVE_FACE))]);
    assert_eq!(renamed.code(), "unknown_field");
    let blank = detect(api, &[("image", testdata_file("nonfaces/white.png"))]);
    assert_eq!(
        (blank.status, blank.body["faces"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let faceless = api.post_form(
        compare,
        &[
            ("source_image", testdata_file("nonfaces/white.png")),
            ("target_image", testdata_file(LIVE_FACE)),
        ],
    );
    assert_eq!(faceless.code(), "no_face");
    let over_one = api.post_form(
        compare,
        &[
            ("source_image", testdata_file(LIVE_FACE)),
            ("target_image", testdata_file(LIVE_FACE)),
            ("threshold", Part::Text("1.5".into())),
        ],
    );
    assert_eq!(over_one.code(), "invalid_parameter");
}

fn a_200_mb_body_is_cut_off_at_the_request_bound(api: &Api) {
    let huge = api.post_form(
        "/api/v2/faces:compare",
        &[
            (
                "source_image",
                Part::File("a.jpg".into(), vec![1; 7 * 1024 * 1024]),
            ),
            (
                "target_image",
                Part::File("b.jpg".into(), vec![1; 7 * 1024 * 1024]),
            ),
            (
                "threshold",
                Part::Text("x".repeat(200 * 1024 * 1024 - 14 * 1024 * 1024)),
            ),
        ],
    );
    assert!(huge.status == 413 || huge.status == 400, "{huge:?}");
}

fn collection_names_are_checked(api: &Api) {
    let collections = "/api/v2/collections";
    let c1 = serde_json::json!({"external_id": "c1"});
    assert_eq!(api.post_json(collections, c1.clone()).status, 201);
    assert_eq!(
        api.post_json(collections, c1).code(),
        "collection_already_exists"
    );
    let long = "x".repeat(300);
    for bad in [long.as_str(), "café", "a b"] {
        let reply = api.post_json(collections, serde_json::json!({"external_id": bad}));
        assert_eq!(reply.code(), "invalid_identifier", "{bad}");
    }
    assert_eq!(
        api.get("/api/v2/collections/a%2Fb").code(),
        "invalid_identifier"
    );
    assert_eq!(api.get("/api/v2/collections/a/b").code(), "route_not_found");
    let number = api.post_json(collections, serde_json::json!({"external_id": 5}));
    assert_eq!(number.code(), "invalid_json");
    assert_eq!(
        api.get("/api/v2/collections/missing").code(),
        "collection_not_found"
    );
}

/// Runs after [`collection_names_are_checked`], which made the collection `c1`.
fn face_ids_and_query_parameters_are_checked(api: &Api) {
    let face = api.get(&format!("/api/v2/collections/c1/faces/{UNKNOWN_FACE}"));
    assert_eq!(face.code(), "face_not_found");
    let search_by_face = format!("/api/v2/collections/c1/search-by-face/{UNKNOWN_FACE}");
    assert_eq!(api.post(&search_by_face).code(), "face_not_found");
    assert_eq!(
        api.get("/api/v2/collections/c1/faces/not-a-uuid").code(),
        "invalid_identifier"
    );
    for bad in ["0", "abc", "4097", "-1"] {
        let path = format!("{search_by_face}?max_faces={bad}");
        let reply = api.post(&path);
        assert_eq!(reply.code(), "invalid_parameter", "max_faces={bad}");
    }
    assert_eq!(
        api.get("/api/v2/collections?colour=blue").code(),
        "unknown_parameter"
    );
    let bad_external_id = api.post_form(
        "/api/v2/collections/c1/faces",
        &[
            ("image", testdata_file(LIVE_FACE)),
            ("external_face_id", Part::Text("über".into())),
        ],
    );
    assert_eq!(bad_external_id.code(), "invalid_identifier");
}
