//! The five verification layers, listed in one table ([`LAYERS`]). Each reads the session's
//! evidence ([`SessionEvidence`]) and returns a [`LayerScore`]: a score in 0..1 (1 = clearly
//! live), a reason in words, what kind of [`Evidence`] the layer found, and the features it
//! measured. Only evidence of an attack may fail a session on its own; a
//! layer that could not judge (too little motion, a face too dark for the model) says so
//! instead of guessing, and the session ends in `retry` at worst.

pub mod anti_spoof;
pub mod challenge_response;
pub mod consistency;
pub mod injection;
pub mod motion;
mod table;

use domain::ReasonCode;
use serde::Serialize;

pub use crate::evidence::Evidence;
use crate::observation::{FaceObservation, FrameObservation};
pub use table::{
    LAYERS, LayerRow, ModelFaces, SessionEvidence, feature_names, score_session, weights,
};

/// The layers, in the order the verdict lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    ChallengeResponse,
    AntiSpoof,
    DeepfakeInjection,
    FaceConsistency,
    Motion,
}

impl Layer {
    /// The layer's name as the verdict's `layers` list spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::ChallengeResponse => "challenge_response",
            Self::AntiSpoof => "anti_spoof",
            Self::DeepfakeInjection => "deepfake_injection",
            Self::FaceConsistency => "face_consistency",
            Self::Motion => "motion",
        }
    }
}

/// One layer's finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerScore {
    pub layer: Layer,
    /// 0..1; 1 means the layer found the session clearly live. With no evidence it is 0.5,
    /// for display only: fusion does not use it.
    pub score: f32,
    /// What the score rests on, in words and numbers.
    pub reason: String,
    pub evidence: Evidence,
    /// The reason code of an attack or of no evidence (for the backend's `reasons`).
    #[serde(skip)]
    pub cause: Option<ReasonCode>,
    /// An attack finding that a camera's own processing (white balance, exposure, a moving
    /// phone) or a model's error can also produce on a live face: another layer's evidence of
    /// a live face disputes it (`crate::fusion`).
    #[serde(skip)]
    pub disputable: bool,
    /// The layer measured a live face beyond doubt, in a way no camera's processing fakes:
    /// parallax of a head, the light reflected by a near curved face, the model sure of a
    /// live face in full view. It disputes another layer's disputable attack.
    #[serde(skip)]
    pub vouches_live: bool,
    /// What the layer measured, one value per name of its [`LayerRow::features`] (NaN where it
    /// could not measure): the inputs of a fitted decision (issue 66). Never serialised, so no
    /// per-layer measurement reaches a client.
    #[serde(skip)]
    pub features: Vec<f32>,
}

impl LayerScore {
    pub(crate) fn new(layer: Layer, score: f32, reason: String) -> Self {
        Self {
            layer,
            score: if score.is_finite() {
                score.clamp(0.0, 1.0)
            } else {
                0.0
            },
            reason,
            evidence: Evidence::Measured,
            cause: None,
            disputable: false,
            vouches_live: false,
            features: Vec::new(),
        }
    }

    pub(crate) fn attack(layer: Layer, cause: ReasonCode, reason: String) -> Self {
        Self {
            layer,
            score: 0.0,
            reason,
            evidence: Evidence::Attack,
            cause: Some(cause),
            disputable: false,
            vouches_live: false,
            features: Vec::new(),
        }
    }

    /// An attack finding that a camera's processing or a model's error can fake
    /// ([`Self::disputable`]).
    pub(crate) fn disputable_attack(layer: Layer, cause: ReasonCode, reason: String) -> Self {
        Self {
            disputable: true,
            ..Self::attack(layer, cause, reason)
        }
    }

    /// The same finding, marked as evidence of a live face beyond doubt
    /// ([`Self::vouches_live`]); only a measured finding can vouch.
    pub(crate) fn vouching_live(mut self, vouches: bool) -> Self {
        self.vouches_live = vouches && self.evidence == Evidence::Measured;
        self
    }

    /// The layer could not judge: neither live nor attack.
    pub(crate) fn no_evidence(layer: Layer, cause: ReasonCode, reason: String) -> Self {
        Self {
            layer,
            score: 0.5,
            reason,
            evidence: Evidence::None,
            cause: Some(cause),
            disputable: false,
            vouches_live: false,
            features: Vec::new(),
        }
    }

    /// The same finding with the layer's measured `features` (in its row's order).
    pub(crate) fn with_features(mut self, features: impl Into<Vec<f32>>) -> Self {
        self.features = features.into();
        self
    }

    pub fn is_attack(&self) -> bool {
        self.evidence == Evidence::Attack
    }
}

/// Linear ramp: 0 at or below `lo`, 1 at or above `hi`.
pub(crate) fn ramp(x: f32, lo: f32, hi: f32) -> f32 {
    ((x - lo) / (hi - lo)).clamp(0.0, 1.0)
}

/// The observed faces, in capture order.
pub(crate) fn faces(frames: &[FrameObservation]) -> impl Iterator<Item = &FaceObservation> {
    frames.iter().filter_map(|f| f.face.as_ref())
}

/// The median of `values`; NaN when empty.
pub(crate) fn median(mut values: Vec<f32>) -> f32 {
    quantile(&mut values, 0.5)
}

/// The value at quantile `q` (0..1) of `values` (sorted in place); NaN when empty.
pub fn quantile(values: &mut [f32], q: f32) -> f32 {
    if values.is_empty() {
        return f32::NAN;
    }
    values.sort_by(f32::total_cmp);
    let i = ((values.len() - 1) as f32 * q.clamp(0.0, 1.0)).round() as usize;
    values[i]
}
