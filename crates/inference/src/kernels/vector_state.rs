//! Clears the upper halves of the x86 vector registers between tract's nodes and after a
//! model run. tract's AVX-512 and AVX2 matrix kernels return with those halves dirty; on Intel
//! cores every plain SSE instruction that runs afterwards (our own pixel code, glibc's maths,
//! tract's Rust-written ops such as packing, padding and pooling) then pays a merge with the
//! dirty state. Measured on this project's Intel Xeon machines: a 4,420-row softmax after the
//! group detector took 1.06 ms with the state dirty and 0.034 ms with it cleared
//! (`docs/benchmarks.md`, issue 16). AMD cores do not pay this, and clearing costs them a
//! cycle.

/// Issues `vzeroupper` where the CPU has AVX; a no-op elsewhere.
#[inline]
pub(crate) fn clear_upper_vector_state() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        #[allow(unsafe_code)]
        // SAFETY: `vzeroupper` needs AVX, which the CPU has (checked just above). It only zeroes
        // bits 128 and up of the vector registers, which no Rust code holds live across this
        // call: the compiler saves nothing there across a function boundary.
        unsafe {
            std::arch::x86_64::_mm256_zeroupper()
        };
    }
}
