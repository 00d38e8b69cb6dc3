//! A depthwise 2-D convolution over NCHW f32 planes that runs row by row, so the compiler
//! vectorises it. tract's own `DepthWiseConv` walks the output point by point and was the
//! largest single cost of every model we ship (see `docs/benchmarks.md`, issue 16).
//!
//! Arithmetic: each output starts at its channel's bias and adds `weight × input` for every
//! kernel tap that falls inside the image, row-major over the kernel, one rounding per
//! multiply and per add (no fused multiply-add), which is the order tract's scalar path uses.
//! Where the CPU has AVX2 the same code runs compiled for it: eight lanes instead of SSE2's
//! four, the same operations in the same order, so the same bits.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::{as_op, op_as_typed_op, op_out_of_plan};

use super::same_bits;

/// Geometry of one depthwise convolution with constant weights.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct DepthwiseGeometry {
    pub channels: usize,
    pub input_hw: [usize; 2],
    pub output_hw: [usize; 2],
    pub kernel_hw: [usize; 2],
    pub strides: [usize; 2],
    /// Padding before the first row and the first column.
    pub pad_before: [usize; 2],
    /// Whether the tensors carry a leading batch axis (NCHW) or not (CHW).
    pub batched: bool,
}

/// The op: geometry, taps (channel-major, then kernel row, then kernel column) and one bias
/// per channel.
#[derive(Debug, Clone)]
pub(crate) struct RowwiseDepthwise {
    pub geometry: DepthwiseGeometry,
    pub taps: Arc<Vec<f32>>,
    pub bias: Arc<Vec<f32>>,
}

impl PartialEq for RowwiseDepthwise {
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry
            && same_bits(&self.taps, &other.taps)
            && same_bits(&self.bias, &other.bias)
    }
}

impl Eq for RowwiseDepthwise {}

impl Op for RowwiseDepthwise {
    fn name(&self) -> StaticName {
        "RowwiseDepthwise".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!("{:?}", self.geometry)])
    }

    fn validation(&self) -> Validation {
        Validation::Rounding
    }

    op_as_typed_op!();
}

impl EvalOp for RowwiseDepthwise {
    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let view = inputs[0].to_plain_array_view::<f32>()?;
        let input = view
            .as_slice()
            .context("depthwise input is not contiguous")?;
        let g = &self.geometry;
        let [h, w] = g.input_hw;
        let [oh, ow] = g.output_hw;
        // written in place: an ndarray turned into a tensor afterwards would be copied once
        // more into tract's aligned storage, a full extra pass over every output (issue 42)
        let mut tensor = Tensor::zero::<f32>(&self.output_shape())?;
        {
            let mut plain = tensor.try_as_plain_ram_mut()?;
            let output = plain.as_slice_mut::<f32>()?;
            ensure!(output.len() == input.len() / (h * w) * oh * ow);
            let mut scratch = Scratch::default();
            for (plane, (src, dst)) in input
                .chunks_exact(h * w)
                .zip(output.chunks_exact_mut(oh * ow))
                .enumerate()
            {
                let channel = plane % g.channels;
                let taps = &self.taps[channel * g.kernel_hw[0] * g.kernel_hw[1]..]
                    [..g.kernel_hw[0] * g.kernel_hw[1]];
                convolve_plane_dispatched(g, src, dst, taps, self.bias[channel], &mut scratch);
            }
        }
        Ok(tvec!(tensor.into_tvalue()))
    }

    op_out_of_plan!();
}

impl RowwiseDepthwise {
    fn output_shape(&self) -> Vec<usize> {
        let g = &self.geometry;
        let mut shape = vec![g.channels, g.output_hw[0], g.output_hw[1]];
        if g.batched {
            shape.insert(0, 1);
        }
        shape
    }
}

impl TypedOp for RowwiseDepthwise {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        ensure!(inputs.len() == 1 && inputs[0].datum_type == f32::datum_type());
        Ok(tvec!(f32::fact(self.output_shape())))
    }

    as_op!();
}

/// Buffers [`convolve_3x3_flat`] reuses from plane to plane of one evaluation.
#[derive(Default)]
struct Scratch {
    padded: Vec<f32>,
    flat: Vec<f32>,
}

/// [`convolve_plane`] compiled for AVX2 where the CPU has it (eight lanes instead of SSE2's
/// four; still a multiply and an add per tap, never fused, so the sums are the same bits).
fn convolve_plane_dispatched(
    g: &DepthwiseGeometry,
    src: &[f32],
    dst: &mut [f32],
    taps: &[f32],
    bias: f32,
    scratch: &mut Scratch,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[allow(unsafe_code)]
        // SAFETY: the CPU has AVX2, checked just above; that is the function's only contract.
        unsafe {
            convolve_plane_avx2(g, src, dst, taps, bias, scratch)
        };
        return;
    }
    convolve_plane(g, src, dst, taps, bias, scratch);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn convolve_plane_avx2(
    g: &DepthwiseGeometry,
    src: &[f32],
    dst: &mut [f32],
    taps: &[f32],
    bias: f32,
    scratch: &mut Scratch,
) {
    convolve_plane(g, src, dst, taps, bias, scratch);
}

/// One channel plane: 3×3 kernels at stride 1 through [`convolve_3x3_flat`], the rest row by
/// row.
#[inline(always)]
fn convolve_plane(
    g: &DepthwiseGeometry,
    src: &[f32],
    dst: &mut [f32],
    taps: &[f32],
    bias: f32,
    scratch: &mut Scratch,
) {
    if g.kernel_hw == [3, 3] && g.strides == [1, 1] {
        convolve_3x3_flat(g, src, dst, taps, bias, scratch);
    } else {
        convolve_rows(g, src, dst, taps, bias);
    }
}

/// A 3×3 kernel at stride 1 as one long loop: the plane is copied into a zero-padded buffer
/// two columns wider than the output, so that every output point, read along the flattened
/// rows, finds its nine inputs at the same nine offsets; the two extra columns of each row are
/// computed and dropped. No per-row work is left in the loop, which matters for the 16- and
/// 28-wide planes that dominate these models. Taps in the padding add `weight × 0`.
#[inline(always)]
fn convolve_3x3_flat(
    g: &DepthwiseGeometry,
    src: &[f32],
    dst: &mut [f32],
    taps: &[f32],
    bias: f32,
    Scratch { padded, flat }: &mut Scratch,
) {
    let [h, w] = g.input_hw;
    let [oh, ow] = g.output_hw;
    let [pad_top, pad_left] = g.pad_before;
    let width = ow + 2;
    let rows = oh + 2;
    padded.clear();
    padded.resize(rows * width + 2, 0.0);
    let copied = w.min(width.saturating_sub(pad_left));
    for iy in 0..h.min(rows.saturating_sub(pad_top)) {
        let row = iy + pad_top;
        padded[row * width + pad_left..][..copied].copy_from_slice(&src[iy * w..][..copied]);
    }
    let n = (oh - 1) * width + ow;
    let input = |ky: usize, kx: usize| &padded[ky * width + kx..][..n];
    let t: [f32; 9] = taps[..9].try_into().unwrap_or([0.0; 9]);
    let (a0, a1, a2) = (input(0, 0), input(0, 1), input(0, 2));
    let (b0, b1, b2) = (input(1, 0), input(1, 1), input(1, 2));
    let (c0, c1, c2) = (input(2, 0), input(2, 1), input(2, 2));
    flat.resize(n, 0.0);
    for (i, out) in flat.iter_mut().enumerate() {
        let mut sum = bias;
        sum += t[0] * a0[i];
        sum += t[1] * a1[i];
        sum += t[2] * a2[i];
        sum += t[3] * b0[i];
        sum += t[4] * b1[i];
        sum += t[5] * b2[i];
        sum += t[6] * c0[i];
        sum += t[7] * c1[i];
        sum += t[8] * c2[i];
        *out = sum;
    }
    for (oy, out_row) in dst.chunks_exact_mut(ow).enumerate() {
        out_row.copy_from_slice(&flat[oy * width..][..ow]);
    }
}

/// One channel plane, output row by output row.
#[inline(always)]
fn convolve_rows(g: &DepthwiseGeometry, src: &[f32], dst: &mut [f32], taps: &[f32], bias: f32) {
    let [h, w] = g.input_hw;
    let ow = g.output_hw[1];
    let [kh, kw] = g.kernel_hw;
    let [sy, sx] = g.strides;
    let [pad_top, pad_left] = g.pad_before;
    // Output columns whose every kernel column lands inside the input row.
    let interior_start = pad_left.div_ceil(sx).min(ow);
    let interior_end = if w + pad_left >= kw {
        ((w + pad_left - kw) / sx + 1).clamp(interior_start, ow)
    } else {
        interior_start
    };
    for (oy, row) in dst.chunks_exact_mut(ow).enumerate() {
        row.fill(bias);
        for ky in 0..kh {
            let Some(iy) = (oy * sy + ky).checked_sub(pad_top).filter(|&iy| iy < h) else {
                continue;
            };
            let input_row = &src[iy * w..(iy + 1) * w];
            let kernel_row = &taps[ky * kw..(ky + 1) * kw];
            let border = |ox: usize, out: &mut f32| {
                for (kx, &weight) in kernel_row.iter().enumerate() {
                    if let Some(ix) = (ox * sx + kx).checked_sub(pad_left).filter(|&ix| ix < w) {
                        *out += weight * input_row[ix];
                    }
                }
            };
            for (ox, out) in row.iter_mut().enumerate().take(interior_start) {
                border(ox, out);
            }
            if interior_end > interior_start {
                accumulate_interior(
                    &mut row[interior_start..interior_end],
                    &input_row[interior_start * sx - pad_left..],
                    kernel_row,
                    sx,
                );
            }
            for (ox, out) in row.iter_mut().enumerate().skip(interior_end) {
                border(ox, out);
            }
        }
    }
}

/// `out[i] += Σ_kx weight[kx] × input[i × stride + kx]`, added one tap at a time in kernel
/// order.
#[inline(always)]
fn accumulate_interior(out: &mut [f32], input: &[f32], kernel_row: &[f32], stride: usize) {
    let n = out.len();
    if n == 0 {
        return;
    }
    match (kernel_row, stride) {
        (&[w0, w1, w2], 1) => {
            let (a, b, c) = (&input[..n], &input[1..n + 1], &input[2..n + 2]);
            for (((value, &a), &b), &c) in out.iter_mut().zip(a).zip(b).zip(c) {
                *value = ((*value + w0 * a) + w1 * b) + w2 * c;
            }
        }
        (&[w0, w1, w2], 2) => {
            let span = &input[..2 * n + 1];
            for (value, taps) in out.iter_mut().zip(span.windows(3).step_by(2)) {
                *value = ((*value + w0 * taps[0]) + w1 * taps[1]) + w2 * taps[2];
            }
        }
        _ => {
            for (kx, &weight) in kernel_row.iter().enumerate() {
                for (i, value) in out.iter_mut().enumerate() {
                    *value += weight * input[i * stride + kx];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Direct definition: every output point sums its in-image taps from the bias.
    fn reference(g: &DepthwiseGeometry, src: &[f32], taps: &[f32], bias: f32) -> Vec<f32> {
        let [h, w] = g.input_hw;
        let [oh, ow] = g.output_hw;
        let [kh, kw] = g.kernel_hw;
        let mut out = vec![0f32; oh * ow];
        for oy in 0..oh {
            for ox in 0..ow {
                let mut sum = bias;
                for ky in 0..kh {
                    for kx in 0..kw {
                        let iy = (oy * g.strides[0] + ky) as isize - g.pad_before[0] as isize;
                        let ix = (ox * g.strides[1] + kx) as isize - g.pad_before[1] as isize;
                        if iy >= 0 && ix >= 0 && (iy as usize) < h && (ix as usize) < w {
                            sum += taps[ky * kw + kx] * src[iy as usize * w + ix as usize];
                        }
                    }
                }
                out[oy * ow + ox] = sum;
            }
        }
        out
    }

    #[test]
    fn every_stride_padding_and_kernel_matches_the_definition_bit_for_bit() {
        let values = |n: usize, seed: u32| -> Vec<f32> {
            (0..n)
                .map(|i| ((i as u32).wrapping_mul(2_654_435_761) ^ seed) as f32 / u32::MAX as f32)
                .collect()
        };
        for (h, w) in [(7, 9), (16, 16), (5, 3)] {
            for kernel in [[3, 3], [5, 5], [1, 3]] {
                for stride in [1, 2] {
                    for pad in [[0, 0], [1, 1], [kernel[0] / 2, kernel[1] / 2]] {
                        if h + 2 * pad[0] < kernel[0] || w + 2 * pad[1] < kernel[1] {
                            continue;
                        }
                        let out_h = (h + 2 * pad[0] - kernel[0]) / stride + 1;
                        let out_w = (w + 2 * pad[1] - kernel[1]) / stride + 1;
                        let g = DepthwiseGeometry {
                            channels: 1,
                            input_hw: [h, w],
                            output_hw: [out_h, out_w],
                            kernel_hw: kernel,
                            strides: [stride, stride],
                            pad_before: pad,
                            batched: true,
                        };
                        let src = values(h * w, 17);
                        let taps = values(kernel[0] * kernel[1], 91);
                        let expected = reference(&g, &src, &taps, 0.25);
                        let mut out = vec![0f32; out_h * out_w];
                        convolve_plane(&g, &src, &mut out, &taps, 0.25, &mut Scratch::default());
                        assert_eq!(out, expected, "{h}x{w} {kernel:?} /{stride} pad {pad:?}");
                        let mut out = vec![0f32; out_h * out_w];
                        let scratch = &mut Scratch::default();
                        convolve_plane_dispatched(&g, &src, &mut out, &taps, 0.25, scratch);
                        assert_eq!(out, expected, "dispatched: {h}x{w} {kernel:?} /{stride}");
                    }
                }
            }
        }
    }
}
