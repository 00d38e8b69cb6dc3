//! The verdict under the fitted decision (issue 66). The rules (`crate::fusion`) decide first
//! and keep every `fail` (attack evidence that no other layer disputes: the hard vetoes) and
//! every session the model does not decide: not passive, not lit, a flow that did not finish,
//! and a light that gave no evidence (its layer, `deepfake_injection`, unjudged: too few
//! frames in its window, too little light, not shown on this connection). In a passive session
//! nothing but the light tells a recorded stream from a camera, and the rules never pass a
//! session with an unjudged layer; the model is fitted on such sessions but may not pass one.
//! Between `pass` and `retry` of every other session the model decides alone: it passes when
//! its probability of a live person reaches the pass point, and otherwise ends the session in
//! `retry`, the rules' own reasons kept where they gave one, or else the code of the layer
//! whose inputs pulled the probability down furthest.

use domain::{PASS_CONFIDENCE, ReasonCode, Verdict};

use crate::config::SessionMode;
use crate::fusion::{EndReason, RETRY_CEILING, RETRY_FLOOR, VerdictReport, doubt_reason, reported};
use crate::layers::{Evidence, Layer};

use super::FittedDecision;

/// The verdict of a session of `mode` whose rules gave `rules`; `lit`: the screen's light was
/// shown and read. The report carries the model's probability whenever the mode is the
/// model's; the verdict is the model's only where it decides (module doc).
pub fn decide(
    decision: &FittedDecision,
    mode: SessionMode,
    lit: bool,
    rules: VerdictReport,
) -> VerdictReport {
    let Some(values) = decision.session_inputs(mode, &rules.layers) else {
        return rules;
    };
    let probability = decision.probability(&values);
    let mut report = VerdictReport {
        fitted_live_probability: Some(probability as f32),
        ..rules
    };
    let light_gave_evidence = report
        .layers
        .iter()
        .any(|l| l.layer == Layer::DeepfakeInjection && l.evidence != Evidence::None);
    let decides = lit
        && light_gave_evidence
        && report.end_reason == EndReason::Completed
        && report.verdict != Verdict::Fail;
    if !decides {
        return report;
    }
    if probability >= decision.pass_at {
        // the confidence maps the probability above the pass point onto the pass band
        let above = ((probability - decision.pass_at) / (1.0 - decision.pass_at).max(1e-9)) as f32;
        report.confidence = within(PASS_CONFIDENCE, 1.0, above);
        report.verdict = Verdict::Pass;
        // a clean pass carries no code (the API's contract)
        report.reasons = Vec::new();
    } else if report.verdict == Verdict::Pass {
        // below the pass point: the retry band, as far down it as the probability is
        let below = (probability / decision.pass_at.max(1e-9)) as f32;
        report.confidence = within(RETRY_FLOOR, RETRY_CEILING, below);
        report.verdict = Verdict::Retry;
        let lowering = decision.lowering_layer(&values);
        report.reasons = vec![lowering.map_or(ReasonCode::LowConfidence, doubt_reason)];
    }
    report
}

/// The confidence `fraction` (held to 0..=1) of the way from `low` to `high` of a verdict's
/// band, as a verdict reports it.
fn within(low: f32, high: f32, fraction: f32) -> f32 {
    reported(low + (high - low) * fraction.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fusion::fuse;
    use crate::layers::{LAYERS, Layer, LayerScore};

    /// A measured layer with every feature unmeasured (NaN), as the table exports them.
    fn measured(layer: Layer, score: f32) -> LayerScore {
        let features = LAYERS
            .iter()
            .find(|row| row.layer == layer)
            .map_or(0, |row| row.features.len());
        LayerScore::new(layer, score, String::new()).with_features(vec![f32::NAN; features])
    }

    fn passive(injection: f32, motion: f32, end: EndReason) -> VerdictReport {
        let layers = vec![
            measured(Layer::AntiSpoof, 0.9).vouching_live(true),
            measured(Layer::DeepfakeInjection, injection).vouching_live(injection > 0.8),
            measured(Layer::FaceConsistency, 0.9),
            measured(Layer::Motion, motion).vouching_live(motion > 0.8),
        ];
        fuse(SessionMode::Passive, layers, end)
    }

    /// The rules' verdict on a finished passive session whose motion scored 0.95 and whose
    /// light layer (`deepfake_injection`, scored 0.95 by `passive`) is replaced by `light`, with
    /// the features it had.
    fn with_light(light: LayerScore) -> VerdictReport {
        let mut session = passive(0.95, 0.95, EndReason::Completed);
        session.layers[1] = light.with_features(session.layers[1].features.clone());
        fuse(SessionMode::Passive, session.layers, EndReason::Completed)
    }

    /// A model that reads the motion layer's score alone: live from a score of 0.5 on.
    fn motion_model() -> FittedDecision {
        let decision = FittedDecision {
            mode: SessionMode::Passive,
            inputs: vec!["motion.score".into()],
            means: vec![0.5],
            scales: vec![0.1],
            missing_indicators: Vec::new(),
            weights: vec![2.0],
            intercept: 0.0,
            pass_at: 0.5,
            early_pass_at: None,
            provenance: "a test".into(),
        };
        decision.check().expect("the test model fits the engine");
        decision
    }

    #[test]
    fn between_pass_and_retry_the_model_decides() {
        let model = motion_model();
        // the motion layer in doubt: the rules' retry, the model's live person
        let doubted = passive(0.95, 0.3, EndReason::Completed);
        assert_eq!(doubted.verdict, Verdict::Retry);
        let low = decide(&model, SessionMode::Passive, true, doubted);
        assert!(low.fitted_live_probability.expect("a probability") < 0.5);
        assert_eq!(low.verdict, Verdict::Retry, "{low:?}");

        let doubted = passive(0.2, 0.6, EndReason::Completed);
        assert_eq!(doubted.verdict, Verdict::Retry);
        let passed = decide(&model, SessionMode::Passive, true, doubted);
        assert_eq!(passed.verdict, Verdict::Pass, "{passed:?}");
        assert!(passed.confidence >= PASS_CONFIDENCE);
        assert!(passed.reasons.is_empty(), "a clean pass carries no code");

        // the rules' pass that the model does not find live: retry, the layer that pulled it
        // down named
        let rules = passive(0.95, 0.45, EndReason::Completed);
        assert_eq!(rules.verdict, Verdict::Pass, "{rules:?}");
        let demoted = decide(&model, SessionMode::Passive, true, rules);
        assert_eq!(demoted.verdict, Verdict::Retry, "{demoted:?}");
        assert!((RETRY_FLOOR..=RETRY_CEILING).contains(&demoted.confidence));
        assert_eq!(demoted.reasons, vec![ReasonCode::PrintSuspected]);
    }

    #[test]
    fn the_rules_keep_their_fails_and_the_sessions_the_model_was_not_fitted_for() {
        let model = motion_model();
        let rules = with_light(LayerScore::attack(
            Layer::DeepfakeInjection,
            ReasonCode::InjectionSuspected,
            "frozen".into(),
        ));
        assert_eq!(rules.verdict, Verdict::Fail);
        let kept = decide(&model, SessionMode::Passive, true, rules.clone());
        assert_eq!(
            (kept.verdict, kept.confidence),
            (rules.verdict, rules.confidence)
        );

        for (lit, end) in [(false, EndReason::Completed), (true, EndReason::NoFace)] {
            let rules = passive(0.95, 0.9, end);
            let kept = decide(&model, SessionMode::Passive, lit, rules.clone());
            assert_eq!(kept.verdict, rules.verdict, "lit {lit}, {end:?}");
            assert!(kept.fitted_live_probability.is_some());
        }
        // a light that gave no evidence (too few frames in its window): deep motion that the
        // model alone would pass stays the rules' `retry`
        let rules = with_light(LayerScore::no_evidence(
            Layer::DeepfakeInjection,
            ReasonCode::NoLightResponse,
            "too few frames".into(),
        ));
        assert_eq!(rules.verdict, Verdict::Retry, "{rules:?}");
        let kept = decide(&model, SessionMode::Passive, true, rules.clone());
        let p = kept.fitted_live_probability.expect("a probability");
        assert!(
            f64::from(p) >= model.pass_at,
            "the model alone would pass it: {p}"
        );
        assert_eq!(
            (kept.verdict, kept.reasons.clone()),
            (Verdict::Retry, rules.reasons)
        );

        let active = passive(0.95, 0.3, EndReason::Completed);
        let kept = decide(&model, SessionMode::Active, true, active.clone());
        assert_eq!(
            (kept.verdict, kept.confidence, kept.fitted_live_probability),
            (active.verdict, active.confidence, None),
            "an active session is the rules' alone"
        );
    }

    #[test]
    fn the_bundled_model_reads_every_session_of_its_mode() {
        let bundled = FittedDecision::bundled().expect("bundled");
        let report = decide(
            &bundled,
            SessionMode::Passive,
            true,
            passive(0.95, 0.95, EndReason::Completed),
        );
        let p = report.fitted_live_probability.expect("a probability");
        assert!((0.0..=1.0).contains(&p), "{p}");
    }
}
