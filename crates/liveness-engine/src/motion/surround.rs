//! Whether the face's surroundings move with it as one plane. A photo held to the camera
//! carries its own surroundings (hair, shoulders, the room it was taken in, its border): when
//! the photo moves, all of it moves by the face's homography. A live head moves against a
//! room that stays where it is, and the hair, ears and shoulders around a real face sit off
//! the face's plane, so when the head moves they follow no single plane with it.
//!
//! Textured blocks of a ring around the face (outside the face square, inside a square twice
//! its size) are tested against two hypotheses between two frames: *moved with the face*
//! (the face's homography) or *stayed* (the same image place). Only blocks whose two
//! predictions lie far enough apart to be told apart count, and only when one hypothesis
//! matches clearly better than the other (noise, flat walls and occluded blocks abstain).

use face_engine::geometry::Point;

use super::homography::Homography;
use super::patch::{FACE_HALF, GreyPatch, decisive, ssd, textured_blocks};

/// Side of the surround patch in patch pixels.
pub const SURROUND_SIDE: usize = 256;
/// Half-size of the surround square, in face-box sides (twice the face square's).
pub const SURROUND_HALF: f32 = 2.0 * FACE_HALF;
/// The face square's share of the surround square's half-size.
const INNER: f32 = FACE_HALF / SURROUND_HALF;
/// Spacing of the candidate block centres, in patch pixels.
const GRID_STEP: usize = 5;
/// The most textured candidates tested per pair.
const RING_POINTS: usize = 80;
/// Predictions closer than this (patch pixels) cannot be told apart by a ±1 px search.
const MIN_SEPARATION: f32 = 3.0;

/// The decisive ring blocks of one frame pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SurroundMotion {
    /// Blocks that moved with the face's plane.
    pub with_face: u16,
    /// Blocks that stayed where they were while the face moved.
    pub stayed: u16,
}

/// Classifies the textured ring blocks of `a` by where they are found in `b`; `face_motion`
/// maps image points of frame `a` to frame `b` as the face's plane moved.
pub fn classify(a: &GreyPatch, b: &GreyPatch, face_motion: &Homography) -> SurroundMotion {
    let side = a.side();
    let centre = side as f32 / 2.0;
    let inner = INNER * centre;
    let blocks = textured_blocks(a, (0, side), GRID_STEP, RING_POINTS, |u, v| {
        let off_centre = (u as f32 - centre).abs().max((v as f32 - centre).abs());
        off_centre > inner && a.holds_block(u, v) && a.block_in_image(u, v)
    });
    let mut motion = SurroundMotion::default();
    for (u, v) in blocks {
        let here = a.to_image(u as f32, v as f32);
        let with_face = b.to_patch(face_motion.apply(here));
        let stayed = b.to_patch(here);
        let separation =
            Point::new(with_face.0, with_face.1).distance(Point::new(stayed.0, stayed.1));
        if separation < MIN_SEPARATION {
            continue;
        }
        let (Some(cost_face), Some(cost_stay)) = (
            best_near(a, b, u, v, with_face),
            best_near(a, b, u, v, stayed),
        ) else {
            continue;
        };
        if decisive(cost_face, cost_stay) {
            motion.with_face += 1;
        } else if decisive(cost_stay, cost_face) {
            motion.stayed += 1;
        }
    }
    motion
}

/// Lowest block difference within ±1 px of `guess`; `None` when the block leaves the patch.
fn best_near(a: &GreyPatch, b: &GreyPatch, u: i32, v: i32, guess: (f32, f32)) -> Option<f32> {
    let (gu, gv) = (guess.0.round() as i32, guess.1.round() as i32);
    let mut best: Option<f32> = None;
    for dv in -1..=1 {
        for du in -1..=1 {
            if !b.holds_block(gu + du, gv + dv) || !b.block_in_image(gu + du, gv + dv) {
                return None;
            }
            let cost = ssd(a, b, u, v, gu + du, gv + dv);
            best = Some(best.map_or(cost, |c: f32| c.min(cost)));
        }
    }
    best
}
