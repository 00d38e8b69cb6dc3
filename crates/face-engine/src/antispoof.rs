//! Passive anti-spoof scoring with the MiniFASNet-style model and its exact crop: the face box
//! scaled ×2.7 about its centre, clamped to the image, resized to 128×128 ignoring aspect, BGR.

use image::RgbImage;

use crate::error::EngineResult;
use crate::geometry::BoundingBox;
use crate::manifest::ModelSet;
use crate::preprocess::{PixelFormat, to_tensor};
use crate::resample::{Region, resize_region};

const SCALE: f32 = 2.7;
const INPUT: u32 = 128;
const FORMAT: PixelFormat = PixelFormat::nchw_bgr(0.0, 1.0);

/// The model's input region: the face box scaled ×[`SCALE`] about its centre, before clamping.
fn context_region(bbox: &BoundingBox) -> BoundingBox {
    let c = bbox.center();
    let (w, h) = (bbox.width * SCALE, bbox.height * SCALE);
    BoundingBox::from_corners(c.x - w / 2.0, c.y - h / 2.0, c.x + w / 2.0, c.y + h / 2.0)
}

/// Share (0..1) of the model's input region that lies inside the image. The model was trained
/// on the face with its surroundings; a face that fills the picture (a tight crop) leaves it
/// little of them, and its output there is not evidence either way.
pub(crate) fn context_share(img: &RgbImage, bbox: &BoundingBox) -> f32 {
    let wanted = context_region(bbox);
    let inside = wanted.clamp_to(img.width(), img.height());
    let area = wanted.width * wanted.height;
    if area <= 0.0 {
        return 0.0;
    }
    (inside.width.max(0.0) * inside.height.max(0.0) / area).clamp(0.0, 1.0)
}

/// How the model's input is coloured before it judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourCast {
    /// The crop as the camera delivered it.
    AsCaptured,
    /// The crop's colour cast removed by grey world: each channel scaled so that the three
    /// channel means equal their average (brightness kept), gains held to 0.5–2.
    GreyWorld,
    /// The crop's channel means moved to those of a typical lit live scene instead of grey
    /// (`TYPICAL_CHANNEL_RATIOS`), gains held to 0.5–2.
    TypicalScene,
}

/// Red and blue means against green of a typical live scene: the medians of the calibration
/// footage (NUAA live captures 1.16 / 0.99, the shared webcam videos 1.09 / 0.86).
pub const TYPICAL_CHANNEL_RATIOS: [f64; 3] = [1.12, 1.0, 0.92];

/// Scales each channel of `crop` so that its channel means stand in the ratios `aim` (brightness
/// kept).
fn remove_cast(crop: &mut RgbImage, aim: [f64; 3]) {
    let mut sums = [0.0f64; 3];
    for pixel in crop.pixels() {
        for (sum, value) in sums.iter_mut().zip(pixel.0) {
            *sum += f64::from(value);
        }
    }
    let total = sums.iter().sum::<f64>() / aim.iter().sum::<f64>();
    let gains: [f32; 3] = std::array::from_fn(|c| match sums[c] > 0.0 {
        true => (total * aim[c] / sums[c]).clamp(0.5, 2.0) as f32,
        false => 1.0,
    });
    for pixel in crop.pixels_mut() {
        for (value, gain) in pixel.0.iter_mut().zip(gains) {
            *value = (f32::from(*value) * gain).round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Probability in 0..1 that the face in `bbox` is a real, live face.
pub(crate) fn real_probability(
    models: &ModelSet,
    img: &RgbImage,
    bbox: &BoundingBox,
    cast: ColourCast,
) -> EngineResult<f32> {
    let region = context_region(bbox).clamp_to(img.width(), img.height());
    let (x, y) = (region.x as u32, region.y as u32);
    let cw = (region.width as u32).clamp(1, img.width() - x.min(img.width() - 1));
    let ch = (region.height as u32).clamp(1, img.height() - y.min(img.height() - 1));
    let crop = Region {
        x,
        y,
        width: cw,
        height: ch,
    };
    let mut input = resize_region(img, crop, INPUT, INPUT);
    match cast {
        ColourCast::AsCaptured => {}
        ColourCast::GreyWorld => remove_cast(&mut input, [1.0; 3]),
        ColourCast::TypicalScene => remove_cast(&mut input, TYPICAL_CHANNEL_RATIOS),
    }
    let out = models.anti_spoof.run(to_tensor(&input, FORMAT))?;
    let logits: Vec<f32> = out[0].iter().copied().collect();
    let max = logits.iter().copied().fold(f32::MIN, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let total: f32 = exp.iter().sum();
    Ok(exp.first().copied().unwrap_or(0.0) / total.max(1e-12))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_share_is_the_part_of_the_models_view_inside_the_image() {
        let img = RgbImage::new(640, 480);
        let small = BoundingBox::from_corners(280.0, 200.0, 360.0, 280.0);
        assert!((context_share(&img, &small) - 1.0).abs() < 1e-6);
        // a face filling the picture leaves 1 / 2.7² of the view inside it
        let filling = BoundingBox::from_corners(0.0, 0.0, 640.0, 480.0);
        let share = context_share(&img, &filling);
        assert!((share - 1.0 / (SCALE * SCALE)).abs() < 1e-3, "{share}");
        // a face at the edge loses the half of its view that lies outside
        let at_edge = BoundingBox::from_corners(-40.0, 200.0, 40.0, 280.0);
        let share = context_share(&img, &at_edge);
        assert!((share - 0.5).abs() < 1e-3, "{share}");
        assert_eq!(
            context_share(&img, &BoundingBox::from_corners(0.0, 0.0, 0.0, 0.0)),
            0.0
        );
    }
}
