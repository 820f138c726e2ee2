//! What LLVM 22's verifier refuses in the debug-information types and subranges named by the
//! module's own named metadata (`Verifier::visitDIDerivedType`, `visitDICompositeType`,
//! `visitDISubrange`, `visitDIGenericSubrange`).
//!
//! LLVM's parser keeps debug information only when the module says it is of the version it
//! reads (`"Debug Info Version"` 3) and its verifier finds nothing wrong in it; otherwise it
//! drops it (`UpgradeDebugInfo`: `!dbg` attachments, debug records, `!llvm.dbg.*`), with a
//! warning when the version was right. A node its verifier refuses makes the module broken
//! only when something that is not debug information still names it, so the nodes checked
//! here are those reached from named metadata other than `!llvm.dbg.*` and `!llvm.gcov`,
//! through their operands. What a check needs and this does not model (a tag or flag written
//! as a number, a node written inside a field) is taken as valid: mergefn must read whatever
//! `opt-22` reads.

use super::debug_info::words::{DW_ATE, DW_ATE_VALUE, DW_OP, DW_OP_VALUE};
use super::verify_module::Refusal;
use crate::model::{MdBody, MdId, MdRef, Module, Span};
use rustc_hash::FxHashSet;

/// The first node reached from the named metadata that keeps it whose fields LLVM's
/// verifier refuses, with LLVM's message.
pub(super) fn debug_info_holds(m: &Module) -> Result<(), Refusal> {
    // Visited as LLVM's verifier visits them: each named node in order, a node before its
    // operands.
    let mut stack: Vec<MdId> = m
        .named_metadata
        .iter()
        .filter(|named| {
            let name = m.bytes(named.name);
            !name.starts_with(b"!llvm.dbg.") && name != b"!llvm.gcov"
        })
        .flat_map(|named| named.nodes.iter().copied())
        .collect();
    stack.reverse();
    let mut seen: FxHashSet<MdId> = FxHashSet::default();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let node = &m.metadata[id];
        match &node.body {
            MdBody::Tuple(operands) => {
                stack.extend(operands.iter().rev().filter_map(|op| match op {
                    Some(MdRef::Node(n)) => Some(*n),
                    _ => None,
                }))
            }
            &MdBody::Specialized(name) => {
                let node = Node::read(m, name);
                if let Some(message) = node.refusal() {
                    return Err((m.metadata[id].span, message.into()));
                }
                stack.extend(node.fields.iter().rev().filter_map(|f| match f.value {
                    Operand::Node(n, _) => Some(n),
                    _ => None,
                }));
            }
            MdBody::ArgList(_) | MdBody::Pending => {}
        }
    }
    Ok(())
}

/// What a field's value is, as far as these checks ask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Operand<'m> {
    Null,
    /// `!N`: the node and what it is.
    Node(MdId, Kind<'m>),
    /// `!"text"`.
    Str,
    /// A constant: an integer, or a typed value (`i64 0`).
    Constant,
    /// Anything else (a node written in the field, such as `!DIExpression(...)`, whose kind
    /// is given).
    Inline(Kind<'m>),
}

/// A node's kind: `DIBasicType` for `!DIBasicType(...)`; a tuple (`!{...}`) with its
/// operands; or one this does not tell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind<'m> {
    Specialized(&'m [u8]),
    Tuple(Option<&'m [Option<MdRef>]>),
    Unknown,
}

impl Kind<'_> {
    fn is_type(self) -> bool {
        matches!(
            self,
            Kind::Specialized(
                b"DIBasicType"
                    | b"DIFixedPointType"
                    | b"DIStringType"
                    | b"DIDerivedType"
                    | b"DISubrangeType"
                    | b"DICompositeType"
                    | b"DISubroutineType"
            )
        )
    }

    fn is_variable_or_expression(self) -> bool {
        matches!(
            self,
            Kind::Specialized(b"DILocalVariable" | b"DIGlobalVariable" | b"DIExpression")
        )
    }
}

impl Operand<'_> {
    /// LLVM's `isType`: null or a type; `None` when this cannot tell.
    fn is_type(self) -> Option<bool> {
        match self {
            Operand::Null => Some(true),
            Operand::Str | Operand::Constant => Some(false),
            Operand::Node(_, Kind::Unknown) | Operand::Inline(Kind::Unknown) => None,
            Operand::Node(_, kind) | Operand::Inline(kind) => Some(kind.is_type()),
        }
    }

    /// A bound of a subrange: a variable or an expression, or (`constant_too`) a constant;
    /// `None` when this cannot tell.
    fn is_bound(self, constant_too: bool) -> Option<bool> {
        match self {
            Operand::Null => Some(true),
            Operand::Constant => Some(constant_too),
            Operand::Str => Some(false),
            Operand::Node(_, Kind::Unknown) | Operand::Inline(Kind::Unknown) => None,
            Operand::Node(_, kind) | Operand::Inline(kind) => {
                Some(kind.is_variable_or_expression())
            }
        }
    }

    fn is_null(self) -> bool {
        self == Operand::Null
    }
}

/// A specialized node's kind and fields.
struct Node<'m> {
    m: &'m Module,
    kind: &'m [u8],
    fields: Vec<Field<'m>>,
}

/// A field: its label (without the colon), its value's text, and what that value is.
struct Field<'m> {
    label: &'m [u8],
    text: &'m [u8],
    value: Operand<'m>,
}

impl<'m> Node<'m> {
    fn read(m: &'m Module, name: Span) -> Node<'m> {
        let fields = m
            .md_fields(name)
            .into_iter()
            .map(|(label, value)| {
                let label = m.bytes(label);
                let text = m.bytes(value);
                Field {
                    label: label.strip_suffix(b":").unwrap_or(label),
                    text,
                    value: operand(m, text),
                }
            })
            .collect();
        Node {
            m,
            kind: &m.bytes(name)[1..],
            fields,
        }
    }

    fn find(&self, label: &str) -> Option<&Field<'m>> {
        self.fields.iter().find(|f| f.label == label.as_bytes())
    }

    fn field(&self, label: &str) -> Option<Operand<'m>> {
        self.find(label).map(|f| f.value)
    }

    /// A field written and not `null`.
    fn has(&self, label: &str) -> bool {
        self.field(label).is_some_and(|v| !v.is_null())
    }

    /// The text of a field's value.
    fn text(&self, label: &str) -> Option<&'m [u8]> {
        self.find(label).map(|f| f.text)
    }

    /// The tag, when written as a word.
    fn tag(&self) -> Option<&'m [u8]> {
        let tag = self.text("tag")?;
        tag.starts_with(b"DW_TAG_").then_some(tag)
    }

    /// The flags, when every part is a word LLVM 22 knows or a number.
    fn flags(&self) -> Option<u64> {
        let Some(text) = self.text("flags") else {
            return Some(0);
        };
        text.split(|&b| b == b'|').try_fold(0, |flags, part| {
            let part = part.trim_ascii();
            let value = match part.strip_prefix(b"DIFlag") {
                Some(word) => di_flag(word)?,
                None => std::str::from_utf8(part).ok()?.parse().ok()?,
            };
            Some(flags | value)
        })
    }

    /// LLVM's message for the first of the checks made here that the node fails.
    fn refusal(&self) -> Option<&'static str> {
        match self.kind {
            b"DIDerivedType" => self.derived_type_refusal(),
            b"DICompositeType" => self.composite_type_refusal(),
            b"DISubrange" => self.subrange_refusal(),
            b"DIGenericSubrange" => self.generic_subrange_refusal(),
            b"DIExpression" => {
                let elements: Option<Vec<u64>> = self
                    .fields
                    .iter()
                    .map(|f| expression_element(f.text))
                    .collect();
                (elements.is_some_and(|e| !expression_is_valid(&e))).then_some("invalid expression")
            }
            _ => None,
        }
    }

    fn derived_type_refusal(&self) -> Option<&'static str> {
        let tag = self.tag();
        if let Some(tag) = tag {
            let allowed = match &tag[b"DW_TAG_".len()..] {
                b"typedef"
                | b"pointer_type"
                | b"ptr_to_member_type"
                | b"reference_type"
                | b"rvalue_reference_type"
                | b"const_type"
                | b"immutable_type"
                | b"volatile_type"
                | b"restrict_type"
                | b"atomic_type"
                | b"LLVM_ptrauth_type"
                | b"member"
                | b"inheritance"
                | b"friend"
                | b"set_type"
                | b"template_alias" => true,
                b"variable" => match self.flags() {
                    Some(flags) => flags & STATIC_MEMBER != 0,
                    None => true,
                },
                _ => false,
            };
            if !allowed {
                return Some("invalid tag");
            }
        }
        let extra = self.field("extraData").unwrap_or(Operand::Null);
        match tag.map(|t| &t[b"DW_TAG_".len()..]) {
            Some(b"ptr_to_member_type") if extra.is_type() == Some(false) => {
                return Some("invalid pointer to member type");
            }
            Some(b"template_alias") if is_tuple(extra) == Some(false) => {
                return Some("invalid template parameters");
            }
            Some(b"inheritance" | b"member" | b"variable")
                if extra_data_is_valid(extra) == Some(false) =>
            {
                return Some(
                    "extraData must be ConstantAsMetadata, MDString, DIObjCProperty, or MDTuple \
                     with single ConstantAsMetadata operand",
                );
            }
            _ => {}
        }
        if self.field("baseType").and_then(Operand::is_type) == Some(false) {
            return Some("invalid base type");
        }
        if self.field("dwarfAddressSpace").is_some()
            && tag.is_some_and(|t| {
                !matches!(
                    t,
                    b"DW_TAG_pointer_type"
                        | b"DW_TAG_reference_type"
                        | b"DW_TAG_rvalue_reference_type"
                )
            })
        {
            return Some("DWARF address space only applies to pointer or reference types");
        }
        None
    }

    fn composite_type_refusal(&self) -> Option<&'static str> {
        let tag = self.tag();
        if let Some(tag) = tag
            && !matches!(
                &tag[b"DW_TAG_".len()..],
                b"array_type"
                    | b"structure_type"
                    | b"union_type"
                    | b"enumeration_type"
                    | b"class_type"
                    | b"variant_part"
                    | b"variant"
                    | b"namelist"
            )
        {
            return Some("invalid tag");
        }
        if self.field("baseType").and_then(Operand::is_type) == Some(false) {
            return Some("invalid base type");
        }
        let elements = self.field("elements").unwrap_or(Operand::Null);
        if is_tuple(elements) == Some(false) {
            return Some("invalid composite elements");
        }
        if self.field("vtableHolder").and_then(Operand::is_type) == Some(false) {
            return Some("invalid vtable holder");
        }
        let flags = self.flags();
        if let Some(flags) = flags {
            let both = |a: u64, b: u64| flags & a != 0 && flags & b != 0;
            if both(LVALUE_REFERENCE, RVALUE_REFERENCE) || both(PASS_BY_VALUE, PASS_BY_REFERENCE) {
                return Some("invalid reference flags");
            }
            if flags & BLOCK_BYREF_STRUCT != 0 {
                return Some("DIBlockByRefStruct on DICompositeType is no longer supported");
            }
        }
        let element_list = match elements {
            Operand::Node(_, Kind::Tuple(list)) => list,
            _ => None,
        };
        if element_list.is_some_and(|list| list.iter().any(Option::is_none)) {
            return Some("DISubprogram contains null entry in `elements` field");
        }
        if flags.is_some_and(|f| f & VECTOR != 0)
            && let Some(list) = element_list
        {
            // `DW_TAG_subrange_type` is the tag of these two kinds alone (another kind
            // written with it is refused for its tag).
            let one_subrange = match list {
                [Some(MdRef::Node(n))] => match kind_of(self.m, *n) {
                    Kind::Specialized(b"DISubrange" | b"DISubrangeType") => Some(true),
                    Kind::Specialized(b"GenericDINode") | Kind::Unknown => None,
                    _ => Some(false),
                },
                _ => Some(false),
            };
            if one_subrange == Some(false) {
                return Some("invalid vector, expected one element of type subrange");
            }
        }
        if let Some(params) = self.field("templateParams").filter(|p| !p.is_null()) {
            match params {
                Operand::Node(_, Kind::Tuple(Some(list))) => {
                    let is_parameter = |op: &Option<MdRef>| match op {
                        Some(MdRef::Node(n)) => match kind_of(self.m, *n) {
                            Kind::Specialized(k) => Some(matches!(
                                k,
                                b"DITemplateTypeParameter" | b"DITemplateValueParameter"
                            )),
                            _ => Some(false),
                        },
                        _ => Some(false),
                    };
                    if list.iter().any(|op| is_parameter(op) == Some(false)) {
                        return Some("invalid template parameter");
                    }
                }
                p if is_tuple(p) == Some(false) => return Some("invalid template params"),
                _ => {}
            }
        }
        let is_array = tag.map(|t| t == b"DW_TAG_array_type");
        if let Some(discriminator) = self.field("discriminator").filter(|d| !d.is_null()) {
            let derived = match discriminator {
                Operand::Node(_, Kind::Specialized(k)) | Operand::Inline(Kind::Specialized(k)) => {
                    Some(k == b"DIDerivedType")
                }
                Operand::Node(_, Kind::Unknown) | Operand::Inline(Kind::Unknown) => None,
                _ => Some(false),
            };
            let variant_part = tag.map(|t| t == b"DW_TAG_variant_part");
            if derived == Some(false) || variant_part == Some(false) {
                return Some("discriminator can only appear on variant part");
            }
        }
        for (field, message) in [
            ("dataLocation", "dataLocation can only appear in array type"),
            ("associated", "associated can only appear in array type"),
            ("allocated", "allocated can only appear in array type"),
            ("rank", "rank can only appear in array type"),
        ] {
            if self.has(field) && is_array == Some(false) {
                return Some(message);
            }
        }
        if is_array == Some(true) && !self.has("baseType") {
            return Some("array types must have a base type");
        }
        None
    }

    fn subrange_refusal(&self) -> Option<&'static str> {
        if self.has("count") && self.has("upperBound") {
            return Some("Subrange can have any one of count or upperBound");
        }
        BOUNDS.into_iter().find_map(|(field, message)| {
            (self.field(field).and_then(|v| v.is_bound(true)) == Some(false)).then_some(message)
        })
    }

    /// A generic subrange's bounds: variables or expressions, a lower bound and a stride
    /// required.
    fn generic_subrange_refusal(&self) -> Option<&'static str> {
        if self.has("count") && self.has("upperBound") {
            return Some("GenericSubrange can have any one of count or upperBound");
        }
        BOUNDS.into_iter().find_map(|(field, message)| {
            let required = match field {
                "lowerBound" => Some("GenericSubrange must contain lowerBound"),
                "stride" => Some("GenericSubrange must contain stride"),
                _ => None,
            };
            match required {
                Some(missing) if !self.has(field) => Some(missing),
                _ => (self.field(field).and_then(|v| v.is_bound(false)) == Some(false))
                    .then_some(message),
            }
        })
    }
}

/// A subrange's bounds, in the order LLVM's verifier checks them, with its message for one
/// of a kind it does not take.
const BOUNDS: [(&str, &str); 4] = [
    (
        "count",
        "Count must be signed constant or DIVariable or DIExpression",
    ),
    (
        "lowerBound",
        "LowerBound must be signed constant or DIVariable or DIExpression",
    ),
    (
        "upperBound",
        "UpperBound must be signed constant or DIVariable or DIExpression",
    ),
    (
        "stride",
        "Stride must be signed constant or DIVariable or DIExpression",
    ),
];

/// The number a `!DIExpression(...)` element stands for: a DWARF operation or type encoding
/// by its value, or an unsigned integer; `None` for what LLVM 22 does not read.
fn expression_element(text: &[u8]) -> Option<u64> {
    let words = |names: &[&str], values: &[u16]| {
        let at = names.binary_search_by(|w| w.as_bytes().cmp(text)).ok()?;
        Some(u64::from(values[at]))
    };
    if text.starts_with(b"DW_OP_") {
        words(DW_OP, DW_OP_VALUE)
    } else if text.starts_with(b"DW_ATE_") {
        words(DW_ATE, DW_ATE_VALUE)
    } else {
        super::parser::unsigned_literal(text)
    }
}

/// `DIExpression::isValid` over the expression's elements: each operation known to LLVM's
/// debug information, with room for its arguments, and where it may stand.
fn expression_is_valid(elements: &[u64]) -> bool {
    let mut at = 0;
    while let Some(&op) = elements.get(at) {
        let size = operation_size(op);
        if at + size > elements.len() {
            return false;
        }
        // LLVM stops looking at a register: what follows is the location's, not checked.
        if (op::REG0..=op::BREG31).contains(&op) {
            return true;
        }
        match op {
            op::LLVM_FRAGMENT => return at + size == elements.len(),
            op::STACK_VALUE => {
                if elements
                    .get(at + size)
                    .is_some_and(|&next| next != op::LLVM_FRAGMENT)
                {
                    return false;
                }
            }
            op::SWAP if elements.len() == 1 => return false,
            op::LLVM_ENTRY_VALUE => {
                // First, or after `DW_OP_LLVM_arg 0`; covering one operation.
                let first = match elements {
                    [op::LLVM_ARG, 0, ..] => operation_size(op::LLVM_ARG),
                    _ => 0,
                };
                return at == first && elements[at + 1] == 1;
            }
            op::SWAP
            | op::LLVM_IMPLICIT_POINTER
            | op::LLVM_CONVERT
            | op::LLVM_ARG
            | op::LLVM_TAG_OFFSET
            | op::LLVM_EXTRACT_BITS_SEXT
            | op::LLVM_EXTRACT_BITS_ZEXT
            | op::CONSTU
            | op::PLUS_UCONST
            | op::PLUS
            | op::MINUS
            | op::MUL
            | op::DIV
            | op::MOD
            | op::OR
            | op::AND
            | op::XOR
            | op::SHL
            | op::SHR
            | op::SHRA
            | op::DEREF
            | op::DEREF_SIZE
            | op::XDEREF
            | op::LIT0
            | op::NOT
            | op::DUP
            | op::REGX
            | op::BREGX
            | op::PUSH_OBJECT_ADDRESS
            | op::OVER
            | op::ROT
            | op::CONSTS
            | op::EQ
            | op::NE
            | op::GT
            | op::GE
            | op::LT
            | op::LE
            | op::NEG
            | op::ABS => {}
            _ => return false,
        }
        at += size;
    }
    true
}

/// How many elements an operation takes with its arguments (`ExprOperand::getSize`).
fn operation_size(op: u64) -> usize {
    match op {
        op::BREG0..=op::BREG31 => 2,
        op::LLVM_CONVERT
        | op::LLVM_FRAGMENT
        | op::LLVM_EXTRACT_BITS_SEXT
        | op::LLVM_EXTRACT_BITS_ZEXT
        | op::BREGX => 3,
        op::CONSTU
        | op::CONSTS
        | op::DEREF_SIZE
        | op::PLUS_UCONST
        | op::LLVM_TAG_OFFSET
        | op::LLVM_ENTRY_VALUE
        | op::LLVM_ARG
        | op::REGX => 2,
        _ => 1,
    }
}

/// The DWARF operations `DIExpression::isValid` names, by value (`Dwarf.def`, `Dwarf.h`; a
/// test checks them against the table of words).
mod op {
    pub const DEREF: u64 = 0x06;
    pub const CONSTU: u64 = 0x10;
    pub const CONSTS: u64 = 0x11;
    pub const DUP: u64 = 0x12;
    pub const OVER: u64 = 0x14;
    pub const SWAP: u64 = 0x16;
    pub const ROT: u64 = 0x17;
    pub const XDEREF: u64 = 0x18;
    pub const ABS: u64 = 0x19;
    pub const AND: u64 = 0x1a;
    pub const DIV: u64 = 0x1b;
    pub const MINUS: u64 = 0x1c;
    pub const MOD: u64 = 0x1d;
    pub const MUL: u64 = 0x1e;
    pub const NEG: u64 = 0x1f;
    pub const NOT: u64 = 0x20;
    pub const OR: u64 = 0x21;
    pub const PLUS: u64 = 0x22;
    pub const PLUS_UCONST: u64 = 0x23;
    pub const SHL: u64 = 0x24;
    pub const SHR: u64 = 0x25;
    pub const SHRA: u64 = 0x26;
    pub const XOR: u64 = 0x27;
    pub const EQ: u64 = 0x29;
    pub const GE: u64 = 0x2a;
    pub const GT: u64 = 0x2b;
    pub const LE: u64 = 0x2c;
    pub const LT: u64 = 0x2d;
    pub const NE: u64 = 0x2e;
    pub const LIT0: u64 = 0x30;
    pub const REG0: u64 = 0x50;
    pub const BREG0: u64 = 0x70;
    pub const BREG31: u64 = 0x8f;
    pub const REGX: u64 = 0x90;
    pub const BREGX: u64 = 0x92;
    pub const DEREF_SIZE: u64 = 0x94;
    pub const PUSH_OBJECT_ADDRESS: u64 = 0x97;
    pub const STACK_VALUE: u64 = 0x9f;
    pub const LLVM_FRAGMENT: u64 = 0x1000;
    pub const LLVM_CONVERT: u64 = 0x1001;
    pub const LLVM_TAG_OFFSET: u64 = 0x1002;
    pub const LLVM_ENTRY_VALUE: u64 = 0x1003;
    pub const LLVM_IMPLICIT_POINTER: u64 = 0x1004;
    pub const LLVM_ARG: u64 = 0x1005;
    pub const LLVM_EXTRACT_BITS_SEXT: u64 = 0x1006;
    pub const LLVM_EXTRACT_BITS_ZEXT: u64 = 0x1007;
}

/// LLVM's `isMDTuple`: null or a tuple; `None` when this cannot tell.
fn is_tuple(op: Operand) -> Option<bool> {
    match op {
        Operand::Null | Operand::Node(_, Kind::Tuple(_)) | Operand::Inline(Kind::Tuple(_)) => {
            Some(true)
        }
        Operand::Node(_, Kind::Unknown) | Operand::Inline(Kind::Unknown) => None,
        _ => Some(false),
    }
}

/// A member's or an inheritance's `extraData`: a constant, a string, an Objective-C property,
/// or a tuple of one constant; `None` when this cannot tell.
fn extra_data_is_valid(op: Operand) -> Option<bool> {
    match op {
        Operand::Null | Operand::Str | Operand::Constant => Some(true),
        Operand::Node(_, Kind::Specialized(k)) | Operand::Inline(Kind::Specialized(k)) => {
            Some(k == b"DIObjCProperty")
        }
        Operand::Node(_, Kind::Tuple(Some(list))) => Some(matches!(list, [Some(MdRef::Value(..))])),
        _ => None,
    }
}

/// What the text of a field's value is.
fn operand<'m>(m: &'m Module, text: &'m [u8]) -> Operand<'m> {
    let text = text.trim_ascii();
    if text == b"null" {
        return Operand::Null;
    }
    let Some(rest) = text.strip_prefix(b"!") else {
        // An integer, a word (`DW_ATE_signed`, `true`) or a typed value (`i64 0`).
        return Operand::Constant;
    };
    if rest.starts_with(b"\"") {
        return Operand::Str;
    }
    if rest.first().is_some_and(u8::is_ascii_digit) {
        let node = std::str::from_utf8(rest)
            .ok()
            .and_then(|n| n.parse().ok())
            .and_then(|n| m.md_by_number.get(n));
        return match node {
            Some(id) => Operand::Node(id, kind_of(m, id)),
            None => Operand::Inline(Kind::Unknown),
        };
    }
    if rest.starts_with(b"{") {
        return Operand::Inline(Kind::Tuple(None));
    }
    let name_end = rest.iter().position(|&b| b == b'(').unwrap_or(rest.len());
    Operand::Inline(Kind::Specialized(rest[..name_end].trim_ascii_end()))
}

fn kind_of(m: &Module, id: MdId) -> Kind<'_> {
    match &m.metadata[id].body {
        MdBody::Tuple(operands) => Kind::Tuple(Some(operands)),
        &MdBody::Specialized(name) => Kind::Specialized(&m.bytes(name)[1..]),
        MdBody::ArgList(_) | MdBody::Pending => Kind::Unknown,
    }
}

const BLOCK_BYREF_STRUCT: u64 = 1 << 4;
const VECTOR: u64 = 1 << 11;
const STATIC_MEMBER: u64 = 1 << 12;
const LVALUE_REFERENCE: u64 = 1 << 13;
const RVALUE_REFERENCE: u64 = 1 << 14;
const PASS_BY_VALUE: u64 = 1 << 22;
const PASS_BY_REFERENCE: u64 = 1 << 23;

/// A `DIFlag` word's value (`DebugInfoFlags.def`), for the words whose bits these checks ask
/// about; the others are 0 here. `None` for a word LLVM 22 does not know.
fn di_flag(word: &[u8]) -> Option<u64> {
    let full = [b"DIFlag".as_slice(), word].concat();
    let known = super::debug_info::words::DI_FLAG
        .binary_search_by(|w| w.as_bytes().cmp(&full))
        .is_ok()
        || word == b"Zero";
    if !known {
        return None;
    }
    Some(match word {
        b"ReservedBit4" => BLOCK_BYREF_STRUCT,
        b"Vector" => VECTOR,
        b"StaticMember" => STATIC_MEMBER,
        b"LValueReference" => LVALUE_REFERENCE,
        b"RValueReference" => RVALUE_REFERENCE,
        b"TypePassByValue" => PASS_BY_VALUE,
        b"TypePassByReference" => PASS_BY_REFERENCE,
        _ => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operations_named_have_their_dwarf_values() {
        let value = |name: &str| expression_element(name.as_bytes());
        for (name, expected) in [
            ("DW_OP_deref", op::DEREF),
            ("DW_OP_constu", op::CONSTU),
            ("DW_OP_consts", op::CONSTS),
            ("DW_OP_dup", op::DUP),
            ("DW_OP_over", op::OVER),
            ("DW_OP_swap", op::SWAP),
            ("DW_OP_rot", op::ROT),
            ("DW_OP_xderef", op::XDEREF),
            ("DW_OP_abs", op::ABS),
            ("DW_OP_and", op::AND),
            ("DW_OP_div", op::DIV),
            ("DW_OP_minus", op::MINUS),
            ("DW_OP_mod", op::MOD),
            ("DW_OP_mul", op::MUL),
            ("DW_OP_neg", op::NEG),
            ("DW_OP_not", op::NOT),
            ("DW_OP_or", op::OR),
            ("DW_OP_plus", op::PLUS),
            ("DW_OP_plus_uconst", op::PLUS_UCONST),
            ("DW_OP_shl", op::SHL),
            ("DW_OP_shr", op::SHR),
            ("DW_OP_shra", op::SHRA),
            ("DW_OP_xor", op::XOR),
            ("DW_OP_eq", op::EQ),
            ("DW_OP_ge", op::GE),
            ("DW_OP_gt", op::GT),
            ("DW_OP_le", op::LE),
            ("DW_OP_lt", op::LT),
            ("DW_OP_ne", op::NE),
            ("DW_OP_lit0", op::LIT0),
            ("DW_OP_reg0", op::REG0),
            ("DW_OP_breg0", op::BREG0),
            ("DW_OP_breg31", op::BREG31),
            ("DW_OP_regx", op::REGX),
            ("DW_OP_bregx", op::BREGX),
            ("DW_OP_deref_size", op::DEREF_SIZE),
            ("DW_OP_push_object_address", op::PUSH_OBJECT_ADDRESS),
            ("DW_OP_stack_value", op::STACK_VALUE),
            ("DW_OP_LLVM_fragment", op::LLVM_FRAGMENT),
            ("DW_OP_LLVM_convert", op::LLVM_CONVERT),
            ("DW_OP_LLVM_tag_offset", op::LLVM_TAG_OFFSET),
            ("DW_OP_LLVM_entry_value", op::LLVM_ENTRY_VALUE),
            ("DW_OP_LLVM_implicit_pointer", op::LLVM_IMPLICIT_POINTER),
            ("DW_OP_LLVM_arg", op::LLVM_ARG),
            ("DW_OP_LLVM_extract_bits_sext", op::LLVM_EXTRACT_BITS_SEXT),
            ("DW_OP_LLVM_extract_bits_zext", op::LLVM_EXTRACT_BITS_ZEXT),
        ] {
            assert_eq!(value(name), Some(expected), "{name}");
        }
        assert_eq!(value("DW_OP_reg31"), Some(op::BREG0 - 1));
        assert_eq!(value("DW_ATE_signed"), Some(5));
        assert_eq!(value("DW_OP_nonsense"), None);
        assert_eq!(value("u0x10"), Some(16));
    }
}
