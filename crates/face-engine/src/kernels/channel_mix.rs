//! The arithmetic of a 1×1 convolution over one image: `dst[o][p] = Σ_i w[o][i] × src[i][p]`,
//! then `+ bias[o]`, computed in register tiles of output channels by pixels. Each output
//! starts at zero and adds the input channels in order, with fused multiply-adds where the
//! CPU has AVX2 and FMA (AVX-512 where it has that too), which is what tract's x86 matrix
//! kernels compute for the same product, so the results match them bit for bit
//! (`tests/tract_rewrites.rs`). The pixels of a channel plane are read where they lie; tract
//! packs them into panels first.

/// Whether [`mix_channels`] runs fused multiply-adds on this CPU.
pub(crate) fn fused_multiply_add() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `dst[o][p] = Σ_i weights[o][i] × src[i][p] (+ bias[o])` for one image of `mix.plane`
/// pixels.
pub(crate) fn mix_channels(mix: &Mix, dst: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") && fused_multiply_add() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above), the features
            // the function is compiled for; it has no other requirement.
            unsafe {
                mix_avx512(mix, dst)
            };
            return;
        }
        if fused_multiply_add() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has AVX2 and FMA (checked just above), the features the function
            // is compiled for; it has no other requirement.
            unsafe {
                mix_avx2(mix, dst)
            };
            return;
        }
    }
    mix.run::<4, 8, false>(dst);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn mix_avx512(mix: &Mix, dst: &mut [f32]) {
    mix.run::<8, 32, true>(dst);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mix_avx2(mix: &Mix, dst: &mut [f32]) {
    mix.run::<6, 16, true>(dst);
}

/// One image's channel mix, run in tiles of `ROWS` output channels by `LANES` pixels.
pub(crate) struct Mix<'a> {
    pub input_channels: usize,
    pub output_channels: usize,
    /// `[input channel][output channel]`: the weights one input channel gives every output
    /// channel lie together.
    pub weights: &'a [f32],
    /// One per output channel, added after the sum.
    pub bias: Option<&'a [f32]>,
    /// Pixels per channel plane.
    pub plane: usize,
    /// `[input channel][pixel]`.
    pub src: &'a [f32],
}

impl Mix<'_> {
    /// Runs of pixels short enough that their input channels stay in the core's cache while
    /// every tile of output channels reads them; in each, tiles of `ROWS` output channels,
    /// then of 4, 2 and 1 for the channels left over.
    #[inline(always)]
    fn run<const ROWS: usize, const LANES: usize, const FUSED: bool>(&self, dst: &mut [f32]) {
        const RUN_BYTES: usize = 64 * 1024;
        let run = (RUN_BYTES / 4 / self.input_channels.max(1) / LANES).max(1) * LANES;
        let outputs = self.output_channels;
        let mut from = 0;
        while from < self.plane {
            let to = (from + run).min(self.plane);
            let mut row = 0;
            while outputs - row >= ROWS {
                self.rows::<ROWS, LANES, FUSED>(row, from..to, dst);
                row += ROWS;
            }
            while outputs - row >= 4 {
                self.rows::<4, LANES, FUSED>(row, from..to, dst);
                row += 4;
            }
            while outputs - row >= 2 {
                self.rows::<2, LANES, FUSED>(row, from..to, dst);
                row += 2;
            }
            while outputs - row >= 1 {
                self.rows::<1, LANES, FUSED>(row, from..to, dst);
                row += 1;
            }
            from = to;
        }
    }

    /// Output channels `row..row + ROWS` over the pixels `pixels`.
    #[inline(always)]
    fn rows<const ROWS: usize, const LANES: usize, const FUSED: bool>(
        &self,
        row: usize,
        pixels: std::ops::Range<usize>,
        dst: &mut [f32],
    ) {
        let bias: [f32; ROWS] = std::array::from_fn(|r| self.bias.map_or(0.0, |b| b[row + r]));
        let mut start = pixels.start;
        while pixels.end - start >= LANES {
            let sums = self.tile::<ROWS, LANES, FUSED>(row, start);
            self.store(row, start, &sums, &bias, dst);
            start += LANES;
        }
        // The planes of 7×7, 14×14 and 28×28 leave tails of 17, 4 and 16 pixels.
        while pixels.end - start >= 8 {
            let sums = self.tile::<ROWS, 8, FUSED>(row, start);
            self.store(row, start, &sums, &bias, dst);
            start += 8;
        }
        while pixels.end - start >= 4 {
            let sums = self.tile::<ROWS, 4, FUSED>(row, start);
            self.store(row, start, &sums, &bias, dst);
            start += 4;
        }
        for start in start..pixels.end {
            let sums = self.tile::<ROWS, 1, FUSED>(row, start);
            self.store(row, start, &sums, &bias, dst);
        }
    }

    /// The sums of output channels `row..row + ROWS` at pixels `start..start + LANES`.
    #[inline(always)]
    fn tile<const ROWS: usize, const LANES: usize, const FUSED: bool>(
        &self,
        row: usize,
        start: usize,
    ) -> [[f32; LANES]; ROWS] {
        let mut sums = [[0f32; LANES]; ROWS];
        for (plane, weights) in self
            .src
            .chunks_exact(self.plane)
            .zip(self.weights.chunks_exact(self.output_channels))
        {
            let (Some(pixels), Some(weights)) = (
                plane[start..].first_chunk::<LANES>(),
                weights[row..].first_chunk::<ROWS>(),
            ) else {
                continue;
            };
            for r in 0..ROWS {
                for l in 0..LANES {
                    sums[r][l] = if FUSED {
                        weights[r].mul_add(pixels[l], sums[r][l])
                    } else {
                        sums[r][l] + weights[r] * pixels[l]
                    };
                }
            }
        }
        sums
    }

    #[inline(always)]
    fn store<const ROWS: usize, const LANES: usize>(
        &self,
        row: usize,
        start: usize,
        sums: &[[f32; LANES]; ROWS],
        bias: &[f32; ROWS],
        dst: &mut [f32],
    ) {
        for r in 0..ROWS {
            let out = &mut dst[(row + r) * self.plane + start..][..LANES];
            for l in 0..LANES {
                out[l] = if self.bias.is_some() {
                    sums[r][l] + bias[r]
                } else {
                    sums[r][l]
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: from zero, each input channel in order, then the bias.
    fn reference(op: &Mix) -> Vec<f32> {
        let (plane, src) = (op.plane, op.src);
        let fused = fused_multiply_add();
        let mut out = vec![0f32; op.output_channels * plane];
        for o in 0..op.output_channels {
            for p in 0..plane {
                let mut sum = 0f32;
                for i in 0..op.input_channels {
                    let (w, x) = (op.weights[i * op.output_channels + o], src[i * plane + p]);
                    sum = if fused {
                        w.mul_add(x, sum)
                    } else {
                        sum + w * x
                    };
                }
                out[o * plane + p] = op.bias.map_or(sum, |b| sum + b[o]);
            }
        }
        out
    }

    #[test]
    fn every_tile_and_tail_matches_the_definition_bit_for_bit() {
        let values = |n: usize, seed: u32| -> Vec<f32> {
            (0..n)
                .map(|i| {
                    let v = ((i as u32).wrapping_mul(2_654_435_761) ^ seed) as f32;
                    v / u32::MAX as f32 - 0.5
                })
                .collect()
        };
        for (inputs, outputs) in [(3, 1), (24, 24), (28, 32), (17, 13), (96, 96)] {
            for plane in [1, 9, 49, 64, 144, 196, 33 * 35] {
                for with_bias in [false, true] {
                    let (weights, bias) = (values(inputs * outputs, 7), values(outputs, 11));
                    let src = values(inputs * plane, 5);
                    let mix = Mix {
                        input_channels: inputs,
                        output_channels: outputs,
                        weights: &weights,
                        bias: with_bias.then_some(bias.as_slice()),
                        plane,
                        src: &src,
                    };
                    let mut dst = vec![f32::NAN; outputs * plane];
                    mix_channels(&mix, &mut dst);
                    let expected = reference(&mix);
                    assert!(
                        dst.iter()
                            .zip(&expected)
                            .all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{inputs} -> {outputs} over {plane} pixels, bias {with_bias}"
                    );
                }
            }
        }
    }
}
