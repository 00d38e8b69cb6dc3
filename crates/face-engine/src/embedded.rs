//! The shipped models compiled into the library: `models/manifest.toml` and every ONNX file it
//! names, embedded at build time (rust-embed, also in debug builds), so one binary runs from
//! any directory. Loading checks each file's sha256 against the embedded manifest exactly as a
//! folder load does.

use rust_embed::RustEmbed;

use crate::error::{EngineError, EngineResult};
use crate::manifest::{ModelEntry, ModelSet, parse_manifest};
use inference::Kernels;

/// `models/` as shipped (its README and rebuild scripts come along: a few KB).
#[derive(RustEmbed)]
#[folder = "../../models/"]
struct ShippedModels;

/// The embedded manifest's entries.
pub(crate) fn manifest() -> EngineResult<Vec<ModelEntry>> {
    let file = ShippedModels::get("manifest.toml")
        .ok_or_else(|| EngineError::Manifest("no embedded manifest.toml".into()))?;
    let text = std::str::from_utf8(&file.data)
        .map_err(|e| EngineError::Manifest(format!("embedded manifest.toml: {e}")))?;
    parse_manifest(text, "embedded manifest.toml")
}

/// Loads the embedded models, verifying each.
pub(crate) fn load(entries: &[ModelEntry]) -> EngineResult<ModelSet> {
    ModelSet::load_with(entries, Kernels::from_env(), |file| {
        ShippedModels::get(file)
            .map(|embedded| embedded.data.into_owned())
            .ok_or_else(|| EngineError::ModelMissing {
                path: format!("embedded {file}"),
            })
    })
}
