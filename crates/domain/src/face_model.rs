//! The face models (embedders) a collection, a compare or a liveness-with-verify reference can
//! use (issue 68). A collection's model is chosen at creation and never changes: images are
//! not kept, so its embeddings cannot be recomputed with another model.

use serde::{Deserialize, Serialize};

/// An identity embedder shipped in `models/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceModel {
    /// MobileFaceNet-style, 512-d (the model every collection created before issue 68 uses).
    FrFeature,
    /// OpenCV Zoo's SFace (2021dec), 128-d, Apache-2.0.
    Sface,
}

impl FaceModel {
    /// Every model, in the order the API lists them.
    pub const ALL: [FaceModel; 2] = [FaceModel::FrFeature, FaceModel::Sface];

    /// The model of collections, compares and references that do not name one. Chosen by
    /// measurement (docs/accuracy.md, "Face models"): SFace misses fewer people at every
    /// false-accept rate measured, for about 1.8x the embedding cost.
    pub const DEFAULT: FaceModel = FaceModel::Sface;

    /// The model of rows written before models were recorded (existing collections and
    /// liveness-with-verify references).
    pub const LEGACY: FaceModel = FaceModel::FrFeature;

    /// The API's name (`fr_feature`, `sface`).
    pub fn as_str(self) -> &'static str {
        match self {
            FaceModel::FrFeature => "fr_feature",
            FaceModel::Sface => "sface",
        }
    }

    /// The model named `name` exactly as the API writes it.
    pub fn parse(name: &str) -> Option<FaceModel> {
        FaceModel::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// Every model's name, comma-separated (error messages list them).
    pub fn names() -> String {
        FaceModel::ALL.map(FaceModel::as_str).join(", ")
    }

    /// The width of the model's embeddings.
    pub fn dimensions(self) -> usize {
        match self {
            FaceModel::FrFeature => 512,
            FaceModel::Sface => 128,
        }
    }
}

impl std::fmt::Display for FaceModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::FaceModel;

    #[test]
    fn every_model_parses_from_its_own_name_and_nothing_else_does() {
        for model in FaceModel::ALL {
            assert_eq!(FaceModel::parse(model.as_str()), Some(model));
            assert_eq!(
                serde_json::to_value(model).expect("json"),
                serde_json::json!(model.as_str())
            );
        }
        for other in ["", "SFACE", "arcface", "fr-feature"] {
            assert_eq!(FaceModel::parse(other), None, "{other}");
        }
        assert_eq!(FaceModel::names(), "fr_feature, sface");
    }
}
