//! Per-channel PReLU over NCHW or CHW f32 planes in one pass. Our embedder, anti-spoof and
//! mesh models carry every PReLU as `Max(x, 0) + alpha × Min(x, 0)` (the rewrite that
//! `scripts/prelu_to_relu.py` made because tract's own PReLU was slower still); tract runs
//! that as two chained broadcasts, which cost 3.4 ms of the embedder's 17 (see
//! `docs/benchmarks.md`, issue 16). This op gives bit-identical values: for a positive `x`
//! both forms return `x`, for a negative one `alpha × x`, and zeros stay zeros.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

use super::same_bits;

#[derive(Debug, Clone)]
pub(crate) struct ChannelPrelu {
    /// One slope per channel; the channel axis is the third from last.
    pub alpha: Arc<Vec<f32>>,
}

impl PartialEq for ChannelPrelu {
    fn eq(&self, other: &Self) -> bool {
        same_bits(&self.alpha, &other.alpha)
    }
}

impl Eq for ChannelPrelu {}

impl Op for ChannelPrelu {
    fn name(&self) -> StaticName {
        "ChannelPrelu".into()
    }

    op_as_typed_op!();
}

impl EvalOp for ChannelPrelu {
    fn eval(&self, _ctx: &EvalContext, mut inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        // Taking the value (not a clone) lets tract hand over its buffer when nothing else
        // reads it, so the op works in place.
        let mut tensor = inputs.remove(0).into_tensor();
        let shape = tensor.shape().to_vec();
        ensure!(shape.len() >= 3 && shape[shape.len() - 3] == self.alpha.len());
        let plane = shape[shape.len() - 2] * shape[shape.len() - 1];
        let channels = self.alpha.len();
        if plane > 0 {
            let mut plain = tensor.try_as_plain_ram_mut()?;
            let values = plain.as_slice_mut::<f32>()?;
            for (index, values) in values.chunks_exact_mut(plane).enumerate() {
                apply(values, self.alpha[index % channels]);
            }
        }
        Ok(tvec!(tensor.into_tvalue()))
    }

    op_out_of_plan!();
}

impl TypedOp for ChannelPrelu {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        Ok(tvec!(inputs[0].without_value()))
    }

    as_op!();
}

fn apply(values: &mut [f32], alpha: f32) {
    for value in values {
        *value = if *value < 0.0 { *value * alpha } else { *value };
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_relu_plus_alpha_times_min_bit_for_bit() {
        let alpha = -0.37f32;
        let inputs = [3.5f32, -2.25, 0.0, 1e-30, -1e-30, -7.0];
        let mut values = inputs;
        super::apply(&mut values, alpha);
        for (x, y) in inputs.iter().zip(values) {
            let chained = x.max(0.0) + alpha * x.min(0.0);
            assert!(y == chained, "{x}: {y} against {chained}");
        }
    }
}
