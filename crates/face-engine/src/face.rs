//! The public description of a detected face: box, score, keypoints, pose, quality and
//! (on request) the 468-point mesh.

use std::sync::Arc;

use serde::Serialize;

use crate::geometry::{BoundingBox, Point};
use crate::mesh::Mesh;

/// Six keypoints, named from the person's point of view (the person's right eye appears on the
/// image's left in an unmirrored photo).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Keypoints {
    pub right_eye: Point,
    pub left_eye: Point,
    pub nose_tip: Point,
    pub mouth_center: Point,
    pub right_ear: Point,
    pub left_ear: Point,
}

impl Keypoints {
    pub(crate) fn from_array(k: [Point; 6]) -> Self {
        Self {
            right_eye: k[0],
            left_eye: k[1],
            nose_tip: k[2],
            mouth_center: k[3],
            right_ear: k[4],
            left_ear: k[5],
        }
    }

    pub fn eye_midpoint(&self) -> Point {
        self.right_eye.midpoint(self.left_eye)
    }

    pub fn inter_eye_distance(&self) -> f32 {
        self.right_eye.distance(self.left_eye)
    }
}

/// Head pose in degrees. Yaw is positive when the nose turns toward the image's right, pitch is
/// positive when the head tilts up, roll is positive when the eye line turns clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Pose {
    pub yaw: f32,
    pub pitch: f32,
    pub roll: f32,
}

/// Measured quality of the face region.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Quality {
    /// Focus measure in 0..1 from the variance of the Laplacian of the face (0.5 is acceptable).
    pub sharpness: f32,
    /// Mean luma of the face box in 0..1.
    pub brightness: f32,
    /// Shorter side of the face box in pixels.
    pub face_size: f32,
    /// 1 for a frontal face, falling to 0 at 45° of yaw or pitch.
    pub frontalness: f32,
}

/// One face found in an image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Face {
    pub bbox: BoundingBox,
    /// Detector confidence in 0..1.
    pub score: f32,
    pub keypoints: Keypoints,
    pub pose: Pose,
    pub quality: Quality,
    /// The 468-point mesh (x, y in image pixels, z relative depth in pixels), when requested.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landmarks: Option<Vec<[f32; 3]>>,
    /// The mesh pass the detector ran to verify this face, with the box and eyes it ran on;
    /// the landmark fit reuses it as its first pass while they are unchanged.
    #[serde(skip)]
    pub(crate) verification: Option<Arc<(BoundingBox, Keypoints, Mesh)>>,
}

impl Face {
    /// A face found by the detector (no mesh yet).
    pub(crate) fn detected(
        bbox: BoundingBox,
        score: f32,
        keypoints: Keypoints,
        pose: Pose,
        quality: Quality,
        verification: Option<Mesh>,
    ) -> Self {
        Self {
            bbox,
            score,
            keypoints,
            pose,
            quality,
            landmarks: None,
            verification: verification.map(|mesh| Arc::new((bbox, keypoints, mesh))),
        }
    }

    pub(crate) fn verified_mesh_for_current_box(&self) -> Option<&Mesh> {
        let (bbox, keypoints, mesh) = self.verification.as_deref()?;
        (*bbox == self.bbox && *keypoints == self.keypoints).then_some(mesh)
    }
}
