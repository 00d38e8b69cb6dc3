//! The screen-light check over the real WebSocket of the real binary (issue 29), one session
//! per camera, with the server's sequence drawn from a known seed (`sessions.rng_seed`, tests
//! only) and each rendering camera seeded: a live face near the screen passes; an injected
//! stream tinted in sync fails; a replay on a screen never passes (`fail`, or `retry` where its
//! answer, at the chance bar, reads as another sequence's: see the test); a print over a moving
//! head and a live person's recording answering another session's sequence end in `retry`
//! (the light's disputable finding against the other layers' live evidence); an injected
//! stream that does not answer ends in `retry` with the `more_screen_light` guidance. Each
//! verdict comes with its reason code in the tenant's result, and a failed assertion prints
//! every layer's reading. The light is simulated on real footage
//! (`liveness_rig::light_camera`). No message reveals a layer score.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::{
    create_key, create_managed_session, engine, id_and_token, keyed_session_result, start_server,
};
use liveness_engine::Illumination;
use liveness_rig::light_camera::{LightCamera, Scene};
use rand::SeedableRng;
use serde_json::json;

/// What one session showed: its verdict and guidance over the socket, and the tenant's
/// result (reasons, and each layer's reading for a failure message).
struct Seen {
    verdict: String,
    guidance: Vec<String>,
    messages: Vec<serde_json::Value>,
    result: serde_json::Value,
}

impl Seen {
    /// Whether the session ended as one of `expected`: its verdict, with the reason code (if
    /// any) among the result's reasons.
    fn ended_as_one_of(&self, expected: &[Outcome]) -> bool {
        let reasons = self.result["reasons"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        expected.iter().any(|(verdict, reason)| {
            self.verdict == *verdict && (reason.is_empty() || reasons.iter().any(|r| r == reason))
        })
    }

    /// The messages, the reasons and each layer's reading, for a failure message.
    fn described(&self) -> String {
        let layers: Vec<String> = self.result["layers"]["layers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|layer| format!("{}: {}", layer["layer"], layer["reason"]))
            .collect();
        format!(
            "{:?}\nreasons: {}\nlayers: {layers:#?}",
            self.messages, self.result["reasons"]
        )
    }
}

/// One passive session filmed by `camera`, its frames timed as `timing`.
fn session_through(
    server: &facegate_blackbox_tests::Server,
    key: &str,
    camera: &mut LightCamera,
    timing: live::FrameTiming,
) -> Seen {
    let created = create_managed_session(server, key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created);
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    let outcome = live::stream_lit_timed(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        camera,
        timing,
    );
    live::assert_no_engine_internals(&outcome.messages);
    let sent: Vec<_> = outcome
        .messages
        .iter()
        .filter(|m| m["type"] == "illumination")
        .collect();
    assert_eq!(
        sent.len(),
        1,
        "one illumination message: {:?}",
        outcome.messages
    );
    let verdict = outcome
        .verdict()
        .and_then(|v| v["verdict"].as_str())
        .unwrap_or("none")
        .to_owned();
    let guidance = outcome
        .messages
        .iter()
        .filter(|m| m["type"] == "guidance")
        .filter_map(|m| m["data"]["code"].as_str().map(str::to_owned))
        .collect();
    Seen {
        verdict,
        guidance,
        messages: outcome.messages,
        result: keyed_session_result(server, &id, key).body,
    }
}

/// A session's outcome: its verdict and a reason code the tenant's result must carry.
type Outcome = (&'static str, &'static str);

#[test]
fn each_rendering_camera_gets_its_verdict_over_the_websocket() {
    let _turn = live::exclusive_lit_sessions();
    let server = start_server(&[("FACEGATE__SESSIONS__RNG_SEED", "29")]);
    let key = create_key(&server, "bank");
    let other = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(2_929));
    let cameras: [(&str, Scene, f32, &[Outcome]); 6] = [
        ("live face", Scene::LiveFace, 0.2, &[("pass", "")]),
        // the replay's glass adds light to face and room alike; the face's colour, measured
        // against the room, follows this session's sequence at 0.78-0.80, right at what
        // random sequences reach by chance over the delay search (0.78-0.80): above it, the
        // room answering with the face is a glare (`Uniform`, `print_suspected`: `fail`);
        // at or below it, a face swinging in steps of its own reads as another sequence's
        // answer, which the model (these are live frames behind the glass) disputes
        // (`retry`, `conflicting_evidence`). Which frames the server analysed decides which
        // side of the bar a session lands on; a replay never passes
        (
            "replay on a screen",
            Scene::ScreenReplay,
            0.3,
            &[
                ("fail", "print_suspected"),
                ("retry", "conflicting_evidence"),
            ],
        ),
        // the print scene renders paper's even answer over live footage whose head moves
        // with parallax: the light says flat, the motion layer saw a head, and layers that
        // disagree end in `retry` (`conflicting_evidence`), never `fail` (issue 39)
        (
            "print",
            Scene::Print,
            0.3,
            &[("retry", "conflicting_evidence")],
        ),
        (
            "injected, tinted in sync",
            Scene::TintedStream,
            0.3,
            &[("fail", "print_suspected")],
        ),
        // a recording of a live person answering another sequence: its head's parallax and
        // the model vouch for a live face against the light, so `retry`, never `pass`
        (
            "another session's sequence",
            Scene::OtherSequence(other),
            0.3,
            &[("retry", "conflicting_evidence")],
        ),
        (
            "injected, no answer",
            Scene::Injected,
            0.3,
            &[("retry", "no_light_response")],
        ),
    ];
    for (i, (name, scene, ratio, expected)) in cameras.into_iter().enumerate() {
        let mut camera = LightCamera::new(engine(), scene, ratio, 290 + i as u64);
        let seen = session_through(&server, &key, &mut camera, live::FrameTiming::Stamped);
        assert!(
            seen.ended_as_one_of(expected),
            "{name}: expected one of {expected:?}: {}",
            seen.described()
        );
        if name == "injected, no answer" {
            assert!(
                seen.guidance.iter().any(|g| g == "more_screen_light"),
                "{name}: {:?}",
                seen.guidance
            );
        }
    }
}

/// A live face whose frames reach the server up to 300 ms after their capture, irregularly
/// (a jittery uplink, a starved client): with the capture times the page writes into each
/// frame, the server lines the light up by them and the session passes. A client that writes
/// none is timed by arrival and passes too when its frames arrive evenly.
#[test]
fn capture_times_line_the_light_up_when_frames_arrive_irregularly() {
    let _turn = live::exclusive_lit_sessions();
    let server = start_server(&[("FACEGATE__SESSIONS__RNG_SEED", "2929")]);
    let key = create_key(&server, "bank");
    let timings = [
        (
            "stamped, arriving 0-300 ms after capture",
            live::FrameTiming::Jittered {
                max_lag_ms: 300,
                seed: 29,
                stamped: true,
            },
        ),
        ("unstamped, arriving evenly", live::FrameTiming::ArrivalOnly),
    ];
    for (i, (name, timing)) in timings.into_iter().enumerate() {
        let mut camera = live::live_camera(0.2, 2_900 + i as u64);
        let seen = session_through(&server, &key, &mut camera, timing);
        assert_eq!(seen.verdict, "pass", "{name}: {}", seen.described());
    }
}
