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
