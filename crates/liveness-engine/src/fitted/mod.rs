//! The fitted liveness decision (issue 66): what a session gives it ([`input_names`],
//! [`inputs`]: each layer's outcome, then the features it measured) and the coefficients of one
//! L2-regularised logistic regression fitted on the development set ([`FittedDecision`], the
//! bundled `data/fitted_decision.json`, written by `examples/fit_liveness.rs` and re-fitted by
//! a test of `facegate-liveness-rig`). A model reads the inputs it names, a subset of the
//! engine's; loading refuses a name the engine does not export, naming it; nothing falls back
//! to guessed weights.
//!
//! Between `pass` and `retry` of a passive session whose light gave evidence and whose flow
//! finished it decides alone ([`verdict::decide`]); the rules keep every `fail` (the hard
//! vetoes) and every session it does not decide. The bundled model reads the layers' outcomes
//! and 21 measured features of the face's depth, its answer to the light (the outline ring
//! just outside the face among them) and the screen, each held to the sign its physics gives
//! (`liveness_rig::eval::monotone`). Held out by person and by camera family it brings the live
//! sessions not passed from 14 of 78 (the rules alone) to 2, and the trimmed sheets that pass
//! from 4 of 132 to 2 by person and 1 by camera family (docs/accuracy.md).

pub mod verdict;

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::config::SessionMode;
use crate::error::LivenessError;
use crate::evidence::Evidence;
use crate::layers::{LAYERS, Layer, LayerScore};

/// A layer's outcome as the model reads it, before its features: its score, whether it
/// raised an attack (1 undisputable, 0.5 disputable), whether it could not judge, and whether
/// it vouched for a live face.
pub const OUTCOMES: [&str; 4] = ["score", "attack", "unjudged", "vouches"];

/// The bundled coefficients (`data/fitted_decision.json`).
const BUNDLED: &str = include_str!("../../data/fitted_decision.json");

/// The names of the model's inputs for a session of `mode`, `layer.name`: for each layer of
/// the mode in the table's order, its [`OUTCOMES`] and then its features.
pub fn input_names(mode: SessionMode) -> Vec<String> {
    LAYERS
        .iter()
        .filter(|row| row.weight(mode).is_some())
        .flat_map(|row| {
            let layer = row.layer.name();
            OUTCOMES
                .iter()
                .chain(row.features)
                .map(move |name| format!("{layer}.{name}"))
        })
        .collect()
}

/// The model's inputs from a session's layer scores (in the table's order, as
/// `layers::score_session` returns them), one per [`input_names`]; NaN where a layer could
/// not measure.
pub fn inputs(layers: &[LayerScore]) -> Vec<f32> {
    layers
        .iter()
        .flat_map(|layer| {
            let attack = match (layer.evidence, layer.disputable) {
                (Evidence::Attack, false) => 1.0,
                (Evidence::Attack, true) => 0.5,
                _ => 0.0,
            };
            let unjudged = f32::from(u8::from(layer.evidence == Evidence::None));
            let vouches = f32::from(u8::from(layer.vouches_live));
            [layer.score, attack, unjudged, vouches]
                .into_iter()
                .chain(layer.features.iter().copied())
        })
        .collect()
}

/// One fitted logistic regression over standardised inputs, with an indicator for each input
/// that was missing in some training session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FittedDecision {
    /// The mode whose sessions it was fitted on.
    pub mode: SessionMode,
    /// The inputs it reads, by name: engine inputs of `mode` ([`input_names`]).
    pub inputs: Vec<String>,
    /// Each input's mean and standard deviation on the training sessions.
    pub means: Vec<f64>,
    pub scales: Vec<f64>,
    /// The inputs that get a missing indicator (indices into `inputs`).
    pub missing_indicators: Vec<usize>,
    /// One weight per standardised input, then one per missing indicator.
    pub weights: Vec<f64>,
    pub intercept: f64,
    /// The probability from which a session would pass: just above every training attack's,
    /// as the model scored it and as models fitted without its person or its camera family
    /// scored it (`liveness_rig::eval::pass_point`).
    pub pass_at: f64,
    /// The probability from which a passive session passes at its one look when the colours'
    /// window ends (`LivenessSession::early_look`: the model's faces under the colours, the
    /// motion so far), before the camera's settling and the unlit faces: just above every
    /// training attack's probability at that look, read in order or as a loaded server reads
    /// it (about one face a colour step in a key frame's box), and never below
    /// [`Self::pass_at`]. Absent: no session ends at that look.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_pass_at: Option<f64>,
    /// Where the coefficients come from: the development set, its size and the fit's settings.
    pub provenance: String,
}

impl FittedDecision {
    /// The coefficients bundled with the engine, checked.
    pub fn bundled() -> Result<Self, LivenessError> {
        Self::parse(BUNDLED)
    }

    /// The bundled coefficients, parsed once and shared; None only if the bundled file does
    /// not fit the engine, which `the_bundled_coefficients_fit_the_engine` rules out.
    pub fn shared_bundled() -> Option<Arc<Self>> {
        static BUNDLED_DECISION: OnceLock<Option<Arc<FittedDecision>>> = OnceLock::new();
        BUNDLED_DECISION
            .get_or_init(|| Self::bundled().ok().map(Arc::new))
            .clone()
    }

    /// Coefficients from JSON, checked against the engine's inputs ([`Self::check`]).
    pub fn parse(json: &str) -> Result<Self, LivenessError> {
        let decision: Self = serde_json::from_str(json)
            .map_err(|e| LivenessError::FittedDecision(format!("unreadable: {e}")))?;
        decision.check()?;
        Ok(decision)
    }

    /// Whether the coefficients fit the engine: every input is one the engine exports for the
    /// mode ([`input_names`]; a model may read a subset), none twice, and every list of the
    /// right length. The error names the inputs the engine does not export.
    pub fn check(&self) -> Result<(), LivenessError> {
        let engine = input_names(self.mode);
        let unknown: Vec<&String> = self.inputs.iter().filter(|n| !engine.contains(n)).collect();
        if !unknown.is_empty() {
            return Err(LivenessError::FittedDecision(format!(
                "it reads inputs the engine does not export: {unknown:?} (the engine's: {engine:?})"
            )));
        }
        let distinct: std::collections::HashSet<&String> = self.inputs.iter().collect();
        if distinct.len() != self.inputs.len() || self.inputs.is_empty() {
            return Err(LivenessError::FittedDecision(
                "its inputs are empty or name one input twice".to_string(),
            ));
        }
        let width = self.inputs.len();
        let lengths_fit = self.means.len() == width
            && self.scales.len() == width
            && self.weights.len() == width + self.missing_indicators.len()
            && self.missing_indicators.iter().all(|&j| j < width);
        if let Some(early) = self.early_pass_at
            && !(self.pass_at..=1.0).contains(&early)
        {
            return Err(LivenessError::FittedDecision(format!(
                "its early pass point {early} lies outside its pass point {} ..= 1",
                self.pass_at
            )));
        }
        if !lengths_fit {
            return Err(LivenessError::FittedDecision(format!(
                "{width} inputs, {} means, {} scales, {} weights and {} missing indicators do not agree",
                self.means.len(),
                self.scales.len(),
                self.weights.len(),
                self.missing_indicators.len()
            )));
        }
        Ok(())
    }

    /// The values of the model's inputs among a session's `values` (one per engine input of
    /// the mode, [`input_names`]).
    pub fn select(&self, values: &[f64]) -> Vec<f64> {
        self.select_among(&input_names(self.mode), values)
    }

    /// [`Self::select`] with the engine's input names already listed.
    fn select_among(&self, engine: &[String], values: &[f64]) -> Vec<f64> {
        self.inputs
            .iter()
            .map(|name| {
                engine
                    .iter()
                    .position(|n| n == name)
                    .and_then(|j| values.get(j).copied())
                    .unwrap_or(f64::NAN)
            })
            .collect()
    }

    /// The model's row for `inputs`: standardised (a missing input at the mean), then the
    /// missing indicators.
    pub fn row(&self, inputs: &[f64]) -> Vec<f64> {
        let standardised = inputs.iter().enumerate().map(|(j, v)| {
            if v.is_finite() {
                (v - self.means[j]) / self.scales[j]
            } else {
                0.0
            }
        });
        let indicators = self
            .missing_indicators
            .iter()
            .map(|&j| f64::from(u8::from(!inputs[j].is_finite())));
        standardised.chain(indicators).collect()
    }

    /// The probability of a live person for a session's values of the model's inputs (one per
    /// name of [`Self::inputs`]).
    pub fn probability(&self, inputs: &[f64]) -> f64 {
        let z = self.intercept + self.pulls(inputs).iter().sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// Each model input's pull on the log-odds for a session's values of the model's inputs:
    /// its weight times its standardised value, plus its missing indicator's weight times the
    /// indicator (one per name of [`Self::inputs`]).
    pub fn pulls(&self, inputs: &[f64]) -> Vec<f64> {
        let row = self.row(inputs);
        let width = self.inputs.len();
        let mut pulls: Vec<f64> = (0..width).map(|j| self.weights[j] * row[j]).collect();
        for (k, &j) in self.missing_indicators.iter().enumerate() {
            pulls[j] += self.weights[width + k] * row[width + k];
        }
        pulls
    }

    /// The values of the model's inputs for a session of `mode` scored as `layers` (one per
    /// name of [`Self::inputs`]); `None` when the session is of another mode than the model's.
    pub fn session_inputs(&self, mode: SessionMode, layers: &[LayerScore]) -> Option<Vec<f64>> {
        let values: Vec<f64> = inputs(layers).into_iter().map(f64::from).collect();
        let engine = input_names(mode);
        (mode == self.mode && values.len() == engine.len())
            .then(|| self.select_among(&engine, &values))
    }

    /// The probability of a live person for a session scored as `layers`; `None` when the
    /// session is of another mode than the model's.
    pub fn live_probability(&self, mode: SessionMode, layers: &[LayerScore]) -> Option<f64> {
        self.session_inputs(mode, layers)
            .map(|values| self.probability(&values))
    }

    /// The layer whose inputs pull a session's values of the model's inputs
    /// ([`Self::session_inputs`]) furthest towards an attack (their [`Self::pulls`] summed);
    /// `None` when no layer pulls that way.
    pub fn lowering_layer(&self, inputs: &[f64]) -> Option<Layer> {
        let pulls = self.pulls(inputs);
        LAYERS
            .iter()
            .map(|row| {
                let prefix = format!("{}.", row.layer.name());
                let pull: f64 = self
                    .inputs
                    .iter()
                    .zip(&pulls)
                    .filter(|(name, _)| name.starts_with(&prefix))
                    .map(|(_, pull)| pull)
                    .sum();
                (row.layer, pull)
            })
            .filter(|(_, pull)| *pull < 0.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(layer, _)| layer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_coefficients_fit_the_engine() {
        let decision = FittedDecision::bundled().expect("the bundled file fits");
        let engine = input_names(decision.mode);
        assert!(decision.inputs.iter().all(|name| engine.contains(name)));
        let values: Vec<f64> = (0..engine.len()).map(|j| j as f64).collect();
        let selected = decision.select(&values);
        for (name, value) in decision.inputs.iter().zip(selected) {
            assert_eq!(engine[value as usize], *name);
        }
    }

    #[test]
    fn coefficients_for_other_inputs_are_refused_with_the_difference_named() {
        let mut decision = FittedDecision::bundled().expect("bundled");
        decision.inputs[0] = "motion.tilt".to_string();
        let json = serde_json::to_string(&decision).expect("serialises");
        let error = FittedDecision::parse(&json)
            .expect_err("refused")
            .to_string();
        assert!(error.contains("motion.tilt"), "{error}");

        let mut decision = FittedDecision::bundled().expect("bundled");
        decision.weights.pop();
        let json = serde_json::to_string(&decision).expect("serialises");
        let error = FittedDecision::parse(&json)
            .expect_err("refused")
            .to_string();
        assert!(error.contains("do not agree"), "{error}");
    }

    #[test]
    fn an_early_pass_point_below_the_pass_point_or_above_one_is_refused() {
        let bundled = FittedDecision::bundled().expect("bundled");
        for early in [bundled.pass_at - 0.01, 1.5] {
            let decision = FittedDecision {
                early_pass_at: Some(early),
                ..bundled.clone()
            };
            let json = serde_json::to_string(&decision).expect("serialises");
            let error = FittedDecision::parse(&json)
                .expect_err("refused")
                .to_string();
            assert!(error.contains("early pass point"), "{early}: {error}");
        }
        // absent, no session ends at the look; at the pass point, it may
        let mut json: serde_json::Value = serde_json::to_value(&bundled).expect("serialises");
        json.as_object_mut()
            .expect("an object")
            .remove("early_pass_at");
        let without = FittedDecision::parse(&json.to_string()).expect("absent is allowed");
        assert_eq!(without.early_pass_at, None);
        let at_pass = FittedDecision {
            early_pass_at: Some(bundled.pass_at),
            ..bundled.clone()
        };
        let json = serde_json::to_string(&at_pass).expect("serialises");
        assert_eq!(FittedDecision::parse(&json).expect("allowed"), at_pass);
    }

    #[test]
    fn a_missing_input_stands_at_the_training_mean_and_raises_its_indicator() {
        let decision = FittedDecision::bundled().expect("bundled");
        let mut values = decision.means.clone();
        let at_means = decision.row(&values);
        assert!(at_means.iter().all(|v| *v == 0.0));
        let Some(&gap) = decision.missing_indicators.first() else {
            return;
        };
        values[gap] = f64::NAN;
        let row = decision.row(&values);
        assert_eq!(row[gap], 0.0);
        assert_eq!(row[decision.inputs.len()], 1.0);
        assert!((0.0..=1.0).contains(&decision.probability(&values)));
    }
}
