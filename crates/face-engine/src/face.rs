//! The public description of a detected face: box, score, keypoints, pose, quality and
//! (on request) the 468-point mesh.

use std::sync::Arc;

use serde::Serialize;

use crate::geometry::BoundingBox;
use crate::measures::{Keypoints, Pose, Quality};
use crate::mesh::Mesh;

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
