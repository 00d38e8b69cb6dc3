//! Tunable limits and timings of a liveness session, with the defaults the product ships.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::LivenessError;
use crate::fitted::FittedDecision;

/// Active mode poses challenges; passive mode asks the user to hold still. The one mode type
/// of the product, from `domain`.
pub use domain::SessionMode;

/// Every limit of one session. Times are in milliseconds of capture time (the timestamps the
/// caller passes with each frame), so a replay at its own timestamps behaves like the live run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LivenessConfig {
    /// Fewest challenges drawn in active mode (the spec allows 3 to 6).
    pub min_challenges: usize,
    /// Most challenges drawn in active mode.
    pub max_challenges: usize,
    /// Time a user has to perform one challenge after it was asked.
    pub challenge_timeout_ms: u64,
    /// Face-present time a passive session collects before it decides.
    pub passive_hold_ms: u64,
    /// At most this many frames per second of capture time are analysed; the rest are dropped
    /// without decoding, so a flood of frames costs almost nothing.
    pub analysis_fps: u32,
    /// Frames larger than this are refused before decoding (the WebSocket limit is 1.5 MB; the
    /// engine does not trust its caller to enforce it).
    pub max_frame_bytes: usize,
    /// Frames with more pixels than this are refused while decoding the header.
    pub max_frame_pixels: u64,
    /// A session that sees no face for this long ends with `retry`.
    pub no_face_timeout_ms: u64,
    /// A session ends with `retry` after this much capture time, whatever its state.
    pub max_session_ms: u64,
    /// A session ends with `retry` after this many unreadable or refused frames.
    pub max_invalid_frames: u32,
    /// The screen-light check (issue 29): sessions created with [`crate::LivenessSession::new`]
    /// draw a colour sequence for the page to show and judge its reflection on the face. Off,
    /// passive mode rests on motion alone (docs/liveness.md says what that gives up).
    pub illumination_enabled: bool,
    /// The fitted decision (issue 66): it turns the rules' `retry` of a lit passive session
    /// into `pass` where it finds a live person, and their `pass` into `retry` where it does not
    /// (`fitted::verdict`), and each verdict reports its probability
    /// (`VerdictReport::fitted_live_probability`). By default the bundled coefficients
    /// ([`FittedDecision::shared_bundled`]); the service sets the ones its settings name.
    /// None: the rules alone decide.
    #[serde(skip)]
    pub fitted_decision: Option<Arc<FittedDecision>>,
    /// A lit passive session may end when the colours' window does, at one look, where the
    /// fitted decision is sure enough (`FittedDecision::early_pass_at`). Off: every session
    /// waits for the camera's settling and the model's unlit faces, and the look is only
    /// recorded (`LivenessSession::early_look`: the development set's second table).
    pub verdict_at_colours_end: bool,
    /// A server that fell behind a session while the colours show judges about one face a
    /// colour step by the anti-spoof model in the key frame's box, so the session can take its
    /// look at the colours' end under load too (`session::key_frames`; issue 67: 32 lit
    /// sessions on two Zen 4 cores at p95 5.5 s instead of 6.9-7.1 s; a replica past its
    /// capacity spares the model there all the same: `LivenessSession::set_replica_crowded`,
    /// docs/benchmarks.md, "Looks only within the replica's capacity"). On by default since a
    /// look passes no session a layer disputes: read that way, no attack passes at its look in
    /// any fold of the development set (docs/accuracy.md, "A look passes no disputed session").
    pub look_when_behind: bool,
}

impl Default for LivenessConfig {
    fn default() -> Self {
        Self {
            min_challenges: 3,
            max_challenges: 4,
            challenge_timeout_ms: 7_000,
            passive_hold_ms: 3_000,
            analysis_fps: 10,
            max_frame_bytes: 1_536 * 1024,
            max_frame_pixels: 8_000_000,
            no_face_timeout_ms: 10_000,
            max_session_ms: 90_000,
            max_invalid_frames: 30,
            illumination_enabled: true,
            fitted_decision: FittedDecision::shared_bundled(),
            verdict_at_colours_end: true,
            look_when_behind: true,
        }
    }
}

impl LivenessConfig {
    /// Refuses settings outside the spec or that could never finish.
    pub fn validate(&self) -> Result<(), LivenessError> {
        let bad = |why: &str| Err(LivenessError::InvalidConfig(why.to_string()));
        if self.min_challenges < 3 || self.max_challenges > 6 {
            return bad("challenges must be within 3..=6");
        }
        if self.min_challenges > self.max_challenges {
            return bad("min_challenges exceeds max_challenges");
        }
        if !(1..=60).contains(&self.analysis_fps) {
            return bad("analysis_fps must be within 1..=60");
        }
        if self.challenge_timeout_ms < 1_000 || self.passive_hold_ms < 1_000 {
            return bad("challenge_timeout_ms and passive_hold_ms must be at least 1000");
        }
        if self.max_frame_bytes == 0 || self.max_frame_pixels == 0 {
            return bad("frame limits must be positive");
        }
        Ok(())
    }

    /// Smallest capture-time gap between two analysed frames. A little under the nominal
    /// period, so a camera running at exactly `analysis_fps` has every frame analysed.
    pub(crate) fn min_frame_interval_ms(&self) -> u64 {
        (900 / u64::from(self.analysis_fps.max(1))).max(1)
    }
}
