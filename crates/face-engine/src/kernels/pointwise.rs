//! A 1×1 convolution (a per-pixel mix of channels) over NCHW or CHW f32 planes, with its bias
//! folded in. tract lowers these to a general matrix product that first packs the input
//! planes into panels; the planes already lie the way the product reads them, so this op
//! multiplies them in place, a tile of output channels by a run of pixels at a time, in
//! registers. They are most of what our detectors and mesh compute (see
//! `docs/benchmarks.md`, issue 16).
//!
//! Arithmetic, the same as tract's matrix kernels: each output starts at zero, adds
//! `weight × input` for the input channels in order (fused multiply-adds where the CPU has
//! them, as tract's x86 kernels use), then adds the bias once.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

use tract_onnx::tract_core::axes::Axis;
use tract_onnx::tract_core::ops::einsum::EinSum;

use super::channel_mix::{Mix, mix_channels};
use super::same_bits;

#[derive(Debug, Clone)]
pub(crate) struct PointwiseConv {
    /// The axis of the channels; every axis after it is a pixel axis, every axis before it
    /// an image axis.
    pub channel_axis: usize,
    /// Input axes of size 1 the output leaves out (decluttering sums a unit batch axis away).
    pub removed_unit_axes: TVec<usize>,
    pub input_channels: usize,
    pub output_channels: usize,
    /// `[input channel][output channel]` (the ONNX weights transposed).
    pub weights: Arc<Vec<f32>>,
    /// One per output channel, added after the sum; `None` adds nothing.
    pub bias: Option<Arc<Vec<f32>>>,
}

impl PartialEq for PointwiseConv {
    fn eq(&self, other: &Self) -> bool {
        self.channel_axis == other.channel_axis
            && self.removed_unit_axes == other.removed_unit_axes
            && self.input_channels == other.input_channels
            && self.output_channels == other.output_channels
            && same_bits(&self.weights, &other.weights)
            && match (&self.bias, &other.bias) {
                (Some(a), Some(b)) => same_bits(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for PointwiseConv {}

impl Op for PointwiseConv {
    fn name(&self) -> StaticName {
        "PointwiseConv".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!(
            "{} -> {} channels, bias: {}",
            self.input_channels,
            self.output_channels,
            self.bias.is_some()
        )])
    }

    fn validation(&self) -> Validation {
        Validation::Rounding
    }

    op_as_typed_op!();
}

impl EvalOp for PointwiseConv {
    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let view = inputs[0].to_plain_array_view::<f32>()?;
        let input = view
            .as_slice()
            .context("pointwise input is not contiguous")?;
        let shape = self.output_shape(view.shape())?;
        let plane: usize = view.shape()[self.channel_axis + 1..].iter().product();
        let images = input.len() / (plane * self.input_channels).max(1);
        let mut output = vec![0f32; images * self.output_channels * plane];
        if plane > 0 {
            for (src, dst) in input
                .chunks_exact(self.input_channels * plane)
                .zip(output.chunks_exact_mut(self.output_channels * plane))
            {
                let mix = Mix {
                    input_channels: self.input_channels,
                    output_channels: self.output_channels,
                    weights: &self.weights,
                    bias: self.bias.as_deref().map(Vec::as_slice),
                    plane,
                    src,
                };
                mix_channels(&mix, dst);
            }
        }
        let tensor = tract_ndarray::Array::from_shape_vec(shape, output)?;
        Ok(tvec!(tensor.into_tvalue()))
    }

    op_out_of_plan!();
}

impl PointwiseConv {
    /// The input shape with its channel axis resized to the output's, less the removed unit
    /// axes.
    fn output_shape(&self, input: &[usize]) -> TractResult<Vec<usize>> {
        ensure!(input.get(self.channel_axis) == Some(&self.input_channels));
        let mut shape = input.to_vec();
        shape[self.channel_axis] = self.output_channels;
        Ok(shape
            .into_iter()
            .enumerate()
            .filter(|(axis, _)| !self.removed_unit_axes.contains(axis))
            .map(|(_, d)| d)
            .collect())
    }

    /// Where the channel axis is in the output.
    fn output_channel_axis(&self) -> usize {
        let removed_before = self
            .removed_unit_axes
            .iter()
            .filter(|&&a| a < self.channel_axis);
        self.channel_axis - removed_before.count()
    }
}

impl TypedOp for PointwiseConv {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        let shape = inputs[0]
            .shape
            .as_concrete()
            .context("pointwise convolution needs a concrete shape")?;
        Ok(tvec!(f32::fact(self.output_shape(shape)?)))
    }

    as_op!();
}

/// The fewest pixels a channel plane must have for [`pointwise_einsum`] to take it: below
/// that the product is a fully connected layer, which tract's matrix-vector kernels serve.
const MIN_PLANE: usize = 16;

/// A decluttered 1×1 convolution: an f32 `EinSum` of an input with a constant `[output]
/// [input]` matrix over one axis of the input (its channels), every other axis passed through
/// in place, with at least [`MIN_PLANE`] pixels after the channel axis. NCHW, CHW and
/// `[channels][pixels]` inputs all qualify. The input and the op, without bias (tract adds it
/// in a separate `Add`, [`fold_bias`]).
pub(crate) fn pointwise_einsum(
    model: &TypedModel,
    node: &TypedNode,
    einsum: &EinSum,
) -> TractResult<Option<(OutletId, PointwiseConv)>> {
    if einsum.q_params.is_some()
        || einsum.operating_dt != f32::datum_type()
        || node.inputs.len() != 2
    {
        return Ok(None);
    }
    for (data, matrix) in [(0, 1), (1, 0)] {
        let input = model.outlet_fact(node.inputs[data])?;
        let Some(weights) = model.outlet_fact(node.inputs[matrix])?.konst.clone() else {
            continue;
        };
        let Some(shape) = input.shape.as_concrete() else {
            continue;
        };
        let rank = shape.len();
        let summed = einsum
            .axes
            .iter_all_axes()
            .find(|axis| axis.inputs[matrix].as_slice() == [1])
            .and_then(|axis| axis.inputs[data].first().copied());
        let Some(channel) = summed else {
            continue;
        };
        if input.datum_type != f32::datum_type()
            || weights.rank() != 2
            || shape[channel + 1..].iter().product::<usize>() < MIN_PLANE
        {
            continue;
        }
        let slots = |axis: &Axis| {
            (
                axis.inputs[data].clone(),
                axis.inputs[matrix].clone(),
                axis.outputs[0].clone(),
            )
        };
        // Unit axes before the channels that the sum drops, like a batch of one.
        let removed_unit_axes: TVec<usize> = einsum
            .axes
            .iter_all_axes()
            .filter_map(|axis| match slots(axis) {
                (x, w, out) if x.len() == 1 && w.is_empty() && out.is_empty() => Some(x[0]),
                _ => None,
            })
            .collect();
        let removed_before = |a: usize| removed_unit_axes.iter().filter(|&&r| r < a).count();
        let passes_through = einsum.axes.iter_all_axes().count() == rank + 1
            && removed_unit_axes
                .iter()
                .all(|&a| a < channel && shape[a] == 1)
            && einsum.axes.iter_all_axes().all(|axis| {
                let (x, w, out) = slots(axis);
                match (x.as_slice(), w.as_slice(), out.as_slice()) {
                    (&[a], &[], &[]) => removed_unit_axes.contains(&a),
                    (&[a], &[], &[b]) => a != channel && b == a - removed_before(a),
                    (&[a], &[1], &[]) => a == channel,
                    (&[], &[0], &[b]) => b == channel - removed_before(channel),
                    _ => false,
                }
            });
        let [outputs, inputs] = [weights.shape()[0], weights.shape()[1]];
        if !passes_through || inputs != shape[channel] {
            continue;
        }
        let weights = weights.cast_to::<f32>()?;
        let weights = weights.try_as_plain_ram()?.as_slice::<f32>()?;
        let weights = (0..inputs * outputs)
            .map(|at| weights[(at % outputs) * inputs + at / outputs])
            .collect();
        return Ok(Some((
            node.inputs[data],
            PointwiseConv {
                channel_axis: channel,
                removed_unit_axes,
                input_channels: inputs,
                output_channels: outputs,
                weights: Arc::new(weights),
                bias: None,
            },
        )));
    }
    Ok(None)
}

/// `Add(PointwiseConv(x), bias)` with one constant per output channel, where nothing else
/// reads the convolution: the input `x` and the convolution with its bias.
pub(crate) fn fold_bias(
    model: &TypedModel,
    add: &TypedNode,
) -> TractResult<Option<(OutletId, PointwiseConv)>> {
    let [a, b] = add.inputs[..] else {
        return Ok(None);
    };
    for (mixed, bias) in [(a, b), (b, a)] {
        let producer = model.node(mixed.node);
        let Some(conv) = producer.op_as::<PointwiseConv>() else {
            continue;
        };
        let Some(bias) = model.outlet_fact(bias)?.konst.clone() else {
            continue;
        };
        let mixed_fact = model.outlet_fact(mixed)?;
        let rank = mixed_fact.rank();
        // The bias's axes align with the output's last ones (broadcasting).
        let per_channel = bias.rank() <= rank
            && bias.shape().iter().enumerate().all(|(axis, &d)| {
                if axis + rank - bias.rank() == conv.output_channel_axis() {
                    d == conv.output_channels
                } else {
                    d == 1
                }
            });
        if conv.bias.is_some()
            || !per_channel
            || model.outlet_successors(mixed).len() != 1
            || model.outlet_fact(add.id.into())?.shape != mixed_fact.shape
        {
            continue;
        }
        let bias = bias.cast_to::<f32>()?;
        let bias = bias.try_as_plain_ram()?.as_slice::<f32>()?.to_vec();
        let bias = match bias.len() {
            1 => vec![bias[0]; conv.output_channels],
            n if n == conv.output_channels => bias,
            _ => continue,
        };
        return Ok(Some((
            producer.inputs[0],
            PointwiseConv {
                bias: Some(Arc::new(bias)),
                ..conv.clone()
            },
        )));
    }
    Ok(None)
}
