//! Opening a session: the one constructor production uses, which draws the challenges and
//! the light sequence from the session's seed on the path the client chose (the screen's
//! colours, or the no-flash path's head turns), and the challenge count a creation draws alike.

use std::sync::Arc;

use domain::LivenessPath;
use face_engine::FaceEngine;

use super::{LightCheck, LivenessSession};
use crate::challenge::{ChallengeKind, draw_challenges, draw_challenges_from};
use crate::config::{LivenessConfig, SessionMode};
use crate::error::LivenessError;
use crate::illumination::Illumination;

/// What a passive session on the no-flash path asks instead of the light: head turns, which
/// need no colour and which no still picture or replay made before the draw can answer.
pub const NO_FLASH_CHALLENGES: [ChallengeKind; 2] =
    [ChallengeKind::TurnLeft, ChallengeKind::TurnRight];

/// Whether a client opens a session for the first time or again after a dropped socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    First,
    Reconnect,
}

impl LivenessSession {
    /// The one way production opens a session: its challenges (active mode) and its light
    /// sequence (when `config.illumination_enabled`, on the first opening only) are drawn from
    /// `rng`, in that order. Production seeds `rng` with the seed the session was created with
    /// (so [`Self::challenge_count`] at creation and every opening draw alike); tests and
    /// evaluations seed it with a known value. A [`Opening::Reconnect`] draws the same
    /// challenges and shows no light: the sequence was sent before and is never sent again,
    /// so a reconnect cannot fish for a new one (it is judged without light: `retry` at best).
    ///
    /// On the [`LivenessPath::NoFlash`] path no colours are drawn or shown; a passive session
    /// asks head turns instead ([`NO_FLASH_CHALLENGES`], alternating left and right, as many as
    /// `config.min_challenges`) and is judged as an active one: challenge-response, anti-spoof,
    /// consistency, injection and motion. An active session keeps its drawn challenges.
    pub fn new(
        engine: Arc<FaceEngine>,
        config: LivenessConfig,
        mode: SessionMode,
        rng: &mut impl rand::CryptoRng,
        opening: Opening,
        path: LivenessPath,
    ) -> Result<Self, LivenessError> {
        let (mode, plan) = match (path, mode) {
            (LivenessPath::NoFlash, SessionMode::Passive) => {
                let turns = config.min_challenges;
                let plan = draw_challenges_from(rng, &NO_FLASH_CHALLENGES, turns, turns);
                (SessionMode::Active, plan)
            }
            (LivenessPath::NoFlash | LivenessPath::Light, _) => {
                (mode, Self::draw_plan(&config, mode, rng))
            }
        };
        let light = match (config.illumination_enabled, path, opening) {
            (false, _, _) | (true, LivenessPath::NoFlash, _) => LightCheck::Off,
            (true, LivenessPath::Light, Opening::First) => {
                LightCheck::Sequence(Illumination::draw(rng))
            }
            (true, LivenessPath::Light, Opening::Reconnect) => LightCheck::ShownEarlier,
        };
        Self::replaying(engine, config, mode, plan, light)
    }

    /// How many challenges a session opened with `rng` seeded alike will ask (0 in passive
    /// mode): the first of [`Self::new`]'s draws, made when the session is created.
    pub fn challenge_count(
        config: &LivenessConfig,
        mode: SessionMode,
        rng: &mut impl rand::CryptoRng,
    ) -> usize {
        Self::draw_plan(config, mode, rng).len()
    }

    fn draw_plan(
        config: &LivenessConfig,
        mode: SessionMode,
        rng: &mut impl rand::CryptoRng,
    ) -> Vec<ChallengeKind> {
        match mode {
            SessionMode::Active => {
                draw_challenges(rng, config.min_challenges, config.max_challenges)
            }
            SessionMode::Passive => Vec::new(),
        }
    }
}
