//! Whether the camera itself moved: the far room, the frame outside the face's surroundings,
//! shifting between the two frames of a pair. A phone held in the hand moves the whole view,
//! face and room alike; a photo card moved before a camera that stands still moves its own
//! surroundings with the face, but the room beyond the card stays where it is. So the
//! motion layer's "the face carries its surroundings" and "sway without parallax" say
//! *card* only while the room stays; when the room moves, the camera moved, and they say
//! nothing (issue 29).
//!
//! Textured blocks of a coarse grey copy of the whole frame, in its outer band and away from
//! the face, are searched for in the second frame within ±[`ROOM_SEARCH`] patch pixels. A block
//! whose best match lies at least [`MIN_SHIFT`] pixels away and clearly beats the same place
//! *moved*; one whose best match is the same place (±1 px) *stayed*; the rest abstain (flat
//! walls, the holder's body, occlusions).

use face_engine::geometry::{BoundingBox, Point};
use image::RgbImage;

use super::patch::{BLOCK, GreyPatch, decisive, ssd, ssd_row, textured_blocks};

/// Side of the coarse copy of the frame: a square around the frame's centre, a fifth wider
/// than the frame's longer side, so blocks at the frame's very edge can be searched for (the
/// padding repeats the edge and matches nothing that moved).
pub const ROOM_SIDE: usize = 96;
/// The frame's longer side over the coarse copy's side.
const ROOM_SPAN: f32 = 1.0 / 1.2;
/// The room is the frame's outer band: blocks centred within this share of the frame's
/// shorter side from an edge. A card held before the camera rarely reaches it all round; the
/// room behind it does.
pub const BAND: f32 = 0.16;
/// Blocks within this many face-box sides of the face's centre (both ways) are the face, its
/// hair and shoulders, not the room.
const FACE_REACH: f32 = 0.9;
/// Search reach in patch pixels (±40 image pixels on a 640-pixel-wide frame). A larger shift
/// finds its minimum at the edge of the search, which still clearly beats staying.
pub const ROOM_SEARCH: i32 = 6;
/// Shift (patch pixels) from which a block moved.
pub const MIN_SHIFT: i32 = 2;
/// Spacing of the candidate block centres, in patch pixels.
const GRID_STEP: usize = 3;
/// The most textured candidates tested per pair.
const ROOM_BLOCKS: usize = 40;

/// The decisive room blocks of one frame pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoomMotion {
    /// Blocks that shifted: the camera moved (or something large moved across the room).
    pub moved: u16,
    /// Blocks found where they were.
    pub stayed: u16,
}

impl RoomMotion {
    /// Decisive blocks.
    pub fn decisive(&self) -> u16 {
        self.moved + self.stayed
    }
}

/// The coarse grey copy of a whole frame, with the face's square to leave out.
#[derive(Debug, Clone)]
pub struct RoomPatch {
    patch: GreyPatch,
    /// The face's square in image pixels: centre and half-size.
    face_square: (Point, f32),
    /// Width of the frame's outer band in image pixels.
    band: f32,
    frame: (f32, f32),
}

impl RoomPatch {
    pub fn capture(img: &RgbImage, bbox: &BoundingBox) -> Self {
        let (w, h) = (img.width() as f32, img.height() as f32);
        Self {
            patch: GreyPatch::capture(
                img,
                Point::new(w / 2.0, h / 2.0),
                w.max(h) / 2.0 / ROOM_SPAN,
                ROOM_SIDE,
            ),
            face_square: (bbox.center(), FACE_REACH * bbox.width.max(bbox.height)),
            band: BAND * w.min(h),
            frame: (w, h),
        }
    }

    /// Whether the image point lies in the frame's outer band.
    fn in_band(&self, p: Point) -> bool {
        let (w, h) = self.frame;
        p.x.min(w - p.x).min(p.y).min(h - p.y) < self.band
    }

    /// Whether the image point lies inside the face's surround square.
    fn near_face(&self, p: Point) -> bool {
        let (c, half) = self.face_square;
        let scale = self.patch.to_image(1.0, 0.0).x - self.patch.to_image(0.0, 0.0).x;
        // a block reaches BLOCK patch pixels around its centre
        let reach = half + (BLOCK as f32 + 1.0) * scale;
        (p.x - c.x).abs() < reach && (p.y - c.y).abs() < reach
    }
}

/// Classifies the textured room blocks of `a` (away from both frames' faces) by where they
/// are found in `b`.
pub fn classify(a: &RoomPatch, b: &RoomPatch) -> RoomMotion {
    let (pa, pb) = (&a.patch, &b.patch);
    let margin = BLOCK + ROOM_SEARCH + 1;
    let blocks = textured_blocks(
        pa,
        (margin, pa.side() - margin),
        GRID_STEP,
        ROOM_BLOCKS,
        |u, v| {
            let here = pa.to_image(u as f32, v as f32);
            a.in_band(here) && !a.near_face(here) && !b.near_face(here) && pa.block_in_image(u, v)
        },
    );
    let mut motion = RoomMotion::default();
    for (u, v) in blocks {
        let Some((cost, du, dv)) = best_shift(pa, pb, u, v) else {
            continue;
        };
        let stay = (-1..=1)
            .flat_map(|dv| (-1..=1).map(move |du| (du, dv)))
            .map(|(du, dv)| ssd(pa, pb, u, v, u + du, v + dv))
            .fold(f32::INFINITY, f32::min);
        let shift = du.abs().max(dv.abs());
        if shift >= MIN_SHIFT && decisive(cost, stay) {
            motion.moved += 1;
        } else if shift <= 1 {
            motion.stayed += 1;
        }
    }
    motion
}

/// The best match of block (u, v) of `a` within ±[`ROOM_SEARCH`] in `b`: cost and shift.
fn best_shift(a: &GreyPatch, b: &GreyPatch, u: i32, v: i32) -> Option<(f32, i32, i32)> {
    let mut best: Option<(f32, i32, i32)> = None;
    for dv in -ROOM_SEARCH..=ROOM_SEARCH {
        let row =
            ssd_row::<{ 2 * ROOM_SEARCH as usize + 1 }>(a, b, (u, v), u - ROOM_SEARCH, v + dv)?;
        for (k, &cost) in row.iter().enumerate() {
            let du = k as i32 - ROOM_SEARCH;
            // ties go to the smaller shift
            let closer = |(c, bu, bv): (f32, i32, i32)| {
                cost < c || (cost == c && du.abs().max(dv.abs()) < bu.abs().max(bv.abs()))
            };
            if best.is_none_or(closer) {
                best = Some((cost, du, dv));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A textured frame whose face box is 260..380 × 160..280, in 8-pixel cells (smooth enough
    /// to survive the coarse copy).
    fn frame(face_shift: u32, room_shift: u32) -> RgbImage {
        crate::motion::shifted_frame(260, 8, face_shift, room_shift)
    }

    fn room_motion(face_shift: u32, room_shift: u32) -> RoomMotion {
        let face = BoundingBox::from_corners(260.0, 160.0, 380.0, 280.0);
        let a = RoomPatch::capture(&frame(0, 0), &face);
        let b = RoomPatch::capture(&frame(face_shift, room_shift), &face);
        classify(&a, &b)
    }

    #[test]
    fn a_camera_that_moves_shifts_the_room() {
        let m = room_motion(24, 24);
        assert!(m.moved >= 10 && m.stayed <= 1, "{m:?}");
    }

    #[test]
    fn a_room_that_stays_while_the_face_moves_is_seen_as_staying() {
        let m = room_motion(24, 0);
        assert!(m.stayed >= 10 && m.moved == 0, "{m:?}");
    }
}
