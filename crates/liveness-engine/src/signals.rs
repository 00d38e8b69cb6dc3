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
/// Each source pixel's luma is computed once, on the grid of the columns and rows the samples
/// read, instead of four times per sample: the same values, bit for bit.
pub fn grey_patch(img: &RgbImage, bbox: &BoundingBox, side: usize) -> Vec<f32> {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let raw = img.as_raw();
    let columns = sample_taps(bbox.x, bbox.width, side, w);
    let rows = sample_taps(bbox.y, bbox.height, side, h);
    // the distinct source columns and rows read, and the luma of each crossing
    let (xs, column_slots) = distinct_taps(&columns);
    let (ys, row_slots) = distinct_taps(&rows);
    let mut luma = Vec::with_capacity(xs.len() * ys.len());
    for &y in &ys {
        let row = &raw[(y * w * 3) as usize..];
        for &x in &xs {
            let i = (x * 3) as usize;
            luma.push(
                0.299 * f32::from(row[i])
                    + 0.587 * f32::from(row[i + 1])
                    + 0.114 * f32::from(row[i + 2]),
            );
        }
    }
    let stride = xs.len();
    let mut out = Vec::with_capacity(side * side);
    for (tap_y, &(top_slot, bottom_slot)) in rows.iter().zip(&row_slots) {
        let fy = tap_y.fraction;
        let (top_row, bottom_row) = (&luma[top_slot * stride..], &luma[bottom_slot * stride..]);
        for (tap_x, &(left, right)) in columns.iter().zip(&column_slots) {
            let fx = tap_x.fraction;
            let top = top_row[left] * (1.0 - fx) + top_row[right] * fx;
            let bottom = bottom_row[left] * (1.0 - fx) + bottom_row[right] * fx;
            out.push(top * (1.0 - fy) + bottom * fy);
        }
    }
    out
}

/// Where one sample reads along an axis: two source pixels (clamped into the image) and the
/// weight of the second.
#[derive(Debug, Clone, Copy)]
struct Tap {
    first: i64,
    second: i64,
    fraction: f32,
}

/// The taps of `side` samples spread over `[start, start + length)` of an axis of `size` pixels.
fn sample_taps(start: f32, length: f32, side: usize, size: i64) -> Vec<Tap> {
    (0..side)
        .map(|i| {
            let at = start + (i as f32 + 0.5) * length / side as f32 - 0.5;
            let floor = at.floor();
            let fraction = at - floor;
            let floor = floor as i64;
            Tap {
                first: floor.clamp(0, size - 1),
                second: (floor + 1).clamp(0, size - 1),
                fraction,
            }
        })
        .collect()
}

/// The distinct source pixels the taps read, ascending, and each tap's two slots among them.
fn distinct_taps(taps: &[Tap]) -> (Vec<i64>, Vec<(usize, usize)>) {
    let mut pixels: Vec<i64> = taps.iter().flat_map(|t| [t.first, t.second]).collect();
    pixels.sort_unstable();
    pixels.dedup();
    let slot = |p: i64| pixels.binary_search(&p).unwrap_or(0);
    let slots = taps
        .iter()
        .map(|t| (slot(t.first), slot(t.second)))
        .collect();
    (pixels, slots)
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

    /// The sampling as it was before the luma grid: four luma computations per sample.
    fn grey_patch_per_sample(img: &RgbImage, bbox: &BoundingBox, side: usize) -> Vec<f32> {
        let (w, h) = (i64::from(img.width()), i64::from(img.height()));
        let raw = img.as_raw();
        let luma_at = |x: i64, y: i64| {
            let i = ((y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) * 3) as usize;
            0.299 * f32::from(raw[i])
                + 0.587 * f32::from(raw[i + 1])
                + 0.114 * f32::from(raw[i + 2])
        };
        let mut out = Vec::with_capacity(side * side);
        for j in 0..side {
            let y = bbox.y + (j as f32 + 0.5) * bbox.height / side as f32 - 0.5;
            let (y0, fy) = (y.floor() as i64, y - y.floor());
            for i in 0..side {
                let x = bbox.x + (i as f32 + 0.5) * bbox.width / side as f32 - 0.5;
                let (x0, fx) = (x.floor() as i64, x - x.floor());
                let top = luma_at(x0, y0) * (1.0 - fx) + luma_at(x0 + 1, y0) * fx;
                let bottom = luma_at(x0, y0 + 1) * (1.0 - fx) + luma_at(x0 + 1, y0 + 1) * fx;
                out.push(top * (1.0 - fy) + bottom * fy);
            }
        }
        out
    }

    #[test]
    fn the_luma_grid_samples_bit_for_bit_as_per_sample_luma_did() {
        let img = RgbImage::from_fn(173, 131, |x, y| {
            let v = x
                .wrapping_mul(2_654_435_761)
                .wrapping_add(y.wrapping_mul(40_503));
            image::Rgb([(v >> 3) as u8, (v >> 11) as u8, (v >> 19) as u8])
        });
        let boxes = [
            BoundingBox::from_corners(20.3, 15.7, 120.9, 110.2), // inside, upsampled
            BoundingBox::from_corners(-30.0, -12.5, 90.0, 140.0), // over two edges
            BoundingBox::from_corners(0.0, 0.0, 173.0, 131.0),   // downsampled
            BoundingBox::from_corners(150.0, 100.0, 400.0, 300.0), // mostly outside
        ];
        for bbox in &boxes {
            for side in [7, 32, 160, 256] {
                let grid = grey_patch(&img, bbox, side);
                let reference = grey_patch_per_sample(&img, bbox, side);
                assert!(
                    grid.iter()
                        .zip(&reference)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{bbox:?} at {side}"
                );
            }
        }
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
