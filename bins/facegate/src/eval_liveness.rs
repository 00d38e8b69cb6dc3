//! `facegate eval liveness`: replays recordings (folders of JPEG frames in capture order)
//! through liveness sessions and prints one JSON line per recording, then a table.
//!
//! In active mode a recording folder may hold `segments.toml` (labelled neutral, blink, turn
//! and smile segments, in seconds at the replay rate): a scripted camera then answers each
//! randomly drawn challenge with the matching segment. Without labels the recording is played
//! in order, as an attacker replaying a video would.
//!
//! With `--light-ratio`, a rendering camera (`liveness_rig::light_camera`) renders the
//! light of each session's colour sequence onto the frames, as `--light-scene` would answer
//! it; the results then come from simulation. Without it the light check is off. With
//! `--camera` other than `reference`, each recording draws its camera from the family
//! (`liveness_rig::camera_model`) with the seed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use face_engine::FaceEngine;
use liveness_engine::{
    Illumination, LivenessConfig, LivenessPath, LivenessSession, Opening, SessionMode,
};
use liveness_rig::camera_model::{CameraFamily, CameraModel};
use liveness_rig::light_camera::{LightCamera, Scene};
use liveness_rig::replay::{
    ClassSummary, Recording, ReplayOutcome, SegmentLabels, is_jpeg, replay_in_order,
    replay_scripted,
};
use rand::SeedableRng;

use crate::eval_report::{ClassRow, FittedScores, LivenessRow};

/// `--light-scene` values (`liveness_rig::light_camera::Scene`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LightSceneArg {
    LiveFace,
    ScreenReplay,
    Print,
    Injected,
    TintedStream,
    OtherSequence,
    /// Each class of recordings its own scene, by its folder's name ([`scene_of_class`]), so
    /// one run holds live people and attacks (and the report their DET curves).
    ByClass,
}

/// The scene of a class of recordings under `--light-scene by-class`: its folder's name
/// starts with `live`, `print`, `replay`, `injected`, `tinted` or `other-sequence`.
pub fn scene_of_class(class: &str) -> Result<LightSceneArg, String> {
    const PREFIXES: [(&str, LightSceneArg); 6] = [
        ("live", LightSceneArg::LiveFace),
        ("print", LightSceneArg::Print),
        ("replay", LightSceneArg::ScreenReplay),
        ("injected", LightSceneArg::Injected),
        ("tinted", LightSceneArg::TintedStream),
        ("other-sequence", LightSceneArg::OtherSequence),
    ];
    PREFIXES
        .iter()
        .find(|(prefix, _)| class.starts_with(prefix))
        .map(|(_, scene)| *scene)
        .ok_or_else(|| {
            format!(
                "--light-scene by-class: the class {class:?} names no scene (its folder's name \
                 starts with live, print, replay, injected, tinted or other-sequence)"
            )
        })
}

/// The light rendered onto the recordings, if any.
#[derive(Debug, Clone)]
pub struct RenderedLight {
    ratio: Option<f32>,
    scene: LightSceneArg,
    seed: u64,
    /// The camera families drawn from; empty: the reference camera.
    families: Vec<CameraFamily>,
}

impl RenderedLight {
    pub fn new(
        ratio: Option<f32>,
        scene: LightSceneArg,
        seed: u64,
        families: Vec<CameraFamily>,
    ) -> Result<Self, String> {
        if ratio.is_some_and(|r| !(r > 0.0 && r <= 2.0)) {
            return Err("--light-ratio must be within 0..=2".into());
        }
        Ok(Self {
            ratio,
            scene,
            seed,
            families,
        })
    }

    /// The scene rendered onto a recording of `class`: the run's, or under `by-class` the one
    /// its class names (refused, named, when it names none).
    fn scene_for(&self, class: &str) -> Result<LightSceneArg, String> {
        match self.scene {
            LightSceneArg::ByClass => scene_of_class(class),
            scene => Ok(scene),
        }
    }

    /// The rendering camera of the recording at `index`, whose scene is `scene`
    /// ([`Self::scene_for`]); none without the light.
    fn camera(
        &self,
        engine: &Arc<FaceEngine>,
        index: u64,
        scene: LightSceneArg,
    ) -> Option<LightCamera> {
        let ratio = self.ratio?;
        let seed = self.seed.wrapping_add(index);
        let scene = match scene {
            // `scene_for` never yields by-class: it resolves it to the class's own scene
            LightSceneArg::LiveFace | LightSceneArg::ByClass => Scene::LiveFace,
            LightSceneArg::ScreenReplay => Scene::ScreenReplay,
            LightSceneArg::Print => Scene::Print,
            LightSceneArg::Injected => Scene::Injected,
            LightSceneArg::TintedStream => Scene::TintedStream,
            LightSceneArg::OtherSequence => Scene::OtherSequence(Illumination::draw(
                &mut rand::rngs::StdRng::seed_from_u64(!seed),
            )),
        };
        if self.families.is_empty() {
            return Some(LightCamera::new(engine.clone(), scene, ratio, seed));
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x00ca_3e7a);
        let model = CameraModel::draw_from(&self.families, &mut rng);
        Some(LightCamera::with_model(
            engine.clone(),
            scene,
            ratio,
            model,
            seed,
        ))
    }
}

/// Frames a scripted active session may use before it is abandoned.
const SCRIPTED_FRAME_CAP: usize = 2_000;

/// How the recordings are played.
#[derive(Debug, Clone, Copy)]
pub struct Playback {
    /// Capture rate of the frames.
    pub fps: f32,
    /// Seconds a shorter recording plays on back and forth to (none: once).
    pub play_for: Option<f32>,
    /// The path every session is opened on.
    pub path: LivenessPath,
}

/// Replays every recording under `dir` (`report`: also write an HTML report there).
pub fn run(
    engine: FaceEngine,
    mode: SessionMode,
    (dir, report): (&Path, Option<&Path>),
    Playback {
        fps,
        play_for,
        path,
    }: Playback,
    light: RenderedLight,
) -> Result<(), String> {
    if !(fps > 0.0 && fps <= 120.0) {
        return Err("--fps must be within 0..=120".into());
    }
    let min_frames = match play_for {
        None => 0,
        Some(seconds) if seconds > 0.0 && seconds <= 600.0 => (seconds * fps).ceil() as usize,
        Some(_) => return Err("--play-for must be within 0..=600 seconds".into()),
    };
    let engine = Arc::new(engine);
    let config = LivenessConfig {
        illumination_enabled: light.ratio.is_some(),
        ..LivenessConfig::default()
    };
    let recordings = recordings_under(dir)?;
    if recordings.is_empty() {
        return Err(format!("{} holds no JPEG frames", dir.display()));
    }
    // every recording's scene before the run, so a class that names none is refused at once
    let scenes: Vec<LightSceneArg> = recordings
        .iter()
        .map(|(class, _)| light.scene_for(class))
        .collect::<Result<_, _>>()?;
    let mut outcomes = Vec::new();
    let bar = crate::progress::progress(recordings.len(), "recordings");
    for (index, ((_, folder), &scene)) in recordings.iter().zip(&scenes).enumerate() {
        let recording = Recording::open(folder)
            .map_err(|e| e.to_string())?
            .back_and_forth(min_frames);
        let mut camera = light.camera(&engine, index as u64, scene);
        let mut rng = rand::rngs::StdRng::seed_from_u64(light.seed.wrapping_add(index as u64));
        let outcome = replay_one(
            &engine,
            &config,
            (mode, path, fps),
            (folder, &recording),
            &mut rng,
            camera.as_mut(),
        )?;
        bar.suspend(|| {
            println!(
                "{}",
                serde_json::json!({
                "recording": outcome.recording,
                "verdict": outcome.report.verdict,
                "confidence": (f64::from(outcome.report.confidence) * 1000.0).round() / 1000.0,
                "end_reason": outcome.report.end_reason,
                "challenges": outcome.challenges,
                "layers": outcome.report.layers,
                })
            )
        });
        bar.inc(1);
        outcomes.push(outcome);
    }
    bar.finish_and_clear();
    let by_class = outcomes_by_class(&recordings, &outcomes);
    let classes = classes_of(&by_class);
    print_table(&classes);
    if let Some(out) = report {
        let rows: Vec<LivenessRow> = outcomes
            .iter()
            .map(|o| LivenessRow {
                recording: o.recording.clone(),
                verdict: o.report.verdict.as_str().to_owned(),
                confidence: o.report.confidence,
                end_reason: serde_json::to_value(o.report.end_reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
            })
            .collect();
        let class_rows: Vec<ClassRow> = classes
            .iter()
            .map(|c| ClassRow {
                class: c.class.clone(),
                pass: c.pass,
                retry: c.retry,
                fail: c.fail,
            })
            .collect();
        let setup = format!(
            "{} recordings under {} in {mode:?} mode at {fps} frames a second; {}.",
            outcomes.len(),
            dir.display(),
            match (light.ratio, path) {
                (_, LivenessPath::NoFlash) =>
                    "the no-flash path (head turns, no colours)".to_owned(),
                (Some(ratio), LivenessPath::Light) =>
                    format!("the screen's light rendered (simulated) at screen/ambient {ratio}"),
                (None, LivenessPath::Light) => "the light check off".to_owned(),
            }
        );
        let fitted = FittedScores::of_run(&config, (mode, path, light.ratio), &by_class);
        let page =
            crate::eval_report::write_liveness(out, &setup, (&class_rows, fitted.as_ref()), &rows)?;
        eprintln!("report: {}", page.display());
    }
    Ok(())
}

/// The outcomes of each class of recordings, in the order the classes first appear.
fn outcomes_by_class<'a>(
    recordings: &'a [(String, PathBuf)],
    outcomes: &'a [ReplayOutcome],
) -> Vec<(&'a str, Vec<&'a ReplayOutcome>)> {
    let mut classes: Vec<(&str, Vec<&ReplayOutcome>)> = Vec::new();
    for ((class, _), outcome) in recordings.iter().zip(outcomes) {
        match classes.iter_mut().find(|(name, _)| name == class) {
            Some((_, of_class)) => of_class.push(outcome),
            None => classes.push((class, vec![outcome])),
        }
    }
    classes
}

/// One summary per class, in the order the classes first appear.
fn classes_of(by_class: &[(&str, Vec<&ReplayOutcome>)]) -> Vec<ClassSummary> {
    by_class
        .iter()
        .map(|(name, of_class)| ClassSummary::of(name, of_class.iter().copied()))
        .collect()
}

fn replay_one(
    engine: &Arc<FaceEngine>,
    config: &LivenessConfig,
    (mode, path, fps): (SessionMode, LivenessPath, f32),
    (folder, recording): (&Path, &Recording),
    rng: &mut rand::rngs::StdRng,
    camera: Option<&mut LightCamera>,
) -> Result<ReplayOutcome, String> {
    let labels_path = folder.join("segments.toml");
    let opened = LivenessSession::new(
        engine.clone(),
        config.clone(),
        mode,
        rng,
        Opening::First,
        path,
    )
    .map_err(|e| e.to_string())?;
    // a no-flash passive session asks head turns: it plays the labels as an active one
    if opened.mode() == SessionMode::Active && labels_path.is_file() {
        let text = std::fs::read_to_string(&labels_path).map_err(|e| e.to_string())?;
        let labels: SegmentLabels =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", labels_path.display()))?;
        let mut session = opened;
        return replay_scripted(
            &mut session,
            recording,
            &labels,
            fps,
            SCRIPTED_FRAME_CAP,
            camera,
        )
        .map_err(|e| e.to_string());
    }
    let mut session = opened;
    Ok(replay_in_order(&mut session, recording, 0, fps, camera))
}

/// The recordings under `dir` with their class: DIR itself when it holds frames; else each
/// sub-folder holding frames (class: DIR's name); else each sub-sub-folder holding frames
/// (class: its sub-folder's name, as in `DIR/live/<recording>`, `DIR/print/<recording>`).
fn recordings_under(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let name = |path: &Path| {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    };
    let holds_frames = |folder: &Path| {
        std::fs::read_dir(folder)
            .map(|entries| entries.filter_map(|e| e.ok()).any(|e| is_jpeg(&e.path())))
            .unwrap_or(false)
    };
    if holds_frames(dir) {
        return Ok(vec![(name(dir), dir.to_path_buf())]);
    }
    let mut found = Vec::new();
    for folder in sorted_folders(dir)? {
        if holds_frames(&folder) {
            found.push((name(dir), folder));
        } else {
            for recording in sorted_folders(&folder)? {
                if holds_frames(&recording) {
                    found.push((name(&folder), recording));
                }
            }
        }
    }
    Ok(found)
}

fn sorted_folders(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    Ok(folders)
}

fn print_table(classes: &[ClassSummary]) {
    println!();
    println!(
        "| class | recordings | pass | retry | fail | pass rate (APCER if attacks) | not passed (BPCER if live) | confidence min / median / max |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for summary in classes {
        println!(
            "| {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3} / {:.3} / {:.3} |",
            summary.class,
            summary.sessions,
            summary.pass,
            summary.retry,
            summary.fail,
            summary.pass_rate(),
            summary.not_passed_rate(),
            summary.confidence_min,
            summary.confidence_median,
            summary.confidence_max
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_names_its_scene_and_one_that_names_none_is_refused_naming_it() {
        assert_eq!(scene_of_class("live"), Ok(LightSceneArg::LiveFace));
        assert_eq!(
            scene_of_class("live-hand-held"),
            Ok(LightSceneArg::LiveFace)
        );
        assert_eq!(scene_of_class("print-trimmed"), Ok(LightSceneArg::Print));
        assert_eq!(scene_of_class("replay"), Ok(LightSceneArg::ScreenReplay));
        assert_eq!(
            scene_of_class("other-sequence"),
            Ok(LightSceneArg::OtherSequence)
        );
        let refused = scene_of_class("deepfake").expect_err("no scene");
        assert!(refused.contains("\"deepfake\""), "{refused}");
    }
}
