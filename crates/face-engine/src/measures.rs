//! What is measured of a face, as plain values: its six keypoints, its head pose and the
//! quality of its region. A leaf module: the detector, the mesh and the quality measures all
//! produce these, and `face.rs` gathers them into a [`crate::Face`].

use serde::Serialize;

use crate::geometry::Point;

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
