//! An active session over the real WebSocket, answered challenge by challenge from the
//! labelled segments of a shared video (the labels the engine tests use), passes. Like a
//! person, the scripted camera repeats an action until the next challenge is asked. The server
//! draws the challenges from a known seed (`sessions.rng_seed`, tests only), so the test runs
//! one known session: seed 6 asks turn left, turn right, smile, which the footage holds.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, labelled_frames, video_frames};
use facegate_blackbox_tests::{create_key, create_managed_session, start_server};
use serde_json::json;

#[test]
fn an_active_session_answered_from_labelled_segments_passes() {
    // talking-woman holds smile and both turns (not a blink)
    let video = "talking-woman";
    let labels = labelled_frames(video);
    let frames = video_frames(video, 15, 0.0, 40.0);
    let neutral = labels["neutral"].clone();
    // the challenge flow alone: the light check is off here (its own black-box test is
    // screen_light_sessions.rs)
    let server = start_server(&[
        ("FACEGATE__SESSIONS__RNG_SEED", SEED),
        ("FACEGATE__LIVENESS__ILLUMINATION__ENABLED", "false"),
    ]);
    let key = create_key(&server, "t");
    let created = create_managed_session(&server, &key, json!({"reference_id": "active"}));
    assert_eq!(created["mode"], "active");
    let (id, token) = (
        created["session_id"].as_str().expect("id").to_owned(),
        created["token"].as_str().expect("token").to_owned(),
    );
    let mut socket = live::open(&server.base_url, &id, &token);
    let (mut queue, mut cursor, mut served, mut sent) = (
        Vec::<usize>::new(),
        0usize,
        std::collections::HashSet::new(),
        0u64,
    );
    // the challenge's answer, repeated until the next challenge as a person repeats a turn
    // that was not recognised: a loaded server may analyse none of one pass's peak frames
    let mut answer = Vec::<usize>::new();
    let outcome =
        live::stream_scripted(
            &mut socket,
            15,
            Duration::from_secs(60),
            |event| match event {
                live::ScriptEvent::FrameDue => {
                    if queue.is_empty() {
                        queue.clone_from(&answer);
                    }
                    let index = if queue.is_empty() {
                        cursor += 1;
                        neutral[cursor % neutral.len()]
                    } else {
                        queue.remove(0)
                    };
                    let index = index.min(frames.len() - 1);
                    sent += 1;
                    let bytes = if served.insert(index) {
                        frames[index].clone()
                    } else {
                        live::with_sensor_noise(&frames[index], sent)
                    };
                    live::ScriptAction::Send(bytes)
                }
                live::ScriptEvent::Message(m) if m["type"] == "challenge" => {
                    let kind = m["data"]["type"].as_str().unwrap_or_default();
                    match labels.get(kind) {
                        Some(segment) => {
                            answer = neutral.iter().take(3).copied().collect();
                            answer.extend(segment);
                            queue.clone_from(&answer);
                            live::ScriptAction::Continue
                        }
                        None => {
                            panic!("seed {SEED} asked for `{kind}`, which the footage lacks")
                        }
                    }
                }
                live::ScriptEvent::Message(m) if m["type"] == "challenge_result" => {
                    answer.clear();
                    live::ScriptAction::Continue
                }
                live::ScriptEvent::Message(_) => live::ScriptAction::Continue,
            },
        );
    live::assert_no_engine_internals(&outcome.messages);
    let verdict = outcome
        .verdict()
        .unwrap_or_else(|| panic!("no verdict: {:?}", outcome.messages));
    let asked: Vec<&str> = outcome
        .messages
        .iter()
        .filter(|m| m["type"] == "challenge")
        .filter_map(|m| m["data"]["type"].as_str())
        .collect();
    let results: Vec<_> = outcome
        .messages
        .iter()
        .filter(|m| m["type"] == "challenge_result")
        .map(|m| m["data"]["passed"].clone())
        .collect();
    assert_eq!(
        asked,
        ["turn_left", "turn_right", "smile"],
        "the seeded plan"
    );
    assert_eq!(verdict["verdict"], "pass", "{verdict}, results {results:?}");
    assert!(results.iter().all(|p| p == &json!(true)), "{results:?}");
}

/// The server's challenge seed: the plan turn left, turn right, smile.
const SEED: &str = "6";
