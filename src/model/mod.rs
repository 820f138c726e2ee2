//! The module model: what the reader builds and every later stage reads.
//!
//! Entities live in arenas indexed by typed ids (`FuncId`, `InstId`, ...). Every entity keeps
//! the byte span it was read from, so the writer can reproduce the input byte for byte and edits
//! can replace exactly the text they change. Text that needs no structure (attribute words,
//! flags, debug-info fields) stays as spans into [`Module::source`].

pub mod calling_convention;
mod data_layout;
mod literals;
pub mod search;
mod source;
mod triple_layouts;
pub mod types;

use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, PrimaryMap, entity_impl};
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub use data_layout::{BodyLayout, DataLayout, Memory};
pub use literals::{
    FloatKey, IntValue, decimal_i128, decimal_u128, double_hex_bits, float_key, int_literal,
    int_value,
};
pub use source::{Progress, RELEASE_MIN, RELEASE_STEP, ReleaseBehind, Source, TextBudget};
pub use types::{FloatKind, Layout, NamedTypeId, Type, TypeId, Types};

/// A byte range of the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn empty_at(pos: u32) -> Span {
        Span {
            start: pos,
            end: pos,
        }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    /// The span, unless empty: where an absent part is kept as an empty span, for a part
    /// never empty when written (a name, a keyword).
    pub fn written(self) -> Option<Span> {
        (!self.is_empty()).then_some(self)
    }
    /// Whether `inner` lies within this span.
    pub fn covers(self, inner: Span) -> bool {
        self.start <= inner.start && inner.end <= self.end
    }
}

/// The debug intrinsics LLVM 22 reads as debug records (`llvm.dbg.value` as `#dbg_value`).
pub const DEBUG_INTRINSICS: [&[u8]; 4] = [
    b"llvm.dbg.value",
    b"llvm.dbg.declare",
    b"llvm.dbg.assign",
    b"llvm.dbg.label",
];

macro_rules! ids {
    ($($name:ident $disp:literal),* $(,)?) => {$(
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);
        entity_impl!($name, $disp);
    )*};
}

ids! {
    GlobalId "global",
    FuncId "func",
    VarId "var",
    AliasId "alias",
    ConstId "const",
    MdId "md",
    UseId "use",
    LocalId "local",
    InstId "inst",
    BlockId "block",
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Linkage {
    Private,
    Internal,
    AvailableExternally,
    Linkonce,
    Weak,
    Common,
    Appending,
    ExternWeak,
    LinkonceOdr,
    WeakOdr,
    External,
}

impl Linkage {
    pub fn from_keyword(w: &[u8]) -> Option<Linkage> {
        Some(match w {
            b"private" => Linkage::Private,
            b"internal" => Linkage::Internal,
            b"available_externally" => Linkage::AvailableExternally,
            b"linkonce" => Linkage::Linkonce,
            b"weak" => Linkage::Weak,
            b"common" => Linkage::Common,
            b"appending" => Linkage::Appending,
            b"extern_weak" => Linkage::ExternWeak,
            b"linkonce_odr" => Linkage::LinkonceOdr,
            b"weak_odr" => Linkage::WeakOdr,
            b"external" => Linkage::External,
            _ => return None,
        })
    }

    /// The keyword LLVM writes; external linkage is written as nothing.
    pub fn keyword(self) -> &'static str {
        match self {
            Linkage::Private => "private",
            Linkage::Internal => "internal",
            Linkage::AvailableExternally => "available_externally",
            Linkage::Linkonce => "linkonce",
            Linkage::Weak => "weak",
            Linkage::Common => "common",
            Linkage::Appending => "appending",
            Linkage::ExternWeak => "extern_weak",
            Linkage::LinkonceOdr => "linkonce_odr",
            Linkage::WeakOdr => "weak_odr",
            Linkage::External => "",
        }
    }

    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Private | Linkage::Internal)
    }

    /// Another definition may replace this one at link or load time.
    pub fn is_interposable(self) -> bool {
        matches!(
            self,
            Linkage::Weak | Linkage::Linkonce | Linkage::ExternWeak | Linkage::Common
        )
    }

    /// The one-definition rule holds: every definition of the name is equivalent.
    pub fn is_odr(self) -> bool {
        matches!(self, Linkage::LinkonceOdr | Linkage::WeakOdr)
    }

    /// An unused definition may be dropped.
    pub fn is_discardable(self) -> bool {
        matches!(
            self,
            Linkage::Private
                | Linkage::Internal
                | Linkage::Linkonce
                | Linkage::LinkonceOdr
                | Linkage::AvailableExternally
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Default,
    Hidden,
    Protected,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnnamedAddr {
    None,
    Local,
    Global,
}

impl UnnamedAddr {
    pub fn keyword(self) -> &'static str {
        match self {
            UnnamedAddr::None => "",
            UnnamedAddr::Local => "local_unnamed_addr",
            UnnamedAddr::Global => "unnamed_addr",
        }
    }
}

impl Linkable {
    /// `dso_local` / `dso_preemptable`, where written.
    pub fn dso_local(&self) -> Option<Span> {
        self.dso_local_at.written()
    }

    /// `dllimport` / `dllexport`, where written.
    pub fn dll_storage(&self) -> Option<Span> {
        self.dll_storage_at.written()
    }
}

/// The header parts shared by functions, variables, aliases and ifuncs, with the spans an edit
/// rewrites.
#[derive(Clone, Debug)]
pub struct Linkable {
    pub linkage: Linkage,
    pub linkage_span: Span,
    /// `dso_local` / `dso_preemptable` as written, empty where none is ([`Linkable::dso_local`]):
    /// an `Option<Span>` takes 12 bytes where a span takes 8, and there is a `Linkable` for
    /// each global.
    pub(crate) dso_local_at: Span,
    pub visibility: Visibility,
    /// The DLL storage class as written, empty where none is ([`Linkable::dll_storage`]).
    pub(crate) dll_storage_at: Span,
    /// From the linkage to the DLL storage class, with the white space after it: the text an
    /// edit of linkage or visibility rewrites.
    pub prefix_span: Span,
    pub unnamed_addr: UnnamedAddr,
    /// The `unnamed_addr` keyword, or an empty span where one would be written.
    pub unnamed_addr_span: Span,
}

/// Whether a global's name (unquoted) is an intrinsic's: LLVM reserves the `llvm.` prefix.
pub fn is_intrinsic_name(name: &[u8]) -> bool {
    name.starts_with(b"llvm.")
}

/// A global's name. A named one's bytes are shared with [`Module::global_by_name`]: C++ and
/// Rust names run to hundreds of bytes, and there are thousands of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalName {
    Named(Arc<[u8]>),
    Numbered(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalKind {
    /// Referenced but not (yet) defined.
    Pending,
    /// An intrinsic (`@llvm.*`) called but never declared: LLVM declares it as it reads the
    /// module, with the type of the call (and may add the type suffix to its name).
    Intrinsic,
    Function(FuncId),
    Variable(VarId),
    Alias(AliasId),
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: GlobalName,
    pub kind: GlobalKind,
    /// The first reference, for an "undefined value" error.
    pub first_use: Span,
    /// Every reference in the module, definition included, in source order; after edits,
    /// also some whose text an edit removed ([`GlobalUse::dropped`]), until there are as many
    /// of those as of the others. [`Module::uses_of`] gives the live ones.
    pub uses: Vec<UseId>,
    /// How many of `uses` are dropped.
    pub dropped_uses: u32,
}

/// A `blockaddress(@f, %bb)` as written, checked once every body is read.
#[derive(Clone, Copy, Debug)]
pub struct BlockAddressRef {
    /// The function's name.
    pub function: Span,
    /// The block's name.
    pub block: Span,
    /// Written outside metadata, where LLVM counts a use of the constant (metadata holds
    /// none: LLVM's verifier lets an entry block's address be taken only there).
    pub used: bool,
}

/// Where a global is referenced.
#[derive(Clone, Copy, Debug)]
pub struct GlobalUse {
    pub global: GlobalId,
    pub span: Span,
    /// The function whose body holds the use, if any.
    pub in_function: PackedOption<FuncId>,
    /// The address space of the pointer type written with the name (`ptr addrspace(1) @g`,
    /// the callee's of a call), or [`GlobalUse::UNTYPED`] where none is (a definition,
    /// `blockaddress`).
    pub addr_space: u32,
    pub role: UseRole,
    /// The global is itself the operand (of an instruction, as a global variable's
    /// initializer, an alias's aliasee, a function's prefix, prologue or personality), not
    /// named inside a constant or metadata: LLVM counts one use of it here, where a constant
    /// written twice is one user of what it names and metadata none.
    pub direct: bool,
    /// The text holding it is gone: an edit replaced or deleted it.
    pub dropped: bool,
}

impl GlobalUse {
    pub const UNTYPED: u32 = u32::MAX;
}

/// `ptr`, or `ptr addrspace(N)` outside address space 0.
pub fn pointer_text(addr_space: u32) -> String {
    match addr_space {
        0 => "ptr".into(),
        a => format!("ptr addrspace({a})"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseRole {
    /// The name in the entity's own definition.
    Definition,
    /// The callee operand of a call, invoke or callbr.
    Callee,
    /// Anything else: an operand, an initializer, an aliasee, `blockaddress`...
    Operand,
}

/// One attribute as written, as kept in the arenas of attributes ([`Module::attrs`],
/// [`Body::attrs`]): what it is ([`AttrKind`]) packed in 12 bytes, the kind in the top two
/// bits of its start (a text is under 2^30 bytes). As an enum it took 16, and a C++ module
/// holds an attribute for every 200 bytes of its text or so (eigenprog-O0: 140,253, 0.56 MB
/// saved).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Attr {
    kind_and_start: u32,
    end: u32,
    /// The group's number, or the type.
    extra: u32,
}

/// One attribute as written. Groups (`#N`) are expanded by later stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrKind {
    /// `#N`
    Group(u32, Span),
    /// An attribute carrying a type, such as `byval(%T)`: the keyword and the type.
    Typed(Span, TypeId),
    /// Any other attribute, keyword with its arguments, or `"key"="value"`.
    Text(Span),
}

impl Attr {
    const START_BITS: u32 = 30;
    const START_MASK: u32 = (1 << Self::START_BITS) - 1;

    /// What the attribute is.
    pub fn kind(self) -> AttrKind {
        let span = self.span();
        match self.kind_and_start >> Self::START_BITS {
            0 => AttrKind::Group(self.extra, span),
            1 => AttrKind::Typed(span, TypeId::from_u32(self.extra)),
            _ => AttrKind::Text(span),
        }
    }

    /// Where it is written (a typed one's keyword).
    pub fn span(self) -> Span {
        Span {
            start: self.kind_and_start & Self::START_MASK,
            end: self.end,
        }
    }

    /// Whether it is a group (`#N`).
    pub fn is_group(self) -> bool {
        self.kind_and_start >> Self::START_BITS == 0
    }
}

impl From<AttrKind> for Attr {
    fn from(kind: AttrKind) -> Attr {
        let (tag, span, extra) = match kind {
            AttrKind::Group(n, span) => (0, span, n),
            AttrKind::Typed(span, ty) => (1, span, ty.as_u32()),
            AttrKind::Text(span) => (2, span, 0),
        };
        debug_assert!(span.start <= Attr::START_MASK, "a text is under 2^30 bytes");
        Attr {
            kind_and_start: tag << Attr::START_BITS | (span.start & Attr::START_MASK),
            end: span.end,
            extra,
        }
    }
}

impl std::fmt::Debug for Attr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind().fmt(f)
    }
}

/// A list of attributes of a function header or an attribute group: a run of the module's
/// [`Module::attrs`], read with [`Module::attr_list`]. One arena rather than a vector a list:
/// a C++ header has a list a parameter, and allocating each was a tenth of the top level's
/// time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttrList {
    start: u32,
    len: u32,
}

impl AttrList {
    /// The attributes pushed on `arena` since it held `start` of them.
    pub fn since(arena: &[Attr], start: usize) -> AttrList {
        AttrList {
            start: start as u32,
            len: (arena.len() - start) as u32,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub ty: TypeId,
    pub attrs: AttrList,
    /// Its name, empty where it has none ([`Param::name`]): 24 bytes a parameter rather than
    /// 28 with an `Option`, and C++ functions have a few each.
    name_at: Span,
    /// Where its text ends: after its name, or after its type and attributes when it has none.
    pub end: u32,
}

impl Param {
    pub fn new(ty: TypeId, attrs: AttrList, name: Option<Span>, end: u32) -> Param {
        Param {
            ty,
            attrs,
            name_at: name.unwrap_or_default(),
            end,
        }
    }

    /// Its name (`%x`, `%0`), where written.
    pub fn name(&self) -> Option<Span> {
        self.name_at.written()
    }
}

/// A value an operand refers to, packed in 32 bits (the kind in the top two) because operands
/// are the most numerous thing in a module; [`Value::kind`] unpacks it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value(u32);

/// What a [`Value`] refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// An argument, instruction result or block of the enclosing function.
    Local(LocalId),
    /// A global, through the use that names it.
    Global(UseId),
    Const(ConstId),
}

impl Value {
    const INDEX_BITS: u32 = 30;
    const INDEX_MASK: u32 = (1 << Self::INDEX_BITS) - 1;

    fn pack(kind: u32, index: usize) -> Value {
        // The reader refuses input over 2^30 bytes, and every entity takes at least a byte.
        Value(kind << Self::INDEX_BITS | (index as u32 & Self::INDEX_MASK))
    }
    /// Whether an arena index can be packed.
    pub fn fits(index: usize) -> bool {
        index <= Self::INDEX_MASK as usize
    }
    pub fn local(l: LocalId) -> Value {
        Value::pack(0, l.index())
    }
    pub fn global(u: UseId) -> Value {
        Value::pack(1, u.index())
    }
    pub fn constant(c: ConstId) -> Value {
        Value::pack(2, c.index())
    }
    pub fn kind(self) -> ValueKind {
        let index = (self.0 & Self::INDEX_MASK) as usize;
        match self.0 >> Self::INDEX_BITS {
            0 => ValueKind::Local(LocalId::new(index)),
            1 => ValueKind::Global(UseId::new(index)),
            _ => ValueKind::Const(ConstId::new(index)),
        }
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind().fmt(f)
    }
}

#[derive(Clone, Debug)]
pub enum Const {
    /// An integer literal (including `true`/`false`) of an integer type this wide; its value
    /// is read from the text when asked ([`int_value`]).
    Int(Span, u32),
    /// A floating-point literal as written (`0x` forms included); its value is read from the
    /// text when asked ([`float_key`]).
    Float(Span),
    Null,
    None,
    Undef,
    Poison,
    Zero,
    /// `{...}`, `<{...}>` (`p`), `[...]`, `<...>`: the opening bracket and the elements.
    Aggregate(u8, Box<Vec<(TypeId, Value)>>),
    /// `c"..."`
    Bytes(Span),
    /// A constant expression: its opcode word and items, as for instructions.
    Expr(Box<(Span, Vec<Item>)>),
    /// `blockaddress(@f, %bb)`
    BlockAddress(UseId, Span),
    DsoLocalEquivalent(UseId),
    NoCfi(UseId),
    PtrAuth(Box<Vec<(TypeId, Value)>>),
    /// `splat (T v)`: the vector's type and the element.
    Splat(TypeId, Value),
    /// `asm [sideeffect] [alignstack] [inteldialect] [unwind] "asm", "constraints"`
    InlineAsm(Span),
    /// A `metadata` operand of a call.
    Metadata(MdRef),
}

impl Const {
    /// The values the constant is made of: an aggregate's or `ptrauth`'s elements, an
    /// expression's operands, a splat's element. The globals `blockaddress`,
    /// `dso_local_equivalent` and `no_cfi` name are uses, not values: not among them.
    pub fn values(&self) -> impl Iterator<Item = Value> + '_ {
        let (elements, items, splat): (&[(TypeId, Value)], &[Item], Option<Value>) = match self {
            Const::Aggregate(_, elements) | Const::PtrAuth(elements) => (elements, &[], None),
            Const::Expr(e) => (&[], &e.1, None),
            Const::Splat(_, v) => (&[], &[], Some(*v)),
            _ => (&[], &[], None),
        };
        let operands = items.iter().filter_map(|item| match item {
            Item::Value(v) => Some(*v),
            _ => None,
        });
        elements
            .iter()
            .map(|&(_, v)| v)
            .chain(operands)
            .chain(splat)
    }
}

/// A reference to metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MdRef {
    Node(MdId),
    /// `!"text"`
    Str(Span),
    /// A value wrapped as metadata (`i32 1`, `ptr %x`).
    Value(TypeId, Value),
}

/// A metadata node's operands. Debug information makes nodes the most numerous entities of a
/// module, so each list is a boxed slice of its exact length.
#[derive(Clone, Debug)]
pub enum MdBody {
    /// Referenced by number, not yet defined.
    Pending,
    /// `!{...}`: `None` is `null`.
    Tuple(Box<[Option<MdRef>]>),
    /// `!DIxxx(field: value, ...)`: the node's name; its fields are read from the text when
    /// needed ([`Module::md_fields`]).
    Specialized(Span),
    /// `!DIArgList(...)` and other nodes whose operands are values.
    ArgList(Box<[MdRef]>),
}

#[derive(Clone, Debug)]
pub struct MdNode {
    pub distinct: bool,
    pub body: MdBody,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct NamedMd {
    pub name: Span,
    pub nodes: Vec<MdId>,
    pub span: Span,
}

/// One piece of an instruction or constant expression, in the order it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Type(TypeId),
    Value(Value),
    /// A keyword, flag, predicate, ordering, integer literal or string, as text: its start and
    /// length (see [`Item::word`] and [`Item::word_span`]).
    Word {
        start: u32,
        len: u16,
    },
    /// An attribute list: index into [`Body::attr_lists`], or [`Body::NO_ATTRS`] (see
    /// [`Body::attr_list`]).
    Attrs(u32),
    /// A bracket that starts or ends a list, so that lists of varying length cannot blur.
    Mark(u8),
}

impl Item {
    /// The longest text a word item can name; the reader rejects longer ones.
    pub const MAX_WORD: usize = u16::MAX as usize;

    pub fn word(span: Span) -> Item {
        Item::Word {
            start: span.start,
            len: (span.end - span.start).min(Self::MAX_WORD as u32) as u16,
        }
    }

    pub fn word_span(start: u32, len: u16) -> Span {
        Span {
            start,
            end: start + u32::from(len),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    Ret,
    Br,
    Switch,
    IndirectBr,
    Invoke,
    Resume,
    Unreachable,
    CleanupRet,
    CatchRet,
    CatchSwitch,
    CallBr,
    FNeg,
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    Alloca,
    Load,
    Store,
    GetElementPtr,
    Fence,
    AtomicCmpXchg,
    AtomicRmw,
    Trunc,
    ZExt,
    SExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    FpTrunc,
    FpExt,
    PtrToInt,
    PtrToAddr,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    ICmp,
    FCmp,
    Phi,
    Call,
    Select,
    VaArg,
    ExtractElement,
    InsertElement,
    ShuffleVector,
    ExtractValue,
    InsertValue,
    LandingPad,
    CleanupPad,
    CatchPad,
    Freeze,
}

/// LLVM 22's `StructuralHash(F)` (`llvm/lib/IR/StructuralHash.cpp`, not detailed), checked
/// against `opt-22 -passes='print<structural-hash>'`: xxh3 of the 64-bit words 4 (the
/// starting hash), a function header, the varargs flag, the argument count, then each block in
/// LLVM's walk ([`llvm_walk`]) as a block header and the xxh3 of each instruction's opcode.
/// `blocks` gives that walk, each block's opcodes.
pub fn llvm_structural_hash<B: Iterator<Item = Opcode>>(
    varargs: bool,
    args: usize,
    blocks: impl Iterator<Item = B>,
) -> u64 {
    const FUNCTION_HEADER: u64 = 0x6264_2d6b_6b2d_6b72;
    const BLOCK_HEADER: u64 = 45798;
    // Streamed: one hash a body, as it is read, with no buffer to allocate.
    let mut hash = xxhash_rust::xxh3::Xxh3Default::new();
    let mut push = |word: u64| hash.update(&word.to_le_bytes());
    for word in [4, FUNCTION_HEADER, varargs.into(), args as u64] {
        push(word);
    }
    for opcodes in blocks {
        push(BLOCK_HEADER);
        for op in opcodes {
            push(op.llvm_hash());
        }
    }
    hash.digest()
}

/// The blocks in the order of LLVM's structural hash, from block 0: a stack, each block's
/// successors pushed in order when first met, the last pushed walked next.
pub fn llvm_walk<S: IntoIterator<Item = usize>>(
    blocks: usize,
    mut successors: impl FnMut(usize) -> S,
) -> Vec<usize> {
    let mut order = Vec::with_capacity(blocks);
    // Block 0 is seen from the start: a function of one block needs no walk, no tables.
    if blocks <= 1 {
        order.extend((blocks == 1).then_some(0));
        return order;
    }
    let mut seen = vec![false; blocks];
    seen[0] = true;
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        order.push(b);
        for s in successors(b) {
            if !std::mem::replace(&mut seen[s], true) {
                stack.push(s);
            }
        }
    }
    order
}

impl Opcode {
    /// The hash LLVM's structural hash takes of an instruction of this opcode: xxh3 of its
    /// number, as a 64-bit word.
    fn llvm_hash(self) -> u64 {
        const HASHES: [u64; 69] = {
            let mut hashes = [0; 69];
            let mut n = 0;
            while n < hashes.len() {
                hashes[n] = xxhash_rust::const_xxh3::xxh3_64(&(n as u64).to_le_bytes());
                n += 1;
            }
            hashes
        };
        HASHES[self.llvm_number() as usize]
    }

    /// The opcode's number in LLVM 22 (`Instruction.def`).
    pub fn llvm_number(self) -> u64 {
        use Opcode::*;
        match self {
            Ret => 1,
            Br => 2,
            Switch => 3,
            IndirectBr => 4,
            Invoke => 5,
            Resume => 6,
            Unreachable => 7,
            CleanupRet => 8,
            CatchRet => 9,
            CatchSwitch => 10,
            CallBr => 11,
            FNeg => 12,
            Add => 13,
            FAdd => 14,
            Sub => 15,
            FSub => 16,
            Mul => 17,
            FMul => 18,
            UDiv => 19,
            SDiv => 20,
            FDiv => 21,
            URem => 22,
            SRem => 23,
            FRem => 24,
            Shl => 25,
            LShr => 26,
            AShr => 27,
            And => 28,
            Or => 29,
            Xor => 30,
            Alloca => 31,
            Load => 32,
            Store => 33,
            GetElementPtr => 34,
            Fence => 35,
            AtomicCmpXchg => 36,
            AtomicRmw => 37,
            Trunc => 38,
            ZExt => 39,
            SExt => 40,
            FpToUi => 41,
            FpToSi => 42,
            UiToFp => 43,
            SiToFp => 44,
            FpTrunc => 45,
            FpExt => 46,
            PtrToInt => 47,
            PtrToAddr => 48,
            IntToPtr => 49,
            BitCast => 50,
            AddrSpaceCast => 51,
            CleanupPad => 52,
            CatchPad => 53,
            ICmp => 54,
            FCmp => 55,
            Phi => 56,
            Call => 57,
            Select => 58,
            VaArg => 61,
            ExtractElement => 62,
            InsertElement => 63,
            ShuffleVector => 64,
            ExtractValue => 65,
            InsertValue => 66,
            LandingPad => 67,
            Freeze => 68,
        }
    }

    pub fn from_keyword(w: &[u8]) -> Option<Opcode> {
        use Opcode::*;
        Some(match w {
            b"ret" => Ret,
            b"br" => Br,
            b"switch" => Switch,
            b"indirectbr" => IndirectBr,
            b"invoke" => Invoke,
            b"resume" => Resume,
            b"unreachable" => Unreachable,
            b"cleanupret" => CleanupRet,
            b"catchret" => CatchRet,
            b"catchswitch" => CatchSwitch,
            b"callbr" => CallBr,
            b"fneg" => FNeg,
            b"add" => Add,
            b"fadd" => FAdd,
            b"sub" => Sub,
            b"fsub" => FSub,
            b"mul" => Mul,
            b"fmul" => FMul,
            b"udiv" => UDiv,
            b"sdiv" => SDiv,
            b"fdiv" => FDiv,
            b"urem" => URem,
            b"srem" => SRem,
            b"frem" => FRem,
            b"shl" => Shl,
            b"lshr" => LShr,
            b"ashr" => AShr,
            b"and" => And,
            b"or" => Or,
            b"xor" => Xor,
            b"alloca" => Alloca,
            b"load" => Load,
            b"store" => Store,
            b"getelementptr" => GetElementPtr,
            b"fence" => Fence,
            b"cmpxchg" => AtomicCmpXchg,
            b"atomicrmw" => AtomicRmw,
            b"trunc" => Trunc,
            b"zext" => ZExt,
            b"sext" => SExt,
            b"fptoui" => FpToUi,
            b"fptosi" => FpToSi,
            b"uitofp" => UiToFp,
            b"sitofp" => SiToFp,
            b"fptrunc" => FpTrunc,
            b"fpext" => FpExt,
            b"ptrtoint" => PtrToInt,
            b"ptrtoaddr" => PtrToAddr,
            b"inttoptr" => IntToPtr,
            b"bitcast" => BitCast,
            b"addrspacecast" => AddrSpaceCast,
            b"icmp" => ICmp,
            b"fcmp" => FCmp,
            b"phi" => Phi,
            b"call" | b"tail" | b"musttail" | b"notail" => Call,
            b"select" => Select,
            b"va_arg" => VaArg,
            b"extractelement" => ExtractElement,
            b"insertelement" => InsertElement,
            b"shufflevector" => ShuffleVector,
            b"extractvalue" => ExtractValue,
            b"insertvalue" => InsertValue,
            b"landingpad" => LandingPad,
            b"cleanuppad" => CleanupPad,
            b"catchpad" => CatchPad,
            b"freeze" => Freeze,
            _ => return None,
        })
    }

    /// A conversion of one value's type into another (`trunc`, `bitcast`...).
    pub fn is_cast(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Trunc
                | ZExt
                | SExt
                | FpToUi
                | FpToSi
                | UiToFp
                | SiToFp
                | FpTrunc
                | FpExt
                | PtrToInt
                | PtrToAddr
                | IntToPtr
                | BitCast
                | AddrSpaceCast
        )
    }

    pub fn is_terminator(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Ret | Br
                | Switch
                | IndirectBr
                | Invoke
                | Resume
                | Unreachable
                | CleanupRet
                | CatchRet
                | CatchSwitch
                | CallBr
        )
    }

    pub fn is_call(self) -> bool {
        matches!(self, Opcode::Call | Opcode::Invoke | Opcode::CallBr)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalDef {
    Arg(u32),
    Inst(InstId),
    Block(BlockId),
}

#[derive(Clone, Copy, Debug)]
pub struct Local {
    pub def: LocalDef,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub local: LocalId,
    pub first_inst: u32,
    pub inst_count: u32,
    pub span: Span,
}

impl Block {
    pub fn insts(&self) -> impl ExactSizeIterator<Item = InstId> + use<> {
        (self.first_inst..self.first_inst + self.inst_count).map(InstId::from_u32)
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Inst {
    pub opcode: Opcode,
    pub result: Option<LocalId>,
    pub ty: TypeId,
    pub items_start: u32,
    pub items_len: u32,
    pub md_start: u32,
    pub md_len: u16,
    pub span: Span,
}

/// A `#dbg_value(...)`-style record; it sits before the instruction `before`.
#[derive(Clone, Copy, Debug)]
pub struct DebugRecord {
    pub before: InstId,
    pub span: Span,
}

/// A call LLVM's convergence verifier looks at (see [`Body::convergence_calls`]).
#[derive(Clone, Debug)]
pub struct ConvergenceCall {
    pub inst: InstId,
    /// The callee as written.
    pub callee: Span,
    /// Whether the call is convergent by its own attributes (by its callee's, see
    /// `read::verify::convergence_control_holds`).
    pub convergent: bool,
    /// Which convergence control intrinsic the call calls, if one.
    pub intrinsic: Option<ConvergenceIntrinsic>,
    /// The `"convergencectrl"` bundle's tag and the local its one token names (`None`: a
    /// value that is no local, such as `token none`).
    pub token: Option<(Span, Option<LocalId>)>,
}

/// `llvm.experimental.convergence.entry`, `.anchor` and `.loop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvergenceIntrinsic {
    Entry,
    Anchor,
    Loop,
}

#[derive(Clone, Debug, Default)]
pub struct Body {
    /// `{` to `}` inclusive.
    pub span: Span,
    pub locals: PrimaryMap<LocalId, Local>,
    pub blocks: PrimaryMap<BlockId, Block>,
    pub insts: PrimaryMap<InstId, Inst>,
    pub items: Vec<Item>,
    /// The attributes of every list of the body, one list after the other.
    pub attrs: Vec<Attr>,
    /// Each attribute list of the body: its range of `attrs`.
    pub attr_lists: Vec<(u32, u32)>,
    /// Metadata attachments `!kind !node` of instructions: the kind's span and the node.
    pub attachments: Vec<(Span, MdRef)>,
    pub debug_records: Vec<DebugRecord>,
    /// Constants, types and metadata nodes first written in this body. Their ids continue the
    /// module's arenas: an id at or past the module's length (`base`) names one of these, so
    /// a body is read without changing the module (see [`Body::constant`]).
    pub consts: Vec<Const>,
    pub types: Vec<Type>,
    pub metadata: Vec<MdNode>,
    pub base: ArenaBase,
    /// The `uselistorder` directives after the last block, whole lines from the first to the
    /// last; empty when there are none.
    pub use_list_orders: Span,
    /// Each `blockaddress` constant of the body. The block may be another function's, so it
    /// is looked for once every body is read.
    pub block_addresses: Vec<BlockAddressRef>,
    /// Each of the body's `uselistorder` directives that orders a global's uses: where it
    /// starts, the global, its number of indexes. LLVM counts the uses written before it,
    /// bodies after this one's included, so it is checked once every body is read.
    pub global_use_list_orders: Vec<(Span, GlobalId, u32)>,
    /// Where the body first writes debug information in each of LLVM's two forms, which a
    /// module may not mix (see [`DebugForms`]).
    pub debug_forms: DebugForms,
    /// The name of the first intrinsic the module does not declare that the body calls with a
    /// type its signature does not take (`call i8 @llvm.umax(i8 0, i16 1)`): LLVM declares
    /// such an intrinsic from the call's type, and refuses the module when it cannot.
    pub mistyped_intrinsic_call: Option<Span>,
    /// The body's `swifterror` allocas, whose uses are checked once the body is read.
    pub swifterror_allocas: Vec<InstId>,
    /// The local each `"funclet"` operand bundle names, and the bundle's tag: LLVM's verifier
    /// asks for a `catchpad` or `cleanuppad`, checked once the body is read.
    pub funclet_operands: Vec<(Span, LocalId)>,
    /// The calls convergent by their own attributes, the calls of the convergence control
    /// intrinsics and the calls with a `"convergencectrl"` operand bundle, in order: LLVM's verifier's rules of them
    /// (`ConvergenceVerifier`) are checked once the body is read.
    pub convergence_calls: Vec<ConvergenceCall>,
    /// The text leaves implicit something LLVM prints (`rewrite::spelling`): a value or a
    /// block after the first goes unnumbered, or numbers skip one (LLVM prints its own, with
    /// no gaps), a memory instruction gives no alignment, a debug record is written as a call
    /// of `llvm.dbg.value` or its kin.
    pub leaves_implicit: bool,
    /// Each memory instruction that gives no alignment, and where `, align N` would go.
    pub implied_aligns: Vec<(InstId, u32)>,
}

/// Where a body first writes a debug record (`#dbg_value`), and first calls one of the debug
/// intrinsics LLVM's parser counts as the old form (`llvm.dbg.value`, `llvm.dbg.declare`,
/// `llvm.dbg.assign`; not `llvm.dbg.label`), as the tokens where LLVM reports a mix: the
/// record's `#dbg_...`, the word after the call's first (`void` in `call void @llvm.dbg.value`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugForms {
    pub record: Option<Span>,
    pub intrinsic_call: Option<Span>,
}

/// The module's arena lengths a body's own ids start from.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArenaBase {
    pub consts: u32,
    pub types: u32,
    pub metadata: u32,
}

impl ArenaBase {
    /// Where a body of `m` starts its own ids: past the module's.
    pub fn of(m: &Module) -> ArenaBase {
        ArenaBase {
            consts: m.consts.len() as u32,
            types: m.types.len() as u32,
            metadata: m.metadata.len() as u32,
        }
    }
}

/// What reading keeps of a function body: where its text is and facts about it. The body
/// itself is read again when a stage needs it ([`Module::body`]), so a module costs little
/// more memory than its text.
#[derive(Clone, Debug)]
pub struct BodyInfo {
    /// `{` to `}` inclusive.
    pub span: Span,
    pub blocks: u32,
    pub insts: u32,
    pub reachable_blocks: u32,
    pub reachable_insts: u32,
    /// A hash of the block sizes and opcodes along the walk of §3. Two functions whose
    /// fingerprints are equal have equal shapes, so a shape met once rules a function out.
    pub shape: u64,
    /// LLVM's `StructuralHash` of the function ([`llvm_structural_hash`]), by which LLVM
    /// orders the functions it merges, and mergefn the texts it writes as LLVM writes them.
    pub llvm_hash: u64,
    /// It passes a `distinct` metadata node to an intrinsic (§1).
    pub passes_distinct_metadata: bool,
    /// [`Body::leaves_implicit`].
    pub leaves_implicit: bool,
    /// The uses of globals inside the body: one run of ids, in source order.
    pub first_use: u32,
    pub use_count: u32,
}

impl BodyInfo {
    pub fn uses(&self) -> impl Iterator<Item = UseId> + use<> {
        (self.first_use..self.first_use + self.use_count).map(UseId::from_u32)
    }
}

impl Body {
    /// A body holding nothing, over `m`'s arenas: the module's types, constants and metadata
    /// seen as a body sees them, where there is no body (a header, the module's own nodes).
    pub fn empty_of(m: &Module) -> Body {
        Body {
            base: ArenaBase::of(m),
            ..Body::default()
        }
    }

    /// The items of a call's arguments, between its parentheses (not its operand bundles'):
    /// for each, its type, attributes and value.
    pub fn call_argument_items(&self, call: InstId) -> &[Item] {
        let items = self.items(call);
        let Some(open) = items.iter().position(|it| *it == Item::Mark(b'(')) else {
            return &[];
        };
        let arguments = &items[open + 1..];
        let close = arguments.iter().position(|it| *it == Item::Mark(b')'));
        &arguments[..close.unwrap_or(arguments.len())]
    }

    /// Each argument of a call, in order: the attributes the call gives it and its value.
    pub fn call_argument_lists(&self, call: InstId) -> impl Iterator<Item = (&[Attr], Value)> {
        let mut attrs = Body::NO_ATTRS;
        self.call_argument_items(call)
            .iter()
            .filter_map(move |item| match *item {
                Item::Type(_) => {
                    attrs = Body::NO_ATTRS;
                    None
                }
                Item::Attrs(list) => {
                    attrs = list;
                    None
                }
                Item::Value(v) => Some((self.attr_list(attrs), v)),
                _ => None,
            })
    }

    /// The tags of a call's operand bundles (`"deopt"`, `"funclet"`...), quotes included: each
    /// is the word after the bracket that opens the list or after a bundle's closing one.
    pub fn call_bundle_tags(&self, call: InstId) -> impl Iterator<Item = Span> + '_ {
        let items = self.items(call);
        let open = items.iter().position(|it| *it == Item::Mark(b'['));
        items[open.unwrap_or(items.len())..]
            .windows(2)
            .filter_map(|pair| match *pair {
                [Item::Mark(b'[' | b')'), Item::Word { start, len }] => {
                    Some(Item::word_span(start, len))
                }
                _ => None,
            })
    }

    /// The attribute list `Item::Attrs(i)` names.
    pub fn attr_list(&self, i: u32) -> &[Attr] {
        if i == Body::NO_ATTRS {
            return &[];
        }
        let (start, end) = self.attr_lists[i as usize];
        &self.attrs[start as usize..end as usize]
    }

    /// What `Item::Attrs` names for an empty list, which takes no place in
    /// [`Body::attr_lists`]: most lists of calls' arguments are empty, and a body of many calls
    /// would hold one for each.
    pub const NO_ATTRS: u32 = u32::MAX;

    /// The constant `c` as seen from this body: one of its own, or the module's.
    pub fn constant<'a>(&'a self, m: &'a Module, c: ConstId) -> &'a Const {
        match (c.index()).checked_sub(self.base.consts as usize) {
            Some(own) => &self.consts[own],
            None => &m.consts[c],
        }
    }

    pub fn ty<'a>(&'a self, m: &'a Module, t: TypeId) -> &'a Type {
        match (t.index()).checked_sub(self.base.types as usize) {
            Some(own) => &self.types[own],
            None => m.types.get(t),
        }
    }

    /// Follow named types to their bodies (opaque ones stay as they are). Named types and
    /// their bodies are the module's, so after one step [`Types::resolve`] goes on.
    pub fn resolve_ty(&self, m: &Module, t: TypeId) -> TypeId {
        match self.ty(m, t) {
            Type::Named(n) => match m.types.named[*n].body {
                Some(Some(body)) => m.types.resolve(body),
                _ => t,
            },
            _ => t,
        }
    }

    pub fn md_node<'a>(&'a self, m: &'a Module, id: MdId) -> &'a MdNode {
        match (id.index()).checked_sub(self.base.metadata as usize) {
            Some(own) => &self.metadata[own],
            None => &m.metadata[id],
        }
    }

    pub fn items(&self, inst: InstId) -> &[Item] {
        let i = &self.insts[inst];
        &self.items[i.items_start as usize..(i.items_start + i.items_len) as usize]
    }
    pub fn attachments(&self, inst: InstId) -> &[(Span, MdRef)] {
        let i = &self.insts[inst];
        &self.attachments[i.md_start as usize..i.md_start as usize + i.md_len as usize]
    }
    pub fn entry(&self) -> Option<BlockId> {
        self.blocks.keys().next()
    }
    /// The blocks reachable from the entry, in depth-first preorder with successors taken in
    /// terminator operand order: the walk order of the merge-semantics spec (§3).
    pub fn reachable_blocks(&self) -> Vec<BlockId> {
        // Sized once: grown block by block, the lists took a fifth of the walk.
        let mut order = Vec::with_capacity(self.blocks.len());
        let Some(entry) = self.entry() else {
            return order;
        };
        // Most small functions are one block: no walk, no tables.
        if self.blocks.len() == 1 {
            order.push(entry);
            return order;
        }
        let mut seen = vec![false; self.blocks.len()];
        let mut stack = Vec::with_capacity(self.blocks.len());
        stack.push(entry);
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b.index()], true) {
                continue;
            }
            order.push(b);
            // Successors go on the stack in reverse, so the first is walked first.
            let at = stack.len();
            stack.extend(self.successors(b).filter(|s| !seen[s.index()]));
            stack[at..].reverse();
        }
        order
    }

    /// The blocks a block's terminator may branch to, in operand order.
    pub fn successors(&self, block: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.terminator_locals(block)
            .filter_map(move |l| match self.locals[l].def {
                LocalDef::Block(b) => Some(b),
                _ => None,
            })
    }

    /// The locals a block's terminator names (its targets among them), in LLVM's operand
    /// order: the text's, but for a `catchswitch`, whose unwind destination, written last,
    /// is LLVM's first successor.
    pub fn terminator_locals(&self, block: BlockId) -> impl Iterator<Item = LocalId> + '_ {
        let b = &self.blocks[block];
        let term = (b.inst_count > 0).then(|| InstId::from_u32(b.first_inst + b.inst_count - 1));
        let items = term.map_or(&[][..], |t| self.items(t));
        let (first, rest) = match (term, items.split_last()) {
            (Some(t), Some((unwind @ Item::Value(_), handlers)))
                if self.insts[t].opcode == Opcode::CatchSwitch =>
            {
                (std::slice::from_ref(unwind), handlers)
            }
            _ => (&[][..], items),
        };
        first.iter().chain(rest).filter_map(|item| match item {
            Item::Value(v) => match v.kind() {
                ValueKind::Local(l) => Some(l),
                _ => None,
            },
            _ => None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub global: GlobalId,
    pub link: Linkable,
    pub ret_attrs: AttrList,
    pub ret_ty: TypeId,
    /// The function type, `ret (params...)`.
    pub fn_ty: TypeId,
    pub params: Box<[Param]>,
    pub varargs: bool,
    pub fn_attrs: AttrList,
    /// Function-level metadata attachments `!kind !node`.
    pub metadata: Box<[(Span, MdRef)]>,
    /// From `define`/`declare` up to the body's `{` (or the end of the declaration).
    pub header_span: Span,
    /// The whole entity.
    pub span: Span,
    /// How many newlines follow it: the line it ends and the blank lines after (what goes
    /// with it when it is removed; kept so that removing it need not read the text).
    pub newlines_after: u32,
    /// Facts about its body, for a definition; the body is read with [`Module::body`].
    pub body: Option<BodyInfo>,
    /// Its body was replaced by an edit (the model's `body` still describes the text read).
    pub rewritten: bool,
    /// Deleted by an edit.
    pub deleted: bool,
    /// The header's parts that many functions do without, boxed apart when there is one
    /// ([`Function::extras`]): inline, they took 124 of a function's 336 bytes, and a module
    /// may hold tens of thousands of small functions.
    pub(crate) extras: Option<Box<HeaderExtras>>,
}

/// The parts of a function's header that many functions do without: those C++ and Rust
/// functions often have (a C++ method has a comdat and an alignment), and the others boxed
/// apart again ([`HeaderExtras::rare`]), so that a function with a comdat or a personality
/// only costs a small box.
#[derive(Clone, Debug, Default)]
pub struct HeaderExtras {
    pub cconv: Option<Span>,
    pub comdat: Option<ComdatRef>,
    pub personality: Option<(TypeId, Value)>,
    /// Its `align N`, as log2 N (N is a power of two up to 2^32; see [`HeaderExtras::align`]):
    /// here, not with the rare parts, as C++ writes one on nearly every method (`align 2`).
    align_log2: Option<u8>,
    rare: Option<Box<RareHeaderParts>>,
}

/// The parts of a function's header that few functions have.
#[derive(Clone, Debug, Default)]
pub struct RareHeaderParts {
    /// The address space `addrspace(N)` names (`"P"` resolved by the datalayout), if written.
    pub addrspace: Option<u32>,
    pub section: Option<Span>,
    pub partition: Option<Span>,
    pub gc: Option<Span>,
    pub prefix: Option<(TypeId, Value)>,
    pub prologue: Option<(TypeId, Value)>,
}

impl HeaderExtras {
    const NONE: HeaderExtras = HeaderExtras {
        cconv: None,
        comdat: None,
        personality: None,
        align_log2: None,
        rare: None,
    };

    /// Its alignment, `align N`, if written.
    pub fn align(&self) -> Option<u64> {
        self.align_log2.map(|log2| 1 << log2)
    }

    pub(crate) fn set_align(&mut self, align: u64) {
        debug_assert!(align.is_power_of_two() && align <= 1 << 32);
        self.align_log2 = Some(align.trailing_zeros() as u8);
    }

    /// Its address space, section, partition, garbage collector, prefix and prologue, each
    /// `None` where not written.
    pub fn rare(&self) -> &RareHeaderParts {
        self.rare.as_deref().unwrap_or(&RareHeaderParts::NONE)
    }

    pub(crate) fn rare_mut(&mut self) -> &mut RareHeaderParts {
        self.rare.get_or_insert_default()
    }
}

impl RareHeaderParts {
    const NONE: RareHeaderParts = RareHeaderParts {
        addrspace: None,
        section: None,
        partition: None,
        gc: None,
        prefix: None,
        prologue: None,
    };
}

impl Function {
    /// Its calling convention, comdat and personality, each `None` where not written, and
    /// the rarer parts of its header ([`HeaderExtras::rare`]).
    pub fn extras(&self) -> &HeaderExtras {
        self.extras.as_deref().unwrap_or(&HeaderExtras::NONE)
    }

    pub(crate) fn extras_mut(&mut self) -> &mut HeaderExtras {
        self.extras.get_or_insert_default()
    }
}

/// A global's `comdat` or `comdat($name)`, as written.
#[derive(Clone, Copy, Debug)]
pub struct ComdatRef {
    pub span: Span,
    /// Written `comdat`: the comdat of the global's own name (until a rename spells it out).
    pub implicit: bool,
    /// Where the spaces before it start: taking the global out of its comdat removes them
    /// too. Kept so that the edit need not read the text again.
    pub spaced_from: u32,
}

#[derive(Clone, Debug)]
pub struct Variable {
    pub global: GlobalId,
    pub link: Linkable,
    pub is_constant: bool,
    /// `thread_local`, with or without a model.
    pub thread_local: bool,
    pub ty: TypeId,
    /// The address space `addrspace(N)` names (`"G"` resolved by the datalayout), if
    /// written; without, 0.
    pub addrspace: Option<u32>,
    pub init: Option<Value>,
    pub align: Option<u64>,
    pub comdat: Option<ComdatRef>,
    pub section: Option<Span>,
    pub metadata: Vec<(Span, MdRef)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Alias {
    pub global: GlobalId,
    pub link: Linkable,
    pub is_ifunc: bool,
    /// `thread_local`, with or without a model.
    pub thread_local: bool,
    pub ty: TypeId,
    pub target: Value,
    /// The aliasee's (or resolver's) pointer type, which gives the alias its address space.
    pub target_ty: TypeId,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Comdat {
    pub name: Span,
    pub kind: Span,
    pub span: Span,
}

/// A text replacement recorded by an edit; the writer applies them in order of position.
#[derive(Clone, Debug)]
pub struct Patch {
    pub span: Span,
    /// Which part of an entity the patch rewrites: a later edit of the same part replaces it, and
    /// insertions at one position are written in slot order (linkage before `unnamed_addr`).
    pub slot: PatchSlot,
    /// Shared: renaming or retargeting a global writes one text at each of its uses.
    pub text: Arc<str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PatchSlot {
    Text,
    LinkagePrefix,
    UnnamedAddr,
    /// What `Module::spell_as_llvm_prints` inserts: an instruction's alignment at its end,
    /// before the name of a value written right after it (`alloca i32%2 = ...`), and a block's
    /// label before the name of its first value, where both go at one place.
    Align,
    Label,
    ValueName,
}

impl PatchSlot {
    /// Whether an insertion of this slot is written before a wider patch that starts where
    /// it does (an alignment before the attachment a kept body loses), rather than covered
    /// by it (a linkage of a function whose text goes).
    pub fn precedes_wider(self) -> bool {
        matches!(
            self,
            PatchSlot::Label | PatchSlot::ValueName | PatchSlot::Align
        )
    }
}

/// A parsed LLVM IR module.
#[derive(Debug)]
pub struct Module {
    pub source: Source,
    pub data_layout: DataLayout,
    pub types: Types,
    pub globals: PrimaryMap<GlobalId, Global>,
    /// Named globals by their unescaped name; numbered ones (`@0`) by number.
    pub global_by_name: FxHashMap<Arc<[u8]>, GlobalId>,
    pub global_by_number: FxHashMap<u32, GlobalId>,
    pub functions: PrimaryMap<FuncId, Function>,
    pub variables: PrimaryMap<VarId, Variable>,
    pub aliases: PrimaryMap<AliasId, Alias>,
    pub comdats: Vec<Comdat>,
    pub consts: PrimaryMap<ConstId, Const>,
    pub metadata: PrimaryMap<MdId, MdNode>,
    pub md_by_number: NumberMap<MdId>,
    pub named_metadata: Vec<NamedMd>,
    /// `attributes #N = { ... }`
    pub attr_groups: FxHashMap<u32, AttrList>,
    /// The attributes of every header and group, a run each ([`AttrList`]).
    pub attrs: Vec<Attr>,
    pub uses: PrimaryMap<UseId, GlobalUse>,
    /// The uses below this id are the top level's, in source order; the bodies' follow, a run
    /// per function ([`BodyInfo::uses`]).
    pub top_level_uses: u32,
    /// The module flag `SemanticInterposition` is set: a global not known to be defined in
    /// this module's DSO may be replaced at load time ([`Module::is_interposable`]). Read once,
    /// before the bodies ([`Module::reads_semantic_interposition`]): every direct call an
    /// encoding meets asks it.
    pub semantic_interposition: bool,
    /// The intrinsics declared with LLVM's signature that have parameters taking only an
    /// immediate, by function, with those parameters and their ranges: found once, before the
    /// bodies, whose calls of them the reader checks.
    pub(crate) intrinsic_immediates: Vec<(FuncId, crate::read::Immediates)>,
    /// The functions calls of which are convergent by their callee, in order: declared
    /// `convergent` (by a group too), or intrinsics LLVM's table makes so. Found once, before
    /// the bodies, whose calls the convergence verifier's rules ask about; empty in most
    /// modules.
    pub(crate) convergent_functions: Vec<FuncId>,
    /// What the module's metadata nodes reach that LLVM's verifier refuses wherever an
    /// attachment reaches it: found once, before the bodies, whose attachments the reader checks.
    pub(crate) nodes_reached: crate::read::NodesReached,
    /// Edits made since reading, applied by the writer.
    /// Of two patches of one span and slot, the later replaces the earlier.
    pub patches: Vec<Patch>,
    /// The text the last retargeting edit wrote, with the global it names: every member of a
    /// class is retargeted to one body, and a C++ name runs to hundreds of bytes (eigenprog-O0:
    /// 9,517 folds into 526 bodies, 1.6 MB of names made one a fold).
    pub(crate) retargeted_to: Option<(GlobalId, Arc<str>)>,
    /// New top-level entities, written after the last function (where LLVM appends one).
    pub appended: String,
    /// New aliases, written before the first function, where LLVM prints aliases.
    pub aliases_added: String,
    /// The number of the next metadata node appended, once one is (after the module's own).
    pub next_appended_metadata: Option<u32>,
    /// The `uselistorder` and `uselistorder_bb` directives, of the top level and of the bodies
    /// (whole lines there, [`Body::use_list_orders`]), until the first edit deletes them: an
    /// order lists every use of a value, which an edit anywhere may change. What the top
    /// level's name is not recorded as a use (they order uses, they are none); a body's are
    /// read with the body, as uses of it.
    pub use_list_orders: Vec<Span>,
    /// Where each function name in a `blockaddress(@f, %bb)` starts, in order: such a use
    /// pins `@f`'s blocks.
    pub block_address_uses: Vec<u32>,
    /// The summary entries (`^0 = module: ...`, `^1 = gv: ...`: a ThinLTO index of the module,
    /// its functions, their calls and references), until the first edit deletes them: they
    /// describe the module as it was, and `llvm-as` refuses an entry that names a function no
    /// longer defined (opt-22 never prints them).
    pub summary_entries: Vec<Span>,
    /// Where LLVM's lexer stops reading bare labels (`entry:`, `line:`): from the `=` of the
    /// first summary entry (`^0 = ...`) on, it reads `name:` as a name and a colon, as within
    /// an entry (`u32::MAX` without one). The reader refuses a bare label past it, as LLVM does.
    pub(crate) labels_end: u32,
    /// The target triple names an AMDGPU architecture (`amdgcn`, `r600`), whose allocas
    /// LLVM's verifier wants in address space 5.
    pub(crate) amdgpu: bool,
    /// The target triple's object format is COFF (a Windows or UEFI target, or one that
    /// names it), where LLVM's verifier refuses a comdat named after a private global.
    pub(crate) coff: bool,
    /// Which of the lines that head a module it has, and the layout its triple gives it
    /// where it writes none: what `mergefn opt` needs to head its output as opt does.
    pub header: ModuleHeader,
}

/// The lines that head a module: which it writes, and the layout LLVM derives for it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModuleHeader {
    /// It writes a `source_filename` (else LLVM prints the module's identifier as one).
    pub source_filename: bool,
    /// It writes a `target datalayout` or `target triple`.
    pub target: bool,
    /// The layout LLVM gives a module that names a target triple it knows and writes no
    /// layout (or an empty one): opt prints it, as `target datalayout`, before the triple.
    pub triple_layout: Option<&'static str>,
    /// A top-level statement starts after another on its line (LLVM prints each on its own,
    /// and `mergefn opt`'s passes over the written text read it so).
    pub lines_shared: bool,
}

impl Module {
    pub fn text(&self, span: Span) -> &str {
        &self.source[span.range()]
    }

    pub fn bytes(&self, span: Span) -> &[u8] {
        &self.source.as_bytes()[span.range()]
    }

    pub fn attr_list(&self, list: AttrList) -> &[Attr] {
        &self.attrs[list.start as usize..][..list.len as usize]
    }

    /// The attributes of group `#n`, if the module defines it.
    pub fn attr_group(&self, n: u32) -> Option<&[Attr]> {
        self.attr_groups.get(&n).map(|&list| self.attr_list(list))
    }

    /// Hand the memory the allocator holds free back to the system, in a module large enough
    /// for it to count (a text of [`RELEASE_MIN`] or more). Each stage frees much of what it
    /// made on the pool's threads (the bodies' results, the first reading's encodings, the
    /// groups of candidates), in pieces the allocator keeps for those threads, and the next
    /// stage, which allocates on the calling thread, cannot reuse: 9 MiB of rocksdb-O0's (a
    /// C++ module of 31 MB) were free when merging ended. Given back when the bodies are read
    /// (before their results join the module), before each round of merging and after the
    /// last, and once more when merging is done (writing, which allocates again, reuses none
    /// of it): rocksdb-O0's merge peak is 33.9 MiB rather than 36.9, for about 1% more time.
    /// The program's own code goes back too ([`source::release_program_code`]), and once more
    /// before the bodies are read.
    pub(crate) fn give_back_free_memory(&self) {
        if self.source.len() < RELEASE_MIN {
            return;
        }
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: glibc's `malloc_trim` only returns free memory; it takes no pointer.
        unsafe {
            libc::malloc_trim(0);
        }
        source::release_program_code();
    }

    /// The global named `name` as LLVM prints it (`@f`, `@7`, `@"a b"`, `@"\01-[C m]"`, as
    /// [`Module::name_of`] and the report give it) or without its `@`.
    pub fn lookup(&self, name: &str) -> Option<GlobalId> {
        match name.strip_prefix('@').unwrap_or(name) {
            n if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                self.global_by_number.get(&n.parse().ok()?).copied()
            }
            n => self
                .global_by_name
                .get(&*crate::read::strip_name(n.as_bytes()))
                .copied(),
        }
    }

    /// The functions with a body, in module order.
    pub fn definitions(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.functions
            .iter()
            .filter(|(_, f)| f.body.is_some())
            .map(|(f, _)| f)
    }

    /// The uses of `g` still in the text, in source order until an edit moves uses to it.
    pub fn uses_of(&self, g: GlobalId) -> impl Iterator<Item = UseId> + '_ {
        let uses = &self.globals[g].uses;
        uses.iter().copied().filter(|&u| !self.uses[u].dropped)
    }

    /// A new global, found by its name or number from now on.
    pub fn add_global(&mut self, name: GlobalName, kind: GlobalKind, first_use: Span) -> GlobalId {
        let g = self.globals.push(Global {
            name: name.clone(),
            kind,
            first_use,
            uses: Vec::new(),
            dropped_uses: 0,
        });
        match name {
            GlobalName::Named(n) => self.global_by_name.insert(n, g),
            GlobalName::Numbered(n) => self.global_by_number.insert(n, g),
        };
        g
    }

    /// The use `u` names in a body as it is first read (see [`crate::read::BodyWork`]): one
    /// of the module's, or past them one of the body's own `uses`, not yet the module's.
    pub fn use_in_body<'a>(&'a self, uses: &'a [GlobalUse], u: UseId) -> Option<&'a GlobalUse> {
        match u.index().checked_sub(self.uses.len()) {
            Some(i) => uses.get(i),
            None => self.uses.get(u),
        }
    }

    /// Whether another definition may take function `f`'s place at link or load time, as
    /// LLVM's `GlobalValue::isInterposable` answers: its linkage says so, or the module asks
    /// for semantic interposition (`-fsemantic-interposition`) and `f` is not known to be
    /// defined in this DSO (`dso_local`, written or implied by a local linkage or a hidden or
    /// protected visibility).
    pub fn is_interposable(&self, f: FuncId) -> bool {
        self.is_interposable_link(&self.functions[f].link)
    }

    /// Whether a global of this linkage may be replaced at link or load time (see
    /// [`Module::is_interposable`]).
    pub fn is_interposable_link(&self, link: &Linkable) -> bool {
        link.linkage.is_interposable() || (self.semantic_interposition && !self.is_dso_local(link))
    }

    /// LLVM's `isDSOLocal`: written `dso_local`, or implied (`isImplicitDSOLocal`).
    fn is_dso_local(&self, link: &Linkable) -> bool {
        let written = link
            .dso_local()
            .is_some_and(|s| self.bytes(s) == b"dso_local");
        written
            || link.linkage.is_local()
            || (link.visibility != Visibility::Default && link.linkage != Linkage::ExternWeak)
    }

    /// The integer a metadata operand's constant `c` of type `ty` is, as LLVM's
    /// `mdconst::dyn_extract_or_null<ConstantInt>` finds it: its width and bits; `None` when it
    /// is no integer; `Err(())` when it may fold to one (a constant expression) or is wider
    /// than 128 bits, which the verifier's checks here let through.
    pub(crate) fn metadata_int(&self, ty: &Type, c: &Const) -> Result<Option<(u32, u128)>, ()> {
        let width = match ty {
            Type::Int(width) if *width <= 128 => *width,
            Type::Int(_) => return Err(()),
            _ => return Ok(None),
        };
        let bits = match c {
            Const::Int(span, _) => int_literal(self.bytes(*span)).ok_or(())?,
            Const::Zero => 0,
            Const::Expr(_) => return Err(()),
            _ => return Ok(None),
        };
        Ok(Some((width, bits & (u128::MAX >> (128 - width)))))
    }

    /// The entries `!llvm.module.flags` lists, in order.
    pub fn module_flags(&self) -> impl Iterator<Item = MdId> + '_ {
        self.named_metadata
            .iter()
            .filter(|named| self.bytes(named.name) == b"!llvm.module.flags")
            .flat_map(|named| named.nodes.iter().copied())
    }

    /// Whether `!llvm.module.flags` sets `SemanticInterposition` to a non-zero integer, as
    /// LLVM's `Module::getSemanticInterposition` reads it.
    pub fn reads_semantic_interposition(&self) -> bool {
        for node in self.module_flags() {
            let Some(MdBody::Tuple(operands)) = self.metadata.get(node).map(|n| &n.body) else {
                continue;
            };
            let [_, Some(MdRef::Str(key)), Some(MdRef::Value(_, value))] = &operands[..] else {
                continue;
            };
            if self.bytes(*key) != b"!\"SemanticInterposition\"" {
                continue;
            }
            // The verifier asks for a constant integer; anything else reads as unset.
            return match value.kind() {
                ValueKind::Const(c) => match self.consts.get(c) {
                    Some(Const::Int(span, _)) => {
                        int_literal(self.bytes(*span)).is_some_and(|v| v != 0)
                    }
                    _ => false,
                },
                _ => false,
            };
        }
        false
    }

    pub fn function_of(&self, g: GlobalId) -> Option<FuncId> {
        match self.globals[g].kind {
            GlobalKind::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The global a function defines.
    pub fn name_of(&self, g: GlobalId) -> String {
        crate::write::global_name(&self.globals[g].name)
    }

    /// The address space a function lives in: the one its header names, else the
    /// datalayout's program address space.
    pub fn function_addr_space(&self, f: FuncId) -> u32 {
        self.functions[f]
            .extras()
            .rare()
            .addrspace
            .unwrap_or(self.data_layout.program_addr_space)
    }

    /// The address space of a global's pointer (`ptr addrspace(N) @g`), as LLVM gives it:
    /// a function's, a variable's (written, else 0: LLVM 22's reader ignores the
    /// datalayout's `G` there), an alias's aliasee's; 0 for what is not defined.
    pub fn global_addr_space(&self, g: GlobalId) -> u32 {
        match self.globals[g].kind {
            GlobalKind::Function(f) => self.function_addr_space(f),
            GlobalKind::Variable(v) => self.variables[v].addrspace.unwrap_or(0),
            GlobalKind::Alias(a) => match self.types.get(self.aliases[a].target_ty) {
                Type::Ptr(a) => *a,
                _ => 0,
            },
            GlobalKind::Pending | GlobalKind::Intrinsic => 0,
        }
    }

    pub fn linkable(&self, g: GlobalId) -> Option<&Linkable> {
        match self.globals[g].kind {
            GlobalKind::Function(f) => Some(&self.functions[f].link),
            GlobalKind::Variable(v) => Some(&self.variables[v].link),
            GlobalKind::Alias(a) => Some(&self.aliases[a].link),
            GlobalKind::Pending | GlobalKind::Intrinsic => None,
        }
    }
}

/// Values under the numbers the text gives them (`!7`, `%3`): a vector while the numbers stay
/// dense, as LLVM prints them, and a hash map for far-out ones, so that `!4000000000` costs
/// one entry, not gigabytes.
#[derive(Clone, Debug)]
pub struct NumberMap<V> {
    dense: Vec<Option<V>>,
    sparse: FxHashMap<u32, V>,
}

impl<V> Default for NumberMap<V> {
    fn default() -> Self {
        NumberMap {
            dense: Vec::new(),
            sparse: FxHashMap::default(),
        }
    }
}

impl<V: Copy> NumberMap<V> {
    pub fn get(&self, n: u32) -> Option<V> {
        match self.dense.get(n as usize) {
            Some(Some(v)) => Some(*v),
            _ => self.sparse.get(&n).copied(),
        }
    }

    pub fn contains(&self, n: u32) -> bool {
        self.get(n).is_some()
    }

    pub fn insert(&mut self, n: u32, v: V) {
        let i = n as usize;
        if i >= self.dense.len() {
            if i > 2 * self.dense.len() + 1024 {
                self.sparse.insert(n, v);
                return;
            }
            self.dense.resize(i + 1, None);
        }
        self.dense[i] = Some(v);
    }

    /// Every number with its value: the dense ones in order, then the far-out ones.
    pub fn iter(&self) -> impl Iterator<Item = (u32, V)> + '_ {
        let dense = self.dense.iter().enumerate();
        dense
            .filter_map(|(n, v)| v.map(|v| (n as u32, v)))
            .chain(self.sparse.iter().map(|(&n, &v)| (n, v)))
    }

    /// The largest number that has a value.
    pub fn max_number(&self) -> Option<u32> {
        let dense = self
            .dense
            .iter()
            .rposition(Option::is_some)
            .map(|i| i as u32);
        dense.max(self.sparse.keys().max().copied())
    }

    pub fn clear(&mut self) {
        self.dense.clear();
        self.sparse.clear();
    }
}

#[cfg(test)]
mod number_map_tests {
    use super::NumberMap;

    #[test]
    fn dense_and_far_out_numbers_are_found_alike() {
        let mut map = NumberMap::default();
        assert_eq!(map.max_number(), None);
        map.insert(4_000_000_000, 'z');
        for n in 0..3000 {
            map.insert(n, 'a');
        }
        map.insert(2500, 'b');
        // Far out when inserted, then inside the dense part as it grew.
        map.insert(9000, 'c');
        for n in (3000..9500).filter(|&n| n != 9000) {
            map.insert(n, 'e');
        }
        assert_eq!(map.get(2500), Some('b'));
        assert_eq!(map.get(9000), Some('c'));
        assert_eq!(map.get(9001), Some('e'));
        assert_eq!(map.get(4_000_000_000), Some('z'));
        assert!(!map.contains(9500) && !map.contains(100_000));
        assert_eq!(map.max_number(), Some(4_000_000_000));
        map.clear();
        assert_eq!(map.get(1), None);
    }
}

#[cfg(test)]
mod tests {
    /// `SemanticInterposition` is read as LLVM reads it (a non-zero integer in
    /// `!llvm.module.flags`), and then only functions not `dso_local` are interposable.
    #[test]
    fn semantic_interposition_makes_functions_not_dso_local_interposable() {
        let flag = |value: &str| {
            format!(
                "!llvm.module.flags = !{{!0, !1}}\n!0 = !{{i32 7, !\"PIC Level\", i32 2}}\n!1 = !{{i32 1, !\"SemanticInterposition\", {value}}}\n"
            )
        };
        let functions = "define void @ext() {\n  ret void\n}\n\
            define dso_local void @local() {\n  ret void\n}\n\
            define dso_preemptable void @preemptable() {\n  ret void\n}\n\
            define hidden void @hidden() {\n  ret void\n}\n\
            define protected void @protected() {\n  ret void\n}\n\
            define internal void @internal() {\n  ret void\n}\n\
            define weak hidden void @weak() {\n  ret void\n}\n";
        let interposable = |text: String| {
            let m = crate::read::parse(text).unwrap();
            let names = [
                "ext",
                "local",
                "preemptable",
                "hidden",
                "protected",
                "internal",
                "weak",
            ];
            names
                .iter()
                .filter(|n| m.is_interposable(m.function_of(m.lookup(n).unwrap()).unwrap()))
                .copied()
                .collect::<Vec<_>>()
        };
        let on = interposable(format!("{functions}{}", flag("i32 1")));
        assert_eq!(on, ["ext", "preemptable", "weak"]);
        for off in [flag("i32 0"), flag("i64 0"), String::new()] {
            assert_eq!(interposable(format!("{functions}{off}")), ["weak"], "{off}");
        }
        // Not an integer: LLVM's verifier refuses it, and so does the reader.
        assert!(crate::read::parse(format!("{functions}{}", flag("!\"yes\""))).is_err());
    }
}
