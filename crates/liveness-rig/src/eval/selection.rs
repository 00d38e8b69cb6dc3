//! Nested cross-validation of the fitted decision's choice of inputs (issue 66). The shipped
//! model reads the layers' outcomes and two measured features, and that pair was chosen among
//! candidate pairs on the same folds its figures are reported on, so those figures are
//! optimistic by the choice. Here the choice is part of what is held out: each outer fold picks
//! its own pair on its training sessions alone ([`best_pair`], an inner cross-validation), fits
//! on them and judges its held-out sessions ([`nested_cross_validate`]). The figure of the
//! whole procedure, choice included, is what a new person or camera would see.

use super::fit::{
    DevelopmentSession, DevelopmentSet, Outcome, chosen_inputs, cross_validate,
    cross_validate_choosing,
};
use super::in_parallel;
use super::pass_point::PassPoint;

/// Which sessions share a fold: the person, or the camera family.
pub type FoldKey = fn(&DevelopmentSession) -> &str;

/// How a decision did on sessions it was not fitted on. Ordered as the choice ranks them:
/// fewer attacks passed first, then fewer live sessions not passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct HeldOutErrors {
    pub attacks_passed: usize,
    pub live_not_passed: usize,
}

impl HeldOutErrors {
    /// Counts the errors of `outcomes`, one per session of `sessions`, in order.
    pub fn count(sessions: &[DevelopmentSession], outcomes: &[Outcome]) -> Self {
        let mut errors = Self {
            attacks_passed: 0,
            live_not_passed: 0,
        };
        for (session, outcome) in sessions.iter().zip(outcomes) {
            match (session.live, *outcome == Outcome::Pass) {
                (true, false) => errors.live_not_passed += 1,
                (false, true) => errors.attacks_passed += 1,
                (true, true) | (false, false) => {}
            }
        }
        errors
    }
}

/// Every unordered pair of `candidates`, in order.
pub fn candidate_pairs(candidates: &[String]) -> Vec<[String; 2]> {
    let mut pairs = Vec::new();
    for (i, first) in candidates.iter().enumerate() {
        for second in &candidates[i + 1..] {
            pairs.push([first.clone(), second.clone()]);
        }
    }
    pairs
}

/// The pair of `candidates` that, read beside the layers' outcomes, does best held out by
/// `inner` folds of `set`: fewest attacks passed, then fewest live sessions not passed, then
/// the earlier pair. `veto` as in [`cross_validate`]. Pairs are scored on two threads.
pub fn best_pair(
    set: &DevelopmentSet,
    candidates: &[String],
    inner: FoldKey,
    veto: bool,
) -> ([String; 2], HeldOutErrors) {
    let pairs = candidate_pairs(candidates);
    assert!(!pairs.is_empty(), "at least two candidate features");
    let scores = in_parallel(&pairs, |pair| {
        let outcomes = cross_validate(
            set,
            &beside_outcomes(pair, &set.inputs),
            inner,
            (veto, false),
            PassPoint::Fitted,
        );
        HeldOutErrors::count(&set.sessions, &outcomes)
    });
    let (best, errors) = scores
        .into_iter()
        .enumerate()
        .min_by_key(|(i, errors)| (*errors, *i))
        .map(|(i, errors)| (pairs[i].clone(), errors))
        .expect("pairs were scored");
    (best, errors)
}

/// What one outer fold chose on its training sessions.
#[derive(Debug, Clone, PartialEq)]
pub struct FoldChoice {
    pub fold: String,
    pub pair: [String; 2],
    /// The pair's errors in the inner cross-validation (training sessions only).
    pub inner: HeldOutErrors,
}

/// Each session's outcome under the whole procedure fitted without its `outer` fold: the pair
/// chosen by [`best_pair`] over `inner` folds of the other sessions, the model fitted on them
/// reading the outcomes and that pair, the pass point just above their highest attack
/// ([`cross_validate_choosing`]). With `veto`, a session the rules failed is `Fail` and left
/// out of every fit.
pub fn nested_cross_validate(
    set: &DevelopmentSet,
    candidates: &[String],
    (outer, inner): (FoldKey, FoldKey),
    veto: bool,
) -> (Vec<Outcome>, Vec<FoldChoice>) {
    let mut choices = Vec::new();
    let outcomes = cross_validate_choosing(
        set,
        outer,
        (veto, false),
        PassPoint::Fitted,
        |fold, training| {
            let training = DevelopmentSet {
                inputs: set.inputs.clone(),
                sessions: training.iter().map(|s| (*s).clone()).collect(),
            };
            let (pair, inner_errors) = best_pair(&training, candidates, inner, veto);
            let chosen = beside_outcomes(&pair, &set.inputs);
            choices.push(FoldChoice {
                fold: fold.to_string(),
                pair,
                inner: inner_errors,
            });
            chosen
        },
    );
    (outcomes, choices)
}

/// The inputs of a model reading the layers' outcomes and `pair` (names among `inputs`).
fn beside_outcomes(pair: &[String; 2], inputs: &[String]) -> Vec<String> {
    chosen_inputs(&format!("outcomes+{}", pair.join(",")), inputs).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(person: &str, live: bool, rules: &str) -> DevelopmentSession {
        DevelopmentSession {
            person: person.to_string(),
            family: "webcam".to_string(),
            class: if live { "live" } else { "sheet" }.to_string(),
            live,
            rules: rules.to_string(),
            inputs: Vec::new(),
        }
    }

    #[test]
    fn errors_count_live_not_passed_and_attacks_passed() {
        let sessions = [
            session("a", true, "pass"),
            session("b", true, "retry"),
            session("c", false, "retry"),
            session("d", false, "fail"),
        ];
        let outcomes = [Outcome::Pass, Outcome::Fail, Outcome::Pass, Outcome::Retry];
        assert_eq!(
            HeldOutErrors::count(&sessions, &outcomes),
            HeldOutErrors {
                attacks_passed: 1,
                live_not_passed: 1
            }
        );
    }

    #[test]
    fn fewer_attacks_passed_ranks_before_fewer_live_retries() {
        let safe = HeldOutErrors {
            attacks_passed: 0,
            live_not_passed: 9,
        };
        let convenient = HeldOutErrors {
            attacks_passed: 1,
            live_not_passed: 0,
        };
        assert!(safe < convenient);
    }

    const DEPTH: &str = "motion.median_off_plane";
    const NOISE: &str = "deepfake_injection.moire";
    const HUE: &str = "deepfake_injection.boundary";

    /// Twelve people in two camera families, each filmed live and attacked once, with the
    /// engine's inputs (the model reads them by name): every outcome the same, [`DEPTH`]
    /// tells live (spread out) from attack, [`NOISE`] and [`HUE`] vary by person alone, and
    /// people `p` and `p + 6` share them (so a held-out person's attack is never beyond what
    /// the training sessions hold).
    fn separable_set() -> DevelopmentSet {
        let inputs = liveness_engine::fitted::input_names(liveness_engine::SessionMode::Passive);
        let column = |name: &str| inputs.iter().position(|n| n == name).expect(name);
        let mut sessions = Vec::new();
        for person in 0..12u32 {
            for live in [true, false] {
                let mut values = vec![0.5; inputs.len()];
                values[column(DEPTH)] = match live {
                    true => 0.8 + f64::from(person % 4) * 0.05,
                    false => 0.1,
                };
                values[column(NOISE)] = f64::from(person % 6) / 6.0;
                values[column(HUE)] = f64::from((person % 6) * 5 % 6) / 6.0;
                sessions.push(DevelopmentSession {
                    family: format!("family {}", person % 2),
                    inputs: values,
                    ..session(&format!("person {person}"), live, "retry")
                });
            }
        }
        DevelopmentSet { inputs, sessions }
    }

    #[test]
    fn the_choice_falls_on_the_feature_that_separates_and_holds_out() {
        let set = separable_set();
        let candidates = [NOISE, DEPTH, HUE].map(String::from).to_vec();
        let by_person: FoldKey = |s| &s.person;
        let (pair, errors) = best_pair(&set, &candidates, by_person, true);
        assert!(pair.contains(&DEPTH.to_string()), "{pair:?}");
        assert_eq!(
            errors,
            HeldOutErrors {
                attacks_passed: 0,
                live_not_passed: 0
            }
        );
        let (outcomes, choices) =
            nested_cross_validate(&set, &candidates, (by_person, by_person), true);
        assert_eq!(choices.len(), 12, "one choice a person");
        assert!(choices.iter().all(|c| c.pair.contains(&DEPTH.to_string())));
        assert_eq!(
            HeldOutErrors::count(&set.sessions, &outcomes),
            HeldOutErrors {
                attacks_passed: 0,
                live_not_passed: 0
            }
        );
    }

    #[test]
    fn pairs_are_every_unordered_pair_once() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let pairs = candidate_pairs(&names);
        assert_eq!(pairs.len(), 6);
        assert_eq!(pairs[0], ["a".to_string(), "b".to_string()]);
        assert_eq!(pairs[5], ["c".to_string(), "d".to_string()]);
    }
}
