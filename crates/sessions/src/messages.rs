//! What a live stream says to its client: the server → client messages (never per-layer
//! scores), the typed `error` codes with the close code each one ends the socket with, how a
//! stream ended, the sink the transport implements, and the redirect URL given with a verdict.

use domain::{LivenessPath, SessionMode, Verdict};
use liveness_engine::{ChallengeKind, Guidance, Illumination};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::SessionError;

/// A server → client message, `{"type": …, "data": {…}}`. Per-layer scores never appear here.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message: what the session will ask.
    /// `challenge_count` is how many challenges this connection asks: a passive session on
    /// the no-flash path asks head turns (`liveness_path`: `light` or `no_flash`).
    /// `max_fps` is the most frames a second the connection takes (about a second's worth may
    /// come at once); a frame past it is set aside unread, and `slow_down` says so.
    Ready {
        #[schema(value_type = String, example = "passive")]
        mode: SessionMode,
        challenge_count: u32,
        #[schema(value_type = String, example = "light")]
        liveness_path: LivenessPath,
        #[schema(example = 30)]
        max_fps: u32,
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
        #[schema(value_type = String, example = "idle_timeout")]
        code: SocketError,
        message: String,
    },
    // last, so that the generated clients keep numbering the messages before it as they did
    /// The client sent frames faster than `max_fps`: those past it were set aside unread (the
    /// session goes on with the others, never failed for it). Sent at most once a second
    /// while the client keeps it up; send at most `max_fps` frames a second.
    SlowDown {
        #[schema(example = 30)]
        max_fps: u32,
    },
}

/// The `code` of an `error` message on the socket. Each is followed by the socket's close with
/// [`SocketError::close_code`]; docs/api.md's table of close codes lists every one (a test
/// holds it to this enum). Its wire name, close code and close reason come from one table,
/// `SocketError::spec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SocketError {
    /// A text message: only binary JPEG frames are accepted.
    TextNotAccepted,
    /// A frame over [`crate::live::MAX_FRAME_BYTES`].
    FrameTooLarge,
    /// The session could not be opened (its store did not answer); connect again.
    SessionNotStarted,
    /// No frame for `sessions.socket_idle_seconds`.
    IdleTimeout,
    /// The session's lifetime ended.
    SessionExpired,
    /// Unknown or expired session, or a wrong token (one answer).
    SessionNotFound,
    /// The session already has a verdict.
    SessionCompleted,
    /// Another socket streams this session.
    SessionBusy,
    /// The verdict was reached but the store refused its record: the session stays
    /// `in_progress` and may be streamed again (no verdict is shown that the tenant cannot read).
    ResultNotStored,
    /// The client asked for the no-flash path (`liveness_path=no_flash`) on a session that
    /// does not allow it.
    NoFlashNotAllowed,
}

impl Serialize for SocketError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl SocketError {
    pub const ALL: [Self; 10] = [
        Self::TextNotAccepted,
        Self::FrameTooLarge,
        Self::SessionNotStarted,
        Self::IdleTimeout,
        Self::SessionExpired,
        Self::SessionNotFound,
        Self::SessionCompleted,
        Self::SessionBusy,
        Self::ResultNotStored,
        Self::NoFlashNotAllowed,
    ];

    /// The code's wire name, the WebSocket close code that follows it (RFC 6455's where one
    /// fits, 4xxx mirroring the HTTP status otherwise) and the close frame's short reason.
    fn spec(self) -> (&'static str, u16, &'static str) {
        match self {
            Self::TextNotAccepted => ("text_not_accepted", 1003, "binary JPEG frames only"),
            Self::FrameTooLarge => ("frame_too_large", 1009, "frame over 1.5 MB"),
            Self::SessionNotStarted => ("session_not_started", 1011, "the session could not start"),
            Self::IdleTimeout => ("idle_timeout", 4000, "idle"),
            Self::SessionExpired => ("session_expired", 4001, "session expired"),
            Self::SessionNotFound => ("session_not_found", 4004, "session not found"),
            Self::SessionCompleted => ("session_completed", 4009, "session already has a verdict"),
            Self::SessionBusy => ("session_busy", 4029, "another socket streams this session"),
            Self::ResultNotStored => ("result_not_stored", 1011, "the verdict could not be stored"),
            Self::NoFlashNotAllowed => ("no_flash_not_allowed", 4003, "no-flash path not allowed"),
        }
    }

    /// The code's name on the wire.
    pub fn name(self) -> &'static str {
        self.spec().0
    }

    /// The WebSocket close code that follows the message.
    pub fn close_code(self) -> u16 {
        self.spec().1
    }

    /// The close frame's short reason.
    pub fn close_reason(self) -> &'static str {
        self.spec().2
    }

    /// Why a connection was refused, from the error that refused it.
    pub fn refusing(error: &SessionError) -> Self {
        use SessionError as E;
        match error {
            E::NotFound => Self::SessionNotFound,
            E::AlreadyCompleted => Self::SessionCompleted,
            E::AlreadyConnected => Self::SessionBusy,
            E::FrameTooLarge { .. } => Self::FrameTooLarge,
            E::NoFlashNotAllowed => Self::NoFlashNotAllowed,
            E::InvalidMode
            | E::InvalidReferenceId { .. }
            | E::InvalidFingerprint { .. }
            | E::InvalidReferenceImage(_)
            | E::ReferenceTooLarge { .. }
            | E::ReferenceHasNoFace
            | E::InvalidMatchThreshold
            | E::InvalidRedirectUrl(_)
            | E::InvalidWebhookUrl(_)
            | E::DirectSessionsDisabled
            | E::TooManyAttempts { .. }
            | E::CaptchaFailed
            | E::NotVerified
            | E::NoFlashDisabled
            | E::PhotoNotAvailable
            | E::InvalidListParameter(_)
            | E::Storage(_)
            | E::Engine(_)
            | E::Liveness(_) => Self::SessionNotStarted,
        }
    }
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
    /// The verdict was stored and sent.
    Completed,
    /// An `error` message with this code was sent instead of a verdict: the tenant erased the
    /// session while it streamed, another stream's verdict was stored first, or the store
    /// refused the record. Its close code follows.
    Refused(SocketError),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_socket_error_is_in_the_close_code_table_of_the_api_docs() {
        let docs = include_str!("../../../docs/api.md");
        for error in SocketError::ALL {
            let row = format!("| {} | `{}` |", error.close_code(), error.name());
            assert!(docs.contains(&row), "docs/api.md lacks the row {row}");
            let wire = serde_json::to_value(ClientMessage::Error {
                code: error,
                message: String::new(),
            })
            .expect("json");
            assert_eq!(wire["data"]["code"], error.name(), "{error:?}");
        }
    }

    #[test]
    fn a_refused_connection_says_why_with_its_close_code() {
        assert_eq!(
            SocketError::refusing(&SessionError::NotFound).close_code(),
            4004
        );
        assert_eq!(
            SocketError::refusing(&SessionError::AlreadyCompleted).close_code(),
            4009
        );
        assert_eq!(
            SocketError::refusing(&SessionError::AlreadyConnected).close_code(),
            4029
        );
        assert_eq!(
            SocketError::refusing(&SessionError::CaptchaFailed),
            SocketError::SessionNotStarted
        );
    }
}
