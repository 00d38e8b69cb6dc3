//! Pixel parallax for the motion layer. Landmarks are a network's guess and follow its 3-D
//! face prior even on a flat photo, so planarity is measured on the pixels themselves: textured
//! points of the face are tracked between two frames by block matching (predicted by the
//! landmarks' similarity motion, then searched ±6 px), and a homography is fitted to the
//! tracks. A photo's pixels move exactly by a homography (residual = matching noise); a real
//! face adds parallax, expression and shading changes that no homography explains. The same
//! pair also asks whether the face's surroundings moved with that homography (`surround.rs`).

use std::collections::VecDeque;

use face_engine::geometry::{Affine, BoundingBox, Point};
use image::RgbImage;

use crate::motion::homography::{Homography, residuals};
use crate::motion::patch::{BLOCK, FACE_HALF, GreyPatch, ssd, ssd_row};
use crate::motion::room::{self, RoomMotion, RoomPatch};
use crate::motion::surround::{self, SURROUND_HALF, SURROUND_SIDE, SurroundMotion};

/// Side of the face patch kept for the next frames' comparisons. 160 px keeps a 640×480
/// frame's face near full resolution: at 96 px the matching noise of a flat photo (0.0026–
/// 0.0080 eye spans) reached into the live range; at 160 it is 0.0015–0.0069 (docs/accuracy.md).
pub const PATCH_SIDE: usize = 160;
const SEARCH: i32 = 6;
const TRACKED_POINTS: usize = 60;

/// The grey face patch, the wider patch of its surroundings and a coarse copy of the whole
/// frame (the room), kept for later frames.
#[derive(Debug, Clone)]
pub struct FacePatch {
    face: GreyPatch,
    surround: GreyPatch,
    room: RoomPatch,
}

impl FacePatch {
    pub fn capture(img: &RgbImage, bbox: &BoundingBox) -> Self {
        let centre = bbox.center();
        let side = bbox.width.max(bbox.height);
        Self {
            face: GreyPatch::capture(img, centre, FACE_HALF * side, PATCH_SIDE),
            surround: GreyPatch::capture(img, centre, SURROUND_HALF * side, SURROUND_SIDE),
            room: RoomPatch::capture(img, bbox),
        }
    }

    /// The patch of the face's surroundings.
    pub fn surround(&self) -> &GreyPatch {
        &self.surround
    }
}

/// Capture time a pair spans at least: each new face is compared with the newest earlier face
/// at least this old. The frames a session analyses come 100–133 ms apart at 15–30 fps, so a
/// pair spans three analysed faces (300–400 ms), as it did when pairs were counted in faces;
/// on a loaded server that analyses a frame every 700 ms, the pair spans one (700 ms), not
/// three (over 2 s, across which a turning head's change no longer reads as parallax).
pub const PAIR_SPAN_MS: u64 = 300;
/// Earlier faces kept at most (analysed frames are at least 90 ms apart: three or four reach
/// back [`PAIR_SPAN_MS`]).
const KEPT_FACES: usize = 6;

/// One earlier face: its capture time, patch, rigid points and eye span.
#[derive(Debug)]
struct KeptFace {
    timestamp_ms: u64,
    patch: FacePatch,
    rigid_points: Vec<Point>,
    eye_span: f32,
}

/// The last few faces' patches and rigid points, so each new face is compared with the newest
/// one at least [`PAIR_SPAN_MS`] older; that one and the older ones are then dropped, so no
/// face starts two pairs.
#[derive(Debug, Default)]
pub struct ParallaxTracker {
    recent: VecDeque<KeptFace>,
}

impl ParallaxTracker {
    /// Measures the new face (its `patch`, rigid points and eye span, captured at
    /// `timestamp_ms`) against the newest face at least [`PAIR_SPAN_MS`] older, and keeps it
    /// for the frames to come.
    pub fn push(
        &mut self,
        patch: FacePatch,
        rigid_points: &[Point],
        eye_span: f32,
        timestamp_ms: u64,
    ) -> Option<PairParallax> {
        let partner = self
            .recent
            .iter()
            .rposition(|kept| timestamp_ms.saturating_sub(kept.timestamp_ms) >= PAIR_SPAN_MS);
        let measured = partner.and_then(|index| {
            let old = self.recent.drain(..=index).next_back()?;
            let predict = Affine::fit_similarity(&old.rigid_points, rigid_points)?;
            let span_ms = timestamp_ms - old.timestamp_ms;
            measure(&old.patch, &patch, &predict, old.eye_span, span_ms)
        });
        if self.recent.len() == KEPT_FACES {
            self.recent.pop_front();
        }
        self.recent.push_back(KeptFace {
            timestamp_ms,
            patch,
            rigid_points: rigid_points.to_vec(),
            eye_span,
        });
        measured
    }

    /// A frame without a face breaks the chain: pairs never span a gap.
    pub fn clear(&mut self) {
        self.recent.clear();
    }
}

/// The planarity of one frame pair, in eye spans of the first frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairParallax {
    /// Residual after the best similarity: how much the tracked points changed shape.
    pub shape_change: f32,
    /// Residual after the best homography: what no plane explains.
    pub off_plane: f32,
    /// Whether the face's surroundings moved with its plane ([`surround`]).
    pub surround: SurroundMotion,
    /// Whether the far room moved: the camera did ([`room`]).
    pub room: RoomMotion,
    /// Capture time between the pair's two frames.
    pub span_ms: u64,
}

/// Tracks textured points from `a` to `b`, captured `span_ms` apart; `predict` maps image
/// points of frame `a` to where the landmarks say they moved in frame `b`.
pub fn measure(
    a: &FacePatch,
    b: &FacePatch,
    predict: &Affine,
    eye_span: f32,
    span_ms: u64,
) -> Option<PairParallax> {
    let rooms = (&a.room, &b.room);
    let (a, b, around_a, around_b) = (&a.face, &b.face, &a.surround, &b.surround);
    let texture = a.texture_map();
    let mut candidates: Vec<(f32, i32, i32)> = Vec::new();
    let margin = BLOCK + SEARCH + 8;
    for v in (margin..PATCH_SIDE as i32 - margin).step_by(6) {
        for u in (margin..PATCH_SIDE as i32 - margin).step_by(6) {
            candidates.push((texture.at(u, v), u, v));
        }
    }
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut from = Vec::new();
    let mut to = Vec::new();
    for &(energy, u, v) in candidates.iter().take(TRACKED_POINTS) {
        if energy < 4.0 {
            break; // flat skin tracks nothing
        }
        let guess = b.to_patch(predict.apply(a.to_image(u as f32, v as f32)));
        if let Some((ub, vb)) = track(a, b, u, v, guess) {
            from.push(a.to_image(u as f32, v as f32));
            to.push(b.to_image(ub, vb));
        }
    }
    if from.len() < 12 {
        return None;
    }
    let (similarity, homography, face_motion) = trimmed_residuals(&from, &to)?;
    let unit = eye_span.max(1.0);
    Some(PairParallax {
        shape_change: similarity / unit,
        off_plane: homography / unit,
        surround: surround::classify(around_a, around_b, &face_motion),
        room: room::classify(rooms.0, rooms.1),
        span_ms,
    })
}

/// [`residuals`] after dropping the quarter of tracks the homography fits worst (mismatched
/// blocks on flat skin or at the hairline), so what remains is systematic, not a few bad
/// matches.
fn trimmed_residuals(from: &[Point], to: &[Point]) -> Option<(f32, f32, Homography)> {
    let homography = Homography::fit(from, to)?;
    let mut errors: Vec<(f32, usize)> = from
        .iter()
        .zip(to)
        .enumerate()
        .map(|(i, (a, b))| (homography.apply(*a).distance(*b), i))
        .collect();
    errors.sort_by(|x, y| x.0.total_cmp(&y.0));
    let keep: Vec<usize> = errors[..errors.len() * 3 / 4].iter().map(|e| e.1).collect();
    let from: Vec<Point> = keep.iter().map(|&i| from[i]).collect();
    let to: Vec<Point> = keep.iter().map(|&i| to[i]).collect();
    residuals(&from, &to)
}

/// Best match of block (u, v) of `a` near `guess` in `b`, refined to sub-pixel.
fn track(a: &GreyPatch, b: &GreyPatch, u: i32, v: i32, guess: (f32, f32)) -> Option<(f32, f32)> {
    let (gu, gv) = (guess.0.round() as i32, guess.1.round() as i32);
    let mut best = (f32::INFINITY, gu, gv);
    for dv in -SEARCH..=SEARCH {
        let vb = gv + dv;
        // the whole row of candidates at once when it lies inside (the common case)
        let row = ssd_row::<{ 2 * SEARCH as usize + 1 }>(a, b, (u, v), gu - SEARCH, vb);
        for du in -SEARCH..=SEARCH {
            let ub = gu + du;
            let cost = match &row {
                Some(costs) => costs[(du + SEARCH) as usize],
                None if b.holds_block(ub, vb) => ssd(a, b, u, v, ub, vb),
                None => continue,
            };
            if cost < best.0 {
                best = (cost, ub, vb);
            }
        }
    }
    let (cost, ub, vb) = best;
    if !cost.is_finite() {
        return None;
    }
    // a minimum on the search border is not a minimum
    if (ub - gu).abs() == SEARCH || (vb - gv).abs() == SEARCH {
        return None;
    }
    let parabola = |l: f32, c: f32, r: f32| {
        let denom = l - 2.0 * c + r;
        if denom.abs() < 1e-6 {
            0.0
        } else {
            (0.5 * (l - r) / denom).clamp(-0.5, 0.5)
        }
    };
    let fu = parabola(
        ssd(a, b, u, v, ub - 1, vb),
        cost,
        ssd(a, b, u, v, ub + 1, vb),
    );
    let fv = parabola(
        ssd(a, b, u, v, ub, vb - 1),
        cost,
        ssd(a, b, u, v, ub, vb + 1),
    );
    Some((ub as f32 + fu, vb as f32 + fv))
}

#[cfg(test)]
mod surround_tests {
    use face_engine::geometry::BoundingBox;
    use image::RgbImage;

    use super::FacePatch;
    use crate::motion::homography::Homography;
    use crate::motion::surround::{SurroundMotion, classify};

    /// The surround classification on captured patches (kept here: the patches are this
    /// module's), on a textured frame whose face box is 200..320 × 160..280.
    fn frame(face_shift: u32, room_shift: u32) -> RgbImage {
        crate::motion::shifted_frame(200, 1, face_shift, room_shift)
    }

    fn ring_motion(face_shift: u32, room_shift: u32) -> SurroundMotion {
        let face_a = BoundingBox::from_corners(200.0, 160.0, 320.0, 280.0);
        let face_b = BoundingBox::from_corners(
            200.0 + face_shift as f32,
            160.0,
            320.0 + face_shift as f32,
            280.0,
        );
        let a = FacePatch::capture(&frame(0, 0), &face_a);
        let b = FacePatch::capture(&frame(face_shift, room_shift), &face_b);
        let moved = Homography([
            1.0,
            0.0,
            f64::from(face_shift),
            0.0,
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ]);
        classify(a.surround(), b.surround(), &moved)
    }

    #[test]
    fn surroundings_that_move_with_the_face_are_seen_as_one_picture() {
        let m = ring_motion(8, 8);
        assert!(m.with_face >= 20 && m.stayed == 0, "{m:?}");
    }

    #[test]
    fn a_room_that_stays_while_the_face_moves_is_seen_as_staying() {
        let m = ring_motion(8, 0);
        assert!(m.stayed >= 20 && m.with_face <= 2, "{m:?}");
    }

    #[test]
    fn a_face_that_barely_moves_decides_nothing() {
        let m = ring_motion(1, 0);
        assert_eq!(m, SurroundMotion::default());
    }
}

#[cfg(test)]
mod pairing_tests {
    use face_engine::geometry::{BoundingBox, Point};
    use image::{Rgb, RgbImage};

    use super::{FacePatch, ParallaxTracker};

    /// Which of the faces pushed at `times_ms` were measured against an earlier one.
    fn measured_at(times_ms: &[u64]) -> Vec<bool> {
        let frame = RgbImage::from_fn(640, 480, |x, y| {
            let v = ((x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 251) as u8;
            Rgb([v, v, v])
        });
        let face = BoundingBox::from_corners(200.0, 160.0, 320.0, 280.0);
        let rigid = [
            Point::new(230.0, 200.0),
            Point::new(290.0, 200.0),
            Point::new(260.0, 240.0),
            Point::new(240.0, 265.0),
            Point::new(280.0, 265.0),
        ];
        let mut tracker = ParallaxTracker::default();
        times_ms
            .iter()
            .map(|&t| {
                tracker
                    .push(FacePatch::capture(&frame, &face), &rigid, 60.0, t)
                    .is_some()
            })
            .collect()
    }

    #[test]
    fn at_the_analysis_rate_a_pair_spans_three_analysed_faces() {
        let times: Vec<u64> = (0..7).map(|k| 133 * k).collect();
        assert_eq!(
            measured_at(&times),
            [false, false, false, true, true, true, true]
        );
    }

    #[test]
    fn on_a_loaded_server_a_pair_spans_the_previous_analysed_face() {
        let times: Vec<u64> = (0..4).map(|k| 700 * k).collect();
        assert_eq!(measured_at(&times), [false, true, true, true]);
    }

    #[test]
    fn no_face_starts_two_pairs() {
        // 0 pairs with 400; 450 finds no unused face 300 ms older; 800 pairs with 450
        assert_eq!(measured_at(&[0, 400, 450, 800]), [false, true, false, true]);
    }
}
