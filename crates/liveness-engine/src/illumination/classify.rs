//! The light check's judgement on numbers (issue 66): `reading` measures a session
//! ([`LightMeasures`]), [`classify`] turns the measurements into a finding with the cut-offs of
//! `cutoffs`, and [`trust`] decides whether the frames behind an attack finding can carry it
//! (kept up with, stamped by the camera, measured against a room or with the camera held).
//! Both are pure, so their tests run on synthetic numbers.

use super::cutoffs::{
    ADDED_LIGHT_SPREAD, DECISIVE_RELIEF_ERROR, FLAT_SURROUND, FOLLOW_CORRELATION, GLARE_MARK,
    GLARE_SURROUND, MAX_UNEXPLAINED_SWING, MIN_GAIN, MIN_RELIEF, OTHER_CORRELATION, PAPER_MARGIN,
    STRONG_SWING,
};
use super::finding::{LightFinding, LightReading};
use crate::evidence::Evidence;

/// What the light check measured over a session at the delay it found, before any judgement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightMeasures {
    /// The face was measured against the room in the same frame (global gains cancel).
    pub against_room: bool,
    /// Frames inside the sequence at the best start, and that start (session clock).
    pub frames: usize,
    pub offset_ms: u64,
    /// The best correlation with the sequence, and what random sequences reach (1e-3).
    pub correlation: f32,
    pub chance: f32,
    /// The face's gain, and the surround's and the light added on the surround over the face's.
    pub face_gain: f32,
    pub surround_ratio: f32,
    pub glare_ratio: f32,
    /// 1 − rim gain ÷ centre gain, and its standard error.
    pub relief: f32,
    pub relief_error: f32,
    /// The darker half's gain over the brighter's, less 1, and its standard error.
    pub added: f32,
    pub added_error: f32,
    /// The paper margin's gain over the face's and its error; `margin_judged` when enough of
    /// it was in view against a room.
    pub margin_ratio: f32,
    pub margin_error: f32,
    pub margin_judged: bool,
    /// The outline ring's gain over the face's and its error; `outline_judged` when enough of
    /// it was in view against a room (a feature of the fitted decision, no rule reads it).
    pub outline_ratio: f32,
    pub outline_error: f32,
    pub outline_judged: bool,
    /// RMS swing of the face's colour, and whether the room swung at most half as much.
    pub swing: f32,
    pub face_alone: bool,
    /// The frames were analysed densely enough to trust their timing.
    pub kept_up: bool,
    /// Most frames were stamped by their arrival, not by the camera.
    pub arrival_timed: bool,
    /// Most lit frames claimed a camera holding its exposure and white balance.
    pub camera_locked: bool,
}

impl LightMeasures {
    /// The face's answer beat chance, at the follow bar, with a gain of its own.
    pub fn follows(&self) -> bool {
        self.correlation >= FOLLOW_CORRELATION
            && self.correlation > self.chance
            && self.face_gain >= MIN_GAIN
    }

    /// The swing this session's sequence leaves unexplained.
    fn unexplained_swing(&self) -> f32 {
        self.swing * (1.0 - self.correlation.clamp(-1.0, 1.0).powi(2)).sqrt()
    }

    /// The reading these measurements give with `finding`.
    pub fn reading(&self, finding: LightFinding) -> LightReading {
        let judged = |value: f32, judged: bool| if judged { value } else { f32::NAN };
        LightReading {
            finding,
            frames: self.frames,
            offset_ms: self.offset_ms,
            correlation: self.correlation,
            chance_correlation: self.chance,
            against_room: self.against_room,
            face_gain: self.face_gain,
            margin_ratio: judged(self.margin_ratio, self.margin_judged),
            margin_error: judged(self.margin_error, self.margin_judged),
            outline_ratio: judged(self.outline_ratio, self.outline_judged),
            outline_error: judged(self.outline_error, self.outline_judged),
            surround_ratio: judged(self.surround_ratio, self.against_room),
            glare_ratio: self.glare_ratio,
            darker_over_brighter: 1.0 + self.added,
            relief: self.relief,
            relief_error: self.relief_error,
            swing: self.swing,
        }
    }
}

/// The finding the measurements show. `one_surface` is asked only for a face that did not
/// follow against a room: whether face and room, each read on its own, followed the sequence
/// alike (a second delay search, so it is left until needed).
pub fn classify(m: &LightMeasures, one_surface: impl FnOnce() -> bool) -> LightFinding {
    if !m.follows() {
        // beating chance replaces the old bound on the swing left unexplained, which failed a
        // live face answering a strong light (swing 0.40 at a correlation of 0.96 leaves 0.11)
        let other = m.swing >= STRONG_SWING
            && m.face_alone
            && m.correlation <= m.chance
            && (m.correlation < OTHER_CORRELATION
                || m.unexplained_swing() >= MAX_UNEXPLAINED_SWING);
        return if other {
            LightFinding::OtherSequence
        } else if m.against_room && one_surface() {
            LightFinding::Uniform
        } else {
            LightFinding::TooLittleLight
        };
    }
    let darker_over_brighter = 1.0 + m.added;
    if m.against_room
        && (m.surround_ratio >= FLAT_SURROUND
            || (m.glare_ratio >= GLARE_SURROUND && darker_over_brighter >= GLARE_MARK))
    {
        LightFinding::Uniform
    } else if m.added >= ADDED_LIGHT_SPREAD - 1.0
        && darker_over_brighter - 2.0 * m.added_error >= GLARE_MARK
    {
        LightFinding::Glare
    } else if (m.margin_judged && m.margin_ratio - 2.0 * m.margin_error >= PAPER_MARGIN)
        || (m.relief_error <= DECISIVE_RELIEF_ERROR && m.relief < MIN_RELIEF)
    {
        // the paper around the face answered like it, or the face answered evenly
        LightFinding::Flat
    } else {
        LightFinding::Follows
    }
}

/// The finding the session's frames can carry: an attack finding rests on frames analysed
/// densely enough to trust their timing (the frames an overloaded server set aside help a live
/// face follow, never make an attack); another sequence's answer on frames stamped by the
/// camera; a camera-dependent finding without a room in view on a camera said to be held.
pub fn trust(finding: LightFinding, m: &LightMeasures) -> LightFinding {
    if finding.evidence() == Evidence::Attack && !m.kept_up {
        LightFinding::TooFewFrames
    } else if finding == LightFinding::OtherSequence && m.arrival_timed {
        LightFinding::Unaligned
    } else if finding.camera_dependent() && !m.against_room && !m.camera_locked {
        LightFinding::NoRoom
    } else {
        finding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A near curved face before a room in a moderate light, kept up with.
    fn live() -> LightMeasures {
        LightMeasures {
            against_room: true,
            frames: 60,
            offset_ms: 120,
            correlation: 0.9,
            chance: 0.75,
            face_gain: 0.08,
            surround_ratio: 0.1,
            glare_ratio: 0.2,
            relief: 0.25,
            relief_error: 0.05,
            added: 0.0,
            added_error: 0.05,
            margin_ratio: 0.2,
            margin_error: 0.1,
            margin_judged: true,
            outline_ratio: 0.2,
            outline_error: 0.1,
            outline_judged: true,
            swing: 0.1,
            face_alone: true,
            kept_up: true,
            arrival_timed: false,
            camera_locked: false,
        }
    }

    fn judged(m: &LightMeasures) -> LightFinding {
        trust(classify(m, || false), m)
    }

    #[test]
    fn a_curved_face_follows_and_each_attack_has_its_mark() {
        assert_eq!(judged(&live()), LightFinding::Follows);
        let sheet = LightMeasures {
            margin_ratio: 0.95,
            ..live()
        };
        assert_eq!(judged(&sheet), LightFinding::Flat);
        let even = LightMeasures {
            relief: 0.02,
            ..live()
        };
        assert_eq!(judged(&even), LightFinding::Flat);
        let tinted = LightMeasures {
            surround_ratio: 0.9,
            ..live()
        };
        assert_eq!(judged(&tinted), LightFinding::Uniform);
        let glass = LightMeasures {
            added: 0.8,
            ..live()
        };
        assert_eq!(judged(&glass), LightFinding::Glare);
    }

    #[test]
    fn weak_light_holds_nothing_against_a_face() {
        // relief and margin too noisy to tell flat from curved
        let dim = LightMeasures {
            relief: 0.02,
            relief_error: 0.25,
            margin_ratio: 0.95,
            margin_error: 0.3,
            ..live()
        };
        assert_eq!(judged(&dim), LightFinding::Follows);
        let drowned = LightMeasures {
            correlation: 0.4,
            swing: 0.02,
            ..live()
        };
        assert_eq!(judged(&drowned), LightFinding::TooLittleLight);
        // the second search is asked only for a face that did not follow against a room
        assert_eq!(
            trust(classify(&drowned, || true), &drowned),
            LightFinding::Uniform
        );
        let mut asked = false;
        classify(&live(), || {
            asked = true;
            true
        });
        assert!(!asked);
    }

    #[test]
    fn another_sequence_needs_a_clear_swing_of_its_own_and_camera_stamps() {
        let other = LightMeasures {
            correlation: 0.2,
            swing: 0.12,
            ..live()
        };
        assert_eq!(judged(&other), LightFinding::OtherSequence);
        let stamped_on_arrival = LightMeasures {
            arrival_timed: true,
            ..other
        };
        assert_eq!(judged(&stamped_on_arrival), LightFinding::Unaligned);
        let behind = LightMeasures {
            kept_up: false,
            ..other
        };
        assert_eq!(judged(&behind), LightFinding::TooFewFrames);
    }

    #[test]
    fn without_a_room_only_a_held_camera_makes_a_flat_finding() {
        let close = LightMeasures {
            against_room: false,
            margin_judged: false,
            relief: 0.02,
            ..live()
        };
        assert_eq!(judged(&close), LightFinding::NoRoom);
        let held = LightMeasures {
            camera_locked: true,
            ..close
        };
        assert_eq!(judged(&held), LightFinding::Flat);
    }
}
