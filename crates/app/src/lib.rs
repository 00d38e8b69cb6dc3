//! Facegate's application layer: the use cases of faces, collections and 1:N search, as
//! `do_…` methods of [`FaceServices`] (in the manner of qdrant's `do_…` functions). They are
//! synchronous and blocking (run them off an async executor), validate their own inputs, pass
//! the process's one inference gate before running a model, enforce `limits.max_image_pixels`
//! on every image they read, and return [`AppError`], never an HTTP status. The session use
//! cases are the crate `sessions`, which shares the gate (`face_engine::gate`) without either
//! crate depending on the other; the web layer (`http`)
//! only extracts, calls one use case and maps the result.

mod collections;
pub mod dto;
mod error;
mod faces;
mod index_quality;
mod operations;
mod search;

use std::sync::Arc;

use face_engine::{FaceEngine, Image};
use storage::search::FaceSearch;

pub use collections::Page;
pub use error::{AppError, AppResult};
pub use face_engine::gate::InferenceGate;
pub use index_quality::{QualityFilter, QualityReason};
pub use operations::Operations;
pub use search::SearchQuery;

/// The default similarity threshold of every compare: the spec's "solid match", defined once.
pub const DEFAULT_THRESHOLD: f32 = domain::DEFAULT_COMPARE_THRESHOLD;

/// Limits every use case applies to what it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadLimits {
    /// Images declaring more pixels are refused before they are decoded.
    pub max_image_pixels: u64,
}

impl Default for UploadLimits {
    fn default() -> Self {
        Self {
            max_image_pixels: face_engine::DEFAULT_MAX_PIXELS,
        }
    }
}

/// The Face Services use cases over one engine, one face index (with its store) and the
/// process's inference gate.
#[derive(Debug, Clone)]
pub struct FaceServices {
    engine: Arc<FaceEngine>,
    search: Arc<FaceSearch>,
    gate: Arc<InferenceGate>,
    limits: UploadLimits,
}

impl FaceServices {
    /// The use cases around `engine` and `search`, whose model runs pass `gate`.
    pub fn new(
        engine: Arc<FaceEngine>,
        search: Arc<FaceSearch>,
        gate: Arc<InferenceGate>,
        limits: UploadLimits,
    ) -> Self {
        Self {
            engine,
            search,
            gate,
            limits,
        }
    }

    /// The engine the use cases run.
    pub fn engine(&self) -> &Arc<FaceEngine> {
        &self.engine
    }

    /// The face index (and, through it, the store).
    pub fn search(&self) -> &Arc<FaceSearch> {
        &self.search
    }

    /// Decodes an uploaded image within the pixel limit.
    fn decode(&self, bytes: &[u8]) -> AppResult<Image> {
        Ok(Image::decode_with_limit(
            bytes,
            self.limits.max_image_pixels,
        )?)
    }
}
