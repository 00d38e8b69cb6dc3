//! Loads an ONNX file with a fixed input shape into a shared, thread-safe plan (with our
//! kernels swapped in, [`crate::kernels`]) and runs it on ndarray tensors.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use ndarray::{Array4, ArrayD};
use tract_onnx::prelude::*;
use tract_onnx::tract_core::plan::SimpleState;

use crate::kernels::{Kernels, RewriteCounts, clear_upper_vector_state};
use crate::{InferenceError, InferenceResult};

type Plan = Arc<TypedRunnableModel>;

/// One optimised model, shareable across threads (`run` takes `&self`).
#[derive(Clone)]
pub struct OnnxModel {
    name: String,
    input_shape: [usize; 4],
    plan: Plan,
    /// Runs tract as it ships (no rewrite, no vector-state clearing): [`Kernels::PlainTract`].
    plain_tract: bool,
    /// The ops our kernels replaced, by kind.
    rewrites: RewriteCounts,
    stats: Arc<RunStats>,
}

/// One node of a compiled plan and its mean time a run ([`OnnxModel::profile`]).
#[derive(Debug, Clone)]
pub struct NodeCost {
    /// tract's operator name (`OptMatMul`, `RowwiseDepthwise`, …).
    pub op: String,
    /// The operator's own description of its shapes and kernels.
    pub detail: String,
    pub millis: f64,
}

/// Uniform values in [0, 1) from a fixed seed, the input benchmarks time a model on. (All
/// zeros would be unfair: several of our graphs then carry denormal floats, which are slow on
/// x86 in tract and in onnxruntime alike.)
fn benchmark_input(shape: [usize; 4]) -> Array4<f32> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    Array4::from_shape_simple_fn(shape, || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    })
}

/// Inference count and time of one model, for metrics.
#[derive(Debug, Default)]
struct RunStats {
    runs: AtomicU64,
    nanos: AtomicU64,
}

impl std::fmt::Debug for OnnxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxModel")
            .field("name", &self.name)
            .finish()
    }
}

impl OnnxModel {
    /// Loads an ONNX model from its bytes, fixes input 0 to `input_shape`, swaps in our
    /// kernels ([`crate::kernels`]) and optimises the graph.
    pub fn load(
        name: &str,
        onnx: &[u8],
        input_shape: &[usize],
        kernels: Kernels,
    ) -> InferenceResult<Self> {
        let fail = |e: TractError| InferenceError::Load {
            model: name.to_owned(),
            message: format!("{e:#}"),
        };
        let input_shape: [usize; 4] =
            input_shape
                .try_into()
                .map_err(|_| InferenceError::InputShape {
                    model: name.to_owned(),
                    shape: input_shape.to_vec(),
                })?;
        crate::kernels::prefer_measured_vector_width();
        let plain_tract = kernels == Kernels::PlainTract;
        let mut rewrites = RewriteCounts::default();
        let plan = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(fail)?
            .with_input_fact(0, f32::fact(input_shape).into())
            .map_err(fail)?
            .into_typed()
            .and_then(|typed| typed.into_decluttered())
            .and_then(|typed| {
                if plain_tract {
                    Ok(typed)
                } else {
                    crate::kernels::rewrite(typed, kernels, &mut rewrites)
                }
            })
            .and_then(|typed| typed.into_optimized())
            .map_err(fail)?
            .into_runnable()
            .map_err(fail)?;
        Ok(Self {
            name: name.to_owned(),
            input_shape,
            plan,
            plain_tract,
            rewrites,
            stats: Arc::new(RunStats::default()),
        })
    }

    /// The ops our kernels replaced in this model (all zero on [`Kernels::PlainTract`]).
    pub fn rewrites(&self) -> RewriteCounts {
        self.rewrites
    }

    /// (model name, runs, total seconds) so far.
    pub fn stats(&self) -> (String, u64, f64) {
        let runs = self.stats.runs.load(Ordering::Relaxed);
        let seconds = self.stats.nanos.load(Ordering::Relaxed) as f64 / 1e9;
        (self.name.clone(), runs, seconds)
    }

    /// Runs the model once on `benchmark_input` (benchmarks only).
    pub fn run_on_benchmark_input(&self) -> InferenceResult<()> {
        self.run(benchmark_input(self.input_shape)).map(|_| ())
    }

    /// Every output of one run on `benchmark_input`, flattened.
    pub fn benchmark_outputs(&self) -> InferenceResult<Vec<Vec<f32>>> {
        let outputs = self.run(benchmark_input(self.input_shape))?;
        Ok(outputs
            .into_iter()
            .map(|o| o.iter().copied().collect())
            .collect())
    }

    /// Times every node of the plan over `runs` runs on `benchmark_input` (after 5 warm-up
    /// runs): the mean milliseconds a run of each node, in plan order.
    pub fn profile(&self, runs: usize) -> InferenceResult<Vec<NodeCost>> {
        let fail = |e: TractError| InferenceError::Run {
            model: self.name.clone(),
            message: format!("{e:#}"),
        };
        let mut millis = vec![0.0f64; self.plan.model().nodes().len()];
        for run in 0..runs + 5 {
            let mut state = SimpleState::new(&self.plan).map_err(fail)?;
            let input = Tensor::from(benchmark_input(self.input_shape)).into_tvalue();
            state
                .run_plan_with_eval(tvec!(input), |context, op_state, node, inputs| {
                    if !self.plain_tract {
                        clear_upper_vector_state();
                    }
                    let started = Instant::now();
                    let outputs =
                        tract_onnx::tract_core::plan::eval(context, op_state, node, inputs);
                    if run >= 5 {
                        millis[node.id] += started.elapsed().as_secs_f64() * 1000.0;
                    }
                    outputs
                })
                .map_err(fail)?;
        }
        let model = self.plan.model();
        Ok(self
            .plan
            .order_without_consts()
            .iter()
            .map(|&id| {
                let node = model.node(id);
                NodeCost {
                    op: node.op().name().to_string(),
                    detail: node.op().info().unwrap_or_default().join("; "),
                    millis: millis[id] / runs.max(1) as f64,
                }
            })
            .collect())
    }

    /// Runs the model on one input tensor and returns every output as an owned array.
    pub fn run(&self, input: Array4<f32>) -> InferenceResult<Vec<ArrayD<f32>>> {
        let fail = |e: TractError| InferenceError::Run {
            model: self.name.clone(),
            message: format!("{e:#}"),
        };
        let started = Instant::now();
        let input = tvec!(Tensor::from(input).into_tvalue());
        let outputs = if self.plain_tract {
            self.plan.run(input)
        } else {
            SimpleState::new(&self.plan).and_then(|mut state| {
                let outputs = state.run_plan_with_eval(input, |context, op_state, node, inputs| {
                    clear_upper_vector_state();
                    tract_onnx::tract_core::plan::eval(context, op_state, node, inputs)
                });
                clear_upper_vector_state();
                outputs
            })
        }
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
