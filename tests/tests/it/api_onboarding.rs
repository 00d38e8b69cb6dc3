//! The spec's onboarding steps 5–7 against the real binary on real photos: compare, index,
//! search, and the possible-duplicate flag.

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
const FACES: &str = "/api/v2/collections/customers/faces";

#[test]
fn onboarding_compare_index_search_and_duplicate_flag() {
    let server = start_server(&[]);
    let api = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "bank"),
    };
    step_5_compare_matches_the_same_person_only(&api);
    let face_ids = step_6_index_one_face_per_person(&api);
    step_7_search_finds_each_person_first(&api, &face_ids);
    let duplicate = a_second_photo_under_another_id_is_flagged(&api);
    search_by_image_finds_without_indexing(&api);
    a_deleted_face_leaves_search_at_once(&api, &duplicate, &face_ids[4]);
}

/// An ID-style photo against another photo of the same person, and of another.
fn step_5_compare_matches_the_same_person_only(api: &Api) {
    let same = api.post_form(
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
        ],
    );
    assert_eq!(same.status, 200, "{:?}", same.body);
    assert!(
        same.body["similarity"].as_f64().expect("similarity") > 0.65
            && same.body["is_match"] == true,
        "{:?}",
        same.body
    );
    let other = api.post_form(
        "/api/v1/compare-faces",
        &[
            (
                "reference",
                testdata_file("identities/celebs/id00/img1.jpg"),
            ),
            ("probe", testdata_file("identities/celebs/id01/img26.jpg")),
        ],
    );
    assert_eq!(other.status, 200);
    assert_eq!(other.body["is_match"], false);
    assert_eq!(other.body["threshold"], 0.65);
}

/// Indexes `photo` as `external_face_id` and returns its face id.
fn index(api: &Api, photo: &str, external_face_id: &str) -> String {
    let indexed = api.post_form(
        FACES,
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

fn step_6_index_one_face_per_person(api: &Api) -> Vec<String> {
    let collection =
        serde_json::json!({"external_id": "customers", "description": "KYC — clientèle"});
    assert_eq!(api.post_json("/api/v2/collections", collection).status, 201);
    PEOPLE
        .iter()
        .map(|person| {
            index(
                api,
                &format!("identities/tv-cast/{person}/{person}1.png"),
                person,
            )
        })
        .collect()
}

/// Search with each indexed face: the person first, nobody else above 0.5, best first.
fn step_7_search_finds_each_person_first(api: &Api, face_ids: &[String]) {
    for (person, face_id) in PEOPLE.iter().zip(face_ids) {
        let found = api.post(&format!(
            "/api/v2/collections/customers/search-by-face/{face_id}?max_faces=8"
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
fn a_second_photo_under_another_id_is_flagged(api: &Api) -> String {
    let duplicate = index(
        api,
        "identities/tv-cast/penny/penny3.png",
        "new-customer-42",
    );
    let found = api.post(&format!(
        "/api/v2/collections/customers/search-by-face/{duplicate}"
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
    assert_eq!(flagged.len(), 1, "{:?}", found.body);
    assert_eq!(flagged[0]["external_face_id"], "penny");
    duplicate
}

fn search_by_image_finds_without_indexing(api: &Api) {
    let by_image = api.post_form(
        "/api/v2/collections/customers/search-by-image?max_faces=3",
        &[("image", testdata_file("identities/tv-cast/raj/raj2.png"))],
    );
    assert_eq!(by_image.status, 200, "{:?}", by_image.body);
    assert_eq!(by_image.body["hits"][0]["external_face_id"], "raj");
    let collection = api.get("/api/v2/collections/customers");
    assert_eq!(
        collection.body["face_count"], 9,
        "8 people and the duplicate"
    );
}

fn a_deleted_face_leaves_search_at_once(api: &Api, deleted: &str, searched_with: &str) {
    assert_eq!(api.delete(&format!("{FACES}/{deleted}")).status, 204);
    let after = api.post(&format!(
        "/api/v2/collections/customers/search-by-face/{searched_with}"
    ));
    assert!(
        after.body["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .all(|h| h["face_id"] != deleted)
    );
}
