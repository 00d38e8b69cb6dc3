//! Which vector width tract's kernels run at. AMD's Zen 4 cores (x86-64 family 0x19, the only
//! AMD family with AVX-512 before Zen 5) execute each 512-bit instruction as two 256-bit
//! halves, so tract's AVX-512 matrix kernels gain no throughput there, while their taller
//! tiles (16 to 48 rows) waste more on our models' small channel counts than the AVX2 + FMA
//! kernels' (8 to 40 rows). Measured on this project's Zen 4 machines: group detector, mesh,
//! embedder and anti-spoof model 5 to 9 % faster on the 256-bit kernels, the selfie detector
//! unchanged (`docs/benchmarks.md`, issue 16, fourth round). On those cores the engine asks
//! tract for its 256-bit kernels; everywhere else tract picks as it ships.
//!
//! The choice is a process-wide default below the environment: an operator's own
//! `TRACT_CPU_ISA` (for example `+avx512f`, which keeps the 512-bit kernels) wins. tract reads
//! it once, when it first selects a kernel, so it is set before the first model is optimised.

use std::sync::Once;

/// tract's knob that edits the instruction sets it detected.
const ISA_KNOB: &str = "TRACT_CPU_ISA";
/// Takes the AVX-512 kernels out of tract's pool; AVX2 and FMA stay.
const WITHOUT_AVX512: &str = "-avx512f";

/// Sets the engine's default for [`ISA_KNOB`] once per process, before tract selects kernels.
pub(crate) fn prefer_measured_vector_width() {
    static CHOSEN: Once = Once::new();
    CHOSEN.call_once(|| {
        if !is_double_pumped_avx512() {
            return;
        }
        match tract_onnx::tract_core::tract_data::knobs::set_config_global(ISA_KNOB, WITHOUT_AVX512)
        {
            Ok(()) => tracing::debug!(
                knob = ISA_KNOB,
                value = WITHOUT_AVX512,
                "AMD Zen 4: tract's 256-bit kernels by default"
            ),
            Err(error) => tracing::warn!(%error, "tract's kernel width left as detected"),
        }
    });
}

/// An AMD CPU of family 0x19 (Zen 3 and Zen 4) that has AVX-512: a Zen 4.
#[cfg(target_arch = "x86_64")]
fn is_double_pumped_avx512() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let is_amd = [vendor.ebx, vendor.edx, vendor.ecx]
        .iter()
        .flat_map(|word| word.to_le_bytes())
        .eq(*b"AuthenticAMD");
    let signature = __cpuid(1).eax;
    let family = ((signature >> 8) & 0xf) + ((signature >> 20) & 0xff);
    is_amd && family == 0x19 && std::arch::is_x86_feature_detected!("avx512f")
}

#[cfg(not(target_arch = "x86_64"))]
fn is_double_pumped_avx512() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use tract_onnx::tract_core::tract_linalg::isa::{self, Isa};

    #[test]
    fn tract_runs_without_its_avx512_kernels_on_zen_4_only() {
        prefer_measured_vector_width();
        let has_avx512 = isa::native().has(Isa::X86_64Avx512f);
        if std::env::var_os(ISA_KNOB).is_some() {
            return; // the operator's choice, not ours
        }
        if is_double_pumped_avx512() {
            assert!(!has_avx512, "Zen 4 keeps tract's 512-bit kernels");
        } else {
            #[cfg(target_arch = "x86_64")]
            assert_eq!(has_avx512, std::arch::is_x86_feature_detected!("avx512f"));
        }
    }
}
