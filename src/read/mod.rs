//! read: bytes → [`Module`]. The lexer turns text into tokens, the parser builds the model and
//! resolves names; any input gives a module or a located [`ReadError`], never a panic.
//!
//! Reading has two phases. The top level (types, globals, metadata, function headers) is read
//! in order, stepping over function bodies (and, when it can, over the fields of
//! debug-information nodes, read in the second phase beside the bodies). Then the bodies are
//! read, in parallel, each against the finished top level without changing it: a body's uses
//! of globals are collected and added to the module afterwards in function order, and facts
//! about it are kept ([`BodyInfo`]) while the body itself is dropped. A stage that needs a
//! body reads it again ([`Module::body`]), which cannot fail differently than it did here.

mod attributes;
mod debug_info;
mod error;
mod inline_asm;
mod intrinsics;
pub(crate) mod lexer;
pub(crate) use lexer::unescape;
mod parser;
mod pieces;
pub(crate) mod verify;
mod verify_attributes;
mod verify_debug_info;
mod verify_funclets;
mod verify_intrinsics;
mod verify_metadata;
mod verify_module;
mod verify_string_attributes;

pub use attributes::keywords as attribute_keywords;
pub use error::{Diagnostic, ReadError};
pub(crate) use intrinsics::Immediates;
pub(crate) use intrinsics::fn_attributes as intrinsic_fn_attributes;
pub(crate) use verify_metadata::NodesReached;

use crate::model::*;
use cranelift_entity::EntityRef;
use cranelift_entity::packed_option::ReservedValue;
use parser::{BodyEnd, NOT_A_CALLEE, Parser, TopLevel, UseListCheck};
pub(crate) use parser::{Scratch, decimal_u32, strip_name};
use rayon::prelude::*;
use rustc_hash::FxHasher;
use std::hash::Hasher;
use verify_intrinsics::FrameUses;

/// Read a module from its text.
pub fn parse(source: String) -> Result<Module, ReadError> {
    parse_source(Source::from(source))
}

/// What [`BodyWork::begin`] makes: called with each body read whole.
pub type Visit<'m> = dyn Fn(FuncId, &Body, &[GlobalUse], &BodyInfo) + Sync + 'm;

/// Work done on each body beside reading it the first time: merging encodes there the
/// bodies it will compare, rather than reading them again.
pub trait BodyWork: Sync {
    /// Begin on a module whose top level is read; what an earlier beginning made is dropped
    /// (reading starts over when a body's end was guessed wrong). The function returned is
    /// called, on any thread, with each definition whose body is read whole: its id, body,
    /// uses of globals in order and facts. A global value of the body names the use
    /// `uses[id - m.uses.len()]`: a body's first use takes the id after the module's.
    fn begin<'m>(&'m self, m: &'m Module) -> Box<Visit<'m>>;
}

/// Read a module from its text, owned or mapped.
pub fn parse_source(source: Source) -> Result<Module, ReadError> {
    parse_source_with(source, None)
}

/// [`parse_source`], with work done on each body as it is read.
pub fn parse_source_with(source: Source, work: Option<&dyn BodyWork>) -> Result<Module, ReadError> {
    // Every local, constant and use takes at least one byte of text, so below 1 GiB no arena
    // index outgrows a packed `Value`.
    if !crate::model::Value::fits(source.len()) {
        return Err(ReadError::TooLarge);
    }
    // Every body ends at the first line that starts with `}` in what LLVM prints, and a byte
    // search finds that line faster than stepping over the body. Should the guess be wrong
    // anywhere (a body reads to another end), or the text hold an error that a wrong guess
    // could have caused, the module is read again, stepping over each body brace by brace.
    match read_guessing_ends(source, work) {
        Ok(module) => Ok(module),
        Err(source) => read_exact(source, work),
    }
}

/// Read with body ends guessed; the text back if a guess did not hold or anything failed.
fn read_guessing_ends(source: Source, work: Option<&dyn BodyWork>) -> Result<Module, Source> {
    let top = source.read_beside(|progress| top_level_guessing_ends(source.as_bytes(), progress));
    read_bodies_guessing_ends(source, top, work)
}

/// The top level of `text`, with body ends guessed, telling `progress` how far it has read.
fn top_level_guessing_ends(text: &[u8], progress: Option<&Progress>) -> TopLevel {
    Parser::telling(text, progress).module(BodyEnd::FirstClosingLine)
}

/// [`read_guessing_ends`], once the top level is read.
fn read_bodies_guessing_ends(
    source: Source,
    top: TopLevel,
    work: Option<&dyn BodyWork>,
) -> Result<Module, Source> {
    let TopLevel {
        mut module,
        deferred_fields,
        use_list_checks,
        block_addresses,
        error,
        invalid,
    } = top;
    module.source = source;
    if error.is_some() || invalid.is_some() {
        return Err(module.source);
    }
    match read_bodies(
        &mut module,
        None,
        &deferred_fields,
        Some(&use_list_checks),
        block_addresses,
        work,
    ) {
        (None, true) => Ok(module),
        _ => Err(module.source),
    }
}

fn read_exact(source: Source, work: Option<&dyn BodyWork>) -> Result<Module, ReadError> {
    let TopLevel {
        mut module,
        use_list_checks,
        block_addresses,
        error: top_error,
        invalid: top_invalid,
        ..
    } = source.read_beside(|progress| {
        Parser::telling(source.as_bytes(), progress).module(BodyEnd::BalancedBrace)
    });
    module.source = source;
    // Bodies before a syntax error of the top level may hold an earlier error; any body may
    // hold a syntax error, which comes before a name left undefined.
    let limit = top_error
        .as_ref()
        .filter(|e| error_stage(e) == 0)
        .map(error_offset);
    // What names a later global is checked only when the whole top level was read.
    let checks = top_error.is_none().then_some(&use_list_checks[..]);
    let (body_error, _) = read_bodies(&mut module, limit, &[], checks, block_addresses, work);
    // As LLVM does: the first syntax error wins; names left undefined are reported after,
    // and what the verifier refuses last.
    let first = [top_error, body_error, top_invalid]
        .into_iter()
        .flatten()
        .min_by_key(|e| (error_stage(e), error_offset(e)));
    match first {
        Some(e) => Err(e),
        None => Ok(module),
    }
}

/// The byte ranges of the local names (`%x`, `%"a b"`, `%7`) in a piece of IR text, in order,
/// lexed as the reader lexes them (so names inside strings and comments are not counted).
pub(crate) fn local_names(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut lexer = lexer::Lexer::new(text.as_bytes());
    let mut names = Vec::new();
    loop {
        let t = lexer.next();
        match t.kind {
            lexer::Tok::Eof => return names,
            lexer::Tok::LocalName | lexer::Tok::LocalNum => names.push(t.span.range()),
            _ => {}
        }
    }
}

/// Read a module from raw bytes: rejects bitcode and invalid UTF-8 with a clear error.
pub fn parse_bytes(bytes: Vec<u8>) -> Result<Module, ReadError> {
    parse_bytes_with(bytes, None)
}

/// [`parse_bytes`], with work done on each body as it is read.
pub fn parse_bytes_with(bytes: Vec<u8>, work: Option<&dyn BodyWork>) -> Result<Module, ReadError> {
    // Bitcode never starts with valid UTF-8 (0xC0 is no UTF-8 byte).
    match String::from_utf8(bytes) {
        Ok(s) => parse_source_with(Source::from(s), work),
        Err(e) => Err(not_text(e.as_bytes(), e.utf8_error().valid_up_to())),
    }
}

/// Read a module from a file, mapping it rather than copying it. `None` when the file cannot
/// be mapped (a pipe, an empty file): read its bytes and use [`parse_bytes`] instead.
pub fn parse_file(file: &std::fs::File) -> Option<Result<Module, ReadError>> {
    parse_file_with(file, None)
}

/// [`parse_file`], with work done on each body as it is read.
pub fn parse_file_with(
    file: &std::fs::File,
    work: Option<&dyn BodyWork>,
) -> Option<Result<Module, ReadError>> {
    // The top level is read while the text is checked to be UTF-8 (a text too large is not
    // read at all: once it is found to be UTF-8, it is refused).
    let read_top = |text: &[u8], progress: Option<&Progress>| {
        crate::model::Value::fits(text.len()).then(|| top_level_guessing_ends(text, progress))
    };
    Some(match Source::map_reading(file, read_top)? {
        Err((bytes, valid_up_to)) => Err(not_text(&bytes, valid_up_to)),
        Ok((_, None)) => Err(ReadError::TooLarge),
        Ok((source, Some(top))) => match read_bodies_guessing_ends(source, top, work) {
            Ok(module) => Ok(module),
            Err(source) => read_exact(source, work),
        },
    })
}

fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Why `bytes` are not IR text: bitcode, or not UTF-8 from `valid_up_to` on.
fn not_text(bytes: &[u8], valid_up_to: usize) -> ReadError {
    if is_bitcode(bytes) {
        return ReadError::Bitcode;
    }
    let d = Diagnostic::at(bytes, valid_up_to, 1, String::new());
    ReadError::NotUtf8 {
        line: d.line,
        col: d.col,
    }
}

impl Module {
    /// The fields of a specialized metadata node (`!DIxxx(field: value, ...)`) whose name is
    /// at `name`: each field's name with its colon, and its value, as spans of text.
    pub fn md_fields(&self, name: Span) -> Vec<(Span, Span)> {
        Parser::specialized_fields(&self.source, name)
    }

    /// Read the body of a definition again. The module was read from this text, so this
    /// fails only if `f` is a declaration.
    pub fn body(&self, f: FuncId) -> Result<Body, ReadError> {
        self.body_reusing(f, &mut Scratch::default())
    }

    /// [`Module::body`] with buffers kept from earlier reads; give the body back with
    /// [`Scratch::recycle`] when done.
    pub(crate) fn body_reusing<'a>(
        &'a self,
        f: FuncId,
        scratch: &mut Scratch<'a>,
    ) -> Result<Body, ReadError> {
        Parser::read_body(&self.source, self, f, true, scratch).map(|(body, _)| body)
    }
}

fn error_offset(e: &ReadError) -> usize {
    e.diagnostic().map_or(0, |d| d.offset)
}

/// When LLVM reports an error: syntax errors as it reads (0), names left undefined once the
/// module is read (1), what its verifier refuses after that (2).
fn error_stage(e: &ReadError) -> u8 {
    match e {
        ReadError::Undefined(_) => 1,
        ReadError::Invalid(_) => 2,
        _ => 0,
    }
}

/// The error LLVM reports first: syntax errors by position, then names left undefined, then
/// what the verifier refuses.
fn earlier_error(old: Option<ReadError>, new: ReadError) -> ReadError {
    match old {
        Some(old)
            if (error_stage(&old), error_offset(&old))
                <= (error_stage(&new), error_offset(&new)) =>
        {
            old
        }
        _ => new,
    }
}

/// The global a body's use of an intrinsic never declared names: made at its first use, as
/// LLVM declares it then, if LLVM knows the name ([`intrinsics::is_known`]) or upgrades
/// the call from an old one ([`intrinsics::is_renamed_on_read`]). Whether its
/// signature takes the call's type was asked as the call was read, where the call's types
/// are (see [`mistyped_intrinsic`]). The text is written back as it was.
fn implicit_intrinsic(m: &mut Module, use_: &GlobalUse) -> Result<GlobalId, ReadError> {
    let name = parser::strip_name(&m.source.as_bytes()[use_.span.range()][1..]);
    let declared = m.global_by_name.get(name.as_ref()).copied();
    if use_.role != UseRole::Callee {
        // As LLVM reports it: at the name's first use.
        let at = declared.map_or(use_.span, |g| m.globals[g].first_use);
        return Err(ReadError::undefined(m.source.as_bytes(), at, NOT_A_CALLEE));
    }
    if let Some(g) = declared {
        return Ok(g);
    }
    if !intrinsics::is_known(&name) && !intrinsics::is_renamed_on_read(&name) {
        let message = format!("unknown intrinsic '{}'", String::from_utf8_lossy(&name));
        return Err(ReadError::undefined(
            m.source.as_bytes(),
            use_.span,
            &message,
        ));
    }
    Ok(m.add_global(
        GlobalName::Named(name.as_ref().into()),
        GlobalKind::Intrinsic,
        use_.span,
    ))
}

/// The error for a call of an intrinsic never declared, at `callee`, whose type the
/// intrinsic's signature does not take: as LLVM reports it, at the name's first use.
fn mistyped_intrinsic(m: &Module, callee: Span) -> ReadError {
    let name = parser::strip_name(&m.source.as_bytes()[callee.range()][1..]);
    let first_use = m
        .global_by_name
        .get(name.as_ref())
        .map_or(callee, |&g| m.globals[g].first_use);
    ReadError::undefined(
        m.source.as_bytes(),
        first_use,
        "invalid intrinsic signature",
    )
}

/// What reading one body finds: its facts, its uses of globals in order, and what few bodies
/// hold. Every body's is kept until all are read, so it is kept small (a module of 40,000
/// tiny functions: 6.4 MB at 152 bytes a body).
struct BodyFacts {
    info: BodyInfo,
    uses: Box<[GlobalUse]>,
    debug_forms: DebugForms,
    rare: Option<Box<RareFacts>>,
}

/// What a body seldom holds: where its `uselistorder` directives are
/// ([`Body::use_list_orders`]), its `blockaddress` constants, a call of an intrinsic at
/// another type than its declaration's, the frames it escapes and recovers.
struct RareFacts {
    use_list_orders: Span,
    global_use_list_orders: Vec<(Span, GlobalId, u32)>,
    block_addresses: Vec<BlockAddressRef>,
    mistyped_intrinsic_call: Option<Span>,
    frames: FrameUses,
}

impl RareFacts {
    /// `None` when the body holds none of them.
    fn boxed(
        use_list_orders: Span,
        global_use_list_orders: Vec<(Span, GlobalId, u32)>,
        block_addresses: Vec<BlockAddressRef>,
        mistyped_intrinsic_call: Option<Span>,
        frames: FrameUses,
    ) -> Option<Box<RareFacts>> {
        // A global's order is one of the body's directives (`use_list_orders`).
        let none = use_list_orders.is_empty()
            && block_addresses.is_empty()
            && mistyped_intrinsic_call.is_none()
            && frames.is_empty();
        (!none).then(|| {
            Box::new(RareFacts {
                use_list_orders,
                global_use_list_orders,
                block_addresses,
                mistyped_intrinsic_call,
                frames,
            })
        })
    }
}

/// Each body's result, by its place among the definitions read.
type Placed = (usize, Result<BodyFacts, ReadError>);

/// The bodies' results in two runs, each in function order (the large bodies', read first,
/// and the rest's): taken in function order without being copied into one list.
struct BodyResults {
    runs: [Vec<Placed>; 2],
}

impl BodyResults {
    fn iter(&self) -> impl Iterator<Item = &Result<BodyFacts, ReadError>> {
        self.runs.iter().flatten().map(|(_, result)| result)
    }

    fn into_ordered(self) -> impl Iterator<Item = Result<BodyFacts, ReadError>> {
        let [first, second] = self.runs;
        let (mut first, mut second) = (first.into_iter().peekable(), second.into_iter().peekable());
        std::iter::from_fn(move || {
            let from_first = match (first.peek(), second.peek()) {
                (Some(a), Some(b)) => a.0 < b.0,
                (a, _) => a.is_some(),
            };
            let next = if from_first {
                first.next()
            } else {
                second.next()
            };
            next.map(|(_, result)| result)
        })
    }
}

/// Read every body (in parallel when there is enough text), add their uses to the module in
/// function order and record their facts; meanwhile, read the metadata fields the first phase
/// stepped over; then, given the top level's `uselistorder` checks (`None` when the top level
/// was not read whole), what needs every body: `blockaddress` and `uselistorder`. Returns the
/// first error of a body, if any, and whether every body read ends
/// where the first phase found its end and the fields read. With `limit`, only bodies that
/// start before that offset are read.
fn read_bodies(
    m: &mut Module,
    limit: Option<usize>,
    deferred_fields: &[Span],
    use_list_checks: Option<&[UseListCheck]>,
    mut block_addresses: Vec<BlockAddressRef>,
    work: Option<&dyn BodyWork>,
) -> (Option<ReadError>, bool) {
    let mut definitions: Vec<FuncId> = m.definitions().collect();
    if let Some(limit) = limit {
        definitions.retain(|&f| (m.functions[f].span.start as usize) < limit);
    }
    m.top_level_uses = m.uses.len() as u32;
    m.semantic_interposition = m.reads_semantic_interposition();
    m.intrinsic_immediates = intrinsic_immediates(m);
    m.convergent_functions = convergent_functions(m);
    m.nodes_reached = NodesReached::of(m);
    // What only the top level ran goes back before the bodies' peak.
    m.give_back_free_memory();

    // LLVM's verifier runs only on a module whose top level read: after a top-level error the
    // bodies are read for an earlier syntax error alone, and their checks, which look up
    // globals the top level may have left unresolved, are not made.
    let verify = use_list_checks.is_some();
    let (results, fields_held) = {
        let visit = work.map(|w| w.begin(m));
        let visit = visit.as_deref();
        if deferred_fields.len() >= FIELDS_WORTH_THREADS {
            rayon::join(
                || read_in_parallel(m, &definitions, verify, visit),
                || fields_hold(m, deferred_fields),
            )
        } else {
            (
                read_in_parallel(m, &definitions, verify, visit),
                fields_hold(m, deferred_fields),
            )
        }
    };

    // The bodies' buffers are free, in the pool's threads' pieces; joining their results
    // allocates on this thread: rocksdb-O0's peak was there, 34.6 MiB, now 33.9. The text
    // the threads read last goes back too (2.2 MiB of rocksdb-O0's).
    m.source.release(0..m.source.len());
    m.give_back_free_memory();
    let mut first_error: Option<ReadError> = None;
    let mut ends_held = fields_held;
    let mut debug_form = DebugFormCheck::default();
    let mut body_use_list_checks = Vec::new();
    let mut frames: Vec<(FuncId, FrameUses)> = Vec::new();
    // Grown once: grown by doubling, each copy writes to pages never touched before.
    let body_uses = results.iter().flatten().map(|facts| facts.uses.len()).sum();
    m.uses.reserve(body_uses);
    for (&f, result) in definitions.iter().zip(results.into_ordered()) {
        let facts = match result {
            Ok(facts) => facts,
            Err(e) => {
                first_error = Some(earlier_error(first_error, e));
                continue;
            }
        };
        let first_use = m.uses.len() as u32;
        for mut use_ in facts.uses {
            if use_.global.is_reserved_value() {
                match implicit_intrinsic(m, &use_) {
                    Ok(g) => use_.global = g,
                    Err(e) => {
                        // The module is not kept; the other bodies may hold an earlier error.
                        first_error = Some(earlier_error(first_error, e));
                        break;
                    }
                }
            }
            let u = m.uses.push(use_);
            m.globals[use_.global].uses.push(u);
        }
        if let Some(rare) = facts.rare {
            if !rare.use_list_orders.is_empty() {
                m.use_list_orders.push(rare.use_list_orders);
            }
            body_use_list_checks.extend(rare.global_use_list_orders.into_iter().map(
                |(at, global, indexes)| UseListCheck::Global {
                    at,
                    global,
                    indexes,
                },
            ));
            block_addresses.extend(rare.block_addresses);
            if let Some(call) = rare.mistyped_intrinsic_call {
                first_error = Some(earlier_error(first_error, mistyped_intrinsic(m, call)));
            }
            if !rare.frames.is_empty() {
                frames.push((f, rare.frames));
            }
        }
        if let Err(e) = debug_form.add(m.source.as_bytes(), facts.debug_forms) {
            first_error = Some(earlier_error(first_error, e));
        }
        let info = m.functions[f].body.as_mut().expect("a definition");
        ends_held &= facts.info.span == info.span;
        *info = BodyInfo {
            span: info.span,
            first_use,
            use_count: m.uses.len() as u32 - first_use,
            ..facts.info
        };
    }
    if let Err(at) =
        verify_intrinsics::frame_recoveries_hold(frames.iter().map(|(f, uses)| (*f, uses)))
    {
        let message = "all indices passed to llvm.localrecover must be less than the number of \
                       arguments passed to llvm.localescape in the parent function (LLVM's \
                       verifier)";
        let e = ReadError::invalid(m.source.as_bytes(), at, message.to_string());
        first_error = Some(earlier_error(first_error, e));
    }
    m.block_address_uses = block_addresses.iter().map(|b| b.function.start).collect();
    m.block_address_uses.sort_unstable();
    // Body uses were added after the top level's: keep each global's list in source order.
    let uses = &m.uses;
    for g in m.globals.values_mut() {
        g.uses.sort_by_key(|&u| uses[u].span.start);
    }
    if let Some(top_use_list_checks) = use_list_checks
        && ends_held
    {
        body_use_list_checks.extend_from_slice(top_use_list_checks);
        let use_list_checks = &body_use_list_checks;
        if let Err(e) = addr_spaces_hold(m) {
            first_error = Some(earlier_error(first_error, e));
        }
        // These are the parser's checks: they come before the verifier's.
        if first_error.as_ref().is_none_or(|e| error_stage(e) == 2)
            && let Err(e) =
                block_addresses_hold(m, block_addresses).and(use_lists_hold(m, use_list_checks))
        {
            first_error = Some(earlier_error(first_error, e));
        }
        // The headers' rules and the module's are checked side by side (each reads the
        // model only); the headers' error comes first.
        if first_error.is_none()
            && let Err(e) = intrinsics_hold(m).and_then(|()| {
                let (headers, module) = rayon::join(
                    || verify_attributes::headers_hold(m),
                    || verify_module::module_holds(m),
                );
                let src = m.source.as_bytes();
                headers
                    .map_err(|(at, message)| ReadError::invalid(src, at, message))
                    .and(module.map_err(|(at, message)| ReadError::invalid(src, at, message)))
            })
        {
            first_error = Some(e);
        }
    }
    // The headers' checks mapped their text in again: given back before merging starts, whose
    // peak it was part of (rocksdb-O0: 2.7 MiB of text, a peak of 34.1 MiB, now 33.3).
    m.source.release(0..m.source.len());
    (first_error, ends_held)
}

/// The functions whose calls are convergent by their callee (see
/// [`Module::convergent_functions`]).
fn convergent_functions(m: &Module) -> Vec<FuncId> {
    let src = m.source.as_bytes();
    let is_convergent =
        |span: Span| verify_attributes::keyword_of(&src[span.range()]) == b"convergent";
    let groups: Vec<u32> = m
        .attr_groups
        .iter()
        .filter(|&(_, &list)| {
            m.attr_list(list)
                .iter()
                .any(|a| !a.is_group() && is_convergent(a.span()))
        })
        .map(|(&n, _)| n)
        .collect();
    m.functions
        .iter()
        .filter(|(_, func)| {
            let declared = m.attr_list(func.fn_attrs).iter().any(|a| match a.kind() {
                AttrKind::Group(n, _) => groups.contains(&n),
                AttrKind::Text(span) => is_convergent(span),
                AttrKind::Typed(..) => false,
            });
            declared
                || match &m.globals[func.global].name {
                    GlobalName::Named(name) => intrinsics::is_convergent(name),
                    GlobalName::Numbered(_) => false,
                }
        })
        .map(|(f, _)| f)
        .collect()
}

/// The declared intrinsics whose calls must pass immediates, with the parameters that take
/// them ([`intrinsics::immediate_params`]; for a name LLVM no longer knows, those its
/// declaration marks `immarg`, unless LLVM upgrades its calls), in function order.
fn intrinsic_immediates(m: &Module) -> Vec<(FuncId, intrinsics::Immediates)> {
    m.functions
        .iter()
        .filter_map(|(f, func)| match &m.globals[func.global].name {
            GlobalName::Named(name) if name.starts_with(b"llvm.") => {
                let immediates = if intrinsics::is_known(name) {
                    intrinsics::immediate_params(&m.types, name, func.fn_ty)
                } else if intrinsics::is_renamed_on_read(name) {
                    // LLVM rewrites its calls as it reads them: what the old declaration
                    // marks `immarg` is never checked.
                    intrinsics::Immediates::default()
                } else {
                    declared_immediates(m, func)
                };
                (immediates.params != 0).then_some((f, immediates))
            }
            _ => None,
        })
        .collect()
}

/// The parameters a function named `llvm.*` that LLVM does not know marks `immarg` in its
/// text, which LLVM keeps (a known intrinsic takes the table's attributes), with their ranges.
fn declared_immediates(m: &Module, func: &Function) -> intrinsics::Immediates {
    let src = m.source.as_bytes();
    let (mut params, mut ranges) = (0, Vec::new());
    for (i, param) in func.params.iter().enumerate().take(32) {
        let attrs = m.attr_list(param.attrs);
        if verify_attributes::attribute_of(src, attrs, verify_attributes::IMMARG).is_none() {
            continue;
        }
        params |= 1 << i;
        let range = verify_attributes::attribute_of(src, attrs, verify_attributes::RANGE);
        if let Some(ends) = range.and_then(|a| intrinsics::range_ends(&src[a.span().range()])) {
            ranges.push((i, ends.0, ends.1));
        }
    }
    intrinsics::Immediates::declared(params, ranges)
}

/// That no function named `llvm.*` is defined, and that each intrinsic a body calls is declared
/// with the signature LLVM gives it ([`intrinsics::signature_holds`]), as LLVM's verifier
/// checks them. The first such function in the text is the error, at its name.
fn intrinsics_hold(m: &Module) -> Result<(), ReadError> {
    for func in m.functions.values() {
        let global = &m.globals[func.global];
        let GlobalName::Named(name) = &global.name else {
            continue;
        };
        if !name.starts_with(b"llvm.") {
            continue;
        }
        let called = || {
            global
                .uses
                .iter()
                .any(|&u| m.uses[u].role == UseRole::Callee)
        };
        let fault = if func.body.is_some() {
            Err("llvm intrinsics cannot be defined!")
        } else if called() {
            intrinsics::signature_holds(&m.types, name, func.fn_ty)
        } else {
            Ok(())
        };
        if let Err(message) = fault {
            let at = name_at(m, func);
            return Err(ReadError::invalid(m.source.as_bytes(), at, message));
        }
    }
    Ok(())
}

/// Where function `func`'s name is written in its header.
fn name_at(m: &Module, func: &Function) -> Span {
    verify_module::defined_at(m, func.global, func.header_span)
}

/// That each global is named with a pointer into its own address space, as LLVM checks it
/// while it reads: a name before the global's definition makes a placeholder of the type it
/// is written with, which later names must repeat and the definition must match; a name after
/// it must match the definition. The first mismatch by position is the error (LLVM reports a
/// function's at the placeholder's name, once it reads the function).
fn addr_spaces_hold(m: &Module) -> Result<(), ReadError> {
    // Most modules live in address space 0 alone: one pass over the uses in order tells.
    let written_elsewhere = |u: &GlobalUse| !matches!(u.addr_space, 0 | GlobalUse::UNTYPED);
    if !m.uses.values().any(written_elsewhere)
        && m.globals.keys().all(|g| m.global_addr_space(g) == 0)
    {
        return Ok(());
    }
    let src = m.source.as_bytes();
    let mut first: Option<ReadError> = None;
    for (g, global) in m.globals.iter() {
        // A variable's or alias's mismatch is reported at the type after its keyword, as
        // what LLVM calls it; a function's at the placeholder.
        let (definition, typed): (_, Option<TypedDefinition>) = match global.kind {
            GlobalKind::Function(f) => (m.functions[f].span, None),
            GlobalKind::Variable(v) => (
                m.variables[v].span,
                Some(("global", [b"global", b"constant"])),
            ),
            GlobalKind::Alias(a) => (m.aliases[a].span, Some(("alias", [b"alias", b"ifunc"]))),
            GlobalKind::Pending | GlobalKind::Intrinsic => continue,
        };
        let defined = m.global_addr_space(g);
        let mut placeholder: Option<(u32, Span)> = None;
        for &u in &global.uses {
            let use_ = m.uses[u];
            if use_.addr_space == GlobalUse::UNTYPED {
                continue;
            }
            let before = use_.span.start < definition.start;
            let had = match placeholder {
                None if before => {
                    placeholder = Some((use_.addr_space, use_.span));
                    continue;
                }
                Some((had, _)) if before => had,
                _ => defined,
            };
            if use_.addr_space != had {
                let (had, expected) = (pointer_text(had), pointer_text(use_.addr_space));
                let message = format!(
                    "'{}' defined with type '{had}' but expected '{expected}'",
                    String::from_utf8_lossy(&src[use_.span.range()])
                );
                first = Some(earlier_error(
                    first,
                    ReadError::at(src, use_.span, &message),
                ));
                break;
            }
        }
        let Some((forward, at)) = placeholder.filter(|&(a, _)| a != defined) else {
            continue;
        };
        let e = match typed {
            None => {
                let name = crate::write::global_name(&global.name);
                let message = format!(
                    "invalid forward reference to function '{}' with wrong type: expected \
                     '{}' but was '{}'",
                    name.strip_prefix('@').unwrap_or(&name),
                    pointer_text(defined),
                    pointer_text(forward)
                );
                ReadError::at(src, at, &message)
            }
            Some((what, keywords)) => {
                let message =
                    format!("forward reference and definition of {what} have different types");
                ReadError::at(src, value_type_after(src, definition, &keywords), &message)
            }
        };
        first = Some(earlier_error(first, e));
    }
    first.map_or(Ok(()), Err)
}

/// What LLVM calls a variable or an alias in a mismatch, and the keywords its type follows.
type TypedDefinition = (&'static str, [&'static [u8]; 2]);

/// The token after the first of `keywords` in the definition at `span`: its value type
/// (`i32` in `@g = internal global i32 0`), where LLVM reports its mismatches.
fn value_type_after(src: &[u8], span: Span, keywords: &[&[u8]]) -> Span {
    let mut lexer = lexer::Lexer::starting_at(src, span.start as usize);
    loop {
        let t = lexer.next();
        if t.kind == lexer::Tok::Eof || t.span.start >= span.end {
            return span;
        }
        if t.kind == lexer::Tok::Word && keywords.contains(&&src[t.span.range()]) {
            return lexer.next().span;
        }
    }
}

/// The form of debug information the bodies read so far, in order, chose: LLVM takes the
/// first body's that writes any, and refuses the other form from then on, at once.
#[derive(Default)]
struct DebugFormCheck {
    records: Option<bool>,
}

impl DebugFormCheck {
    fn add(&mut self, src: &[u8], forms: DebugForms) -> Result<(), ReadError> {
        let (record, call) = (forms.record, forms.intrinsic_call);
        let records = *self.records.get_or_insert(match (record, call) {
            (Some(r), Some(c)) => r.start < c.start,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return Ok(()),
        });
        let (at, message) = match (records, record, call) {
            (true, _, Some(c)) => (
                c,
                "llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info",
            ),
            (false, Some(r), _) => (
                r,
                "debug record should not appear in a module containing debug info intrinsics",
            ),
            _ => return Ok(()),
        };
        Err(ReadError::at(src, at, message))
    }
}

/// That each top-level `uselistorder` directive fits the uses of what it orders, as far as
/// they are known here: a global's uses are its names in the text, which may be more than
/// LLVM counts (a constant written twice is one user, a name in metadata none), so a global
/// named fewer times than the directive has indexes, or once, or never, is refused as LLVM
/// refuses it. When every name is the operand itself ([`GlobalUse::direct`]) the names are
/// LLVM's uses, and any other number of indexes is refused too; otherwise one named more
/// times is let through. A `uselistorder_bb` must name a
/// block of its function; the count of the block's uses is not checked.
fn use_lists_hold(m: &Module, checks: &[UseListCheck]) -> Result<(), ReadError> {
    let src = m.source.as_bytes();
    let mut first: Option<ReadError> = None;
    let mut fail = |e: ReadError| first = Some(earlier_error(first.take(), e));
    let mut blocks: Vec<(FuncId, Span)> = Vec::new();
    for &check in checks {
        match check {
            UseListCheck::Global {
                at,
                global,
                indexes,
            } => {
                // LLVM counts the uses made when it reads the directive: those written
                // before it (a function read after it adds uses the order does not list).
                let (mut named, mut all_direct) = (0, true);
                for u in m.uses_of(global) {
                    if m.uses[u].role != UseRole::Definition && m.uses[u].span.start < at.start {
                        named += 1;
                        all_direct &= m.uses[u].direct;
                    }
                }
                let message = match named {
                    0 => "value has no uses".to_string(),
                    1 => "value only has one use".to_string(),
                    n if n < indexes as usize || all_direct && n != indexes as usize => {
                        format!("wrong number of indexes, expected {n}")
                    }
                    _ => continue,
                };
                fail(ReadError::at(src, at, &message));
            }
            UseListCheck::Block { function, block } => blocks.push((function, block)),
        }
    }
    blocks_named(m, blocks, |block, is_block| {
        let message = match is_block {
            Some(Some(_)) => return,
            Some(None) => "expected basic block in uselistorder_bb",
            None => "invalid basic block in uselistorder_bb",
        };
        fail(ReadError::at(src, block, message));
    })?;
    first.map_or(Ok(()), Err)
}

/// That each `blockaddress` names a function defined here and one of its blocks, as LLVM
/// checks it: the first that does not, by position, is the error. The blocks of a function
/// named are looked for by reading its body again (few functions have their blocks'
/// addresses taken: an interpreter's computed gotos), and its names as the reader numbered
/// them (a block without a label has a number too).
fn block_addresses_hold(m: &Module, refs: Vec<BlockAddressRef>) -> Result<(), ReadError> {
    let src = m.source.as_bytes();
    let mut first: Option<ReadError> = None;
    let mut fail = |e: ReadError| first = Some(earlier_error(first.take(), e));
    let mut in_bodies: Vec<(FuncId, Span)> = Vec::new();
    // Where each block named outside metadata is written, in order (refs are in no order).
    let mut used: Vec<u32> = Vec::new();
    for written in refs {
        let (function, block) = (written.function, written.block);
        let global = parser::global_named(m, &src[function.range()][1..]);
        let Some(global) = global else {
            continue;
        };
        match m.function_of(global) {
            None => fail(ReadError::at(
                src,
                function,
                "expected function name in blockaddress",
            )),
            Some(f) if m.functions[f].body.is_none() => {
                let message = "cannot take blockaddress inside a declaration";
                fail(ReadError::at(src, function, message));
            }
            // LLVM finds a block by number only while the function's own numbering is at
            // hand: in its body, or before it (a forward reference, resolved with the body).
            Some(f)
                if src
                    .get(block.start as usize + 1)
                    .is_some_and(u8::is_ascii_digit)
                    && m.functions[f]
                        .body
                        .as_ref()
                        .is_some_and(|body| block.start >= body.span.end) =>
            {
                let message = "cannot take address of numeric label after the function is defined";
                fail(ReadError::at(src, block, message));
            }
            Some(f) => {
                in_bodies.push((f, block));
                if written.used {
                    used.push(block.start);
                }
            }
        }
    }
    used.sort_unstable();
    blocks_named(m, in_bodies, |block, found| match found {
        Some(Some(b)) if b.index() == 0 && used.binary_search(&block.start).is_ok() => {
            fail(ReadError::invalid(
                src,
                block,
                "blockaddress may not be used with the entry block! (LLVM's verifier)",
            ))
        }
        Some(Some(_)) => {}
        Some(None) => fail(ReadError::at(
            src,
            block,
            "referenced value is not a basic block",
        )),
        None => fail(ReadError::undefined(src, block, "use of undefined value")),
    })?;
    first.map_or(Ok(()), Err)
}

/// For each `(f, %name)`, the block the name is in `f` (`Some(Some(block))`), or that it is
/// another of its locals (`Some(None)`) or none (`None`), told to `verdict`. Each function is
/// read again once, however many of its names are asked, and its names are the reader's own
/// (a block without a label has its number).
fn blocks_named(
    m: &Module,
    mut names: Vec<(FuncId, Span)>,
    mut verdict: impl FnMut(Span, Option<Option<BlockId>>),
) -> Result<(), ReadError> {
    let src = m.source.as_bytes();
    names.sort_unstable_by_key(|&(f, name)| (f, name.start));
    let mut scratch = Scratch::default();
    for group in names.chunk_by(|a, b| a.0 == b.0) {
        let body = m.body_reusing(group[0].0, &mut scratch)?;
        for &(_, name) in group {
            let local = scratch.local_named(&src[name.range()][1..]);
            verdict(
                name,
                local.map(|l| match body.locals[l].def {
                    LocalDef::Block(b) => Some(b),
                    _ => None,
                }),
            );
        }
        scratch.recycle(body);
    }
    Ok(())
}

/// Metadata fields read by one job: a debug-information module has tens of thousands.
const FIELDS_PER_JOB: usize = 1024;
/// Below two jobs' worth, the fields are read on the calling thread.
const FIELDS_WORTH_THREADS: usize = 2 * FIELDS_PER_JOB;

/// Whether the metadata fields the first phase stepped over read (see [`Parser::module`]).
fn fields_hold(m: &Module, fields: &[Span]) -> bool {
    let hold = |chunk: &[Span]| {
        let held = Parser::deferred_fields_hold(&m.source, m, chunk);
        if let (Some(first), Some(last)) = (chunk.first(), chunk.last()) {
            m.source.release(first.start as usize..last.end as usize);
        }
        held
    };
    if fields.len() < FIELDS_WORTH_THREADS {
        return hold(fields);
    }
    fields.par_chunks(FIELDS_PER_JOB).all(hold)
}

/// Below this much body text, threads cost more than they save.
const PARALLEL_THRESHOLD: usize = 256 * 1024;

/// The bytes of text of these definitions' bodies.
pub(crate) fn body_text<'a>(
    m: &Module,
    definitions: impl IntoIterator<Item = &'a FuncId>,
) -> usize {
    definitions
        .into_iter()
        .filter_map(|&f| m.functions[f].body.as_ref())
        .map(|b| b.span.range().len())
        .sum()
}

/// Whether reading (or encoding) bodies of `text` bytes in all, as `jobs` pieces of work, is
/// worth threads: there is more than one piece of work, and enough text. Below that, the
/// thread pool is not started at all (starting it takes about 0.4 ms).
pub fn worth_threads(text: usize, jobs: usize) -> bool {
    jobs >= 2 && text >= PARALLEL_THRESHOLD
}

fn read_in_parallel(
    m: &Module,
    definitions: &[FuncId],
    verify: bool,
    visit: Option<&Visit>,
) -> BodyResults {
    let text = body_text(m, definitions);
    // A body with more than a thread's share of the text would keep one thread busy after
    // the others are done: it is read in pieces. Below the threshold the thread pool is not
    // even asked how many threads it has: that would start it.
    let share = if text >= PARALLEL_THRESHOLD {
        text / rayon::current_num_threads()
    } else {
        text
    };
    if !worth_threads(text, definitions.len()) {
        let mut scratch = Scratch::default();
        let mut behind = ReleaseBehind::new(&m.source);
        let all = definitions
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                (
                    i,
                    read_and_release(m, f, share, verify, &mut scratch, &mut behind, visit),
                )
            })
            .collect();
        return BodyResults {
            runs: [all, Vec::new()],
        };
    }
    // A body begun last would keep its thread busy after the others are done (rustprog-O3's
    // `main`, two fifths of its body text, began when three fifths of the rest were read).
    // So each large body is a task of its own, begun first, while another thread starts on
    // the rest, in order; whoever is done first takes from the other. Results come back in
    // function order, whichever thread read what.
    let is_large = |f: FuncId| {
        m.functions[f]
            .body
            .as_ref()
            .is_some_and(|b| b.span.range().len() > share / 4)
    };
    let (large, rest): (Vec<_>, Vec<_>) = definitions
        .iter()
        .copied()
        .enumerate()
        .partition(|&(_, f)| is_large(f));
    let read_all = |bodies: &[(usize, FuncId)], min_len: usize, max_len: usize| {
        bodies
            .par_iter()
            .with_min_len(min_len)
            .with_max_len(max_len)
            .map_init(
                || (Scratch::default(), ReleaseBehind::new(&m.source)),
                |(scratch, behind), &(i, f)| {
                    let read = read_and_release(m, f, share, verify, scratch, behind, visit);
                    (i, read)
                },
            )
            .collect::<Vec<_>>()
    };
    let (large, rest) = rayon::join(|| read_all(&large, 1, 1), || read_all(&rest, 4, usize::MAX));
    BodyResults {
        runs: [large, rest],
    }
}

/// [`read_one`], then give the body's text back (see `Source::release`).
fn read_and_release<'a>(
    m: &'a Module,
    f: FuncId,
    share: usize,
    verify: bool,
    scratch: &mut Scratch<'a>,
    behind: &mut ReleaseBehind<'_>,
    visit: Option<&Visit>,
) -> Result<BodyFacts, ReadError> {
    let result = read_one(m, f, share, verify, scratch, visit);
    if let Some(body) = &m.functions[f].body {
        behind.read(body.span.range());
    }
    result
}

/// Read `f`'s body: in pieces if it has more than `share` bytes and enough for pieces, and
/// the module is verified (pieces are joined by the verifier's checks). With `verify`, the
/// body must also pass LLVM's verifier's checks.
fn read_one<'a>(
    m: &'a Module,
    f: FuncId,
    share: usize,
    verify: bool,
    scratch: &mut Scratch<'a>,
    visit: Option<&Visit>,
) -> Result<BodyFacts, ReadError> {
    let count = pieces::piece_count(m, f, share);
    if verify
        && count >= 2
        && let Some(facts) = pieces::read_in_pieces(m, f, count)
    {
        return Ok(facts);
    }
    read_whole(m, f, verify, scratch, visit)
}

fn read_whole<'a>(
    m: &'a Module,
    f: FuncId,
    verify: bool,
    scratch: &mut Scratch<'a>,
    visit: Option<&Visit>,
) -> Result<BodyFacts, ReadError> {
    let (body, uses) = Parser::read_body(&m.source, m, f, false, scratch)?;
    let frames = match verify {
        true => match body_verifies(m, f, &body, &uses, scratch) {
            Ok(frames) => frames,
            Err(e) => {
                scratch.recycle(body);
                return Err(e);
            }
        },
        false => FrameUses::default(),
    };
    // Kept until every body is read: without the room the list grew into (up to as much
    // again).
    let uses = uses.into_boxed_slice();
    let walk = body.reachable_blocks();
    let func = &m.functions[f];
    let llvm_walk = crate::model::llvm_walk(body.blocks.len(), |b| {
        body.successors(BlockId::new(b)).map(|s| s.index())
    });
    let info = BodyInfo {
        span: body.span,
        blocks: body.blocks.len() as u32,
        insts: body.insts.len() as u32,
        llvm_hash: crate::model::llvm_structural_hash(
            func.varargs,
            func.params.len(),
            llvm_walk.iter().map(|&b| {
                let block = &body.blocks[BlockId::new(b)];
                block.insts().map(|i| body.insts[i].opcode)
            }),
        ),
        passes_distinct_metadata: passes_distinct_metadata(m, &body, &uses),
        leaves_implicit: body.leaves_implicit,
        ..walk_facts(walk.iter().map(|&b| {
            let block = &body.blocks[b];
            block.insts().map(|i| body.insts[i].opcode as u8)
        }))
    };
    // A module whose top level did not read is refused: its bodies are not worked on.
    if verify && let Some(visit) = visit {
        visit(f, &body, &uses, &info);
    }
    let rare = RareFacts::boxed(
        body.use_list_orders,
        body.global_use_list_orders.clone(),
        body.block_addresses.clone(),
        body.mistyped_intrinsic_call,
        frames,
    );
    let debug_forms = body.debug_forms;
    scratch.recycle(body);
    Ok(BodyFacts {
        info,
        uses,
        debug_forms,
        rare,
    })
}

/// Whether `f`'s body, read, passes LLVM's verifier's checks: its error if not, else what the
/// module's check of frame recoveries needs of it.
fn body_verifies(
    m: &Module,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
    scratch: &mut Scratch,
) -> Result<FrameUses, ReadError> {
    let one_block_in_order = body.blocks.len() == 1 && !scratch.names_a_value_early(body);
    let personality = m.functions[f].extras().personality.is_some();
    match scratch
        .checks
        .body_holds((m, body, uses), personality, one_block_in_order)
    {
        Err(fault) => Err(fault_error(m.source.as_bytes(), body, scratch, fault)),
        // A whole body defines every local it names: nothing is left for a join.
        Ok(()) => {
            let mut frames = FrameUses::default();
            verify_metadata::metadata_holds(
                m,
                f,
                body,
                uses,
                &mut scratch.valid_tags,
                &mut Vec::new(),
                &mut frames,
            )
            .and_then(|()| {
                verify::swifterror_values_hold(m, f, body, uses)
                    .and_then(|()| verify::funclet_operands_hold(body))
                    .and_then(|()| verify::convergence_control_holds(m, f, body, uses))
                    .map_err(|(at, message)| (at, message.into()))
            })
            .map(|()| frames)
        }
        .map_err(|(at, message)| {
            let message = format!("{message} (LLVM's verifier)");
            ReadError::invalid(m.source.as_bytes(), at, message)
        }),
    }
}

/// The error of a body that LLVM's verifier refuses: at the operand that names the value a
/// use fails for, else at the instruction.
#[cold]
fn fault_error(src: &[u8], body: &Body, scratch: &Scratch, fault: verify::Fault) -> ReadError {
    let inst = &body.insts[InstId::from_u32(fault.inst)];
    let mut lexer = lexer::Lexer::starting_at(src, inst.span.start as usize);
    let mut span = inst.span;
    if let Some((local, item)) = fault.local {
        let before = verify::occurrences(
            &body.items(InstId::from_u32(fault.inst))[..item as usize],
            local,
        );
        // The tokens of the instruction after its result's name and `=`.
        let tokens = std::iter::from_fn(|| Some(lexer.next()))
            .take_while(|t| t.span.start < inst.span.end && t.kind != lexer::Tok::Eof)
            .skip_while(|t| t.kind != lexer::Tok::Equal && inst.result.is_some())
            .filter(|t| matches!(t.kind, lexer::Tok::LocalName | lexer::Tok::LocalNum));
        let names = |t: &lexer::Token| {
            scratch.local_named(&src[t.span.start as usize + 1..t.span.end as usize]) == Some(local)
        };
        if let Some(t) = tokens.filter(names).nth(before) {
            span = t.span;
        }
    }
    ReadError::invalid(src, span, fault.kind.message())
}

/// The facts of the walk of §3 (each block's opcodes, the blocks in walk order): how many
/// blocks and instructions it reaches, and the shape hash. The rest is left empty.
fn walk_facts<B>(walk: impl Iterator<Item = B>) -> BodyInfo
where
    B: ExactSizeIterator<Item = u8>,
{
    let mut shape = FxHasher::default();
    let (mut reachable_blocks, mut reachable_insts) = (0u32, 0u32);
    for opcodes in walk {
        let count = opcodes.len() as u32;
        shape.write_u32(count);
        reachable_blocks += 1;
        reachable_insts += count;
        for opcode in opcodes {
            shape.write_u8(opcode);
        }
    }
    BodyInfo {
        span: Span::default(),
        blocks: 0,
        insts: 0,
        reachable_blocks,
        reachable_insts,
        shape: shape.finish(),
        llvm_hash: 0,
        passes_distinct_metadata: false,
        leaves_implicit: false,
        first_use: 0,
        use_count: 0,
    }
}

/// Whether a call to an intrinsic passes a `distinct` metadata node (§1). `uses` are the
/// body's own, as numbered while it was read.
fn passes_distinct_metadata(m: &Module, body: &Body, uses: &[GlobalUse]) -> bool {
    body.insts.iter().any(|(i, inst)| {
        if !inst.opcode.is_call() {
            return false;
        }
        let items = body.items(i);
        let callee_is_intrinsic = items.iter().find_map(|it| match it {
            Item::Value(v) => Some(match v.kind() {
                // Only an intrinsic is left undeclared (`GlobalId::reserved_value` until then).
                ValueKind::Global(u) => m.use_in_body(uses, u).is_some_and(|u| {
                    u.global.is_reserved_value()
                        || matches!(&m.globals[u.global].name,
                            GlobalName::Named(n) if is_intrinsic_name(n))
                }),
                _ => false,
            }),
            _ => None,
        });
        callee_is_intrinsic == Some(true)
            && items.iter().any(|it| match it {
                Item::Value(v) => match v.kind() {
                    ValueKind::Const(c) => matches!(
                        body.constant(m, c),
                        Const::Metadata(MdRef::Node(id)) if body.md_node(m, *id).distinct
                    ),
                    _ => false,
                },
                _ => false,
            })
    })
}

/// The `.ll` files of a folder, in name order: the fixtures and corpus modules unit tests
/// read.
#[cfg(test)]
pub(crate) fn ll_files(dir: impl AsRef<std::path::Path>) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINTED: &str = "define i32 @f(i32 %x) {\nentry:\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n\n\
                           define void @g() {\n  ret void\n}\n";

    #[test]
    fn printed_bodies_end_where_guessed() {
        let m = read_guessing_ends(Source::from(PRINTED.to_string()), None)
            .unwrap_or_else(|_| panic!("the guess failed on printed text"));
        assert_eq!(m.functions.len(), 2);
    }

    #[test]
    fn a_wrong_guess_is_caught_and_the_module_read_again() {
        let over_lines = "define void @f(ptr %p) {\n  store { i32, i32 } {\n  i32 1, i32 2\n}, \
                          ptr %p\n  ret void\n}\n\ndefine void @g() {\n  ret void\n}\n";
        assert!(read_guessing_ends(Source::from(over_lines.to_string()), None).is_err());
        let m = parse(over_lines.to_string()).unwrap();
        let insts: Vec<u32> = m
            .functions
            .values()
            .map(|f| f.body.as_ref().unwrap().insts)
            .collect();
        assert_eq!(insts, [2, 1]);
    }

    #[test]
    fn a_parameter_list_read_before_is_placed_at_its_own_text() {
        let list =
            "(ptr noundef nonnull align 8 dereferenceable(16) %this, i32 %n, ptr byval(i32) %p)";
        let text = format!(
            "define void @a{list} {{\n  ret void\n}}\n\n\
             declare void @b{list}\n\n\
             define void @c{list} {{\n  ret void\n}}\n\n\
             define i32 @d{list} {{\n  ret i32 %n\n}}\n"
        );
        let m = parse(text.clone()).unwrap();
        let expected = [
            (
                "ptr",
                vec!["noundef", "nonnull", "align 8", "dereferenceable(16)"],
                "%this",
            ),
            ("i32", vec![], "%n"),
            ("ptr", vec!["byval"], "%p"),
        ];
        for f in m.functions.values() {
            let header = &text[f.header_span.range()];
            assert!(header.contains(list), "{header}");
            let list_at = f.header_span.start as usize + header.find(list).unwrap();
            assert_eq!(f.params.len(), expected.len());
            for (p, (ty, attrs, name)) in f.params.iter().zip(&expected) {
                assert_eq!(m.types.display(p.ty), *ty);
                let written: Vec<&str> = m
                    .attr_list(p.attrs)
                    .iter()
                    .map(|a| &text[a.span().range()])
                    .collect();
                assert_eq!(&written, attrs);
                let name_at = p.name().unwrap();
                assert_eq!(&text[name_at.range()], *name);
                assert!(name_at.start as usize > list_at);
                assert_eq!(p.end, name_at.end);
            }
        }
        // Read as a list of another function's result type: a rule that type breaks is found.
        let broken = "define i32 @a(i32 returned %x) {\n  ret i32 %x\n}\n\n\
                      define i64 @b(i32 returned %x) {\n  ret i64 0\n}\n";
        let e = parse(broken.to_string()).unwrap_err();
        assert!(e.to_string().contains("'returned'"), "{e}");
    }

    #[test]
    fn a_body_on_one_line_is_stepped_over_exactly() {
        let text = "define void @f() { ret void }\ndefine void @g() {\n  ret void\n}\n";
        let m = read_guessing_ends(Source::from(text.to_string()), None)
            .unwrap_or_else(|_| panic!("read again for a body on one line"));
        assert_eq!(m.functions.len(), 2);
    }

    #[test]
    fn metadata_fields_are_stepped_over_and_read_in_the_second_phase() {
        let text = "@g = global i32 0\n\
                    !0 = !DIFile(filename: \"a(b).c\", directory: \")\")\n\
                    !1 = !DIExpression(DW_OP_LLVM_fragment, 0, 32)\n\
                    !2 = !{!0, !DILocation(line: 1, scope: !3)}\n\
                    !3 = distinct !DISubprogram(name: \"f\", file: !0)\n\
                    !4 = !DITemplateValueParameter(value: ptr @g)\n";
        let TopLevel {
            deferred_fields: deferred,
            error,
            ..
        } = Parser::new(text.as_bytes()).module(BodyEnd::FirstClosingLine);
        assert!(error.is_none());
        let stepped: Vec<&str> = deferred.iter().map(|s| &text[s.range()]).collect();
        // The node that names a global is read at once, in order with the other uses.
        assert_eq!(
            stepped,
            [
                "!DIFile(filename: \"a(b).c\", directory: \")\")",
                "!DIExpression(DW_OP_LLVM_fragment, 0, 32)",
                "!DILocation(line: 1, scope: !3)",
                "!DISubprogram(name: \"f\", file: !0)"
            ]
        );
        assert!(read_guessing_ends(Source::from(text.to_string()), None).is_ok());
        // Fields stepped over that name an undefined node or do not read: the module is read
        // again exactly, which says what and where.
        for (from, to, message) in [
            (
                "scope: !3",
                "scope: !9",
                "4:41: use of undefined metadata '!9'",
            ),
            (
                "line: 1,",
                "line: 1, #",
                "4:33: expected field label here, found `#`",
            ),
        ] {
            let text = text.replace(from, to);
            assert!(read_guessing_ends(Source::from(text.clone()), None).is_err());
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(message), "{e}");
        }
    }

    #[test]
    fn specialized_fields_are_read_again_from_the_text() {
        let text = "!0 = !DILocalVariable(name: \"a, b\", arg: 1, scope: !0, type: !DIBasicType(tag: DW_TAG_base_type))\n";
        let m = parse(text.to_string()).unwrap();
        let MdBody::Specialized(name) = m.metadata.values().next().unwrap().body else {
            panic!("not a specialized node");
        };
        let fields: Vec<(&str, &str)> = m
            .md_fields(name)
            .into_iter()
            .map(|(k, v)| (m.text(k), m.text(v)))
            .collect();
        assert_eq!(
            fields,
            [
                ("name:", "\"a, b\""),
                ("arg:", "1"),
                ("scope:", "!0"),
                ("type:", "!DIBasicType(tag: DW_TAG_base_type)")
            ]
        );
    }
}
