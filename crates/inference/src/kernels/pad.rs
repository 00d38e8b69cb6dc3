//! Constant padding of an f32 tensor by whole rows: the output is filled once with the
//! constant and each innermost row of the input copied into place. tract's `Pad` assigns
//! through a dynamic-rank array slice element by element (0.16 ms of the selfie detector, 0.27
//! of the mesh; `examples/model_profile`). A copy moves no value, so outputs are identical.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

#[derive(Debug, Clone)]
pub(crate) struct RowCopyPad {
    /// Before and after each axis.
    pub pads: Vec<(usize, usize)>,
    pub value: f32,
}

impl PartialEq for RowCopyPad {
    fn eq(&self, other: &Self) -> bool {
        self.pads == other.pads && self.value.to_bits() == other.value.to_bits()
    }
}

impl Eq for RowCopyPad {}

impl Op for RowCopyPad {
    fn name(&self) -> StaticName {
        "RowCopyPad".into()
    }

    op_as_typed_op!();
}

impl EvalOp for RowCopyPad {
    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let input = &inputs[0];
        let shape = input.shape().to_vec();
        ensure!(shape.len() == self.pads.len() && !shape.is_empty());
        let output_shape: Vec<usize> = shape
            .iter()
            .zip(&self.pads)
            .map(|(d, (before, after))| d + before + after)
            .collect();
        let values = input.try_as_plain_ram()?;
        let mut padded = Tensor::zero::<f32>(&output_shape)?;
        {
            let mut plain = padded.try_as_plain_ram_mut()?;
            pad_into(
                values.as_slice::<f32>()?,
                &shape,
                &self.pads,
                self.value,
                plain.as_slice_mut::<f32>()?,
            );
        }
        Ok(tvec!(padded.into_tvalue()))
    }

    op_out_of_plan!();
}

impl TypedOp for RowCopyPad {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        ensure!(inputs[0].rank() == self.pads.len());
        let shape: TVec<TDim> = inputs[0]
            .shape
            .iter()
            .zip(&self.pads)
            .map(|(d, (before, after))| d.clone() + *before + *after)
            .collect();
        Ok(tvec!(f32::fact(shape)))
    }

    as_op!();
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for axis in (0..shape.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1] * shape[axis + 1];
    }
    strides
}

/// Writes `values` (of `shape`) padded by `pads` into `padded`, which holds the output shape.
fn pad_into(
    values: &[f32],
    shape: &[usize],
    pads: &[(usize, usize)],
    value: f32,
    padded: &mut [f32],
) {
    if value.to_bits() != 0 {
        padded.fill(value);
    }
    let rank = shape.len();
    let row = shape[rank - 1];
    if row == 0 || values.is_empty() {
        return;
    }
    let output_shape: Vec<usize> = shape
        .iter()
        .zip(pads)
        .map(|(d, (before, after))| d + before + after)
        .collect();
    let out_strides = strides(&output_shape);
    // walk the input's outer coordinates like an odometer, one row at a time
    let mut coordinates = vec![0usize; rank - 1];
    for source in values.chunks_exact(row) {
        let offset = pads[rank - 1].0
            + coordinates
                .iter()
                .zip(pads)
                .zip(&out_strides)
                .map(|((c, (before, _)), stride)| (c + before) * stride)
                .sum::<usize>();
        padded[offset..offset + row].copy_from_slice(source);
        for axis in (0..rank - 1).rev() {
            coordinates[axis] += 1;
            if coordinates[axis] < shape[axis] {
                break;
            }
            coordinates[axis] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn pads_every_axis_around_the_copied_rows() {
        // 1×2×2 padded by one channel after, one row before, one column each side
        let values = [1.0, 2.0, 3.0, 4.0];
        for value in [0.0f32, -1.5] {
            let mut padded = [0.0f32; 24];
            super::pad_into(
                &values,
                &[1, 2, 2],
                &[(0, 1), (1, 0), (1, 1)],
                value,
                &mut padded,
            );
            let p = value;
            assert_eq!(
                padded,
                [
                    p, p, p, p, //
                    p, 1.0, 2.0, p, //
                    p, 3.0, 4.0, p, //
                    p, p, p, p, //
                    p, p, p, p, //
                    p, p, p, p,
                ]
            );
        }
    }
}
