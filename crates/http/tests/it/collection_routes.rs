//! In-process tests of the collection, face and search routes: create, list with paging,
//! get, delete, index, search by face and by image, bad parameters and tenant isolation.

use actix_web::test;
use common::{Part, code, fixture, form, json, request, testdata};
use serde_json::Value;

use crate::common;

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
