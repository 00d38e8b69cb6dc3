//! The portrait checked requirement by requirement (ICAO 9303 and the ISO/IEC 29794-5 (OFIQ)
//! components the models can measure): each a measured value, its limit and pass or fail.
//! The limits were set on the calibration half of the shared footage and on degraded copies of
//! it; the measurements and the held-back results are in docs/accuracy.md.

use domain::PortraitRequirement;
use image::RgbImage;
use serde::Serialize;

use super::PORTRAIT_HEIGHT;
use super::regions::{self, RegionStats, SourceMask, centred};
use crate::geometry::{Affine, BoundingBox, Point};
use crate::mesh::{CHIN, Mesh};
use crate::quality;

/// One requirement's measurement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RequirementCheck {
    pub requirement: PortraitRequirement,
    pub value: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f32>,
    pub passed: bool,
}

/// The limits: `(requirement, min, max)`; what each value is and why the limit is where it is
/// are in docs/accuracy.md ("Portrait requirements").
pub const LIMITS: [(PortraitRequirement, Option<f32>, Option<f32>); 15] = [
    // inter-eye distance in the captured frame, pixels
    (PortraitRequirement::HeadSize, Some(40.0), None),
    // share of the portrait that came from the frame (the rest is fill)
    (PortraitRequirement::Margins, Some(0.85), None),
    // the eye line's height from the portrait's bottom edge, share of its height
    (PortraitRequirement::EyeLine, Some(0.5), Some(0.7)),
    // degrees
    (PortraitRequirement::Yaw, None, Some(12.0)),
    (PortraitRequirement::Pitch, None, Some(22.0)),
    (PortraitRequirement::Roll, None, Some(10.0)),
    // eye aspect ratio
    (PortraitRequirement::EyesOpen, Some(0.15), None),
    // lip gap over mouth width
    (PortraitRequirement::MouthClosed, None, Some(0.12)),
    // Laplacian variance of the face over its squared mean grey level, × 1000
    (PortraitRequirement::Sharpness, Some(2.0), None),
    // mean luma of the face
    (PortraitRequirement::Exposure, Some(0.18), Some(0.85)),
    // darker cheek over brighter cheek
    (PortraitRequirement::IlluminationUniformity, Some(0.6), None),
    // mean neighbour difference beside the head, per frame pixel
    (PortraitRequirement::BackgroundUniformity, None, Some(0.02)),
    // faces at least half the portrait face's width in the frame
    (PortraitRequirement::SingleFace, None, Some(1.0)),
    // the darker eye's mean luma over the cheeks' beside the nose (glare: above the max)
    (PortraitRequirement::EyesVisible, Some(0.4), Some(1.6)),
    // colour distance of mouth and chin from the upper cheeks, over the cheeks' luma
    (PortraitRequirement::LowerFaceVisible, None, Some(0.2)),
];

/// Another face this wide relative to the portrait's face counts against `single_face`.
pub const OTHER_FACE_WIDTH_SHARE: f32 = 0.5;

/// What the checks look at.
pub(crate) struct Capture<'a> {
    /// Share of the portrait taken from the frame rather than the fill (`margins`: below 1
    /// the frame held too little around the head for the portrait's crop).
    pub coverage: f32,
    pub mesh: &'a Mesh,
    pub portrait: &'a RgbImage,
    pub source_to_portrait: &'a Affine,
    /// Which portrait pixels came from the frame.
    pub mask: &'a SourceMask<'a>,
    /// Faces in the frame at least [`OTHER_FACE_WIDTH_SHARE`] as wide as this one (itself
    /// included).
    pub faces_in_frame: usize,
}

// MediaPipe face-mesh indices used below.
const RIGHT_EYE_OUTER: usize = 33;
const RIGHT_EYE_INNER: usize = 133;
const LEFT_EYE_OUTER: usize = 263;
const LEFT_EYE_INNER: usize = 362;
const NOSE_TIP: usize = 1;
const BELOW_NOSE: usize = 2;
const MOUTH_RIGHT: usize = 61;
const MOUTH_LEFT: usize = 291;
const RIGHT_FACE_EDGE: usize = 234;
const LEFT_FACE_EDGE: usize = 454;

/// Every requirement, measured and judged.
pub(crate) fn check(capture: &Capture<'_>) -> Vec<RequirementCheck> {
    let values = measure(capture);
    LIMITS
        .iter()
        .map(|&(requirement, min, max)| {
            let value = values
                .iter()
                .find(|(r, _)| *r == requirement)
                .map_or(f32::NAN, |(_, v)| *v);
            let passed = value.is_finite()
                && min.is_none_or(|m| value >= m)
                && max.is_none_or(|m| value <= m);
            RequirementCheck {
                requirement,
                value: (value * 1000.0).round() / 1000.0,
                min,
                max,
                passed,
            }
        })
        .collect()
}

fn measure(capture: &Capture<'_>) -> Vec<(PortraitRequirement, f32)> {
    let mesh = capture.mesh;
    let in_portrait = |i: usize| capture.source_to_portrait.apply(mesh.point(i));
    let mask = capture.mask;
    let portrait = capture.portrait;
    let stats = |region: &BoundingBox| regions::stats(portrait, region, mask);

    let (right_eye, left_eye) = (
        capture.source_to_portrait.apply(mesh.right_eye()),
        capture.source_to_portrait.apply(mesh.left_eye()),
    );
    let eye_span = right_eye.distance(left_eye).max(1.0);
    let eyes = right_eye.midpoint(left_eye);
    let mouth_y = in_portrait(MOUTH_RIGHT).midpoint(in_portrait(MOUTH_LEFT)).y;

    let eye_box = |outer: usize, inner: usize| {
        let (a, b) = (in_portrait(outer), in_portrait(inner));
        let width = a.distance(b) * 1.3;
        centred(a.midpoint(b), width, width * 0.6)
    };
    // each eye's brightness is read against the cheek on its side of the nose tip (so a
    // shadow over half the face changes both alike)
    let nose = in_portrait(NOSE_TIP);
    let eye_brightness = |outer: usize, inner: usize, side: f32| {
        let cheek = centred(
            Point::new(nose.x + side * 0.35 * eye_span, nose.y),
            0.5 * eye_span,
            0.25 * eye_span,
        );
        stats(&eye_box(outer, inner)).mean_luma / stats(&cheek).mean_luma.max(0.02)
    };
    let eyes_visible = eye_brightness(RIGHT_EYE_OUTER, RIGHT_EYE_INNER, -1.0).min(eye_brightness(
        LEFT_EYE_OUTER,
        LEFT_EYE_INNER,
        1.0,
    ));
    // the upper cheeks: the skin the lower face's colour is compared with
    let upper_cheeks = stats(&BoundingBox::from_corners(
        right_eye.x - 0.1 * eye_span,
        eyes.y + 0.25 * eye_span,
        left_eye.x + 0.1 * eye_span,
        eyes.y + 0.45 * eye_span,
    ));

    let cheek = |eye: Point, mouth_corner: usize, outward: f32| {
        let mid = eye.midpoint(in_portrait(mouth_corner));
        centred(
            Point::new(mid.x + outward * 0.15 * eye_span, mid.y),
            0.35 * eye_span,
            0.35 * eye_span,
        )
    };
    let (right_cheek, left_cheek) = (
        stats(&cheek(right_eye, MOUTH_RIGHT, -1.0)),
        stats(&cheek(left_eye, MOUTH_LEFT, 1.0)),
    );
    let uniformity = right_cheek.mean_luma.min(left_cheek.mean_luma)
        / right_cheek.mean_luma.max(left_cheek.mean_luma).max(1e-3);

    let inner_face = BoundingBox::from_corners(
        right_eye.x - 0.2 * eye_span,
        eyes.y - 0.3 * eye_span,
        left_eye.x + 0.2 * eye_span,
        mouth_y,
    );
    let chin = in_portrait(CHIN);
    let lower_face = BoundingBox::from_corners(
        in_portrait(MOUTH_RIGHT).x,
        in_portrait(BELOW_NOSE).y,
        in_portrait(MOUTH_LEFT).x,
        chin.y - 0.1 * (chin.y - eyes.y),
    );

    let pose = quality::pose_from_mesh(&mesh.points);
    vec![
        (
            PortraitRequirement::HeadSize,
            mesh.right_eye().distance(mesh.left_eye()),
        ),
        (PortraitRequirement::Margins, capture.coverage),
        (
            PortraitRequirement::EyeLine,
            (PORTRAIT_HEIGHT as f32 - eyes.y) / PORTRAIT_HEIGHT as f32,
        ),
        (PortraitRequirement::Yaw, pose.yaw.abs()),
        (PortraitRequirement::Pitch, pose.pitch.abs()),
        (PortraitRequirement::Roll, pose.roll.abs()),
        (PortraitRequirement::EyesOpen, mesh.eye_aspect_ratio()),
        (PortraitRequirement::MouthClosed, mesh.mouth_open_ratio()),
        (
            PortraitRequirement::Sharpness,
            1000.0 * regions::relative_sharpness(portrait, &inner_face, 64),
        ),
        (PortraitRequirement::Exposure, stats(&inner_face).mean_luma),
        (PortraitRequirement::IlluminationUniformity, uniformity),
        (
            PortraitRequirement::BackgroundUniformity,
            background(
                capture,
                mask,
                in_portrait(RIGHT_FACE_EDGE),
                in_portrait(LEFT_FACE_EDGE),
                eyes,
                eye_span,
            ),
        ),
        (
            PortraitRequirement::SingleFace,
            capture.faces_in_frame as f32,
        ),
        (PortraitRequirement::EyesVisible, eyes_visible),
        (
            PortraitRequirement::LowerFaceVisible,
            stats(&lower_face).chroma_distance(&upper_cheeks) / upper_cheeks.mean_luma.max(0.02),
        ),
    ]
}

/// Mean neighbour difference of the background beside the head, above the eye line (away
/// from hair by half an eye span), per pixel of the frame; 0 where the frame held no
/// background there (fill).
fn background(
    capture: &Capture<'_>,
    mask: &SourceMask<'_>,
    right_edge: Point,
    left_edge: Point,
    eyes: Point,
    eye_span: f32,
) -> f32 {
    let portrait = capture.portrait;
    let width = portrait.width() as f32;
    let top = (eyes.y - 2.0 * eye_span).max(0.0);
    let strips = [
        BoundingBox::from_corners(0.0, top, (right_edge.x - 0.5 * eye_span).max(0.0), eyes.y),
        BoundingBox::from_corners(
            (left_edge.x + 0.5 * eye_span).min(width),
            top,
            width,
            eyes.y,
        ),
    ];
    let measured: Vec<RegionStats> = strips
        .iter()
        .map(|strip| regions::stats(portrait, strip, mask))
        .filter(|s| s.pixels > 200)
        .collect();
    // per pixel of the frame, not of the (usually enlarged) portrait
    let scale = capture
        .source_to_portrait
        .a
        .hypot(capture.source_to_portrait.c);
    measured
        .iter()
        .map(|s| s.gradient * scale)
        .fold(0.0, f32::max)
}
