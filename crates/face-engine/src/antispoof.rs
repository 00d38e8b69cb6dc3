//! Passive anti-spoof scoring with the MiniFASNet-style model and its exact crop: the face box
//! scaled ×2.7 about its centre, clamped to the image, resized to 128×128 ignoring aspect, BGR.

use image::RgbImage;

use crate::error::EngineResult;
use crate::geometry::BoundingBox;
use crate::manifest::ModelSet;
use crate::preprocess::{PixelFormat, resize_exact, to_tensor};

const SCALE: f32 = 2.7;
const INPUT: u32 = 128;
const FORMAT: PixelFormat = PixelFormat::nchw_bgr(0.0, 1.0);

/// Probability in 0..1 that the face in `bbox` is a real, live face.
pub(crate) fn real_probability(
    models: &ModelSet,
    img: &RgbImage,
    bbox: &BoundingBox,
) -> EngineResult<f32> {
    let c = bbox.center();
    let (w, h) = (bbox.width * SCALE, bbox.height * SCALE);
    let region =
        BoundingBox::from_corners(c.x - w / 2.0, c.y - h / 2.0, c.x + w / 2.0, c.y + h / 2.0)
            .clamp_to(img.width(), img.height());
    let (x, y) = (region.x as u32, region.y as u32);
    let cw = (region.width as u32).clamp(1, img.width() - x.min(img.width() - 1));
    let ch = (region.height as u32).clamp(1, img.height() - y.min(img.height() - 1));
    let crop = image::imageops::crop_imm(img, x, y, cw, ch).to_image();
    let input = resize_exact(&crop, INPUT, INPUT);
    let out = models.anti_spoof.run(to_tensor(&input, FORMAT))?;
    let logits: Vec<f32> = out[0].iter().copied().collect();
    let max = logits.iter().copied().fold(f32::MIN, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let total: f32 = exp.iter().sum();
    Ok(exp.first().copied().unwrap_or(0.0) / total.max(1e-12))
}
