//! The one look at the colours' end (issue 67): a lit passive session may pass when the
//! colours' window is over, before the camera's settling and the model's unlit faces, where
//! the fitted decision is surer than it ever was of an attack at that look
//! (`FittedDecision::early_pass_at`). The development set's second table holds each session's
//! inputs at that look (`examples/feature_table.rs -- --look-to`), row for row beside the
//! first; a session passes at its look when the rules do not fail it there, its light gave
//! evidence there, and the probability of the model fitted on the first table reaches the early
//! pass point. Otherwise it waits, and the first table's row decides as before: a look can
//! only pass a session sooner, never hold one back, so what it costs is attacks, and the point
//! is set for that one look on the training sessions alone ([`early_pass_point`]).

use std::collections::BTreeSet;

use liveness_engine::fitted::FittedDecision;

use crate::error::RigError;

use super::fit::{DevelopmentSession, DevelopmentSet, Outcome, decide, fit, just_above};

/// The verdict column of a session that took no look (`examples/feature_table.rs`).
pub const NO_LOOK: &str = "none";

/// The development set's rows at the look, checked to be the first table's sessions in the
/// same order (class, person, camera family and truth alike, row for row).
#[derive(Debug, Clone, PartialEq)]
pub struct Looks {
    pub set: DevelopmentSet,
}

impl Looks {
    pub fn parse(csv: &str, first: &DevelopmentSet) -> Result<Self, RigError> {
        let set = DevelopmentSet::parse(csv)?;
        let same = |a: &DevelopmentSession, b: &DevelopmentSession| {
            a.class == b.class && a.person == b.person && a.family == b.family && a.live == b.live
        };
        if set.sessions.len() != first.sessions.len() {
            return Err(RigError::DevelopmentSet(format!(
                "its look table holds {} sessions, the set {}",
                set.sessions.len(),
                first.sessions.len()
            )));
        }
        if let Some(row) =
            (0..set.sessions.len()).find(|&i| !same(&set.sessions[i], &first.sessions[i]))
        {
            return Err(RigError::DevelopmentSet(format!(
                "its look table's row {} is not the set's session",
                row + 2
            )));
        }
        Ok(Self { set })
    }

    /// Whether the session of row `index` could pass at its look at all: it took one, the
    /// rules did not fail it there, and its light gave evidence there.
    fn could_pass(&self, index: usize) -> bool {
        let look = &self.set.sessions[index];
        look.rules != NO_LOOK && !look.vetoed() && self.set.light_judged(look)
    }

    /// `decision`'s probability at the look of row `index`.
    fn probability(&self, decision: &FittedDecision, index: usize) -> f64 {
        self.set.probability(decision, &self.set.sessions[index])
    }

    /// Whether the session of row `index` passes at its look under `decision`, as the engine
    /// decides (`LivenessSession::early_look`).
    pub fn passes(&self, decision: &FittedDecision, index: usize) -> bool {
        decision
            .early_pass_at
            .is_some_and(|at| self.could_pass(index) && self.probability(decision, index) >= at)
    }
}

/// The early pass point of `decision` on the training rows `train` (indices into both tables):
/// just above the highest probability any training attack reaches at a look it could pass
/// at, and never below the decision's own pass point.
pub fn early_pass_point(looks: &Looks, decision: &FittedDecision, train: &[usize]) -> f64 {
    just_above(
        train
            .iter()
            .filter(|&&i| !looks.set.sessions[i].live && looks.could_pass(i))
            .map(|&i| looks.probability(decision, i)),
    )
    .clamp(decision.pass_at, 1.0)
}

/// Each session's outcome, and whether it passed at its look, under a model fitted without its
/// fold (the sessions sharing its `key`) on the first table, its early pass point set on the
/// same training sessions' looks: [`super::fit::cross_validate`] with the look.
pub fn cross_validate_with_look(
    set: &DevelopmentSet,
    looks: &Looks,
    chosen: &[String],
    key: fn(&DevelopmentSession) -> &str,
    (veto, keep_rules_passes): (bool, bool),
) -> Vec<(Outcome, bool)> {
    let mut outcomes = vec![(Outcome::Retry, false); set.sessions.len()];
    let folds: BTreeSet<&str> = set.sessions.iter().map(key).collect();
    for fold in folds {
        let training: Vec<usize> = (0..set.sessions.len())
            .filter(|&i| key(&set.sessions[i]) != fold)
            .collect();
        let train: Vec<&DevelopmentSession> = training
            .iter()
            .map(|&i| &set.sessions[i])
            .filter(|s| !(veto && s.vetoed()))
            .collect();
        let mut model = fit(&train, &set.inputs, chosen, "cross-validation fold");
        model.early_pass_at = Some(early_pass_point(looks, &model, &training));
        for (i, s) in set.sessions.iter().enumerate() {
            if key(s) == fold {
                let at_look = looks.passes(&model, i);
                let outcome = match at_look {
                    true => Outcome::Pass,
                    false => decide(set, &model, s, (veto, keep_rules_passes)),
                };
                outcomes[i] = (outcome, at_look);
            }
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed set (a set whole in classes and families is long to write); its own rows
    /// stand in for the looks.
    fn committed() -> DevelopmentSet {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../liveness-engine/data/development_set.csv");
        let text = std::fs::read_to_string(path).expect("the committed development set");
        DevelopmentSet::parse(&text).expect("the committed set is whole")
    }

    #[test]
    fn a_look_table_of_other_sessions_is_refused_naming_what_differs() {
        let set = committed();
        let csv = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../liveness-engine/data/development_set.csv"),
        )
        .expect("the committed development set");
        let mut lines: Vec<&str> = csv.lines().collect();
        // a live session's row and an attack's swapped
        let live = set
            .sessions
            .iter()
            .position(|s| s.live)
            .expect("a live row");
        let attack = set
            .sessions
            .iter()
            .position(|s| !s.live)
            .expect("an attack row");
        lines.swap(live + 1, attack + 1);
        let error = Looks::parse(&lines.join("\n"), &set).expect_err("rows out of order");
        let first = live.min(attack) + 2;
        assert!(
            error.to_string().contains(&format!("row {first} ")),
            "{error}"
        );
        lines.swap(live + 1, attack + 1);
        lines.push(lines[1]);
        let error = Looks::parse(&lines.join("\n"), &set).expect_err("one session more");
        assert!(error.to_string().contains("sessions"), "{error}");
        assert!(Looks::parse(&csv, &set).is_ok());
    }

    #[test]
    fn the_early_point_stands_above_every_training_attack_at_its_look_and_no_attack_of_training_passes_there()
     {
        let set = committed();
        let looks = Looks { set: set.clone() };
        let train: Vec<&DevelopmentSession> = set.sessions.iter().filter(|s| !s.vetoed()).collect();
        let chosen = super::super::fit::outcome_inputs(&set.inputs);
        let mut model = fit(&train, &set.inputs, &chosen, "a test");
        let rows: Vec<usize> = (0..set.sessions.len()).collect();
        let at = early_pass_point(&looks, &model, &rows);
        model.early_pass_at = Some(at);
        assert!(at >= model.pass_at);
        for (i, s) in set.sessions.iter().enumerate() {
            if !s.live {
                assert!(
                    !looks.passes(&model, i),
                    "an attack passed at its look: {}",
                    s.class
                );
            }
        }
        // a session without a look never passes at it
        let mut without = looks.clone();
        for s in &mut without.set.sessions {
            s.rules = NO_LOOK.to_string();
        }
        assert!((0..set.sessions.len()).all(|i| !without.passes(&model, i)));
    }
}
