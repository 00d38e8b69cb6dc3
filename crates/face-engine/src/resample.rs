//! Triangle-filter (bilinear) resizing of an RGB image region, bit for bit what
//! `image::imageops::resize(…, FilterType::Triangle)` returns for the same region, at a fraction
//! of its cost: the same weights, computed the same way, and the same f32 sums in the same order
//! (a vertical pass into f32 rows, then a horizontal pass rounded to u8), but over plain slices
//! rather than per-pixel trait calls, and read straight from the region without copying it out.
//! The anti-spoof crop and the group detector's input go through it (issue 16).

use image::RgbImage;

/// A region of an image: left, top, width, height, in pixels, inside the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Region {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Region {
    pub(crate) fn whole(img: &RgbImage) -> Self {
        Self {
            x: 0,
            y: 0,
            width: img.width(),
            height: img.height(),
        }
    }
}

/// The input span and normalised weights of one output row or column.
struct Taps {
    first: usize,
    weights: Vec<f32>,
}

/// `image`'s triangle filter: support 1, widened by the ratio when shrinking.
fn triangle(x: f32) -> f32 {
    if x.abs() < 1.0 { 1.0 - x.abs() } else { 0.0 }
}

/// The taps of every output index along one axis, exactly as `image`'s samplers compute them.
fn taps(input_len: u32, output_len: u32) -> Vec<Taps> {
    let ratio = input_len as f32 / output_len as f32;
    let scaled_ratio = if ratio < 1.0 { 1.0 } else { ratio };
    let support = scaled_ratio;
    (0..output_len)
        .map(|out| {
            let centre = (out as f32 + 0.5) * ratio;
            let left = ((centre - support).floor() as i64).clamp(0, i64::from(input_len) - 1);
            let right = ((centre + support).ceil() as i64).clamp(left + 1, i64::from(input_len));
            let centre = centre - 0.5;
            let mut weights: Vec<f32> = (left..right)
                .map(|i| triangle((i as f32 - centre) / scaled_ratio))
                .collect();
            let mut sum = 0.0;
            for w in &weights {
                sum += w;
            }
            for w in weights.iter_mut() {
                *w /= sum;
            }
            Taps {
                first: left as usize,
                weights,
            }
        })
        .collect()
}

/// Resizes `region` of `img` to `width`×`height` with the triangle filter (see the module doc).
pub(crate) fn resize_region(img: &RgbImage, region: Region, width: u32, height: u32) -> RgbImage {
    let Region {
        x,
        y,
        width: region_width,
        height: region_height,
    } = region;
    if (width, height) == (region_width, region_height) || region_width == 0 || region_height == 0 {
        return image::imageops::crop_imm(img, x, y, region_width, region_height).to_image();
    }
    let stride = img.width() as usize * 3;
    let raw = img.as_raw();
    let row_len = region_width as usize * 3;
    let first_byte = |row: usize| (y as usize + row) * stride + x as usize * 3;

    // Vertical pass: every output row as f32 over the region's full width.
    let vertical = taps(region_height, height);
    let mut rows = vec![0f32; height as usize * row_len];
    for (taps, out) in vertical.iter().zip(rows.chunks_exact_mut(row_len)) {
        for (i, &weight) in taps.weights.iter().enumerate() {
            let start = first_byte(taps.first + i);
            for (acc, &value) in out.iter_mut().zip(&raw[start..start + row_len]) {
                *acc += f32::from(value) * weight;
            }
        }
    }

    // Horizontal pass: every output pixel from the f32 rows, clamped and rounded.
    let horizontal = taps(region_width, width);
    let mut out = RgbImage::new(width, height);
    for (row, out_row) in rows
        .chunks_exact(row_len)
        .zip(out.chunks_exact_mut(width as usize * 3))
    {
        for (taps, pixel) in horizontal.iter().zip(out_row.chunks_exact_mut(3)) {
            let mut sum = [0f32; 3];
            for (i, &weight) in taps.weights.iter().enumerate() {
                let at = (taps.first + i) * 3;
                for c in 0..3 {
                    sum[c] += row[at + c] * weight;
                }
            }
            for c in 0..3 {
                pixel[c] = sum[c].clamp(0.0, 255.0).round() as u8;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic photo-like test card: gradients plus a hash pattern.
    fn card(width: u32, height: u32) -> RgbImage {
        RgbImage::from_fn(width, height, |x, y| {
            let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 97;
            image::Rgb([
                ((x * 255) / width.max(1)) as u8,
                ((y * 255) / height.max(1)) as u8,
                (h * 2 + 30) as u8,
            ])
        })
    }

    #[test]
    fn matches_image_resize_bit_for_bit_shrinking_growing_and_on_regions() {
        let img = card(401, 299);
        let regions = [
            Region::whole(&img),
            Region {
                x: 37,
                y: 11,
                width: 250,
                height: 271,
            },
            Region {
                x: 390,
                y: 290,
                width: 11,
                height: 9,
            },
        ];
        for region in regions {
            let crop =
                image::imageops::crop_imm(&img, region.x, region.y, region.width, region.height)
                    .to_image();
            for (width, height) in [(128, 128), (320, 240), (7, 5), (region.width, 64)] {
                let expected = image::imageops::resize(
                    &crop,
                    width,
                    height,
                    image::imageops::FilterType::Triangle,
                );
                assert!(
                    resize_region(&img, region, width, height) == expected,
                    "{region:?} to {width}x{height}"
                );
            }
        }
    }
}
