//! Pixel statistics of the portrait's regions (eyes, cheeks, lower face, the background beside
//! the head), counted only over pixels that came from the captured frame, never the fill.

use image::RgbImage;

use crate::geometry::{Affine, BoundingBox, Point};

/// Luma and chroma statistics of one region, in 0..1 units.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct RegionStats {
    pub pixels: u32,
    pub mean_luma: f32,
    pub luma_std: f32,
    /// Mean chroma (Cb, Cr) offsets from grey, in 0..1 units.
    pub chroma: (f32, f32),
    /// Mean absolute difference between horizontal and vertical neighbours.
    pub gradient: f32,
}

impl RegionStats {
    /// Distance between two regions' mean chroma, in 0..1 units.
    pub(crate) fn chroma_distance(&self, other: &RegionStats) -> f32 {
        let (cb, cr) = (
            self.chroma.0 - other.chroma.0,
            self.chroma.1 - other.chroma.1,
        );
        (cb * cb + cr * cr).sqrt()
    }
}

/// Which portrait pixels came from the frame (the rest is fill).
pub(crate) struct SourceMask<'a> {
    pub portrait_to_source: &'a Affine,
    pub source_width: f32,
    pub source_height: f32,
}

impl SourceMask<'_> {
    pub(crate) fn covers(&self, x: u32, y: u32) -> bool {
        let p = self
            .portrait_to_source
            .apply(Point::new(x as f32 + 0.5, y as f32 + 0.5));
        p.x >= 0.0 && p.y >= 0.0 && p.x < self.source_width && p.y < self.source_height
    }
}

/// Share of a `width` × `height` portrait taken from the frame (sampled every 10 pixels).
pub(crate) fn source_share(mask: &SourceMask<'_>, width: u32, height: u32) -> f32 {
    let (mut inside, mut total) = (0u32, 0u32);
    for y in (0..height).step_by(10) {
        for x in (0..width).step_by(10) {
            total += 1;
            inside += u32::from(mask.covers(x, y));
        }
    }
    inside as f32 / total.max(1) as f32
}

fn luma(p: &image::Rgb<u8>) -> f32 {
    (0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32) / 255.0
}

/// Statistics of the pixels of `region` (clipped to the image) that the mask covers.
pub(crate) fn stats(img: &RgbImage, region: &BoundingBox, mask: &SourceMask<'_>) -> RegionStats {
    let inner = region.clamp_to(img.width(), img.height());
    let (x0, y0) = (inner.x as u32, inner.y as u32);
    let x1 = ((inner.x + inner.width) as u32).min(img.width());
    let y1 = ((inner.y + inner.height) as u32).min(img.height());
    let (mut n, mut sum, mut sum_sq, mut cb, mut cr) = (0u32, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let (mut gradient_sum, mut gradient_n) = (0.0f64, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            if !mask.covers(x, y) {
                continue;
            }
            let p = img.get_pixel(x, y);
            let l = luma(p);
            n += 1;
            sum += f64::from(l);
            sum_sq += f64::from(l * l);
            cb += f64::from((p[2] as f32 / 255.0 - l) * 0.564);
            cr += f64::from((p[0] as f32 / 255.0 - l) * 0.713);
            if x + 1 < x1 && y + 1 < y1 && mask.covers(x + 1, y + 1) {
                let right = luma(img.get_pixel(x + 1, y));
                let below = luma(img.get_pixel(x, y + 1));
                gradient_sum += f64::from((right - l).abs() + (below - l).abs()) / 2.0;
                gradient_n += 1;
            }
        }
    }
    if n == 0 {
        return RegionStats::default();
    }
    let mean = sum / f64::from(n);
    let variance = (sum_sq / f64::from(n) - mean * mean).max(0.0);
    RegionStats {
        pixels: n,
        mean_luma: mean as f32,
        luma_std: variance.sqrt() as f32,
        chroma: ((cb / f64::from(n)) as f32, (cr / f64::from(n)) as f32),
        gradient: if gradient_n == 0 {
            0.0
        } else {
            (gradient_sum / f64::from(gradient_n)) as f32
        },
    }
}

/// A box of `width` × `height` centred on `center`.
pub(crate) fn centred(center: Point, width: f32, height: f32) -> BoundingBox {
    BoundingBox::from_corners(
        center.x - width / 2.0,
        center.y - height / 2.0,
        center.x + width / 2.0,
        center.y + height / 2.0,
    )
}

/// Variance of the Laplacian of a `size`-px square crop over its squared mean grey level: how
/// sharp the region is, whether the picture is darkened or half in shadow.
pub(crate) fn relative_sharpness(img: &RgbImage, region: &BoundingBox, size: u32) -> f32 {
    let side = region.width.max(region.height).max(1.0);
    let crop = crate::geometry::square_crop(img, region.center(), side, size);
    let grey = crate::preprocess::luma(&crop);
    let mean = grey.iter().sum::<f32>() / grey.len().max(1) as f32;
    let laplacian = crate::quality::laplacian_variance(&grey, size as usize, size as usize);
    laplacian / mean.max(1.0).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_spread_ignores_darkening_and_fill_is_not_counted() {
        let mut img = RgbImage::new(20, 20);
        for (x, y, p) in img.enumerate_pixels_mut() {
            let v = if (x + y) % 2 == 0 { 200 } else { 100 };
            *p = image::Rgb([v, v, v]);
        }
        let dark = RgbImage::from_fn(20, 20, |x, y| {
            let p = img.get_pixel(x, y);
            image::Rgb([p[0] / 4, p[1] / 4, p[2] / 4])
        });
        let identity =
            Affine::rotate_scale_about(Point::new(0.0, 0.0), Point::new(0.0, 0.0), 0.0, 1.0);
        let mask = SourceMask {
            portrait_to_source: &identity,
            source_width: 10.0,
            source_height: 20.0,
        };
        let region = BoundingBox::from_corners(0.0, 0.0, 20.0, 20.0);
        let (bright, darkened) = (stats(&img, &region, &mask), stats(&dark, &region, &mask));
        assert_eq!(bright.pixels, 200, "only the left half is from the source");
        let contrast = |s: &RegionStats| s.luma_std / s.mean_luma;
        assert!((contrast(&bright) - contrast(&darkened)).abs() < 0.02);
    }
}
