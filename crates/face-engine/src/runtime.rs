//! The only module that touches tract: loads an ONNX file with a fixed input shape into a
//! shared, thread-safe plan and runs it on ndarray tensors.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use ndarray::{Array4, ArrayD};
use tract_onnx::prelude::*;

use crate::error::{EngineError, EngineResult};

type Plan = Arc<TypedRunnableModel>;

/// One optimised model, shareable across threads (`run` takes `&self`).
#[derive(Clone)]
pub(crate) struct OnnxModel {
    name: String,
    input_shape: [usize; 4],
    plan: Plan,
    stats: Arc<RunStats>,
}

/// Inference count and time of one model, for metrics.
#[derive(Debug, Default)]
pub(crate) struct RunStats {
    pub runs: AtomicU64,
    pub nanos: AtomicU64,
}

impl std::fmt::Debug for OnnxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxModel")
            .field("name", &self.name)
            .finish()
    }
}

impl OnnxModel {
    /// Loads an ONNX model from its bytes, fixes input 0 to `input_shape` and optimises the
    /// graph.
    pub(crate) fn load(name: &str, onnx: &[u8], input_shape: &[usize]) -> EngineResult<Self> {
        let fail = |e: TractError| EngineError::Inference {
            model: name.to_owned(),
            message: format!("{e:#}"),
        };
        let plan = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(fail)?
            .with_input_fact(0, f32::fact(input_shape).into())
            .map_err(fail)?
            .into_optimized()
            .map_err(fail)?
            .into_runnable()
            .map_err(fail)?;
        let input_shape: [usize; 4] = input_shape.try_into().map_err(|_| {
            EngineError::Manifest(format!(
                "{name}: input_shape must have 4 dimensions, got {input_shape:?}"
            ))
        })?;
        Ok(Self {
            name: name.to_owned(),
            input_shape,
            plan,
            stats: Arc::new(RunStats::default()),
        })
    }

    /// (model name, runs, total seconds) so far.
    pub(crate) fn stats(&self) -> (String, u64, f64) {
        let runs = self.stats.runs.load(Ordering::Relaxed);
        let seconds = self.stats.nanos.load(Ordering::Relaxed) as f64 / 1e9;
        (self.name.clone(), runs, seconds)
    }

    /// Runs the model once on a zero tensor of its input shape (benchmarks only).
    pub(crate) fn run_on_zeros(&self) -> EngineResult<()> {
        self.run(Array4::zeros(self.input_shape)).map(|_| ())
    }

    /// Runs the model on one input tensor and returns every output as an owned array.
    pub(crate) fn run(&self, input: Array4<f32>) -> EngineResult<Vec<ArrayD<f32>>> {
        let fail = |e: TractError| EngineError::Inference {
            model: self.name.clone(),
            message: format!("{e:#}"),
        };
        let started = Instant::now();
        let outputs = self
            .plan
            .run(tvec!(Tensor::from(input).into_tvalue()))
            .map_err(fail)?;
        self.stats.runs.fetch_add(1, Ordering::Relaxed);
        self.stats
            .nanos
            .fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        outputs
            .iter()
            .map(|t| {
                t.to_plain_array_view::<f32>()
                    .map(|v| v.to_owned())
                    .map_err(fail)
            })
            .collect()
    }
}
