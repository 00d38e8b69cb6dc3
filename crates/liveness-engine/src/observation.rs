//! Per-frame analysis: decode, detect, one mesh pass, anti-spoof, pose, eye/mouth geometry and
//! the pixel signals. The result is small (about 1.5 KB) so a session can keep its whole
//! history; the frame itself is not kept.

use face_engine::geometry::{BoundingBox, Point};
use face_engine::{
    DetectMode, DetectOptions, Embedding, EngineError, Face, FaceEngine, FaceModel, Image, Mesh,
    Pose,
};

use crate::challenge::ActionReading;
use crate::illumination::sample::LightSample;
use crate::motion::parallax::PairParallax;
use crate::signals;

/// Mesh points that do not move with expressions (nose ridge, eye corners, brows, face
/// contour). Their relative motion between frames is what the motion layer measures: nose
/// points stand out of the contour's plane, so a turning head shows parallax among them.
pub const RIGID_POINTS: [usize; 26] = [
    1, 4, 5, 6, 168, 195, 197, // nose ridge and tip
    33, 133, 362, 263, // eye corners
    70, 300, 105, 334, // brows
    10, 152, 234, 454, 127, 356, 93, 323, 132, 361, 175, // forehead, chin, contour
];

/// A frame the anti-spoof model judged in the face box of an earlier analysed frame, with no
/// detector and no mesh run on it (a session whose server fell behind: `session::key_frames`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CarriedBoxJudgement {
    pub timestamp_ms: u64,
    /// The model's live probability.
    pub live_probability: f32,
    /// Whether the screen's colours may tint the frame: such a judgement feeds the look at
    /// the colours' end only (`LivenessSession::early_look`), never the anti-spoof layer
    /// beside the unlit faces.
    pub under_colours: bool,
}

/// Why a frame produced no face observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameProblem {
    /// Not a readable image, or larger than the limits.
    Unreadable,
    NoFace,
}

/// Everything later layers need from one face in one frame.
#[derive(Debug, Clone)]
pub struct FaceObservation {
    pub detector_score: f32,
    pub bbox: BoundingBox,
    /// Face centre within the middle third of the frame both ways.
    pub centered: bool,
    /// Face box height over frame height.
    pub size_fraction: f32,
    pub pose: Pose,
    /// Eye aspect ratio (open ≈ 0.3, closed < 0.15).
    pub eye_openness: f32,
    /// Lip gap over mouth width.
    pub mouth_open: f32,
    /// Mouth width over outer-eye-corner distance (rises with a smile).
    pub mouth_width: f32,
    /// Outer eye corner distance in pixels (the unit of all motion measures).
    pub eye_span: f32,
    /// [`RIGID_POINTS`] in image pixels.
    pub rigid_points: Vec<Point>,
    /// Live probability of the anti-spoof model, on the frames the session runs it on.
    pub anti_spoof: Option<f32>,
    /// The anti-spoof model's live probability on a frame the screen's colours may tint (the
    /// session moves it here from [`Self::anti_spoof`]): read only by the verdict at the
    /// colours' end (`LivenessSession::early_look`), never beside the unlit faces.
    pub anti_spoof_under_colours: Option<f32>,
    /// Share of the anti-spoof model's view (face and surroundings) inside the frame.
    pub anti_spoof_context: f32,
    pub sharpness: f32,
    pub brightness: f32,
    pub thumbnail: Vec<u8>,
    pub moire: f32,
    pub boundary_ratio: f32,
    /// Identity vector, on the frames the session samples for it.
    pub embedding: Option<Embedding>,
    /// Pixel planarity against the face a few frames earlier (filled by the session's
    /// [`crate::motion::parallax::ParallaxTracker`]).
    pub parallax: Option<PairParallax>,
    /// Mean colours of the face's regions and of the room, for the light check.
    pub light: LightSample,
}

/// One analysed frame.
#[derive(Debug, Clone)]
pub struct FrameObservation {
    pub timestamp_ms: u64,
    /// Faces the detector found (the observation describes the largest).
    pub face_count: usize,
    pub face: Option<FaceObservation>,
    /// The face the selfie detector found first, as `FaceEngine::primary_face` finds it on
    /// this frame, with its first mesh pass where the observation describes it: a portrait
    /// made from this frame starts from it (no detector run, one mesh pass fewer). `None`
    /// when the selfie detector found none. The session takes it out before keeping the
    /// frame (the history stays small).
    pub primary_face: Option<Face>,
}

/// What [`observe`] runs on a frame beyond the selfie detector and one mesh pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Analysis {
    /// Also run the group detector, so faces the selfie detector misses are counted (about
    /// 25 ms).
    pub count_all_faces: bool,
    /// The anti-spoof model on the face (about 8 ms).
    pub anti_spoof: bool,
    /// The identity vector (about 15 ms).
    pub embedding: bool,
}

impl Analysis {
    /// Detector, mesh and anti-spoof: a frame with nothing extra.
    pub const PLAIN: Self = Self {
        count_all_faces: false,
        anti_spoof: true,
        embedding: false,
    };
}

/// Analyses one frame.
pub fn observe(
    engine: &FaceEngine,
    image: &Image,
    timestamp_ms: u64,
    analysis: Analysis,
) -> Result<FrameObservation, EngineError> {
    let options = DetectOptions {
        mode: DetectMode::Selfie,
        max_faces: 4,
        ..DetectOptions::default()
    };
    let mut faces = engine.detect(image, &options)?;
    // the selfie path's first face when the group path's faces replace its list (with
    // `max_faces` 1 the selfie path verifies the same candidates in the same order and stops
    // at the first face: the one `primary_face` finds)
    let mut replaced_selfie_first = None;
    if analysis.count_all_faces {
        let all = engine.detect(
            image,
            &DetectOptions {
                max_faces: 4,
                ..DetectOptions::default()
            },
        )?;
        if all.len() > faces.len() {
            replaced_selfie_first = Some(std::mem::replace(&mut faces, all).into_iter().next());
        }
    }
    let face_count = faces.len();
    let Some(mut face) = faces.into_iter().next() else {
        return Ok(FrameObservation {
            timestamp_ms,
            face_count,
            face: None,
            primary_face: None,
        });
    };
    // the selfie path's own face keeps its pass for the portrait
    let mesh = match replaced_selfie_first {
        None => engine.first_mesh_pass(image, &mut face)?,
        Some(_) => engine.landmarks_single_pass(image, &face)?,
    };
    let anti_spoof = if analysis.anti_spoof {
        Some(engine.anti_spoof(image, &face)?)
    } else {
        None
    };
    let embedding = if analysis.embedding {
        Some(engine.embed(FaceModel::FrFeature, &engine.align(image, &mesh)?)?)
    } else {
        None
    };
    Ok(FrameObservation {
        timestamp_ms,
        face_count,
        face: Some(describe(engine, image, &face, &mesh, anti_spoof, embedding)),
        primary_face: replaced_selfie_first.unwrap_or(Some(face)),
    })
}

/// What a challenge reads from the largest face of a frame, and nothing else: the selfie
/// detector and one mesh pass (about half the cost of [`observe`]). For the frames a session
/// watches between its analysed ones while a short action (a blink) is asked.
pub fn observe_action(
    engine: &FaceEngine,
    image: &Image,
) -> Result<Option<ActionReading>, EngineError> {
    let options = DetectOptions {
        mode: DetectMode::Selfie,
        max_faces: 1,
        ..DetectOptions::default()
    };
    let Some(face) = engine.detect(image, &options)?.into_iter().next() else {
        return Ok(None);
    };
    let mesh = engine.landmarks_single_pass(image, &face)?;
    Ok(Some(action_reading(
        &mesh,
        mesh.pose().yaw,
        eye_span(&mesh),
    )))
}

fn action_reading(mesh: &Mesh, yaw: f32, eye_span: f32) -> ActionReading {
    ActionReading {
        yaw,
        eye_openness: mesh.eye_aspect_ratio(),
        mouth_width: mesh.point(61).distance(mesh.point(291)) / eye_span,
    }
}

impl FaceObservation {
    /// What the challenges read from this face.
    pub fn action_reading(&self) -> ActionReading {
        ActionReading {
            yaw: self.pose.yaw,
            eye_openness: self.eye_openness,
            mouth_width: self.mouth_width,
        }
    }
}

/// The motion layer's view of a mesh: its [`RIGID_POINTS`] and the outer eye corner distance
/// (the unit of every motion measure).
pub fn rigid_points_and_eye_span(mesh: &Mesh) -> (Vec<Point>, f32) {
    let rigid = RIGID_POINTS.iter().map(|&i| mesh.point(i)).collect();
    (rigid, eye_span(mesh))
}

/// Outer eye corner distance in pixels (at least 1).
fn eye_span(mesh: &Mesh) -> f32 {
    mesh.point(33).distance(mesh.point(263)).max(1.0)
}

fn describe(
    engine: &FaceEngine,
    image: &Image,
    face: &Face,
    mesh: &Mesh,
    anti_spoof: Option<f32>,
    embedding: Option<Embedding>,
) -> FaceObservation {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let c = face.bbox.center();
    let centered = (c.x - w / 2.0).abs() < w / 6.0 && (c.y - h / 2.0).abs() < h / 6.0;
    let (rigid_points, eye_span) = rigid_points_and_eye_span(mesh);
    let pose = mesh.pose();
    let action = action_reading(mesh, pose.yaw, eye_span);
    FaceObservation {
        detector_score: face.score,
        bbox: face.bbox,
        centered,
        size_fraction: face.bbox.height / h.max(1.0),
        pose,
        eye_openness: action.eye_openness,
        mouth_open: mesh.mouth_open_ratio(),
        mouth_width: action.mouth_width,
        eye_span,
        rigid_points,
        anti_spoof,
        anti_spoof_under_colours: None,
        anti_spoof_context: engine.anti_spoof_context(image, face),
        sharpness: face.quality.sharpness,
        brightness: face.quality.brightness,
        thumbnail: signals::face_thumbnail(image.rgb(), &face.bbox),
        moire: signals::moire_peak(image.rgb(), &face.bbox),
        boundary_ratio: signals::boundary_sharpness_ratio(image.rgb(), &face.bbox),
        embedding,
        parallax: None,
        light: LightSample::read(image.rgb(), &face.bbox),
    }
}
