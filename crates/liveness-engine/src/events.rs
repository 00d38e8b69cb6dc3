//! What the engine reports after each frame: a face found, guidance, the next challenge, a
//! challenge's outcome and the verdict. These are the engine's internal events, not a wire
//! format: the verdict carries per-layer scores that must never reach a browser, so the
//! session layer (`sessions::messages::ClientMessage`) decides what each becomes on the
//! WebSocket.

use serde::{Deserialize, Serialize};

use crate::challenge::ChallengeKind;
use crate::fusion::VerdictReport;

/// One event of a session.
#[derive(Debug, Clone, PartialEq)]
pub enum LivenessEvent {
    /// A single face was found for the first time, or found again after it was lost.
    FaceDetected { confidence: f32, centered: bool },
    /// A hint for the user; never changes the verdict by itself.
    Guidance { code: Guidance },
    /// The next challenge to perform (active mode).
    Challenge { kind: ChallengeKind, index: usize },
    /// The outcome of the challenge with this index.
    ChallengeResult { index: usize, passed: bool },
    /// The final decision; no events follow it.
    Verdict(VerdictReport),
}

/// Guidance codes (stable, for the UI to translate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Guidance {
    NoFace,
    OneFaceOnly,
    MoveCloser,
    /// The face fills the picture (a phone held close): the anti-spoof model needs to see
    /// some of the surroundings. Hold the phone a little farther away.
    MoveBack,
    CenterFace,
    TooDark,
    HoldStill,
    /// Passive mode: the hold saw too little head motion to judge depth; a slight turn of
    /// the head gives the motion layer its evidence. The hold runs a few seconds longer.
    TurnHeadSlightly,
    /// The light check saw too little of the screen's light on the face (sunlight, a dim
    /// screen, colours not shown): move out of direct light and turn the screen's brightness
    /// up, then try again. Sent just before a `retry` verdict.
    MoreScreenLight,
    /// Active mode needs a frontal face to measure the resting pose before the challenges.
    LookAtCamera,
    /// The frame was not a readable JPEG (or was too large); it was ignored.
    InvalidFrame,
    /// The frame's timestamp did not advance; it was ignored.
    FrameOutOfOrder,
}
