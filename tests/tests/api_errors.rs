//! Every documented error code of the API, against the real binary; never a 500.

use facegate_blackbox_tests::{
    Part, create_key, json_body, multipart, send, start_server, testdata_file,
};

#[test]
fn every_error_code_is_documented_and_never_a_500() {
    let server = start_server(&[]);
    let key = create_key(&server, "errors");
    let url = |path: &str| format!("{}{path}", server.base_url);
    let detect = |parts: &[(&str, Part)]| {
        let (ct, body) = multipart(parts);
        send(
            "POST",
            &url("/api/v2/faces:detect"),
            Some(&key),
            Some(&ct),
            body,
        )
    };
    // auth
    assert_eq!(
        send("POST", &url("/api/v2/faces:detect"), None, None, vec![]).code(),
        "unauthorized"
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections"),
            Some("fg_0000000000000000_00"),
            None,
            vec![]
        )
        .status,
        401
    );
    // multipart fields
    let (ct, body) = multipart(&[("source_image", testdata_file("spoof/samples/live.jpg"))]);
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/faces:compare"),
            Some(&key),
            Some(&ct),
            body
        )
        .code(),
        "missing_field"
    );
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/faces:detect"),
            Some(&key),
            Some("multipart/form-data"),
            vec![]
        )
        .status,
        400
    );
    assert_eq!(
        detect(&[("image", Part::Text("not a file".into()))]).code(),
        "invalid_field_type"
    );
    assert_eq!(
        detect(&[("image", Part::File("a.jpg".into(), vec![]))]).code(),
        "empty_image"
    );
    let text = detect(&[(
        "image",
        Part::File("notes.jpg".into(), b"just some text".to_vec()),
    )]);
    assert_eq!(
        (text.status, text.code()),
        (415, "unsupported_image_format")
    );
    let too_big = detect(&[(
        "image",
        Part::File("big.jpg".into(), vec![0xFF; 8 * 1024 * 1024 + 1]),
    )]);
    assert_eq!((too_big.status, too_big.code()), (413, "image_too_large"));
    let exactly = detect(&[(
        "image",
        Part::File("max.jpg".into(), vec![0xFF; 8 * 1024 * 1024]),
    )]);
    assert_ne!(exactly.code(), "image_too_large", "8 MB exactly is allowed");
    assert_eq!(
        detect(&[("photo", testdata_file("spoof/samples/live.jpg"))]).code(),
        "unknown_field"
    );
    let blank = detect(&[("image", testdata_file("nonfaces/white.png"))]);
    assert_eq!(
        (blank.status, blank.body["faces"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let (ct, body) = multipart(&[
        ("source_image", testdata_file("nonfaces/white.png")),
        ("target_image", testdata_file("spoof/samples/live.jpg")),
    ]);
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/faces:compare"),
            Some(&key),
            Some(&ct),
            body
        )
        .code(),
        "no_face"
    );
    let (ct, body) = multipart(&[
        ("source_image", testdata_file("spoof/samples/live.jpg")),
        ("target_image", testdata_file("spoof/samples/live.jpg")),
        ("threshold", Part::Text("1.5".into())),
    ]);
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/faces:compare"),
            Some(&key),
            Some(&ct),
            body
        )
        .code(),
        "invalid_parameter"
    );
    // a 200 MB body is cut off at the request bound, never buffered
    let (ct, body) = multipart(&[
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
    ]);
    let huge = send(
        "POST",
        &url("/api/v2/faces:compare"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert!(huge.status == 413 || huge.status == 400, "{huge:?}");
    // collections and ids
    let (ct, body) = json_body(serde_json::json!({"external_id": "c1"}));
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/collections"),
            Some(&key),
            ct,
            body.clone()
        )
        .status,
        201
    );
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&key), ct, body).code(),
        "collection_already_exists"
    );
    let long = "x".repeat(300);
    for bad in [long.as_str(), "café", "a b"] {
        let (ct, body) = json_body(serde_json::json!({"external_id": bad}));
        assert_eq!(
            send("POST", &url("/api/v2/collections"), Some(&key), ct, body).code(),
            "invalid_identifier",
            "{bad}"
        );
    }
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/a%2Fb"),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "invalid_identifier"
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/a/b"),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "route_not_found"
    );
    let (ct, body) = json_body(serde_json::json!({"external_id": 5}));
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&key), ct, body).code(),
        "invalid_json"
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/missing"),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "collection_not_found"
    );
    let unknown_face = "01a200da-0000-7000-8000-000000000000";
    assert_eq!(
        send(
            "GET",
            &url(&format!("/api/v2/collections/c1/faces/{unknown_face}")),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "face_not_found"
    );
    assert_eq!(
        send(
            "POST",
            &url(&format!(
                "/api/v2/collections/c1/search-by-face/{unknown_face}"
            )),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "face_not_found"
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/c1/faces/not-a-uuid"),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "invalid_identifier"
    );
    for bad in ["0", "abc", "4097", "-1"] {
        let reply = send(
            "POST",
            &url(&format!(
                "/api/v2/collections/c1/search-by-face/{unknown_face}?max_faces={bad}"
            )),
            Some(&key),
            None,
            vec![],
        );
        assert_eq!(reply.code(), "invalid_parameter", "max_faces={bad}");
    }
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections?colour=blue"),
            Some(&key),
            None,
            vec![]
        )
        .code(),
        "unknown_parameter"
    );
    let (ct, body) = multipart(&[
        ("image", testdata_file("spoof/samples/live.jpg")),
        ("external_face_id", Part::Text("über".into())),
    ]);
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/collections/c1/faces"),
            Some(&key),
            Some(&ct),
            body
        )
        .code(),
        "invalid_identifier"
    );
}
