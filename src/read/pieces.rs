//! One large body read by several threads: its text is cut between blocks, each piece is
//! read on its own ([`Parser::read_piece`]), and the pieces are joined into the facts that
//! reading the whole body gives ([`BodyFacts`]).
//!
//! A piece cannot know the names and numbers defined before it. It reads names it does not
//! define as forward references, and takes its first number as it comes. Joining checks what
//! one reading would have: every name defined once in all, every reference defined somewhere,
//! numbers rising from piece to piece. A cut is only a guess at where a block starts (after an
//! empty line, where LLVM prints labels), so a piece must end exactly where the next begins.
//! On any doubt (a piece that does not read, a check that fails), the caller reads the body
//! whole, which gives the one answer and the one error there is.

use super::parser::{LocalKey, Parser, Piece};
use super::verify::{BlockEh, Branches, Checks, Place};
use super::verify_intrinsics::FrameUses;
use super::verify_metadata;
use super::{BodyFacts, RareFacts, passes_distinct_metadata, walk_facts};
use crate::model::*;
use cranelift_entity::EntityRef;
use cranelift_entity::packed_option::ReservedValue;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// The least text a piece reads: joining costs a few probes per name, which must stay little
/// beside the reading.
const MIN_PIECE_LEN: usize = 128 * 1024;

/// How many pieces to cut `f`'s body into: one a thread, each of at least [`MIN_PIECE_LEN`]
/// bytes, when the body has more than `share` bytes (a thread's share of all the bodies).
/// Fewer than two: read it whole, as the other bodies keep the other threads busy, with
/// less memory (a piece cannot reuse a thread's buffers, which it holds until the join).
pub(super) fn piece_count(m: &Module, f: FuncId, share: usize) -> usize {
    let len = m.functions[f]
        .body
        .as_ref()
        .map_or(0, |b| b.span.range().len());
    if len <= share {
        return 1;
    }
    rayon::current_num_threads().min(len / MIN_PIECE_LEN)
}

/// The facts of `f`'s body read in about `count` pieces, in parallel; `None` when the body
/// cannot be cut, or the pieces do not make it.
pub(super) fn read_in_pieces(m: &Module, f: FuncId, count: usize) -> Option<BodyFacts> {
    // How a `swifterror` value is used is checked on a body read whole (the values are
    // Swift's, and rare): a parameter is known before reading, an alloca once read.
    if super::verify::has_swifterror_param(m, f) {
        return None;
    }
    let span = m.functions[f].body.as_ref()?.span;
    // A piece records every name it uses from the pieces before it as a forward reference,
    // so a later piece costs more per byte: the earlier ones take a tenth more text, and the
    // last one what remains (stress-10000 read: 5.0 -> 4.8 ms, 41 alternated runs).
    let piece_len = span.range().len() * 11 / 10 / count.max(1);
    let cuts = cuts(m.source.as_bytes(), span, piece_len);
    if cuts.is_empty() {
        return None;
    }
    let starts = std::iter::once(span.start as usize).chain(cuts.iter().copied());
    let ends = cuts.iter().map(|&c| Some(c)).chain([None]);
    let bounds: Vec<(usize, Option<usize>)> = starts.zip(ends).collect();
    let (pieces, mut gathered): (Vec<Piece>, Vec<Gathered>) = bounds
        .par_iter()
        .map(|&(from, to)| {
            let piece = Parser::read_piece(&m.source, m, f, from, to)?;
            let personality = m.functions[f].extras().personality.is_some();
            let gathered = Gathered::of(m, f, &piece, from == span.start as usize, personality);
            Ok((piece, gathered))
        })
        .collect::<Result<Vec<_>, crate::ReadError>>()
        .ok()?
        .into_iter()
        .unzip();
    // As are a `swifterror` alloca's uses, what a `"funclet"` bundle names and the calls the
    // convergence verifier asks about.
    if pieces.iter().any(|p| {
        let body = p.body();
        !body.swifterror_allocas.is_empty()
            || !body.funclet_operands.is_empty()
            || !body.convergence_calls.is_empty()
    }) {
        return None;
    }
    let facts = join(m, f, &pieces, &mut gathered);
    // Freeing the pieces' tables (tens of thousands of entries, large blocks of memory) takes
    // a fifth of a millisecond for a body of half a megabyte: a thread of the pool does it,
    // off the reading's path.
    let tables: Vec<_> = pieces.into_iter().map(Piece::into_tables).collect();
    rayon::spawn(move || drop(tables));
    facts
}

/// Where to cut the body at `span`: the starts of lines that follow an empty line and may
/// hold a label, about `piece_len` apart, none in the body's last `piece_len / 2` bytes.
fn cuts(src: &[u8], span: Span, piece_len: usize) -> Vec<usize> {
    let end = span.end as usize;
    let mut cuts = Vec::new();
    let mut from = span.start as usize + piece_len;
    let empty_line = search::Pair::new(*b"\n\n");
    while from + piece_len / 2 < end {
        let Some(at) = empty_line.find(&src[from..end]) else {
            break;
        };
        let cut = from + at + 2;
        if cut + piece_len / 2 >= end {
            break;
        }
        if !matches!(src[cut], b' ' | b'\t' | b'\r' | b'\n' | b'}' | b';' | b'#') {
            cuts.push(cut);
            from = cut + piece_len;
        } else {
            from = cut;
        }
    }
    cuts
}

/// What the join needs of a piece's blocks, gathered by the thread that read the piece, while
/// its tables are in that thread's cache: walking them from the joining thread fetched them
/// from another core's, a block at a time (stress-10000: the join took 0.9 ms, now 0.3).
struct Gathered {
    /// Each block's instructions (a range of `opcodes`) and its terminator's targets (a range
    /// of `targets`).
    blocks: Vec<GatheredBlock>,
    /// The opcode of every instruction, in order.
    opcodes: Vec<Opcode>,
    targets: Vec<Target>,
    passes_distinct_metadata: bool,
    /// What LLVM's verifier checks that the piece leaves to the join, in its own numbering
    /// (see `verify::Checks::absorb`); `None` when the piece fails a check on its own.
    checks: Option<Checks>,
    /// Locals the piece's lifetime markers name that another piece defines: allocas, the
    /// join checks.
    far_allocas: Vec<LocalId>,
}

struct GatheredBlock {
    insts: std::ops::Range<usize>,
    targets: std::ops::Range<usize>,
}

/// A local a terminator names that may be a block: one of the piece, or one it refers to
/// and another piece defines (a name the piece defines as a value is no target).
#[derive(Clone, Copy)]
enum Target {
    Here(BlockId),
    Elsewhere(LocalId),
}

impl Gathered {
    /// What the join needs of `piece` of `f`'s body, the body's first when `first`, of a
    /// function with a personality or not.
    fn of(m: &Module, f: FuncId, piece: &Piece, first: bool, personality: bool) -> Gathered {
        let body = piece.body();
        let opcodes = body.insts.values().map(|i| i.opcode).collect();
        let mut targets = Vec::new();
        let blocks = body
            .blocks
            .iter()
            .map(|(b, block)| {
                let first = targets.len();
                targets.extend(body.terminator_locals(b).filter_map(
                    |l| match body.locals[l].def {
                        LocalDef::Block(target) => Some(Target::Here(target)),
                        _ if piece.defines(l) => None,
                        _ => Some(Target::Elsewhere(l)),
                    },
                ));
                let insts =
                    block.first_inst as usize..(block.first_inst + block.inst_count) as usize;
                GatheredBlock {
                    insts,
                    targets: first..targets.len(),
                }
            })
            .collect();
        let mut checks = Checks::default();
        let far = |l| (!piece.defines(l)).then_some(Place::Far(l));
        let mut far_allocas = Vec::new();
        // A body that escapes or recovers a frame is read whole, whose check of these calls
        // sees every block.
        let mut frames = FrameUses::default();
        let held = checks
            .gather((m, body, &piece.uses), first, personality, far)
            .is_ok()
            && verify_metadata::metadata_holds(
                m,
                f,
                body,
                &piece.uses,
                &mut Default::default(),
                &mut far_allocas,
                &mut frames,
            )
            .is_ok()
            && frames.is_empty();
        Gathered {
            blocks,
            opcodes,
            targets,
            passes_distinct_metadata: passes_distinct_metadata(m, body, &piece.uses),
            checks: held.then_some(checks),
            far_allocas,
        }
    }
}

/// The facts of the body the pieces make, if they make one (see the module's comment).
fn join(m: &Module, f: FuncId, pieces: &[Piece], gathered: &mut [Gathered]) -> Option<BodyFacts> {
    let mut next_number = pieces[0].next_number();
    let mut numbers_skipped = false;
    for piece in &pieces[1..] {
        if let Some(first) = piece.first_number() {
            if first < next_number {
                return None;
            }
            numbers_skipped |= first > next_number;
            next_number = piece.next_number();
        }
    }
    // Each piece's names on a thread of its own: the pool's threads, just done reading the
    // pieces, are still awake (stress-10000-2, 8 runs each: 0.38-0.53 ms on this thread,
    // 0.29-0.31 on both).
    let far = (0..pieces.len())
        .into_par_iter()
        .map(|i| links(m, pieces, i))
        .collect::<Option<Vec<_>>>()?;
    // What a local of piece `i` that another piece defines is there: the piece and how.
    let far_def = |i: usize, l: LocalId| {
        far[i]
            .get(&l)
            .map(|&(j, def)| (j, pieces[j].body().locals[def].def))
    };
    // A lifetime marker's local another piece defines is an alloca there.
    let is_alloca = |i: usize, l: LocalId| match far_def(i, l) {
        Some((j, LocalDef::Inst(k))) => pieces[j].body().insts[k].opcode == Opcode::Alloca,
        _ => false,
    };
    let allocas_named =
        (0..pieces.len()).all(|i| gathered[i].far_allocas.iter().all(|&l| is_alloca(i, l)));
    if !allocas_named {
        return None;
    }
    let far_block = |i: usize, l: LocalId| match far_def(i, l) {
        Some((j, LocalDef::Block(b))) => Some((j, b)),
        _ => None,
    };
    let mut first_block = Vec::with_capacity(pieces.len());
    let mut first_inst = Vec::with_capacity(pieces.len());
    let (mut blocks, mut insts) = (0, 0);
    for g in gathered.iter() {
        first_block.push(blocks);
        first_inst.push(insts);
        blocks += g.blocks.len();
        insts += g.opcodes.len();
    }
    let target = |i: usize, target: Target| match target {
        Target::Here(target) => Some((i, target)),
        Target::Elsewhere(l) => far_block(i, l),
    };
    if !landing_types_agree(m, pieces, gathered) {
        return None;
    }
    let branches = verified(pieces, gathered, &far, &first_block, &first_inst, target)?;
    // The walk of §3 across pieces, as `Body::reachable_blocks` walks one body, on the
    // branches the checks found (function numbering).
    let mut seen = vec![false; blocks];
    let mut walk = Vec::new();
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b as usize], true) {
            continue;
        }
        let i = first_block.partition_point(|&first| first <= b as usize) - 1;
        walk.push((i, BlockId::new(b as usize - first_block[i])));
        let at = stack.len();
        stack.extend(
            branches
                .successors(b)
                .iter()
                .filter(|&&t| !seen[t as usize]),
        );
        stack[at..].reverse();
    }
    let last = pieces.last()?;
    let func = &m.functions[f];
    let llvm_walk = crate::model::llvm_walk(blocks, |b| {
        branches.successors(b as u32).iter().map(|&t| t as usize)
    });
    let block_at = |b: usize| {
        let i = first_block.partition_point(|&first| first <= b) - 1;
        let g = &gathered[i];
        g.opcodes[g.blocks[b - first_block[i]].insts.clone()]
            .iter()
            .copied()
    };
    let llvm_hash = crate::model::llvm_structural_hash(
        func.varargs,
        func.params.len(),
        llvm_walk.into_iter().map(block_at),
    );
    let info = BodyInfo {
        llvm_hash,
        span: pieces[0].span.to(last.span),
        blocks: blocks as u32,
        insts: gathered.iter().map(|g| g.opcodes.len() as u32).sum(),
        passes_distinct_metadata: gathered.iter().any(|g| g.passes_distinct_metadata),
        leaves_implicit: numbers_skipped || pieces.iter().any(|p| p.body().leaves_implicit),
        ..walk_facts(walk.iter().map(|&(i, b)| {
            let g = &gathered[i];
            g.opcodes[g.blocks[b.index()].insts.clone()]
                .iter()
                .map(|&o| o as u8)
        }))
    };
    let uses = pieces.iter().flat_map(|p| p.uses.iter().copied()).collect();
    let block_addresses = pieces
        .iter()
        .flat_map(|p| p.body().block_addresses.iter().copied())
        .collect();
    let first = |form: fn(&DebugForms) -> Option<Span>| {
        pieces.iter().find_map(|p| form(&p.body().debug_forms))
    };
    Some(BodyFacts {
        info,
        uses,
        debug_forms: DebugForms {
            record: first(|d| d.record),
            intrinsic_call: first(|d| d.intrinsic_call),
        },
        rare: RareFacts::boxed(
            last.body().use_list_orders,
            last.body().global_use_list_orders.clone(),
            block_addresses,
            pieces.iter().find_map(|p| p.body().mistyped_intrinsic_call),
            FrameUses::default(),
        ),
    })
}

/// Whether the body the pieces make passes the checks of LLVM's verifier (`read::verify`):
/// what each piece left to check, moved to the function's numbering, once the branches
/// between pieces are known. A body that fails is read whole, which reports the fault. The
/// branches, if it passes.
/// Whether every piece's landing pads and `resume`s have one type, as LLVM's verifier asks of a function.
fn landing_types_agree(m: &Module, pieces: &[Piece], gathered: &[Gathered]) -> bool {
    let mut landing = (0..pieces.len()).filter_map(|i| {
        let ty = gathered[i].checks.as_ref()?.landing_type?;
        Some((&pieces[i].body().types, ty))
    });
    let Some((first_types, first)) = landing.next() else {
        return true;
    };
    landing.all(|(types, ty)| m.types.same_in_bodies(first_types, first, types, ty))
}

fn verified(
    pieces: &[Piece],
    gathered: &mut [Gathered],
    far: &[FxHashMap<LocalId, (usize, LocalId)>],
    first_block: &[usize],
    first_inst: &[usize],
    target: impl Fn(usize, Target) -> Option<(usize, BlockId)>,
) -> Option<Branches> {
    let mut branches = Branches::default();
    for (i, g) in gathered.iter().enumerate() {
        for block in &g.blocks {
            let terminator = first_inst[i] + block.insts.end.saturating_sub(1);
            let successors = g.targets[block.targets.clone()]
                .iter()
                .filter_map(|&t| target(i, t))
                .map(|(j, b)| (first_block[j] + b.index()) as u32);
            let opcodes = &g.opcodes[block.insts.clone()];
            let first = (first_inst[i] + block.insts.start) as u32;
            let eh = BlockEh::of(first, opcodes.len() as u32, |k| opcodes[k as usize] as u8);
            branches.push_block(terminator as u32, successors, eh);
        }
    }
    let mut checks: Vec<Checks> = gathered
        .iter_mut()
        .map(|g| g.checks.take())
        .collect::<Option<_>>()?;
    branches.hold(checks.iter().any(|c| !c.is_empty())).ok()?;
    let gathered = &*gathered;
    // Where a local of piece `j` is defined, in the function's numbering.
    let place = |j: usize, l: LocalId| {
        let g = &gathered[j];
        Some(match pieces[j].body().locals[l].def {
            LocalDef::Arg(a) => Place::Arg(a),
            LocalDef::Block(b) => Place::Block((first_block[j] + b.index()) as u32),
            LocalDef::Inst(d) => {
                let block = g.blocks.partition_point(|b| b.insts.end <= d.index());
                let opcode = *g.opcodes.get(d.index())?;
                Place::Inst {
                    block: (first_block[j] + block) as u32,
                    inst: (first_inst[j] + d.index()) as u32,
                    on_edge: opcode == Opcode::Invoke,
                }
            }
        })
    };
    // Each piece's checks on a thread of its own, against the branches of the whole body.
    let held = checks.par_iter_mut().enumerate().all(|(i, c)| {
        // Each name another piece defines, found once (a piece uses most many times).
        let mut resolved = vec![None; pieces[i].body().locals.len()];
        for (&l, &(j, def)) in &far[i] {
            resolved[l.index()] = place(j, def);
        }
        let moved = (first_block[i] as u32, first_inst[i] as u32);
        c.localize(moved.0, moved.1, |l| resolved[l.index()])
            .is_some()
            && c.hold(&branches).is_ok()
    });
    held.then_some(branches)
}

/// Whether the names of piece `i` are as one reading would find them: those it defines are not
/// defined again in a later piece, those it only refers to are defined in another. If so, where
/// each it only refers to is defined: the piece, and the local there.
fn links(m: &Module, pieces: &[Piece], i: usize) -> Option<FxHashMap<LocalId, (usize, LocalId)>> {
    let mut far = FxHashMap::default();
    for (key, l, defines) in pieces[i].names() {
        if defines {
            // Numbers cannot repeat: each piece's lie above those of the pieces before.
            let later = &pieces[i + 1..];
            if !matches!(key, LocalKey::Number(_))
                && later
                    .iter()
                    .any(|q| matches!(q.find(&key), Some((_, true))))
            {
                return None;
            }
            continue;
        }
        let (j, def) = pieces
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .find_map(|(j, q)| match q.find(&key) {
                Some((def, true)) => Some((j, def)),
                _ => None,
            })?;
        // One type for the reference and the definition (else one reading gives the error);
        // a name used only where no type is written (in metadata) has none.
        let (here, there) = (pieces[i].body(), pieces[j].body());
        let (a, b) = (pieces[i].local_type(l), pieces[j].local_type(def));
        if !a.is_reserved_value() && !m.types.same_in_bodies(&here.types, a, &there.types, b) {
            return None;
        }
        far.insert(l, (j, def));
    }
    Some(far)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{Scratch, parse, read_whole};
    use std::fmt::Write;

    /// A body of `blocks` blocks whose names reach across any cut: a phi takes values of later
    /// blocks, branches go back and forth, values and blocks are named and numbered. From
    /// block `renumber_at` on, numbers start again ten lower (which one reading refuses).
    /// LLVM's verifier takes it: each phi has an entry for each predecessor.
    fn long_body(blocks: usize, renumber_at: Option<usize>) -> String {
        let (next, back) = (|i: usize| (i + 1) % blocks, |i: usize| (i * 7) % blocks);
        // Each block's predecessors, as the text below branches: in order, named as the phi's
        // entries name them, with the value each brings.
        let mut preds = vec![Vec::new(); blocks];
        preds[0].push(("%a".to_string(), "%entry".to_string()));
        let mut number = 0;
        let mut numbers = Vec::new();
        for (i, pred) in preds.iter_mut().enumerate() {
            if renumber_at == Some(i) {
                number -= 10;
            }
            if i % 3 == 2 {
                pred.push(("%a".to_string(), format!("%{number}")));
                number += 1;
            }
            numbers.push(number);
            number += 1;
        }
        for i in 0..blocks {
            for to in [next(i), back(i)] {
                preds[to].push((format!("%w{i}"), format!("%B{i}")));
            }
        }
        let mut text = String::from(
            "@g = global i32 0\ndeclare void @use(i32)\n\n\
             define i32 @f(i32 %a, i1 %c) {\nentry:\n  br label %B0\n",
        );
        for i in 0..blocks {
            let number = numbers[i];
            if i % 3 == 2 {
                write!(text, "\n{}:\n  br label %B{i}\n", number - 1).unwrap();
            }
            let entries: Vec<String> = preds[i]
                .iter()
                .map(|(value, block)| format!("[ {value}, {block} ]"))
                .collect();
            write!(
                text,
                "\nB{i}:\n  %v{i} = phi i32 {}\n  \
                 %{number} = add i32 %v{i}, %a\n  %w{i} = mul i32 %{number}, 3\n  \
                 %x{i} = load i32, ptr @g\n  call void @use(i32 %w{i})\n  \
                 br i1 %c, label %B{}, label %B{}\n",
                entries.join(", "),
                next(i),
                back(i),
            )
            .unwrap();
        }
        text.push_str("\nexit:\n  ret i32 %w0\n}\n");
        text
    }

    /// The facts of every body of `text`, read whole and in `count` pieces, or why not.
    fn whole_and_pieces(text: &str, count: usize) -> Vec<(String, Option<String>)> {
        let m = parse(text.to_string()).unwrap();
        let facts = |f: &BodyFacts| format!("{:?} {:?} {:?}", f.info, f.uses, f.debug_forms);
        let mut scratch = Scratch::default();
        m.definitions()
            .map(|f| {
                let whole = read_whole(&m, f, true, &mut scratch, None).unwrap();
                (
                    facts(&whole),
                    read_in_pieces(&m, f, count).map(|p| facts(&p)),
                )
            })
            .collect()
    }

    #[test]
    fn pieces_make_the_body_wherever_it_is_cut() {
        let text = long_body(200, None);
        for count in [2, 3, 7, 40, 150] {
            for (whole, pieces) in whole_and_pieces(&text, count) {
                let pieces = pieces.unwrap_or_else(|| panic!("{count} pieces did not join"));
                assert_eq!(whole, pieces, "{count} pieces");
            }
        }
    }

    /// A lifetime marker of an alloca another piece makes: the pieces join.
    #[test]
    fn pieces_take_lifetime_markers_of_allocas_made_in_others() {
        let text = long_body(200, None)
            .replacen("entry:\n", "entry:\n  %p = alloca i32\n", 1)
            .replacen(
                "%x170 = load i32, ptr @g",
                "%x170 = load i32, ptr @g\n  call void @llvm.lifetime.start.p0(ptr %p)",
                1,
            );
        for count in [2, 3, 7] {
            for (whole, pieces) in whole_and_pieces(&text, count) {
                assert_eq!(Some(whole), pieces, "{count} pieces");
            }
        }
    }

    /// The first debug record, or the first debug intrinsic call, is found in whichever piece
    /// holds it.
    #[test]
    fn pieces_find_the_first_debug_form() {
        let record = "#dbg_value(i32 %w, !0, !DIExpression(), !0)";
        let call =
            "call void @llvm.dbg.value(metadata i32 %w, metadata !0, metadata !DIExpression())";
        for (form, found) in [(record, "record: Some"), (call, "intrinsic_call: Some")] {
            let mut text = long_body(200, None);
            for i in [120, 170] {
                let at = format!("call void @use(i32 %w{i})");
                text = text.replacen(&at, &form.replace("%w", &format!("%w{i}")), 1);
            }
            text.push_str("!0 = !{}\n");
            for count in [2, 3, 7] {
                for (whole, pieces) in whole_and_pieces(&text, count) {
                    assert!(whole.contains(found), "{whole}");
                    assert_eq!(Some(whole), pieces, "{count} pieces");
                }
            }
        }
    }

    #[test]
    fn pieces_that_one_reading_would_refuse_do_not_join() {
        // The intrinsic declared after `@f`, which stays the second function.
        let good = long_body(60, None).replacen(
            "define i32 @f(i32 %a, i1 %c) {",
            "define i32 @f(i32 %a, i1 %c) personality ptr @use {",
            1,
        ) + "declare token @llvm.experimental.convergence.loop()\n";
        // A landing pad in a block that branches enter (LLVM's verifier), whose
        // predecessors are in other pieces.
        let landing_pad = |i: usize| {
            let phi = format!("%v{i} = phi i32 ");
            let at = good.find(&phi).unwrap();
            let end = at + good[at..].find('\n').unwrap();
            let mut bad = good.clone();
            bad.insert_str(
                end,
                &format!("\n  %lp{i} = landingpad {{ ptr, i32 }} cleanup"),
            );
            bad
        };
        // An unreachable block whose invoke unwinds to a landing pad of type `ty`, after
        // block `i`.
        let unwinding = |text: &str, i: usize, ty: &str| {
            let at = text.find(&format!("%x{i} = load")).unwrap();
            let end = at + text[at..].find("\n\n").unwrap();
            let mut bad = text.to_string();
            bad.insert_str(
                end,
                &format!(
                    "\nX{i}:\n  invoke void @use(i32 0) to label %X{i} unwind label %L{i}\n\
                     L{i}:\n  %lp{i} = landingpad {ty} cleanup\n  resume {ty} %lp{i}"
                ),
            );
            bad
        };
        let one_type = unwinding(&unwinding(&good, 5, "{ ptr, i32 }"), 50, "{ptr,i32}");
        assert!(parse(one_type).is_ok());
        let cases = [
            // Landing pads of two types (LLVM's verifier).
            (
                unwinding(&unwinding(&good, 5, "{ ptr, i32 }"), 50, "{ ptr, i64 }"),
                "should have a consistent result type",
            ),
            // A convergence control intrinsic without the token it asks for.
            (
                good.replacen(
                    "%x50 = load i32, ptr @g",
                    "%x50 = load i32, ptr @g\n  \
                     %tok = call token @llvm.experimental.convergence.loop()",
                    1,
                ),
                "Loop intrinsic must have a convergencectrl token operand",
            ),
            // A name defined again far from its first definition.
            (
                good.replacen("%x50 = load", "%x3 = load", 1),
                "redefinition of a local name",
            ),
            // Numbers that go down between two blocks.
            (long_body(60, Some(40)), "value expected to be numbered"),
            // A block never defined.
            (
                good.replacen("label %B40,", "label %B99,", 1),
                "use of undefined value",
            ),
            // A value used where its definition does not dominate the use (LLVM's verifier).
            (
                good.replacen("call void @use(i32 %w50)", "call void @use(i32 %w10)", 1),
                "does not dominate all uses",
            ),
            (
                good.replacen("call void @use(i32 %w35)", "call void @use(i32 %w36)", 1),
                "does not dominate all uses",
            ),
            (
                landing_pad(45),
                "jumped to only by the unwind edge of an invoke",
            ),
            (
                landing_pad(7),
                "jumped to only by the unwind edge of an invoke",
            ),
            // A `swifterror` value used otherwise than loaded, stored to or passed as one
            // (LLVM's verifier), far from where it is made.
            (
                good.replacen("entry:\n", "entry:\n  %se = alloca swifterror ptr\n", 1)
                    .replacen(
                        "%x50 = load i32, ptr @g",
                        "%x50 = getelementptr i8, ptr %se, i64 1",
                        1,
                    ),
                "swifterror value can only be loaded",
            ),
            // A lifetime marker of a pointer that is no alloca, made in another piece.
            (
                good.replacen(
                    "entry:\n",
                    "entry:\n  %p = getelementptr i8, ptr @g, i64 1\n",
                    1,
                )
                .replacen(
                    "%x50 = load i32, ptr @g",
                    "%x50 = load i32, ptr @g\n  call void @llvm.lifetime.start.p0(ptr %p)",
                    1,
                ),
                "llvm.lifetime.start/end can only be used on alloca or poison",
            ),
        ];
        for (bad, error) in cases {
            assert_ne!(bad, good);
            let e = parse(bad.clone()).unwrap_err().to_string();
            assert!(e.contains(error), "{e}");
            // The top level is the same: read the good text's, and the bad text's body.
            let mut m = parse(good.clone()).unwrap();
            let f = m.functions.keys().nth(1).unwrap();
            let end = bad.rfind('}').unwrap() + 1;
            m.functions[f].body.as_mut().unwrap().span.end = end as u32;
            m.source = Source::from(bad);
            for count in 2..40 {
                assert!(
                    read_in_pieces(&m, f, count).is_none(),
                    "{error}: {count} pieces joined"
                );
            }
        }
    }

    #[test]
    fn a_cut_inside_a_string_is_caught() {
        // A metadata string with empty lines and what looks like a label: cuts that fall
        // inside it leave a piece that does not end where the next begins.
        let mut text = long_body(40, None);
        let string = "  call void @llvm.md(metadata !\"x\n\nB5:\n  ret i32 0\n\n\")\n";
        let call = "  call void @use(i32 %w20)\n";
        text = text.replacen(call, &format!("{string}{call}"), 1);
        text.insert_str(0, "declare void @llvm.md(metadata)\n");
        let (mut joined, mut refused) = (0, 0);
        for count in 2..60 {
            for (whole, pieces) in whole_and_pieces(&text, count) {
                match pieces {
                    Some(pieces) => {
                        assert_eq!(whole, pieces, "{count} pieces");
                        joined += 1;
                    }
                    None => refused += 1,
                }
            }
        }
        assert!(
            joined > 0 && refused > 0,
            "{joined} joined, {refused} refused"
        );
    }

    #[test]
    fn corpus_bodies_read_alike_in_pieces() {
        let Some(dir) = std::env::var_os("MERGEFN_CORPUS") else {
            return;
        };
        let mut compared = 0;
        for path in crate::read::ll_files(dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            let m = parse(text).unwrap();
            let mut scratch = Scratch::default();
            for (f, func) in m.functions.iter() {
                let Some(body) = &func.body else { continue };
                if body.span.range().len() < 16 * 1024 {
                    continue;
                }
                if cuts(m.source.as_bytes(), body.span, body.span.range().len() / 4).is_empty() {
                    continue;
                }
                let whole = read_whole(&m, f, true, &mut scratch, None).unwrap();
                let pieces = read_in_pieces(&m, f, 4)
                    .unwrap_or_else(|| panic!("{}: a body did not join", path.display()));
                assert_eq!(
                    format!("{:?} {:?}", whole.info, whole.uses),
                    format!("{:?} {:?}", pieces.info, pieces.uses),
                    "{}",
                    path.display()
                );
                compared += 1;
            }
        }
        eprintln!("{compared} corpus bodies read alike in pieces");
        assert!(compared > 0);
    }
}
