//! Black-box tests of the Face Services API against the real binary: the onboarding steps 5–7
//! of the spec on real photos, tenant isolation over HTTP, and every documented error code.

use facegate_blackbox_tests::{Part, create_key, multipart, send, start_server, testdata_file};

fn json(value: serde_json::Value) -> (Option<&'static str>, Vec<u8>) {
    (Some("application/json"), value.to_string().into_bytes())
}

#[test]
fn onboarding_compare_index_search_and_duplicate_flag() {
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    let url = |path: &str| format!("{}{path}", server.base_url);

    // Step 5: compare an ID-style photo with another photo of the same person, and of another.
    let (ct, body) = multipart(&[
        (
            "source_image",
            testdata_file("identities/celebs/id00/img1.jpg"),
        ),
        (
            "target_image",
            testdata_file("identities/celebs/id00/img11.jpg"),
        ),
    ]);
    let same = send(
        "POST",
        &url("/api/v2/faces:compare"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(same.status, 200, "{:?}", same.body);
    assert!(
        same.body["similarity"].as_f64().expect("similarity") > 0.65
            && same.body["is_match"] == true,
        "{:?}",
        same.body
    );
    let (ct, body) = multipart(&[
        (
            "reference",
            testdata_file("identities/celebs/id00/img1.jpg"),
        ),
        ("probe", testdata_file("identities/celebs/id01/img26.jpg")),
    ]);
    let other = send(
        "POST",
        &url("/api/v1/compare-faces"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(other.status, 200);
    assert_eq!(other.body["is_match"], false);
    assert_eq!(other.body["threshold"], 0.65);

    // Step 6: index one face per identity under its name.
    let (ct, body) =
        json(serde_json::json!({"external_id": "customers", "description": "KYC — clientèle"}));
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&key), ct, body).status,
        201
    );
    let people = [
        "amy",
        "bernadette",
        "howard",
        "leonard",
        "penny",
        "raj",
        "sheldon",
        "stuart",
    ];
    let mut face_ids = Vec::new();
    for person in people {
        let (ct, body) = multipart(&[
            (
                "image",
                testdata_file(&format!("identities/tv-cast/{person}/{person}1.png")),
            ),
            ("external_face_id", Part::Text(person.into())),
            ("quality_filter", Part::Text("none".into())),
        ]);
        let indexed = send(
            "POST",
            &url("/api/v2/collections/customers/faces"),
            Some(&key),
            Some(&ct),
            body,
        );
        assert_eq!(indexed.status, 201, "{person}: {:?}", indexed.body);
        face_ids.push(
            indexed.body["face_id"]
                .as_str()
                .expect("face_id")
                .to_owned(),
        );
    }

    // Step 7: search with each indexed face: the person first, nobody else above 0.5.
    for (person, face_id) in people.iter().zip(&face_ids) {
        let found = send(
            "POST",
            &url(&format!(
                "/api/v2/collections/customers/search-by-face/{face_id}?max_faces=8"
            )),
            Some(&key),
            None,
            vec![],
        );
        assert_eq!(found.status, 200);
        let hits = found.body["hits"].as_array().expect("hits");
        assert_eq!(hits[0]["external_face_id"], *person);
        assert!(
            hits.iter()
                .skip(1)
                .all(|h| h["similarity"].as_f64().unwrap_or(1.0) < 0.5),
            "{person}: {hits:?}"
        );
        assert!(
            hits.windows(2)
                .all(|w| w[0]["similarity"].as_f64() >= w[1]["similarity"].as_f64())
        );
    }

    // A second photo of an indexed person under another id is flagged as a possible duplicate.
    let (ct, body) = multipart(&[
        (
            "image",
            testdata_file("identities/tv-cast/penny/penny3.png"),
        ),
        ("external_face_id", Part::Text("new-customer-42".into())),
        ("quality_filter", Part::Text("none".into())),
    ]);
    let dup = send(
        "POST",
        &url("/api/v2/collections/customers/faces"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(dup.status, 201, "{:?}", dup.body);
    let dup_id = dup.body["face_id"].as_str().expect("face_id");
    let found = send(
        "POST",
        &url(&format!(
            "/api/v2/collections/customers/search-by-face/{dup_id}"
        )),
        Some(&key),
        None,
        vec![],
    );
    let flagged: Vec<_> = found.body["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .filter(|h| {
            h["external_face_id"] != "new-customer-42"
                && h["similarity"].as_f64().unwrap_or(0.0) > 0.5
        })
        .collect();
    assert_eq!(flagged.len(), 1, "{:?}", found.body);
    assert_eq!(flagged[0]["external_face_id"], "penny");

    // search by a new image does not index it
    let (ct, body) = multipart(&[("image", testdata_file("identities/tv-cast/raj/raj2.png"))]);
    let by_image = send(
        "POST",
        &url("/api/v2/collections/customers/search-by-image?max_faces=3"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(by_image.status, 200, "{:?}", by_image.body);
    assert_eq!(by_image.body["hits"][0]["external_face_id"], "raj");
    let collection = send(
        "GET",
        &url("/api/v2/collections/customers"),
        Some(&key),
        None,
        vec![],
    );
    assert_eq!(collection.body["face_count"], 9);

    // delete a face: gone from search at once
    assert_eq!(
        send(
            "DELETE",
            &url(&format!("/api/v2/collections/customers/faces/{dup_id}")),
            Some(&key),
            None,
            vec![]
        )
        .status,
        204
    );
    let after = send(
        "POST",
        &url(&format!(
            "/api/v2/collections/customers/search-by-face/{}",
            face_ids[4]
        )),
        Some(&key),
        None,
        vec![],
    );
    assert!(
        after.body["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .all(|h| h["face_id"] != dup_id)
    );
}

#[test]
fn tenants_are_isolated_over_http() {
    let server = start_server(&[]);
    let (a, b) = (
        create_key(&server, "tenant-a"),
        create_key(&server, "tenant-b"),
    );
    let url = |path: &str| format!("{}{path}", server.base_url);
    let (ct, body) = json(serde_json::json!({"external_id": "shared-name"}));
    assert_eq!(
        send(
            "POST",
            &url("/api/v2/collections"),
            Some(&a),
            ct,
            body.clone()
        )
        .status,
        201
    );
    let (ct2, body2) = multipart(&[
        ("image", testdata_file("identities/tv-cast/amy/amy1.png")),
        ("external_face_id", Part::Text("amy".into())),
    ]);
    let face = send(
        "POST",
        &url("/api/v2/collections/shared-name/faces"),
        Some(&a),
        Some(&ct2),
        body2,
    );
    let face_id = face.body["face_id"].as_str().expect("face id").to_owned();
    // b cannot see, search or delete a's collection and face
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/shared-name"),
            Some(&b),
            None,
            vec![]
        )
        .code(),
        "collection_not_found"
    );
    assert_eq!(
        send(
            "POST",
            &url(&format!(
                "/api/v2/collections/shared-name/search-by-face/{face_id}"
            )),
            Some(&b),
            None,
            vec![]
        )
        .code(),
        "collection_not_found"
    );
    assert_eq!(
        send(
            "DELETE",
            &url("/api/v2/collections/shared-name"),
            Some(&b),
            None,
            vec![]
        )
        .status,
        404
    );
    assert_eq!(
        send("GET", &url("/api/v2/collections"), Some(&b), None, vec![]).body["collections"]
            .as_array()
            .map(Vec::len),
        Some(0)
    );
    // the same external_id under b is its own collection
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&b), ct, body).status,
        201
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/shared-name"),
            Some(&b),
            None,
            vec![]
        )
        .body["face_count"],
        0
    );
    assert_eq!(
        send(
            "GET",
            &url("/api/v2/collections/shared-name"),
            Some(&a),
            None,
            vec![]
        )
        .body["face_count"],
        1
    );
}

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
    let (ct, body) = json(serde_json::json!({"external_id": "c1"}));
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
        let (ct, body) = json(serde_json::json!({"external_id": bad}));
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
    let (ct, body) = json(serde_json::json!({"external_id": 5}));
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
