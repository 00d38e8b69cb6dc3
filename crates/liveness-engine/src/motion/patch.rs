//! Grey pixel patches cut from a frame and the block-matching primitives the motion
//! measures share: texture energy, sum of squared differences (one block, or a row of
//! neighbouring candidates at once), the mapping between patch and image coordinates, and the
//! one block test of the surround and room measures: which blocks are textured enough to
//! match ([`textured_blocks`]) and when one match beats another clearly enough to count
//! ([`decisive`]).

use face_engine::geometry::{BoundingBox, Point};
use image::RgbImage;

use crate::signals::grey_patch;

/// Half-size of a matching block: blocks are 13×13 patch pixels.
pub const BLOCK: i32 = 6;
/// Half-size of the face square, in face-box sides (the face patch; the surround patch is
/// twice as wide).
pub const FACE_HALF: f32 = 0.6;

/// Mean squared grey gradient below which a block is too flat to match (a wall, a blur).
pub const MIN_TEXTURE: f32 = 6.0;
/// A block counts for one hypothesis only when the other matches at least this much worse
/// (noise, flat walls and occluded blocks abstain).
pub const DECISIVE_RATIO: f32 = 1.5;

/// Whether a block matching the winning hypothesis at cost `winner` beats the losing one at
/// cost `loser` decisively.
pub fn decisive(winner: f32, loser: f32) -> bool {
    winner * DECISIVE_RATIO < loser
}

/// The block centres of `patch` on a grid of `step` patch pixels from `start` to `end`
/// (exclusive, both axes) that `admit` lets through and that are textured enough to match
/// ([`MIN_TEXTURE`]): the `take` most textured, most textured first (ties in grid order).
pub fn textured_blocks(
    patch: &GreyPatch,
    (start, end): (i32, i32),
    step: usize,
    take: usize,
    admit: impl Fn(i32, i32) -> bool,
) -> Vec<(i32, i32)> {
    let texture = patch.texture_map();
    let mut candidates: Vec<(f32, i32, i32)> = Vec::new();
    for v in (start..end).step_by(step) {
        for u in (start..end).step_by(step) {
            if !admit(u, v) {
                continue;
            }
            let energy = texture.at(u, v);
            if energy >= MIN_TEXTURE {
                candidates.push((energy, u, v));
            }
        }
    }
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0));
    candidates
        .into_iter()
        .take(take)
        .map(|(_, u, v)| (u, v))
        .collect()
}

/// A square grey patch of a frame, with its place in the image.
#[derive(Debug, Clone)]
pub struct GreyPatch {
    grey: Vec<f32>,
    side: usize,
    origin: Point,
    /// Image pixels per patch pixel.
    scale: f32,
    image_size: (f32, f32),
}

impl GreyPatch {
    /// The square of half-size `half` around `centre`, sampled at `side`×`side`.
    pub fn capture(img: &RgbImage, centre: Point, half: f32, side: usize) -> Self {
        let square = BoundingBox::from_corners(
            centre.x - half,
            centre.y - half,
            centre.x + half,
            centre.y + half,
        );
        Self {
            grey: grey_patch(img, &square, side),
            side,
            origin: Point::new(square.x, square.y),
            scale: square.width / side as f32,
            image_size: (img.width() as f32, img.height() as f32),
        }
    }

    pub fn side(&self) -> i32 {
        self.side as i32
    }

    pub fn at(&self, u: i32, v: i32) -> f32 {
        let side = self.side as i32;
        self.grey[(v.clamp(0, side - 1) * side + u.clamp(0, side - 1)) as usize]
    }

    pub fn to_image(&self, u: f32, v: f32) -> Point {
        Point::new(
            self.origin.x + (u + 0.5) * self.scale,
            self.origin.y + (v + 0.5) * self.scale,
        )
    }

    pub fn to_patch(&self, p: Point) -> (f32, f32) {
        (
            (p.x - self.origin.x) / self.scale - 0.5,
            (p.y - self.origin.y) / self.scale - 0.5,
        )
    }

    /// Whether a block centred on (u, v) lies wholly inside the patch.
    pub fn holds_block(&self, u: i32, v: i32) -> bool {
        let side = self.side as i32;
        u - BLOCK > 0 && u + BLOCK + 1 < side && v - BLOCK > 0 && v + BLOCK + 1 < side
    }

    /// Whether the block centred on (u, v) samples real image pixels only (patches are
    /// padded by repeating the image's edge, which moves with nothing).
    pub fn block_in_image(&self, u: i32, v: i32) -> bool {
        let reach = (BLOCK + 1) as f32;
        let low = self.to_image(u as f32 - reach, v as f32 - reach);
        let high = self.to_image(u as f32 + reach, v as f32 + reach);
        low.x >= 0.0 && low.y >= 0.0 && high.x < self.image_size.0 && high.y < self.image_size.1
    }

    /// Mean squared gradient of every block, ready to be read at any block centre.
    pub fn texture_map(&self) -> TextureMap {
        let side = self.side as i32;
        let stride = self.side + 1;
        let mut integral = vec![0.0f64; stride * stride];
        for y in 0..side {
            let mut row_sum = 0.0f64;
            for x in 0..side {
                let gx = self.at(x + 1, y) - self.at(x - 1, y);
                let gy = self.at(x, y + 1) - self.at(x, y - 1);
                row_sum += f64::from(gx * gx + gy * gy);
                let i = (y as usize + 1) * stride + x as usize + 1;
                integral[i] = integral[i - stride] + row_sum;
            }
        }
        TextureMap { stride, integral }
    }

    /// Row `v` of the patch from column `u0`, `len` pixels (inside the patch).
    fn row(&self, v: i32, u0: i32, len: usize) -> &[f32] {
        let start = v as usize * self.side + u0 as usize;
        &self.grey[start..start + len]
    }
}

/// Block texture of a patch: an integral image of its squared gradients.
#[derive(Debug, Clone)]
pub struct TextureMap {
    stride: usize,
    integral: Vec<f64>,
}

impl TextureMap {
    /// Mean squared gradient in the block around (u, v), which must lie inside the patch.
    pub fn at(&self, u: i32, v: i32) -> f32 {
        let last = self.stride as i32 - 2;
        let (x0, y0) = (
            (u - BLOCK).clamp(0, last) as usize,
            (v - BLOCK).clamp(0, last) as usize,
        );
        let (x1, y1) = (
            (u + BLOCK + 1).clamp(0, last + 1) as usize,
            (v + BLOCK + 1).clamp(0, last + 1) as usize,
        );
        let s = self.stride;
        let sum =
            self.integral[y1 * s + x1] - self.integral[y0 * s + x1] - self.integral[y1 * s + x0]
                + self.integral[y0 * s + x0];
        (sum / f64::from((2 * BLOCK + 1) * (2 * BLOCK + 1))) as f32
    }
}

/// [`ssd`] of block (u, v) of `a` against the `N` blocks of `b` centred on
/// (`ub_first` + k, `vb`), all at once; `None` unless every block lies inside its patch.
/// Each candidate's sum is formed in exactly [`ssd`]'s order (row sums left to right, then
/// rows top to bottom), so the costs are bit-identical; only the candidates run side by side,
/// which lets the compiler vectorise across them where one sum's order forbids it.
pub fn ssd_row<const N: usize>(
    a: &GreyPatch,
    b: &GreyPatch,
    (u, v): (i32, i32),
    ub_first: i32,
    vb: i32,
) -> Option<[f32; N]> {
    let last = ub_first + N as i32 - 1;
    if N == 0 || !a.holds_block(u, v) || !b.holds_block(ub_first, vb) || !b.holds_block(last, vb) {
        return None;
    }
    let width = (2 * BLOCK + 1) as usize;
    let mut totals = [0.0f32; N];
    for dv in -BLOCK..=BLOCK {
        let row_a = a.row(v + dv, u - BLOCK, width);
        let row_b = b.row(vb + dv, ub_first - BLOCK, width + N - 1);
        let mut rows = [0.0f32; N];
        for (x, &value) in row_a.iter().enumerate() {
            let window = &row_b[x..x + N];
            for (sum, &other) in rows.iter_mut().zip(window) {
                let d = value - other;
                *sum += d * d;
            }
        }
        for (total, row) in totals.iter_mut().zip(rows) {
            *total += row;
        }
    }
    Some(totals)
}

/// Sum of squared differences between block (u, v) of `a` and block (ub, vb) of `b`; a block
/// reaching past its patch's edge repeats the edge (the sub-pixel refinement next to a
/// tracked block's best match can ask for one).
pub fn ssd(a: &GreyPatch, b: &GreyPatch, u: i32, v: i32, ub: i32, vb: i32) -> f32 {
    let width = (2 * BLOCK + 1) as usize;
    if a.holds_block(u, v) && b.holds_block(ub, vb) {
        // both blocks inside: whole rows, no clamping (the common case)
        return (-BLOCK..=BLOCK)
            .map(|dv| {
                let row_a = a.row(v + dv, u - BLOCK, width);
                let row_b = b.row(vb + dv, ub - BLOCK, width);
                row_a
                    .iter()
                    .zip(row_b)
                    .map(|(x, y)| (x - y) * (x - y))
                    .sum::<f32>()
            })
            .sum();
    }
    let mut sum = 0.0;
    for dv in -BLOCK..=BLOCK {
        for du in -BLOCK..=BLOCK {
            let d = a.at(u + du, v + dv) - b.at(ub + du, vb + dv);
            sum += d * d;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn textured(seed: u32) -> RgbImage {
        RgbImage::from_fn(200, 160, |x, y| {
            let v = (x ^ seed)
                .wrapping_mul(2_654_435_761)
                .wrapping_add(y.wrapping_mul(40_503));
            image::Rgb([(v >> 5) as u8, (v >> 13) as u8, (v >> 21) as u8])
        })
    }

    #[test]
    fn a_row_of_candidates_costs_bit_for_bit_what_each_block_costs() {
        let a = GreyPatch::capture(&textured(1), Point::new(100.0, 80.0), 60.3, 96);
        let b = GreyPatch::capture(&textured(7), Point::new(101.5, 79.2), 61.0, 96);
        for (u, v, ub_first, vb) in [(40, 40, 30, 44), (20, 70, 8, 70), (60, 30, 50, 20)] {
            let row = ssd_row::<13>(&a, &b, (u, v), ub_first, vb).expect("inside");
            for (k, cost) in row.iter().enumerate() {
                let single = ssd(&a, &b, u, v, ub_first + k as i32, vb);
                assert_eq!(cost.to_bits(), single.to_bits(), "({u}, {v}) candidate {k}");
            }
        }
        assert!(
            ssd_row::<13>(&a, &b, (40, 40), 80, 40).is_none(),
            "past the edge"
        );
    }
}
