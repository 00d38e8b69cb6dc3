//! Unit tests of the development set and the fit: the committed set (and its look table) re-fits to
//! the bundled coefficients (and early pass point), inputs are chosen by name, a set that lacks an
//! attack class or a camera family is refused, quoted CSV fields keep their commas, a feature that
//! leans against its physics gets no weight, and a session whose light gave no evidence never
//! passes.
use super::*;

/// The development set the bundled coefficients were fitted on.
fn committed_set() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../liveness-engine/data/development_set.csv");
    std::fs::read_to_string(&path).expect("the committed development set")
}

#[test]
fn a_refit_of_the_committed_set_gives_the_bundled_coefficients() {
    let set = DevelopmentSet::parse(&committed_set()).expect("the committed set is whole");
    let bundled = FittedDecision::bundled().expect("the bundled coefficients fit");
    let train: Vec<&DevelopmentSession> = set.sessions.iter().filter(|s| !s.vetoed()).collect();
    let refit = super::super::pass_point::PassPoint::HeldOut.fit(
        &set,
        &train,
        &bundled.inputs,
        &bundled.provenance,
    );
    assert_eq!(refit.inputs, bundled.inputs);
    assert_eq!(refit.missing_indicators, bundled.missing_indicators);
    let close = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + y.abs()))
    };
    assert!(close(&refit.means, &bundled.means), "means");
    assert!(close(&refit.scales, &bundled.scales), "scales");
    assert!(close(&refit.weights, &bundled.weights), "weights");
    assert!(close(
        &[refit.intercept, refit.pass_at],
        &[bundled.intercept, bundled.pass_at]
    ));
    // the early pass point, from the committed look tables, the colours read in order and by
    // a loaded server (`eval::look`)
    let looks_csv: Vec<String> = ["development_looks.csv", "development_loaded_looks.csv"]
        .iter()
        .map(|name| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../liveness-engine/data")
                .join(name);
            std::fs::read_to_string(&path).expect("a committed look table")
        })
        .collect();
    let looks = super::super::look::Looks::parse(&looks_csv, &set).expect("the looks fit the set");
    let every: Vec<usize> = (0..set.sessions.len()).collect();
    let early = super::super::look::early_pass_point(&looks, &refit, &every);
    let bundled_early = bundled.early_pass_at.expect("the bundled early pass point");
    assert!(
        close(&[early], &[bundled_early]),
        "{early} against {bundled_early}"
    );
}

#[test]
fn inputs_are_chosen_by_name_and_an_unknown_one_is_refused_naming_it() {
    let set = DevelopmentSet::parse(&committed_set()).expect("the committed set is whole");
    let chosen = chosen_inputs("outcomes+motion.median_off_plane", &set.inputs)
        .expect("a feature of the set");
    assert_eq!(chosen.len(), outcome_inputs(&set.inputs).len() + 1);
    assert_eq!(
        chosen.last().map(String::as_str),
        Some("motion.median_off_plane")
    );
    let refused = chosen_inputs("outcomes+motion.curvature", &set.inputs)
        .expect_err("no such input")
        .to_string();
    assert!(refused.contains("motion.curvature"), "{refused}");
    assert!(chosen_inputs("everything", &set.inputs).is_err());
    assert_eq!(
        chosen_inputs("all", &set.inputs).ok(),
        Some(set.inputs.clone())
    );
}

#[test]
fn a_set_without_an_attack_class_or_a_camera_family_is_refused_naming_it() {
    let text = committed_set();
    let without = |needle: &str| -> String {
        text.lines()
            .filter(|line| !line.contains(needle))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let error = DevelopmentSet::parse(&without("replay on a screen"))
        .expect_err("refused")
        .to_string();
    assert!(error.contains("replay on a screen"), "{error}");
    let error = DevelopmentSet::parse(&without("slow phone"))
        .expect_err("refused")
        .to_string();
    assert!(error.contains("slow phone"), "{error}");
    let mut header: Vec<&str> = text.lines().collect();
    let renamed = header[0].replace("motion.sway", "motion.swing");
    header[0] = &renamed;
    let error = DevelopmentSet::parse(&header.join("\n"))
        .expect_err("refused")
        .to_string();
    assert!(error.contains("motion.sway"), "{error}");
}

#[test]
fn quoted_fields_keep_their_commas_and_quotes() {
    assert_eq!(
        split_csv(r#"a,"b, c","say ""hi""",1"#),
        vec!["a", "b, c", r#"say "hi""#, "1"]
    );
}

/// `count` sessions in the engine's inputs, every other one live, two to a person, one
/// camera family; each session's values are `values_of(k, live)` over `inputs` (0.5 each).
fn synthetic_sessions(
    inputs: &[String],
    count: u32,
    values_of: impl Fn(u32, bool, &mut Vec<f64>),
) -> Vec<DevelopmentSession> {
    (0..count)
        .map(|k| {
            let live = k % 2 == 0;
            let mut values = vec![0.5; inputs.len()];
            values_of(k, live, &mut values);
            DevelopmentSession {
                person: format!("person {}", k / 2),
                family: "webcam".into(),
                class: if live { "live" } else { "sheet" }.into(),
                live,
                rules: "retry".into(),
                inputs: values,
            }
        })
        .collect()
}

/// A set in the engine's inputs where live faces show more depth (the physics) and, by the
/// draw of these few sessions, more moiré too (no physics: a screen's moiré is an attack's).
/// The fit follows the depth and holds moiré's weight at zero instead of learning it as a
/// sign of life.
#[test]
fn a_feature_that_leans_against_its_physics_gets_no_weight() {
    let inputs = liveness_engine::fitted::input_names(SessionMode::Passive);
    let column = |name: &str| inputs.iter().position(|n| n == name).expect(name);
    let (depth, moire) = (
        column("motion.median_off_plane"),
        column("deepfake_injection.moire"),
    );
    let sessions = synthetic_sessions(&inputs, 16, |k, live, values| {
        values[depth] = if live { 0.8 } else { 0.2 } + f64::from(k % 4) * 0.01;
        values[moire] = if live { 0.7 } else { 0.3 } + f64::from(k % 3) * 0.01;
    });
    let train: Vec<&DevelopmentSession> = sessions.iter().collect();
    let chosen = [inputs[depth].clone(), inputs[moire].clone()];
    let model = fit(&train, &inputs, &chosen, "test");
    assert!(model.weights[0] > 0.5, "depth {:?}", model.weights);
    assert_eq!(model.weights[1], 0.0, "moiré {:?}", model.weights);
    for s in &sessions {
        let probability = model.probability(&[s.inputs[depth], s.inputs[moire]]);
        assert_eq!(probability >= model.pass_at, s.live, "{probability}");
    }
}

/// Live faces with depth and attacks without: held out by person, every live face passes,
/// except those whose light gave no evidence (the injection layer unjudged), which the engine
/// leaves to the rules and so never pass, however deep they look: in a passive session only
/// the light tells a recorded stream from a camera.
#[test]
fn a_session_whose_light_gave_no_evidence_never_passes_held_out() {
    let inputs = liveness_engine::fitted::input_names(SessionMode::Passive);
    let column = |name: &str| inputs.iter().position(|n| n == name).expect(name);
    let (depth, unjudged) = (
        column("motion.median_off_plane"),
        column("deepfake_injection.unjudged"),
    );
    let sessions = synthetic_sessions(&inputs, 24, |k, live, values| {
        values[depth] = if live { 0.8 } else { 0.2 } + f64::from(k % 4) * 0.01;
        // every sixth live session's light gave no evidence
        values[unjudged] = f64::from(u8::from(live && k % 12 == 0));
    });
    let set = DevelopmentSet {
        inputs: inputs.clone(),
        sessions,
    };
    let chosen = [inputs[depth].clone()];
    let outcomes = cross_validate(
        &set,
        &chosen,
        |s| &s.person,
        (true, false),
        super::super::pass_point::PassPoint::Fitted,
    );
    for (s, outcome) in set.sessions.iter().zip(&outcomes) {
        let expected = if s.live && s.inputs[unjudged] == 0.0 {
            Outcome::Pass
        } else {
            Outcome::Retry
        };
        assert_eq!(*outcome, expected, "{} {:?}", s.person, s.inputs[unjudged]);
    }
    assert_eq!(
        set.sessions.iter().filter(|s| !set.light_judged(s)).count(),
        2
    );
}
