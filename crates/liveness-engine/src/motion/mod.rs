//! The motion measures behind the motion layer (`layers::motion`), in one place:
//!
//! - [`patch`]: grey patches cut from a frame and the block-matching primitives every measure
//!   shares, with the one textured-block test ([`patch::textured_blocks`]) and the one
//!   decisive-match rule ([`patch::decisive`]).
//! - [`homography`]: plane-to-plane fits and their residuals.
//! - [`parallax`]: the face's pixels tracked between two frames and tested for one plane; the
//!   pair's tracker (pairs by capture time, [`parallax::PAIR_SPAN_MS`]).
//! - [`surround`]: whether the ring around the face moved with the face's plane or stayed.
//! - [`room`]: whether the far room moved (the camera moved) or stayed.

pub mod homography;
pub mod parallax;
pub mod patch;
pub mod room;
pub mod surround;

/// A textured 640×480 grey frame whose face box (`face_left`..`face_left` + 120, 160..280)
/// content is shifted by `face_shift` and the rest by `room_shift` pixels to the right; the
/// texture's cells are `cell` pixels wide. The motion measures' tests film it.
#[cfg(test)]
pub(crate) fn shifted_frame(
    face_left: u32,
    cell: u32,
    face_shift: u32,
    room_shift: u32,
) -> image::RgbImage {
    let texture = |x: u32, y: u32| {
        let (cx, cy) = (x / cell, y / cell);
        ((cx.wrapping_mul(73_856_093) ^ cy.wrapping_mul(19_349_663)) % 251) as u8
    };
    image::RgbImage::from_fn(640, 480, |x, y| {
        let in_face = (face_left + face_shift..face_left + 120 + face_shift).contains(&x)
            && (160..280).contains(&y);
        let shift = if in_face { face_shift } else { room_shift };
        let v = texture(x.wrapping_sub(shift), y);
        image::Rgb([v, v, v])
    })
}
