//! What a live stream says to its client: the server → client messages (never per-layer
//! scores), how a stream ended, the sink the transport implements, and the redirect URL given
//! with a verdict.

use domain::Verdict;
use liveness_engine::{ChallengeKind, Guidance, Illumination};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// A server → client message, `{"type": …, "data": {…}}`. Per-layer scores never appear here.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message: what the session will ask.
    Ready {
        #[schema(example = "passive")]
        mode: &'static str,
        challenge_count: u32,
    },
    /// Sent once per session, right after `ready` on its first connection: the page shows
    /// `colors[k]` around the face oval from `receipt + k × step_ms` on
    /// (`{"colors": ["#rrggbb", …], "step_ms": N}`).
    Illumination {
        #[schema(example = json!(["#00ffff", "#ffb000", "#3050ff", "#ffffff", "#00ff00", "#ff00ff", "#ffff00", "#8000ff"]))]
        colors: Vec<String>,
        #[schema(example = 360)]
        step_ms: u32,
    },
    FaceDetected {
        confidence: f32,
        centered: bool,
    },
    /// A hint: `no_face`, `one_face_only`, `move_closer`, `move_back`, `center_face`, `too_dark`,
    /// `hold_still`, `turn_head_slightly`, `look_at_camera`, `invalid_frame`, `frame_out_of_order`,
    /// `more_screen_light`.
    Guidance {
        #[schema(value_type = String)]
        code: Guidance,
    },
    Challenge {
        #[serde(rename = "type")]
        #[schema(value_type = String, example = "blink")]
        kind: ChallengeKind,
        index: usize,
    },
    ChallengeResult {
        index: usize,
        passed: bool,
    },
    /// The final decision. `redirect_url` (managed sessions with one) is where to send the
    /// user: the caller's URL with `session_id` added, and nothing else.
    Verdict {
        #[schema(value_type = String, example = "pass")]
        verdict: Verdict,
        confidence: f32,
        redirect_url: Option<String>,
    },
    Error {
        code: &'static str,
        message: String,
    },
}

impl ClientMessage {
    /// The `illumination` message of `sequence`.
    pub fn illumination(sequence: &Illumination) -> Self {
        Self::Illumination {
            colors: sequence.colors().iter().map(|c| c.hex()).collect(),
            step_ms: sequence.step_ms(),
        }
    }
}

/// How a stream ended, for the transport to choose its close code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEnd {
    /// The verdict was stored and sent (or another stream had already given it).
    Completed,
    /// The result could not be stored; the client may reconnect and try again.
    ServerError,
}

/// Where a stream's messages go (the WebSocket, or a test's collector).
pub trait EventSink: Send + Sync + 'static {
    fn send(&self, message: ClientMessage);
    /// No more messages follow.
    fn end(&self, end: StreamEnd);
}

/// `redirect_url` with the query parameter `session_id` added (replacing one already there);
/// the verdict never travels in the redirect.
pub fn redirect_with_session(redirect_url: &str, session_id: Uuid) -> String {
    match url::Url::parse(redirect_url) {
        Ok(mut url) => {
            let kept: Vec<(String, String)> = url
                .query_pairs()
                .filter(|(k, _)| k != "session_id")
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            url.query_pairs_mut()
                .clear()
                .extend_pairs(kept)
                .append_pair("session_id", &session_id.to_string());
            url.into()
        }
        Err(_) => redirect_url.to_owned(),
    }
}
