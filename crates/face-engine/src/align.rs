//! Alignment to the ArcFace 5-point template (112×112) and the identity embedding.

use domain::FaceModel;
use image::RgbImage;
use serde::Serialize;

use crate::error::{EngineError, EngineResult};
use crate::geometry::{Affine, Point, warp};
use crate::manifest::{ModelRole, ModelSet};
use crate::preprocess::{PixelFormat, to_tensor};

/// The standard ArcFace template for a 112×112 crop.
pub const ARCFACE_TEMPLATE: [Point; 5] = [
    Point::new(38.2946, 51.6963),
    Point::new(73.5318, 51.5014),
    Point::new(56.0252, 71.7366),
    Point::new(41.5493, 92.3655),
    Point::new(70.7299, 92.2041),
];
pub const ALIGNED_SIZE: u32 = 112;

/// How each embedder wants the aligned crop: `fr_feature` normalises outside its graph,
/// SFace inside it (raw RGB 0..255).
fn pixel_format(model: FaceModel) -> PixelFormat {
    match model {
        FaceModel::FrFeature => PixelFormat::nchw_rgb(127.0, 128.0),
        FaceModel::Sface => PixelFormat::nchw_rgb(0.0, 1.0),
    }
}

/// An L2-normalised identity vector with the face model and the exact file that produced it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Embedding {
    /// `file@sha256-prefix` of the embedder.
    pub model: String,
    pub face_model: FaceModel,
    pub vector: Vec<f32>,
}

impl Embedding {
    /// Cosine similarity in -1..1 (the vectors are unit length); `FaceModelMismatch` when the
    /// two come from different face models, whose vectors share no space.
    pub fn cosine(&self, other: &Embedding) -> EngineResult<f32> {
        if self.face_model != other.face_model || self.vector.len() != other.vector.len() {
            return Err(EngineError::FaceModelMismatch {
                left: self.face_model.as_str(),
                right: other.face_model.as_str(),
            });
        }
        Ok(self
            .vector
            .iter()
            .zip(&other.vector)
            .map(|(a, b)| a * b)
            .sum())
    }
}

/// A 112×112 RGB crop aligned on the ArcFace template.
#[derive(Debug, Clone)]
pub struct AlignedFace {
    pub(crate) rgb: RgbImage,
}

impl AlignedFace {
    pub fn rgb(&self) -> &RgbImage {
        &self.rgb
    }
}

/// Warps `img` so that `points` (template order) land on the ArcFace template.
pub(crate) fn align(img: &RgbImage, points: &[Point; 5]) -> Option<AlignedFace> {
    let img_to_crop = Affine::fit_similarity(points, &ARCFACE_TEMPLATE)?;
    let crop_to_img = img_to_crop.inverse()?;
    Some(AlignedFace {
        rgb: warp(img, &crop_to_img, ALIGNED_SIZE, ALIGNED_SIZE, [0, 0, 0]),
    })
}

pub(crate) fn embed(
    models: &ModelSet,
    face_model: FaceModel,
    model_id: &str,
    face: &AlignedFace,
) -> EngineResult<Embedding> {
    let out = models
        .by_role(ModelRole::embedder_of(face_model))
        .run(to_tensor(&face.rgb, pixel_format(face_model)))?;
    let mut vector: Vec<f32> = out[0].iter().copied().collect();
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    vector.iter_mut().for_each(|v| *v /= norm);
    Ok(Embedding {
        model: model_id.to_owned(),
        face_model,
        vector,
    })
}
