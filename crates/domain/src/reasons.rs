//! Reasons a backend can act on: the stable codes a verdict read with the tenant's API key (and
//! its webhook) carries, and the portrait requirements whose failure is one of them. What a
//! backend should do with each code is [`ReasonCode::action`] and the table in docs/api.md.

use std::fmt;

use serde::{Serialize, Serializer};

/// One requirement of the ICAO portrait (ICAO 9303 and the ISO/IEC 29794-5 components the
/// models can measure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum PortraitRequirement {
    HeadSize,
    Margins,
    EyeLine,
    Yaw,
    Pitch,
    Roll,
    EyesOpen,
    MouthClosed,
    Sharpness,
    Exposure,
    IlluminationUniformity,
    BackgroundUniformity,
    SingleFace,
    EyesVisible,
    LowerFaceVisible,
}

impl PortraitRequirement {
    /// Every requirement, in declaration order.
    pub const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;

    /// Its name in the API (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// What a backend should do on seeing a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonAction {
    /// Ask the person to try again (a new session), with the guidance the page gave.
    Retry,
    /// Send the case to a person: the evidence is suggestive, not conclusive.
    ManualReview,
    /// Treat the attempt as an attack.
    Block,
}

/// A stable reason code of a verdict. Serialised as its [`ReasonCode::code`] string;
/// `portrait_requirement_failed:<requirement>` names the failed requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReasonCode {
    /// A screen before the camera: its pixel grid (moiré) or its glass's glare.
    ScreenReplaySuspected,
    /// A flat picture before the camera: it moved as a plane, or took the screen's light
    /// evenly, as its surroundings did.
    PrintSuspected,
    /// The anti-spoof model took the face for a print or a screen.
    PresentationAttackSuspected,
    /// A stream no camera produces: frozen or repeated frames, timestamps going backwards, or
    /// a face that changed colour with another sequence than this session's light.
    InjectionSuspected,
    /// The face changed identity during the session.
    FaceChanged,
    /// More than one face during the session.
    SeveralFaces,
    /// A challenge was asked and not answered (active mode).
    ChallengeMissed,
    /// Too little of the screen's light reached the camera (bright room, screen dimmed, far
    /// face) or too few frames while it was shown.
    NoLightResponse,
    /// The face was too dark for the anti-spoof model to judge.
    TooDark,
    /// The face filled the picture: the anti-spoof model saw too little around it.
    FaceTooClose,
    /// Too little motion to judge the face's depth.
    TooLittleMotion,
    /// No usable face within the time allowed.
    FaceNotFound,
    /// The session ran out of time.
    SessionTimeout,
    /// Too many frames could not be used (undecodable, too large, no face).
    TooManyInvalidFrames,
    /// The browser closed the stream before the flow finished.
    StreamEnded,
    /// The layers agreed on nothing decisive: the fused confidence fell short of a pass.
    LowConfidence,
    /// One layer saw an attack that a camera's own processing or a model's error can fake,
    /// and another layer measured a live face: the layers disagree, so the session is
    /// neither passed nor failed.
    ConflictingEvidence,
    /// The portrait failed one ICAO requirement (the verdict may still be `pass`).
    PortraitRequirementFailed(PortraitRequirement),
}

impl ReasonCode {
    /// Every code but the portrait's, then one per portrait requirement.
    pub fn all() -> Vec<Self> {
        let mut codes = vec![
            Self::ScreenReplaySuspected,
            Self::PrintSuspected,
            Self::PresentationAttackSuspected,
            Self::InjectionSuspected,
            Self::FaceChanged,
            Self::SeveralFaces,
            Self::ChallengeMissed,
            Self::NoLightResponse,
            Self::TooDark,
            Self::FaceTooClose,
            Self::TooLittleMotion,
            Self::FaceNotFound,
            Self::SessionTimeout,
            Self::TooManyInvalidFrames,
            Self::StreamEnded,
            Self::LowConfidence,
            Self::ConflictingEvidence,
        ];
        codes.extend(
            PortraitRequirement::ALL
                .iter()
                .copied()
                .map(Self::PortraitRequirementFailed),
        );
        codes
    }

    /// The stable string.
    pub fn code(self) -> String {
        let base = match self {
            Self::ScreenReplaySuspected => "screen_replay_suspected",
            Self::PrintSuspected => "print_suspected",
            Self::PresentationAttackSuspected => "presentation_attack_suspected",
            Self::InjectionSuspected => "injection_suspected",
            Self::FaceChanged => "face_changed",
            Self::SeveralFaces => "several_faces",
            Self::ChallengeMissed => "challenge_missed",
            Self::NoLightResponse => "no_light_response",
            Self::TooDark => "too_dark",
            Self::FaceTooClose => "face_too_close",
            Self::TooLittleMotion => "too_little_motion",
            Self::FaceNotFound => "face_not_found",
            Self::SessionTimeout => "session_timeout",
            Self::TooManyInvalidFrames => "too_many_invalid_frames",
            Self::StreamEnded => "stream_ended",
            Self::LowConfidence => "low_confidence",
            Self::ConflictingEvidence => "conflicting_evidence",
            Self::PortraitRequirementFailed(requirement) => {
                return format!("portrait_requirement_failed:{}", requirement.as_str());
            }
        };
        base.to_string()
    }

    /// What a backend should do with it.
    pub fn action(self) -> ReasonAction {
        match self {
            Self::ScreenReplaySuspected
            | Self::PrintSuspected
            | Self::InjectionSuspected
            | Self::FaceChanged => ReasonAction::Block,
            Self::PresentationAttackSuspected
            | Self::SeveralFaces
            | Self::ChallengeMissed
            | Self::LowConfidence
            | Self::ConflictingEvidence => ReasonAction::ManualReview,
            Self::NoLightResponse
            | Self::TooDark
            | Self::FaceTooClose
            | Self::TooLittleMotion
            | Self::FaceNotFound
            | Self::SessionTimeout
            | Self::TooManyInvalidFrames
            | Self::StreamEnded
            | Self::PortraitRequirementFailed(_) => ReasonAction::Retry,
        }
    }

    /// Attack evidence (a `fail`), as opposed to too little to judge (a `retry`).
    pub fn is_attack(self) -> bool {
        self.action() == ReasonAction::Block
    }
}

impl fmt::Display for ReasonCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code())
    }
}

impl Serialize for ReasonCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_portrait_codes_name_their_requirement() {
        let codes: Vec<String> = ReasonCode::all()
            .into_iter()
            .map(ReasonCode::code)
            .collect();
        let unique: std::collections::BTreeSet<&String> = codes.iter().collect();
        assert_eq!(unique.len(), codes.len());
        assert!(codes.contains(&"portrait_requirement_failed:eyes_visible".to_string()));
        assert_eq!(
            serde_json::to_string(&ReasonCode::PrintSuspected).ok(),
            Some("\"print_suspected\"".to_string())
        );
    }
}
