//! Layer 1, challenge-response (active mode): did the user perform each randomly drawn action
//! after it was asked, starting from and returning to rest?
//!
//! Score: the mean over challenges of 0 (timed out) or 0.6 + 0.4 × how clearly it was done.
//! Attack: half or more of the challenges were not performed — what a replayed recording
//! does when asked for actions it does not contain. A single miss lowers the score below
//! the pass bar (a real user gets `retry`).

use domain::ReasonCode;

use super::{Layer, LayerScore};
use crate::challenge::{ChallengeState, ChallengeTracker};

pub fn score(challenges: &[ChallengeTracker]) -> LayerScore {
    if challenges.is_empty() {
        return LayerScore::no_evidence(
            Layer::ChallengeResponse,
            ReasonCode::ChallengeMissed,
            "no challenge was asked".into(),
        );
    }
    let passed = challenges
        .iter()
        .filter(|c| c.state == ChallengeState::Passed)
        .count();
    let missed = challenges.len() - passed;
    let per_challenge: Vec<String> = challenges
        .iter()
        .map(|c| {
            let outcome = if c.state == ChallengeState::Passed {
                "passed"
            } else {
                "missed"
            };
            format!("{} {outcome} ({:.2})", c.kind.as_str(), c.peak_strength())
        })
        .collect();
    let reason = format!(
        "{passed} of {} performed: {}",
        challenges.len(),
        per_challenge.join(", ")
    );
    if missed * 2 >= challenges.len() {
        return LayerScore::attack(
            Layer::ChallengeResponse,
            ReasonCode::ChallengeMissed,
            reason,
        );
    }
    let total: f32 = challenges
        .iter()
        .map(|c| {
            if c.state == ChallengeState::Passed {
                0.6 + 0.4 * c.peak_strength()
            } else {
                0.0
            }
        })
        .sum();
    // one miss keeps the layer below the fusion's doubt line, so the session cannot pass
    let score = if missed > 0 {
        (total / challenges.len() as f32).min(0.3)
    } else {
        total / challenges.len() as f32
    };
    LayerScore::new(Layer::ChallengeResponse, score, reason)
}
