//! Layer 4, face consistency: one face only throughout, and the same person in every frame
//! sampled for identity.
//!
//! Score: the lowest calibrated similarity among the sampled frames' embeddings, rescaled
//! (0.35 → 0, 0.6 → 1), lowered by the share of frames with several faces.
//! Attack: two sampled frames below [`DIFFERENT_PERSON`] (on our calibration no pair of the
//! same person scored that low, see docs/accuracy.md), or several faces in more than a fifth
//! of the frames ([`CROWDED_ATTACK_SHARE`]).

use domain::{FaceModel, ReasonCode};
use face_engine::compare::similarity_from_cosine;

use super::{Layer, LayerScore, SessionEvidence, ramp};

/// Calibrated similarity below which two frames show different people.
pub const DIFFERENT_PERSON: f32 = 0.35;
/// Calibrated similarity from which the layer's score is full (set by hand with the engine,
/// 54c157f; it only scales the score).
const SAME_PERSON: f32 = 0.6;
/// Share of the analysed frames showing several faces above which someone else is in the
/// picture throughout, not passing by. Set by hand with the engine (54c157f), never
/// calibrated on footage: a fifth lets a person walk behind the user for part of a hold.
pub const CROWDED_ATTACK_SHARE: f32 = 0.2;

/// What the layer exports for the fitted decision, in this order: the lowest calibrated
/// similarity between two sampled frames, how many frames were sampled for identity, and the
/// share of frames with several faces.
pub const FEATURES: [&str; 3] = ["lowest_similarity", "identity_samples", "crowded_share"];

/// The layer over the session's analysed frames.
pub fn score(evidence: &SessionEvidence) -> LayerScore {
    let frames = evidence.frames;
    let with_face = frames.iter().filter(|f| f.face.is_some()).count();
    if with_face == 0 {
        return LayerScore::no_evidence(
            Layer::FaceConsistency,
            ReasonCode::FaceNotFound,
            "no face was analysed".into(),
        )
        .with_features([f32::NAN; FEATURES.len()]);
    }
    let crowded = frames.iter().filter(|f| f.face_count > 1).count();
    let crowded_share = crowded as f32 / with_face as f32;
    let embeddings: Vec<_> = frames
        .iter()
        .filter_map(|f| f.face.as_ref()?.embedding.as_ref())
        .collect();
    let mut lowest = 1.0f32;
    for (i, a) in embeddings.iter().enumerate() {
        for b in &embeddings[i + 1..] {
            // every frame is embedded by one model (`FrameObservation`): pairs always compare
            if let Ok(cosine) = a.cosine(b) {
                lowest = lowest.min(similarity_from_cosine(FaceModel::FrFeature, cosine));
            }
        }
    }
    let features = [
        if embeddings.len() >= 2 {
            lowest
        } else {
            f32::NAN
        },
        embeddings.len() as f32,
        crowded_share,
    ];
    let reason = format!(
        "lowest similarity {lowest:.3} among {} sampled frames; several faces in {crowded} of {with_face} frames",
        embeddings.len()
    );
    if embeddings.len() >= 2 && lowest < DIFFERENT_PERSON {
        return LayerScore::attack(Layer::FaceConsistency, ReasonCode::FaceChanged, reason)
            .with_features(features);
    }
    if crowded_share > CROWDED_ATTACK_SHARE {
        return LayerScore::attack(Layer::FaceConsistency, ReasonCode::SeveralFaces, reason)
            .with_features(features);
    }
    let identity = if embeddings.len() >= 2 {
        ramp(lowest, DIFFERENT_PERSON, SAME_PERSON)
    } else {
        // one sample proves nothing about consistency
        0.5
    };
    LayerScore::new(
        Layer::FaceConsistency,
        identity * (1.0 - 2.0 * crowded_share),
        reason,
    )
    .with_features(features)
}
