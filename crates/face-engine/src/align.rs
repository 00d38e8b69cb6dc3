//! Alignment to the ArcFace 5-point template (112×112) and the identity embedding.

use image::RgbImage;
use serde::Serialize;

use crate::error::EngineResult;
use crate::geometry::{Affine, Point, warp};
use crate::manifest::ModelSet;
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
const FORMAT: PixelFormat = PixelFormat::nchw_rgb(127.0, 128.0);

/// An L2-normalised identity vector with the id of the model that produced it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Embedding {
    pub model: String,
    pub vector: Vec<f32>,
}

impl Embedding {
    /// Cosine similarity in -1..1 (the vectors are unit length).
    pub fn cosine(&self, other: &Embedding) -> f32 {
        self.vector
            .iter()
            .zip(&other.vector)
            .map(|(a, b)| a * b)
            .sum()
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
    model_id: &str,
    face: &AlignedFace,
) -> EngineResult<Embedding> {
    let out = models.embedder.run(to_tensor(&face.rgb, FORMAT))?;
    let mut vector: Vec<f32> = out[0].iter().copied().collect();
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    vector.iter_mut().for_each(|v| *v /= norm);
    Ok(Embedding {
        model: model_id.to_owned(),
        vector,
    })
}
