//! Layer 5, motion: a real head is 3-D, so when it moves, its surface shifts with parallax
//! between frames; a photo, printed or on a screen, moved in front of the camera is a plane
//! and its pixels move by a homography, whatever the hand does.
//!
//! Landmarks cannot measure this (the mesh network draws a 3-D face even on a tilted photo),
//! so the session tracks textured face pixels between frames at least 300 ms apart by
//! capture time (`motion/parallax.rs`) and fits a homography to the tracks. The residual no plane
//! explains (*off-plane*, in eye spans) is matching noise for a photo and noise plus parallax,
//! expression and shading change for a face.
//!
//! The face's surroundings give a second, independent test (`motion/surround.rs`): a photo carries
//! its surroundings with it, so ring blocks around the face move with the face's plane; around
//! a live head the room stays put (or, when the camera moves, the head still moves on its own
//! now and then). Measured share of decisive ring blocks that moved with the face: live
//! footage 0.00–0.73 in the first evaluation set (highest: a wobbling laptop camera and a
//! talking head on a flat blue screen), perspective-warped photos 0.94–1.00 (docs/accuracy.md);
//! but a head swaying before a still camera carries its hair and shoulders with it (0.53 and
//! 0.82 on two runs of one person in Chromium), as much as a bent sheet carries its paper (0.79).
//!
//! Planarity is judged against how much the face changed shape, never by one fixed residual:
//! over the pairs whose tracked points changed shape by at least [`MOVING_PAIR`] eye spans,
//! the median share of that change that no plane explains (*off-plane share*: off-plane ÷
//! shape change). A tilted or waved photo changes shape a lot, and a homography explains
//! nearly all of it; a turning head's change is parallax, which no homography explains.
//!
//! Score: 0.4 + 0.6 × the off-plane share rescaled ([`PLANAR_SHARE`] → 0, [`DEPTH_SHARE`] → 1).
//! Attack: off-plane share below [`PLANAR_SHARE`] over at least [`MIN_MOVING_PAIRS`] moving
//! pairs, and so over those of them spanning at most [`PLANAR_PAIR_SPAN_MS`] (an overloaded
//! server's pairs span more, and across that a live head can measure planar: no evidence).
//! Surroundings moving with the face (share at least [`SURROUND_ATTACK`] over at least
//! [`MIN_SURROUND_PAIRS`] pairs) were attack evidence until issue 29; a hand-held
//! camera does the same to a live face, so now they only withhold the layer's evidence, and
//! only while the far room, the frame's outer band, is seen to stay (`motion/room.rs`): when the room
//! moves too, the camera moved, and the screen's light decides.
//! No evidence: fewer than [`MIN_MOVING_PAIRS`] moving pairs, or pixels tracked in fewer than
//! [`MIN_TRACKED_SHARE`] of the faces (tracking noise is not depth), or a face that swayed at
//! least [`SWAY_WEIGHED`] eye spans with a median off-plane residual under
//! [`MIN_OFF_PLANE_PER_SWAY`] per eye span of sway: a change of viewpoint that large shifts a
//! head's nose against its contour, so depth claimed by a few noisy pairs is not believed (a
//! waved photo does this; so might a phone camera panning round a still head, so it is not
//! attack evidence either), unless at least [`MANY_MOVING_PAIRS`] moving pairs show a clearly
//! 3-D share: a head swaying sideways barely changes the viewpoint. A bent sheet is no plane
//! either, so before a still room with at least [`SHEET_RING_SHARE`] of the ring moving with
//! the face, that exception also needs the light to read a curved face. A still head and a
//! still photo look alike; too little motion is an absence of evidence, so the session asks
//! the user to turn their head slightly and, without motion, ends in `retry`, never in `fail`.
//! Cannot catch a 3-D mask (it has real depth) or a digital injection of real footage (layers
//! 1 and 3 are for that). The surround test cannot catch a photo cut to the face's outline
//! and held in front of a real room (the room around it stays put), and it would wrongly see a
//! flat scene in a camera that moves while the head stays perfectly still for the whole hold,
//! or in head, hair and shoulders swaying as one block in front of a textureless wall.

mod summary;

pub use summary::*;

use domain::ReasonCode;

use super::{Evidence, Layer, LayerScore, SessionEvidence, ramp};
use crate::config::SessionMode;
use crate::illumination::reading::{LightFinding, LightReading};

/// Share of the decisive ring blocks moving with the face from which, before a room seen to
/// stay, depth shown by many moving pairs alone ([`MotionSummary::depth_only_from_many_pairs`])
/// also needs the light to read a curved face ([`LightReading::reads_curved_face`]).
pub const SHEET_RING_SHARE: f32 = 0.5;

/// The layer's score when motion could not judge depth but the light check saw a near,
/// curved face: above fusion's doubt line, below a clear 3-D motion's.
pub const NEUTRAL_WITH_LIGHT: f32 = 0.7;

/// The layer's score for motion that showed depth at the planar bar, rising to 1 at
/// [`DEPTH_SHARE`] (set by hand with the engine, 54c157f: measured depth never puts the
/// layer in doubt).
const MEASURED_FLOOR: f32 = 0.4;

/// The layer over `frames`, with the light check's `light` reading (none when it is off).
/// When the light followed this session's sequence on a near face, a face that moved too
/// little to judge (a still person) is not held against the session: the layer scores
/// [`NEUTRAL_WITH_LIGHT`]. So is a face that swayed without parallax, or whose surroundings
/// moved with it, when the camera itself moved or the room is too plain to tell (a hand-held
/// phone: `motion/room.rs`). Only where the room was seen to stay ([`MotionSummary::room_stayed`]: a
/// camera standing still, so a photo card moved before it) is such a face let go just when the
/// light confirmed a curved face ([`LightReading::confirms_depth`]); in weaker light it keeps
/// the session from passing (`retry`). The light stands in for the motion only when the face
/// answered it alone ([`LightReading::answered_alone`]): a sheet of paper that fills the
/// frame's border answers with the face, and a loose-crop print held as a bent sheet passed so
/// before a plain room (issue 39's leave-one-family-out report). Where the depth rests on many
/// moving pairs alone ([`MotionSummary::depth_only_from_many_pairs`]) before a room seen to
/// stay, with at least [`SHEET_RING_SHARE`] of the ring moving with the face, the light must
/// read a curved face ([`LightReading::reads_curved_face`]), or the layer has no evidence: a
/// bent sheet waved before a still camera passed so at a screen-to-ambient ratio of 0.05 and
/// 0.1.
///
/// In active mode (`challenged`) the light's answer is enough on its own: a photo moved about
/// cannot perform the random challenges.
pub fn score(evidence: &SessionEvidence) -> LayerScore {
    let m = summarise(evidence.frames);
    judge(&m, evidence.light, evidence.mode == SessionMode::Active).with_features(features(&m))
}

/// What the layer exports for the fitted decision, in this order: the share of moving pairs
/// off the face's plane (over all, and over short spans), how many pairs moved, the median
/// off-plane distance, the sway, a blink (0/1), the share of the ring blocks moving with the
/// face, and the share of pairs in which the room moved.
pub const FEATURES: [&str; 8] = [
    "off_plane_share",
    "short_off_plane_share",
    "moving_pairs",
    "median_off_plane",
    "sway",
    "blinked",
    "ring_with_face_share",
    "room_moved_share",
];

fn features(m: &MotionSummary) -> [f32; FEATURES.len()] {
    [
        m.off_plane_share,
        m.short_off_plane_share,
        m.moving_pairs as f32,
        m.off_plane,
        m.sway,
        f32::from(u8::from(m.blinked)),
        m.surround_share(),
        m.room_moved_share(),
    ]
}

/// [`score`] of the measured motion `m`.
fn judge(m: &MotionSummary, light: Option<&LightReading>, challenged: bool) -> LayerScore {
    let light_follows =
        light.is_some_and(|l| l.finding == LightFinding::Follows && l.answered_alone());
    // a camera standing still, so a face carrying its surroundings is a card moved before it
    let still_camera = !challenged && m.room_stayed();
    let moved_as_a_picture =
        still_camera && (m.surroundings_move_with_face() || m.sway_without_parallax());
    let light_measured =
        light_follows && (!moved_as_a_picture || light.is_some_and(LightReading::confirms_depth));
    let swayed_as_a_sheet = still_camera
        && m.depth_only_from_many_pairs()
        && m.surround_share() >= SHEET_RING_SHARE
        && !light.is_some_and(LightReading::reads_curved_face);
    let reason = format!(
        "off-plane share {:.3} over {} moving pairs ({:.3} over the {} spanning at most {} ms) of {} tracked in {} faces (median off-plane {:.4} eye spans), sway {:.3} eye spans, blink {}; surroundings moved with the face in {:.2} of ring blocks ({} with, {} stayed, {} pairs); room moved in {} of {} pairs",
        m.off_plane_share,
        m.moving_pairs,
        m.short_off_plane_share,
        m.short_moving_pairs,
        PLANAR_PAIR_SPAN_MS,
        m.pairs,
        m.faces,
        m.off_plane,
        m.sway,
        m.blinked,
        m.surround_share(),
        m.surround_with_face,
        m.surround_stayed,
        m.surround_pairs,
        m.room_moved_pairs,
        m.room_pairs
    );
    match m.evidence() {
        // planar motion is geometry, but a phone moved round a still head shows little
        // parallax too: another layer's live evidence disputes it
        Evidence::Attack => {
            LayerScore::disputable_attack(Layer::Motion, ReasonCode::PrintSuspected, reason)
        }
        Evidence::Measured if swayed_as_a_sheet => LayerScore::no_evidence(
            Layer::Motion,
            ReasonCode::TooLittleMotion,
            format!(
                "{reason}; the depth rests on many moving pairs alone while the ring moved with the face before a still room, and the light did not read a curved face"
            ),
        ),
        Evidence::None if light_measured => LayerScore::new(
            Layer::Motion,
            NEUTRAL_WITH_LIGHT,
            format!("{reason}; no depth from motion, the screen's light saw a near curved face"),
        ),
        Evidence::None => {
            LayerScore::no_evidence(Layer::Motion, ReasonCode::TooLittleMotion, reason)
        }
        Evidence::Measured => LayerScore::new(
            Layer::Motion,
            MEASURED_FLOOR
                + (1.0 - MEASURED_FLOOR) * ramp(m.off_plane_share, PLANAR_SHARE, DEPTH_SHARE),
            reason,
        )
        .vouching_live(m.off_plane_share >= DEPTH_SHARE),
    }
}

#[cfg(test)]
mod tests;
