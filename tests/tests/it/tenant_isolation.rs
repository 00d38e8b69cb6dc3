//! Tenant isolation for every resource, black-box on SQLite and on PostgreSQL: tenant A owns a
//! collection with a face, a passed session with its portrait and a delivered webhook; tenant B
//! tries every route on each of them with its own key and with its own session's token. Every
//! try is refused exactly as a resource that never existed is refused (same status, same code),
//! and afterwards A's resources are all still there and unchanged.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    Backend, Part, Reply, Server, backends, create_key, create_managed_session, get, json_body,
    multipart, send, start_webhook_server_on, testdata_file,
};
use serde_json::{Value, json};

/// What tenant A owns.
struct Owned {
    key: String,
    face_id: String,
    session_id: String,
    token: String,
}

fn index_face(server: &Server, key: &str, collection: &str, photo: &str, external: &str) -> String {
    let (ct, body) = json_body(json!({ "external_id": collection }));
    let url = format!("{}/api/v2/collections", server.base_url);
    assert_eq!(send("POST", &url, Some(key), ct, body).status, 201);
    let (ct, body) = multipart(&[
        ("image", testdata_file(photo)),
        ("external_face_id", Part::Text(external.into())),
    ]);
    let url = format!("{}/api/v2/collections/{collection}/faces", server.base_url);
    let face = send("POST", &url, Some(key), Some(&ct), body);
    assert_eq!(face.status, 201, "{:?}", face.body);
    face.body["face_id"].as_str().expect("face id").to_owned()
}

fn tenant_a(server: &Server, receiver: &HttpsReceiver) -> Owned {
    let key = create_key(server, "bank-a");
    let face_id = index_face(
        server,
        &key,
        "vip",
        "identities/tv-cast/amy/amy1.png",
        "amy",
    );
    let created = create_managed_session(
        server,
        &key,
        json!({
            "mode": "passive",
            "webhook_url": format!("https://127.0.0.1:{}/hook", receiver.port),
        }),
    );
    let session_id = created["session_id"].as_str().expect("id").to_owned();
    let token = created["token"].as_str().expect("token").to_owned();
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    // a lit session's verdict is that of a server that keeps up: one at a time
    let _turn = live::exclusive_lit_sessions();
    let mut socket = live::open(&server.base_url, &session_id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 301),
    );
    let verdict = outcome.verdict().cloned().unwrap_or_default();
    assert_eq!(verdict["verdict"], "pass", "{:?}", outcome.messages);
    assert_eq!(receiver.wait_for(1, Duration::from_secs(30)).len(), 1);
    Owned {
        key,
        face_id,
        session_id,
        token,
    }
}

/// One request as tenant B would send it.
struct Try {
    method: &'static str,
    path: String,
    key: Option<String>,
    body: Option<(String, Vec<u8>)>,
}

impl Try {
    fn send(&self, server: &Server) -> Reply {
        let url = format!("{}{}", server.base_url, self.path);
        let (ct, body) = self.body.clone().unzip();
        send(
            self.method,
            &url,
            self.key.as_deref(),
            ct.as_deref(),
            body.unwrap_or_default(),
        )
    }
}

fn probe() -> (String, Vec<u8>) {
    multipart(&[("image", testdata_file("identities/tv-cast/amy/amy2.png"))])
}

/// Every route that names one of A's resources, as B sends it; `face`, `session` and `token`
/// are A's (the probe) or never issued (the control).
fn tries(b_key: &str, face: &str, session: &str, token: &str) -> Vec<Try> {
    let key = || Some(b_key.to_owned());
    let mut out = vec![
        ("GET", "/api/v2/collections/vip".to_owned()),
        ("DELETE", "/api/v2/collections/vip".to_owned()),
        ("GET", "/api/v2/collections/vip/faces".to_owned()),
        ("GET", format!("/api/v2/collections/vip/faces/{face}")),
        ("DELETE", format!("/api/v2/collections/vip/faces/{face}")),
        (
            "POST",
            format!("/api/v2/collections/vip/search-by-face/{face}"),
        ),
        ("GET", format!("/api/v2/collections/own/faces/{face}")),
        ("DELETE", format!("/api/v2/collections/own/faces/{face}")),
        (
            "POST",
            format!("/api/v2/collections/own/search-by-face/{face}"),
        ),
        ("GET", format!("/api/v1/session/{session}/result")),
        ("GET", format!("/api/v1/session/{session}/photo")),
        (
            "GET",
            format!("/api/v1/session/{session}/webhook-deliveries"),
        ),
    ]
    .into_iter()
    .map(|(method, path)| Try {
        method,
        path,
        key: key(),
        body: None,
    })
    .collect::<Vec<_>>();
    out.push(Try {
        method: "POST",
        path: "/api/v2/collections/vip/search-by-image".into(),
        key: key(),
        body: Some(probe()),
    });
    let (ct, index) = multipart(&[
        ("image", testdata_file("identities/tv-cast/amy/amy2.png")),
        ("external_face_id", Part::Text("planted".into())),
    ]);
    out.push(Try {
        method: "POST",
        path: "/api/v2/collections/vip/faces".into(),
        key: key(),
        body: Some((ct, index)),
    });
    let (ct, compare) = multipart(&[
        ("session_id", Part::Text(session.into())),
        ("probe", testdata_file("identities/tv-cast/amy/amy2.png")),
    ]);
    out.push(Try {
        method: "POST",
        path: "/api/v1/compare-with-session".into(),
        key: key(),
        body: Some((ct, compare)),
    });
    // B's own session token on A's session, with no key
    for path in [
        format!("/api/v1/session/{session}/result?token={token}"),
        format!("/api/v1/session/{session}/photo?token={token}"),
    ] {
        out.push(Try {
            method: "GET",
            path,
            key: None,
            body: None,
        });
    }
    out
}

fn battery(backend: Backend) {
    let ca = TestCa::new();
    let receiver = HttpsReceiver::start(&ca, 0, |_| 200);
    let mut server = start_webhook_server_on(backend, &ca);
    let a = tenant_a(&server, &receiver);
    let b_key = create_key(&server, "bank-b");
    index_face(
        &server,
        &b_key,
        "own",
        "identities/tv-cast/penny/penny1.png",
        "penny",
    );
    let b_session = create_managed_session(&server, &b_key, json!({"mode": "passive"}));
    let b_token = b_session["token"].as_str().expect("token");

    let never_face = "3f0c1d9e-0000-4000-8000-000000000000";
    let never_session = "5b6a7c8d-0000-4000-8000-000000000000";
    let probes = tries(&b_key, &a.face_id, &a.session_id, b_token);
    let controls = tries(&b_key, never_face, never_session, b_token);
    // a collection that never existed has a different name, so "vip" is checked by a control
    // that A's collection does not shadow: B's view of "vip" must equal B's view of "absent"
    let mut tried = 0;
    for (probe, control) in probes.iter().zip(&controls) {
        let refused = probe.send(&server);
        let mut control = Try {
            method: control.method,
            path: control.path.replace("/vip", "/absent"),
            key: control.key.clone(),
            body: control.body.clone(),
        }
        .send(&server);
        if probe.path.contains("/own/") {
            // B's own collection exists in both; only the face is A's or never issued
            control = Try {
                method: probe.method,
                path: probe.path.replace(&a.face_id, never_face),
                key: probe.key.clone(),
                body: None,
            }
            .send(&server);
        }
        tried += 2;
        assert!(
            refused.status == 404
                && (refused.status, refused.code()) == (control.status, control.code()),
            "{} {} on {}: {} {:?}, a resource that never existed: {} {:?}",
            probe.method,
            probe.path,
            backend.name(),
            refused.status,
            refused.body,
            control.status,
            control.body
        );
    }
    let listed = get(
        &format!("{}/api/v2/collections", server.base_url),
        Some(&b_key),
    );
    let names: Vec<&Value> = listed.body["collections"]
        .as_array()
        .expect("collections")
        .iter()
        .map(|c| &c["external_id"])
        .collect();
    assert_eq!(names, [&json!("own")], "B lists only its own collection");
    tried += 1;

    assert_a_unchanged(&server, &a);
    server.assert_battery_survived(
        &format!("tenant isolation on {}", backend.name()),
        tried,
        512,
    );
}

fn assert_a_unchanged(server: &Server, a: &Owned) {
    let base = &server.base_url;
    let key = Some(a.key.as_str());
    let vip = get(&format!("{base}/api/v2/collections/vip"), key);
    assert_eq!(vip.body["face_count"], 1, "{:?}", vip.body);
    let face = get(
        &format!("{base}/api/v2/collections/vip/faces/{}", a.face_id),
        key,
    );
    assert_eq!(face.body["external_face_id"], "amy");
    let search = send(
        "POST",
        &format!("{base}/api/v2/collections/vip/search-by-face/{}", a.face_id),
        key,
        None,
        Vec::new(),
    );
    assert_eq!(search.body["hits"][0]["face_id"], a.face_id.as_str());
    let result = get(
        &format!("{base}/api/v1/session/{}/result", a.session_id),
        key,
    );
    assert_eq!(result.body["verdict"], "pass");
    let photo = get(
        &format!(
            "{base}/api/v1/session/{}/photo?token={}",
            a.session_id, a.token
        ),
        None,
    );
    assert_eq!(photo.status, 200);
    let deliveries = get(
        &format!("{base}/api/v1/session/{}/webhook-deliveries", a.session_id),
        key,
    );
    assert_eq!(deliveries.body["deliveries"][0]["status"], "delivered");
}

#[test]
fn no_tenant_reaches_another_tenants_resources_on_either_backend() {
    for backend in backends() {
        battery(backend);
    }
}
