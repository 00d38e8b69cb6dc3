//! An active session over the real WebSocket, answered challenge by challenge from the
//! labelled segments of a shared video (the labels the engine tests use), passes. Like a
//! person, the scripted camera repeats an action until the next challenge is asked. The server
//! draws the challenges from a known seed (`sessions.rng_seed`, tests only), so the test runs
//! one known session: seed 6 asks turn left, turn right, smile, which the footage holds.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use facegate_blackbox_tests::live::{self, labelled_frames, video_frames};
use facegate_blackbox_tests::{create_key, create_managed_session, start_server};
use serde_json::json;

#[test]
fn an_active_session_answered_from_labelled_segments_passes() {
    // talking-woman holds smile and both turns (not a blink)
    let video = "talking-woman";
    let mut person = LabelledPerson::new(video);
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
    let outcome = live::stream_scripted(&mut socket, 15, Duration::from_secs(60), |event| {
        person.respond(event)
    });
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

/// A scripted client playing a labelled video as a person would: the neutral segment in a
/// loop, and on each challenge three frames of rest and then the challenge's segment, repeated
/// until its result, as a person repeats a turn that was not recognised (a loaded server may
/// analyse none of one pass's peak frames). A frame sent again carries new sensor noise.
struct LabelledPerson {
    labels: HashMap<String, Vec<usize>>,
    frames: Vec<Vec<u8>>,
    neutral: Vec<usize>,
    /// The frames still to send of the current answer.
    queue: Vec<usize>,
    /// The current challenge's answer (empty between challenges).
    answer: Vec<usize>,
    cursor: usize,
    served: HashSet<usize>,
    sent: u64,
}

impl LabelledPerson {
    fn new(video: &str) -> Self {
        let labels = labelled_frames(video);
        let neutral = labels["neutral"].clone();
        Self {
            frames: video_frames(video, 15, 0.0, 40.0),
            labels,
            neutral,
            queue: Vec::new(),
            answer: Vec::new(),
            cursor: 0,
            served: HashSet::new(),
            sent: 0,
        }
    }

    fn respond(&mut self, event: live::ScriptEvent<'_>) -> live::ScriptAction {
        match event {
            live::ScriptEvent::FrameDue => live::ScriptAction::Send(self.next_frame()),
            live::ScriptEvent::Message(m) if m["type"] == "challenge" => {
                let kind = m["data"]["type"].as_str().unwrap_or_default();
                let Some(segment) = self.labels.get(kind) else {
                    panic!("seed {SEED} asked for `{kind}`, which the footage lacks")
                };
                self.answer = self.neutral.iter().take(3).copied().collect();
                self.answer.extend(segment);
                self.queue.clone_from(&self.answer);
                live::ScriptAction::Continue
            }
            live::ScriptEvent::Message(m) if m["type"] == "challenge_result" => {
                self.answer.clear();
                live::ScriptAction::Continue
            }
            live::ScriptEvent::Message(_) => live::ScriptAction::Continue,
        }
    }

    fn next_frame(&mut self) -> Vec<u8> {
        if self.queue.is_empty() {
            self.queue.clone_from(&self.answer);
        }
        let index = if self.queue.is_empty() {
            self.cursor += 1;
            self.neutral[self.cursor % self.neutral.len()]
        } else {
            self.queue.remove(0)
        };
        let index = index.min(self.frames.len() - 1);
        self.sent += 1;
        if self.served.insert(index) {
            self.frames[index].clone()
        } else {
            live::with_sensor_noise(&self.frames[index], self.sent)
        }
    }
}

/// The server's challenge seed: the plan turn left, turn right, smile.
const SEED: &str = "6";
