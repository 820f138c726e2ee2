//! Which names LLVM 22 takes for intrinsics, and the signatures it takes them with. An
//! intrinsic a body calls without declaring it is declared by the reader, as by LLVM, only
//! under a name LLVM knows ([`is_known`]) and for a call whose type its signature takes; a
//! declared intrinsic that is called must have the type LLVM's table gives it, as LLVM's
//! verifier checks ([`signature_holds`]). The names and signatures come from LLVM's own
//! tables ([`names`]).

#[path = "intrinsic_names.rs"]
mod names;
#[path = "x86_upgrades.rs"]
mod x86_upgrades;

use super::verify_attributes::{self, Kinds};
use crate::model::{FloatKind, Type, TypeId, Types, int_literal};
use std::sync::Arc;
use x86_upgrades::X86_UPGRADED;

/// Whether LLVM 22 takes `name` as an intrinsic's, as `Intrinsic::lookupIntrinsicID` does:
/// an intrinsic's name, or an overloaded one's followed by `.` and type suffixes
/// (`llvm.memcpy.p0.p0.i64`); of several names it starts with, the longest counts.
pub(super) fn is_known(name: &[u8]) -> bool {
    entry(name).is_some()
}

/// An intrinsic's line of the table: its signature codes, the parameters that take only
/// an immediate, and the function attributes LLVM gives its declarations (a place in
/// [`names::FN_ATTRIBUTES`]).
#[derive(Clone)]
struct Entry {
    codes: &'static str,
    immediates: Immediates,
    fn_attributes: Option<u16>,
}

/// The parameters of an intrinsic that take only an immediate (`immarg`), and the ranges
/// given some of them, which LLVM's verifier checks an integer immediate against: by LLVM's
/// table for an intrinsic it knows (`Range<ArgIndex<N>, low, high>`, as it gives the table's
/// attributes to the declaration whatever its text), by the declaration's text for another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Immediates {
    /// Bit `i` for parameter `i`.
    pub(crate) params: u32,
    ranges: Ranges,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Ranges {
    #[default]
    None,
    /// The intrinsic's fields in the table, space-separated: its ranges are those
    /// `r<parameter>:<low>:<high>`, ends signed.
    Table(&'static str),
    /// A declaration's own: parameter, and the bits of the low and high ends.
    Declared(Arc<[(usize, u128, u128)]>),
}

impl Immediates {
    /// The parameters a declaration's text marks `immarg` (bit `i` for parameter `i`, of
    /// the first 32), each with the `range` it writes (see [`range_ends`]), if any.
    pub(crate) fn declared(params: u32, ranges: Vec<(usize, u128, u128)>) -> Immediates {
        let ranges = match ranges.is_empty() {
            true => Ranges::None,
            false => Ranges::Declared(ranges.into()),
        };
        Immediates { params, ranges }
    }

    /// The range of parameter `param`: the bits of its low and high ends; a value must lie
    /// between them as [`in_range`] says.
    pub(crate) fn range(&self, param: usize) -> Option<(u128, u128)> {
        match &self.ranges {
            Ranges::None => None,
            Ranges::Table(fields) => fields.split(' ').find_map(|field| {
                let (at, ends) = field.strip_prefix('r')?.split_once(':')?;
                let (low, high) = ends.split_once(':')?;
                let bits = |end: &str| end.parse::<i64>().ok().map(|end| end as i128 as u128);
                (at.parse::<usize>().ok()? == param).then_some((bits(low)?, bits(high)?))
            }),
            Ranges::Declared(ranges) => ranges
                .iter()
                .find(|&&(at, ..)| at == param)
                .map(|&(_, low, high)| (low, high)),
        }
    }
}

/// The bits of the two ends of a `range(iN low, high)` attribute's text (LLVM's integer
/// literals: decimal, `s0x`, `u0x`), or `None` if it is not one.
pub(crate) fn range_ends(text: &[u8]) -> Option<(u128, u128)> {
    let inner = text
        .strip_prefix(b"range(")?
        .strip_suffix(b")")?
        .trim_ascii();
    let after_type = &inner[inner.iter().position(u8::is_ascii_whitespace)?..];
    let comma = after_type.iter().position(|&b| b == b',')?;
    let (low, high) = (&after_type[..comma], &after_type[comma + 1..]);
    Some((
        int_literal(low.trim_ascii())?,
        int_literal(high.trim_ascii())?,
    ))
}

/// Whether the `width`-bit integer `bits` lies in the range `low..high` (ends as bits,
/// truncated to that width), as LLVM's `ConstantRange::contains` says: compared unsigned, the
/// range wrapping round when its low end is above its high end; ends equal make an empty
/// range (of the equal ends LLVM's parser takes, only `0, 0`). Wider than 64 bits, every
/// value lies in it.
pub(crate) fn in_range(width: u32, bits: u128, (low, high): (u128, u128)) -> bool {
    if width == 0 || width > 64 {
        return true;
    }
    let mask = u128::MAX >> (128 - width);
    let (value, low, high) = (bits & mask, low & mask, high & mask);
    match low <= high {
        true => low <= value && value < high,
        false => low <= value || value < high,
    }
}

/// `bits`, the low `width` bits of an integer, as LLVM's `getSExtValue` gives it.
pub(crate) fn sign_extended(width: u32, bits: u128) -> i128 {
    match width {
        1..=128 => ((bits << (128 - width)) as i128) >> (128 - width),
        _ => 0,
    }
}

/// The function attributes LLVM 22 gives a declaration of the intrinsic `name`, whatever its
/// text says, as LLVM's printer writes them (`nocallback nofree nosync nounwind willreturn
/// memory(argmem: readwrite)` for `llvm.lifetime.start.p0`): `None` if `name` is no
/// intrinsic's, `Some(None)` for one LLVM gives none.
pub(crate) fn fn_attributes(name: &[u8]) -> Option<Option<&'static str>> {
    let entry = entry(name)?;
    Some(
        entry
            .fn_attributes
            .map(|i| names::FN_ATTRIBUTES[usize::from(i)]),
    )
}

/// The verifier's bits of the function attributes LLVM's table gives the intrinsic `name`
/// ([`fn_attributes`]); `None` if `name` is no intrinsic's.
pub(crate) fn table_kinds(name: &[u8]) -> Option<Kinds> {
    Some(fn_attributes(name)?.map_or(Kinds::NONE, verify_attributes::kinds_of_words))
}

/// Whether LLVM's table makes the intrinsic `name` convergent (false for a name that is no
/// intrinsic's).
pub(crate) fn is_convergent(name: &[u8]) -> bool {
    name.starts_with(b"llvm.")
        && table_kinds(name).is_some_and(|kinds| kinds.has(verify_attributes::CONVERGENT))
}

/// The table's line for the intrinsic `name` names (see [`is_known`]).
fn entry(name: &[u8]) -> Option<Entry> {
    entry_and_base(name).map(|(_, entry)| entry)
}

/// [`entry`], with the length of the intrinsic's own name in `name` (the rest, if any, is
/// the mangling of an overloaded one's types).
fn entry_and_base(name: &[u8]) -> Option<(usize, Entry)> {
    if let Some((_, entry)) = lookup(name) {
        return Some((name.len(), entry));
    }
    (0..name.len())
        .rev()
        .filter(|&at| name[at] == b'.')
        .find_map(|at| Some((at, lookup(&name[..at])?)))
        .and_then(|(at, (overloaded, entry))| overloaded.then_some((at, entry)))
}

/// Whether `name` is an intrinsic's: `Some((overloaded, its entry))`, by binary search of
/// [`names::NAMES`] line by line.
fn lookup(name: &[u8]) -> Option<(bool, Entry)> {
    let table = names::NAMES.as_bytes();
    // [lo, hi) holds whole lines, lo at the start of one.
    let (mut lo, mut hi) = (0, table.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = memchr::memrchr(b'\n', &table[lo..mid]).map_or(lo, |i| lo + i + 1);
        let end = memchr::memchr(b'\n', &table[start..hi]).map_or(hi, |i| start + i);
        let line = &names::NAMES[start..end];
        let (entry, rest) = line.split_once(' ').unwrap_or((line, ""));
        let (entry, overloaded) = match entry.strip_suffix('*') {
            Some(entry) => (entry, true),
            None => (entry, false),
        };
        match entry.as_bytes().cmp(name) {
            std::cmp::Ordering::Equal => {
                let mut fields = rest.split(' ');
                let mut entry = Entry {
                    codes: fields.next().unwrap_or(""),
                    // Its ranges are the fields that start with `r`, found when asked.
                    immediates: Immediates {
                        params: 0,
                        ranges: Ranges::Table(rest),
                    },
                    fn_attributes: None,
                };
                for field in fields {
                    match field.as_bytes().first() {
                        Some(b'#') => entry.fn_attributes = field[1..].parse().ok(),
                        Some(b'r') => {}
                        _ => entry.immediates.params = u32::from_str_radix(field, 16).unwrap_or(0),
                    }
                }
                return Some((overloaded, entry));
            }
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    None
}

/// Why a called intrinsic's declaration does not match its signature: LLVM's verifier's
/// words (`Verifier::visitIntrinsicCall`).
pub(super) const RETURN_MISMATCH: &str = "Intrinsic has incorrect return type!";
pub(super) const ARGUMENT_MISMATCH: &str = "Intrinsic has incorrect argument type!";
pub(super) const NOT_VARARGS: &str = "Intrinsic was not defined with variable arguments!";
pub(super) const CALL_NOT_VARARGS: &str = "Callsite was not defined with variable arguments!";
/// An argument not an immediate where the intrinsic takes only one (`Verifier::visitCallBase`).
pub(super) const NOT_IMMEDIATE: &str = "immarg operand has non-immediate parameter";
/// A call marks an argument `immarg` where the callee's parameter is not.
pub(super) const IMMEDIATE_AT_CALL_ONLY: &str = "immarg may not apply only to call sites";

/// The targets whose intrinsics LLVM upgrades whole, each by rules of its own (AArch64's are
/// named by prefix in [`UPGRADED`]).
const UPGRADED_TARGETS: [&str; 17] = [
    "amdgcn.",
    "arm.",
    "bpf.",
    "dx.",
    "hexagon.",
    "loongarch.",
    "mips.",
    "nvvm.",
    "ppc.",
    "r600.",
    "riscv.",
    "s390.",
    "spv.",
    "ve.",
    "wasm.",
    "x86.",
    "xcore.",
];

/// Intrinsics whose declarations LLVM may rewrite as it reads them (`AutoUpgrade.cpp`): an
/// old signature of theirs reads, so theirs are not checked. The targets' (each upgraded by
/// its own rules; AArch64's by the prefixes LLVM 22's `upgradeArmOrAarch64IntrinsicFunction`
/// names, the other targets' whole: [`UPGRADED_TARGETS`]), the target-independent families LLVM 19's upgrader
/// names, and those whose signatures changed since or whose names LLVM remangles. A guess on
/// the safe side: an intrinsic left out of the check is only not checked, one wrongly checked
/// would refuse a module LLVM reads (none of LLVM's 13,423 test files that opt-22 reads is
/// refused, nor any of its AArch64 code generation tests).
const UPGRADED: &[&str] = &[
    "aarch64.rbit",
    "aarch64.thread.pointer",
    "aarch64.neon.bfdot.",
    "aarch64.neon.bfm",
    "aarch64.neon.frintn",
    "aarch64.neon.rbit",
    "aarch64.neon.addp",
    "aarch64.neon.bfcvt",
    "aarch64.sve.bf",
    "aarch64.sve.fcvt.bf16f32",
    "aarch64.sve.fcvtnt.bf16f32",
    "aarch64.sve.addqv",
    "aarch64.sve.ld",
    "aarch64.sve.tuple.",
    "aarch64.sve.rev.nxv",
    "ctlz.",
    "cttz.",
    "dbg.",
    "experimental.vector.",
    "experimental.stepvector.",
    "flt.rounds",
    "invariant.group.",
    "memcpy",
    "memmove",
    "memset",
    "objectsize",
    "ptr.annotation",
    "var.annotation",
    "stackprotectorcheck",
    "lifetime.",
    "annotation",
    "is.constant",
    "load.relative",
    "prefetch",
    "launder.invariant.group",
    "strip.invariant.group",
    "threadlocal.address",
    "vector.splice",
];

/// The types a signature is matched against: the module's ([`Types`]), or those a body reads
/// beside them (its literal types continue the module's ids).
pub(super) trait TypeView {
    fn get(&self, id: TypeId) -> &Type;
    /// `id` with named types followed to their bodies (see [`Types::resolve`]).
    fn resolve(&self, id: TypeId) -> TypeId;
}

impl TypeView for Types {
    fn get(&self, id: TypeId) -> &Type {
        Types::get(self, id)
    }

    fn resolve(&self, id: TypeId) -> TypeId {
        Types::resolve(self, id)
    }
}

/// Whether `name` (`llvm.` and the rest) is an intrinsic LLVM calls assume-like
/// (`IntrinsicInst::isAssumeLikeIntrinsic`): those whose calls `Function::hasAddressTaken`
/// may be asked to ignore. The overloaded ones with any type suffix, the others exactly.
pub(super) fn is_assume_like(name: &[u8]) -> bool {
    const EXACT: &[&[u8]] = &[
        b"llvm.assume",
        b"llvm.sideeffect",
        b"llvm.pseudoprobe",
        b"llvm.dbg.assign",
        b"llvm.dbg.declare",
        b"llvm.dbg.value",
        b"llvm.dbg.label",
        b"llvm.experimental.noalias.scope.decl",
    ];
    const OVERLOADED: &[&[u8]] = &[
        b"llvm.invariant.start",
        b"llvm.invariant.end",
        b"llvm.lifetime.start",
        b"llvm.lifetime.end",
        b"llvm.objectsize",
        b"llvm.ptr.annotation",
        b"llvm.var.annotation",
    ];
    EXACT.contains(&name) || OVERLOADED.iter().any(|base| is_named(name, base))
}

/// Whether the intrinsic `name` is `base`, with or without type suffixes.
pub(super) fn is_named(name: &[u8], base: &[u8]) -> bool {
    name.strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest[0] == b'.')
}

/// Whether LLVM may upgrade the intrinsic `name` (`llvm.` and the rest) as it reads its
/// declaration (see [`UPGRADED`]).
pub(super) fn may_be_upgraded(name: &[u8]) -> bool {
    name.strip_prefix(b"llvm.").is_some_and(|tail| {
        starts_with_any(tail, UPGRADED) || starts_with_any(tail, &UPGRADED_TARGETS)
    })
}

/// Whether `name` (`llvm.` and the rest) is an old name LLVM 22 no longer knows but takes
/// from a call that never declares it, upgrading the call as it reads the module
/// (`upgradeIntrinsicFunction`: AMDGPU's old atomics become `atomicrmw`, NVPTX's old
/// operations LLVM's own instructions or intrinsics, the experimental vector operations their
/// final names, x86's old operations ([`X86_UPGRADED`]) instructions...). By prefix or whole
/// name, as LLVM matches them. Where LLVM asks the call's number of arguments too (NVPTX's
/// `brev32` of one, `min.i` of two), the name alone is asked here. Not followed: AArch64's
/// and ARM's NEON and SVE renames LLVM matches by type or pattern (`sve.ld2`, ARM's `vst`),
/// and RISC-V's (known names at old types).
pub(super) fn is_renamed_on_read(name: &[u8]) -> bool {
    let Some(tail) = name.strip_prefix(b"llvm.") else {
        return false;
    };
    if let Some(x86) = tail.strip_prefix(b"x86.") {
        return X86_UPGRADED.iter().any(|&(pattern, whole)| match whole {
            true => x86 == pattern.as_bytes(),
            false => x86.starts_with(pattern.as_bytes()),
        });
    }
    if let Some(t) = tail.strip_prefix(b"nvvm.") {
        return nvvm_renamed_on_read(t);
    }
    if let Some(t) = tail.strip_prefix(b"amdgcn.") {
        if let Some(op) = t.strip_prefix(b"atomic.") {
            return starts_with_any(op, &["inc", "dec", "cond.sub", "csub"]);
        }
        let atomic = [&b"ds."[..], b"global.atomic.", b"flat.atomic."]
            .iter()
            .find_map(|family| t.strip_prefix(*family));
        return t == b"alignbit"
            || t.starts_with(b"ldexp.")
            || atomic.is_some_and(|op| {
                op.starts_with(b"fadd")
                    || (op.starts_with(b"fmin") && !op.starts_with(b"fmin.num"))
                    || (op.starts_with(b"fmax") && !op.starts_with(b"fmax.num"))
            });
    }
    if let Some(t) = tail.strip_prefix(b"aarch64.") {
        return t.starts_with(b"rbit")
            || t == b"thread.pointer"
            || t.starts_with(b"neon.bfcvt")
            || t.starts_with(b"sve.rev.nxv")
            || is_any(t, &["sve.fcvt.bf16f32", "sve.fcvtnt.bf16f32"]);
    }
    if let Some(t) = tail.strip_prefix(b"arm.") {
        return t.starts_with(b"rbit") || t == b"thread.pointer";
    }
    if let Some(t) = tail.strip_prefix(b"wasm.") {
        return starts_with_any(t, &["fma.", "fms.", "laneselect."])
            || is_any(t, &["dot.i8x16.i7x16.signed", "dot.i8x16.i7x16.add.signed"]);
    }
    if let Some(t) = tail.strip_prefix(b"experimental.vector.") {
        if let Some(reduction) = t.strip_prefix(b"reduce.") {
            return old_vector_reduction(reduction);
        }
        return !t.starts_with(b"extract.last.active.")
            && starts_with_any(
                t,
                &[
                    "extract.",
                    "insert.",
                    "reverse.",
                    "interleave2.",
                    "deinterleave2.",
                    "partial.reduce.add",
                    "splice",
                ],
            );
    }
    // `llvm.vector.splice` became `llvm.vector.splice.left` and `.right` in LLVM 22.
    if let Some(t) = tail.strip_prefix(b"vector.splice") {
        return !t.starts_with(b".left") && !t.starts_with(b".right");
    }
    starts_with_any(
        tail,
        &[
            "experimental.stepvector.",
            "flt.rounds",
            "invariant.group.barrier",
        ],
    ) || is_any(tail, &["dbg.addr", "stackprotectorcheck"])
}

/// After `llvm.nvvm.`: the operations LLVM 22 rewrites as its own instructions or intrinsics.
fn nvvm_renamed_on_read(t: &[u8]) -> bool {
    const WHOLE: &[&str] = &[
        "brev32",
        "brev64",
        "clz.i",
        "popc.i",
        "max.s",
        "max.i",
        "max.ll",
        "min.s",
        "min.i",
        "min.ll",
        "max.us",
        "max.ui",
        "max.ull",
        "min.us",
        "min.ui",
        "min.ull",
        "abs.i",
        "abs.ll",
        "abs.bf16",
        "abs.bf16x2",
        "fabs.f",
        "fabs.ftz.f",
        "fabs.d",
        "ex2.approx.f",
        "ex2.approx.ftz.f",
        "ex2.approx.d",
        "ex2.approx.f16x2",
        "bitcast.f2i",
        "bitcast.i2f",
        "bitcast.ll2d",
        "bitcast.d2ll",
        "rotate.b32",
        "rotate.b64",
        "rotate.right.b64",
        "barrier0",
        "barrier.n",
        "barrier.sync.cnt",
        "barrier.sync",
        "barrier",
        "bar.sync",
        "barrier0.popc",
        "barrier0.and",
        "barrier0.or",
        "clz.ll",
        "popc.ll",
        "h2f",
        "swap.lo.hi.b64",
        "tanh.approx.f32",
    ];
    const PREFIXES: &[&str] = &[
        "atomic.load.add.f32.p",
        "atomic.load.add.f64.p",
        "atomic.load.inc.32.p",
        "atomic.load.dec.32.p",
        "ldg.global.i.",
        "ldg.global.f.",
        "ldg.global.p.",
    ];
    if let Some(to) = t.strip_prefix(b"ptr.gen.to.") {
        return after_nvvm_space(to).is_some();
    }
    if let Some(from) = t.strip_prefix(b"ptr.") {
        return after_nvvm_space(from).is_some_and(|rest| rest.starts_with(b".to.gen"));
    }
    is_any(t, WHOLE) || starts_with_any(t, PREFIXES)
}

/// Whether `t` starts with one of `prefixes`.
fn starts_with_any(t: &[u8], prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| t.starts_with(p.as_bytes()))
}

/// Whether `t` is one of `names`.
fn is_any(t: &[u8], names: &[&str]) -> bool {
    names.iter().any(|n| t == n.as_bytes())
}

/// What follows an NVPTX address space's name (`local`, `shared`...) at the start of `t`.
fn after_nvvm_space(t: &[u8]) -> Option<&[u8]> {
    const SPACES: [&str; 5] = ["local", "shared", "global", "constant", "param"];
    SPACES.iter().find_map(|s| t.strip_prefix(s.as_bytes()))
}

/// After `llvm.experimental.vector.reduce.`: an old reduction (`add.v4i32`, `v2.fadd.f32.v4f32`),
/// as LLVM's patterns `^([a-z]+)\.[a-z][0-9]+` and `^v2\.([a-z]+)\.[fi][0-9]+` find them.
fn old_vector_reduction(t: &[u8]) -> bool {
    const OPERATIONS: &[&str] = &[
        "add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin", "fmax", "fmin",
    ];
    // `word.` then a letter among `letters` and a digit.
    let typed = |t: &[u8], letters: &dyn Fn(u8) -> bool| -> Option<usize> {
        let word = t.iter().take_while(|b| b.is_ascii_lowercase()).count();
        match t.get(word..word + 3)? {
            [b'.', letter, digit] if letters(*letter) && digit.is_ascii_digit() => Some(word),
            _ => None,
        }
    };
    if let Some(v2) = t.strip_prefix(b"v2.") {
        return typed(v2, &|l| l == b'f' || l == b'i')
            .is_some_and(|word| matches!(&v2[..word], b"fadd" | b"fmul"));
    }
    typed(t, &|l| l.is_ascii_lowercase())
        .is_some_and(|word| OPERATIONS.iter().any(|op| &t[..word] == op.as_bytes()))
}

/// Intrinsics LLVM upgrades when they are declared with this many parameters, and whether
/// their names take type suffixes (`llvm.masked.load.v2f64.p0`): the masked accesses'
/// alignment was an argument before LLVM 22.
const UPGRADED_WITH_ARITY: &[(&str, usize, bool)] = &[
    ("coro.end", 2, false),
    ("ctlz", 1, true),
    ("cttz", 1, true),
    ("masked.load", 4, true),
    ("masked.gather", 4, true),
    ("masked.store", 4, true),
    ("masked.scatter", 4, true),
];

/// Whether the declaration `name` of type `fn_ty` (a function type of `types`) matches the
/// signature LLVM's table gives the intrinsic it names, as LLVM's verifier asks of a called
/// intrinsic (`Intrinsic::matchIntrinsicSignature` and `matchIntrinsicVarArg`): the verifier's
/// message if not. A name LLVM does not know, or whose old signatures LLVM upgrades, holds.
pub(super) fn signature_holds(
    types: &dyn TypeView,
    name: &[u8],
    fn_ty: TypeId,
) -> Result<(), &'static str> {
    let Some(entry) = entry(name) else {
        return Ok(());
    };
    if may_be_upgraded(name) || upgraded_with_arity(types, name, fn_ty) {
        return Ok(());
    }
    signature_matches(types, entry.codes, fn_ty)
}

/// The parameters (bit `i` for parameter `i`) of the intrinsic `name`, declared with type
/// `fn_ty`, that take only an immediate: an integer or floating-point literal (`immarg` in
/// LLVM's table, which LLVM gives the declaration whether written or not). None unless the
/// declaration has the signature of the table: an old one LLVM upgrades as it reads, and
/// the upgrade may move parameters.
pub(super) fn immediate_params(types: &dyn TypeView, name: &[u8], fn_ty: TypeId) -> Immediates {
    match entry(name) {
        Some(entry)
            if entry.immediates.params != 0
                && !upgraded_with_arity(types, name, fn_ty)
                && signature_matches(types, entry.codes, fn_ty).is_ok() =>
        {
            entry.immediates
        }
        _ => Immediates::default(),
    }
}

/// Whether LLVM may rewrite the declaration of the intrinsic `name` at `fn_ty` as it reads
/// it, and its calls with it: one declared at an arity it upgrades, a name it upgrades
/// ([`may_be_upgraded`]) declared at a type other than today's signature, the debug
/// intrinsics, whose calls become debug records whatever their type, and one whose name is
/// not its types' mangling, renamed, whose call of `arguments` arguments the upgrader
/// rebuilds ([`rebuilds_calls`]). Otherwise the declaration stays, and so does a call of it at
/// another type, which LLVM's verifier refuses.
pub(super) fn declaration_may_be_upgraded(
    types: &dyn TypeView,
    name: &[u8],
    fn_ty: TypeId,
    arguments: usize,
) -> bool {
    if upgraded_with_arity(types, name, fn_ty) {
        return true;
    }
    let upgraded = may_be_upgraded(name);
    if upgraded && name.starts_with(b"llvm.dbg.") {
        return true;
    }
    let Some((base, entry)) = entry_and_base(name) else {
        return upgraded;
    };
    match signature_overloads(types, entry.codes, fn_ty) {
        // LLVM renames a declaration whose name is not its types' mangling
        // (`remangleIntrinsicFunction`), whatever the intrinsic.
        Ok(overloads) => match renamed(types, name, base, &overloads) {
            Some(renamed) => renamed && rebuilds_calls(&name[..base], arguments),
            None => true,
        },
        // Counting zeros is upgraded from one parameter only (above), and is otherwise only
        // renamed, which needs a type its signature takes.
        Err(_) => upgraded && !(name.starts_with(b"llvm.ctlz.") || name.starts_with(b"llvm.cttz.")),
    }
}

/// Whether LLVM renames the declaration of the intrinsic `name` (its first `base` bytes
/// without type suffixes) whose overloaded types are `overloads`: its name is not their
/// mangling. `None` where this does not make the mangling.
fn renamed(types: &dyn TypeView, name: &[u8], base: usize, overloads: &[TypeId]) -> Option<bool> {
    let mut mangled = name[..base].to_vec();
    for &ty in overloads {
        mangled.push(b'.');
        if !mangle(types, ty, &mut mangled) {
            return None;
        }
    }
    Some(mangled != name)
}

/// Whether LLVM renames the declaration of the intrinsic `name` at `fn_ty`, a type its
/// signature takes, as it reads it: the renamed declaration comes after every function.
pub(super) fn is_renamed(types: &dyn TypeView, name: &[u8], fn_ty: TypeId) -> bool {
    entry_and_base(name).is_some_and(|(base, entry)| {
        signature_overloads(types, entry.codes, fn_ty)
            .is_ok_and(|overloads| renamed(types, name, base, &overloads) == Some(true))
    })
}

/// Whether LLVM's upgrader rebuilds a call of `arguments` arguments of the intrinsic `base`
/// (its name without type suffixes) when it renames its declaration: a case of
/// `UpgradeIntrinsicCall` (a target's, taken as rebuilt whatever the call, or these), where
/// any other call keeps its type, only pointed at the new name, and is refused if it is not
/// the declaration's.
fn rebuilds_calls(base: &[u8], arguments: usize) -> bool {
    let tail = base.strip_prefix(b"llvm.").unwrap_or(base);
    if tail.starts_with(b"aarch64.")
        || UPGRADED_TARGETS
            .iter()
            .any(|t| tail.starts_with(t.as_bytes()))
    {
        return true;
    }
    match tail {
        b"bitreverse" | b"ctpop" | b"convert.from.fp16" | b"objectsize" | b"thread.pointer"
        | b"coro.end" => true,
        b"ctlz" | b"cttz" => arguments == 1,
        b"lifetime.start" | b"lifetime.end" => arguments == 2,
        b"ptr.annotation" | b"var.annotation" | b"masked.load" | b"masked.gather"
        | b"masked.store" | b"masked.scatter" => arguments == 4,
        b"memcpy" | b"memmove" | b"memset" => arguments == 5,
        _ => false,
    }
}

/// LLVM's mangling of `ty` in an intrinsic's name (`getMangledTypeStr`), appended to `out`;
/// false for a type whose mangling this does not make (a named struct, whose name LLVM may
/// have changed as it read it).
fn mangle(types: &dyn TypeView, ty: TypeId, out: &mut Vec<u8>) -> bool {
    use std::io::Write;
    match types.get(ty) {
        Type::Ptr(space) => write!(out, "p{space}").is_ok(),
        Type::Int(width) => write!(out, "i{width}").is_ok(),
        Type::Array(len, elem) => write!(out, "a{len}").is_ok() && mangle(types, *elem, out),
        Type::Vector {
            scalable,
            len,
            elem,
        } => {
            if *scalable {
                out.extend_from_slice(b"nx");
            }
            write!(out, "v{len}").is_ok() && mangle(types, *elem, out)
        }
        Type::Struct { elems, .. } => {
            out.extend_from_slice(b"sl_");
            let known = elems.iter().all(|&elem| mangle(types, elem, out));
            out.push(b's');
            known
        }
        Type::Function {
            ret,
            params,
            varargs,
        } => {
            out.extend_from_slice(b"f_");
            let known = mangle(types, *ret, out) && params.iter().all(|&p| mangle(types, p, out));
            if *varargs {
                out.extend_from_slice(b"vararg");
            }
            out.push(b'f');
            known
        }
        Type::TargetExt {
            name,
            types: params,
            ints,
        } => {
            out.push(b't');
            out.extend_from_slice(name);
            let known = params.iter().all(|&p| {
                out.push(b'_');
                mangle(types, p, out)
            });
            for int in ints {
                let _ = write!(out, "_{int}");
            }
            out.push(b't');
            known
        }
        Type::Void => {
            out.extend_from_slice(b"isVoid");
            true
        }
        Type::Metadata => {
            out.extend_from_slice(b"Metadata");
            true
        }
        Type::X86Amx => {
            out.extend_from_slice(b"x86amx");
            true
        }
        Type::Float(kind) => {
            out.extend_from_slice(match kind {
                FloatKind::Half => b"f16",
                FloatKind::BFloat => b"bf16",
                FloatKind::Float => b"f32",
                FloatKind::Double => b"f64",
                FloatKind::X86Fp80 => b"f80",
                FloatKind::Fp128 => b"f128",
                FloatKind::PpcFp128 => b"ppcf128",
            });
            true
        }
        Type::Label | Type::Token | Type::Named(_) => false,
    }
}

/// The parameters of the intrinsic `name` that take only an immediate, by its name alone
/// (see [`immediate_params`]).
pub(super) fn immediate_params_by_name(name: &[u8]) -> Immediates {
    entry(name).map_or(Immediates::default(), |entry| entry.immediates)
}

/// Whether LLVM upgrades the intrinsic `name` declared at `fn_ty` for its number of
/// parameters (see [`UPGRADED_WITH_ARITY`]).
fn upgraded_with_arity(types: &dyn TypeView, name: &[u8], fn_ty: TypeId) -> bool {
    let tail = name.strip_prefix(b"llvm.").unwrap_or(name);
    let named = |upgraded: &str, suffixed: bool| {
        tail.strip_prefix(upgraded.as_bytes())
            .is_some_and(|rest| rest.is_empty() || suffixed && rest[0] == b'.')
    };
    matches!(types.get(fn_ty), Type::Function { params, .. }
    if UPGRADED_WITH_ARITY.iter().any(|&(upgraded, arity, suffixed)| {
        named(upgraded, suffixed) && params.len() == arity
    }))
}

/// Whether the function type `fn_ty` matches the signature `codes` (hex, see [`decode`]):
/// LLVM's verifier's message if not.
fn signature_matches(types: &dyn TypeView, codes: &str, fn_ty: TypeId) -> Result<(), &'static str> {
    signature_overloads(types, codes, fn_ty).map(drop)
}

/// [`signature_matches`], giving the types `fn_ty` gives the overloaded ones, in order.
fn signature_overloads(
    types: &dyn TypeView,
    codes: &str,
    fn_ty: TypeId,
) -> Result<Vec<TypeId>, &'static str> {
    let Type::Function {
        ret,
        params,
        varargs,
    } = types.get(fn_ty)
    else {
        return Ok(Vec::new());
    };
    let descs = decode(codes);
    let mut m = Matcher {
        types,
        descs: &descs,
        overloads: Vec::new(),
        deferred: Vec::new(),
    };
    let mut at = 0;
    if !m.matches(*ret, &mut at, false, true) {
        return Err(RETURN_MISMATCH);
    }
    let deferred_by_return = m.deferred.len();
    for &param in params {
        if !m.matches(param, &mut at, false, false) {
            return Err(ARGUMENT_MISMATCH);
        }
    }
    let mut i = 0;
    while i < m.deferred.len() {
        let (ty, mut from) = m.deferred[i];
        if !m.matches(ty, &mut from, true, false) {
            return Err(if i < deferred_by_return {
                RETURN_MISMATCH
            } else {
                ARGUMENT_MISMATCH
            });
        }
        i += 1;
    }
    let rest = &descs[at..];
    let varargs_match = match rest {
        [] => !*varargs,
        [Desc::VarArg] => *varargs,
        _ => false,
    };
    if !varargs_match {
        return Err(if *varargs {
            NOT_VARARGS
        } else {
            CALL_NOT_VARARGS
        });
    }
    Ok(m.overloads)
}

/// One of LLVM's intrinsic type descriptors (`Intrinsic::IITDescriptor`). An `info` names an
/// overloaded type by number (`info >> 3`) and says what it may be (`info & 7`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Desc {
    Void,
    VarArg,
    /// `x86_mmx`, which LLVM 22 reads as `<1 x i64>`: taken as it is.
    Mmx,
    Amx,
    Token,
    Metadata,
    Float(FloatKind),
    Int(u32),
    Vector {
        len: u64,
        scalable: bool,
    },
    Ptr(u32),
    Struct(u32),
    Svcount,
    Argument(u8),
    Extend(u8),
    Trunc(u8),
    OneNth {
        divisor: u8,
        reference: u8,
    },
    SameVecWidth(u8),
    VecOfAnyPtrsToElt {
        overload: u8,
        reference: u8,
    },
    VecElement(u8),
    Subdivide {
        info: u8,
        times: u8,
    },
    VecOfBitcastsToInt(u8),
    /// A code this table does not know: anything matches it.
    Unknown,
}

/// The descriptors of an intrinsic's signature codes (hex, two digits a code), as LLVM's
/// `getIntrinsicInfoTableEntries` decodes them.
fn decode(hex: &str) -> Vec<Desc> {
    let codes: Vec<u8> = hex
        .as_bytes()
        .chunks(2)
        .filter_map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    decode_type(&codes, &mut at, false, &mut out);
    while at < codes.len() && codes[at] != 0 {
        decode_type(&codes, &mut at, false, &mut out);
    }
    out
}

/// `DecodeIITType`: one type's descriptors from `codes[*at..]`; a code's operand past the
/// end reads as 0, as LLVM reads it.
fn decode_type(codes: &[u8], at: &mut usize, scalable: bool, out: &mut Vec<Desc>) {
    let mut next = || {
        let code = codes.get(*at).copied().unwrap_or(0);
        *at += 1;
        code
    };
    let code = next();
    let vector = |len| Desc::Vector { len, scalable };
    let desc = match code {
        0 => Desc::Void,
        1 => Desc::Int(1),
        2 => Desc::Int(8),
        3 => Desc::Int(16),
        4 => Desc::Int(32),
        5 => Desc::Int(64),
        6 => Desc::Float(FloatKind::Half),
        7 => Desc::Float(FloatKind::Float),
        8 => Desc::Float(FloatKind::Double),
        9 => vector(2),
        10 => vector(4),
        11 => vector(8),
        12 => vector(16),
        13 => vector(32),
        14 => Desc::Ptr(0),
        15 => Desc::Argument(next()),
        16 => vector(64),
        17 => Desc::Mmx,
        18 => Desc::Token,
        19 => Desc::Metadata,
        20 => Desc::Struct(0),
        21 => Desc::Struct(u32::from(next()) + 2),
        22 => Desc::Extend(next()),
        23 => Desc::Trunc(next()),
        24 => Desc::Ptr(u32::from(next())),
        25 => vector(1),
        26 => Desc::VarArg,
        27 => Desc::OneNth {
            reference: next(),
            divisor: next(),
        },
        28 => Desc::SameVecWidth(next()),
        29 => Desc::VecOfAnyPtrsToElt {
            overload: next(),
            reference: next(),
        },
        30 => Desc::Int(128),
        31 => vector(512),
        32 => vector(1024),
        33 => Desc::Float(FloatKind::Fp128),
        34 => Desc::VecElement(next()),
        35 => {
            decode_type(codes, at, true, out);
            return;
        }
        36 => Desc::Subdivide {
            info: next(),
            times: 1,
        },
        37 => Desc::Subdivide {
            info: next(),
            times: 2,
        },
        38 => Desc::VecOfBitcastsToInt(next()),
        39 => vector(128),
        40 => Desc::Float(FloatKind::BFloat),
        41 => vector(256),
        42 => Desc::Amx,
        43 => Desc::Float(FloatKind::PpcFp128),
        44 => vector(3),
        45 => Desc::Ptr(10),
        46 => Desc::Ptr(20),
        47 => Desc::Int(2),
        48 => Desc::Int(4),
        49 => Desc::Svcount,
        50 => vector(6),
        51 => vector(10),
        52 => vector(2048),
        53 => vector(4096),
        _ => Desc::Unknown,
    };
    out.push(desc);
    match desc {
        Desc::Vector { .. } => decode_type(codes, at, false, out),
        Desc::SameVecWidth(_) => decode_type(codes, at, false, out),
        Desc::Struct(n) => {
            for _ in 0..n {
                decode_type(codes, at, false, out);
            }
        }
        _ => {}
    }
}

/// LLVM's `matchIntrinsicType`, over a declaration's types: the overloaded types found so
/// far, and the checks put off until the types they refer to are found.
struct Matcher<'a> {
    types: &'a dyn TypeView,
    descs: &'a [Desc],
    overloads: Vec<TypeId>,
    deferred: Vec<(TypeId, usize)>,
}

const ANY_INTEGER: u8 = 1;
const ANY_FLOAT: u8 = 2;
const ANY_VECTOR: u8 = 3;
const ANY_POINTER: u8 = 4;
const MATCH_TYPE: u8 = 7;

impl Matcher<'_> {
    /// Whether `ty` matches the descriptor at `*at`, which is stepped past it. `deferred`: a
    /// check put off before, that may not be put off again. `returned`: the return type, which
    /// LLVM takes as a literal struct when the signature returns one (it upgrades a named or
    /// packed one).
    fn matches(&mut self, ty: TypeId, at: &mut usize, deferred: bool, returned: bool) -> bool {
        let Some(&desc) = self.descs.get(*at) else {
            return false;
        };
        let from = *at;
        *at += 1;
        let types = self.types;
        let ty = self.unaliased(ty);
        let shape = types.get(ty);
        let put_off = |me: &mut Self| {
            if deferred {
                return false;
            }
            me.deferred.push((ty, from));
            true
        };
        match desc {
            Desc::Void => matches!(shape, Type::Void),
            Desc::VarArg => false,
            Desc::Mmx | Desc::Unknown => true,
            Desc::Amx => matches!(shape, Type::X86Amx),
            Desc::Token => matches!(shape, Type::Token),
            Desc::Metadata => matches!(shape, Type::Metadata),
            Desc::Float(kind) => *shape == Type::Float(kind),
            Desc::Int(bits) => *shape == Type::Int(bits),
            Desc::Svcount => {
                matches!(shape, Type::TargetExt { name, .. } if &name[..] == b"aarch64.svcount")
            }
            Desc::Vector { len, scalable } => match *shape {
                Type::Vector {
                    scalable: s,
                    len: l,
                    elem,
                } if s == scalable && l == len => self.matches(elem, at, deferred, false),
                _ => false,
            },
            Desc::Ptr(space) => *shape == Type::Ptr(space),
            Desc::Struct(n) => {
                let elems = match shape {
                    Type::Struct {
                        packed: false,
                        elems,
                    } => elems,
                    Type::Struct { elems, .. } if returned => elems,
                    Type::Named(_) if returned => match types.get(types.resolve(ty)) {
                        Type::Struct { elems, .. } => elems,
                        _ => return false,
                    },
                    _ => return false,
                };
                elems.len() == n as usize
                    && elems.iter().all(|&e| self.matches(e, at, deferred, false))
            }
            Desc::Argument(info) => {
                let number = usize::from(info >> 3);
                if let Some(&earlier) = self.overloads.get(number) {
                    return earlier == ty;
                }
                if number > self.overloads.len() || info & 7 == MATCH_TYPE {
                    return deferred || put_off(self);
                }
                self.overloads.push(ty);
                let elem = self.element(ty).unwrap_or(ty);
                match info & 7 {
                    ANY_INTEGER => matches!(types.get(elem), Type::Int(_)),
                    ANY_FLOAT => matches!(types.get(elem), Type::Float(_)),
                    ANY_VECTOR => matches!(shape, Type::Vector { .. }),
                    ANY_POINTER => matches!(shape, Type::Ptr(_)),
                    _ => true,
                }
            }
            Desc::Extend(info) | Desc::Trunc(info) => {
                let Some(reference) = self.overload(info) else {
                    return deferred || put_off(self);
                };
                let widen = matches!(desc, Desc::Extend(_));
                let scaled = |r: &Type, t: &Type| match (r, t) {
                    (Type::Int(r), Type::Int(t)) if widen => r.checked_mul(2) == Some(*t),
                    (Type::Int(r), Type::Int(t)) => r / 2 == *t,
                    // Floating-point elements: their widening is not modelled.
                    (Type::Float(_), _) => true,
                    _ => false,
                };
                match self.vectors(reference, ty) {
                    Some([(rs, rl, re), (ts, tl, te)]) => {
                        rs == ts && rl == tl && scaled(types.get(re), types.get(te))
                    }
                    None => {
                        matches!(types.get(reference), Type::Int(_))
                            && scaled(types.get(reference), shape)
                    }
                }
            }
            Desc::OneNth { divisor, reference } => {
                let Some(&reference) = self.overloads.get(usize::from(reference)) else {
                    return deferred || put_off(self);
                };
                // LLVM divides the count down (`divideCoefficientBy`): <7 x i32> in three is
                // <2 x i32>.
                self.vectors(reference, ty)
                    .is_some_and(|[(rs, rl, re), (ts, tl, te)]| {
                        divisor != 0 && rs == ts && re == te && rl / u64::from(divisor) == tl
                    })
            }
            Desc::SameVecWidth(info) => {
                let Some(reference) = self.overload(info) else {
                    // The element's descriptor is put off with it (one descriptor, as LLVM
                    // steps over it: the table's elements are scalars).
                    *at += 1;
                    return deferred || put_off(self);
                };
                let elem = match (types.get(reference), shape) {
                    (Type::Vector { .. }, Type::Vector { .. }) => {
                        if self.element_count(reference) != self.element_count(ty) {
                            return false;
                        }
                        self.element(ty).unwrap_or(ty)
                    }
                    (Type::Vector { .. }, _) | (_, Type::Vector { .. }) => return false,
                    _ => ty,
                };
                self.matches(elem, at, deferred, false)
            }
            Desc::VecOfAnyPtrsToElt {
                overload,
                reference,
            } => {
                let reference = usize::from(reference);
                if reference >= self.overloads.len() {
                    if deferred {
                        return false;
                    }
                    self.overloads.push(ty);
                    return put_off(self);
                }
                if !deferred && usize::from(overload) == self.overloads.len() {
                    self.overloads.push(ty);
                }
                let reference = self.overloads[reference];
                matches!(types.get(reference), Type::Vector { .. })
                    && matches!(shape, Type::Vector { .. })
                    && self.element_count(reference) == self.element_count(ty)
                    && self
                        .element(ty)
                        .is_some_and(|e| matches!(types.get(e), Type::Ptr(_)))
            }
            Desc::VecElement(info) => {
                let Some(reference) = self.overload(info) else {
                    return deferred || put_off(self);
                };
                matches!(types.get(reference), Type::Vector { .. })
                    && self.element(reference) == Some(ty)
            }
            Desc::Subdivide { info, times } => {
                let Some(reference) = self.overload(info) else {
                    return deferred || put_off(self);
                };
                self.vectors(reference, ty)
                    .is_some_and(|[(rs, rl, re), (ts, tl, te)]| {
                        match (types.get(re), types.get(te)) {
                            (Type::Int(r), Type::Int(t)) => {
                                rs == ts && rl << times == tl && r >> times == *t
                            }
                            // Floating-point elements are subdivided as integers.
                            (Type::Float(_), _) => true,
                            _ => false,
                        }
                    })
            }
            Desc::VecOfBitcastsToInt(info) => {
                let Some(reference) = self.overload(info) else {
                    return deferred || put_off(self);
                };
                self.vectors(reference, ty)
                    .is_some_and(|[(rs, rl, re), (ts, tl, te)]| {
                        rs == ts
                            && rl == tl
                            && match (types.get(re), types.get(te)) {
                                (Type::Int(r), Type::Int(t)) => r == t,
                                (Type::Float(f), Type::Int(t)) => f.bits() == u64::from(*t),
                                _ => true,
                            }
                    })
            }
        }
    }

    /// Two vector types' shapes (scalable, length, element), if both are vectors.
    fn vectors(&self, a: TypeId, b: TypeId) -> Option<[(bool, u64, TypeId); 2]> {
        let shape = |ty| match *self.types.get(ty) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => Some((scalable, len, self.unaliased(elem))),
            _ => None,
        };
        Some([shape(a)?, shape(b)?])
    }

    /// The overloaded type an `info` names, if found already.
    fn overload(&self, info: u8) -> Option<TypeId> {
        self.overloads.get(usize::from(info >> 3)).copied()
    }

    /// A vector's element type.
    fn element(&self, ty: TypeId) -> Option<TypeId> {
        match *self.types.get(ty) {
            Type::Vector { elem, .. } => Some(self.unaliased(elem)),
            _ => None,
        }
    }

    /// `ty`, or the type it names if it is a name given to a type other than a struct
    /// (`%v = type <4 x i32>`): LLVM makes no new type of those.
    fn unaliased(&self, ty: TypeId) -> TypeId {
        let types = self.types;
        match types.get(ty) {
            Type::Named(_) => match types.get(types.resolve(ty)) {
                Type::Struct { .. } | Type::Named(_) => ty,
                _ => types.resolve(ty),
            },
            _ => ty,
        }
    }

    fn element_count(&self, ty: TypeId) -> Option<(u64, bool)> {
        match *self.types.get(ty) {
            Type::Vector { len, scalable, .. } => Some((len, scalable)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_hold_as_llvm_constant_ranges_do() {
        // [-3, 4) of i32, [128, 129) of i32, and one wrapping round: [6, 2) of i3 is 6, 7, 0, 1.
        let minus = |v: i128| v as u128;
        assert!(in_range(32, (-3i32) as u32 as u128, (minus(-3), 4)));
        assert!(!in_range(32, (-4i32) as u32 as u128, (minus(-3), 4)));
        assert!(!in_range(32, 4, (minus(-3), 4)));
        assert!(in_range(32, 128, (128, 129)) && !in_range(32, 127, (128, 129)));
        assert!([6, 7, 0, 1].iter().all(|&v| in_range(3, v, (6, 2))));
        assert!([2, 3, 4, 5].iter().all(|&v| !in_range(3, v, (6, 2))));
        assert!(in_range(128, 7, (0, 1)));
        assert_eq!(range_ends(b"range(i32 -3, 4)"), Some((minus(-3), 4)));
        assert_eq!(range_ends(b"range(i8 u0xF0, 0)"), Some((0xF0, 0)));
        assert_eq!(range_ends(b"range(i8 -1,2)"), Some((minus(-1), 2)));
        assert_eq!(range_ends(b"range(i8 1)"), None);
        assert_eq!(sign_extended(32, 0xFFFF_FFFC), -4);
        assert_eq!(sign_extended(8, 0x7F), 127);
    }

    /// The old names opt-22 reads from a call without declaration, and some it refuses.
    #[test]
    fn old_names_upgraded_from_calls_are_those_llvm_takes() {
        for name in [
            "llvm.amdgcn.global.atomic.fadd.v2f16.p1.v2f16",
            "llvm.amdgcn.flat.atomic.fmin.f32",
            "llvm.amdgcn.ds.fmax",
            "llvm.amdgcn.atomic.inc.i32.p1",
            "llvm.amdgcn.atomic.dec",
            "llvm.experimental.vector.partial.reduce.add.v4i32.v16i32",
            "llvm.vector.splice.nxv16i8",
            "llvm.experimental.vector.splice.v2f64",
            "llvm.wasm.laneselect.v16i8",
            "llvm.wasm.dot.i8x16.i7x16.add.signed",
            "llvm.x86.vcvtph2ps.128",
            "llvm.x86.avx512.mask.add.pd.512",
            "llvm.x86.sse2.add.sd",
            "llvm.x86.xop.vpcomtrueuw",
            "llvm.nvvm.ptr.gen.to.shared.p3.p0",
            "llvm.nvvm.ptr.global.to.gen.p0.p1",
            "llvm.nvvm.ldg.global.f.f32.p1",
            "llvm.nvvm.atomic.load.inc.32.p0",
            "llvm.nvvm.barrier0.popc",
            "llvm.amdgcn.atomic.csub.i32",
            "llvm.amdgcn.ldexp.f32",
            "llvm.arm.rbit",
            "llvm.aarch64.thread.pointer",
            "llvm.aarch64.sve.rev.nxv16i1",
            "llvm.aarch64.neon.bfcvtn",
            "llvm.experimental.vector.reduce.umax.v4i32",
            "llvm.experimental.vector.reduce.v2.fmul.f64.v2f64",
            "llvm.experimental.vector.extract.v2i32.v4i32",
            "llvm.experimental.stepvector.nxv4i32",
            "llvm.dbg.addr",
        ] {
            assert!(is_renamed_on_read(name.as_bytes()), "{name}");
        }
        for name in [
            "llvm.vector.splice.left.nxv16i8",
            "llvm.wasm.relaxed.laneselect.v16i8",
            "llvm.amdgcn.ds.fmax.num",
            "llvm.amdgcn.atomic.foo",
            "llvm.amdgcn.global.atomic.fbdd",
            "llvm.donothing.x",
            "llvm.x86.sse2.add.sdx",
            "llvm.x86.avx512.mask.foo",
            "llvm.x86.avx2.vperm2i128.x",
            "llvm.nvvm.ptr.shared.from.gen",
            "llvm.nvvm.barrier1",
            "llvm.nvvm.abs.q",
            "llvm.aarch64.thread.pointer.x",
            "llvm.arm.sve.rev.nxv16i1",
            "llvm.experimental.vector.reduce.nand.v4i32",
            "llvm.experimental.vector.reduce.add.4i32",
            "llvm.experimental.vector.reduce.v2.fmax.f32.v4f32",
            "llvm.experimental.vector.extract.last.active.v4i32",
            "llvm.dbg.addr.x",
            "x86.sse2.add.sd",
        ] {
            assert!(!is_renamed_on_read(name.as_bytes()), "{name}");
        }
    }

    #[test]
    fn every_signature_decodes_to_known_descriptors() {
        for line in names::NAMES.lines() {
            let (name, rest) = line.split_once(' ').unwrap();
            let mut fields = rest.split(' ');
            let descs = decode(fields.next().unwrap());
            assert!(
                !descs.is_empty() && !descs.contains(&Desc::Unknown),
                "{name}"
            );
            let (mut immediates, mut ranges) = (0, Vec::new());
            for field in fields {
                match field.as_bytes()[0] {
                    b'#' => assert!(
                        field[1..]
                            .parse()
                            .is_ok_and(|i: usize| i < names::FN_ATTRIBUTES.len()),
                        "{name}"
                    ),
                    b'r' => ranges.push(field[1..].split(':').next().unwrap().parse().unwrap()),
                    _ => immediates = u32::from_str_radix(field, 16).unwrap(),
                }
            }
            // A range is of an immediate's parameter, and read back as written.
            let entry = lookup(name.trim_end_matches('*').as_bytes()).unwrap().1;
            for param in ranges {
                assert!(immediates >> param & 1 == 1, "{name}");
                assert!(entry.immediates.range(param).is_some(), "{name}");
            }
        }
        // As opt-22 prints the declarations (the attributes clang's -O2 output gives them,
        // `mustprogress` among them, are not read).
        assert_eq!(
            fn_attributes(b"llvm.lifetime.start.p0"),
            Some(Some(
                "nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)"
            ))
        );
        assert_eq!(
            fn_attributes(b"llvm.trap"),
            Some(Some(
                "cold noreturn nounwind memory(inaccessiblemem: write)"
            ))
        );
        assert_eq!(fn_attributes(b"llvm.coro.await.suspend.void"), Some(None));
        assert_eq!(fn_attributes(b"llvm.no.such.intrinsic"), None);
        let decoded = |name: &str| decode(lookup(name.as_bytes()).unwrap().1.codes);
        use Desc::*;
        // The parameters LLVM marks `immarg`: memcpy's `isvolatile`, ctlz's `is_zero_poison`,
        // objectsize's three flags; none of fma's.
        let immediates = |name: &str| immediate_params_by_name(name.as_bytes());
        assert_eq!(immediates("llvm.memcpy.p0.p0.i64").params, 0b1000);
        assert_eq!(immediates("llvm.ctlz.i32").params, 0b10);
        assert_eq!(immediates("llvm.objectsize.i64.p0").params, 0b1110);
        assert_eq!(immediates("llvm.fma.f32").params, 0);
        // The ranges of some: NVPTX's tensor map fence takes 128 alone, AMDGPU's conversion
        // a rounding mode below 4; memcpy's flag has none.
        let fence = immediates("llvm.nvvm.fence.proxy.tensormap_generic.acquire.cta");
        assert_eq!((fence.range(0), fence.range(1)), (None, Some((128, 129))));
        let negative = |v: i64| v as i128 as u128;
        let scmp_like = Immediates {
            params: 1,
            ranges: Ranges::Table("r0:-1:2"),
        };
        assert_eq!(scmp_like.range(0), Some((negative(-1), 2)));
        assert_eq!(
            immediates("llvm.amdgcn.cvt.sr.fp8.f16").range(3),
            Some((0, 4))
        );
        assert_eq!(immediates("llvm.memcpy.p0.p0.i64").range(3), None);
        // void (ptr, ptr, anyint, i1): overloaded pointers and length.
        assert_eq!(
            decoded("llvm.memcpy"),
            [Void, Argument(4), Argument(12), Argument(17), Int(1)]
        );
        // { anyint, i1 or a vector of i1 as wide as it } (match 0, match 0).
        assert_eq!(
            decoded("llvm.sadd.with.overflow"),
            [
                Struct(2),
                Argument(1),
                SameVecWidth(1),
                Int(1),
                Argument(7),
                Argument(7)
            ]
        );
        assert_eq!(
            decoded("llvm.vector.deinterleave3"),
            [
                Struct(3),
                OneNth {
                    reference: 0,
                    divisor: 3
                },
                OneNth {
                    reference: 0,
                    divisor: 3
                },
                OneNth {
                    reference: 0,
                    divisor: 3
                },
                Argument(3)
            ]
        );
        assert_eq!(decoded("llvm.coro.end"), [Void, Ptr(0), Int(1), Token]);
    }

    #[test]
    fn every_name_is_found_and_suffixes_only_after_overloaded_ones() {
        for line in names::NAMES.lines() {
            let line = line.split_once(' ').map_or(line, |(entry, _)| entry);
            let (name, overloaded) = match line.strip_suffix('*') {
                Some(name) => (name, true),
                None => (line, false),
            };
            assert_eq!(
                lookup(name.as_bytes()).map(|e| e.0),
                Some(overloaded),
                "{name}"
            );
            assert!(is_known(name.as_bytes()), "{name}");
            let suffixed = format!("{name}.i32");
            // A name with a suffix may be another intrinsic's (`llvm.x.y` and `llvm.x`).
            if lookup(suffixed.as_bytes()).is_none() {
                assert_eq!(is_known(suffixed.as_bytes()), overloaded, "{suffixed}");
            }
        }
        for name in [
            "",
            "llvm",
            "llvm.",
            "llvm.foobar",
            "llvm.donothing.x",
            "llvm.memcp",
        ] {
            assert!(!is_known(name.as_bytes()), "{name}");
        }
        for name in [
            "llvm.memcpy.p0.p0.i64",
            "llvm.memcpy.inline.p0.p0.i64",
            "llvm.donothing",
        ] {
            assert!(is_known(name.as_bytes()), "{name}");
        }
    }
}
