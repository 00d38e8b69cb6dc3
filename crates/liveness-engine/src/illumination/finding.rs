//! What the light check concludes: the finding (and its reason code and weight as evidence)
//! and the measured answer behind it.

use super::cutoffs::{GLARE_MARK, MIN_RELIEF, NEAR_SURROUND, PAPER_MARGIN};
use crate::evidence::Evidence;

/// What the light check found, for the verdict's reasons and the guidance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LightFinding {
    /// The face followed the sequence as a near, curved surface.
    Follows,
    /// The face and the room answered alike: a flat picture, a tinted stream or a glare.
    Uniform,
    /// The face followed the sequence evenly, like a flat surface.
    Flat,
    /// The light was added on top of the face, not reflected by it: a glare on a screen.
    Glare,
    /// The face's colour changed, but not with this session's sequence.
    OtherSequence,
    /// Too little light reached the camera to judge.
    TooLittleLight,
    /// Too few frames while the colours were shown.
    TooFewFrames,
    /// The sequence was shown on an earlier connection of this session.
    NotShown,
    /// The face's colour changed, but not with this session's sequence within the delay
    /// searched, on frames timed by their arrival: the light may have come late over a slow
    /// network ([`MAX_ARRIVAL_TIMED_SHARE`](super::reading::MAX_ARRIVAL_TIMED_SHARE)).
    Unaligned,
    /// The face answered in a way that would be attack evidence, but the frame showed no room
    /// to measure it against and the camera was not said to hold its exposure and white
    /// balance: its own processing may have made the answer. No evidence; the user is asked
    /// to hold the phone farther.
    NoRoom,
}

impl LightFinding {
    /// The reason code of a finding that is not a live face's answer.
    pub fn reason(self) -> Option<domain::ReasonCode> {
        use domain::ReasonCode;
        match self {
            Self::Follows => None,
            Self::Uniform | Self::Flat => Some(ReasonCode::PrintSuspected),
            Self::Glare => Some(ReasonCode::ScreenReplaySuspected),
            Self::OtherSequence => Some(ReasonCode::InjectionSuspected),
            Self::TooLittleLight | Self::TooFewFrames | Self::NotShown | Self::Unaligned => {
                Some(ReasonCode::NoLightResponse)
            }
            Self::NoRoom => Some(ReasonCode::FaceTooClose),
        }
    }

    /// Whether this attack finding rests on how the camera rendered the light's strength
    /// across the face (its tone curve, noise and JPEG, a face held close): flat (relief,
    /// paper) and glare do, and without a room in view they need the camera held
    /// (`LightFinding::NoRoom`). Uniform does not: a white balance or exposure only pulls the
    /// room against the face, never with it; nor does another sequence's answer (no camera
    /// makes one up, though a room's light can: [`Self::disputable`]).
    pub fn camera_dependent(self) -> bool {
        match self {
            Self::Flat | Self::Glare => true,
            Self::Follows
            | Self::Uniform
            | Self::OtherSequence
            | Self::TooLittleLight
            | Self::TooFewFrames
            | Self::NotShown
            | Self::Unaligned
            | Self::NoRoom => false,
        }
    }

    /// Whether this attack finding is disputed by another layer's evidence of a live face
    /// (`crate::fusion`): the camera-dependent ones ([`Self::camera_dependent`]), and another
    /// sequence's answer. No camera makes that one up, but a room whose own light changes
    /// colour does: a streamer's coloured lamps swing a live face's colour strongly while the
    /// far room stays, and in a bright office (screen at 0.05 of the ambient) they outweigh
    /// the screen (issue 39: the face-swap pair 01's real half, under a webcam, was failed on
    /// it while the model and the motion layer both vouched for a live face). A recording
    /// answering another session's sequence then ends `retry` (`conflicting_evidence`) where
    /// those layers vouch for it, never `pass`.
    pub fn disputable(self) -> bool {
        self.camera_dependent() || self == Self::OtherSequence
    }

    pub fn evidence(self) -> Evidence {
        match self {
            Self::Follows => Evidence::Measured,
            Self::Uniform | Self::Flat | Self::Glare | Self::OtherSequence => Evidence::Attack,
            Self::TooLittleLight
            | Self::TooFewFrames
            | Self::NotShown
            | Self::Unaligned
            | Self::NoRoom => Evidence::None,
        }
    }
}

/// How far the outline ring's evidence of paper reaches as an input of the fitted decision, in
/// standard errors above [`PAPER_MARGIN`] (issue 66): past three a reading is decisive, and
/// the exact distance would only stretch the input's scale and drown the sheets read in weak
/// light. Below the mark the evidence is 0, not negative: a ring that answered like a room
/// shows that no paper was trimmed round the face, not that a live head is there (a screen's
/// replay or an injected stream show the recorded room there too; read two-sided (±3), as
/// first fitted, a replay's −3 pulled it towards live, and replays passed held out on four
/// draws: docs/accuracy.md).
const OUTLINE_EVIDENCE_REACH: f32 = 3.0;
/// The outline ratios the fitted decision reads: a sheet's paper answers at 0.5–1.3 of the
/// face; beyond these bounds a ratio is the noise of a face that hardly answered (up to 470 on
/// an injected stream), and it would stretch the input's scale as the reach above would.
const OUTLINE_RATIO_BOUNDS: (f32, f32) = (-0.5, 1.5);

/// How far the light's evidence of having been added on top reaches as an input of the fitted
/// decision (issue 66): the darker half's gain over the brighter's from 1 (a reflection: both
/// halves' log chroma move alike) to 2, read as 0 to 1. Live faces measure 0.69–1.42 (the
/// development set, draws 1–2); the rules call a glare from `ADDED_LIGHT_SPREAD` (1.6), and
/// screen replays measure 1.48 and up. Past 2 a reading is decisive, and the tails of faces
/// that hardly answered (−133 to 603 over draws 1–6) would stretch the input's scale as the
/// outline's would. Below 1 it is 0, not negative: a darker half that answered less is no
/// evidence of life.
const ADDED_LIGHT_REACH: f32 = 2.0;

/// The measured answer to the light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightReading {
    pub finding: LightFinding,
    /// Frames inside the sequence at the best start.
    pub frames: usize,
    /// Best start of the sequence in the session's clock.
    pub offset_ms: u64,
    pub correlation: f32,
    /// The correlation random sequences of the same palette reach on the same face over the
    /// same delay search at a false-match rate of 1e-3 (`super::search`): the face follows
    /// only above it.
    pub chance_correlation: f32,
    /// Whether the face was measured against the room in the same frame (global gains
    /// cancel), rather than on its own (no room in view).
    pub against_room: bool,
    /// The face's gain: its answer against the room's when `against_room`.
    pub face_gain: f32,
    /// The margin's gain over the face's (both against the room): about 1 for a print's paper.
    pub margin_ratio: f32,
    /// Standard error of the margin ratio.
    pub margin_error: f32,
    /// The outline ring's gain over the face's (both against the room): about 1 for the paper
    /// of a sheet trimmed round the head, the room's and the hairline's answer behind a head.
    pub outline_ratio: f32,
    /// Standard error of the outline ratio.
    pub outline_error: f32,
    /// Surround gain over face gain.
    pub surround_ratio: f32,
    /// Light added on the surround over light added on the face.
    pub glare_ratio: f32,
    /// Gain of the face's darker half over its brighter half.
    pub darker_over_brighter: f32,
    pub relief: f32,
    /// Standard error of the relief.
    pub relief_error: f32,
    /// RMS log-chroma swing of the face.
    pub swing: f32,
}

impl LightReading {
    /// Whether the relief shows a curved face beyond doubt (two standard errors above
    /// [`MIN_RELIEF`]): strong enough light to see depth, not only nearness.
    pub fn confirms_depth(&self) -> bool {
        self.finding == LightFinding::Follows && self.relief - 2.0 * self.relief_error >= MIN_RELIEF
    }

    /// The relief's distance above [`MIN_RELIEF`] in its own standard errors (how the rules
    /// read it: [`Self::confirms_depth`] is a distance of 2); NaN when it was not measured.
    pub fn relief_in_errors(&self) -> f32 {
        in_errors(self.relief, MIN_RELIEF, self.relief_error)
    }

    /// The paper margin's distance above [`PAPER_MARGIN`] in its own standard errors: far
    /// above, the ring around the face answered as the face did (a sheet); NaN when unmeasured.
    pub fn margin_in_errors(&self) -> f32 {
        in_errors(self.margin_ratio, PAPER_MARGIN, self.margin_error)
    }

    /// The outline ring's evidence of paper: its distance above [`PAPER_MARGIN`] in its own
    /// standard errors, from 0 (at or below the mark) to `OUTLINE_EVIDENCE_REACH` (3): far
    /// above, the ring just outside the face answered as the face did (paper trimmed round the
    /// head); NaN when unmeasured.
    pub fn outline_in_errors(&self) -> f32 {
        in_errors(self.outline_ratio, PAPER_MARGIN, self.outline_error)
            .clamp(0.0, OUTLINE_EVIDENCE_REACH)
    }

    /// The evidence that the light was added on top of the face (a screen's glass) rather than
    /// reflected by it: the darker half's gain over the brighter's above 1, up to
    /// `ADDED_LIGHT_REACH` (2), read as 0 to 1; NaN when unmeasured.
    pub fn added_light_evidence(&self) -> f32 {
        self.darker_over_brighter.clamp(1.0, ADDED_LIGHT_REACH) - 1.0
    }

    /// The outline ratio within `OUTLINE_RATIO_BOUNDS` (−0.5…1.5), as the fitted decision reads
    /// it; NaN when unmeasured.
    pub fn outline_ratio_bounded(&self) -> f32 {
        self.outline_ratio
            .clamp(OUTLINE_RATIO_BOUNDS.0, OUTLINE_RATIO_BOUNDS.1)
    }

    /// Whether the relief reads a curved face, as a point estimate at or above [`MIN_RELIEF`]:
    /// what weak light can still say where [`Self::confirms_depth`] asks too much of it.
    pub fn reads_curved_face(&self) -> bool {
        self.finding == LightFinding::Follows && self.relief >= MIN_RELIEF
    }

    /// Whether the face followed the sequence as a near surface that reflects the light,
    /// without even the mark of a glare ([`GLARE_MARK`]): what a near live face shows in any
    /// light the check can judge, and what a replaying screen's glass does not.
    pub fn follows_without_glare(&self) -> bool {
        self.finding == LightFinding::Follows && self.darker_over_brighter < GLARE_MARK
    }

    /// Whether the face answered the light on its own, the room in the frame's border far
    /// weaker (`NEAR_SURROUND`), as a near face before a far room does; also when no room
    /// was in view to compare. A sheet of paper filling the border answers with the face.
    pub fn answered_alone(&self) -> bool {
        self.surround_ratio.is_nan() || self.surround_ratio < NEAR_SURROUND
    }

    /// A reading for a session that could not measure (nothing shown, too few frames).
    pub fn unmeasured(finding: LightFinding) -> Self {
        Self {
            finding,
            frames: 0,
            offset_ms: 0,
            correlation: f32::NAN,
            chance_correlation: f32::NAN,
            against_room: false,
            face_gain: f32::NAN,
            margin_ratio: f32::NAN,
            margin_error: f32::NAN,
            outline_ratio: f32::NAN,
            outline_error: f32::NAN,
            surround_ratio: f32::NAN,
            glare_ratio: f32::NAN,
            darker_over_brighter: f32::NAN,
            relief: f32::NAN,
            relief_error: f32::NAN,
            swing: f32::NAN,
        }
    }

    /// In words and numbers, for the layer's reason.
    pub fn describe(&self) -> String {
        format!(
            "light {:?}: correlation {:.2} (chance {:.2}) over {} frames at {} ms, face gain {:.3} against the {}, margin {:.2} ± {:.2}, outline {:.2} ± {:.2}, surround {:.2} (glare {:.2}), darker/brighter {:.2}, relief {:.2} ± {:.2}, swing {:.3}",
            self.finding,
            self.correlation,
            self.chance_correlation,
            self.frames,
            self.offset_ms,
            self.face_gain,
            if self.against_room { "room" } else { "frame" },
            self.margin_ratio,
            self.margin_error,
            self.outline_ratio,
            self.outline_error,
            self.surround_ratio,
            self.glare_ratio,
            self.darker_over_brighter,
            self.relief,
            self.relief_error,
            self.swing
        )
    }
}

/// `value`'s distance from `cut` in standard errors (`error`, floored at 0.001 so that an
/// exact reading stays finite).
fn in_errors(value: f32, cut: f32, error: f32) -> f32 {
    (value - cut) / error.max(1e-3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_features_are_bounded_and_stay_unmeasured_when_unmeasured() {
        let paper = LightReading {
            outline_ratio: 2.4,
            outline_error: 0.01,
            ..LightReading::unmeasured(LightFinding::Follows)
        };
        assert_eq!(paper.outline_in_errors(), OUTLINE_EVIDENCE_REACH);
        assert_eq!(paper.outline_ratio_bounded(), OUTLINE_RATIO_BOUNDS.1);
        let room = LightReading {
            outline_ratio: -3.0,
            outline_error: 0.1,
            ..paper
        };
        // a room there is no evidence either way
        assert_eq!(room.outline_in_errors(), 0.0);
        assert_eq!(room.outline_ratio_bounded(), OUTLINE_RATIO_BOUNDS.0);
        let within = LightReading {
            outline_ratio: 0.9,
            outline_error: 0.1,
            ..paper
        };
        assert!((within.outline_in_errors() - 2.0).abs() < 1e-5);
        assert_eq!(within.outline_ratio_bounded(), 0.9);
        let unmeasured = LightReading::unmeasured(LightFinding::TooFewFrames);
        assert!(unmeasured.outline_in_errors().is_nan());
        assert!(unmeasured.outline_ratio_bounded().is_nan());
    }

    #[test]
    fn the_added_light_evidence_is_one_sided_and_bounded() {
        let with = |darker_over_brighter| LightReading {
            darker_over_brighter,
            ..LightReading::unmeasured(LightFinding::Follows)
        };
        // a reflection, or a darker half that answered less: no evidence either way
        assert_eq!(with(1.0).added_light_evidence(), 0.0);
        assert_eq!(with(0.7).added_light_evidence(), 0.0);
        assert_eq!(with(-130.0).added_light_evidence(), 0.0);
        assert!((with(1.5).added_light_evidence() - 0.5).abs() < 1e-6);
        assert_eq!(with(600.0).added_light_evidence(), ADDED_LIGHT_REACH - 1.0);
        assert!(with(f32::NAN).added_light_evidence().is_nan());
    }
}
