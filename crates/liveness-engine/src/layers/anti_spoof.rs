//! Layer 2, anti-spoof: the passive print/screen model over every analysed face, aggregated by
//! the median so a few odd frames (blur, a hand passing) cannot swing it either way.
//!
//! Score: the median live probability, rescaled so that the model's live range maps to 1.
//! Attack: the median is below [`ATTACK_MEDIAN`] over at least [`MIN_FRAMES`] frames.

use super::{Layer, LayerScore, faces, quantile, ramp};
use crate::observation::FrameObservation;

/// Median live probability below which the frames are taken for a print or screen.
pub const ATTACK_MEDIAN: f32 = 0.05;
/// Median at which the layer is fully convinced.
const LIVE_MEDIAN: f32 = 0.5;
const MIN_FRAMES: usize = 5;

pub fn score(frames: &[FrameObservation]) -> LayerScore {
    let mut values: Vec<f32> = faces(frames).map(|f| f.anti_spoof).collect();
    let n = values.len();
    let median = quantile(&mut values, 0.5);
    let p25 = quantile(&mut values, 0.25);
    if n == 0 {
        return LayerScore::new(Layer::AntiSpoof, 0.0, "no face was analysed".into());
    }
    let reason = format!("median live probability {median:.3} (p25 {p25:.3}) over {n} frames");
    if n >= MIN_FRAMES && median < ATTACK_MEDIAN {
        return LayerScore::attack(Layer::AntiSpoof, reason);
    }
    LayerScore::new(
        Layer::AntiSpoof,
        ramp(median, ATTACK_MEDIAN, LIVE_MEDIAN),
        reason,
    )
}
