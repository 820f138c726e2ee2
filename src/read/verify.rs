//! The checks of LLVM 22's verifier that a function body can fail once it parses: each use of
//! an instruction's value is reached only through its definition (dominance), phi nodes stand
//! first in their block and name each predecessor as often as it branches there, no branch
//! leads back to the entry block, and exception handling follows the rules of landing pads
//! and a `swifterror` value is only loaded, stored to or passed as one (the metadata
//! instructions name is checked in `verify_metadata.rs`). A body that breaks
//! several rules is reported for one of them, not always the first that LLVM prints.
//! `opt-22` refuses such a module ("input module is broken!") before any pass runs; merging
//! it would write a module no tool takes.
//!
//! Blocks and instructions are numbered in text order across the function, so that a body
//! read whole and one read in pieces (`pieces.rs`) are checked by the same code: what can be
//! told within a block is told as the body is gathered ([`Checks`]); the rest, once the
//! function's branches are known ([`Checks::hold`]).

use super::parser::NOT_YET_DEFINED;
use crate::model::{
    Attr, AttrKind, Block, Body, Const, ConvergenceCall, FloatKey, FuncId, GlobalId, GlobalKind,
    GlobalUse, InstId, IntValue, Item, LocalDef, LocalId, Module, Opcode, Param, Span, TypeId,
    UseRole, Value, ValueKind, float_key, int_value,
};
use cranelift_entity::EntityRef;

const NONE: u32 = u32::MAX;

/// Why a body fails, and where: the instruction (its index in the function) and, for a use,
/// the local it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fault {
    pub inst: u32,
    /// The local whose use fails, and the item of the instruction that names it.
    pub local: Option<(LocalId, u32)>,
    pub kind: FaultKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FaultKind {
    NotDominated,
    SelfReference,
    BranchToEntry,
    PhiNotFirst,
    PhiEntryCount,
    PhiEntryNotPredecessor,
    PhiEntriesDiffer,
    UnwindToNonPad,
    LandingPadPredecessor,
    LandingPadWithoutClause,
    PadInEntry,
    LandingPadTypeDiffers,
    ResumeTypeDiffers,
    LandingPadWithoutPersonality,
    LandingPadNotFirst,
    ResumeWithoutPersonality,
    CatchReturnWithoutCatchPad,
    CleanupReturnWithoutCleanupPad,
}

impl FaultKind {
    /// The message, with the words of LLVM's verifier (which `opt-22` prints without a place).
    pub(super) fn message(self) -> &'static str {
        match self {
            FaultKind::NotDominated => {
                "a value used where its definition does not dominate the use \
                 (LLVM's verifier: Instruction does not dominate all uses!)"
            }
            FaultKind::SelfReference => {
                "an instruction uses its own value \
                 (LLVM's verifier: Only PHI nodes may reference their own value!)"
            }
            FaultKind::BranchToEntry => {
                "a branch to the entry block \
                 (LLVM's verifier: Entry block to function must not have predecessors!)"
            }
            FaultKind::PhiNotFirst => {
                "a phi node after another instruction \
                 (LLVM's verifier: PHI nodes not grouped at top of basic block!)"
            }
            FaultKind::PhiEntryCount => {
                "a phi node without one entry for each predecessor of its block (LLVM's \
                 verifier: PHINode should have one entry for each predecessor of its parent \
                 basic block!)"
            }
            FaultKind::PhiEntryNotPredecessor => {
                "a phi node's entries do not match its block's predecessors \
                 (LLVM's verifier: PHI node entries do not match predecessors!)"
            }
            FaultKind::PhiEntriesDiffer => {
                "a phi node with different values for one block (LLVM's verifier: PHI node \
                 has multiple entries for the same basic block with different incoming values!)"
            }
            FaultKind::UnwindToNonPad => {
                "an invoke unwinds to a block that does not start with an exception-handling \
                 instruction (LLVM's verifier: The unwind destination does not have an \
                 exception handling instruction!)"
            }
            FaultKind::LandingPadPredecessor => {
                "a landing pad's block is entered other than by an invoke's unwind edge \
                 (LLVM's verifier: Block containing LandingPadInst must be jumped to only by \
                 the unwind edge of an invoke.)"
            }
            FaultKind::LandingPadWithoutClause => {
                "a landing pad without a clause or `cleanup` (LLVM's verifier: LandingPadInst \
                 needs at least one clause or to be a cleanup.)"
            }
            FaultKind::PadInEntry => {
                "an exception-handling pad in the entry block (LLVM's verifier: EH pad cannot \
                 be in entry block.)"
            }
            FaultKind::LandingPadTypeDiffers => {
                "a landing pad whose type is not that of the function's first landing pad or resume \
                 (LLVM's verifier: The landingpad instruction should have a consistent result \
                 type inside a function.)"
            }
            FaultKind::ResumeTypeDiffers => {
                "a resume whose type is not that of the function's first landing pad or resume \
                 (LLVM's verifier: The resume instruction should have a consistent result type \
                 inside a function.)"
            }
            FaultKind::LandingPadWithoutPersonality => {
                "a landing pad in a function without a personality (LLVM's verifier: \
                 LandingPadInst needs to be in a function with a personality.)"
            }
            FaultKind::LandingPadNotFirst => {
                "a landing pad after another instruction of its block (LLVM's verifier: \
                 LandingPadInst not the first non-PHI instruction in the block.)"
            }
            FaultKind::ResumeWithoutPersonality => {
                "a resume in a function without a personality (LLVM's verifier: ResumeInst \
                 needs to be in a function with a personality.)"
            }
            FaultKind::CatchReturnWithoutCatchPad => {
                "a catchret from something other than a catchpad (LLVM's verifier: \
                 CatchReturnInst needs to be provided a CatchPad)"
            }
            FaultKind::CleanupReturnWithoutCleanupPad => {
                "a cleanupret from something other than a cleanuppad (LLVM's verifier: \
                 CleanupReturnInst needs to be provided a CleanupPad)"
            }
        }
    }
}

/// Where a local that an instruction names is defined, in function numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// An instruction: its block, its index, and whether its value is defined on the edge to
    /// its block's first successor (an `invoke`'s normal destination), as LLVM defines it. (A
    /// `callbr`'s value is defined in its block: LLVM 22 lets every destination use it.)
    Inst {
        block: u32,
        inst: u32,
        on_edge: bool,
    },
    Arg(u32),
    Block(u32),
    /// Defined in another piece of the body, not yet known (see `pieces.rs`).
    Far(LocalId),
}

impl Place {
    /// Whether it may be an instruction's value (what dominance is asked of).
    fn is_instruction(self) -> bool {
        matches!(self, Place::Inst { .. } | Place::Far(_))
    }
}

/// A use of an instruction's value that its own block does not settle.
#[derive(Clone, Copy, Debug)]
struct Use {
    def: Place,
    /// Where the use happens: the using instruction's block, or for a phi the incoming block.
    block: Place,
    inst: u32,
    /// For a phi's incoming value, the phi's block; else `NONE`.
    phi_block: u32,
    /// The local used, and the item of the instruction that names it (to point at it).
    local: (LocalId, u32),
}

/// One incoming entry of a phi: the block, and the value (which the phi's other entries for
/// that block must repeat).
#[derive(Clone, Copy, Debug)]
struct Entry {
    block: Place,
    value: Incoming,
}

/// A phi's incoming value, as far as two entries for one block are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Incoming {
    Local(Place),
    /// A constant LLVM makes one value of whatever its spelling, or a global.
    Known(Known),
    /// Another constant (an expression may fold to anything): equal to any but a local.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// The null of the phi's type: `0`, `false`, `0.0`, `null`, `zeroinitializer`.
    Zero,
    Int(IntValue),
    Float(FloatKey),
    Undef,
    Poison,
    Global(GlobalId),
}

impl Incoming {
    /// Whether LLVM's two values for one block differ (`Other` differs from a local only).
    fn differs(self, other: Incoming) -> bool {
        match (self, other) {
            (Incoming::Local(a), Incoming::Local(b)) => a != b,
            (Incoming::Local(_), _) | (_, Incoming::Local(_)) => true,
            (Incoming::Known(a), Incoming::Known(b)) => a != b,
            _ => false,
        }
    }

    /// The incoming value `v`, not a local, of a phi of `body` (its own uses of globals
    /// `uses`).
    fn of(m: &Module, body: &Body, uses: &[GlobalUse], v: Value) -> Incoming {
        let src = m.source.as_bytes();
        let known = match v.kind() {
            ValueKind::Global(u) => m.use_in_body(uses, u).map(|u| Known::Global(u.global)),
            ValueKind::Const(c) => match *body.constant(m, c) {
                Const::Null | Const::Zero => Some(Known::Zero),
                Const::Undef => Some(Known::Undef),
                Const::Poison => Some(Known::Poison),
                Const::Int(span, width) => int_value(&src[span.range()], width).map(|v| {
                    if v.is_zero() {
                        Known::Zero
                    } else {
                        Known::Int(v)
                    }
                }),
                Const::Float(span) => float_key(&src[span.range()]).map(|f| {
                    if f.is_zero() {
                        Known::Zero
                    } else {
                        Known::Float(f)
                    }
                }),
                _ => None,
            },
            ValueKind::Local(_) => None,
        };
        known.map_or(Incoming::Other, Incoming::Known)
    }
}

/// A phi: its instruction, its block and its range of [`Checks::entries`].
#[derive(Clone, Copy, Debug)]
struct Phi {
    inst: u32,
    block: u32,
    entries: (u32, u32),
}

/// The checks of a body read whole, with the buffers a thread keeps from one body to the next.
#[derive(Default)]
pub(super) struct BodyChecks {
    branches: Branches,
    checks: Checks,
}

impl BodyChecks {
    /// Check the body of a function of `m` read whole (its own uses of globals `uses`), which
    /// has a personality function or not; `one_block_in_order` tells that it is one block that
    /// names each instruction's value after (in the text) the instruction.
    pub(super) fn body_holds(
        &mut self,
        (m, body, uses): (&Module, &Body, &[GlobalUse]),
        personality: bool,
        one_block_in_order: bool,
    ) -> Result<(), Fault> {
        // Most small functions are such a block: only a phi, an exception-handling pad or
        // `resume`, or a branch back to the block could fail.
        if one_block_in_order
            && let Some(only) = body.entry()
            && !body.successors(only).any(|s| s == only)
            && !body
                .insts
                .values()
                .any(|i| i.opcode == Opcode::Phi || is_pad_or_resume(i.opcode))
        {
            return Ok(());
        }
        self.branches.clear();
        for (b, block) in body.blocks.iter() {
            let successors = body.successors(b).map(|s| s.index() as u32);
            let opcode_at =
                |k: u32| body.insts[InstId::from_u32(block.first_inst + k)].opcode as u8;
            let eh = BlockEh::of(block.first_inst, block.inst_count, opcode_at);
            self.branches.push_block(terminator(block), successors, eh);
        }
        self.checks.clear();
        self.checks
            .gather((m, body, uses), true, personality, |_| None)?;
        self.branches.hold(!self.checks.is_empty())?;
        self.checks.hold(&self.branches)
    }
}

/// What a function's body, or a piece of it, leaves to check once the branches are known,
/// and the buffers to check it with.
#[derive(Default)]
pub(super) struct Checks {
    uses: Vec<Use>,
    phis: Vec<Phi>,
    entries: Vec<Entry>,
    /// The block of each instruction of the body gathered, made when a use needs it.
    inst_blocks: Vec<u32>,
    /// The type of the first landing pad or `resume` gathered, which every other must have.
    pub(super) landing_type: Option<TypeId>,
    sorted_preds: Vec<u32>,
    sorted_entries: Vec<(u32, Incoming)>,
}

impl Checks {
    fn clear(&mut self) {
        self.uses.clear();
        self.phis.clear();
        self.entries.clear();
        self.landing_type = None;
    }

    /// Whether nothing is left to check but the branches.
    pub(super) fn is_empty(&self) -> bool {
        self.uses.is_empty() && self.phis.is_empty()
    }

    /// Gather what the instructions of `body` (the whole body, or a piece, numbered on its
    /// own: see [`Checks::localize`]) leave to check, and check what each block settles: a use
    /// after its definition in the same block, phi nodes first, landing pads and `resume` as
    /// LLVM's verifier takes them in a function with a `personality` or without. `far` says
    /// which locals another piece defines; `entry`, whether the body's first block is the
    /// function's.
    pub(super) fn gather(
        &mut self,
        (m, body, uses): (&Module, &Body, &[GlobalUse]),
        entry: bool,
        personality: bool,
        far: impl Fn(LocalId) -> Option<Place>,
    ) -> Result<(), Fault> {
        self.inst_blocks.clear();
        let entry_end = match body.blocks.values().next() {
            Some(first) if entry => first.first_inst + first.inst_count,
            _ => 0,
        };
        for (b, block) in body.blocks.iter() {
            let mut phis_done = false;
            for i in block.insts() {
                let opcode = body.insts[i].opcode;
                if is_pad_or_resume(opcode) {
                    let in_entry = entry && b.index() == 0;
                    let place = (in_entry, phis_done);
                    let landing_type = &mut self.landing_type;
                    pad_or_resume_holds((m, body), i, place, personality, landing_type)?;
                }
                if opcode != Opcode::Phi {
                    phis_done = true;
                    self.gather_operands(body, (b.index() as u32, block), i, entry_end, &far);
                } else if phis_done {
                    return Err(Fault {
                        inst: i.as_u32(),
                        local: None,
                        kind: FaultKind::PhiNotFirst,
                    });
                } else {
                    let phi = (b.index() as u32, i);
                    self.gather_phi((m, body, uses), phi, entry_end, &far);
                }
            }
        }
        Ok(())
    }

    /// The uses of instruction `i`, not a phi, of block `here`, that the block does not
    /// settle.
    fn gather_operands(
        &mut self,
        body: &Body,
        (here, block): (u32, &Block),
        i: InstId,
        entry_end: u32,
        far: &impl Fn(LocalId) -> Option<Place>,
    ) {
        let at = i.as_u32();
        for (k, item) in body.items(i).iter().enumerate() {
            let Item::Value(v) = item else { continue };
            let ValueKind::Local(l) = v.kind() else {
                continue;
            };
            match body.locals[l].def {
                // Most uses follow their definition in the same block.
                LocalDef::Inst(d)
                    if (block.first_inst..at).contains(&d.as_u32())
                        || (here != 0 && dominates_all(body, d, entry_end)) =>
                {
                    continue;
                }
                LocalDef::Block(_) => continue,
                _ => {}
            }
            let def = self.place(body, l, far);
            if def.is_instruction() {
                self.uses.push(Use {
                    def,
                    block: Place::Block(here),
                    inst: at,
                    phi_block: NONE,
                    local: (l, k as u32),
                });
            }
        }
    }

    /// The entries of phi `i` of block `here`, and the uses among them that an entry-block
    /// value does not settle.
    fn gather_phi(
        &mut self,
        (m, body, uses): (&Module, &Body, &[GlobalUse]),
        (here, i): (u32, InstId),
        entry_end: u32,
        far: &impl Fn(LocalId) -> Option<Place>,
    ) {
        // The type, then pairs of a value and a block.
        let items = body.items(i);
        let start = items
            .iter()
            .position(|it| matches!(it, Item::Type(_)))
            .map_or(items.len(), |p| p + 1);
        let first_entry = self.entries.len() as u32;
        for (k, pair) in (start..).step_by(2).zip(items[start..].chunks_exact(2)) {
            let (Item::Value(v), Item::Value(from)) = (pair[0], pair[1]) else {
                continue;
            };
            let ValueKind::Local(from) = from.kind() else {
                continue;
            };
            let from = self.place(body, from, far);
            let value = match v.kind() {
                ValueKind::Local(l) => {
                    let def = self.place(body, l, far);
                    let settled = matches!(body.locals[l].def,
                        LocalDef::Inst(d) if dominates_all(body, d, entry_end));
                    if def.is_instruction() && !settled {
                        self.uses.push(Use {
                            def,
                            block: from,
                            inst: i.as_u32(),
                            phi_block: here,
                            local: (l, k as u32),
                        });
                    }
                    Incoming::Local(def)
                }
                _ => Incoming::of(m, body, uses, v),
            };
            self.entries.push(Entry { block: from, value });
        }
        self.phis.push(Phi {
            inst: i.as_u32(),
            block: here,
            entries: (first_entry, self.entries.len() as u32),
        });
    }

    /// Move what a piece left to check (gathered with its own numbering) to the function's:
    /// its blocks start at `first_block`, its instructions at `first_inst`, and `far` says
    /// where what other pieces define is (`None`: nowhere, which fails).
    pub(super) fn localize(
        &mut self,
        first_block: u32,
        first_inst: u32,
        far: impl Fn(LocalId) -> Option<Place>,
    ) -> Option<()> {
        let moved = |place: Place| {
            Some(match place {
                Place::Inst {
                    block,
                    inst,
                    on_edge,
                } => Place::Inst {
                    block: block + first_block,
                    inst: inst + first_inst,
                    on_edge,
                },
                Place::Block(b) => Place::Block(b + first_block),
                Place::Arg(a) => Place::Arg(a),
                Place::Far(l) => far(l)?,
            })
        };
        for u in &mut self.uses {
            u.def = moved(u.def)?;
            u.block = moved(u.block)?;
            u.inst += first_inst;
            if u.phi_block != NONE {
                u.phi_block += first_block;
            }
        }
        for e in &mut self.entries {
            e.block = moved(e.block)?;
            if let Incoming::Local(v) = e.value {
                e.value = Incoming::Local(moved(v)?);
            }
        }
        for p in &mut self.phis {
            p.inst += first_inst;
            p.block += first_block;
        }
        Some(())
    }

    /// Where `l`, a local of `body`, is defined, in function numbering.
    fn place(&mut self, body: &Body, l: LocalId, far: &impl Fn(LocalId) -> Option<Place>) -> Place {
        if let Some(place) = far(l) {
            return place;
        }
        match body.locals[l].def {
            LocalDef::Arg(a) => Place::Arg(a),
            LocalDef::Block(b) => Place::Block(b.index() as u32),
            LocalDef::Inst(d) => {
                if self.inst_blocks.is_empty() {
                    for (b, block) in body.blocks.iter() {
                        let count = block.inst_count as usize;
                        self.inst_blocks
                            .extend(std::iter::repeat_n(b.index() as u32, count));
                    }
                }
                Place::Inst {
                    block: self.inst_blocks[d.index()],
                    inst: d.as_u32(),
                    on_edge: body.insts[d].opcode == Opcode::Invoke,
                }
            }
        }
    }

    /// Check what is left once the branches are known ([`Branches::hold`]) and every place
    /// is (a place still [`Place::Far`] fails): phi entries that match the predecessors, uses
    /// their definitions dominate.
    pub(super) fn hold(&mut self, branches: &Branches) -> Result<(), Fault> {
        for phi in &self.phis {
            let preds = branches.flow.predecessors(phi.block);
            let entries = &self.entries[phi.entries.0 as usize..phi.entries.1 as usize];
            let fault = |kind| Fault {
                inst: phi.inst,
                local: None,
                kind,
            };
            if entries.len() != preds.len() {
                return Err(fault(FaultKind::PhiEntryCount));
            }
            self.sorted_preds.clear();
            self.sorted_preds.extend_from_slice(preds);
            self.sorted_preds.sort_unstable();
            self.sorted_entries.clear();
            self.sorted_entries
                .extend(entries.iter().map(|e| (block_number(e.block), e.value)));
            self.sorted_entries.sort_by_key(|e| e.0);
            for (i, &(block, value)) in self.sorted_entries.iter().enumerate() {
                if let Some(&(before, other)) = i.checked_sub(1).map(|j| &self.sorted_entries[j])
                    && before == block
                    && other.differs(value)
                {
                    return Err(fault(FaultKind::PhiEntriesDiffer));
                }
                if block != self.sorted_preds[i] {
                    return Err(fault(FaultKind::PhiEntryNotPredecessor));
                }
            }
        }
        for u in &self.uses {
            if !branches.reaches(u) {
                let self_reference = matches!(u.def, Place::Inst { inst, .. } if inst == u.inst)
                    && u.phi_block == NONE;
                return Err(Fault {
                    inst: u.inst,
                    local: Some(u.local),
                    kind: match self_reference {
                        true => FaultKind::SelfReference,
                        false => FaultKind::NotDominated,
                    },
                });
            }
        }
        Ok(())
    }
}

/// A function's blocks and branches, and what the checks ask of them: predecessors and the
/// dominator tree.
#[derive(Default)]
pub(super) struct Branches {
    /// Each block's terminator (function numbering).
    terminators: Vec<u32>,
    /// What each block's unwind edges concern.
    eh: Vec<BlockEh>,
    flow: Flow,
    dominators: Dominators,
}

/// What the exception-handling rules ask of a block: whether its terminator is an `invoke`,
/// and what its first instruction that is not a phi is.
#[derive(Clone, Copy, Debug)]
pub(super) struct BlockEh {
    invoke: bool,
    pad: Pad,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pad {
    None,
    /// A `landingpad`: the instruction.
    Landing(u32),
    /// `catchswitch`, `catchpad` or `cleanuppad` (whose own rules are not checked).
    Other,
}

impl BlockEh {
    /// From a block of `len` instructions, the first numbered `first`, whose opcodes
    /// (`Opcode as u8`) `opcode_at` gives by their place in the block.
    pub(super) fn of(first: u32, len: u32, opcode_at: impl Fn(u32) -> u8) -> BlockEh {
        let is = |opcode: u8, among: &[Opcode]| among.iter().any(|&o| o as u8 == opcode);
        let pad = (0..len)
            .find(|&k| opcode_at(k) != Opcode::Phi as u8)
            .map_or(Pad::None, |k| match opcode_at(k) {
                o if o == Opcode::LandingPad as u8 => Pad::Landing(first + k),
                o if is(
                    o,
                    &[Opcode::CatchSwitch, Opcode::CatchPad, Opcode::CleanupPad],
                ) =>
                {
                    Pad::Other
                }
                _ => Pad::None,
            });
        BlockEh {
            invoke: len > 0 && opcode_at(len - 1) == Opcode::Invoke as u8,
            pad,
        }
    }
}

impl Branches {
    fn clear(&mut self) {
        self.terminators.clear();
        self.eh.clear();
        self.flow.clear();
    }

    /// Add a block (function numbering) whose terminator, the instruction `terminator`,
    /// branches to `successors`.
    pub(super) fn push_block(
        &mut self,
        terminator: u32,
        successors: impl Iterator<Item = u32>,
        eh: BlockEh,
    ) {
        self.terminators.push(terminator);
        self.eh.push(eh);
        self.flow.push_block(successors);
    }

    /// The blocks block `b` branches to, as often as its terminator names them.
    pub(super) fn successors(&self, b: u32) -> &[u32] {
        self.flow.successors(b)
    }

    /// Check that no branch returns to the entry block and that unwind edges are as LLVM's
    /// verifier takes them; then, when checks are `pending`, find the dominator tree they ask
    /// of the branches.
    pub(super) fn hold(&mut self, pending: bool) -> Result<(), Fault> {
        if let Some(from) =
            (0..self.flow.blocks() as u32).find(|&b| self.flow.successors(b).contains(&0))
        {
            return Err(Fault {
                inst: self.terminators[from as usize],
                local: None,
                kind: FaultKind::BranchToEntry,
            });
        }
        let landing_pads = self.eh.iter().any(|e| matches!(e.pad, Pad::Landing(_)));
        if pending || landing_pads {
            self.flow.find_predecessors();
        }
        self.unwind_edges_hold()?;
        if pending {
            self.dominators.compute(&self.flow);
        }
        Ok(())
    }

    /// Each `invoke` unwinds to a block that starts with an exception-handling pad, and a
    /// block that starts with a `landingpad` is entered only by the unwind edges of invokes:
    /// the first fault in the order of LLVM's verifier (a block's landing pad before its
    /// terminator).
    fn unwind_edges_hold(&self) -> Result<(), Fault> {
        for (b, eh) in self.eh.iter().enumerate() {
            if let Pad::Landing(pad) = eh.pad {
                let unwinds_here = |&p: &u32| {
                    let from = self.flow.successors(p);
                    self.eh[p as usize].invoke
                        && from.get(1) == Some(&(b as u32))
                        && from.first() != Some(&(b as u32))
                };
                if !self.flow.predecessors(b as u32).iter().all(unwinds_here) {
                    return Err(Fault {
                        inst: pad,
                        local: None,
                        kind: FaultKind::LandingPadPredecessor,
                    });
                }
            }
            if eh.invoke
                && let Some(&unwind) = self.flow.successors(b as u32).get(1)
                && self.eh[unwind as usize].pad == Pad::None
            {
                return Err(Fault {
                    inst: self.terminators[b],
                    local: None,
                    kind: FaultKind::UnwindToNonPad,
                });
            }
        }
        Ok(())
    }

    /// Whether the definition of `u` dominates it, as LLVM's `DominatorTree::dominates(Value,
    /// Use)` tells: a use no path reaches always is; a definition no path reaches dominates
    /// nothing; an `invoke`'s value is defined on an edge.
    fn reaches(&self, u: &Use) -> bool {
        let Place::Inst {
            block: def_block,
            inst: def_inst,
            on_edge,
        } = u.def
        else {
            // An argument, or a block another piece names (a label, not a value).
            return true;
        };
        let dom = &self.dominators;
        let block = block_number(u.block);
        if !dom.reached(block) {
            return true;
        }
        if !dom.reached(def_block) {
            return false;
        }
        if on_edge {
            let Some(&end) = self.flow.successors(def_block).first() else {
                return false;
            };
            // A phi of the edge's end, for the value coming along the edge.
            if u.phi_block == end && block == def_block {
                return true;
            }
            return self.edge_dominates(def_block, end, block);
        }
        if def_block != block {
            return dom.dominates(def_block, block);
        }
        u.phi_block != NONE || def_inst < u.inst
    }

    /// LLVM's `DominatorTree::dominates(BasicBlockEdge, BasicBlock)`: the edge from `start`
    /// to `end` dominates `block` when `end` does and every other way into `end` comes from a
    /// block `end` dominates (the edge, split, would dominate `end`).
    fn edge_dominates(&self, start: u32, end: u32, block: u32) -> bool {
        let dom = &self.dominators;
        if !dom.dominates(end, block) {
            return false;
        }
        let preds = self.flow.predecessors(end);
        if preds.len() == 1 {
            return true;
        }
        let mut from_start = 0;
        for &p in preds {
            if p == start {
                from_start += 1;
                if from_start > 1 {
                    return false;
                }
            } else if !dom.dominates(end, p) {
                return false;
            }
        }
        true
    }
}

/// Whether an instruction of `opcode` is an exception-handling pad, a `resume` or a return
/// from a pad, which [`pad_or_resume_holds`] checks.
fn is_pad_or_resume(opcode: Opcode) -> bool {
    matches!(
        opcode,
        Opcode::LandingPad
            | Opcode::Resume
            | Opcode::CatchSwitch
            | Opcode::CatchPad
            | Opcode::CleanupPad
            | Opcode::CatchRet
            | Opcode::CleanupRet
    )
}

/// What LLVM's verifier asks of pad, `resume` or return from a pad `i` that its block
/// settles, in its order: a `catchret` returns from a `catchpad` and a `cleanupret` from a
/// `cleanuppad` (one another piece of the body defines is taken as one), a landing pad has a
/// clause or `cleanup`, no pad stands in the entry block, a landing pad or `resume` is in a
/// function with a personality (a landing pad's type checked first, a `resume`'s after) and
/// has the type of the first of them (`landing_type`, set by the first), and a landing pad
/// comes before any other instruction of its block but phis (`after_others`: one came before
/// it).
fn pad_or_resume_holds(
    (m, body): (&Module, &Body),
    i: InstId,
    (in_entry, after_others): (bool, bool),
    personality: bool,
    landing_type: &mut Option<TypeId>,
) -> Result<(), Fault> {
    let fault = |kind| {
        Err(Fault {
            inst: i.as_u32(),
            local: None,
            kind,
        })
    };
    let returns_from = |pad: Opcode| {
        let from = body.items(i).iter().find_map(|it| match it {
            Item::Value(v) => Some(v.kind()),
            _ => None,
        });
        match from {
            Some(ValueKind::Local(l)) => match body.locals[l].def {
                LocalDef::Inst(d) => body.insts[d].opcode == pad,
                NOT_YET_DEFINED => true,
                _ => false,
            },
            _ => false,
        }
    };
    match body.insts[i].opcode {
        Opcode::CatchRet if !returns_from(Opcode::CatchPad) => {
            fault(FaultKind::CatchReturnWithoutCatchPad)
        }
        Opcode::CleanupRet if !returns_from(Opcode::CleanupPad) => {
            fault(FaultKind::CleanupReturnWithoutCleanupPad)
        }
        Opcode::CatchRet | Opcode::CleanupRet => Ok(()),
        Opcode::Resume if !personality => fault(FaultKind::ResumeWithoutPersonality),
        Opcode::Resume if !landing_type_holds(m, body, i, landing_type) => {
            fault(FaultKind::ResumeTypeDiffers)
        }
        Opcode::Resume => Ok(()),
        // The type, then `cleanup` and the clauses.
        Opcode::LandingPad if body.items(i).len() < 2 => fault(FaultKind::LandingPadWithoutClause),
        _ if in_entry => fault(FaultKind::PadInEntry),
        Opcode::LandingPad if !landing_type_holds(m, body, i, landing_type) => {
            fault(FaultKind::LandingPadTypeDiffers)
        }
        Opcode::LandingPad if !personality => fault(FaultKind::LandingPadWithoutPersonality),
        Opcode::LandingPad if after_others => fault(FaultKind::LandingPadNotFirst),
        _ => Ok(()),
    }
}

/// Whether landing pad or `resume` `i` has the type of the first of them, or is the first.
fn landing_type_holds(
    m: &Module,
    body: &Body,
    i: InstId,
    landing_type: &mut Option<TypeId>,
) -> bool {
    let Some(&Item::Type(ty)) = body.items(i).first() else {
        return true;
    };
    match *landing_type {
        Some(first) => m.types.same_in_bodies(&body.types, first, &body.types, ty),
        None => {
            *landing_type = Some(ty);
            true
        }
    }
}

/// How many of `items` name the local `l`.
pub(super) fn occurrences(items: &[Item], l: LocalId) -> usize {
    let named = |it: &&Item| matches!(it, Item::Value(v) if v.kind() == ValueKind::Local(l));
    items.iter().filter(named).count()
}

/// Whether the value of instruction `d` dominates every block but the entry: it is in the
/// entry block (which ends at `entry_end`) and not an invoke (at -O0, most uses across
/// blocks are of the entry's allocas).
fn dominates_all(body: &Body, d: InstId, entry_end: u32) -> bool {
    d.as_u32() < entry_end && body.insts[d].opcode != Opcode::Invoke
}

/// A block's last instruction, its terminator.
pub(super) fn terminator(block: &crate::model::Block) -> u32 {
    (block.first_inst + block.inst_count).saturating_sub(1)
}

/// The number of a block's place.
fn block_number(place: Place) -> u32 {
    match place {
        Place::Block(b) => b,
        _ => NONE,
    }
}

/// A function's branches: each block's successors, as often as its terminator names them,
/// and once every block is added, each block's predecessors likewise.
#[derive(Default)]
struct Flow {
    starts: Vec<u32>,
    targets: Vec<u32>,
    pred_starts: Vec<u32>,
    preds: Vec<u32>,
    /// Where the next predecessor of each block goes, while they are found.
    fill: Vec<u32>,
}

impl Flow {
    fn clear(&mut self) {
        self.starts.clear();
        self.targets.clear();
    }

    fn push_block(&mut self, successors: impl Iterator<Item = u32>) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.targets.extend(successors);
        self.starts.push(self.targets.len() as u32);
    }

    fn blocks(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn successors(&self, b: u32) -> &[u32] {
        &self.targets[self.starts[b as usize] as usize..self.starts[b as usize + 1] as usize]
    }

    fn predecessors(&self, b: u32) -> &[u32] {
        &self.preds
            [self.pred_starts[b as usize] as usize..self.pred_starts[b as usize + 1] as usize]
    }

    /// Count each block's predecessors, from every block, reached or not (as LLVM's
    /// `predecessors` does), in block order.
    fn find_predecessors(&mut self) {
        let n = self.blocks();
        self.pred_starts.clear();
        self.pred_starts.resize(n + 1, 0);
        for &t in &self.targets {
            self.pred_starts[t as usize + 1] += 1;
        }
        for b in 0..n {
            self.pred_starts[b + 1] += self.pred_starts[b];
        }
        self.preds.clear();
        self.preds.resize(self.targets.len(), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.pred_starts);
        let fill = &mut self.fill;
        for b in 0..n {
            for &t in &self.targets[self.starts[b] as usize..self.starts[b + 1] as usize] {
                self.preds[fill[t as usize] as usize] = b as u32;
                fill[t as usize] += 1;
            }
        }
    }
}

/// The dominator tree of a function's blocks reached from the entry (block 0), by Lengauer
/// and Tarjan's algorithm ("A Fast Algorithm for Finding Dominators in a Flowgraph", the
/// simple version: path compression without balancing), with each block's interval in a walk
/// of the tree, so that a query is two comparisons. Its time grows as `m log n` whatever the
/// shape of the graph; Cooper, Harvey and Kennedy's iteration, used before, walks up the tree
/// from each predecessor of a block, quadratic in a chain of blocks that all branch to one
/// (a function of 50,000 such blocks took 2.3 s).
#[derive(Default)]
struct Dominators {
    /// Each block's number in a depth-first preorder from the entry; `NONE` when no path
    /// reaches it.
    order: Vec<u32>,
    /// The blocks reached, in that preorder.
    vertices: Vec<u32>,
    /// By preorder number: the parent in the depth-first walk, the semidominator, the
    /// vertex of least semidominator on the compressed path, the ancestor in the forest being
    /// linked, the immediate dominator (preorder numbers).
    parent: Vec<u32>,
    semi: Vec<u32>,
    label: Vec<u32>,
    ancestor: Vec<u32>,
    dom: Vec<u32>,
    /// The vertices whose semidominator is each vertex, as linked lists.
    bucket: Vec<u32>,
    next_in_bucket: Vec<u32>,
    path: Vec<u32>,
    idom: Vec<u32>,
    /// Each block's interval in a depth-first walk of the tree: `a` dominates `b` when `a`'s
    /// holds `b`'s start.
    enter: Vec<u32>,
    leave: Vec<u32>,
    children_starts: Vec<u32>,
    children: Vec<u32>,
    /// Where the next child of each block goes, while they are found.
    fill: Vec<u32>,
    stack: Vec<(u32, u32)>,
}

impl Dominators {
    fn reached(&self, b: u32) -> bool {
        self.order.get(b as usize).is_some_and(|&o| o != NONE)
    }

    /// Whether `a` dominates `b`, as LLVM's `dominates(BasicBlock, BasicBlock)`: a block no
    /// path reaches is dominated by every block, and dominates none but itself.
    fn dominates(&self, a: u32, b: u32) -> bool {
        if a == b || !self.reached(b) {
            return true;
        }
        if !self.reached(a) {
            return false;
        }
        let (a, b) = (a as usize, b as usize);
        self.enter[a] <= self.enter[b] && self.enter[b] < self.leave[a]
    }

    fn compute(&mut self, flow: &Flow) {
        let n = flow.blocks();
        self.preorder(flow);
        self.idom.clear();
        self.idom.resize(n, NONE);
        if n == 0 {
            return;
        }
        self.immediate_dominators(flow);
        for (w, &block) in self.vertices.iter().enumerate() {
            self.idom[block as usize] = self.vertices[self.dom[w] as usize];
        }
        self.number_tree(n);
    }

    /// The blocks reached from the entry in depth-first preorder, successors taken in order,
    /// with each one's parent in the walk.
    fn preorder(&mut self, flow: &Flow) {
        let n = flow.blocks();
        self.order.clear();
        self.order.resize(n, NONE);
        self.vertices.clear();
        self.parent.clear();
        if n == 0 {
            return;
        }
        self.stack.clear();
        self.stack.push((0, 0));
        self.order[0] = 0;
        self.vertices.push(0);
        self.parent.push(0);
        while let Some(&mut (b, ref mut next)) = self.stack.last_mut() {
            let successors = flow.successors(b);
            let Some(&s) = successors.get(*next as usize) else {
                self.stack.pop();
                continue;
            };
            *next += 1;
            if self.order[s as usize] == NONE {
                self.order[s as usize] = self.vertices.len() as u32;
                self.parent.push(self.order[b as usize]);
                self.vertices.push(s);
                self.stack.push((s, 0));
            }
        }
    }

    /// Each reached vertex's immediate dominator, by preorder number, in `dom`.
    fn immediate_dominators(&mut self, flow: &Flow) {
        let r = self.vertices.len();
        for (v, value) in [
            (&mut self.ancestor, NONE),
            (&mut self.dom, 0),
            (&mut self.bucket, NONE),
            (&mut self.next_in_bucket, NONE),
        ] {
            v.clear();
            v.resize(r, value);
        }
        for v in [&mut self.semi, &mut self.label] {
            v.clear();
            v.extend(0..r as u32);
        }
        for w in (1..r).rev() {
            for &p in flow.predecessors(self.vertices[w]) {
                let v = self.order[p as usize];
                if v == NONE {
                    continue;
                }
                let u = self.eval(v);
                if self.semi[u as usize] < self.semi[w] {
                    self.semi[w] = self.semi[u as usize];
                }
            }
            let s = self.semi[w] as usize;
            self.next_in_bucket[w] = self.bucket[s];
            self.bucket[s] = w as u32;
            let parent = self.parent[w];
            self.ancestor[w] = parent;
            let mut v = std::mem::replace(&mut self.bucket[parent as usize], NONE);
            while v != NONE {
                let u = self.eval(v);
                self.dom[v as usize] = match self.semi[u as usize] < self.semi[v as usize] {
                    true => u,
                    false => parent,
                };
                v = self.next_in_bucket[v as usize];
            }
        }
        for w in 1..r {
            if self.dom[w] != self.semi[w] {
                self.dom[w] = self.dom[self.dom[w] as usize];
            }
        }
    }

    /// The vertex of least semidominator on the path from `v` up to the root of its tree in
    /// the forest linked so far (`v` itself at a root), the path compressed on the way.
    fn eval(&mut self, v: u32) -> u32 {
        if self.ancestor[v as usize] == NONE {
            return v;
        }
        // Compressed from the top down, without recursion: the path may be as long as the
        // function has blocks.
        self.path.clear();
        let mut x = v;
        while self.ancestor[self.ancestor[x as usize] as usize] != NONE {
            self.path.push(x);
            x = self.ancestor[x as usize];
        }
        for &y in self.path.iter().rev() {
            let (y, a) = (y as usize, self.ancestor[y as usize] as usize);
            if self.semi[self.label[a] as usize] < self.semi[self.label[y] as usize] {
                self.label[y] = self.label[a];
            }
            self.ancestor[y] = self.ancestor[a];
        }
        self.label[v as usize]
    }

    /// Each reached block's interval in a depth-first walk of the tree.
    fn number_tree(&mut self, n: usize) {
        self.children_starts.clear();
        self.children_starts.resize(n + 1, 0);
        for &b in &self.vertices[1..] {
            self.children_starts[self.idom[b as usize] as usize + 1] += 1;
        }
        for b in 0..n {
            self.children_starts[b + 1] += self.children_starts[b];
        }
        self.children.clear();
        self.children
            .resize(self.vertices.len().saturating_sub(1), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.children_starts);
        let fill = &mut self.fill;
        for &b in &self.vertices[1..] {
            let parent = self.idom[b as usize] as usize;
            self.children[fill[parent] as usize] = b;
            fill[parent] += 1;
        }
        self.enter.clear();
        self.enter.resize(n, 0);
        self.leave.clear();
        self.leave.resize(n, 0);
        let mut clock = 0;
        self.stack.clear();
        self.stack.push((0, self.children_starts[0]));
        self.enter[0] = clock;
        clock += 1;
        while let Some(&mut (b, ref mut next)) = self.stack.last_mut() {
            if *next < self.children_starts[b as usize + 1] {
                let child = self.children[*next as usize];
                *next += 1;
                self.enter[child as usize] = clock;
                clock += 1;
                self.stack
                    .push((child, self.children_starts[child as usize]));
                continue;
            }
            self.stack.pop();
            self.leave[b as usize] = clock;
        }
    }
}

/// LLVM's verifier's words for a `"funclet"` bundle whose operand is no `catchpad` or
/// `cleanuppad`.
pub(super) const FUNCLET_OPERAND_NOT_PAD: &str =
    "Funclet bundle operands should correspond to a FuncletPadInst";

/// That each `"funclet"` operand bundle of `body` names a `catchpad` or `cleanuppad`, as LLVM's
/// verifier checks it (`visitCallBase`). Checked on a body read whole: a body with such a
/// bundle (Windows' exception handling) is not read in pieces.
pub(super) fn funclet_operands_hold(body: &Body) -> Result<(), (Span, &'static str)> {
    for &(tag, l) in &body.funclet_operands {
        let pad = matches!(body.locals[l].def, LocalDef::Inst(i)
            if matches!(body.insts[i].opcode, Opcode::CatchPad | Opcode::CleanupPad));
        if !pad {
            return Err((tag, FUNCLET_OPERAND_NOT_PAD));
        }
    }
    Ok(())
}

/// What LLVM's convergence verifier (`GenericConvergenceVerifier::visit`) asks of the calls
/// of `body`, `f`'s, that are convergent, call a convergence control intrinsic or pass a
/// `"convergencectrl"` token, in order: the token is made by such an intrinsic; the entry
/// intrinsic is called in the entry block of a convergent function; the entry and loop
/// intrinsics follow no convergent call in their block; the entry and anchor intrinsics take
/// no token and the loop intrinsic takes one; and a function's convergent calls are all
/// controlled by tokens or none is. Not checked: the tokens' regions (dominance, nesting,
/// cycles). A call is convergent by its own attributes (the parser noted it) or by its
/// callee, found here from `uses`, the body's uses of globals, when a token or intrinsic makes
/// the rules apply. Checked on a body read whole: a body with such calls is not read in
/// pieces.
pub(super) fn convergence_control_holds(
    m: &Module,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
) -> Result<(), (Span, &'static str)> {
    use crate::model::ConvergenceIntrinsic::{Anchor, Entry, Loop};
    let noted = &body.convergence_calls;
    if noted
        .iter()
        .all(|c| c.intrinsic.is_none() && c.token.is_none())
    {
        return Ok(());
    }
    let calls = &with_convergent_callees(m, body, uses);
    let makes_token = |l: LocalId| match body.locals[l].def {
        LocalDef::Inst(d) => calls
            .binary_search_by_key(&d, |c| c.inst)
            .is_ok_and(|k| calls[k].intrinsic.is_some()),
        _ => false,
    };
    let starts: Vec<u32> = body.blocks.values().map(|b| b.first_inst).collect();
    let block_of = |i: InstId| starts.partition_point(|&s| s <= i.as_u32()) - 1;
    // The block of the last convergent call, and whether the calls so far are controlled.
    let mut convergent_in = None;
    let mut controlled = None;
    for call in calls {
        if let Some((tag, token)) = call.token
            && !token.is_some_and(makes_token)
        {
            return Err((
                tag,
                "Convergence control tokens can only be produced by calls to the convergence \
                 control intrinsics.",
            ));
        }
        let block = block_of(call.inst);
        let preceded = convergent_in == Some(block);
        let refused = match (call.intrinsic, call.token) {
            (Some(Entry), _)
                if !super::verify_attributes::function_has(
                    m,
                    f,
                    super::verify_attributes::CONVERGENT,
                ) =>
            {
                Some("Entry intrinsic can occur only in a convergent function.")
            }
            (Some(Entry), _) if block != 0 => {
                Some("Entry intrinsic can occur only in the entry block.")
            }
            (Some(Entry), _) if preceded => Some(
                "Entry intrinsic cannot be preceded by a convergent operation in the same basic \
                 block.",
            ),
            (Some(Entry | Anchor), Some(_)) => {
                Some("Entry or anchor intrinsic cannot have a convergencectrl token operand.")
            }
            (Some(Loop), None) => Some("Loop intrinsic must have a convergencectrl token operand."),
            (Some(Loop), _) if preceded => Some(
                "Loop intrinsic cannot be preceded by a convergent operation in the same basic \
                 block.",
            ),
            _ => None,
        };
        if let Some(message) = refused {
            return Err((call.callee, message));
        }
        if call.convergent {
            convergent_in = Some(block);
        }
        let by_token = call.token.is_some() || call.intrinsic.is_some();
        if by_token || call.convergent {
            if controlled.is_some_and(|c| c != by_token) {
                return Err((
                    call.callee,
                    "Cannot mix controlled and uncontrolled convergence in the same function.",
                ));
            }
            controlled = Some(by_token);
        }
    }
    Ok(())
}

/// The calls of `body` its parser noted for the convergence verifier, with every call whose
/// callee makes it convergent (declared so, or an intrinsic LLVM's table makes so), in order.
fn with_convergent_callees(m: &Module, body: &Body, uses: &[GlobalUse]) -> Vec<ConvergenceCall> {
    use super::verify_metadata::{call_of, callee_name};
    let mut calls = body.convergence_calls.clone();
    for u in uses.iter().filter(|u| u.role == UseRole::Callee) {
        let convergent = match m.globals.get(u.global).map(|g| g.kind) {
            Some(GlobalKind::Function(g)) => m.convergent_functions.binary_search(&g).is_ok(),
            // An intrinsic, declared by LLVM where the body calls it.
            Some(GlobalKind::Intrinsic) | None => {
                callee_name(m, u).is_some_and(|name| super::intrinsics::is_convergent(&name))
            }
            Some(_) => false,
        };
        let Some(inst) = call_of(body, u).filter(|_| convergent) else {
            continue;
        };
        match calls.binary_search_by_key(&inst, |c| c.inst) {
            Ok(k) => calls[k].convergent = true,
            Err(k) => calls.insert(
                k,
                ConvergenceCall {
                    inst,
                    callee: u.span,
                    convergent: true,
                    intrinsic: None,
                    token: None,
                },
            ),
        }
    }
    calls
}

/// That each `swifterror` value of `body` (an alloca marked so, a parameter of `f` with the
/// attribute) is only loaded, stored to or passed as a `swifterror` argument, as LLVM's
/// verifier checks it (`verifySwiftErrorValue`): the error points at the instruction that
/// uses it otherwise. Checked on a body read whole: a body with such a value is not read in
/// pieces.
pub(super) fn swifterror_values_hold(
    m: &Module,
    f: FuncId,
    body: &Body,
    uses: &[GlobalUse],
) -> Result<(), (Span, &'static str)> {
    if body.swifterror_allocas.is_empty() && !has_swifterror_param(m, f) {
        return Ok(());
    }
    let params = &m.functions[f].params;
    let param_marked = |p: &Param| marks_swifterror(m, m.attr_list(p.attrs));
    let swifterror: Vec<LocalId> = body
        .locals
        .iter()
        .filter(|(_, local)| match local.def {
            LocalDef::Arg(i) => params.get(i as usize).is_some_and(param_marked),
            LocalDef::Inst(i) => body.swifterror_allocas.contains(&i),
            LocalDef::Block(_) => false,
        })
        .map(|(l, _)| l)
        .collect();
    if swifterror.is_empty() {
        return Ok(());
    }
    let is_swifterror =
        |v: &Value| matches!(v.kind(), ValueKind::Local(l) if swifterror.contains(&l));
    for (i, inst) in body.insts.iter() {
        let items = body.items(i);
        let values = || {
            items.iter().filter_map(|it| match it {
                Item::Value(v) => Some(*v),
                _ => None,
            })
        };
        if !values().any(|v| is_swifterror(&v)) {
            continue;
        }
        let fault = match inst.opcode {
            Opcode::Load => None,
            // `store <value>, ptr <pointer>`: the pointer, not the value stored.
            Opcode::Store => values()
                .next()
                .filter(is_swifterror)
                .map(|_| "swifterror value should be the second operand when used by stores"),
            Opcode::Call | Opcode::Invoke => {
                swifterror_call_fault(m, body, uses, i, &is_swifterror)
            }
            _ => Some(
                "swifterror value can only be loaded and stored from, or as a swifterror argument!",
            ),
        };
        if let Some(message) = fault {
            return Err((inst.span, message));
        }
    }
    Ok(())
}

/// A call that passes a `swifterror` value as an argument neither it nor its callee marks
/// `swifterror` (LLVM's `verifySwiftErrorCall`).
fn swifterror_call_fault(
    m: &Module,
    body: &Body,
    uses: &[GlobalUse],
    call: InstId,
    is_swifterror: &dyn Fn(&Value) -> bool,
) -> Option<&'static str> {
    let items = body.items(call);
    let open = items.iter().position(|it| *it == Item::Mark(b'('))?;
    // The callee, written just before the arguments: its parameters' attributes count too.
    let callee_params = match items[..open].iter().rev().find_map(|it| match it {
        Item::Value(v) => Some(*v),
        _ => None,
    }) {
        Some(v) => match v.kind() {
            ValueKind::Global(u) => m
                .use_in_body(uses, u)
                .and_then(|u| m.function_of(u.global))
                .map(|f| &m.functions[f].params[..]),
            _ => None,
        },
        None => None,
    };
    for (argument, (attrs, v)) in body.call_argument_lists(call).enumerate() {
        if is_swifterror(&v) {
            let at_call = marks_swifterror(m, attrs);
            let at_callee = callee_params
                .and_then(|p| p.get(argument))
                .is_some_and(|p| marks_swifterror(m, m.attr_list(p.attrs)));
            if !at_call && !at_callee {
                return Some(
                    "swifterror value when used in a callsite should be marked with swifterror \
                     attribute",
                );
            }
        }
    }
    None
}

/// Whether a parameter of `f` is marked `swifterror`.
pub(super) fn has_swifterror_param(m: &Module, f: FuncId) -> bool {
    m.functions[f]
        .params
        .iter()
        .any(|p| marks_swifterror(m, m.attr_list(p.attrs)))
}

/// Whether an attribute list (a parameter's or an argument's) holds `swifterror`.
fn marks_swifterror(m: &Module, list: &[Attr]) -> bool {
    list.iter()
        .any(|a| matches!(a.kind(), AttrKind::Text(s) if m.bytes(s) == b"swifterror"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks reached from the entry when `removed` is taken out of the graph.
    fn reached_without(flow: &Flow, removed: Option<u32>) -> Vec<bool> {
        let mut seen = vec![false; flow.blocks()];
        let mut stack = vec![0];
        while let Some(b) = stack.pop() {
            if Some(b) == removed || std::mem::replace(&mut seen[b as usize], true) {
                continue;
            }
            stack.extend_from_slice(flow.successors(b));
        }
        seen
    }

    /// On random graphs, `dominates` is the definition: `a` dominates `b` when `b` is
    /// reached and every path from the entry to it passes through `a`, or when `b` is not
    /// reached at all (as LLVM answers).
    #[test]
    fn dominators_are_the_definition_on_random_graphs() {
        let mut seed = 0x9e37_79b9_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        let (mut flow, mut dominators) = (Flow::default(), Dominators::default());
        // Up to 40 blocks: the paths Lengauer and Tarjan's forest compresses grow long.
        for _ in 0..3000 {
            let n = 1 + next() % 40;
            flow.clear();
            for _ in 0..n {
                let edges = next() % 4;
                let targets: Vec<u32> = (0..edges).map(|_| next() % n).collect();
                flow.push_block(targets.into_iter());
            }
            flow.find_predecessors();
            dominators.compute(&flow);
            let reached = reached_without(&flow, None);
            for a in 0..n {
                let without_a = reached_without(&flow, Some(a));
                for b in 0..n {
                    let expected = a == b
                        || !reached[b as usize]
                        || (reached[a as usize] && !without_a[b as usize]);
                    assert_eq!(dominators.dominates(a, b), expected, "{a} {b} in {:?}", {
                        (0..n)
                            .map(|b| flow.successors(b).to_vec())
                            .collect::<Vec<_>>()
                    });
                }
                assert_eq!(dominators.reached(a), reached[a as usize]);
            }
        }
    }
}
