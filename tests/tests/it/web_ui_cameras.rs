//! The passive flow in real Chromium through two camera models (issue 39): a webcam that holds
//! its exposure and white balance, and a phone that does not take the page's lock (its
//! auto-exposure and grey-world white balance pull the whole frame against each colour, 10
//! frames a second, 320 ms from the screen). Each carries a swaying live person and a
//! near-still one (webcam-man-1 from 22 s, and from 2 s, where the head barely moves), lit by
//! the colours the page shows at a screen-to-ambient ratio of 0.2 (simulated light). Every one
//! of the four sessions passes.

use facegate_blackbox_tests::browser::{
    CanvasCamera, assert_light_sequence_shown, exclusive_browser, lit_canvas_camera_of,
    run_scenario, screenshot_dir,
};
use facegate_blackbox_tests::{Backend, create_key, create_managed_session, id_and_token};
use serde_json::json;

/// Where webcam-man-1 sways (frame-to-frame change 0.3-1.6 grey levels a pixel at 32×32),
/// long enough that the clip never loops back within a session.
const SWAYING: (f32, f32) = (22.0, 26.0);
/// Where webcam-man-1 barely moves (0.09-0.14).
const NEAR_STILL: (f32, f32) = (2.0, 12.0);

/// One passive session of the page through `model` playing webcam-man-1's `clip`; asserts the
/// colours were shown and the verdict is `pass` (else prints the keyed result's layers).
fn passes_through(model: CanvasCamera, clip: (f32, f32), label: &str) {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = facegate_blackbox_tests::start_server_on(
        Backend::Sqlite,
        &[("FACEGATE__SESSIONS__RNG_SEED", "39")],
    );
    let key = create_key(&server, "bank");
    let (_frames, camera) = lit_canvas_camera_of(model, "webcam-man-1", clip, 0.2, None);
    let created = create_managed_session(
        &server,
        &key,
        json!({ "mode": "passive", "reference_id": label }),
    );
    let (id, _token) = id_and_token(&created);
    let report = run_scenario(&json!({
        "name": label,
        "url": created["session_url"],
        "camera": "canvas",
        "answer_challenges": camera,
        "viewport": "phone",
        "shots": screenshot_dir(),
        "until": "result",
    }));
    assert_eq!(report["status"], 200);
    assert_light_sequence_shown(&report);
    // the layers' readings (API-key result), printed for every session (`--nocapture`)
    let keyed = facegate_blackbox_tests::keyed_session_result(&server, &id, &key);
    for layer in keyed.body["layers"]["layers"]
        .as_array()
        .into_iter()
        .flatten()
    {
        println!("{label}: {}: {}", layer["layer"], layer["reason"]);
    }
    assert_eq!(
        report["verdict"], "pass",
        "{label}: {report:#}\nresult: {:#}",
        keyed.body
    );
}

#[test]
fn a_swaying_person_passes_through_a_webcam() {
    passes_through(CanvasCamera::Webcam, SWAYING, "swaying-webcam");
}

#[test]
fn a_swaying_person_passes_through_a_phone_that_balances_white_on_its_own() {
    passes_through(CanvasCamera::Phone, SWAYING, "swaying-phone");
}

#[test]
fn a_near_still_person_passes_through_a_webcam() {
    passes_through(CanvasCamera::Webcam, NEAR_STILL, "near-still-webcam");
}

#[test]
fn a_near_still_person_passes_through_a_phone_that_balances_white_on_its_own() {
    passes_through(CanvasCamera::Phone, NEAR_STILL, "near-still-phone");
}
