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
use liveness_engine::{Illumination, LivenessConfig, LivenessSession, SessionMode};
use liveness_rig::camera_model::{CameraFamily, CameraModel};
use liveness_rig::light_camera::{LightCamera, Scene};
use liveness_rig::replay::{
    ClassSummary, Recording, ReplayOutcome, SegmentLabels, is_jpeg, replay_in_order,
    replay_scripted,
};
use rand::SeedableRng;

use crate::eval::LightSceneArg;

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

    fn camera(&self, engine: &Arc<FaceEngine>, index: u64) -> Option<LightCamera> {
        let ratio = self.ratio?;
        let seed = self.seed.wrapping_add(index);
        let scene = match self.scene {
            LightSceneArg::LiveFace => Scene::LiveFace,
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

pub fn run(
    engine: FaceEngine,
    mode: SessionMode,
    dir: &Path,
    fps: f32,
    light: RenderedLight,
) -> Result<(), String> {
    if !(fps > 0.0 && fps <= 120.0) {
        return Err("--fps must be within 0..=120".into());
    }
    let engine = Arc::new(engine);
    let config = LivenessConfig {
        illumination_enabled: light.ratio.is_some(),
        ..LivenessConfig::default()
    };
    let recordings = recordings_under(dir)?;
    if recordings.is_empty() {
        return Err(format!("{} holds no JPEG frames", dir.display()));
    }
    let mut outcomes = Vec::new();
    for (index, folder) in recordings.iter().enumerate() {
        let recording = Recording::open(folder).map_err(|e| e.to_string())?;
        let mut camera = light.camera(&engine, index as u64);
        let mut rng = rand::rngs::StdRng::seed_from_u64(light.seed.wrapping_add(index as u64));
        let outcome = replay_one(
            &engine,
            &config,
            (mode, fps),
            (folder, &recording),
            &mut rng,
            camera.as_mut(),
        )?;
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
        );
        outcomes.push(outcome);
    }
    print_table(dir, &outcomes);
    Ok(())
}

fn replay_one(
    engine: &Arc<FaceEngine>,
    config: &LivenessConfig,
    (mode, fps): (SessionMode, f32),
    (folder, recording): (&Path, &Recording),
    rng: &mut rand::rngs::StdRng,
    camera: Option<&mut LightCamera>,
) -> Result<ReplayOutcome, String> {
    let labels_path = folder.join("segments.toml");
    if mode == SessionMode::Active && labels_path.is_file() {
        let text = std::fs::read_to_string(&labels_path).map_err(|e| e.to_string())?;
        let labels: SegmentLabels =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", labels_path.display()))?;
        let mut session = LivenessSession::new(engine.clone(), config.clone(), mode, rng)
            .map_err(|e| e.to_string())?;
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
    let mut session = LivenessSession::new(engine.clone(), config.clone(), mode, rng)
        .map_err(|e| e.to_string())?;
    Ok(replay_in_order(&mut session, recording, 0, fps, camera))
}

/// DIR itself when it holds frames, otherwise each of its sub-folders, sorted.
fn recordings_under(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    if entries.iter().any(|p| is_jpeg(p)) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut folders: Vec<PathBuf> = entries.into_iter().filter(|p| p.is_dir()).collect();
    folders.sort();
    Ok(folders)
}

fn print_table(dir: &Path, outcomes: &[ReplayOutcome]) {
    let summary = ClassSummary::of(&dir.display().to_string(), outcomes);
    println!();
    println!(
        "| recordings | pass | retry | fail | pass rate (APCER if attacks) | not passed (BPCER if live) | confidence min / median / max |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} / {:.3} / {:.3} |",
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
