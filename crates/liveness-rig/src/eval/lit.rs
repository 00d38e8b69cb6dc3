//! The rendering camera in the liveness tests: which scene each class of the evaluation set
//! puts in front of the screen's light, and the screen-to-ambient ratios it is rendered at.
//! Everything measured through it is simulated light on real footage (docs/accuracy.md).

use crate::camera_model::{CameraFamily, CameraModel};
use crate::light_camera::{LightCamera, Scene};
use liveness_engine::{
    Illumination, LightCheck, LivenessConfig, LivenessSession, Opening, SessionMode,
};
use rand::SeedableRng;

use super::engine;

/// Screen-to-ambient ratios from a bright office (0.05) to a dim room (0.3).
pub const RATIOS: [f32; 4] = [0.05, 0.1, 0.2, 0.3];

/// What answers the light in a case of class `class`: a live face for live footage; for the
/// attack classes, what the attack physically is (a card or a print answers flat, a screen
/// with a glare on its glass, a still photo sent to the socket not at all, two real people
/// swapped as a live face).
pub fn scene_for(class: &str) -> Scene {
    match class {
        c if c.starts_with("live") || c.starts_with("nuaa live") => Scene::LiveFace,
        "two people swapped in the hold" => Scene::LiveFace,
        "screen simulation" | "live video on a screen" => Scene::ScreenReplay,
        "still photo with noise" => Scene::Injected,
        _ => Scene::Print,
    }
}

/// The ratio of the `index`-th case: every ratio in turn.
pub fn ratio_for(index: usize) -> f32 {
    RATIOS[index % RATIOS.len()]
}

/// A session with the default configuration whose challenges and light sequence are drawn
/// from `seed`.
pub fn seeded_session(mode: SessionMode, seed: u64) -> LivenessSession {
    seeded_session_with(mode, seed, LivenessConfig::default())
}

/// [`seeded_session`] with `config`.
pub fn seeded_session_with(
    mode: SessionMode,
    seed: u64,
    config: LivenessConfig,
) -> LivenessSession {
    LivenessSession::new(
        engine(),
        config,
        mode,
        &mut rand::rngs::StdRng::seed_from_u64(seed),
        Opening::First,
        liveness_engine::LivenessPath::Light,
    )
    .expect("session")
}

/// A camera for `scene` at `ratio`, seeded, already showing `session`'s sequence from time 0.
pub fn camera_for(session: &LivenessSession, scene: Scene, ratio: f32, seed: u64) -> LightCamera {
    let mut camera = LightCamera::new(engine(), scene, ratio, seed);
    if let Some(sequence) = session.illumination() {
        camera.show(sequence.clone(), 0);
    }
    camera
}

/// A camera drawn from `families` with `seed` (`camera_model`), filming `scene` at `ratio`,
/// already showing `session`'s sequence from time 0.
pub fn family_camera_for(
    session: &LivenessSession,
    scene: Scene,
    ratio: f32,
    families: &[CameraFamily],
    seed: u64,
) -> LightCamera {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x00ca_3e7a);
    let model = CameraModel::draw_from(families, &mut rng);
    let mut camera = LightCamera::with_model(engine(), scene, ratio, model, seed);
    if let Some(sequence) = session.illumination() {
        camera.show(sequence.clone(), 0);
    }
    camera
}

/// A sequence drawn from `seed`, as the server would draw one.
pub fn sequence(seed: u64) -> LightCheck {
    LightCheck::Sequence(Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(
        seed,
    )))
}
