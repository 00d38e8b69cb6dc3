//! The held-back evaluation's passive sweep: one lit session of a case, the job list of a
//! half (every case passive, a few attacks per class active), and the table it prints (per
//! mode and class, with what stopped each session that did not pass). Shared by the tests and
//! `examples/held_back_calibration.rs`, each of which uses part of it.

#![allow(dead_code)]

use std::collections::BTreeMap;

use crate::replay;
use domain::Verdict;
use liveness_engine::challenge::draw_challenges;
use liveness_engine::{Evidence, LivenessConfig, LivenessSession, SessionMode, VerdictReport};
use rand::Rng;

use super::attacks::attack_cases;
use super::frames::case_rng;
use super::set::{Case, Half, Split, live_cases};
use super::{engine, in_parallel, lit};

#[derive(Debug)]
pub struct Run {
    pub case: Case,
    pub mode: SessionMode,
    /// The screen-to-ambient ratio the light was rendered at.
    pub ratio: f32,
    pub report: VerdictReport,
}

/// One session of `case`, with the screen's light rendered by the test camera: a live face
/// for live footage at each ratio in turn, the attack's own answer for attacks.
pub fn run(case: &Case, mode: SessionMode, index: usize) -> Run {
    // each session draws its own challenge plan and light sequence
    let plan = draw_challenges(&mut case_rng(&format!("plan {}", case.name)), 3, 4);
    let seed: u64 = case_rng(&format!("light {} {index}", case.name)).random();
    let mut session = LivenessSession::replaying(
        engine(),
        LivenessConfig::default(),
        mode,
        plan,
        lit::sequence(seed),
    )
    .expect("session");
    let ratio = lit::ratio_for(index);
    let mut camera = lit::camera_for(&session, lit::scene_for(case.class), ratio, seed);
    let (report, _) =
        replay::play_through(&mut session, case.frames(), case.fps, Some(&mut camera));
    Run {
        case: case.clone(),
        mode,
        ratio,
        report,
    }
}

/// What stopped a session that did not pass: the layers with attack evidence, else the
/// layers in doubt, else the layers without evidence.
pub fn stopped_by(report: &VerdictReport) -> String {
    let named = |pick: &dyn Fn(&liveness_engine::LayerScore) -> bool| {
        report
            .layers
            .iter()
            .filter(|l| pick(l))
            .map(|l| format!("{:?}", l.layer))
            .collect::<Vec<_>>()
            .join("+")
    };
    let attack = named(&|l| l.evidence == Evidence::Attack);
    if !attack.is_empty() {
        return format!("attack: {attack}");
    }
    let doubt = named(&|l| l.evidence == Evidence::Measured && l.score < 0.35);
    if !doubt.is_empty() {
        return format!("doubt: {doubt}");
    }
    let none = named(&|l| l.evidence == Evidence::None);
    if !none.is_empty() {
        return format!("no evidence: {none}");
    }
    format!("low confidence ({:?})", report.end_reason)
}

#[derive(Debug, Default)]
pub struct ClassRow {
    pub sessions: usize,
    pub pass: usize,
    pub retry: usize,
    pub fail: usize,
    pub stopped: BTreeMap<String, usize>,
}

pub fn table(runs: &[Run]) -> BTreeMap<(String, &'static str), ClassRow> {
    let mut rows: BTreeMap<(String, &'static str), ClassRow> = BTreeMap::new();
    for r in runs {
        println!(
            "{:?} {} {} {:?} {:.3} {}",
            r.mode,
            r.case.class,
            r.case.name,
            r.report.verdict,
            r.report.confidence,
            serde_json::to_string(&r.report.layers).unwrap_or_default()
        );
        let row = rows
            .entry((format!("{:?}", r.mode), r.case.class))
            .or_default();
        row.sessions += 1;
        match r.report.verdict {
            Verdict::Pass => row.pass += 1,
            Verdict::Retry => row.retry += 1,
            Verdict::Fail => row.fail += 1,
        }
        if r.report.verdict != Verdict::Pass {
            *row.stopped.entry(stopped_by(&r.report)).or_default() += 1;
        }
    }
    println!("| mode | class | sessions | pass | retry | fail | stopped by |");
    println!("|---|---|---|---|---|---|---|");
    for ((mode, class), row) in &rows {
        let stopped: Vec<String> = row
            .stopped
            .iter()
            .map(|(k, n)| format!("{k} ×{n}"))
            .collect();
        println!(
            "| {mode} | {class} | {} | {} | {} | {} | {} |",
            row.sessions,
            row.pass,
            row.retry,
            row.fail,
            stopped.join(", ")
        );
    }
    rows
}

/// Every case of `half` in passive mode, and the attacks (a few per class) in active mode,
/// each with its index in the sweep (which picks its light's ratio, `lit::ratio_for`).
pub fn jobs(half: Half) -> Vec<(usize, Case, SessionMode)> {
    let split = Split::standard();
    let mut jobs: Vec<(Case, SessionMode)> = Vec::new();
    for case in live_cases(&split, half)
        .into_iter()
        .chain(attack_cases(&split, half, false))
    {
        assert_eq!(split.half_of_case(&case), Ok(half), "{}", case.name);
        jobs.push((case, SessionMode::Passive));
    }
    let mut per_class: BTreeMap<&str, usize> = BTreeMap::new();
    for case in attack_cases(&split, half, true) {
        let taken = per_class.entry(case.class).or_default();
        if *taken < 2 {
            *taken += 1;
            jobs.push((case, SessionMode::Active));
        }
    }
    jobs.into_iter()
        .enumerate()
        .map(|(index, (case, mode))| (index, case, mode))
        .collect()
}

pub fn evaluate(jobs: &[(usize, Case, SessionMode)]) -> Vec<Run> {
    in_parallel(jobs, |(index, case, mode)| run(case, *mode, *index))
}
