//! Deleting while searching, over HTTP against the real binary: searches racing the deletion
//! of their faces and of the whole collection answer 200 or a clean 404, never a 500, and
//! nothing of the deleted collection survives.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use facegate_blackbox_tests::{
    Part, create_key, json_body, multipart, send, start_server, testdata_file,
};

const PEOPLE: [&str; 6] = ["amy", "bernadette", "howard", "leonard", "penny", "raj"];

#[test]
fn delete_during_search_never_answers_500_and_leaves_nothing_behind() {
    let server = start_server(&[]);
    let key = create_key(&server, "racing");
    let base = server.base_url.clone();
    let url = |path: &str| format!("{base}{path}");
    let (ct, body) = json_body(serde_json::json!({"external_id": "race"}));
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&key), ct, body).status,
        201
    );
    let mut face_ids = Vec::new();
    for person in PEOPLE {
        for n in 1..=3 {
            let (ct, body) = multipart(&[
                (
                    "image",
                    testdata_file(&format!("identities/tv-cast/{person}/{person}{n}.png")),
                ),
                ("external_face_id", Part::Text(format!("{person}-{n}"))),
                ("quality_filter", Part::Text("none".into())),
            ]);
            let reply = send(
                "POST",
                &url("/api/v2/collections/race/faces"),
                Some(&key),
                Some(&ct),
                body,
            );
            assert_eq!(reply.status, 201, "{:?}", reply.body);
            face_ids.push(reply.body["face_id"].as_str().expect("id").to_owned());
        }
    }

    let stop = Arc::new(AtomicBool::new(false));
    let searchers: Vec<_> = (0..4)
        .map(|worker| {
            let (stop, key, base) = (stop.clone(), key.clone(), base.clone());
            let face_ids = face_ids.clone();
            std::thread::spawn(move || {
                let mut seen = Vec::new();
                let (mut round, mut after_delete) = (0, 0);
                // keep searching until three searches have run after the collection is gone
                while after_delete < 3 {
                    if stop.load(Ordering::Relaxed) {
                        after_delete += 1;
                    }
                    let face = &face_ids[(worker * 7 + round) % face_ids.len()];
                    let reply = send(
                        "POST",
                        &format!(
                            "{base}/api/v2/collections/race/search-by-face/{face}?max_faces=50"
                        ),
                        Some(&key),
                        None,
                        vec![],
                    );
                    seen.push((reply.status, reply.code().to_owned()));
                    round += 1;
                }
                seen
            })
        })
        .collect();
    // delete faces one by one while the searches run, then the collection
    for face in &face_ids[..9] {
        let reply = send(
            "DELETE",
            &url(&format!("/api/v2/collections/race/faces/{face}")),
            Some(&key),
            None,
            vec![],
        );
        assert_eq!(reply.status, 204, "{:?}", reply.body);
    }
    let reply = send(
        "DELETE",
        &url("/api/v2/collections/race"),
        Some(&key),
        None,
        vec![],
    );
    assert_eq!(reply.status, 204, "{:?}", reply.body);
    stop.store(true, Ordering::Relaxed);

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

    // a new collection of the same name starts empty: no face or vector survived
    let (ct, body) = json_body(serde_json::json!({"external_id": "race"}));
    assert_eq!(
        send("POST", &url("/api/v2/collections"), Some(&key), ct, body).status,
        201
    );
    let (ct, body) = multipart(&[("image", testdata_file("identities/tv-cast/amy/amy1.png"))]);
    let reply = send(
        "POST",
        &url("/api/v2/collections/race/search-by-image"),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(reply.status, 200, "{:?}", reply.body);
    assert_eq!(reply.body["hits"].as_array().map(Vec::len), Some(0));
    let reply = send(
        "GET",
        &url("/api/v2/collections/race"),
        Some(&key),
        None,
        vec![],
    );
    assert_eq!(reply.body["face_count"].as_u64(), Some(0));
}
