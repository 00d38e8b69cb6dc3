//! The verification web UI in real Chromium (Debian's), with fake cameras playing real
//! footage: a passive session on the product's defaults passes from the page through the
//! redirect, the backend's read and the signed webhook, the page showing the server's light
//! sequence and the rendering camera answering it; a still photo fails; camera failures and a
//! dropped socket each get their own screen; dead links and finished sessions never ask for
//! the camera; axe-core finds no serious or critical violation on any screen, and the page
//! logs no CSP violation.

use std::time::Duration;

use facegate_blackbox_tests::browser::{
    assert_accessible, assert_light_sequence_shown, assert_no_console_errors, assert_page_passed,
    exclusive_browser, lit_canvas_camera, photo_camera, run_scenario, screenshot_dir, video_camera,
};
use facegate_blackbox_tests::live;
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    Server, cli, create_key, create_managed_session, id_and_token, session_result, start_server,
};
use serde_json::json;

const REDIRECT: &str = "https://bank.example/onboarding/done";

#[test]
fn a_passive_session_passes_in_chromium_through_redirect_result_and_webhook() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let ca = TestCa::new();
    let receiver = HttpsReceiver::start(&ca, 0, |_| 200);
    // the page's flow end to end on the product's defaults, the light check on (with a
    // seeded sequence): the rendering camera plays real footage and throws the light of the
    // colours the page shows onto the face
    let server = facegate_blackbox_tests::start_server_on(
        facegate_blackbox_tests::Backend::Sqlite,
        &[
            ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
            (
                "FACEGATE__WEBHOOKS__CA_FILE",
                ca.ca_file.to_str().expect("utf-8 path"),
            ),
            ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
            ("FACEGATE__SESSIONS__RNG_SEED", "29"),
        ],
    );
    let key = create_key(&server, "bank");
    let secret = cli(&server, &["webhooks", "secret", "--tenant", "bank"]);
    let (_frames, camera) = lit_canvas_camera("webcam-man-1", 0.0, 14.0, 0.2, None);
    // one session per viewport, each sending one webhook
    let mut sessions = 0;
    for viewport in ["phone", "desktop"] {
        sessions += 1;
        let created = create_managed_session(
            &server,
            &key,
            json!({
                "mode": "passive",
                "reference_id": format!("ui-{viewport}"),
                "redirect_url": REDIRECT,
                "webhook_url": format!("https://127.0.0.1:{}/hooks", receiver.port),
            }),
        );
        let (id, token) = id_and_token(&created);
        let report = run_scenario(&json!({
            "name": format!("passive-{viewport}"),
            "url": created["session_url"],
            "camera": "canvas",
            "answer_challenges": camera,
            "viewport": viewport,
            "shots": screenshot_dir(),
            "until": "result",
            "expect_redirect": REDIRECT,
        }));
        the_page_passed_and_landed_on_the_redirect(&report, &server, &key, &id);
        let result = session_result(&server, &id, &token);
        assert_eq!(
            (
                result.body["status"].as_str(),
                result.body["verdict"].as_str()
            ),
            (Some("completed"), Some("pass")),
            "{:?}",
            result.body
        );
        the_signed_webhook_says_pass(&receiver, sessions, &secret, &id);
    }
}

/// The page showed the light sequence, passed, went through its screens with the keyboard
/// reaching the start button, and landed on `redirect_url` with the session id; axe-core and
/// the console found nothing.
fn the_page_passed_and_landed_on_the_redirect(
    report: &serde_json::Value,
    server: &Server,
    key: &str,
    id: &str,
) {
    assert_eq!(report["status"], 200);
    assert_light_sequence_shown(report);
    assert_page_passed(report, server, id, key);
    assert_eq!(
        report["screens"],
        json!(["welcome", "camera", "capture", "result"]),
        "{report:#}"
    );
    // the first control: the flash warning's "I'm sensitive to flashing light", then Start
    assert_eq!(
        report["focused"], "welcome-no-flash",
        "Tab reaches the warning's choice"
    );
    assert_eq!(
        report["final_url"],
        format!("{REDIRECT}?session_id={id}"),
        "the browser lands on redirect_url with the session_id"
    );
    assert_accessible(report);
    assert_no_console_errors(report);
}

/// The `sessions`-th webhook has arrived, and the one for `id` is signed with `secret` and
/// says `pass`.
fn the_signed_webhook_says_pass(receiver: &HttpsReceiver, sessions: usize, secret: &str, id: &str) {
    let hooks = receiver.wait_for(sessions, Duration::from_secs(30));
    let hook = hooks
        .iter()
        .find(|h| h.body.contains(id))
        .expect("this session's webhook");
    let timestamp: i64 = hook.headers["webhook-timestamp"].parse().expect("ts");
    assert!(webhooks::signing::verify(
        secret,
        &hook.headers["webhook-id"],
        timestamp,
        &hook.body,
        &hook.headers["webhook-signature"]
    ));
    let payload: serde_json::Value = serde_json::from_str(&hook.body).expect("payload");
    assert_eq!(
        (payload["session_id"].as_str(), payload["verdict"].as_str()),
        (Some(id), Some("pass"))
    );
}

#[test]
fn a_still_photo_held_to_the_camera_fails_in_the_browser() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "redirect_url": REDIRECT}),
    );
    let (id, token) = id_and_token(&created);
    let report = run_scenario(&json!({
        "name": "photo-attack",
        "both_viewports": true,
        "hold_verdict_ms": 1500,
        "url": created["session_url"],
        "camera": photo_camera("spoof/samples/print.jpg"),
        "viewport": "phone",
        "shots": screenshot_dir(),
        "until": "result",
        "timeout_ms": 60_000,
    }));
    assert_ne!(report["verdict"], "pass", "{report:#}");
    assert_eq!(
        report["continue_href"],
        format!("{REDIRECT}?session_id={id}")
    );
    assert_accessible(&report);
    let result = session_result(&server, &id, &token);
    assert_eq!(result.body["status"], "completed");
    assert_ne!(result.body["verdict"], "pass", "{:?}", result.body);
}

#[test]
fn camera_failures_each_show_their_own_message() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    for (camera, problem) in [("deny", "not_allowed"), ("none", "not_found")] {
        let created = create_managed_session(&server, &key, json!({"mode": "passive"}));
        let (id, token) = id_and_token(&created);
        let report = run_scenario(&json!({
            "name": format!("camera-{camera}"),
            "url": created["session_url"],
            "camera": camera,
            "viewport": "phone",
            "shots": screenshot_dir(),
            "both_viewports": true,
            "until": "problem",
        }));
        assert_eq!(report["problem"], problem, "{report:#}");
        assert_accessible(&report);
        let result = session_result(&server, &id, &token);
        assert_eq!(result.body["status"], "created", "no frame was sent");
    }
}

#[test]
fn a_dropped_socket_shows_an_error_and_try_again_finishes_the_flow_in_retry() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "redirect_url": REDIRECT}),
    );
    let (id, _) = id_and_token(&created);
    let report = run_scenario(&json!({
        "name": "socket-drop",
        "both_viewports": true,
        "url": created["session_url"],
        "camera": video_camera("webcam-man-1", 0.0, 14.0),
        "viewport": "phone",
        "shots": screenshot_dir(),
        "until": "result",
        "drop_socket_after_ms": 1200,
    }));
    assert_eq!(report["problem"], "connection", "{report:#}");
    assert_accessible(&report);
    let keyed = facegate_blackbox_tests::keyed_session_result(&server, &id, &key);
    // "Try again" reconnects to the same session, which never shows a second light
    // sequence: the flow finishes in `retry` (a new session from the backend is needed), never
    // stuck and never `fail`
    assert_eq!(
        report["verdict"], "retry",
        "verdict after the dropped socket and \"Try again\": {report:#}\nlayers: {:#}",
        keyed.body["layers"]
    );
}

#[test]
fn dead_links_and_finished_sessions_never_ask_for_the_camera() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "redirect_url": REDIRECT}),
    );
    let (id, token) = id_and_token(&created);
    let wrong = run_scenario(&json!({
        "name": "invalid-link",
        "url": format!("{}/verify/{id}?token=not-the-token", server.base_url),
        "camera": video_camera("webcam-man-1", 0.0, 14.0),
        "viewport": "phone",
        "shots": screenshot_dir(),
        "both_viewports": true,
        "until": "invalid",
    }));
    assert_eq!(wrong["status"], 404);
    assert_eq!(wrong["body_state"]["problem"], "invalid_link", "{wrong:#}");
    assert_eq!(wrong["camera_requested"], false);
    assert_accessible(&wrong);

    // finish the session over the socket, then open its link again
    let frames = live::video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 401),
    );
    assert_eq!(
        outcome.verdict().map(|v| v["verdict"].clone()),
        Some(json!("pass"))
    );
    let finished = run_scenario(&json!({
        "name": "completed",
        "both_viewports": true,
        "url": created["session_url"],
        "camera": "none",
        "viewport": "phone",
        "shots": screenshot_dir(),
        "until": "completed",
    }));
    assert_eq!(finished["first_screen"], "result");
    assert_eq!(finished["body_state"]["verdict"], "pass");
    assert_eq!(finished["camera_requested"], false);
    assert_eq!(
        finished["final_url"], created["session_url"],
        "no automatic redirect when reopened"
    );
}
