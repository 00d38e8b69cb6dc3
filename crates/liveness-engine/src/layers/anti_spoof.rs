//! Layer 2, anti-spoof: the passive print/screen model over the analysed faces it ran on (every
//! second analysed frame, see the session) and the frames it judged in a carried face box (a
//! session its server fell behind), aggregated by the median so a few odd frames (blur, a hand
//! passing) cannot swing it either way. With the screen's light it reads the unlit faces after
//! the colours and the camera's settling, except at the session's one look at the colours' end
//! ([`ModelFaces::UnderColours`]), which reads the faces under them.
//!
//! Score: the median live probability, rescaled so that the model's live range maps to 1,
//! and held in doubt (at most [`DOUBT_SCORE`]) when a quarter of the frames look like a print
//! or screen (25th percentile below [`DOUBT_P25`]): a replay shows its screen in some frames
//! only, a live face almost never dips that low.
//! Attack: the median is below [`ATTACK_MEDIAN`] over at least `MIN_FRAMES` frames.
//! No evidence: the face is too dark for the model (median brightness below [`DARK_FACE`]).
//! The model was trained on lit faces; in the dark it calls live faces prints, so a dark
//! session is told to find light, not failed. No evidence either when the face fills the
//! picture (median share of the model's view inside the frame below [`MIN_CONTEXT`]): the
//! model judges the face with its surroundings, and without them it called 2 of 7 NUAA live
//! sequences of the calibration half prints (median 0.009). Its error there runs one way: on
//! NUAA crops (view 0.14–0.18 inside the frame) live sessions spread from 0.03 to 0.99, while
//! every print subject's median stayed at or below 0.06. So a phone held close (its zoom fills
//! the picture with the face) scores [`CLOSE_FACE_SCORE`] when the screen's light backs the
//! model: either the light confirmed a near, curved face beyond doubt
//! ([`LightReading::confirms_depth`]), or the model is sure of a live face (median at least
//! [`LIVE_MEDIAN`], 25th percentile at least [`DOUBT_P25`]) and the face followed this
//! session's sequence as a near surface without the mark of a glare
//! ([`LightReading::follows_without_glare`]), which a replaying screen, the close attack the
//! model passes, shows. A print the model calls a print stays no evidence (`retry`).

use domain::ReasonCode;

use super::{Layer, LayerScore, ModelFaces, SessionEvidence, faces, median, quantile, ramp};
use crate::illumination::reading::LightReading;
use crate::observation::{CarriedBoxJudgement, FrameObservation};

/// Median live probability below which the frames are taken for a print or screen.
pub const ATTACK_MEDIAN: f32 = 0.05;
/// 25th percentile of the live probability below which the layer is in doubt.
pub const DOUBT_P25: f32 = 0.15;
/// The layer's score while in doubt: below fusion's doubt line, so no pass.
pub const DOUBT_SCORE: f32 = 0.3;
/// Median face brightness (0..1) below which the model is not asked to judge.
pub const DARK_FACE: f32 = 0.2;
/// Median share of the model's view (face box ×2.7) inside the frame below which the model
/// sees too little of the face's surroundings to judge. Calibration half: live videos
/// 0.45–0.91 (close-up webcam footage), NUAA face crops 0.12–0.32.
pub const MIN_CONTEXT: f32 = 0.35;
/// The layer's score when the face is too close for the model and the screen's light backs a
/// live face: enough to let a session whose other layers agree pass, less than the model's
/// own conviction in full view.
pub const CLOSE_FACE_SCORE: f32 = 0.7;
/// Median at which the layer is fully convinced.
pub const LIVE_MEDIAN: f32 = 0.5;
const MIN_FRAMES: usize = 5;

/// What the layer exports for the fitted decision, in this order: the model's median and 25th
/// percentile live probability, how many faces it judged, and the conditions it judged them
/// in (median face brightness, share of its view inside the frame, face size in the frame).
pub const FEATURES: [&str; 6] = [
    "median",
    "p25",
    "judged_faces",
    "face_brightness",
    "view_in_frame",
    "face_size",
];

/// What the model said over the session and the conditions it said it in.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ModelReading {
    median: f32,
    p25: f32,
    judged: usize,
    carried: usize,
    brightness: f32,
    context: f32,
    size: f32,
}

impl ModelReading {
    /// The model's judgements over the analysed faces and the frames judged in a carried face
    /// box (whose box, brightness and view are those of the analysed faces), or over the faces
    /// the screen's colours may tint (`which`); `None` when it judged no face.
    fn of(
        frames: &[FrameObservation],
        carried: &[CarriedBoxJudgement],
        which: ModelFaces,
    ) -> Option<Self> {
        let under_colours = which == ModelFaces::UnderColours;
        let carried: Vec<f32> = carried
            .iter()
            .filter(|j| j.under_colours == under_colours)
            .map(|j| j.live_probability)
            .collect();
        let analysed = faces(frames).filter_map(|f| match which {
            ModelFaces::Unlit => f.anti_spoof,
            ModelFaces::UnderColours => f.anti_spoof_under_colours,
        });
        let mut values: Vec<f32> = analysed.chain(carried.iter().copied()).collect();
        if values.is_empty() {
            return None;
        }
        Some(Self {
            median: quantile(&mut values, 0.5),
            p25: quantile(&mut values, 0.25),
            judged: values.len(),
            carried: carried.len(),
            brightness: median(faces(frames).map(|f| f.brightness).collect()),
            context: median(faces(frames).map(|f| f.anti_spoof_context).collect()),
            size: median(faces(frames).map(|f| f.size_fraction).collect()),
        })
    }

    fn features(reading: Option<&Self>) -> [f32; FEATURES.len()] {
        reading.map_or([f32::NAN; FEATURES.len()], |r| {
            [
                r.median,
                r.p25,
                r.judged as f32,
                r.brightness,
                r.context,
                r.size,
            ]
        })
    }
}

/// The layer over the session's analysed faces and the frames judged in a carried face box,
/// with the light check's reading (none when it is off).
pub fn score(evidence: &SessionEvidence) -> LayerScore {
    let reading = ModelReading::of(
        evidence.frames,
        evidence.carried_box_judgements,
        evidence.model_faces,
    );
    judge(reading.as_ref(), evidence.light).with_features(ModelReading::features(reading.as_ref()))
}

fn judge(reading: Option<&ModelReading>, light: Option<&LightReading>) -> LayerScore {
    let Some(&ModelReading {
        median,
        p25,
        judged: n,
        carried,
        brightness,
        context,
        ..
    }) = reading
    else {
        return LayerScore::no_evidence(
            Layer::AntiSpoof,
            ReasonCode::FaceNotFound,
            "no face was analysed".into(),
        );
    };
    let reason = format!(
        "median live probability {median:.3} (p25 {p25:.3}) over {n} frames ({carried} in a carried face box), median face brightness {brightness:.2}, view inside the frame {context:.2}"
    );
    if brightness < DARK_FACE {
        return LayerScore::no_evidence(Layer::AntiSpoof, ReasonCode::TooDark, reason);
    }
    if context < MIN_CONTEXT {
        return match close_face_backing(median, p25, light) {
            Some(backing) => LayerScore::new(
                Layer::AntiSpoof,
                CLOSE_FACE_SCORE,
                format!("{reason}; too close for the model alone, {backing}"),
            ),
            None => LayerScore::no_evidence(Layer::AntiSpoof, ReasonCode::FaceTooClose, reason),
        };
    }
    if n >= MIN_FRAMES && median < ATTACK_MEDIAN {
        return LayerScore::disputable_attack(
            Layer::AntiSpoof,
            ReasonCode::PresentationAttackSuspected,
            reason,
        );
    }
    let mut score = ramp(median, ATTACK_MEDIAN, LIVE_MEDIAN);
    if n >= MIN_FRAMES && p25 < DOUBT_P25 {
        score = score.min(DOUBT_SCORE);
    }
    let sure = n >= MIN_FRAMES && median >= LIVE_MEDIAN && p25 >= DOUBT_P25;
    LayerScore::new(Layer::AntiSpoof, score, reason).vouching_live(sure)
}

/// What lets a face too close for the model count as live: the screen's light on its own
/// (depth confirmed), or the model sure of a live face with the light reflected without glare;
/// `None` when neither holds.
fn close_face_backing(median: f32, p25: f32, light: Option<&LightReading>) -> Option<&'static str> {
    let light = light?;
    if light.confirms_depth() {
        return Some("the screen's light confirmed a near curved face");
    }
    let model_sure = median >= LIVE_MEDIAN && p25 >= DOUBT_P25;
    (model_sure && light.follows_without_glare())
        .then_some("the model is sure and the face reflected the screen's light without glare")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::illumination::reading::LightFinding;

    /// A light reading with the held-back hand-held close-up's figures at a screen-to-ambient
    /// ratio of 0.05 (relief 0.32 ± 0.11, darker/brighter 0.94).
    fn close_up(finding: LightFinding, darker_over_brighter: f32) -> LightReading {
        LightReading {
            correlation: 0.91,
            face_gain: 0.052,
            darker_over_brighter,
            relief: 0.32,
            relief_error: 0.11,
            ..LightReading::unmeasured(finding)
        }
    }

    #[test]
    fn a_close_face_counts_when_the_light_backs_the_model() {
        let follows = close_up(LightFinding::Follows, 0.94);
        assert!(!follows.confirms_depth());
        // the model sure of a live face, the light reflected without glare
        assert!(close_face_backing(1.0, 1.0, Some(&follows)).is_some());
        // the model calling it a print (its error at close range): no evidence, not an attack
        assert_eq!(close_face_backing(0.03, 0.01, Some(&follows)), None);
        // a replaying screen the model passes: its glass adds light, darker over brighter
        // 1.58 and up on the held-back half
        let glared = close_up(LightFinding::Follows, 1.58);
        assert_eq!(close_face_backing(1.0, 1.0, Some(&glared)), None);
        // a face that did not answer this session's light, or no light check at all
        let unlit = close_up(LightFinding::TooLittleLight, 0.94);
        assert_eq!(close_face_backing(1.0, 1.0, Some(&unlit)), None);
        assert_eq!(close_face_backing(1.0, 1.0, None), None);
        // strong light that confirms depth stands in whatever the model says
        let dim_room = LightReading {
            relief: 0.29,
            relief_error: 0.02,
            ..follows
        };
        assert!(close_face_backing(0.03, 0.01, Some(&dim_room)).is_some());
    }
}
