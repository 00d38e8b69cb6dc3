//! Calibration from the embedder's raw cosine to the published similarity in 0..1.
//!
//! The map is piecewise linear and monotone. Its knots come from the cosine distributions
//! measured on all of `testdata/identities` pooled (160 images, 489 genuine and 11,446
//! impostor pairs including cross-set pairs; `examples/calibrate.rs`, docs/accuracy.md):
//!
//! | raw cosine | measured meaning | similarity |
//! |---|---|---|
//! | 0.256 | exceeded by 1% of impostor pairs (FAR 1e-2) | 0.40 |
//! | 0.370 | exceeded by 0.1% of impostor pairs (FAR 1e-3) | 0.50 |
//! | 0.500 | above every impostor pair (max 0.489, FAR < 1e-4) | 0.65 |
//!
//! So "above 0.65" is a solid match and "above 0.5" between different ids flags a possible
//! duplicate at a 1-in-1,000 false-flag rate. 95% of genuine pairs score above 0.70.

/// (cosine, similarity) knots, increasing in both.
pub const CALIBRATION_KNOTS: [(f32, f32); 6] = [
    (-1.0, 0.0),
    (0.0, 0.15),
    (0.256, 0.40),
    (0.370, 0.50),
    (0.500, 0.65),
    (1.0, 1.0),
];

/// Maps a raw cosine to a similarity in 0..1.
pub fn similarity_from_cosine(cosine: f32) -> f32 {
    let c = cosine.clamp(-1.0, 1.0);
    for pair in CALIBRATION_KNOTS.windows(2) {
        let ((c0, s0), (c1, s1)) = (pair[0], pair[1]);
        if c <= c1 {
            return s0 + (s1 - s0) * (c - c0) / (c1 - c0);
        }
    }
    1.0
}

/// The raw cosine at which the calibrated similarity equals `similarity` (inverse map).
pub fn cosine_from_similarity(similarity: f32) -> f32 {
    let s = similarity.clamp(0.0, 1.0);
    for pair in CALIBRATION_KNOTS.windows(2) {
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
    fn calibration_is_monotone_and_bounded() {
        let mut last = -1.0;
        for i in -100..=100 {
            let s = similarity_from_cosine(i as f32 / 100.0);
            assert!((0.0..=1.0).contains(&s));
            assert!(s >= last);
            last = s;
        }
        assert_eq!(similarity_from_cosine(1.0), 1.0);
        assert_eq!(similarity_from_cosine(-1.0), 0.0);
        for s in [0.0, 0.3, 0.5, 0.65, 0.9, 1.0] {
            assert!((similarity_from_cosine(cosine_from_similarity(s)) - s).abs() < 1e-5);
        }
    }
}
