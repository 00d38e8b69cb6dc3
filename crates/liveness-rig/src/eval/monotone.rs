//! The direction in which each input of the fitted decision may pull (issue 66: "a shallow
//! monotone model"): set from what the layer measures, not from the data, so a fit cannot
//! learn that a flatter face, a stronger glare or an attack flag makes a live person more
//! likely because a few sessions of the development set happen to say so. The fit
//! ([`super::fit::fit`]) keeps each signed input's weight on its side of zero (a projected
//! gradient step: a weight that would cross zero stops at zero); inputs whose direction the
//! physics does not settle (a layer not judging, how much the head swayed, how often the
//! room moved, the missing indicators) stay free.

/// +1 where a larger value means a live face is more likely, -1 where less likely, `None`
/// where the direction is not settled by what the input measures. A layer's outcomes carry
/// the same meaning in every layer; a measured feature is named in full (layer and feature),
/// so a feature of another layer that shares its name gets no sign it was not given.
pub fn expected_sign(input: &str) -> Option<f64> {
    let (_, part) = input.split_once('.')?;
    match part {
        // every layer's outcome: its score and its vouching for a live face, its attack flag
        "score" | "vouches" => return Some(1.0),
        "attack" => return Some(-1.0),
        _ => {}
    }
    match input {
        // the model's live probability
        "anti_spoof.median" | "anti_spoof.p25" => Some(1.0),
        // a screen's moiré, a blending boundary, light added on top (a screen's glass), a
        // paper margin, outline ring or surround answering as the face does, surroundings
        // moving with it
        "deepfake_injection.moire"
        | "deepfake_injection.boundary"
        | "deepfake_injection.light_glare_ratio"
        | "deepfake_injection.light_added_light"
        | "deepfake_injection.light_margin_ratio"
        | "deepfake_injection.light_margin_in_errors"
        | "deepfake_injection.light_outline_ratio"
        | "deepfake_injection.light_outline_in_errors"
        | "deepfake_injection.light_surround_ratio"
        | "motion.ring_with_face_share" => Some(-1.0),
        // the face following this session's sequence, and its depth: relief under the light,
        // texture off the plane of a moving face
        "deepfake_injection.light_correlation"
        | "deepfake_injection.light_over_chance"
        | "deepfake_injection.light_relief"
        | "deepfake_injection.light_relief_in_errors"
        | "motion.off_plane_share"
        | "motion.short_off_plane_share"
        | "motion.median_off_plane" => Some(1.0),
        _ => None,
    }
}

/// `weight` kept on the side of zero that `sign` allows (unchanged without a sign).
pub fn project(weight: f64, sign: Option<f64>) -> f64 {
    match sign {
        Some(s) if weight * s < 0.0 => 0.0,
        _ => weight,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_pulls_towards_live_and_a_sheets_evidence_away() {
        assert_eq!(
            expected_sign("deepfake_injection.light_relief_in_errors"),
            Some(1.0)
        );
        assert_eq!(expected_sign("motion.median_off_plane"), Some(1.0));
        assert_eq!(
            expected_sign("deepfake_injection.light_margin_ratio"),
            Some(-1.0)
        );
        assert_eq!(expected_sign("anti_spoof.attack"), Some(-1.0));
        assert_eq!(expected_sign("motion.sway"), None);
        assert_eq!(expected_sign("anti_spoof.unjudged"), None);
        assert_eq!(expected_sign("face_consistency.score"), Some(1.0));
    }

    #[test]
    fn a_feature_is_signed_by_its_full_name_only() {
        assert_eq!(expected_sign("anti_spoof.median"), Some(1.0));
        assert_eq!(expected_sign("motion.median"), None);
        assert_eq!(expected_sign("anti_spoof.moire"), None);
        assert_eq!(expected_sign("median"), None);
    }

    /// Every feature given a sign is one the engine exports (a misspelt name would leave its
    /// feature free without a word).
    #[test]
    fn every_signed_feature_is_an_engine_input() {
        let engine = liveness_engine::fitted::input_names(liveness_engine::SessionMode::Passive);
        let signed_features = engine
            .iter()
            .filter(|name| {
                let outcome = name
                    .split_once('.')
                    .is_some_and(|(_, part)| liveness_engine::fitted::OUTCOMES.contains(&part));
                !outcome && expected_sign(name).is_some()
            })
            .count();
        assert_eq!(signed_features, 19);
    }

    #[test]
    fn a_weight_that_crosses_zero_stops_there() {
        assert_eq!(project(-0.3, Some(1.0)), 0.0);
        assert_eq!(project(0.3, Some(1.0)), 0.3);
        assert_eq!(project(0.3, Some(-1.0)), 0.0);
        assert_eq!(project(-0.3, None), -0.3);
    }
}
