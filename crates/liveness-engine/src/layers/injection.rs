//! Layer 3, deepfake and injection. No model for this exists in the packages we ship from,
//! so the layer rests on measurable signals, each with what it catches and what it cannot:
//!
//! - **Frame timing.** Timestamps that go backwards or repeat cannot come from a camera;
//!   they come from a stream assembled by a program. Cannot catch an injector that stamps its
//!   frames correctly.
//! - **Frozen and repeated frames.** A still photo or a looped clip sent to the socket repeats
//!   the same pixels; a camera never does (sensor noise, micro-motion). Measured as identical
//!   frame bytes and as face thumbnails that differ by less than [`FROZEN_DIFF`] grey levels.
//!   Cannot catch a still photo with fresh noise added to every frame (the motion layer does).
//! - **Identity jitter.** Face swaps re-synthesise the face per frame, so the identity vector
//!   wobbles more than a real face's does. Measured as the spread of the sampled frames'
//!   similarity to their mean. Cannot catch a temporally smooth deepfake.
//! - **Blending boundary.** A face pasted or generated into a frame is often smoother than the
//!   hair and background around it: inner-face over surrounding high-frequency energy.
//!   Heavy make-up, strong blur and low light also lower it, so it only lowers the score.
//! - **The screen's light** (issue 29, `crate::illumination`). The page shows this session's
//!   random colour sequence; a live face near the screen answers it, a recording, an injected
//!   stream, a replay's glass or a print cannot answer it as a near curved face does. Its
//!   attack findings fail the session (all but a uniform answer only where no other layer
//!   vouches for a live face), its *too little light* keeps it from passing
//!   (`retry`), and its measured answer is half the layer's score. Cannot catch an injector
//!   that renders the light onto a 3-D face model in real time.
//! - **Screen moiré and banding.** A display filmed by a camera adds isolated peaks to the
//!   high-frequency spectrum of the face (see `signals::moire_peak`). Cannot catch a digital
//!   injection (no screen in the path) or a replay far enough from the camera to blur the
//!   grid.

use domain::ReasonCode;

use super::{Evidence, Layer, LayerScore, faces, quantile, ramp};
use crate::illumination::reading::{FOLLOW_CORRELATION, LightReading};
use crate::observation::FrameObservation;
use crate::signals::thumbnail_difference;

/// Face thumbnails closer than this (mean absolute grey levels) count as the same frame.
pub const FROZEN_DIFF: f32 = 0.4;
/// Share of consecutive face pairs frozen (within [`FROZEN_DIFF`]) above which the stream is
/// taken for a still image sent to the socket. Live footage of the evaluation set freezes in
/// none of its pairs (held_back's printout: `frozen 0/53`); a still photo with no fresh noise
/// freezes in all of them. Half leaves a wide margin for a camera that drops to a still frame
/// for a moment.
pub const FROZEN_ATTACK_SHARE: f32 = 0.5;
/// Share of received frames whose bytes repeat the previous frame's above which the stream is
/// taken for a program resending one image. A camera's sensor noise never repeats bytes
/// (held_back's printout: `repeated bytes 0/107` on live footage).
pub const REPEATED_ATTACK_SHARE: f32 = 0.3;
/// Timing score of a stream whose timestamps went backwards (a program assembled it): it
/// lowers the layer without failing it, as one reordered frame can be a client's bug.
const OUT_OF_ORDER_SCORE: f32 = 0.3;
/// Median moiré peak (log10 ratio) above which the face is taken for a filmed screen.
pub const MOIRE_ATTACK: f32 = 3.6;
/// Median moiré peak of a clean live face (upper end).
const MOIRE_LIVE: f32 = 3.0;

/// What the session saw of the stream's timing, over every frame received (also those
/// dropped by sampling).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamTiming {
    pub received: u32,
    /// Frames whose timestamp did not advance.
    pub out_of_order: u32,
    /// Frames whose bytes repeat a recent frame exactly.
    pub repeated_bytes: u32,
}

/// The layer with the light check's `light` reading (none when the check is off).
pub fn score(
    frames: &[FrameObservation],
    timing: &StreamTiming,
    light: Option<&LightReading>,
) -> LayerScore {
    let signals = stream_signals(frames, timing);
    let Some(light) = light else {
        return signals;
    };
    let reason = format!("{}; {}", signals.reason, light.describe());
    if let (true, Some(cause)) = (signals.is_attack(), signals.cause) {
        return LayerScore::attack(Layer::DeepfakeInjection, cause, reason);
    }
    let light_cause = light.finding.reason();
    match (light.finding.evidence(), light_cause) {
        // a flat or glared answer rests on the camera's rendering of the light, an answer to
        // another sequence may be a room's own coloured light; a uniform one is neither
        // (`LightFinding::disputable`)
        (Evidence::Attack, Some(cause)) if light.finding.disputable() => {
            LayerScore::disputable_attack(Layer::DeepfakeInjection, cause, reason)
        }
        (Evidence::Attack, Some(cause)) => {
            LayerScore::attack(Layer::DeepfakeInjection, cause, reason)
        }
        (Evidence::None, Some(cause)) => {
            LayerScore::no_evidence(Layer::DeepfakeInjection, cause, reason)
        }
        (Evidence::Attack | Evidence::None, None) => {
            LayerScore::new(Layer::DeepfakeInjection, signals.score, reason)
        }
        (Evidence::Measured, _) => {
            let light_score = 0.6 + 0.4 * ramp(light.correlation, FOLLOW_CORRELATION, 0.9);
            let score = if signals.evidence == Evidence::None {
                light_score
            } else {
                (signals.score + light_score) / 2.0
            };
            LayerScore::new(Layer::DeepfakeInjection, score, reason)
                .vouching_live(light.confirms_depth() && light.follows_without_glare())
        }
    }
}

/// The stream's own signals: timing, frozen frames, moiré, blending boundary, identity jitter.
fn stream_signals(frames: &[FrameObservation], timing: &StreamTiming) -> LayerScore {
    let observed: Vec<_> = faces(frames).collect();
    if observed.len() < 2 {
        return LayerScore::no_evidence(
            Layer::DeepfakeInjection,
            ReasonCode::FaceNotFound,
            "too few faces to judge".into(),
        );
    }
    let pairs = observed.len() - 1;
    let frozen = observed
        .windows(2)
        .filter(|w| thumbnail_difference(&w[0].thumbnail, &w[1].thumbnail) < FROZEN_DIFF)
        .count();
    let frozen_share = frozen as f32 / pairs as f32;
    let repeated_share = timing.repeated_bytes as f32 / timing.received.max(1) as f32;
    let moire = quantile(
        &mut observed.iter().map(|f| f.moire).collect::<Vec<_>>(),
        0.5,
    );
    let boundary = quantile(
        &mut observed
            .iter()
            .map(|f| f.boundary_ratio)
            .collect::<Vec<_>>(),
        0.5,
    );
    let jitter = identity_jitter(frames);
    let reason = format!(
        "frozen {frozen}/{pairs} frame pairs, repeated bytes {}/{}, out-of-order {}, \
         moiré {moire:.2}, boundary {boundary:.2}, identity jitter {jitter:.3}",
        timing.repeated_bytes, timing.received, timing.out_of_order
    );
    if frozen_share > FROZEN_ATTACK_SHARE || repeated_share > REPEATED_ATTACK_SHARE {
        return LayerScore::attack(
            Layer::DeepfakeInjection,
            ReasonCode::InjectionSuspected,
            reason,
        );
    }
    if moire > MOIRE_ATTACK {
        return LayerScore::attack(
            Layer::DeepfakeInjection,
            ReasonCode::ScreenReplaySuspected,
            reason,
        );
    }
    let timing_score = if timing.out_of_order == 0 {
        1.0
    } else {
        OUT_OF_ORDER_SCORE
    };
    let stillness_score = 1.0 - frozen_share * 2.0;
    let screen_score = 1.0 - ramp(moire, MOIRE_LIVE, MOIRE_ATTACK);
    let boundary_score = ramp(boundary, 0.02, 0.10);
    let jitter_score = 1.0 - ramp(jitter, 0.08, 0.2);
    let parts = [
        timing_score,
        stillness_score,
        screen_score,
        boundary_score,
        jitter_score,
    ];
    // the weakest signal counts double: one bad sign should not be averaged away
    let weakest = parts.iter().copied().fold(1.0f32, f32::min);
    let mean = parts.iter().sum::<f32>() / parts.len() as f32;
    LayerScore::new(
        Layer::DeepfakeInjection,
        (mean * 2.0 + weakest) / 3.0,
        reason,
    )
}

/// Standard deviation of the sampled embeddings' cosine to their mean direction.
fn identity_jitter(frames: &[FrameObservation]) -> f32 {
    let vectors: Vec<&[f32]> = frames
        .iter()
        .filter_map(|f| Some(f.face.as_ref()?.embedding.as_ref()?.vector.as_slice()))
        .collect();
    if vectors.len() < 3 {
        return 0.0;
    }
    let dim = vectors[0].len();
    let mut mean = vec![0.0f32; dim];
    for v in &vectors {
        for (m, x) in mean.iter_mut().zip(v.iter()) {
            *m += x;
        }
    }
    let norm = mean.iter().map(|m| m * m).sum::<f32>().sqrt().max(1e-6);
    let cosines: Vec<f32> = vectors
        .iter()
        .map(|v| v.iter().zip(&mean).map(|(a, b)| a * b).sum::<f32>() / norm)
        .collect();
    let avg = cosines.iter().sum::<f32>() / cosines.len() as f32;
    (cosines.iter().map(|c| (c - avg).powi(2)).sum::<f32>() / cosines.len() as f32).sqrt()
}
