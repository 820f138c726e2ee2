//! Calling conventions by their numbers in LLVM 22 (`CallingConv.h`), as a header or a call
//! writes them: by name (`fastcc`, `riscv_vls_cc(128)`) or by number (`cc 8`). The rules that
//! hang on a convention (which ones may be called, which a thunk may call) test numbers, so
//! that `cc 91` is `amdgpu_kernel`.

use super::literals::decimal_u128;

pub const C: u32 = 0;
pub const FAST: u32 = 8;
pub const COLD: u32 = 9;
pub const SWIFT_TAIL: u32 = 20;
pub const TAIL: u32 = 18;
pub const PTX_KERNEL: u32 = 71;
pub const PTX_DEVICE: u32 = 72;
pub const SPIR_KERNEL: u32 = 76;
pub const INTEL_OCL_BI: u32 = 77;
pub const X86_INTR: u32 = 83;
pub const AMDGPU_VS: u32 = 87;
pub const AMDGPU_GS: u32 = 88;
pub const AMDGPU_PS: u32 = 89;
pub const AMDGPU_CS: u32 = 90;
pub const AMDGPU_KERNEL: u32 = 91;
pub const AMDGPU_HS: u32 = 93;
pub const AMDGPU_LS: u32 = 95;
pub const AMDGPU_ES: u32 = 96;
pub const AMDGPU_CS_CHAIN: u32 = 104;
pub const AMDGPU_CS_CHAIN_PRESERVE: u32 = 105;
pub const AMDGPU_GFX_WHOLE_WAVE: u32 = 124;

/// Whether LLVM's verifier lets a call use convention `cc` (`isCallableCC`): not the
/// hardware entry points, nor those only an intrinsic enters.
pub fn callable(cc: u32) -> bool {
    !matches!(
        cc,
        AMDGPU_CS_CHAIN
            | AMDGPU_CS_CHAIN_PRESERVE
            | AMDGPU_CS
            | AMDGPU_ES
            | AMDGPU_GS
            | AMDGPU_HS
            | AMDGPU_KERNEL
            | AMDGPU_LS
            | AMDGPU_PS
            | AMDGPU_VS
            | SPIR_KERNEL
            | AMDGPU_GFX_WHOLE_WAVE
    )
}

/// Whether no thunk may call a function of convention `cc` (spec §6): one LLVM's verifier
/// refuses calls under, and `ptx_kernel`, a kernel the host launches.
pub fn forbids_thunks(cc: u32) -> bool {
    !callable(cc) || cc == PTX_KERNEL
}

/// The number of a calling convention, written by name (`fastcc`, `riscv_vls_cc(128)`) or by
/// number (`cc 8`, as LLVM reads it); `None` for a word that is none known here. The names'
/// numbers are LLVM 22's (`CallingConv.h`), read back from `llvm-as-22`'s bitcode.
pub fn number(word: &[u8]) -> Option<u32> {
    let decimal = |n: &[u8]| decimal_u128(n.trim_ascii());
    if let Some(n) = word.strip_prefix(b"cc").and_then(decimal) {
        return u32::try_from(n).ok();
    }
    let vls_width = word
        .strip_prefix(b"riscv_vls_cc")
        .and_then(|w| w.trim_ascii_start().strip_prefix(b"("))
        .and_then(|w| w.strip_suffix(b")"))
        .and_then(decimal);
    if let Some(width) = vls_width {
        // 32 to 65536 bits, one number each from 112.
        return (width.is_power_of_two() && (32..=65536).contains(&width))
            .then(|| 112 + (width.trailing_zeros() - 5));
    }
    let at = CALLING_CONVENTION_NUMBERS.binary_search_by(|(name, _)| name.as_bytes().cmp(word));
    at.ok().map(|at| CALLING_CONVENTION_NUMBERS[at].1)
}

/// LLVM 22's named calling conventions and their numbers, sorted by name.
const CALLING_CONVENTION_NUMBERS: &[(&str, u32)] = &[
    ("aarch64_sme_preservemost_from_x0", 102),
    ("aarch64_sme_preservemost_from_x1", 111),
    ("aarch64_sme_preservemost_from_x2", 103),
    ("aarch64_sve_vector_pcs", 98),
    ("aarch64_vector_pcs", 97),
    ("amdgpu_cs", 90),
    ("amdgpu_cs_chain", 104),
    ("amdgpu_cs_chain_preserve", 105),
    ("amdgpu_es", 96),
    ("amdgpu_gfx", 100),
    ("amdgpu_gfx_whole_wave", 124),
    ("amdgpu_gs", 88),
    ("amdgpu_hs", 93),
    ("amdgpu_kernel", 91),
    ("amdgpu_ls", 95),
    ("amdgpu_ps", 89),
    ("amdgpu_vs", 87),
    ("anyregcc", 13),
    ("arm_aapcs_vfpcc", 68),
    ("arm_aapcscc", 67),
    ("arm_apcscc", 66),
    ("avr_intrcc", 84),
    ("avr_signalcc", 85),
    ("ccc", 0),
    ("cfguard_checkcc", 19),
    ("cheriot_compartmentcallcc", 125),
    ("cheriot_compartmentcalleecc", 126),
    ("cheriot_librarycallcc", 127),
    ("coldcc", 9),
    ("cxx_fast_tlscc", 17),
    ("fastcc", 8),
    ("ghccc", 10),
    ("graalcc", 107),
    ("hhvm_ccc", 82),
    ("hhvmcc", 81),
    ("intel_ocl_bicc", 77),
    ("m68k_rtdcc", 106),
    ("msp430_intrcc", 69),
    ("preserve_allcc", 15),
    ("preserve_mostcc", 14),
    ("preserve_nonecc", 21),
    ("ptx_device", 72),
    ("ptx_kernel", 71),
    ("riscv_vector_cc", 110),
    ("spir_func", 75),
    ("spir_kernel", 76),
    ("swiftcc", 16),
    ("swifttailcc", 20),
    ("tailcc", 18),
    ("win64cc", 79),
    ("x86_64_sysvcc", 78),
    ("x86_fastcallcc", 65),
    ("x86_intrcc", 83),
    ("x86_regcallcc", 92),
    ("x86_stdcallcc", 64),
    ("x86_thiscallcc", 70),
    ("x86_vectorcallcc", 80),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_are_numbered_as_llvm_numbers_them() {
        assert_eq!(number(b"amdgpu_kernel"), Some(AMDGPU_KERNEL));
        assert_eq!(number(b"cc 91"), Some(AMDGPU_KERNEL));
        assert_eq!(number(b"cc  076"), Some(SPIR_KERNEL));
        assert_eq!(number(b"riscv_vls_cc(128)"), Some(114));
        assert_eq!(number(b"riscv_vls_cc(100)"), None);
        assert_eq!(number(b"nocc"), None);
        assert!(!callable(AMDGPU_GFX_WHOLE_WAVE) && callable(PTX_KERNEL) && callable(FAST));
        assert!(forbids_thunks(PTX_KERNEL) && forbids_thunks(AMDGPU_PS) && !forbids_thunks(C));
    }
}
