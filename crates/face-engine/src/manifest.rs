//! Reads `models/manifest.toml`, verifies each file's sha256 and loads every model once.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::error::{EngineError, EngineResult};
use crate::kernels::Kernels;
use crate::runtime::OnnxModel;

#[derive(Debug, Deserialize)]
struct ManifestFile {
    model: Vec<ModelEntry>,
}

/// One `[[model]]` entry; only the fields the engine needs are read.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelEntry {
    pub role: String,
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
    /// The model playing `role`, if the engine has one.
    pub(crate) fn by_role(&self, role: &str) -> Option<&OnnxModel> {
        Some(match role {
            "detector_selfie" => &self.detector_selfie,
            "detector_group" => &self.detector_group,
            "landmarks" => &self.landmarks,
            "embedder" => &self.embedder,
            "anti_spoof" => &self.anti_spoof,
            _ => return None,
        })
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
        let load = |role: &str| -> EngineResult<OnnxModel> {
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
            OnnxModel::load(role, &bytes, &entry.input_shape, kernels)
        };
        Ok(Self {
            detector_selfie: load("detector_selfie")?,
            detector_group: load("detector_group")?,
            landmarks: load("landmarks")?,
            embedder: load("embedder")?,
            anti_spoof: load("anti_spoof")?,
        })
    }
}
