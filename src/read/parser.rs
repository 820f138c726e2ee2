//! Recursive-descent parser from tokens to the [`Module`] model.
//!
//! It follows the grammar of LLVM 22's `LLParser`: each function below names the construct it
//! reads. Names are resolved as they are read; forward references (to globals, metadata, named
//! types, locals) are recorded and checked once their scope ends, so that an undefined name is
//! an error at its first use, as LLVM reports it.

use super::attributes::{self, Argument};
use super::debug_info;
use super::error::ReadError;
use super::lexer::{Lexer, Tok, Token, unescape};
use crate::model::*;
use cranelift_entity::EntityRef;
use cranelift_entity::packed_option::ReservedValue;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::hash_map::Entry;

type PResult<T> = Result<T, ReadError>;

/// Local names of the function being read.
#[derive(Default)]
struct FnScope<'a> {
    body: Body,
    /// Named locals (`%x`, `x:`) by the bytes of their name: most names are short, and a short
    /// one is its bytes in two words (hashed and compared without a loop); a longer one is a
    /// slice of the source, or its bytes when written with escapes (`%"a\62"`).
    by_short_name: FxHashMap<ShortName, LocalId>,
    by_long_name: FxHashMap<Cow<'a, [u8]>, LocalId>,
    /// Numbered locals (`%N`).
    by_number: NumberMap<LocalId>,
    next_number: u32,
    /// A piece of a body that does not start it (see [`Piece`]): the numbers before it are
    /// not known, so the first number it defines is taken as it comes (and kept in
    /// `first_number`, to be checked against the pieces before) and an unnumbered value, whose
    /// number would depend on them, is refused.
    numbering_unknown: bool,
    first_number: Option<u32>,
    /// Locals referenced before their definition, with the first reference, in the order of
    /// the text: those still [`NOT_YET_DEFINED`] when the body ends are undefined.
    forward: Vec<(LocalId, Span)>,
    /// Each local's type, by its index: its definition's, or before that the type its first
    /// reference gives it (the reserved value until either), as LLVM types a forward reference.
    local_types: Vec<TypeId>,
}

/// What a local referred to before its definition stands for until it is defined (no
/// argument has this index).
const NOT_YET_DEFINED: LocalDef = LocalDef::Arg(u32::MAX);

/// How a local is named: `%7` / `7:`, or `%name` / `name:` (unquoted, unescaped).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum LocalKey<'a> {
    Number(u32),
    Short(ShortName),
    Long(Cow<'a, [u8]>),
}

/// The local of an entry, and `false`; or the one `new` makes, put there, and `true`.
fn find_or_push<K>(entry: Entry<'_, K, LocalId>, new: impl FnOnce() -> LocalId) -> (LocalId, bool) {
    match entry {
        Entry::Occupied(e) => (*e.get(), false),
        Entry::Vacant(e) => (*e.insert(new()), true),
    }
}

/// A name of at most 16 bytes, held in two words that together cover every byte (the
/// first eight and the last eight, which overlap when it is shorter, or for fewer than
/// eight bytes, the first four and the last four, or for fewer than four, the first, the
/// middle and the last), with its length: equal names, equal keys, and only them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct ShortName {
    first: u64,
    last: u64,
    len: u8,
}

impl<'a> LocalKey<'a> {
    fn name(name: Cow<'a, [u8]>) -> LocalKey<'a> {
        let b = name.as_ref();
        let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        let (first, last) = match b.len() {
            17.. => return LocalKey::Long(name),
            8.. => (word(0), word(b.len() - 8)),
            4.. => (u64::from(half(0)), u64::from(half(b.len() - 4))),
            1.. => {
                let at = |i: usize| u64::from(b[i]);
                (at(0) | at(b.len() / 2) << 8 | at(b.len() - 1) << 16, 0)
            }
            0 => (0, 0),
        };
        LocalKey::Short(ShortName {
            first,
            last,
            len: b.len() as u8,
        })
    }
}

impl<'a> FnScope<'a> {
    fn find(&self, key: &LocalKey<'a>) -> Option<LocalId> {
        match key {
            LocalKey::Number(n) => self.by_number.get(*n),
            LocalKey::Short(name) => self.by_short_name.get(name).copied(),
            LocalKey::Long(name) => self.by_long_name.get(name).copied(),
        }
    }

    /// The local `key` names, and `false`; or a new one, defined by `def`, and `true`. The
    /// name is hashed once (a body looks up every operand's name).
    fn find_or_insert(&mut self, key: LocalKey<'a>, def: LocalDef) -> (LocalId, bool) {
        let locals = &mut self.body.locals;
        let mut new = || locals.push(Local { def });
        match key {
            LocalKey::Short(name) => find_or_push(self.by_short_name.entry(name), new),
            LocalKey::Long(name) => find_or_push(self.by_long_name.entry(name), new),
            LocalKey::Number(n) => match self.by_number.get(n) {
                Some(l) => (l, false),
                None => {
                    let l = new();
                    self.by_number.insert(n, l);
                    (l, true)
                }
            },
        }
    }

    fn is_defined(&self, l: LocalId) -> bool {
        self.body.locals[l].def != NOT_YET_DEFINED
    }

    /// The type `l` has, and a place to give it one.
    fn local_type(&mut self, l: LocalId) -> &mut TypeId {
        let i = l.index();
        if self.local_types.len() <= i {
            self.local_types
                .resize(self.body.locals.len().max(i + 1), TypeId::reserved_value());
        }
        &mut self.local_types[i]
    }

    /// Room for the locals and instructions of `len` bytes of body text, as LLVM prints
    /// them (a large body otherwise grows its tables many times, rehashing the names).
    fn reserve_for(&mut self, len: usize) {
        let b = &mut self.body;
        b.locals.reserve(len / 48);
        b.insts.reserve(len / 48);
        b.items.reserve(len / 8);
        self.by_short_name.reserve(len / 64);
    }

    /// Empty every table, keeping its memory, for the next body.
    fn reset(&mut self, base: ArenaBase) {
        let b = &mut self.body;
        b.span = Span::default();
        b.locals.clear();
        b.blocks.clear();
        b.insts.clear();
        b.items.clear();
        b.attrs.clear();
        b.attr_lists.clear();
        b.attachments.clear();
        b.debug_records.clear();
        b.consts.clear();
        b.types.clear();
        b.metadata.clear();
        b.base = base;
        b.use_list_orders = Span::default();
        b.block_addresses.clear();
        b.debug_forms = DebugForms::default();
        self.by_short_name.clear();
        self.by_long_name.clear();
        self.by_number.clear();
        self.next_number = 0;
        self.numbering_unknown = false;
        self.first_number = None;
        self.forward.clear();
        self.local_types.clear();
    }
}

/// Some blocks of a body, read on their own so that one large body can be read by many
/// threads (see `read::pieces`): the body they make, whose local names are those of the piece
/// (a name defined in another piece is a forward reference here), and the uses of globals.
pub(crate) struct Piece<'a> {
    /// From the first block (the `{` in the first piece) to the last (the `}` in the last).
    pub span: Span,
    pub uses: Vec<GlobalUse>,
    scope: Box<FnScope<'a>>,
}

impl<'a> Piece<'a> {
    pub fn body(&self) -> &Body {
        &self.scope.body
    }

    /// The piece's local names, each with its local and whether the piece defines it (or
    /// only refers to it, before or without a definition).
    pub fn names(&self) -> impl Iterator<Item = (LocalKey<'a>, LocalId, bool)> + '_ {
        let scope = &self.scope;
        let short = scope
            .by_short_name
            .iter()
            .map(|(&name, &l)| (LocalKey::Short(name), l));
        let long = scope
            .by_long_name
            .iter()
            .map(|(name, &l)| (LocalKey::Long(name.clone()), l));
        let numbered = scope
            .by_number
            .iter()
            .map(|(n, l)| (LocalKey::Number(n), l));
        short
            .chain(long)
            .chain(numbered)
            .map(|(key, l)| (key, l, scope.is_defined(l)))
    }

    /// Whether the piece defines local `l` (or only refers to it).
    pub fn defines(&self, l: LocalId) -> bool {
        self.scope.is_defined(l)
    }

    /// The local `key` names in this piece, and whether the piece defines it.
    pub fn find(&self, key: &LocalKey<'a>) -> Option<(LocalId, bool)> {
        let l = self.scope.find(key)?;
        Some((l, self.scope.is_defined(l)))
    }

    /// What the piece holds that takes time to free, without what it borrows from the text:
    /// its body and its larger tables.
    pub fn into_tables(self) -> impl Send + 'static {
        let scope = *self.scope;
        (
            scope.body,
            scope.by_short_name,
            scope.by_number,
            scope.forward,
            self.uses,
        )
    }

    /// The type of a local of the piece: its definition's, or its first reference's.
    pub fn local_type(&self, l: LocalId) -> TypeId {
        self.scope
            .local_types
            .get(l.index())
            .copied()
            .unwrap_or(TypeId::reserved_value())
    }

    /// The first number the piece defines, if it does not start the body and defines any.
    pub fn first_number(&self) -> Option<u32> {
        self.scope.first_number
    }

    /// The number an unnumbered value after the piece would take.
    pub fn next_number(&self) -> u32 {
        self.scope.next_number
    }
}

/// Buffers a thread reuses from one body to the next, so that reading many bodies allocates
/// little: the body's arenas and the tables of local names and types.
#[derive(Default)]
pub(crate) struct Scratch<'a> {
    /// Boxed: a body's tables are handed to its parser and back, and moving them whole cost
    /// a small body a tenth of its reading. `None` before the first body.
    scope: Option<Box<FnScope<'a>>>,
    types: BodyTypes<'a>,
}

impl Scratch<'_> {
    /// The local that `name` (as a reference writes it after its `%`: `x`, `"a b"`, `7`)
    /// names in the body last read with these buffers, if any.
    pub(crate) fn local_named(&self, name: &[u8]) -> Option<LocalId> {
        let scope = self.scope.as_deref()?;
        if name.first().is_some_and(u8::is_ascii_digit) {
            return scope.by_number.get(decimal(name));
        }
        match LocalKey::name(strip_name(name)) {
            LocalKey::Short(short) => scope.by_short_name.get(&short).copied(),
            LocalKey::Long(long) => scope.by_long_name.get(long.as_ref()).copied(),
            LocalKey::Number(n) => scope.by_number.get(n),
        }
    }
}

/// The types a body adds to the module's, and the literal types it has read, by their text.
#[derive(Default)]
struct BodyTypes<'a> {
    /// The body's own types (those the module lacks), to give one type one id.
    dedup: FxHashMap<Type, TypeId>,
    /// Literal types read in this body, by their text (see [`Parser::literal_type_text`]).
    by_text: FxHashMap<&'a [u8], TypeId>,
}

impl BodyTypes<'_> {
    fn clear(&mut self) {
        self.dedup.clear();
        self.by_text.clear();
    }
}

impl Scratch<'_> {
    /// Take back the buffers of a body read with this scratch.
    pub(crate) fn recycle(&mut self, body: Body) {
        if let Some(scope) = &mut self.scope {
            scope.body = body;
        }
    }
}

/// Reading one function body against a module whose top level is read: names resolve in
/// `base`, and what the body adds (constants, types, metadata, uses) stays with the body, so
/// that bodies can be read in parallel and again later.
struct BodyMode<'a> {
    base: &'a Module,
    func: FuncId,
    /// The uses found, in order.
    uses: Vec<GlobalUse>,
    /// Reading again: the body's uses are the module's run of this first id and length, in
    /// order (names are not looked up again: an edit may have renamed or retargeted them).
    replay_from: Option<(u32, u32)>,
    /// The id of the body's first use: the module's when reading again; else the module's
    /// count of uses, so that a body's uses and the module's never share an id.
    first_use: u32,
    types: BodyTypes<'a>,
    /// The first reference to a global or a node the module does not define. LLVM reports
    /// one once the module is read, so reading goes on: a syntax error later in the body
    /// comes first.
    undefined: Option<ReadError>,
}

pub struct Parser<'a> {
    src: &'a [u8],
    lex: Lexer<'a>,
    tok: Token,
    /// The token after `tok` and the lexer past it, once `peek2` has looked.
    peeked: Cell<Option<(Lexer<'a>, Token)>>,
    m: Module,
    body_mode: Option<BodyMode<'a>>,
    scope: Option<Box<FnScope<'a>>>,
    /// The tables of the body just read, kept for the next one.
    spent_scope: Option<Box<FnScope<'a>>>,
    /// `!N` references from text kept as spans (debug-info fields) to numbers not known yet,
    /// with the first reference: checked at the end. A number leaves when it becomes known, so
    /// this stays small however much debug information the module has.
    md_text_refs: FxHashMap<u32, Span>,
    /// Reading the fields the first phase stepped over: the module, whose nodes are known.
    fields_of: Option<&'a Module>,
    /// The comdats defined (`$c = comdat any`), by name; and those named before any
    /// definition, with the first reference: LLVM refuses any left when the module ends.
    comdats_defined: FxHashSet<Cow<'a, [u8]>>,
    comdat_refs: FxHashMap<Cow<'a, [u8]>, Span>,
    md_fields_scratch: Vec<(Span, Span)>,
    md_ops_stack: Vec<Option<MdRef>>,
    /// The key of a quoted named type, made here (see `named_type`).
    key_buffer: Vec<u8>,
    body_end: BodyEnd,
    /// The number the next unnamed global takes, and the least a numbered one may have.
    next_global_number: u32,
    /// Specialized metadata nodes whose `(...)` was stepped over while guessing body ends,
    /// from the name (`!DILocation`) to the `)`, to be read in the second phase, alongside
    /// the bodies (see [`Parser::deferred_fields_hold`]).
    deferred_fields: Vec<Span>,
    /// The top level's `uselistorder` directives whose counts are checked once every body is
    /// read.
    use_list_checks: Vec<UseListCheck>,
}

/// What the first phase reads: the module's top level, what it leaves to the second phase,
/// and its first error.
pub(crate) struct TopLevel {
    pub module: Module,
    pub deferred_fields: Vec<Span>,
    pub use_list_checks: Vec<UseListCheck>,
    pub error: Option<ReadError>,
}

/// A top-level `uselistorder` or `uselistorder_bb` directive whose value's uses are known
/// only once every body is read (see `read::use_lists_hold`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum UseListCheck {
    /// `uselistorder <ty> @g, { ... }`: where it starts, the global, its number of indexes.
    Global {
        at: Span,
        global: GlobalId,
        indexes: u32,
    },
    /// `uselistorder_bb @f, %name, { ... }`: the function and the block's name.
    Block { function: FuncId, block: Span },
}

/// How the first phase finds where a function body ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BodyEnd {
    /// At the first line after the `{` that starts with `}`: where LLVM prints it, found by a
    /// byte search. A guess, which reading each body then confirms (see `read::parse_source`).
    /// The fields of specialized metadata nodes are stepped over too, and confirmed likewise.
    FirstClosingLine,
    /// At the `}` that balances the `{`, stepping over strings and comments: always right.
    BalancedBrace,
}

/// What starts the line that ends a body as LLVM prints it, searched for once a body. Built
/// once: building a searcher cost more than searching a small body.
static CLOSING_LINE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n}"));

/// The bytes that matter when stepping over a body: braces, string quotes, comment starts.
const SKIM_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'"' as usize] = true;
    t[b';' as usize] = true;
    t
};

/// The offset of the first byte at or after `from` that [`SKIM_STOPS`] holds, eight bytes at
/// a time: bodies are most of a module, and stepping over them is all the first phase does.
fn next_skim_stop(src: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // The high bit of each byte of `word` equal to `b` (exact for the lowest such byte).
    let equal = |word: u64, b: u8| {
        let x = word ^ (ONES * u64::from(b));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut i = from;
    while let Some(chunk) = src.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
        let word = u64::from_le_bytes(*chunk);
        let hits = equal(word, b'{') | equal(word, b'}') | equal(word, b'"') | equal(word, b';');
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = src.get(i..)?;
    rest.iter()
        .position(|&b| SKIM_STOPS[b as usize])
        .map(|p| i + p)
}

/// Where the fields of a specialized metadata node end: just past the `)` that balances the
/// `(` at `open`, stepping over strings. `None` when they may name a global or a local (reading
/// records those uses in order) or hold a comment (any `@`, `%` or `;`, even in a string), or
/// run to the end: such fields are read at once. A node is a hundred bytes or so with a few
/// parentheses and strings, so this jumps between those with `memchr3`: on debug information
/// that is 11 M instructions fewer than `skim_body`'s eight-bytes-at-a-time search, which must
/// also stop at comments.
fn skim_md_fields(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0u32;
    let mut i = open;
    let end = loop {
        i += memchr::memchr3(b'(', b')', b'"', src.get(i..)?)?;
        match src[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    break i + 1;
                }
            }
            _ => i += 1 + memchr::memchr(b'"', &src[i + 1..])?,
        }
        i += 1;
    };
    memchr::memchr3(b'@', b'%', b';', &src[open..end])
        .is_none()
        .then_some(end)
}

/// Why LLVM 22 refuses a target extension type with this many type and integer parameters
/// (`TargetExtType::checkParams`), if it does: only three of its names fix them.
fn target_ext_params_misfit(name: &[u8], types: usize, ints: usize) -> Option<&'static str> {
    match (name, types, ints) {
        (b"aarch64.svcount", 0, 0) | (b"riscv.vector.tuple", 1, 1) => None,
        (b"amdgcn.named.barrier", 0, 1) => None,
        (b"aarch64.svcount", ..) => {
            Some("target extension type aarch64.svcount should have no parameters")
        }
        (b"riscv.vector.tuple", ..) => Some(
            "target extension type riscv.vector.tuple should have one type parameter and one \
             integer parameter",
        ),
        (b"amdgcn.named.barrier", ..) => Some(
            "target extension type amdgcn.named.barrier should have no type parameters and one \
             integer parameter",
        ),
        _ => None,
    }
}

/// Whether a target extension type of this name has a `zeroinitializer` (LLVM 22's
/// `HasZeroInit` property): the SPIR-V types but those with a layout of their own, and two
/// vector-like types. Any other name, known to LLVM or not, has none.
fn target_ext_has_zero(name: &[u8]) -> bool {
    match name {
        b"spirv.Image"
        | b"spirv.SignedImage"
        | b"spirv.Type"
        | b"spirv.Padding"
        | b"spirv.Literal"
        | b"spirv.IntegralConstant" => false,
        b"aarch64.svcount" | b"riscv.vector.tuple" => true,
        _ => name.starts_with(b"spirv."),
    }
}

/// The length of a string's body once its escapes (`\\`, `\XX`) are read, as LLVM reads
/// them: a `\` before anything else stands for itself.
fn unescaped_len(body: &[u8]) -> u64 {
    let (mut i, mut len) = (0, 0);
    while i < body.len() {
        i += match body[i..] {
            [b'\\', b'\\', ..] => 2,
            [b'\\', h, l, ..] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => 3,
            _ => 1,
        };
        len += 1;
    }
    len
}

/// LLVM's error for `reference` (`!7`) to a node never defined: at its number.
fn undefined_metadata(src: &[u8], reference: Span) -> ReadError {
    let number = Span::new(reference.start as usize + 1, reference.end as usize);
    let text = String::from_utf8_lossy(&src[reference.range()]);
    ReadError::at(src, number, format!("use of undefined metadata '{text}'"))
}

/// Whether the node whose name is at `name` is written `distinct` (only a numbered node's
/// definition can be, and the word comes right before the name).
fn is_after_distinct(src: &[u8], name: Span) -> bool {
    src[..name.start as usize]
        .trim_ascii_end()
        .ends_with(b"distinct")
}

const TAIL_KINDS: [&[u8]; 3] = [b"tail", b"musttail", b"notail"];

/// The calling conventions LLVM 22 names by a word: those of its library's strings that
/// opt-22 takes before a declaration's type (sorted, for a binary search).
const CALLING_CONVENTIONS: &[&str] = &[
    "aarch64_sme_preservemost_from_x0",
    "aarch64_sme_preservemost_from_x1",
    "aarch64_sme_preservemost_from_x2",
    "aarch64_sve_vector_pcs",
    "aarch64_vector_pcs",
    "amdgpu_cs",
    "amdgpu_cs_chain",
    "amdgpu_cs_chain_preserve",
    "amdgpu_es",
    "amdgpu_gfx",
    "amdgpu_gfx_whole_wave",
    "amdgpu_gs",
    "amdgpu_hs",
    "amdgpu_kernel",
    "amdgpu_ls",
    "amdgpu_ps",
    "amdgpu_vs",
    "anyregcc",
    "arm_aapcs_vfpcc",
    "arm_aapcscc",
    "arm_apcscc",
    "avr_intrcc",
    "avr_signalcc",
    "ccc",
    "cfguard_checkcc",
    "cheriot_compartmentcallcc",
    "cheriot_compartmentcalleecc",
    "cheriot_librarycallcc",
    "coldcc",
    "cxx_fast_tlscc",
    "fastcc",
    "ghccc",
    "graalcc",
    "hhvm_ccc",
    "hhvmcc",
    "intel_ocl_bicc",
    "m68k_rtdcc",
    "msp430_intrcc",
    "preserve_allcc",
    "preserve_mostcc",
    "preserve_nonecc",
    "ptx_device",
    "ptx_kernel",
    "riscv_vector_cc",
    "riscv_vls_cc",
    "spir_func",
    "spir_kernel",
    "swiftcc",
    "swifttailcc",
    "tailcc",
    "win64cc",
    "x86_64_sysvcc",
    "x86_fastcallcc",
    "x86_intrcc",
    "x86_regcallcc",
    "x86_stdcallcc",
    "x86_thiscallcc",
    "x86_vectorcallcc",
];

/// Whether the sorted `list` holds `word`.
pub(super) fn is_listed(list: &[&str], word: &[u8]) -> bool {
    list.binary_search_by(|w| w.as_bytes().cmp(word)).is_ok()
}

fn is_calling_conv(w: &[u8]) -> bool {
    // `cc42`: a numbered convention as LLVM prints it (it reads `cc 42` too). Every named
    // one ends in `cc` or holds a `_`: the words a call or header holds instead (`noundef`,
    // `ptr`) are told apart without a search.
    w.strip_prefix(b"cc")
        .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
        || ((w.ends_with(b"cc") || w.contains(&b'_')) && is_listed(CALLING_CONVENTIONS, w))
}

/// What a cast's operand or result is made of: see `Parser::cast_holds`.
#[derive(Clone, Copy)]
struct CastOperand {
    element: CastElement,
    /// The element's size in bits (0 for a pointer, whose size the cast does not know).
    bits: u64,
    /// A vector's element count, with whether it is scalable; `None` for a scalar.
    count: Option<(bool, u64)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CastElement {
    Int,
    Float,
    /// A pointer in this address space.
    Ptr(u32),
    Other,
}

impl CastOperand {
    fn is_int(self) -> bool {
        self.element == CastElement::Int
    }

    fn is_float(self) -> bool {
        self.element == CastElement::Float
    }

    fn is_ptr(self) -> bool {
        matches!(self.element, CastElement::Ptr(_))
    }

    /// The size in bits, with whether it scales (LLVM's `getPrimitiveSizeInBits`).
    fn size(self) -> (bool, u64) {
        match self.count {
            Some((scalable, len)) => (scalable, len.saturating_mul(self.bits)),
            None => (false, self.bits),
        }
    }
}

/// Where a list of attributes stands, which decides what it may hold (see `attributes`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum AttrPlace {
    /// A function's header, a call's function attributes, a global variable.
    Function,
    /// `attributes #N = { ... }`: a function's, with `align=N` and `alignstack=N`.
    Group,
    Parameter,
    Return,
}

impl AttrPlace {
    fn bit(self) -> u8 {
        match self {
            AttrPlace::Function | AttrPlace::Group => attributes::FUNCTION,
            AttrPlace::Parameter => attributes::PARAMETER,
            AttrPlace::Return => attributes::RETURN,
        }
    }
}

fn is_fast_math_flag(w: &[u8]) -> bool {
    matches!(
        w,
        b"fast" | b"nnan" | b"ninf" | b"nsz" | b"arcp" | b"contract" | b"afn" | b"reassoc"
    )
}

/// Opcodes LLVM 22 reads as heading a constant expression.
fn is_constant_expression_opcode(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Add | Sub
            | Xor
            | Trunc
            | PtrToInt
            | PtrToAddr
            | IntToPtr
            | BitCast
            | AddrSpaceCast
            | ExtractElement
            | InsertElement
            | ShuffleVector
            | GetElementPtr
    )
}

/// Opcodes that headed constant expressions LLVM no longer has, which it refuses by name
/// ("mul constexprs are no longer supported").
fn is_former_constant_expression_opcode(op: Opcode) -> bool {
    use Opcode::*;
    !is_constant_expression_opcode(op)
        && (op.is_cast()
            || matches!(
                op,
                FNeg | FAdd
                    | FSub
                    | Mul
                    | FMul
                    | UDiv
                    | SDiv
                    | FDiv
                    | URem
                    | SRem
                    | FRem
                    | Shl
                    | LShr
                    | AShr
                    | And
                    | Or
                    | ICmp
                    | FCmp
                    | Select
                    | ExtractValue
                    | InsertValue
            ))
}

/// Why extractvalue or insertvalue names no member of its aggregate operand.
enum NoMember {
    NotAggregate,
    InvalidIndices,
}

impl NoMember {
    /// LLVM's words, for the instruction `inst`.
    fn message(self, inst: &str) -> String {
        match self {
            NoMember::NotAggregate => format!("{inst} operand must be aggregate type"),
            NoMember::InvalidIndices => format!("invalid indices for {inst}"),
        }
    }
}

/// What an `atomicrmw` operation takes.
enum AtomicRmwKind {
    Exchange,
    Float,
    Integer,
}

/// The kind of `atomicrmw` operation `word` names, if LLVM 22 has it.
fn atomicrmw_kind(word: &[u8]) -> Option<AtomicRmwKind> {
    Some(match word {
        b"xchg" => AtomicRmwKind::Exchange,
        b"fadd" | b"fsub" | b"fmax" | b"fmin" | b"fmaximum" | b"fminimum" => AtomicRmwKind::Float,
        b"add" | b"sub" | b"and" | b"nand" | b"or" | b"xor" | b"max" | b"min" | b"umax"
        | b"umin" | b"uinc_wrap" | b"udec_wrap" | b"usub_cond" | b"usub_sat" => {
            AtomicRmwKind::Integer
        }
        _ => return None,
    })
}

fn is_int_type_word(w: &[u8]) -> bool {
    w.len() > 1 && w[0] == b'i' && w[1..].iter().all(u8::is_ascii_digit)
}

/// The bytes a literal type found again by its text may hold between its brackets (see
/// `Parser::literal_type`): a table, as it is scanned for every vector, array and struct type.
const IN_LITERAL_TYPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b' ' | b',' | b'%' | b'.' | b'_');
        b += 1;
    }
    t
};

/// A type LLVM takes as a struct's element, followed to its body.
fn is_struct_element(ty: &Type) -> bool {
    !matches!(
        ty,
        Type::Label | Type::Metadata | Type::Token | Type::Function { .. }
    )
}

/// An unsigned decimal integer (as `str::parse::<u64>` reads one: an optional `+`, digits), or
/// `None` when it is not one or does not fit.
fn unsigned(text: &[u8]) -> Option<u64> {
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &d| {
        if !d.is_ascii_digit() {
            return None;
        }
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

fn is_icmp_predicate(w: &[u8]) -> bool {
    matches!(
        w,
        b"eq" | b"ne" | b"ugt" | b"uge" | b"ult" | b"ule" | b"sgt" | b"sge" | b"slt" | b"sle"
    )
}

fn is_fcmp_predicate(w: &[u8]) -> bool {
    matches!(
        w,
        b"false"
            | b"oeq"
            | b"ogt"
            | b"oge"
            | b"olt"
            | b"ole"
            | b"one"
            | b"ord"
            | b"ueq"
            | b"ugt"
            | b"uge"
            | b"ult"
            | b"ule"
            | b"une"
            | b"uno"
            | b"true"
    )
}

/// A signed decimal integer, or `None` when it is not one (a hexadecimal literal) or does not
/// fit in `i128`.
fn decimal_i128(text: &[u8]) -> Option<i128> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// LLVM's error for an intrinsic never declared that is not called.
pub(crate) const NOT_A_CALLEE: &str = "intrinsic can only be used as callee";

/// Whether a global not declared anywhere is an intrinsic LLVM declares itself when called.
fn is_implicit_intrinsic(kind: Tok, body: &[u8]) -> bool {
    kind == Tok::GlobalName && is_intrinsic_name(&strip_name(body))
}

/// A decimal number, saturated to `u32::MAX` (callers check the range they allow).
pub(crate) fn decimal(digits: &[u8]) -> u32 {
    decimal_u32(digits).unwrap_or(u32::MAX)
}

/// A decimal number that fits in `u32`.
fn decimal_u32(digits: &[u8]) -> Option<u32> {
    // Local and metadata numbers are most of the numbers a module holds, and short: nine
    // digits always fit.
    if (1..=9).contains(&digits.len()) {
        let mut n = 0u32;
        for &d in digits {
            let digit = d.wrapping_sub(b'0');
            if digit > 9 {
                return decimal_checked(digits);
            }
            n = n * 10 + u32::from(digit);
        }
        return Some(n);
    }
    decimal_checked(digits)
}

#[cold]
fn decimal_checked(digits: &[u8]) -> Option<u32> {
    unsigned(digits).and_then(|n| u32::try_from(n).ok())
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Parser<'a> {
        let mut lex = Lexer::new(src.as_bytes());
        let tok = lex.next();
        Parser {
            src: src.as_bytes(),
            lex,
            tok,
            peeked: Cell::new(None),
            m: Module {
                source: Source::default(),
                data_layout: DataLayout::default(),
                types: Types::default(),
                globals: Default::default(),
                global_by_name: Default::default(),
                global_by_number: Default::default(),
                functions: Default::default(),
                variables: Default::default(),
                aliases: Default::default(),
                comdats: Vec::new(),
                consts: Default::default(),
                metadata: Default::default(),
                md_by_number: Default::default(),
                named_metadata: Vec::new(),
                attr_groups: Default::default(),
                attrs: Vec::new(),
                uses: Default::default(),
                top_level_uses: 0,
                patches: Vec::new(),
                patch_index: FxHashMap::default(),
                appended: String::new(),
                aliases_added: String::new(),
                next_appended_metadata: None,
                use_list_orders: Vec::new(),
                labels_end: u32::MAX,
            },
            body_mode: None,
            scope: None,
            spent_scope: None,
            md_text_refs: FxHashMap::default(),
            fields_of: None,
            comdats_defined: FxHashSet::default(),
            comdat_refs: FxHashMap::default(),
            md_fields_scratch: Vec::new(),
            md_ops_stack: Vec::new(),
            key_buffer: Vec::new(),
            deferred_fields: Vec::new(),
            use_list_checks: Vec::new(),
            body_end: BodyEnd::BalancedBrace,
            next_global_number: 0,
        }
    }

    // ---- the module's arenas, or the body's own in body mode ----

    fn intern(&mut self, ty: Type) -> TypeId {
        let Some(bm) = &mut self.body_mode else {
            return self.m.types.intern(ty);
        };
        if let Some(id) = bm.base.types.known(&ty) {
            return id;
        }
        // The body's own types next: they hold only what the module lacks.
        if let Some(&id) = bm.types.dedup.get(&ty) {
            return id;
        }
        if let Some(id) = bm.base.types.lookup(&ty) {
            return id;
        }
        let body = &mut self.scope.as_mut().expect("body mode reads a body").body;
        let id = TypeId::new(body.base.types as usize + body.types.len());
        body.types.push(ty.clone());
        bm.types.dedup.insert(ty, id);
        id
    }

    fn int_ty(&mut self, bits: u32) -> TypeId {
        match &self.body_mode {
            None => self.m.types.int(bits),
            Some(bm) => match bm.base.types.known_int(bits) {
                Some(id) => id,
                None => self.intern(Type::Int(bits)),
            },
        }
    }

    fn ptr_ty(&mut self, addr_space: u32) -> TypeId {
        self.intern(Type::Ptr(addr_space))
    }

    fn ty(&self, id: TypeId) -> &Type {
        match (&self.body_mode, &self.scope) {
            (Some(bm), Some(scope)) => scope.body.ty(bm.base, id),
            _ => self.m.types.get(id),
        }
    }

    /// `id` with named types followed to their bodies: a named struct is its literal struct
    /// (`%T = type <4 x i16>` is that vector); one opaque or not yet defined stays named.
    #[inline]
    fn body_ty(&self, id: TypeId) -> &Type {
        // Most types are not named: found once.
        match self.ty(id) {
            Type::Named(_) => self.ty(self.resolve_ty(id)),
            ty => ty,
        }
    }

    /// Whether `ty` is an integer, a floating-point type or a pointer: first-class and sized,
    /// told with one look (most values are one).
    #[inline]
    fn is_scalar(&self, ty: TypeId) -> bool {
        matches!(
            self.body_ty(ty),
            Type::Int(_) | Type::Float(_) | Type::Ptr(_)
        )
    }

    /// Whether LLVM 22 takes `ty` for a first-class type here: not a function type, not
    /// `void`, not an opaque struct. A named type not yet defined is one: LLVM reads the name
    /// as an opaque struct until its definition.
    fn is_first_class(&self, ty: TypeId) -> bool {
        // A named type left after resolving is opaque, or not defined yet.
        !matches!(
            self.body_ty(ty),
            Type::Function { .. } | Type::Void | Type::Named(_)
        )
    }

    /// The error for a value of type `ty` that a load or a store moves, which must be
    /// first-class and sized: each error with its place and LLVM's words for it.
    fn check_memory_type(
        &self,
        ty: TypeId,
        not_first_class: (Span, &str),
        not_sized: (Span, &str),
    ) -> PResult<()> {
        if self.is_scalar(ty) {
            return Ok(());
        }
        for ((at, message), holds) in [
            (not_first_class, self.is_first_class(ty)),
            (not_sized, self.is_sized(ty)),
        ] {
            if !holds {
                return Err(self.err_at(at, message));
            }
        }
        Ok(())
    }

    /// The error for an argument (of a function or a call) of type `ty` at `at`, which must be
    /// first-class and not a label.
    fn check_argument_type(&self, ty: TypeId, at: Span) -> PResult<()> {
        if self.is_scalar(ty) || self.is_first_class(ty) && !matches!(self.body_ty(ty), Type::Label)
        {
            return Ok(());
        }
        Err(self.err_at(at, "invalid type for function argument"))
    }

    fn resolve_ty(&self, id: TypeId) -> TypeId {
        match (&self.body_mode, &self.scope) {
            (Some(bm), Some(scope)) => scope.body.resolve_ty(bm.base, id),
            _ => self.m.types.resolve(id),
        }
    }

    fn push_const(&mut self, c: Const) -> Value {
        match (&self.body_mode, &mut self.scope) {
            (Some(_), Some(scope)) => {
                let body = &mut scope.body;
                let id = ConstId::new(body.base.consts as usize + body.consts.len());
                body.consts.push(c);
                Value::constant(id)
            }
            _ => Value::constant(self.m.consts.push(c)),
        }
    }

    fn push_md_node(&mut self, node: MdNode) -> MdId {
        match (&self.body_mode, &mut self.scope) {
            (Some(_), Some(scope)) => {
                let body = &mut scope.body;
                let id = MdId::new(body.base.metadata as usize + body.metadata.len());
                body.metadata.push(node);
                id
            }
            _ => self.m.metadata.push(node),
        }
    }

    /// A `!N` named in text kept as a span: checked now in body mode, at the end otherwise.
    fn note_md_ref(&mut self, t: Token) -> PResult<()> {
        let n = self.number_after_sigil(t)?;
        match &mut self.body_mode {
            Some(bm) => {
                if !bm.base.md_by_number.contains(n) && bm.undefined.is_none() {
                    bm.undefined = Some(undefined_metadata(self.src, t.span));
                }
                Ok(())
            }
            None => {
                let known = match self.fields_of {
                    Some(m) => m.md_by_number.contains(n),
                    None => self.m.md_by_number.contains(n),
                };
                if !known {
                    self.md_text_refs.entry(n).or_insert(t.span);
                }
                Ok(())
            }
        }
    }

    fn set_use_role(&mut self, u: UseId, role: UseRole) {
        match &mut self.body_mode {
            None => self.m.uses[u].role = role,
            Some(bm) => {
                if let Some(use_) = u
                    .index()
                    .checked_sub(bm.first_use as usize)
                    .and_then(|i| bm.uses.get_mut(i))
                {
                    use_.role = role;
                }
            }
        }
    }

    // ---- token helpers ----

    fn bump(&mut self) -> Token {
        let t = self.tok;
        match self.peeked.take() {
            Some((lex, tok)) => (self.lex, self.tok) = (lex, tok),
            None => self.tok = self.lex.next(),
        }
        t
    }

    /// The token after the current one (lexed once: `bump` takes it from here).
    fn peek2(&self) -> Token {
        if let Some((_, t)) = self.peeked.get() {
            return t;
        }
        let mut lex = self.lex;
        let t = lex.next();
        self.peeked.set(Some((lex, t)));
        t
    }

    /// Move the lexer to `pos` (a token boundary) and read the token there.
    fn seek(&mut self, pos: usize) {
        self.peeked.set(None);
        self.lex = Lexer::starting_at(self.src, pos);
        self.tok = self.lex.next();
    }

    fn text(&self, t: Token) -> &'a [u8] {
        &self.src[t.span.range()]
    }

    fn word(&self) -> &'a [u8] {
        if self.tok.kind == Tok::Word {
            self.text(self.tok)
        } else {
            b""
        }
    }

    fn is_word(&self, w: &[u8]) -> bool {
        self.tok.kind == Tok::Word && self.text(self.tok) == w
    }

    fn eat_word(&mut self, w: &[u8]) -> bool {
        if self.is_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat(&mut self, kind: Tok) -> bool {
        if self.tok.kind == kind {
            self.bump();
            true
        } else {
            false
        }
    }

    fn err_at(&self, span: Span, message: impl Into<String>) -> ReadError {
        ReadError::at(self.src, span, message)
    }

    fn err(&self, expected: &str) -> ReadError {
        if self.tok.kind == Tok::Invalid && super::lexer::is_nul_name(self.text(self.tok)) {
            return self.err_at(self.tok.span, "NUL character is not allowed in names");
        }
        self.err_at(self.tok.span, format!("expected {expected}"))
    }

    fn expect(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        if self.tok.kind == kind {
            Ok(self.bump())
        } else {
            Err(self.err(what))
        }
    }

    fn expect_word(&mut self, w: &str) -> PResult<Token> {
        if self.is_word(w.as_bytes()) {
            Ok(self.bump())
        } else {
            Err(self.err(&format!("'{w}'")))
        }
    }

    fn expect_u64(&mut self, what: &str) -> PResult<u64> {
        if self.tok.kind == Tok::Int {
            let t = self.bump();
            unsigned(self.text(t))
                .ok_or_else(|| self.err_at(t.span, format!("{what} out of range")))
        } else {
            Err(self.err(what))
        }
    }

    /// An alignment in bytes, the current token, as LLVM takes one: a power of two, at most
    /// 2^32. A fault is reported `at` the number, or at the `(` before it when there is one.
    #[inline]
    fn expect_alignment(&mut self, paren: Option<Span>) -> PResult<u64> {
        let t = self.expect(Tok::Int, "an alignment")?;
        // Every load, store and alloca has one, of a digit or two.
        match decimal_u32(self.text(t)) {
            Some(a) if a.is_power_of_two() => Ok(u64::from(a)),
            _ => self.alignment_fault(t.span, paren.unwrap_or(t.span)),
        }
    }

    /// The alignment `number` as LLVM takes it when it is not a power of two below 2^32: 2^32
    /// itself, or LLVM's error reported `at`.
    #[cold]
    fn alignment_fault(&self, number: Span, at: Span) -> PResult<u64> {
        let a = unsigned(&self.src[number.range()])
            .ok_or_else(|| self.err_at(number, "alignment out of range"))?;
        if !a.is_power_of_two() {
            Err(self.err_at(at, "alignment is not a power of two"))
        } else if a > 1 << 32 {
            Err(self.err_at(at, "huge alignments are not supported yet"))
        } else {
            Ok(a)
        }
    }

    fn expect_u32(&mut self, what: &str) -> PResult<u32> {
        let start = self.tok.span;
        let v = self.expect_u64(what)?;
        u32::try_from(v).map_err(|_| self.err_at(start, format!("{what} out of range")))
    }

    /// Skip a parenthesized group whose opening `(` is the current token, recording the names
    /// it mentions. Returns the span from `(` to `)`.
    fn skip_parens(&mut self) -> PResult<Span> {
        let open = self.expect(Tok::LParen, "'('")?;
        let mut depth = 1u32;
        loop {
            let t = self.tok;
            match t.kind {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(open.span.to(t.span));
                    }
                }
                Tok::Eof => return Err(self.err_at(open.span, "unclosed '('")),
                Tok::Invalid => return Err(self.err("a token")),
                Tok::MdNum => self.note_md_ref(t)?,
                Tok::LocalName | Tok::LocalNum if self.scope.is_some() => {
                    self.local_ref(t)?;
                    continue;
                }
                Tok::GlobalName | Tok::GlobalNum => {
                    self.global_use(t, UseRole::Operand, GlobalUse::UNTYPED)?;
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn number_after_sigil(&self, t: Token) -> PResult<u32> {
        let mut digits = &self.text(t)[1..];
        // Only `! 16` has space after its sigil.
        if !digits.first().is_some_and(u8::is_ascii_digit) {
            digits = digits.trim_ascii_start();
        }
        decimal_u32(digits).ok_or_else(|| self.err_at(t.span, "number out of range"))
    }

    // ---- names ----

    /// Record a reference to a global, written with a pointer into `addr_space` (or
    /// [`GlobalUse::UNTYPED`]), creating it (as pending) at its first mention. In body mode the
    /// global must exist: the whole top level is read by then.
    fn global_use(&mut self, t: Token, role: UseRole, addr_space: u32) -> PResult<UseId> {
        let src = self.src;
        if let Some(bm) = &mut self.body_mode {
            if let Some((first, count)) = bm.replay_from {
                let k = bm.uses.len() as u32;
                let u = UseId::from_u32(first + k);
                return match bm.base.uses.get(u) {
                    Some(&recorded) if k < count => {
                        bm.uses.push(recorded);
                        Ok(u)
                    }
                    _ => Err(self.err_at(t.span, "a use the module did not record when read")),
                };
            }
            let body = &src[t.span.range()][1..];
            let found = global_named(bm.base, body);
            // An intrinsic never declared is one LLVM declares itself: its use stands for a
            // global made once the body is read (`read::implicit_intrinsic`).
            let global = match found {
                Some(g) => g,
                None => {
                    // Reading goes on (see `BodyMode::undefined`).
                    if !is_implicit_intrinsic(t.kind, body) && bm.undefined.is_none() {
                        bm.undefined = Some(ReadError::at(src, t.span, "use of undefined value"));
                    }
                    GlobalId::reserved_value()
                }
            };
            let u = UseId::from_u32(bm.first_use + bm.uses.len() as u32);
            bm.uses.push(GlobalUse {
                global,
                span: t.span,
                in_function: bm.func.into(),
                addr_space,
                role,
                dropped: false,
            });
            return Ok(u);
        }
        let body = &self.text(t)[1..];
        let name = if t.kind == Tok::GlobalNum {
            Err(decimal(body))
        } else {
            Ok(strip_name(body))
        };
        let g = self.global_entry(name, t.span);
        Ok(self.top_level_use(g, t.span, role, addr_space))
    }

    /// The global of this name (`Ok`) or number (`Err`), made pending at its first mention.
    fn global_entry(&mut self, name: Result<Cow<'_, [u8]>, u32>, first_use: Span) -> GlobalId {
        let existing = match name {
            Err(n) => self
                .m
                .global_by_number
                .get(&n)
                .copied()
                .ok_or(GlobalName::Numbered(n)),
            Ok(name) => self
                .m
                .global_by_name
                .get(name.as_ref())
                .copied()
                .ok_or_else(|| GlobalName::Named(name.as_ref().into())),
        };
        existing.unwrap_or_else(|name| self.m.add_global(name, GlobalKind::Pending, first_use))
    }

    fn top_level_use(
        &mut self,
        global: GlobalId,
        span: Span,
        role: UseRole,
        addr_space: u32,
    ) -> UseId {
        let u = self.m.uses.push(GlobalUse {
            global,
            span,
            in_function: None.into(),
            addr_space,
            role,
            dropped: false,
        });
        self.m.globals[global].uses.push(u);
        u
    }

    /// Define the global `t` names. As in LLVM, numbers rise through the module, gaps allowed,
    /// and `@""` names no global: it takes the next number, as `@N` written there would.
    fn define_global(&mut self, t: Token, kind: GlobalKind) -> PResult<GlobalId> {
        let body = &self.text(t)[1..];
        let name = match (t.kind, strip_name(body)) {
            (Tok::GlobalNum, _) => Err(decimal(body)),
            (_, name) if name.is_empty() => Err(self.next_global_number),
            (_, name) => Ok(name),
        };
        if let Err(n) = name {
            let next = self.next_global_number;
            if n < next {
                let what = match kind {
                    GlobalKind::Function(_) => "function",
                    _ => "global",
                };
                return Err(self.err_at(
                    t.span,
                    format!("{what} expected to be numbered '@{next}' or greater"),
                ));
            }
            self.next_global_number = n
                .checked_add(1)
                .ok_or_else(|| self.err_at(t.span, "number out of range"))?;
        }
        let g = self.global_entry(name, t.span);
        self.top_level_use(g, t.span, UseRole::Definition, GlobalUse::UNTYPED);
        if self.m.globals[g].kind != GlobalKind::Pending {
            return Err(self.err_at(t.span, "redefinition of a global"));
        }
        self.m.globals[g].kind = kind;
        Ok(g)
    }

    fn scope(&mut self) -> &mut FnScope<'a> {
        self.scope
            .as_mut()
            .expect("local names are read inside a function")
    }

    /// A reference to a local value or block, possibly before its definition.
    fn local_ref(&mut self, t: Token) -> PResult<LocalId> {
        if self.scope.is_none() {
            return Err(self.err_at(
                t.span,
                "expected a constant (local values exist only in a function body)",
            ));
        }
        self.bump();
        let key = self.local_key(t);
        let scope = self.scope();
        let (l, new) = scope.find_or_insert(key, NOT_YET_DEFINED);
        if new {
            scope.forward.push((l, t.span));
        }
        Ok(l)
    }

    /// A local used as a value of type `ty` (`label` for a block): the type it has, or its
    /// first reference gives it.
    #[inline]
    fn typed_local_ref(&mut self, t: Token, ty: TypeId) -> PResult<LocalId> {
        let l = self.local_ref(t)?;
        let had = self.scope().local_type(l);
        if *had == TypeId::reserved_value() {
            *had = ty;
        } else if *had != ty {
            let had = *had;
            return Err(self.used_with_another_type(t, had, ty));
        }
        Ok(l)
    }

    /// Out of the way of the reading, which it would slow down (the messages' strings).
    #[cold]
    #[inline(never)]
    fn used_with_another_type(&self, t: Token, had: TypeId, ty: TypeId) -> ReadError {
        let name = String::from_utf8_lossy(self.text(t));
        let message = if matches!(self.ty(ty), Type::Label) {
            format!("'{name}' is not a basic block")
        } else {
            format!(
                "'{name}' defined with type '{}' but expected '{}'",
                self.type_text(had),
                self.type_text(ty)
            )
        };
        self.err_at(t.span, message)
    }

    /// Give the local just defined at `at` its type, which a reference before may have given
    /// it already.
    #[inline]
    fn local_defined_as(&mut self, l: LocalId, ty: TypeId, at: Span) -> PResult<()> {
        let had = std::mem::replace(self.scope().local_type(l), ty);
        if had == TypeId::reserved_value() || had == ty {
            return Ok(());
        }
        Err(self.defined_with_another_type(l, had, at))
    }

    #[cold]
    #[inline(never)]
    fn defined_with_another_type(&self, l: LocalId, had: TypeId, at: Span) -> ReadError {
        let what = match self.scope.as_ref().map(|s| s.body.locals[l].def) {
            Some(LocalDef::Block(_)) => "block",
            _ => "instruction",
        };
        let message = format!(
            "{what} forward referenced with type '{}'",
            self.type_text(had)
        );
        self.err_at(at, message)
    }

    /// A type as LLVM writes it, a body's own included.
    fn type_text(&self, ty: TypeId) -> String {
        match (&self.body_mode, &self.scope) {
            (Some(bm), Some(scope)) => bm.base.types.display_in(&scope.body.types, ty),
            _ => self.m.types.display(ty),
        }
    }

    fn local_key(&self, t: Token) -> LocalKey<'a> {
        let text = self.text(t);
        match t.kind {
            Tok::LocalNum => LocalKey::Number(decimal(&text[1..])),
            Tok::LabelNum => LocalKey::Number(decimal(&text[..text.len() - 1])),
            Tok::Label => LocalKey::name(strip_name(&text[..text.len() - 1])),
            _ => LocalKey::name(strip_name(&text[1..])),
        }
    }

    /// Define a local named by `t` (or implicitly numbered when `t` is `None`).
    fn define_local(&mut self, t: Option<Token>, def: LocalDef) -> PResult<LocalId> {
        let Some(t) = t else {
            if self.scope().numbering_unknown {
                return Err(self.err("a numbered value (a piece cannot number its values)"));
            }
            let n = self.scope().next_number;
            let Some(next) = n.checked_add(1) else {
                return Err(self.err("a named value (unnamed values are numbered out of range)"));
            };
            let scope = self.scope();
            scope.next_number = next;
            // Numbers below `n` are all defined: a local numbered `n` already is a forward
            // reference (`br label %1` before an unlabeled block), which this defines.
            if let Some(l) = scope.by_number.get(n) {
                scope.body.locals[l].def = def;
                return Ok(l);
            }
            let l = scope.body.locals.push(Local { def });
            scope.by_number.insert(n, l);
            return Ok(l);
        };
        let key = self.local_key(t);
        if let LocalKey::Number(n) = key {
            let scope = self.scope();
            let next = scope.next_number;
            if std::mem::take(&mut scope.numbering_unknown) {
                scope.first_number = Some(n);
            } else if n < next {
                let what = if matches!(def, LocalDef::Block(_)) {
                    "label"
                } else {
                    "value"
                };
                return Err(self.err_at(
                    t.span,
                    format!("{what} expected to be numbered '%{next}' or greater"),
                ));
            }
            self.scope().next_number = n
                .checked_add(1)
                .ok_or_else(|| self.err_at(t.span, "number out of range"))?;
        }
        let scope = self.scope();
        match scope.find_or_insert(key, def) {
            (l, true) => Ok(l),
            (l, false) if !scope.is_defined(l) => {
                scope.body.locals[l].def = def;
                Ok(l)
            }
            _ => Err(self.err_at(t.span, "redefinition of a local name")),
        }
    }

    // ---- module ----

    /// Read the top level: everything but the function bodies, which are stepped over (see
    /// `read::parse`). On an error, the module read so far comes with it.
    /// With [`BodyEnd::FirstClosingLine`], the fields of specialized metadata nodes are
    /// stepped over too, and their spans come back to be read in the second phase.
    pub fn module(mut self, body_end: BodyEnd) -> TopLevel {
        self.body_end = body_end;
        // Room for what a module of this size holds at most as LLVM prints one: grown by
        // doubling, each copy writes to pages never touched before (a tenth of the top
        // level's page faults), while room reserved and not used is never touched.
        let len = self.src.len();
        self.m.functions.reserve(len / 1024);
        self.m.globals.reserve(len / 1024);
        // Grown by doubling, the name table would hash every name again at each step, and
        // C++ names run to hundreds of bytes (harfbuzz-O0: 7% of the top level's time).
        self.m.global_by_name.reserve(len / 1024);
        self.comdats_defined.reserve(len / 2048);
        self.m.attrs.reserve(len / 128);
        // Every block and branch target has this type: interned here, it is found without
        // hashing in every body (see `Types::known`).
        self.m.types.intern(Type::Label);
        let result = self.top_level();
        self.m.types.settle_layouts();
        TopLevel {
            module: self.m,
            deferred_fields: self.deferred_fields,
            use_list_checks: self.use_list_checks,
            error: result.err(),
        }
    }

    fn top_level(&mut self) -> PResult<()> {
        loop {
            let t = self.tok;
            match t.kind {
                Tok::Eof => break,
                Tok::Word => match self.text(t) {
                    b"source_filename" => {
                        self.bump();
                        self.expect(Tok::Equal, "'='")?;
                        self.expect(Tok::Str, "a string")?;
                    }
                    b"target" => {
                        self.bump();
                        let is_layout = self.is_word(b"datalayout");
                        if !is_layout && !self.is_word(b"triple") {
                            return Err(self.err("'datalayout' or 'triple'"));
                        }
                        self.bump();
                        self.expect(Tok::Equal, "'='")?;
                        let s = self.expect(Tok::Str, "a string")?;
                        if is_layout {
                            let body = &self.text(s)[1..s.span.range().len() - 1];
                            DataLayout::check(body).map_err(|e| self.err_at(s.span, e))?;
                            self.m.data_layout = DataLayout::parse(body);
                        }
                    }
                    b"module" => {
                        self.bump();
                        self.expect_word("asm")?;
                        self.expect(Tok::Str, "a string")?;
                    }
                    b"define" | b"declare" => self.function()?,
                    b"attributes" => self.attribute_group()?,
                    b"uselistorder" | b"uselistorder_bb" => {
                        // What a directive names is no use: it orders uses (LLVM's folds
                        // ignore it too), and the first edit deletes it.
                        let uses = self.m.uses.len();
                        let span = self.uselistorder()?;
                        for u in uses..self.m.uses.len() {
                            let g = self.m.uses[UseId::new(u)].global;
                            self.m.globals[g].uses.pop();
                        }
                        self.m.use_list_orders.push(span);
                    }
                    _ => return Err(self.err("a top-level entity")),
                },
                Tok::LocalName | Tok::LocalNum => self.type_definition()?,
                Tok::GlobalName | Tok::GlobalNum => self.global_definition()?,
                Tok::ComdatName => self.comdat()?,
                Tok::MdName => self.named_metadata()?,
                Tok::MdNum => self.metadata_definition()?,
                Tok::SummaryId => self.summary_entry()?,
                _ => return Err(self.err("a top-level entity")),
            }
        }
        self.check_module_references()
    }

    fn check_module_references(&self) -> PResult<()> {
        // As LLVM reports them: first the comdats, the first name in byte order.
        if let Some((name, &span)) = self.comdat_refs.iter().min_by_key(|&(name, _)| name) {
            let message = format!(
                "use of undefined comdat '${}'",
                String::from_utf8_lossy(name)
            );
            return Err(self.err_at(span, message));
        }
        if let Some(g) = self
            .m
            .globals
            .values()
            .find(|g| g.kind == GlobalKind::Pending)
        {
            // Outside a body nothing is called: an intrinsic never declared is misused.
            let message = match &g.name {
                GlobalName::Named(n) if is_intrinsic_name(n) => NOT_A_CALLEE,
                _ => "use of undefined value",
            };
            return Err(self.err_at(g.first_use, message));
        }
        if let Some(n) = self.m.types.named.values().find(|n| n.body.is_none()) {
            return Err(self.err_at(n.first_use, "use of undefined type"));
        }
        if let Some(&span) = self.md_text_refs.values().min_by_key(|s| s.start) {
            return Err(undefined_metadata(self.src, span));
        }
        if let Some(node) = self
            .m
            .metadata
            .values()
            .find(|n| matches!(n.body, MdBody::Pending))
        {
            return Err(undefined_metadata(self.src, node.span));
        }
        Ok(())
    }

    /// `^N = kind: ...`, stepped over as LLVM steps over it when it reads a module (not a
    /// summary): `flags` and `blockcount` take an integer, `gv`, `module` and `typeid`
    /// balanced parentheses; any other kind is refused (clang-22 writes
    /// `typeidCompatibleVTable` with -flto=thin, which opt-22 refuses too).
    fn summary_entry(&mut self) -> PResult<()> {
        const KINDS: &str = "Expected 'gv', 'module', 'typeid', 'flags' or 'blockcount' at the start of summary entry";
        self.bump();
        self.m.labels_end = self.m.labels_end.min(self.tok.span.start);
        self.expect(Tok::Equal, "'='")?;
        let kind = self.tok;
        let word = match kind.kind {
            Tok::Label => &self.text(kind)[..kind.span.range().len() - 1],
            Tok::Word => self.text(kind),
            _ => b"",
        };
        let takes_integer = match word {
            b"flags" | b"blockcount" => true,
            b"gv" | b"module" | b"typeid" => false,
            _ => return Err(self.err_at(kind.span, KINDS)),
        };
        self.bump();
        // The lexer has no token for a lone `:` (LLVM's reads `gv :` as `gv:` here).
        let colon = self.tok.kind == Tok::Invalid && self.text(self.tok) == b":";
        if colon {
            self.bump();
        } else if kind.kind == Tok::Word {
            let message = if takes_integer {
                "expected ':' here"
            } else {
                "expected ':' at start of summary entry"
            };
            return Err(self.err_at(self.tok.span, message));
        }
        if takes_integer {
            if self.tok.kind != Tok::Int || !self.text(self.tok)[0].is_ascii_digit() {
                return Err(self.err_at(self.tok.span, "expected integer"));
            }
            self.bump();
            return Ok(());
        }
        if self.tok.kind != Tok::LParen {
            return Err(self.err_at(self.tok.span, "expected '(' at start of summary entry"));
        }
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                Tok::LParen => depth += 1,
                Tok::RParen => depth -= 1,
                Tok::Eof => {
                    let message = "found end of file while parsing summary entry";
                    return Err(self.err_at(self.tok.span, message));
                }
                // LLVM skips every other token here, even one it cannot lex (a lone `%`),
                // but for a string left open, which runs to the end.
                Tok::Invalid if self.tok.span.end as usize == self.src.len() => {
                    return Err(self.err_at(self.tok.span, "end of file in string constant"));
                }
                _ => {}
            }
            self.bump();
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// A `uselistorder` or `uselistorder_bb` directive; its span.
    fn uselistorder(&mut self) -> PResult<Span> {
        let is_bb = self.is_word(b"uselistorder_bb");
        let start = self.bump().span;
        // The global the directive orders the uses of, or the function and block.
        let (mut global, mut block) = (None, None);
        if is_bb {
            let g = self.expect_global("a function")?;
            self.global_use(g, UseRole::Operand, GlobalUse::UNTYPED)?;
            self.expect(Tok::Comma, "','")?;
            if !matches!(self.tok.kind, Tok::LocalName | Tok::LocalNum) {
                return Err(self.err("a block name"));
            }
            block = Some((g, self.bump()));
        } else {
            let ty = self.parse_type()?;
            let value = self.tok;
            self.parse_value(ty)?;
            // A global itself, not a constant that names one.
            if matches!(value.kind, Tok::GlobalName | Tok::GlobalNum) && self.tok.kind == Tok::Comma
            {
                global = global_named(&self.m, &self.src[value.span.range()][1..]);
            }
        }
        self.expect(Tok::Comma, "','")?;
        let open = self.expect(Tok::LBrace, "'{'")?;
        if self.tok.kind == Tok::RBrace {
            return Err(self.err("non-empty list of uselistorder indexes"));
        }
        // The indexes are a permutation of 0..n other than the identity, told as LLVM tells
        // it: their sum's excess over 0 + 1 + ... + (n - 1), in wrapping `u32`, and their
        // largest.
        let (mut excess, mut largest, mut count, mut ordered) = (0u32, 0u32, 0u32, true);
        loop {
            let t = self.expect(Tok::Int, "a use index")?;
            let index = decimal_u32(self.text(t)).unwrap_or(u32::MAX);
            excess = excess.wrapping_add(index.wrapping_sub(count));
            largest = largest.max(index);
            ordered &= index == count;
            count += 1;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::RBrace, "'}'")?.span;
        let message = if count < 2 {
            "expected >= 2 uselistorder indexes"
        } else if excess != 0 || largest >= count {
            "expected distinct uselistorder indexes in range [0, size)"
        } else if ordered {
            "expected uselistorder indexes to change the order"
        } else {
            if let Some(global) = global {
                self.use_list_checks.push(UseListCheck::Global {
                    at: start,
                    global,
                    indexes: count,
                });
            }
            if let Some((function, block)) = block {
                self.uselistorder_bb_holds(function, block)?;
            }
            return Ok(start.to(end));
        };
        Err(self.err_at(open.span, message))
    }

    /// What LLVM checks of `uselistorder_bb @f, %block` where it stands: `@f` is a function
    /// defined before it, and the block is named, not numbered. That `f` has such a block is
    /// checked once its body is read.
    fn uselistorder_bb_holds(&mut self, function: Token, block: Token) -> PResult<()> {
        let global = global_named(&self.m, &self.src[function.span.range()][1..]);
        let kind = global.map(|g| self.m.globals[g].kind);
        let f = match kind {
            None | Some(GlobalKind::Pending) => {
                let message = "invalid function forward reference in uselistorder_bb";
                return Err(self.err_at(function.span, message));
            }
            Some(GlobalKind::Function(f)) => f,
            Some(_) => {
                let message = "expected function name in uselistorder_bb";
                return Err(self.err_at(function.span, message));
            }
        };
        if self.m.functions[f].body.is_none() {
            let message = "invalid declaration in uselistorder_bb";
            return Err(self.err_at(function.span, message));
        }
        if block.kind == Tok::LocalNum {
            let message = "invalid numeric label in uselistorder_bb";
            return Err(self.err_at(block.span, message));
        }
        self.use_list_checks.push(UseListCheck::Block {
            function: f,
            block: block.span,
        });
        Ok(())
    }

    fn expect_global(&mut self, what: &str) -> PResult<Token> {
        if matches!(self.tok.kind, Tok::GlobalName | Tok::GlobalNum) {
            Ok(self.bump())
        } else {
            Err(self.err(what))
        }
    }

    fn comdat(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect_word("comdat")?;
        let kind = self.tok;
        match self.word() {
            b"any" | b"exactmatch" | b"largest" | b"nodeduplicate" | b"noduplicates"
            | b"samesize" => {}
            _ => return Err(self.err("a comdat selection kind")),
        }
        self.bump();
        // Checked once the definition is read, as LLVM does.
        let key = strip_name(&self.src[name.span.range()][1..]);
        self.comdat_refs.remove(&key);
        if !self.comdats_defined.insert(key) {
            let key = strip_name(&self.src[name.span.range()][1..]);
            let message = format!(
                "redefinition of comdat '${}'",
                String::from_utf8_lossy(&key)
            );
            return Err(self.err_at(name.span, message));
        }
        self.m.comdats.push(Comdat {
            name: name.span,
            kind: kind.span,
            span: name.span.to(kind.span),
        });
        Ok(())
    }

    fn type_definition(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect_word("type")?;
        let n = self.named_type(name)?;
        if self.m.types.named[n].body.is_some() {
            return Err(self.err_at(name.span, "redefinition of a type"));
        }
        let body = if self.eat_word(b"opaque") {
            None
        } else {
            Some(self.parse_type()?)
        };
        self.m.types.named[n].body = Some(body);
        // A struct that holds itself, not through a pointer, has no size: LLVM refuses it
        // once the definition that closes the cycle is read.
        if body.is_some_and(|body| self.holds_by_value(body, n, &mut Vec::new())) {
            let name = self.m.types.named[n].spelling.trim_matches('"');
            let message = format!("identified structure type '{name}' is recursive");
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(())
    }

    /// Whether a value of type `ty` holds one of the named type `target` (in a struct, array
    /// or vector element, followed through named types defined so far; `seen` are the named
    /// types already followed).
    fn holds_by_value(&self, ty: TypeId, target: NamedTypeId, seen: &mut Vec<NamedTypeId>) -> bool {
        match self.m.types.get(ty) {
            Type::Named(n) if *n == target => true,
            Type::Named(n) => match self.m.types.named[*n].body {
                Some(Some(body)) if !seen.contains(n) => {
                    seen.push(*n);
                    self.holds_by_value(body, target, seen)
                }
                _ => false,
            },
            Type::Struct { elems, .. } => {
                elems.iter().any(|&e| self.holds_by_value(e, target, seen))
            }
            Type::Array(_, elem) | Type::Vector { elem, .. } => {
                self.holds_by_value(*elem, target, seen)
            }
            _ => false,
        }
    }

    fn named_type(&mut self, t: Token) -> PResult<NamedTypeId> {
        let text = self.text(t);
        // The key is `%` and the unquoted, unescaped name: the text itself when bare, else
        // made in a buffer kept for the next (C++ names its types `%"class.std::..."`).
        let key: &[u8] = if t.kind == Tok::LocalNum || text.get(1) != Some(&b'"') {
            text
        } else {
            self.key_buffer.clear();
            self.key_buffer.push(b'%');
            self.key_buffer.extend_from_slice(&strip_name(&text[1..]));
            &self.key_buffer
        };
        if let Some(bm) = &self.body_mode {
            return match bm.base.types.named_by_key.get(key) {
                Some(&n) if bm.base.types.named[n].body.is_some() => Ok(n),
                _ => Err(self.err_at(t.span, "use of undefined type")),
            };
        }
        if let Some(&n) = self.m.types.named_by_key.get(key) {
            return Ok(n);
        }
        let key: Box<[u8]> = key.into();
        let n = self.m.types.named.push(types::NamedType {
            spelling: String::from_utf8_lossy(&text[1..]).into(),
            body: None,
            first_use: t.span,
        });
        self.m.types.named_by_key.insert(key, n);
        Ok(n)
    }

    fn named_metadata(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect(Tok::Exclaim, "'!'")?;
        self.expect(Tok::LBrace, "'{'")?;
        let mut nodes = Vec::new();
        if self.tok.kind != Tok::RBrace {
            loop {
                let t = self.expect(Tok::MdNum, "a metadata node '!N'")?;
                nodes.push(self.md_number_ref(t)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let close = self.expect(Tok::RBrace, "'}'")?;
        self.m.named_metadata.push(NamedMd {
            name: name.span,
            nodes,
            span: name.span.to(close.span),
        });
        Ok(())
    }

    fn md_number_ref(&mut self, t: Token) -> PResult<MdId> {
        let n = self.number_after_sigil(t)?;
        if let Some(bm) = &mut self.body_mode {
            return Ok(match bm.base.md_by_number.get(n) {
                Some(id) => id,
                None => {
                    // Noted, and a node of the body's stands in while reading goes on.
                    if bm.undefined.is_none() {
                        bm.undefined = Some(undefined_metadata(self.src, t.span));
                    }
                    self.push_md_node(MdNode {
                        distinct: false,
                        body: MdBody::Pending,
                        span: t.span,
                    })
                }
            });
        }
        if let Some(id) = self.m.md_by_number.get(n) {
            return Ok(id);
        }
        let id = self.m.metadata.push(MdNode {
            distinct: false,
            body: MdBody::Pending,
            span: t.span,
        });
        self.m.md_by_number.insert(n, id);
        self.md_text_refs.remove(&n);
        Ok(id)
    }

    fn metadata_definition(&mut self) -> PResult<()> {
        let t = self.bump();
        let id = self.md_number_ref(t)?;
        self.expect(Tok::Equal, "'='")?;
        let distinct = self.eat_word(b"distinct");
        let (body, span) = self.md_node_body(distinct)?;
        // LLVM reads the node before it finds its number taken.
        if !matches!(self.m.metadata[id].body, MdBody::Pending) {
            return Err(self.err_at(self.tok.span, "Metadata id is already used"));
        }
        self.m.metadata[id] = MdNode {
            distinct,
            body,
            span: t.span.to(span),
        };
        Ok(())
    }

    /// The operands of a tuple (`!{...}`), pushed on [`Parser::md_ops_stack`].
    fn md_tuple_operands(&mut self) -> PResult<()> {
        if self.tok.kind == Tok::RBrace {
            return Ok(());
        }
        loop {
            let op = if self.eat_word(b"null") {
                None
            } else {
                Some(self.md_operand(false)?)
            };
            self.md_ops_stack.push(op);
            if !self.eat(Tok::Comma) {
                return Ok(());
            }
        }
    }

    /// `!{...}` or `!Name(...)`, `distinct` or not; returns the body and the span it covered.
    fn md_node_body(&mut self, distinct: bool) -> PResult<(MdBody, Span)> {
        let start = self.tok.span;
        match self.tok.kind {
            Tok::Exclaim => {
                self.bump();
                self.expect(Tok::LBrace, "'{'")?;
                // The operands gather on a stack shared by all tuples (one may hold another),
                // and leave it as one exact allocation.
                let from = self.md_ops_stack.len();
                let read = self.md_tuple_operands();
                let ops = self.md_ops_stack.split_off(from);
                read?;
                let close = self.expect(Tok::RBrace, "'}'")?;
                Ok((MdBody::Tuple(ops.into()), start.to(close.span)))
            }
            Tok::MdName => {
                let name = self.bump();
                if self.text(name) == b"!DIArgList" {
                    self.expect(Tok::LParen, "'(' here")?;
                    let mut args = Vec::new();
                    if self.tok.kind != Tok::RParen {
                        loop {
                            let ty = self.parse_type()?;
                            let v = self.parse_value(ty)?;
                            args.push(MdRef::Value(ty, v));
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    let close = self.expect(Tok::RParen, "')' here")?;
                    return Ok((MdBody::ArgList(args.into()), start.to(close.span)));
                }
                // The fields are read again when needed (`read::md_fields`): debug information
                // has so many that keeping them would cost more memory than the text. They are
                // most of a module with debug information: when guessing, they are read in the
                // second phase, in parallel.
                if self.body_end == BodyEnd::FirstClosingLine
                    && self.tok.kind == Tok::LParen
                    && let Some(end) = skim_md_fields(self.src, self.tok.span.start as usize)
                {
                    self.deferred_fields
                        .push(Span::new(name.span.start as usize, end));
                    self.seek(end);
                    return Ok((
                        MdBody::Specialized(name.span),
                        start.to(Span::empty_at(end as u32)),
                    ));
                }
                let mut fields = std::mem::take(&mut self.md_fields_scratch);
                let read = self.specialized_body(name.span, distinct, &mut fields);
                fields.clear();
                self.md_fields_scratch = fields;
                read?;
                let end = self.prev_end();
                Ok((MdBody::Specialized(name.span), start.to(end)))
            }
            _ => Err(self.err("a metadata node '!{...}' or '!Name(...)'")),
        }
    }

    /// The fields of the specialized node whose name (`!DIxxx`) is at `name` in `src`, which
    /// was read before (so this cannot fail).
    pub(crate) fn specialized_fields(src: &'a str, name: Span) -> Vec<(Span, Span)> {
        let mut p = Parser::new(src);
        p.seek(name.end as usize);
        let mut fields = Vec::new();
        // A throwaway parser: the references it notes go nowhere.
        let distinct = is_after_distinct(src.as_bytes(), name);
        let _ = p.specialized_body(name, distinct, &mut fields);
        fields
    }

    /// Whether the fields the first phase stepped over (see [`Parser::module`]) read, each
    /// ending where it was stepped over to, and name only metadata `base` defines.
    pub(crate) fn deferred_fields_hold(src: &'a str, base: &'a Module, fields: &[Span]) -> bool {
        let mut p = Parser::new(src);
        p.fields_of = Some(base);
        let mut scratch = Vec::new();
        let read = fields.iter().all(|span| {
            // The name holds no `(`: the fields start at the first.
            let node = &src.as_bytes()[span.range()];
            let Some(open) = memchr::memchr(b'(', node) else {
                return false;
            };
            let start = span.start as usize;
            let name = Span::new(start, start + node[..open].trim_ascii_end().len());
            p.seek(start + open);
            scratch.clear();
            let distinct = is_after_distinct(src.as_bytes(), name);
            p.specialized_body(name, distinct, &mut scratch).is_ok()
                && p.prev_end().start == span.end
        });
        // References are checked against the module, whose nodes are all known now.
        read && p.md_text_refs.is_empty()
    }

    fn prev_end(&self) -> Span {
        // The lexer has consumed the current token; the previous token ended before it.
        let mut end = self.tok.span.start as usize;
        while end > 0 && matches!(self.src[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        Span::empty_at(end as u32)
    }

    /// What follows the name (at `name`, `!DIxxx`) of a specialized node of a kind LLVM 22
    /// has, `distinct` or not: its fields, added to `fields` as spans of text (label and
    /// value; an expression's elements have empty labels), read as LLVM 22 reads them.
    fn specialized_body(
        &mut self,
        name: Span,
        distinct: bool,
        fields: &mut Vec<(Span, Span)>,
    ) -> PResult<()> {
        let kind = &self.src[name.range()][1..];
        match kind {
            b"DIExpression" => return self.expression_elements(fields),
            b"DIAssignID" => {
                if !distinct {
                    return Err(self.err_at(name, "missing 'distinct', required for !DIAssignID()"));
                }
                self.expect(Tok::LParen, "'(' here")?;
                self.expect(Tok::RParen, "')' here")?;
                return Ok(());
            }
            b"DICompileUnit" if !distinct => {
                return Err(self.err_at(name, "missing 'distinct', required for !DICompileUnit"));
            }
            _ => {}
        }
        let Some(table) = debug_info::fields(kind) else {
            return Err(self.err_at(name, "expected metadata type"));
        };
        let first = fields.len();
        let after = self.md_fields(table, fields)?;
        let fields = &fields[first..];
        let field = |label: &str| {
            fields.iter().find_map(|&(f, v)| {
                let f = &self.src[f.range()];
                (f.strip_suffix(b":") == Some(label.as_bytes())).then(|| &self.src[v.range()])
            })
        };
        match kind {
            b"DISubprogram" if !distinct => {
                // An explicit `spFlags` wins over `isDefinition`, which is true unless said.
                let definition = match field("spFlags") {
                    Some(flags) => flags.split(|&b| b == b'|').any(|flag| {
                        let flag = flag.trim_ascii();
                        flag == b"DISPFlagDefinition"
                            || unsigned(flag)
                                .is_some_and(|n| n & debug_info::words::DISP_FLAG_DEFINITION != 0)
                    }),
                    None => field("isDefinition") != Some(b"false"),
                };
                if definition {
                    let message =
                        "missing 'distinct', required for !DISubprogram that is a Definition";
                    return Err(self.err_at(name, message));
                }
            }
            b"DICompileUnit" => {
                let language = field("language").is_some();
                let language_name = field("sourceLanguageName").is_some();
                let message = if language && language_name {
                    "can only specify one of 'language' and 'sourceLanguageName' on !DICompileUnit"
                } else if !language && !language_name {
                    "missing one of 'language' or 'sourceLanguageName', required for !DICompileUnit"
                } else if !language_name && field("sourceLanguageVersion").is_some() {
                    "'sourceLanguageVersion' requires an associated 'sourceLanguageName' on \
                     !DICompileUnit"
                } else {
                    return Ok(());
                };
                return Err(self.err_at(name, message));
            }
            b"DIEnumerator"
                if field("isUnsigned") == Some(b"true")
                    && field("value").is_some_and(|v| v.starts_with(b"-")) =>
            {
                return Err(self.err_at(after, "unsigned enumerator with negative value"));
            }
            _ => {}
        }
        Ok(())
    }

    /// The `(field: value, ...)` of a specialized node whose kind has the fields of `table`,
    /// added to `fields` as spans of text: each field one of the table's, named once, its value
    /// what the field takes, and every field the kind requires there. Returns the span of the
    /// token after the `)`.
    fn md_fields(
        &mut self,
        table: &[debug_info::Field],
        fields: &mut Vec<(Span, Span)>,
    ) -> PResult<Span> {
        self.expect(Tok::LParen, "'(' here")?;
        let mut seen = 0u64;
        // LLVM prints a kind's fields in the order of its table, which is this one's: the
        // next field is looked for first after the last.
        let mut next = 0;
        if self.tok.kind != Tok::RParen {
            loop {
                let label = self.tok;
                if label.kind != Tok::Label || !self.is_label_read(label) {
                    return Err(self.err("field label here"));
                }
                let text = self.text(label);
                let name = &text[..text.len() - 1];
                let is = |&i: &usize| {
                    let f = table[i].name.as_bytes();
                    f.len() == name.len() && f == name
                };
                let Some(i) = (next..table.len()).chain(0..next).find(is) else {
                    let name = String::from_utf8_lossy(name);
                    return Err(self.err_at(label.span, format!("invalid field '{name}'")));
                };
                if seen & 1 << i != 0 {
                    let name = table[i].name;
                    let message = format!("field '{name}' cannot be specified more than once");
                    return Err(self.err_at(label.span, message));
                }
                seen |= 1 << i;
                next = i + 1;
                self.bump();
                let start = self.tok.span;
                self.field_value(table[i].name, table[i].value)?;
                fields.push((label.span, start.to(self.prev_end())));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let close = self.expect(Tok::RParen, "')' here")?;
        let missing = table
            .iter()
            .enumerate()
            .find(|&(i, f)| f.required && seen & 1 << i == 0);
        if let Some((_, field)) = missing {
            let message = format!("missing required field '{}'", field.name);
            return Err(self.err_at(close.span, message));
        }
        Ok(self.tok.span)
    }

    /// The value of the field `name`, which takes `value`: stepped over once it is checked.
    fn field_value(&mut self, name: &str, value: debug_info::FieldValue) -> PResult<()> {
        use debug_info::FieldValue::*;
        let t = self.tok;
        match value {
            Node { null } => return self.field_node(name, null),
            Str { empty } => {
                let s = self.expect(Tok::Str, "string constant")?;
                if !empty && s.span.range().len() == 2 {
                    return Err(self.err_at(s.span, format!("'{name}' cannot be empty")));
                }
                return Ok(());
            }
            Unsigned(max) => self.field_unsigned(name, max)?,
            UnsignedOrNode(_) | SignedOrNode(..) if !self.is_integer() => {
                return self.field_node(name, !matches!(value, SignedOrNode(_, _, false)));
            }
            UnsignedOrNode(max) => self.field_unsigned(name, max)?,
            Signed(min, max) | SignedOrNode(min, max, _) => self.field_signed(name, min, max)?,
            Integer => {
                if !self.is_integer() {
                    return Err(self.err("integer"));
                }
            }
            Bool => {
                if !(self.is_word(b"true") || self.is_word(b"false")) {
                    return Err(self.err("'true' or 'false'"));
                }
            }
            Word(words) => {
                if self.is_integer() {
                    self.field_unsigned(name, words.max)?;
                } else {
                    let word = if t.kind == Tok::Word {
                        self.text(t)
                    } else {
                        b""
                    };
                    if !words.contains(word) {
                        let what = words.what;
                        return Err(match words.prefix {
                            Some(p) if word.starts_with(p.as_bytes()) => {
                                let word = String::from_utf8_lossy(word);
                                self.err_at(t.span, format!("invalid {what} '{word}'"))
                            }
                            _ => self.err(what),
                        });
                    }
                }
            }
            Flags | SubprogramFlags => return self.field_flags(value == SubprogramFlags),
            NodeList => return self.md_operand_list(),
            Checksum => {
                let word = if t.kind == Tok::Word {
                    self.text(t)
                } else {
                    b""
                };
                if !matches!(word, b"CSK_MD5" | b"CSK_SHA1" | b"CSK_SHA256") {
                    // LLVM quotes the last word its lexer kept: this one if it is a checksum
                    // kind's, else the field's own name.
                    let quoted = if word.starts_with(b"CSK_") {
                        String::from_utf8_lossy(word)
                    } else {
                        name.into()
                    };
                    return Err(self.err_at(t.span, format!("invalid checksum kind '{quoted}'")));
                }
            }
        }
        self.bump();
        Ok(())
    }

    /// Whether the current token is an integer as LLVM's lexer reads one (`u0x..` and
    /// `s0x..` too, `+1` not).
    fn is_integer(&self) -> bool {
        match self.tok.kind {
            Tok::Int => self.text(self.tok)[0] != b'+',
            Tok::HexInt => true,
            _ => false,
        }
    }

    /// The current token as an integer, as LLVM's lexer reads one: whether it is negative,
    /// and its magnitude (`None` past 64 bits).
    fn integer(&self) -> Option<(bool, Option<u64>)> {
        let text = self.text(self.tok);
        match self.tok.kind {
            Tok::Int if text[0] != b'+' => match text.strip_prefix(b"-") {
                Some(digits) => Some((true, unsigned(digits))),
                None => Some((false, unsigned(text))),
            },
            Tok::HexInt => {
                let digits = std::str::from_utf8(&text[3..]).ok()?;
                Some((false, u64::from_str_radix(digits, 16).ok()))
            }
            _ => None,
        }
    }

    /// An unsigned integer field up to `max`, the current token (not stepped over).
    #[inline(always)]
    fn field_unsigned(&self, name: &str, max: u64) -> PResult<()> {
        // Most are line and column numbers of a few digits.
        let text = self.text(self.tok);
        if self.tok.kind == Tok::Int
            && text.len() <= 4
            && text[0].is_ascii_digit()
            && u64::from(decimal(text)) <= max
        {
            return Ok(());
        }
        self.field_unsigned_in_full(name, max)
    }

    fn field_unsigned_in_full(&self, name: &str, max: u64) -> PResult<()> {
        match self.integer() {
            Some((false, n)) if self.text(self.tok)[0] != b's' => {
                if n.is_none_or(|n| n > max) {
                    let message = format!("value for '{name}' too large, limit is {max}");
                    return Err(self.err_at(self.tok.span, message));
                }
                Ok(())
            }
            _ => Err(self.err("unsigned integer")),
        }
    }

    /// A signed integer field within `min..=max`, the current token (not stepped over).
    fn field_signed(&self, name: &str, min: i64, max: i64) -> PResult<()> {
        let Some((negative, n)) = self.integer() else {
            return Err(self.err("signed integer"));
        };
        let n = i128::from(n.unwrap_or(u64::MAX)) + i128::from(n.is_none());
        let value = if negative { -n } else { n };
        if value < i128::from(min) {
            let message = format!("value for '{name}' too small, limit is {min}");
            return Err(self.err_at(self.tok.span, message));
        }
        if value > i128::from(max) {
            let message = format!("value for '{name}' too large, limit is {max}");
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(())
    }

    /// `DIFlag*` (or, for a subprogram's `spFlags`, `DISPFlag*`) words and 32-bit numbers,
    /// joined by `|`.
    fn field_flags(&mut self, subprogram: bool) -> PResult<()> {
        let (prefix, list, invalid) = if subprogram {
            (
                &b"DISPFlag"[..],
                debug_info::words::DISP_FLAG,
                "invalid subprogram debug info flag",
            )
        } else {
            (
                &b"DIFlag"[..],
                debug_info::words::DI_FLAG,
                "invalid debug info flag",
            )
        };
        loop {
            let t = self.tok;
            match self.integer() {
                Some((false, n)) if self.text(t)[0] != b's' => {
                    if n.is_none_or(|n| n > u32::MAX.into()) {
                        return Err(self.err_at(t.span, "expected 32-bit integer (too large)"));
                    }
                }
                _ if t.kind == Tok::Word && self.text(t).starts_with(prefix) => {
                    if !is_listed(list, self.text(t)) {
                        let word = String::from_utf8_lossy(self.text(t));
                        return Err(self.err_at(t.span, format!("{invalid} '{word}'")));
                    }
                }
                _ => return Err(self.err("debug info flag")),
            }
            self.bump();
            if !self.eat(Tok::Bar) {
                return Ok(());
            }
        }
    }

    /// A field naming a node, a string or a constant (LLVM's `MDField`), or `null` when
    /// `null` is allowed.
    fn field_node(&mut self, name: &str, null: bool) -> PResult<()> {
        if self.is_word(b"null") {
            if !null {
                return Err(self.err_at(self.tok.span, format!("'{name}' cannot be null")));
            }
            self.bump();
            return Ok(());
        }
        self.md_field_operand(false)
    }

    /// A metadata operand that is kept as text (a node's field, a debug record's): a node
    /// (numbered, a tuple, or specialized: its fields read too), a metadata string, or a typed
    /// value, which may be a local value of the function only with `locals` (a debug record's
    /// location, which may be a `!DIArgList` of them too).
    fn md_field_operand(&mut self, locals: bool) -> PResult<()> {
        let t = self.tok;
        match t.kind {
            Tok::MdName if locals && self.text(t) == b"!DIArgList" => {
                self.bump();
                self.expect(Tok::LParen, "'(' here")?;
                if self.tok.kind != Tok::RParen {
                    loop {
                        let ty = self.parse_type()?;
                        self.parse_value(ty)?;
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "')' here")?;
            }
            Tok::MdNum => {
                self.note_md_ref(t)?;
                self.bump();
            }
            Tok::MdString => {
                self.bump();
            }
            Tok::MdName => {
                self.bump();
                if self.text(t) == b"!DIArgList" {
                    return Err(self.err_at(t.span, "expected metadata type"));
                }
                let mut nested = Vec::new();
                self.specialized_body(t.span, false, &mut nested)?;
            }
            Tok::Exclaim => {
                self.bump();
                self.md_operand_list()?;
            }
            _ => {
                let ty = match self.parse_type() {
                    Ok(ty) => ty,
                    // What cannot start a type cannot start an operand.
                    Err(ReadError::Syntax(d)) if d.offset == t.span.start as usize => {
                        return Err(self.err_at(t.span, "expected metadata operand"));
                    }
                    Err(e) => return Err(e),
                };
                self.value_as_metadata_holds(ty, t.span)?;
                let at = self.tok.span;
                let v = self.parse_value(ty)?;
                if !locals && matches!(v.kind(), ValueKind::Local(_)) {
                    return Err(self.err_at(at, "invalid use of function-local name"));
                }
            }
        }
        Ok(())
    }

    /// `{` operands kept as text or `null`, separated by commas `}`: a tuple's after its `!`,
    /// or a generic node's `operands:`.
    fn md_operand_list(&mut self) -> PResult<()> {
        self.expect(Tok::LBrace, "'{' here")?;
        if self.tok.kind != Tok::RBrace {
            loop {
                if !self.eat_word(b"null") {
                    self.md_field_operand(false)?;
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBrace, "'}' here")?;
        Ok(())
    }

    /// A debug record (`#dbg_value(...)`, the current token) read as LLVM 22 reads one; its
    /// span.
    fn debug_record(&mut self) -> PResult<Span> {
        let t = self.bump();
        let operands: &[bool] = match self.text(t).strip_prefix(b"#dbg_").unwrap_or_default() {
            // Whether each operand before the location is a value (else a node).
            b"value" | b"declare" | b"declare_value" => &[true, false, false],
            b"assign" => &[true, false, false, false, true, false],
            b"label" => &[false],
            _ => {
                let kind = Span::new(t.span.start as usize + 1, t.span.end as usize);
                return Err(self.err_at(kind, "expected debug record type here"));
            }
        };
        self.expect_in_record(Tok::LParen, "'('")?;
        for &value in operands {
            if value {
                self.md_field_operand(true)?;
            } else {
                self.record_node()?;
            }
            self.expect_in_record(Tok::Comma, "','")?;
        }
        self.record_node()?;
        let close = self.expect_in_record(Tok::RParen, "')'")?;
        Ok(t.span.to(close.span))
    }

    /// `kind` in a debug record, where LLVM words what it lacks with a capital ("Expected ','
    /// here").
    #[inline(always)]
    fn expect_in_record(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        match self.tok.kind == kind {
            true => Ok(self.bump()),
            false => Err(self.record_lacks(what)),
        }
    }

    #[cold]
    fn record_lacks(&self, what: &str) -> ReadError {
        self.err_at(self.tok.span, format!("Expected {what} here"))
    }

    /// A node operand of a debug record: numbered, a tuple or specialized.
    fn record_node(&mut self) -> PResult<()> {
        match self.tok.kind {
            Tok::MdNum | Tok::MdName | Tok::Exclaim => self.md_field_operand(false),
            _ => Err(self.err("'!' here")),
        }
    }

    /// A value inside metadata is no metadata itself (LLVM's "roundtrip").
    fn value_as_metadata_holds(&self, ty: TypeId, at: Span) -> PResult<()> {
        match self.ty(ty) {
            Type::Metadata => Err(self.err_at(at, "invalid metadata-value-metadata roundtrip")),
            _ => Ok(()),
        }
    }

    /// The elements of a `!DIExpression(...)`: DWARF operations, attribute encodings and
    /// unsigned numbers, each added to `fields` with an empty label.
    fn expression_elements(&mut self, fields: &mut Vec<(Span, Span)>) -> PResult<()> {
        let open = self.expect(Tok::LParen, "'(' here")?;
        let label = Span::empty_at(open.span.end);
        if self.tok.kind != Tok::RParen {
            loop {
                let t = self.tok;
                let word = if t.kind == Tok::Word {
                    self.text(t)
                } else {
                    b""
                };
                let list = if word.starts_with(b"DW_OP_") {
                    Some((debug_info::words::DW_OP, "invalid DWARF op"))
                } else if word.starts_with(b"DW_ATE_") {
                    Some((
                        debug_info::words::DW_ATE,
                        "invalid DWARF attribute encoding",
                    ))
                } else {
                    None
                };
                match list {
                    Some((list, invalid)) => {
                        if !is_listed(list, word) {
                            let word = String::from_utf8_lossy(word);
                            return Err(self.err_at(t.span, format!("{invalid} '{word}'")));
                        }
                    }
                    None => match self.integer() {
                        Some((false, n)) if self.text(t)[0] != b's' => {
                            if n.is_none() {
                                let message = format!("element too large, limit is {}", u64::MAX);
                                return Err(self.err_at(t.span, message));
                            }
                        }
                        _ => return Err(self.err("unsigned integer")),
                    },
                }
                self.bump();
                fields.push((label, t.span));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' here")?;
        Ok(())
    }

    /// A metadata operand: a node, a string, or a typed value, which may be a local value of
    /// the function only with `locals` (a call's `metadata i32 %v`, not a node's `!{i32 %v}`).
    fn md_operand(&mut self, locals: bool) -> PResult<MdRef> {
        match self.tok.kind {
            Tok::MdNum => {
                let t = self.bump();
                Ok(MdRef::Node(self.md_number_ref(t)?))
            }
            Tok::MdString => Ok(MdRef::Str(self.bump().span)),
            Tok::Exclaim | Tok::MdName => {
                let (body, span) = self.md_node_body(false)?;
                let id = self.push_md_node(MdNode {
                    distinct: false,
                    body,
                    span,
                });
                Ok(MdRef::Node(id))
            }
            _ => {
                let type_at = self.tok.span;
                let ty = self.parse_type()?;
                self.value_as_metadata_holds(ty, type_at)?;
                let at = self.tok.span;
                let v = self.parse_value(ty)?;
                if !locals && matches!(v.kind(), ValueKind::Local(_)) {
                    return Err(self.err_at(at, "invalid use of function-local name"));
                }
                Ok(MdRef::Value(ty, v))
            }
        }
    }

    fn attribute_group(&mut self) -> PResult<()> {
        self.bump();
        let t = self.expect(Tok::AttrGroup, "an attribute group '#N'")?;
        let n = self.number_after_sigil(t)?;
        self.expect(Tok::Equal, "'='")?;
        self.expect(Tok::LBrace, "'{'")?;
        let start = self.m.attrs.len();
        while self.tok.kind != Tok::RBrace {
            match self.next_attribute(AttrPlace::Group)? {
                Some(a) => self.m.attrs.push(a),
                None => return Err(self.err("an attribute or '}'")),
            }
        }
        self.bump();
        let attrs = AttrList::since(&self.m.attrs, start);
        if self.m.attr_groups.insert(n, attrs).is_some() {
            return Err(self.err_at(t.span, "redefinition of an attribute group"));
        }
        Ok(())
    }

    /// The next attribute of a list standing in `place`, or `None` where the list ends: at a
    /// token that is no attribute there, as LLVM reads it (a keyword it does not know, such
    /// as `foo`, ends the list, and what follows must then be what the grammar expects).
    fn next_attribute(&mut self, place: AttrPlace) -> PResult<Option<Attr>> {
        let keyword = match self.tok.kind {
            Tok::Str => None,
            Tok::AttrGroup if place == AttrPlace::Function => None,
            Tok::Word => match attributes::keyword(self.text(self.tok)) {
                Some(k) if k.read_in & place.bit() != 0 => Some(k),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.attribute(place, keyword).map(Some)
    }

    /// What LLVM 22 checks of an argument otherwise stepped over, the `(` being the current
    /// token: `allockind`'s kinds, and that `range` is of an integer type (one of a name is
    /// let through, which may name one).
    fn check_attribute_argument(&self, keyword: Token) -> PResult<()> {
        if self.tok.kind != Tok::LParen {
            return Ok(());
        }
        let arg = self.peek2();
        match self.text(keyword) {
            b"allockind" => {
                if arg.kind != Tok::Str {
                    return Err(self.err_at(arg.span, "expected allockind value"));
                }
                let text = self.text(arg);
                let kinds = &text[1..text.len() - 1];
                // Escapes are left to LLVM (none of its kinds needs one).
                if kinds.contains(&b'\\') {
                    return Ok(());
                }
                for kind in kinds.split(|&b| b == b',') {
                    let known = matches!(
                        kind,
                        b"alloc" | b"realloc" | b"free" | b"uninitialized" | b"zeroed" | b"aligned"
                    );
                    if !known {
                        let kind = String::from_utf8_lossy(kind);
                        return Err(self.err_at(arg.span, format!("unknown allockind {kind}")));
                    }
                }
            }
            b"allocsize" => {
                self.integers_hold(arg)?;
                // `allocsize(N, M)`: M, if given, names another parameter than N.
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let [size, comma, count] = [lex.next(), lex.next(), lex.next()];
                let number = |t: Token| (t.kind == Tok::Int).then(|| decimal_u32(self.text(t)));
                if comma.kind == Tok::Comma
                    && let (Some(Some(a)), Some(Some(b))) = (number(size), number(count))
                    && a == b
                {
                    let message = "'allocsize' indices can't refer to the same parameter";
                    return Err(self.err_at(count.span, message));
                }
            }
            b"initializes" => self.initializes_holds(arg)?,
            b"dereferenceable" | b"dereferenceable_or_null" => {
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let bytes = lex.next();
                if !self.is_unsigned_int(bytes) {
                    return Err(self.err_at(bytes.span, "expected integer"));
                }
                if unsigned(self.text(bytes)) == Some(0) {
                    let message = "dereferenceable bytes must be non-zero";
                    return Err(self.err_at(bytes.span, message));
                }
                self.closes(lex.next())?;
            }
            b"alignstack" => {
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let align = lex.next();
                if !self.is_unsigned_int(align) {
                    return Err(self.err_at(align.span, "expected integer"));
                }
                if !unsigned(self.text(align)).is_some_and(u64::is_power_of_two) {
                    let message = "stack alignment is not a power of two";
                    return Err(self.err_at(align.span, message));
                }
                self.closes(lex.next())?;
            }
            b"vscale_range" => self.integers_hold(arg)?,
            b"uwtable" => {
                if !(arg.kind == Tok::Word && matches!(self.text(arg), b"sync" | b"async")) {
                    return Err(self.err_at(arg.span, "expected unwind table kind"));
                }
                let mut lex = Lexer::starting_at(self.src, arg.span.end as usize);
                self.closes(lex.next())?;
            }
            b"memory" => self.memory_holds(arg)?,
            b"nofpclass" => self.nofpclass_holds(arg)?,
            b"captures" => self.captures_holds(arg)?,
            b"range" => {
                let integer = match arg.kind {
                    Tok::Word => is_int_type_word(self.text(arg)),
                    _ => matches!(arg.kind, Tok::LocalName | Tok::LocalNum),
                };
                if !integer {
                    return Err(self.err_at(arg.span, "the range must have integer type!"));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn is_unsigned_int(&self, t: Token) -> bool {
        t.kind == Tok::Int && self.text(t)[0].is_ascii_digit()
    }

    /// LLVM's "expected ')'" unless `t` is one.
    fn closes(&self, t: Token) -> PResult<()> {
        match t.kind {
            Tok::RParen => Ok(()),
            _ => Err(self.err_at(t.span, "expected ')'")),
        }
    }

    /// `(N)` or `(N, M)` of unsigned integers, from the first (`allocsize`, `vscale_range`).
    fn integers_hold(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        for _ in 0..2 {
            if !self.is_unsigned_int(t) {
                return Err(self.err_at(t.span, "expected integer"));
            }
            t = lex.next();
            if t.kind != Tok::Comma {
                break;
            }
            t = lex.next();
        }
        self.closes(t)
    }

    /// `memory(...)` from the token after `(`: a default access kind first, then locations
    /// with theirs (`argmem: read`), as LLVM 22 reads it.
    fn memory_holds(&self, first: Token) -> PResult<()> {
        const LOCATIONS: [&[u8]; 5] = [
            b"argmem",
            b"inaccessiblemem",
            b"errnomem",
            b"target_mem0",
            b"target_mem1",
        ];
        let is_kind = |t: Token| {
            t.kind == Tok::Word
                && matches!(self.text(t), b"none" | b"read" | b"write" | b"readwrite")
        };
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        let mut seen_location = false;
        loop {
            // The lexer reads `argmem:` as a label.
            let text = self.text(t);
            let location = match t.kind {
                Tok::Label => LOCATIONS.contains(&&text[..text.len() - 1]),
                Tok::Word if LOCATIONS.contains(&text) => {
                    return Err(self.err_at(lex.next().span, "expected ':' after location"));
                }
                _ => false,
            };
            if location {
                t = lex.next();
            }
            if !is_kind(t) {
                return Err(self.err_at(t.span, match location {
                    true => "expected access kind (none, read, write, readwrite)",
                    false => {
                        "expected memory location (argmem, inaccessiblemem, errnomem) or access \
                         kind (none, read, write, readwrite)"
                    }
                }));
            }
            t = lex.next();
            if !location && seen_location {
                return Err(self.err_at(t.span, "default access kind must be specified first"));
            }
            seen_location |= location;
            match t.kind {
                Tok::RParen => return Ok(()),
                Tok::Comma => t = lex.next(),
                _ => return Err(self.err_at(t.span, "unterminated memory attribute")),
            }
        }
    }

    /// `nofpclass(...)` from the token after `(`: class words, or one mask.
    fn nofpclass_holds(&self, first: Token) -> PResult<()> {
        const CLASSES: [&[u8]; 16] = [
            b"all", b"nan", b"snan", b"qnan", b"inf", b"ninf", b"pinf", b"norm", b"nnorm",
            b"pnorm", b"sub", b"nsub", b"psub", b"zero", b"nzero", b"pzero",
        ];
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        if self.is_unsigned_int(t) {
            let mask = unsigned(self.text(t));
            let after = lex.next();
            if !mask.is_some_and(|m| m != 0 && m < 1 << 10) {
                return Err(self.err_at(after.span, "invalid mask value for 'nofpclass'"));
            }
            return self.closes(after);
        }
        loop {
            if !(t.kind == Tok::Word && CLASSES.contains(&self.text(t))) {
                return Err(self.err_at(t.span, "expected nofpclass test mask"));
            }
            t = lex.next();
            if t.kind == Tok::RParen {
                return Ok(());
            }
        }
    }

    /// `captures(...)` from the token after `(`: components, those of the returned value
    /// after `ret:`.
    fn captures_holds(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.end as usize);
        let mut t = first;
        let mut seen_ret = false;
        let mut components = 0;
        let mut none = false;
        loop {
            if t.kind == Tok::Label && self.text(t) == b"ret:" {
                t = lex.next();
                if seen_ret {
                    return Err(self.err_at(t.span, "duplicate 'ret' location"));
                }
                seen_ret = true;
                (components, none) = (0, false);
            } else if t.kind == Tok::Word && self.text(t) == b"ret" {
                return Err(self.err_at(lex.next().span, "expected ':'"));
            }
            let component = t.kind == Tok::Word
                && matches!(
                    self.text(t),
                    b"none" | b"address" | b"address_is_null" | b"provenance" | b"read_provenance"
                );
            if !component {
                let message = "expected one of 'none', 'address', 'address_is_null', \
                               'provenance' or 'read_provenance'";
                return Err(self.err_at(t.span, message));
            }
            components += 1;
            none |= self.text(t) == b"none";
            if components > 1 && none {
                return Err(self.err_at(t.span, "cannot use 'none' with other component"));
            }
            t = lex.next();
            match t.kind {
                Tok::RParen => return Ok(()),
                Tok::Comma => t = lex.next(),
                _ => return Err(self.err_at(t.span, "expected ',' or ')'")),
            }
        }
    }

    /// `initializes((L, U), ...)`, from its first range's `(`: ranges of two integers, each
    /// neither empty nor full (refused at its `)`), then all of them ascending (L < U) and
    /// apart (each U below the next L; refused after the list), as LLVM checks them.
    fn initializes_holds(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let expect = |t: Token, kind: Tok, what: &str| match t.kind == kind {
            true => Ok(t),
            false => Err(self.err_at(t.span, format!("expected {what}"))),
        };
        let number = |t: Token| {
            let text = std::str::from_utf8(self.text(t)).ok();
            match text.filter(|_| t.kind == Tok::Int).map(str::parse::<i64>) {
                Some(Ok(n)) => Ok(n),
                _ => Err(self.err_at(t.span, "expected integer")),
            }
        };
        let (mut ordered, mut previous_upper) = (true, None);
        loop {
            expect(lex.next(), Tok::LParen, "'('")?;
            let lower = number(lex.next())?;
            expect(lex.next(), Tok::Comma, "','")?;
            let upper = number(lex.next())?;
            let close = lex.next();
            if lower == upper {
                let message = "the range should not represent the full or empty set!";
                return Err(self.err_at(close.span, message));
            }
            expect(close, Tok::RParen, "')'")?;
            ordered &= lower < upper && previous_upper.is_none_or(|u| u < lower);
            previous_upper = Some(upper);
            let after = lex.next();
            match after.kind {
                Tok::Comma => continue,
                Tok::RParen if !ordered => {
                    let message = "Invalid (unordered or overlapping) range list";
                    return Err(self.err_at(lex.next().span, message));
                }
                _ => return expect(after, Tok::RParen, "')'").map(|_| ()),
            }
        }
    }

    /// The attribute that starts at the current token: a group, a string, or `keyword` with
    /// its argument, which must then apply where it stands (LLVM checks in that order).
    fn attribute(
        &mut self,
        place: AttrPlace,
        keyword: Option<&attributes::Keyword>,
    ) -> PResult<Attr> {
        let t = self.bump();
        let Some(k) = keyword else {
            if t.kind == Tok::AttrGroup {
                // A group never defined is no error: LLVM reads it as no attributes.
                let n = self.number_after_sigil(t)?;
                return Ok(Attr::Group(n, t.span));
            }
            let mut end = t.span;
            if self.eat(Tok::Equal) {
                end = self.expect(Tok::Str, "a string attribute value")?.span;
            }
            return Ok(Attr::Text(t.span.to(end)));
        };
        let attr = match k.argument {
            Argument::None => Attr::Text(t.span),
            Argument::Type => {
                self.expect(Tok::LParen, "'('")?;
                let ty = self.parse_type()?;
                self.expect(Tok::RParen, "')'")?;
                Attr::Typed(t.span, ty)
            }
            Argument::Align | Argument::AlignStack if place == AttrPlace::Group => {
                self.expect(Tok::Equal, "'=' here")?;
                let v = self.expect(Tok::Int, "an integer")?;
                Attr::Text(t.span.to(v.span))
            }
            Argument::Align if self.tok.kind == Tok::LParen => {
                let open = self.bump();
                self.expect_alignment(Some(open.span))?;
                let close = self.expect(Tok::RParen, "')'")?;
                Attr::Text(t.span.to(close.span))
            }
            Argument::Align => {
                let n = self.tok.span;
                self.expect_alignment(None)?;
                Attr::Text(t.span.to(n))
            }
            Argument::OptionalParens if self.tok.kind != Tok::LParen => Attr::Text(t.span),
            Argument::AlignStack | Argument::Parens | Argument::OptionalParens => {
                self.check_attribute_argument(t)?;
                Attr::Text(t.span.to(self.skip_parens()?))
            }
        };
        if k.applies & place.bit() == 0 {
            let what = match place {
                AttrPlace::Function | AttrPlace::Group => "functions",
                AttrPlace::Parameter => "parameters",
                AttrPlace::Return => "return values",
            };
            return Err(self.err_at(t.span, format!("this attribute does not apply to {what}")));
        }
        Ok(attr)
    }

    /// The attributes of a list standing in `place`, onto the module's arena of them.
    fn attributes(&mut self, place: AttrPlace) -> PResult<AttrList> {
        let start = self.m.attrs.len();
        while let Some(a) = self.next_attribute(place)? {
            self.m.attrs.push(a);
        }
        Ok(AttrList::since(&self.m.attrs, start))
    }

    /// Read the attributes of a list standing in `place`, keeping none (where LLVM reads and
    /// ignores them, or refuses them once read). Whether there were any.
    fn step_over_attributes(&mut self, place: AttrPlace) -> PResult<bool> {
        let mut any = false;
        while self.next_attribute(place)?.is_some() {
            any = true;
        }
        Ok(any)
    }

    /// Attributes of an instruction standing in `place` (none at all without one), as an
    /// item: kept in the body's one arena of attributes (call sites have many lists, mostly
    /// short).
    fn item_attributes(&mut self, place: Option<AttrPlace>) -> PResult<()> {
        let start = self.scope().body.attrs.len() as u32;
        if let Some(place) = place {
            while let Some(a) = self.next_attribute(place)? {
                self.scope().body.attrs.push(a);
            }
        }
        let body = &mut self.scope().body;
        let i = body.attr_lists.len() as u32;
        body.attr_lists.push((start, body.attrs.len() as u32));
        body.items.push(Item::Attrs(i));
        Ok(())
    }

    // ---- linkage and friends ----

    fn linkable(&mut self) -> PResult<Linkable> {
        let start = self.tok.span.start;
        let mut link = Linkable {
            linkage: Linkage::External,
            linkage_span: Span::empty_at(start),
            dso_local: None,
            visibility: Visibility::Default,
            dll_storage: None,
            prefix_span: Span::empty_at(start),
            unnamed_addr: UnnamedAddr::None,
            unnamed_addr_span: Span::empty_at(start),
        };
        if let Some(l) = Linkage::from_keyword(self.word()) {
            link.linkage = l;
            link.linkage_span = self.bump().span;
        }
        if matches!(self.word(), b"dso_local" | b"dso_preemptable") {
            link.dso_local = Some(self.bump().span);
        }
        let vis = match self.word() {
            b"default" => Some(Visibility::Default),
            b"hidden" => Some(Visibility::Hidden),
            b"protected" => Some(Visibility::Protected),
            _ => None,
        };
        if let Some(v) = vis {
            link.visibility = v;
            self.bump();
        }
        if matches!(self.word(), b"dllimport" | b"dllexport") {
            let dll = self.bump().span;
            link.dll_storage = Some(dll);
            // An imported symbol is another module's: it cannot be local to this one.
            let dso_local = link
                .dso_local
                .is_some_and(|s| self.src[s.range()] == *b"dso_local");
            if dso_local && self.src[dll.range()] == *b"dllimport" {
                let message = "dso_location and DLL-StorageClass mismatch";
                return Err(self.err_at(self.tok.span, message));
            }
        }
        link.prefix_span = Span::new(start as usize, self.tok.span.start as usize);
        Ok(link)
    }

    /// What LLVM asks of a symbol of local linkage (`private`, `internal`), reported `at`.
    fn local_linkage_holds(&self, link: &Linkable, at: Span) -> PResult<()> {
        if !link.linkage.is_local() {
            Ok(())
        } else if link.visibility != Visibility::Default {
            Err(self.err_at(at, "symbol with local linkage must have default visibility"))
        } else if link.dll_storage.is_some() {
            Err(self.err_at(
                at,
                "symbol with local linkage cannot have a DLL storage class",
            ))
        } else {
            Ok(())
        }
    }

    fn unnamed_addr(&mut self, link: &mut Linkable) {
        link.unnamed_addr_span = Span::empty_at(self.tok.span.start);
        let ua = match self.word() {
            b"unnamed_addr" => UnnamedAddr::Global,
            b"local_unnamed_addr" => UnnamedAddr::Local,
            _ => return,
        };
        link.unnamed_addr = ua;
        link.unnamed_addr_span = self.bump().span;
    }

    /// `addrspace(N)`, if present: its text and the number it stands for.
    fn addrspace(&mut self) -> PResult<Option<(Span, u32)>> {
        if !self.is_word(b"addrspace") {
            return Ok(None);
        }
        let t = self.bump();
        let number = self.addr_space_value()?;
        Ok(Some((t.span.to(self.prev_end()), number)))
    }

    /// `(N)` after `addrspace`: a number below 2^24, or `"A"`, `"G"` or `"P"`, which name
    /// the datalayout's.
    fn addr_space_value(&mut self) -> PResult<u32> {
        self.expect(Tok::LParen, "'('")?;
        let a = if self.tok.kind == Tok::Str {
            let t = self.bump();
            let dl = self.data_layout();
            match self.text(t) {
                b"\"A\"" => dl.alloca_addr_space,
                b"\"G\"" => dl.globals_addr_space,
                b"\"P\"" => dl.program_addr_space,
                _ => {
                    let message = "invalid symbolic address space: expected \"A\", \"G\" or \"P\"";
                    return Err(self.err_at(t.span, message));
                }
            }
        } else {
            let at = self.tok.span;
            let a = self.expect_u32("an address space")?;
            if a >= 1 << 24 {
                let message = "invalid address space, must be a 24-bit integer";
                return Err(self.err_at(at, message));
            }
            a
        };
        self.expect(Tok::RParen, "')'")?;
        Ok(a)
    }

    /// The module's datalayout, read before the bodies.
    /// See [`Module::labels_end`].
    fn labels_end(&self) -> u32 {
        match (&self.body_mode, self.fields_of) {
            (Some(bm), _) => bm.base.labels_end,
            (None, Some(base)) => base.labels_end,
            (None, None) => self.m.labels_end,
        }
    }

    /// Whether `t` is a label LLVM reads as one: quoted, or before [`Module::labels_end`].
    fn is_label_read(&self, t: Token) -> bool {
        t.span.start < self.labels_end() || self.src[t.span.start as usize] == b'"'
    }

    fn data_layout(&self) -> &DataLayout {
        match &self.body_mode {
            Some(bm) => &bm.base.data_layout,
            None => &self.m.data_layout,
        }
    }

    /// `comdat($c)`, or `comdat` naming the comdat of `global`'s name, if there.
    fn comdat_ref(&mut self, global: Token) -> PResult<Option<Span>> {
        if !self.is_word(b"comdat") {
            return Ok(None);
        }
        let t = self.bump();
        let (name, span) = if self.tok.kind == Tok::LParen {
            self.bump();
            let name = self.expect(Tok::ComdatName, "a comdat name")?;
            let close = self.expect(Tok::RParen, "')'")?;
            (name.span, t.span.to(close.span))
        } else if global.kind == Tok::GlobalNum {
            return Err(self.err_at(self.tok.span, "comdat cannot be unnamed"));
        } else {
            (global.span, t.span)
        };
        let key = strip_name(&self.src[name.range()][1..]);
        if !self.comdats_defined.contains(&key) {
            // An implicit comdat is reported at the keyword.
            let at = if name == global.span { t.span } else { name };
            self.comdat_refs.entry(key).or_insert(at);
        }
        Ok(Some(span))
    }

    fn attachment(&mut self) -> PResult<(Span, MdRef)> {
        let kind = self.expect(Tok::MdName, "a metadata kind '!name'")?;
        let node = match self.tok.kind {
            Tok::MdNum => {
                let t = self.bump();
                MdRef::Node(self.md_number_ref(t)?)
            }
            _ => {
                let (body, span) = self.md_node_body(false)?;
                MdRef::Node(self.push_md_node(MdNode {
                    distinct: false,
                    body,
                    span,
                }))
            }
        };
        Ok((kind.span, node))
    }

    // ---- global variables, aliases, ifuncs ----

    fn global_definition(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        let mut link = self.linkable()?;
        self.local_linkage_holds(&link, name.span)?;
        if self.is_word(b"thread_local") {
            self.bump();
            if self.tok.kind == Tok::LParen {
                self.skip_parens()?;
            }
        }
        self.unnamed_addr(&mut link);
        if matches!(self.word(), b"alias" | b"ifunc") {
            return self.alias(name, link);
        }
        let addrspace = self.addrspace()?.map(|(_, number)| number);
        let externally_initialized = self.eat_word(b"externally_initialized");
        if !matches!(self.word(), b"global" | b"constant") {
            return Err(if addrspace.is_some() || externally_initialized {
                self.err("'global' or 'constant'")
            } else {
                self.err("'global', 'constant', 'alias' or 'ifunc'")
            });
        }
        let is_constant = self.bump_word_is(b"constant");
        let id = self.m.variables.next_key();
        let g = self.define_global(name, GlobalKind::Variable(id))?;
        let at = self.tok.span;
        let ty = self.parse_type()?;
        if !self.is_array_element(ty) {
            return Err(self.err_at(at, "invalid type for global variable"));
        }
        // As in LLVM: a declaration is `external` or `extern_weak` written out; anything else
        // has an initializer.
        let has_init = link.linkage_span.is_empty()
            || !matches!(link.linkage, Linkage::External | Linkage::ExternWeak);
        let init = if has_init {
            Some(self.parse_value(ty)?)
        } else {
            None
        };
        let mut var = Variable {
            global: g,
            link,
            is_constant,
            ty,
            addrspace,
            init,
            align: None,
            comdat: None,
            section: None,
            metadata: Vec::new(),
            span: name.span,
        };
        while self.tok.kind == Tok::Comma {
            self.bump();
            match (self.tok.kind, self.word()) {
                (Tok::Word, b"section") => {
                    self.bump();
                    var.section = Some(self.expect(Tok::Str, "a section name")?.span);
                }
                (Tok::Word, b"partition" | b"code_model") => {
                    self.bump();
                    self.expect(Tok::Str, "a string")?;
                }
                (Tok::Word, b"comdat") => var.comdat = self.comdat_ref(name)?,
                (Tok::Word, b"align") => {
                    self.bump();
                    var.align = Some(self.expect_alignment(None)?);
                }
                (
                    Tok::Word,
                    b"no_sanitize_address"
                    | b"no_sanitize_hwaddress"
                    | b"sanitize_address_dyninit"
                    | b"sanitize_memtag",
                ) => {
                    self.bump();
                }
                (Tok::MdName, _) => var.metadata.push(self.attachment()?),
                _ => return Err(self.err("a global variable property")),
            }
        }
        // Attributes, as a function's: groups, strings (`"key"="value"`) and keywords (`align 4`
        // there is an attribute, not the variable's alignment). A property without its comma
        // is no attribute: as in LLVM, the top level refuses it.
        self.step_over_attributes(AttrPlace::Function)?;
        var.span = name.span.to(self.prev_end());
        self.m.variables.push(var);
        Ok(())
    }

    fn bump_word_is(&mut self, w: &[u8]) -> bool {
        let t = self.bump();
        self.text(t) == w
    }

    fn alias(&mut self, name: Token, link: Linkable) -> PResult<()> {
        let is_ifunc = self.bump_word_is(b"ifunc");
        let id = self.m.aliases.next_key();
        let g = self.define_global(name, GlobalKind::Alias(id))?;
        let ty = self.parse_type()?;
        self.expect(Tok::Comma, "','")?;
        // LLVM writes an aliasee or resolver that is a cast or a `getelementptr` without its
        // type, which is the expression's.
        let expression = matches!(
            self.word(),
            b"bitcast" | b"getelementptr" | b"addrspacecast" | b"inttoptr"
        );
        let (target, target_ty) = if expression {
            let op = self.bump();
            let opcode = Opcode::from_keyword(self.text(op)).expect("a constant expression");
            let target = self.constant_expression(op, opcode, None)?;
            let ptr = self.ptr_ty(0);
            (target, self.expression_ty(target).unwrap_or(ptr))
        } else {
            let ty = self.parse_type()?;
            (self.parse_value(ty)?, ty)
        };
        while self.tok.kind == Tok::Comma {
            self.bump();
            if self.eat_word(b"partition") {
                self.expect(Tok::Str, "a partition name")?;
            } else {
                self.attachment()?;
            }
        }
        let span = name.span.to(self.prev_end());
        self.m.aliases.push(Alias {
            global: g,
            link,
            is_ifunc,
            ty,
            target,
            target_ty,
            span,
        });
        Ok(())
    }

    /// The type a top-level constant expression gives: a cast's `to` type, the pointer a
    /// `getelementptr` offsets.
    fn expression_ty(&self, v: Value) -> Option<TypeId> {
        let ValueKind::Const(c) = v.kind() else {
            return None;
        };
        let Const::Expr(e) = &self.m.consts[c] else {
            return None;
        };
        let (op, items) = &**e;
        let mut types = items.iter().filter_map(|i| match i {
            Item::Type(t) => Some(*t),
            _ => None,
        });
        match &self.src[op.range()] {
            b"getelementptr" => types.nth(1),
            _ => types.next_back(),
        }
    }

    // ---- types ----

    /// A type other than `void`, which LLVM takes only as a function's result.
    #[inline]
    pub fn parse_type(&mut self) -> PResult<TypeId> {
        self.parse_type_allowing(false)
    }

    /// A type, `void` included: a function's result.
    #[inline]
    fn parse_type_or_void(&mut self) -> PResult<TypeId> {
        self.parse_type_allowing(true)
    }

    fn parse_type_allowing(&mut self, void: bool) -> PResult<TypeId> {
        let t = self.tok;
        let mut ty = match t.kind {
            Tok::Word => {
                let w = self.text(t);
                self.bump();
                // The frequent types first: a match on byte strings tests its arms in turn.
                match w {
                    _ if is_int_type_word(w) => {
                        let bits = decimal(&w[1..]);
                        if !(1..=(1 << 23)).contains(&bits) {
                            return Err(self.err_at(t.span, "integer width out of range"));
                        }
                        self.int_ty(bits)
                    }
                    b"ptr" => {
                        let a = self.opt_addrspace_number()?;
                        if self.tok.kind == Tok::Star {
                            return Err(
                                self.err_at(self.tok.span, "ptr* is invalid - use ptr instead")
                            );
                        }
                        self.ptr_ty(a)
                    }
                    // `void (i32)` is a function type, whatever the place.
                    b"void" if !void && self.tok.kind != Tok::LParen => {
                        let message = "void type only allowed for function results";
                        return Err(self.err_at(t.span, message));
                    }
                    b"void" => self.intern(Type::Void),
                    b"half" => self.intern(Type::Float(FloatKind::Half)),
                    b"bfloat" => self.intern(Type::Float(FloatKind::BFloat)),
                    b"float" => self.intern(Type::Float(FloatKind::Float)),
                    b"double" => self.intern(Type::Float(FloatKind::Double)),
                    b"x86_fp80" => self.intern(Type::Float(FloatKind::X86Fp80)),
                    b"fp128" => self.intern(Type::Float(FloatKind::Fp128)),
                    b"ppc_fp128" => self.intern(Type::Float(FloatKind::PpcFp128)),
                    b"x86_amx" => self.intern(Type::X86Amx),
                    b"label" => self.intern(Type::Label),
                    b"metadata" => self.intern(Type::Metadata),
                    b"token" => self.intern(Type::Token),
                    b"target" => self.target_ext_type()?,
                    _ => return Err(self.err_at(t.span, "expected type")),
                }
            }
            Tok::LocalName | Tok::LocalNum => {
                self.bump();
                let n = self.named_type(t)?;
                self.intern(Type::Named(n))
            }
            Tok::LSquare | Tok::Less | Tok::LBrace => self.literal_type()?,
            _ => return Err(self.err("type")),
        };
        // Suffixes: function types and the old typed-pointer spelling.
        loop {
            match self.tok.kind {
                Tok::Star => {
                    self.bump();
                    ty = self.intern(Type::Ptr(0));
                }
                Tok::Word if self.is_word(b"addrspace") => {
                    // `T addrspace(N)*` only; anything else is not ours.
                    let save = (self.lex, self.tok, self.peeked.get());
                    let a = self.opt_addrspace_number()?;
                    if self.tok.kind == Tok::Star {
                        self.bump();
                        ty = self.intern(Type::Ptr(a));
                    } else {
                        (self.lex, self.tok) = (save.0, save.1);
                        self.peeked.set(save.2);
                        return Ok(ty);
                    }
                }
                Tok::LParen => {
                    if matches!(self.ty(ty), Type::Label | Type::Metadata) {
                        return Ok(ty);
                    }
                    self.bump();
                    let mut params = Vec::new();
                    let mut varargs = false;
                    if self.tok.kind != Tok::RParen {
                        loop {
                            if self.eat(Tok::DotDotDot) {
                                varargs = true;
                                break;
                            }
                            let param = self.tok.span;
                            params.push(self.parse_type()?);
                            // LLVM reads them, then refuses them.
                            if self.step_over_attributes(AttrPlace::Parameter)? {
                                return Err(self.err_at(
                                    param,
                                    "argument attributes invalid in function type",
                                ));
                            }
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    self.expect(Tok::RParen, "')'")?;
                    ty = self.intern(Type::Function {
                        ret: ty,
                        params,
                        varargs,
                    });
                }
                _ => return Ok(ty),
            }
        }
    }

    /// A vector, array or struct type. In a body, one whose text has no bracket inside and
    /// stays on its line (`<4 x i32>`, `[8 x i8]`, `{ i32, ptr }`) is read once: it is then
    /// found by its text, which always reads as one type in one body (llvm-stress modules,
    /// full of vectors: 16% fewer instructions to read).
    fn literal_type(&mut self) -> PResult<TypeId> {
        let text = self.literal_type_text();
        if let Some(text) = text
            && let Some(&ty) = self
                .body_mode
                .as_ref()
                .and_then(|bm| bm.types.by_text.get(text))
        {
            self.seek(self.tok.span.start as usize + text.len());
            return Ok(ty);
        }
        let ty = self.read_literal_type()?;
        if let (Some(text), Some(bm)) = (text, &mut self.body_mode) {
            bm.types.by_text.insert(text, ty);
        }
        Ok(ty)
    }

    /// See [`Parser::literal_type`].
    fn literal_type_text(&self) -> Option<&'a [u8]> {
        const LONGEST: usize = 48;
        self.body_mode.as_ref()?;
        let close = match self.tok.kind {
            Tok::Less => b'>',
            Tok::LSquare => b']',
            _ => b'}',
        };
        let open = self.tok.span.start as usize;
        let window = &self.src[open + 1..self.src.len().min(open + 1 + LONGEST)];
        let inside = window.iter().position(|&b| !IN_LITERAL_TYPE[b as usize])?;
        (window[inside] == close).then(|| &self.src[open..open + inside + 2])
    }

    /// A vector, array or struct type, read token by token.
    fn read_literal_type(&mut self) -> PResult<TypeId> {
        Ok(match self.tok.kind {
            Tok::LSquare => {
                self.bump();
                let len = self.expect_u64("an array length")?;
                self.expect_word("x")?;
                let at = self.tok.span;
                let elem = self.parse_type()?;
                if !self.is_array_element(elem) {
                    return Err(self.err_at(at, "invalid array element type"));
                }
                self.expect(Tok::RSquare, "']'")?;
                self.intern(Type::Array(len, elem))
            }
            Tok::Less => {
                self.bump();
                if self.tok.kind == Tok::LBrace {
                    let elems = self.struct_body()?;
                    self.expect(Tok::Greater, "'>'")?;
                    self.intern(Type::Struct {
                        packed: true,
                        elems,
                    })
                } else {
                    let scalable = self.eat_word(b"vscale");
                    if scalable {
                        self.expect_word("x")?;
                    }
                    let len = self.expect_u64("a vector length")?;
                    self.expect_word("x")?;
                    let at = self.tok.span;
                    let elem = self.parse_type()?;
                    if !matches!(
                        self.body_ty(elem),
                        Type::Int(_) | Type::Float(_) | Type::Ptr(_) | Type::Named(_)
                    ) {
                        return Err(self.err_at(at, "invalid vector element type"));
                    }
                    self.expect(Tok::Greater, "'>'")?;
                    self.intern(Type::Vector {
                        scalable,
                        len,
                        elem,
                    })
                }
            }
            // `{`: struct_body expects it.
            _ => {
                let elems = self.struct_body()?;
                self.intern(Type::Struct {
                    packed: false,
                    elems,
                })
            }
        })
    }

    /// What LLVM takes as a struct's element (`void` is refused where it is read).
    fn is_struct_element(&self, ty: TypeId) -> bool {
        is_struct_element(self.body_ty(ty))
    }

    /// What LLVM takes as an array's element, and as a global variable's type: a struct's
    /// element, but not `x86_amx`.
    fn is_vector_element(&self, ty: TypeId) -> bool {
        matches!(
            self.ty(self.resolve_ty(ty)),
            Type::Int(_) | Type::Float(_) | Type::Ptr(_)
        )
    }

    fn is_array_element(&self, ty: TypeId) -> bool {
        let ty = self.body_ty(ty);
        is_struct_element(ty) && !matches!(ty, Type::X86Amx)
    }

    /// Whether LLVM 22 takes `ty` for sized (`Type::isSized`): what a value in memory may
    /// have. A struct that holds a scalable vector is sized only if its elements are all the
    /// same scalable vector type. A target extension type is taken for sized: which of them are
    /// depends on LLVM's table of target types, not kept here, and refusing valid input would
    /// be worse than reading one LLVM refuses.
    fn is_sized(&self, ty: TypeId) -> bool {
        self.layout(ty, 0).sized
    }

    /// The module's types' layouts are worked out once the top level is read; a body's own
    /// types and the top level's, while it is read, are walked. (A named type that only
    /// bodies name is a body's own type, but its definition is the module's.)
    fn layout(&self, ty: TypeId, depth: u32) -> Layout {
        if let Some(bm) = &self.body_mode
            && let Some(layout) = bm.base.types.layout(self.resolve_ty(ty))
        {
            return layout;
        }
        if depth > Layout::NESTING_LIMIT {
            return Layout::DEEP;
        }
        let body = |t: TypeId| self.body_ty(t);
        Layout::of(body(ty), body, |e| self.layout(e, depth + 1))
    }

    fn opt_addrspace_number(&mut self) -> PResult<u32> {
        if !self.is_word(b"addrspace") {
            return Ok(0);
        }
        self.bump();
        self.addr_space_value()
    }

    fn struct_body(&mut self) -> PResult<Vec<TypeId>> {
        self.expect(Tok::LBrace, "'{'")?;
        let mut elems = Vec::new();
        if self.tok.kind != Tok::RBrace {
            loop {
                let at = self.tok.span;
                let elem = self.parse_type()?;
                if !self.is_struct_element(elem) {
                    return Err(self.err_at(at, "invalid element type for struct"));
                }
                elems.push(elem);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBrace, "'}'")?;
        Ok(elems)
    }

    fn target_ext_type(&mut self) -> PResult<TypeId> {
        self.expect(Tok::LParen, "'('")?;
        let name_tok = self.expect(Tok::Str, "a target type name")?;
        let name: Box<[u8]> =
            unescape(&self.text(name_tok)[1..name_tok.span.range().len() - 1]).into();
        let mut types = Vec::new();
        let mut ints = Vec::new();
        while self.eat(Tok::Comma) {
            if self.tok.kind == Tok::Int {
                ints.push(self.expect_u32("an integer parameter")?);
            } else if ints.is_empty() {
                types.push(self.parse_type_or_void()?);
            } else {
                return Err(self.err("an integer parameter"));
            }
        }
        self.expect(Tok::RParen, "')'")?;
        if let Some(message) = target_ext_params_misfit(&name, types.len(), ints.len()) {
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(self.intern(Type::TargetExt { name, types, ints }))
    }

    // ---- values and constants ----

    /// A value of type `ty`.
    pub fn parse_value(&mut self, ty: TypeId) -> PResult<Value> {
        let t = self.tok;
        match t.kind {
            Tok::LocalName | Tok::LocalNum => Ok(Value::local(self.typed_local_ref(t, ty)?)),
            Tok::GlobalName | Tok::GlobalNum => {
                let Type::Ptr(addr_space) = *self.ty(self.resolve_ty(ty)) else {
                    let message = "global variable reference must have pointer type";
                    return Err(self.err_at(t.span, message));
                };
                self.bump();
                let u = self.global_use(t, UseRole::Operand, addr_space)?;
                Ok(Value::global(u))
            }
            Tok::Int | Tok::HexInt => {
                // A decimal literal is an integer (`0x` also spells a float's bits).
                if t.kind == Tok::Int && !matches!(self.body_ty(ty), Type::Int(_)) {
                    return Err(self.err_at(t.span, "integer constant must have integer type"));
                }
                self.bump();
                Ok(self.push_const(Const::Int(t.span)))
            }
            Tok::Float | Tok::HexFloat => {
                self.bump();
                let fits = match *self.ty(ty) {
                    Type::Float(kind) => float_literal_fits(self.text(t), kind),
                    _ => false,
                };
                if !fits {
                    return Err(self.err_at(t.span, "floating point constant invalid for type"));
                }
                Ok(self.push_const(Const::Float(t.span)))
            }
            Tok::CStr => {
                self.bump();
                // `c"..."` is an `[N x i8]`, N its bytes once unescaped.
                let text = self.text(t);
                let len = unescaped_len(&text[2..text.len() - 1]);
                let fits = match *self.ty(self.resolve_ty(ty)) {
                    Type::Array(n, elem) => n == len && *self.ty(elem) == Type::Int(8),
                    _ => false,
                };
                if !fits {
                    let message = format!(
                        "constant expression type mismatch: got type '[{len} x i8]' but \
                         expected '{}'",
                        self.type_text(self.resolve_ty(ty))
                    );
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::Bytes(t.span)))
            }
            Tok::LBrace => {
                let elems = self.aggregate(Tok::LBrace, Tok::RBrace)?;
                if let Some(message) = self.struct_constant_misfit(ty, false, &elems) {
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::Aggregate(b'{', Box::new(elems))))
            }
            Tok::LSquare => {
                let elems = self.aggregate(Tok::LSquare, Tok::RSquare)?;
                self.sequence_holds(t.span, false, &elems, ty)?;
                Ok(self.push_const(Const::Aggregate(b'[', Box::new(elems))))
            }
            Tok::Less => {
                if self.peek2().kind == Tok::LBrace {
                    self.bump();
                    let elems = self.aggregate(Tok::LBrace, Tok::RBrace)?;
                    self.expect(Tok::Greater, "'>'")?;
                    if let Some(message) = self.struct_constant_misfit(ty, true, &elems) {
                        return Err(self.err_at(t.span, message));
                    }
                    Ok(self.push_const(Const::Aggregate(b'p', Box::new(elems))))
                } else {
                    let elems = self.aggregate(Tok::Less, Tok::Greater)?;
                    self.sequence_holds(t.span, true, &elems, ty)?;
                    Ok(self.push_const(Const::Aggregate(b'<', Box::new(elems))))
                }
            }
            Tok::MdNum | Tok::MdString | Tok::Exclaim | Tok::MdName => {
                if !matches!(self.ty(ty), Type::Metadata) {
                    return Err(self.err("a value"));
                }
                let md = self.md_operand(true)?;
                Ok(self.push_const(Const::Metadata(md)))
            }
            Tok::Word => self.word_value(ty),
            _ => Err(self.err("a value")),
        }
    }

    /// Why LLVM 22 refuses the constant `word` (`null`, `undef`...) for a value of type `ty`,
    /// if it does. Whether a target extension type has a zero value depends on LLVM's table of
    /// target types, not kept here: `zeroinitializer` is taken for any.
    fn simple_constant_misfit(&self, word: &[u8], ty: TypeId) -> Option<String> {
        let body = self.body_ty(ty);
        let fits = match word {
            b"true" | b"false" => matches!(body, Type::Int(1)),
            b"null" => matches!(body, Type::Ptr(_)),
            b"none" => matches!(body, Type::Token),
            b"zeroinitializer" if let Type::TargetExt { name, .. } = body => {
                target_ext_has_zero(name)
            }
            _ => self.is_scalar(ty) || self.is_first_class(ty) && !matches!(body, Type::Label),
        };
        if fits {
            return None;
        }
        Some(match word {
            b"true" | b"false" => format!(
                "constant expression type mismatch: got type 'i1' but expected '{}'",
                self.type_text(ty)
            ),
            b"null" => "null must be a pointer type".into(),
            b"none" => "invalid type for none constant".into(),
            b"undef" => "invalid type for undef constant".into(),
            b"poison" => "invalid type for poison constant".into(),
            _ => "invalid type for null constant".into(),
        })
    }

    /// Why LLVM 22 refuses a struct constant (`packed`: written `<{ }>`) with elements of these
    /// types for a value of type `ty`, if it does. A named struct not defined yet has no
    /// elements, as in LLVM; element types are told apart once resolved.
    fn struct_constant_misfit(
        &self,
        ty: TypeId,
        packed: bool,
        elems: &[(TypeId, Value)],
    ) -> Option<String> {
        let (want_packed, want) = match self.body_ty(ty) {
            Type::Struct { packed, elems } => (*packed, elems.as_slice()),
            Type::Named(_) => (false, &[][..]),
            _ => return Some("constant expression type mismatch".into()),
        };
        if want.len() != elems.len() {
            return Some("initializer with struct type has wrong # elements".into());
        }
        if want_packed != packed {
            return Some("packed'ness of initializer and type don't match".into());
        }
        let differs = |(&(got, _), &want): (&(TypeId, Value), &TypeId)| {
            self.resolve_ty(got) != self.resolve_ty(want)
        };
        let i = elems.iter().zip(want).position(differs)?;
        Some(format!(
            "element {i} of struct initializer doesn't match struct element type"
        ))
    }

    /// Why LLVM 22 refuses a `select` of these operand types (`SelectInst::areInvalidOperands`),
    /// if it does. Types are told apart once resolved: a named type and its body are taken
    /// for one (LLVM tells a named struct from its body; refusing less is the safe side).
    fn select_misfit(&self, condition: TypeId, a: TypeId, b: TypeId) -> Option<&'static str> {
        let (condition, a, b) = (
            self.resolve_ty(condition),
            self.resolve_ty(a),
            self.resolve_ty(b),
        );
        if a != b {
            return Some("both values to select must have same type");
        }
        if matches!(self.ty(a), Type::Token) {
            return Some("select values cannot have token type");
        }
        match *self.ty(condition) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => {
                if !matches!(self.body_ty(elem), Type::Int(1)) {
                    return Some("vector select condition element type must be i1");
                }
                match *self.ty(a) {
                    Type::Vector {
                        scalable: s,
                        len: l,
                        ..
                    } if (s, l) == (scalable, len) => None,
                    Type::Vector { .. } => Some(
                        "vector select requires selected vectors to have the same vector length \
                         as select condition",
                    ),
                    _ => Some("selected values for vector select must be vectors"),
                }
            }
            Type::Int(1) => None,
            _ => Some("select condition must be i1 or <n x i1>"),
        }
    }

    /// Why LLVM 22 refuses an `atomicrmw` `operation` on a value of type `ty`, if it does: a
    /// scalable type; a type the operation does not take; a size in memory that is not a
    /// power of two bytes (pointers are let through: their size is the datalayout's).
    fn atomicrmw_misfit(&self, operation: &[u8], ty: TypeId) -> Option<String> {
        let name = String::from_utf8_lossy(operation);
        let body = self.body_ty(ty);
        if let Type::Vector { scalable: true, .. } = body {
            return Some("atomicrmw operand may not be scalable".into());
        }
        let kind = atomicrmw_kind(operation)?;
        let fits = match kind {
            AtomicRmwKind::Exchange => matches!(body, Type::Int(_) | Type::Float(_) | Type::Ptr(_)),
            AtomicRmwKind::Float => match body {
                Type::Vector { elem, .. } => matches!(self.body_ty(*elem), Type::Float(_)),
                _ => matches!(body, Type::Float(_)),
            },
            AtomicRmwKind::Integer => matches!(body, Type::Int(_)),
        };
        if !fits {
            return Some(match kind {
                AtomicRmwKind::Exchange => format!(
                    "atomicrmw {name} operand must be an integer, floating point, or pointer type"
                ),
                AtomicRmwKind::Float => {
                    format!("atomicrmw {name} operand must be a floating point type")
                }
                AtomicRmwKind::Integer => format!("atomicrmw {name} operand must be an integer"),
            });
        }
        let bits = match body {
            Type::Int(n) => u64::from(n.div_ceil(8) * 8),
            Type::Float(kind) => kind.bits(),
            Type::Vector { len, elem, .. } => match self.body_ty(*elem) {
                Type::Float(kind) => (len * kind.bits()).div_ceil(8) * 8,
                _ => return None,
            },
            _ => return None,
        };
        (bits < 8 || !bits.is_power_of_two())
            .then(|| "atomicrmw operand must be power-of-two byte-sized integer".into())
    }

    /// The length of a getelementptr's vectors that a base of type `ty` sets, if it is one.
    #[inline]
    fn gep_width(&self, ty: TypeId) -> Option<(bool, u64)> {
        match *self.body_ty(ty) {
            Type::Vector { scalable, len, .. } => Some((scalable, len)),
            _ => None,
        }
    }

    /// A getelementptr index of type `ty` is an integer or a vector of them, of the length of
    /// the vectors before it (`width`, which it sets if none was): LLVM's words where not.
    #[inline]
    fn gep_index_holds(
        &self,
        ty: TypeId,
        width: &mut Option<(bool, u64)>,
    ) -> Result<(), &'static str> {
        if let Type::Int(_) = self.ty(ty) {
            return Ok(());
        }
        match *self.body_ty(ty) {
            Type::Int(_) => Ok(()),
            Type::Vector { elem, .. } if matches!(self.body_ty(elem), Type::Int(_)) => {
                let len = self.gep_width(ty);
                if width.is_some() && *width != len {
                    return Err("getelementptr vector index has a wrong number of elements");
                }
                *width = len;
                Ok(())
            }
            _ => Err("getelementptr index must be an integer"),
        }
    }

    /// The type a getelementptr index (of type `index_ty`, written `index`) steps into from
    /// `ty`: `Err` where LLVM 22 finds the indices invalid (a step into what is no aggregate;
    /// into a struct, an index that is not an `i32` number within it), `Ok(None)` where
    /// this cannot tell (a constant other than a literal, a vector of indices into a struct),
    /// which lets the text through.
    fn gep_step(&self, ty: TypeId, index_ty: TypeId, index: Token) -> Result<Option<TypeId>, ()> {
        match self.body_ty(ty) {
            Type::Array(_, elem) | Type::Vector { elem, .. } => Ok(Some(*elem)),
            Type::Struct { elems, .. } => {
                let field = |field: Option<i128>| match field
                    .map(|i| usize::try_from(i).map(|i| elems.get(i)))
                {
                    None => Ok(None),
                    Some(Ok(Some(&elem))) => Ok(Some(elem)),
                    Some(_) => Err(()),
                };
                match self.body_ty(index_ty) {
                    Type::Int(32) => match index.kind {
                        Tok::LocalName | Tok::LocalNum => Err(()),
                        Tok::Word if matches!(self.text(index), b"undef" | b"poison") => Err(()),
                        // In decimal (a hexadecimal literal is let through).
                        Tok::Int => field(decimal_i128(self.text(index))),
                        _ => Ok(None),
                    },
                    // A vector of indexes into a struct must hold one field's number throughout.
                    Type::Vector {
                        scalable: false,
                        elem,
                        ..
                    } if matches!(self.body_ty(*elem), Type::Int(32)) => match index.kind {
                        Tok::LocalName | Tok::LocalNum => Err(()),
                        Tok::Word => match self.text(index) {
                            b"undef" | b"poison" => Err(()),
                            b"zeroinitializer" => field(Some(0)),
                            _ => Ok(None),
                        },
                        Tok::Less => match self.vector_splat(index) {
                            Some(Some(splat)) => field(Some(splat)),
                            Some(None) => Err(()),
                            None => Ok(None),
                        },
                        _ => Ok(None),
                    },
                    _ => Err(()),
                }
            }
            Type::Named(_) | Type::TargetExt { .. } => Ok(None),
            _ => Err(()),
        }
    }

    /// The number every element of the vector of `i32` at `open` (its `<`) holds, if they
    /// hold one; `Some(None)` if they do not, or one is no number; `None` if it cannot be told
    /// from the tokens (a number not in decimal).
    fn vector_splat(&self, open: Token) -> Option<Option<i128>> {
        let mut lex = Lexer::starting_at(self.src, open.span.end as usize);
        let mut splat = None;
        loop {
            if lex.next().kind != Tok::Word {
                return None;
            }
            let value = lex.next();
            if value.kind != Tok::Int {
                return Some(None);
            }
            let number = decimal_i128(self.text(value))?;
            if splat.is_some_and(|s| s != number) {
                return Some(None);
            }
            splat = Some(number);
            match lex.next().kind {
                Tok::Comma => {}
                Tok::Greater => return Some(splat),
                _ => return None,
            }
        }
    }

    fn word_value(&mut self, ty: TypeId) -> PResult<Value> {
        let t = self.tok;
        let w = self.text(t);
        let simple = match w {
            b"true" | b"false" => Some(Const::Int(t.span)),
            b"null" => Some(Const::Null),
            b"none" => Some(Const::None),
            b"undef" => Some(Const::Undef),
            b"poison" => Some(Const::Poison),
            b"zeroinitializer" => Some(Const::Zero),
            _ => None,
        };
        if let Some(c) = simple {
            if let Some(message) = self.simple_constant_misfit(w, ty) {
                return Err(self.err_at(t.span, message));
            }
            self.bump();
            return Ok(self.push_const(c));
        }
        if matches!(self.ty(ty), Type::Metadata) {
            let md = self.md_operand(true)?;
            return Ok(self.push_const(Const::Metadata(md)));
        }
        self.bump();
        match w {
            b"blockaddress" => {
                self.expect(Tok::LParen, "'('")?;
                let f = self.expect_global("a function")?;
                let u = self.global_use(f, UseRole::Operand, GlobalUse::UNTYPED)?;
                self.expect(Tok::Comma, "','")?;
                let bb = self.tok;
                if !matches!(bb.kind, Tok::LocalName | Tok::LocalNum) {
                    return Err(self.err("a block name"));
                }
                self.bump();
                self.expect(Tok::RParen, "')'")?;
                if let Some(scope) = &mut self.scope {
                    scope.body.block_addresses.push((f.span, bb.span));
                }
                Ok(self.push_const(Const::BlockAddress(u, bb.span)))
            }
            b"dso_local_equivalent" | b"no_cfi" => {
                let f = self.expect_global("a function")?;
                let u = self.global_use(f, UseRole::Operand, GlobalUse::UNTYPED)?;
                let c = if w == b"no_cfi" {
                    Const::NoCfi(u)
                } else {
                    Const::DsoLocalEquivalent(u)
                };
                Ok(self.push_const(c))
            }
            b"ptrauth" => {
                self.expect(Tok::LParen, "'('")?;
                let mut parts = Vec::new();
                // Whether each part is an integer constant (`ConstantInt`) of what width.
                let mut integers = Vec::new();
                loop {
                    let ty = self.parse_type()?;
                    let literal = matches!(self.tok.kind, Tok::Int | Tok::HexInt)
                        || matches!(self.word(), b"zeroinitializer" | b"true" | b"false");
                    integers.push(match *self.body_ty(ty) {
                        Type::Int(bits) if literal => Some(bits),
                        _ => None,
                    });
                    parts.push((ty, self.parse_value(ty)?));
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RParen, "')'")?;
                let pointer = |i: usize| {
                    parts
                        .get(i)
                        .is_none_or(|&(ty, _)| matches!(self.body_ty(ty), Type::Ptr(_)))
                };
                let message = if !pointer(0) {
                    Some("constant ptrauth base pointer must be a pointer")
                } else if integers.get(1) != Some(&Some(32)) {
                    Some("constant ptrauth key must be i32 constant")
                } else if integers.get(2).is_some_and(|&bits| bits != Some(64)) {
                    Some("constant ptrauth integer discriminator must be i64 constant")
                } else if !pointer(3) {
                    Some("constant ptrauth address discriminator must be a pointer")
                } else {
                    None
                };
                if let Some(message) = message {
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::PtrAuth(Box::new(parts))))
            }
            b"splat" => {
                self.expect(Tok::LParen, "'('")?;
                let ety = self.parse_type()?;
                let v = self.parse_value(ety)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(self.push_const(Const::Splat(ety, v)))
            }
            b"asm" => {
                while matches!(
                    self.word(),
                    b"sideeffect" | b"alignstack" | b"inteldialect" | b"unwind"
                ) {
                    self.bump();
                }
                self.expect(Tok::Str, "the assembly string")?;
                self.expect(Tok::Comma, "','")?;
                let c = self.expect(Tok::Str, "the constraint string")?;
                Ok(self.push_const(Const::InlineAsm(t.span.to(c.span))))
            }
            _ => match Opcode::from_keyword(w) {
                Some(op) if is_constant_expression_opcode(op) => {
                    self.constant_expression(t, op, Some(ty))
                }
                Some(op) if is_former_constant_expression_opcode(op) => Err(self.err_at(
                    t.span,
                    format!(
                        "{} constexprs are no longer supported",
                        String::from_utf8_lossy(w)
                    ),
                )),
                _ => Err(self.err_at(t.span, "expected a value")),
            },
        }
    }

    /// An array (`[...]`) or vector (`<...>`) constant opening at `open`: its elements of
    /// one type, and the array or vector they make the type `expected`, as LLVM checks them
    /// (its messages leave a quote open: "... is not of type 'i32").
    fn sequence_holds(
        &self,
        open: Span,
        vector: bool,
        elems: &[(TypeId, Value)],
        expected: TypeId,
    ) -> PResult<()> {
        let expected_ty = self.ty(self.resolve_ty(expected));
        let Some(&(first, _)) = elems.first() else {
            return match (vector, expected_ty) {
                (true, _) => Err(self.err_at(open, "constant vector must not be empty")),
                (false, Type::Array(0, _)) => Ok(()),
                (false, _) => Err(self.err_at(open, "invalid empty array initializer")),
            };
        };
        let first_at = || Lexer::starting_at(self.src, open.end as usize).next().span;
        if vector && !self.is_vector_element(first) {
            return Err(self.err_at(
                first_at(),
                "vector elements must have integer, pointer or floating point type",
            ));
        }
        let kind = if vector { "vector" } else { "array" };
        if let Some(i) = elems.iter().position(|&(t, _)| !self.same_type(t, first)) {
            let message = format!(
                "{kind} element #{i} is not of type '{}",
                self.type_text(first)
            );
            return Err(self.err_at(first_at(), message));
        }
        let len = elems.len() as u64;
        let fits = match (vector, expected_ty) {
            (false, &Type::Array(n, elem)) => n == len && self.same_type(elem, first),
            (
                true,
                &Type::Vector {
                    scalable: false,
                    len: n,
                    elem,
                },
            ) => n == len && self.same_type(elem, first),
            _ => false,
        };
        if !fits {
            let first = self.type_text(first);
            let got = match vector {
                true => format!("<{len} x {first}>"),
                false => format!("[{len} x {first}]"),
            };
            return Err(self.type_mismatch(open, &got, expected));
        }
        Ok(())
    }

    fn aggregate(&mut self, open: Tok, close: Tok) -> PResult<Vec<(TypeId, Value)>> {
        self.expect(open, open.describe())?;
        let mut elems = Vec::new();
        if self.tok.kind != close {
            loop {
                let ty = self.parse_type()?;
                elems.push((ty, self.parse_value(ty)?));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(close, close.describe())?;
        Ok(elems)
    }

    /// Whether a cast `opcode` converts `from` into `to`, as LLVM's `CastInst::castIsValid`
    /// rules (each type with its text, for the message, reported `at`).
    fn cast_holds(
        &self,
        opcode: Opcode,
        from: (TypeId, Span),
        to: (TypeId, Span),
        at: Span,
    ) -> PResult<()> {
        use Opcode::*;
        // A named type opaque or not yet defined: what it is is not known here.
        if [from.0, to.0]
            .iter()
            .any(|&t| matches!(self.body_ty(t), Type::Named(_)))
        {
            return Ok(());
        }
        let (s, d) = (self.cast_operand(from.0), self.cast_operand(to.0));
        let valid = match (s, d) {
            (Some(s), Some(d)) => {
                let same_count = s.count == d.count;
                match opcode {
                    Trunc => s.is_int() && d.is_int() && same_count && s.bits > d.bits,
                    ZExt | SExt => s.is_int() && d.is_int() && same_count && s.bits < d.bits,
                    FpTrunc => s.is_float() && d.is_float() && same_count && s.bits > d.bits,
                    FpExt => s.is_float() && d.is_float() && same_count && s.bits < d.bits,
                    UiToFp | SiToFp => s.is_int() && d.is_float() && same_count,
                    FpToUi | FpToSi => s.is_float() && d.is_int() && same_count,
                    PtrToInt | PtrToAddr => s.is_ptr() && d.is_int() && same_count,
                    IntToPtr => s.is_int() && d.is_ptr() && same_count,
                    BitCast => match (s.element, d.element) {
                        (CastElement::Ptr(a), CastElement::Ptr(b)) => {
                            a == b
                                && (same_count
                                    || s.count.is_none() && d.count == Some((false, 1))
                                    || d.count.is_none() && s.count == Some((false, 1)))
                        }
                        (CastElement::Ptr(_), _) | (_, CastElement::Ptr(_)) => false,
                        _ => s.size() == d.size(),
                    },
                    AddrSpaceCast => match (s.element, d.element) {
                        (CastElement::Ptr(a), CastElement::Ptr(b)) => a != b && same_count,
                        _ => false,
                    },
                    _ => true,
                }
            }
            _ => false,
        };
        if valid {
            return Ok(());
        }
        let text = |span: Span| String::from_utf8_lossy(&self.src[span.range()]).into_owned();
        Err(self.err_at(
            at,
            format!(
                "invalid cast opcode for cast from '{}' to '{}'",
                text(from.1),
                text(to.1)
            ),
        ))
    }

    /// A type as a cast sees it, `None` where no cast takes it (an aggregate, a function).
    fn cast_operand(&self, ty: TypeId) -> Option<CastOperand> {
        let element = |ty: &Type| match *ty {
            Type::Int(bits) => Some((CastElement::Int, u64::from(bits))),
            Type::Float(kind) => Some((CastElement::Float, kind.bits())),
            Type::Ptr(space) => Some((CastElement::Ptr(space), 0)),
            Type::X86Amx => Some((CastElement::Other, 8192)),
            Type::Label | Type::Metadata | Type::Token | Type::TargetExt { .. } => {
                Some((CastElement::Other, 0))
            }
            _ => None,
        };
        match *self.body_ty(ty) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => element(self.body_ty(elem)).map(|(element, bits)| CastOperand {
                element,
                bits,
                count: Some((scalable, len)),
            }),
            ref scalar => element(scalar).map(|(element, bits)| CastOperand {
                element,
                bits,
                count: None,
            }),
        }
    }

    /// `opcode [flags] (T V, ... [to T])`, the opcode already read.
    /// A constant expression headed by `op`, which must have type `ty` if given (an alias's
    /// aliasee has the type it implies).
    fn constant_expression(
        &mut self,
        op: Token,
        opcode: Opcode,
        ty: Option<TypeId>,
    ) -> PResult<Value> {
        let mut items = Vec::new();
        // A cast's two types, to check that it converts one into the other.
        let cast = opcode.is_cast();
        let (mut from, mut to) = (None, None);
        // The flags each kind takes; LLVM expects the `(` where another word stands.
        let (flags, expected): (&[&[u8]], _) = match opcode {
            Opcode::GetElementPtr => (
                &[b"inbounds", b"nusw", b"nuw", b"inrange"],
                "'(' in constantexpr",
            ),
            Opcode::Add | Opcode::Sub => (&[b"nuw", b"nsw"], "'(' in binary constantexpr"),
            Opcode::Xor => (&[], "'(' in binary constantexpr"),
            _ if cast => (&[], "'(' after constantexpr cast"),
            _ => (&[], "'(' in constantexpr"),
        };
        while self.tok.kind == Tok::Word && flags.contains(&self.text(self.tok)) {
            let t = self.bump();
            items.push(Item::word(t.span));
            if self.tok.kind == Tok::LParen && self.text(t) == b"inrange" {
                let p = self.skip_parens()?;
                items.push(Item::word(p));
            }
        }
        self.expect(Tok::LParen, expected)?;
        items.push(Item::Mark(b'('));
        loop {
            let at = self.tok.span;
            let ty = self.parse_type()?;
            if cast && from.is_none() {
                from = Some((ty, at.to(self.prev_end())));
            }
            items.push(Item::Type(ty));
            if !matches!(self.tok.kind, Tok::Comma | Tok::RParen) && !self.is_word(b"to") {
                let v = self.parse_value(ty)?;
                items.push(Item::Value(v));
            }
            if self.is_word(b"to") {
                items.push(Item::word(self.bump().span));
                let at = self.tok.span;
                let ty = self.parse_type()?;
                if cast {
                    to = Some((ty, at.to(self.prev_end())));
                }
                items.push(Item::Type(ty));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')'")?;
        if let (Some(from), Some(to)) = (from, to) {
            self.cast_holds(opcode, from, to, op.span)?;
        }
        let types: Vec<TypeId> = items
            .iter()
            .filter_map(|i| match i {
                Item::Type(t) => Some(*t),
                _ => None,
            })
            .collect();
        if opcode == Opcode::GetElementPtr {
            // The source type, the base's, then the indices'.
            let mut width = types.get(1).and_then(|&base| self.gep_width(base));
            for &index in types.iter().skip(2) {
                if let Err(message) = self.gep_index_holds(index, &mut width) {
                    return Err(self.err_at(op.span, message));
                }
            }
        }
        if let Some(ty) = ty {
            self.expression_type_holds(op.span, opcode, &types, ty)?;
        }
        Ok(self.push_const(Const::Expr(Box::new((op.span, items)))))
    }

    /// A constant expression (headed at `op`, with the `types` its text names in order) has
    /// the type `expected`, and a binary one two operands of one type, as LLVM checks them.
    /// The type is worked out where it is plain: casts, binary operations, `getelementptr`
    /// and `extractelement`, `insertelement`.
    fn expression_type_holds(
        &self,
        op: Span,
        opcode: Opcode,
        types: &[TypeId],
        expected: TypeId,
    ) -> PResult<()> {
        use Opcode::*;
        let got = match opcode {
            _ if opcode.is_cast() => types.get(1).copied(),
            Add | Sub | Xor => {
                if let [a, b] = types
                    && !self.same_type(*a, *b)
                {
                    return Err(self.err_at(op, "operands of constexpr must have same type"));
                }
                types.first().copied()
            }
            InsertElement => types.first().copied(),
            ExtractElement => types
                .first()
                .and_then(|&v| match *self.ty(self.resolve_ty(v)) {
                    Type::Vector { elem, .. } => Some(elem),
                    _ => None,
                }),
            GetElementPtr => {
                let Some(&base) = types.get(1) else {
                    return Ok(());
                };
                // A scalar base with vector indices gives a vector of pointers.
                let index_vector =
                    types
                        .iter()
                        .skip(2)
                        .find_map(|&t| match *self.ty(self.resolve_ty(t)) {
                            Type::Vector { scalable, len, .. } => Some((scalable, len)),
                            _ => None,
                        });
                match (self.ty(self.resolve_ty(base)), index_vector) {
                    (Type::Ptr(space), Some((scalable, len))) => {
                        let fits = match *self.ty(self.resolve_ty(expected)) {
                            Type::Vector {
                                scalable: s,
                                len: n,
                                elem,
                            } => s == scalable && n == len && *self.ty(elem) == Type::Ptr(*space),
                            _ => false,
                        };
                        if !fits {
                            let scale = if scalable { "vscale x " } else { "" };
                            let got = format!("<{scale}{len} x {}>", self.type_text(base));
                            return Err(self.type_mismatch(op, &got, expected));
                        }
                        return Ok(());
                    }
                    _ => Some(base),
                }
            }
            _ => None,
        };
        match got {
            Some(got) if !self.same_type(got, expected) => {
                Err(self.type_mismatch(op, &self.type_text(got), expected))
            }
            _ => Ok(()),
        }
    }

    fn type_mismatch(&self, at: Span, got: &str, expected: TypeId) -> ReadError {
        let expected = self.type_text(self.resolve_ty(expected));
        let message = format!(
            "constant expression type mismatch: got type '{got}' but expected '{expected}'"
        );
        self.err_at(at, message)
    }

    /// Whether two types are one: interned, equal types have one id, but a body's own types
    /// are interned apart from the module's.
    fn same_type(&self, a: TypeId, b: TypeId) -> bool {
        let (a, b) = (self.resolve_ty(a), self.resolve_ty(b));
        a == b || self.type_text(a) == self.type_text(b)
    }

    // ---- functions ----

    fn function(&mut self) -> PResult<()> {
        let kw = self.bump();
        let is_definition = self.text(kw) == b"define";
        // A declaration's attachments come first: `declare !dbg !7 void @f()`.
        let mut metadata = Vec::new();
        while !is_definition && self.tok.kind == Tok::MdName {
            metadata.push(self.attachment()?);
        }
        let mut link = self.linkable()?;
        self.local_linkage_holds(&link, link.linkage_span)?;
        let cconv = self.calling_convention()?;
        let ret_attrs = self.attributes(AttrPlace::Return)?;
        let ret_ty = self.parse_type_or_void()?;
        let name = self.expect_global("a function name")?;
        let func = self.m.functions.next_key();
        let g = self.define_global(name, GlobalKind::Function(func))?;
        if is_definition {
            // The parameters' names are checked here, in the tables of the last header.
            let mut scope = self.spent_scope.take().unwrap_or_default();
            scope.reset(ArenaBase::default());
            self.scope = Some(scope);
        }
        self.expect(Tok::LParen, "'('")?;
        let mut params = Vec::new();
        let mut varargs = false;
        if self.tok.kind != Tok::RParen {
            loop {
                if self.eat(Tok::DotDotDot) {
                    varargs = true;
                    break;
                }
                let at = self.tok.span;
                let ty = self.parse_type()?;
                self.check_argument_type(ty, at)?;
                let attrs = self.attributes(AttrPlace::Parameter)?;
                let pname = match self.tok.kind {
                    Tok::LocalName | Tok::LocalNum => Some(self.bump()),
                    _ => None,
                };
                if is_definition {
                    let index = params.len() as u32;
                    self.define_local(pname, LocalDef::Arg(index))?;
                }
                params.push(Param {
                    ty,
                    attrs,
                    name: pname.map(|t| t.span),
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')'")?;
        // The parameter names are checked; the body is read later, on its own.
        if let Some(scope) = self.scope.take() {
            self.spent_scope = Some(scope);
        }
        let fn_ty = self.intern(Type::Function {
            ret: ret_ty,
            params: params.iter().map(|p| p.ty).collect(),
            varargs,
        });
        self.unnamed_addr(&mut link);
        let addrspace = self.addrspace()?.map(|(_, number)| number);
        let mut f = Function {
            global: g,
            link,
            cconv,
            ret_attrs,
            ret_ty,
            fn_ty,
            params,
            varargs,
            addrspace,
            fn_attrs: AttrList::default(),
            section: None,
            partition: None,
            comdat: None,
            align: None,
            gc: None,
            prefix: None,
            prologue: None,
            personality: None,
            metadata,
            header_span: kw.span,
            span: kw.span,
            body: None,
            rewritten: false,
            deleted: false,
        };
        // Function attributes (LLVM also takes `align N` among them), then the optional parts
        // in the order LLVM's grammar fixes.
        let fn_attrs_start = self.m.attrs.len();
        loop {
            if self.is_word(b"align") {
                f.align = Some(self.function_alignment()?);
            } else if let Some(a) = self.next_attribute(AttrPlace::Function)? {
                // A call may be marked `builtin`, a function may not (a group may hold it).
                if let Attr::Text(span) = a
                    && self.src[span.range()] == *b"builtin"
                {
                    return Err(self.err_at(span, "'builtin' attribute not valid on function"));
                }
                self.m.attrs.push(a);
            } else {
                break;
            }
        }
        f.fn_attrs = AttrList::since(&self.m.attrs, fn_attrs_start);
        if self.eat_word(b"section") {
            f.section = Some(self.expect(Tok::Str, "a section name")?.span);
        }
        if self.eat_word(b"partition") {
            f.partition = Some(self.expect(Tok::Str, "a partition name")?.span);
        }
        f.comdat = self.comdat_ref(name)?;
        if self.is_word(b"align") {
            f.align = Some(self.function_alignment()?);
        }
        if self.eat_word(b"gc") {
            f.gc = Some(self.expect(Tok::Str, "a garbage collector name")?.span);
        }
        for (which, slot) in [
            (&b"prefix"[..], &mut f.prefix),
            (b"prologue", &mut f.prologue),
            (b"personality", &mut f.personality),
        ] {
            if self.is_word(which) {
                self.bump();
                let ty = self.parse_type()?;
                *slot = Some((ty, self.parse_value(ty)?));
            }
        }
        // `!name = ...` after a declaration is named metadata, not an attachment.
        while self.tok.kind == Tok::MdName && self.peek2().kind != Tok::Equal {
            f.metadata.push(self.attachment()?);
        }
        f.header_span = kw.span.to(self.prev_end());
        if is_definition {
            let span = self.skim_body()?;
            f.body = Some(BodyInfo {
                span,
                blocks: 0,
                insts: 0,
                reachable_blocks: 0,
                reachable_insts: 0,
                shape: 0,
                passes_distinct_metadata: false,
                first_use: 0,
                use_count: 0,
            });
        }
        f.span = kw.span.to(self.prev_end());
        self.m.functions.push(f);
        Ok(())
    }

    fn function_alignment(&mut self) -> PResult<u64> {
        self.expect_word("align")?;
        if self.tok.kind == Tok::LParen {
            let open = self.bump();
            let a = self.expect_alignment(Some(open.span))?;
            self.expect(Tok::RParen, "')'")?;
            return Ok(a);
        }
        self.expect_alignment(None)
    }

    fn calling_convention(&mut self) -> PResult<Option<Span>> {
        let t = self.tok;
        if self.is_word(b"cc") {
            self.bump();
            let n = self.expect(Tok::Int, "a calling convention number")?;
            return Ok(Some(t.span.to(n.span)));
        }
        if t.kind == Tok::Word && is_calling_conv(self.text(t)) {
            self.bump();
            if self.tok.kind == Tok::LParen {
                let p = self.skip_parens()?;
                return Ok(Some(t.span.to(p)));
            }
            return Ok(Some(t.span));
        }
        Ok(None)
    }

    /// Step over a function body without reading it, as the lexer would: braces balance, and
    /// strings and comments are skipped. Returns the span from `{` to `}`; a body left open runs
    /// to the end of the input, where reading it will say what is wrong.
    fn skim_body(&mut self) -> PResult<Span> {
        if self.tok.kind != Tok::LBrace {
            return Err(self.err("'{' to start the function body"));
        }
        let start = self.tok.span.start as usize;
        let src = self.src;
        // Only a `{` that ends its line, as LLVM prints it: a body written on one line would
        // otherwise run on to the next function's end and have to be read again.
        if self.body_end == BodyEnd::FirstClosingLine
            && matches!(src.get(start + 1), Some(b'\n' | b'\r'))
            && let Some(at) = CLOSING_LINE.find(&src[start..])
        {
            let end = start + at + 2;
            self.seek(end);
            return Ok(Span::new(start, end));
        }
        let mut depth = 0u32;
        let mut i = start;
        let end = loop {
            let Some(at) = next_skim_stop(src, i) else {
                break src.len();
            };
            i = at;
            match src[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break i + 1;
                    }
                }
                b'"' => match memchr::memchr(b'"', &src[i + 1..]) {
                    Some(close) => i += close + 1,
                    None => break src.len(),
                },
                _ => match memchr::memchr(b'\n', &src[i..]) {
                    Some(eol) => i += eol,
                    None => break src.len(),
                },
            }
            i += 1;
        };
        self.seek(end);
        Ok(Span::new(start, end))
    }

    /// Read the body of `f`, a definition in `base`, whose top level is read. `replay`: the
    /// body was read before and its uses are the ones `base` recorded then.
    pub(crate) fn read_body(
        src: &'a str,
        base: &'a Module,
        f: FuncId,
        replay: bool,
        scratch: &mut Scratch<'a>,
    ) -> PResult<(Body, Vec<GlobalUse>)> {
        let func = &base.functions[f];
        let mut p = Parser::new(src);
        let Some(info) = &func.body else {
            return Err(p.err_at(func.header_span, "a function body"));
        };
        p.enter_body(
            base,
            f,
            info.span.range(),
            replay.then_some((info.first_use, info.use_count)),
            std::mem::take(&mut scratch.types),
            scratch.scope.take().unwrap_or_default(),
        );
        let read = p.params_and_body(func);
        // Hand the tables back, whatever happened.
        scratch.scope = p.scope.take().or(p.spent_scope.take());
        let bm = p.body_mode.take().expect("in a body");
        let read = match bm.undefined {
            Some(e) => read.and(Err(e)),
            None => read,
        };
        scratch.types = bm.types;
        read.map(|body| (body, bm.uses))
    }

    /// Read the blocks of `f`'s body (a definition in `base`) from `from` to `to` (a block's
    /// start, or the body's end when `None`) on their own, as a [`Piece`]. The first piece
    /// starts at the body's `{`. Names defined elsewhere are left unresolved, and numbers
    /// are checked within the piece only: joining the pieces checks the rest.
    pub(crate) fn read_piece(
        src: &'a str,
        base: &'a Module,
        f: FuncId,
        from: usize,
        to: Option<usize>,
    ) -> PResult<Piece<'a>> {
        let func = &base.functions[f];
        let mut p = Parser::new(src);
        let Some(info) = &func.body else {
            return Err(p.err_at(func.header_span, "a function body"));
        };
        let first = from == info.span.start as usize;
        p.enter_body(
            base,
            f,
            from..to.unwrap_or(info.span.end as usize),
            None,
            BodyTypes::default(),
            Box::default(),
        );
        p.scope().numbering_unknown = !first;
        let start = p.tok.span;
        if first {
            p.define_params(func)?;
            p.expect(Tok::LBrace, "'{' to start the function body")?;
        }
        let end = p.blocks_until(to)?;
        let scope = p.scope.take().expect("in a function");
        let bm = p.body_mode.take().expect("in a body");
        if let Some(e) = bm.undefined {
            return Err(e);
        }
        let uses = bm.uses;
        Ok(Piece {
            span: start.to(end),
            uses,
            scope,
        })
    }

    /// Read the `text` of the body of `f` (all of it, or a piece), names resolving in `base`
    /// and what the body adds kept with it (see [`BodyMode`]), in the tables given, emptied.
    fn enter_body(
        &mut self,
        base: &'a Module,
        f: FuncId,
        text: std::ops::Range<usize>,
        replay_from: Option<(u32, u32)>,
        mut types: BodyTypes<'a>,
        mut scope: Box<FnScope<'a>>,
    ) {
        self.seek(text.start);
        types.clear();
        self.body_mode = Some(BodyMode {
            base,
            func: f,
            uses: Vec::new(),
            replay_from,
            first_use: replay_from.map_or(base.uses.len() as u32, |(first, _)| first),
            types,
            undefined: None,
        });
        scope.reset(ArenaBase::of(base));
        scope.reserve_for(text.len());
        self.scope = Some(scope);
    }

    fn params_and_body(&mut self, func: &Function) -> PResult<Body> {
        self.define_params(func)?;
        self.function_body()
    }

    /// The parameters' names, as the header read them.
    fn define_params(&mut self, func: &Function) -> PResult<()> {
        for (index, param) in func.params.iter().enumerate() {
            let name = param
                .name
                .map(|span| Lexer::starting_at(self.src, span.start as usize).next());
            let l = self.define_local(name, LocalDef::Arg(index as u32))?;
            self.local_defined_as(l, param.ty, param.name.unwrap_or_default())?;
        }
        Ok(())
    }

    fn function_body(&mut self) -> PResult<Body> {
        let open = self.expect(Tok::LBrace, "'{' to start the function body")?;
        let close = self.blocks_until(None)?;
        let mut scope = self.scope.take().expect("in a function");
        let undefined = scope
            .forward
            .iter()
            .find(|&&(l, _)| !scope.is_defined(l))
            .map(|&(_, span)| span);
        let mut body = std::mem::take(&mut scope.body);
        self.spent_scope = Some(scope);
        if let Some(span) = undefined {
            return Err(self.err_at(span, "use of undefined value"));
        }
        body.span = open.span.to(close);
        Ok(body)
    }

    /// Read blocks up to the body's `}` (and the use-list orders before it), whose span comes
    /// back; or, with `stop`, up to the block that starts there, which must be the next token.
    fn blocks_until(&mut self, stop: Option<usize>) -> PResult<Span> {
        loop {
            self.block()?;
            let at = self.tok.span.start as usize;
            match stop {
                Some(stop) if at == stop => return Ok(self.prev_end()),
                Some(stop) if at > stop => {
                    return Err(self.err("a block (the piece ends inside this line)"));
                }
                _ => {}
            }
            if self.tok.kind == Tok::RBrace || self.is_word(b"uselistorder") {
                break;
            }
            if self.tok.kind == Tok::Eof {
                return Err(self.err("'}' to end the function body"));
            }
        }
        if stop.is_some() {
            return Err(self.err("a block (the body ends before the piece)"));
        }
        // As in LLVM, a body's use-list orders follow its last block.
        if self.is_word(b"uselistorder") {
            let src = self.src;
            let first = self.tok.span.start as usize;
            let line = first
                - src[..first]
                    .iter()
                    .rev()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
            let mut last = self.uselistorder()?;
            while self.is_word(b"uselistorder") {
                last = self.uselistorder()?;
            }
            self.scope().body.use_list_orders = Span::new(line, last.end as usize);
        }
        Ok(self
            .expect(Tok::RBrace, "'}' to end the function body")?
            .span)
    }

    fn block(&mut self) -> PResult<()> {
        let start = self.tok.span;
        let label = match self.tok.kind {
            Tok::Label | Tok::LabelNum if self.is_label_read(self.tok) => Some(self.bump()),
            Tok::Label | Tok::LabelNum => return Err(self.err("instruction opcode")),
            _ => None,
        };
        let id = self.scope().body.blocks.next_key();
        let local = self.define_local(label, LocalDef::Block(id))?;
        let label_ty = self.intern(Type::Label);
        let at = label.map_or(self.tok.span, |t| t.span);
        self.local_defined_as(local, label_ty, at)?;
        let first_inst = self.scope().body.insts.len() as u32;
        self.scope().body.blocks.push(Block {
            local,
            first_inst,
            inst_count: 0,
            span: start,
        });
        loop {
            if self.tok.kind == Tok::DebugRecord {
                let at = self.tok.span;
                self.scope().body.debug_forms.record.get_or_insert(at);
                let span = self.debug_record()?;
                let before = self.scope().body.insts.next_key();
                self.scope()
                    .body
                    .debug_records
                    .push(DebugRecord { before, span });
                continue;
            }
            let opcode = self.instruction()?;
            if opcode.is_terminator() {
                break;
            }
            if matches!(self.tok.kind, Tok::RBrace | Tok::Eof) {
                return Err(self.err("an instruction (a block must end with a terminator)"));
            }
        }
        let end = self.prev_end();
        let scope = self.scope();
        let n = scope.body.insts.len() as u32;
        let (_, b) = scope.body.blocks.last_mut().expect("just pushed");
        b.inst_count = n - first_inst;
        b.span = start.to(end);
        Ok(())
    }

    // ---- instructions ----

    fn push_item(&mut self, item: Item) {
        self.scope().body.items.push(item);
    }

    fn item_type(&mut self) -> PResult<TypeId> {
        let ty = self.parse_type()?;
        self.push_item(Item::Type(ty));
        Ok(ty)
    }

    fn item_value(&mut self, ty: TypeId) -> PResult<Value> {
        let v = self.parse_value(ty)?;
        self.push_item(Item::Value(v));
        Ok(v)
    }

    /// `T V`
    fn item_typed_value(&mut self) -> PResult<TypeId> {
        let ty = self.item_type()?;
        self.item_value(ty)?;
        Ok(ty)
    }

    fn push_word(&mut self, span: Span) -> PResult<()> {
        if span.range().len() > Item::MAX_WORD {
            return Err(self.err_at(span, "text too long for an instruction operand"));
        }
        self.push_item(Item::word(span));
        Ok(())
    }

    /// The current token as a word item. A single token longer than `Item::MAX_WORD` only
    /// occurs in absurd input, where comparing its truncated text stays deterministic.
    fn item_word(&mut self) {
        let t = self.bump();
        self.push_item(Item::word(t.span));
    }

    fn item_words_while(&mut self, pred: impl Fn(&[u8]) -> bool) {
        while self.tok.kind == Tok::Word && pred(self.text(self.tok)) {
            self.item_word();
        }
    }

    fn item_comma(&mut self) -> PResult<()> {
        self.expect(Tok::Comma, "','")?;
        Ok(())
    }

    fn item_label(&mut self) -> PResult<()> {
        self.expect_word("label")?;
        let t = self.tok;
        if !matches!(t.kind, Tok::LocalName | Tok::LocalNum) {
            return Err(self.err("a block name"));
        }
        let label = self.intern(Type::Label);
        let l = self.typed_local_ref(t, label)?;
        self.push_item(Item::Value(Value::local(l)));
        Ok(())
    }

    /// `syncscope("name")`, if present.
    fn item_syncscope(&mut self) -> PResult<()> {
        if self.is_word(b"syncscope") {
            let t = self.bump();
            self.expect(Tok::LParen, "'('")?;
            self.expect(Tok::Str, "a synchronization scope name")?;
            let close = self.expect(Tok::RParen, "')'")?;
            self.push_word(t.span.to(close.span))?;
        }
        Ok(())
    }

    /// An atomic ordering, and which it is.
    fn item_ordering(&mut self) -> PResult<&'a [u8]> {
        match self.word() {
            w @ (b"unordered" | b"monotonic" | b"acquire" | b"release" | b"acq_rel"
            | b"seq_cst") => {
                self.item_word();
                Ok(w)
            }
            _ => Err(self.err("an atomic ordering")),
        }
    }

    /// Where LLVM reports a fault found once an instruction is read: at the token after it,
    /// or at its first metadata attachment (LLVM has taken the comma before it).
    fn after_instruction(&self) -> Span {
        if self.tok.kind == Tok::Comma && self.peek2().kind == Tok::MdName {
            self.peek2().span
        } else {
            self.tok.span
        }
    }

    /// `, align N` when the comma is followed by `align`.
    fn item_opt_align(&mut self) -> PResult<()> {
        if self.tok.kind == Tok::Comma && self.peek2_is_word(b"align") {
            self.bump();
            let t = self.bump();
            let n = self.tok.span;
            self.expect_alignment(None)?;
            self.push_word(t.span.to(n))?;
        }
        Ok(())
    }

    fn peek2_is_word(&self, w: &[u8]) -> bool {
        let t = self.peek2();
        t.kind == Tok::Word && &self.src[t.span.range()] == w
    }

    fn instruction(&mut self) -> PResult<Opcode> {
        let start = self.tok.span;
        let result_name = match self.tok.kind {
            Tok::LocalName | Tok::LocalNum => {
                let t = self.bump();
                self.expect(Tok::Equal, "'='")?;
                Some(t)
            }
            _ => None,
        };
        let opcode = match Opcode::from_keyword(self.word()) {
            Some(op) => op,
            None => return Err(self.err("an instruction")),
        };
        let items_start = self.scope().body.items.len() as u32;
        let ty = self.instruction_operands(opcode)?;
        // Metadata attachments.
        let md_start = self.scope().body.attachments.len() as u32;
        while self.tok.kind == Tok::Comma && self.peek2().kind == Tok::MdName {
            self.bump();
            let a = self.attachment()?;
            self.scope().body.attachments.push(a);
        }
        if self.tok.kind == Tok::Comma {
            // A comma after an instruction brings an attachment, or an alignment where one
            // may follow.
            self.bump();
            let with_align = matches!(
                opcode,
                Opcode::Load | Opcode::Store | Opcode::AtomicRmw | Opcode::AtomicCmpXchg
            );
            return Err(self.err(match with_align {
                true => "metadata or 'align'",
                false => "metadata after comma",
            }));
        }
        let md_len = self.scope().body.attachments.len() as u32 - md_start;
        let end = self.prev_end();
        let id = self.scope().body.insts.next_key();
        let is_void = matches!(self.ty(ty), Type::Void);
        let result = if is_void {
            if let Some(t) = result_name {
                return Err(self.err_at(t.span, "instructions returning void cannot have a name"));
            }
            None
        } else {
            let l = self.define_local(result_name, LocalDef::Inst(id))?;
            self.local_defined_as(l, ty, result_name.map_or(start, |t| t.span))?;
            Some(l)
        };
        let debug_intrinsic = match opcode == Opcode::Call && result.is_none() {
            true => self.debug_intrinsic_called(items_start),
            false => None,
        };
        if let Some(intrinsic) = debug_intrinsic {
            if intrinsic != b"llvm.dbg.label" {
                // Where LLVM's `parseCall` starts: after the word `call` or `tail`.
                let at = Lexer::starting_at(self.src, start.end as usize).next().span;
                self.scope()
                    .body
                    .debug_forms
                    .intrinsic_call
                    .get_or_insert(at);
            }
            // LLVM reads a call of `llvm.dbg.value` and its kin as the debug record it
            // stands for (`#dbg_value`): so do we, for counts and comparison alike.
            let body = &mut self.scope().body;
            body.items.truncate(items_start as usize);
            body.attachments.truncate(md_start as usize);
            body.debug_records.push(DebugRecord {
                before: id,
                span: start.to(end),
            });
            return Ok(opcode);
        }
        let scope = self.scope();
        let items_len = scope.body.items.len() as u32 - items_start;
        scope.body.insts.push(Inst {
            opcode,
            result,
            ty,
            items_start,
            items_len,
            md_start,
            md_len: u16::try_from(md_len).unwrap_or(u16::MAX),
            span: start.to(end),
        });
        Ok(opcode)
    }

    /// Which of `llvm.dbg.value`, `llvm.dbg.declare`, `llvm.dbg.assign` and `llvm.dbg.label`
    /// (declared or not) the call whose items start at `items_start` calls, if any: its callee
    /// is its first global operand.
    fn debug_intrinsic_called(&self, items_start: u32) -> Option<&'static [u8]> {
        let (Some(bm), Some(scope)) = (&self.body_mode, &self.scope) else {
            return None;
        };
        let callee = scope.body.items[items_start as usize..]
            .iter()
            .find_map(|it| match it {
                Item::Value(v) => match v.kind() {
                    ValueKind::Global(u) => {
                        bm.uses.get(u.index().checked_sub(bm.first_use as usize)?)
                    }
                    _ => None,
                },
                _ => None,
            });
        let use_ = callee?;
        let implicit;
        let name = if use_.global.is_reserved_value() {
            implicit = strip_name(&self.src[use_.span.range()][1..]);
            &implicit[..]
        } else {
            match &bm.base.globals[use_.global].name {
                GlobalName::Named(n) => &n[..],
                GlobalName::Numbered(_) => return None,
            }
        };
        [
            &b"llvm.dbg.value"[..],
            b"llvm.dbg.declare",
            b"llvm.dbg.assign",
            b"llvm.dbg.label",
        ]
        .into_iter()
        .find(|&intrinsic| name == intrinsic)
    }

    fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }

    fn bool_like(&mut self, ty: TypeId) -> TypeId {
        let i1 = self.intern(Type::Int(1));
        match *self.ty(ty) {
            Type::Vector { scalable, len, .. } => self.intern(Type::Vector {
                scalable,
                len,
                elem: i1,
            }),
            _ => i1,
        }
    }

    /// Read the operands of `opcode` (its keyword is the current token) and return the
    /// instruction's result type.
    fn instruction_operands(&mut self, opcode: Opcode) -> PResult<TypeId> {
        use Opcode::*;
        if opcode == Call {
            return self.call_like(Call);
        }
        self.bump();
        Ok(match opcode {
            Ret => {
                let at = self.tok.span;
                let ty = if self.is_word(b"void") {
                    let ty = self.parse_type_or_void()?;
                    self.push_item(Item::Type(ty));
                    ty
                } else {
                    self.item_typed_value()?
                };
                // Told apart once resolved, as a select's values are.
                if let Some(bm) = &self.body_mode {
                    let result = bm.base.functions[bm.func].ret_ty;
                    if self.resolve_ty(result) != self.resolve_ty(ty) {
                        let message = format!(
                            "value doesn't match function result type '{}'",
                            self.type_text(result)
                        );
                        return Err(self.err_at(at, message));
                    }
                }
                self.void()
            }
            Br => {
                if self.is_word(b"label") {
                    self.item_label()?;
                } else {
                    self.item_typed_value()?;
                    self.item_comma()?;
                    self.item_label()?;
                    self.item_comma()?;
                    self.item_label()?;
                }
                self.void()
            }
            Switch => {
                self.item_typed_value()?;
                self.item_comma()?;
                self.item_label()?;
                self.expect(Tok::LSquare, "'['")?;
                self.push_item(Item::Mark(b'['));
                while self.tok.kind != Tok::RSquare {
                    self.item_typed_value()?;
                    self.item_comma()?;
                    self.item_label()?;
                }
                self.bump();
                self.push_item(Item::Mark(b']'));
                self.void()
            }
            IndirectBr => {
                self.item_typed_value()?;
                self.item_comma()?;
                self.item_bracketed(|p| p.item_label().map(drop))?;
                self.void()
            }
            Invoke | CallBr => self.call_like(opcode)?,
            Resume => {
                self.item_typed_value()?;
                self.void()
            }
            Unreachable => self.void(),
            CleanupRet => {
                self.expect_word("from")?;
                self.pad_value()?;
                self.expect_word("unwind")?;
                self.unwind_dest()?;
                self.void()
            }
            CatchRet => {
                self.expect_word("from")?;
                self.pad_value()?;
                self.expect_word("to")?;
                self.item_label()?;
                self.void()
            }
            CatchSwitch => {
                self.expect_word("within")?;
                self.pad_value()?;
                self.expect(Tok::LSquare, "'['")?;
                self.push_item(Item::Mark(b'['));
                loop {
                    self.item_label()?;
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RSquare, "']'")?;
                self.push_item(Item::Mark(b']'));
                self.expect_word("unwind")?;
                self.unwind_dest()?;
                self.intern(Type::Token)
            }
            CatchPad | CleanupPad => {
                self.expect_word("within")?;
                self.pad_value()?;
                self.item_bracketed(|p| p.item_typed_value().map(drop))?;
                self.intern(Type::Token)
            }
            FNeg => {
                self.item_words_while(is_fast_math_flag);
                self.item_typed_value()?
            }
            Add | Sub | Mul | Shl | UDiv | SDiv | LShr | AShr | Or | And | Xor | URem | SRem
            | FAdd | FSub | FMul | FDiv | FRem => {
                self.item_words_while(|w| {
                    matches!(w, b"nuw" | b"nsw" | b"exact" | b"disjoint") || is_fast_math_flag(w)
                });
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_value(ty)?;
                ty
            }
            ICmp | FCmp => {
                self.item_words_while(|w| w == b"samesign" || is_fast_math_flag(w));
                let predicate = self.tok;
                let known = predicate.kind == Tok::Word
                    && match opcode {
                        ICmp => is_icmp_predicate(self.text(predicate)),
                        _ => is_fcmp_predicate(self.text(predicate)),
                    };
                if !known {
                    let message = match opcode {
                        ICmp => "expected icmp predicate (e.g. 'eq')",
                        _ => "expected fcmp predicate (e.g. 'oeq')",
                    };
                    return Err(self.err_at(predicate.span, message));
                }
                self.item_word();
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_value(ty)?;
                self.bool_like(ty)
            }
            Trunc | ZExt | SExt | FpToUi | FpToSi | UiToFp | SiToFp | FpTrunc | FpExt
            | PtrToInt | PtrToAddr | IntToPtr | BitCast | AddrSpaceCast => {
                self.item_words_while(|w| {
                    matches!(w, b"nuw" | b"nsw" | b"nneg") || is_fast_math_flag(w)
                });
                let from_at = self.tok.span;
                let from = self.item_type()?;
                let from_span = from_at.to(self.prev_end());
                self.item_value(from)?;
                self.expect_word("to")?;
                let to_at = self.tok.span;
                let to = self.item_type()?;
                self.cast_holds(
                    opcode,
                    (from, from_span),
                    (to, to_at.to(self.prev_end())),
                    from_at,
                )?;
                to
            }
            Select => {
                self.item_words_while(is_fast_math_flag);
                let at = self.tok.span;
                let condition = self.item_typed_value()?;
                self.item_comma()?;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let other = self.item_typed_value()?;
                if let Some(message) = self.select_misfit(condition, ty, other) {
                    return Err(self.err_at(at, message));
                }
                ty
            }
            VaArg => {
                self.item_typed_value()?;
                self.item_comma()?;
                self.item_type()?
            }
            ExtractElement => {
                let vty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_typed_value()?;
                match *self.ty(self.resolve_ty(vty)) {
                    Type::Vector { elem, .. } => elem,
                    _ => vty,
                }
            }
            InsertElement => {
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_typed_value()?;
                self.item_comma()?;
                self.item_typed_value()?;
                ty
            }
            ShuffleVector => {
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_typed_value()?;
                self.item_comma()?;
                let mask = self.item_typed_value()?;
                match (self.ty(ty).clone(), self.ty(mask).clone()) {
                    (Type::Vector { elem, .. }, Type::Vector { scalable, len, .. }) => {
                        self.intern(Type::Vector {
                            scalable,
                            len,
                            elem,
                        })
                    }
                    _ => ty,
                }
            }
            ExtractValue => {
                let at = self.tok.span;
                let aggregate = self.item_typed_value()?;
                let indices = self.item_value_indices()?;
                self.member_type(aggregate, &indices)
                    .map_err(|why| self.err_at(at, why.message("extractvalue")))?
            }
            InsertValue => {
                let at = self.tok.span;
                let aggregate = self.item_typed_value()?;
                self.item_comma()?;
                let value_at = self.tok.span;
                let value = self.item_typed_value()?;
                let indices = self.item_value_indices()?;
                let member = self
                    .member_type(aggregate, &indices)
                    .map_err(|why| self.err_at(at, why.message("insertvalue")))?;
                // Told apart once resolved, as a select's values are.
                if self.resolve_ty(member) != self.resolve_ty(value) {
                    let message = format!(
                        "insertvalue operand and field disagree in type: '{}' instead of '{}'",
                        self.type_text(value),
                        self.type_text(member)
                    );
                    return Err(self.err_at(value_at, message));
                }
                aggregate
            }
            Alloca => {
                self.item_words_while(|w| matches!(w, b"inalloca" | b"swifterror"));
                let at = self.tok.span;
                let ty = self.item_type()?;
                if !self.is_array_element(ty) {
                    return Err(self.err_at(at, "invalid type for alloca"));
                }
                if !self.is_scalar(ty) && !self.is_sized(ty) {
                    return Err(self.err_at(at, "Cannot allocate unsized type"));
                }
                if self.tok.kind == Tok::Comma
                    && !matches!(self.peek2().kind, Tok::MdName)
                    && !self.peek2_is_word(b"align")
                    && !self.peek2_is_word(b"addrspace")
                {
                    self.bump();
                    self.item_typed_value()?;
                }
                self.item_opt_align()?;
                // LLVM 22's reader ignores the datalayout's `A` here.
                let mut addr_space = 0;
                if self.tok.kind == Tok::Comma && self.peek2_is_word(b"addrspace") {
                    self.bump();
                    let t = self.tok;
                    addr_space = self.opt_addrspace_number()?;
                    self.push_word(t.span.to(self.prev_end()))?;
                }
                self.intern(Type::Ptr(addr_space))
            }
            Load => {
                let atomic = self.is_word(b"atomic");
                self.item_words_while(|w| matches!(w, b"atomic" | b"volatile"));
                let at = self.tok.span;
                let ty = self.item_type()?;
                self.item_comma()?;
                let pointer = self.tok.span;
                self.item_typed_value()?;
                self.check_memory_type(
                    ty,
                    (
                        pointer,
                        "load operand must be a pointer to a first class type",
                    ),
                    (at, "loading unsized types is not allowed"),
                )?;
                if atomic {
                    self.item_syncscope()?;
                    if matches!(self.item_ordering()?, b"release" | b"acq_rel") {
                        let message = "atomic load cannot use Release ordering";
                        return Err(self.err_at(pointer, message));
                    }
                }
                self.item_opt_align()?;
                ty
            }
            Store => {
                let atomic = self.is_word(b"atomic");
                self.item_words_while(|w| matches!(w, b"atomic" | b"volatile"));
                let value = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_typed_value()?;
                self.check_memory_type(
                    ty,
                    (value, "store operand must be a first class value"),
                    (value, "storing unsized types is not allowed"),
                )?;
                if atomic {
                    self.item_syncscope()?;
                    if matches!(self.item_ordering()?, b"acquire" | b"acq_rel") {
                        let message = "atomic store cannot use Acquire ordering";
                        return Err(self.err_at(value, message));
                    }
                }
                self.item_opt_align()?;
                self.void()
            }
            Fence => {
                self.item_syncscope()?;
                let ordering = self.item_ordering()?;
                if matches!(ordering, b"unordered" | b"monotonic") {
                    let message = format!("fence cannot be {}", String::from_utf8_lossy(ordering));
                    return Err(self.err_at(self.after_instruction(), message));
                }
                self.void()
            }
            AtomicCmpXchg => {
                self.item_words_while(|w| matches!(w, b"weak" | b"volatile"));
                let pointer = (self.tok.span, self.item_typed_value()?);
                self.item_comma()?;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let new = (self.tok.span, self.item_typed_value()?);
                self.item_syncscope()?;
                let success = self.item_ordering()?;
                let failure = self.item_ordering()?;
                self.item_opt_align()?;
                if success == b"unordered" {
                    let message = "invalid cmpxchg success ordering";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                if matches!(failure, b"unordered" | b"release" | b"acq_rel") {
                    let message = "invalid cmpxchg failure ordering";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                if !matches!(self.body_ty(pointer.1), Type::Ptr(_)) {
                    return Err(self.err_at(pointer.0, "cmpxchg operand must be a pointer"));
                }
                if self.resolve_ty(ty) != self.resolve_ty(new.1) {
                    let message = "compare value and new value type do not match";
                    return Err(self.err_at(new.0, message));
                }
                if !self.is_first_class(new.1) {
                    let message = "cmpxchg operand must be a first class value";
                    return Err(self.err_at(new.0, message));
                }
                let i1 = self.intern(Type::Int(1));
                self.intern(Type::Struct {
                    packed: false,
                    elems: vec![ty, i1],
                })
            }
            AtomicRmw => {
                self.item_words_while(|w| w == b"volatile");
                let operation = self.tok;
                if operation.kind != Tok::Word || atomicrmw_kind(self.text(operation)).is_none() {
                    return Err(self.err("binary operation in atomicrmw"));
                }
                self.item_word();
                self.item_typed_value()?;
                self.item_comma()?;
                let value = self.tok.span;
                let ty = self.item_typed_value()?;
                if let Some(message) = self.atomicrmw_misfit(self.text(operation), ty) {
                    return Err(self.err_at(value, message));
                }
                self.item_syncscope()?;
                let ordering = self.item_ordering()?;
                self.item_opt_align()?;
                if ordering == b"unordered" {
                    let message = "atomicrmw cannot be unordered";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                ty
            }
            GetElementPtr => {
                self.item_words_while(|w| matches!(w, b"inbounds" | b"nusw" | b"nuw"));
                let source = self.item_type()?;
                self.item_comma()?;
                let base = self.tok.span;
                let mut result = self.item_typed_value()?;
                let mut width = self.gep_width(result);
                // The type each index after the first steps into, while it can be followed.
                let mut indexed = None;
                let mut invalid = false;
                while self.tok.kind == Tok::Comma && self.peek2().kind != Tok::MdName {
                    self.bump();
                    let at = self.tok.span;
                    let ity = self.item_type()?;
                    let index = self.tok;
                    self.item_value(ity)?;
                    if let Err(message) = self.gep_index_holds(ity, &mut width) {
                        return Err(self.err_at(at, message));
                    }
                    indexed = match indexed {
                        None => Some(Some(source)),
                        Some(Some(ty)) => {
                            Some(self.gep_step(ty, ity, index).unwrap_or_else(|()| {
                                invalid = true;
                                None
                            }))
                        }
                        Some(None) => Some(None),
                    };
                    if let Type::Vector { scalable, len, .. } = *self.ty(ity)
                        && !matches!(self.ty(result), Type::Vector { .. })
                    {
                        result = self.intern(Type::Vector {
                            scalable,
                            len,
                            elem: result,
                        });
                    }
                }
                let layout = self.layout(source, 0);
                if indexed.is_some() && !layout.sized {
                    return Err(self.err_at(base, "base element of getelementptr must be sized"));
                }
                if layout.scalable && matches!(self.body_ty(source), Type::Struct { .. }) {
                    let message =
                        "getelementptr cannot target structure that contains scalable vector type";
                    return Err(self.err_at(base, message));
                }
                if invalid {
                    return Err(self.err_at(base, "invalid getelementptr indices"));
                }
                result
            }
            Phi => {
                self.item_words_while(is_fast_math_flag);
                let at = self.tok.span;
                let ty = self.item_type()?;
                if !self.is_first_class(ty) {
                    return Err(self.err_at(at, "phi node must have first class type"));
                }
                // No incoming value at all is valid (a block that no edge reaches).
                let mut incoming = self.tok.kind == Tok::LSquare;
                while incoming {
                    self.expect(Tok::LSquare, "'['")?;
                    self.item_value(ty)?;
                    self.item_comma()?;
                    let t = self.tok;
                    if !matches!(t.kind, Tok::LocalName | Tok::LocalNum) {
                        return Err(self.err("a block name"));
                    }
                    let label = self.intern(Type::Label);
                    let l = self.typed_local_ref(t, label)?;
                    self.push_item(Item::Value(Value::local(l)));
                    self.expect(Tok::RSquare, "']'")?;
                    incoming = self.tok.kind == Tok::Comma && self.peek2().kind == Tok::LSquare;
                    if incoming {
                        self.bump();
                    }
                }
                ty
            }
            LandingPad => {
                let ty = self.item_type()?;
                loop {
                    match self.word() {
                        b"cleanup" => self.item_word(),
                        b"catch" | b"filter" => {
                            self.item_word();
                            self.item_typed_value()?;
                        }
                        _ => break,
                    }
                }
                ty
            }
            Freeze => self.item_typed_value()?,
            Call => unreachable!("handled above"),
        })
    }

    /// `[ x, y, ... ]` (possibly empty), each element read by `element`, between marks.
    fn item_bracketed(&mut self, mut element: impl FnMut(&mut Self) -> PResult<()>) -> PResult<()> {
        self.expect(Tok::LSquare, "'['")?;
        self.push_item(Item::Mark(b'['));
        if self.tok.kind != Tok::RSquare {
            loop {
                element(self)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        self.push_item(Item::Mark(b']'));
        Ok(())
    }

    /// The `, N` indices of extractvalue and insertvalue, kept as words; a number out of
    /// range stands as `u64::MAX`, which indexes nothing.
    fn item_value_indices(&mut self) -> PResult<Vec<u64>> {
        let mut indices = Vec::new();
        while self.tok.kind == Tok::Comma && self.peek2().kind == Tok::Int {
            self.bump();
            let t = self.bump();
            self.push_word(t.span)?;
            indices.push(unsigned(self.text(t)).unwrap_or(u64::MAX));
        }
        Ok(indices)
    }

    /// The member of `aggregate` the indices name (`ExtractValueInst::getIndexedType`), or
    /// why there is none.
    fn member_type(&self, aggregate: TypeId, indices: &[u64]) -> Result<TypeId, NoMember> {
        if !matches!(
            self.body_ty(aggregate),
            Type::Struct { .. } | Type::Array(..)
        ) {
            return Err(NoMember::NotAggregate);
        }
        let mut ty = aggregate;
        for &index in indices {
            ty = match self.body_ty(ty) {
                Type::Struct { elems, .. } => elems.get(index as usize).copied(),
                Type::Array(n, elem) if index < *n => Some(*elem),
                _ => None,
            }
            .ok_or(NoMember::InvalidIndices)?;
        }
        Ok(ty)
    }

    /// The parent pad of a funclet instruction: a local value or `none`.
    fn pad_value(&mut self) -> PResult<()> {
        let token = self.intern(Type::Token);
        self.item_value(token)?;
        Ok(())
    }

    fn unwind_dest(&mut self) -> PResult<()> {
        if self.is_word(b"to") {
            self.bump();
            let t = self.expect_word("caller")?;
            self.push_word(t.span)?;
            Ok(())
        } else {
            self.item_label()
        }
    }

    /// call, invoke and callbr: `[tail] call [fmf] [cc] [retattrs] [addrspace] T callee(args)
    /// [fnattrs] [bundles]` and the destinations of invoke and callbr.
    fn call_like(&mut self, opcode: Opcode) -> PResult<TypeId> {
        let mut musttail = false;
        if opcode == Opcode::Call {
            if TAIL_KINDS.contains(&self.word()) {
                musttail = self.word() == b"musttail";
                self.item_word();
            }
            self.expect_word("call")?;
            self.item_words_while(is_fast_math_flag);
        }
        if let Some(cc) = self.calling_convention()? {
            self.push_word(cc)?;
        }
        self.item_attributes(Some(AttrPlace::Return))?;
        // The callee is a pointer into this address space, the program's unless written.
        let addr_space = match self.addrspace()? {
            Some((text, number)) => {
                self.push_word(text)?;
                number
            }
            None => self.data_layout().program_addr_space,
        };
        let fn_or_ret = self.parse_type_or_void()?;
        self.push_item(Item::Type(fn_or_ret));
        // A named type may stand for the function type (`%FnTy = type i32 ()`).
        let ret = match self.body_ty(fn_or_ret) {
            Type::Function { ret, .. } => *ret,
            _ => fn_or_ret,
        };
        // The callee.
        let ptr = self.intern(Type::Ptr(addr_space));
        let callee_tok = self.tok;
        let callee = self.parse_value(ptr)?;
        if let (ValueKind::Global(u), Tok::GlobalName | Tok::GlobalNum) =
            (callee.kind(), callee_tok.kind)
        {
            self.set_use_role(u, UseRole::Callee);
        }
        self.push_item(Item::Value(callee));
        // Arguments.
        self.expect(Tok::LParen, "'(' to start the argument list")?;
        self.push_item(Item::Mark(b'('));
        // A musttail call in a varargs function forwards the caller's own variable arguments,
        // written `...` last, and only there.
        let in_varargs = |p: &Self| match &p.body_mode {
            Some(bm) => bm.base.functions[bm.func].varargs,
            None => false,
        };
        let mut forwards_varargs = false;
        if self.tok.kind != Tok::RParen {
            loop {
                if self.tok.kind == Tok::DotDotDot {
                    let unexpected = "unexpected ellipsis in argument list for ";
                    if !musttail {
                        let message = format!("{unexpected}non-musttail call");
                        return Err(self.err_at(self.tok.span, message));
                    }
                    if !in_varargs(self) {
                        let message = format!("{unexpected}musttail call in non-varargs function");
                        return Err(self.err_at(self.tok.span, message));
                    }
                    self.item_word();
                    forwards_varargs = true;
                    break;
                }
                let at = self.tok.span;
                let ty = self.item_type()?;
                // A metadata argument has no attributes (`metadata ptr @g`: `ptr` is its type).
                let metadata = matches!(self.ty(ty), Type::Metadata);
                if !metadata {
                    self.check_argument_type(ty, at)?;
                }
                self.item_attributes((!metadata).then_some(AttrPlace::Parameter))?;
                if metadata {
                    // `metadata <4 x i32> %v`, `metadata %T %v`: a type, not a value, follows.
                    let md = self.md_operand(true)?;
                    let c = self.push_const(Const::Metadata(md));
                    self.push_item(Item::Value(c));
                } else {
                    self.item_value(ty)?;
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if musttail && !forwards_varargs && self.tok.kind == Tok::RParen && in_varargs(self) {
            let message = "expected '...' at end of argument list for musttail call in varargs \
                           function";
            return Err(self.err_at(self.tok.span, message));
        }
        self.expect(Tok::RParen, "')'")?;
        self.push_item(Item::Mark(b')'));
        // Function attributes.
        self.item_attributes(Some(AttrPlace::Function))?;
        // Operand bundles.
        if self.tok.kind == Tok::LSquare {
            self.bump();
            self.push_item(Item::Mark(b'['));
            loop {
                let tag = self.expect(Tok::Str, "an operand bundle tag")?;
                self.push_word(tag.span)?;
                self.expect(Tok::LParen, "'('")?;
                self.push_item(Item::Mark(b'('));
                if self.tok.kind != Tok::RParen {
                    loop {
                        self.item_typed_value()?;
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "')'")?;
                self.push_item(Item::Mark(b')'));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']'")?;
            self.push_item(Item::Mark(b']'));
        }
        match opcode {
            Opcode::Invoke => {
                self.expect_word("to")?;
                self.item_label()?;
                self.expect_word("unwind")?;
                self.item_label()?;
            }
            Opcode::CallBr => {
                self.expect_word("to")?;
                self.item_label()?;
                self.item_bracketed(|p| p.item_label().map(drop))?;
            }
            _ => {}
        }
        Ok(ret)
    }
}

/// The name inside a sigil: quotes removed and escapes decoded when quoted.
/// The global a reference names, from its text after the `@` (`name`, `"a b"`, `7`).
pub(crate) fn global_named(m: &Module, name: &[u8]) -> Option<GlobalId> {
    if !name.is_empty() && name.iter().all(u8::is_ascii_digit) {
        return m.global_by_number.get(&decimal(name)).copied();
    }
    m.global_by_name.get(strip_name(name).as_ref()).copied()
}

pub(crate) fn strip_name(body: &[u8]) -> Cow<'_, [u8]> {
    match body {
        [b'"', inner @ .., b'"'] => {
            if inner.contains(&b'\\') {
                Cow::Owned(unescape(inner))
            } else {
                Cow::Borrowed(inner)
            }
        }
        _ => Cow::Borrowed(body),
    }
}

/// Whether a floating-point literal denotes a value of `kind` exactly, as LLVM requires.
/// Decimal and plain `0x` literals are doubles; the `0xK/L/M/H/R` forms name their own type.
fn float_literal_fits(text: &[u8], kind: FloatKind) -> bool {
    let body = match text {
        [b'-' | b'+', rest @ ..] => rest,
        _ => text,
    };
    if let Some(hex) = body.strip_prefix(b"0x") {
        let own = match hex.first() {
            Some(b'K') => Some(FloatKind::X86Fp80),
            Some(b'L') => Some(FloatKind::Fp128),
            Some(b'M') => Some(FloatKind::PpcFp128),
            Some(b'H') => Some(FloatKind::Half),
            Some(b'R') => Some(FloatKind::BFloat),
            _ => None,
        };
        if let Some(own) = own {
            return own == kind;
        }
        let Some(bits) = std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u64::from_str_radix(h, 16).ok())
        else {
            return false;
        };
        return double_fits(f64::from_bits(bits), kind);
    }
    std::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .is_some_and(|v| double_fits(v, kind))
}

/// Whether a double converts to `kind` without losing information.
fn double_fits(v: f64, kind: FloatKind) -> bool {
    // (significand bits including the implicit one, minimum normal exponent, maximum exponent)
    let (precision, min_exp, max_exp): (u32, i32, i32) = match kind {
        FloatKind::Float => (24, -126, 127),
        FloatKind::Half => (11, -14, 15),
        FloatKind::BFloat => (8, -126, 127),
        _ => return true,
    };
    if v.is_infinite() || v == 0.0 {
        return true;
    }
    let bits = v.to_bits();
    let mantissa = bits & ((1u64 << 52) - 1);
    if v.is_nan() {
        // The payload bits that would be dropped must be zero.
        return mantissa & ((1u64 << (53 - precision)) - 1) == 0;
    }
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let (significand, exp) = if biased == 0 {
        (mantissa, -1074)
    } else {
        (mantissa | (1u64 << 52), biased - 1075)
    };
    // v = significand * 2^exp; make the significand odd.
    let shift = significand.trailing_zeros();
    let (significand, exp) = (significand >> shift, exp + shift as i32);
    let width = 64 - significand.leading_zeros();
    let top = exp + width as i32 - 1;
    width <= precision && top <= max_exp && exp >= min_exp - (precision as i32 - 1)
}

#[cfg(test)]
mod tests {
    use super::{LocalKey, decimal, strip_name};
    use crate::model::{Body, Module, TypeId, types::Type};

    /// A type as text, spaced one way, with a named type's name.
    fn show(m: &Module, body: &Body, t: TypeId) -> String {
        let list =
            |ts: &[TypeId]| -> Vec<String> { ts.iter().map(|&t| show(m, body, t)).collect() };
        match body.ty(m, t) {
            Type::Int(bits) => format!("i{bits}"),
            Type::Ptr(0) => "ptr".into(),
            Type::Array(len, elem) => format!("[{len} x {}]", show(m, body, *elem)),
            Type::Vector {
                scalable,
                len,
                elem,
            } => {
                let vscale = if *scalable { "vscale x " } else { "" };
                format!("<{vscale}{len} x {}>", show(m, body, *elem))
            }
            Type::Struct { packed, elems } => {
                let inner = format!("{{ {} }}", list(elems).join(", "));
                if *packed { format!("<{inner}>") } else { inner }
            }
            Type::Named(n) => m.types.named[*n].spelling.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn literal_types_read_again_by_their_text_are_the_same_types() {
        // Each type comes back often, spaced differently, next to types whose text differs
        // by a byte, on lines that go on after it; the last two are not remembered (a bracket
        // inside, a line break inside) and must still agree.
        let loads = [
            ("<2 x i8>", "<2 x i8>"),
            ("<2 x i16>", "<2 x i16>"),
            ("<2 x i8>", "<2 x i8>"),
            ("<vscale x 2 x i8>", "<vscale x 2 x i8>"),
            ("[4 x i8]", "[4 x i8]"),
            ("[4 x %S]", "[4 x S]"),
            ("[4 x i8]", "[4 x i8]"),
            ("[40 x i8]", "[40 x i8]"),
            ("{ i32, i64 }", "{ i32, i64 }"),
            ("{i32,i64}", "{ i32, i64 }"),
            ("{ i32, %S }", "{ i32, S }"),
            ("{ i32, i64 }", "{ i32, i64 }"),
            ("<{ i32, i64 }>", "<{ i32, i64 }>"),
            ("<2 x\n  i8>", "<2 x i8>"),
        ];
        let mut text = String::from("%S = type { i8 }\n\ndefine void @f(ptr %p) {\n");
        for round in 0..3 {
            for (i, (ty, _)) in loads.iter().enumerate() {
                text.push_str(&format!("  %v{round}.{i} = load {ty}, ptr %p, align 1\n"));
            }
        }
        text.push_str("  ret void\n}\n");
        let m = crate::read::parse(text).unwrap();
        let f = m.function_of(m.lookup("@f").unwrap()).unwrap();
        let body = m.body(f).unwrap();
        let shown: Vec<String> = body
            .insts
            .values()
            .filter(|inst| inst.result.is_some())
            .map(|inst| show(&m, &body, inst.ty))
            .collect();
        let expected: Vec<&str> = (0..3).flat_map(|_| loads.iter().map(|(_, e)| *e)).collect();
        assert_eq!(shown, expected);
        // One type, one id, however it was read.
        let id_of = |k: usize| body.insts.values().nth(k).unwrap().ty;
        assert_eq!(id_of(0), id_of(2));
        assert_eq!(id_of(0), id_of(13));
        assert_eq!(id_of(8), id_of(9));
        assert_eq!(id_of(0), id_of(loads.len() * 2));
    }

    #[test]
    fn decimals_saturate_and_reject_what_is_not_a_number() {
        let cases: [(&[u8], u32); 8] = [
            (b"0", 0),
            (b"123", 123),
            (b"999999999", 999_999_999),
            (b"4294967295", u32::MAX),
            (b"99999999999999999999999", u32::MAX),
            (b"+5", 5),
            (b"12a", u32::MAX),
            (b"", u32::MAX),
        ];
        for (text, n) in cases {
            assert_eq!(decimal(text), n, "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(decimal(b"4294967294"), 4_294_967_294);
    }

    #[test]
    fn local_names_are_equal_keys_exactly_when_equal() {
        // Every name of up to 18 bytes over two letters: short names (two words and a
        // length) and long ones (their bytes) must tell all of them apart.
        let mut names: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=18 {
            let step = if len > 12 { 977 } else { 1 };
            for bits in (0..1u32 << len.min(14)).step_by(step) {
                names.push(
                    (0..len)
                        .map(|i| b'a' + (bits >> (i % 14) & 1) as u8)
                        .collect(),
                );
            }
        }
        let keys: std::collections::HashSet<LocalKey> = names
            .iter()
            .map(|n| LocalKey::name(std::borrow::Cow::Borrowed(n)))
            .collect();
        assert_eq!(keys.len(), names.len());
        // A name written with escapes is the name it stands for, short or long.
        for (quoted, plain) in [
            (&br#""a\62c""#[..], &b"abc"[..]),
            (br#""fourteen\20bytes""#, b"fourteen bytes"),
            (br#""a\2Equite.long.name.i.i""#, b"a.quite.long.name.i.i"),
        ] {
            assert_eq!(
                LocalKey::name(strip_name(quoted)),
                LocalKey::name(std::borrow::Cow::Borrowed(plain))
            );
        }
    }
}
