//! Image-to-tensor conversion for each model's layout, colour order and normalisation.

use crate::resample::{Region, resize_region};
use image::RgbImage;
use ndarray::Array4;

/// How a model wants its pixels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PixelFormat {
    /// `true` for NCHW, `false` for NHWC.
    pub channels_first: bool,
    /// `true` to feed B, G, R instead of R, G, B.
    pub bgr: bool,
    /// value = (pixel - mean) / std
    pub mean: f32,
    pub std: f32,
}

impl PixelFormat {
    pub const fn nhwc_rgb(mean: f32, std: f32) -> Self {
        Self {
            channels_first: false,
            bgr: false,
            mean,
            std,
        }
    }
    pub const fn nchw_rgb(mean: f32, std: f32) -> Self {
        Self {
            channels_first: true,
            bgr: false,
            mean,
            std,
        }
    }
    pub const fn nchw_bgr(mean: f32, std: f32) -> Self {
        Self {
            channels_first: true,
            bgr: true,
            mean,
            std,
        }
    }
}

/// Converts an RGB image (already at the model's size) into a batch-of-one tensor.
pub(crate) fn to_tensor(img: &RgbImage, format: PixelFormat) -> Array4<f32> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let plane = w * h;
    let mut values = vec![0.0f32; plane * 3];
    for (i, pixel) in img.as_raw().chunks_exact(3).enumerate() {
        for c in 0..3 {
            let src = if format.bgr { 2 - c } else { c };
            let v = (pixel[src] as f32 - format.mean) / format.std;
            let at = if format.channels_first {
                c * plane + i
            } else {
                i * 3 + c
            };
            values[at] = v;
        }
    }
    let shape = if format.channels_first {
        (1, 3, h, w)
    } else {
        (1, h, w, 3)
    };
    Array4::from_shape_vec(shape, values).unwrap_or_else(|_| Array4::zeros(shape))
}

/// Resizes to exactly `width`×`height` (aspect ratio not kept), bilinear ([`resize_region`]).
pub(crate) fn resize_exact(img: &RgbImage, width: u32, height: u32) -> RgbImage {
    resize_region(img, Region::whole(img), width, height)
}

/// Grey values (BT.601 luma) of an RGB image, row-major.
pub(crate) fn luma(img: &RgbImage) -> Vec<f32> {
    img.pixels()
        .map(|p| 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32)
        .collect()
}
