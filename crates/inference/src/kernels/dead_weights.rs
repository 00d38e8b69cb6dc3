//! Dead weights set to zero before the plan is optimised. The shipped embedder carries 119,016
//! weights (10% of its 1.19 M) below 1e-30, down to subnormal ones, where training left them;
//! the other models carry none. No output can feel such a weight: its product with an
//! activation is under 1e-26 for activations up to 1e4, which disappears when added to any sum
//! above about 1e-19. But it costs time. tract's matrix kernels run with subnormal inputs read
//! as zero and no flushing of subnormal results (their preamble loads MXCSR 0x1FC0), so where
//! an accumulator is still at zero, one of these products gives a subnormal result, which an
//! Intel core computes through a microcode assist of about a hundred cycles. Measured on a
//! 2-vCPU Intel Xeon (AVX-512): four of the embedder's 14×14 expansion layers took 1.05–1.23 ms
//! each against 0.16–0.23 ms for the same shape with other weights, and the whole model
//! 14.5 ms against 10.5 ms once these weights are zero (`docs/benchmarks.md`, issue 42).

use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::konst::Const;

/// Weights of smaller magnitude than this (and not already zero) are set to zero.
pub(crate) const DEAD_WEIGHT: f32 = 1e-30;

/// Sets every f32 constant's values below [`DEAD_WEIGHT`] in magnitude to zero; returns how
/// many values it changed.
pub(crate) fn flush(model: &mut TypedModel) -> TractResult<usize> {
    let mut flushed = 0;
    for id in model.eval_order()? {
        let node = model.node(id);
        let Some(konst) = node.op_as::<Const>() else {
            continue;
        };
        let value = konst.val();
        if value.datum_type() != f32::datum_type() || konst.exotic_fact().is_some() {
            continue;
        }
        let values = value.try_as_plain_ram()?;
        let values = values.as_slice::<f32>()?;
        let dead = values.iter().filter(|v| is_dead(**v)).count();
        if dead == 0 {
            continue;
        }
        let alive: Vec<f32> = values
            .iter()
            .map(|&v| if is_dead(v) { 0.0 } else { v })
            .collect();
        let tensor = Tensor::from_shape(value.shape(), &alive)?;
        let mut patch = TypedModelPatch::default();
        let wire = patch.add_const(format!("{}.alive", node.name), tensor)?;
        patch.shunt_outside(model, OutletId::new(id, 0), wire)?;
        patch.apply(model)?;
        flushed += dead;
    }
    Ok(flushed)
}

fn is_dead(value: f32) -> bool {
    value != 0.0 && value.abs() < DEAD_WEIGHT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_nonzero_values_below_the_bound_are_dead() {
        let subnormal = f32::from_bits(1);
        for dead in [1e-31f32, -1e-31, subnormal, -subnormal, 9.9e-31] {
            assert!(is_dead(dead), "{dead:e}");
        }
        for alive in [
            0.0f32,
            -0.0,
            1e-30,
            -1e-29,
            1e-8,
            1.0,
            f32::NAN,
            f32::INFINITY,
        ] {
            assert!(!is_dead(alive), "{alive:e}");
        }
    }

    #[test]
    fn a_constant_keeps_its_shape_and_its_live_values() -> TractResult<()> {
        let mut model = TypedModel::default();
        let source = model.add_source("x", f32::fact([4]))?;
        let weights = model.add_const(
            "w",
            Tensor::from_shape(&[4], &[0.5f32, 1e-35, -2.0, -f32::from_bits(7)])?,
        )?;
        let product = model.wire_node(
            "mul",
            tract_onnx::tract_core::ops::math::mul(),
            &[source, weights],
        )?;
        model.select_output_outlets(&product)?;
        assert_eq!(flush(&mut model)?, 2);
        let weights = model.node(product[0].node).inputs[1];
        let value = model
            .outlet_fact(weights)?
            .konst
            .clone()
            .expect("the weights are still a constant");
        assert_eq!(value.shape(), &[4]);
        let values = value.try_as_plain_ram()?;
        assert_eq!(values.as_slice::<f32>()?, &[0.5, 0.0, -2.0, 0.0]);
        Ok(())
    }
}
