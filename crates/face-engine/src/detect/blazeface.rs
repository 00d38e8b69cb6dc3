//! MediaPipe BlazeFace short-range: letterboxing, SSD anchors and decoding of boxes plus six
//! keypoints (the person's right eye, left eye, nose tip, mouth centre, right ear, left ear).

use image::RgbImage;

use crate::error::EngineResult;
use crate::geometry::{Affine, BoundingBox, Point};
use crate::preprocess::{PixelFormat, to_tensor};
use inference::OnnxModel;

const INPUT: u32 = 128;
const FORMAT: PixelFormat = PixelFormat::nhwc_rgb(127.5, 127.5);

/// A raw BlazeFace detection in source-image pixels.
#[derive(Debug, Clone)]
pub(crate) struct RawDetection {
    pub bbox: BoundingBox,
    pub score: f32,
    pub keypoints: [Point; 6],
}

/// Anchor centres in 0..1 for strides 8, 16, 16, 16 on a 128 input (896 anchors).
fn anchors() -> Vec<Point> {
    let mut out = Vec::with_capacity(896);
    for (stride, per_cell) in [(8u32, 2usize), (16, 6)] {
        let grid = INPUT.div_ceil(stride);
        for y in 0..grid {
            for x in 0..grid {
                let c = Point::new(
                    (x as f32 + 0.5) / grid as f32,
                    (y as f32 + 0.5) / grid as f32,
                );
                out.extend(std::iter::repeat_n(c, per_cell));
            }
        }
    }
    out
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x.clamp(-100.0, 100.0)).exp())
}

/// Runs the detector on the whole of `img` (letterboxed to a centred square) and returns
/// detections scoring at least `min_score`, before NMS.
pub(crate) fn run(
    model: &OnnxModel,
    img: &RgbImage,
    min_score: f32,
) -> EngineResult<Vec<RawDetection>> {
    let side = img.width().max(img.height()) as f32;
    let (off_x, off_y) = (
        (side - img.width() as f32) / 2.0,
        (side - img.height() as f32) / 2.0,
    );
    let scale = side / INPUT as f32;
    // model pixel -> source pixel
    let to_src = Affine {
        a: scale,
        b: 0.0,
        tx: -off_x,
        c: 0.0,
        d: scale,
        ty: -off_y,
    };
    let input = crate::geometry::warp(img, &to_src, INPUT, INPUT, [0, 0, 0]);
    let outputs = model.run(to_tensor(&input, FORMAT))?;
    let (regressors, scores) = if outputs[0].shape().last() == Some(&16) {
        (&outputs[0], &outputs[1])
    } else {
        (&outputs[1], &outputs[0])
    };
    let regressors = regressors.as_slice_memory_order().unwrap_or(&[]);
    let scores = scores.as_slice_memory_order().unwrap_or(&[]);
    let to_img = |nx: f32, ny: f32| Point::new(nx * side - off_x, ny * side - off_y);
    let mut found = Vec::new();
    for (i, anchor) in anchors().iter().enumerate() {
        let Some(&logit) = scores.get(i) else { break };
        let score = sigmoid(logit);
        if score < min_score {
            continue;
        }
        let r = &regressors[i * 16..i * 16 + 16];
        let n = INPUT as f32;
        let (cx, cy) = (r[0] / n + anchor.x, r[1] / n + anchor.y);
        let (w, h) = (r[2] / n, r[3] / n);
        let top_left = to_img(cx - w / 2.0, cy - h / 2.0);
        let bottom_right = to_img(cx + w / 2.0, cy + h / 2.0);
        let mut keypoints = [Point::default(); 6];
        for (k, kp) in keypoints.iter_mut().enumerate() {
            *kp = to_img(r[4 + 2 * k] / n + anchor.x, r[5 + 2 * k] / n + anchor.y);
        }
        found.push(RawDetection {
            bbox: BoundingBox::from_corners(top_left.x, top_left.y, bottom_right.x, bottom_right.y),
            score,
            keypoints,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    #[test]
    fn anchor_count_matches_model_output() {
        assert_eq!(super::anchors().len(), 896);
    }
}
