//! The fit of the liveness decision (issue 66): the development set (the CSV that
//! `examples/feature_table.rs` writes: camera-family sessions of both halves and their trimmed
//! sheets, labelled, with the fitted decision's inputs), one L2-regularised logistic regression
//! fitted on it, monotone where physics settles an input's direction ([`fit`], full-batch
//! projected gradient descent from zero, `super::monotone`: deterministic, so a re-fit of
//! the same set gives the same coefficients), and its cross-validation: each session's outcome
//! from a model fitted without its fold, by person or by camera family ([`cross_validate`]).
//! A set that lacks an attack class or a camera family is refused, naming what it lacks.

use std::collections::BTreeSet;

use liveness_engine::SessionMode;
use liveness_engine::fitted::{FittedDecision, OUTCOMES, input_names};
use liveness_engine::layers::Layer;

use crate::camera_model::CameraFamily;
use crate::error::RigError;

use super::camera_family::attack_classes;
use super::monotone::{expected_sign, project};
use super::pass_point::PassPoint;

/// L2 penalty on the weights (not the intercept), per session.
pub const L2: f64 = 0.05;
/// Gradient steps and their size (full batch).
pub const STEPS: usize = 3_000;
pub const STEP_SIZE: f64 = 0.5;
/// How far above the training attacks' highest probability the pass point sits: just above,
/// as issue 66 sets it (pass where no attack of the development set passes). The bundled fit's
/// highest attack is a trimmed sheet at 0.353, and a live session of the set scores 0.359:
/// the margin is thin, and docs/liveness.md says so.
pub const PASS_MARGIN: f64 = 1e-3;

/// The labels before the inputs in every row, in order.
pub const LABELS: [&str; 9] = [
    "half", "draw", "class", "clip", "source", "truth", "family", "ratio", "verdict",
];

/// One session of the development set.
#[derive(Debug, Clone, PartialEq)]
pub struct DevelopmentSession {
    /// The source footage (a face-swap pair's two halves share it): the person.
    pub person: String,
    pub family: String,
    pub class: String,
    pub live: bool,
    /// Today's rules' verdict (`pass`, `retry`, `fail`).
    pub rules: String,
    /// One value per input of [`DevelopmentSet::inputs`], NaN where unmeasured.
    pub inputs: Vec<f64>,
}

impl DevelopmentSession {
    /// The rules failed the session: attack evidence that no other layer disputes (the
    /// fitted decision keeps those `fail`s and decides between `pass` and `retry` only).
    pub fn vetoed(&self) -> bool {
        self.rules == "fail"
    }
}

/// The development set: its input names (the engine's, for passive sessions) and sessions.
#[derive(Debug, Clone, PartialEq)]
pub struct DevelopmentSet {
    pub inputs: Vec<String>,
    pub sessions: Vec<DevelopmentSession>,
}

impl DevelopmentSet {
    /// Reads the CSV and refuses it when its inputs are not the engine's, or when it lacks a
    /// live session, an attack class ([`attack_classes`]) or a camera family
    /// ([`CameraFamily::ALL`]).
    pub fn parse(csv: &str) -> Result<Self, RigError> {
        let refuse = RigError::DevelopmentSet;
        let mut lines = csv.lines();
        let header = split_csv(lines.next().ok_or_else(|| refuse("it is empty".into()))?);
        if header.len() < LABELS.len() || header[..LABELS.len()] != LABELS {
            return Err(refuse(format!("its labels are not {LABELS:?}")));
        }
        let inputs = header[LABELS.len()..].to_vec();
        let engine = input_names(SessionMode::Passive);
        if inputs != engine {
            let lacks: Vec<&String> = engine.iter().filter(|n| !inputs.contains(n)).collect();
            return Err(refuse(format!(
                "its inputs are not the engine's (it lacks {lacks:?})"
            )));
        }
        let mut sessions = Vec::new();
        for (number, line) in lines.enumerate() {
            let row = split_csv(line);
            if row.len() != header.len() {
                return Err(refuse(format!(
                    "row {} has {} fields, the header {}",
                    number + 2,
                    row.len(),
                    header.len()
                )));
            }
            sessions.push(DevelopmentSession {
                person: row[4].clone(),
                family: row[6].clone(),
                class: row[2].clone(),
                live: row[5] == "live",
                rules: row[8].clone(),
                inputs: row[LABELS.len()..]
                    .iter()
                    .map(|v| v.parse().unwrap_or(f64::NAN))
                    .collect(),
            });
        }
        let classes: BTreeSet<&str> = sessions
            .iter()
            .filter(|s| !s.live)
            .map(|s| s.class.as_str())
            .collect();
        let lacks_classes: Vec<String> = attack_classes()
            .into_iter()
            .filter(|c| !classes.contains(c.as_str()))
            .collect();
        let families: BTreeSet<&str> = sessions.iter().map(|s| s.family.as_str()).collect();
        let lacks_families: Vec<&str> = CameraFamily::ALL
            .iter()
            .map(|f| f.name())
            .filter(|f| !families.contains(f))
            .collect();
        if !lacks_classes.is_empty() || !lacks_families.is_empty() {
            return Err(refuse(format!(
                "it lacks the attack classes {lacks_classes:?} and the camera families {lacks_families:?}"
            )));
        }
        if !sessions.iter().any(|s| s.live) {
            return Err(refuse("it holds no live session".into()));
        }
        Ok(Self { inputs, sessions })
    }

    /// `decision`'s probability of a live person for `session` (of this set, whose inputs are
    /// the engine's: [`Self::parse`] holds it to them).
    pub fn probability(&self, decision: &FittedDecision, session: &DevelopmentSession) -> f64 {
        decision.probability(&decision.select(&session.inputs))
    }

    /// Whether the screen's light gave `session` evidence (its layer judged): the engine's
    /// model decides only then (`fitted::verdict::decide`), and a session whose light gave none
    /// stays with the rules, which never pass it. True for a set without the input.
    pub fn light_judged(&self, session: &DevelopmentSession) -> bool {
        let unjudged = format!("{}.unjudged", Layer::DeepfakeInjection.name());
        self.inputs
            .iter()
            .position(|name| *name == unjudged)
            .is_none_or(|i| session.inputs[i] != 1.0)
    }
}

/// The outcome of a session under a fitted decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Retry,
    /// A hard veto (a layer's undisputable attack), before the model.
    Fail,
}

/// The inputs of `names` whose part after the layer is one of the layers' outcomes
/// (`fitted::OUTCOMES`): the model over the table of layers alone.
pub fn outcome_inputs(names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|name| {
            name.split_once('.')
                .is_some_and(|(_, rest)| OUTCOMES.contains(&rest))
        })
        .cloned()
        .collect()
}

/// The inputs a model reads, named as `fit_liveness --inputs` names them: `all`, `features`
/// (the measured features alone), `outcomes` (the table of layers alone), or `outcomes+` and a
/// comma-separated list of the features read beside them. A name that is not among `names`
/// (the set's inputs) is refused, named.
pub fn chosen_inputs(spec: &str, names: &[String]) -> Result<Vec<String>, RigError> {
    let outcomes = outcome_inputs(names);
    let extra = match spec {
        "all" => return Ok(names.to_vec()),
        "features" => {
            return Ok(names
                .iter()
                .filter(|n| !outcomes.contains(n))
                .cloned()
                .collect());
        }
        "outcomes" => "",
        other => other.strip_prefix("outcomes+").ok_or_else(|| {
            RigError::DevelopmentSet(format!(
                "inputs {other:?} are none of all, features, outcomes, outcomes+NAME,..."
            ))
        })?,
    };
    let mut chosen = outcomes;
    for name in extra.split(',').filter(|n| !n.is_empty()) {
        if !names.iter().any(|n| n == name) {
            return Err(RigError::DevelopmentSet(format!(
                "it holds no input {name:?}"
            )));
        }
        if !chosen.iter().any(|n| n == name) {
            chosen.push(name.to_string());
        }
    }
    Ok(chosen)
}

/// Fits the model reading `chosen` (names among `set_inputs`, the inputs every session
/// holds) on `train`: each input standardised, a missing indicator for each input missing in
/// some session, each weight kept on the side of zero its input's physics allows
/// ([`expected_sign`]), the pass point just above the highest training attack's probability.
pub fn fit(
    train: &[&DevelopmentSession],
    set_inputs: &[String],
    chosen: &[String],
    provenance: &str,
) -> FittedDecision {
    let columns: Vec<usize> = chosen
        .iter()
        .filter_map(|name| set_inputs.iter().position(|n| n == name))
        .collect();
    let values: Vec<Vec<f64>> = train
        .iter()
        .map(|s| columns.iter().map(|&j| s.inputs[j]).collect())
        .collect();
    let width = columns.len();
    let mut decision = FittedDecision {
        mode: SessionMode::Passive,
        inputs: columns.iter().map(|&j| set_inputs[j].clone()).collect(),
        means: vec![0.0; width],
        scales: vec![1.0; width],
        missing_indicators: Vec::new(),
        weights: Vec::new(),
        intercept: 0.0,
        pass_at: 1.0,
        early_pass_at: None,
        provenance: provenance.to_string(),
    };
    for j in 0..width {
        let seen: Vec<f64> = values
            .iter()
            .map(|row| row[j])
            .filter(|v| v.is_finite())
            .collect();
        if seen.len() < values.len() {
            decision.missing_indicators.push(j);
        }
        if seen.is_empty() {
            continue;
        }
        let mean = seen.iter().sum::<f64>() / seen.len() as f64;
        let variance = seen.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / seen.len() as f64;
        decision.means[j] = mean;
        decision.scales[j] = if variance > 1e-12 {
            variance.sqrt()
        } else {
            1.0
        };
    }
    let rows: Vec<Vec<f64>> = values.iter().map(|row| decision.row(row)).collect();
    let labels: Vec<f64> = train.iter().map(|s| f64::from(u8::from(s.live))).collect();
    let n = rows.len().max(1) as f64;
    let mut weights = vec![0.0; width + decision.missing_indicators.len()];
    let signs: Vec<Option<f64>> = decision
        .inputs
        .iter()
        .map(|name| expected_sign(name.as_str()))
        .chain(decision.missing_indicators.iter().map(|_| None))
        .collect();
    let mut intercept = 0.0;
    for _ in 0..STEPS {
        let mut gradient = vec![0.0; weights.len()];
        let mut gradient_intercept = 0.0;
        for (row, label) in rows.iter().zip(&labels) {
            let z = intercept + row.iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>();
            let error = 1.0 / (1.0 + (-z).exp()) - label;
            gradient_intercept += error;
            for (g, x) in gradient.iter_mut().zip(row) {
                *g += error * x;
            }
        }
        for ((w, g), sign) in weights.iter_mut().zip(&gradient).zip(&signs) {
            *w = project(*w - STEP_SIZE * (g / n + L2 * *w), *sign);
        }
        intercept -= STEP_SIZE * gradient_intercept / n;
    }
    decision.weights = weights;
    decision.intercept = intercept;
    decision.pass_at = just_above(
        train
            .iter()
            .zip(&values)
            .filter(|(s, _)| !s.live)
            .map(|(_, row)| decision.probability(row)),
    );
    decision
}

/// A pass point just above the highest of `attack_probabilities` ([`PASS_MARGIN`] above it;
/// the margin alone when there are none).
pub fn just_above(attack_probabilities: impl Iterator<Item = f64>) -> f64 {
    attack_probabilities.fold(0.0f64, f64::max) + PASS_MARGIN
}

/// Each session's outcome under a model reading `chosen` fitted without its fold (the
/// sessions sharing its `key`). A session whose light gave no evidence never passes (the
/// engine leaves it to the rules: [`DevelopmentSet::light_judged`]) but is fitted on. With
/// `veto`, a session the rules failed is `Fail` and left out of every fit; with
/// `keep_rules_passes`, a session the rules passed passes whatever the model says (the model
/// only turns the rules' `retry` into `pass`, as the engine did before it decided alone). The
/// fold's pass point stands where `point` puts it, on the fold's training sessions alone.
pub fn cross_validate(
    set: &DevelopmentSet,
    chosen: &[String],
    key: fn(&DevelopmentSession) -> &str,
    flags: (bool, bool),
    point: PassPoint,
) -> Vec<Outcome> {
    cross_validate_choosing(set, key, flags, point, |_, _| chosen.to_vec())
}

/// [`cross_validate`] with the inputs chosen in each fold: `choose` is handed the fold and
/// its training sessions (every session outside it, those the rules failed included) and
/// names the inputs the fold's model reads (the nested cross-validation of
/// `eval::selection`, where the choice is held out too).
pub fn cross_validate_choosing(
    set: &DevelopmentSet,
    key: fn(&DevelopmentSession) -> &str,
    (veto, keep_rules_passes): (bool, bool),
    point: PassPoint,
    mut choose: impl FnMut(&str, &[&DevelopmentSession]) -> Vec<String>,
) -> Vec<Outcome> {
    let vetoed = |s: &DevelopmentSession| veto && s.vetoed();
    let mut outcomes = vec![Outcome::Retry; set.sessions.len()];
    let folds: BTreeSet<&str> = set.sessions.iter().map(key).collect();
    for fold in folds {
        let training: Vec<&DevelopmentSession> =
            set.sessions.iter().filter(|s| key(s) != fold).collect();
        let chosen = choose(fold, &training);
        let train: Vec<&DevelopmentSession> = training.into_iter().filter(|s| !vetoed(s)).collect();
        let model = point.fit(set, &train, &chosen, "cross-validation fold");
        for (i, s) in set.sessions.iter().enumerate() {
            if key(s) == fold {
                outcomes[i] = decide(set, &model, s, (veto, keep_rules_passes));
            }
        }
    }
    outcomes
}

/// The outcome of `session` (of `set`) under `decision`, as the engine decides it: with `veto`,
/// a session the rules failed stays `Fail`; with `keep_rules_passes`, a session the rules
/// passed passes; otherwise a session passes when its light gave evidence
/// ([`DevelopmentSet::light_judged`]) and its probability reaches the pass point.
pub fn decide(
    set: &DevelopmentSet,
    decision: &FittedDecision,
    session: &DevelopmentSession,
    (veto, keep_rules_passes): (bool, bool),
) -> Outcome {
    if veto && session.vetoed() {
        Outcome::Fail
    } else if (keep_rules_passes && session.rules == "pass")
        || (set.light_judged(session) && set.probability(decision, session) >= decision.pass_at)
    {
        Outcome::Pass
    } else {
        Outcome::Retry
    }
}

/// One CSV line's fields (quoted fields may hold commas and doubled quotes).
pub fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// The committed development set, parsed (the unit tests' set: one whole in classes and
/// families is long to write).
#[cfg(test)]
pub(crate) fn committed_development_set() -> DevelopmentSet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../liveness-engine/data/development_set.csv");
    let text = std::fs::read_to_string(path).expect("the committed development set");
    DevelopmentSet::parse(&text).expect("the committed set is whole")
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
