//! Unit tests of verdict fusion: the weighted mean, the overrides, and when an attack fails.
use super::*;

fn layer(layer: Layer, score: f32) -> LayerScore {
    LayerScore::new(layer, score, String::new())
}

fn all(score: f32) -> Vec<LayerScore> {
    crate::layers::weights(SessionMode::Active)
        .iter()
        .map(|(l, _)| layer(*l, score))
        .collect()
}

#[test]
fn strong_layers_pass_and_weak_layers_without_attack_evidence_retry() {
    assert_eq!(
        fuse(SessionMode::Active, all(0.9), EndReason::Completed).verdict,
        Verdict::Pass
    );
    assert_eq!(
        fuse(SessionMode::Active, all(0.55), EndReason::Completed).verdict,
        Verdict::Retry
    );
    // weak is not an attack: a `fail` needs attack evidence
    let weak = fuse(SessionMode::Active, all(0.2), EndReason::Completed);
    assert_eq!(weak.verdict, Verdict::Retry);
    assert!(weak.confidence >= 0.45);
}

fn passive(anti_spoof: LayerScore, motion: LayerScore, injection: LayerScore) -> VerdictReport {
    let layers = vec![
        anti_spoof,
        injection,
        layer(Layer::FaceConsistency, 1.0),
        motion,
    ];
    fuse(SessionMode::Passive, layers, EndReason::Completed)
}

#[test]
fn the_model_alone_never_fails_a_session() {
    let model_says_spoof = LayerScore::disputable_attack(
        Layer::AntiSpoof,
        ReasonCode::PresentationAttackSuspected,
        "median 0.038".into(),
    );
    // nothing else vouches: manual review, so `retry` with the model's code
    let alone = passive(
        model_says_spoof.clone(),
        layer(Layer::Motion, 0.7),
        layer(Layer::DeepfakeInjection, 0.8),
    );
    assert_eq!(alone.verdict, Verdict::Retry);
    assert_eq!(alone.reasons, vec![ReasonCode::PresentationAttackSuspected]);
    // the light saw a near curved face follow this session's sequence: the layers disagree
    let lit = passive(
        model_says_spoof.clone(),
        layer(Layer::Motion, 0.7),
        layer(Layer::DeepfakeInjection, 0.9).vouching_live(true),
    );
    assert_eq!(lit.verdict, Verdict::Retry);
    assert_eq!(lit.reasons, vec![ReasonCode::ConflictingEvidence]);
    // a second layer's undisputed attack with a blocking code fails it
    let planar =
        LayerScore::disputable_attack(Layer::Motion, ReasonCode::PrintSuspected, "planar".into());
    let both = passive(
        model_says_spoof,
        planar,
        layer(Layer::DeepfakeInjection, 0.8),
    );
    assert_eq!(both.verdict, Verdict::Fail);
    assert_eq!(
        both.reasons,
        vec![
            ReasonCode::PresentationAttackSuspected,
            ReasonCode::PrintSuspected
        ]
    );
}

#[test]
fn a_disputed_attack_ends_in_retry_and_an_undisputable_one_fails() {
    let light_says_flat = LayerScore::disputable_attack(
        Layer::DeepfakeInjection,
        ReasonCode::PrintSuspected,
        "light Flat".into(),
    );
    let depth = layer(Layer::Motion, 1.0).vouching_live(true);
    let disputed = passive(layer(Layer::AntiSpoof, 0.9), depth.clone(), light_says_flat);
    assert_eq!(disputed.verdict, Verdict::Retry);
    assert_eq!(disputed.reasons, vec![ReasonCode::ConflictingEvidence]);
    // a frozen stream is no camera's doing: parallax elsewhere does not dispute it
    let frozen = LayerScore::attack(
        Layer::DeepfakeInjection,
        ReasonCode::InjectionSuspected,
        "frozen".into(),
    );
    let failed = passive(layer(Layer::AntiSpoof, 0.9), depth, frozen);
    assert_eq!(failed.verdict, Verdict::Fail);
    assert_eq!(failed.reasons, vec![ReasonCode::InjectionSuspected]);
    // an attack finding cannot vouch for a live face
    let not_vouching = LayerScore::attack(Layer::Motion, ReasonCode::PrintSuspected, "x".into())
        .vouching_live(true);
    assert!(!not_vouching.vouches_live);
}

#[test]
fn a_fail_always_carries_a_blocking_code() {
    let attacks = [
        (Layer::AntiSpoof, ReasonCode::PresentationAttackSuspected),
        (Layer::Motion, ReasonCode::PrintSuspected),
        (Layer::DeepfakeInjection, ReasonCode::InjectionSuspected),
        (Layer::FaceConsistency, ReasonCode::SeveralFaces),
        (Layer::ChallengeResponse, ReasonCode::ChallengeMissed),
    ];
    for mask in 0u32..(1 << (2 * attacks.len())) {
        let layers: Vec<LayerScore> = attacks
            .iter()
            .enumerate()
            .map(|(i, (l, code))| match (mask >> (2 * i)) & 3 {
                0 => layer(*l, 0.9),
                1 => layer(*l, 0.9).vouching_live(true),
                2 => LayerScore::attack(*l, *code, String::new()),
                _ => LayerScore::disputable_attack(*l, *code, String::new()),
            })
            .collect();
        let report = fuse(SessionMode::Active, layers, EndReason::Completed);
        let blocking = report.reasons.iter().any(|r| r.is_attack());
        assert_eq!(
            report.verdict == Verdict::Fail,
            blocking,
            "{mask:b}: {report:?}"
        );
    }
}

#[test]
fn one_attack_fails_an_otherwise_perfect_session() {
    let mut layers = all(1.0);
    layers[2] = LayerScore::attack(
        Layer::DeepfakeInjection,
        ReasonCode::InjectionSuspected,
        "frozen".into(),
    );
    let report = fuse(SessionMode::Active, layers, EndReason::Completed);
    assert_eq!(report.verdict, Verdict::Fail);
    assert_eq!(report.reasons, vec![ReasonCode::InjectionSuspected]);
    assert!(report.confidence <= 0.3);
}

#[test]
fn one_doubtful_layer_or_an_early_end_blocks_a_pass() {
    let mut layers = all(1.0);
    layers[4] = layer(Layer::Motion, 0.2);
    assert_eq!(
        fuse(SessionMode::Active, layers, EndReason::Completed).verdict,
        Verdict::Retry
    );
    let timed_out = fuse(SessionMode::Active, all(1.0), EndReason::SessionTimeout);
    assert_eq!(timed_out.verdict, Verdict::Retry);
    assert_eq!(timed_out.reasons, vec![ReasonCode::SessionTimeout]);
    let no_face = fuse(SessionMode::Active, all(0.0), EndReason::NoFace);
    assert_eq!(no_face.verdict, Verdict::Retry);
}

#[test]
fn a_layer_without_evidence_leads_to_retry_not_fail() {
    let mut layers = all(1.0);
    layers[4] = LayerScore::no_evidence(
        Layer::Motion,
        ReasonCode::TooLittleMotion,
        "too little motion".into(),
    );
    let report = fuse(SessionMode::Active, layers, EndReason::Completed);
    assert_eq!(report.verdict, Verdict::Retry);
    assert_eq!(report.reasons, vec![ReasonCode::TooLittleMotion]);
    let mut none_judged = all(1.0);
    for layer in &mut none_judged {
        *layer = LayerScore::no_evidence(
            layer.layer,
            ReasonCode::FaceNotFound,
            "nothing to judge".into(),
        );
    }
    assert_eq!(
        fuse(SessionMode::Active, none_judged, EndReason::Completed).verdict,
        Verdict::Retry
    );
    let mut attacked = all(1.0);
    attacked[4] = LayerScore::no_evidence(
        Layer::Motion,
        ReasonCode::TooLittleMotion,
        "too little motion".into(),
    );
    attacked[3] = LayerScore::attack(
        Layer::FaceConsistency,
        ReasonCode::FaceChanged,
        "another person".into(),
    );
    assert_eq!(
        fuse(SessionMode::Active, attacked, EndReason::Completed).verdict,
        Verdict::Fail
    );
}

#[test]
fn a_report_raised_no_attack_only_when_no_layer_raised_one() {
    let calm = passive(
        layer(Layer::AntiSpoof, 0.9),
        layer(Layer::Motion, 0.7),
        layer(Layer::DeepfakeInjection, 0.9),
    );
    assert!(calm.raised_no_attack());
    let doubted = passive(
        LayerScore::disputable_attack(
            Layer::AntiSpoof,
            ReasonCode::PresentationAttackSuspected,
            String::new(),
        ),
        layer(Layer::Motion, 0.7),
        layer(Layer::DeepfakeInjection, 0.9).vouching_live(true),
    );
    assert!(!doubted.raised_no_attack(), "a disputable attack counts");
    let flat = passive(
        layer(Layer::AntiSpoof, 0.9),
        LayerScore::disputable_attack(Layer::Motion, ReasonCode::PrintSuspected, String::new()),
        layer(Layer::DeepfakeInjection, 0.9),
    );
    assert!(!flat.raised_no_attack());
}
