//! LLVM 22's attribute keywords: where each applies and what follows it, as
//! `llvm/IR/Attributes.td` declares them, with the older spellings `LLParser` still reads.
//!
//! LLVM refuses a word it does not know where an attribute may stand (the list ends there and
//! what follows is not what the grammar expects), and an attribute where it does not apply
//! ("this attribute does not apply to parameters"). A test (`tests/read.rs`) asks opt-22
//! about every keyword in every place.

use super::verify_attributes::{self, Kinds};

/// Where an attribute stands, as bits: a function (its header, an attribute group, a call's
/// function attributes, a global variable), a parameter or argument, a return value.
pub(super) const FUNCTION: u8 = 1;
pub(super) const PARAMETER: u8 = 2;
pub(super) const RETURN: u8 = 4;

/// What follows an attribute keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Argument {
    None,
    /// `(T)`, required: `byval(%struct.S)`.
    Type,
    /// `(...)`, required: `dereferenceable(8)`, `memory(read)`.
    Parens,
    /// `(...)` or nothing: `uwtable`, `uwtable(sync)`.
    OptionalParens,
    /// `align N` or `align(N)`; `align=N` in an attribute group.
    Align,
    /// `alignstack(N)`; `alignstack=N` in an attribute group.
    AlignStack,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Keyword {
    pub name: &'static str,
    /// Where the word is read as an attribute at all: elsewhere it ends the list.
    pub read_in: u8,
    /// Where LLVM accepts it; elsewhere it is an error.
    pub applies: u8,
    pub argument: Argument,
    /// Its bit, if LLVM's verifier has rules for it (see `verify_attributes`).
    pub checks: Kinds,
    /// A spelling LLParser upgrades to another: no attribute of LLVM 22's own.
    pub upgraded: bool,
}

const ALL: u8 = FUNCTION | PARAMETER | RETURN;

const fn kw(name: &'static str, applies: u8, argument: Argument) -> Keyword {
    Keyword {
        name,
        read_in: ALL,
        applies,
        argument,
        checks: verify_attributes::kind_of(name),
        upgraded: false,
    }
}

/// A spelling LLParser reads in some places only, upgrading it (`argmemonly` to
/// `memory(argmem: readwrite)`, `nocapture` to `captures(none)`).
const fn legacy(name: &'static str, places: u8) -> Keyword {
    Keyword {
        name,
        read_in: places,
        applies: places,
        argument: Argument::None,
        checks: verify_attributes::kind_of(name),
        upgraded: true,
    }
}

const KEYWORDS: &[Keyword] = &[
    // A function's `align N` is its alignment, which LLParser reads among its attributes.
    kw("align", FUNCTION | PARAMETER | RETURN, Argument::Align),
    kw("allocalign", PARAMETER, Argument::None),
    kw("allockind", FUNCTION, Argument::Parens),
    kw("allocptr", PARAMETER, Argument::None),
    kw("allocsize", FUNCTION, Argument::Parens),
    kw("alwaysinline", FUNCTION, Argument::None),
    kw("builtin", FUNCTION, Argument::None),
    kw("byval", PARAMETER, Argument::Type),
    kw("byref", PARAMETER, Argument::Type),
    kw("noundef", PARAMETER | RETURN, Argument::None),
    kw("cold", FUNCTION, Argument::None),
    kw("convergent", FUNCTION, Argument::None),
    kw("hot", FUNCTION, Argument::None),
    kw("dereferenceable", PARAMETER | RETURN, Argument::Parens),
    kw(
        "dereferenceable_or_null",
        PARAMETER | RETURN,
        Argument::Parens,
    ),
    kw(
        "disable_sanitizer_instrumentation",
        FUNCTION,
        Argument::None,
    ),
    kw("elementtype", PARAMETER, Argument::Type),
    kw("fn_ret_thunk_extern", FUNCTION, Argument::None),
    kw("hybrid_patchable", FUNCTION, Argument::None),
    kw("inalloca", PARAMETER, Argument::Type),
    kw("initializes", PARAMETER, Argument::Parens),
    kw("inlinehint", FUNCTION, Argument::None),
    kw("inreg", PARAMETER | RETURN, Argument::None),
    kw("jumptable", FUNCTION, Argument::None),
    kw("memory", FUNCTION, Argument::Parens),
    kw("nofpclass", PARAMETER | RETURN, Argument::Parens),
    kw("minsize", FUNCTION, Argument::None),
    kw("naked", FUNCTION, Argument::None),
    kw("nest", PARAMETER, Argument::None),
    kw("noalias", PARAMETER | RETURN, Argument::None),
    kw("nobuiltin", FUNCTION, Argument::None),
    kw("nocallback", FUNCTION, Argument::None),
    kw("captures", PARAMETER, Argument::Parens),
    kw("nocreateundeforpoison", FUNCTION, Argument::None),
    kw("nodivergencesource", FUNCTION, Argument::None),
    kw("noduplicate", FUNCTION, Argument::None),
    kw("noext", PARAMETER | RETURN, Argument::None),
    kw("nofree", FUNCTION | PARAMETER, Argument::None),
    kw("dead_on_unwind", PARAMETER, Argument::None),
    kw("dead_on_return", PARAMETER, Argument::None),
    kw("noimplicitfloat", FUNCTION, Argument::None),
    kw("noinline", FUNCTION, Argument::None),
    kw("nonlazybind", FUNCTION, Argument::None),
    kw("nomerge", FUNCTION, Argument::None),
    kw("nonnull", PARAMETER | RETURN, Argument::None),
    kw("norecurse", FUNCTION, Argument::None),
    kw("noredzone", FUNCTION, Argument::None),
    kw("noreturn", FUNCTION, Argument::None),
    kw("nosync", FUNCTION, Argument::None),
    kw("nocf_check", FUNCTION, Argument::None),
    kw("noprofile", FUNCTION, Argument::None),
    kw("skipprofile", FUNCTION, Argument::None),
    kw("nounwind", FUNCTION, Argument::None),
    kw("nosanitize_bounds", FUNCTION, Argument::None),
    kw("nosanitize_coverage", FUNCTION, Argument::None),
    kw("null_pointer_is_valid", FUNCTION, Argument::None),
    kw("optdebug", FUNCTION, Argument::None),
    kw("optforfuzzing", FUNCTION, Argument::None),
    kw("optsize", FUNCTION, Argument::None),
    kw("optnone", FUNCTION, Argument::None),
    kw("preallocated", FUNCTION | PARAMETER, Argument::Type),
    kw("range", PARAMETER | RETURN, Argument::Parens),
    // On a function, LLParser upgrades readnone, readonly and writeonly to `memory(...)`.
    kw("readnone", FUNCTION | PARAMETER, Argument::None),
    kw("readonly", FUNCTION | PARAMETER, Argument::None),
    kw("returned", PARAMETER, Argument::None),
    kw("immarg", PARAMETER, Argument::None),
    kw("returns_twice", FUNCTION, Argument::None),
    kw("safestack", FUNCTION, Argument::None),
    kw("shadowcallstack", FUNCTION, Argument::None),
    kw("signext", PARAMETER | RETURN, Argument::None),
    kw(
        "alignstack",
        FUNCTION | PARAMETER | RETURN,
        Argument::AlignStack,
    ),
    kw("speculatable", FUNCTION, Argument::None),
    kw("ssp", FUNCTION, Argument::None),
    kw("sspreq", FUNCTION, Argument::None),
    kw("sspstrong", FUNCTION, Argument::None),
    kw("strictfp", FUNCTION, Argument::None),
    kw("sret", PARAMETER, Argument::Type),
    kw("sanitize_address", FUNCTION, Argument::None),
    kw("sanitize_thread", FUNCTION, Argument::None),
    kw("sanitize_type", FUNCTION, Argument::None),
    kw("sanitize_memory", FUNCTION, Argument::None),
    kw("sanitize_hwaddress", FUNCTION, Argument::None),
    kw("sanitize_memtag", FUNCTION, Argument::None),
    kw("sanitize_numerical_stability", FUNCTION, Argument::None),
    kw("sanitize_realtime", FUNCTION, Argument::None),
    kw("sanitize_realtime_blocking", FUNCTION, Argument::None),
    kw("sanitize_alloc_token", FUNCTION, Argument::None),
    kw("speculative_load_hardening", FUNCTION, Argument::None),
    kw("swifterror", PARAMETER, Argument::None),
    kw("swiftself", PARAMETER, Argument::None),
    kw("swiftasync", PARAMETER, Argument::None),
    kw("uwtable", FUNCTION, Argument::OptionalParens),
    kw("vscale_range", FUNCTION, Argument::Parens),
    kw("willreturn", FUNCTION, Argument::None),
    kw("writable", PARAMETER, Argument::None),
    kw("writeonly", FUNCTION | PARAMETER, Argument::None),
    kw("zeroext", PARAMETER | RETURN, Argument::None),
    kw("mustprogress", FUNCTION, Argument::None),
    kw("presplitcoroutine", FUNCTION, Argument::None),
    kw("coro_only_destroy_when_complete", FUNCTION, Argument::None),
    kw("coro_elide_safe", FUNCTION, Argument::None),
    legacy("argmemonly", FUNCTION),
    legacy("inaccessiblememonly", FUNCTION),
    legacy("inaccessiblemem_or_argmemonly", FUNCTION),
    legacy("nocapture", PARAMETER | RETURN),
];

/// A slot of the table for `word`, from its length and three of its bytes: no loop over the
/// word (a lookup ends every list of attributes, at the word that follows it). Keywords
/// that share a slot take the next free one.
const fn hash(word: &[u8]) -> usize {
    let n = word.len();
    if n == 0 {
        return 0;
    }
    let mix =
        n as u32 | (word[0] as u32) << 8 | (word[n / 2] as u32) << 16 | (word[n - 1] as u32) << 24;
    (mix.wrapping_mul(0x9E37_79B9) >> (32 - SLOTS.trailing_zeros())) as usize
}

/// Slots of the open-addressed table: a power of two, about four times the keywords, so a
/// lookup mostly probes one slot. Headers of C++ modules carry thousands of attributes.
const SLOTS: usize = 512;
const EMPTY: u8 = u8::MAX;

/// For each slot, the index in [`KEYWORDS`] of the keyword there, or [`EMPTY`].
const TABLE: [u8; SLOTS] = {
    assert!(KEYWORDS.len() < EMPTY as usize);
    let mut table = [EMPTY; SLOTS];
    let mut k = 0;
    while k < KEYWORDS.len() {
        let mut slot = hash(KEYWORDS[k].name.as_bytes());
        while table[slot] != EMPTY {
            slot = (slot + 1) & (SLOTS - 1);
        }
        table[slot] = k as u8;
        k += 1;
    }
    table
};

/// The words the reader takes as attribute keywords somewhere.
pub fn keywords() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().map(|k| k.name)
}

/// The attribute keyword `word`, if it is one.
pub(super) fn keyword(word: &[u8]) -> Option<&'static Keyword> {
    let mut slot = hash(word);
    loop {
        let k = KEYWORDS.get(TABLE[slot] as usize)?;
        if k.name.as_bytes() == word {
            return Some(k);
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_is_found_and_nothing_else() {
        for k in KEYWORDS {
            assert_eq!(keyword(k.name.as_bytes()).map(|f| f.name), Some(k.name));
        }
        for word in [
            "",
            "foo",
            "noinlin",
            "noinlinee",
            "i32",
            "ptr",
            "addrspace",
            "align8",
        ] {
            assert!(keyword(word.as_bytes()).is_none(), "{word}");
        }
    }
}
