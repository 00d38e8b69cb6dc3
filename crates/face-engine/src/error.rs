//! The face engine's error type: every way decoding, model loading or inference can fail.

use thiserror::Error;

/// Errors returned by the face engine. Each variant is stable and maps to one API error code.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The input was zero bytes long.
    #[error("the image is empty")]
    EmptyImage,
    /// The bytes are not in a supported image format (JPEG, PNG or WebP).
    #[error("the data is not a supported image (JPEG, PNG or WebP)")]
    UnsupportedFormat,
    /// The image header was recognised but the data could not be decoded (truncated or corrupt).
    #[error("the image could not be decoded: {0}")]
    CorruptImage(String),
    /// The declared dimensions exceed the pixel limit (decompression-bomb guard).
    #[error("the image declares {width}x{height} pixels, over the limit of {max_pixels}")]
    TooManyPixels {
        width: u32,
        height: u32,
        max_pixels: u64,
    },
    /// No face was found where one was required.
    #[error("no face was found in the image")]
    NoFace,
    /// More than one face was found where exactly one was required.
    #[error("{count} faces were found where exactly one is required")]
    MultipleFaces { count: usize },
    /// A model file named by the manifest is missing.
    #[error("model file {path} is missing")]
    ModelMissing { path: String },
    /// A model file's sha256 differs from the manifest.
    #[error("model file {file} has sha256 {actual}, the manifest expects {expected}")]
    ModelChecksum {
        file: String,
        expected: String,
        actual: String,
    },
    /// An embedder's output is not as wide as its face model's embeddings.
    #[error(
        "embedder file {file} ({face_model}) outputs {actual} values, the model's embeddings have {expected}"
    )]
    EmbedderWidth {
        file: String,
        face_model: &'static str,
        expected: usize,
        actual: usize,
    },
    /// Two embeddings of different face models were compared.
    #[error("an embedding of {left} cannot be compared with one of {right}")]
    FaceModelMismatch {
        left: &'static str,
        right: &'static str,
    },
    /// The manifest is missing, unreadable or lacks a required role.
    #[error("model manifest: {0}")]
    Manifest(String),
    /// The inference runtime failed (model load or run).
    #[error(transparent)]
    Inference(#[from] inference::InferenceError),
}

/// Shorthand result type for the face engine.
pub type EngineResult<T> = Result<T, EngineError>;

impl domain::ErrorCode for EngineError {
    fn error_code(&self) -> domain::Code {
        use domain::Code;
        match self {
            EngineError::EmptyImage => Code::EmptyImage,
            EngineError::UnsupportedFormat => Code::UnsupportedImageFormat,
            EngineError::CorruptImage(_) => Code::InvalidImage,
            EngineError::TooManyPixels { .. } => Code::ImageTooManyPixels,
            EngineError::NoFace => Code::NoFace,
            EngineError::MultipleFaces { .. } => Code::MultipleFaces,
            EngineError::FaceModelMismatch { .. } => Code::EmbedderMismatch,
            EngineError::ModelMissing { .. }
            | EngineError::EmbedderWidth { .. }
            | EngineError::ModelChecksum { .. }
            | EngineError::Manifest(_)
            | EngineError::Inference { .. } => Code::InternalError,
        }
    }
}
