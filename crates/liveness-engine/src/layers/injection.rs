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

use super::{Evidence, Layer, LayerScore, SessionEvidence, faces, median, ramp};
use crate::illumination::reading::{FOLLOW_CORRELATION, LightFinding, LightReading};
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

/// Blending boundary (inner-face over surrounding high-frequency energy) at or below which a
/// face looks pasted, and from which it looks like a camera's. Set by hand when the engine was
/// first written (commit 54c157f), never calibrated: it only lowers the score, and the fitted
/// decision (issue 66) takes the boundary as a feature instead.
const PASTED_BOUNDARY: f32 = 0.02;
const CAMERA_BOUNDARY: f32 = 0.10;
/// Identity jitter (spread of the sampled embeddings' cosine to their mean) of a steady face,
/// and from which a face looks re-synthesised per frame. Set by hand with the boundary
/// (54c157f), never calibrated; a feature of the fit as well.
const STEADY_JITTER: f32 = 0.08;
const SYNTHESISED_JITTER: f32 = 0.2;
/// The light's part of the score when the face followed: what a correlation just at
/// [`FOLLOW_CORRELATION`] earns, rising to 1 at [`CLEAR_CORRELATION`]. Set by hand with the
/// light check (issue 29, 07c2c2d): a followed answer never lowers the layer below fusion's
/// doubt line.
const FOLLOWED_FLOOR: f32 = 0.6;
/// Correlation with the sequence at which the light's answer counts as clear (issue 29, set by
/// hand).
const CLEAR_CORRELATION: f32 = 0.9;

/// What the layer exports for the fitted decision, in this order: the stream's own signals
/// (shares of frozen face pairs, of repeated frames and of frames out of order, the median
/// moiré peak and blending boundary, the identity jitter) and the light check's measurements
/// (its correlation and margin over chance, the face's gain, relief and its standard error,
/// the paper margin's ratio and its error, the relief's and the margin's distances in errors,
/// the outline ring's ratio, its error and its evidence of paper (its distance above the mark
/// in errors, 0 to 3: `LightReading::outline_in_errors`), the surround's ratio, the glare ratio, the darker half
/// over the brighter and its evidence of light added on top (0 to 1:
/// `LightReading::added_light_evidence`), the face's swing, the frames lit, whether the room
/// was in view).
pub const FEATURES: [&str; 25] = [
    "frozen_share",
    "repeated_share",
    "out_of_order_share",
    "moire",
    "boundary",
    "identity_jitter",
    "light_correlation",
    "light_over_chance",
    "light_face_gain",
    "light_relief",
    "light_relief_error",
    "light_margin_ratio",
    "light_margin_error",
    "light_relief_in_errors",
    "light_margin_in_errors",
    "light_outline_ratio",
    "light_outline_error",
    "light_outline_in_errors",
    "light_surround_ratio",
    "light_glare_ratio",
    "light_darker_over_brighter",
    "light_added_light",
    "light_swing",
    "light_frames",
    "light_against_room",
];

/// The stream's own measurements over the analysed faces.
#[derive(Debug, Clone, Copy, PartialEq)]
struct StreamReading {
    pairs: usize,
    frozen: usize,
    received: u32,
    repeated: u32,
    out_of_order: u32,
    moire: f32,
    boundary: f32,
    jitter: f32,
}

impl StreamReading {
    /// `None` with fewer than two analysed faces.
    fn of(frames: &[FrameObservation], timing: &StreamTiming) -> Option<Self> {
        let observed: Vec<_> = faces(frames).collect();
        if observed.len() < 2 {
            return None;
        }
        Some(Self {
            pairs: observed.len() - 1,
            frozen: observed
                .windows(2)
                .filter(|w| thumbnail_difference(&w[0].thumbnail, &w[1].thumbnail) < FROZEN_DIFF)
                .count(),
            received: timing.received,
            repeated: timing.repeated_bytes,
            out_of_order: timing.out_of_order,
            moire: median(observed.iter().map(|f| f.moire).collect()),
            boundary: median(observed.iter().map(|f| f.boundary_ratio).collect()),
            jitter: identity_jitter(frames),
        })
    }

    fn frozen_share(&self) -> f32 {
        self.frozen as f32 / self.pairs as f32
    }

    fn repeated_share(&self) -> f32 {
        self.repeated as f32 / self.received.max(1) as f32
    }
}

fn features(stream: Option<&StreamReading>, light: Option<&LightReading>) -> [f32; FEATURES.len()] {
    let nan = f32::NAN;
    let [frozen, repeated, out_of_order, moire, boundary, jitter] = stream.map_or([nan; 6], |s| {
        [
            s.frozen_share(),
            s.repeated_share(),
            s.out_of_order as f32 / s.received.max(1) as f32,
            s.moire,
            s.boundary,
            s.jitter,
        ]
    });
    let l = light
        .copied()
        .unwrap_or(LightReading::unmeasured(LightFinding::TooFewFrames));
    [
        frozen,
        repeated,
        out_of_order,
        moire,
        boundary,
        jitter,
        l.correlation,
        l.correlation - l.chance_correlation,
        l.face_gain,
        l.relief,
        l.relief_error,
        l.margin_ratio,
        l.margin_error,
        l.relief_in_errors(),
        l.margin_in_errors(),
        l.outline_ratio_bounded(),
        l.outline_error,
        l.outline_in_errors(),
        l.surround_ratio,
        l.glare_ratio,
        l.darker_over_brighter,
        l.added_light_evidence(),
        l.swing,
        if light.is_some() {
            l.frames as f32
        } else {
            nan
        },
        if light.is_some() {
            f32::from(u8::from(l.against_room))
        } else {
            nan
        },
    ]
}

/// The layer over the session's stream, with the light check's reading (none when it is off).
pub fn score(evidence: &SessionEvidence) -> LayerScore {
    let stream = StreamReading::of(evidence.frames, evidence.timing);
    judge(stream.as_ref(), evidence.light).with_features(features(stream.as_ref(), evidence.light))
}

fn judge(stream: Option<&StreamReading>, light: Option<&LightReading>) -> LayerScore {
    let signals = stream_signals(stream);
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
            let light_score = FOLLOWED_FLOOR
                + (1.0 - FOLLOWED_FLOOR)
                    * ramp(light.correlation, FOLLOW_CORRELATION, CLEAR_CORRELATION);
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
fn stream_signals(stream: Option<&StreamReading>) -> LayerScore {
    let Some(s) = stream else {
        return LayerScore::no_evidence(
            Layer::DeepfakeInjection,
            ReasonCode::FaceNotFound,
            "too few faces to judge".into(),
        );
    };
    let (frozen_share, moire) = (s.frozen_share(), s.moire);
    let reason = format!(
        "frozen {}/{} frame pairs, repeated bytes {}/{}, out-of-order {}, \
         moiré {moire:.2}, boundary {:.2}, identity jitter {:.3}",
        s.frozen, s.pairs, s.repeated, s.received, s.out_of_order, s.boundary, s.jitter
    );
    if frozen_share > FROZEN_ATTACK_SHARE || s.repeated_share() > REPEATED_ATTACK_SHARE {
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
    let timing_score = if s.out_of_order == 0 {
        1.0
    } else {
        OUT_OF_ORDER_SCORE
    };
    let stillness_score = 1.0 - frozen_share * 2.0;
    let screen_score = 1.0 - ramp(moire, MOIRE_LIVE, MOIRE_ATTACK);
    let boundary_score = ramp(s.boundary, PASTED_BOUNDARY, CAMERA_BOUNDARY);
    let jitter_score = 1.0 - ramp(s.jitter, STEADY_JITTER, SYNTHESISED_JITTER);
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
