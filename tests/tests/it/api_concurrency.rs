//! Deleting while searching, over HTTP against the real binary: searches racing the deletion
//! of their faces and of the whole collection answer 200 or a clean 404, never a 500, and
//! nothing of the deleted collection survives.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use facegate_blackbox_tests::{Api, Part, create_key, start_server, testdata_file};

const PEOPLE: [&str; 6] = ["amy", "bernadette", "howard", "leonard", "penny", "raj"];

#[test]
fn delete_during_search_never_answers_500_and_leaves_nothing_behind() {
    let server = start_server(&[]);
    let api = Api {
        base_url: server.base_url.clone(),
        key: create_key(&server, "racing"),
    };
    let face_ids = index_three_photos_of_each_person(&api);
    let stop = Arc::new(AtomicBool::new(false));
    let searchers: Vec<_> = (0..4)
        .map(|worker| search_until_after_the_delete(&api, &face_ids, worker, stop.clone()))
        .collect();
    // delete faces one by one while the searches run, then the collection
    for face in &face_ids[..9] {
        let reply = api.delete(&format!("/api/v2/collections/race/faces/{face}"));
        assert_eq!(reply.status, 204, "{:?}", reply.body);
    }
    let reply = api.delete("/api/v2/collections/race");
    assert_eq!(reply.status, 204, "{:?}", reply.body);
    stop.store(true, Ordering::Relaxed);
    every_racing_search_answered_200_or_a_clean_404(searchers);
    a_new_collection_of_the_same_name_starts_empty(&api);
}

fn index_three_photos_of_each_person(api: &Api) -> Vec<String> {
    let race = serde_json::json!({"external_id": "race"});
    assert_eq!(api.post_json("/api/v2/collections", race).status, 201);
    let mut face_ids = Vec::new();
    for person in PEOPLE {
        for n in 1..=3 {
            let reply = api.post_form(
                "/api/v2/collections/race/faces",
                &[
                    (
                        "image",
                        testdata_file(&format!("identities/tv-cast/{person}/{person}{n}.png")),
                    ),
                    ("external_face_id", Part::Text(format!("{person}-{n}"))),
                    ("quality_filter", Part::Text("none".into())),
                ],
            );
            assert_eq!(reply.status, 201, "{:?}", reply.body);
            face_ids.push(reply.body["face_id"].as_str().expect("id").to_owned());
        }
    }
    face_ids
}

/// A thread that searches by the indexed faces in turn until three searches have run after
/// `stop`; it returns every answer's status and code.
fn search_until_after_the_delete(
    api: &Api,
    face_ids: &[String],
    worker: usize,
    stop: Arc<AtomicBool>,
) -> JoinHandle<Vec<(u16, String)>> {
    let (api, face_ids) = (api.clone(), face_ids.to_vec());
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let (mut round, mut after_delete) = (0, 0);
        while after_delete < 3 {
            if stop.load(Ordering::Relaxed) {
                after_delete += 1;
            }
            let face = &face_ids[(worker * 7 + round) % face_ids.len()];
            let reply = api.post(&format!(
                "/api/v2/collections/race/search-by-face/{face}?max_faces=50"
            ));
            seen.push((reply.status, reply.code().to_owned()));
            round += 1;
        }
        seen
    })
}

fn every_racing_search_answered_200_or_a_clean_404(searchers: Vec<JoinHandle<Vec<(u16, String)>>>) {
    let mut statuses = std::collections::BTreeMap::new();
    for searcher in searchers {
        for (status, code) in searcher.join().expect("searcher") {
            assert!(
                status == 200
                    || (status == 404
                        && (code == "collection_not_found" || code == "face_not_found")),
                "a search racing deletes answered {status} {code}"
            );
            *statuses.entry(status).or_insert(0) += 1;
        }
    }
    assert!(statuses.get(&404).is_some_and(|n| *n > 0), "{statuses:?}");
    eprintln!("search replies while deleting: {statuses:?}");
}

/// No face or vector of the deleted collection survived.
fn a_new_collection_of_the_same_name_starts_empty(api: &Api) {
    let race = serde_json::json!({"external_id": "race"});
    assert_eq!(api.post_json("/api/v2/collections", race).status, 201);
    let reply = api.post_form(
        "/api/v2/collections/race/search-by-image",
        &[("image", testdata_file("identities/tv-cast/amy/amy1.png"))],
    );
    assert_eq!(reply.status, 200, "{:?}", reply.body);
    assert_eq!(reply.body["hits"].as_array().map(Vec::len), Some(0));
    let reply = api.get("/api/v2/collections/race");
    assert_eq!(reply.body["face_count"].as_u64(), Some(0));
}
