//! Graph rewrites that swap four of tract's slow kernels for our own before the plan is
//! optimised: depthwise convolutions (`depthwise::RowwiseDepthwise`), PReLUs written as
//! `Max(x, 0) + alpha × Min(x, 0)` (`prelu::ChannelPrelu`), last-axis softmaxes
//! (`softmax::LastAxisSoftmax`) and unpadded max pooling (`maxpool::PlaneMaxPool`).
//! Everything else stays tract's. (A constant-padding kernel was removed in issue 30: it
//! gained less than 5% over tract 0.23.9's own on every model.) Before them, weights too small
//! to change any output are set to zero (`dead_weights`): they only cost subnormal
//! arithmetic in tract's matrix kernels. Each rewrite is measured in `docs/benchmarks.md`
//! (issues 16 and 42) and checked against tract's own output in `tests/it/tract_rewrites.rs` of
//! the face engine; [`RewriteCounts`] says how many ops each rewrite replaced in a model (and
//! how many weights were dead). `vector_width` picks the vector width tract's own kernels
//! run at on this CPU.

mod dead_weights;
mod depthwise;
mod maxpool;
mod prelu;
mod softmax;
mod vector_state;
mod vector_width;

use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::cnn::{Conv, KernelFormat, MaxPool};
use tract_onnx::tract_core::ops::nn::{DataFormat, Softmax, SoftmaxKind};

use depthwise::{DepthwiseGeometry, RowwiseDepthwise};
use maxpool::{PlaneMaxPool, PoolGeometry};
use prelu::ChannelPrelu;
use softmax::LastAxisSoftmax;
pub(crate) use vector_state::clear_upper_vector_state;
pub(crate) use vector_width::prefer_measured_vector_width;

/// How many ops of a model each rewrite replaced. A model's counts are fixed by its graph and
/// tract's version: a change means a rewrite no longer finds its ops (or finds new ones).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RewriteCounts {
    /// Depthwise convolutions → `depthwise::RowwiseDepthwise`.
    pub depthwise: usize,
    /// `Max(x, 0) + alpha × Min(x, 0)` subgraphs → `prelu::ChannelPrelu`.
    pub prelu: usize,
    /// Last-axis softmaxes → `softmax::LastAxisSoftmax`.
    pub softmax: usize,
    /// Unpadded max poolings → `maxpool::PlaneMaxPool`.
    pub max_pool: usize,
    /// Weights below `dead_weights::DEAD_WEIGHT` in magnitude set to zero (values, not ops).
    pub dead_weights: usize,
}

/// Whether two weight vectors hold the same floats bit for bit (ops compare by value, and
/// `f32` has no `Eq`).
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// One of our rewrites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrite {
    Depthwise,
    Prelu,
    Softmax,
    MaxPool,
    DeadWeights,
}

impl Rewrite {
    pub const ALL: [Rewrite; 5] = [
        Rewrite::Depthwise,
        Rewrite::Prelu,
        Rewrite::Softmax,
        Rewrite::MaxPool,
        Rewrite::DeadWeights,
    ];

    /// The name `FACEGATE_KERNELS_WITHOUT` takes.
    pub fn name(self) -> &'static str {
        match self {
            Rewrite::Depthwise => "depthwise",
            Rewrite::Prelu => "prelu",
            Rewrite::Softmax => "softmax",
            Rewrite::MaxPool => "max_pool",
            Rewrite::DeadWeights => "dead_weights",
        }
    }
}

/// Which kernels a loaded model runs on. Either way tract runs at the vector width
/// `prefer_measured_vector_width` chose for this CPU (a process-wide setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernels {
    /// Our rewrites (`rewrite`) and `clear_upper_vector_state` between nodes: the default.
    Ours,
    /// tract as it ships, for measuring the rewrites against it.
    PlainTract,
    /// One rewrite alone (tests compare it with tract's own op, bit for bit).
    Only(Rewrite),
    /// Every rewrite but one (benchmarks measure what that one gains).
    AllBut(Rewrite),
}

impl Kernels {
    /// [`Kernels::PlainTract`] when `FACEGATE_PLAIN_TRACT=1`; [`Kernels::AllBut`] the rewrite
    /// `FACEGATE_KERNELS_WITHOUT` names (for measurements); else [`Kernels::Ours`].
    pub fn from_env() -> Self {
        if std::env::var_os("FACEGATE_PLAIN_TRACT").is_some_and(|v| v == "1") {
            return Self::PlainTract;
        }
        let without = std::env::var("FACEGATE_KERNELS_WITHOUT").unwrap_or_default();
        Rewrite::ALL
            .into_iter()
            .find(|r| r.name() == without.trim())
            .map_or(Self::Ours, Self::AllBut)
    }

    /// Whether `rewrite` runs.
    pub fn applies(self, rewrite: Rewrite) -> bool {
        match self {
            Kernels::Ours => true,
            Kernels::PlainTract => false,
            Kernels::Only(only) => only == rewrite,
            Kernels::AllBut(but) => but != rewrite,
        }
    }
}

/// Sets the dead weights to zero ([`dead_weights::flush`]), then replaces every depthwise
/// convolution with constant weights, every `Max(x, 0) + alpha × Min(x, 0)` with per-channel
/// `alpha`, every f32 last-axis softmax, every unpadded f32 max pooling of a decluttered model;
/// other nodes are untouched.
/// Counts each replacement in `counts`.
pub(crate) fn rewrite(
    mut model: TypedModel,
    kernels: Kernels,
    counts: &mut RewriteCounts,
) -> TractResult<TypedModel> {
    if kernels.applies(Rewrite::DeadWeights) {
        counts.dead_weights += dead_weights::flush(&mut model)?;
    }
    for id in model.eval_order()? {
        let node = model.node(id);
        let on = |rewrite| kernels.applies(rewrite);
        let replacement: Option<(OutletId, Box<dyn TypedOp>, &mut usize)> =
            if !on(Rewrite::Depthwise) && node.op_is::<Conv>()
                || !on(Rewrite::Prelu) && node.op().name() == "Add"
                || !on(Rewrite::Softmax) && node.op_is::<Softmax>()
                || !on(Rewrite::MaxPool) && node.op_is::<MaxPool>()
            {
                None
            } else if let Some(conv) = node.op_as::<Conv>() {
                depthwise_op(&model, node, conv)?
                    .map(|op| (node.inputs[0], Box::new(op) as _, &mut counts.depthwise))
            } else if node.op().name() == "Add" {
                channel_prelu(&model, node)?
                    .map(|(x, op)| (x, Box::new(op) as _, &mut counts.prelu))
            } else if let Some(softmax) = node.op_as::<Softmax>() {
                last_axis_softmax(&model, node, softmax)?
                    .map(|op| (node.inputs[0], Box::new(op) as _, &mut counts.softmax))
            } else if let Some(pool) = node.op_as::<MaxPool>() {
                plane_max_pool(&model, node, pool)?
                    .map(|op| (node.inputs[0], Box::new(op) as _, &mut counts.max_pool))
            } else {
                None
            };
        if let Some((input, op, count)) = replacement {
            *count += 1;
            let patch = TypedModelPatch::replace_single_op(&model, node, &[input], op)?;
            patch.apply(&mut model)?;
        }
    }
    model.into_decluttered()
}

/// `Add(Max(x, 0), Mul(Min(x, 0), alpha))`, in either operand order, with `alpha` one
/// constant per channel of `x` (the third axis from the end): the input `x` and the op.
fn channel_prelu(
    model: &TypedModel,
    add: &TypedNode,
) -> TractResult<Option<(OutletId, ChannelPrelu)>> {
    let producer = |outlet: OutletId| model.node(outlet.node);
    let is_zero = |outlet: OutletId| -> bool {
        model
            .outlet_fact(outlet)
            .ok()
            .and_then(|f| f.konst.clone())
            .is_some_and(|k| {
                k.cast_to::<f32>().is_ok_and(|k| {
                    k.try_as_plain_ram()
                        .and_then(|p| p.as_slice::<f32>().map(|s| s.iter().all(|&v| v == 0.0)))
                        .unwrap_or(false)
                })
            })
    };
    let [a, b] = add.inputs[..] else {
        return Ok(None);
    };
    for (max, mul) in [(producer(a), producer(b)), (producer(b), producer(a))] {
        if max.op().name() != "Max" || mul.op().name() != "Mul" || max.inputs.len() != 2 {
            continue;
        }
        let (x, zero) = (max.inputs[0], max.inputs[1]);
        let Some((min, alpha)) = [
            (mul.inputs[0], mul.inputs[1]),
            (mul.inputs[1], mul.inputs[0]),
        ]
        .into_iter()
        .find(|(min, _)| producer(*min).op().name() == "Min") else {
            continue;
        };
        let min = producer(min);
        if !is_zero(zero)
            || min.inputs.first() != Some(&x)
            || !min.inputs.get(1).is_some_and(|&z| is_zero(z))
        {
            continue;
        }
        let x_fact = model.outlet_fact(x)?;
        let Some(alpha) = model.outlet_fact(alpha)?.konst.clone() else {
            continue;
        };
        let rank = x_fact.rank();
        let Some(shape) = x_fact.shape.as_concrete() else {
            continue;
        };
        let channels = if rank >= 3 { shape[rank - 3] } else { continue };
        // alpha broadcasts along every axis but the channel one.
        let alpha_shape = alpha.shape();
        let channel_only = alpha_shape.len() <= rank
            && alpha_shape.iter().rev().enumerate().all(|(from_end, &d)| {
                if from_end == 2 { d == channels } else { d == 1 }
            });
        if x_fact.datum_type != f32::datum_type() || !channel_only {
            continue;
        }
        let alpha = alpha.cast_to::<f32>()?;
        let alpha = alpha.try_as_plain_ram()?.as_slice::<f32>()?.to_vec();
        return Ok(Some((
            x,
            ChannelPrelu {
                alpha: Arc::new(alpha),
            },
        )));
    }
    Ok(None)
}

fn last_axis_softmax(
    model: &TypedModel,
    node: &TypedNode,
    softmax: &Softmax,
) -> TractResult<Option<LastAxisSoftmax>> {
    let fact = model.outlet_fact(node.inputs[0])?;
    let last = fact.rank().checked_sub(1);
    Ok((fact.datum_type == f32::datum_type()
        && softmax.kind == SoftmaxKind::Softmax
        && softmax.quant_output_dt.is_none()
        && last.is_some_and(|last| *softmax.axes == [last]))
    .then_some(LastAxisSoftmax))
}

/// A max pooling of f32 NCHW or CHW planes, without index output, dilation or padding.
fn plane_max_pool(
    model: &TypedModel,
    node: &TypedNode,
    pool: &MaxPool,
) -> TractResult<Option<PlaneMaxPool>> {
    let spec = &pool.pool_spec;
    let input = model.outlet_fact(node.inputs[0])?;
    let planar = matches!(spec.data_format, DataFormat::NCHW | DataFormat::CHW);
    let Some(shape) = input.shape.as_concrete() else {
        return Ok(None);
    };
    if !planar
        || pool.with_index_outputs.is_some()
        || spec.rank() != 2
        || shape.len() < 3
        || spec.dilations().iter().any(|&d| d != 1)
        || input.datum_type != f32::datum_type()
    {
        return Ok(None);
    }
    let input_hw = [shape[shape.len() - 2], shape[shape.len() - 1]];
    let padding = spec.computed_padding(&input_hw);
    if padding
        .iter()
        .any(|p| p.pad_before != 0 || p.pad_after != 0)
    {
        return Ok(None);
    }
    let geometry = PoolGeometry {
        input_hw,
        output_hw: [padding[0].convoluted, padding[1].convoluted],
        kernel_hw: [spec.kernel_shape[0], spec.kernel_shape[1]],
        strides: [spec.stride(0), spec.stride(1)],
    };
    Ok(geometry
        .windows_inside()
        .then_some(PlaneMaxPool { geometry }))
}

fn depthwise_op(
    model: &TypedModel,
    node: &TypedNode,
    conv: &Conv,
) -> TractResult<Option<RowwiseDepthwise>> {
    let spec = &conv.pool_spec;
    let channels = spec.input_channels;
    let input = model.outlet_fact(node.inputs[0])?;
    let batched = match spec.data_format {
        DataFormat::NCHW => true,
        DataFormat::CHW => false,
        DataFormat::NHWC | DataFormat::HWC => return Ok(None),
    };
    let is_depthwise = conv.group > 1 && conv.group == channels && spec.output_channels == channels;
    if !is_depthwise
        || conv.q_params.is_some()
        || node.inputs.len() != 3
        || spec.rank() != 2
        || spec.dilations().iter().any(|&d| d != 1)
        || input.datum_type != f32::datum_type()
    {
        return Ok(None);
    }
    let Some(shape) = input.shape.as_concrete() else {
        return Ok(None);
    };
    if (batched && (shape.len() != 4 || shape[0] != 1)) || (!batched && shape.len() != 3) {
        return Ok(None);
    }
    let (kernel, bias) = (
        model.outlet_fact(node.inputs[1])?.konst.clone(),
        model.outlet_fact(node.inputs[2])?.konst.clone(),
    );
    let (Some(kernel), Some(bias)) = (kernel, bias) else {
        return Ok(None);
    };
    let input_hw = [shape[shape.len() - 2], shape[shape.len() - 1]];
    let padding = spec.computed_padding(&input_hw);
    let kernel_hw = [spec.kernel_shape[0], spec.kernel_shape[1]];
    let Some(taps) = channel_major_taps(&kernel, conv.kernel_fmt, channels, kernel_hw)? else {
        return Ok(None);
    };
    let bias = bias.cast_to::<f32>()?;
    let bias = bias.try_as_plain_ram()?.as_slice::<f32>()?.to_vec();
    let bias = match bias.len() {
        1 => vec![bias[0]; channels],
        n if n == channels => bias,
        _ => return Ok(None),
    };
    Ok(Some(RowwiseDepthwise {
        geometry: DepthwiseGeometry {
            channels,
            input_hw,
            output_hw: [padding[0].convoluted, padding[1].convoluted],
            kernel_hw,
            strides: [spec.stride(0), spec.stride(1)],
            pad_before: [padding[0].pad_before, padding[1].pad_before],
            batched,
        },
        taps: Arc::new(taps),
        bias: Arc::new(bias),
    }))
}

/// The kernel as `[channel][row][column]`, whatever its stored format; `None` for a shape
/// that is not one filter per channel.
fn channel_major_taps(
    kernel: &Tensor,
    format: KernelFormat,
    channels: usize,
    [kh, kw]: [usize; 2],
) -> TractResult<Option<Vec<f32>>> {
    let kernel = kernel.cast_to::<f32>()?;
    let view = kernel.to_plain_array_view::<f32>()?;
    let expected: [usize; 4] = match format {
        KernelFormat::OIHW => [channels, 1, kh, kw],
        KernelFormat::HWIO => [kh, kw, 1, channels],
        KernelFormat::OHWI => [channels, kh, kw, 1],
    };
    if view.shape() != expected {
        return Ok(None);
    }
    let mut taps = Vec::with_capacity(channels * kh * kw);
    for c in 0..channels {
        for y in 0..kh {
            for x in 0..kw {
                taps.push(match format {
                    KernelFormat::OIHW => view[[c, 0, y, x]],
                    KernelFormat::HWIO => view[[y, x, 0, c]],
                    KernelFormat::OHWI => view[[c, y, x, 0]],
                });
            }
        }
    }
    Ok(Some(taps))
}
