//! The sessions of the camera-family evaluation: the scenes each class puts in front of the
//! screen, the job list of a half, one session through a camera drawn from the family, the
//! printout, and what every run is held to (no live `fail`, no attack `pass`). Shared by the
//! tests and `examples/camera_family_report.rs`, each of which uses part of it.

#![allow(dead_code)]

use std::collections::BTreeMap;

use crate::camera_model::CameraFamily;
use crate::light_camera::{LightCamera, Scene};
use domain::Verdict;
use liveness_engine::{
    Illumination, LightReading, LivenessConfig, LivenessSession, SessionMode, VerdictReport,
};
use rand::{Rng, SeedableRng};

use super::attacks::attack_cases;
use super::frames::case_rng;
use super::lit;
use super::set::{Case, FACE_SWAP_CLASS, Half, Split, Truth, face_swap_cases, live_cases};

/// The salt of the tests' draw of cameras, ratios and sessions (the development set's first
/// draw).
pub const TESTS_SALT: &str = "family";

/// Screen-to-ambient ratios a session draws from.
pub const RATIOS: [f32; 5] = [0.05, 0.1, 0.2, 0.3, 0.5];

/// One session through a camera of the family.
#[derive(Debug)]
pub struct FamilyRun {
    pub label: String,
    pub name: String,
    pub family: CameraFamily,
    pub ratio: f32,
    pub truth: Truth,
    pub report: VerdictReport,
    pub light: Option<LightReading>,
    /// The session's one look at the colours' end (`LivenessSession::early_look`).
    pub early_look: Option<VerdictReport>,
}

/// The scene of a job, from the session's seed.
pub type SceneOf = fn(u64) -> Scene;

/// What stands before the camera in a job: live footage, or an attack scene.
#[derive(Debug, Clone)]
pub struct Job {
    pub case: Case,
    pub label: String,
    pub scene: SceneOf,
}

pub fn live_scene(_: u64) -> Scene {
    Scene::LiveFace
}

pub fn print_scene(_: u64) -> Scene {
    Scene::Print
}

pub fn trimmed_print_scene(_: u64) -> Scene {
    Scene::TrimmedPrint
}

pub fn replay_scene(_: u64) -> Scene {
    Scene::ScreenReplay
}

pub fn tinted_scene(_: u64) -> Scene {
    Scene::TintedStream
}

pub fn injected_scene(_: u64) -> Scene {
    Scene::Injected
}

pub fn other_sequence_scene(seed: u64) -> Scene {
    Scene::OtherSequence(Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(
        seed ^ 0x5eed,
    )))
}

/// One session of `job` through a camera drawn from `families`, at a ratio drawn from
/// [`RATIOS`], all from one seed.
pub fn run(job: &Job, families: &[CameraFamily], salt: &str) -> FamilyRun {
    run_at_ratio(job, families, salt, None)
}

/// The passive session of `job` and the camera filming it, drawn from one seed of `salt` (the
/// tests' is [`TESTS_SALT`]): the session's sequence, a camera of `families` showing it, and the
/// screen-to-ambient ratio (drawn from [`RATIOS`] unless `ratio` is given), returned last.
pub fn drawn_session(
    job: &Job,
    families: &[CameraFamily],
    salt: &str,
    ratio: Option<f32>,
) -> (LivenessSession, LightCamera, f32) {
    drawn_session_with(job, families, salt, ratio, LivenessConfig::default())
}

/// [`drawn_session`] with the session's `config`.
pub(crate) fn drawn_session_with(
    job: &Job,
    families: &[CameraFamily],
    salt: &str,
    ratio: Option<f32>,
    config: LivenessConfig,
) -> (LivenessSession, LightCamera, f32) {
    let seed: u64 = case_rng(&format!("{salt} {} {}", job.label, job.case.name)).random();
    let ratio = ratio.unwrap_or(RATIOS[(seed % RATIOS.len() as u64) as usize]);
    let session = lit::seeded_session_with(SessionMode::Passive, seed, config);
    let camera = lit::family_camera_for(&session, (job.scene)(seed), ratio, families, seed);
    (session, camera, ratio)
}

/// [`run`], at `ratio` when one is given: the camera and the session are the seed's draws,
/// only the screen-to-ambient ratio is set (the report's view at each ratio alone).
pub fn run_at_ratio(
    job: &Job,
    families: &[CameraFamily],
    salt: &str,
    ratio: Option<f32>,
) -> FamilyRun {
    run_with(job, families, salt, ratio, LivenessConfig::default())
}

/// [`run`], every session waiting past its look at the colours' end (recorded in
/// [`FamilyRun::early_look`]) for the camera's settling and the unlit faces: the development
/// set's two tables, the verdict after the wait and the look (`examples/feature_table.rs`).
pub fn run_past_the_look(job: &Job, families: &[CameraFamily], salt: &str) -> FamilyRun {
    let config = LivenessConfig {
        verdict_at_colours_end: false,
        ..LivenessConfig::default()
    };
    run_with(job, families, salt, None, config)
}

fn run_with(
    job: &Job,
    families: &[CameraFamily],
    salt: &str,
    ratio: Option<f32>,
    config: LivenessConfig,
) -> FamilyRun {
    let (mut session, mut camera, ratio) = drawn_session_with(job, families, salt, ratio, config);
    for (i, frame) in job.case.frames().into_iter().enumerate() {
        let t = crate::replay::frame_capture_ms(i, job.case.fps);
        if !camera.due(t) {
            continue;
        }
        session.push_frame(&camera.capture_stamped(&frame, t), t);
        if session.verdict().is_some() {
            break;
        }
    }
    FamilyRun::concluded(job, &camera, ratio, &mut session)
}

impl FamilyRun {
    /// The run of `job` through `camera` at `ratio`, `session` concluded where it stands.
    pub(crate) fn concluded(
        job: &Job,
        camera: &LightCamera,
        ratio: f32,
        session: &mut LivenessSession,
    ) -> Self {
        Self {
            label: job.label.clone(),
            name: job.case.name.clone(),
            family: camera.model().family,
            ratio,
            truth: job.case.truth,
            report: session.conclude(),
            light: session.light_reading(),
            early_look: session.early_look().cloned(),
        }
    }
}

/// The live people of `half` (clear, near-still, hand-held footage and the face-swap pairs'
/// real halves) and its attacks: prints as sheets on its printed-photo cases, and a replay, a
/// tinted stream, an unanswering stream and another session's sequence on its live clips,
/// and its face swaps, unlit.
pub fn jobs(half: Half) -> Vec<Job> {
    let split = Split::standard();
    let live = live_cases(&split, half);
    let mut jobs: Vec<Job> = live
        .iter()
        .filter(|c| {
            ["live", "live near-still", "live hand-held camera"].contains(&c.class)
                && !(c.class == "live" && c.name.ends_with("@middle"))
        })
        .map(|c| Job {
            case: c.clone(),
            label: c.class.to_string(),
            scene: live_scene,
        })
        .collect();
    for case in face_swap_cases(&split, half) {
        let scene = match case.truth {
            Truth::Live => live_scene,
            Truth::Attack => injected_scene,
        };
        jobs.push(Job {
            label: case.class.to_string(),
            case,
            scene,
        });
    }
    let attack_scenes: [(&str, SceneOf); 4] = [
        (STREAM_ATTACKS[0], replay_scene),
        (STREAM_ATTACKS[1], tinted_scene),
        (STREAM_ATTACKS[2], injected_scene),
        (STREAM_ATTACKS[3], other_sequence_scene),
    ];
    for case in live
        .iter()
        .filter(|c| c.class == "live" && c.name.ends_with("@start"))
    {
        for (label, scene) in attack_scenes {
            let mut attack = case.clone();
            attack.truth = Truth::Attack;
            jobs.push(Job {
                case: attack,
                label: label.to_string(),
                scene,
            });
        }
    }
    for case in printed_photo_cases(half) {
        jobs.push(Job {
            label: sheet_label(case.class),
            case,
            scene: print_scene,
        });
    }
    jobs
}

/// Prints as sheets trimmed close to the face (`Scene::TrimmedPrint`) on `half`'s
/// printed-photo cases: the attack issue 66 found passing (3 of 66 sessions of both halves),
/// kept out of [`jobs`] and so out of the tests until a rule stops it without failing a live
/// person (docs/accuracy.md); `camera_family_report --trimmed` runs them.
pub fn trimmed_sheet_jobs(half: Half) -> Vec<Job> {
    printed_photo_cases(half)
        .into_iter()
        .map(|case| Job {
            label: trimmed_sheet_label(case.class),
            case,
            scene: trimmed_print_scene,
        })
        .collect()
}

/// `half`'s printed-photo cases, which the camera presents as sheets.
fn printed_photo_cases(half: Half) -> Vec<Case> {
    attack_cases(&Split::standard(), half, false)
        .into_iter()
        .filter(|c| PRINTED_PHOTO_CLASSES.contains(&c.class))
        .collect()
}

/// The attacks played on a half's live footage, as [`jobs`] labels them.
pub const STREAM_ATTACKS: [&str; 4] = [
    "replay on a screen",
    "injected, tinted in sync",
    "injected, no answer",
    "another session's sequence",
];

/// The printed-photo classes the camera presents as sheets.
pub const PRINTED_PHOTO_CLASSES: [&str; 3] =
    ["print simulation", "cut-out in a live room", "loose crop"];

/// The label of a sheet of a printed-photo class.
pub fn sheet_label(class: &str) -> String {
    format!("print as a sheet ({class})")
}

/// The label of a trimmed sheet of a printed-photo class.
pub fn trimmed_sheet_label(class: &str) -> String {
    format!("print as a trimmed sheet ({class})")
}

/// Every attack class of [`jobs`] and [`trimmed_sheet_jobs`]: what a development set built
/// from them must hold.
pub fn attack_classes() -> Vec<String> {
    let sheets = PRINTED_PHOTO_CLASSES
        .iter()
        .flat_map(|class| [sheet_label(class), trimmed_sheet_label(class)]);
    STREAM_ATTACKS
        .iter()
        .map(|label| label.to_string())
        .chain([FACE_SWAP_CLASS.to_string()])
        .chain(sheets)
        .collect()
}

/// A run's class, clip, camera family and ratio, as every printed line starts.
fn heading(r: &FamilyRun) -> String {
    format!(
        "{} | {} | {} @ {}",
        r.label,
        r.name,
        r.family.name(),
        r.ratio
    )
}

pub fn print_runs(title: &str, runs: &[FamilyRun]) {
    println!("== {title}");
    let mut rows: BTreeMap<(String, &str), [usize; 3]> = BTreeMap::new();
    for r in runs {
        println!(
            "{} | {:?} {:.3} {:?} | {}",
            heading(r),
            r.report.verdict,
            r.report.confidence,
            r.report
                .reasons
                .iter()
                .map(|c| c.code())
                .collect::<Vec<_>>(),
            r.light.map(|l| l.describe()).unwrap_or_default()
        );
        let row = rows.entry((r.label.clone(), r.family.name())).or_default();
        row[match r.report.verdict {
            Verdict::Pass => 0,
            Verdict::Retry => 1,
            Verdict::Fail => 2,
        }] += 1;
    }
    println!("| class | camera family | pass | retry | fail |\n|---|---|---|---|---|");
    for ((label, family), [pass, retry, fail]) in rows {
        println!("| {label} | {family} | {pass} | {retry} | {fail} |");
    }
    let live: Vec<&FamilyRun> = runs.iter().filter(|r| r.truth == Truth::Live).collect();
    let not_passed = live
        .iter()
        .filter(|r| r.report.verdict != Verdict::Pass)
        .count();
    let attacks: Vec<&FamilyRun> = runs.iter().filter(|r| r.truth == Truth::Attack).collect();
    let passed = attacks
        .iter()
        .filter(|r| r.report.verdict == Verdict::Pass)
        .count();
    println!(
        "BPCER {not_passed}/{} ({:.3}), APCER {passed}/{}",
        live.len(),
        not_passed as f32 / live.len().max(1) as f32,
        attacks.len()
    );
}

pub fn assert_no_live_fail_and_no_attack_pass(runs: &[FamilyRun]) {
    let failed: Vec<String> = runs
        .iter()
        .filter(|r| r.truth == Truth::Live && r.report.verdict == Verdict::Fail)
        .map(|r| format!("{} {} ({} @ {})", r.label, r.name, r.family.name(), r.ratio))
        .collect();
    assert!(failed.is_empty(), "live people failed: {failed:?}");
    let passed: Vec<String> = runs
        .iter()
        .filter(|r| r.truth == Truth::Attack && r.report.verdict == Verdict::Pass)
        .map(|r| format!("{} {} ({} @ {})", r.label, r.name, r.family.name(), r.ratio))
        .collect();
    assert!(passed.is_empty(), "attacks passed: {passed:?}");
}

/// Every layer's finding of each run, for looking into a few sessions.
pub fn print_layers(runs: &[FamilyRun]) {
    for r in runs {
        println!("-- {}: {:?}", heading(r), r.report.verdict);
        for l in &r.report.layers {
            println!(
                "   {:?} {:.3} {:?} {:?}{}{} | {}",
                l.layer,
                l.score,
                l.evidence,
                l.cause.map(|c| c.code()),
                if l.disputable { " disputable" } else { "" },
                if l.vouches_live { " vouches live" } else { "" },
                l.reason
            );
        }
    }
}
