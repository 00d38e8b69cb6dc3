//! Max pooling over NCHW or CHW f32 planes without padding, window by window over plain
//! slices. tract's pooling visits each window through a generic patch iterator, which made
//! BlazeFace's 2×2 poolings cost more than the convolutions beside them (0.52 of 3.1 ms of the
//! selfie detector, 0.82 of 4.0 ms of the mesh; `examples/model_profile`). Values are
//! bit-identical to tract's: the same windows in the same order, the same start
//! (`f32::MIN`) and the same strict comparison, so ties and signed zeros resolve alike.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

/// Where the windows lie: every window wholly inside its plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PoolGeometry {
    pub input_hw: [usize; 2],
    pub output_hw: [usize; 2],
    pub kernel_hw: [usize; 2],
    pub strides: [usize; 2],
}

impl PoolGeometry {
    /// Whether the last window of each axis ends inside the input.
    pub fn windows_inside(&self) -> bool {
        (0..2).all(|axis| {
            self.output_hw[axis] > 0
                && self.kernel_hw[axis] > 0
                && self.strides[axis] > 0
                && (self.output_hw[axis] - 1) * self.strides[axis] + self.kernel_hw[axis]
                    <= self.input_hw[axis]
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PlaneMaxPool {
    pub geometry: PoolGeometry,
}

impl Op for PlaneMaxPool {
    fn name(&self) -> StaticName {
        "PlaneMaxPool".into()
    }

    op_as_typed_op!();
}

impl EvalOp for PlaneMaxPool {
    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let input = &inputs[0];
        let g = &self.geometry;
        let shape = input.shape();
        let rank = shape.len();
        ensure!(rank >= 3 && shape[rank - 2..] == g.input_hw);
        let planes: usize = shape[..rank - 2].iter().product();
        let mut output_shape: TVec<usize> = shape.into();
        output_shape[rank - 2] = g.output_hw[0];
        output_shape[rank - 1] = g.output_hw[1];
        let values = input.try_as_plain_ram()?;
        let values = values.as_slice::<f32>()?;
        let (in_plane, out_plane) = (
            g.input_hw[0] * g.input_hw[1],
            g.output_hw[0] * g.output_hw[1],
        );
        ensure!(values.len() == planes * in_plane);
        let mut pooled = Tensor::zero::<f32>(&output_shape)?;
        {
            let mut plain = pooled.try_as_plain_ram_mut()?;
            let targets = plain.as_slice_mut::<f32>()?;
            for (source, target) in values
                .chunks_exact(in_plane)
                .zip(targets.chunks_exact_mut(out_plane))
            {
                pool_plane(g, source, target);
            }
        }
        Ok(tvec!(pooled.into_tvalue()))
    }

    op_out_of_plan!();
}

impl TypedOp for PlaneMaxPool {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        let rank = inputs[0].rank();
        ensure!(rank >= 3);
        let mut shape: TVec<TDim> = inputs[0].shape.iter().cloned().collect();
        shape[rank - 2] = self.geometry.output_hw[0].into();
        shape[rank - 1] = self.geometry.output_hw[1].into();
        Ok(tvec!(f32::fact(shape)))
    }

    as_op!();
}

/// One plane: each output is the largest value of its window, rows then columns.
fn pool_plane(g: &PoolGeometry, source: &[f32], target: &mut [f32]) {
    let [_, width] = g.input_hw;
    let [kh, kw] = g.kernel_hw;
    let [sh, sw] = g.strides;
    if g.kernel_hw == [2, 2] && g.strides == [2, 2] {
        // BlazeFace's pooling: two input rows per output row, pairs of columns
        for (oy, row_out) in target.chunks_exact_mut(g.output_hw[1]).enumerate() {
            let top = &source[2 * oy * width..][..2 * row_out.len()];
            let bottom = &source[(2 * oy + 1) * width..][..2 * row_out.len()];
            for ((out, t), b) in row_out
                .iter_mut()
                .zip(top.chunks_exact(2))
                .zip(bottom.chunks_exact(2))
            {
                let mut best = f32::MIN;
                for value in [t[0], t[1], b[0], b[1]] {
                    if best < value {
                        best = value;
                    }
                }
                *out = best;
            }
        }
        return;
    }
    for (oy, row_out) in target.chunks_exact_mut(g.output_hw[1]).enumerate() {
        for (ox, out) in row_out.iter_mut().enumerate() {
            let mut best = f32::MIN;
            for ky in 0..kh {
                let start = (oy * sh + ky) * width + ox * sw;
                for &value in &source[start..start + kw] {
                    if best < value {
                        best = value;
                    }
                }
            }
            *out = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_by_two_windows_keep_the_first_of_equal_values() {
        let g = PoolGeometry {
            input_hw: [2, 4],
            output_hw: [1, 2],
            kernel_hw: [2, 2],
            strides: [2, 2],
        };
        assert!(g.windows_inside());
        let source = [1.0, -0.0, f32::NEG_INFINITY, -3.0, 0.5, 0.0, -2.0, -5.0];
        let mut target = [9.0; 2];
        pool_plane(&g, &source, &mut target);
        assert_eq!(target, [1.0, -2.0]);
        let zeros = [-0.0f32, 0.0, -1.0, -1.0];
        let g = PoolGeometry {
            input_hw: [2, 2],
            output_hw: [1, 1],
            ..g
        };
        let mut target = [9.0; 1];
        pool_plane(&g, &zeros, &mut target);
        assert!(
            target[0] == 0.0 && target[0].is_sign_negative(),
            "first zero kept"
        );
    }
}
