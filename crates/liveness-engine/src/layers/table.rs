//! The layers as one table (issue 66). Every layer reads the same [`SessionEvidence`] and is
//! one row of [`LAYERS`]: the layer, its scorer, the names of the features it measures (the
//! inputs of a fitted decision) and its weight in each mode where the weighted mean still
//! decides. A new layer is one file under `layers/`, one row here and one reason code in
//! `domain::ReasonCode`; the session, the fusion and the reports take it from the table.

use crate::challenge::ChallengeTracker;
use crate::config::SessionMode;
use crate::illumination::reading::LightReading;
use crate::observation::{CarriedBoxJudgement, FrameObservation};

use super::injection::StreamTiming;
use super::{Layer, LayerScore, anti_spoof, challenge_response, consistency, injection, motion};

/// Everything a session saw that a layer may judge: the analysed frames, the frames the model
/// judged in a carried face box, the stream's timing, the challenges, the light check's reading
/// (none when it is off), the mode, and which of the model's faces judge (`model_faces`).
#[derive(Debug, Clone, Copy)]
pub struct SessionEvidence<'a> {
    pub mode: SessionMode,
    pub frames: &'a [FrameObservation],
    pub carried_box_judgements: &'a [CarriedBoxJudgement],
    pub timing: &'a StreamTiming,
    pub challenges: &'a [ChallengeTracker],
    pub light: Option<&'a LightReading>,
    pub model_faces: ModelFaces,
}

/// Which faces the anti-spoof layer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFaces {
    /// The faces outside the screen's colours and the camera's settling after them (every
    /// verdict but the one at the colours' end).
    Unlit,
    /// The faces the colours may tint: the verdict at the colours' end
    /// (`LivenessSession::early_look`), before any unlit face exists.
    UnderColours,
}

/// One layer of the table.
#[derive(Debug, Clone, Copy)]
pub struct LayerRow {
    pub layer: Layer,
    /// Scores the session; the score's `features` follow [`Self::features`] one for one.
    pub score: fn(&SessionEvidence) -> LayerScore,
    /// The names of the features the layer measures, in the order it exports them.
    pub features: &'static [&'static str],
    /// Weight in the fused mean in active mode; `None`: the layer is not scored in that mode.
    pub active_weight: Option<f32>,
    /// Weight in the fused mean in passive mode; `None`: not scored in that mode.
    pub passive_weight: Option<f32>,
}

impl LayerRow {
    /// The layer's weight in `mode`, `None` when it is not scored there.
    pub fn weight(&self, mode: SessionMode) -> Option<f32> {
        match mode {
            SessionMode::Active => self.active_weight,
            SessionMode::Passive => self.passive_weight,
        }
    }
}

/// The layers, in the order the verdict lists them. The weights are the hand-set ones of
/// docs/liveness.md (each mode's sum to 1).
pub const LAYERS: [LayerRow; 5] = [
    LayerRow {
        layer: Layer::ChallengeResponse,
        score: challenge_response::score,
        features: &challenge_response::FEATURES,
        active_weight: Some(0.30),
        passive_weight: None,
    },
    LayerRow {
        layer: Layer::AntiSpoof,
        score: anti_spoof::score,
        features: &anti_spoof::FEATURES,
        active_weight: Some(0.20),
        passive_weight: Some(0.30),
    },
    LayerRow {
        layer: Layer::DeepfakeInjection,
        score: injection::score,
        features: &injection::FEATURES,
        active_weight: Some(0.15),
        passive_weight: Some(0.20),
    },
    LayerRow {
        layer: Layer::FaceConsistency,
        score: consistency::score,
        features: &consistency::FEATURES,
        active_weight: Some(0.15),
        passive_weight: Some(0.20),
    },
    LayerRow {
        layer: Layer::Motion,
        score: motion::score,
        features: &motion::FEATURES,
        active_weight: Some(0.20),
        passive_weight: Some(0.30),
    },
];

/// Every layer of the session's mode, scored over `evidence`, in the table's order.
pub fn score_session(evidence: &SessionEvidence) -> Vec<LayerScore> {
    LAYERS
        .iter()
        .filter(|row| row.weight(evidence.mode).is_some())
        .map(|row| (row.score)(evidence))
        .collect()
}

/// Each layer scored in `mode` with its weight, in the table's order.
pub fn weights(mode: SessionMode) -> Vec<(Layer, f32)> {
    LAYERS
        .iter()
        .filter_map(|row| Some((row.layer, row.weight(mode)?)))
        .collect()
}

/// The names of every feature a session of `mode` exports, `layer.feature`, in the order
/// [`score_session`]'s scores hold their values.
pub fn feature_names(mode: SessionMode) -> Vec<String> {
    LAYERS
        .iter()
        .filter(|row| row.weight(mode).is_some())
        .flat_map(|row| {
            row.features
                .iter()
                .map(move |f| format!("{}.{f}", row.layer.name()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(mode: SessionMode) -> Vec<LayerScore> {
        score_session(&SessionEvidence {
            mode,
            frames: &[],
            carried_box_judgements: &[],
            timing: &StreamTiming::default(),
            challenges: &[],
            light: None,
            model_faces: ModelFaces::Unlit,
        })
    }

    #[test]
    fn each_mode_weighs_its_layers_to_one() {
        for mode in [SessionMode::Active, SessionMode::Passive] {
            let total: f32 = weights(mode).iter().map(|(_, w)| w).sum();
            assert!((total - 1.0).abs() < 1e-6, "{mode:?}: {total}");
        }
        assert_eq!(weights(SessionMode::Active).len(), 5);
        assert_eq!(weights(SessionMode::Passive).len(), 4);
    }

    #[test]
    fn every_layer_exports_one_value_per_named_feature_even_with_nothing_seen() {
        for mode in [SessionMode::Active, SessionMode::Passive] {
            let scores = empty(mode);
            let exported: usize = scores.iter().map(|s| s.features.len()).sum();
            assert_eq!(exported, feature_names(mode).len(), "{mode:?}");
            for score in &scores {
                let row = LAYERS
                    .iter()
                    .find(|r| r.layer == score.layer)
                    .expect("every score comes from a row");
                assert_eq!(score.features.len(), row.features.len(), "{:?}", row.layer);
            }
        }
        let names = feature_names(SessionMode::Active);
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(
            unique.len(),
            names.len(),
            "a feature name repeats: {names:?}"
        );
        assert!(
            names.contains(&"anti_spoof.median".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn a_layers_name_is_how_the_verdict_spells_it() {
        for row in LAYERS {
            let spelled = serde_json::to_value(row.layer).expect("a layer serialises");
            assert_eq!(spelled.as_str(), Some(row.layer.name()));
        }
    }
}
