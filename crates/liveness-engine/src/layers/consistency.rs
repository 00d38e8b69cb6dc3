//! Layer 4, face consistency: one face only throughout, and the same person in every frame
//! sampled for identity.
//!
//! Score: the lowest calibrated similarity among the sampled frames' embeddings, rescaled
//! (0.35 → 0, 0.6 → 1), lowered by the share of frames with several faces.
//! Attack: two sampled frames below [`DIFFERENT_PERSON`] (on our calibration no pair of the
//! same person scored that low, see docs/accuracy.md), or several faces in more than a fifth
//! of the frames.

use domain::{FaceModel, ReasonCode};
use face_engine::compare::similarity_from_cosine;

use super::{Layer, LayerScore, ramp};
use crate::observation::FrameObservation;

/// Calibrated similarity below which two frames show different people.
pub const DIFFERENT_PERSON: f32 = 0.35;
const SAME_PERSON: f32 = 0.6;

pub fn score(frames: &[FrameObservation]) -> LayerScore {
    let with_face = frames.iter().filter(|f| f.face.is_some()).count();
    if with_face == 0 {
        return LayerScore::no_evidence(
            Layer::FaceConsistency,
            ReasonCode::FaceNotFound,
            "no face was analysed".into(),
        );
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
    let reason = format!(
        "lowest similarity {lowest:.3} among {} sampled frames; several faces in {crowded} of {with_face} frames",
        embeddings.len()
    );
    if embeddings.len() >= 2 && lowest < DIFFERENT_PERSON {
        return LayerScore::attack(Layer::FaceConsistency, ReasonCode::FaceChanged, reason);
    }
    if crowded_share > 0.2 {
        return LayerScore::attack(Layer::FaceConsistency, ReasonCode::SeveralFaces, reason);
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
}
