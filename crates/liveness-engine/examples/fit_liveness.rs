//! Fits the liveness decision on the development set that `examples/feature_table.rs` writes
//! (issue 66, `liveness_rig::eval::fit`) and reports it cross-validated, beside the rules'
//! verdicts on the same sessions: held out by person (a clip's source footage, which both
//! halves of a face-swap pair share) and by camera family; in each fold the pass point is set
//! on the training sessions alone and applied to the held-out ones.
//! `cargo run -p facegate-liveness-engine --release --example fit_liveness -- features.csv
//! [--inputs all|features|outcomes|outcomes+NAME,...] [--veto] [--keep-rules-passes]
//! [--held-out-pass-point] [--write coefficients.json]`: the model reads the layers' measured features, their outcomes
//! (score, attack, unjudged, vouches), both, or the outcomes and the named features (the
//! engine's: `outcomes+deepfake_injection.light_relief_in_errors,motion.median_off_plane`);
//! with `--veto` a session the rules failed (attack evidence no other layer disputes) stays
//! `fail` and is left out of every fit, as the engine decides; with `--keep-rules-passes` a
//! session the rules passed passes whatever the model says (the model only turns the rules'
//! `retry` into `pass`; the engine lets it decide alone between the two); with
//! `--held-out-pass-point` the pass point stands above every training attack scored by a model
//! fitted without its person or its camera family as well (`liveness_rig::eval::pass_point`,
//! in each fold on its training sessions alone; the bundled coefficients'); `--write`
//! writes the coefficients fitted on every session (the engine's `data/fitted_decision.json`);
//! `--test other.csv` applies that fit, pass point and all, to sessions it never saw (fresh
//! draws of `feature_table -- --from-draw K`) and reports them as the folds are reported;
//! `--look looks.csv[,loaded.csv]` (the set's look tables: `feature_table -- --look-to`, the
//! colours read in order, and `-- --loaded-looks MS`, read by a loaded server) adds the one
//! look at the colours' end (`liveness_rig::eval::look`): the folds again with each fold's
//! early pass point (above every training attack's look in every table), once for each table
//! (the sessions read that way), how many live sessions passed at their look, and with
//! `--write` the early pass point of the fit on every session.

use std::collections::BTreeMap;

use facegate_liveness_engine::fitted::FittedDecision;
use liveness_rig::eval::fit::{
    DevelopmentSession, DevelopmentSet, L2, Outcome, PASS_MARGIN, STEPS, chosen_inputs,
    cross_validate, decide,
};
use liveness_rig::eval::look::{Looks, cross_validate_with_look, early_pass_point};
use liveness_rig::eval::pass_point::{self, PassPoint};
use liveness_rig::eval::selection::{best_pair, nested_cross_validate};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: fit_liveness <features.csv> [options]");
    const FLAGS: [&str; 3] = ["--veto", "--keep-rules-passes", "--held-out-pass-point"];
    const OPTIONS: [&str; 5] = ["--inputs", "--write", "--nested", "--test", "--look"];
    let (mut flags, mut options) = (Vec::new(), BTreeMap::new());
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            flag if FLAGS.contains(&flag) => flags.push(flag),
            name if OPTIONS.contains(&name) => {
                let value = rest
                    .next()
                    .unwrap_or_else(|| panic!("{name} needs a value"));
                options.insert(name, value.clone());
            }
            other => panic!("unknown argument {other}: options {FLAGS:?} {OPTIONS:?}"),
        }
    }
    let option = |name: &str| options.get(name).cloned();
    let inputs = option("--inputs").unwrap_or_else(|| "all".to_string());
    let veto = flags.contains(&"--veto");
    let keep_rules_passes = flags.contains(&"--keep-rules-passes");
    let point = match flags.contains(&"--held-out-pass-point") {
        true => PassPoint::HeldOut,
        false => PassPoint::Fitted,
    };
    let text = std::fs::read_to_string(path).expect("the development set");
    let set = DevelopmentSet::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let chosen = chosen_inputs(&inputs, &set.inputs).unwrap_or_else(|e| panic!("{e}"));
    let count = |f: fn(&DevelopmentSession) -> &str| {
        set.sessions
            .iter()
            .map(f)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    };
    println!(
        "{} sessions ({} live), {} inputs ({inputs}), veto {veto}, {} classes, {} families, {} people",
        set.sessions.len(),
        set.sessions.iter().filter(|s| s.live).count(),
        chosen.len(),
        count(|s| &s.class),
        count(|s| &s.family),
        count(|s| &s.person),
    );
    let rules: Vec<Outcome> = set
        .sessions
        .iter()
        .map(|s| match s.rules.as_str() {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            _ => Outcome::Retry,
        })
        .collect();
    report("the rules alone", &set, &rules);
    let by_person: fn(&DevelopmentSession) -> &str = pass_point::by_person;
    let by_family: fn(&DevelopmentSession) -> &str = pass_point::by_family;
    if let Some(candidates) = option("--nested") {
        let candidates: Vec<String> = candidates.split(',').map(String::from).collect();
        for (title, outer) in [
            ("leave one person out", by_person),
            ("leave one camera family out", by_family),
        ] {
            let started = std::time::Instant::now();
            let (held_out, choices) =
                nested_cross_validate(&set, &candidates, (outer, by_family), veto);
            let mut chosen: BTreeMap<String, usize> = BTreeMap::new();
            for choice in &choices {
                *chosen.entry(choice.pair.join(" + ")).or_default() += 1;
            }
            report(&format!("nested, {title}"), &set, &held_out);
            println!(
                "pairs chosen in {} folds ({:.0} s): {chosen:?}",
                choices.len(),
                started.elapsed().as_secs_f64()
            );
        }
        let (pair, errors) = best_pair(&set, &candidates, by_family, veto);
        println!(
            "== chosen on every session (inner folds by camera family): {} ({errors:?})",
            pair.join(" + ")
        );
        return;
    }
    for (title, key) in [
        ("leave one person out", by_person),
        ("leave one camera family out", by_family),
    ] {
        let started = std::time::Instant::now();
        let held_out = cross_validate(&set, &chosen, key, (veto, keep_rules_passes), point);
        report(&format!("fitted, {title}"), &set, &held_out);
        println!("({:.0} s)", started.elapsed().as_secs_f64());
    }
    let look_paths: Vec<String> = option("--look")
        .map(|paths| paths.split(',').map(String::from).collect())
        .unwrap_or_default();
    let looks = (!look_paths.is_empty()).then(|| {
        let texts: Vec<String> = look_paths
            .iter()
            .map(|path| std::fs::read_to_string(path).expect("a look table"))
            .collect();
        Looks::parse(&texts, &set).unwrap_or_else(|e| panic!("{e}"))
    });
    if let Some(looks) = &looks {
        for (title, key) in [
            ("leave one person out", by_person),
            ("leave one camera family out", by_family),
        ] {
            let read = cross_validate_with_look(
                &set,
                looks,
                &chosen,
                key,
                (veto, keep_rules_passes),
                point,
            );
            for (held_out, look_path) in read.iter().zip(&look_paths) {
                let outcomes: Vec<Outcome> = held_out.iter().map(|(o, _)| *o).collect();
                report(
                    &format!("fitted with the look, {title}, read as {look_path}"),
                    &set,
                    &outcomes,
                );
                let live_at_look = set
                    .sessions
                    .iter()
                    .zip(held_out)
                    .filter(|(s, (_, at_look))| s.live && *at_look)
                    .count();
                println!(
                    "live passed at the look: {live_at_look}/{}",
                    set.sessions.iter().filter(|s| s.live).count()
                );
            }
        }
    }
    let train: Vec<&DevelopmentSession> = set
        .sessions
        .iter()
        .filter(|s| !(veto && s.vetoed()))
        .collect();
    let provenance = format!(
        "liveness_rig::eval::fit (L2 {L2}, {STEPS} steps, pass margin {PASS_MARGIN}, each \
         input's sign bound by eval::monotone) on {} lit passive sessions ({} live) of {path} \
         (examples/feature_table.rs), inputs: {inputs}, sessions the rules failed left out: \
         {veto}",
        train.len(),
        train.iter().filter(|s| s.live).count()
    );
    let mut model = point.fit(&set, &train, &chosen, &provenance);
    if let Some(looks) = &looks {
        let every: Vec<usize> = (0..set.sessions.len()).collect();
        model.early_pass_at = Some(early_pass_point(looks, &model, &every));
        model.provenance.push_str(&format!(
            "; early pass point just above every attack at its look at the colours' end in {}",
            option("--look").unwrap_or_default()
        ));
        for (reading, look_path) in look_paths.iter().enumerate() {
            let at_look = |live: bool| {
                every
                    .iter()
                    .filter(|&&i| set.sessions[i].live == live && looks.passes(&model, reading, i))
                    .count()
            };
            println!(
                "== the look on every session read as {look_path}: early pass at {:.4}, live passed there {}, attacks {}",
                model.early_pass_at.unwrap_or(f64::NAN),
                at_look(true),
                at_look(false)
            );
        }
    }
    println!(
        "== weights on every session (standardised inputs), pass at {:.4}",
        model.pass_at
    );
    let names = model.inputs.iter().cloned().chain(
        model
            .missing_indicators
            .iter()
            .map(|&j| format!("{} missing", model.inputs[j])),
    );
    let mut weighted: Vec<(f64, String)> = model.weights.iter().copied().zip(names).collect();
    weighted.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
    for (w, n) in weighted.iter().take(15) {
        println!("{w:+.3} {n}");
    }
    let (attacks, live) = ranked(&set, &train, &model);
    println!(
        "== highest attack probabilities: {:.3?}",
        &attacks[..attacks.len().min(5)]
    );
    println!(
        "== live probabilities: lowest {:.3?}, median {:.3}",
        &live[..live.len().min(8)],
        live.get(live.len() / 2).copied().unwrap_or(f64::NAN)
    );
    let below: Vec<String> = train
        .iter()
        .filter(|s| s.live && set.probability(&model, s) < model.pass_at)
        .map(|s| live_label(&set, s))
        .collect();
    println!("== live sessions below the pass point: {below:?}");
    if let Some(test_path) = option("--test") {
        test_untouched(&test_path, &model, (veto, keep_rules_passes));
    }
    if let Some(out) = option("--write") {
        let json = serde_json::to_string_pretty(&model).expect("coefficients serialise");
        std::fs::write(&out, json + "\n").expect("the coefficients file");
        println!("wrote {out}");
    }
}

/// Applies `model` (fitted on every session of the development set, pass point and all) to
/// the sessions of the set at `path`, which it never saw, and reports them as the folds are reported.
fn test_untouched(path: &str, model: &FittedDecision, (veto, keep_rules_passes): (bool, bool)) {
    let text = std::fs::read_to_string(path).expect("the test set");
    // `parse` holds every set to the engine's inputs, so the test set's are the fit's
    let test = DevelopmentSet::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let outcomes: Vec<Outcome> = test
        .sessions
        .iter()
        .map(|s| decide(&test, model, s, (veto, keep_rules_passes)))
        .collect();
    report(
        &format!("fitted on every session, tested on {path}"),
        &test,
        &outcomes,
    );
    // the sessions the model decides: not vetoed, their light judged
    let judged: Vec<&DevelopmentSession> = test
        .sessions
        .iter()
        .filter(|s| !(veto && s.vetoed()) && test.light_judged(s))
        .collect();
    let (attacks, live) = ranked(&test, &judged, model);
    println!(
        "== tested: highest attack probabilities {:.3?}, lowest live {:.3?} (pass at {:.3})",
        &attacks[..attacks.len().min(4)],
        &live[..live.len().min(6)],
        model.pass_at
    );
}

/// The attacks of `sessions` by `model`'s probability, highest first (with their class), and
/// the live sessions' probabilities, lowest first.
fn ranked<'a>(
    set: &DevelopmentSet,
    sessions: &[&'a DevelopmentSession],
    model: &FittedDecision,
) -> (Vec<(f64, &'a str)>, Vec<f64>) {
    let mut attacks: Vec<(f64, &str)> = sessions
        .iter()
        .filter(|s| !s.live)
        .map(|s| (set.probability(model, s), s.class.as_str()))
        .collect();
    attacks.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut live: Vec<f64> = sessions
        .iter()
        .filter(|s| s.live)
        .map(|s| set.probability(model, s))
        .collect();
    live.sort_by(f64::total_cmp);
    (attacks, live)
}

/// A live session's person and camera family, and whether its light gave no evidence (the
/// rules then keep it `retry` whatever the model says).
fn live_label(set: &DevelopmentSet, session: &DevelopmentSession) -> String {
    let light = match set.light_judged(session) {
        true => "",
        false => ", the light gave no evidence",
    };
    format!("{} ({}{light})", session.person, session.family)
}

/// BPCER, live `fail`s and APCER per class of `outcomes` (one per session, in order).
fn report(title: &str, set: &DevelopmentSet, outcomes: &[Outcome]) {
    let live: Vec<Outcome> = set
        .sessions
        .iter()
        .zip(outcomes)
        .filter(|(s, _)| s.live)
        .map(|(_, o)| *o)
        .collect();
    let not_passed = live.iter().filter(|o| **o != Outcome::Pass).count();
    let failed = live.iter().filter(|o| **o == Outcome::Fail).count();
    println!("== {title}");
    println!(
        "live: BPCER {not_passed}/{} ({:.3}), failed {failed}",
        live.len(),
        not_passed as f64 / live.len().max(1) as f64
    );
    for (s, outcome) in set.sessions.iter().zip(outcomes).filter(|(s, _)| s.live) {
        if *outcome != Outcome::Pass {
            println!("  not passed: {}", live_label(set, s));
        }
    }
    let mut by_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (s, outcome) in set.sessions.iter().zip(outcomes).filter(|(s, _)| !s.live) {
        let entry = by_class.entry(&s.class).or_default();
        entry.1 += 1;
        if *outcome == Outcome::Pass {
            entry.0 += 1;
            println!("  passed: {} ({}, {})", s.class, s.person, s.family);
        }
    }
    for (class, (passed, total)) in by_class {
        println!("attack {class}: APCER {passed}/{total}");
    }
}
