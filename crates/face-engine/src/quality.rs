//! Quality and pose measurements: sharpness, brightness, frontalness, and head pose from
//! keypoints or from the 468-point mesh.

use image::RgbImage;

use crate::geometry::{BoundingBox, Point, square_crop};
use crate::measures::{Keypoints, Pose, Quality};
use crate::preprocess::luma;

/// Laplacian variance at which `sharpness` reads 0.5 (measured on 64-px face crops).
const SHARPNESS_HALF_POINT: f32 = 60.0;

/// Variance of the 4-neighbour Laplacian of a grey image.
pub(crate) fn laplacian_variance(grey: &[f32], width: usize, height: usize) -> f32 {
    if width < 3 || height < 3 {
        return 0.0;
    }
    let mut values = Vec::with_capacity((width - 2) * (height - 2));
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            let i = y * width + x;
            values.push(
                grey[i - 1] + grey[i + 1] + grey[i - width] + grey[i + width] - 4.0 * grey[i],
            );
        }
    }
    let n = values.len() as f32;
    let mean = values.iter().sum::<f32>() / n;
    values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / n
}

/// Measures the face region of `img` described by `bbox` and `pose`.
pub(crate) fn measure(img: &RgbImage, bbox: &BoundingBox, pose: &Pose) -> Quality {
    let side = bbox.width.max(bbox.height).max(1.0);
    let crop = square_crop(img, bbox.center(), side, 64);
    let grey = luma(&crop);
    let variance = laplacian_variance(&grey, 64, 64);
    let inner = bbox.clamp_to(img.width(), img.height());
    let mut sum = 0.0f64;
    let mut count = 0u64;
    let (x0, y0) = (inner.x as u32, inner.y as u32);
    let (x1, y1) = (
        (inner.x + inner.width) as u32,
        (inner.y + inner.height) as u32,
    );
    for y in y0..y1.min(img.height()) {
        for x in x0..x1.min(img.width()) {
            let p = img.get_pixel(x, y);
            sum += 0.299 * p[0] as f64 + 0.587 * p[1] as f64 + 0.114 * p[2] as f64;
            count += 1;
        }
    }
    let brightness = if count == 0 {
        0.0
    } else {
        (sum / count as f64 / 255.0) as f32
    };
    Quality {
        sharpness: variance / (variance + SHARPNESS_HALF_POINT),
        brightness,
        face_size: bbox.width.min(bbox.height),
        frontalness: (1.0 - pose.yaw.abs().max(pose.pitch.abs()) / 45.0).clamp(0.0, 1.0),
    }
}

/// Rough pose from the six detector keypoints.
pub(crate) fn pose_from_keypoints(k: &Keypoints) -> Pose {
    // image-left eye is the person's right eye
    let roll = (k.left_eye.y - k.right_eye.y).atan2(k.left_eye.x - k.right_eye.x);
    let (s, c) = (-roll).sin_cos();
    let eyes = k.eye_midpoint();
    let level = |p: Point| {
        let (dx, dy) = (p.x - eyes.x, p.y - eyes.y);
        Point::new(c * dx - s * dy, s * dx + c * dy)
    };
    let (nose, mouth) = (level(k.nose_tip), level(k.mouth_center));
    let (re, le) = (level(k.right_ear), level(k.left_ear));
    let ear_mid = re.midpoint(le);
    // The nose tip stands further forward of the ear axis than the ears stand apart; this
    // factor brings the keypoint yaw in line with the mesh's depth-based yaw on testdata.
    let half_span = ((le.x - re.x).abs() / 2.0).max(1.0) * NOSE_DEPTH_TO_HALF_EAR_SPAN;
    let yaw = ((nose.x - ear_mid.x) / half_span).clamp(-1.0, 1.0).asin();
    // Frontal faces put the nose tip about 55% of the way from the eye line to the mouth centre.
    let ratio = if mouth.y.abs() > 1e-3 {
        nose.y / mouth.y
    } else {
        0.45
    };
    let pitch = ((FRONTAL_NOSE_RATIO - ratio) * 2.5).clamp(-1.0, 1.0).asin();
    Pose {
        yaw: yaw.to_degrees(),
        pitch: pitch.to_degrees(),
        roll: roll.to_degrees(),
    }
}

/// Nose depth (ahead of the ear axis) relative to half the ear span, for the keypoint yaw.
const NOSE_DEPTH_TO_HALF_EAR_SPAN: f32 = 1.6;
/// Nose-tip position between eye line and mouth centre on a frontal face (keypoint pose).
const FRONTAL_NOSE_RATIO: f32 = 0.55;
/// The mesh's chin sits this many degrees "ahead" of its forehead on frontal faces (median over
/// the frontal celebs photos); added back so a frontal face reads pitch 0.
const MESH_PITCH_BIAS_DEG: f32 = 10.0;

/// Pose from the 3-D mesh: yaw from the depth difference across the outer eye corners, pitch
/// from the depth difference between forehead and chin, roll from the eye line. Mesh depth is
/// smaller toward the camera.
pub(crate) fn pose_from_mesh(mesh: &[[f32; 3]]) -> Pose {
    let p = |i: usize| mesh[i];
    let (right_outer, left_outer) = (p(33), p(263));
    let (forehead, chin) = (p(10), p(152));
    let roll = (left_outer[1] - right_outer[1]).atan2(left_outer[0] - right_outer[0]);
    let dx = ((left_outer[0] - right_outer[0]).powi(2) + (left_outer[1] - right_outer[1]).powi(2))
        .sqrt();
    // turning toward the image's right pushes the image-right eye corner away (larger z)
    let yaw = (left_outer[2] - right_outer[2]).atan2(dx);
    let dy = ((chin[0] - forehead[0]).powi(2) + (chin[1] - forehead[1]).powi(2)).sqrt();
    // tilting up brings the chin toward the camera and pushes the forehead away
    let pitch = (forehead[2] - chin[2]).atan2(dy);
    Pose {
        yaw: yaw.to_degrees(),
        pitch: pitch.to_degrees() + MESH_PITCH_BIAS_DEG,
        roll: roll.to_degrees(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laplacian_variance_is_zero_on_flat_and_high_on_checkerboard() {
        let flat = vec![100.0; 64];
        assert_eq!(laplacian_variance(&flat, 8, 8), 0.0);
        let checker: Vec<f32> = (0..64)
            .map(|i| if (i / 8 + i % 8) % 2 == 0 { 0.0 } else { 255.0 })
            .collect();
        assert!(laplacian_variance(&checker, 8, 8) > 1000.0);
    }
}
