//! Layer 1, challenge-response (active mode): did the user perform each randomly drawn action
//! after it was asked, starting from and returning to rest?
//!
//! Score: the mean over challenges of 0 (timed out) or 0.6 + 0.4 × how clearly it was done.
//! Attack: half or more of the challenges were not performed — what a replayed recording
//! does when asked for actions it does not contain. A single miss lowers the score below
//! the pass bar (a real user gets `retry`).

use domain::ReasonCode;

use super::{Layer, LayerScore, SessionEvidence};
use crate::challenge::{ChallengeState, ChallengeTracker};

/// Score of a performed challenge before its strength: what a barely clear action earns (set
/// by hand with the engine, 54c157f: a performed challenge never pulls the layer into doubt).
const PERFORMED_FLOOR: f32 = 0.6;
/// The layer's highest score with one challenge missed: below fusion's doubt line, so the
/// session cannot pass.
const ONE_MISSED_CEILING: f32 = 0.3;

/// What the layer exports for the fitted decision, in this order: the share of challenges
/// performed and the mean strength of the actions (0 for a missed one).
pub const FEATURES: [&str; 2] = ["performed_share", "mean_strength"];

/// The layer over the session's challenges.
pub fn score(evidence: &SessionEvidence) -> LayerScore {
    let challenges = evidence.challenges;
    judge(challenges).with_features(features(challenges))
}

fn features(challenges: &[ChallengeTracker]) -> [f32; FEATURES.len()] {
    if challenges.is_empty() {
        return [f32::NAN; FEATURES.len()];
    }
    let n = challenges.len() as f32;
    let performed = challenges
        .iter()
        .filter(|c| c.state == ChallengeState::Passed);
    [
        performed.clone().count() as f32 / n,
        performed.map(ChallengeTracker::peak_strength).sum::<f32>() / n,
    ]
}

fn judge(challenges: &[ChallengeTracker]) -> LayerScore {
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
            let (outcome, why) = if c.state == ChallengeState::Passed {
                ("passed", "")
            } else if c.acted_without_return() {
                ("missed", ", not seen back at rest")
            } else {
                ("missed", "")
            };
            format!(
                "{} {outcome} ({:.2}{why})",
                c.kind.as_str(),
                c.peak_strength()
            )
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
                PERFORMED_FLOOR + (1.0 - PERFORMED_FLOOR) * c.peak_strength()
            } else {
                0.0
            }
        })
        .sum();
    // one miss keeps the layer below the fusion's doubt line, so the session cannot pass
    let score = if missed > 0 {
        (total / challenges.len() as f32).min(ONE_MISSED_CEILING)
    } else {
        total / challenges.len() as f32
    };
    LayerScore::new(Layer::ChallengeResponse, score, reason)
}
