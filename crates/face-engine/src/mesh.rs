//! The 468-point MediaPipe face mesh: an eye-levelled square crop, two passes (the second on
//! the box spanned by the first pass's points), and the points that alignment needs.

use image::RgbImage;

use crate::error::EngineResult;
use crate::geometry::{Affine, BoundingBox, Point, warp};
use crate::manifest::ModelSet;
use crate::measures::Keypoints;
use crate::preprocess::{PixelFormat, to_tensor};

const INPUT: u32 = 192;
const FORMAT: PixelFormat = PixelFormat::nhwc_rgb(0.0, 255.0);
const CROP_SCALE: f32 = 1.5;

/// Mesh indices averaged into each eye centre (person's right eye, then left eye).
const RIGHT_EYE: [usize; 4] = [33, 133, 159, 145];
const LEFT_EYE: [usize; 4] = [263, 362, 386, 374];
const NOSE_TIP: usize = 1;
const MOUTH_RIGHT: usize = 61;
const MOUTH_LEFT: usize = 291;
pub(crate) const CHIN: usize = 152;

/// 468 points in image pixels plus the model's face-presence logit.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    pub points: Vec<[f32; 3]>,
    pub presence_logit: f32,
}

impl Mesh {
    pub fn point(&self, i: usize) -> Point {
        Point::new(self.points[i][0], self.points[i][1])
    }

    fn mean_point(&self, idx: &[usize]) -> Point {
        let n = idx.len() as f32;
        let (x, y) = idx.iter().fold((0.0, 0.0), |(x, y), &i| {
            (x + self.points[i][0], y + self.points[i][1])
        });
        Point::new(x / n, y / n)
    }

    pub fn right_eye(&self) -> Point {
        self.mean_point(&RIGHT_EYE)
    }

    pub fn left_eye(&self) -> Point {
        self.mean_point(&LEFT_EYE)
    }

    /// The five alignment points in ArcFace template order: image-left eye, image-right eye,
    /// nose tip, image-left mouth corner, image-right mouth corner.
    pub fn alignment_points(&self) -> [Point; 5] {
        [
            self.right_eye(),
            self.left_eye(),
            self.point(NOSE_TIP),
            self.point(MOUTH_RIGHT),
            self.point(MOUTH_LEFT),
        ]
    }

    /// Eye aspect ratio averaged over both eyes (open ≈ 0.3, closed < 0.15).
    pub fn eye_aspect_ratio(&self) -> f32 {
        let ear = |i: [usize; 6]| {
            let p = |k: usize| self.point(i[k]);
            (p(1).distance(p(5)) + p(2).distance(p(4))) / (2.0 * p(0).distance(p(3)).max(1e-3))
        };
        (ear([33, 160, 158, 133, 153, 144]) + ear([362, 385, 387, 263, 373, 380])) / 2.0
    }

    /// Head pose estimated from the mesh's depth (see [`Pose`](crate::Pose) for the signs).
    pub fn pose(&self) -> crate::measures::Pose {
        crate::quality::pose_from_mesh(&self.points)
    }

    /// Lip gap divided by mouth width (closed ≈ 0, open > 0.15).
    pub fn mouth_open_ratio(&self) -> f32 {
        self.point(13).distance(self.point(14)) / self.point(61).distance(self.point(291)).max(1e-3)
    }
}

/// Runs one mesh pass on the square of side `side` centred at `center`, rotated by `roll`.
fn pass(
    models: &ModelSet,
    img: &RgbImage,
    center: Point,
    side: f32,
    roll: f32,
) -> EngineResult<Mesh> {
    let half = INPUT as f32 / 2.0;
    let crop_to_img =
        Affine::rotate_scale_about(Point::new(half, half), center, roll, side / INPUT as f32);
    let crop = warp(img, &crop_to_img, INPUT, INPUT, [0, 0, 0]);
    let outputs = models.landmarks.run(to_tensor(&crop, FORMAT))?;
    let (coords, presence) = if outputs[0].len() == 1404 {
        (&outputs[0], &outputs[1])
    } else {
        (&outputs[1], &outputs[0])
    };
    let coords = coords.as_slice_memory_order().unwrap_or(&[]);
    let scale = side / INPUT as f32;
    let points = coords
        .chunks_exact(3)
        .map(|c| {
            let p = crop_to_img.apply(Point::new(c[0], c[1]));
            [p.x, p.y, c[2] * scale]
        })
        .collect::<Vec<_>>();
    let presence_logit = presence.iter().next().copied().unwrap_or(f32::NEG_INFINITY);
    Ok(Mesh {
        points,
        presence_logit,
    })
}

/// One mesh pass on the eye-levelled crop of a detector box (also used to verify detections).
pub(crate) fn first_pass(
    models: &ModelSet,
    img: &RgbImage,
    bbox: &BoundingBox,
    right_eye: Point,
    left_eye: Point,
) -> EngineResult<Mesh> {
    let roll = (left_eye.y - right_eye.y).atan2(left_eye.x - right_eye.x);
    let side = bbox.width.max(bbox.height) * CROP_SCALE;
    pass(models, img, bbox.center(), side, roll)
}

/// Fits the mesh to a detected face, its box and keypoints (two passes). `verified` is the
/// detector's verification pass when it ran on exactly this box: it is reused as the first.
pub(crate) fn fit(
    models: &ModelSet,
    img: &RgbImage,
    bbox: &BoundingBox,
    keypoints: &Keypoints,
    verified: Option<&Mesh>,
) -> EngineResult<Mesh> {
    let k = keypoints;
    let first = match verified {
        Some(mesh) => mesh.clone(),
        None => first_pass(models, img, bbox, k.right_eye, k.left_eye)?,
    };
    let (re, le) = (first.right_eye(), first.left_eye());
    let roll = (le.y - re.y).atan2(le.x - re.x);
    // extent of the points measured along the levelled axes
    let (s, c) = (-roll).sin_cos();
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in &first.points {
        let (x, y) = (c * p[0] - s * p[1], s * p[0] + c * p[1]);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (sb, cb) = roll.sin_cos();
    let center = Point::new(cb * cx - sb * cy, sb * cx + cb * cy);
    let side = (x1 - x0).max(y1 - y0) * CROP_SCALE;
    if !side.is_finite() || side < 4.0 {
        return Ok(first);
    }
    let second = pass(models, img, center, side, roll)?;
    Ok(if second.presence_logit >= first.presence_logit - 2.0 {
        second
    } else {
        first
    })
}
