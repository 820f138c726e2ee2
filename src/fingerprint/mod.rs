//! fingerprint: the canonical encoding of a function (merge-semantics spec §2–§5).
//!
//! Two functions are equal exactly when their encodings are equal byte for byte and the
//! functions their holes name fall in the same classes (see `partition`). The encoding
//! is a flat byte string of tagged, length-prefixed pieces, so equality is plain equality,
//! transitive by construction, and a hash of the bytes agrees with it.
//!
//! What the encoding contains, in order: the attribute lists (groups expanded, sorted), gc,
//! section, varargs, calling convention, function type, `!type`/`!kcfi_type`; then every
//! block reachable from the entry in the walk order of [`Body::reachable_blocks`], with local
//! values numbered by first appearance (arguments first) and, per instruction, its opcode,
//! result type and operand items. Pointers in address space 0 encode as the pointer-sized
//! integer; nulls of any type encode alike (their type is encoded beside them); named structs
//! encode by their body. References to other functions that merging makes holes (direct
//! calls, and addresses whose every use a fold moves: see `merge::HoleRule`) encode as a
//! hole; every other reference to a global encodes its name.

mod attributes;

use crate::model::*;
use attributes::{attribute_key, merge_group_keys, upgrade_memory_keys};
use cranelift_entity::EntityRef;
use rustc_hash::{FxHashMap, FxHasher};
use std::borrow::Cow;
use std::hash::Hasher;
use std::sync::{Arc, OnceLock};

/// The encoding of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub bytes: Vec<u8>,
    /// The function every hole names, in the order the holes appear in `bytes`.
    pub holes: Vec<GlobalId>,
    /// The attachments of loads and stores left out of `bytes`, which a survivor drops
    /// where the members of its class differ.
    pub droppable: Vec<Droppable>,
}

/// A metadata attachment of a load or a store (`, !tbaa !5`) that equality leaves aside
/// (spec §5, "going further"): functions that differ only there merge, and the survivor
/// drops each such attachment that not every member of its class has, equal by the deep
/// comparison. Dropping metadata loses facts an optimizer may use, never behaviour, so the
/// kept body does what each member did.
///
/// A function's loads and stores carry few distinct kinds and nodes, each many times: the
/// droppables of one function share their texts (and merging's first reading shares them
/// across functions). harfbuzz-O2's 14,136 droppables kept from the first reading held 4.4
/// MB of node encodings, of 519 distinct ones; shared within each function, the peak memory
/// of its merge went from 28.2 to 26.1 MB, and across functions to 24.0 MB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Droppable {
    /// The instruction's place among the function's instructions, in the walk of §3.
    pub inst: u32,
    /// The kind, as written (`!tbaa`).
    pub kind: Arc<[u8]>,
    /// The metadata's encoding, on its own (nodes numbered from its root).
    pub md: Arc<[u8]>,
}

/// Which part of a function a stretch of the encoding comes from, for `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// One of the attribute lists; its mark's span covers the list's text (empty when the
    /// list is).
    Attributes(AttributesOf),
    Gc,
    Section,
    Varargs,
    CallingConv,
    FunctionType,
    /// The address space the function lives in.
    AddressSpace,
    CfiType,
    /// A block reached in the control-flow walk, of this many instructions.
    BlockShape {
        instructions: u32,
    },
    Instruction(Opcode),
    Metadata(Opcode),
    /// `inbounds`, `nusw`, `nuw` of a getelementptr.
    GepFlags,
    /// The source element type of a getelementptr.
    GepSourceType,
    /// The bytes a getelementptr of constant indices adds, where that is all it does.
    GepOffset(i64),
    /// The function's own address used other than as a callee.
    OwnAddress,
    /// The alignment of an atomicrmw or cmpxchg.
    AtomicAlign,
}

/// Which of a function's attribute lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributesOf {
    Function,
    Return,
    /// The parameter of this index, from 0.
    Parameter(u32),
}

impl AttributesOf {
    /// How people call the list.
    pub fn describe(self) -> String {
        match self {
            AttributesOf::Function => "the function's attributes".into(),
            AttributesOf::Return => "the return value's attributes".into(),
            AttributesOf::Parameter(i) => format!("the attributes of parameter {}", i + 1),
        }
    }
}

impl Part {
    /// The rule of the merge-semantics spec that compares this part.
    pub fn rule(self) -> String {
        match self {
            Part::Attributes(of) => format!("§2.1: the attribute lists (function, return, each parameter) must be equal; here {}", of.describe()),
            Part::Gc => "§2.2: the garbage collector names must be equal".into(),
            Part::Section => "§2.3: the sections must be equal".into(),
            Part::Varargs => "§2.4: both or neither must be varargs".into(),
            Part::CallingConv => "§2.5: the calling conventions must be equal".into(),
            Part::FunctionType => "§2.6 and §4: the function types must be equal (ptr in address space 0 equals the pointer-sized integer)".into(),
            Part::AddressSpace => "§2.6 (we differ): the functions' address spaces must be equal, as a use of one is replaced by the other".into(),
            Part::CfiType => "§2 (we differ): function-level !type and !kcfi_type must be equal".into(),
            Part::BlockShape { .. } => "§3: the control-flow walks must meet blocks of the same size in the same order".into(),
            Part::Instruction(op) => format!(
                "§5: instructions must agree in opcode, types, operands (locals by first appearance, globals by identity, constants by §4) and flags; here `{}`",
                format!("{op:?}").to_lowercase()
            ),
            Part::Metadata(op) => format!(
                "§5: metadata compared on `{}` must be structurally equal",
                format!("{op:?}").to_lowercase()
            ),
            Part::GepFlags => "§5 (we differ): getelementptr no-wrap flags must be equal".into(),
            Part::GepSourceType => "§5 (we differ): getelementptr source element types and indices must be equal where the steps matter, not only the bytes they add (a variable index; with inbounds or nusw, a step back after another step; with nuw, any step back)".into(),
            Part::GepOffset(_) => "§5: getelementptr of constant indices must add the same number of bytes".into(),
            Part::OwnAddress => "§3 (we differ): a function's own address outside calls compares as an ordinary global".into(),
            Part::AtomicAlign => "§5 (we differ): atomicrmw and cmpxchg alignments must be equal".into(),
        }
    }

    /// The "we differ" rule of the spec this part falls under, if any: where LLVM 22 merges
    /// and we do not.
    pub fn we_differ(self) -> Option<&'static str> {
        Some(match self {
            Part::AddressSpace => "function address space",
            Part::CfiType => "function-level !type/!kcfi_type",
            Part::GepFlags => "getelementptr no-wrap flags",
            Part::GepSourceType => "getelementptr source type",
            Part::OwnAddress => "own address outside calls",
            Part::AtomicAlign => "atomic alignment",
            Part::Metadata(Opcode::Store) => "store metadata",
            Part::Metadata(_) => "deep metadata comparison",
            _ => return None,
        })
    }
}

/// A point of the encoding: from byte `at` on, the encoding describes `span` of the source.
#[derive(Clone, Copy, Debug)]
pub struct TraceMark {
    pub at: usize,
    pub span: Span,
    pub part: Part,
}

/// How a function names another global: as the callee of a direct call, or otherwise (its
/// address, an operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    Call,
    Address,
}

/// What encoding a function needs to know of the module: how references to other globals are
/// encoded, and the encodings of attribute lists made once for the module ([`Tables`]).
pub struct Context<'m> {
    module: &'m Module,
    /// Whether a reference to this global is a hole compared by class (merging's rule, see
    /// `merge::HoleRule`).
    is_hole: Box<dyn Fn(GlobalId, Reference) -> bool + Send + Sync + 'm>,
    tables: Arc<Tables>,
}

/// The encodings of attribute lists that recur, made once for a module's text and header: a
/// module read and not edited since has the tables it had when it was read, so merging's
/// first round takes those its reading made (jsonprog-O0: 0.5 ms).
#[derive(Clone)]
pub struct Tables {
    /// The encoding of an attribute list that is one group (`#N`), as [`Encoder::attrs`]
    /// writes it, for the groups of text attributes only. Call sites of C++ and Rust modules
    /// mostly carry one such group, so this saves expanding and sorting it at each. Shared by
    /// every copy of the tables: each thread that adds headers' lists takes a copy, and a
    /// module may have tens of thousands of groups.
    single_groups: Arc<FxHashMap<u32, KnownList>>,
    /// The encoding of each list of text attributes only that a function header holds, found
    /// by the list's text. C++ and Rust parameters repeat a few lists thousands of times
    /// (`noundef nonnull align 8 dereferenceable(16)`), at headers and at call sites alike,
    /// and equal texts hold equal attributes.
    text_lists: FxHashMap<Box<[u8]>, KnownList>,
    /// The number of each distinct encoding the two tables above hold, once they are all
    /// there ([`Tables::numbered`]): a function's encoding names such a list by its number
    /// ([`Encoder::attrs`]). Written out, attribute lists were half the bytes of the
    /// encodings merging keeps from the first reading (eigenprog-O0: 4.3 MB), C++ functions
    /// repeating the same few hundred bytes at each header and call site.
    numbers: Arc<FxHashMap<Box<[u8]>, u32>>,
    /// The encoding of each of the module's types, by id, that is or names a scalar type
    /// (empty for the others): most types an encoder meets are `ptr`, `i32` and the like.
    /// Shared by every copy of the tables.
    scalar_types: Arc<[ScalarType]>,
    /// The encoding of each of the module's named types that has a body, by its id, made by
    /// the first encoder that meets it (so only for the types some function uses) and shared
    /// by every copy of the tables. C++ objects nest: SPIRV-Cross's GEPs and allocas name
    /// structs whose encodings, every nested struct spelled out, run to kilobytes.
    named_types: Arc<[OnceLock<KnownType>]>,
    /// The room each of the module's types takes in memory, by id, for the offsets of
    /// getelementptr ([`Encoder::gep_offset`]): worked out, all at once and in one order, by
    /// the first encoder that needs one, and shared by every copy of the tables.
    memories: Arc<OnceLock<Vec<Option<Memory>>>>,
}

/// An attribute list's encoding in the [`Tables`]: written out, and its number once the
/// tables are numbered ([`Tables::numbered`]; [`UNNUMBERED`] before).
#[derive(Clone)]
struct KnownList {
    bytes: Box<[u8]>,
    number: u32,
}

impl KnownList {
    fn new(bytes: Vec<u8>) -> KnownList {
        KnownList {
            bytes: bytes.into_boxed_slice(),
            number: UNNUMBERED,
        }
    }
}

/// Lists whose encodings take this many bytes or fewer are not numbered: their numbers
/// would take as many.
const NUMBERED_LIST_MIN: usize = 4;

/// A named type's encoding as [`Encoder::ty`] writes it from depth 0, kept when it is long
/// enough to be worth it (else `bytes` is empty and the type is encoded each time), and how
/// deep below the type that encoding goes: from a depth at which it would reach
/// [`MAX_TYPE_DEPTH`], where names are no longer followed, the type is encoded anew.
struct KnownType {
    bytes: Box<[u8]>,
    height: u32,
}

/// Encodings of named types shorter than this are made each time: a copy saves little there.
const KNOWN_TYPE_MIN: usize = 64;

/// The encoding of a scalar type ([`Encoder::ty`]): a tag, a kind and at most a number.
#[derive(Clone, Copy, Default)]
struct ScalarType {
    len: u8,
    bytes: [u8; 7],
}

impl ScalarType {
    /// The encoding of `ty` if it is a scalar (not an aggregate, a function, a target
    /// extension or a named type).
    fn encoding(m: &Module, ty: &Type) -> Option<ScalarType> {
        let (kind, number) = match *ty {
            Type::Void => (0, None),
            Type::Label => (1, None),
            Type::Metadata => (2, None),
            Type::Token => (3, None),
            Type::X86Amx => (4, None),
            Type::Float(k) => (5, Some(k as u32)),
            Type::Int(w) => (6, Some(w)),
            // A pointer of address space 0 encodes as the integer of its width, when known.
            Type::Ptr(0) if !m.data_layout.unknown => (6, Some(m.data_layout.pointer_bits(0))),
            Type::Ptr(a) => (7, Some(a)),
            _ => return None,
        };
        let mut scalar = ScalarType {
            len: 2,
            bytes: [tag::TYPE, kind, 0, 0, 0, 0, 0],
        };
        let mut push = |b: u8| {
            scalar.bytes[scalar.len as usize] = b;
            scalar.len += 1;
        };
        match (kind, number) {
            // A float's kind is one byte, whatever its value.
            (5, Some(k)) => push(k as u8),
            // Five bytes at most for 32 bits.
            (_, Some(n)) => num_bytes(n.into(), push),
            (_, None) => {}
        }
        Some(scalar)
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Appends the encoding: all seven bytes, a copy of known length that needs no call to
    /// `memcpy`, then cut back to the encoding's.
    fn put(&self, out: &mut Vec<u8>) {
        let len = out.len() + self.len as usize;
        out.extend_from_slice(&self.bytes);
        out.truncate(len);
    }
}

impl Tables {
    pub fn new(module: &Module) -> Tables {
        let mut tables = Tables::of_groups(module);
        // Headers lie all over the text; each maps in the pages around it.
        let mut behind = ReleaseBehind::new(&module.source);
        for f in module.functions.keys() {
            behind.read(module.functions[f].header_span.range());
            tables.add_header_lists(module, f);
        }
        tables.numbered()
    }

    /// The tables with the attribute groups' encodings and no header's lists yet: those are
    /// added header by header ([`Tables::add_header_lists`]), by threads that each hold
    /// tables of their own, joined at the end ([`Tables::join`]).
    pub fn of_groups(module: &Module) -> Tables {
        let mut single_groups = FxHashMap::default();
        for (&n, &group) in &module.attr_groups {
            let group = module.attr_list(group);
            let mut keys = Vec::with_capacity(group.len());
            for a in group {
                match a.kind() {
                    AttrKind::Text(s) => keys.push(attribute_key(module.bytes(s))),
                    _ => break,
                }
            }
            if keys.len() != group.len() {
                continue;
            }
            upgrade_memory_keys(&mut keys);
            let mut out = vec![tag::ATTRS];
            put_attribute_keys(&mut out, &mut keys);
            single_groups.insert(n, KnownList::new(out));
        }
        // As `Encoder::ty` finds it: a named type by its body.
        let empty = Body::empty_of(module);
        let scalar_types = (0..module.types.len())
            .map(|t| {
                let ty = empty.ty(module, empty.resolve_ty(module, TypeId::new(t)));
                ScalarType::encoding(module, ty).unwrap_or_default()
            })
            .collect();
        Tables {
            single_groups: Arc::new(single_groups),
            text_lists: FxHashMap::default(),
            numbers: Arc::default(),
            scalar_types,
            named_types: (0..module.types.named.len())
                .map(|_| OnceLock::new())
                .collect(),
            memories: Arc::default(),
        }
    }

    /// Adds the encodings of `f`'s lists of text attributes (its parameters' and its
    /// result's) that the tables do not hold yet.
    pub fn add_header_lists(&mut self, module: &Module, f: FuncId) {
        let f = &module.functions[f];
        let lists = f.params.iter().map(|p| p.attrs).chain([f.ret_attrs]);
        for list in lists.map(|l| module.attr_list(l)) {
            let Some(text) = text_only_list(module, list) else {
                continue;
            };
            if self.text_lists.contains_key(text) {
                continue;
            }
            let mut keys: Vec<Cow<[u8]>> = list
                .iter()
                .filter_map(|a| match a.kind() {
                    AttrKind::Text(s) => Some(attribute_key(module.bytes(s))),
                    _ => None,
                })
                .collect();
            upgrade_memory_keys(&mut keys);
            let mut out = vec![tag::ATTRS];
            put_attribute_keys(&mut out, &mut keys);
            self.text_lists.insert(text.into(), KnownList::new(out));
        }
    }

    /// Takes in the header lists `other` holds (tables of the same module's groups).
    pub fn join(&mut self, other: Tables) {
        if self.text_lists.len() < other.text_lists.len() {
            let mine = std::mem::replace(&mut self.text_lists, other.text_lists);
            self.text_lists.extend(mine);
        } else {
            self.text_lists.extend(other.text_lists);
        }
    }

    /// The tables with every list they hold numbered, once no list is added: the distinct
    /// encodings in order, so that the numbers are the same whatever order the lists were
    /// added in (by threads, in [`Tables::join`]).
    pub fn numbered(mut self) -> Tables {
        let lists = self.single_groups.values().chain(self.text_lists.values());
        let mut distinct: Vec<&[u8]> = lists
            .map(|list| &*list.bytes)
            .filter(|bytes| bytes.len() > NUMBERED_LIST_MIN)
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        let numbers: FxHashMap<Box<[u8]>, u32> = (distinct.into_iter().enumerate())
            .map(|(n, bytes)| (bytes.into(), n as u32))
            .collect();
        let number = |list: &mut KnownList| {
            list.number = numbers.get(&list.bytes).copied().unwrap_or(UNNUMBERED);
        };
        Arc::make_mut(&mut self.single_groups)
            .values_mut()
            .for_each(number);
        self.text_lists.values_mut().for_each(number);
        self.numbers = Arc::new(numbers);
        self
    }
}

impl<'m> Context<'m> {
    pub fn new(
        module: &'m Module,
        is_hole: Box<dyn Fn(GlobalId, Reference) -> bool + Send + Sync + 'm>,
    ) -> Self {
        Context::with_tables(module, is_hole, Arc::new(Tables::new(module)))
    }

    /// A context with `tables` made for this module as it is now.
    pub fn with_tables(
        module: &'m Module,
        is_hole: Box<dyn Fn(GlobalId, Reference) -> bool + Send + Sync + 'm>,
        tables: Arc<Tables>,
    ) -> Self {
        Context {
            module,
            is_hole,
            tables,
        }
    }

    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// Adds `f`'s header lists to the context's tables ([`Tables::add_header_lists`]).
    pub fn add_header_lists(&mut self, f: FuncId) {
        Arc::make_mut(&mut self.tables).add_header_lists(self.module, f);
    }

    /// The context's tables, to join with others ([`Tables::join`]).
    pub fn into_tables(self) -> Tables {
        Arc::unwrap_or_clone(self.tables)
    }
}

/// The text of a list of text attributes only, from its first to its last; `None` for any
/// other list.
fn text_only_list<'m>(m: &'m Module, list: &[Attr]) -> Option<&'m [u8]> {
    let (AttrKind::Text(first), AttrKind::Text(last)) = (list.first()?.kind(), list.last()?.kind())
    else {
        return None;
    };
    if !list.iter().all(|a| matches!(a.kind(), AttrKind::Text(_))) {
        return None;
    }
    Some(m.bytes(Span::new(first.start as usize, last.end as usize)))
}

/// An attribute list's keys as a set: sorted, each once, counted, each length-prefixed.
fn put_attribute_keys<K: AsRef<[u8]> + Ord>(out: &mut Vec<u8>, keys: &mut Vec<K>) {
    keys.sort_unstable();
    keys.dedup();
    put_num(out, keys.len() as u64);
    for k in keys.iter() {
        put_bytes(out, k.as_ref());
    }
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_num(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// `n` in LEB128: seven bits a byte, low first.
fn put_num(out: &mut Vec<u8>, n: u64) {
    num_bytes(n, |b| out.push(b));
}

/// The bytes of `n` in LEB128, to `push` one by one.
fn num_bytes(mut n: u64, mut push: impl FnMut(u8)) {
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            push(low);
            return;
        }
        push(low | 0x80);
    }
}

mod tag {
    pub const TYPE: u8 = 1;
    pub const LOCAL: u8 = 2;
    pub const GLOBAL: u8 = 3;
    pub const HOLE: u8 = 4;
    pub const SELF_CALL: u8 = 5;
    pub const WORD: u8 = 6;
    pub const ATTRS: u8 = 7;
    pub const MD: u8 = 8;
    pub const MARK: u8 = 9;
    pub const ZERO: u8 = 10;
    pub const INT: u8 = 11;
    pub const FLOAT: u8 = 12;
    pub const NONE: u8 = 13;
    pub const UNDEF: u8 = 14;
    pub const POISON: u8 = 15;
    pub const AGGREGATE: u8 = 16;
    pub const EXPR: u8 = 18;
    pub const BLOCKADDRESS_SELF: u8 = 19;
    pub const BLOCKADDRESS: u8 = 20;
    pub const DSO_LOCAL_EQUIVALENT: u8 = 21;
    pub const NO_CFI: u8 = 22;
    pub const PTRAUTH: u8 = 23;
    pub const SPLAT: u8 = 24;
    pub const ASM: u8 = 25;
    pub const MD_NODE: u8 = 26;
    pub const MD_BACKREF: u8 = 27;
    pub const MD_STRING: u8 = 28;
    pub const MD_VALUE: u8 = 29;
    pub const MD_NULL: u8 = 30;
    pub const MD_SPECIALIZED: u8 = 31;
    pub const MD_ARGLIST: u8 = 32;
    pub const BLOCK: u8 = 33;
    pub const INST: u8 = 34;
    pub const NAMED_TYPE: u8 = 35;
    pub const MD_NESTED: u8 = 36;
    pub const GEP_OFFSET: u8 = 37;
    pub const WIDE_INT: u8 = 38;
    pub const INT_TEXT: u8 = 39;
    pub const WIDE_FLOAT: u8 = 40;
    pub const FLOAT_TEXT: u8 = 41;
    pub const FLAGS: u8 = 42;
    pub const ALIGN: u8 = 43;
    pub const IMPLIED_ALIGN: u8 = 44;
    pub const SYNCSCOPE: u8 = 45;
    pub const ADDRSPACE: u8 = 46;
    pub const CALLING_CONV: u8 = 47;
    pub const NUMBER: u8 = 48;
    pub const CALL_TYPE: u8 = 49;
    pub const ADDRESS_HOLE: u8 = 50;
    pub const ATTRS_NUMBER: u8 = 51;
    pub const END_ITEMS: u8 = 0xff;
}

/// Whether an attachment of this kind lists alias scopes.
fn is_alias_scopes(kind: &[u8]) -> bool {
    matches!(kind, b"!alias.scope" | b"!noalias")
}

/// The most indices of a getelementptr that [`Encoder::gep_offset`] adds up; real code has
/// a few, a deep walk into nested structs a dozen.
const MAX_STEPS: usize = 16;

/// The instruction metadata that takes part in the comparison (§5): on loads and stores
/// everything but debug information, on calls `!range`.
fn compares_metadata(op: Opcode, kind: &[u8]) -> bool {
    match op {
        Opcode::Load | Opcode::Store => !matches!(kind, b"!dbg" | b"!DIAssignID"),
        Opcode::Call | Opcode::Invoke | Opcode::CallBr => kind == b"!range",
        _ => false,
    }
}

/// Whether the attachment whose kind is at `kind` (`!tbaa`) names a numbered node (` !5`).
fn names_numbered_node(m: &Module, kind: Span) -> bool {
    let after = m.source.as_bytes()[kind.end as usize..].trim_ascii_start();
    after.first() == Some(&b'!') && after.get(1).is_some_and(u8::is_ascii_digit)
}

/// The span of the attachment whose kind is at `kind` with the comma before it
/// (`, !tbaa !5`), which removing leaves the instruction without it; `None` if the text
/// around is not that.
pub fn attachment_text(m: &Module, kind: Span) -> Option<Span> {
    let src = m.source.as_bytes();
    let before = src[..kind.start as usize].trim_ascii_end();
    if before.last() != Some(&b',') || !names_numbered_node(m, kind) {
        return None;
    }
    let after = &src[kind.end as usize..];
    let number = after.len() - after.trim_ascii_start().len();
    let digits = after[number + 1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    Some(Span::new(
        before.len() - 1,
        kind.end as usize + number + 1 + digits,
    ))
}

/// The encoding of function `f`, whose body (read with [`Module::body`]) is `body`.
pub fn fingerprint(cx: &Context, f: FuncId, body: &Body) -> Fingerprint {
    fingerprint_first_read(cx, f, body, &[])
}

/// [`fingerprint`] of a body as it is first read, before its uses are the module's: a global
/// value of the body names `uses[id - module's count of uses]` (see [`crate::read::BodyWork`]).
pub fn fingerprint_first_read(
    cx: &Context,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
) -> Fingerprint {
    let mut e = Encoder::new(cx, f, body, None);
    e.body_uses = uses;
    e.function();
    Fingerprint {
        bytes: e.out,
        holes: e.holes,
        droppable: e.droppable,
    }
}

/// A hash of the start of `f`'s encoding that its header decides (attributes, type, calling
/// convention...), its attribute lists written out, computed without its body: functions
/// whose keys differ never have equal encodings, so only those with equal keys need their
/// bodies read.
pub fn header_key(cx: &Context, f: FuncId) -> u64 {
    let no_body = Body::empty_of(cx.module);
    let mut e = Encoder::new(cx, f, &no_body, None);
    e.lists_by_number = false;
    e.header();
    let mut h = FxHasher::default();
    h.write(&e.out);
    h.finish()
}

/// An encoding with where in the source each stretch of it comes from.
pub struct Traced {
    pub print: Fingerprint,
    /// In the order of the encoding.
    pub marks: Vec<TraceMark>,
    /// The instruction that makes each of the encoding's holes, and how it names the
    /// function, in their order.
    pub hole_spans: Vec<(Span, Reference)>,
}

/// Where two traced encodings that first differ in a block's size (written at its start,
/// marks `left` and `right`) differ in the order LLVM compares blocks, instruction by
/// instruction and the shorter block's end last: the marks of the first of the block's
/// instructions that differ, at the first byte they differ; `None` when the blocks differ
/// elsewhere than in their size, or the shorter is the start of the longer.
pub fn first_unequal_instructions(
    f: &Traced,
    left: usize,
    g: &Traced,
    right: usize,
) -> Option<(Option<TraceMark>, Option<TraceMark>)> {
    let is_block = |mk: &TraceMark| matches!(mk.part, Part::BlockShape { .. });
    // Each instruction of the block at mark `block`: its first mark and where its encoding
    // ends (at the next instruction, the next block or the end).
    let instructions = |t: &Traced, block: usize| {
        let rest = &t.marks[block + 1..];
        let end = rest.iter().position(is_block).unwrap_or(rest.len());
        let starts: Vec<usize> = (0..end)
            .filter(|&i| matches!(rest[i].part, Part::Instruction(_)))
            .map(|i| block + 1 + i)
            .collect();
        let ends = (starts.iter().skip(1).map(|&i| t.marks[i].at))
            .chain([rest.get(end).map_or(t.print.bytes.len(), |mk| mk.at)]);
        starts.iter().copied().zip(ends).collect::<Vec<_>>()
    };
    /// The block's tag and number, without the count of its instructions that ends them.
    fn head<'t>(t: &'t Traced, block: usize, first: Option<&(usize, usize)>) -> Option<&'t [u8]> {
        let Part::BlockShape { instructions } = t.marks[block].part else {
            return None;
        };
        let mut count = 0;
        num_bytes(instructions.into(), |_| count += 1);
        let end = t.marks[first?.0].at.checked_sub(count)?;
        t.print.bytes.get(t.marks[block].at..end)
    }
    let (ours, theirs) = (instructions(f, left), instructions(g, right));
    let (our_head, their_head) = (
        head(f, left, ours.first())?,
        head(g, right, theirs.first())?,
    );
    if our_head != their_head {
        return None;
    }
    ours.iter()
        .zip(&theirs)
        .find_map(|(&(a, a_end), &(b, b_end))| {
            let ours = &f.print.bytes[f.marks[a].at..a_end];
            let theirs = &g.print.bytes[g.marks[b].at..b_end];
            let differ = (ours.iter().zip(theirs).position(|(x, y)| x != y))
                .or_else(|| (ours.len() != theirs.len()).then(|| ours.len().min(theirs.len())))?;
            // The instruction's last mark at or before the difference.
            let mark = |t: &Traced, first: usize| {
                let at = t.marks[first].at + differ;
                let last = (first..t.marks.len())
                    .take_while(|&i| t.marks[i].at <= at)
                    .last()
                    .unwrap_or(first);
                t.marks[last]
            };
            Some((Some(mark(f, a)), Some(mark(g, b))))
        })
}

/// The text of an attribute list of the header at `header`, for `explain`: from its first
/// attribute to its last (a typed one to its closing parenthesis); empty at the header's
/// start for an empty list.
fn list_span(m: &Module, list: AttrList, header: Span) -> Span {
    let attrs = m.attr_list(list);
    let (Some(first), Some(last)) = (attrs.first(), attrs.last()) else {
        return Span::new(header.start as usize, header.start as usize);
    };
    let mut end = last.span().end as usize;
    let rest = m
        .source
        .as_bytes()
        .get(end..header.end as usize)
        .unwrap_or_default();
    if let AttrKind::Typed(..) = last.kind()
        && let Some(close) = search::memchr(b')', rest)
    {
        end += close + 1;
    }
    Span::new(first.span().start as usize, end)
}

/// The encoding with a trace of which source text each stretch comes from.
pub fn fingerprint_traced(cx: &Context, f: FuncId, body: &Body) -> Traced {
    let mut marks = Vec::new();
    let mut e = Encoder::new(cx, f, body, Some(&mut marks));
    e.function();
    let Encoder {
        out,
        holes,
        droppable,
        hole_at,
        ..
    } = e;
    // Holes and marks both in the encoding's order: one walk finds each hole's instruction.
    let mut instructions = (marks.iter())
        .filter(|mk| matches!(mk.part, Part::Instruction(_)))
        .peekable();
    let mut instruction = Span::default();
    let hole_spans = hole_at
        .iter()
        .map(|&(at, reference)| {
            while let Some(mk) = instructions.next_if(|mk| mk.at <= at) {
                instruction = mk.span;
            }
            (instruction, reference)
        })
        .collect();
    Traced {
        print: Fingerprint {
            bytes: out,
            holes,
            droppable,
        },
        marks,
        hole_spans,
    }
}

const UNNUMBERED: u32 = u32::MAX;
/// Named types nest at most this deep before they are encoded by name (cycles in bad input).
const MAX_TYPE_DEPTH: u32 = 64;

struct Encoder<'a, 'm> {
    cx: &'a Context<'m>,
    m: &'m Module,
    func: FuncId,
    body: &'a Body,
    out: Vec<u8>,
    holes: Vec<GlobalId>,
    local_number: Vec<u32>,
    next_local: u32,
    md_number: FxHashMap<MdId, u32>,
    trace: Option<&'a mut Vec<TraceMark>>,
    /// Where in the encoding each hole is and what kind, when tracing.
    hole_at: Vec<(usize, Reference)>,
    /// Block labels of this function, for `blockaddress(@self, %bb)`.
    labels: Option<FxHashMap<&'m [u8], LocalId>>,
    /// The keys of the attribute list being encoded (a buffer kept between lists).
    attr_keys: Vec<Cow<'m, [u8]>>,
    /// Attribute lists the tables number are written as their numbers (see
    /// [`Tables::numbers`]); a header key writes every list out, as its tables may not be
    /// numbered yet.
    lists_by_number: bool,
    /// The body's uses when it is first read, not yet the module's (see [`Encoder::use_global`]).
    body_uses: &'a [GlobalUse],
    /// Instructions encoded so far.
    insts: u32,
    droppable: Vec<Droppable>,
    /// The encodings of the nodes set aside so far, and their kinds (see [`Droppable`]).
    set_aside_nodes: FxHashMap<(MdId, bool), Arc<[u8]>>,
    set_aside_kinds: Vec<Arc<[u8]>>,
    /// The deepest a type's encoding has gone, for the height of a [`KnownType`].
    type_depth: u32,
    /// Metadata being encoded describes alias scopes (see [`Encoder::md_node`]).
    in_alias_scopes: bool,
    /// Encoding a `shufflevector`'s mask, which LLVM keeps as numbers, `undef` and `poison`
    /// elements alike (-1): here `undef` encodes as `poison`.
    in_shuffle_mask: bool,
}

impl<'a, 'm> Encoder<'a, 'm> {
    fn new(
        cx: &'a Context<'m>,
        func: FuncId,
        body: &'a Body,
        trace: Option<&'a mut Vec<TraceMark>>,
    ) -> Self {
        let m = cx.module;
        let mut local_number = vec![UNNUMBERED; body.locals.len()];
        let mut next_local = 0;
        for (l, local) in body.locals.iter() {
            if let LocalDef::Arg(i) = local.def {
                local_number[l.index()] = i;
                next_local = next_local.max(i + 1);
            }
        }
        Encoder {
            cx,
            m,
            func,
            body,
            // Room for the whole encoding at once: the header's attributes come to a few
            // hundred bytes, an item to 8 (Rust) to 13 (C++) on the corpus.
            out: Vec::with_capacity(256 + body.items.len() * 12),
            holes: Vec::new(),
            local_number,
            next_local,
            md_number: FxHashMap::default(),
            insts: 0,
            droppable: Vec::new(),
            set_aside_nodes: FxHashMap::default(),
            set_aside_kinds: Vec::new(),
            trace,
            hole_at: Vec::new(),
            labels: None,
            attr_keys: Vec::new(),
            lists_by_number: true,
            body_uses: &[],
            type_depth: 0,
            in_alias_scopes: false,
            in_shuffle_mask: false,
        }
    }

    /// The global a use names: one of the module's, or past them one of `body_uses`.
    fn use_global(&self, u: UseId) -> GlobalId {
        let use_ = self.m.use_in_body(self.body_uses, u);
        use_.expect("a body names the module's uses or its own")
            .global
    }

    fn mark(&mut self, span: Span, part: Part) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(TraceMark {
                at: self.out.len(),
                span,
                part,
            });
        }
    }

    /// Mark an attribute list of the header, by its text ([`list_span`]).
    fn mark_list(&mut self, list: AttrList, of: AttributesOf) {
        if self.trace.is_some() {
            let header = self.m.functions[self.func].header_span;
            self.mark(list_span(self.m, list, header), Part::Attributes(of));
        }
    }

    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    fn num(&mut self, n: u64) {
        put_num(&mut self.out, n);
    }

    fn bytes(&mut self, b: &[u8]) {
        put_bytes(&mut self.out, b);
    }

    fn text(&mut self, span: Span) {
        let b = self.m.bytes(span);
        self.bytes(b);
    }

    fn opt_text(&mut self, span: Option<Span>) {
        match span {
            Some(s) => {
                self.byte(1);
                self.text(s);
            }
            None => self.byte(0),
        }
    }

    // ---- the function ----

    fn function(&mut self) {
        self.header();
        self.body();
    }

    /// The part of the encoding the function's header decides, which its body follows.
    fn header(&mut self) {
        let m = self.m;
        let f = &m.functions[self.func];
        let header = f.header_span;
        let lists = [
            (AttributesOf::Function, f.fn_attrs),
            (AttributesOf::Return, f.ret_attrs),
        ];
        for (of, list) in lists {
            self.mark_list(list, of);
            self.attrs(m.attr_list(list));
        }
        // A count that differs is a function type that does.
        self.mark(header, Part::FunctionType);
        self.num(f.params.len() as u64);
        for (i, p) in f.params.iter().enumerate() {
            self.mark_list(p.attrs, AttributesOf::Parameter(i as u32));
            self.attrs(m.attr_list(p.attrs));
        }
        self.mark(header, Part::Gc);
        self.opt_text(f.extras().rare().gc);
        self.mark(header, Part::Section);
        self.opt_text(f.extras().rare().section);
        self.mark(header, Part::Varargs);
        self.byte(f.varargs as u8);
        self.mark(header, Part::CallingConv);
        match f
            .extras()
            .cconv
            .map(|s| (s, calling_convention::number(m.bytes(s))))
        {
            None | Some((_, Some(0))) => self.byte(0),
            Some((_, Some(cc))) => {
                self.byte(1);
                self.num(cc.into());
            }
            Some((s, None)) => {
                self.byte(2);
                self.text(s);
            }
        }
        self.mark(header, Part::FunctionType);
        self.ty(f.fn_ty, 0);
        self.mark(header, Part::AddressSpace);
        self.num(u64::from(m.function_addr_space(self.func)));
        self.mark(header, Part::CfiType);
        for (kind, md) in &f.metadata {
            let k = self.m.bytes(*kind);
            if k == b"!type" || k == b"!kcfi_type" {
                self.bytes(k);
                self.md(*md);
            }
        }
        self.byte(0);
    }

    fn body(&mut self) {
        let body = self.body;
        for b in body.reachable_blocks() {
            let block = &body.blocks[b];
            let instructions = block.inst_count;
            self.mark(block.span, Part::BlockShape { instructions });
            self.byte(tag::BLOCK);
            let n = self.local(block.local);
            self.num(n.into());
            self.num(block.inst_count.into());
            for i in block.insts() {
                self.instruction(i);
            }
        }
    }

    fn instruction(&mut self, i: InstId) {
        let body = self.body;
        let inst = &body.insts[i];
        self.mark(inst.span, Part::Instruction(inst.opcode));
        self.byte(tag::INST);
        self.byte(inst.opcode as u8);
        self.ty(inst.ty, 0);
        if let Some(r) = inst.result {
            let n = self.local(r);
            self.num(n.into());
        }
        let mut items = body.items(i);
        if inst.opcode == Opcode::GetElementPtr
            && let Some((flags, offset)) = self.gep_offset(items)
        {
            self.mark(inst.span, Part::GepFlags);
            let mut bits = 0;
            for flag in &items[..flags] {
                bits |= self.flag_bits(*flag);
            }
            self.flags(bits);
            if self.trace.is_some() {
                // As a signed number of the index's width, for people.
                let unused = 64 - self.gep_index_bits(items[flags + 1]);
                let signed = ((offset << unused) as i64) >> unused;
                self.mark(inst.span, Part::GepOffset(signed));
            }
            self.byte(tag::GEP_OFFSET);
            self.num(offset);
            // The base, typed; the source type and the indices are in the offset.
            items = &items[flags + 1..flags + 3];
        }
        let op = inst.opcode;
        let mut callee_next = op.is_call();
        let mut call_type_next = op.is_call();
        let memory = matches!(
            op,
            Opcode::Load
                | Opcode::Store
                | Opcode::Alloca
                | Opcode::AtomicRmw
                | Opcode::AtomicCmpXchg
        );
        let (mut flags, mut align, mut allocated_type_seen) = (0, None, false);
        // Where the flags are, for `explain`: a GEP's are its own rule.
        let flags_part = match op {
            Opcode::GetElementPtr => Part::GepFlags,
            _ => Part::Instruction(op),
        };
        for (at, item) in items.iter().enumerate() {
            // Flags are a set, written in any order; an alignment is its number, said or
            // implied (compared below); `ccc` is no convention at all.
            let bits = self.flag_bits(*item);
            if bits != 0 {
                flags |= bits;
                continue;
            }
            if let Item::Word { start, len } = *item {
                let text = self.m.bytes(Item::word_span(start, len));
                if memory && let Some(a) = alignment(text) {
                    align = Some((a, *item));
                    continue;
                }
                if op.is_call() && calling_convention::number(text) == Some(calling_convention::C) {
                    continue;
                }
            }
            if flags != 0 {
                self.mark(inst.span, flags_part);
                self.flags(std::mem::take(&mut flags));
            }
            // The first value of a call-like instruction is its callee.
            let is_callee = callee_next && matches!(item, Item::Value(_));
            if is_callee {
                callee_next = false;
            }
            if self.trace.is_some() {
                let part = self.item_part(op, *item, is_callee);
                self.mark(inst.span, part);
            }
            match *item {
                // The type a call names: its function type, written whole or not.
                Item::Type(t) if call_type_next => {
                    call_type_next = false;
                    self.call_type(t);
                }
                // The mask, a shufflevector's last item.
                Item::Value(_) if op == Opcode::ShuffleVector && at + 1 == items.len() => {
                    self.in_shuffle_mask = true;
                    self.item(*item, false);
                    self.in_shuffle_mask = false;
                }
                _ => self.item(*item, is_callee),
            }
            // An alloca of one element says so or not: `i32 1` either way (its count, when
            // written, is the type and value after the allocated type).
            if op == Opcode::Alloca
                && matches!(item, Item::Type(_))
                && !std::mem::replace(&mut allocated_type_seen, true)
                && !matches!(items.get(at + 1), Some(Item::Type(_)))
            {
                ScalarType::encoding(self.m, &Type::Int(32))
                    .expect("i32 is a scalar")
                    .put(&mut self.out);
                self.byte(tag::INT);
                self.wide_num(1);
            }
            // What follows declares alias scopes.
            if is_callee && self.names_intrinsic(*item, b"llvm.experimental.noalias.scope.decl") {
                self.in_alias_scopes = true;
            }
        }
        if flags != 0 {
            self.mark(inst.span, flags_part);
            self.flags(flags);
        }
        if memory {
            // An atomic's alignment, said or implied, is its own rule.
            match align {
                Some((_, word)) => {
                    let part = self.item_part(op, word, false);
                    self.mark(inst.span, part);
                }
                None if matches!(op, Opcode::AtomicRmw | Opcode::AtomicCmpXchg) => {
                    self.mark(inst.span, Part::AtomicAlign)
                }
                None => {}
            }
            match align
                .map(|(a, _)| a)
                .or_else(|| self.layout().implied_align(op, inst.ty, items))
            {
                Some(a) => {
                    self.byte(tag::ALIGN);
                    self.num(a);
                }
                None => self.byte(tag::IMPLIED_ALIGN),
            }
        }
        self.in_alias_scopes = false;
        // Every item starts with a tag, so an end tag keeps item lists of different lengths
        // apart (and lets `explain` point at the first differing item, not at a count).
        self.byte(tag::END_ITEMS);
        let ordinal = self.insts;
        self.insts += 1;
        let mut attached: Vec<_> = body
            .attachments(i)
            .iter()
            .filter(|(k, _)| compares_metadata(inst.opcode, self.m.bytes(*k)))
            .copied()
            .collect();
        attached.sort_by(|a, b| self.m.bytes(a.0).cmp(self.m.bytes(b.0)));
        // What is set aside leaves the encoding, but for what LLVM compares of a load's
        // attachments (their kinds, each node one level deep), so that functions LLVM tells
        // apart by them stay apart; LLVM compares nothing of a store's.
        let mut compared = Vec::with_capacity(attached.len());
        for (kind, md) in attached {
            let scopes = is_alias_scopes(self.m.bytes(kind));
            self.in_alias_scopes = scopes;
            if !self.set_aside(inst.opcode, ordinal, kind, md) {
                compared.push((kind, md, scopes, false));
            } else if inst.opcode == Opcode::Load {
                compared.push((kind, md, scopes, true));
            }
        }
        self.mark(inst.span, Part::Metadata(inst.opcode));
        self.num(compared.len() as u64);
        for (kind, md, scopes, shallow) in compared {
            self.text(kind);
            self.in_alias_scopes = scopes;
            if shallow {
                self.md_shallow(md);
            } else {
                self.md(md);
            }
        }
        self.in_alias_scopes = false;
    }

    /// Whether `item` names the intrinsic `name` (declared, or called undeclared).
    fn names_intrinsic(&self, item: Item, name: &[u8]) -> bool {
        let Item::Value(v) = item else {
            return false;
        };
        let ValueKind::Global(u) = v.kind() else {
            return false;
        };
        matches!(&self.m.globals[self.use_global(u)].name, GlobalName::Named(n) if &n[..] == name)
    }

    /// The bytes a getelementptr adds to its base, as an index-width integer, when its indices
    /// are constants and that offset says all it does, with the number of its flag words:
    /// LLVM compares GEPs of constant indices by their offsets whatever their types (§5), and
    /// so do we where that is exact. Without flags a GEP is arithmetic modulo the index width.
    /// With `inbounds` or `nusw`, each step must stay in bounds or not overflow, so the steps
    /// matter, not only their sum: they do not when every step moves forward (each address on
    /// the way then lies between the base and the result, where the whole GEP's conditions
    /// hold) or when only one step moves at all (its conditions are the whole GEP's). With
    /// `nuw`, a step back wraps as an unsigned product where a byte offset may not: every step
    /// must move forward. Other GEPs, and those with a variable index, compare by their types
    /// and indices.
    fn gep_offset(&self, items: &[Item]) -> Option<(usize, u64)> {
        let (m, body) = (self.m, self.body);
        let flags = items
            .iter()
            .take_while(|i| matches!(i, Item::Word { .. }))
            .count();
        let [
            Item::Type(source),
            Item::Type(base),
            Item::Value(_),
            indices @ ..,
        ] = &items[flags..]
        else {
            return None;
        };
        let index_bits = self.gep_index_bits(Item::Type(*base));
        if index_bits == 0 {
            return None;
        }
        let half = 1i128 << (index_bits - 1);
        // Every index first, as most GEPs with a variable one are given up here, cheaply. A
        // GEP with more indices than `MAX_STEPS` is left to the types.
        let mut steps = [0i128; MAX_STEPS];
        let count = indices.len() / 2;
        if count > MAX_STEPS {
            return None;
        }
        for (pair, step) in indices.chunks(2).zip(&mut steps) {
            let &[Item::Type(t), Item::Value(v)] = pair else {
                return None;
            };
            let (Type::Int(bits), ValueKind::Const(c)) = (body.ty(m, t), v.kind()) else {
                return None;
            };
            let Const::Int(text, _) = body.constant(m, c) else {
                return None;
            };
            // The literal's bits at its width, sign-extended, as LLVM extends an index.
            let shift = 128 - (*bits).min(128);
            let value = ((int_literal(m.bytes(*text))? << shift) as i128) >> shift;
            // An index wider than the pointer's index is truncated to it, which keeps a value
            // that fits (`nusw` asks that it do).
            if !(-half..half).contains(&value) {
                return None;
            }
            *step = value;
        }
        let steps = &steps[..count];
        let dl = &m.data_layout;
        let stride = |t: TypeId, n: i128| match n {
            // A zero index adds nothing, whatever its type's size (as in LLVM).
            0 => Some(0),
            _ => i128::from(self.memory(t, 0)?.size).checked_mul(n),
        };
        // No index at all adds nothing.
        let first = match steps.first() {
            Some(&n) => stride(*source, n)?,
            None => 0,
        };
        let (mut offset, mut moves, mut back) = (first, (first != 0) as u32, first < 0);
        let mut ty = *source;
        for &n in steps.iter().skip(1) {
            let (add, next) = match *body.ty(m, body.resolve_ty(m, ty)) {
                Type::Struct { packed, ref elems } => {
                    let field = usize::try_from(n).ok()?;
                    let mut part = |t| self.memory(t, 0);
                    let at = dl.field_offset(packed, elems, field, &mut part)?;
                    (i128::from(at), *elems.get(field)?)
                }
                Type::Array(_, elem) => (stride(elem, n)?, elem),
                // Into a vector, a step is its element's store size: rare, left to the types.
                _ => return None,
            };
            offset = offset.checked_add(add)?;
            moves += (add != 0) as u32;
            back |= add < 0;
            ty = next;
        }
        // The words before the source type are the flags (`inbounds`, `nusw`, `nuw`).
        let wraps = flags == 0;
        let unsigned = items[..flags].iter().any(|w| {
            matches!(*w, Item::Word { start, len } if m.bytes(Item::word_span(start, len)) == b"nuw")
        });
        let exact = wraps || !back || (moves <= 1 && !unsigned);
        // A GEP with flags whose offset does not fit the index width is poison, however it
        // gets there: left to the types.
        let fits = wraps || (-half..half).contains(&offset);
        let modulo = offset as u64 & (u64::MAX >> (64 - index_bits));
        (exact && fits).then_some((flags, modulo))
    }

    /// The width of a getelementptr's indices, given its base's type item: that of the
    /// pointers' address space (a pointer's, or a vector of them), or 0 for any other base.
    fn gep_index_bits(&self, base: Item) -> u32 {
        let Item::Type(t) = base else {
            return 0;
        };
        let (m, body) = (self.m, self.body);
        let space = match *body.ty(m, t) {
            Type::Ptr(space) => space,
            // A vector of pointers, each moved alike by scalar indices.
            Type::Vector { elem, .. } => match *body.ty(m, elem) {
                Type::Ptr(space) => space,
                _ => return 0,
            },
            _ => return 0,
        };
        m.data_layout.index_bits(space).clamp(1, 64)
    }

    /// The room `t` takes in memory: the module's types from the tables, a body's own
    /// (literal types first written in it) from their parts.
    fn memory(&self, t: TypeId, depth: u32) -> Option<Memory> {
        self.layout().memory(t, depth)
    }

    /// The room in memory of what the body names, the module's types' found in a table
    /// made once.
    fn layout(&self) -> BodyLayout<'_> {
        let m = self.m;
        let memories = self
            .cx
            .tables
            .memories
            .get_or_init(|| m.data_layout.memories(&m.types));
        BodyLayout {
            m,
            body: self.body,
            module_memories: memories,
        }
    }

    /// Keep a load's or store's attachment of `kind` as [`Droppable`], out of the encoding,
    /// if the survivor could drop it: one whose text a patch removes ([`attachment_text`]).
    /// Whether it did.
    fn set_aside(&mut self, op: Opcode, inst: u32, kind: Span, md: MdRef) -> bool {
        let load_or_store = matches!(op, Opcode::Load | Opcode::Store);
        if !load_or_store || attachment_text(self.m, kind).is_none() {
            return false;
        }
        // A body's loads and stores name few distinct nodes (its `!tbaa` tags), each many
        // times: each is encoded once.
        let encoded = match md {
            MdRef::Node(id) => match self.set_aside_nodes.get(&(id, self.in_alias_scopes)) {
                Some(encoded) => encoded.clone(),
                None => {
                    let encoded: Arc<[u8]> = self.md_on_its_own(md).into();
                    let key = (id, self.in_alias_scopes);
                    self.set_aside_nodes.insert(key, encoded.clone());
                    encoded
                }
            },
            _ => self.md_on_its_own(md).into(),
        };
        let kind = self.m.bytes(kind);
        let kind = match self.set_aside_kinds.iter().find(|k| ***k == *kind) {
            Some(known) => known.clone(),
            None => {
                let new: Arc<[u8]> = kind.into();
                self.set_aside_kinds.push(new.clone());
                new
            }
        };
        self.droppable.push(Droppable {
            inst,
            kind,
            md: encoded,
        });
        true
    }

    /// The encoding of `md` on its own: nodes numbered from this root, in a buffer of its
    /// own, untraced.
    fn md_on_its_own(&mut self, md: MdRef) -> Vec<u8> {
        let out = std::mem::take(&mut self.out);
        let numbers = std::mem::take(&mut self.md_number);
        let trace = self.trace.take();
        self.md(md);
        let encoded = std::mem::replace(&mut self.out, out);
        self.md_number = numbers;
        self.trace = trace;
        encoded
    }

    /// Whether `v` is the function's own address or a constant made from it (`ptrtoint (ptr @f
    /// to i64)`), which §3 compares as an ordinary global, by its name, where another
    /// function's address may be a hole.
    fn names_own_address(&self, v: Value) -> bool {
        let own = self.m.functions[self.func].global;
        // A worklist, not recursion: constants nest as deep as the text makes them.
        let mut pending = vec![v];
        while let Some(v) = pending.pop() {
            match v.kind() {
                ValueKind::Global(u) if self.use_global(u) == own => return true,
                ValueKind::Const(c) => pending.extend(self.body.constant(self.m, c).values()),
                _ => {}
            }
        }
        false
    }

    /// The part of the spec an instruction item falls under, for `explain`.
    fn item_part(&self, op: Opcode, item: Item, is_callee: bool) -> Part {
        match (op, item) {
            (Opcode::GetElementPtr, Item::Word { .. }) => Part::GepFlags,
            (Opcode::GetElementPtr, Item::Type(_)) => Part::GepSourceType,
            (Opcode::AtomicRmw | Opcode::AtomicCmpXchg, Item::Word { start, len })
                if self
                    .m
                    .bytes(Item::word_span(start, len))
                    .starts_with(b"align") =>
            {
                Part::AtomicAlign
            }
            (_, Item::Value(v)) if !is_callee => match v.kind() {
                _ if self.names_own_address(v) => Part::OwnAddress,
                // LLVM 22 compares a metadata argument only when it is a string or a
                // constant: any two nodes are equal to it (the `noalias.scope.decl` scopes
                // of two different inlined callees), while we compare them deeply.
                ValueKind::Const(c)
                    if matches!(
                        self.body.constant(self.m, c),
                        Const::Metadata(MdRef::Node(_))
                    ) =>
                {
                    Part::Metadata(op)
                }
                _ => Part::Instruction(op),
            },
            _ => Part::Instruction(op),
        }
    }

    /// A constant expression's items: its flags as a set, as an instruction's.
    fn expr_items(&mut self, items: &[Item]) {
        let mut flags = 0;
        for item in items {
            let bits = self.flag_bits(*item);
            if bits != 0 {
                flags |= bits;
                continue;
            }
            self.flags(std::mem::take(&mut flags));
            self.item(*item, false);
        }
        self.flags(flags);
    }

    /// The flags a word item sets ([`flag_bits`]); none for any other item.
    fn flag_bits(&self, item: Item) -> u16 {
        match item {
            Item::Word { start, len } => flag_bits(self.m.bytes(Item::word_span(start, len))),
            _ => 0,
        }
    }

    fn flags(&mut self, bits: u16) {
        if bits != 0 {
            self.byte(tag::FLAGS);
            self.num(bits.into());
        }
    }

    /// The function type a call names, whether written whole (`void (i32)`) or as its
    /// return type: the return type, and the parameters of a varargs one (those of another
    /// are its arguments' types, encoded with them).
    fn call_type(&mut self, t: TypeId) {
        self.byte(tag::CALL_TYPE);
        let (m, body) = (self.m, self.body);
        match body.ty(m, body.resolve_ty(m, t)) {
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                self.ty(*ret, 0);
                self.byte(*varargs as u8);
                if *varargs {
                    self.num(params.len() as u64);
                    for &p in params {
                        self.ty(p, 0);
                    }
                }
            }
            _ => {
                self.ty(t, 0);
                self.byte(0);
            }
        }
    }

    fn item(&mut self, item: Item, is_callee: bool) {
        match item {
            Item::Type(t) => self.ty(t, 0),
            Item::Value(v) => self.value(v, is_callee),
            Item::Word { start, len } => self.word(Item::word_span(start, len)),
            Item::Attrs(idx) => {
                let body = self.body;
                self.attrs(body.attr_list(idx));
            }
            Item::Mark(b) => {
                self.byte(tag::MARK);
                self.byte(b);
            }
        }
    }

    /// A word by what it says: an alignment, a synchronization scope, an address space or a
    /// calling convention by its number or name whatever the spacing, a number by its value;
    /// any other by its text.
    fn word(&mut self, span: Span) {
        let text = self.m.bytes(span);
        if let Some(a) = alignment(text) {
            self.byte(tag::ALIGN);
            self.num(a);
        } else if let Some(scope) = parenthesized(text, b"syncscope") {
            self.byte(tag::SYNCSCOPE);
            self.bytes(scope);
        } else if let Some(space) = parenthesized(text, b"addrspace").and_then(decimal) {
            self.byte(tag::ADDRSPACE);
            self.num(space);
        } else if let Some(cc) = calling_convention::number(text) {
            self.byte(tag::CALLING_CONV);
            self.num(cc.into());
        } else if let Some(n) = decimal(text) {
            self.byte(tag::NUMBER);
            self.num(n);
        } else {
            self.byte(tag::WORD);
            self.bytes(text);
        }
    }

    fn local(&mut self, l: LocalId) -> u32 {
        let slot = &mut self.local_number[l.index()];
        if *slot == UNNUMBERED {
            *slot = self.next_local;
            self.next_local += 1;
        }
        *slot
    }

    fn value(&mut self, v: Value, is_callee: bool) {
        match v.kind() {
            ValueKind::Local(l) => {
                self.byte(tag::LOCAL);
                let n = self.local(l);
                self.num(n.into());
            }
            ValueKind::Global(u) => {
                let g = self.use_global(u);
                let own = self.m.functions[self.func].global;
                let reference = match is_callee {
                    true => Reference::Call,
                    false => Reference::Address,
                };
                // The function's own address outside calls is an ordinary global (§3).
                if is_callee && g == own {
                    self.byte(tag::SELF_CALL);
                } else if g != own && (self.cx.is_hole)(g, reference) {
                    if self.trace.is_some() {
                        self.hole_at.push((self.out.len(), reference));
                    }
                    self.byte(match reference {
                        Reference::Call => tag::HOLE,
                        Reference::Address => tag::ADDRESS_HOLE,
                    });
                    self.holes.push(g);
                } else {
                    self.global(g);
                }
            }
            ValueKind::Const(c) => self.constant(c),
        }
    }

    fn global(&mut self, g: GlobalId) {
        self.byte(tag::GLOBAL);
        match &self.m.globals[g].name {
            GlobalName::Named(n) => {
                self.byte(0);
                self.bytes(n);
            }
            GlobalName::Numbered(n) => {
                self.byte(1);
                self.num((*n).into());
            }
        }
    }

    // ---- types ----

    fn ty(&mut self, t: TypeId, depth: u32) {
        self.type_depth = self.type_depth.max(depth);
        // A scalar type of the module's (not one first written in this body) is encoded once
        // (see `Tables::scalar_types`). Past the depth where named types are no longer
        // followed, a name that stands for a scalar encodes as a name.
        if depth < MAX_TYPE_DEPTH
            && t.index() < self.body.base.types as usize
            && let Some(scalar) = self.cx.tables.scalar_types.get(t.index())
            && !scalar.bytes().is_empty()
        {
            scalar.put(&mut self.out);
            return;
        }
        let (m, body, tables) = (self.m, self.body, &self.cx.tables);
        match body.ty(m, t) {
            Type::Named(n)
                if depth < MAX_TYPE_DEPTH
                    && m.types.named[*n].body.is_some()
                    && let Some(known) = tables.named_types.get(n.index()) =>
            {
                self.named_ty(known, t, depth)
            }
            _ => self.ty_resolved(t, depth),
        }
    }

    /// [`Encoder::ty`] of a named type with a body: copied when the tables know it and it
    /// stops short of [`MAX_TYPE_DEPTH`] from here; else encoded, and made known if none
    /// was.
    fn named_ty(&mut self, known: &OnceLock<KnownType>, t: TypeId, depth: u32) {
        if let Some(k) = known.get() {
            if depth + k.height < MAX_TYPE_DEPTH && !k.bytes.is_empty() {
                self.out.extend_from_slice(&k.bytes);
                self.type_depth = self.type_depth.max(depth + k.height);
            } else {
                self.ty_resolved(t, depth);
            }
            return;
        }
        let start = self.out.len();
        let outer = std::mem::replace(&mut self.type_depth, depth);
        self.ty_resolved(t, depth);
        let height = self.type_depth - depth;
        self.type_depth = self.type_depth.max(outer);
        // Made from this depth, the encoding is the one from depth 0 only if it stopped short
        // of the depth where names are no longer followed.
        if depth + height < MAX_TYPE_DEPTH {
            let bytes = &self.out[start..];
            let bytes = match bytes.len() >= KNOWN_TYPE_MIN {
                true => bytes.into(),
                false => Box::default(),
            };
            let _ = known.set(KnownType { bytes, height });
        }
    }

    /// [`Encoder::ty`] of a type that is not a scalar of the module's nor found known.
    fn ty_resolved(&mut self, t: TypeId, depth: u32) {
        let (m, body) = (self.m, self.body);
        let resolved = if depth < MAX_TYPE_DEPTH {
            body.resolve_ty(m, t)
        } else {
            t
        };
        let ty = body.ty(m, resolved);
        if let Some(scalar) = ScalarType::encoding(m, ty) {
            scalar.put(&mut self.out);
            return;
        }
        match ty {
            Type::Array(n, e) => {
                self.out.extend([tag::TYPE, 8]);
                self.num(*n);
                self.ty(*e, depth + 1);
            }
            Type::Vector {
                scalable,
                len,
                elem,
            } => {
                self.out.extend([tag::TYPE, 9, *scalable as u8]);
                self.num(*len);
                self.ty(*elem, depth + 1);
            }
            Type::Struct { packed, elems } => {
                self.out.extend([tag::TYPE, 10, *packed as u8]);
                self.num(elems.len() as u64);
                for &e in elems {
                    self.ty(e, depth + 1);
                }
            }
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                self.out.extend([tag::TYPE, 11, *varargs as u8]);
                self.ty(*ret, depth + 1);
                self.num(params.len() as u64);
                for &p in params {
                    self.ty(p, depth + 1);
                }
            }
            Type::TargetExt { name, types, ints } => {
                self.out.extend([tag::TYPE, 12]);
                self.bytes(name);
                self.num(types.len() as u64);
                for &t in types {
                    self.ty(t, depth + 1);
                }
                self.num(ints.len() as u64);
                for &i in ints {
                    self.num(i.into());
                }
            }
            Type::Named(n) => {
                // Opaque, undefined, or nested too deep: by name.
                self.byte(tag::NAMED_TYPE);
                self.bytes(m.types.named[*n].spelling.as_bytes());
            }
            // Encoded above.
            Type::Void
            | Type::Label
            | Type::Metadata
            | Type::Token
            | Type::X86Amx
            | Type::Float(_)
            | Type::Int(_)
            | Type::Ptr(_) => {}
        }
    }

    // ---- attributes ----

    /// An attribute list: its number when the tables number its encoding, else its encoding
    /// written out (the attributes' keys, sorted), whether the tables hold the list or it is
    /// made here, so that equal lists encode alike.
    fn attrs(&mut self, list: &[Attr]) {
        let tables = &self.cx.tables;
        let known = match list {
            [a] => match a.kind() {
                AttrKind::Group(n, _) => tables.single_groups.get(&n),
                _ => None,
            },
            _ => None,
        };
        if let Some(known) =
            known.or_else(|| text_only_list(self.m, list).and_then(|t| tables.text_lists.get(t)))
        {
            match known.number {
                n if n != UNNUMBERED && self.lists_by_number => self.list_number(n),
                _ => self.out.extend_from_slice(&known.bytes),
            }
            return;
        }
        let start = self.out.len();
        self.byte(tag::ATTRS);
        if list.is_empty() {
            self.num(0);
            return;
        }
        let m = self.m;
        // Attribute text is borrowed from the source; only typed attributes are encoded anew.
        let mut keys = std::mem::take(&mut self.attr_keys);
        let push = |e: &mut Self, keys: &mut Vec<Cow<'m, [u8]>>, a: &Attr| match a.kind() {
            AttrKind::Text(s) => keys.push(attribute_key(m.bytes(s))),
            AttrKind::Typed(s, t) => {
                let saved = std::mem::take(&mut e.out);
                e.text(s);
                e.ty(t, 0);
                keys.push(Cow::Owned(std::mem::replace(&mut e.out, saved)));
            }
            AttrKind::Group(..) => {}
        };
        // The list's own attributes, then each group's merged in, as LLVM merges them.
        for a in list {
            if !a.is_group() {
                push(self, &mut keys, a);
            }
        }
        upgrade_memory_keys(&mut keys);
        for a in list {
            let AttrKind::Group(n, _) = a.kind() else {
                continue;
            };
            let Some(&group) = m.attr_groups.get(&n) else {
                continue;
            };
            let own = keys.len();
            for a in m.attr_list(group) {
                push(self, &mut keys, a);
            }
            let of_group = keys.split_off(own);
            merge_group_keys(&mut keys, of_group);
        }
        put_attribute_keys(&mut self.out, &mut keys);
        keys.clear();
        self.attr_keys = keys;
        if self.lists_by_number
            && self.out.len() - start > NUMBERED_LIST_MIN
            && let Some(&n) = self.cx.tables.numbers.get(&self.out[start..])
        {
            self.out.truncate(start);
            self.list_number(n);
        }
    }

    fn list_number(&mut self, n: u32) {
        self.byte(tag::ATTRS_NUMBER);
        self.num(n.into());
    }

    // ---- constants ----

    /// An integer constant by its value at its width (§4: `i8 255` is `i8 -1`), a zero as
    /// the null of its width; a literal too long to read, by its text.
    fn int(&mut self, s: Span, width: u32) {
        match int_value(self.m.bytes(s), width) {
            Some(value) if value.is_zero() => self.byte(tag::ZERO),
            Some(IntValue::Bits(bits)) => {
                self.byte(tag::INT);
                self.wide_num(bits);
            }
            Some(IntValue::Wide(low, ones)) => {
                self.byte(tag::WIDE_INT);
                self.byte(ones as u8);
                self.wide_num(low);
            }
            None => {
                self.byte(tag::INT_TEXT);
                self.text(s);
            }
        }
    }

    /// A floating-point constant by its value (§4: `1.0` is `0x3FF0000000000000`), a positive
    /// zero as the null of its width.
    fn float(&mut self, s: Span) {
        match float_key(self.m.bytes(s)) {
            Some(key) if key.is_zero() => self.byte(tag::ZERO),
            Some(FloatKey::Double(bits)) => {
                self.byte(tag::FLOAT);
                self.num(bits);
            }
            Some(FloatKey::Wide(letter, bits)) => {
                self.byte(tag::WIDE_FLOAT);
                self.byte(letter);
                self.wide_num(bits);
            }
            None => {
                self.byte(tag::FLOAT_TEXT);
                self.text(s);
            }
        }
    }

    /// A string's contents by the bytes they stand for (`\\61` is `a`).
    fn string(&mut self, escaped: &[u8]) {
        match escaped.contains(&b'\\') {
            true => self.bytes(&crate::read::unescape(escaped)),
            false => self.bytes(escaped),
        }
    }

    fn wide_num(&mut self, n: u128) {
        self.num(n as u64);
        self.num((n >> 64) as u64);
    }

    fn constant(&mut self, c: ConstId) {
        let (m, body) = (self.m, self.body);
        match body.constant(m, c) {
            Const::Int(s, width) => self.int(*s, *width),
            Const::Float(s) => self.float(*s),
            Const::Null | Const::Zero => self.byte(tag::ZERO),
            Const::None => self.byte(tag::NONE),
            Const::Undef if self.in_shuffle_mask => self.byte(tag::POISON),
            Const::Undef => self.byte(tag::UNDEF),
            Const::Poison => self.byte(tag::POISON),
            Const::Aggregate(kind, elems) => {
                // As LLVM makes them: all nulls a zero, all undef an undef, all poison a
                // poison; else element by element, so that `c"ab"` is `[i8 97, i8 98]`.
                match self.collapses(elems.iter().map(|&(_, v)| v)) {
                    Some(collapsed) => self.byte(collapsed),
                    None => self.elements(*kind, elems.iter().copied()),
                }
            }
            Const::Bytes(s) => {
                let text = m.bytes(*s);
                let bytes = crate::read::unescape(&text[2..text.len() - 1]);
                if bytes.iter().all(|&b| b == 0) {
                    self.byte(tag::ZERO);
                    return;
                }
                let i8 = ScalarType::encoding(m, &Type::Int(8)).expect("i8 is a scalar");
                self.byte(tag::AGGREGATE);
                self.byte(b'[');
                self.num(bytes.len() as u64);
                for b in bytes {
                    i8.put(&mut self.out);
                    match b {
                        0 => self.byte(tag::ZERO),
                        b => {
                            self.byte(tag::INT);
                            self.wide_num(b.into());
                        }
                    }
                }
            }
            Const::Expr(e) => {
                self.byte(tag::EXPR);
                self.text(e.0);
                self.num(e.1.len() as u64);
                self.expr_items(&e.1);
            }
            Const::BlockAddress(u, bb) => {
                let g = self.use_global(*u);
                match self.own_block(g, *bb) {
                    Some(l) => {
                        self.byte(tag::BLOCKADDRESS_SELF);
                        let n = self.local(l);
                        self.num(n.into());
                    }
                    None => {
                        self.byte(tag::BLOCKADDRESS);
                        self.global(g);
                        self.text(*bb);
                    }
                }
            }
            Const::DsoLocalEquivalent(u) => {
                self.byte(tag::DSO_LOCAL_EQUIVALENT);
                self.global(self.use_global(*u));
            }
            Const::NoCfi(u) => {
                self.byte(tag::NO_CFI);
                self.global(self.use_global(*u));
            }
            Const::PtrAuth(parts) => {
                self.byte(tag::PTRAUTH);
                self.num(parts.len() as u64);
                for &(t, v) in parts.iter() {
                    self.ty(t, 0);
                    self.value(v, false);
                }
            }
            Const::Splat(t, v) => {
                if let Some(collapsed) = self.collapses([*v].into_iter()) {
                    return self.byte(collapsed);
                }
                // A fixed-length splat is the vector of its copies, as LLVM makes it.
                match *body.ty(m, body.resolve_ty(m, *t)) {
                    Type::Vector {
                        scalable: false,
                        len,
                        elem,
                    } if len <= MAX_SPLAT_ELEMENTS => {
                        self.elements(b'<', (0..len as usize).map(|_| (elem, *v)));
                    }
                    _ => {
                        self.byte(tag::SPLAT);
                        self.ty(*t, 0);
                        self.value(*v, false);
                    }
                }
            }
            Const::InlineAsm(s) => {
                // Its words, then its two strings by what they hold.
                self.byte(tag::ASM);
                let text = m.bytes(*s);
                let open = text.iter().position(|&b| b == b'"').unwrap_or(text.len());
                self.bytes(text[..open].trim_ascii());
                for string in text[open..].split(|&b| b == b'"').skip(1).step_by(2) {
                    self.string(string);
                }
            }
            Const::Metadata(md) => self.md(*md),
        }
    }

    fn elements(&mut self, kind: u8, elems: impl ExactSizeIterator<Item = (TypeId, Value)>) {
        self.byte(tag::AGGREGATE);
        self.byte(kind);
        self.num(elems.len() as u64);
        for (t, v) in elems {
            self.ty(t, 0);
            self.value(v, false);
        }
    }

    /// The one constant LLVM makes of an aggregate of these elements, if it makes one: the
    /// null when all are null (an empty aggregate too), `undef` when all are undef and none
    /// poison, `poison` when all are poison.
    fn collapses(&self, mut elems: impl Iterator<Item = Value>) -> Option<u8> {
        let first = elems.next().map(|v| self.simple_kind(v));
        let kind = match first {
            None => return Some(tag::ZERO),
            Some(kind @ Some(_)) => kind,
            Some(None) => return None,
        };
        elems.all(|v| self.simple_kind(v) == kind).then_some(kind?)
    }

    /// Whether a value is a constant null, undef or poison (the tag it encodes as), nested
    /// aggregates and splats included.
    fn simple_kind(&self, v: Value) -> Option<u8> {
        let ValueKind::Const(c) = v.kind() else {
            return None;
        };
        match self.body.constant(self.m, c) {
            Const::Null | Const::Zero => Some(tag::ZERO),
            Const::Undef if self.in_shuffle_mask => Some(tag::POISON),
            Const::Undef => Some(tag::UNDEF),
            Const::Poison => Some(tag::POISON),
            Const::Int(s, width) => int_value(self.m.bytes(*s), *width)
                .is_some_and(IntValue::is_zero)
                .then_some(tag::ZERO),
            Const::Float(s) => float_key(self.m.bytes(*s))
                .is_some_and(FloatKey::is_zero)
                .then_some(tag::ZERO),
            Const::Bytes(s) => {
                let text = self.m.bytes(*s);
                let bytes = crate::read::unescape(&text[2..text.len() - 1]);
                bytes.iter().all(|&b| b == 0).then_some(tag::ZERO)
            }
            Const::Aggregate(_, elems) => self.collapses(elems.iter().map(|&(_, v)| v)),
            Const::Splat(_, v) => self.simple_kind(*v),
            _ => None,
        }
    }

    /// The block `%bb` of this function when `g` is this function.
    fn own_block(&mut self, g: GlobalId, bb: Span) -> Option<LocalId> {
        if g != self.m.functions[self.func].global {
            return None;
        }
        let m = self.m;
        let body = self.body;
        let labels = self.labels.get_or_insert_with(|| {
            body.blocks
                .values()
                .filter_map(|b| {
                    let text = m.bytes(b.span);
                    let colon = label_end(text)?;
                    Some((&text[..colon], b.local))
                })
                .collect()
        });
        let name = m.bytes(bb).strip_prefix(b"%")?;
        labels.get(name).copied()
    }

    // ---- metadata ----

    fn md(&mut self, md: MdRef) {
        self.byte(tag::MD);
        match md {
            MdRef::Node(id) => self.md_node(id),
            MdRef::Str(s) => {
                self.byte(tag::MD_STRING);
                let text = self.m.bytes(s);
                self.string(&text[2..text.len() - 1]);
            }
            MdRef::Value(t, v) => {
                self.byte(tag::MD_VALUE);
                self.ty(t, 0);
                self.value(v, false);
            }
        }
    }

    /// A load's attachment as LLVM 22 compares it (`cmpMDNode`): a tuple's operands one
    /// level deep, strings and constants by content, a nested node as just one. The rest is
    /// compared when the kept body is settled (see [`Droppable`]).
    fn md_shallow(&mut self, md: MdRef) {
        let (m, body) = (self.m, self.body);
        let MdRef::Node(id) = md else {
            return self.md(md);
        };
        let MdBody::Tuple(ops) = &body.md_node(m, id).body else {
            return self.md(md);
        };
        self.byte(tag::MD);
        self.byte(tag::MD_NODE);
        self.num(ops.len() as u64);
        for op in ops {
            match op {
                Some(MdRef::Node(_)) => self.byte(tag::MD_NESTED),
                Some(r) => self.md(*r),
                None => self.byte(tag::MD_NULL),
            }
        }
    }

    /// Nodes compare structurally; a node met again encodes as a back reference to its first
    /// appearance, which keeps cycles finite and identities consistent.
    fn md_node(&mut self, id: MdId) {
        if let Some(&n) = self.md_number.get(&id) {
            self.byte(tag::MD_BACKREF);
            self.num(n.into());
            return;
        }
        let n = self.md_number.len() as u32;
        self.md_number.insert(id, n);
        let (m, body) = (self.m, self.body);
        match &body.md_node(m, id).body {
            MdBody::Pending => self.byte(tag::MD_NULL),
            MdBody::Tuple(ops) => {
                // Among alias scopes, a node that names itself first is a scope or a domain
                // (`distinct !{!5, !4, !"name"}`): only its identity and its domain mean
                // anything; its name, if it has one, is for people (it names the callee it
                // was inlined from), and LLVM, which compares no nested node, never looks at
                // it. It is left out.
                let names_only = self.in_alias_scopes
                    && matches!(ops.first(), Some(Some(MdRef::Node(first))) if *first == id);
                let is_name = |op: &Option<MdRef>| names_only && matches!(op, Some(MdRef::Str(_)));
                self.byte(tag::MD_NODE);
                self.num(ops.iter().filter(|op| !is_name(op)).count() as u64);
                for op in ops.iter().filter(|op| !is_name(op)) {
                    match op {
                        Some(r) => self.md(*r),
                        None => self.byte(tag::MD_NULL),
                    }
                }
            }
            MdBody::Specialized(name) => {
                self.byte(tag::MD_SPECIALIZED);
                self.text(*name);
                let fields = m.md_fields(*name);
                self.num(fields.len() as u64);
                for (k, v) in fields {
                    self.text(k);
                    self.text(v);
                }
            }
            MdBody::ArgList(ops) => {
                self.byte(tag::MD_ARGLIST);
                self.num(ops.len() as u64);
                for op in ops {
                    self.md(*op);
                }
            }
        }
    }
}

/// The most elements of a fixed-length `splat` encoded one by one, as the vector LLVM makes
/// of it; a longer one (never written out in full) is encoded as a splat.
const MAX_SPLAT_ELEMENTS: u64 = 1 << 12;

/// The flags a word sets, as bits of one set: the no-wrap and exactness flags, `inbounds`
/// (which implies `nusw`, as in LLVM's `GEPNoWrapFlags`) and the fast-math flags (`fast` is
/// all seven); 0 for any other word.
fn flag_bits(word: &[u8]) -> u16 {
    match word {
        b"nuw" => 1,
        b"nsw" => 1 << 1,
        b"exact" => 1 << 2,
        b"disjoint" => 1 << 3,
        b"nneg" => 1 << 4,
        b"samesign" => 1 << 5,
        b"nusw" => 1 << 6,
        b"inbounds" => 1 << 6 | 1 << 7,
        b"nnan" => 1 << 8,
        b"ninf" => 1 << 9,
        b"nsz" => 1 << 10,
        b"arcp" => 1 << 11,
        b"contract" => 1 << 12,
        b"afn" => 1 << 13,
        b"reassoc" => 1 << 14,
        b"fast" => 0x7f << 8,
        _ => 0,
    }
}

/// The number of `align N`, whatever the spacing.
fn alignment(word: &[u8]) -> Option<u64> {
    decimal(word.strip_prefix(b"align")?.trim_ascii_start())
}

/// What `name(...)` holds, trimmed, when `word` is that.
fn parenthesized<'w>(word: &'w [u8], name: &[u8]) -> Option<&'w [u8]> {
    let inner = word
        .strip_prefix(name)?
        .trim_ascii_start()
        .strip_prefix(b"(")?;
    Some(inner.strip_suffix(b")")?.trim_ascii())
}

/// A plain decimal number (leading zeros allowed, as LLVM reads them) that fits 64 bits.
fn decimal(text: &[u8]) -> Option<u64> {
    decimal_u128(text).and_then(|n| u64::try_from(n).ok())
}

/// The length of a block label (`name:` at the start of a block's text), without the colon.
fn label_end(text: &[u8]) -> Option<usize> {
    if text.first() == Some(&b'"') {
        let close = text[1..].iter().position(|&b| b == b'"')? + 2;
        return (text.get(close) == Some(&b':')).then_some(close);
    }
    let end = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b"-$._".contains(&b)))?;
    (text[end] == b':').then_some(end)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Each group of bodies is one function spelled in different ways LLVM's parser reads
    /// alike (spec §4, §5): their encodings are equal, and differ from the next group's.
    #[test]
    fn spellings_of_one_instruction_encode_alike() {
        let groups: &[&[&str]] = &[
            &[
                "add i8 %x, 255",
                "add i8 %x, -1",
                "add i8 %x, u0xFF",
                "add i8 %x, s0x1FF",
            ],
            &[
                "add i8 %x, 0",
                "add i8 %x, 256",
                "add i8 %x, zeroinitializer",
                "add i8 %x, -0",
            ],
            &["add i8 %x, 8", "add i8 %x, 008"],
            &["add nuw nsw i8 %x, 1", "add nsw nuw i8 %x, 1"],
            &["add nuw i8 %x, 1"],
            &[
                "load i64, ptr %p",
                "load i64, ptr %p, align 8",
                "load i64, ptr %p, align  8",
            ],
            &["load i64, ptr %p, align 4"],
            &[
                "alloca i64",
                "alloca i64, align 8",
                "alloca i64, i32 1",
                "alloca i64, i32 1, align 8",
            ],
            &["alloca i64, i64 1"],
            &["alloca { i8 }", "alloca { i8 }, align 8"],
            &[
                "atomicrmw add ptr %p, i64 1 seq_cst",
                "atomicrmw add ptr %p, i64 1 seq_cst, align 8",
            ],
            &[
                "fadd double %d, 1.0",
                "fadd double %d, 1.000000e+00",
                "fadd double %d, 0x3FF0000000000000",
            ],
            &["fadd double %d, 0.0", "fadd double %d, 0x0000000000000000"],
            &["fadd double %d, -0.0", "fadd double %d, 0x8000000000000000"],
            &[
                "fadd fast double %d, 2.0",
                "fadd reassoc nnan ninf nsz arcp contract afn double %d, 2.0",
            ],
            &[
                "fadd nnan ninf double %d, 2.0",
                "fadd ninf nnan double %d, 2.0",
            ],
            &["fadd half %h, 0xH3C00", "fadd half %h, 1.0"],
            &[
                "getelementptr inbounds i8, ptr %p, i64 %i",
                "getelementptr nusw inbounds i8, ptr %p, i64 %i",
            ],
            &["getelementptr nusw i8, ptr %p, i64 %i"],
            &[
                "call void @e()",
                "call void () @e()",
                "call ccc void @e()",
                "call cc 0 void @e()",
            ],
            &["call fastcc void @e()", "call cc 8 void @e()"],
            &["call coldcc void @e()"],
            &[
                "fence syncscope(\"one\") seq_cst",
                "fence syncscope( \"one\" ) seq_cst",
            ],
            &[
                "extractvalue { i8, i8 } %s, 1",
                "extractvalue { i8, i8 } %s, 01",
            ],
            &[
                "add <2 x i8> %v, splat (i8 3)",
                "add <2 x i8> %v, <i8 3, i8 3>",
            ],
            &[
                "add <2 x i8> %v, undef",
                "add <2 x i8> %v, <i8 undef, i8 undef>",
                "add <2 x i8> %v, splat (i8 undef)",
            ],
            &["add <2 x i8> %v, <i8 undef, i8 poison>"],
            &[
                "add <2 x i8> %v, zeroinitializer",
                "add <2 x i8> %v, <i8 0, i8 -0>",
                "add <2 x i8> %v, splat (i8 256)",
            ],
            &[
                "insertvalue { [2 x i8] } undef, [2 x i8] c\"ab\", 0",
                "insertvalue { [2 x i8] } undef, [2 x i8] [i8 97, i8 98], 0",
                "insertvalue { [2 x i8] } { [2 x i8] undef }, [2 x i8] c\"\\61b\", 0",
            ],
            &[
                "insertvalue { [2 x i8] } undef, [2 x i8] c\"\\00\\00\", 0",
                "insertvalue { [2 x i8] } undef, [2 x i8] zeroinitializer, 0",
            ],
        ];
        let mut text = String::from("target datalayout = \"e-i64:64\"\ndeclare void @e()\n");
        for (g, group) in groups.iter().enumerate() {
            for (i, inst) in group.iter().enumerate() {
                let result = if inst.starts_with("call") || inst.starts_with("fence") {
                    ""
                } else {
                    "%r = "
                };
                text += &format!(
                    "define void @f{g}_{i}(i8 %x, ptr %p, i64 %i, double %d, half %h, {{ i8, i8 }} %s, <2 x i8> %v) {{\n  {result}{inst}\n  ret void\n}}\n"
                );
            }
        }
        let m = crate::read::parse(text).unwrap();
        let cx = Context::new(&m, Box::new(|_, _| false));
        let print = |name: String| {
            let f = m.function_of(m.lookup(&name).unwrap()).unwrap();
            fingerprint(&cx, f, &m.body(f).unwrap()).bytes
        };
        assert_spelling_groups(groups, |g, i| print(format!("f{g}_{i}")));
    }

    /// Each group's spellings have one key (`key(group, spelling)`), which differs from every
    /// earlier group's.
    pub(super) fn assert_spelling_groups<K: PartialEq + std::fmt::Debug>(
        groups: &[&[&str]],
        key: impl Fn(usize, usize) -> K,
    ) {
        let mut seen = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let first = key(g, 0);
            for (i, spelling) in group.iter().enumerate().skip(1) {
                assert_eq!(key(g, i), first, "{spelling} against {}", group[0]);
            }
            assert!(
                !seen.contains(&first),
                "{} equals an earlier group",
                group[0]
            );
            seen.push(first);
        }
    }

    #[test]
    fn labels() {
        assert_eq!(label_end(b"bb1:\n  ret"), Some(3));
        assert_eq!(label_end(b"\"a b\":\n"), Some(5));
        assert_eq!(label_end(b"  ret void"), None);
    }

    /// A call site whose attributes are one group encodes as the same attributes written out,
    /// in any order and with repeats, whether the group's encoding comes from the cache or not.
    #[test]
    fn a_group_encodes_as_its_attributes() {
        let text = r#"
declare void @g()
define void @grouped() {
  call void @g() #0
  ret void
}
define void @inline() {
  call void @g() "k"="v" nounwind nounwind
  ret void
}
define void @mixed() {
  call void @g() #1 nounwind
  ret void
}
define void @other() {
  call void @g() nounwind
  ret void
}
attributes #0 = { nounwind "k"="v" }
attributes #1 = { "k"="v" }
"#;
        let m = crate::read::parse(text.to_string()).unwrap();
        let no_holes = |_, _| false;
        let cx = Context::new(&m, Box::new(no_holes));
        assert_eq!(cx.tables.single_groups.len(), 2);
        let print = |name: &str| {
            let f = m.function_of(m.lookup(name).unwrap()).unwrap();
            fingerprint(&cx, f, &m.body(f).unwrap()).bytes
        };
        assert_eq!(print("grouped"), print("inline"));
        assert_eq!(print("grouped"), print("mixed"));
        assert_ne!(print("grouped"), print("other"));
        // By its number: the key is not written out.
        assert!(!print("grouped").windows(3).any(|w| w == b"\"k\""));
    }

    /// Tables whose header lists were added in another order, as threads add them, number
    /// every list alike.
    #[test]
    fn lists_are_numbered_whatever_order_they_were_added_in() {
        let text = r#"
define void @f(ptr noundef nonnull align 8 %p, i32 signext %x) #0 { ret void }
define void @g(ptr noundef align 4 %p, i32 zeroext %x) #1 { ret void }
define void @h(ptr nonnull align 16 %p) { ret void }
attributes #0 = { nounwind "k"="v" }
attributes #1 = { noinline nounwind }
"#;
        let m = crate::read::parse(text.to_string()).unwrap();
        let forward = Tables::new(&m);
        let mut backward = Tables::of_groups(&m);
        for f in m.functions.keys().rev() {
            backward.add_header_lists(&m, f);
        }
        let backward = backward.numbered();
        let numbers = |t: &Tables| {
            let mut n: Vec<_> = t.numbers.iter().map(|(k, &v)| (k.clone(), v)).collect();
            n.sort();
            n
        };
        assert_eq!(numbers(&forward).len(), 7);
        assert_eq!(numbers(&forward), numbers(&backward));
    }

    /// A list of text attributes found by its text in the headers' lists encodes as the same
    /// attributes written in another order, with repeats, which are not found there.
    #[test]
    fn a_header_list_found_by_its_text_encodes_as_its_attributes() {
        let text = r#"
declare void @g(ptr)
define void @cached(ptr noundef nonnull align 8 %p) {
  call void @g(ptr noundef nonnull align 8 %p)
  ret void
}
define void @reordered(ptr align 8 nonnull noundef noundef %p) {
  call void @g(ptr nonnull noundef align 8 nonnull %p)
  ret void
}
define void @other(ptr noundef nonnull align 4 %p) {
  call void @g(ptr noundef nonnull align 8 %p)
  ret void
}
"#;
        let m = crate::read::parse(text.to_string()).unwrap();
        let cx = Context::new(&m, Box::new(|_, _| false));
        assert!(
            cx.tables
                .text_lists
                .contains_key(&b"noundef nonnull align 8"[..])
        );
        let print = |name: &str| {
            let f = m.function_of(m.lookup(name).unwrap()).unwrap();
            fingerprint(&cx, f, &m.body(f).unwrap()).bytes
        };
        assert_eq!(print("cached"), print("reordered"));
        assert_ne!(print("cached"), print("other"));
    }

    /// A named type found known encodes as it does made anew, also where it lies so deep in
    /// another that names stop being followed partway through it.
    #[test]
    fn known_named_types_encode_as_made_anew() {
        // %t0 ... %t79, each holding the one before and enough fields to be kept.
        let mut text = String::from("%t0 = type { i32, i64, i64, i64, i64, i64, i64, i64 }\n");
        for k in 1..80 {
            let fields = "i64, ".repeat(20);
            text += &format!("%t{k} = type {{ %t{}, {fields}i8 }}\n", k - 1);
        }
        for (name, types) in [("f", [3, 12, 79]), ("g", [79, 12, 3]), ("h", [70, 40, 2])] {
            text += &format!("define void @{name}() {{\n");
            for k in types {
                text += &format!("  %a{k} = alloca %t{k}\n");
                text += &format!("  %p{k} = getelementptr %t{k}, ptr %a{k}, i64 0, i32 1\n");
            }
            text += "  ret void\n}\n";
        }
        let m = crate::read::parse(text).unwrap();
        let known = Context::new(&m, Box::new(|_, _| false));
        let mut anew = Context::new(&m, Box::new(|_, _| false));
        Arc::make_mut(&mut anew.tables).named_types = Arc::new([]);
        // Twice over: first as the types become known, then as they are.
        for name in ["f", "g", "h", "f", "g", "h"] {
            let f = m.function_of(m.lookup(name).unwrap()).unwrap();
            let body = m.body(f).unwrap();
            assert_eq!(
                fingerprint(&known, f, &body).bytes,
                fingerprint(&anew, f, &body).bytes,
                "@{name}"
            );
        }
        let kept = known.tables.named_types.iter();
        assert!(kept.filter_map(|k| k.get()).any(|k| !k.bytes.is_empty()));
    }

    /// A scalar type encodes the same whether the tables give its encoding or it is made
    /// anew: the module's own, one a named type stands for, and one first written in a body.
    #[test]
    fn scalar_types_encode_alike_from_the_tables() {
        let text = r#"
%int = type i32
%pair = type { %int, ptr addrspace(1) }
define %int @f(%int %x, ptr addrspace(1) %p, half %h, i128 %w) {
  %a = alloca %pair
  %v = load <2 x float>, ptr %a
  %y = add i7 0, 1
  %z = fadd double 1.0, 2.0
  store i1 true, ptr %a
  ret %int %x
}
"#;
        let m = crate::read::parse(text.to_string()).unwrap();
        let cx = Context::new(&m, Box::new(|_, _| false));
        let i32_type = m.types.lookup(&Type::Int(32)).unwrap();
        assert_eq!(
            cx.tables.scalar_types[i32_type.index()].bytes(),
            [tag::TYPE, 6, 32]
        );
        let mut anew = Context::new(&m, Box::new(|_, _| false));
        Arc::make_mut(&mut anew.tables).scalar_types = Arc::new([]);
        let f = m.function_of(m.lookup("f").unwrap()).unwrap();
        let body = m.body(f).unwrap();
        assert_eq!(
            fingerprint(&cx, f, &body).bytes,
            fingerprint(&anew, f, &body).bytes
        );
    }
}
