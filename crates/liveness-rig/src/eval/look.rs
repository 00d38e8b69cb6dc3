//! The one look at the colours' end (issue 67): a lit passive session may pass when the
//! colours' window is over, before the camera's settling and the model's unlit faces, where
//! the fitted decision is surer than it ever was of an attack at that look
//! (`FittedDecision::early_pass_at`). The development set's second table holds each session's
//! inputs at that look (`examples/feature_table.rs -- --look-to`), row for row beside the
//! first; a session passes at its look when the rules do not fail it there, its light gave
//! evidence there, no layer raised attack evidence there, and the probability of the model
//! fitted on the first table reaches the early pass point. Otherwise it waits, and the first
//! table's row decides as before: a look can only pass a session sooner, never hold one back,
//! so what it costs is attacks, and the point is set for that one look on the training
//! sessions alone ([`early_pass_point`]). A server
//! reads a session's colours in one of two ways: every analysed frame while it keeps up, about
//! one face a colour step in a key frame's box when it fell behind (`session::key_frames`;
//! `feature_table -- --loaded-looks`). Each way is a table of its own ([`Looks::readings`]),
//! and the point stands above every training attack's look in each.

use std::collections::BTreeSet;

use liveness_engine::fitted::FittedDecision;

use crate::error::RigError;

use super::fit::{DevelopmentSession, DevelopmentSet, Outcome, decide, just_above};
use super::pass_point::PassPoint;

/// The verdict column of a session that took no look (`examples/feature_table.rs`).
pub const NO_LOOK: &str = "none";

/// The development set's rows at the look, one table per way a server reads the colours
/// ([`Looks::readings`]), each checked to be the first table's sessions in the same order
/// (class, person, camera family and truth alike, row for row).
#[derive(Debug, Clone, PartialEq)]
pub struct Looks {
    pub readings: Vec<DevelopmentSet>,
}

impl Looks {
    /// The look tables `csvs` (at least one) of the set `first`.
    pub fn parse(csvs: &[String], first: &DevelopmentSet) -> Result<Self, RigError> {
        if csvs.is_empty() {
            return Err(RigError::DevelopmentSet("no look table".into()));
        }
        let readings = csvs
            .iter()
            .map(|csv| Self::parse_one(csv, first))
            .collect::<Result<_, _>>()?;
        Ok(Self { readings })
    }

    fn parse_one(csv: &str, first: &DevelopmentSet) -> Result<DevelopmentSet, RigError> {
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
        Ok(set)
    }

    /// Whether the session of row `index`, read the way of table `reading`, took a look that
    /// the rules did not fail and whose light gave evidence: the looks the early pass point
    /// stands above ([`early_pass_point`]), disputed or not.
    fn judged_at_look(&self, reading: usize, index: usize) -> bool {
        let set = &self.readings[reading];
        let look = &set.sessions[index];
        look.rules != NO_LOOK && !look.vetoed() && set.light_judged(look)
    }

    /// Whether the session of row `index`, read the way of table `reading`, could pass at its
    /// look at all: [`Self::judged_at_look`], and no layer raised attack evidence there
    /// ([`raised_no_attack`]).
    fn could_pass(&self, reading: usize, index: usize) -> bool {
        let set = &self.readings[reading];
        self.judged_at_look(reading, index) && raised_no_attack(set, &set.sessions[index])
    }

    /// `decision`'s probability at the look of row `index` in table `reading`.
    fn probability(&self, decision: &FittedDecision, reading: usize, index: usize) -> f64 {
        let set = &self.readings[reading];
        set.probability(decision, &set.sessions[index])
    }

    /// Whether the session of row `index`, read the way of table `reading`, passes at its look
    /// under `decision`, as the engine decides (`LivenessSession::early_look`).
    pub fn passes(&self, decision: &FittedDecision, reading: usize, index: usize) -> bool {
        decision.early_pass_at.is_some_and(|at| {
            self.could_pass(reading, index) && self.probability(decision, reading, index) >= at
        })
    }
}

/// Whether no layer of `session` (a row of `set`) raised attack evidence, disputable or not:
/// every `<layer>.attack` input is 0 (`VerdictReport::raised_no_attack`, as the engine decides
/// whether a look may pass).
fn raised_no_attack(set: &DevelopmentSet, session: &DevelopmentSession) -> bool {
    set.inputs
        .iter()
        .zip(&session.inputs)
        .filter(|(name, _)| {
            name.rsplit_once('.')
                .is_some_and(|(_, what)| what == "attack")
        })
        .all(|(_, &value)| value == 0.0)
}

/// The early pass point of `decision` on the training rows `train` (indices into every
/// table): just above the highest probability any training attack reaches at a look the rules
/// did not fail and whose light gave evidence (`Looks::judged_at_look`), in any of the ways
/// a server reads it, and never below the decision's own pass point. An attack some layer
/// disputed at its look counts too, though it cannot pass there: the point says how sure the
/// model must be at a look, and the layers' attack evidence is a second condition, not a
/// reason to trust the model sooner (docs/accuracy.md, "A look passes no disputed session").
pub fn early_pass_point(looks: &Looks, decision: &FittedDecision, train: &[usize]) -> f64 {
    just_above((0..looks.readings.len()).flat_map(|reading| {
        train
            .iter()
            .filter(move |&&i| {
                !looks.readings[reading].sessions[i].live && looks.judged_at_look(reading, i)
            })
            .map(move |&i| looks.probability(decision, reading, i))
    }))
    .clamp(decision.pass_at, 1.0)
}

/// Each session's outcome, and whether it passed at its look, under a model fitted without its
/// fold (the sessions sharing its `key`) on the first table, its early pass point set on the
/// same training sessions' looks in every table (its pass point where `point` puts it):
/// [`super::fit::cross_validate`] with the look, one list per table (the session read that way).
pub fn cross_validate_with_look(
    set: &DevelopmentSet,
    looks: &Looks,
    chosen: &[String],
    key: fn(&DevelopmentSession) -> &str,
    (veto, keep_rules_passes): (bool, bool),
    point: PassPoint,
) -> Vec<Vec<(Outcome, bool)>> {
    let mut outcomes =
        vec![vec![(Outcome::Retry, false); set.sessions.len()]; looks.readings.len()];
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
        let mut model = point.fit(set, &train, chosen, "cross-validation fold");
        model.early_pass_at = Some(early_pass_point(looks, &model, &training));
        for (i, s) in set.sessions.iter().enumerate() {
            if key(s) != fold {
                continue;
            }
            for (reading, read) in outcomes.iter_mut().enumerate() {
                let at_look = looks.passes(&model, reading, i);
                let outcome = match at_look {
                    true => Outcome::Pass,
                    false => decide(set, &model, s, (veto, keep_rules_passes)),
                };
                read[i] = (outcome, at_look);
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
        super::super::fit::committed_development_set()
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
        let error = Looks::parse(&[lines.join("\n")], &set).expect_err("rows out of order");
        let first = live.min(attack) + 2;
        assert!(
            error.to_string().contains(&format!("row {first} ")),
            "{error}"
        );
        lines.swap(live + 1, attack + 1);
        lines.push(lines[1]);
        let error = Looks::parse(&[csv.clone(), lines.join("\n")], &set)
            .expect_err("one session more in the second table");
        assert!(error.to_string().contains("sessions"), "{error}");
        assert!(Looks::parse(&[csv.clone(), csv], &set).is_ok());
        assert!(Looks::parse(&[], &set).is_err(), "no table");
    }

    #[test]
    fn the_early_point_stands_above_every_training_attack_at_its_look_in_every_reading() {
        let set = committed();
        // a second way of reading the colours, in which one attack looks like a live session
        let mut loaded = set.clone();
        let live = set
            .sessions
            .iter()
            .find(|s| s.live && s.rules == "pass")
            .expect("a live session the rules pass");
        let attack = loaded
            .sessions
            .iter_mut()
            .find(|s| !s.live && !s.vetoed())
            .expect("an attack the rules do not fail");
        attack.inputs = live.inputs.clone();
        attack.rules = live.rules.clone();
        let first_only = Looks {
            readings: vec![set.clone()],
        };
        let looks = Looks {
            readings: vec![set.clone(), loaded],
        };
        let train: Vec<&DevelopmentSession> = set.sessions.iter().filter(|s| !s.vetoed()).collect();
        let chosen = super::super::fit::outcome_inputs(&set.inputs);
        let mut model = super::super::fit::fit(&train, &set.inputs, &chosen, "a test");
        let rows: Vec<usize> = (0..set.sessions.len()).collect();
        let at = early_pass_point(&looks, &model, &rows);
        let at_first_only = early_pass_point(&first_only, &model, &rows);
        assert!(at_first_only >= model.pass_at);
        assert!(
            at > at_first_only || at == 1.0,
            "the second reading's attack raises the point: {at} against {at_first_only}"
        );
        model.early_pass_at = Some(at);
        for reading in 0..looks.readings.len() {
            for (i, s) in set.sessions.iter().enumerate() {
                assert!(
                    s.live || !looks.passes(&model, reading, i),
                    "an attack passed at its look read the way of table {reading}: {}",
                    s.class
                );
            }
        }
        // a session without a look never passes at it
        let mut without = first_only.clone();
        for s in &mut without.readings[0].sessions {
            s.rules = NO_LOOK.to_string();
        }
        assert!((0..set.sessions.len()).all(|i| !without.passes(&model, 0, i)));
    }

    #[test]
    fn a_look_with_any_layers_attack_evidence_never_passes() {
        let set = committed();
        let train: Vec<&DevelopmentSession> = set.sessions.iter().filter(|s| !s.vetoed()).collect();
        let chosen = super::super::fit::outcome_inputs(&set.inputs);
        let mut model = super::super::fit::fit(&train, &set.inputs, &chosen, "a test");
        model.early_pass_at = Some(model.pass_at);
        let looks = Looks {
            readings: vec![set.clone()],
        };
        let passing = (0..set.sessions.len())
            .find(|&i| set.sessions[i].live && looks.passes(&model, 0, i))
            .expect("a live session passing at its look");
        let attack_inputs: Vec<usize> = (0..set.inputs.len())
            .filter(|&j| set.inputs[j].ends_with(".attack"))
            .collect();
        assert!(attack_inputs.len() >= 4, "every layer's attack outcome");
        // whatever the probability: at an early point of 0 only the attack evidence holds it
        model.early_pass_at = Some(0.0);
        assert!(looks.passes(&model, 0, passing));
        for &j in &attack_inputs {
            for raised in [0.5, 1.0] {
                let mut disputed = looks.clone();
                disputed.readings[0].sessions[passing].inputs[j] = raised;
                assert!(
                    !disputed.passes(&model, 0, passing),
                    "passed at its look with {} at {raised}",
                    set.inputs[j]
                );
            }
        }
    }
}
