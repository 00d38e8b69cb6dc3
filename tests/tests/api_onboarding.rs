//! The spec's onboarding steps 5–7 against the real binary on real photos: compare, index,
//! search, and the possible-duplicate flag.

use facegate_blackbox_tests::{
    Part, create_key, json_body, multipart, send, start_server, testdata_file,
};

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
    let (ct, body) = json_body(
        serde_json::json!({"external_id": "customers", "description": "KYC — clientèle"}),
    );
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
