//! Verdict fusion: a weighted mean of the layers that measured something, with overrides
//! that keep a `fail` for attack evidence alone. A layer in doubt (below [`DOUBT`]) keeps the
//! session from passing, whatever the others say; a layer that found no evidence either way is
//! left out of the mean and also keeps the session from passing, so too little to judge ends
//! in `retry`. Attacks weigh by [`AttackCall`]: only an attack with a blocking code
//! (`ReasonCode::is_attack`) that no other layer disputes fails a session; an attack the
//! camera's processing or a model's error can fake, against another layer's evidence of a live
//! face, ends in `retry` with `conflicting_evidence`; an attack whose code asks for manual
//! review (the anti-spoof model alone, missed challenges, several faces) ends in `retry` with
//! that code. So a `fail` always carries a code whose action is `block`, and no live person is
//! failed on one disputed layer. The weights are the layers' table's (`layers::LAYERS`); why,
//! in docs/liveness.md.

use domain::{PASS_CONFIDENCE, RETRY_CONFIDENCE, ReasonCode, Verdict, VerdictThresholds};
use serde::Serialize;

use crate::config::SessionMode;
use crate::layers::{Evidence, Layer, LayerScore};

/// A layer scoring below this blocks a pass (the session gets `retry` at best).
pub const DOUBT: f32 = 0.35;
/// Confidence ceiling when a layer raised an attack (below the retry bar, `RETRY_CONFIDENCE`).
const ATTACK_CEILING: f32 = 0.3;
/// Confidence ceiling when a layer is in doubt or the session ended inconclusively: the
/// highest reported confidence (three decimals kept, so 0.01 below) short of a pass.
pub(crate) const RETRY_CEILING: f32 = PASS_CONFIDENCE - 0.01;
/// Confidence floor of a session that ended before its flow completed (no face, timeout,
/// too many invalid frames, stream closed) and raised no attack: the spec's `retry`.
pub(crate) const RETRY_FLOOR: f32 = RETRY_CONFIDENCE;

/// Why a session ended before its flow completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The flow finished: every challenge asked, or the passive hold collected.
    Completed,
    /// No usable face (none, or never steady and frontal) within `no_face_timeout_ms`.
    NoFace,
    SessionTimeout,
    TooManyInvalidFrames,
    /// The caller closed the stream before the flow completed.
    StreamEnded,
}

/// The final decision with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerdictReport {
    pub verdict: Verdict,
    pub confidence: f32,
    pub end_reason: EndReason,
    pub layers: Vec<LayerScore>,
    /// Stable codes of why the session did not pass (or what it raised while passing); see
    /// [`reasons`].
    pub reasons: Vec<ReasonCode>,
    /// The fitted decision's probability of a live person (`crate::fitted`), when the session
    /// was configured with one: reported beside the verdict, not deciding it. Never serialised.
    #[serde(skip)]
    pub fitted_live_probability: Option<f32>,
}

impl VerdictReport {
    /// Whether no layer raised attack evidence, disputable or not: the one look at the
    /// colours' end passes only such a session (`LivenessSession::early_look`). Read by a
    /// loaded server, a look has fewer key frames (five moving pairs or fewer), so motion may
    /// not see a sheet's flatness there that it sees after the wait; the anti-spoof model's
    /// doubt then stands alone, and the session waits for the verdict that weighs everything
    /// (docs/accuracy.md, "A look passes no disputed session").
    pub fn raised_no_attack(&self) -> bool {
        self.layers
            .iter()
            .all(|layer| layer.evidence != Evidence::Attack)
    }
}

impl EndReason {
    /// The reason code of a flow that did not finish.
    pub fn reason(self) -> Option<ReasonCode> {
        match self {
            Self::Completed => None,
            Self::NoFace => Some(ReasonCode::FaceNotFound),
            Self::SessionTimeout => Some(ReasonCode::SessionTimeout),
            Self::TooManyInvalidFrames => Some(ReasonCode::TooManyInvalidFrames),
            Self::StreamEnded => Some(ReasonCode::StreamEnded),
        }
    }
}

/// How the attacks the layers raised weigh on the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackCall {
    /// No layer raised an attack.
    NoAttack,
    /// An attack with a blocking code that no other layer disputes: `fail`.
    Fail,
    /// Attacks whose codes ask for manual review only: `retry` with those codes.
    ManualReview,
    /// Every blocking attack is disputed by another layer's evidence of a live face (or a
    /// manual-review attack is): `retry` with `conflicting_evidence`.
    Disputed,
}

/// Whether another layer than `attack`'s vouches for a live face against it.
fn disputed(attack: &LayerScore, layers: &[LayerScore]) -> bool {
    attack.disputable
        && layers
            .iter()
            .any(|other| other.layer != attack.layer && other.vouches_live)
}

/// How the attacks among `layers` weigh on the verdict.
pub fn attack_call(layers: &[LayerScore]) -> AttackCall {
    let attacks: Vec<&LayerScore> = layers.iter().filter(|l| l.is_attack()).collect();
    if attacks.is_empty() {
        return AttackCall::NoAttack;
    }
    let blocking = |l: &&&LayerScore| l.cause.is_some_and(ReasonCode::is_attack);
    if attacks
        .iter()
        .filter(blocking)
        .any(|a| !disputed(a, layers))
    {
        AttackCall::Fail
    } else if attacks.iter().any(|a| disputed(a, layers)) {
        AttackCall::Disputed
    } else {
        AttackCall::ManualReview
    }
}

/// The code of a layer that measured, but too weakly to let the session pass.
pub(crate) fn doubt_reason(layer: Layer) -> ReasonCode {
    match layer {
        Layer::ChallengeResponse => ReasonCode::ChallengeMissed,
        Layer::AntiSpoof => ReasonCode::PresentationAttackSuspected,
        Layer::DeepfakeInjection => ReasonCode::InjectionSuspected,
        Layer::FaceConsistency => ReasonCode::FaceChanged,
        Layer::Motion => ReasonCode::PrintSuspected,
    }
}

/// The verdict's reasons, most serious first: every attack a layer raised, then (short of a
/// pass) why the flow ended early, the layers that could not judge and the layers in doubt;
/// `low_confidence` when a session short of a pass has none of these.
pub fn reasons(
    verdict: Verdict,
    end_reason: EndReason,
    layers: &[LayerScore],
    weights: &[(Layer, f32)],
) -> Vec<ReasonCode> {
    let weighted = |l: &&LayerScore| weights.iter().any(|(layer, _)| *layer == l.layer);
    let mut codes: Vec<ReasonCode> = Vec::new();
    if attack_call(layers) == AttackCall::Disputed {
        codes.push(ReasonCode::ConflictingEvidence);
    }
    codes.extend(
        layers
            .iter()
            .filter(|l| l.is_attack() && !disputed(l, layers))
            .filter_map(|l| l.cause),
    );
    if verdict != Verdict::Pass {
        codes.extend(end_reason.reason());
        codes.extend(
            layers
                .iter()
                .filter(weighted)
                .filter(|l| l.evidence == Evidence::None)
                .filter_map(|l| l.cause),
        );
        codes.extend(
            layers
                .iter()
                .filter(weighted)
                .filter(|l| l.evidence == Evidence::Measured && l.score < DOUBT)
                .map(|l| doubt_reason(l.layer)),
        );
        if codes.is_empty() {
            codes.push(ReasonCode::LowConfidence);
        }
    }
    let mut seen = std::collections::HashSet::new();
    codes.retain(|code| seen.insert(*code));
    codes
}

/// A confidence as a verdict reports it: three decimals.
pub(crate) fn reported(confidence: f32) -> f32 {
    (confidence * 1000.0).round() / 1000.0
}

/// Fuses the layers of a session of `mode` that ended for `end_reason`.
pub fn fuse(mode: SessionMode, layers: Vec<LayerScore>, end_reason: EndReason) -> VerdictReport {
    let weights = crate::layers::weights(mode);
    let (mut sum, mut total) = (0.0f32, 0.0f32);
    let mut unjudged = false;
    for (layer, weight) in &weights {
        let found = layers.iter().find(|l| l.layer == *layer);
        if found.is_some_and(|l| l.evidence == Evidence::None) {
            unjudged = true;
            continue;
        }
        sum += weight * found.map_or(0.0, |l| l.score);
        total += weight;
    }
    let mut confidence = if total > 0.0 {
        sum / total
    } else {
        RETRY_FLOOR
    };
    if layers
        .iter()
        .any(|l| l.evidence != Evidence::None && l.score < DOUBT)
    {
        confidence = confidence.min(RETRY_CEILING);
    }
    if unjudged {
        // a layer could not judge: not enough to pass
        confidence = confidence.min(RETRY_CEILING);
    }
    if end_reason != EndReason::Completed {
        // the flow did not finish: inconclusive, so `retry` unless a layer saw an attack
        confidence = confidence.clamp(RETRY_FLOOR, RETRY_CEILING);
    }
    let confidence = if confidence.is_finite() {
        confidence.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let confidence = match attack_call(&layers) {
        AttackCall::Fail => confidence.min(ATTACK_CEILING),
        AttackCall::ManualReview | AttackCall::Disputed => {
            confidence.clamp(RETRY_FLOOR, RETRY_CEILING)
        }
        // without attack evidence a session is at worst inconclusive
        AttackCall::NoAttack => confidence.max(RETRY_FLOOR),
    };
    let verdict = VerdictThresholds::default()
        .verdict(confidence)
        .unwrap_or(Verdict::Fail);
    VerdictReport {
        verdict,
        confidence: reported(confidence),
        end_reason,
        reasons: reasons(verdict, end_reason, &layers, &weights),
        layers,
        fitted_live_probability: None,
    }
}

#[cfg(test)]
#[path = "fusion_tests.rs"]
mod tests;
