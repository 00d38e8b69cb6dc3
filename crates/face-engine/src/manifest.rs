//! Reads `models/manifest.toml`, verifies each file's sha256 and loads every model once.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use domain::FaceModel;
use inference::{Kernels, OnnxModel};

use crate::error::{EngineError, EngineResult};

/// What a model does in the engine; the manifest names it (`role = "embedder"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelRole {
    DetectorSelfie,
    DetectorGroup,
    Landmarks,
    Embedder,
    /// SFace, the second identity embedder (issue 68).
    EmbedderSface,
    AntiSpoof,
}

impl ModelRole {
    /// Every role, in manifest order.
    pub const ALL: [ModelRole; 6] = [
        ModelRole::DetectorSelfie,
        ModelRole::DetectorGroup,
        ModelRole::Landmarks,
        ModelRole::Embedder,
        ModelRole::EmbedderSface,
        ModelRole::AntiSpoof,
    ];

    /// The role of the embedder of `model`.
    pub fn embedder_of(model: FaceModel) -> ModelRole {
        match model {
            FaceModel::FrFeature => ModelRole::Embedder,
            FaceModel::Sface => ModelRole::EmbedderSface,
        }
    }

    /// The name in the manifest and in metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelRole::DetectorSelfie => "detector_selfie",
            ModelRole::DetectorGroup => "detector_group",
            ModelRole::Landmarks => "landmarks",
            ModelRole::Embedder => "embedder",
            ModelRole::EmbedderSface => "embedder_sface",
            ModelRole::AntiSpoof => "anti_spoof",
        }
    }
}

impl std::fmt::Display for ModelRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Deserialize)]
struct ManifestFile {
    model: Vec<ModelEntry>,
}

/// One `[[model]]` entry; only the fields the engine needs are read.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelEntry {
    pub role: ModelRole,
    pub file: String,
    pub sha256: String,
    pub input_shape: Vec<usize>,
}

/// Every model the engine uses, loaded and verified.
#[derive(Debug, Clone)]
pub(crate) struct ModelSet {
    pub detector_selfie: OnnxModel,
    pub detector_group: OnnxModel,
    pub landmarks: OnnxModel,
    pub embedder: OnnxModel,
    pub embedder_sface: OnnxModel,
    pub anti_spoof: OnnxModel,
}

/// Parses the manifest at `models_dir/manifest.toml`.
pub fn read_manifest(models_dir: &Path) -> EngineResult<Vec<ModelEntry>> {
    let path = models_dir.join("manifest.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| EngineError::Manifest(format!("cannot read {}: {e}", path.display())))?;
    parse_manifest(&text, &path.display().to_string())
}

/// Parses manifest text; `origin` names it in errors.
pub fn parse_manifest(text: &str, origin: &str) -> EngineResult<Vec<ModelEntry>> {
    let parsed: ManifestFile =
        toml::from_str(text).map_err(|e| EngineError::Manifest(format!("{origin}: {e}")))?;
    Ok(parsed.model)
}

/// sha256 of a file as lowercase hex.
pub fn sha256_file(path: &Path) -> EngineResult<String> {
    let bytes = std::fs::read(path).map_err(|_| EngineError::ModelMissing {
        path: path.display().to_string(),
    })?;
    Ok(hex::encode(Sha256::digest(&bytes)))
}

impl ModelSet {
    /// The model playing `role`.
    pub(crate) fn by_role(&self, role: ModelRole) -> &OnnxModel {
        match role {
            ModelRole::DetectorSelfie => &self.detector_selfie,
            ModelRole::DetectorGroup => &self.detector_group,
            ModelRole::Landmarks => &self.landmarks,
            ModelRole::Embedder => &self.embedder,
            ModelRole::EmbedderSface => &self.embedder_sface,
            ModelRole::AntiSpoof => &self.anti_spoof,
        }
    }

    /// Loads the models of `entries` (read from `models_dir/manifest.toml`) from that folder.
    pub(crate) fn load(
        models_dir: &Path,
        entries: &[ModelEntry],
        kernels: Kernels,
    ) -> EngineResult<Self> {
        Self::load_with(entries, kernels, |file| {
            let path: PathBuf = models_dir.join(file);
            std::fs::read(&path).map_err(|_| EngineError::ModelMissing {
                path: path.display().to_string(),
            })
        })
    }

    /// Loads the models of `entries`, reading each file's bytes with `read` and checking its
    /// sha256 against the manifest before tract sees it.
    pub(crate) fn load_with(
        entries: &[ModelEntry],
        kernels: Kernels,
        read: impl Fn(&str) -> EngineResult<Vec<u8>>,
    ) -> EngineResult<Self> {
        let load = |role: ModelRole| -> EngineResult<OnnxModel> {
            let entry = entries
                .iter()
                .find(|e| e.role == role)
                .ok_or_else(|| EngineError::Manifest(format!("no model with role `{role}`")))?;
            let bytes = read(&entry.file)?;
            let actual = hex::encode(Sha256::digest(&bytes));
            if !actual.eq_ignore_ascii_case(&entry.sha256) {
                return Err(EngineError::ModelChecksum {
                    file: entry.file.clone(),
                    expected: entry.sha256.clone(),
                    actual,
                });
            }
            let model = OnnxModel::load(role.as_str(), &bytes, &entry.input_shape, kernels)?;
            if let Some(face_model) = FaceModel::ALL
                .into_iter()
                .find(|m| ModelRole::embedder_of(*m) == role)
            {
                check_embedding_width(&model, &entry.file, face_model)?;
            }
            Ok(model)
        };
        Ok(Self {
            detector_selfie: load(ModelRole::DetectorSelfie)?,
            detector_group: load(ModelRole::DetectorGroup)?,
            landmarks: load(ModelRole::Landmarks)?,
            embedder: load(ModelRole::Embedder)?,
            embedder_sface: load(ModelRole::EmbedderSface)?,
            anti_spoof: load(ModelRole::AntiSpoof)?,
        })
    }
}

/// An embedder whose output is not as wide as its face model's embeddings stops start-up: a
/// swapped file of another width would write vectors that no stored collection can be
/// searched with.
fn check_embedding_width(model: &OnnxModel, file: &str, face_model: FaceModel) -> EngineResult<()> {
    let actual = model
        .benchmark_outputs()?
        .first()
        .map(Vec::len)
        .unwrap_or_default();
    let expected = face_model.dimensions();
    if actual != expected {
        return Err(EngineError::EmbedderWidth {
            file: file.to_owned(),
            face_model: face_model.as_str(),
            expected,
            actual,
        });
    }
    Ok(())
}
