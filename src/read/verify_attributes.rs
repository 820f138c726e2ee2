//! What LLVM 22's verifier checks of attribute lists that parse (`verifyParameterAttrs`,
//! `verifyFunctionAttrs`, and a call's arguments in `verifyCallBase`): each attribute of a
//! parameter or result against its type (`zeroext` on an integer, `nonnull` on a pointer),
//! attributes that exclude each other in one list, rules over all the parameters of a function
//! or arguments of a call (one `sret`, on the first or second), a few over function
//! attributes (`optnone` needs `noinline`; the arguments of `allocsize`, `allockind` and
//! `vscale_range`), that `byval` and its siblings name a sized type, and what a function's
//! calling convention asks of its header (`visitFunction`). The messages are the verifier's.
//!
//! The parser reads each list with its [`Kinds`] (a bit per attribute a rule names; a list
//! found again by its text keeps the bits it was first read with), and checks a header's
//! parameters and result as it reads the header, a call's lists as it reads the call. A
//! function's own attributes, and the types its parameters pass by, are checked once the top
//! level is read ([`headers_hold`]): its attribute groups come last, and a named type may be
//! defined after the header. A broken rule does not stop the reading: the parser's errors
//! come first, as in LLVM.

use super::lexer::unescape;
use super::verify_string_attributes::{self, Signature, StringRules, Taker};
use super::{attributes, intrinsics};
use crate::model::{
    Attr, AttrKind, FuncId, Function, GlobalKind, GlobalName, Item, LocalDef, Memory, Module,
    ReleaseBehind, Span, Type, TypeId, UnnamedAddr, ValueKind,
};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Which of the attributes the verifier's rules name a list holds, a bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kinds(u64);

impl Kinds {
    pub const NONE: Kinds = Kinds(0);

    pub fn has(self, k: Kinds) -> bool {
        self.0 & k.0 != 0
    }

    pub fn with(self, k: Kinds) -> Kinds {
        Kinds(self.0 | k.0)
    }

    fn and(self, k: Kinds) -> Kinds {
        Kinds(self.0 & k.0)
    }
}

macro_rules! kinds {
    ($($name:ident = $word:literal,)*) => {
        #[allow(non_upper_case_globals)]
        mod kind {
            use super::Kinds;
            kinds!(@bits 0, $($name,)*);
        }
        /// Each checked keyword and its bit.
        const CHECKED: &[(&str, Kinds)] = &[$(($word, kind::$name),)*];
    };
    (@bits $n:expr, $name:ident, $($rest:ident,)*) => {
        pub const $name: Kinds = Kinds(1 << $n);
        kinds!(@bits $n + 1, $($rest,)*);
    };
    (@bits $n:expr,) => {};
}

kinds! {
    ZeroExt = "zeroext",
    SignExt = "signext",
    AllocAlign = "allocalign",
    Range = "range",
    NoAlias = "noalias",
    NoCapture = "nocapture",
    Captures = "captures",
    NonNull = "nonnull",
    ReadNone = "readnone",
    ReadOnly = "readonly",
    WriteOnly = "writeonly",
    Dereferenceable = "dereferenceable",
    DereferenceableOrNull = "dereferenceable_or_null",
    Writable = "writable",
    DeadOnUnwind = "dead_on_unwind",
    DeadOnReturn = "dead_on_return",
    Initializes = "initializes",
    Nest = "nest",
    SwiftError = "swifterror",
    SwiftSelf = "swiftself",
    SwiftAsync = "swiftasync",
    Preallocated = "preallocated",
    InAlloca = "inalloca",
    ByVal = "byval",
    StructRet = "sret",
    ByRef = "byref",
    ElementType = "elementtype",
    AllocPtr = "allocptr",
    Align = "align",
    NoFpClass = "nofpclass",
    NoUndef = "noundef",
    InReg = "inreg",
    Returned = "returned",
    ImmArg = "immarg",
    NoInline = "noinline",
    AlwaysInline = "alwaysinline",
    OptNone = "optnone",
    OptSize = "optsize",
    MinSize = "minsize",
    OptDebug = "optdebug",
    Builtin = "builtin",
    JumpTable = "jumptable",
    Naked = "naked",
    VScaleRange = "vscale_range",
    AllocSize = "allocsize",
    AllocKind = "allockind",
    Speculatable = "speculatable",
    NoReturn = "noreturn",
    SanitizeRealtime = "sanitize_realtime",
    SanitizeRealtimeBlocking = "sanitize_realtime_blocking",
    Memory = "memory",
    ArgMemOnly = "argmemonly",
    InaccessibleMemOnly = "inaccessiblememonly",
    Convergent = "convergent",
}

/// What gives a function memory effects ([`memory_effects`]) that may keep it from writing
/// argument memory: a function without any may write it.
const MEMORY_ATTRIBUTES: Kinds = union(&[
    kind::Memory,
    kind::ReadNone,
    kind::ReadOnly,
    kind::ArgMemOnly,
    kind::InaccessibleMemOnly,
]);

/// A string attribute whose value the verifier checks ([`verify_string_attributes`]): a
/// bit above the keywords'.
pub(crate) const STRING_CHECKED: Kinds = Kinds(1 << 63);
const _: () = assert!(
    CHECKED.len() < 63,
    "the keywords' bits reach the string attributes'"
);

/// The bit of keyword `name`, none if no rule names it (for the table of keywords).
pub(super) const fn kind_of(name: &str) -> Kinds {
    let mut i = 0;
    while i < CHECKED.len() {
        if bytes_eq(CHECKED[i].0.as_bytes(), name.as_bytes()) {
            return CHECKED[i].1;
        }
        i += 1;
    }
    Kinds::NONE
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn union(list: &[Kinds]) -> Kinds {
    let mut bits = 0;
    let mut i = 0;
    while i < list.len() {
        bits |= list[i].0;
        i += 1;
    }
    Kinds(bits)
}

/// What the rules over parameters name.
const PARAMETER_RULES: Kinds = union(&[
    kind::ImmArg,
    kind::Writable,
    kind::ElementType,
    kind::Nest,
    kind::Returned,
    kind::StructRet,
    kind::SwiftSelf,
    kind::SwiftAsync,
    kind::SwiftError,
    kind::InAlloca,
]);

/// `sret`, which the parser asks about too.
pub(crate) const STRUCT_RET: Kinds = kind::StructRet;

/// `writable`, which a call's memory effects are checked against.
pub(crate) const WRITABLE: Kinds = kind::Writable;

/// What only a pointer takes (`AttributeFuncs::typeIncompatible`).
const POINTER_ONLY: Kinds = union(&[
    kind::NoAlias,
    kind::NoCapture,
    kind::Captures,
    kind::NonNull,
    kind::ReadNone,
    kind::ReadOnly,
    kind::Dereferenceable,
    kind::DereferenceableOrNull,
    kind::Writable,
    kind::DeadOnUnwind,
    kind::DeadOnReturn,
    kind::Initializes,
    kind::Nest,
    kind::SwiftError,
    kind::Preallocated,
    kind::InAlloca,
    kind::ByVal,
    kind::StructRet,
    kind::ByRef,
    kind::ElementType,
    kind::AllocPtr,
]);
const INTEGER_ONLY: Kinds = union(&[kind::ZeroExt, kind::SignExt, kind::AllocAlign]);
/// What the type of a list's value decides.
const TYPED: Kinds = union(&[
    POINTER_ONLY,
    INTEGER_ONLY,
    kind::Range,
    kind::Align,
    kind::NoFpClass,
    kind::NoUndef,
]);
/// Of these, a list holds one at most (`sret` and `inreg` count as one).
const PASSING: [Kinds; 6] = [
    kind::ByVal,
    kind::InAlloca,
    kind::Preallocated,
    union(&[kind::StructRet, kind::InReg]),
    kind::Nest,
    kind::ByRef,
];

/// The bit of one attribute as written at `span`: its keyword's, or a checked string
/// attribute's.
fn kind_at(src: &[u8], span: Span) -> Kinds {
    let text = &src[span.range()];
    match verify_string_attributes::is_checked(text) {
        true => STRING_CHECKED,
        false => attributes::keyword(keyword_of(text)).map_or(Kinds::NONE, |k| k.checks),
    }
}

/// The bits of attributes written one after another, separated by spaces, as LLVM's table
/// of intrinsics gives them (`nounwind speculatable memory(none)`).
pub(crate) fn kinds_of_words(words: &str) -> Kinds {
    words
        .split(' ')
        .filter_map(|word| attributes::keyword(keyword_of(word.as_bytes())))
        .fold(Kinds::NONE, |kinds, k| kinds.with(k.checks))
}

/// The keyword an attribute's text starts with (`byval` of `byval(%T)`, `align` of
/// `align 8`); empty for a string attribute.
pub(crate) fn keyword_of(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The bits of `attrs`; a group's (`#N`), those `groups` gives it.
fn kinds_of(src: &[u8], attrs: &[Attr], groups: &FxHashMap<u32, Kinds>) -> Kinds {
    attrs.iter().fold(Kinds::NONE, |kinds, a| match a.kind() {
        AttrKind::Text(span) | AttrKind::Typed(span, _) => kinds.with(kind_at(src, span)),
        AttrKind::Group(n, _) => kinds.with(groups.get(&n).copied().unwrap_or_default()),
    })
}

/// The bits of each attribute group of `m`, by number.
fn groups_of(m: &Module) -> FxHashMap<u32, Kinds> {
    m.attr_groups
        .keys()
        .map(|&n| (n, group_kinds(m, n)))
        .collect()
}

/// The bits of attribute group `n` of `m` (none if it is not defined, as LLVM reads it). A
/// group holds no group.
pub(crate) fn group_kinds(m: &Module, n: u32) -> Kinds {
    let src = m.source.as_bytes();
    m.attr_groups.get(&n).map_or(Kinds::NONE, |&list| {
        kinds_of(src, m.attr_list(list), &FxHashMap::default())
    })
}

/// Whether function `f` of `m` has an attribute of `kinds`, by its own attributes or a group's.
pub(crate) fn function_has(m: &Module, f: FuncId, kinds: Kinds) -> bool {
    let src = m.source.as_bytes();
    m.attr_list(m.functions[f].fn_attrs)
        .iter()
        .any(|a| match a.kind() {
            AttrKind::Text(span) => kind_at(src, span).has(kinds),
            AttrKind::Typed(..) => false,
            AttrKind::Group(n, _) => group_kinds(m, n).has(kinds),
        })
}

/// The bit of `speculatable`, which a call takes only when its callee does.
pub(crate) const SPECULATABLE: Kinds = kind::Speculatable;
/// `convergent`, which a function that calls the convergence entry intrinsic has.
pub(crate) const CONVERGENT: Kinds = kind::Convergent;
/// `inalloca`, whose argument, when an alloca, must be one marked so.
pub(crate) const INALLOCA: Kinds = kind::InAlloca;
/// `immarg`, `range` and `inreg`, which the checks of some intrinsics' arguments read.
pub(crate) const IMMARG: Kinds = kind::ImmArg;
pub(crate) const RANGE: Kinds = kind::Range;
pub(crate) const INREG: Kinds = kind::InReg;

/// The attribute of `attrs` (none of them groups: a parameter's or an argument's) that is
/// one of `kinds`, if any.
pub(crate) fn attribute_of<'a>(src: &[u8], attrs: &'a [Attr], kinds: Kinds) -> Option<&'a Attr> {
    attrs
        .iter()
        .find(|a| !a.is_group() && kind_at(src, a.span()).has(kinds))
}

/// The bit of `noreturn`, by which a call returning `void` may carry a
/// `"clang.arc.attachedcall"` bundle.
pub(crate) const NO_RETURN: Kinds = kind::NoReturn;

/// Where the first attribute of `attrs` with a bit of `kinds` is written.
fn place_of(src: &[u8], attrs: &[Attr], kinds: Kinds) -> Option<Span> {
    attrs.iter().find_map(|a| match a.kind() {
        AttrKind::Text(span) | AttrKind::Typed(span, _) => {
            kind_at(src, span).has(kinds).then_some(span)
        }
        AttrKind::Group(..) => None,
    })
}

/// What a type is, as the rules over attributes ask it (types named for a non-struct type
/// are that type).
#[derive(Clone, Copy, Default)]
pub(crate) struct TypeFacts {
    integer: bool,
    /// The width of an integer or of a vector's integer elements.
    integer_width: Option<u32>,
    pointer: bool,
    pointer_or_vector: bool,
    /// `nofpclass` takes it: floating point, a vector of it, arrays of those, or a literal
    /// struct of one such type repeated.
    floating: bool,
    void: bool,
}

impl TypeFacts {
    /// The facts of `ty`: `raw` gives a type as interned, `body` one with named types
    /// followed to what they name.
    pub(crate) fn of<'t>(
        ty: TypeId,
        raw: &impl Fn(TypeId) -> &'t Type,
        body: &impl Fn(TypeId) -> &'t Type,
    ) -> TypeFacts {
        let is_fp = |t: &Type| match t {
            Type::Float(_) => true,
            Type::Vector { elem, .. } => matches!(body(*elem), Type::Float(_)),
            _ => false,
        };
        let mut facts = TypeFacts::default();
        match body(ty) {
            Type::Int(bits) => (facts.integer, facts.integer_width) = (true, Some(*bits)),
            Type::Ptr(_) => (facts.pointer, facts.pointer_or_vector) = (true, true),
            Type::Void => facts.void = true,
            Type::Vector { elem, .. } => match body(*elem) {
                Type::Int(bits) => facts.integer_width = Some(*bits),
                Type::Ptr(_) => facts.pointer_or_vector = true,
                _ => facts.floating = is_fp(body(ty)),
            },
            Type::Struct { elems, .. } if !matches!(raw(ty), Type::Named(_)) => {
                facts.floating = elems.first().is_some_and(|&first| {
                    is_fp(body(first)) && elems.iter().all(|&e| body(e) == body(first))
                });
            }
            Type::Array(..) => {
                let mut elem = ty;
                while let Type::Array(_, e) = body(elem) {
                    elem = *e;
                }
                facts.floating = is_fp(body(elem));
            }
            t => facts.floating = is_fp(t),
        }
        facts
    }

    /// The attributes of `kinds` this type does not take.
    fn refuses(self, kinds: Kinds) -> Kinds {
        let mut refused = Kinds::NONE;
        if !self.integer {
            refused = refused.with(INTEGER_ONLY);
        }
        if self.integer_width.is_none() {
            refused = refused.with(kind::Range);
        }
        if !self.pointer {
            refused = refused.with(POINTER_ONLY);
        }
        if !self.pointer_or_vector {
            refused = refused.with(kind::Align);
        }
        if !self.floating {
            refused = refused.with(kind::NoFpClass);
        }
        if self.void {
            refused = refused.with(kind::NoUndef);
        }
        kinds.and(refused)
    }
}

/// A rule broken: the verifier's message, and the attribute to point at (none: the list's
/// place).
pub(crate) struct Broken {
    pub message: String,
    pub attribute: Option<Span>,
}

impl Broken {
    fn at(message: impl Into<String>, attribute: Option<Span>) -> Broken {
        Broken {
            message: message.into(),
            attribute,
        }
    }
}

/// What the pairs of attributes one list may not hold both of name.
const PAIRED: Kinds = union(&[
    kind::InAlloca,
    kind::ReadOnly,
    kind::StructRet,
    kind::Returned,
    kind::ZeroExt,
    kind::SignExt,
    kind::ReadNone,
    kind::WriteOnly,
    kind::Writable,
]);

/// The checks of one parameter's (or, with `result`, a result's) list, `attrs` (read from
/// `src`), whose bits are `kinds`, on a value of the type `ty` tells of: `verifyParameterAttrs`.
// Inlined: its first test is all most lists need.
#[inline(always)]
pub(crate) fn list_holds(
    src: &[u8],
    attrs: &[Attr],
    kinds: Kinds,
    result: bool,
    ty: impl FnOnce() -> TypeFacts,
) -> Result<(), Broken> {
    // Most lists hold only `noundef` (which only a `void` result refuses), or nothing the
    // rules name.
    let checked = kinds.has(Kinds(!kind::NoUndef.0)) || (result && kinds.has(kind::NoUndef));
    if !checked {
        return Ok(());
    }
    named_list_holds(src, attrs, kinds, result, ty())
}

#[inline(never)]
fn named_list_holds(
    src: &[u8],
    attrs: &[Attr],
    kinds: Kinds,
    result: bool,
    ty: TypeFacts,
) -> Result<(), Broken> {
    // LLVM reads `nocapture` as `captures(none)`, which no result takes.
    if result && kinds.has(kind::NoCapture) {
        let message = "Attribute 'captures(none)' does not apply to function return values";
        return Err(Broken::at(message, place_of(src, attrs, kind::NoCapture)));
    }
    if kinds.has(kind::ImmArg) {
        let others = attrs.len() - usize::from(kinds.has(kind::Range));
        if others > 1 {
            let message = "Attribute 'immarg' is incompatible with other attributes except the \
                           'range' attribute";
            return Err(Broken::at(message, place_of(src, attrs, kind::ImmArg)));
        }
    }
    let passing = kinds.and(union(&PASSING)).0;
    // More than one bit, then more than one of them (`sret` and `inreg` are one).
    if passing & passing.wrapping_sub(1) != 0
        && PASSING.iter().filter(|&&k| kinds.has(k)).count() > 1
    {
        let message = "Attributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', \
                       and 'sret' are incompatible!";
        return Err(Broken::at(message, None));
    }
    const PAIRS: [(Kinds, Kinds, &str); 8] = [
        (
            kind::InAlloca,
            kind::ReadOnly,
            "Attributes 'inalloca and readonly' are incompatible!",
        ),
        (
            kind::StructRet,
            kind::Returned,
            "Attributes 'sret and returned' are incompatible!",
        ),
        (
            kind::ZeroExt,
            kind::SignExt,
            "Attributes 'zeroext and signext' are incompatible!",
        ),
        (
            kind::ReadNone,
            kind::ReadOnly,
            "Attributes 'readnone and readonly' are incompatible!",
        ),
        (
            kind::ReadNone,
            kind::WriteOnly,
            "Attributes 'readnone and writeonly' are incompatible!",
        ),
        (
            kind::ReadOnly,
            kind::WriteOnly,
            "Attributes 'readonly and writeonly' are incompatible!",
        ),
        (
            kind::Writable,
            kind::ReadNone,
            "Attributes writable and readnone are incompatible!",
        ),
        (
            kind::Writable,
            kind::ReadOnly,
            "Attributes writable and readonly are incompatible!",
        ),
    ];
    let paired = |&&(a, b, _): &&(Kinds, Kinds, &str)| kinds.has(a) && kinds.has(b);
    if kinds.has(PAIRED)
        && let Some(&(_, _, message)) = PAIRS.iter().find(paired)
    {
        return Err(Broken::at(message, None));
    }
    let refused = ty.refuses(kinds.and(TYPED));
    if refused != Kinds::NONE {
        let at = place_of(src, attrs, refused);
        let text = at.map_or(Default::default(), |s| {
            String::from_utf8_lossy(&src[s.range()])
        });
        return Err(Broken::at(
            format!("Attribute '{text}' applied to incompatible type!"),
            at,
        ));
    }
    if kinds.has(kind::Range)
        && let Some(at) = place_of(src, attrs, kind::Range)
        && let Some(width) = range_width(&src[at.range()])
        && Some(width) != ty.integer_width
    {
        let text = String::from_utf8_lossy(&src[at.range()]);
        return Err(Broken::at(
            format!("Attribute '{text}' applied to incompatible type!"),
            Some(at),
        ));
    }
    Ok(())
}

/// The width of `range(iN lo, hi)`, if written with an integer type.
fn range_width(text: &[u8]) -> Option<u32> {
    let inner = text.strip_prefix(b"range(")?.trim_ascii_start();
    let digits = inner.strip_prefix(b"i")?;
    let end = digits.iter().position(|b| !b.is_ascii_digit())?;
    std::str::from_utf8(&digits[..end]).ok()?.parse().ok()
}

/// The rules over all the parameters of a function or arguments of a call
/// (`verifyFunctionAttrs`, `verifyCallBase`), fed the lists that hold a checked attribute in
/// order, then [`Parameters::finish`]ed.
#[derive(Clone, Default)]
pub(crate) struct Parameters {
    seen: Kinds,
    inalloca: Option<(usize, bool)>,
}

/// One parameter's list, and what the rules over parameters ask of it.
pub(crate) struct Parameter<'t> {
    pub index: usize,
    /// How many parameters the function type has (a call's variable arguments come after).
    pub fixed: usize,
    pub kinds: Kinds,
    /// `returned`: whether the parameter's type goes to the result's losslessly.
    pub returns_losslessly: &'t dyn Fn() -> bool,
    /// An intrinsic is called or declared; inline assembly is called.
    pub intrinsic: bool,
    pub inline_asm: bool,
}

impl Parameters {
    /// Whether these rules name anything of a list with `kinds` (most lists: no; those need
    /// not be fed).
    pub(crate) fn concern(kinds: Kinds) -> bool {
        kinds.has(PARAMETER_RULES)
    }

    /// Whether a parameter fed so far has an attribute of `kinds`.
    pub(crate) fn saw(&self, kinds: Kinds) -> bool {
        self.seen.has(kinds)
    }

    pub(crate) fn next(&mut self, p: Parameter) -> Result<(), &'static str> {
        let kinds = p.kinds;
        let vararg = p.index >= p.fixed;
        if !p.intrinsic && !vararg {
            if kinds.has(kind::ImmArg) {
                return Err("immarg attribute only applies to intrinsics");
            }
            if !p.inline_asm && kinds.has(kind::ElementType) {
                return Err(
                    "Attribute 'elementtype' can only be applied to intrinsics and inline asm.",
                );
            }
        }
        const ONCE: [(Kinds, &str); 6] = [
            (kind::Nest, "More than one parameter has attribute nest!"),
            (
                kind::Returned,
                "More than one parameter has attribute returned!",
            ),
            (kind::StructRet, "Cannot have multiple 'sret' parameters!"),
            (
                kind::SwiftSelf,
                "Cannot have multiple 'swiftself' parameters!",
            ),
            (
                kind::SwiftAsync,
                "Cannot have multiple 'swiftasync' parameters!",
            ),
            (
                kind::SwiftError,
                "Cannot have multiple 'swifterror' parameters!",
            ),
        ];
        // A call's variable arguments are checked for `nest` and `returned` alone.
        for (k, message) in ONCE.iter().take(if vararg { 2 } else { ONCE.len() }) {
            if kinds.has(*k) && self.seen.has(*k) {
                return Err(message);
            }
        }
        if kinds.has(kind::Returned) && !(p.returns_losslessly)() {
            return Err("Incompatible argument and return types for 'returned' attribute");
        }
        if vararg && kinds.has(kind::StructRet) && !p.intrinsic {
            return Err("Attribute 'sret' cannot be used for vararg call arguments!");
        }
        if !vararg && kinds.has(kind::StructRet) && p.index > 1 {
            return Err("Attribute 'sret' is not on first or second parameter!");
        }
        if kinds.has(kind::InAlloca) && self.inalloca.is_none() {
            self.inalloca = Some((p.index, vararg));
        }
        self.seen = self.seen.with(kinds);
        Ok(())
    }

    /// The rules left once all `count` parameters are known: `inalloca` only on the last.
    pub(crate) fn finish(&self, count: usize) -> Result<(), &'static str> {
        match self.inalloca {
            Some((index, vararg)) if index + 1 != count => Err(match vararg {
                true => "inalloca isn't on the last argument!",
                false => "inalloca isn't on the last parameter!",
            }),
            _ => Ok(()),
        }
    }
}

/// The rules over function attributes, whose bits are `kinds` (`verifyFunctionAttrs`).
pub(crate) fn function_attributes_hold(kinds: Kinds) -> Result<(), &'static str> {
    if kinds.has(kind::NoInline) && kinds.has(kind::AlwaysInline) {
        return Err("Attributes 'noinline and alwaysinline' are incompatible!");
    }
    if kinds.has(kind::OptNone) {
        if !kinds.has(kind::NoInline) {
            return Err("Attribute 'optnone' requires 'noinline'!");
        }
        let excluded = [
            (
                kind::OptSize,
                "Attributes 'optsize and optnone' are incompatible!",
            ),
            (
                kind::MinSize,
                "Attributes 'minsize and optnone' are incompatible!",
            ),
            (
                kind::OptDebug,
                "Attributes 'optdebug and optnone' are incompatible!",
            ),
        ];
        if let Some((_, message)) = excluded.iter().find(|(k, _)| kinds.has(*k)) {
            return Err(message);
        }
    }
    if kinds.has(kind::SanitizeRealtime) && kinds.has(kind::SanitizeRealtimeBlocking) {
        return Err(
            "Attributes 'sanitize_realtime and sanitize_realtime_blocking' are incompatible!",
        );
    }
    if kinds.has(kind::OptDebug) {
        if kinds.has(kind::OptSize) {
            return Err("Attributes 'optsize and optdebug' are incompatible!");
        }
        if kinds.has(kind::MinSize) {
            return Err("Attributes 'minsize and optdebug' are incompatible!");
        }
    }
    Ok(())
}

/// LLVM's message for a function or call with a `writable` parameter whose memory effects do
/// not let it write argument memory (`verifyFunctionAttrs`).
pub(crate) const WRITABLE_WITHOUT_ARGMEM_WRITE: &str =
    "Attribute writable and memory without argmem: write are incompatible!";

/// A function's or a call's memory effects, as LLVM's parser makes them (`MemoryEffects`):
/// for each location (argument memory, inaccessible memory, `errno`, the two targets', and
/// the rest), whether it may be read (bit 0) and written (bit 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct MemoryEffects([u8; 6]);

impl MemoryEffects {
    /// Anything, as when no attribute says.
    const ANY: MemoryEffects = MemoryEffects([3; 6]);
    const LOCATIONS: [&'static [u8]; 5] = [
        b"argmem",
        b"inaccessiblemem",
        b"errnomem",
        b"target_mem0",
        b"target_mem1",
    ];
    const READ: u8 = 1;
    const WRITE: u8 = 2;

    /// The effects `memory(...)`'s text gives: the access written first for every location,
    /// then each location's own.
    fn written(text: &[u8]) -> MemoryEffects {
        let Some(open) = text.iter().position(|&b| b == b'(') else {
            return Self::ANY;
        };
        let close = text.iter().rposition(|&b| b == b')').unwrap_or(text.len());
        let access = |word: &[u8]| match word {
            b"read" => Self::READ,
            b"write" => Self::WRITE,
            b"readwrite" => Self::READ | Self::WRITE,
            _ => 0,
        };
        let mut effects = [0; 6];
        for part in text[open + 1..close.max(open + 1)].split(|&b| b == b',') {
            let part = part.trim_ascii();
            match part.iter().position(|&b| b == b':') {
                Some(colon) => {
                    let location = part[..colon].trim_ascii();
                    if let Some(l) = Self::LOCATIONS.iter().position(|&n| n == location) {
                        effects[l] = access(part[colon + 1..].trim_ascii());
                    }
                }
                None => effects = [access(part); 6],
            }
        }
        MemoryEffects(effects)
    }

    /// The effects an older keyword leaves (LLParser's `upgradeMemoryAttr`), if it is one.
    fn of_keyword(keyword: &[u8]) -> Option<MemoryEffects> {
        let only = |locations: &[usize]| {
            let mut effects = [0; 6];
            for &l in locations {
                effects[l] = Self::READ | Self::WRITE;
            }
            MemoryEffects(effects)
        };
        Some(match keyword {
            b"readnone" => MemoryEffects([0; 6]),
            b"readonly" => MemoryEffects([Self::READ; 6]),
            b"writeonly" => MemoryEffects([Self::WRITE; 6]),
            b"argmemonly" => only(&[0]),
            b"inaccessiblememonly" => only(&[1]),
            b"inaccessiblemem_or_argmemonly" => only(&[0, 1]),
            _ => return None,
        })
    }

    fn and(self, other: MemoryEffects) -> MemoryEffects {
        MemoryEffects(std::array::from_fn(|l| self.0[l] & other.0[l]))
    }

    /// Argument memory may be written (`getModRef(ArgMem)` holds `Mod`).
    pub(crate) fn writes_arguments(self) -> bool {
        self.0[0] & Self::WRITE != 0
    }

    /// Nothing is written (`onlyReadsMemory`, which `doesNotAccessMemory` implies).
    pub(crate) fn only_reads(self) -> bool {
        self.0.iter().all(|&access| access & Self::WRITE == 0)
    }

    /// Nothing but argument memory is touched (`onlyAccessesArgPointees`).
    pub(crate) fn only_arguments(self) -> bool {
        self.0[1..].iter().all(|&access| access == 0)
    }
}

/// The memory effects of a function's (or a call's) attributes `attrs`, with their groups
/// found by `group`: a group's over the list's own, as LLVM's parser merges them, and in one
/// list the older keywords LLVM's parser turns into effects (`readonly`, `argmemonly`...),
/// narrowing each other, over `memory(...)`. Without effects written, anything.
pub(crate) fn memory_effects<'a>(
    src: &[u8],
    attrs: &'a [Attr],
    group: impl Fn(u32) -> Option<&'a [Attr]>,
) -> MemoryEffects {
    let mut effects = list_memory_effects(src, attrs).unwrap_or(MemoryEffects::ANY);
    for a in attrs {
        if let AttrKind::Group(n, _) = a.kind()
            && let Some(list) = group(n)
            && let Some(in_group) = list_memory_effects(src, list)
        {
            effects = in_group;
        }
    }
    effects
}

/// [`memory_effects`] by one list's own attributes; `None` when they give none.
fn list_memory_effects(src: &[u8], list: &[Attr]) -> Option<MemoryEffects> {
    let (mut written, mut upgraded) = (None, None::<MemoryEffects>);
    for a in list {
        let AttrKind::Text(span) = a.kind() else {
            continue;
        };
        let text = &src[span.range()];
        match keyword_of(text) {
            b"memory" => written = Some(MemoryEffects::written(text)),
            keyword => {
                if let Some(effects) = MemoryEffects::of_keyword(keyword) {
                    upgraded = Some(upgraded.unwrap_or(MemoryEffects::ANY).and(effects));
                }
            }
        }
    }
    upgraded.or(written)
}

/// The function attributes whose arguments the verifier checks (against the function's type,
/// for `allocsize`).
pub(crate) const VALUED: Kinds = union(&[kind::VScaleRange, kind::AllocSize, kind::AllocKind]);

/// What the verifier refuses of the `allocsize`, `allockind` and `vscale_range` of a function
/// or call (`verifyFunctionAttrs`), whose attributes are `attrs` with their groups found by
/// `group` (a group's over the list's own, as LLVM's parser merges them), and whose type has
/// `params` parameters, parameter `i` an integer when `integer(i)`. Arguments the parser let
/// through unread (numbers past 32 bits) are let through here too.
pub(crate) fn valued_attributes_hold<'a>(
    src: &[u8],
    attrs: &'a [Attr],
    group: impl Fn(u32) -> Option<&'a [Attr]>,
    params: usize,
    integer: impl Fn(usize) -> bool,
) -> Result<(), Broken> {
    let [alloc_size, alloc_kind, vscale_range] = last_valued(src, attrs, group);
    if let Some(at) = alloc_size {
        let numbers = numbers_in_parens(&src[at.range()]);
        let names = ["element size", "number of elements"];
        for (&n, name) in numbers.iter().flatten().zip(names) {
            let problem = match usize::try_from(n) {
                Ok(n) if n < params && integer(n) => continue,
                Ok(n) if n < params => "must refer to an integer parameter",
                _ => "is out of bounds",
            };
            return Err(Broken::at(
                format!("'allocsize' {name} argument {problem}"),
                Some(at),
            ));
        }
    }
    if let Some(at) = alloc_kind
        && let Some(message) = alloc_kind_refused(&src[at.range()])
    {
        return Err(Broken::at(message, Some(at)));
    }
    if let Some(at) = vscale_range
        && let [Some(min), max] = numbers_in_parens(&src[at.range()])
    {
        // LLVM reads `vscale_range(N)` as `(N, N)`, and drops `(0, 0)`; a maximum of 0 is
        // none.
        let max = max.unwrap_or(min);
        let power = |n: u64| n.is_power_of_two() && n <= u64::from(u32::MAX);
        let message = match (min, max) {
            (0, 0) => None,
            (0, _) => Some("'vscale_range' minimum must be greater than 0"),
            (min, _) if !power(min) => Some("'vscale_range' minimum must be power-of-two value"),
            (_, 0) => None,
            (min, max) if min > max => {
                Some("'vscale_range' minimum cannot be greater than maximum")
            }
            (_, max) if !power(max) => Some("'vscale_range' maximum must be power-of-two value"),
            _ => None,
        };
        if let Some(message) = message {
            return Err(Broken::at(message, Some(at)));
        }
    }
    Ok(())
}

/// The last `allocsize`, `allockind` and `vscale_range` of a list of attributes `attrs`, whose
/// groups `group` finds: a group's over the list's own, as LLVM's parser merges them.
fn last_valued<'a>(
    src: &[u8],
    attrs: &'a [Attr],
    group: impl Fn(u32) -> Option<&'a [Attr]>,
) -> [Option<Span>; 3] {
    let mut last: [Option<Span>; 3] = [None; 3];
    let mut note = |list: &[Attr]| {
        for a in list {
            if let AttrKind::Text(span) = a.kind() {
                let kinds = kind_at(src, span);
                let slot = [kind::AllocSize, kind::AllocKind, kind::VScaleRange]
                    .iter()
                    .position(|&k| kinds.has(k));
                if let Some(slot) = slot {
                    last[slot] = Some(span);
                }
            }
        }
    };
    note(attrs);
    for a in attrs {
        if let AttrKind::Group(n, _) = a.kind()
            && let Some(list) = group(n)
        {
            note(list);
        }
    }
    last
}

/// The minimum of `f`'s `vscale_range`, as LLVM's verifier takes it (`getVScaleRangeMin`);
/// `None` without one.
pub(crate) fn vscale_range_min(m: &Module, f: FuncId) -> Option<u64> {
    let src = m.source.as_bytes();
    let attrs = m.attr_list(m.functions[f].fn_attrs);
    let [_, _, vscale_range] = last_valued(src, attrs, |n| m.attr_group(n));
    // `vscale_range(0, 0)` is dropped by LLVM's parser: no attribute.
    numbers_in_parens(&src[vscale_range?.range()])[0].filter(|&min| min > 0)
}

/// The one or two unsigned numbers of `keyword(N)` or `keyword(N, M)`, none past 32 bits
/// (the parser has checked the rest of the syntax).
fn numbers_in_parens(text: &[u8]) -> [Option<u64>; 2] {
    let Some(open) = text.iter().position(|&b| b == b'(') else {
        return [None; 2];
    };
    let inside = text[open + 1..]
        .split(|&b| b == b')')
        .next()
        .unwrap_or_default();
    let mut numbers = inside.split(|&b| b == b',').map(|n| {
        let n = n.trim_ascii();
        let value = n.iter().try_fold(0u64, |v, &d| {
            let v = v
                .checked_mul(10)?
                .checked_add(u64::from(d.wrapping_sub(b'0')))?;
            (d.is_ascii_digit() && v <= u64::from(u32::MAX)).then_some(v)
        });
        value.filter(|_| !n.is_empty())
    });
    let first = numbers.next().flatten();
    [first, first.and_then(|_| numbers.next().flatten())]
}

/// The words of `allockind("...")` written as `text`, unescaped.
fn alloc_kinds(text: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    let open = text.iter().position(|&b| b == b'"')?;
    let kinds = text[open + 1..].split(|&b| b == b'"').next()?;
    Some(match kinds.contains(&b'\\') {
        true => std::borrow::Cow::Owned(unescape(kinds)),
        false => std::borrow::Cow::Borrowed(kinds),
    })
}

/// Whether the `allockind("...")` written as `text` has the word `kind`.
fn alloc_kind_has(text: &[u8], kind: &[u8]) -> bool {
    alloc_kinds(text).is_some_and(|kinds| kinds.split(|&b| b == b',').any(|w| w == kind))
}

/// Why the verifier refuses `allockind("...")` written as `text`: not exactly one of
/// `alloc`, `realloc` and `free`, or modifiers that `free` or each other exclude.
fn alloc_kind_refused(text: &[u8]) -> Option<&'static str> {
    let kinds = alloc_kinds(text)?;
    let has = |k: &[u8]| kinds.split(|&b| b == b',').any(|w| w == k);
    let roles = [b"alloc".as_slice(), b"realloc", b"free"].map(has);
    if roles.iter().filter(|&&r| r).count() != 1 {
        return Some("'allockind()' requires exactly one of alloc, realloc, and free");
    }
    let (uninitialized, zeroed) = (has(b"uninitialized"), has(b"zeroed"));
    if roles[2] && (uninitialized || zeroed || has(b"aligned")) {
        return Some(
            "'allockind(\"free\")' doesn't allow uninitialized, zeroed, or aligned modifiers.",
        );
    }
    if uninitialized && zeroed {
        return Some("'allockind()' can't be both zeroed and uninitialized");
    }
    None
}

/// The attributes that pass a pointer's pointee by its type, which must be sized.
const PASSED_BY_TYPE: Kinds =
    union(&[kind::ByVal, kind::ByRef, kind::InAlloca, kind::Preallocated]);

/// That each attribute of `attrs` (bits `kinds`) that passes a pointee by its type names a
/// sized type, as `sized` tells ("Attribute 'byval' does not support unsized types!"), and
/// `byval`'s one `byval_refused` lets through (what LLVM's verifier asks of it besides: no
/// target extension type kept off the stack, less than 4 GiB).
pub(crate) fn passed_types_sized(
    src: &[u8],
    attrs: &[Attr],
    kinds: Kinds,
    sized: impl Fn(TypeId) -> bool,
    byval_refused: impl Fn(TypeId) -> Option<&'static str>,
) -> Result<(), Broken> {
    if !kinds.has(PASSED_BY_TYPE) {
        return Ok(());
    }
    for a in attrs {
        let AttrKind::Typed(span, ty) = a.kind() else {
            continue;
        };
        let kind = kind_at(src, span);
        if kind.has(PASSED_BY_TYPE) && !sized(ty) {
            let keyword = String::from_utf8_lossy(&src[span.range()]);
            let message = format!("Attribute '{keyword}' does not support unsized types!");
            return Err(Broken::at(message, Some(span)));
        }
        if kind.has(kind::ByVal)
            && let Some(message) = byval_refused(ty)
        {
            return Err(Broken::at(message, Some(span)));
        }
    }
    Ok(())
}

/// Where a call's function attributes, `attrs` with bits `kinds`, hold `align`, which only a
/// function's header takes ("Attribute 'align 8' does not apply to functions!"): the
/// attribute, or the group that holds it.
pub(crate) fn alignment_of_call(src: &[u8], attrs: &[Attr], kinds: Kinds) -> Option<Span> {
    if !kinds.has(kind::Align) {
        return None;
    }
    let group = || attrs.iter().find(|a| a.is_group()).map(|a| a.span());
    place_of(src, attrs, kind::Align).or_else(group)
}

/// Whether a value of type `from` goes to one of type `to` losslessly
/// (`Type::canLosslesslyBitCastTo`): the same type, or vectors of as many bits. Vectors of
/// pointers, whose width the datalayout decides, are let through.
pub(crate) fn bitcasts_losslessly<'t>(
    from: TypeId,
    to: TypeId,
    body: &impl Fn(TypeId) -> &'t Type,
) -> bool {
    let (a, b) = (body(from), body(to));
    if a == b {
        return true;
    }
    let bits = |t: &Type| match t {
        Type::Vector {
            scalable,
            len,
            elem,
        } => {
            let elem_bits = match body(*elem) {
                Type::Int(bits) => Some(u64::from(*bits)),
                Type::Float(kind) => Some(kind.bits()),
                _ => None,
            };
            Some(elem_bits.map(|e| (*scalable, e * len)))
        }
        _ => None,
    };
    match (bits(a), bits(b)) {
        (Some(Some(x)), Some(Some(y))) => x == y,
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// The rules over each function's attributes, and over the types its parameters pass by,
/// once the top level is read (its groups come last, and named types may be defined after
/// the header; the rest of its parameters' and result's lists is checked as the header is
/// read): the first function in the text that breaks one is the error, at the attribute or
/// its name.
///
/// The functions are checked in runs, in parallel (each run in order): the first run that
/// holds an error has the first (rocksdb-O0's 17,265 headers: 3.8 ms on one thread, 2.5 on
/// two).
pub(crate) fn headers_hold(m: &Module) -> Result<(), (Span, String)> {
    let groups = groups_of(m);
    let strings = StringRules::new(m);
    // The room types take, worked out for the module's types once a `byval` asks.
    let memories = OnceLock::new();
    let functions: Vec<(FuncId, &Function)> = m.functions.iter().collect();
    let run = match functions.len() >= HEADERS_WORTH_THREADS {
        true => functions.len().div_ceil(4 * rayon::current_num_threads()),
        false => functions.len().max(1),
    };
    functions
        .par_chunks(run)
        .map(|run| run_of_headers_holds(m, run, &groups, &strings, &memories))
        .find_first(Result::is_err)
        .unwrap_or(Ok(()))
}

/// Below this many functions, [`headers_hold`] checks them on one thread.
const HEADERS_WORTH_THREADS: usize = 2048;

/// [`headers_hold`] over a run of consecutive functions.
fn run_of_headers_holds(
    m: &Module,
    functions: &[(FuncId, &Function)],
    groups: &FxHashMap<u32, Kinds>,
    strings: &StringRules,
    memories: &OnceLock<Vec<Option<Memory>>>,
) -> Result<(), (Span, String)> {
    let src = m.source.as_bytes();
    let sized = |ty: TypeId| m.types.layout(m.types.resolve(ty)).is_none_or(|l| l.sized);
    let byval_refused = |ty: TypeId| {
        if m.types.layout(m.types.resolve(ty))?.bars_stack {
            return Some("'byval' argument has illegal target extension type");
        }
        let memories = memories.get_or_init(|| m.data_layout.memories(&m.types));
        let memory = memories
            .get(cranelift_entity::EntityRef::index(ty))
            .copied()
            .flatten()?;
        let allocated = memory.size.checked_next_multiple_of(memory.align.max(1))?;
        (allocated >= 1 << 32).then_some("huge 'byval' arguments are unsupported")
    };
    // The headers lie all over the text, which the bodies have given back: each is given
    // back again once checked (without this, 21 MB of SPIRV-Cross's 41 MB at -O0 stayed
    // mapped in, a third of the peak of its merge).
    let mut behind = ReleaseBehind::new(&m.source);
    for &(f, func) in functions {
        behind.read(func.header_span.range());
        let kinds = kinds_of(src, m.attr_list(func.fn_attrs), groups);
        let held = if kinds.has(kind::Builtin) {
            Err(Broken::at(
                "Attribute 'builtin' can only be applied to a callsite.",
                None,
            ))
        } else if kinds.has(kind::JumpTable) && func.link.unnamed_addr != UnnamedAddr::Global {
            Err(Broken::at(
                "Attribute 'jumptable' requires 'unnamed_addr'",
                None,
            ))
        } else {
            function_attributes_hold(kinds).map_err(|message| Broken::at(message, None))
        };
        let held = held.and_then(|()| {
            let writable = kinds.has(MEMORY_ATTRIBUTES)
                && func
                    .params
                    .iter()
                    .any(|p| kinds_of(src, m.attr_list(p.attrs), groups).has(kind::Writable));
            let group = |n| m.attr_group(n);
            let effects = || memory_effects(src, m.attr_list(func.fn_attrs), group);
            match writable && !effects().writes_arguments() {
                true => Err(Broken::at(WRITABLE_WITHOUT_ARGMEM_WRITE, None)),
                false => Ok(()),
            }
        });
        let held = held.and_then(|()| match kinds.has(VALUED) {
            true => valued_attributes_hold(
                src,
                m.attr_list(func.fn_attrs),
                |n| m.attr_group(n),
                func.params.len(),
                |i| matches!(m.types.get(func.params[i].ty), Type::Int(_)),
            ),
            false => Ok(()),
        });
        let held = held.and_then(|()| {
            func.params.iter().try_for_each(|param| {
                let attrs = m.attr_list(param.attrs);
                let typed = || {
                    attrs
                        .iter()
                        .any(|a| matches!(a.kind(), AttrKind::Typed(..)))
                };
                match typed() {
                    true => passed_types_sized(
                        src,
                        attrs,
                        kinds_of(src, attrs, groups),
                        sized,
                        byval_refused,
                    ),
                    false => Ok(()),
                }
            })
        });
        let held = held.and_then(|()| match kinds.has(kind::Naked) && arguments_used(m, f) {
            true => Err(Broken::at("cannot use argument of naked function", None)),
            false => Ok(()),
        });
        let held = held.and_then(|()| {
            let variant_refused = |name: &[u8], family: Option<&[u8]>| {
                alloc_variant_refused(m, strings, &|t| t == func.fn_ty, name, family)
            };
            let refused = Signature::of(&m.types, func.fn_ty).and_then(|signature| {
                let taker = Taker {
                    signature,
                    variant_refused: &variant_refused,
                };
                strings.function_refused(src, m.attr_list(func.fn_attrs), taker)
            });
            match refused {
                Some((at, message)) => Err(Broken::at(message, Some(at))),
                None => Ok(()),
            }
        });
        let held = held.and_then(|()| calling_convention_holds(m, func, groups));
        // LLVM replaces a known intrinsic's attributes with its own when it has the
        // intrinsic's type (see `Parser::header_rule_broken`).
        let replaced = || {
            matches!(&m.globals[func.global].name, GlobalName::Named(n)
                if intrinsics::is_known(n) && intrinsics::signature_holds(&m.types, n, func.fn_ty).is_ok())
        };
        if let Err(broken) = held
            && !replaced()
        {
            let at = broken.attribute.unwrap_or_else(|| super::name_at(m, func));
            return Err((at, broken.message));
        }
    }
    Ok(())
}

/// Why the verifier refuses the function of `m` named `name` as the zeroing variant of a
/// function or call (`"alloc-variant-zeroed"`) whose `"alloc-family"` is `family` and whose
/// type is the one `takes_type` takes: of another family (when it has one), not
/// `allockind("zeroed")`, or of another type. `None` when `m` has no function of that name
/// (LLVM's `Module::getFunction`: an alias is none) or that function is such a variant.
pub(crate) fn alloc_variant_refused(
    m: &Module,
    strings: &StringRules,
    takes_type: &dyn Fn(TypeId) -> bool,
    name: &[u8],
    family: Option<&[u8]>,
) -> Option<&'static str> {
    let GlobalKind::Function(v) = m.globals[*m.global_by_name.get(name)?].kind else {
        return None;
    };
    let (src, variant) = (m.source.as_bytes(), &m.functions[v]);
    let attrs = m.attr_list(variant.fn_attrs);
    if let Some(family) = family
        && strings.values_of(src, attrs).alloc_family(src).as_deref() != Some(family)
    {
        return Some(
            "'alloc-variant-zeroed' must name a function belonging to the same 'alloc-family'",
        );
    }
    let [_, alloc_kind, _] = last_valued(src, attrs, |n| m.attr_group(n));
    if !alloc_kind.is_some_and(|at| alloc_kind_has(&src[at.range()], b"zeroed")) {
        return Some("'alloc-variant-zeroed' must name a function with 'allockind(\"zeroed\")'");
    }
    (!takes_type(variant.fn_ty))
        .then_some("'alloc-variant-zeroed' must name a function with the same signature")
}

/// What LLVM's verifier asks of a function of its calling convention (`visitFunction`): the
/// kernels and entry points of GPUs return nothing and take no stack-passed arguments, some
/// conventions no variable arguments, an interrupt handler its frame `byval`.
fn calling_convention_holds(
    m: &Module,
    func: &Function,
    groups: &FxHashMap<u32, Kinds>,
) -> Result<(), Broken> {
    use crate::model::calling_convention::*;
    let Some(cc) = func.extras().cconv.and_then(|at| number(m.bytes(at))) else {
        return Ok(());
    };
    let src = m.source.as_bytes();
    let param_kinds = |i: usize| kinds_of(src, m.attr_list(func.params[i].attrs), groups);
    let broken = |message: &str| Err(Broken::at(message, None));
    let is_void = || matches!(m.types.get(func.ret_ty), Type::Void);
    let kernel = matches!(
        cc,
        AMDGPU_KERNEL | SPIR_KERNEL | AMDGPU_CS_CHAIN | AMDGPU_CS_CHAIN_PRESERVE
    );
    if kernel && !is_void() {
        return broken("Calling convention requires void return type");
    }
    if kernel
        || matches!(
            cc,
            AMDGPU_VS | AMDGPU_HS | AMDGPU_GS | AMDGPU_PS | AMDGPU_CS
        )
    {
        if (0..func.params.len()).any(|i| param_kinds(i).has(kind::StructRet)) {
            return broken("Calling convention does not allow sret");
        }
        if cc != SPIR_KERNEL {
            let stack = m.data_layout.alloca_addr_space;
            for (i, param) in func.params.iter().enumerate() {
                let kinds = param_kinds(i);
                let refused = [
                    (kind::ByVal, "Calling convention disallows byval"),
                    (
                        kind::Preallocated,
                        "Calling convention disallows preallocated",
                    ),
                    (kind::InAlloca, "Calling convention disallows inalloca"),
                ];
                if let Some((_, message)) = refused.iter().find(|(k, _)| kinds.has(*k)) {
                    return broken(message);
                }
                if kinds.has(kind::ByRef) && m.types.get(param.ty) == &Type::Ptr(stack) {
                    return broken("Calling convention disallows stack byref");
                }
            }
        }
    }
    let fixed_arguments = kernel
        || matches!(
            cc,
            AMDGPU_VS
                | AMDGPU_HS
                | AMDGPU_GS
                | AMDGPU_PS
                | AMDGPU_CS
                | FAST
                | COLD
                | INTEL_OCL_BI
                | PTX_KERNEL
                | PTX_DEVICE
        );
    match cc {
        X86_INTR if !func.params.is_empty() && !param_kinds(0).has(kind::ByVal) => {
            broken("Calling convention parameter requires byval")
        }
        AMDGPU_GFX_WHOLE_WAVE => {
            let first = func.params.first();
            if !first.is_some_and(|p| m.types.get(p.ty) == &Type::Int(1)) {
                broken("Calling convention requires first argument to be i1")
            } else if param_kinds(0).has(kind::InReg) {
                broken("Calling convention requires first argument to not be inreg")
            } else if func.varargs {
                broken("Calling convention does not support varargs or perfect forwarding!")
            } else {
                Ok(())
            }
        }
        _ if fixed_arguments && func.varargs => {
            broken("Calling convention does not support varargs or perfect forwarding!")
        }
        _ => Ok(()),
    }
}

/// Whether the body of `f` (a definition; a declaration has none) passes one of its
/// parameters to an instruction: a naked function's may not (a debug record or a metadata
/// argument naming one is no use, as in LLVM). Read again, for the few naked functions.
fn arguments_used(m: &Module, f: FuncId) -> bool {
    if m.functions[f].body.is_none() {
        return false;
    }
    let Ok(body) = m.body(f) else {
        return false;
    };
    body.items.iter().any(|item| match item {
        Item::Value(v) => match v.kind() {
            ValueKind::Local(l) => matches!(body.locals[l].def, LocalDef::Arg(_)),
            _ => false,
        },
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_header_that_breaks_a_rule_is_the_error_whichever_run_holds_it() {
        // Enough functions to be checked in runs, on several threads.
        let count = 2 * HEADERS_WORTH_THREADS;
        for broken in [
            vec![count - 1],
            vec![10, count - 1],
            vec![count / 2, count / 2 + 1],
            vec![count / 3, count / 2],
        ] {
            let mut text = String::new();
            for i in 0..count {
                let group = if broken.contains(&i) { " #0" } else { "" };
                text += &format!("declare void @f{i}(){group}\n");
            }
            text += "attributes #0 = { builtin }\n";
            let error = crate::read::parse(text).expect_err("a builtin function");
            let diagnostic = error.diagnostic().expect("a place");
            assert_eq!(diagnostic.line as usize, broken[0] + 1, "{broken:?}");
            assert_eq!(
                diagnostic.message,
                "Attribute 'builtin' can only be applied to a callsite."
            );
        }
    }

    #[test]
    fn arguments_are_read_as_llvm_reads_them() {
        assert_eq!(numbers_in_parens(b"allocsize(0)"), [Some(0), None]);
        assert_eq!(
            numbers_in_parens(b"vscale_range( 2 , 16 )"),
            [Some(2), Some(16)]
        );
        assert_eq!(numbers_in_parens(b"vscale_range(4294967296)"), [None, None]);
        assert_eq!(
            alloc_kind_refused(br#"allockind("alloc,uninitialized,aligned")"#),
            None
        );
        assert_eq!(alloc_kind_refused(br#"allockind("realloc")"#), None);
        assert!(alloc_kind_refused(br#"allockind("aligned")"#).is_some());
        assert!(alloc_kind_refused(br#"allockind("free,aligned")"#).is_some());
        assert!(alloc_kind_refused(br#"allockind("realloc,zeroed,uninitialized")"#).is_some());
        // Read unescaped: `free,zeroed`.
        assert!(alloc_kind_refused(br#"allockind("\66ree,zeroed")"#).is_some());
    }
}
