//! Softmax over the last axis of an f32 tensor, row by row with `f32::exp`. tract's softmax
//! sets up vector kernels per row, which dominates on the group detector's 4,420 rows of two
//! scores (1.6 ms of a 16-ms model, see `docs/benchmarks.md`, issue 16).

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct LastAxisSoftmax;

impl Op for LastAxisSoftmax {
    fn name(&self) -> StaticName {
        "LastAxisSoftmax".into()
    }

    fn validation(&self) -> Validation {
        Validation::Rounding
    }

    op_as_typed_op!();
}

impl EvalOp for LastAxisSoftmax {
    fn eval(&self, _ctx: &EvalContext, mut inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        // Taking the value (not a clone) lets tract hand over its buffer when nothing else
        // reads it, so the op works in place.
        let mut tensor = inputs.remove(0).into_tensor();
        let row_len = *tensor.shape().last().context("softmax of a scalar")?;
        if row_len > 0 {
            let mut plain = tensor.try_as_plain_ram_mut()?;
            plain
                .as_slice_mut::<f32>()?
                .chunks_exact_mut(row_len)
                .for_each(softmax_row);
        }
        Ok(tvec!(tensor.into_tvalue()))
    }

    op_out_of_plan!();
}

impl TypedOp for LastAxisSoftmax {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        Ok(tvec!(inputs[0].without_value()))
    }

    as_op!();
}

fn softmax_row(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for value in row.iter_mut() {
        *value = (*value - max).exp();
        sum += *value;
    }
    for value in row.iter_mut() {
        *value /= sum;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_sum_to_one_and_keep_their_order() {
        let mut row = [2.0f32, -1.0, 0.5];
        super::softmax_row(&mut row);
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(row[0] > row[2] && row[2] > row[1]);
        let mut pair = [1000.0f32, 1000.0];
        super::softmax_row(&mut pair);
        assert_eq!(pair, [0.5, 0.5]);
    }
}
