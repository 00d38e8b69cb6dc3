//! UltraFace RFB-320 (`fr_detect`): the group-photo detector for small and many faces.
//! Boxes only; keypoints come from a BlazeFace pass on each face's crop.

use image::RgbImage;

use crate::error::EngineResult;
use crate::geometry::BoundingBox;
use crate::preprocess::{PixelFormat, resize_exact, to_tensor};
use inference::OnnxModel;

const WIDTH: u32 = 320;
const HEIGHT: u32 = 240;
const FORMAT: PixelFormat = PixelFormat::nchw_rgb(127.0, 128.0);

/// Runs UltraFace on the whole image and returns boxes in source pixels with their scores.
pub(crate) fn run(
    model: &OnnxModel,
    img: &RgbImage,
    min_score: f32,
) -> EngineResult<Vec<(BoundingBox, f32)>> {
    let input = resize_exact(img, WIDTH, HEIGHT);
    let outputs = model.run(to_tensor(&input, FORMAT))?;
    let (scores, boxes) = (&outputs[0], &outputs[1]);
    let scores = scores.as_slice_memory_order().unwrap_or(&[]);
    let boxes = boxes.as_slice_memory_order().unwrap_or(&[]);
    let (w, h) = (img.width() as f32, img.height() as f32);
    let mut found = Vec::new();
    for (i, pair) in scores.chunks_exact(2).enumerate() {
        let score = pair[1];
        if score < min_score {
            continue;
        }
        let Some(b) = boxes.get(i * 4..i * 4 + 4) else {
            break;
        };
        let bbox = BoundingBox::from_corners(b[0] * w, b[1] * h, b[2] * w, b[3] * h);
        if bbox.width >= 4.0 && bbox.height >= 4.0 {
            found.push((bbox, score));
        }
    }
    Ok(found)
}
