//! Recursive-descent parser from tokens to the [`Module`] model.
//!
//! It follows the grammar of LLVM 22's `LLParser`: each function names the construct it reads,
//! in the submodule of its part of the grammar; this module holds the parser's state, the
//! arenas it fills (the module's, or a body's own), tokens and names. Names are resolved as
//! they are read; forward references (to globals, metadata, named types, locals) are recorded
//! and checked once their scope ends, so that an undefined name is an error at its first use,
//! as LLVM reports it.

use super::attributes::{self, Argument};
use super::debug_info;
use super::error::ReadError;
use super::intrinsics;
use super::lexer::{Lexer, Tok, Token, c_comment_end, unescape};
use super::verify_attributes::{self, Kinds};
use super::verify_string_attributes::{self, StringRules};
use crate::model::*;
use attribute_lists::KnownLists;
use cranelift_entity::EntityRef;
use cranelift_entity::packed_option::ReservedValue;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::hash_map::Entry;
use std::ops::Range;

mod attribute_lists;
mod functions;
mod globals;
mod instructions;
mod metadata;
mod top_level;
mod types;
mod values;

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

/// A `musttail` call: where it is written, and the value its `ret` must return (the call's
/// result, or the `bitcast` of it read since).
#[derive(Clone, Copy)]
struct MustTail {
    call: Span,
    value: Option<LocalId>,
    cast: bool,
}

/// What a local referred to before its definition stands for until it is defined (no
/// argument has this index).
pub(super) const NOT_YET_DEFINED: LocalDef = LocalDef::Arg(u32::MAX);

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
        b.global_use_list_orders.clear();
        b.debug_forms = DebugForms::default();
        b.mistyped_intrinsic_call = None;
        b.swifterror_allocas.clear();
        b.funclet_operands.clear();
        b.convergence_calls.clear();
        b.leaves_implicit = false;
        b.implied_aligns.clear();
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
    known_lists: KnownLists,
    /// What LLVM's verifier checks of a body (see `read::verify`).
    pub(in crate::read) checks: crate::read::verify::BodyChecks,
    /// The module's `!tbaa` tags this thread found valid (see `read::verify_metadata`).
    pub(in crate::read) valid_tags: crate::read::verify_metadata::ValidTags,
}

impl Scratch<'_> {
    /// Whether `body`, the body last read with these buffers, names an instruction's value
    /// before (in the text) the instruction.
    pub(crate) fn names_a_value_early(&self, body: &Body) -> bool {
        self.scope.as_deref().is_some_and(|scope| {
            let value = |&(l, _): &(LocalId, Span)| matches!(body.locals[l].def, LocalDef::Inst(_));
            scope.forward.iter().any(value)
        })
    }

    /// The local that `name` (as a reference writes it after its `%`: `x`, `"a b"`, `7`)
    /// names in the body last read with these buffers, if any.
    pub(crate) fn local_named(&self, name: &[u8]) -> Option<LocalId> {
        let scope = self.scope.as_deref()?;
        if name.first().is_some_and(u8::is_ascii_digit) {
            return scope.by_number.get(value_number(name));
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
    /// The first list of attributes LLVM's verifier refuses (see `verify_attributes`): an
    /// error once the text reads, as LLVM's parser's errors come before its verifier's.
    invalid: Option<ReadError>,
    scope: Option<Box<FnScope<'a>>>,
    /// The tables of the body just read, kept for the next one.
    spent_scope: Option<Box<FnScope<'a>>>,
    /// A `musttail` call just read in the block being read, whose next instructions LLVM's
    /// verifier checks.
    musttail: Option<MustTail>,
    /// `!N` references from text kept as spans (debug-info fields) to numbers not known yet,
    /// with the first reference: checked at the end. A number leaves when it becomes known, so
    /// this stays small however much debug information the module has.
    md_text_refs: FxHashMap<u32, Span>,
    /// Reading the fields the first phase stepped over: the module, whose nodes are known.
    fields_of: Option<&'a Module>,
    /// The comdats defined (`$c = comdat any`), by name, with their index in the module; and
    /// those named before any definition, with the first reference: LLVM refuses any left
    /// when the module ends.
    comdats_defined: FxHashMap<Cow<'a, [u8]>, usize>,
    /// The comdat after the one a global last named: clang and rustc define comdats in the
    /// order their globals name them, and comparing a name with this one's costs less than
    /// a probe of `comdats_defined`, a cache miss in a large module.
    next_comdat: usize,
    comdat_refs: FxHashMap<Cow<'a, [u8]>, Span>,
    /// The globals `dso_local_equivalent` named before their definitions, where: each must
    /// have a function type once the module ends ([`Parser::dso_local_equivalent_holds`]).
    dso_local_equivalents: Vec<(Span, GlobalId)>,
    md_fields_scratch: Vec<(Span, Span)>,
    md_ops_stack: Vec<Option<MdRef>>,
    /// The key of a quoted named type, made here (see `named_type`).
    key_buffer: Vec<u8>,
    /// By named type: what it holds by value is all defined (see `holds_by_value`).
    complete_types: Vec<bool>,
    body_end: BodyEnd,
    /// The number the next unnamed global takes, and the least a numbered one may have.
    next_global_number: u32,
    /// A `target datalayout` that says something was read: a `target triple` after it
    /// leaves the module's layout alone.
    layout_written: bool,
    /// A `target datalayout` line was read, empty or not: `mergefn opt` prints it as it is,
    /// and no layout of the triple's (`ModuleHeader::triple_layout`).
    layout_line: bool,
    /// Specialized metadata nodes whose `(...)` was stepped over while guessing body ends,
    /// from the name (`!DILocation`) to the `)`, to be read in the second phase, alongside
    /// the bodies (see [`Parser::deferred_fields_hold`]).
    deferred_fields: Vec<Span>,
    /// The top level's `uselistorder` directives whose counts are checked once every body is
    /// read.
    use_list_checks: Vec<UseListCheck>,
    /// How far the top level has been read, told to the thread that maps the text in ahead
    /// of it and gives it back behind it (see `Source::read_beside`).
    progress: Option<&'a Progress<'a>>,
    /// Attribute lists read before, by their text.
    known_lists: KnownLists,
    /// The types of the arguments of the call being read (calls do not nest).
    call_argument_types: Vec<TypeId>,
    /// Headers' parameter lists read before, by their text (see `functions::KnownParams`).
    known_params: FxHashMap<Box<[u8]>, Vec<functions::KnownParams>>,
    /// How many types, constants and metadata nodes the one being read is inside (see
    /// [`Parser::nested`]).
    nesting: u32,
    /// How many metadata operands the value being read is inside (see
    /// [`Parser::metadata_value`]).
    metadata_values: u32,
    /// The top level's `blockaddress` constants (a body keeps its own).
    block_addresses: Vec<BlockAddressRef>,
    /// The uses of `llvm.*` names read outside metadata and not checked yet, each with where
    /// it was read: LLVM 22's verifier lets an intrinsic only be called
    /// ([`Parser::intrinsic_uses_hold`]).
    intrinsic_uses: Vec<(UseId, IntrinsicUseContext)>,
    intrinsic_use_context: IntrinsicUseContext,
}

/// Where a value naming an intrinsic is read, as far as LLVM's checks that an intrinsic is
/// only called tell places apart.
#[derive(Clone, Copy, Default)]
struct IntrinsicUseContext {
    /// An operand of a `"clang.arc.attachedcall"` bundle, which names the function the
    /// runtime calls on the result: no use that takes an address.
    attached_call_bundle: bool,
    /// An operand of a call of an assume-like intrinsic (`llvm.assume`, `llvm.dbg.*`...),
    /// which `Function::hasAddressTaken` passes over.
    assume_like_call: bool,
}

/// LLVM's words when an intrinsic is used other than as a callee: at the declaration, which
/// LLVM's verifier meets first when it comes first in the module
/// (`Function::hasAddressTaken`), or at the instruction (`Verifier::visitInstruction`).
pub(crate) const INTRINSIC_USER_INVALID: &str = "Invalid user of intrinsic instruction!";
const INTRINSIC_ADDRESS_TAKEN: &str = "Cannot take the address of an intrinsic!";

/// How deep types, constants and metadata nodes may nest in one another. Each level is a
/// call of the parser (and of the stages after it), a frame on a thread's stack: without a
/// limit, a text of nested brackets would overflow it and end the process. No compiler writes
/// anything near this (LLVM has no limit, and opt-22 itself overflows its stack at 20,000
/// nested constant expressions); the frames of this many levels fit in 2 MiB, the stack of
/// the threads that read bodies.
const MAX_NESTING: u32 = 1000;

/// What the first phase reads: the module's top level, what it leaves to the second phase,
/// and its first error.
pub(crate) struct TopLevel {
    pub module: Module,
    pub deferred_fields: Vec<Span>,
    pub use_list_checks: Vec<UseListCheck>,
    pub block_addresses: Vec<BlockAddressRef>,
    pub error: Option<ReadError>,
    /// The first header whose attributes LLVM's verifier refuses (see `verify_attributes`).
    pub invalid: Option<ReadError>,
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
static CLOSING_LINE: std::sync::LazyLock<search::Pair> =
    std::sync::LazyLock::new(|| search::Pair::new(*b"\n}"));

/// The bytes that matter when stepping over a body: braces, string quotes, comment starts
/// (`;`, and `/` of `/*`).
const SKIM_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'"' as usize] = true;
    t[b';' as usize] = true;
    t[b'/' as usize] = true;
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
        let hits = equal(word, b'{')
            | equal(word, b'}')
            | equal(word, b'"')
            | equal(word, b';')
            | equal(word, b'/');
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
/// records those uses in order) or hold a comment (any `@`, `%`, `;` or `/*`, even in a string), or
/// run to the end: such fields are read at once. A node is a hundred bytes or so with a few
/// parentheses and strings, so this jumps between those with `memchr3`: on debug information
/// that is 11 M instructions fewer than `skim_body`'s eight-bytes-at-a-time search, which must
/// also stop at comments.
fn skim_md_fields(src: &[u8], open: usize) -> Option<usize> {
    let end = balanced_parenthesis_end(src, open)?;
    let fields = &src[open..end];
    let c_comment = fields.windows(2).any(|pair| pair == b"/*");
    (search::memchr3(b'@', b'%', b';', fields).is_none() && !c_comment).then_some(end)
}

/// Just past the `)` that balances the `(` at `open`, stepping over strings (jumping between
/// parentheses and quotes with `memchr3`); `None` when the text ends first.
fn balanced_parenthesis_end(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0u32;
    let mut i = open;
    loop {
        i += search::memchr3(b'(', b')', b'"', src.get(i..)?)?;
        match src[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => i += 1 + search::memchr(b'"', &src[i + 1..])?,
        }
        i += 1;
    }
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
    ReadError::undefined(src, number, format!("use of undefined metadata '{text}'"))
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

/// An unsigned number as LLVM reads one where it takes a number: decimal ([`unsigned`]), or
/// hexadecimal written `u0x1F`; `None` for a signed `s0x` one or one past 64 bits.
pub(in crate::read) fn unsigned_literal(text: &[u8]) -> Option<u64> {
    match text.strip_prefix(b"u0x") {
        Some(hex) => u64::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok(),
        None => unsigned(text),
    }
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

/// LLVM's error for an intrinsic never declared that is not called.
pub(crate) const NOT_A_CALLEE: &str = "intrinsic can only be used as callee";

/// Whether a global not declared anywhere is an intrinsic LLVM declares itself when called.
fn is_implicit_intrinsic(kind: Tok, body: &[u8]) -> bool {
    kind == Tok::GlobalName && is_intrinsic_name(&strip_name(body))
}

/// Whether the global token `t`, whose text is `text` (with its `@`), names an intrinsic:
/// told by its first bytes, as most globals are not intrinsics.
fn names_intrinsic(t: Token, text: &[u8]) -> bool {
    let quoted = |rest: &[u8]| rest.starts_with(b"llvm.") || rest.starts_with(b"\\");
    t.kind == Tok::GlobalName
        && (text.starts_with(b"@llvm.")
            || text.strip_prefix(b"@\"").is_some_and(quoted)
                && is_implicit_intrinsic(t.kind, &text[1..]))
}

/// A decimal number, saturated to `u32::MAX` (callers check the range they allow).
pub(crate) fn decimal(digits: &[u8]) -> u32 {
    decimal_u32(digits).unwrap_or(u32::MAX)
}

/// A decimal number that fits in `u32`.
pub(crate) fn decimal_u32(digits: &[u8]) -> Option<u32> {
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

/// The number LLVM's lexer makes of the digits of a value's, a label's, a global's or an
/// attribute group's number (`%N`, `N:`, `@N`, `#N`: `LexUIntID`): in 64 bits, 0 where
/// `atoull` sees the sum fall (its test of overflow), then cut to 32 bits. Past 32 bits it is a
/// lexer error that LLVM reports only if the module fails otherwise: it reads the number cut.
pub(crate) fn value_number(digits: &[u8]) -> u32 {
    decimal_u32(digits).unwrap_or_else(|| {
        let mut n = 0u64;
        for &d in digits {
            let before = n;
            n = n
                .wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')));
            if n < before {
                return 0;
            }
        }
        n as u32
    })
}

#[cold]
fn decimal_checked(digits: &[u8]) -> Option<u32> {
    unsigned(digits).and_then(|n| u32::try_from(n).ok())
}

/// The types the parser reads: the module's, and in a body the body's own beside them.
impl intrinsics::TypeView for Parser<'_> {
    fn get(&self, id: TypeId) -> &Type {
        self.ty(id)
    }

    fn resolve(&self, id: TypeId) -> TypeId {
        self.resolve_ty(id)
    }
}

impl<'a> Parser<'a> {
    /// The name a global written at `span` has (`@f`, `@"a b"`): without its `@` and quotes.
    fn global_name_at(&self, span: Span) -> Cow<'a, [u8]> {
        strip_name(&self.src[span.range()][1..])
    }

    /// A parser of `src`, which need not be UTF-8 (the top level of a mapped file is read
    /// while the file is checked to be, see `Source::map_reading`).
    pub fn new(src: &'a [u8]) -> Parser<'a> {
        let mut lex = Lexer::new(src);
        let tok = lex.next();
        Parser {
            src,
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
                semantic_interposition: false,
                intrinsic_immediates: Vec::new(),
                convergent_functions: Vec::new(),
                nodes_reached: Default::default(),
                patches: Vec::new(),
                retargeted_to: None,
                appended: String::new(),
                aliases_added: String::new(),
                next_appended_metadata: None,
                use_list_orders: Vec::new(),
                block_address_uses: Vec::new(),
                summary_entries: Vec::new(),
                labels_end: u32::MAX,
                amdgpu: false,
                coff: false,
                header: Default::default(),
            },
            body_mode: None,
            invalid: None,
            scope: None,
            spent_scope: None,
            musttail: None,
            md_text_refs: FxHashMap::default(),
            fields_of: None,
            comdats_defined: FxHashMap::default(),
            next_comdat: 0,
            comdat_refs: FxHashMap::default(),
            dso_local_equivalents: Vec::new(),
            md_fields_scratch: Vec::new(),
            md_ops_stack: Vec::new(),
            key_buffer: Vec::new(),
            complete_types: Vec::new(),
            deferred_fields: Vec::new(),
            use_list_checks: Vec::new(),
            progress: None,
            body_end: BodyEnd::BalancedBrace,
            next_global_number: 0,
            layout_written: false,
            layout_line: false,
            known_lists: KnownLists::default(),
            call_argument_types: Vec::new(),
            known_params: FxHashMap::default(),
            nesting: 0,
            metadata_values: 0,
            block_addresses: Vec::new(),
            intrinsic_uses: Vec::new(),
            intrinsic_use_context: IntrinsicUseContext::default(),
        }
    }

    /// `read` one level deeper in types, constants or metadata; an error past
    /// [`MAX_NESTING`] levels.
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.nesting == MAX_NESTING {
            let message = format!("nesting deeper than {MAX_NESTING} levels");
            return Err(self.err_at(self.tok.span, message));
        }
        self.nesting += 1;
        let read = read(self);
        self.nesting -= 1;
        read
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
    /// The module the names resolve in: the one being read, or, reading a body, the top
    /// level's.
    fn names_module(&self) -> &Module {
        self.body_mode.as_ref().map_or(&self.m, |bm| bm.base)
    }

    fn body_ty(&self, id: TypeId) -> &Type {
        // Most types are not named: found once.
        match self.ty(id) {
            Type::Named(_) => self.ty(self.resolve_ty(id)),
            ty => ty,
        }
    }

    /// Whether `ty` is a pointer (not a vector of them).
    fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.body_ty(ty), Type::Ptr(_))
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
        let n = self.md_number(t)?;
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

    /// The use `u` recorded: the module's, or in body mode the body's own.
    fn recorded_use(&mut self, u: UseId) -> Option<&mut GlobalUse> {
        match &mut self.body_mode {
            None => Some(&mut self.m.uses[u]),
            Some(bm) => u
                .index()
                .checked_sub(bm.first_use as usize)
                .and_then(|i| bm.uses.get_mut(i)),
        }
    }

    fn set_use_role(&mut self, u: UseId, role: UseRole) {
        if let Some(use_) = self.recorded_use(u) {
            use_.role = role;
        }
    }

    /// `v`, read where a value is an operand of its own (not inside a constant): if it names
    /// a global, that use is [`GlobalUse::direct`].
    fn note_direct_use(&mut self, v: Value) -> Value {
        if let ValueKind::Global(u) = v.kind()
            && let Some(use_) = self.recorded_use(u)
        {
            use_.direct = true;
        }
        v
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

    /// A name used at `span` and never defined ([`ReadError::Undefined`]).
    fn undefined_at(&self, span: Span, message: impl Into<String>) -> ReadError {
        ReadError::undefined(self.src, span, message)
    }

    fn err(&self, expected: &str) -> ReadError {
        if self.tok.kind == Tok::Invalid && super::lexer::is_nul_name(self.text(self.tok)) {
            return self.err_at(self.tok.span, "NUL character is not allowed in names");
        }
        if self.tok.kind == Tok::Invalid {
            let text = self.text(self.tok);
            let lexer_error = match text.starts_with(b"/*") {
                true => Some("unterminated comment"),
                false => super::lexer::hex_float_too_large(text),
            };
            if let Some(message) = lexer_error {
                return self.err_at(self.tok.span, message);
            }
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

    /// An unsigned number, the current token: decimal, or hexadecimal written `u0x1F`, as
    /// LLVM takes either where it reads a number.
    fn expect_u64(&mut self, what: &str) -> PResult<u64> {
        let signed_hex = self.tok.kind == Tok::HexInt && self.text(self.tok)[0] == b's';
        if !matches!(self.tok.kind, Tok::Int | Tok::HexInt) || signed_hex {
            return Err(self.err(what));
        }
        let t = self.bump();
        unsigned_literal(self.text(t))
            .ok_or_else(|| self.err_at(t.span, format!("{what} out of range")))
    }

    /// An alignment in bytes, the current token, as LLVM takes one: a power of two, at most
    /// 2^32. A fault is reported `at` the number, or at the `(` before it when there is one.
    #[inline]
    fn expect_alignment(&mut self, paren: Option<Span>) -> PResult<u64> {
        if self.tok.kind == Tok::HexInt {
            let t = self.bump();
            return self.alignment_fault(t.span, paren.unwrap_or(t.span));
        }
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
        let a = unsigned_literal(&self.src[number.range()])
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

    /// Skip a parenthesized group whose opening `(` is the current token, recording the global
    /// and metadata names it mentions (a local name there is a type's: `range(%t 0, 5)`).
    /// Returns the span from `(` to `)`.
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
                Tok::GlobalName | Tok::GlobalNum => {
                    self.global_use(t, UseRole::Operand, GlobalUse::UNTYPED)?;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// The number of a metadata node, `!N` (LLVM's parser reads its digits as a 32-bit integer).
    fn md_number(&self, t: Token) -> PResult<u32> {
        let mut digits = &self.text(t)[1..];
        // Only `! 16` has space after its sigil.
        if !digits.first().is_some_and(u8::is_ascii_digit) {
            digits = digits.trim_ascii_start();
        }
        decimal_u32(digits).ok_or_else(|| {
            let at = t.span.end - digits.len() as u32;
            self.err_at(
                Span::new(at as usize, t.span.end as usize),
                "expected 32-bit integer (too large)",
            )
        })
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
                        bm.undefined =
                            Some(ReadError::undefined(src, t.span, "use of undefined value"));
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
                direct: false,
                dropped: false,
            });
            self.note_intrinsic_use(t, u);
            return Ok(u);
        }
        let body = &self.text(t)[1..];
        let name = if t.kind == Tok::GlobalNum {
            Err(value_number(body))
        } else {
            Ok(strip_name(body))
        };
        let g = self.global_entry(name, t.span);
        let u = self.top_level_use(g, t.span, role, addr_space);
        self.note_intrinsic_use(t, u);
        Ok(u)
    }

    /// Keeps `u`, the use `t` writes, for [`Parser::intrinsic_uses_hold`] if it names an
    /// intrinsic outside metadata (which names a value without using it, to LLVM).
    fn note_intrinsic_use(&mut self, t: Token, u: UseId) {
        if self.metadata_values == 0 && names_intrinsic(t, &self.src[t.span.range()]) {
            self.intrinsic_uses.push((u, self.intrinsic_use_context));
        }
    }

    /// LLVM 22's verifier lets an intrinsic (a function named `llvm.*`) only be called: a use
    /// of one kept by [`Parser::note_intrinsic_use`] that is no callee, once its role is known
    /// (after an instruction's operands, after the top level), is refused. A
    /// `"clang.arc.attachedcall"` bundle may name one.
    fn intrinsic_uses_hold(&mut self) {
        let mut uses = std::mem::take(&mut self.intrinsic_uses);
        for (u, context) in uses.drain(..) {
            if let Some((at, message)) = self.intrinsic_use_refused(u, context) {
                self.rule_broken(at, message);
            }
        }
        self.intrinsic_uses = uses;
    }

    fn intrinsic_use_refused(
        &mut self,
        u: UseId,
        context: IntrinsicUseContext,
    ) -> Option<(Span, &'static str)> {
        let use_ = *self.recorded_use(u)?;
        if use_.role != UseRole::Operand || context.attached_call_bundle {
            return None;
        }
        // One never declared is LLVM's parser's error, not its verifier's
        // (`read::implicit_intrinsic`); a variable named `llvm.*` is no intrinsic.
        let GlobalKind::Function(f) = self.names_module().globals.get(use_.global)?.kind else {
            return None;
        };
        let name = self.global_name_at(use_.span);
        let func = &self.names_module().functions[f];
        let declared_first =
            self.declaration_met_first(func.span.start, use_.span, &name, func.fn_ty);
        // An instruction's own operand is checked at the instruction, and at the declaration
        // when that is met first; a use inside a constant, or outside a body, at the
        // declaration alone, which lets a call of an assume-like intrinsic use it (through a
        // cast; the cast is not told apart here, so any such use is let be).
        let at_instruction = use_.direct && use_.in_function.is_some();
        let message = match at_instruction {
            false if context.assume_like_call => return None,
            false => INTRINSIC_USER_INVALID,
            true if declared_first && !context.assume_like_call => INTRINSIC_USER_INVALID,
            true => INTRINSIC_ADDRESS_TAKEN,
        };
        Some((use_.span, message))
    }

    /// Whether LLVM's verifier meets the declaration of intrinsic `name` at `fn_ty`, written
    /// at `declared_at`, before a use of it at `used`: it visits functions in module order,
    /// and a declaration LLVM renames as it reads it moves to the module's end.
    fn declaration_met_first(
        &self,
        declared_at: u32,
        used: Span,
        name: &[u8],
        fn_ty: TypeId,
    ) -> bool {
        declared_at < used.start && !intrinsics::is_renamed(self, name, fn_ty)
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
            direct: false,
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
            (Tok::GlobalNum, _) => Err(value_number(body)),
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

    /// The attributes of the body being read.
    fn body_attrs(&self) -> &[Attr] {
        let scope = self.scope.as_deref();
        &scope
            .expect("attributes are read inside a function")
            .body
            .attrs
    }

    /// The verifier's checks of one parameter's or (with `result`) a result's attribute list,
    /// `attrs` with bits `kinds`, on a value of type `ty` (see `verify_attributes`).
    #[inline]
    fn attribute_list_holds(
        &self,
        attrs: &[Attr],
        kinds: Kinds,
        result: bool,
        ty: TypeId,
    ) -> Result<(), verify_attributes::Broken> {
        let facts = || verify_attributes::TypeFacts::of(ty, &|t| self.ty(t), &|t| self.body_ty(t));
        verify_attributes::list_holds(self.src, attrs, kinds, result, facts)
    }

    /// Record that LLVM's verifier refuses the body at `at`: the first such place is the
    /// error, once the body reads.
    fn rule_broken(&mut self, at: Span, message: &str) {
        if self.invalid.is_none() {
            self.invalid = Some(ReadError::invalid(self.src, at, message));
        }
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
            return self.used_with_another_type(t, l, had, ty);
        }
        Ok(l)
    }

    /// Out of the way of the reading, which it would slow down (the messages' strings).
    #[cold]
    #[inline(never)]
    fn used_with_another_type(
        &self,
        t: Token,
        l: LocalId,
        had: TypeId,
        ty: TypeId,
    ) -> PResult<LocalId> {
        // A named type other than a struct is another name of its definition.
        if self.types_llvm_equates(had, ty) {
            return Ok(l);
        }
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
        Err(self.err_at(t.span, message))
    }

    /// Give the local just defined at `at` its type, which a reference before may have given
    /// it already.
    #[inline]
    fn local_defined_as(&mut self, l: LocalId, ty: TypeId, at: Span) -> PResult<()> {
        let had = std::mem::replace(self.scope().local_type(l), ty);
        if had == TypeId::reserved_value() || had == ty {
            return Ok(());
        }
        self.defined_with_another_type(l, had, ty, at)
    }

    #[cold]
    #[inline(never)]
    fn defined_with_another_type(
        &self,
        l: LocalId,
        had: TypeId,
        ty: TypeId,
        at: Span,
    ) -> PResult<()> {
        // A named type other than a struct is another name of its definition.
        if self.types_llvm_equates(had, ty) {
            return Ok(());
        }
        let what = match self.scope.as_ref().map(|s| s.body.locals[l].def) {
            Some(LocalDef::Block(_)) => "block",
            _ => "instruction",
        };
        let message = format!(
            "{what} forward referenced with type '{}'",
            self.type_text(had)
        );
        Err(self.err_at(at, message))
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
            Tok::LocalNum => LocalKey::Number(value_number(&text[1..])),
            Tok::LabelNum => LocalKey::Number(value_number(&text[..text.len() - 1])),
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
            // LLVM prints every number but the entry block's.
            if !matches!(def, LocalDef::Block(b) if b.index() == 0) {
                scope.body.leaves_implicit = true;
            }
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
            } else if n > next {
                // LLVM prints its own numbers, which leave no gaps.
                scope.body.leaves_implicit = true;
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
}

/// The name inside a sigil: quotes removed and escapes decoded when quoted.
/// The global a reference names, from its text after the `@` (`name`, `"a b"`, `7`).
pub(crate) fn global_named(m: &Module, name: &[u8]) -> Option<GlobalId> {
    if !name.is_empty() && name.iter().all(u8::is_ascii_digit) {
        return m.global_by_number.get(&value_number(name)).copied();
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
        let Some(bits) = double_hex_bits(hex) else {
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

    /// Lists of attributes found again by their text (`KnownLists`) read as written there:
    /// each attribute's span lies in its own header or body, and lists that begin alike but
    /// go on otherwise (more attributes, another argument, a value after) read as theirs.
    #[test]
    fn attribute_lists_found_by_their_text_read_as_written() {
        let lists = [
            "noundef nonnull align 8 dereferenceable(16)",
            "noundef nonnull",
            "noundef nonnull align 4 dereferenceable(16)",
            "nonnull noundef",
            "noundef nonnull align 8 dereferenceable(16)",
            "noundef nonnull",
        ];
        let mut text = String::from("declare void @g(ptr)\n");
        for (i, list) in lists.iter().enumerate() {
            text.push_str(&format!(
                "define void @f{i}(ptr {list} %p) {{\n  call void @g(ptr {list} %p)\n  \
                 call void @g(ptr noundef nonnull null)\n  ret void\n}}\n"
            ));
        }
        let m = crate::read::parse(text).unwrap();
        let texts = |attrs: &[crate::model::Attr], within: crate::model::Span| -> String {
            let words: Vec<&str> = attrs
                .iter()
                .map(|a| match a.kind() {
                    crate::model::AttrKind::Text(s) => {
                        assert!(within.start <= s.start && s.end <= within.end);
                        std::str::from_utf8(m.bytes(s)).unwrap()
                    }
                    _ => panic!("a text attribute"),
                })
                .collect();
            words.join(" ")
        };
        for (i, list) in lists.iter().enumerate() {
            let f = m.function_of(m.lookup(&format!("@f{i}")).unwrap()).unwrap();
            let func = &m.functions[f];
            let header = m.attr_list(func.params[0].attrs);
            assert_eq!(texts(header, func.header_span), *list);
            let body = m.body(f).unwrap();
            let read: Vec<String> = body
                .attr_lists
                .iter()
                .filter(|&&(from, to)| from < to)
                .map(|&(from, to)| texts(&body.attrs[from as usize..to as usize], body.span))
                .collect();
            assert_eq!(read, [*list, "noundef nonnull"]);
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
