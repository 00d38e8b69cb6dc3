//! Calibration from each embedder's raw cosine to the published similarity in 0..1, one map
//! per face model, so that a threshold means the same false-accept rate whichever model a
//! collection or a compare uses (issue 68).
//!
//! Each map is piecewise linear and monotone. Its knots come from the cosine distributions
//! measured on all of `testdata/identities` pooled (160 images, 489 genuine and 11,446
//! impostor pairs including cross-set pairs; `examples/calibrate.rs`, docs/accuracy.md):
//!
//! | measured meaning | similarity | `fr_feature` cosine | `sface` cosine |
//! |---|---|---|---|
//! | exceeded by 1% of impostor pairs (FAR 1e-2) | 0.40 | 0.256 | 0.287 |
//! | exceeded by 0.1% of impostor pairs (FAR 1e-3) | 0.50 | 0.370 | 0.344 |
//! | above every impostor pair (FAR < 1e-4) | 0.65 | 0.500 (max 0.489) | 0.460 (max 0.447) |
//!
//! So "above 0.65" is a solid match and "above 0.5" between different ids flags a possible
//! duplicate at a 1-in-1,000 false-flag rate, for either model.

use domain::FaceModel;

/// (cosine, similarity) knots of `fr_feature`, increasing in both.
pub const FR_FEATURE_KNOTS: [(f32, f32); 6] = [
    (-1.0, 0.0),
    (0.0, 0.15),
    (0.256, 0.40),
    (0.370, 0.50),
    (0.500, 0.65),
    (1.0, 1.0),
];

/// (cosine, similarity) knots of SFace, increasing in both (measured 2026-12-03).
pub const SFACE_KNOTS: [(f32, f32); 6] = [
    (-1.0, 0.0),
    (0.0, 0.15),
    (0.287, 0.40),
    (0.344, 0.50),
    (0.460, 0.65),
    (1.0, 1.0),
];

/// The knots of `model`.
pub fn calibration_knots(model: FaceModel) -> &'static [(f32, f32); 6] {
    match model {
        FaceModel::FrFeature => &FR_FEATURE_KNOTS,
        FaceModel::Sface => &SFACE_KNOTS,
    }
}

/// Maps a raw cosine of `model`'s embeddings to a similarity in 0..1.
pub fn similarity_from_cosine(model: FaceModel, cosine: f32) -> f32 {
    let c = cosine.clamp(-1.0, 1.0);
    for pair in calibration_knots(model).windows(2) {
        let ((c0, s0), (c1, s1)) = (pair[0], pair[1]);
        if c <= c1 {
            return s0 + (s1 - s0) * (c - c0) / (c1 - c0);
        }
    }
    1.0
}

/// The raw cosine of `model` at which the calibrated similarity equals `similarity`.
pub fn cosine_from_similarity(model: FaceModel, similarity: f32) -> f32 {
    let s = similarity.clamp(0.0, 1.0);
    for pair in calibration_knots(model).windows(2) {
        let ((c0, s0), (c1, s1)) = (pair[0], pair[1]);
        if s <= s1 {
            return c0 + (c1 - c0) * (s - s0) / (s1 - s0);
        }
    }
    1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_calibration_is_monotone_bounded_and_invertible() {
        for model in FaceModel::ALL {
            let mut last = -1.0;
            for i in -100..=100 {
                let s = similarity_from_cosine(model, i as f32 / 100.0);
                assert!((0.0..=1.0).contains(&s));
                assert!(s >= last, "{model}");
                last = s;
            }
            assert_eq!(similarity_from_cosine(model, 1.0), 1.0);
            assert_eq!(similarity_from_cosine(model, -1.0), 0.0);
            for s in [0.0, 0.3, 0.5, 0.65, 0.9, 1.0] {
                let back = similarity_from_cosine(model, cosine_from_similarity(model, s));
                assert!((back - s).abs() < 1e-5, "{model} {s}");
            }
        }
    }
}
