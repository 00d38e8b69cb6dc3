//! `limits.max_image_pixels` holds on every route that reads an uploaded image, through the
//! app the binary serves: detect, both compares, index, search by image and
//! compare-with-session answer 413 `image_too_many_pixels` for a photo over the limit.

use actix_web::test;
use common::{Part, code, fixture_with, form, request, testdata};
use serde_json::Value;
use services::{sessions, storage};

use crate::common;

/// Fewer pixels than any shared test photo has.
const LIMIT: u64 = 10_000;

#[actix_web::test]
async fn every_upload_route_refuses_an_image_over_the_pixel_limit() {
    let f = fixture_with(|settings| settings.limits.max_image_pixels = LIMIT);
    let store = f.store.clone();
    let app = app!(f);
    let photo = testdata("identities/tv-cast/amy/amy1.png");
    let (status, _) = call!(
        app,
        "POST",
        "/api/v2/collections",
        Some(&f.key),
        common::json(serde_json::json!({"external_id": "limits"}))
    );
    assert_eq!(status, 201);
    // a session that passed, with a portrait, so compare-with-session reads its probe
    let created = f
        .sessions
        .create_managed(
            store.ensure_tenant("routes").expect("tenant").id,
            sessions::create::ManagedSessionRequest::default(),
        )
        .expect("session");
    let portrait = testdata("identities/johns/John_Salley/000179_02159509.jpg");
    store
        .complete_session(
            created.session.id,
            &storage::sessions::SessionOutcome {
                verdict: domain::Verdict::Pass,
                confidence: 0.9,
                layers_json: "{}".into(),
                photo: Some((portrait, 0.9)),
                face_match: None,
                audit_frames: Vec::new(),
            },
            None,
        )
        .expect("completed");
    let session = created.session.id.to_string();
    let routes: [(&str, Vec<(&str, Part<'_>)>); 6] = [
        ("/api/v2/faces:detect", vec![("image", Part::File(&photo))]),
        (
            "/api/v2/faces:compare",
            vec![
                ("source_image", Part::File(&photo)),
                ("target_image", Part::File(&photo)),
            ],
        ),
        (
            "/api/v1/compare-faces",
            vec![
                ("reference", Part::File(&photo)),
                ("probe", Part::File(&photo)),
            ],
        ),
        (
            "/api/v2/collections/limits/faces",
            vec![
                ("image", Part::File(&photo)),
                ("external_face_id", Part::Text("amy")),
            ],
        ),
        (
            "/api/v2/collections/limits/search-by-image",
            vec![("image", Part::File(&photo))],
        ),
        (
            "/api/v1/compare-with-session",
            vec![
                ("probe", Part::File(&photo)),
                ("session_id", Part::Text(&session)),
            ],
        ),
    ];
    for (uri, fields) in routes {
        let (status, body) = call!(app, "POST", uri, Some(&f.key), form(&fields));
        assert_eq!(
            (status, code(&body)),
            (413, "image_too_many_pixels"),
            "{uri}: {body}"
        );
    }
}
