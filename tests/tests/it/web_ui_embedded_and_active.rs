//! The web UI in real Chromium, beyond the passive flow: an active session answered
//! challenge by challenge by a test camera (a canvas stream fed the labelled segment each
//! `challenge` asks for) passes with every challenge's screen shown; and the SDK, embedded in a
//! page on a second origin, runs the flow in its modal and resolves with the session id; and the
//! demo page creates a direct session whose failed attempt offers a working "Try again".
//! The active flow runs with the light check off (`liveness.illumination.enabled`): it tests
//! the challenges' screens. The SDK's passive flow runs on the defaults, its camera answering
//! the light as `web_ui.rs`'s does.

use facegate_blackbox_tests::browser::{
    SecondOrigin, assert_accessible, assert_light_sequence_shown, assert_no_console_errors,
    assert_page_passed, exclusive_browser, lit_canvas_camera, run_scenario, screenshot_dir,
};
use facegate_blackbox_tests::live::{labelled_frames, video_frames};
use facegate_blackbox_tests::{
    create_key, create_managed_session, id_and_token, session_result, start_server,
};
use serde_json::json;

#[test]
fn an_active_session_passes_in_chromium_with_every_challenge_shown() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    // talking-woman holds smile and both turns, not a blink: the server draws its challenges
    // from seed 6 (`sessions.rng_seed`, tests only), which asks turn left, turn right, smile
    let video = "talking-woman";
    let labels = labelled_frames(video);
    let frames_dir = tempfile::tempdir().expect("frames");
    let frames = video_frames(video, 15, 0.0, 40.0);
    for (i, frame) in frames.iter().enumerate() {
        std::fs::write(frames_dir.path().join(format!("{:05}.jpg", i + 1)), frame).expect("frame");
    }
    let server = start_server(&[
        ("FACEGATE__SESSIONS__RNG_SEED", "6"),
        ("FACEGATE__LIVENESS__ILLUMINATION__ENABLED", "false"),
    ]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(&server, &key, json!({"reference_id": "active-ui"}));
    let (id, token) = id_and_token(&created);
    let report = run_scenario(&json!({
        "name": "active",
        "url": created["session_url"],
        "camera": "canvas",
        "answer_challenges": {
            "frames_url": frames_dir.path(),
            "segments": labels,
            "fps": 15,
            "frame_count": frames.len(),
        },
        "abort_on": ["blink"],
        "viewport": "phone",
        "shots": screenshot_dir(),
        "until": "result",
    }));
    assert!(
        report.get("aborted").is_none(),
        "seed 6 asked for a blink: {report:#}"
    );
    assert_page_passed(&report, &server, &id, &key);
    let challenges = report["challenges"].as_array().expect("challenges");
    let kinds: Vec<&str> = challenges
        .iter()
        .filter_map(|shown| shown["challenge"].as_str())
        .filter_map(|c| c.split(':').nth(1))
        .collect();
    assert_eq!(kinds, ["turn_left", "turn_right", "smile"], "{report:#}");
    let total = challenges.len();
    for (n, shown) in challenges.iter().enumerate() {
        assert_eq!(
            shown["progress"],
            format!("{} of {total}", n + 1),
            "{shown}"
        );
        let expected = match kinds[n] {
            "smile" => "Smile",
            "turn_left" => "Turn your head to the left",
            "turn_right" => "Turn your head to the right",
            other => panic!("unexpected challenge {other:?}"),
        };
        assert_eq!(shown["text"], expected);
    }
    assert_accessible(&report);
    assert_no_console_errors(&report);
    let result = session_result(&server, &id, &token);
    assert_eq!(result.body["verdict"], "pass");
}

#[test]
fn the_sdk_on_a_second_origin_resolves_with_the_session_id() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let shop_page = ShopPage::start();
    let shop = shop_page.0.origin();
    let server = start_server(&[
        ("FACEGATE__UI__EMBED_ORIGINS", &shop),
        ("FACEGATE__SESSIONS__RNG_SEED", "29"),
    ]);
    shop_page.load_sdk_from(&format!("{}/sdk/facegate.js", server.base_url));
    let key = create_key(&server, "shop");
    let created = create_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "redirect_url": "https://shop.example/never-used"}),
    );
    let (id, token) = id_and_token(&created);
    // the rendering camera in the modal's frame: real footage lit by the colours shown there
    let (_frames, camera) = lit_canvas_camera("webcam-man-1", 0.0, 14.0, 0.2, None);
    let report = run_scenario(&json!({
        "name": "sdk",
        "url": created["session_url"],
        "camera": "canvas",
        "answer_challenges": camera,
        "viewport": "desktop",
        "shots": screenshot_dir(),
        "sdk": {"shop_url": format!(
            "{shop}/checkout.html?session={}",
            url::form_urlencoded::byte_serialize(
                created["session_url"].as_str().expect("url").as_bytes()
            )
            .collect::<String>()
        )},
    }));
    assert_page_passed(&report, &server, &id, &key);
    // the modal showed the server's light sequence
    assert_light_sequence_shown(&report);
    assert_eq!(report["sdk_title"], format!("done:{id}"), "{report:#}");
    assert_eq!(report["iframe_left"], false, "the modal closes");
    assert!(
        report["final_url"]
            .as_str()
            .is_some_and(|u| u.starts_with(&format!("{shop}/checkout.html?"))),
        "no full-page redirect: {}",
        report["final_url"]
    );
    let result = session_result(&server, &id, &token);
    assert_eq!(result.body["verdict"], "pass");
}

/// The integrator's page on a second origin: it loads the SDK from Facegate and, on a click,
/// calls `Facegate.verify` with the session URL from its own query string.
struct ShopPage(SecondOrigin);

impl ShopPage {
    fn start() -> Self {
        Self(SecondOrigin::serve(String::new()))
    }

    fn load_sdk_from(&self, sdk: &str) {
        self.0.set_page(format!(
            "<!doctype html><html lang=\"en\"><title>Shop</title><h1>Shop</h1>\
             <button id=\"verify\">Verify me</button><script src=\"{sdk}\"></script>\
             <script>document.getElementById('verify').onclick = () => Facegate.verify(\
             new URLSearchParams(location.search).get('session'), \
             {{ closeDelayMs: 300 }}).then(\
             (r) => {{ document.title = 'done:' + r.sessionId; }},\
             (e) => {{ document.title = 'error:' + e.message; }});</script>"
        ));
    }
}

#[test]
fn the_demo_page_runs_a_direct_session_and_try_again_starts_a_new_one() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = start_server(&[]);
    let report = run_scenario(&json!({
        "name": "demo",
        "shot_prefix": "demo-",
        "url": format!("{}/demo", server.base_url),
        "demo": {"mode": "passive"},
        "camera": facegate_blackbox_tests::browser::photo_camera("spoof/samples/screen.jpg"),
        "viewport": "phone",
        "shots": screenshot_dir(),
        "both_viewports": true,
        "until": "result",
        "try_again": true,
    }));
    assert_ne!(report["verdict"], "pass", "{report:#}");
    assert_eq!(report["try_again_visible"], true, "{report:#}");
    let first = report["demo_session_url"].as_str().expect("first session");
    let second = report["try_again_url"].as_str().expect("second session");
    assert_ne!(first, second, "Try again opens a new session");
    let id = |url: &str| {
        url.split("/verify/")
            .nth(1)
            .and_then(|r| r.split('?').next())
            .map(str::to_owned)
    };
    let token = |url: &str| {
        url.split("token=")
            .nth(1)
            .and_then(|r| r.split('&').next())
            .map(str::to_owned)
    };
    let (second_id, second_token) = (id(second).expect("id"), token(second).expect("token"));
    let fresh = session_result(&server, &second_id, &second_token);
    assert_eq!(fresh.body["status"], "created", "{:?}", fresh.body);
    assert_accessible(&report);
    assert_no_console_errors(&report);
}
