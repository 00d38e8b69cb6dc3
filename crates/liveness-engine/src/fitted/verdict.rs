//! The verdict under the fitted decision (issue 66). The rules (`crate::fusion`) decide first;
//! the model may only turn their `retry` of a lit passive session that finished its flow into
//! a `pass`, when its probability of a live person reaches the pass point. So the rules keep
//! every `fail` (attack evidence that no other layer disputes) and every `pass`, and decide
//! alone the sessions the model was not fitted for (not lit, not passive, a flow that did not
//! finish). The model undoes the rules' `retry` where one layer was in doubt, could not judge
//! or raised a disputable attack while the others vouched for a live face; it does not end
//! a session the rules passed (its development set holds no session of an overloaded server,
//! and it would end such a live session in `retry`: docs/liveness.md).

use domain::{PASS_CONFIDENCE, Verdict};

use crate::config::SessionMode;
use crate::fusion::{EndReason, VerdictReport};

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
    let Some(probability) = decision.live_probability(mode, &rules.layers) else {
        return rules;
    };
    let mut report = VerdictReport {
        fitted_live_probability: Some(probability as f32),
        ..rules
    };
    let decides = lit
        && report.end_reason == EndReason::Completed
        && report.verdict == Verdict::Retry
        && probability >= decision.pass_at;
    if decides {
        // the confidence maps the probability above the pass point onto the pass band
        let above = ((probability - decision.pass_at) / (1.0 - decision.pass_at).max(1e-9)) as f32;
        let confidence = PASS_CONFIDENCE + (1.0 - PASS_CONFIDENCE) * above.clamp(0.0, 1.0);
        report.confidence = (confidence * 1000.0).round() / 1000.0;
        report.verdict = Verdict::Pass;
        // a clean pass carries no code (the API's contract)
        report.reasons = Vec::new();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fusion::fuse;
    use crate::layers::{LAYERS, Layer, LayerScore};
    use domain::ReasonCode;

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

    fn bundled() -> FittedDecision {
        FittedDecision::bundled().expect("bundled")
    }

    #[test]
    fn a_retry_the_model_finds_live_passes_and_one_it_does_not_stays() {
        // the motion layer in doubt: the rules' retry
        let doubted = passive(0.95, 0.3, EndReason::Completed);
        assert_eq!(doubted.verdict, Verdict::Retry);
        let decided = decide(&bundled(), SessionMode::Passive, true, doubted);
        let p = decided.fitted_live_probability.expect("a probability");
        assert!(f64::from(p) >= bundled().pass_at, "{p}");
        assert_eq!(decided.verdict, Verdict::Pass, "{decided:?}");
        assert!(decided.confidence >= PASS_CONFIDENCE);
        assert!(decided.reasons.is_empty(), "a clean pass carries no code");

        let weak = passive(0.2, 0.2, EndReason::Completed);
        let kept = decide(&bundled(), SessionMode::Passive, true, weak.clone());
        assert!(f64::from(kept.fitted_live_probability.expect("p")) < bundled().pass_at);
        assert_eq!(
            (kept.verdict, kept.confidence, kept.reasons),
            (weak.verdict, weak.confidence, weak.reasons)
        );
    }

    #[test]
    fn the_rules_keep_their_fails_passes_and_the_sessions_the_model_was_not_fitted_for() {
        let decision = bundled();
        let mut attacked = passive(0.95, 0.95, EndReason::Completed);
        attacked.layers[1] = LayerScore::attack(
            Layer::DeepfakeInjection,
            ReasonCode::InjectionSuspected,
            "frozen".into(),
        )
        .with_features(attacked.layers[1].features.clone());
        let rules = fuse(
            SessionMode::Passive,
            attacked.layers.clone(),
            EndReason::Completed,
        );
        assert_eq!(rules.verdict, Verdict::Fail);
        let kept = decide(&decision, SessionMode::Passive, true, rules.clone());
        assert_eq!(
            (kept.verdict, kept.confidence),
            (rules.verdict, rules.confidence)
        );

        let passed = passive(0.95, 0.95, EndReason::Completed);
        assert_eq!(passed.verdict, Verdict::Pass);
        let kept = decide(&decision, SessionMode::Passive, true, passed.clone());
        assert_eq!(
            (kept.verdict, kept.confidence),
            (passed.verdict, passed.confidence)
        );

        for (lit, end) in [(false, EndReason::Completed), (true, EndReason::NoFace)] {
            let rules = passive(0.95, 0.3, end);
            let kept = decide(&decision, SessionMode::Passive, lit, rules.clone());
            assert_eq!(kept.verdict, Verdict::Retry, "lit {lit}, {end:?}");
            assert!(kept.fitted_live_probability.is_some());
        }
        let active = passive(0.95, 0.3, EndReason::Completed);
        let kept = decide(&decision, SessionMode::Active, true, active.clone());
        assert_eq!(
            (kept.verdict, kept.confidence, kept.fitted_live_probability),
            (active.verdict, active.confidence, None),
            "an active session is the rules' alone"
        );
    }
}
