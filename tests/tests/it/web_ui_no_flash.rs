//! The no-flash path (issue 67) for a person sensitive to flashing light. In Chromium: the
//! welcome screen's "I'm sensitive to flashing light" is reached by keyboard, described for a
//! screen reader, axe-clean; chosen, no colour is ever shown, the server asks head turns, a
//! person turning as asked passes and the result, read with the key, says `no_flash`; a
//! recording that plays on regardless of the challenges does not pass. Over the socket and the
//! API: a session created with `allow_no_flash: false` refuses the path (4003), and a
//! deployment that turned it off refuses a session asking for it (400).

use std::time::Duration;

use facegate_blackbox_tests::browser::{
    assert_accessible, assert_no_console_errors, assert_page_passed, exclusive_browser,
    run_scenario, screenshot_dir,
};
use facegate_blackbox_tests::live::{self, labelled_frames, video_frames};
use facegate_blackbox_tests::{
    create_key, create_managed_session, id_and_token, keyed_session_result, post_managed_session,
    start_server,
};
use serde_json::json;

/// talking-woman's frames (both turns labelled) as JPEG files for the page's canvas camera.
fn talking_woman() -> (tempfile::TempDir, usize) {
    let dir = tempfile::tempdir().expect("frames");
    let frames = video_frames("talking-woman", 15, 0.0, 40.0);
    for (i, frame) in frames.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{:05}.jpg", i + 1)), frame).expect("frame");
    }
    (dir, frames.len())
}

#[test]
fn a_person_sensitive_to_flashing_light_passes_without_colours_and_a_replay_does_not() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let (frames_dir, frame_count) = talking_woman();
    // the light check is on (the default): the path must keep its colours off the screen
    let server = start_server(&[("FACEGATE__SESSIONS__RNG_SEED", "6")]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(&server, &key, json!({"mode": "passive"}));
    let (id, _) = id_and_token(&created);
    let report = run_scenario(&json!({
        "name": "no-flash",
        "url": created["session_url"],
        "camera": "canvas",
        "no_flash": true,
        "answer_challenges": {
            "frames_url": frames_dir.path(),
            "segments": labelled_frames("talking-woman"),
            "fps": 15,
            "frame_count": frame_count,
        },
        "viewport": "phone",
        "shots": screenshot_dir(),
        "shot_prefix": "no-flash-",
        "until": "result",
    }));
    assert_eq!(report["no_flash_offered"], true, "{report:#}");
    assert_eq!(report["no_flash_focused"], "welcome-no-flash", "{report:#}");
    assert_eq!(
        report["no_flash_description"],
        "Nothing will flash: you will turn your head left and right instead."
    );
    assert_page_passed(&report, &server, &id, &key);
    assert_eq!(report["colours_shown"], json!([]), "{report:#}");
    let kinds: Vec<&str> = report["challenges"]
        .as_array()
        .expect("challenges")
        .iter()
        .filter_map(|shown| shown["challenge"].as_str()?.split(':').nth(1))
        .collect();
    assert_eq!(kinds.len(), 3, "{report:#}");
    assert!(kinds.iter().all(|k| k.starts_with("turn_")), "{kinds:?}");
    assert_accessible(&report);
    assert_no_console_errors(&report);
    let keyed = keyed_session_result(&server, &id, &key);
    assert_eq!(keyed.body["verdict"], "pass");
    assert_eq!(keyed.body["liveness_path"], "no_flash");
    assert_eq!(keyed.body["mode"], "passive");

    // a recording of the same person that plays on whatever is asked (no turn in it)
    let replayed = create_managed_session(&server, &key, json!({"mode": "passive"}));
    let (replay_id, _) = id_and_token(&replayed);
    let neutral = labelled_frames("talking-woman")
        .remove("neutral")
        .expect("neutral frames");
    let report = run_scenario(&json!({
        "name": "no-flash-replay",
        "url": replayed["session_url"],
        "camera": "canvas",
        "no_flash": true,
        "answer_challenges": {
            "frames_url": frames_dir.path(),
            "segments": {"neutral": neutral},
            "fps": 15,
            "frame_count": frame_count,
        },
        "viewport": "phone",
        "until": "result",
    }));
    assert_ne!(report["verdict"], "pass", "{report:#}");
    assert_eq!(report["colours_shown"], json!([]), "{report:#}");
    let keyed = keyed_session_result(&server, &replay_id, &key);
    assert_eq!(keyed.body["liveness_path"], "no_flash");
    assert_eq!(keyed.body["status"], "completed");
}

/// Asks session `id` for the no-flash path over the socket: `no_flash_not_allowed`, close 4003.
fn assert_no_flash_refused(base_url: &str, id: &str, token: &str) {
    let refused = live::send_and_wait_close(
        base_url,
        id,
        &format!("{token}&liveness_path=no_flash"),
        Vec::new(),
        Duration::from_secs(10),
    );
    assert_eq!(
        (refused.error_code(), refused.close_code),
        (Some("no_flash_not_allowed"), Some(4003))
    );
}

#[test]
fn the_no_flash_path_is_refused_where_the_session_or_the_deployment_turned_it_off() {
    let server = start_server(&[]);
    let key = create_key(&server, "bank");
    let created = post_managed_session(
        &server,
        &key,
        json!({"mode": "passive", "allow_no_flash": false}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let (id, token) = id_and_token(&created.body);
    assert_no_flash_refused(&server.base_url, &id, &token);
    // the light path of the same session opens, with its colours
    let mut lit = live::open(&server.base_url, &id, &token);
    let opened = live::stream(&mut lit, &[], 1, Duration::from_millis(500));
    let types: Vec<&str> = opened
        .messages
        .iter()
        .filter_map(|m| m["type"].as_str())
        .collect();
    assert_eq!(
        types[..2],
        ["ready", "illumination"],
        "{:?}",
        opened.messages
    );
    assert_eq!(opened.messages[0]["data"]["liveness_path"], "light");
    drop(lit);
    // an unknown path is a query error before the upgrade
    let unknown = facegate_blackbox_tests::get(
        &format!(
            "{}/ws/{id}?token={token}&liveness_path=dark",
            server.base_url
        ),
        None,
    );
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert_eq!(unknown.body["error"]["code"], "invalid_parameter");

    let strict = start_server(&[("FACEGATE__LIVENESS__ILLUMINATION__ALLOW_NO_FLASH", "false")]);
    let key = create_key(&strict, "bank");
    let asked = post_managed_session(&strict, &key, json!({"allow_no_flash": true}));
    assert_eq!(asked.status, 400, "{}", asked.body);
    assert_eq!(asked.body["error"]["code"], "no_flash_disabled");
    let plain = post_managed_session(&strict, &key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&plain.body);
    assert_no_flash_refused(&strict.base_url, &id, &token);
}
