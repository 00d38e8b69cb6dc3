//! Facegate's face engine: detection, landmarks, alignment, embeddings, quality, anti-spoof
//! scoring and the ICAO portrait, on models shipped in `models/` and run with tract.
//!
//! The public API carries no tract types. Load once with [`FaceEngine::load`] and share the
//! engine across threads (it is `Send + Sync`; every call takes `&self`).
//!
//! # Detect, compare and make a portrait
//!
//! The bundled models are compiled into the library ([`FaceEngine::load_embedded`]); nothing
//! is downloaded. Two photos of one person score higher than photos of two people: the
//! similarity is calibrated in 0..1 per face model ([`compare`]), and Facegate's API calls
//! 0.65 and above a solid match (docs/accuracy.md gives its false-accept rate per model).
//! Two embedders ship ([`FaceModel`]): `sface` (the default) and `fr_feature`.
//!
//! ```
//! use facegate_face_engine::{FaceEngine, FaceModel, Image};
//!
//! let engine = FaceEngine::load_embedded()?;
//! # let photos = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//! #     .join("../../../shared/testdata/identities/celebs");
//! let read = |name: &str| -> Result<Image, Box<dyn std::error::Error>> {
//!     Ok(Image::decode(&std::fs::read(photos.join(name))?)?)
//! };
//! let first = read("id00/img1.jpg")?;
//! let second = read("id00/img2.jpg")?;
//! let stranger = read("id01/img26.jpg")?;
//!
//! // the largest face of each photo, its landmarks, and its embedding
//! let embedding = |image: &Image| -> Result<_, Box<dyn std::error::Error>> {
//!     let face = engine.primary_face(image)?;
//!     Ok(engine.embed_face(FaceModel::DEFAULT, image, &face)?)
//! };
//! let same = engine.compare(&embedding(&first)?, &embedding(&second)?)?;
//! let different = engine.compare(&embedding(&first)?, &embedding(&stranger)?)?;
//! assert!(same > different, "same person {same:.2}, strangers {different:.2}");
//!
//! // the 480×600 ICAO portrait of the first photo, and what it checked
//! let face = engine.primary_face(&first)?;
//! let portrait = engine.portrait(&first, &face)?;
//! assert!(portrait.jpeg.starts_with(&[0xFF, 0xD8]));
//! for unmet in portrait.quality.failed() {
//!     println!("not met: {unmet:?}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod align;
mod antispoof;
pub mod compare;
mod decode;
mod detect;
mod embedded;
mod error;
pub mod evaluation;
mod face;
pub mod gate;
pub mod geometry;
pub mod identification;
mod manifest;
mod measures;
mod mesh;
pub mod portrait;
mod preprocess;
mod quality;
mod resample;

use std::path::Path;
use std::sync::Arc;

pub use domain::FaceModel;

pub use align::{ALIGNED_SIZE, ARCFACE_TEMPLATE, AlignedFace, Embedding};
pub use antispoof::ColourCast;
pub use decode::{DEFAULT_MAX_PIXELS, Image};
pub use detect::{DetectMode, DetectOptions};
pub use error::{EngineError, EngineResult};
pub use face::Face;
pub use inference::{Kernels, NodeCost, Rewrite, RewriteCounts};
pub use manifest::{ModelEntry, ModelRole, read_manifest, sha256_file};
pub use measures::{Keypoints, Pose, Quality};
pub use mesh::Mesh;
pub use portrait::{PhotoQuality, Portrait, PortraitDraft};

use geometry::BoundingBox;
use manifest::ModelSet;

/// `file@sha256-prefix` of the manifest's embedder of each face model, in
/// [`FaceModel::ALL`]'s order.
fn embedder_ids(entries: &[ModelEntry]) -> [String; FaceModel::ALL.len()] {
    FaceModel::ALL.map(|model| {
        entries
            .iter()
            .find(|e| e.role == ModelRole::embedder_of(model))
            .map(|e| format!("{}@{}", e.file, &e.sha256[..12.min(e.sha256.len())]))
            .unwrap_or_default()
    })
}

/// The loaded models and every operation on them.
#[derive(Debug, Clone)]
pub struct FaceEngine {
    models: ModelSet,
    embedder_ids: [String; FaceModel::ALL.len()],
}

impl FaceEngine {
    /// Loads every model named in `models_dir/manifest.toml`, checking each sha256.
    pub fn load(models_dir: &Path) -> EngineResult<Self> {
        Self::load_with_kernels(models_dir, Kernels::from_env())
    }

    /// [`FaceEngine::load`] on the given kernels: benchmarks and the rewrite's own tests load
    /// [`Kernels::PlainTract`] beside the default to compare them.
    pub fn load_with_kernels(models_dir: &Path, kernels: Kernels) -> EngineResult<Self> {
        let entries = read_manifest(models_dir)?;
        Ok(Self {
            models: ModelSet::load(models_dir, &entries, kernels)?,
            embedder_ids: embedder_ids(&entries),
        })
    }

    /// Loads the models compiled into the library (the shipped `models/`), checking each
    /// sha256 against the embedded manifest.
    pub fn load_embedded() -> EngineResult<Self> {
        let entries = embedded::manifest()?;
        Ok(Self {
            embedder_ids: embedder_ids(&entries),
            models: embedded::load(&entries)?,
        })
    }

    /// Identifies the embedder file of `model`; stored with every embedding so vectors of
    /// different files are never compared.
    pub fn embedder_id(&self, model: FaceModel) -> &str {
        let position = FaceModel::ALL.iter().position(|m| *m == model);
        position.map_or("", |i| &self.embedder_ids[i])
    }

    /// Per model role: inference runs and total seconds since start-up (for metrics).
    pub fn inference_stats(&self) -> Vec<(String, u64, f64)> {
        ModelRole::ALL
            .iter()
            .map(|role| self.models.by_role(*role).stats())
            .collect()
    }

    /// Runs the model of `role` once on a fixed-seed uniform tensor, without pre- or
    /// post-processing: the model-only time that benchmarks compare with onnxruntime.
    pub fn run_model_once(&self, role: ModelRole) -> EngineResult<()> {
        Ok(self.models.by_role(role).run_on_benchmark_input()?)
    }

    /// The raw outputs of the model of `role` on the same fixed-seed tensor as
    /// [`FaceEngine::run_model_once`], flattened (tests compare kernels with them).
    pub fn benchmark_outputs(&self, role: ModelRole) -> EngineResult<Vec<Vec<f32>>> {
        Ok(self.models.by_role(role).benchmark_outputs()?)
    }

    /// Per-node times of the compiled model of `role` (benchmarks: what tract spends where).
    pub fn profile_model(&self, role: ModelRole, runs: usize) -> EngineResult<Vec<NodeCost>> {
        Ok(self.models.by_role(role).profile(runs)?)
    }

    /// How many ops of the model of `role` each of our kernels replaced (tests hold these to
    /// the expected counts, so a tract upgrade cannot skip a rewrite in silence).
    pub fn rewrite_counts(&self, role: ModelRole) -> RewriteCounts {
        self.models.by_role(role).rewrites()
    }

    /// Finds faces, largest first.
    pub fn detect(&self, image: &Image, options: &DetectOptions) -> EngineResult<Vec<Face>> {
        detect::detect(&self.models, image.rgb(), options, &|_| true)
    }

    /// The largest face: tries the fast selfie detector first, then the group detector.
    pub fn primary_face(&self, image: &Image) -> EngineResult<Face> {
        for mode in [DetectMode::Selfie, DetectMode::All] {
            let options = DetectOptions {
                mode,
                max_faces: 1,
                ..DetectOptions::default()
            };
            if let Some(face) = self.detect(image, &options)?.into_iter().next() {
                return Ok(face);
            }
        }
        Err(EngineError::NoFace)
    }

    /// The only face in the image: `NoFace` when there is none, `MultipleFaces` when there are
    /// several (for flows that must not guess whose face is meant, like a liveness frame).
    pub fn single_face(&self, image: &Image) -> EngineResult<Face> {
        let mut faces = self.detect(image, &DetectOptions::default())?;
        match faces.len() {
            // the all-faces path already ran; only the selfie path can still find one
            0 => {
                let selfie = DetectOptions {
                    mode: DetectMode::Selfie,
                    max_faces: 1,
                    ..DetectOptions::default()
                };
                self.detect(image, &selfie)?
                    .into_iter()
                    .next()
                    .ok_or(EngineError::NoFace)
            }
            1 => Ok(faces.remove(0)),
            count => Err(EngineError::MultipleFaces { count }),
        }
    }

    /// Fits the 468-point mesh to a detected face.
    pub fn landmarks(&self, image: &Image, face: &Face) -> EngineResult<Mesh> {
        mesh::fit(
            &self.models,
            image.rgb(),
            &face.bbox,
            &face.keypoints,
            face.verified_mesh_for_current_box(),
        )
    }

    /// One mesh pass on the detector's eye-levelled crop: about half the cost of
    /// [`FaceEngine::landmarks`] and a little less precise. For per-frame tracking (liveness),
    /// where every frame gets a fresh fit and no single frame's points decide anything.
    pub fn landmarks_single_pass(&self, image: &Image, face: &Face) -> EngineResult<Mesh> {
        let k = &face.keypoints;
        mesh::first_pass(
            &self.models,
            image.rgb(),
            &face.bbox,
            k.right_eye,
            k.left_eye,
        )
    }

    /// [`FaceEngine::landmarks_single_pass`], kept with `face` (unless it already holds the
    /// detector's verification pass on this box, which is the same pass and is reused): a
    /// later [`FaceEngine::landmarks`] or [`FaceEngine::portrait_draft`] on this face starts
    /// from it instead of running it again.
    pub fn first_mesh_pass(&self, image: &Image, face: &mut Face) -> EngineResult<Mesh> {
        if let Some(mesh) = face.verified_mesh_for_current_box() {
            return Ok(mesh.clone());
        }
        let mesh = self.landmarks_single_pass(image, face)?;
        face.verification = Some(Arc::new((face.bbox, face.keypoints, mesh.clone())));
        Ok(mesh)
    }

    /// Adds the mesh to `face` and refines its pose from it.
    pub fn with_landmarks(&self, image: &Image, mut face: Face) -> EngineResult<Face> {
        let mesh = self.landmarks(image, &face)?;
        face.pose = quality::pose_from_mesh(&mesh.points);
        face.quality.frontalness =
            (1.0 - face.pose.yaw.abs().max(face.pose.pitch.abs()) / 45.0).clamp(0.0, 1.0);
        face.landmarks = Some(mesh.points);
        Ok(face)
    }

    /// A 112×112 crop on the ArcFace 5-point template.
    pub fn align(&self, image: &Image, mesh: &Mesh) -> EngineResult<AlignedFace> {
        align::align(image.rgb(), &mesh.alignment_points()).ok_or(EngineError::NoFace)
    }

    /// The L2-normalised identity vector of an aligned face by the embedder of `model`.
    pub fn embed(&self, model: FaceModel, aligned: &AlignedFace) -> EngineResult<Embedding> {
        align::embed(&self.models, model, self.embedder_id(model), aligned)
    }

    /// Mesh, alignment and embedding (by the embedder of `model`) of one detected face.
    pub fn embed_face(
        &self,
        model: FaceModel,
        image: &Image,
        face: &Face,
    ) -> EngineResult<Embedding> {
        let mesh = self.landmarks(image, face)?;
        self.embed(model, &self.align(image, &mesh)?)
    }

    /// Similarity in 0..1 of two embeddings of one face model (calibrated per model, so a
    /// threshold means the same false-accept rate whichever model made them; see
    /// [`compare`]). `FaceModelMismatch` for embeddings of two models.
    pub fn compare(&self, a: &Embedding, b: &Embedding) -> EngineResult<f32> {
        Ok(compare::similarity_from_cosine(a.face_model, a.cosine(b)?))
    }

    /// Probability in 0..1 that `face` is a live face rather than a print or a screen.
    pub fn anti_spoof(&self, image: &Image, face: &Face) -> EngineResult<f32> {
        self.anti_spoof_in_box(image, &face.bbox)
    }

    /// [`Self::anti_spoof`] of the face in `bbox`, a box found on an earlier frame of the same
    /// stream: the model's view is the box ×2.7, so a face that moved a little since stays in
    /// it. No detector and no mesh run (a liveness session behind its frames, issue 42).
    pub fn anti_spoof_in_box(&self, image: &Image, bbox: &BoundingBox) -> EngineResult<f32> {
        antispoof::real_probability(&self.models, image.rgb(), bbox, ColourCast::AsCaptured)
    }

    /// [`Self::anti_spoof`] with the model's input coloured as `cast` says.
    pub fn anti_spoof_with(
        &self,
        image: &Image,
        face: &Face,
        cast: ColourCast,
    ) -> EngineResult<f32> {
        antispoof::real_probability(&self.models, image.rgb(), &face.bbox, cast)
    }

    /// Share (0..1) of the anti-spoof model's view (the face with its surroundings) that lies
    /// inside the image: low when the face fills the picture, where the model's output is not
    /// evidence either way.
    pub fn anti_spoof_context(&self, image: &Image, face: &Face) -> f32 {
        antispoof::context_share(image.rgb(), &face.bbox)
    }

    /// The ICAO-style 480×600 JPEG portrait of `face` with its quality score and its
    /// requirement-by-requirement checks (the frame is searched again for other faces).
    pub fn portrait(&self, image: &Image, face: &Face) -> EngineResult<Portrait> {
        self.portrait_draft(image, face)?.encode()
    }

    /// [`FaceEngine::portrait`] before its JPEG encoding: for choosing among several frames'
    /// portraits by their quality and encoding only the one kept.
    pub fn portrait_draft(&self, image: &Image, face: &Face) -> EngineResult<PortraitDraft> {
        let mesh = self.landmarks(image, face)?;
        let min_width = face.bbox.width * portrait::OTHER_FACE_WIDTH_SHARE;
        // only boxes that could be another face are confirmed and verified: the face itself
        // and faces too small to matter cost the group detector's box and nothing more
        let another = |other: &BoundingBox| other.iou(&face.bbox) < 0.3 && other.width >= min_width;
        let others = detect::detect(
            &self.models,
            image.rgb(),
            &DetectOptions::default(),
            &another,
        )?
        .len();
        portrait::make(image.rgb(), &mesh, 1 + others)
    }
}

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn engine_is_shareable_across_threads() {
        assert_send_sync::<super::FaceEngine>();
    }
}
