//! Facegate's inference layer: the only crate that touches tract. [`OnnxModel`] loads an ONNX
//! file into a shared, thread-safe plan and runs it on ndarray tensors; [`kernels`] swaps
//! tract's slow ops for our own before the plan is optimised, and counts what it swapped
//! ([`RewriteCounts`]). These rewrites name tract's internal ops and plan evaluation, which
//! tract does not keep under semver, so this crate pins tract exactly (`Cargo.toml`) and
//! `tests/it/rewrite_counts.rs` fails when an upgrade or a renamed op would silently skip one.

pub mod kernels;
mod runtime;

use thiserror::Error;

pub use kernels::{Kernels, Rewrite, RewriteCounts};
pub use runtime::{NodeCost, OnnxModel};

/// Why a model could not be loaded or run.
#[derive(Debug, Error)]
pub enum InferenceError {
    /// tract refused the model (parse, typing, rewrite or optimisation).
    #[error("model {model} could not be loaded: {message}")]
    Load { model: String, message: String },
    /// The model's input shape is not four dimensions.
    #[error("model {model}: input_shape must have 4 dimensions, got {shape:?}")]
    InputShape { model: String, shape: Vec<usize> },
    /// A run failed.
    #[error("inference failed in {model}: {message}")]
    Run { model: String, message: String },
}

/// The result of loading or running a model.
pub type InferenceResult<T> = Result<T, InferenceError>;
