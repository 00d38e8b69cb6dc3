//! Face detection: the fast selfie path (BlazeFace on the whole frame) and the group path
//! (UltraFace for boxes, then BlazeFace on each face's crop for keypoints and confirmation).

mod blazeface;
mod ultraface;

use image::RgbImage;
use serde::{Deserialize, Serialize};

use crate::error::EngineResult;
use crate::face::Face;
use crate::geometry::{Affine, BoundingBox, Point, warp};
use crate::manifest::ModelSet;
use crate::measures::Keypoints;
use crate::{mesh, quality};

/// Which detector path to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DetectMode {
    /// One camera-facing person filling a good part of the frame (liveness frames): fastest.
    Selfie,
    /// Every face, including small faces in group photos.
    #[default]
    All,
}

/// Options for [`crate::FaceEngine::detect`].
#[derive(Debug, Clone, Copy)]
pub struct DetectOptions {
    pub mode: DetectMode,
    /// Faces scoring below this are dropped.
    pub min_score: f32,
    /// At most this many faces are returned, largest first.
    pub max_faces: usize,
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            mode: DetectMode::All,
            min_score: 0.5,
            max_faces: 100,
        }
    }
}

const NMS_IOU: f32 = 0.3;
const GROUP_MIN_SCORE: f32 = 0.6;
/// A crop this many box sides wide is given to BlazeFace to place keypoints on a group face.
const CROP_FACTOR: f32 = 2.0;
const CROP_MIN_SCORE: f32 = 0.35;
/// Selfie detections at or above this score skip mesh verification (measured: no non-face in
/// testdata reached it except a printed portrait, which is a face).
const SELFIE_TRUSTED_SCORE: f32 = 0.9;
/// A candidate is a face when the mesh's face-presence logit reaches `PRESENCE_ALONE`, or
/// reaches `PRESENCE_WITH_CONFIDENT_DETECTOR` while the detector scored at least 0.9.
/// Measured on testdata: true faces mostly above 10; non-faces at most 6.0 (docs/accuracy.md).
const PRESENCE_ALONE: f32 = 10.0;
const PRESENCE_WITH_CONFIDENT_DETECTOR: f32 = 4.0;
const CONFIDENT_DETECTOR: f32 = 0.9;

/// Faces in `img`, largest first, among the detector's boxes that `keep` accepts: a box it
/// refuses is neither confirmed nor verified (no keypoint crop, no mesh pass), and every box
/// it accepts is treated exactly as without it (`keep` reads only the detector's box, which
/// confirmation and verification never change). `max_faces` counts kept faces only.
pub(crate) fn detect(
    models: &ModelSet,
    img: &RgbImage,
    options: &DetectOptions,
    keep: &dyn Fn(&BoundingBox) -> bool,
) -> EngineResult<Vec<Face>> {
    let mut candidates: Vec<(BoundingBox, f32, [Point; 6])> = match options.mode {
        DetectMode::Selfie => {
            let raw = blazeface::run(&models.detector_selfie, img, options.min_score)?;
            nms(raw
                .into_iter()
                .map(|d| (d.bbox, d.score, d.keypoints))
                .collect())
        }
        DetectMode::All => {
            let boxes = nms(
                ultraface::run(&models.detector_group, img, GROUP_MIN_SCORE)?
                    .into_iter()
                    .map(|(b, s)| (b, s, [Point::default(); 6]))
                    .collect(),
            );
            let mut confirmed = Vec::with_capacity(boxes.len());
            let kept = boxes.into_iter().filter(|(bbox, _, _)| keep(bbox));
            for (bbox, score, _) in kept.take(options.max_faces.saturating_mul(2)) {
                if let Some(keypoints) = keypoints_on_crop(models, img, &bbox)? {
                    confirmed.push((bbox, score, keypoints));
                }
            }
            confirmed
        }
    };
    // the group path's boxes were filtered before their keypoint crops
    candidates.retain(|(bbox, score, _)| *score >= options.min_score && keep(bbox));
    // largest first, and verification stops once `max_faces` are verified: the answer is the
    // same as verifying every candidate, without a mesh pass on faces that would be cut
    candidates.sort_by(|a, b| b.0.area().total_cmp(&a.0.area()));
    let mut verified = Vec::with_capacity(candidates.len().min(options.max_faces));
    for (bbox, score, kp) in candidates {
        if verified.len() == options.max_faces {
            break;
        }
        if options.mode == DetectMode::Selfie && score >= SELFIE_TRUSTED_SCORE {
            verified.push((bbox, score, kp, None));
        } else if let Some(mesh) = verify(models, img, &(bbox, score, kp))? {
            verified.push((bbox, score, kp, Some(mesh)));
        }
    }
    Ok(verified
        .into_iter()
        .map(|(bbox, score, kp, mesh)| {
            let keypoints = Keypoints::from_array(kp);
            let pose = quality::pose_from_keypoints(&keypoints);
            let quality = quality::measure(img, &bbox, &pose);
            Face::detected(bbox, score, keypoints, pose, quality, mesh)
        })
        .collect())
}

/// Runs BlazeFace on a square crop around `bbox`; returns the keypoints of the detection
/// nearest the crop centre, in image pixels, or `None` when BlazeFace sees no face there.
fn keypoints_on_crop(
    models: &ModelSet,
    img: &RgbImage,
    bbox: &BoundingBox,
) -> EngineResult<Option<[Point; 6]>> {
    const SIZE: u32 = 128;
    let side = bbox.width.max(bbox.height) * CROP_FACTOR;
    let center = bbox.center();
    let crop_to_img = Affine::square_crop(center, side, SIZE);
    let crop = warp(img, &crop_to_img, SIZE, SIZE, [0, 0, 0]);
    let found = blazeface::run(&models.detector_selfie, &crop, CROP_MIN_SCORE)?;
    let mid = Point::new(SIZE as f32 / 2.0, SIZE as f32 / 2.0);
    let best = found
        .into_iter()
        .filter(|d| d.bbox.center().distance(mid) < SIZE as f32 * 0.25)
        .max_by(|a, b| a.score.total_cmp(&b.score));
    Ok(best.map(|d| d.keypoints.map(|p| crop_to_img.apply(p))))
}

/// Verifies a candidate with one mesh pass (see `PRESENCE_ALONE`); the pass is returned for a
/// face, so the landmark fit can start from it.
fn verify(
    models: &ModelSet,
    img: &RgbImage,
    (bbox, score, kp): &(BoundingBox, f32, [Point; 6]),
) -> EngineResult<Option<mesh::Mesh>> {
    let mesh = mesh::first_pass(models, img, bbox, kp[0], kp[1])?;
    let presence = mesh.presence_logit;
    let is_face = presence >= PRESENCE_ALONE
        || (presence >= PRESENCE_WITH_CONFIDENT_DETECTOR && *score >= CONFIDENT_DETECTOR);
    Ok(is_face.then_some(mesh))
}

/// Greedy non-maximum suppression, best score first.
fn nms<T>(mut items: Vec<(BoundingBox, f32, T)>) -> Vec<(BoundingBox, f32, T)> {
    items.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut kept: Vec<(BoundingBox, f32, T)> = Vec::new();
    for item in items {
        if kept.iter().all(|k| k.0.iou(&item.0) < NMS_IOU) {
            kept.push(item);
        }
    }
    kept
}
