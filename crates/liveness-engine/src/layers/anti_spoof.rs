//! Layer 2, anti-spoof: the passive print/screen model over the analysed faces it ran on (every
//! second analysed frame, see the session), aggregated by the median so a few odd frames (blur,
//! a hand passing) cannot swing it either way.
//!
//! Score: the median live probability, rescaled so that the model's live range maps to 1,
//! and held in doubt (at most [`DOUBT_SCORE`]) when a quarter of the frames look like a print
//! or screen (25th percentile below [`DOUBT_P25`]): a replay shows its screen in some frames
//! only, a live face almost never dips that low.
//! Attack: the median is below [`ATTACK_MEDIAN`] over at least [`MIN_FRAMES`] frames.
//! No evidence: the face is too dark for the model (median brightness below [`DARK_FACE`]).
//! The model was trained on lit faces; in the dark it calls live faces prints, so a dark
//! session is told to find light, not failed. No evidence either when the face fills the
//! picture (median share of the model's view inside the frame below [`MIN_CONTEXT`]): the
//! model judges the face with its surroundings, and without them it called 2 of 7 NUAA live
//! sequences of the calibration half prints (median 0.009). A phone held close (its zoom
//! fills the picture with the face) is then judged by the screen's light instead, and only
//! when the light confirmed a near, curved face beyond doubt
//! ([`LightReading::confirms_depth`]): that is what the model would have looked for, and a
//! print, a screen or a tinted stream cannot show it. The layer then scores
//! [`LIGHT_STANDS_IN_SCORE`].

use domain::ReasonCode;

use super::{Layer, LayerScore, faces, quantile, ramp};
use crate::illumination::reading::LightReading;
use crate::observation::FrameObservation;

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
/// The layer's score when the face is too close for the model and the light confirmed a near,
/// curved face: enough to let a session whose other layers agree pass, less than the model's
/// own conviction.
pub const LIGHT_STANDS_IN_SCORE: f32 = 0.7;
/// Median at which the layer is fully convinced.
const LIVE_MEDIAN: f32 = 0.5;
const MIN_FRAMES: usize = 5;

/// The layer over `frames`; `light` is the light check's reading (none when it is off).
pub fn score(frames: &[FrameObservation], light: Option<&LightReading>) -> LayerScore {
    let mut values: Vec<f32> = faces(frames).filter_map(|f| f.anti_spoof).collect();
    let mut brightness: Vec<f32> = faces(frames).map(|f| f.brightness).collect();
    let mut context: Vec<f32> = faces(frames).map(|f| f.anti_spoof_context).collect();
    let n = values.len();
    if n == 0 {
        return LayerScore::no_evidence(
            Layer::AntiSpoof,
            ReasonCode::FaceNotFound,
            "no face was analysed".into(),
        );
    }
    let median = quantile(&mut values, 0.5);
    let p25 = quantile(&mut values, 0.25);
    let brightness = quantile(&mut brightness, 0.5);
    let context = quantile(&mut context, 0.5);
    let reason = format!(
        "median live probability {median:.3} (p25 {p25:.3}) over {n} frames, median face brightness {brightness:.2}, view inside the frame {context:.2}"
    );
    if brightness < DARK_FACE {
        return LayerScore::no_evidence(Layer::AntiSpoof, ReasonCode::TooDark, reason);
    }
    if context < MIN_CONTEXT {
        return match light.is_some_and(LightReading::confirms_depth) {
            true => LayerScore::new(
                Layer::AntiSpoof,
                LIGHT_STANDS_IN_SCORE,
                format!(
                    "{reason}; too close for the model, the screen's light confirmed a near curved face"
                ),
            ),
            false => LayerScore::no_evidence(Layer::AntiSpoof, ReasonCode::FaceTooClose, reason),
        };
    }
    if n >= MIN_FRAMES && median < ATTACK_MEDIAN {
        return LayerScore::attack(
            Layer::AntiSpoof,
            ReasonCode::PresentationAttackSuspected,
            reason,
        );
    }
    let mut score = ramp(median, ATTACK_MEDIAN, LIVE_MEDIAN);
    if n >= MIN_FRAMES && p25 < DOUBT_P25 {
        score = score.min(DOUBT_SCORE);
    }
    LayerScore::new(Layer::AntiSpoof, score, reason)
}
