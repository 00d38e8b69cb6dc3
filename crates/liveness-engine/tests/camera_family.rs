//! The screen-light check through the family of test cameras (issue 39, `camera_model`): each
//! session draws its camera from a seed (white balance grey-world, white-patch or held,
//! exposure, tone curve, channel gains, noise, JPEG, resolution, a display-to-camera delay of
//! 30-480 ms with jitter, 8-30 frames a second) and its screen-to-ambient ratio from 0.05 (a
//! bright office) to 0.5. Simulated light on real footage: the held-back half's live clips and
//! the face-swap pairs' real halves are live people, never failed under any camera; prints as
//! sheets, replays, tinted and unanswering streams, another session's sequence and the unlit
//! face swaps never pass.
//!
//! CI runs one session per class; `cargo test -p facegate-liveness-engine --release --test
//! camera_family -- --ignored --nocapture` runs the whole held-back sweep, and prints both
//! halves family by family, each family also held out of the families the session draws
//! from (leave one model out), for docs/accuracy.md.

mod common;

use std::collections::BTreeMap;

use domain::Verdict;
use facegate_liveness_engine::{Illumination, LightReading, SessionMode, VerdictReport};
use liveness_rig::camera_model::CameraFamily;
use liveness_rig::light_camera::Scene;
use rand::{Rng, SeedableRng};

use common::eval_attacks::attack_cases;
use common::eval_frames::case_rng;
use common::eval_set::{Case, Half, Split, Truth, face_swap_cases, live_cases};
use common::{first_of_each, in_parallel, lit};

/// Screen-to-ambient ratios a session draws from.
const RATIOS: [f32; 5] = [0.05, 0.1, 0.2, 0.3, 0.5];

/// One session through a camera of the family.
struct FamilyRun {
    label: String,
    name: String,
    family: CameraFamily,
    ratio: f32,
    truth: Truth,
    report: VerdictReport,
    light: Option<LightReading>,
}

/// The scene of a job, from the session's seed.
type SceneOf = fn(u64) -> Scene;

/// What stands before the camera in a job: live footage, or an attack scene.
#[derive(Clone)]
struct Job {
    case: Case,
    label: String,
    scene: SceneOf,
}

fn live_scene(_: u64) -> Scene {
    Scene::LiveFace
}

fn print_scene(_: u64) -> Scene {
    Scene::Print
}

fn replay_scene(_: u64) -> Scene {
    Scene::ScreenReplay
}

fn tinted_scene(_: u64) -> Scene {
    Scene::TintedStream
}

fn injected_scene(_: u64) -> Scene {
    Scene::Injected
}

fn other_sequence_scene(seed: u64) -> Scene {
    Scene::OtherSequence(Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(
        seed ^ 0x5eed,
    )))
}

/// One session of `job` through a camera drawn from `families`, at a ratio drawn from
/// [`RATIOS`], all from one seed.
fn run(job: &Job, families: &[CameraFamily], salt: &str) -> FamilyRun {
    let seed: u64 = case_rng(&format!("{salt} {} {}", job.label, job.case.name)).random();
    let ratio = RATIOS[(seed % RATIOS.len() as u64) as usize];
    let mut session = lit::seeded_session(SessionMode::Passive, seed);
    let mut camera = lit::family_camera_for(&session, (job.scene)(seed), ratio, families, seed);
    for (i, frame) in job.case.frames().into_iter().enumerate() {
        let t = (i as f64 * 1000.0 / f64::from(job.case.fps)).round() as u64;
        if !camera.due(t) {
            continue;
        }
        session.push_frame(&camera.capture_stamped(&frame, t), t);
        if session.verdict().is_some() {
            break;
        }
    }
    FamilyRun {
        label: job.label.clone(),
        name: job.case.name.clone(),
        family: camera.model().family,
        ratio,
        truth: job.case.truth,
        report: session.conclude(),
        light: session.light_reading(),
    }
}

/// The live people of `half` (clear, near-still, hand-held footage and the face-swap pairs'
/// real halves) and its attacks: prints as sheets on its printed-photo cases, and a replay, a
/// tinted stream, an unanswering stream and another session's sequence on its live clips,
/// and its face swaps, unlit.
fn jobs(half: Half) -> Vec<Job> {
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
        ("replay on a screen", replay_scene),
        ("injected, tinted in sync", tinted_scene),
        ("injected, no answer", injected_scene),
        ("another session's sequence", other_sequence_scene),
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
    for case in attack_cases(&split, half, false)
        .into_iter()
        .filter(|c| ["print simulation", "cut-out in a live room", "loose crop"].contains(&c.class))
    {
        jobs.push(Job {
            label: format!("print as a sheet ({})", case.class),
            case,
            scene: print_scene,
        });
    }
    jobs
}

fn print_runs(title: &str, runs: &[FamilyRun]) {
    println!("== {title}");
    let mut rows: BTreeMap<(String, &str), [usize; 3]> = BTreeMap::new();
    for r in runs {
        println!(
            "{} | {} | {} @ {} | {:?} {:.3} {:?} | {}",
            r.label,
            r.name,
            r.family.name(),
            r.ratio,
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

fn assert_no_live_fail_and_no_attack_pass(runs: &[FamilyRun]) {
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

/// CI's share of the sweep below: the first session of each class (live clips, face-swap
/// pairs' halves, each attack), each through the camera and at the ratio the sweep draws for
/// it.
#[test]
fn held_back_sample_under_drawn_cameras_fails_no_live_person_and_passes_no_attack() {
    let jobs = first_of_each(jobs(Half::HeldBack), |job| job.label.clone());
    assert!(jobs.len() >= 10, "classes in the sample: {}", jobs.len());
    let runs = in_parallel(&jobs, |job| run(job, &CameraFamily::ALL, "family"));
    print_runs("held-back sample, every family", &runs);
    assert_no_live_fail_and_no_attack_pass(&runs);
}

/// The whole held-back half (about 7 minutes on 2 vCPU), every family drawn.
#[test]
#[ignore = "the held-back sweep under every family (about 7 minutes on 2 vCPU); its CI sample runs above"]
fn held_back_live_people_are_never_failed_and_no_attack_passes_under_any_camera() {
    let jobs = jobs(Half::HeldBack);
    let runs = in_parallel(&jobs, |job| run(job, &CameraFamily::ALL, "family"));
    print_runs("held-back half, every family", &runs);
    // every family is drawn in the sample
    for family in CameraFamily::ALL {
        assert!(
            runs.iter().any(|r| r.family == family),
            "{} never drawn",
            family.name()
        );
    }
    assert_no_live_fail_and_no_attack_pass(&runs);
}

#[test]
#[ignore = "prints both halves under every family and each family held out (many minutes)"]
fn family_report() {
    for half in [Half::Calibration, Half::HeldBack] {
        let jobs = jobs(half);
        let runs = in_parallel(&jobs, |job| run(job, &CameraFamily::ALL, "family"));
        print_runs(&format!("{half:?}, every family"), &runs);
        for held_out in CameraFamily::ALL {
            let runs = in_parallel(&jobs, |job| {
                run(job, &[held_out], &format!("held out {}", held_out.name()))
            });
            print_runs(&format!("{half:?}, {} only", held_out.name()), &runs);
        }
    }
}
