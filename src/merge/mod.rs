//! merge: the single-module pass, stage by stage: eligible functions → fingerprints →
//! classes → decisions → redirections, then the texts of the folded members.
//!
//! Calls between functions, and the addresses of functions whose every use a fold moves, are
//! settled by partition refinement in one round ([`HoleRule`]). A round is repeated only when
//! it replaced a function's address inside another mergeable function (an `unnamed_addr`
//! member's every use), because that can make two more functions equal where the address was
//! no hole (a function's own, an ODR member's moved to its class's private body).

use crate::decide::{self, ClassPlan, Redirect};
use crate::fingerprint::{self, Context, Droppable, Fingerprint, Reference, TraceMark};
use crate::model::*;
use crate::partition::{Candidate, partition};
use crate::read::{BodyWork, Scratch, Visit};
use crate::rewrite::{DebugInfo, alias_text, kept_entry, thunk_text};
use crate::write::global_name;
use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::{EntityRef, SecondaryMap};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::hash::{Hash, Hasher};
#[cfg(test)]
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

pub use crate::decide::Options;

/// What happened to a function of a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Its body is the one kept.
    Survivor,
    /// Removed: every use now refers to the kept body.
    Deleted,
    /// Replaced by an alias of the kept body.
    Alias,
    /// Replaced by a thunk that calls the kept body.
    Thunk,
    /// Kept as it was (no thunk or alias was possible); its direct callers may call the kept
    /// body.
    Kept,
}

#[derive(Clone, Debug)]
pub struct MemberReport {
    pub name: String,
    pub fate: Fate,
    /// Instructions in its body before the merge.
    pub instructions: usize,
}

#[derive(Clone, Debug)]
pub struct ClassReport {
    /// The function whose body is kept, under the name it has after the merge.
    pub body: String,
    /// Every member's fate; with a survivor that is interposable or ODR, the survivor's name is
    /// a member too (its body moved to `body`).
    pub members: Vec<MemberReport>,
    /// Instructions removed minus the instructions of the thunks written.
    pub instructions_saved: isize,
}

/// What a merge did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Defined functions in the module.
    pub functions: usize,
    /// Functions that took part (§1).
    pub eligible: usize,
    /// Rounds of fingerprinting and partitioning.
    pub rounds: usize,
    pub classes: Vec<ClassReport>,
    /// Functions whose body is gone: deleted, alias or thunk.
    pub folded: usize,
    pub deleted: usize,
    pub aliases: usize,
    pub thunks: usize,
    pub instructions_saved: isize,
    /// Metadata attachments of loads and stores dropped from kept bodies, where the members
    /// of their class differed (see [`fingerprint::Droppable`]).
    pub attachments_dropped: usize,
}

// The reports are serialized by hand rather than by serde's derive macro: a crate with a
// procedural macro cannot be built where the C library is linked in statically, as the binary
// is (see ARCHITECTURE.md). Fields go out in declaration order, under their own names.

impl Fate {
    /// The fate's name in a report.
    pub fn name(self) -> &'static str {
        match self {
            Fate::Survivor => "survivor",
            Fate::Deleted => "deleted",
            Fate::Alias => "alias",
            Fate::Thunk => "thunk",
            Fate::Kept => "kept",
        }
    }
}

impl Serialize for Fate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// `Serialize` for a report struct: the fields listed, in order, under their own names. The
/// pattern that takes `self` apart names every field, so a field added to the struct and not
/// here does not compile.
macro_rules! serialize_fields {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let $ty { $($field),* } = self;
                let mut st = s.serialize_struct(stringify!($ty), [$(stringify!($field)),*].len())?;
                $(st.serialize_field(stringify!($field), $field)?;)*
                st.end()
            }
        }
    };
}

serialize_fields!(MemberReport {
    name,
    fate,
    instructions
});
serialize_fields!(ClassReport {
    body,
    members,
    instructions_saved
});
serialize_fields!(Report {
    functions,
    eligible,
    rounds,
    classes,
    folded,
    deleted,
    aliases,
    thunks,
    instructions_saved,
    attachments_dropped,
});

impl Report {
    /// The names of the functions whose own body is gone, sorted.
    pub fn folded_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .classes
            .iter()
            .flat_map(|c| &c.members)
            .filter(|m| matches!(m.fate, Fate::Deleted | Fate::Alias | Fate::Thunk))
            .map(|m| m.name.clone())
            .collect();
        names.sort();
        names
    }
}

/// A member whose text is written once every round is done.
struct Pending {
    /// The name folded.
    name: GlobalId,
    /// The function whose header the name had.
    header: FuncId,
    /// The name's linkage and visibility before the merge, where its header no longer has
    /// them (a survivor's body made private loses them, while its name keeps them); boxed, as
    /// few members have it and a merge may hold tens of thousands ([`Pending::link`]).
    moved_link: Option<Box<Linkable>>,
    /// The body it is folded into (possibly folded itself in a later round).
    target: FuncId,
    /// The member's own text is replaced; otherwise (a survivor's name whose body moved to a
    /// private function) the thunk or alias is appended.
    in_place: bool,
    class: u32,
    /// Where LLVM would write its text among the others' ([`llvm_fold_order`]).
    order: FoldOrder,
    fate: Option<Fate>,
    thunk_instructions: u32,
}

impl Pending {
    /// The name's linkage and visibility before the merge.
    fn link<'m>(&'m self, m: &'m Module) -> &'m Linkable {
        self.moved_link
            .as_deref()
            .unwrap_or(&m.functions[self.header].link)
    }
}

/// A member's place in the order LLVM folds in: the round of re-examination (ours, then
/// LLVM's within ours), the place in LLVM's order of insertion of the function whose
/// insertion folded it, and which of the two texts that insertion writes comes first.
type FoldOrder = (u32, u32, u32, u8);

/// Why a function does not take part in merging, if it does not (§1).
pub fn ineligibility(m: &Module, f: FuncId) -> Option<&'static str> {
    Eligibility::of(m).ineligibility(m, f)
}

/// What eligibility asks of the module beyond a function's own text, found once: asked of
/// each function, the lookups and scans took rocksdb-O0 a millisecond before its first round.
struct Eligibility {
    /// Whether any block address is taken: only then can a function's be taken elsewhere.
    block_addresses: bool,
    /// `llvm.localescape`, if declared.
    escape: Option<GlobalId>,
    /// The nodes of `!nvvm.annotations`.
    annotations: Vec<Span>,
}

impl Eligibility {
    fn of(m: &Module) -> Eligibility {
        Eligibility {
            block_addresses: !m.block_address_uses.is_empty(),
            escape: m.lookup("llvm.localescape"),
            annotations: m
                .named_metadata
                .iter()
                .filter(|named| m.bytes(named.name) == b"!nvvm.annotations")
                .flat_map(|named| named.nodes.iter().map(|&n| m.metadata[n].span))
                .collect(),
        }
    }

    fn ineligibility(&self, m: &Module, f: FuncId) -> Option<&'static str> {
        let func = &m.functions[f];
        let body = match &func.body {
            None => return Some("§1: a declaration"),
            Some(b) => b,
        };
        if func.deleted || func.rewritten {
            return Some("already rewritten");
        }
        if let Some(reason) = ineligibility_by_own_text(func, body) {
            return Some(reason);
        }
        let own = func.global;
        let pinned = self.block_addresses
            && m.uses_of(own).any(|u| {
                let use_ = &m.uses[u];
                use_.role == UseRole::Operand
                    && use_.in_function.expand() != Some(f)
                    && is_blockaddress_use(m, u)
            });
        if pinned {
            return Some("its block addresses are taken outside its body, so its blocks must stay");
        }
        if self.named_in_nvvm_annotations(m, func.global) {
            return Some(
                "it is named in !nvvm.annotations, which LLVM 22 turns into its calling convention \
                 (a kernel) and attributes as it reads the module, so it is kept apart",
            );
        }
        if self.frame_is_recovered(m, f) {
            return Some(
                "it escapes its frame (llvm.localescape) and its address is taken, as \
                 llvm.localrecover takes it, so its body must stay",
            );
        }
        None
    }

    /// Whether `f` calls `llvm.localescape` and its address is taken: the functions that
    /// recover its frame (`llvm.localrecover(ptr @f, ...)`, Windows exception filters) read it
    /// through `@f`'s own escape table, which a thunk has not (LLVM 22 folds it all the same
    /// and writes IR its verifier refuses).
    fn frame_is_recovered(&self, m: &Module, f: FuncId) -> bool {
        let Some(escape) = self.escape else {
            return false;
        };
        m.uses_of(escape)
            .any(|u| m.uses[u].in_function.expand() == Some(f))
            && m.uses_of(m.functions[f].global)
                .any(|u| m.uses[u].role == UseRole::Operand)
    }

    /// Whether `g` is named in a node of `!nvvm.annotations` (`!{ptr @k, !"kernel", i32 1}`):
    /// LLVM 22 makes such a function a `ptx_kernel` and its launch bounds attributes as it
    /// reads the module, so two of them equal as written may differ there, and a kernel may be
    /// no thunk's callee.
    fn named_in_nvvm_annotations(&self, m: &Module, g: GlobalId) -> bool {
        !self.annotations.is_empty()
            && m.uses_of(g).any(|u| {
                let at = m.uses[u].span;
                self.annotations.iter().any(|node| node.covers(at))
            })
    }
}

/// What keeps a definition out whatever the rest of the module holds (part of §1).
fn ineligibility_by_own_text(func: &Function, body: &BodyInfo) -> Option<&'static str> {
    if func.link.linkage == Linkage::AvailableExternally {
        return Some("§1: available_externally");
    }
    if body.passes_distinct_metadata {
        return Some("§1: passes a distinct metadata node to an intrinsic");
    }
    None
}

fn is_blockaddress_use(m: &Module, u: UseId) -> bool {
    let start = m.uses[u].span.start;
    m.block_address_uses.binary_search(&start).is_ok()
}

/// Functions named in `llvm.used` or `llvm.compiler.used`: their symbol has uses LLVM cannot
/// see, so their address must stay.
fn used_functions(m: &Module) -> SecondaryMap<FuncId, bool> {
    let mut used = SecondaryMap::new();
    for var in m.variables.values() {
        let is_used_list = matches!(
            &m.globals[var.global].name,
            GlobalName::Named(n) if &**n == b"llvm.used" || &**n == b"llvm.compiler.used"
        );
        if !is_used_list {
            continue;
        }
        for u in m.uses.values() {
            if var.span.covers(u.span)
                && u.role != UseRole::Definition
                && let Some(f) = m.function_of(u.global)
            {
                used[f] = true;
            }
        }
    }
    used
}

/// Which functions take part (§1).
pub fn eligible_functions(m: &Module) -> SecondaryMap<FuncId, bool> {
    let facts = Eligibility::of(m);
    let mut eligible = SecondaryMap::with_capacity(m.functions.len());
    for f in m.functions.keys() {
        eligible[f] = facts.ineligibility(m, f).is_none();
    }
    eligible
}

fn instructions(m: &Module, f: FuncId) -> usize {
    m.functions[f].body.as_ref().map_or(0, |b| b.insts as usize)
}

/// Whether direct calls of `g` are holes: it is a defined function that cannot be
/// interposed, so calling it equals calling any function of its class. Whether it takes part
/// is not asked (that is known only once every body is read, and bodies are encoded as they
/// are read): the hole of a function that takes no part names a class of its own, which
/// compares as its name would.
pub fn is_hole(m: &Module, g: GlobalId) -> bool {
    m.function_of(g).is_some_and(|f| {
        let func = &m.functions[f];
        func.body.is_some() && !m.is_interposable(f)
    })
}

/// Which references to other functions are holes, compared by the class of the function they
/// name (§7). A direct call, of a function [`is_hole`] says. An address (any other operand),
/// unless `-mergefunc-preserve-debug-info` keeps every member, of a defined function that is
/// neither interposable nor ODR, `unnamed_addr` and not in `llvm.used`: whichever member of
/// its class keeps the body, folding moves every use of the others to it
/// ([`decide::decide`]: such a member ranks before the interposable and ODR ones, so its
/// class keeps its body in place), and afterwards two references to members of the class name
/// one function. LLVM gets there by a round of re-examination per fold: a chain of functions
/// each taking the address of the one before took mergefn a round a link too (3,000 rounds).
/// A function's own address outside calls stays an ordinary global (§3, the encoder's rule).
#[derive(Clone)]
pub struct HoleRule {
    used: Arc<SecondaryMap<FuncId, bool>>,
    addresses: bool,
}

impl HoleRule {
    pub fn new(m: &Module, opts: &Options) -> HoleRule {
        HoleRule {
            used: Arc::new(used_functions(m)),
            addresses: takes_addresses(opts),
        }
    }

    /// Whether this is the rule of a merge with `opts` (the functions in `llvm.used` are the
    /// same in any module of the text it was made for).
    fn serves(&self, opts: &Options) -> bool {
        self.addresses == takes_addresses(opts)
    }

    /// Whether `reference` to `g` in `m` is a hole.
    pub fn is_hole(&self, m: &Module, g: GlobalId, reference: Reference) -> bool {
        match reference {
            Reference::Call => is_hole(m, g),
            Reference::Address => {
                self.addresses
                    && m.function_of(g).is_some_and(|f| {
                        let func = &m.functions[f];
                        func.body.is_some()
                            && !m.is_interposable(f)
                            && !func.link.linkage.is_odr()
                            && func.link.unnamed_addr == UnnamedAddr::Global
                            && !self.used[f]
                    })
            }
        }
    }

    /// The rule as an encoding [`Context`] takes it, for `m` as it is now.
    pub fn for_module<'m>(
        &self,
        m: &'m Module,
    ) -> Box<dyn Fn(GlobalId, Reference) -> bool + Send + Sync + 'm> {
        let rule = self.clone();
        Box::new(move |g, reference| rule.is_hole(m, g, reference))
    }

    /// Whether `f` is named in `llvm.used` or `llvm.compiler.used`.
    fn is_used(&self, f: FuncId) -> bool {
        self.used[f]
    }
}

/// Whether addresses are holes in a merge with `opts`: not when every member is kept.
fn takes_addresses(opts: &Options) -> bool {
    !opts.preserve_debug_info
}

/// Encodings made as a module's bodies are first read, so that merging reads again only
/// those it could not make then. Of the functions that share a shape and a header, the first
/// one read is left to be read again and the others are encoded: memory goes only to
/// functions that another one may equal. The first is encoded too when a guess made from the
/// text before any body is read says another function will share its key
/// (`body_profile`), so that it need not be read again.
///
/// The threads reading bodies share what they make without waiting for each other: each
/// function's encoding has its slot, and the keys met and the encodings made are in shards,
/// each under its own lock. Under one lock, a thread waited while the other looked an
/// encoding up or grew a table (stlprog-O0: 3% of the samples taken in merging were in the
/// lock; merge 53.8 -> 52.0 ms, 51 alternated runs; harfbuzz-O0's peak 30.9 -> 30.4 MiB).
pub struct FirstReadEncodings {
    /// What is made before any body is read.
    head: Mutex<Head>,
    /// The shapes and header keys met, sharded by key.
    seen: [Shard<FxHashSet<(u64, u64)>>; SHARDS],
    /// Each encoding made once, with its number, sharded by hash.
    encodings: [Shard<FxHashMap<Prehashed, u32>>; SHARDS],
    /// The digests of the long encodings met, sharded by hash (see [`LONG_ENCODING`]).
    long_met: [Shard<FxHashSet<Digest>>; SHARDS],
    /// The bytes of long encodings met for the first time that may be kept whole:
    /// [`LONG_BUDGET`], but in tests.
    long_budget: usize,
    /// The bytes of long encodings met for the first time kept whole so far.
    long_budget_used: AtomicUsize,
    /// The number the next new encoding takes.
    next_number: AtomicU32,
    /// The kinds and node encodings of the attachments set aside, each held once: a
    /// function's droppables share theirs already, and most functions tag their loads and
    /// stores with the same few nodes.
    droppable_texts: Mutex<FxHashSet<Arc<[u8]>>>,
    /// The options of the merge the encodings are for: they say which references are holes.
    opts: Options,
}

/// As many shards as make two threads, or a few, seldom meet in one.
const SHARDS: usize = 4;

/// A lock alone on its line of the cache, so that threads taking different ones do not
/// contend for the line.
#[derive(Default)]
#[repr(align(128))]
struct Shard<T>(Mutex<T>);

impl<T> Shard<T> {
    fn lock(&self) -> MutexGuard<'_, T> {
        locked(&self.0)
    }
}

/// What [`FirstReadEncodings`] makes before any body is read.
#[derive(Default)]
struct Head {
    /// Where the text read lies in memory and its length.
    text: (usize, usize),
    /// The rule the encodings' holes follow.
    holes: Option<HoleRule>,
    guesses: Arc<Guesses>,
    prints: Arc<Prints>,
    tables: Option<Arc<fingerprint::Tables>>,
}

/// Every definition's header key, and whether another definition is guessed to share its
/// shape too, made before the bodies are read ([`tables_and_guesses`]).
type Guesses = SecondaryMap<FuncId, Option<(u64, bool)>>;

/// The functions' encodings made as they were read, by function: each is set once, by the
/// thread that read it, without a lock.
type Prints = Vec<OnceLock<StoredPrint>>;

/// What the first reading made, as merging takes it.
#[derive(Default)]
struct FirstRead {
    /// Where the text read lies in memory and its length.
    text: (usize, usize),
    /// The rule the encodings' holes follow, which merging takes when it serves its options.
    holes: Option<HoleRule>,
    guesses: Guesses,
    /// Each encoding made once, with its number (most functions encoded equal another), in
    /// the shards they were made in: gathered into one, they would take a table again.
    encodings: Vec<FxHashMap<Prehashed, u32>>,
    prints: Prints,
    /// The encoding context's tables, made as the module was read or by the first round,
    /// kept for the rounds after (see [`FirstRead::forget_encodings`]).
    tables: Option<Arc<fingerprint::Tables>>,
}

/// An encoding longer than this may be kept as its [`Digest`] until merging. Long bodies that
/// share a shape mostly differ (zstd's block compressors, one per match length: at -O0, 109
/// distinct encodings over 16 KiB, 7.7 MB, none equal to another), and keeping them all
/// doubled the memory a module took to merge. One is kept whole all the same when its digest
/// was met before (another body is likely equal: kept once, it costs little), or while the
/// long encodings kept whole take less than [`LONG_BUDGET`]: a digest that another member of
/// its group shares means reading both bodies again, to compare them byte for byte. Bodies
/// read again: stlprog-O0 84 -> 15 (most of 14-21 KiB), stlprog-O2 46 -> 0, harfbuzz-O0
/// 64 -> 31; stlprog-O0 merge 57.1 -> 54.0 ms, stlprog-O2 20.7 -> 19.3 ms (21 alternated
/// runs); harfbuzz-O0's peak 30.3 -> 31.0 MiB.
const LONG_ENCODING: usize = 4096;

/// The bytes of long encodings met for the first time that are kept whole (see
/// [`LONG_ENCODING`]).
const LONG_BUDGET: usize = 512 << 10;

/// What tells encodings apart without their bytes: unequal digests, unequal encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Digest {
    hash: u64,
    len: usize,
}

impl Digest {
    fn of(bytes: &[u8]) -> Digest {
        let mut h = rustc_hash::FxHasher::default();
        h.write(bytes);
        Digest {
            hash: h.finish(),
            len: bytes.len(),
        }
    }
}

/// How an encoding made as the module was read is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// Its number in [`FirstRead::encodings`].
    Number(u32),
    /// Its digest alone (a long one): the body is read again should another encoding of its
    /// group have the same digest.
    Digest(Digest),
}

/// An encoding with its hash, computed before the lock is taken: under the lock, and each
/// time the table grows, only the hash is hashed again. Equal hashes are then told apart by
/// the bytes. (Keeping the encodings cost jsonprog-O0's bodies 2.3 ms more to read when the
/// table hashed whole encodings under the lock, about 0.5 ms now.)
struct Prehashed {
    hash: u64,
    bytes: Vec<u8>,
}

impl Prehashed {
    fn new(bytes: Vec<u8>) -> Prehashed {
        Prehashed {
            hash: Digest::of(&bytes).hash,
            bytes,
        }
    }

    fn digest(&self) -> Digest {
        Digest {
            hash: self.hash,
            len: self.bytes.len(),
        }
    }
}

impl Hash for Prehashed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq for Prehashed {
    fn eq(&self, other: &Prehashed) -> bool {
        self.hash == other.hash && self.bytes == other.bytes
    }
}

impl Eq for Prehashed {}

/// A function's encoding made as it was read: how its bytes are kept, its holes and the
/// attachments it set aside.
type FirstPrint = (Kept, Vec<GlobalId>, Vec<Droppable>);

/// A [`FirstPrint`] as kept until merging: the holes and the attachments set aside are boxed
/// apart, and only when there are some (a module of many small functions keeps tens of
/// thousands of prints, most with neither).
struct StoredPrint {
    kept: Kept,
    lists: Option<Box<PrintLists>>,
}

/// A print's holes and attachments set aside.
type PrintLists = (Box<[GlobalId]>, Box<[Droppable]>);

impl StoredPrint {
    fn new((kept, holes, droppable): FirstPrint) -> StoredPrint {
        let lists = (!holes.is_empty() || !droppable.is_empty())
            .then(|| Box::new((holes.into_boxed_slice(), droppable.into_boxed_slice())));
        StoredPrint { kept, lists }
    }

    fn into_first_print(self) -> FirstPrint {
        let (holes, droppable) = self.lists.map_or_else(Default::default, |lists| *lists);
        (self.kept, holes.into_vec(), droppable.into_vec())
    }
}

/// A function of a group that may be equal, with its encoding if made as it was read (as kept
/// until merging: a [`FirstPrint`] takes twice the room, and a group holds its members until
/// they are encoded).
type Member = (FuncId, Option<StoredPrint>);

/// A member as its group is numbered: how its encoding is kept, its bytes once made, its
/// holes and the attachments it set aside.
type GroupMember = (FuncId, Kept, Option<Vec<u8>>, Vec<GlobalId>, Vec<Droppable>);

/// Lock `lock`. A thread that panicked while holding one left nothing half made: an encoding
/// without the function that named it at worst, which no function then names.
fn locked<T>(lock: &Mutex<T>) -> MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What `lock` holds, whatever a thread that held it did (see [`locked`]).
fn into_inner<T>(lock: Mutex<T>) -> T {
    lock.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// The shard of a hash (its middle bits: the tables within a shard use the low and the top
/// ones).
fn shard(hash: u64) -> usize {
    (hash >> 32) as usize % SHARDS
}

impl FirstRead {
    /// Forget the encodings made as the module was read, which the first edit may make
    /// wrong. The tables and the header keys stay: folds change no header, attribute group
    /// or type, and the tables find each encoding by what decides it.
    fn forget_encodings(&mut self) {
        self.encodings = Vec::new();
        self.prints = Prints::new();
    }

    /// `f`'s encoding made as it was read, if it was.
    fn take_print(&mut self, f: FuncId) -> Option<StoredPrint> {
        self.prints.get_mut(f.index())?.take()
    }

    /// The encodings made, by their numbers.
    fn take_encodings(&mut self) -> Vec<Vec<u8>> {
        let mut by_number = vec![Vec::new(); self.encodings.iter().map(|e| e.len()).sum()];
        for (encoding, n) in self.encodings.drain(..).flatten() {
            by_number[n as usize] = encoding.bytes;
        }
        by_number
    }
}

impl Default for FirstReadEncodings {
    /// The encodings for a merge with LLVM's default options.
    fn default() -> FirstReadEncodings {
        FirstReadEncodings::for_options(&Options::default())
    }
}

impl FirstReadEncodings {
    /// The encodings for a merge with `opts`.
    pub fn for_options(opts: &Options) -> FirstReadEncodings {
        FirstReadEncodings::with_long_budget(LONG_BUDGET, opts)
    }

    /// Keeping whole at most `long_budget` bytes of long encodings met for the first time
    /// (see [`LONG_ENCODING`]).
    fn with_long_budget(long_budget: usize, opts: &Options) -> FirstReadEncodings {
        FirstReadEncodings {
            opts: *opts,
            head: Mutex::default(),
            seen: Default::default(),
            encodings: Default::default(),
            long_met: Default::default(),
            long_budget,
            long_budget_used: AtomicUsize::new(0),
            next_number: AtomicU32::new(0),
            droppable_texts: Mutex::default(),
        }
    }

    /// Whether `encoding` is kept whole rather than as its digest (see [`LONG_ENCODING`]).
    fn keeps_whole(&self, encoding: &Prehashed) -> bool {
        let len = encoding.bytes.len();
        if len <= LONG_ENCODING {
            return true;
        }
        let met = !self.long_met[shard(encoding.hash)]
            .lock()
            .insert(encoding.digest());
        met || self
            .long_budget_used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                (used + len <= self.long_budget).then_some(used + len)
            })
            .is_ok()
    }

    /// What the reading made, once it is done.
    fn into_first_read(self) -> FirstRead {
        let head = into_inner(self.head);
        FirstRead {
            text: head.text,
            holes: head.holes,
            guesses: Arc::try_unwrap(head.guesses).unwrap_or_else(|shared| (*shared).clone()),
            encodings: self
                .encodings
                .into_iter()
                .map(|s| into_inner(s.0))
                .collect(),
            // The reading is done: the visits that held the prints are gone.
            prints: Arc::try_unwrap(head.prints).unwrap_or_default(),
            tables: head.tables,
        }
    }
}

impl BodyWork for FirstReadEncodings {
    fn begin<'m>(&'m self, m: &'m Module) -> Box<Visit<'m>> {
        let holes = HoleRule::new(m, &self.opts);
        let (tables, guesses) = tables_and_guesses(m, &holes);
        let cx = Context::with_tables(m, holes.for_module(m), Arc::new(tables));
        let guesses = Arc::new(guesses);
        let prints: Arc<Prints> = Arc::new(m.functions.keys().map(|_| OnceLock::new()).collect());
        // A module read again from its start starts the work over.
        *locked(&self.head) = Head {
            text: text_identity(m),
            holes: Some(holes.clone()),
            guesses: guesses.clone(),
            prints: prints.clone(),
            tables: Some(cx.tables().clone()),
        };
        self.seen.iter().for_each(|shard| shard.lock().clear());
        self.encodings.iter().for_each(|shard| shard.lock().clear());
        self.long_met.iter().for_each(|shard| shard.lock().clear());
        self.long_budget_used.store(0, Ordering::Relaxed);
        self.next_number.store(0, Ordering::Relaxed);
        locked(&self.droppable_texts).clear();
        Box::new(move |f, body, uses, info| {
            // What cannot take part whatever the other bodies hold, and an intrinsic never
            // declared (named once every body is read), are left alone.
            let undeclared = uses.iter().any(|u| u.global.is_reserved_value());
            if undeclared || ineligibility_by_own_text(&m.functions[f], info).is_some() {
                return;
            }
            let Some((header, guessed_shared)) = guesses[f] else {
                return;
            };
            let key = (info.shape, header);
            let first = self.seen[shard(info.shape ^ header)].lock().insert(key);
            if !first || guessed_shared {
                let print = fingerprint::fingerprint_first_read(&cx, f, body, uses);
                let mut bytes = Prehashed::new(print.bytes);
                let (holes, mut droppable) = (print.holes, print.droppable);
                if !droppable.is_empty() {
                    share_droppable_texts(&mut locked(&self.droppable_texts), &mut droppable);
                }
                let kept = if self.keeps_whole(&bytes) {
                    let mut encodings = self.encodings[shard(bytes.hash)].lock();
                    Kept::Number(match encodings.get(&bytes) {
                        Some(&known) => known,
                        None => {
                            // The encoder reserves room for its longest output; what stays
                            // until merging is the encoding alone.
                            bytes.bytes.shrink_to_fit();
                            let next = self.next_number.fetch_add(1, Ordering::Relaxed);
                            encodings.insert(bytes, next);
                            next
                        }
                    })
                } else {
                    Kept::Digest(bytes.digest())
                };
                // Each function is read once.
                // Kept until merging: without the room the lists grew into.
                let _ = prints[f.index()].set(StoredPrint::new((kept, holes, droppable)));
            }
        })
    }
}

/// Points each of `droppables`' texts at the equal one of `texts`, which takes those it lacks.
/// A function's droppables share their texts, so each distinct one is looked up once.
fn share_droppable_texts(texts: &mut FxHashSet<Arc<[u8]>>, droppables: &mut [Droppable]) {
    let mut shared: FxHashMap<*const u8, Arc<[u8]>> = FxHashMap::default();
    for d in droppables {
        for text in [&mut d.kind, &mut d.md] {
            let found = shared
                .entry(text.as_ptr())
                .or_insert_with(|| match texts.get(&**text) {
                    Some(found) => found.clone(),
                    None => {
                        texts.insert(text.clone());
                        text.clone()
                    }
                });
            *text = found.clone();
        }
    }
}

/// The encoding tables, and each definition's header key with whether another definition
/// shares its guessed key: the header key with the [`body_profile`] of its text. One pass over
/// the functions makes them, in parallel when there are many, each function's text read once
/// (made one after another, the tables, the keys and the profiles took three passes, each
/// mapping the text in again: harfbuzz-O0 merge 149.5 -> 140.7 ms, 11 alternated runs).
fn tables_and_guesses(m: &Module, holes: &HoleRule) -> (fingerprint::Tables, Guesses) {
    let groups = fingerprint::Tables::of_groups(m);
    let context = || Context::with_tables(m, holes.for_module(m), Arc::new(groups.clone()));
    // Every header's lists go into the tables (call sites repeat them); a definition also
    // gets its keys.
    let each = |cx: &mut Context, behind: &mut ReleaseBehind, keys: &mut Vec<_>, f: FuncId| {
        cx.add_header_lists(f);
        let func = &m.functions[f];
        if let Some(body) = &func.body {
            let profile = body_profile(m.bytes(body.span));
            keys.push((f, (fingerprint::header_key(cx, f), profile)));
        }
        behind.read(func.span.range());
    };
    let functions: Vec<FuncId> = m.functions.keys().collect();
    let (tables, keys) = if functions.len() >= HEADERS_WORTH_THREADS {
        functions
            .par_iter()
            .with_min_len(64)
            .fold(
                || (context(), ReleaseBehind::new(&m.source), Vec::new()),
                |(mut cx, mut behind, mut keys), &f| {
                    each(&mut cx, &mut behind, &mut keys, f);
                    (cx, behind, keys)
                },
            )
            .map(|(cx, _, keys)| (cx.into_tables(), keys))
            .reduce(
                || (groups.clone(), Vec::new()),
                |(mut tables, mut keys), (more_tables, more_keys)| {
                    tables.join(more_tables);
                    keys.extend(more_keys);
                    (tables, keys)
                },
            )
    } else {
        let (mut cx, mut keys) = (context(), Vec::new());
        let mut behind = ReleaseBehind::new(&m.source);
        for f in functions {
            each(&mut cx, &mut behind, &mut keys, f);
        }
        (cx.into_tables(), keys)
    };
    // The groups' table, shared with `tables`, is numbered in place rather than copied.
    drop(groups);
    let tables = tables.numbered();
    // Some of the text read here stays mapped in until every body is read (3 MiB of
    // eigenprog-O0's): given back now, that module's peak at the end of the bodies is 2.6 MiB
    // lower.
    m.source.release(0..m.source.len());
    let mut count: FxHashMap<(u64, u64), u32> = FxHashMap::default();
    for (_, key) in &keys {
        *count.entry(*key).or_default() += 1;
    }
    let mut guesses = Guesses::with_capacity(m.functions.len());
    for (f, key) in keys {
        guesses[f] = Some((key.0, count[&key] > 1));
    }
    (tables, guesses)
}

/// `each` of `functions` (in module order), in order: in parallel when there are many, as a
/// header takes microseconds to encode. Their text is given back behind (see
/// `Source::release`): headers lie all over the text, and each maps in the pages around it.
fn per_function<T: Send>(
    m: &Module,
    functions: &[FuncId],
    each: impl Fn(FuncId) -> T + Sync,
) -> Vec<T> {
    let each = |behind: &mut ReleaseBehind, &f: &FuncId| {
        let result = each(f);
        behind.read(m.functions[f].span.range());
        result
    };
    if functions.len() >= HEADERS_WORTH_THREADS {
        functions
            .par_iter()
            .with_min_len(64)
            .map_init(|| ReleaseBehind::new(&m.source), each)
            .collect()
    } else {
        let mut behind = ReleaseBehind::new(&m.source);
        functions.iter().map(|f| each(&mut behind, f)).collect()
    }
}

/// A hash of a body's text that equal functions nearly always share, made without reading
/// it: its count of lines and of `%` (locals and named types, at each definition and use),
/// which names written otherwise leave alike. It only guesses (equal bodies
/// may hold different debug records): a wrong guess costs an encoding made for nothing or a
/// body read again.
fn body_profile(text: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for byte in [b'\n', b'%'] {
        h.write_usize(search::count(byte, text));
    }
    h.finish()
}

/// Which text a module was read from: the encodings of one text are no use for another.
fn text_identity(m: &Module) -> (usize, usize) {
    (m.source.as_ptr() as usize, m.source.len())
}

/// Below this many headers to encode, threads cost more than they save.
const HEADERS_WORTH_THREADS: usize = 256;

/// What a round's folds change that a function's encoding may see.
#[derive(Default)]
struct RoundEdits {
    /// Functions whose text changed: attachments cut from a kept body, a use retargeted (but
    /// for the calls below).
    edited: Vec<FuncId>,
    /// Kept bodies' old names, which now stand for thunks and are no longer holes.
    renamed: Vec<GlobalId>,
    /// Members whose calls now call the kept body, each a hole before and after: such a call
    /// encodes as it did, but for the hole, which names the body now.
    redirected: FxHashMap<GlobalId, GlobalId>,
}

/// What a round's encodings leave to the next: each candidate's encoding number and digest,
/// holes and attachments set aside, and which functions may encode otherwise now
/// ([`RoundEdits`]). A
/// function encodes as before unless a fold edited its text or it names a kept body's old
/// name: its text and every fact its encoding asks of another global are as they were (what
/// else folding edits in a kept body, its comdat and linkage, the encoding leaves out; the
/// members folded take no part in later rounds, and a hole naming one is the same hole), but
/// for the holes naming members whose calls were redirected. A function that may not encode
/// otherwise keeps its number, so a later round reads again only the functions a fold may have
/// changed (jsonprog-O0, two rounds: the second read 624 functions again when it read every
/// function, 4 when it read the groups a fold changed, whole; merge 26.9 -> 24.1 ms, 31
/// alternated runs), compared with the others of their groups by digest ([`encode_again`]).
struct LastRound {
    /// In module order, as the candidates are: found by binary search. A map, its table grown
    /// by doubling, took 1.8 MiB more at eigenprog-O0's second round.
    encoded: Vec<Encoded>,
    changed: SecondaryMap<FuncId, bool>,
    redirected: FxHashMap<GlobalId, GlobalId>,
}

/// How the last round's encodings serve a group now.
enum Reuse {
    /// None of its members may encode otherwise: all, numbered anew within the group.
    All(Vec<Encoded>),
    /// Those that may not, numbered anew within the group, and those to encode again.
    Some(Vec<Encoded>, Vec<FuncId>),
}

impl LastRound {
    /// The candidates folded this round take no part in the next: only the others' are kept.
    fn new(
        m: &Module,
        eligible: &SecondaryMap<FuncId, bool>,
        candidates: Vec<Candidate>,
        digests: Vec<Digest>,
        mut set_aside: Droppables,
        edits: RoundEdits,
    ) -> LastRound {
        let mut changed: SecondaryMap<FuncId, bool> = SecondaryMap::new();
        for f in edits.edited {
            changed[f] = true;
        }
        for g in edits.renamed {
            for u in m.uses_of(g) {
                if let Some(f) = m.uses[u].in_function.expand() {
                    changed[f] = true;
                }
            }
        }
        let encoded = candidates
            .into_iter()
            .zip(digests)
            .filter(|(c, _)| eligible[c.func])
            .map(|(c, digest)| Encoded {
                func: c.func,
                local: c.encoding,
                digest,
                holes: c.holes,
                droppable: set_aside.remove(&c.func).unwrap_or_default(),
            })
            .collect();
        LastRound {
            encoded,
            changed,
            redirected: edits.redirected,
        }
    }

    /// The group's members as the last round encoded them, numbered anew within the group,
    /// but for those that may encode otherwise now (a use retargeted, attachments cut) or
    /// took no part in it.
    fn reuse(&self, group: &[Member]) -> Reuse {
        let mut numbers: FxHashMap<u32, u32> = FxHashMap::default();
        let (mut kept, mut again) = (Vec::new(), Vec::new());
        for &(f, _) in group {
            let last = (self.encoded.binary_search_by_key(&f, |e| e.func).ok())
                .map(|at| &self.encoded[at]);
            let Some(last) = last.filter(|_| !self.changed[f]) else {
                again.push(f);
                continue;
            };
            let next = numbers.len() as u32;
            kept.push(Encoded {
                func: f,
                local: *numbers.entry(last.local).or_insert(next),
                digest: last.digest,
                holes: (last.holes.iter())
                    .map(|h| *self.redirected.get(h).unwrap_or(h))
                    .collect(),
                droppable: last.droppable.clone(),
            });
        }
        match again.is_empty() {
            true => Reuse::All(kept),
            false => Reuse::Some(kept, again),
        }
    }
}

/// A group some of whose members the last round's folds may have changed (`again`): those are
/// encoded again, each compared with the others kept (`kept`) by digest, and with bytes where
/// digests are equal (the encoding of the member kept made again, once), and with one another.
/// The members kept keep their numbers. A chain of functions each taking the address of the
/// one before, folded a link a round, costs a round what changed in it rather than every
/// member of the group read again (3,000 rounds of 6,000 functions: 37 s before).
fn encode_again(
    mut kept: Vec<Encoded>,
    again: Vec<FuncId>,
    encode: &mut impl FnMut(FuncId) -> Option<Fingerprint>,
) -> Vec<Encoded> {
    /// An encoding of the group: its number, and its bytes once made.
    struct Slot {
        local: u32,
        func: FuncId,
        bytes: Option<Vec<u8>>,
    }
    let mut next = kept.iter().map(|e| e.local + 1).max().unwrap_or(0);
    let mut by_digest: FxHashMap<Digest, Vec<Slot>> =
        FxHashMap::with_capacity_and_hasher(kept.len() + again.len(), Default::default());
    for e in &kept {
        let slots = by_digest.entry(e.digest).or_default();
        if !slots.iter().any(|slot| slot.local == e.local) {
            slots.push(Slot {
                local: e.local,
                func: e.func,
                bytes: None,
            });
        }
    }
    for f in again {
        let Some(fp) = encode(f) else { continue };
        let digest = Digest::of(&fp.bytes);
        let slots = by_digest.entry(digest).or_default();
        let mut local = None;
        for slot in slots.iter_mut() {
            if slot.bytes.is_none() {
                slot.bytes = encode(slot.func).map(|fp| fp.bytes);
            }
            if slot.bytes.as_ref() == Some(&fp.bytes) {
                local = Some(slot.local);
                break;
            }
        }
        let local = local.unwrap_or_else(|| {
            next += 1;
            slots.push(Slot {
                local: next - 1,
                func: f,
                bytes: Some(fp.bytes),
            });
            next - 1
        });
        kept.push(Encoded {
            func: f,
            local,
            digest,
            holes: fp.holes,
            droppable: fp.droppable,
        });
    }
    kept
}

/// The functions marked eligible that could equal another, in module order, with their
/// encoding classes and holes, and their encodings' digests. A function whose shape no other
/// eligible function has cannot equal one (see [`BodyInfo::shape`]); the others are encoded a
/// shape at a time, in
/// parallel, so only one shape's encodings are alive at once per thread. What `first_read`
/// holds (made as the module was read: encodings before any edit, the tables and header keys
/// for every round) is taken from it.
fn candidates<'m>(
    m: &'m Module,
    eligible: &SecondaryMap<FuncId, bool>,
    holes: &HoleRule,
    first_read: &mut FirstRead,
    last_round: Option<&LastRound>,
) -> (Vec<Candidate>, Vec<Digest>, Droppables) {
    let hole = holes.for_module(m);
    let tables = first_read
        .tables
        .get_or_insert_with(|| Arc::new(fingerprint::Tables::new(m)));
    let cx = Context::with_tables(m, hole, tables.clone());
    // Functions can be equal only if their bodies have one shape and their headers encode
    // alike; only those that share both with another are encoded (read again unless
    // encoded as the module was read).
    let shape = |f: FuncId| m.functions[f].body.as_ref().map_or(0, |b| b.shape);
    let mut by_shape: FxHashMap<u64, Vec<FuncId>> = FxHashMap::default();
    for f in m.functions.keys().filter(|&f| eligible[f]) {
        by_shape.entry(shape(f)).or_default().push(f);
    }
    let mut shared: Vec<FuncId> = by_shape
        .into_values()
        .filter(|g| g.len() > 1)
        .flatten()
        .collect();
    shared.sort_unstable();
    // Encoding a header takes microseconds: worth threads for C++ and Rust modules, where
    // thousands of functions share a shape (jsonprog-O0: 1522). A header whose key the first
    // reading made costs a lookup: threads are woken only when some key is missing (a module
    // of many rounds would wake them at each).
    let guesses = &first_read.guesses;
    let guessed = |f: FuncId| guesses.get(f).copied().flatten().map(|(key, _)| key);
    let key = |f: FuncId| {
        let header = guessed(f).unwrap_or_else(|| fingerprint::header_key(&cx, f));
        (shape(f), header)
    };
    let keys = match shared.iter().all(|&f| guessed(f).is_some()) {
        true => shared.iter().map(|&f| key(f)).collect(),
        false => per_function(m, &shared, key),
    };
    let first_encodings = first_read.take_encodings();
    let mut by_header: FxHashMap<(u64, u64), Vec<Member>> = FxHashMap::default();
    for (f, key) in shared.into_iter().zip(keys) {
        let print = first_read.take_print(f);
        by_header.entry(key).or_default().push((f, print));
    }
    // Groups in the order of their first member, so the result does not depend on hashing.
    let mut groups: Vec<Vec<Member>> = by_header.into_values().filter(|g| g.len() > 1).collect();
    groups.sort_unstable_by_key(|g| g[0].0);
    // Within a group: equal encodings get equal local numbers, in order of first appearance.
    let first_encodings = &first_encodings;
    // Bodies are read again all over the text, each maps in the pages around it.
    let budget = TextBudget::default();
    let encode_group = |scratch: &mut Scratch<'m>, group: Vec<Member>| {
        let mut encode = |f: FuncId| {
            let body = m.body_reusing(f, scratch).ok()?;
            budget.read(&m.source, body.span.range().len());
            let fp = fingerprint::fingerprint(&cx, f, &body);
            scratch.recycle(body);
            Some(fp)
        };
        match last_round.map(|last| last.reuse(&group)) {
            Some(Reuse::All(kept)) => return kept,
            Some(Reuse::Some(kept, again)) if !kept.is_empty() => {
                return encode_again(kept, again, &mut encode);
            }
            _ => {}
        }
        let mut members: Vec<GroupMember> = Vec::with_capacity(group.len());
        for (f, print) in group {
            match print.map(StoredPrint::into_first_print) {
                Some((kept, holes, droppable)) => members.push((f, kept, None, holes, droppable)),
                None => {
                    let Some(fp) = encode(f) else { continue };
                    let kept = Kept::Digest(Digest::of(&fp.bytes));
                    members.push((f, kept, Some(fp.bytes), fp.holes, fp.droppable));
                }
            }
        }
        // A long encoding kept as a digest that another member's shares is made again, to be
        // compared byte for byte; one whose digest is its own equals no other member.
        let mut digests: FxHashMap<Digest, u32> = FxHashMap::default();
        for (_, kept, _, _, _) in &members {
            if let Kept::Digest(d) = kept {
                *digests.entry(*d).or_default() += 1;
            }
        }
        // The members kept whole count too: a long encoding is, once its digest was met.
        if !digests.is_empty() {
            let lengths: FxHashSet<usize> = digests.keys().map(|d| d.len).collect();
            for (_, kept, _, _, _) in &members {
                let Kept::Number(n) = kept else { continue };
                let whole = &first_encodings[*n as usize];
                if lengths.contains(&whole.len())
                    && let Some(count) = digests.get_mut(&Digest::of(whole))
                {
                    *count += 1;
                }
            }
        }
        for (f, kept, bytes, _, _) in &mut members {
            if bytes.is_none() && matches!(kept, Kept::Digest(d) if digests[d] > 1) {
                *bytes = encode(*f).map(|fp| fp.bytes);
            }
        }
        // Encodings kept by number are equal exactly when their numbers are (the first
        // reading keeps each distinct one once), so their bytes need no hashing (spvc-O0:
        // finding the candidates 8.1 -> 7.4 ms, medians of 11 runs); one made here is
        // compared with those kept of its length, then with the others made here.
        let mut kept_by_length: FxHashMap<usize, Vec<u32>> = FxHashMap::default();
        if members
            .iter()
            .any(|(_, kept, bytes, _, _)| matches!(kept, Kept::Digest(_)) && bytes.is_some())
        {
            for (_, kept, _, _, _) in &members {
                if let Kept::Number(n) = kept {
                    let len = first_encodings[*n as usize].len();
                    kept_by_length.entry(len).or_default().push(*n);
                }
            }
            kept_by_length.values_mut().for_each(|numbers| {
                numbers.sort_unstable();
                numbers.dedup();
            });
        }
        let mut seen: FxHashMap<Identity, u32> = FxHashMap::default();
        let mut next = 0u32;
        let mut number = || {
            next += 1;
            next - 1
        };
        let locals: Vec<u32> = members
            .iter()
            .map(|(_, kept, bytes, _, _)| {
                match identity(*kept, bytes, &kept_by_length, first_encodings) {
                    Some(id) => *seen.entry(id).or_insert_with(&mut number),
                    None => number(),
                }
            })
            .collect();
        // The digests a later round compares encodings made again with.
        let mut kept_digests: FxHashMap<u32, Digest> = FxHashMap::default();
        members
            .into_iter()
            .zip(locals)
            .map(|((func, kept, _, holes, droppable), local)| Encoded {
                func,
                local,
                digest: match kept {
                    Kept::Number(n) => *kept_digests
                        .entry(n)
                        .or_insert_with(|| Digest::of(&first_encodings[n as usize])),
                    Kept::Digest(d) => d,
                },
                holes,
                droppable,
            })
            .collect::<Vec<Encoded>>()
    };
    let encoded: Vec<Vec<Encoded>> = if !crate::read::worth_threads(
        crate::read::body_text(m, groups.iter().flatten().map(|(f, _)| f)),
        groups.len(),
    ) {
        let mut scratch = Scratch::default();
        groups
            .into_iter()
            .map(|g| encode_group(&mut scratch, g))
            .collect()
    } else {
        groups
            .into_par_iter()
            .map_init(Scratch::default, encode_group)
            .collect()
    };
    // What the bodies read again left mapped in is given back: folding the classes reads no
    // more text, and what writing reads it gives back behind it.
    budget.give_back(&m.source);
    // Number the encodings across groups (different shapes never share an encoding).
    let count = encoded.iter().map(Vec::len).sum();
    let (mut result, mut digests) = (Vec::with_capacity(count), Vec::with_capacity(count));
    let mut set_aside = Droppables::default();
    let mut base = 0u32;
    for group in encoded {
        let classes = group.iter().map(|e| e.local + 1).max().unwrap_or(0);
        for e in group {
            if !e.droppable.is_empty() {
                set_aside.insert(e.func, e.droppable);
            }
            result.push(Candidate {
                func: e.func,
                encoding: base + e.local,
                holes: e.holes,
            });
            digests.push(e.digest);
        }
        base += classes;
    }
    in_function_order(&mut result, &mut digests);
    (result, digests, set_aside)
}

/// Sorts the candidates by function, and their digests with them, in place: sorted as pairs
/// and then taken apart, both were copied once more at the peak of a round (eigenprog-O0:
/// 15,000 candidates, 0.7 MB).
fn in_function_order(candidates: &mut [Candidate], digests: &mut [Digest]) {
    let mut order: Vec<u32> = (0..candidates.len() as u32).collect();
    order.sort_unstable_by_key(|&i| candidates[i as usize].func);
    // Place `k` takes what was at `order[k]`: each cycle of the permutation is followed once,
    // the places it fills marked done.
    for start in 0..order.len() {
        let mut place = start;
        loop {
            let from = order[place] as usize;
            order[place] = place as u32;
            if from == start || from == place {
                break;
            }
            candidates.swap(place, from);
            digests.swap(place, from);
            place = from;
        }
    }
}

/// Which encoding a member of a group has, told apart without hashing what the first reading
/// kept.
#[derive(PartialEq, Eq, Hash)]
enum Identity<'a> {
    /// One the first reading kept: its number.
    Kept(u32),
    /// One made since, which none kept equals: its bytes.
    Made(&'a [u8]),
}

/// The identity of a member's encoding, kept as `kept` (and made again: `bytes`), among those
/// of its group kept by number (`kept_by_length`); `None` for one whose digest is its own,
/// which equals no other member.
fn identity<'a>(
    kept: Kept,
    bytes: &'a Option<Vec<u8>>,
    kept_by_length: &FxHashMap<usize, Vec<u32>>,
    first_encodings: &[Vec<u8>],
) -> Option<Identity<'a>> {
    match (kept, bytes) {
        (Kept::Number(n), _) => Some(Identity::Kept(n)),
        (Kept::Digest(_), Some(bytes)) => Some(
            kept_by_length
                .get(&bytes.len())
                .and_then(|numbers| {
                    numbers
                        .iter()
                        .find(|&&n| first_encodings[n as usize] == *bytes)
                })
                .map_or(Identity::Made(bytes), |&n| Identity::Kept(n)),
        ),
        (Kept::Digest(_), None) => None,
    }
}

/// What a function's encoding left aside, by function (those with any).
type Droppables = FxHashMap<FuncId, Vec<Droppable>>;

/// A function of a group encoded: its number within the group (across groups, once
/// numbered, the candidate's), its encoding's digest, holes, attachments set aside.
struct Encoded {
    func: FuncId,
    local: u32,
    digest: Digest,
    holes: Vec<GlobalId>,
    droppable: Vec<Droppable>,
}

/// Merge the identical functions of a module; the module's text follows (see [`crate::write`]).
pub fn merge(m: &mut Module, opts: &Options) -> Report {
    merge_first_read(m, opts, FirstReadEncodings::default()).report(m)
}

/// [`merge`] a module read with `encodings` as its [`BodyWork`] and not edited since: the
/// bodies encoded as they were read are not read again. Encodings made from another module
/// (another text) are not used. The report is made apart ([`Merged::report`]).
pub fn merge_first_read(m: &mut Module, opts: &Options, encodings: FirstReadEncodings) -> Merged {
    merge_rounds(m, opts, encodings, Later::ReuseEncodings)
}

/// A merge done, its report not made yet. Naming each member of each class takes a large
/// module milliseconds (rocksdb-O0's 10,627 folds: 3.7 ms, 2% of its merge): a caller makes
/// the report while the module is written, on another thread, or not at all when nobody
/// reads it.
pub struct Merged {
    /// The counts known when the rounds end; the classes without their members.
    report: Report,
    pending: Vec<Pending>,
    folded_into: SecondaryMap<FuncId, Option<FuncId>>,
}

impl Merged {
    /// The report, from the module as this merge left it.
    pub fn report(self, m: &Module) -> Report {
        let Merged {
            mut report,
            pending,
            folded_into,
        } = self;
        summarize(m, &mut report, &pending, &folded_into);
        report
    }
}

/// How a later round encodes the functions: all of them again, or only those whose
/// encodings an edit of the rounds before may have changed ([`LastRound`]). Both give the
/// same classes; a test checks it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Later {
    ReuseEncodings,
    #[cfg(test)]
    EncodeAgain,
}

fn merge_rounds(
    m: &mut Module,
    opts: &Options,
    encodings: FirstReadEncodings,
    later: Later,
) -> Merged {
    let mut first_read = encodings.into_first_read();
    let holes = match first_read.holes.take() {
        Some(holes) if first_read.text == text_identity(m) && holes.serves(opts) => holes,
        _ => {
            first_read = FirstRead::default();
            HoleRule::new(m, opts)
        }
    };
    let mut eligible = eligible_functions(m);
    let mut report = Report {
        functions: m.definitions().count(),
        eligible: eligible.values().filter(|&&e| e).count(),
        ..Report::default()
    };
    let mut folded_into: SecondaryMap<FuncId, Option<FuncId>> = SecondaryMap::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut private_bodies = Vec::new();
    let mut dropped = Dropped::default();
    let mut last_round: Option<LastRound> = None;
    let llvm_ranks = llvm_insertion_ranks(m);
    m.give_back_free_memory();
    loop {
        report.rounds += 1;
        let (candidates, digests, set_aside) =
            candidates(m, &eligible, &holes, &mut first_read, last_round.as_ref());
        let classes = partition(m, &candidates);
        let llvm_rounds = llvm_rounds(m, &candidates, &classes);
        first_read.forget_encodings();
        let mut addresses_changed = false;
        let mut edits = RoundEdits::default();
        for (mut members, llvm_round) in classes.into_iter().zip(llvm_rounds) {
            let mut folds = llvm_fold_order(m, &members, &llvm_ranks);
            // Found by member, once each: a class may have thousands.
            folds.sort_unstable_by_key(|&(g, _)| g);
            let order = |f| {
                let (at, second) = folds
                    .binary_search_by_key(&f, |&(g, _)| g)
                    .map_or((u32::MAX, 0), |i| folds[i].1);
                (report.rounds as u32, llvm_round, at, second)
            };
            decide::rank_members(m, &mut members);
            let Some(plan) = decide::decide(m, opts, &members, &|f| holes.is_used(f)) else {
                continue;
            };
            let survivor = plan.survivor;
            let cut = reconcile_attachments(m, &plan, &set_aside, &mut dropped);
            if cut > 0 {
                edits.edited.push(survivor);
            }
            report.attachments_dropped += cut;
            let class = report.classes.len();
            report.classes.push(ClassReport {
                body: String::new(),
                members: Vec::new(),
                instructions_saved: 0,
            });
            let survivor_name = m.functions[survivor].global;
            addresses_changed |=
                apply_plan(m, &plan, class, &order, &eligible, &mut pending, &mut edits);
            if plan.private_body {
                private_bodies.push((m.functions[survivor].global, survivor_name));
                edits.renamed.push(survivor_name);
            }
            for fold in &plan.folds {
                if fold.member != survivor {
                    folded_into[fold.member] = Some(survivor);
                    eligible[fold.member] = false;
                }
            }
        }
        if !addresses_changed {
            break;
        }
        // What the round freed goes back before the next round's table is made beside the
        // round's candidates: rocksdb-O0's peak was there, 34.8 MiB, now 33.2.
        m.give_back_free_memory();
        if later == Later::ReuseEncodings {
            last_round = Some(LastRound::new(
                m, &eligible, candidates, digests, set_aside, edits,
            ));
        }
    }
    drop((first_read, last_round));
    m.give_back_free_memory();
    m.number_private_bodies(&private_bodies);
    write_folded(m, opts, &mut pending, &folded_into);
    m.give_back_free_memory();
    Merged {
        report,
        pending,
        folded_into,
    }
}

/// The attachments dropped from each kept body: its instruction and kind. A later round
/// compares what the body holds now.
type Dropped = FxHashMap<FuncId, Vec<(u32, Arc<[u8]>)>>;

/// Drop from the survivor's body each attachment it set aside that some other member of the
/// class has not, equal: every member's callers now run that body. Returns how many.
fn reconcile_attachments(
    m: &mut Module,
    plan: &ClassPlan,
    set_aside: &Droppables,
    dropped: &mut Dropped,
) -> usize {
    let survivor = plan.survivor;
    let holds = |f: FuncId| -> Vec<&Droppable> {
        let gone = dropped.get(&f);
        let set = set_aside.get(&f).map_or(&[][..], Vec::as_slice);
        set.iter()
            .filter(|d| !gone.is_some_and(|g| g.iter().any(|(i, k)| *i == d.inst && *k == d.kind)))
            .collect()
    };
    let kept = holds(survivor);
    if kept.is_empty() {
        return 0;
    }
    let others: Vec<Vec<&Droppable>> = plan
        .folds
        .iter()
        .filter(|fold| fold.member != survivor)
        .map(|fold| holds(fold.member))
        .collect();
    let drop: Vec<(u32, Arc<[u8]>)> = kept
        .into_iter()
        .filter(|d| others.iter().any(|o| !o.contains(d)))
        .map(|d| (d.inst, d.kind.clone()))
        .collect();
    if drop.is_empty() {
        return 0;
    }
    // The survivor was read whole before (it was encoded), so it reads again.
    let Ok(body) = m.body(survivor) else {
        return 0;
    };
    let mut spans = Vec::new();
    let mut ordinal = 0u32;
    for b in body.reachable_blocks() {
        for i in body.blocks[b].insts() {
            for &(kind, _) in body.attachments(i) {
                let named = drop
                    .iter()
                    .any(|(at, k)| *at == ordinal && **k == *m.bytes(kind));
                if named && let Some(text) = fingerprint::attachment_text(m, kind) {
                    spans.push(text);
                }
            }
            ordinal += 1;
        }
    }
    for &span in &spans {
        m.remove_text(span);
    }
    dropped.entry(survivor).or_default().extend(drop);
    spans.len()
}

/// Redirect the uses the plan asks for (noting in `edits` what that changes) and queue each
/// member's text; returns whether an address inside a mergeable function changed.
fn apply_plan(
    m: &mut Module,
    plan: &ClassPlan,
    class: usize,
    order: &dyn Fn(FuncId) -> FoldOrder,
    eligible: &SecondaryMap<FuncId, bool>,
    pending: &mut Vec<Pending>,
    edits: &mut RoundEdits,
) -> bool {
    let survivor = plan.survivor;
    let survivor_name = m.functions[survivor].global;
    let survivor_link = Box::new(m.functions[survivor].link.clone());
    // Whether calls of the survivor's name were holes, before the name leaves the body.
    let survivor_was_hole = is_hole(m, survivor_name);
    if plan.private_body {
        m.move_body_to_private(survivor);
    }
    let body_global = m.functions[survivor].global;
    let mut addresses_changed = false;
    for fold in &plan.folds {
        let (name, link, in_place) = if fold.member == survivor {
            (survivor_name, Some(survivor_link.clone()), false)
        } else {
            (m.functions[fold.member].global, None, true)
        };
        let own_body = in_place.then_some(fold.member);
        let moved: Vec<UseId> = m
            .uses_of(name)
            .filter(|&u| {
                let use_ = &m.uses[u];
                use_.role != UseRole::Definition
                    && (own_body.is_none() || use_.in_function.expand() != own_body)
                    && match fold.redirect {
                        Redirect::AllUses => true,
                        Redirect::DirectCalls => use_.role == UseRole::Callee,
                        Redirect::Nothing => false,
                    }
            })
            .collect();
        addresses_changed |= moved.iter().any(|&u| {
            let use_ = &m.uses[u];
            use_.role == UseRole::Operand && use_.in_function.expand().is_some_and(|f| eligible[f])
        });
        // A call of a hole that stays a hole, outside the kept body (where it would become a
        // call of itself), encodes as it did.
        let was_hole = match fold.member == survivor {
            true => survivor_was_hole,
            false => is_hole(m, name),
        };
        let holes_stay = was_hole && is_hole(m, body_global);
        for &u in &moved {
            let use_ = &m.uses[u];
            let Some(f) = use_.in_function.expand() else {
                continue;
            };
            if holes_stay && use_.role == UseRole::Callee && f != survivor {
                edits.redirected.insert(name, body_global);
            } else {
                edits.edited.push(f);
            }
        }
        m.retarget_uses(&moved, body_global);
        pending.push(Pending {
            name,
            header: fold.member,
            moved_link: link,
            target: survivor,
            in_place,
            class: class as u32,
            order: order(fold.member),
            fate: None,
            thunk_instructions: 0,
        });
    }
    addresses_changed
}

impl Module {
    /// Give a function's body a new private name (`<name>.merged`, numbered later when a
    /// number fits: [`Module::number_private_bodies`]), as the kept body of a class whose
    /// survivor is interposable or ODR; the old name stays with its uses and gets a thunk or
    /// alias later.
    fn move_body_to_private(&mut self, f: FuncId) {
        let old = self.functions[f].global;
        let name = GlobalName::Named(self.merged_name(old).into());
        let definition = self
            .uses_of(old)
            .find(|&u| self.uses[u].role == UseRole::Definition);
        let first_use = self.globals[old].first_use;
        let p = self.add_global(name, GlobalKind::Function(f), first_use);
        if let Some(d) = definition {
            self.retarget_uses(&[d], p);
        }
        // Out of its comdat, as LLVM leaves it: the callers redirected to it need not be in
        // the comdat, and a linker that keeps another module's copy of the comdat would drop
        // a body they still call.
        self.leave_comdat(f);
        self.globals[old].kind = GlobalKind::Pending;
        self.functions[f].global = p;
        self.set_linkage(p, Linkage::Private);
    }
}

/// For each class, the round of re-examination in which LLVM would fold it: the first if its
/// members call the same functions, else one after the classes of the callees that tell them
/// apart (LLVM sees them equal only once those are folded). Partition refinement (§7) folds
/// them all in one round; this only orders their texts as LLVM's.
fn llvm_rounds(m: &Module, candidates: &[Candidate], classes: &[Vec<FuncId>]) -> Vec<u32> {
    struct Rounds<'a> {
        m: &'a Module,
        classes: &'a [Vec<FuncId>],
        /// In function order, as `candidates` makes them.
        candidates: &'a [Candidate],
        class_of: SecondaryMap<FuncId, Option<u32>>,
        /// 0: not yet known; u32::MAX: being worked out (mutually recursive classes, which
        /// LLVM never folds: any round will do).
        round: Vec<u32>,
    }
    impl Rounds<'_> {
        fn of(&mut self, i: usize) -> u32 {
            match self.round[i] {
                0 => {}
                u32::MAX => return 1,
                r => return r,
            }
            self.round[i] = u32::MAX;
            let holes = |f: FuncId| {
                let c = self.candidates.partition_point(|c| c.func < f);
                self.candidates[c].holes.as_slice()
            };
            let first = holes(self.classes[i][0]);
            let mut round = 1;
            for &f in &self.classes[i][1..] {
                for (&a, &b) in first.iter().zip(holes(f)) {
                    let callee = self.m.function_of(a).and_then(|g| self.class_of[g]);
                    if let (true, Some(c)) = (a != b, callee) {
                        round = round.max(self.of(c as usize).saturating_add(1));
                    }
                }
            }
            self.round[i] = round;
            round
        }
    }
    let mut class_of = SecondaryMap::with_capacity(m.functions.len());
    for (i, members) in classes.iter().enumerate() {
        for &f in members {
            class_of[f] = Some(i as u32);
        }
    }
    let mut rounds = Rounds {
        m,
        classes,
        candidates,
        class_of,
        round: vec![0; classes.len()],
    };
    (0..classes.len()).map(|i| rounds.of(i)).collect()
}

/// Each definition's place in the order LLVM's MergeFunctions inserts functions: by their
/// structural hashes (`BodyInfo::llvm_hash`), functions of one hash in module order.
fn llvm_insertion_ranks(m: &Module) -> SecondaryMap<FuncId, u32> {
    let hash = |f: FuncId| m.functions[f].body.as_ref().map_or(0, |b| b.llvm_hash);
    // Keys packed, the function in the low bits: a key built at each comparison cost more.
    let mut order: Vec<u128> = (m.definitions())
        .map(|f| u128::from(hash(f)) << 32 | f.index() as u128)
        .collect();
    order.sort_unstable();
    let mut ranks = SecondaryMap::new();
    for (rank, key) in order.into_iter().enumerate() {
        ranks[FuncId::new(key as u32 as usize)] = rank as u32;
    }
    ranks
}

/// The order in which LLVM folds the members of a class, as (member, (place in LLVM's order
/// of insertion, [`llvm_insertion_ranks`], of the function whose insertion folds it, which text
/// of that insertion it is)). LLVM inserts functions one by one in that order; on meeting an
/// equal one it keeps the one its order prefers (strong before interposable, external before
/// local, then by name) and folds the other. A kept interposable or ODR function first moves
/// its body to a private function, then gets its own thunk, written after the other's.
fn llvm_fold_order(
    m: &Module,
    members: &[FuncId],
    ranks: &SecondaryMap<FuncId, u32>,
) -> Vec<(FuncId, (u32, u8))> {
    #[derive(Clone, Copy)]
    enum Held {
        Function(FuncId),
        PrivateBody,
    }
    let facts = |h: Held| match h {
        Held::Function(f) => {
            let link = &m.functions[f].link;
            let name = match &m.globals[m.functions[f].global].name {
                GlobalName::Named(n) => &n[..],
                GlobalName::Numbered(_) => &[],
            };
            (m.is_interposable(f), link.linkage.is_local(), name)
        }
        Held::PrivateBody => (false, true, &[][..]),
    };
    // LLVM's `isFuncOrderCorrect`: whether `held` stays before `new`.
    let stays = |held: Held, new: Held| {
        let (a, b) = (facts(held), facts(new));
        if a.0 != b.0 {
            !a.0
        } else if a.1 != b.1 {
            !a.1
        } else {
            a.2 <= b.2
        }
    };
    let mut in_order = members.to_vec();
    in_order.sort_unstable_by_key(|&f| ranks[f]);
    let mut folds = Vec::new();
    let Some((&first, rest)) = in_order.split_first() else {
        return folds;
    };
    let mut held = Held::Function(first);
    for &new in rest {
        let at = ranks[new];
        let (kept, folded) = if stays(held, Held::Function(new)) {
            (held, Held::Function(new))
        } else {
            (Held::Function(new), held)
        };
        if let Held::Function(f) = folded {
            folds.push((f, (at, 0)));
        }
        held = match kept {
            Held::Function(k) if decide::needs_private_body(m, k) => {
                folds.push((k, (at, 1)));
                Held::PrivateBody
            }
            _ => kept,
        };
    }
    folds
}

impl Module {
    fn has_kcfi_type(&self, g: GlobalId) -> bool {
        self.function_of(g).is_some_and(|f| {
            let attachments = &self.functions[f].metadata;
            attachments
                .iter()
                .any(|(kind, _)| self.bytes(*kind) == b"!kcfi_type")
        })
    }

    /// `<name>.merged`, or `<name>.merged.N` if taken.
    fn merged_name(&self, old: GlobalId) -> Vec<u8> {
        let base = match &self.globals[old].name {
            GlobalName::Named(n) => n.to_vec(),
            GlobalName::Numbered(n) => n.to_string().into_bytes(),
        };
        let mut name = [base.as_slice(), b".merged"].concat();
        let mut n = 1;
        while self.global_by_name.contains_key(name.as_slice()) {
            n += 1;
            name = [base.as_slice(), format!(".merged.{n}").as_bytes()].concat();
        }
        name
    }

    /// Name the bodies made private by numbers, as LLVM leaves them unnamed (`@0`, `@1` in
    /// the order of the text), where a number fits: above the numbered globals before and
    /// below those after (LLVM reads them in increasing order). One that does not fit keeps
    /// its `<name>.merged`, and so does one with a `!kcfi_type` (we differ: LLVM's code
    /// generator names a function's KCFI type symbol `__cfi_<name>`, so two unnamed functions
    /// with one fail to compile: "symbol '__cfi_' is already defined"). `bodies` pairs each
    /// body with the survivor's name it took the place of, whose text is written just before
    /// it.
    fn number_private_bodies(&mut self, bodies: &[(GlobalId, GlobalId)]) {
        let at = |m: &Module, g: GlobalId| {
            m.uses_of(g)
                .map(|u| &m.uses[u])
                .find(|u| u.role == UseRole::Definition)
                .map(|u| 2 * u64::from(u.span.start))
        };
        // Numbered globals by place: twice the position, the body one after its old name.
        let mut numbered: Vec<(u64, u32)> = self
            .globals
            .iter()
            .filter_map(|(g, global)| match global.name {
                GlobalName::Numbered(n) => Some((at(self, g)?, n)),
                GlobalName::Named(_) => None,
            })
            .collect();
        let mut places = Vec::new();
        for &(body, old) in bodies {
            let Some(place) = at(self, body) else {
                continue;
            };
            if let GlobalName::Numbered(n) = self.globals[old].name {
                numbered.push((place, n));
            }
            if self.has_kcfi_type(body) {
                continue;
            }
            places.push((place + 1, body));
        }
        numbered.sort_unstable();
        places.sort_unstable();
        let (mut next, mut i) = (0u32, 0);
        for (place, body) in places {
            while let Some(&(p, n)) = numbered.get(i)
                && p < place
            {
                next = next.max(n.saturating_add(1));
                i += 1;
            }
            if numbered.get(i).is_some_and(|&(_, n)| n <= next) {
                continue;
            }
            self.rename_global_to(body, GlobalName::Numbered(next));
            next += 1;
        }
    }
}

/// The body a folded function ends up in, following folds of later rounds.
fn final_body(folded_into: &SecondaryMap<FuncId, Option<FuncId>>, mut f: FuncId) -> FuncId {
    while let Some(next) = folded_into[f] {
        f = next;
    }
    f
}

/// Whether anything but the member's own definition and body still names it.
fn is_referenced(m: &Module, p: &Pending) -> bool {
    m.uses_of(p.name).any(|u| {
        let use_ = &m.uses[u];
        use_.role != UseRole::Definition
            && !(p.in_place && use_.in_function.expand() == Some(p.header))
    })
}

/// Write the members' texts: delete those that are discardable and no longer referenced,
/// then thunks or aliases for the others. Members whose text cannot be discarded go first, as
/// replacing their bodies can leave others unreferenced. New thunks and aliases are written
/// in the order LLVM folds ([`llvm_fold_order`]): thunks after the last function, aliases before the
/// first function.
fn write_folded(
    m: &mut Module,
    opts: &Options,
    pending: &mut [Pending],
    folded_into: &SecondaryMap<FuncId, Option<FuncId>>,
) {
    let deletable =
        |m: &Module, p: &Pending| p.link(m).linkage.is_discardable() && !opts.preserve_debug_info;
    let mut added = Vec::new();
    // Members lie all over the text, each maps in the pages around it.
    let budget = TextBudget::default();
    let mut write = |m: &mut Module, p: &mut Pending| {
        write_member(m, opts, p, folded_into, &mut added);
        budget.read(&m.source, m.functions[p.header].span.range().len());
    };
    for p in pending.iter_mut() {
        if !deletable(m, p) {
            write(m, p);
        }
    }
    // A member deleted can leave others unreferenced: those its text named are looked at
    // again, rather than every member once more.
    let mut by_name: FxHashMap<GlobalId, Vec<usize>> = FxHashMap::default();
    for (i, p) in pending.iter().enumerate() {
        if p.fate.is_none() {
            by_name.entry(p.name).or_default().push(i);
        }
    }
    let mut look: Vec<usize> = (0..pending.len())
        .filter(|&i| pending[i].fate.is_none())
        .collect();
    while !look.is_empty() {
        let mut again = Vec::new();
        for i in look {
            let p = &mut pending[i];
            if p.fate.is_some() || is_referenced(m, p) {
                continue;
            }
            if p.in_place {
                let named = m.delete_function_naming(p.header);
                again.extend(named.iter().filter_map(|g| by_name.get(g)).flatten());
            }
            p.fate = Some(Fate::Deleted);
        }
        again.sort_unstable();
        again.dedup();
        look = again;
    }
    for p in pending.iter_mut().filter(|p| p.fate.is_none()) {
        write(m, p);
    }
    added.sort_by_key(|(order, _)| *order);
    for (_, text) in added {
        match text {
            Added::Alias(text) => m.add_alias_text(&text),
            Added::Thunk(text) => m.append_entity(&text),
        }
    }
}

/// A member's text, to be written where LLVM writes a new alias or function.
enum Added {
    Alias(String),
    Thunk(String),
}

fn write_member(
    m: &mut Module,
    opts: &Options,
    p: &mut Pending,
    folded_into: &SecondaryMap<FuncId, Option<FuncId>>,
    added: &mut Vec<(FoldOrder, Added)>,
) {
    let target = final_body(folded_into, p.target);
    let target_name = global_name(&m.globals[m.functions[target].global].name);
    let align = |f: FuncId| m.functions[f].extras().align().unwrap_or(1);
    let text = if decide::can_alias(m, opts, p.header) && align(p.header) <= align(target) {
        p.fate = Some(Fate::Alias);
        Added::Alias(alias_text(
            m,
            p.header,
            p.link(m),
            &m.globals[p.name].name,
            &target_name,
        ))
    } else if decide::can_thunk(m, p.header, p.target) {
        p.fate = Some(Fate::Thunk);
        let text = if opts.preserve_debug_info && p.in_place {
            let kept = kept_entry(m, p.header);
            let location = kept.location.map(|node| m.append_metadata(&node));
            let debug_info = DebugInfo {
                entry_lines: &kept.lines,
                entry_values: kept.values,
                location: location.as_deref(),
            };
            thunk_text(m, p.header, target, &target_name, Some(debug_info))
        } else {
            thunk_text(m, p.header, target, &target_name, None)
        };
        p.thunk_instructions = text.lines().filter(|l| l.starts_with("  ")).count() as u32;
        if p.in_place && opts.preserve_debug_info {
            // Built in place of the member's body, as LLVM builds it under this option.
            m.replace_function(p.header, text);
            return;
        }
        Added::Thunk(text)
    } else {
        p.fate = Some(Fate::Kept);
        return;
    };
    // A numbered name keeps its place among the numbered globals (LLVM reads them in
    // increasing order): in place of its definition, or just before the body made private.
    if let GlobalName::Numbered(_) = m.globals[p.name].name {
        let (Added::Alias(text) | Added::Thunk(text)) = text;
        if p.in_place {
            m.replace_function(p.header, text);
        } else {
            m.insert_entity_before(p.header, &text);
        }
        return;
    }
    if p.in_place {
        m.remove_replaced_function(p.header);
    }
    added.push((p.order, text));
}

fn summarize(
    m: &Module,
    report: &mut Report,
    pending: &[Pending],
    folded_into: &SecondaryMap<FuncId, Option<FuncId>>,
) {
    for p in pending {
        let fate = p.fate.unwrap_or(Fate::Kept);
        let name = global_name(&m.globals[p.name].name);
        let insts = if p.in_place {
            instructions(m, p.header)
        } else {
            0
        };
        let saved = match fate {
            Fate::Deleted | Fate::Alias => insts as isize,
            Fate::Thunk => insts as isize - p.thunk_instructions as isize,
            Fate::Kept | Fate::Survivor => 0,
        };
        let class = &mut report.classes[p.class as usize];
        class.instructions_saved += saved;
        class.members.push(MemberReport {
            name,
            fate,
            instructions: insts,
        });
        match fate {
            Fate::Deleted => report.deleted += 1,
            Fate::Alias => report.aliases += 1,
            Fate::Thunk => report.thunks += 1,
            Fate::Kept | Fate::Survivor => {}
        }
    }
    // Each class's first pending member, found in one pass: a module has thousands of both.
    let mut firsts: Vec<Option<&Pending>> = vec![None; report.classes.len()];
    for p in pending {
        firsts[p.class as usize].get_or_insert(p);
    }
    for (class, first) in report.classes.iter_mut().zip(firsts) {
        let Some(first) = first else {
            continue;
        };
        let body = final_body(folded_into, first.target);
        let body_name = global_name(&m.globals[m.functions[body].global].name);
        class.body = body_name.clone();
        let survivor = first.target;
        if first.in_place {
            class.members.insert(
                0,
                MemberReport {
                    name: global_name(&m.globals[m.functions[survivor].global].name),
                    fate: Fate::Survivor,
                    instructions: instructions(m, survivor),
                },
            );
        }
        report.instructions_saved += class.instructions_saved;
    }
    report.classes.retain(|c| !c.members.is_empty());
    report.folded = report.deleted + report.aliases + report.thunks;
}

/// Why two functions would or would not merge.
#[derive(Clone, Debug)]
pub enum Explanation {
    /// They fall in one class. They differ in this many attachments of loads and stores,
    /// which the kept body does without (see [`fingerprint::Droppable`]).
    Merge { attachments_dropped: usize },
    /// One of them does not take part.
    Ineligible {
        function: String,
        reason: &'static str,
    },
    /// Their encodings differ first here.
    Differ {
        left: Option<TraceMark>,
        right: Option<TraceMark>,
    },
    /// Their encodings are equal, but the functions they name at hole `index` (by `reference`,
    /// in the instruction at `left_at` in one and `right_at` in the other) do not merge.
    Holes {
        index: usize,
        reference: Reference,
        left: GlobalId,
        right: GlobalId,
        left_at: Span,
        right_at: Span,
    },
}

/// The most pairs of functions named [`Explainer::explain_through_holes`] compares.
const MAX_PAIRS_EXPLAINED: usize = 10_000;

/// Compare two functions as `merge` would.
pub fn explain(m: &Module, f: FuncId, g: FuncId) -> Explanation {
    Explainer::new(m).explain(f, g)
}

/// Compares functions of one module as `merge` would. What every comparison needs is made
/// once: the encoding tables at once, the module's classes when a comparison first needs
/// them (two equal encodings whose holes name other functions), so comparing many pairs costs
/// each pair's two encodings and not a merge of the whole module.
pub struct Explainer<'m> {
    m: &'m Module,
    holes: HoleRule,
    cx: Context<'m>,
    /// The class of each function that takes part.
    class_of: std::cell::OnceCell<FxHashMap<FuncId, usize>>,
}

impl<'m> Explainer<'m> {
    /// An explainer of `m`'s functions, compared as `merge` with LLVM's default options
    /// compares them (under `-mergefunc-preserve-debug-info` no address is a hole): its
    /// encoding tables are made here.
    pub fn new(m: &'m Module) -> Explainer<'m> {
        let holes = HoleRule::new(m, &Options::default());
        Explainer {
            m,
            cx: Context::new(m, holes.for_module(m)),
            holes,
            class_of: std::cell::OnceCell::new(),
        }
    }

    fn class_of(&self, f: FuncId) -> Option<usize> {
        let class_of = self.class_of.get_or_init(|| {
            let eligible = eligible_functions(self.m);
            let holes = &self.holes;
            let prints = candidates(self.m, &eligible, holes, &mut FirstRead::default(), None).0;
            let classes = partition(self.m, &prints).into_iter().enumerate();
            classes
                .flat_map(|(class, members)| members.into_iter().map(move |x| (x, class)))
                .collect()
        });
        class_of.get(&f).copied()
    }

    /// Why `f` and `g` would or would not merge.
    pub fn explain(&self, f: FuncId, g: FuncId) -> Explanation {
        self.explain_with_holes(f, g).0
    }

    /// Why `f` and `g` would or would not merge, followed through the holes (calls and
    /// addresses) that keep them apart down to a pair of functions that differ in themselves:
    /// the explanations from `f` and `g` to that pair, the shortest such chain (references
    /// can go round in circles). One explanation when `f` and `g` merge or differ in
    /// themselves.
    pub fn explain_through_holes(
        &self,
        f: FuncId,
        g: FuncId,
    ) -> Vec<(FuncId, FuncId, Explanation)> {
        // Breadth first over pairs of functions named, each pair once. Each pair found keeps
        // the pair it was found from and the holes (an `Explanation::Holes`) that led to it.
        struct Found {
            pair: (FuncId, FuncId),
            from: Option<(usize, Explanation)>,
        }
        let mut seen = FxHashSet::from_iter([(f, g)]);
        let (explanation, apart) = self.explain_with_holes(f, g);
        let mut found = vec![Found {
            pair: (f, g),
            from: None,
        }];
        // The pair the chain ends at, and why: `f` and `g` themselves unless a pair named
        // differs in itself.
        let mut end = (0, explanation);
        let mut waiting = std::collections::VecDeque::from([(0, apart)]);
        'search: while let Some((from, apart)) = waiting.pop_front() {
            for holes in apart {
                let Explanation::Holes { left, right, .. } = holes else {
                    continue;
                };
                let (Some(a), Some(b)) = (self.m.function_of(left), self.m.function_of(right))
                else {
                    continue;
                };
                if found.len() >= MAX_PAIRS_EXPLAINED || !seen.insert((a, b)) {
                    continue;
                }
                let (explanation, further) = self.explain_with_holes(a, b);
                found.push(Found {
                    pair: (a, b),
                    from: Some((from, holes)),
                });
                if matches!(
                    explanation,
                    Explanation::Differ { .. } | Explanation::Ineligible { .. }
                ) {
                    end = (found.len() - 1, explanation);
                    break 'search;
                }
                waiting.push_back((found.len() - 1, further));
            }
        }
        // From the end back to `f` and `g`: each pair told by the holes that lead on.
        let (mut at, explanation) = end;
        let mut chain = vec![(found[at].pair.0, found[at].pair.1, explanation)];
        while let Some((from, holes)) = found[at].from.take() {
            chain.push((found[from].pair.0, found[from].pair.1, holes));
            at = from;
        }
        chain.reverse();
        chain
    }

    /// [`Explainer::explain`], and each hole, in order, whose functions keep them apart (as
    /// `Explanation::Holes`, the first of them the explanation).
    fn explain_with_holes(&self, f: FuncId, g: FuncId) -> (Explanation, Vec<Explanation>) {
        let m = self.m;
        for x in [f, g] {
            if let Some(reason) = ineligibility(m, x) {
                let function = global_name(&m.globals[m.functions[x].global].name);
                return (Explanation::Ineligible { function, reason }, Vec::new());
            }
        }
        let (Ok(body_f), Ok(body_g)) = (m.body(f), m.body(g)) else {
            let function = global_name(&m.globals[m.functions[f].global].name);
            let reason = "its body cannot be read";
            return (Explanation::Ineligible { function, reason }, Vec::new());
        };
        let traced_f = fingerprint::fingerprint_traced(&self.cx, f, &body_f);
        let traced_g = fingerprint::fingerprint_traced(&self.cx, g, &body_g);
        let (pf, pg) = (&traced_f.print, &traced_g.print);
        if pf.bytes != pg.bytes {
            let at = pf
                .bytes
                .iter()
                .zip(&pg.bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(pf.bytes.len().min(pg.bytes.len()));
            let find = |t: &[TraceMark]| t.iter().rposition(|mk| mk.at <= at);
            let (left, right) = (find(&traced_f.marks), find(&traced_g.marks));
            let (left, right) = (left.zip(right))
                .and_then(|(l, r)| {
                    fingerprint::first_unequal_instructions(&traced_f, l, &traced_g, r)
                })
                .unwrap_or((
                    left.map(|l| traced_f.marks[l]),
                    right.map(|r| traced_g.marks[r]),
                ));
            return (Explanation::Differ { left, right }, Vec::new());
        }
        // The places (instruction, kind) where the two do not hold one equal attachment.
        fn at<'a>(x: &'a [Droppable], inst: u32, kind: &[u8]) -> Option<&'a [u8]> {
            x.iter()
                .find(|d| d.inst == inst && *d.kind == *kind)
                .map(|d| &*d.md)
        }
        let places: std::collections::BTreeSet<(u32, &[u8])> =
            (pf.droppable.iter().chain(&pg.droppable))
                .map(|d| (d.inst, &*d.kind))
                .collect();
        let merge = Explanation::Merge {
            attachments_dropped: places
                .into_iter()
                .filter(|&(i, k)| at(&pf.droppable, i, k) != at(&pg.droppable, i, k))
                .count(),
        };
        if pf.holes == pg.holes {
            return (merge, Vec::new());
        }
        let class = self.class_of(f);
        if class.is_some() && class == self.class_of(g) {
            return (merge, Vec::new());
        }
        let class_of = |h: GlobalId| m.function_of(h).and_then(|x| self.class_of(x));
        let named_apart = |&(_, (&a, &b)): &(usize, (&GlobalId, &GlobalId))| {
            a != b && (class_of(a).is_none() || class_of(a) != class_of(b))
        };
        let apart: Vec<Explanation> = (pf.holes.iter().zip(&pg.holes).enumerate())
            .filter(named_apart)
            .map(|(index, (&left, &right))| {
                let (left_at, reference) = traced_f.hole_spans[index];
                Explanation::Holes {
                    index,
                    reference,
                    left,
                    right,
                    left_at,
                    right_at: traced_g.hole_spans[index].0,
                }
            })
            .collect();
        match apart.first() {
            Some(first) => (first.clone(), apart),
            None => (merge, Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidates sorted by function in place carry their digests with them, whatever the
    /// permutation (cycles of every length, places already right).
    #[test]
    fn candidates_sort_with_their_digests() {
        for seed in 0..50u64 {
            let n = (seed % 17) as usize;
            // A permutation of 0..n from the seed.
            let mut funcs: Vec<u32> = (0..n as u32).collect();
            let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            for i in (1..n).rev() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                funcs.swap(i, (state >> 33) as usize % (i + 1));
            }
            let mut candidates: Vec<Candidate> = (funcs.iter())
                .map(|&f| Candidate {
                    func: FuncId::from_u32(f),
                    encoding: f * 10,
                    holes: Vec::new(),
                })
                .collect();
            let mut digests: Vec<Digest> = (funcs.iter())
                .map(|&f| Digest::of(&f.to_le_bytes()))
                .collect();
            in_function_order(&mut candidates, &mut digests);
            for (k, (c, d)) in candidates.iter().zip(&digests).enumerate() {
                assert_eq!(c.func, FuncId::from_u32(k as u32), "seed {seed}");
                assert_eq!(c.encoding, k as u32 * 10);
                assert_eq!(*d, Digest::of(&(k as u32).to_le_bytes()));
            }
        }
    }

    /// Encodings whose hashes are equal are still kept apart by their bytes.
    #[test]
    fn prehashed_encodings_with_one_hash_are_told_apart_by_their_bytes() {
        let with_hash = |hash, bytes: &[u8]| Prehashed {
            hash,
            bytes: bytes.to_vec(),
        };
        let mut table: FxHashMap<Prehashed, u32> = FxHashMap::default();
        for (n, bytes) in [&b"one"[..], b"two", b"one"].into_iter().enumerate() {
            let next = table.len() as u32;
            let got = *table.entry(with_hash(7, bytes)).or_insert(next);
            assert_eq!(got, [0, 1, 0][n]);
        }
        assert_eq!(table.len(), 2);
        assert!(Prehashed::new(b"one".to_vec()) == Prehashed::new(b"one".to_vec()));
    }

    /// Bodies that differ only in names share a profile; one more instruction or operand
    /// tells them apart.
    #[test]
    fn a_body_profile_leaves_names_out() {
        let a = b"{\n  %x = add i32 %a, 1\n  call void @f(i32 %x)\n  ret void\n}";
        let renamed = b"{\n  %0 = add i32 %arg, 1\n  call void @longer_name(i32 %0)\n  ret void\n}";
        let longer = b"{\n  %x = add i32 %a, 1\n  %y = add i32 %x, 1\n  ret void\n}";
        let other_operand = b"{\n  %x = add i32 %a, %a\n  call void @f(i32 %x)\n  ret void\n}";
        assert_eq!(body_profile(a), body_profile(renamed));
        assert_ne!(body_profile(a), body_profile(longer));
        assert_ne!(body_profile(a), body_profile(other_operand));
    }
    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/merge");

    /// Merging with the encodings made as the module was read gives what merging without
    /// them gives, on every fixture, with long encodings kept whole and, as past the budget,
    /// the first of each as its digest (`long_bodies.ll` has long encodings, two of them
    /// equal); with `-mergefunc-preserve-debug-info` too (no address is a hole), whether the
    /// encodings were made for it or for the defaults (then they are not used).
    #[test]
    fn merging_with_first_read_encodings_changes_nothing() {
        let mut merged = 0;
        for path in crate::read::ll_files(FIXTURES) {
            let text = std::fs::read_to_string(&path).unwrap();
            let preserving = Options {
                preserve_debug_info: true,
                ..Options::default()
            };
            for opts in [Options::default(), preserving] {
                let mut plain = crate::read::parse_source_with(text.clone().into(), None).unwrap();
                let expected = merge(&mut plain, &opts);
                for (long_budget, made_for) in [
                    (LONG_BUDGET, opts),
                    (0, opts),
                    (LONG_BUDGET, Options::default()),
                ] {
                    let encodings = FirstReadEncodings::with_long_budget(long_budget, &made_for);
                    let source = text.clone().into();
                    let mut m = crate::read::parse_source_with(source, Some(&encodings)).unwrap();
                    let report = merge_first_read(&mut m, &opts, encodings).report(&m);
                    let what = format!("{} (budget {long_budget}, {opts:?})", path.display());
                    assert_eq!(report.folded_names(), expected.folded_names(), "{what}");
                    let written = crate::write::to_string(&m);
                    assert_eq!(written, crate::write::to_string(&plain), "{what}");
                }
            }
            merged += 1;
        }
        assert!(merged >= 20, "only {merged} fixtures");
    }

    /// A later round that keeps the encodings of the groups no fold touched finds what one
    /// that encodes every function again finds: the same output and report, with and
    /// without aliases, on every fixture and the corpus's modules that take two rounds.
    #[test]
    fn later_rounds_reusing_encodings_change_nothing() {
        let mut paths = crate::read::ll_files(FIXTURES);
        if let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") {
            paths.push(Path::new(&corpus).join("jsonprog-O0.ll"));
        }
        let mut later_rounds = 0;
        for path in &paths {
            let text = std::fs::read_to_string(path).unwrap();
            for aliases in [false, true] {
                let opts = Options {
                    aliases,
                    ..Options::default()
                };
                let merged = |later| {
                    let encodings = FirstReadEncodings::default();
                    let source = text.clone().into();
                    let mut m = crate::read::parse_source_with(source, Some(&encodings)).unwrap();
                    let report = merge_rounds(&mut m, &opts, encodings, later).report(&m);
                    (crate::write::to_string(&m), report)
                };
                let (reusing, report) = merged(Later::ReuseEncodings);
                let (again, expected) = merged(Later::EncodeAgain);
                assert_eq!(reusing, again, "{}", path.display());
                assert_eq!(report.folded_names(), expected.folded_names());
                assert_eq!(report.rounds, expected.rounds, "{}", path.display());
                later_rounds += usize::from(report.rounds > 1);
            }
        }
        assert!(
            later_rounds >= 4,
            "only {later_rounds} merges took a later round"
        );
    }

    /// Every encoding made as a module is read equals the one made from its body read again:
    /// the merge takes one for the other. With no budget for long encodings, the first of
    /// each is kept as its digest and the later equal ones whole (`long_bodies.ll`).
    #[test]
    fn encodings_made_as_bodies_are_read_equal_those_read_again() {
        let mut paths = crate::read::ll_files(FIXTURES);
        // The corpus, when built (`bench/corpus.sh`), has thousands of functions encoded, and
        // zstd's long ones go past the budget.
        let corpus = std::env::var_os("MERGEFN_CORPUS");
        if let Some(corpus) = &corpus {
            let modules = ["jsonprog-O0.ll", "rustprog-O0.ll", "zstd-O0.ll"];
            paths.extend(modules.map(|f| Path::new(corpus).join(f)));
        }
        for long_budget in [LONG_BUDGET, 0] {
            let (mut compared, mut long_digests, mut long_whole) = (0, 0, 0);
            for path in &paths {
                let text = std::fs::read_to_string(path).unwrap();
                let opts = Options::default();
                let encodings = FirstReadEncodings::with_long_budget(long_budget, &opts);
                let m = crate::read::parse_source_with(text.into(), Some(&encodings)).unwrap();
                let mut first = encodings.into_first_read();
                let bytes = first.take_encodings();
                let cx = Context::new(&m, HoleRule::new(&m, &opts).for_module(&m));
                for f in m.functions.keys() {
                    let Some((kept, holes, droppable)) =
                        first.take_print(f).map(StoredPrint::into_first_print)
                    else {
                        continue;
                    };
                    let again = fingerprint::fingerprint(&cx, f, &m.body(f).unwrap());
                    match kept {
                        Kept::Number(n) => {
                            assert_eq!(again.bytes, bytes[n as usize], "{}", path.display());
                            long_whole += usize::from(again.bytes.len() > LONG_ENCODING);
                        }
                        Kept::Digest(d) => {
                            assert!(again.bytes.len() > LONG_ENCODING);
                            assert_eq!(Digest::of(&again.bytes), d, "{}", path.display());
                            long_digests += 1;
                        }
                    }
                    assert_eq!(again.holes, holes, "{}", path.display());
                    assert_eq!(again.droppable, droppable, "{}", path.display());
                    compared += 1;
                }
            }
            assert!(compared >= 20, "only {compared} encodings compared");
            assert!(
                long_whole > 0,
                "budget {long_budget}: no long encoding kept whole"
            );
            if long_budget == 0 || corpus.is_some() {
                assert!(long_digests > 0, "budget {long_budget}: no long digest");
            }
        }
    }
}
