//! In-process tests of the detect and compare routes (v2 and v1) through actix's full
//! service stack, with the real models and photos from `../shared/testdata`.

use std::collections::BTreeSet;

use actix_web::test;
use common::{Part, code, fixture, form, request, testdata};
use serde_json::Value;

use crate::common;

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
