//! Pixel-level signals of one frame that need no model: a small grey thumbnail of the face
//! (for frozen and repeated frames), a frequency-domain screen/moiré measure and a
//! blending-boundary measure. Each is cheap (well under a millisecond).

use face_engine::geometry::BoundingBox;
use image::RgbImage;
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

/// Side of the grey face thumbnail kept per frame.
pub const THUMB_SIDE: usize = 32;
/// Side of the face patch analysed in the frequency domain.
const SPECTRUM_SIDE: usize = 64;

/// Samples a `side`×`side` grey patch (luma 0..255) of the box, bilinear, clamped at edges.
pub fn grey_patch(img: &RgbImage, bbox: &BoundingBox, side: usize) -> Vec<f32> {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let raw = img.as_raw();
    let luma_at = |i: usize| {
        0.299 * f32::from(raw[i]) + 0.587 * f32::from(raw[i + 1]) + 0.114 * f32::from(raw[i + 2])
    };
    let index = |x: i64, y: i64| ((y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) * 3) as usize;
    let mut out = Vec::with_capacity(side * side);
    for j in 0..side {
        let y = bbox.y + (j as f32 + 0.5) * bbox.height / side as f32 - 0.5;
        let y0 = y.floor();
        let fy = y - y0;
        let y0 = y0 as i64;
        for i in 0..side {
            let x = bbox.x + (i as f32 + 0.5) * bbox.width / side as f32 - 0.5;
            let x0 = x.floor();
            let fx = x - x0;
            let x0 = x0 as i64;
            let (tl, tr, bl, br) = if x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h {
                // inside the image (almost always): no clamping
                let top = ((y0 * w + x0) * 3) as usize;
                let bottom = top + w as usize * 3;
                (top, top + 3, bottom, bottom + 3)
            } else {
                (
                    index(x0, y0),
                    index(x0 + 1, y0),
                    index(x0, y0 + 1),
                    index(x0 + 1, y0 + 1),
                )
            };
            let top = luma_at(tl) * (1.0 - fx) + luma_at(tr) * fx;
            let bottom = luma_at(bl) * (1.0 - fx) + luma_at(br) * fx;
            out.push(top * (1.0 - fy) + bottom * fy);
        }
    }
    out
}

/// Grey thumbnail of the face box, quantised to bytes.
pub fn face_thumbnail(img: &RgbImage, bbox: &BoundingBox) -> Vec<u8> {
    grey_patch(img, bbox, THUMB_SIDE)
        .into_iter()
        .map(|v| v.round().clamp(0.0, 255.0) as u8)
        .collect()
}

/// Mean absolute difference of two thumbnails in grey levels (0 = identical).
pub fn thumbnail_difference(a: &[u8], b: &[u8]) -> f32 {
    if a.len() != b.len() || a.is_empty() {
        return f32::INFINITY;
    }
    let sum: u32 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u32::from(x.abs_diff(*y)))
        .sum();
    sum as f32 / a.len() as f32
}

/// Screen replay measure: how far the strongest high-frequency peak of the inner face stands
/// above the typical energy at those frequencies (log10 of the ratio). A display's pixel grid
/// beating with the camera's sensor (moiré) and refresh banding put isolated peaks there; skin
/// has a smooth, falling spectrum. Measured on live footage: 1.7–3.0 (the low-resolution
/// webcam clips highest), so it is a soft signal (see `layers::injection`).
pub fn moire_peak(img: &RgbImage, bbox: &BoundingBox) -> f32 {
    let inner = inner_box(bbox, 0.6);
    let patch = grey_patch(img, &inner, SPECTRUM_SIDE);
    let power = power_spectrum(&patch, SPECTRUM_SIDE);
    let n = SPECTRUM_SIDE as i64;
    let mut band = Vec::new();
    for v in 0..n {
        for u in 0..n {
            let (fu, fv) = (wrap(u, n), wrap(v, n));
            let radius = ((fu * fu + fv * fv) as f32).sqrt();
            // the high band, away from the axes where any edge of the crop leaks energy
            if radius >= 12.0 && fu.abs() > 2 && fv.abs() > 2 {
                band.push(power[(v * n + u) as usize]);
            }
        }
    }
    if band.is_empty() {
        return 0.0;
    }
    band.sort_by(f32::total_cmp);
    let median = band[band.len() / 2].max(1e-6);
    let peak = band[band.len() - 1];
    (peak / median).log10()
}

/// Blending measure: high-frequency energy of the inner face relative to the ring around the
/// face box. A face pasted or synthesised into a frame is often smoother than its
/// surroundings (ratio well below the live range). Printed and replayed faces and heavy
/// make-up also lower it, so it is a soft signal, never a veto.
pub fn boundary_sharpness_ratio(img: &RgbImage, bbox: &BoundingBox) -> f32 {
    let inner = laplacian_energy(&grey_patch(img, &inner_box(bbox, 0.5), 48), 48);
    let outer_box = inner_box(bbox, 1.4);
    let outer = grey_patch(img, &outer_box, 64);
    // only the ring: pixels of the 1.4× box that fall outside the face box itself
    let ring_energy = ring_laplacian_energy(&outer, 64, 1.0 / 1.4);
    if ring_energy <= 1e-3 {
        return 1.0;
    }
    (inner / ring_energy).clamp(0.0, 10.0)
}

fn wrap(k: i64, n: i64) -> i64 {
    if k > n / 2 { k - n } else { k }
}

/// A box with the same centre and `factor` times the size.
fn inner_box(bbox: &BoundingBox, factor: f32) -> BoundingBox {
    let c = bbox.center();
    let (w, h) = (bbox.width * factor, bbox.height * factor);
    BoundingBox::from_corners(c.x - w / 2.0, c.y - h / 2.0, c.x + w / 2.0, c.y + h / 2.0)
}

fn power_spectrum(patch: &[f32], side: usize) -> Vec<f32> {
    let mean = patch.iter().sum::<f32>() / patch.len() as f32;
    // Hann window so the crop's borders do not smear energy over the whole spectrum
    let hann = |i: usize| 0.5 - 0.5 * (std::f32::consts::TAU * i as f32 / (side - 1) as f32).cos();
    let mut data: Vec<Complex<f32>> = patch
        .iter()
        .enumerate()
        .map(|(k, &v)| Complex::new((v - mean) * hann(k % side) * hann(k / side), 0.0))
        .collect();
    let fft = FftPlanner::new().plan_fft_forward(side);
    for row in data.chunks_exact_mut(side) {
        fft.process(row);
    }
    let mut column = vec![Complex::new(0.0, 0.0); side];
    for x in 0..side {
        for y in 0..side {
            column[y] = data[y * side + x];
        }
        fft.process(&mut column);
        for y in 0..side {
            data[y * side + x] = column[y];
        }
    }
    data.iter().map(|c| c.norm_sqr()).collect()
}

fn laplacian_at(grey: &[f32], side: usize, x: usize, y: usize) -> f32 {
    let at = |x: usize, y: usize| grey[y * side + x];
    4.0 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1)
}

fn laplacian_energy(grey: &[f32], side: usize) -> f32 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in 1..side - 1 {
        for x in 1..side - 1 {
            sum += laplacian_at(grey, side, x, y).powi(2);
            n += 1.0;
        }
    }
    sum / n
}

fn ring_laplacian_energy(grey: &[f32], side: usize, inner_fraction: f32) -> f32 {
    let lo = (side as f32 * (1.0 - inner_fraction) / 2.0) as usize;
    let hi = side - lo;
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in 1..side - 1 {
        for x in 1..side - 1 {
            if (lo..hi).contains(&x) && (lo..hi).contains(&y) {
                continue;
            }
            sum += laplacian_at(grey, side, x, y).powi(2);
            n += 1.0;
        }
    }
    if n == 0.0 { 0.0 } else { sum / n }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(f: impl Fn(u32, u32) -> u8) -> RgbImage {
        RgbImage::from_fn(200, 200, |x, y| {
            let v = f(x, y);
            image::Rgb([v, v, v])
        })
    }

    #[test]
    fn a_fine_periodic_pattern_peaks_far_above_natural_texture() {
        let bbox = BoundingBox::from_corners(20.0, 20.0, 180.0, 180.0);
        // smooth shading plus sensor-like noise, with and without a screen-like grid
        let noise =
            |x: u32, y: u32| ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 9) as f32 - 4.0;
        let natural = |x: u32, y: u32| 128.0 + 40.0 * (x as f32 * 0.05).sin() + noise(x, y);
        let plain = moire_peak(&frame(|x, y| natural(x, y) as u8), &bbox);
        let grid = moire_peak(
            &frame(|x, y| {
                let beat = (x as f32 * 1.7).sin() * (y as f32 * 1.3).sin() * 30.0;
                (natural(x, y) + beat).clamp(0.0, 255.0) as u8
            }),
            &bbox,
        );
        assert!(grid > plain + 1.0, "grid {grid} plain {plain}");
    }

    #[test]
    fn identical_thumbnails_differ_by_zero() {
        let bbox = BoundingBox::from_corners(10.0, 10.0, 150.0, 150.0);
        let img = frame(|x, y| (x ^ y) as u8);
        let a = face_thumbnail(&img, &bbox);
        assert_eq!(thumbnail_difference(&a, &a), 0.0);
        assert_eq!(thumbnail_difference(&a, &[]), f32::INFINITY);
    }
}
