//! The checks of LLVM 22's verifier on the metadata a body's instructions name: the nodes of
//! `!alias.scope` and `!noalias` attachments and of `llvm.experimental.noalias.scope.decl`
//! calls are lists of scopes and domains (`visitAliasScopeListMetadata`), `!tbaa` tags are
//! struct-path access tags whose path leads to their access type
//! (`TBAAVerifier::visitTBAAMetadata`), `!range`, `!nonnull`, `!align`, `!dereferenceable`,
//! `!invariant.group` and `!fpmath` attachments stand on instructions that take them and
//! hold what LLVM reads there (`Verifier::visitInstruction`, `verifyRangeLikeMetadata`: a
//! load's ranges of its type, in order and apart), and the constrained floating-point intrinsics name
//! their rounding mode, exception behaviour and predicate by strings LLVM knows and convert
//! between types it takes (`visitConstrainedFPIntrinsic`). `opt-22` refuses a module that
//! fails them ("input module is broken!"); C and C++ modules carry a `!tbaa` tag on most loads and stores, so a
//! changed byte often lands in one.
//!
//! A node is compared as LLVM compares it: two nodes that are not `distinct` and have the
//! same operands are one node. Where the answer hangs on what these checks do not model (the
//! operands of a specialized node such as `!DIBasicType(...)`, a constant expression that may
//! fold to an integer, an integer over 128 bits, a null operand where LLVM's verifier would
//! dereference it), the tag is taken as it is: mergefn must read whatever `opt-22` reads.

use super::verify_intrinsics::FrameUses;
use crate::model::{
    Body, Const, FuncId, GlobalName, GlobalUse, InstId, Item, LocalId, MdBody, MdId, MdRef, Module,
    Opcode, Span, Type, TypeId, UseRole, Value, ValueKind,
};
use cranelift_entity::EntityRef;
use cranelift_entity::packed_option::ReservedValue;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::rc::Rc;

const NOT_AN_ACCESS: &str = "This instruction shall not have a TBAA access tag!";

/// How deep two nodes' operands are compared before the answer is taken as unknown (nodes
/// that name each other in a cycle).
const SAME_DEPTH: u32 = 32;

/// The module's `!tbaa` tags found valid (but for the instruction that carries them): C and
/// C++ modules name a few hundred tags from tens of thousands of loads and stores, and a tag
/// whose base type is a large struct takes a walk over its fields.
#[derive(Default)]
pub(super) struct ValidTags {
    tags: FxHashSet<MdId>,
    /// The answers of [`Nodes::base_node`] for the module's nodes, by format: a struct's
    /// fields are checked once, not at each of its tags.
    bases: FxHashMap<(MdId, bool), Option<BaseType>>,
    /// The answers of [`Nodes::is_scalar`] for the module's nodes.
    scalars: FxHashMap<MdId, bool>,
}

/// The first of the instructions of `body` whose metadata LLVM's verifier refuses: where (the
/// attachment's kind, or the callee of a scope declaration) and LLVM's message. `uses` are the
/// body's own uses of globals, the first numbered `m.uses.len()`. A piece of a body leaves
/// in `far_allocas` the locals its lifetime markers name that another piece defines; what the
/// module's check of frame recoveries needs goes to `frames`.
pub(super) fn metadata_holds(
    m: &Module,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
    valid: &mut ValidTags,
    far_allocas: &mut Vec<LocalId>,
    frames: &mut FrameUses,
) -> Result<(), Refused> {
    let nodes = Nodes { m, body };
    for (id, i) in body.insts.iter() {
        if i.md_len == 0 {
            continue;
        }
        let attachments = &body.attachments[i.md_start as usize..][..i.md_len as usize];
        for &(kind, md) in attachments {
            let checked = match m.bytes(kind) {
                b"!alias.scope" | b"!noalias" => nodes.scope_list_holds(md),
                b"!tbaa" => nodes.tbaa_tag_holds(i.opcode, md, valid),
                b"!prof" => known(nodes.prof_holds(id, md)),
                b"!captures" => known(nodes.captures_hold(id, md)),
                kind => known(nodes.attachment_holds(kind, i.opcode, i.ty, md)),
            };
            checked.map_err(|message| (kind, message.into()))?;
        }
    }
    // LLVM walks each attachment's nodes once its own checks of them are made.
    for i in body.insts.values().filter(|i| i.md_len != 0) {
        for &(kind, md) in &body.attachments[i.md_start as usize..][..i.md_len as usize] {
            if let Some(message) = m
                .nodes_reached
                .attachment_refused(m, body, m.bytes(kind), md)
            {
                return Err((kind, message.into()));
            }
        }
    }
    // The body's calls of intrinsics, found once for the three checks of them.
    let calls: Vec<IntrinsicCall> = intrinsic_calls(m, body, uses).collect();
    for (callee, list) in scope_declarations(m, body, &calls) {
        nodes
            .declared_scope_holds(list)
            .map_err(|message| (callee, message.into()))?;
    }
    constrained_calls_hold(m, body, &calls).map_err(|(at, message)| (at, message.into()))?;
    super::verify_intrinsics::intrinsic_calls_hold(m, f, body, uses, &calls, far_allocas, frames)
}

/// What LLVM's verifier refuses in a body: where, and its message.
pub(super) type Refused = (Span, Cow<'static, str>);

/// A call of an intrinsic (see [`intrinsic_calls`]).
pub(super) type IntrinsicCall<'a> = (Span, Cow<'a, [u8]>, InstId);

/// The floating-point predicates LLVM names by strings, as the constrained and the
/// vector-predicated comparisons take them (`getFPPredicateFromMD`).
pub(super) const FP_PREDICATES: &[&[u8]] = &[
    b"oeq", b"ogt", b"oge", b"olt", b"ole", b"one", b"ord", b"uno", b"ueq", b"ugt", b"uge", b"ult",
    b"ule", b"une",
];

/// The rounding modes LLVM names by strings (`convertStrToRoundingMode`).
pub(super) const ROUNDING_MODES: &[&[u8]] = &[
    b"round.dynamic",
    b"round.tonearest",
    b"round.tonearestaway",
    b"round.downward",
    b"round.upward",
    b"round.towardzero",
];

/// The operand after `unknown` in a `!prof` (an instruction's or a function's), as
/// `Verifier::verifyUnknownProfileMetadata` checks it: the name of the pass that dropped the
/// profile.
pub(super) fn unknown_profile_holds(m: &Module, pass: Option<MdRef>) -> Result<(), &'static str> {
    let pass = string_operand(m, pass)
        .ok_or("'unknown' !prof should have an additional operand of type string")?;
    match pass.is_empty() {
        true => Err("the 'unknown' !prof operand should not be an empty string"),
        false => Ok(()),
    }
}

/// The calls in `body` of intrinsics: the callee's span, the name and the call. Found from
/// the body's uses of globals, which name an intrinsic at most a few times, rather than from
/// its calls.
fn intrinsic_calls<'a>(
    m: &'a Module,
    body: &'a Body,
    uses: &'a [GlobalUse],
) -> impl Iterator<Item = IntrinsicCall<'a>> + 'a {
    uses.iter()
        .filter(|u| u.role == UseRole::Callee)
        .filter_map(move |u| {
            let name = callee_name(m, u)?;
            if !name.starts_with(b"llvm.") {
                return None;
            }
            Some((u.span, name, call_of(body, u)?))
        })
}

/// The name of the function callee use `u` names (none if numbered): an intrinsic a body
/// calls without a declaration (which LLVM then declares) by the use's text.
pub(super) fn callee_name<'a>(m: &'a Module, u: &GlobalUse) -> Option<Cow<'a, [u8]>> {
    if u.global.is_reserved_value() {
        return match m.bytes(u.span).strip_prefix(b"@") {
            Some([b'"', quoted @ .., b'"']) => Some(Cow::Owned(super::lexer::unescape(quoted))),
            Some(bare) => Some(Cow::Borrowed(bare)),
            None => None,
        };
    }
    match &m.globals[u.global].name {
        GlobalName::Named(name) => Some(Cow::Borrowed(&name[..])),
        GlobalName::Numbered(_) => None,
    }
}

/// The call, invoke or `callbr` (LLVM's `CallBase`) whose callee is use `u` of `body`.
pub(super) fn call_of(body: &Body, u: &GlobalUse) -> Option<InstId> {
    // Instructions are in text order: the call is the last to start before its callee.
    let insts = body.insts.values().as_slice();
    let after = insts.partition_point(|i| i.span.start <= u.span.start);
    let inst = InstId::new(after.checked_sub(1)?);
    matches!(
        body.insts[inst].opcode,
        Opcode::Call | Opcode::Invoke | Opcode::CallBr
    )
    .then_some(inst)
}

/// The arguments of a call, in order, each with its type (not its operand bundles' operands,
/// after them).
pub(super) fn call_arguments(
    body: &Body,
    call: InstId,
) -> impl Iterator<Item = (TypeId, Value)> + '_ {
    let mut ty = None;
    body.call_argument_items(call)
        .iter()
        .filter_map(move |item| match *item {
            Item::Type(t) => {
                ty = Some(t);
                None
            }
            Item::Value(v) => Some((ty?, v)),
            _ => None,
        })
}

/// The bytes a metadata string (`!"..."`) holds, escapes decoded; `None` for another operand.
pub(super) fn string_operand(m: &Module, op: Option<MdRef>) -> Option<Cow<'_, [u8]>> {
    let Some(MdRef::Str(span)) = op else {
        return None;
    };
    let text = m.bytes(span);
    let quoted = text.strip_prefix(b"!\"")?.strip_suffix(b"\"")?;
    Some(match quoted.contains(&b'\\') {
        true => Cow::Owned(super::lexer::unescape(quoted)),
        false => Cow::Borrowed(quoted),
    })
}

/// An argument written `metadata ...`: what it names.
pub(super) fn metadata_argument<'a>(m: &'a Module, body: &'a Body, v: Value) -> Option<&'a MdRef> {
    match v.kind() {
        ValueKind::Const(c) => match body.constant(m, c) {
            Const::Metadata(md) => Some(md),
            _ => None,
        },
        _ => None,
    }
}

/// The calls of `llvm.experimental.noalias.scope.decl` in `body`: the callee's span and the
/// metadata argument, if it is one.
fn scope_declarations<'a>(
    m: &'a Module,
    body: &'a Body,
    calls: &'a [IntrinsicCall],
) -> impl Iterator<Item = (Span, Option<MdRef>)> + 'a {
    const NAME: &[u8] = b"llvm.experimental.noalias.scope.decl";
    calls
        .iter()
        .filter(|(_, name, _)| &name[..] == NAME)
        .filter_map(move |&(callee, _, call)| {
            let (_, argument) = call_arguments(body, call).next()?;
            Some((callee, Some(*metadata_argument(m, body, argument)?)))
        })
}

/// That the calls of the constrained floating-point intrinsics in `body` name their rounding
/// mode, exception behaviour and comparison predicate by strings LLVM knows, as its verifier
/// checks them (`visitConstrainedFPIntrinsic`): the last argument is the exception
/// behaviour; before it, a comparison's predicate, or the rounding mode of an intrinsic that
/// takes one (the table of intrinsics gives each its arguments, so two metadata arguments at
/// the end of another than a comparison are a rounding mode and an exception behaviour).
fn constrained_calls_hold(
    m: &Module,
    body: &Body,
    calls: &[IntrinsicCall],
) -> Result<(), (Span, &'static str)> {
    const PREFIX: &[u8] = b"llvm.experimental.constrained.";
    const EXCEPTION_BEHAVIOURS: &[&[u8]] =
        &[b"fpexcept.ignore", b"fpexcept.maytrap", b"fpexcept.strict"];
    let names = |md: Option<&MdRef>, known: &[&[u8]]| {
        string_operand(m, md.copied()).is_some_and(|s| known.contains(&&s[..]))
    };
    for (callee, name, call) in calls {
        let (callee, call) = (*callee, *call);
        let Some(operation) = name.strip_prefix(PREFIX) else {
            continue;
        };
        let operation = operation.split(|&b| b == b'.').next().unwrap_or_default();
        conversion_holds(m, body, call, operation).map_err(|message| (callee, message))?;
        let comparison = matches!(operation, b"fcmp" | b"fcmps");
        let metadata: Vec<Option<&MdRef>> = call_arguments(body, call)
            .map(|(_, v)| metadata_argument(m, body, v))
            .collect();
        let trailing = metadata.iter().rev().take_while(|md| md.is_some()).count();
        if comparison && metadata.len() >= 2 && !names(metadata[metadata.len() - 2], FP_PREDICATES)
        {
            return Err((
                callee,
                "invalid predicate for constrained FP comparison intrinsic",
            ));
        }
        let Some(&exception) = metadata.last() else {
            continue;
        };
        if !names(exception, EXCEPTION_BEHAVIOURS) {
            return Err((callee, "invalid exception behavior argument"));
        }
        if !comparison && trailing >= 2 && !names(metadata[metadata.len() - 2], ROUNDING_MODES) {
            return Err((callee, "invalid rounding mode argument"));
        }
    }
    Ok(())
}

/// What LLVM's verifier checks of the types of a constrained conversion (`operation`: the
/// intrinsic's name after `llvm.experimental.constrained.`), beyond the table of intrinsics:
/// its argument and result both scalars or vectors of one length, of the kinds it converts
/// between, a truncation to a narrower type and an extension to a wider one; the rounding of
/// a floating-point number to an integer (`lrint`, `lround` and their `ll` forms) on scalars
/// only.
fn conversion_holds(
    m: &Module,
    body: &Body,
    call: InstId,
    operation: &[u8],
) -> Result<(), &'static str> {
    let Some(&Item::Type(argument)) = body.call_argument_items(call).first() else {
        return Ok(());
    };
    let result = body.insts[call].ty;
    // The type, and its elements' count when it is a vector.
    let shape = |t| {
        let t = body.ty(m, body.resolve_ty(m, t));
        match *t {
            Type::Vector {
                scalable,
                len,
                elem,
            } => (body.ty(m, elem), Some((scalable, len))),
            _ => (t, None),
        }
    };
    let ((from, from_count), (to, to_count)) = (shape(argument), shape(result));
    let is_float = |t: &Type| matches!(t, Type::Float(_));
    let is_int = |t: &Type| matches!(t, Type::Int(_));
    let bits = |t: &Type| match t {
        Type::Float(kind) => kind.bits(),
        _ => 0,
    };
    let same_shape = || {
        if from_count.is_some() != to_count.is_some() {
            Err("Intrinsic first argument and result disagree on vector use")
        } else if from_count != to_count {
            Err("Intrinsic first argument and result vector lengths must be equal")
        } else {
            Ok(())
        }
    };
    match operation {
        b"lrint" | b"llrint" | b"lround" | b"llround"
            if from_count.is_some() || to_count.is_some() =>
        {
            return Err("Intrinsic does not support vectors");
        }
        b"fptosi" | b"fptoui" | b"sitofp" | b"uitofp" => {
            // From floating point to integers, or the other way.
            let to_int = operation.starts_with(b"fpto");
            let (from_holds, to_holds, from_message, to_message) = match to_int {
                true => (
                    is_float(from),
                    is_int(to),
                    "Intrinsic first argument must be floating point",
                    "Intrinsic result must be an integer",
                ),
                false => (
                    is_int(from),
                    is_float(to),
                    "Intrinsic first argument must be integer",
                    "Intrinsic result must be a floating point",
                ),
            };
            if !from_holds {
                return Err(from_message);
            }
            // LLVM tells vectors against scalars before the result's kind.
            if from_count.is_some() != to_count.is_some() {
                return same_shape();
            }
            if !to_holds {
                return Err(to_message);
            }
            same_shape()?;
        }
        b"fptrunc" | b"fpext" => {
            if !is_float(from) {
                return Err("Intrinsic first argument must be FP or FP vector");
            }
            if !is_float(to) {
                return Err("Intrinsic result must be FP or FP vector");
            }
            same_shape()?;
            if operation == b"fptrunc" && bits(from) <= bits(to) {
                return Err("Intrinsic first argument's type must be larger than result type");
            }
            if operation == b"fpext" && bits(from) >= bits(to) {
                return Err("Intrinsic first argument's type must be smaller than result type");
            }
        }
        _ => {}
    }
    Ok(())
}

/// Why a check ends before it holds: a fault with LLVM's message, or an answer these checks
/// do not model (the tag is then taken as valid, as LLVM may take it).
enum Stop {
    Fault(&'static str),
    Unknown,
}

type Checked<T> = Result<T, Stop>;

/// LLVM's verifier refuses with `message` unless `holds`.
fn check(holds: bool, message: &'static str) -> Checked<()> {
    if holds {
        Ok(())
    } else {
        Err(Stop::Fault(message))
    }
}

/// Whether the ranges `[low, high)` and `other` (each neither empty nor full, wrapping round
/// past the largest value when `low > high`) share no value (`ConstantRange::intersectWith`
/// is empty).
fn disjoint(low: Int, high: Int, other: (Int, Int)) -> bool {
    // Each range as at most two runs of values, both ends included.
    let runs = |(low, high): (Int, Int)| {
        let max = Int::mask(low.width);
        match low.bits < high.bits {
            true => [Some((low.bits, high.bits - 1)), None],
            false => [
                Some((low.bits, max)),
                (high.bits > 0).then(|| (0, high.bits - 1)),
            ],
        }
    };
    let (a, b) = (runs((low, high)), runs(other));
    a.iter().flatten().all(|&(a_start, a_end)| {
        b.iter()
            .flatten()
            .all(|&(b_start, b_end)| a_end < b_start || b_end < a_start)
    })
}

/// Whether one range ends where the other starts (LLVM's `isContiguous`).
fn touching(a: (Int, Int), b: (Int, Int)) -> bool {
    a.1.bits == b.0.bits || a.0.bits == b.1.bits
}

/// The value of a floating-point literal as LLVM's parser reads it for a `float`: decimal,
/// or `0x` and the sixteen hex digits of a double (other forms are not read here).
fn float_value(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text).ok()?;
    match text.strip_prefix("0x") {
        Some(hex) if hex.len() == 16 => u64::from_str_radix(hex, 16).ok().map(f64::from_bits),
        Some(_) => None,
        None => text.parse().ok(),
    }
}

/// What a check found: a fault, or nothing where it could not tell.
fn known(checked: Checked<()>) -> Result<(), &'static str> {
    match checked {
        Err(Stop::Fault(message)) => Err(message),
        Ok(()) | Err(Stop::Unknown) => Ok(()),
    }
}

/// An integer constant (LLVM's `ConstantInt`): its width and its bits.
#[derive(Clone, Copy)]
struct Int {
    width: u32,
    bits: u128,
}

impl Int {
    fn mask(width: u32) -> u128 {
        u128::MAX >> (128 - width)
    }

    /// Its bits as a signed number (`APInt::getSExtValue`).
    fn signed(self) -> i128 {
        let unused = 128 - self.width;
        ((self.bits << unused) as i128) >> unused
    }

    /// `self - other`, at their common width (LLVM asserts they have one).
    fn minus(self, other: Int) -> Checked<Int> {
        if self.width != other.width {
            return Err(Stop::Unknown);
        }
        Ok(Int {
            width: self.width,
            bits: self.bits.wrapping_sub(other.bits) & Int::mask(self.width),
        })
    }
}

/// A node as these checks meet it: one of the module's or the body's, or the scalar type node
/// `!{a, b}` that LLVM's parser makes of an old-style tag `!{a, b, c}` (`UpgradeTBAANode`).
#[derive(Clone, Copy, PartialEq)]
enum Node {
    Id(MdId),
    Upgraded([Option<MdRef>; 2]),
}

/// A node's operands.
enum Operands<'a> {
    Of(&'a [Option<MdRef>]),
    Pair([Option<MdRef>; 2]),
}

impl std::ops::Deref for Operands<'_> {
    type Target = [Option<MdRef>];
    fn deref(&self) -> &[Option<MdRef>] {
        match self {
            Operands::Of(operands) => operands,
            Operands::Pair(pair) => pair,
        }
    }
}

/// A `!tbaa` tag once LLVM's parser has upgraded it: its base type, its access type, its
/// offset (`None`: not an integer), its immutability flag if it has one, and whether its
/// access type is a type node of the new format.
struct Tag {
    base: Option<Node>,
    access: Option<Node>,
    offset: Option<Int>,
    immutability: Option<Option<MdRef>>,
    new_format: bool,
}

/// A valid base type node: the width of its fields' offsets (`u32::MAX` when it has no field,
/// 0 for a scalar) and the offsets.
#[derive(Clone)]
struct BaseType {
    width: u32,
    offsets: Rc<[u128]>,
}

/// What a list of ranges bounds (LLVM's `RangeLikeMetadataKind`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ranges {
    /// `!range`: the values an instruction gives.
    Values,
    /// `!absolute_symbol`: a global's address, which may be anything (the full range).
    AbsoluteSymbol,
    /// `!noalias.addrspace`: address spaces (`i32`) an access does not touch.
    AddressSpaces,
}

/// A global's `!absolute_symbol` (`md`), as `Verifier::visitGlobalObject` checks it: ranges
/// of the integer type as wide as the global's pointer (`address_bits`).
pub(super) fn absolute_symbol_holds(
    m: &Module,
    address_bits: u32,
    md: MdRef,
) -> Result<(), &'static str> {
    let MdRef::Node(id) = md else {
        return Ok(());
    };
    module_nodes(m, |nodes| {
        known(nodes.operands(Node::Id(id)).and_then(|operands| {
            nodes.ranges_hold(&operands, &Type::Int(address_bits), Ranges::AbsoluteSymbol)
        }))
    })
}

/// A node `!llvm.errno.tbaa` lists, as `Verifier::visitModuleErrnoTBAA` checks it: a TBAA
/// access tag of the struct-path form (LLVM's parser upgrades older tags only on
/// instructions), on no instruction.
pub(super) fn errno_tbaa_holds(m: &Module, tag: MdId) -> Result<(), &'static str> {
    module_nodes(m, |nodes| {
        known(nodes.operands(Node::Id(tag)).and_then(|ops| {
            check(!ops.is_empty(), "TBAA metadata cannot have 0 operands")?;
            check(
                nodes.is_node(ops[0])? && ops.len() >= 3,
                "Old-style TBAA is no longer allowed, use struct-path TBAA instead",
            )?;
            nodes.tag_holds(nodes.struct_path_tag(&ops)?, &mut ValidTags::default())
        }))
    })
}

/// `run` on the module's metadata nodes alone, as no body sees them.
fn module_nodes<R>(m: &Module, run: impl FnOnce(Nodes) -> R) -> R {
    run(Nodes {
        m,
        body: &Body::empty_of(m),
    })
}

/// The metadata nodes as the body sees them.
#[derive(Clone, Copy)]
struct Nodes<'a> {
    m: &'a Module,
    body: &'a Body,
}

impl<'a> Nodes<'a> {
    /// A node's operands, when it is a tuple (`!{...}`).
    fn operands(self, node: Node) -> Checked<Operands<'a>> {
        match node {
            Node::Id(id) => match &self.body.md_node(self.m, id).body {
                MdBody::Tuple(operands) => Ok(Operands::Of(operands)),
                _ => Err(Stop::Unknown),
            },
            Node::Upgraded(pair) => Ok(Operands::Pair(pair)),
        }
    }

    /// The operands of the tuple an attachment (or an operand) names.
    fn operands_of(self, md: MdRef) -> Checked<Operands<'a>> {
        match md {
            MdRef::Node(id) => self.operands(Node::Id(id)),
            _ => Err(Stop::Unknown),
        }
    }

    /// Whether node `id` is the module's, whose id means the same node in every body (a
    /// body's own nodes are numbered anew in the next).
    fn is_module_node(self, id: MdId) -> bool {
        id.index() < self.body.base.metadata as usize
    }

    fn is_distinct(self, node: Node) -> bool {
        match node {
            Node::Id(id) => self.body.md_node(self.m, id).distinct,
            Node::Upgraded(_) => false,
        }
    }

    /// The node an operand is, if it is one (`dyn_cast_or_null<MDNode>`).
    fn node(self, op: Option<MdRef>) -> Checked<Option<Node>> {
        match op {
            Some(MdRef::Node(id)) => match self.body.md_node(self.m, id).body {
                MdBody::Tuple(_) | MdBody::Specialized(_) => Ok(Some(Node::Id(id))),
                _ => Err(Stop::Unknown),
            },
            _ => Ok(None),
        }
    }

    /// Whether a non-null operand is a node (`isa<MDNode>`, which LLVM may not ask of null).
    fn is_node(self, op: Option<MdRef>) -> Checked<bool> {
        match op {
            None => Err(Stop::Unknown),
            op => Ok(self.node(op)?.is_some()),
        }
    }

    /// Whether a non-null operand is a string (`isa<MDString>`).
    fn is_string(op: Option<MdRef>) -> Checked<bool> {
        match op {
            None => Err(Stop::Unknown),
            op => Ok(matches!(op, Some(MdRef::Str(_)))),
        }
    }

    /// The integer an operand is, if it is one (`mdconst::dyn_extract_or_null<ConstantInt>`).
    fn int(self, op: Option<MdRef>) -> Checked<Option<Int>> {
        let Some(MdRef::Value(ty, value)) = op else {
            return Ok(None);
        };
        let ValueKind::Const(c) = value.kind() else {
            return Ok(None);
        };
        let ty = self.body.ty(self.m, ty);
        if matches!(ty, Type::Vector { .. }) {
            return Err(Stop::Unknown);
        }
        let int = self.m.metadata_int(ty, self.body.constant(self.m, c));
        let int = int.map_err(|()| Stop::Unknown)?;
        Ok(int.map(|(width, bits)| Int { width, bits }))
    }

    /// Whether `a` and `b` are one node to LLVM: the same, or both uniqued with the same
    /// operands.
    fn same(self, a: Node, b: Node) -> Checked<bool> {
        self.same_within(a, b, SAME_DEPTH)
    }

    fn same_within(self, a: Node, b: Node, depth: u32) -> Checked<bool> {
        if a == b {
            return Ok(true);
        }
        if self.is_distinct(a) || self.is_distinct(b) {
            return Ok(false);
        }
        if depth == 0 {
            return Err(Stop::Unknown);
        }
        let (oa, ob) = (self.operands(a)?, self.operands(b)?);
        if oa.len() != ob.len() {
            return Ok(false);
        }
        for (&x, &y) in oa.iter().zip(ob.iter()) {
            let same = match (x, y) {
                (None, None) => true,
                (Some(MdRef::Node(x)), Some(MdRef::Node(y))) => {
                    self.same_within(Node::Id(x), Node::Id(y), depth - 1)?
                }
                (Some(MdRef::Str(x)), Some(MdRef::Str(y))) => self.same_string(x, y),
                (Some(MdRef::Value(..)), Some(MdRef::Value(..))) => {
                    match (self.int(x)?, self.int(y)?) {
                        (Some(x), Some(y)) => x.width == y.width && x.bits == y.bits,
                        _ if x == y => true,
                        _ => return Err(Stop::Unknown),
                    }
                }
                _ => false,
            };
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether two `!"..."` strings hold the same bytes, escapes decoded.
    fn same_string(self, a: Span, b: Span) -> bool {
        let text = |s: Span| {
            let quoted = self.m.bytes(s);
            &quoted[2..quoted.len() - 1]
        };
        let (a, b) = (text(a), text(b));
        a == b
            || (a.contains(&b'\\') || b.contains(&b'\\'))
                && super::lexer::unescape(a) == super::lexer::unescape(b)
    }

    fn is_one_of(self, node: Node, nodes: &[Node]) -> Checked<bool> {
        for &other in nodes {
            if self.same(node, other)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// An attachment of kind `kind` on an instruction of `opcode` whose result has type
    /// `ty`, as `Verifier::visitInstruction` checks `!range`, `!noalias.addrspace`, `!nonnull`, `!align`,
    /// `!dereferenceable`, `!dereferenceable_or_null`, `!invariant.group`, `!fpmath` and
    /// `!annotation` (others are let through).
    fn attachment_holds(self, kind: &[u8], opcode: Opcode, ty: TypeId, md: MdRef) -> Checked<()> {
        // Found only for the kinds checked: most attachments are others.
        let ty = || self.body.ty(self.m, self.body.resolve_ty(self.m, ty));
        let pointer = || matches!(ty(), Type::Ptr(_));
        let operands = || self.operands_of(md);
        // What only a load of a pointer takes: LLVM's messages for another type, another
        // instruction.
        let on_loaded_pointer = |[not_pointer, not_load]: [&'static str; 2]| {
            check(pointer(), not_pointer)?;
            check(opcode == Opcode::Load, not_load)
        };
        match kind {
            b"!range" => {
                check(
                    matches!(opcode, Opcode::Load | Opcode::Call | Opcode::Invoke),
                    "Ranges are only for loads, calls and invokes!",
                )?;
                self.ranges_hold(&operands()?, ty(), Ranges::Values)
            }
            b"!noalias.addrspace" => {
                check(
                    matches!(
                        opcode,
                        Opcode::Load
                            | Opcode::Store
                            | Opcode::AtomicRmw
                            | Opcode::AtomicCmpXchg
                            | Opcode::Call
                    ),
                    "noalias.addrspace are only for memory operations!",
                )?;
                self.ranges_hold(&operands()?, ty(), Ranges::AddressSpaces)
            }
            b"!nonnull" => {
                on_loaded_pointer([
                    "nonnull applies only to pointer types",
                    "nonnull applies only to load instructions, use attributes for calls or \
                     invokes",
                ])?;
                check(operands()?.is_empty(), "nonnull metadata must be empty")
            }
            b"!align" => {
                on_loaded_pointer([
                    "align applies only to pointer types",
                    "align applies only to load instructions, use attributes for calls or \
                     invokes",
                ])?;
                let operands = operands()?;
                check(operands.len() == 1, "align takes one operand!")?;
                let align = self.int(operands[0])?.filter(|i| i.width == 64);
                let align = align.ok_or(Stop::Fault("align metadata value must be an i64!"))?;
                check(
                    align.bits.is_power_of_two(),
                    "align metadata value must be a power of 2!",
                )?;
                check(
                    align.bits <= 1 << 32,
                    "alignment is larger that implementation defined limit",
                )
            }
            b"!dereferenceable" | b"!dereferenceable_or_null" => {
                check(
                    pointer(),
                    "dereferenceable, dereferenceable_or_null apply only to pointer types",
                )?;
                check(
                    matches!(opcode, Opcode::Load | Opcode::IntToPtr),
                    "dereferenceable, dereferenceable_or_null apply only to load and inttoptr \
                     instructions, use attributes for calls or invokes",
                )?;
                let operands = operands()?;
                check(
                    operands.len() == 1,
                    "dereferenceable, dereferenceable_or_null take one operand!",
                )?;
                check(
                    self.int(operands[0])?.is_some_and(|i| i.width == 64),
                    "dereferenceable, dereferenceable_or_null metadata value must be an i64!",
                )
            }
            b"!nofree" => {
                check(pointer(), "nofree applies only to pointer types")?;
                check(
                    opcode == Opcode::IntToPtr,
                    "nofree applies only to inttoptr instruction",
                )?;
                check(operands()?.is_empty(), "nofree metadata must be empty")
            }
            b"!mmra" => {
                // A call may take them if it touches memory, which its attributes and its
                // callee's say: not looked into.
                if !opcode.is_call() {
                    check(
                        matches!(
                            opcode,
                            Opcode::Load
                                | Opcode::Store
                                | Opcode::AtomicCmpXchg
                                | Opcode::AtomicRmw
                                | Opcode::Fence
                        ),
                        "!mmra metadata attached to unexpected instruction kind",
                    )?;
                }
                self.mmra_holds(md)
            }
            b"!invariant.group" => check(
                matches!(opcode, Opcode::Load | Opcode::Store),
                "invariant.group metadata is only for loads and stores",
            ),
            b"!fpmath" => {
                check(
                    matches!(self.scalar(ty()), Type::Float(_)),
                    "fpmath requires a floating point result!",
                )?;
                let operands = operands()?;
                check(operands.len() == 1, "fpmath takes one operand!")?;
                self.fpmath_accuracy_holds(operands[0])
            }
            b"!llvm.access.group" => self.access_group_holds(md),
            b"!memprof" => {
                check(
                    opcode.is_call(),
                    "!memprof metadata should only exist on calls",
                )?;
                self.memprof_holds(md)
            }
            b"!callsite" => {
                check(
                    opcode.is_call(),
                    "!callsite metadata should only exist on calls",
                )?;
                self.call_stack_holds(md)
            }
            b"!callee_type" => {
                check(
                    opcode.is_call(),
                    "!callee_type metadata should only exist on calls",
                )?;
                self.callee_types_hold(md)
            }
            b"!annotation" => {
                let operands = operands()?;
                check(
                    !operands.is_empty(),
                    "annotation must have at least one operand",
                )?;
                for &op in operands.iter() {
                    let tuple_of_strings = match op {
                        Some(MdRef::Node(id)) => match &self.body.md_node(self.m, id).body {
                            MdBody::Tuple(inner) => {
                                inner.iter().all(|o| matches!(o, Some(MdRef::Str(_))))
                            }
                            MdBody::Specialized(_) => false,
                            _ => return Err(Stop::Unknown),
                        },
                        _ => false,
                    };
                    check(
                        matches!(op, Some(MdRef::Str(_))) || tuple_of_strings,
                        "operands must be a string or a tuple of strings",
                    )?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// An `!llvm.access.group` attachment, as `Verifier::visitAccessGroupMetadata` checks it:
    /// an access group (a distinct empty node) or a list of them.
    fn access_group_holds(self, md: MdRef) -> Checked<()> {
        let is_group = |node: Node| Ok(self.is_distinct(node) && self.operands(node)?.is_empty());
        let MdRef::Node(id) = md else {
            return Err(Stop::Unknown);
        };
        if is_group(Node::Id(id))? {
            return Ok(());
        }
        for &op in self.operands(Node::Id(id))?.iter() {
            check(
                self.is_node(op)?,
                "Access scope list must consist of MDNodes",
            )?;
            let node = self.node(op)?.ok_or(Stop::Unknown)?;
            check(
                is_group(node)?,
                "Access scope list contains invalid access scope",
            )?;
        }
        Ok(())
    }

    /// A `!memprof` attachment, as `Verifier::visitMemProfMetadata` checks it: one or more
    /// MemInfoBlocks, each a call stack, a string and pairs of integers.
    fn memprof_holds(self, md: MdRef) -> Checked<()> {
        let blocks = self.operands_of(md)?;
        check(
            !blocks.is_empty(),
            "!memprof annotations should have at least 1 metadata operand (MemInfoBlock)",
        )?;
        for &block in blocks.iter() {
            let block = self.node(block)?.ok_or(Stop::Unknown)?;
            let operands = self.operands(block)?;
            check(
                operands.len() >= 2,
                "Each !memprof MemInfoBlock should have at least 2 operands",
            )?;
            check(
                operands[0].is_some(),
                "!memprof MemInfoBlock first operand should not be null",
            )?;
            check(
                self.is_node(operands[0])?,
                "!memprof MemInfoBlock first operand should be an MDNode",
            )?;
            self.call_stack_holds(operands[0].ok_or(Stop::Unknown)?)?;
            check(
                Nodes::is_string(operands[1])?,
                "!memprof MemInfoBlock second operand should be an MDString",
            )?;
            for &pair in &operands[2..] {
                check(
                    self.is_node(pair)?,
                    "Not all !memprof MemInfoBlock operands 2 to N are MDNode",
                )?;
                let pair = self.operands(self.node(pair)?.ok_or(Stop::Unknown)?)?;
                check(
                    pair.len() == 2,
                    "Not all !memprof MemInfoBlock operands 2 to N are MDNode with 2 operands",
                )?;
                let mut ints = true;
                for &op in pair.iter() {
                    ints &= self.int(op)?.is_some();
                }
                check(
                    ints,
                    "Not all !memprof MemInfoBlock operands 2 to N are MDNode with ConstantInt \
                     operands",
                )?;
            }
        }
        Ok(())
    }

    /// A call stack (`!callsite`, or a MemInfoBlock's first operand), as
    /// `Verifier::visitCallStackMetadata` checks it: one or more integers.
    fn call_stack_holds(self, md: MdRef) -> Checked<()> {
        let operands = self.operands_of(md)?;
        check(
            !operands.is_empty(),
            "call stack metadata should have at least 1 operand",
        )?;
        for &op in operands.iter() {
            check(
                self.int(op)?.is_some(),
                "call stack metadata operand should be constant integer",
            )?;
        }
        Ok(())
    }

    /// A `!callee_type` attachment, as `Verifier::visitCalleeTypeMetadata` checks it: a list
    /// of generalized type nodes, each `!{i64 0, !"<type>.generalized"}`.
    fn callee_types_hold(self, md: MdRef) -> Checked<()> {
        for &op in self.operands_of(md)?.iter() {
            check(
                self.is_node(op)?,
                "The callee_type metadata must be a list of type metadata nodes",
            )?;
            let ty = self.operands(self.node(op)?.ok_or(Stop::Unknown)?)?;
            check(
                ty.len() == 2,
                "Well-formed generalized type metadata must contain exactly two operands",
            )?;
            check(
                self.int(ty[0])?.is_some_and(|i| i.bits == 0),
                "The first operand of type metadata for functions must be zero",
            )?;
            let generalized = matches!(ty[1], Some(MdRef::Str(_)))
                && string_operand(self.m, ty[1]).is_some_and(|s| s.ends_with(b".generalized"));
            check(
                generalized,
                "Only generalized type metadata can be part of the callee_type metadata list",
            )?;
        }
        Ok(())
    }

    /// An `!mmra` attachment, as `Verifier::visitMMRAMetadata` checks it: a tag (a tuple of
    /// two strings) or a tuple of tags.
    fn mmra_holds(self, md: MdRef) -> Checked<()> {
        let MdRef::Node(id) = md else {
            return Err(Stop::Unknown);
        };
        let is_tag = |op: Option<MdRef>| -> Checked<bool> {
            let Some(MdRef::Node(id)) = op else {
                return Ok(false);
            };
            match &self.body.md_node(self.m, id).body {
                MdBody::Tuple(ops) => {
                    Ok(ops.len() == 2 && ops.iter().all(|o| matches!(o, Some(MdRef::Str(_)))))
                }
                MdBody::Specialized(_) => Ok(false),
                _ => Err(Stop::Unknown),
            }
        };
        if is_tag(Some(md))? {
            return Ok(());
        }
        let operands = match &self.body.md_node(self.m, id).body {
            MdBody::Tuple(operands) => operands,
            MdBody::Specialized(_) => {
                return Err(Stop::Fault("!mmra expected to be a metadata tuple"));
            }
            _ => return Err(Stop::Unknown),
        };
        for &op in operands.iter() {
            check(
                is_tag(op)?,
                "!mmra metadata tuple operand is not an MMRA tag",
            )?;
        }
        Ok(())
    }

    /// A `!captures` attachment on instruction `inst`, as `Verifier::visitCapturesMetadata`
    /// checks it: on a store of a pointer, a list of the names of the ways a pointer may be
    /// captured.
    fn captures_hold(self, inst: InstId, md: MdRef) -> Checked<()> {
        check(
            self.body.insts[inst].opcode == Opcode::Store,
            "!captures metadata can only be applied to store instructions",
        )?;
        let stored = self.body.items(inst).iter().find_map(|item| match item {
            Item::Type(ty) => Some(*ty),
            _ => None,
        });
        let stored = stored.ok_or(Stop::Unknown)?;
        check(
            matches!(
                self.body.ty(self.m, self.body.resolve_ty(self.m, stored)),
                Type::Ptr(_)
            ),
            "!captures metadata can only be applied to store with value operand of pointer type",
        )?;
        let operands = self.operands_of(md)?;
        check(!operands.is_empty(), "!captures metadata cannot be empty")?;
        for &op in operands.iter() {
            let name = match op {
                Some(MdRef::Str(_)) => string_operand(self.m, op).ok_or(Stop::Unknown)?,
                _ => return Err(Stop::Fault("!captures metadata must be a list of strings")),
            };
            check(
                matches!(
                    &name[..],
                    b"address_is_null" | b"address" | b"read_provenance" | b"provenance"
                ),
                "invalid entry in !captures metadata",
            )?;
        }
        Ok(())
    }

    /// A `!prof` attachment on instruction `inst`, as `Verifier::visitProfMetadata` checks
    /// it: a name, then `branch_weights` (after an optional origin string, an integer for each
    /// way the instruction may go), `VP` (a kind of value profile, then pairs) or `unknown`
    /// (the name of the pass that dropped the weights).
    fn prof_holds(self, inst: InstId, md: MdRef) -> Checked<()> {
        let operands = self.operands_of(md)?;
        check(
            !operands.is_empty(),
            "!prof annotations should have at least 1 operand",
        )?;
        check(operands[0].is_some(), "first operand should not be null")?;
        let Some(MdRef::Str(name)) = operands[0] else {
            return Err(Stop::Fault(
                "expected string with name of the !prof annotation",
            ));
        };
        let opcode = self.body.insts[inst].opcode;
        let is_call = matches!(opcode, Opcode::Call | Opcode::Invoke | Opcode::CallBr);
        // The ways the instruction may go, as the weights count them (none: it takes none).
        let items = self.body.items(inst);
        let count = |wanted: fn(&Item) -> bool| items.iter().filter(|&it| wanted(it)).count();
        let ways = match opcode {
            Opcode::Br if count(|it| matches!(it, Item::Type(_))) > 0 => 2,
            Opcode::Br | Opcode::Call => 1,
            Opcode::Select => 2,
            // The condition's type, then each case's.
            Opcode::Switch => count(|it| matches!(it, Item::Type(_))),
            // The labels after the address.
            Opcode::IndirectBr => count(|it| matches!(it, Item::Value(_))).saturating_sub(1),
            // Its successors are found among its operand bundles' brackets: not counted.
            Opcode::CallBr => return Err(Stop::Unknown),
            _ => 0,
        };
        let string = |op: Option<MdRef>| string_operand(self.m, op);
        let name = string(Some(MdRef::Str(name))).ok_or(Stop::Unknown)?;
        if &name[..] == b"unknown" {
            check(
                ways != 0 || is_call,
                "'unknown' !prof should only appear on instructions on which 'branch_weights' \
                 would",
            )?;
            check(
                operands.len() == 2,
                "'unknown' !prof should have a single additional operand",
            )?;
            return unknown_profile_holds(self.m, operands[1]).map_err(Stop::Fault);
        }
        check(
            operands.len() >= 2,
            "!prof annotations should have no less than 2 operands",
        )?;
        match &name[..] {
            b"branch_weights" => {
                // A string after the name says where the weights come from.
                let first = 1 + usize::from(matches!(operands[1], Some(MdRef::Str(_))));
                let weights = operands.len().saturating_sub(first);
                if opcode == Opcode::Invoke {
                    check(
                        matches!(weights, 1 | 2),
                        "Wrong number of InvokeInst branch_weights operands",
                    )?;
                } else {
                    check(
                        ways != 0,
                        "!prof branch_weights are not allowed for this instruction",
                    )?;
                    check(weights == ways, "Wrong number of operands")?;
                }
                for &weight in &operands[first..] {
                    check(weight.is_some(), "second operand should not be null")?;
                    check(
                        self.int(weight)?.is_some(),
                        "!prof brunch_weights operand is not a const int",
                    )?;
                }
                Ok(())
            }
            b"VP" => {
                check(operands.len() >= 5, "invalid value profiling metadata")?;
                let kind = self.int(operands[1])?;
                let kind = kind.ok_or(Stop::Fault("VP !prof missing kind argument"))?;
                // Indirect call targets (0), memory operation sizes (1), virtual table
                // targets (2).
                check(kind.bits <= 2, "Invalid VP !prof kind")?;
                check(
                    operands.len() % 2 == 1,
                    "VP !prof should have an even number of arguments after 'VP'",
                )?;
                check(
                    kind.bits == 2 || is_call,
                    "VP !prof indirect call or memop size expected to be applied to CallBase \
                     instructions only",
                )
            }
            _ => Err(Stop::Fault(
                "expected either branch_weights or VP profile name",
            )),
        }
    }

    /// `ty`, or the type of its elements when it is a vector (LLVM's `getScalarType`).
    fn scalar(self, ty: &'a Type) -> &'a Type {
        match ty {
            Type::Vector { elem, .. } => self.body.ty(self.m, *elem),
            ty => ty,
        }
    }

    /// The pairs of a `!range` node on an instruction whose result has type `ty` (or of
    /// another `kind` of list of ranges), as `verifyRangeLikeMetadata` checks them: integers
    /// of the result's (scalar) type (`i32` for address spaces), each pair a range neither
    /// empty nor full (an absolute symbol's may be full), the ranges in order (by their
    /// signed lower bounds), apart and not touching, the last not wrapping round onto the
    /// first.
    fn ranges_hold(self, operands: &[Option<MdRef>], ty: &Type, kind: Ranges) -> Checked<()> {
        check(operands.len() % 2 == 0, "Unfinished range!")?;
        check(!operands.is_empty(), "It should have at least one range!")?;
        let scalar = self.scalar(ty);
        let mut ranges: Vec<(Int, Int)> = Vec::with_capacity(operands.len() / 2);
        for pair in operands.chunks(2) {
            let low = self.int(pair[0])?;
            let low = low.ok_or(Stop::Fault("The lower limit must be an integer!"))?;
            let high = self.int(pair[1])?;
            let high = high.ok_or(Stop::Fault("The upper limit must be an integer!"))?;
            check(high.width == low.width, "Range pair types must match!")?;
            match kind {
                Ranges::AddressSpaces => {
                    check(high.width == 32, "noalias.addrspace type must be i32!")?
                }
                _ => check(
                    *scalar == Type::Int(high.width),
                    "Range types must match instruction type!",
                )?,
            }
            let max = Int::mask(low.width);
            check(
                low.bits != high.bits || low.bits == 0 || low.bits == max,
                "The upper and lower limits cannot be the same value",
            )?;
            let full = low.bits == max;
            check(
                low.bits != high.bits || full && kind == Ranges::AbsoluteSymbol,
                "Range must not be empty!",
            )?;
            if let Some(&last) = ranges.last() {
                check(disjoint(low, high, last), "Intervals are overlapping")?;
                check(low.signed() > last.0.signed(), "Intervals are not in order")?;
                check(!touching((low, high), last), "Intervals are contiguous")?;
            }
            ranges.push((low, high));
        }
        if let [first, _, .., last] = ranges[..] {
            check(
                disjoint(first.0, first.1, last),
                "Intervals are overlapping",
            )?;
            check(!touching(first, last), "Intervals are contiguous")?;
        }
        Ok(())
    }

    /// The accuracy an `!fpmath` node gives: a positive, finite `float`.
    fn fpmath_accuracy_holds(self, op: Option<MdRef>) -> Checked<()> {
        let Some(MdRef::Value(ty, value)) = op else {
            return Err(Stop::Fault("invalid fpmath accuracy!"));
        };
        let constant = match value.kind() {
            ValueKind::Const(c) => self.body.constant(self.m, c),
            _ => return Err(Stop::Fault("invalid fpmath accuracy!")),
        };
        let Const::Float(literal) = constant else {
            return match constant {
                Const::Expr(_) => Err(Stop::Unknown),
                _ => Err(Stop::Fault("invalid fpmath accuracy!")),
            };
        };
        check(
            matches!(
                self.body.ty(self.m, ty),
                Type::Float(crate::model::FloatKind::Float)
            ),
            "fpmath accuracy must have float type",
        )?;
        let value = float_value(self.m.bytes(*literal)).ok_or(Stop::Unknown)?;
        check(
            value.is_finite() && value > 0.0,
            "fpmath accuracy not a positive number!",
        )
    }

    /// A list of alias scopes, as `visitAliasScopeListMetadata` checks it: a list of scopes,
    /// each a node of two or three operands (itself or a string, its domain, a string), each
    /// domain a node of one or two (itself or a string, a string). A scope or domain that is
    /// a specialized node is not looked into.
    fn scope_list_holds(self, list: MdRef) -> Result<(), &'static str> {
        let Some(scopes) = (match list {
            MdRef::Node(id) => self.operands(Node::Id(id)).ok(),
            _ => None,
        }) else {
            return Ok(());
        };
        for scope in scopes.iter() {
            let &Some(MdRef::Node(scope)) = scope else {
                return Err("scope list must consist of MDNodes");
            };
            let Some(operands) = self.operands(Node::Id(scope)).ok() else {
                continue;
            };
            let scope_faults = [
                "scope must have two or three operands",
                "first scope operand must be self-referential or string",
                "third scope operand must be string (if used)",
            ];
            named_node_holds(scope, &operands, 2, scope_faults)?;
            let Some(MdRef::Node(domain)) = operands[1] else {
                return Err("second scope operand must be MDNode");
            };
            let Some(operands) = self.operands(Node::Id(domain)).ok() else {
                continue;
            };
            let domain_faults = [
                "domain must have one or two operands",
                "first domain operand must be self-referential or string",
                "second domain operand must be string (if used)",
            ];
            named_node_holds(domain, &operands, 1, domain_faults)?;
        }
        Ok(())
    }

    /// The argument of `llvm.experimental.noalias.scope.decl`: a list of exactly one scope.
    fn declared_scope_holds(self, list: Option<MdRef>) -> Result<(), &'static str> {
        let Some(MdRef::Node(id)) = list else {
            return Err("!id.scope.list must point to an MDNode");
        };
        match self.operands(Node::Id(id)).ok() {
            Some(scopes) if scopes.len() != 1 => {
                Err("!id.scope.list must point to a list with a single scope")
            }
            _ => self.scope_list_holds(MdRef::Node(id)),
        }
    }

    /// A `!tbaa` tag of an instruction of `opcode`, as `TBAAVerifier::visitTBAAMetadata`
    /// checks it once LLVM's parser has upgraded it.
    fn tbaa_tag_holds(
        self,
        opcode: Opcode,
        tag: MdRef,
        valid: &mut ValidTags,
    ) -> Result<(), &'static str> {
        let MdRef::Node(tag) = tag else {
            return Ok(());
        };
        let accesses_memory = matches!(
            opcode,
            Opcode::Load
                | Opcode::Store
                | Opcode::Call
                | Opcode::VaArg
                | Opcode::AtomicRmw
                | Opcode::AtomicCmpXchg
        );
        if valid.tags.contains(&tag) {
            return match accesses_memory {
                true => Ok(()),
                false => Err(NOT_AN_ACCESS),
            };
        }
        match self.tbaa_tag(accesses_memory, tag, valid) {
            Ok(()) => {
                if self.is_module_node(tag) {
                    valid.tags.insert(tag);
                }
                Ok(())
            }
            Err(Stop::Unknown) => Ok(()),
            Err(Stop::Fault(message)) => Err(message),
        }
    }

    /// Tag `id`, carried by an instruction that accesses memory or not.
    fn tbaa_tag(self, accesses_memory: bool, id: MdId, valid: &mut ValidTags) -> Checked<()> {
        let ops = self.operands(Node::Id(id))?;
        check(!ops.is_empty(), "TBAA metadata cannot have 0 operands")?;
        let struct_path = self.is_node(ops[0])? && ops.len() >= 3;
        check(accesses_memory, NOT_AN_ACCESS)?;
        let zero = Some(Int { width: 64, bits: 0 });
        let tag = if !struct_path && ops.len() == 3 {
            // An old scalar tag `!{name, parent, flag}` becomes `!{S, S, i64 0, flag}`, where
            // S is `!{name, parent}`.
            let scalar = Some(Node::Upgraded([ops[0], ops[1]]));
            Tag {
                base: scalar,
                access: scalar,
                offset: zero,
                immutability: Some(ops[2]),
                new_format: false,
            }
        } else if !struct_path {
            // Any other becomes `!{T, T, i64 0}`, where T is the tag.
            Tag {
                base: Some(Node::Id(id)),
                access: Some(Node::Id(id)),
                offset: zero,
                immutability: None,
                new_format: false,
            }
        } else {
            self.struct_path_tag(&ops)?
        };
        self.tag_holds(tag, valid)
    }

    /// A tag as written, `!{base, access, offset[, size], flag]}`: the checks of its number
    /// of operands and of its access size.
    fn struct_path_tag(self, ops: &[Option<MdRef>]) -> Checked<Tag> {
        let access = self.node(ops[1])?;
        let new_format = match access {
            Some(access) => {
                let access_ops = self.operands(access)?;
                access_ops.len() >= 3 && self.node(access_ops[0])?.is_some()
            }
            None => false,
        };
        if new_format {
            check(
                ops.len() == 4 || ops.len() == 5,
                "Access tag metadata must have either 4 or 5 operands",
            )?;
            check(
                self.int(ops[3])?.is_some(),
                "Access size field must be a constant",
            )?;
        } else {
            check(
                ops.len() < 5,
                "Struct tag metadata must have either 3 or 4 operands",
            )?;
        }
        let flag_at = if new_format { 4 } else { 3 };
        Ok(Tag {
            base: self.node(ops[0])?,
            access,
            offset: self.int(ops[2])?,
            immutability: (ops.len() == flag_at + 1).then(|| ops[flag_at]),
            new_format,
        })
    }

    fn tag_holds(self, tag: Tag, valid: &mut ValidTags) -> Checked<()> {
        if let Some(flag) = tag.immutability {
            let Some(flag) = self.int(flag)? else {
                return Err(Stop::Fault(
                    "Immutability tag on struct tag metadata must be a constant",
                ));
            };
            check(
                flag.bits <= 1,
                "Immutability part of the struct tag metadata must be either 0 or 1",
            )?;
        }
        let (Some(base), Some(access)) = (tag.base, tag.access) else {
            return Err(Stop::Fault(
                "Malformed struct tag metadata: base and access-type should be non-null and \
                 point to Metadata nodes",
            ));
        };
        if !tag.new_format {
            check(
                self.is_scalar(access, valid)?,
                "Access type node must be a valid scalar type",
            )?;
        }
        let Some(offset) = tag.offset else {
            return Err(Stop::Fault("Offset must be constant integer"));
        };
        self.access_path_holds(base, access, offset, tag.new_format, valid)
    }

    /// The walk from the tag's base type down to its access type, field by field at the
    /// tag's offset.
    fn access_path_holds(
        self,
        base: Node,
        access: Node,
        mut offset: Int,
        new_format: bool,
        valid: &mut ValidTags,
    ) -> Checked<()> {
        let mut path: Vec<Node> = Vec::new();
        let mut seen_access = false;
        let mut next = Some(base);
        while let Some(base) = next {
            if self.operands(base)?.len() < 2 {
                // A root.
                break;
            }
            check(
                !self.is_one_of(base, &path)?,
                "Cycle detected in struct path",
            )?;
            path.push(base);
            let Some(BaseType { width, offsets }) =
                self.cached_base_node(base, new_format, valid)?
            else {
                // Invalid, yet without a message from LLVM: the walk ends there.
                return Ok(());
            };
            let is_access = self.same(base, access)?;
            seen_access |= is_access;
            if is_access || self.is_scalar(base, valid)? {
                check(
                    offset.bits == 0,
                    "Offset not zero at the point of scalar access",
                )?;
            }
            check(
                width == offset.width
                    || (width == 0 && offset.bits == 0)
                    || (new_format && width == u32::MAX),
                "Access bit-width not the same as description bit-width",
            )?;
            if new_format && seen_access {
                break;
            }
            next = self.field(base, &offsets, &mut offset, new_format)?;
        }
        check(seen_access, "Did not see access type in access path!")
    }

    fn cached_base_node(
        self,
        node: Node,
        new_format: bool,
        valid: &mut ValidTags,
    ) -> Checked<Option<BaseType>> {
        let Node::Id(id) = node else {
            return self.base_node(node, new_format, valid);
        };
        if let Some(answer) = valid.bases.get(&(id, new_format)) {
            return Ok(answer.clone());
        }
        let answer = self.base_node(node, new_format, valid)?;
        if self.is_module_node(id) {
            valid.bases.insert((id, new_format), answer.clone());
        }
        Ok(answer)
    }

    /// A base type node, as `verifyTBAABaseNodeImpl` checks it, or `None` for a node of two
    /// operands that is no scalar type, which LLVM leaves without a message. (LLVM keeps its first
    /// answer for a node, whichever format the tag that asked had: a node walked in both
    /// formats, in a module mixing old and new tags as no compiler writes them, may be
    /// answered otherwise here.)
    fn base_node(
        self,
        node: Node,
        new_format: bool,
        valid: &mut ValidTags,
    ) -> Checked<Option<BaseType>> {
        let ops = self.operands(node)?;
        if ops.len() == 2 {
            return Ok(self.is_scalar(node, valid)?.then(|| BaseType {
                width: 0,
                offsets: Rc::new([]),
            }));
        }
        if new_format {
            check(
                ops.len() % 3 == 0,
                "Access tag nodes must have the number of operands that is a multiple of 3!",
            )?;
            check(
                self.int(ops[1])?.is_some(),
                "Type size nodes must be constants!",
            )?;
        } else {
            check(
                ops.len() % 2 == 1,
                "Struct tag nodes must have an odd number of operands!",
            )?;
            check(
                Self::is_string(ops[0])?,
                "Struct tag nodes have a string as their first operand",
            )?;
        }
        let (first, step) = if new_format { (3, 3) } else { (1, 2) };
        let mut width = u32::MAX;
        let mut offsets: Vec<u128> = Vec::with_capacity(ops.len() / step);
        for field in (first..ops.len()).step_by(step) {
            check(
                self.is_node(ops[field])?,
                "Incorrect field entry in struct type node!",
            )?;
            let Some(offset) = self.int(ops[field + 1])? else {
                return Err(Stop::Fault("Offset entries must be constants!"));
            };
            if width == u32::MAX {
                width = offset.width;
            }
            check(
                offset.width == width,
                "Bitwidth between the offsets and struct type entries must match",
            )?;
            check(
                offsets.last().is_none_or(|&p| p <= offset.bits),
                "Offsets must be increasing!",
            )?;
            offsets.push(offset.bits);
            if new_format {
                check(
                    self.int(ops[field + 2])?.is_some(),
                    "Member size entries must be constants!",
                )?;
            }
        }
        Ok(Some(BaseType {
            width,
            offsets: offsets.into(),
        }))
    }

    /// Whether a node is a scalar type node: a name, a parent and optionally a zero offset,
    /// its parents leading to a root without a cycle (`IsScalarTBAANodeImpl`).
    fn is_scalar(self, node: Node, valid: &mut ValidTags) -> Checked<bool> {
        let Node::Id(id) = node else {
            return self.scalar_chain_holds(node);
        };
        if let Some(&answer) = valid.scalars.get(&id) {
            return Ok(answer);
        }
        let answer = self.scalar_chain_holds(node)?;
        if self.is_module_node(id) {
            valid.scalars.insert(id, answer);
        }
        Ok(answer)
    }

    fn scalar_chain_holds(self, node: Node) -> Checked<bool> {
        let mut visited: Vec<Node> = Vec::new();
        let mut node = node;
        loop {
            let ops = self.operands(node)?;
            if !(2..=3).contains(&ops.len()) || !Self::is_string(ops[0])? {
                return Ok(false);
            }
            if ops.len() == 3 {
                if ops[2].is_none() {
                    return Err(Stop::Unknown);
                }
                if self.int(ops[2])?.is_none_or(|o| o.bits != 0) {
                    return Ok(false);
                }
            }
            let Some(parent) = self.node(ops[1])? else {
                return Ok(false);
            };
            if self.is_one_of(parent, &visited)? {
                return Ok(false);
            }
            visited.push(parent);
            if self.operands(parent)?.len() < 2 {
                return Ok(true);
            }
            node = parent;
        }
    }

    /// The field of base type `node` (whose fields' offsets are `offsets`) that `offset`
    /// falls in, `offset` made relative to it (`getFieldNodeFromTBAABaseNode`): the last
    /// field that starts at or before it. `node` is a valid base type.
    fn field(
        self,
        node: Node,
        offsets: &[u128],
        offset: &mut Int,
        new_format: bool,
    ) -> Checked<Option<Node>> {
        let ops = self.operands(node)?;
        if ops.len() == 2 {
            return self.node(ops[1]);
        }
        let (first, step) = if new_format { (3, 3) } else { (1, 2) };
        if offsets.is_empty() {
            // A type node of the new format without fields: up to its parent, less its size.
            *offset = offset.minus(self.int(ops[1])?.ok_or(Stop::Unknown)?)?;
            return match self.node(ops[0])? {
                Some(parent) => Ok(Some(parent)),
                None => Err(Stop::Unknown),
            };
        }
        let after = offsets.partition_point(|&start| start <= offset.bits);
        check(after > 0, "Could not find TBAA parent in struct type node")?;
        let start = Int {
            width: offset.width,
            bits: offsets[after - 1],
        };
        *offset = offset.minus(start)?;
        self.node(ops[first + (after - 1) * step])
    }
}

/// A scope's or a domain's operands, node `id`'s: `required` of them or one more, the first
/// the node itself or a string (its name), the one more a string; else the fault among
/// `faults` (for the count, the first, the one more).
fn named_node_holds(
    id: MdId,
    operands: &[Option<MdRef>],
    required: usize,
    faults: [&'static str; 3],
) -> Result<(), &'static str> {
    let is_string = |op: &Option<MdRef>| matches!(op, Some(MdRef::Str(_)));
    if !(required..=required + 1).contains(&operands.len()) {
        return Err(faults[0]);
    }
    if !(operands[0] == Some(MdRef::Node(id)) || is_string(&operands[0])) {
        return Err(faults[1]);
    }
    match operands.get(required) {
        Some(extra) if !is_string(extra) => Err(faults[2]),
        _ => Ok(()),
    }
}

/// What LLVM's verifier refuses in the nodes an attachment reaches (`visitMDNode` walks every
/// node an attachment or a named node reaches): a tuple holding a `!DILocation` where the
/// walk began at an attachment other than `!dbg` or `!llvm.loop`, and a tuple starting
/// `!"llvm.loop.estimated_trip_count"` without exactly one integer constant of 32 bits or
/// fewer after it. Found once for the module's nodes, before the bodies: by node, what the
/// tuples it reaches through tuples hold (nodes of debug information are not walked
/// through). LLVM visits a node once, from where its walk meets it first: a node a loop's
/// own node (distinct, naming itself first) reaches is taken as met from its `!llvm.loop`,
/// where a location is allowed (the walk from named metadata comes after the functions').
#[derive(Clone, Debug, Default)]
pub struct NodesReached {
    /// Empty when no node of the module holds either.
    flags: Vec<u8>,
}

/// Reaches a tuple holding a `!DILocation` (see [`NodesReached`]).
const LOCATION_INSIDE: u8 = 1;
/// Reaches an `llvm.loop.estimated_trip_count` tuple LLVM refuses.
const TRIP_COUNT_REFUSED: u8 = 2;

const LOCATION_NOT_ALLOWED: &str = "DILocation not allowed within this metadata node";

impl NodesReached {
    pub(super) fn of(m: &Module) -> NodesReached {
        let module = module_view(m);
        let mut flags = vec![0u8; m.metadata.len()];
        for (id, node) in m.metadata.iter() {
            if let MdBody::Tuple(operands) = &node.body {
                flags[id.index()] = tuple_flags_in(m, &module, operands);
            }
        }
        let tuple_operands = |id: MdId| match &m.metadata[id].body {
            MdBody::Tuple(operands) => &operands[..],
            _ => &[],
        };
        let node_operands = |id: MdId| {
            tuple_operands(id).iter().filter_map(|op| match op {
                Some(MdRef::Node(n)) if n.index() < m.metadata.len() => Some(*n),
                _ => None,
            })
        };
        if flags.iter().any(|f| f & LOCATION_INSIDE != 0) {
            let loops = m.metadata.iter().filter(|(id, node)| {
                node.distinct
                    && matches!(tuple_operands(*id).first(), Some(Some(MdRef::Node(n))) if n == id)
            });
            let mut stack: Vec<MdId> = loops.map(|(id, _)| id).collect();
            let mut met = vec![false; m.metadata.len()];
            while let Some(id) = stack.pop() {
                if std::mem::replace(&mut met[id.index()], true) {
                    continue;
                }
                flags[id.index()] &= !LOCATION_INSIDE;
                stack.extend(node_operands(id));
            }
        }
        if flags.iter().all(|&f| f == 0) {
            return NodesReached::default();
        }
        // Up from the tuples that hold something, along the edges reversed.
        let mut parents: Vec<Vec<MdId>> = vec![Vec::new(); m.metadata.len()];
        for (id, _) in m.metadata.iter() {
            for op in node_operands(id) {
                parents[op.index()].push(id);
            }
        }
        let mut work: Vec<MdId> = (0..flags.len())
            .filter(|&i| flags[i] != 0)
            .map(MdId::new)
            .collect();
        while let Some(id) = work.pop() {
            let reached = flags[id.index()];
            for &parent in &parents[id.index()] {
                if reached & !flags[parent.index()] != 0 {
                    flags[parent.index()] |= reached;
                    work.push(parent);
                }
            }
        }
        NodesReached { flags }
    }

    /// What the walk from `md`, a body's attachment or operand, reaches.
    fn from(&self, m: &Module, body: &Body, md: MdRef, depth: u32) -> u8 {
        let MdRef::Node(id) = md else {
            return 0;
        };
        if id.index() < body.base.metadata as usize {
            return self.flags.get(id.index()).copied().unwrap_or(0);
        }
        if depth == 0 {
            return 0;
        }
        // A node of the body's own (written in place), whose operands may be the module's.
        match &body.md_node(m, id).body {
            MdBody::Tuple(operands) => operands
                .iter()
                .flatten()
                .fold(tuple_flags_in(m, body, operands), |flags, &op| {
                    flags | self.from(m, body, op, depth - 1)
                }),
            _ => 0,
        }
    }

    /// LLVM's message for what an attachment of `kind` reaches, if it refuses it.
    pub(super) fn attachment_refused(
        &self,
        m: &Module,
        body: &Body,
        kind: &[u8],
        md: MdRef,
    ) -> Option<&'static str> {
        if self.flags.is_empty() && names_a_module_node(body, md) {
            return None;
        }
        let reached = self.from(m, body, md, SAME_DEPTH);
        let locations_allowed = matches!(kind, b"!dbg" | b"!llvm.loop");
        refusal(m, body, md, reached, locations_allowed)
    }

    /// LLVM's message for what a node named at the top level (by named metadata or a
    /// function's attachment) reaches, if it refuses it.
    pub(super) fn top_level_refused(
        &self,
        m: &Module,
        id: MdId,
        locations_allowed: bool,
    ) -> Option<&'static str> {
        let reached = self.flags.get(id.index()).copied().unwrap_or(0);
        if reached == 0 {
            return None;
        }
        refusal(
            m,
            &module_view(m),
            MdRef::Node(id),
            reached,
            locations_allowed,
        )
    }
}

/// LLVM's message for a walk from `md` that `reached` what it refuses, if it does.
fn refusal(
    m: &Module,
    body: &Body,
    md: MdRef,
    reached: u8,
    locations_allowed: bool,
) -> Option<&'static str> {
    if reached & TRIP_COUNT_REFUSED != 0 {
        return first_trip_count_refused(m, body, md);
    }
    (reached & LOCATION_INSIDE != 0 && !locations_allowed).then_some(LOCATION_NOT_ALLOWED)
}

/// Whether `md` is no node of the body's own (written in place in it).
fn names_a_module_node(body: &Body, md: MdRef) -> bool {
    !matches!(md, MdRef::Node(id) if id.index() >= body.base.metadata as usize)
}

/// A body of none of its own: its ids all name the module's.
fn module_view(m: &Module) -> Body {
    Body {
        base: crate::model::ArenaBase::of(m),
        ..Body::default()
    }
}

/// What a tuple holds itself (see [`NodesReached`]).
fn tuple_flags_in(m: &Module, body: &Body, operands: &[Option<MdRef>]) -> u8 {
    let location = operands.iter().any(|op| match op {
        Some(MdRef::Node(n)) => match &body.md_node(m, *n).body {
            MdBody::Specialized(name) => m.bytes(*name) == b"!DILocation",
            _ => false,
        },
        _ => false,
    });
    let trip_count = trip_count_refused(m, body, operands).is_some();
    (location as u8 * LOCATION_INSIDE) | (trip_count as u8 * TRIP_COUNT_REFUSED)
}

/// LLVM's message for an `llvm.loop.estimated_trip_count` tuple it refuses.
fn trip_count_refused(m: &Module, body: &Body, operands: &[Option<MdRef>]) -> Option<&'static str> {
    let first = string_operand(m, *operands.first()?)?;
    if *first != *b"llvm.loop.estimated_trip_count" {
        return None;
    }
    if operands.len() != 2 {
        return Some("Expected two operands");
    }
    let small_int = match operands[1] {
        Some(MdRef::Value(ty, value)) => {
            !matches!(value.kind(), ValueKind::Local(_))
                && matches!(body.ty(m, ty), Type::Int(width) if *width <= 32)
        }
        _ => false,
    };
    (!small_int)
        .then_some("Expected second operand to be an integer constant of type i32 or smaller")
}

/// The message of the first refused `llvm.loop.estimated_trip_count` tuple a walk from `md`
/// meets, as LLVM's: depth first, a tuple's operands before the tuple itself.
fn first_trip_count_refused(m: &Module, body: &Body, md: MdRef) -> Option<&'static str> {
    first_trip_count_refused_below(m, body, md, &mut FxHashSet::default(), TRIP_COUNT_DEPTH)
}

/// How deep [`first_trip_count_refused`] looks: far past the nesting of loop properties.
const TRIP_COUNT_DEPTH: u32 = 1000;

fn first_trip_count_refused_below(
    m: &Module,
    body: &Body,
    md: MdRef,
    met: &mut FxHashSet<MdId>,
    depth: u32,
) -> Option<&'static str> {
    let MdRef::Node(id) = md else {
        return None;
    };
    if depth == 0 || !met.insert(id) {
        return None;
    }
    let MdBody::Tuple(operands) = &body.md_node(m, id).body else {
        return None;
    };
    operands
        .iter()
        .flatten()
        .find_map(|&op| first_trip_count_refused_below(m, body, op, met, depth - 1))
        .or_else(|| trip_count_refused(m, body, operands))
}
