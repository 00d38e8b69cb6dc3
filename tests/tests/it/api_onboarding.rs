//! The spec's onboarding steps 5–7 against the real binary on real photos: compare, index,
//! search, and the possible-duplicate flag, with each face model (issue 68): the same
//! thresholds hold for both, as their calibrations promise.

use facegate_blackbox_tests::{Api, Part, create_key, start_server, testdata_file};

const PEOPLE: [&str; 8] = [
    "amy",
    "bernadette",
    "howard",
    "leonard",
    "penny",
    "raj",
    "sheldon",
    "stuart",
];
/// The face models, as the API names them; `None` is a request that names none (the default,
/// `sface`).
const MODELS: [Option<&str>; 3] = [Some("fr_feature"), Some("sface"), None];

#[test]
fn onboarding_compare_index_search_and_duplicate_flag() {
    let server = start_server(&[]);
    let api = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "bank"),
    };
    for model in MODELS {
        let collection = format!("customers-{}", model.unwrap_or("default"));
        step_5_compare_matches_the_same_person_only(&api, model);
        let face_ids = step_6_index_one_face_per_person(&api, &collection, model);
        step_7_search_finds_each_person_first(&api, &collection, &face_ids);
        let duplicate = a_second_photo_under_another_id_is_flagged(&api, &collection);
        search_by_image_finds_without_indexing(&api, &collection);
        a_deleted_face_leaves_search_at_once(&api, &collection, &duplicate, &face_ids[4]);
    }
    an_unknown_face_model_is_refused_with_the_list(&api);
}

/// The form's fields, with `face_model` when one is named.
fn with_model<'a>(mut parts: Vec<(&'a str, Part)>, model: Option<&str>) -> Vec<(&'a str, Part)> {
    if let Some(model) = model {
        parts.push(("face_model", Part::Text(model.into())));
    }
    parts
}

/// An ID-style photo against another photo of the same person, and of another.
fn step_5_compare_matches_the_same_person_only(api: &Api, model: Option<&str>) {
    let same = api.post_form(
        "/api/v2/faces:compare",
        &with_model(
            vec![
                (
                    "source_image",
                    testdata_file("identities/celebs/id00/img1.jpg"),
                ),
                (
                    "target_image",
                    testdata_file("identities/celebs/id00/img11.jpg"),
                ),
            ],
            model,
        ),
    );
    assert_eq!(same.status, 200, "{:?}", same.body);
    assert!(
        same.body["similarity"].as_f64().expect("similarity") > 0.65
            && same.body["is_match"] == true,
        "{model:?}: {:?}",
        same.body
    );
    assert_eq!(same.body["face_model"], model.unwrap_or("sface"));
    let other = api.post_form(
        "/api/v1/compare-faces",
        &with_model(
            vec![
                (
                    "reference",
                    testdata_file("identities/celebs/id00/img1.jpg"),
                ),
                ("probe", testdata_file("identities/celebs/id01/img26.jpg")),
            ],
            model,
        ),
    );
    assert_eq!(other.status, 200);
    assert_eq!(other.body["is_match"], false, "{model:?}: {:?}", other.body);
    assert_eq!(other.body["threshold"], 0.65);
}

/// Indexes `photo` as `external_face_id` and returns its face id.
fn index(api: &Api, collection: &str, photo: &str, external_face_id: &str) -> String {
    let indexed = api.post_form(
        &format!("/api/v2/collections/{collection}/faces"),
        &[
            ("image", testdata_file(photo)),
            ("external_face_id", Part::Text(external_face_id.into())),
            ("quality_filter", Part::Text("none".into())),
        ],
    );
    assert_eq!(indexed.status, 201, "{photo}: {:?}", indexed.body);
    indexed.body["face_id"]
        .as_str()
        .expect("face_id")
        .to_owned()
}

fn step_6_index_one_face_per_person(
    api: &Api,
    collection: &str,
    model: Option<&str>,
) -> Vec<String> {
    let mut body = serde_json::json!({"external_id": collection, "description": "KYC — clientèle"});
    if let Some(model) = model {
        body["face_model"] = model.into();
    }
    let created = api.post_json("/api/v2/collections", body);
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["face_model"], model.unwrap_or("sface"));
    PEOPLE
        .iter()
        .map(|person| {
            index(
                api,
                collection,
                &format!("identities/tv-cast/{person}/{person}1.png"),
                person,
            )
        })
        .collect()
}

/// Search with each indexed face: the person first, nobody else above 0.5, best first.
fn step_7_search_finds_each_person_first(api: &Api, collection: &str, face_ids: &[String]) {
    for (person, face_id) in PEOPLE.iter().zip(face_ids) {
        let found = api.post(&format!(
            "/api/v2/collections/{collection}/search-by-face/{face_id}?max_faces=8"
        ));
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
}

/// A second photo of an indexed person under another id: the one other face above 0.5 is
/// hers. Returns the new face's id.
fn a_second_photo_under_another_id_is_flagged(api: &Api, collection: &str) -> String {
    let duplicate = index(
        api,
        collection,
        "identities/tv-cast/penny/penny3.png",
        "new-customer-42",
    );
    let found = api.post(&format!(
        "/api/v2/collections/{collection}/search-by-face/{duplicate}"
    ));
    let flagged: Vec<_> = found.body["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .filter(|h| {
            h["external_face_id"] != "new-customer-42"
                && h["similarity"].as_f64().unwrap_or(0.0) > 0.5
        })
        .collect();
    assert_eq!(flagged.len(), 1, "{collection}: {:?}", found.body);
    assert_eq!(flagged[0]["external_face_id"], "penny");
    duplicate
}

fn search_by_image_finds_without_indexing(api: &Api, collection: &str) {
    let by_image = api.post_form(
        &format!("/api/v2/collections/{collection}/search-by-image?max_faces=3"),
        &[("image", testdata_file("identities/tv-cast/raj/raj2.png"))],
    );
    assert_eq!(by_image.status, 200, "{:?}", by_image.body);
    assert_eq!(by_image.body["hits"][0]["external_face_id"], "raj");
    let read = api.get(&format!("/api/v2/collections/{collection}"));
    assert_eq!(read.body["face_count"], 9, "8 people and the duplicate");
}

fn a_deleted_face_leaves_search_at_once(
    api: &Api,
    collection: &str,
    deleted: &str,
    searched_with: &str,
) {
    let faces = format!("/api/v2/collections/{collection}/faces");
    assert_eq!(api.delete(&format!("{faces}/{deleted}")).status, 204);
    let after = api.post(&format!(
        "/api/v2/collections/{collection}/search-by-face/{searched_with}"
    ));
    assert!(
        after.body["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .all(|h| h["face_id"] != deleted)
    );
}

/// A collection or a compare naming a model that does not exist: 400 `invalid_face_model`,
/// the message listing the models, and nothing created.
fn an_unknown_face_model_is_refused_with_the_list(api: &Api) {
    let refused = api.post_json(
        "/api/v2/collections",
        serde_json::json!({"external_id": "arcface-people", "face_model": "arcface"}),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(refused.body["error"]["code"], "invalid_face_model");
    let message = refused.body["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("fr_feature") && message.contains("sface"),
        "{message}"
    );
    assert_eq!(api.get("/api/v2/collections/arcface-people").status, 404);
    let compare = api.post_form(
        "/api/v2/faces:compare",
        &[
            (
                "source_image",
                testdata_file("identities/celebs/id00/img1.jpg"),
            ),
            (
                "target_image",
                testdata_file("identities/celebs/id00/img11.jpg"),
            ),
            ("face_model", Part::Text("SFace".into())),
        ],
    );
    assert_eq!(compare.status, 400);
    assert_eq!(compare.body["error"]["code"], "invalid_face_model");
}
