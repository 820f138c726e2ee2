//! A rule of LLVM's verifier (`visitIntrinsicCall`) that looks at a whole function's exception
//! handling: in a function whose personality scopes it in funclets (MSVC's, CoreCLR's,
//! WebAssembly's), an intrinsic that may become a call of a function
//! (`IntrinsicInst::mayLowerToFunctionCall`: the Objective-C runtime's) called inside a
//! `catchpad` or `cleanuppad` funclet carries the funclet's token in a `"funclet"` bundle, or
//! WinEHPrepare would cut off the code after it. Few modules could break it: only the functions
//! that call such an intrinsic with such a personality are read again, to color their blocks
//! by funclet as LLVM's `colorEHFunclets` does.

use super::verify_module::{Refusal, Stripped, pointer_cast_operand};
use crate::model::*;
use cranelift_entity::EntityRef;
use rustc_hash::FxHashMap;

/// The intrinsics `IntrinsicInst::mayLowerToFunctionCall` names.
const LOWERED_TO_CALLS: [&[u8]; 25] = [
    b"llvm.objc.autorelease",
    b"llvm.objc.autoreleasePoolPop",
    b"llvm.objc.autoreleasePoolPush",
    b"llvm.objc.autoreleaseReturnValue",
    b"llvm.objc.copyWeak",
    b"llvm.objc.destroyWeak",
    b"llvm.objc.initWeak",
    b"llvm.objc.loadWeak",
    b"llvm.objc.loadWeakRetained",
    b"llvm.objc.moveWeak",
    b"llvm.objc.release",
    b"llvm.objc.retain",
    b"llvm.objc.retainAutorelease",
    b"llvm.objc.retainAutoreleaseReturnValue",
    b"llvm.objc.retainAutoreleasedReturnValue",
    b"llvm.objc.retainBlock",
    b"llvm.objc.storeStrong",
    b"llvm.objc.storeWeak",
    b"llvm.objc.unsafeClaimAutoreleasedReturnValue",
    b"llvm.objc.retainedObject",
    b"llvm.objc.unretainedObject",
    b"llvm.objc.unretainedPointer",
    b"llvm.objc.retain.autorelease",
    b"llvm.objc.sync.enter",
    b"llvm.objc.sync.exit",
];

/// The personality functions `isScopedEHPersonality` answers for (`classifyEHPersonality`'s
/// names; an ARM64EC name's `#` is not stepped over, so such a function is not checked).
const SCOPED_PERSONALITIES: [&[u8]; 6] = [
    b"_except_handler3",
    b"_except_handler4",
    b"__C_specific_handler",
    b"__CxxFrameHandler3",
    b"ProcessCLRException",
    b"__gxx_wasm_personality_v0",
];

const MISSING: &str = "Missing funclet token on intrinsic call";

/// That every call of an intrinsic of [`LOWERED_TO_CALLS`] inside a funclet of a function with
/// a scoped personality carries a `"funclet"` bundle; else the first that does not.
pub(super) fn funclet_calls_hold(m: &Module) -> Result<(), Refusal> {
    // The calls to look at, by function: a few lookups for a module that names none.
    let mut calls: FxHashMap<FuncId, Vec<Span>> = FxHashMap::default();
    for name in LOWERED_TO_CALLS {
        let Some(&g) = m.global_by_name.get(name) else {
            continue;
        };
        for u in m.uses_of(g).map(|u| &m.uses[u]) {
            if let (UseRole::Callee, Some(f)) = (u.role, u.in_function.expand())
                && has_scoped_personality(m, &m.functions[f])
            {
                calls.entry(f).or_default().push(u.span);
            }
        }
    }
    let mut functions: Vec<_> = calls.into_iter().collect();
    functions.sort_unstable_by_key(|(f, _)| *f);
    for (f, mut named_at) in functions {
        // A body that does not read again was refused already.
        let Ok(body) = m.body(f) else {
            continue;
        };
        // In text order, so that the first refused is the first written.
        named_at.sort_unstable_by_key(|span| span.start);
        let mut colors = None;
        for callee in named_at {
            let Some(call) = instruction_at(&body, callee) else {
                continue;
            };
            if has_funclet_bundle(m, &body, call) {
                continue;
            }
            let colors = colors.get_or_insert_with(|| funclet_colors(&body));
            let block = block_of(&body, call);
            let in_funclet = colors[block.index()].iter().any(|&head| {
                matches!(
                    first_non_phi(&body, head),
                    Some(Opcode::CatchPad | Opcode::CleanupPad)
                )
            });
            if in_funclet {
                return Err((body.insts[call].span, MISSING.into()));
            }
        }
    }
    Ok(())
}

/// Whether the function's personality, its pointer casts stripped, is a function named as one
/// of [`SCOPED_PERSONALITIES`].
fn has_scoped_personality(m: &Module, func: &Function) -> bool {
    let Some((_, mut personality)) = func.extras().personality else {
        return false;
    };
    loop {
        match personality.kind() {
            ValueKind::Global(u) => {
                let g = m.uses[u].global;
                return matches!(m.globals[g].kind, GlobalKind::Function(_))
                    && matches!(&m.globals[g].name, GlobalName::Named(name)
                        if SCOPED_PERSONALITIES.iter().any(|p| *p == &name[..]));
            }
            ValueKind::Const(c) => match pointer_cast_operand(m, c) {
                Stripped::Operand(operand) => personality = operand,
                Stripped::NoFunction | Stripped::Unknown => return false,
            },
            ValueKind::Local(_) => return false,
        }
    }
}

/// The instruction whose text holds `at`.
fn instruction_at(body: &Body, at: Span) -> Option<InstId> {
    let after = body
        .insts
        .values()
        .as_slice()
        .partition_point(|i| i.span.start <= at.start);
    let i = InstId::from_u32(after.checked_sub(1)? as u32);
    (body.insts[i].span.end >= at.end).then_some(i)
}

/// Whether a call's operand bundles include a `"funclet"` one.
fn has_funclet_bundle(m: &Module, body: &Body, call: InstId) -> bool {
    body.call_bundle_tags(call)
        .any(|tag| m.bytes(tag) == b"\"funclet\"")
}

/// The block that holds instruction `i`.
fn block_of(body: &Body, i: InstId) -> BlockId {
    let after = body
        .blocks
        .values()
        .as_slice()
        .partition_point(|b| b.first_inst <= i.as_u32());
    BlockId::from_u32(after.saturating_sub(1) as u32)
}

/// The opcode of the first instruction of `block` that is not a phi.
fn first_non_phi(body: &Body, block: BlockId) -> Option<Opcode> {
    body.blocks[block]
        .insts()
        .map(|i| body.insts[i].opcode)
        .find(|&o| o != Opcode::Phi)
}

/// The first value an instruction names (a funclet instruction's parent pad, `catchret`'s
/// pad): the instruction that defines it, if one does.
fn first_operand_definition(body: &Body, i: InstId) -> Option<InstId> {
    let value = body.items(i).iter().find_map(|it| match it {
        Item::Value(v) => Some(*v),
        _ => None,
    })?;
    match value.kind() {
        ValueKind::Local(l) => match body.locals[l].def {
            LocalDef::Inst(d) => Some(d),
            _ => None,
        },
        _ => None,
    }
}

/// Each block's colors as LLVM's `colorEHFunclets` finds them: the heads of the funclets that
/// hold it (the entry block, or a block that starts with an exception-handling pad), flowing
/// along the branches from the entry; a `catchret` goes on in the funclet its `catchswitch`
/// sits in. A block no path reaches has none.
fn funclet_colors(body: &Body) -> Vec<Vec<BlockId>> {
    let mut colors: Vec<Vec<BlockId>> = vec![Vec::new(); body.blocks.len()];
    let Some(entry) = body.entry() else {
        return colors;
    };
    let is_pad = |b: BlockId| {
        matches!(
            first_non_phi(body, b),
            Some(Opcode::LandingPad | Opcode::CatchSwitch | Opcode::CatchPad | Opcode::CleanupPad)
        )
    };
    let mut worklist = vec![(entry, entry)];
    while let Some((visiting, mut color)) = worklist.pop() {
        if is_pad(visiting) {
            color = visiting;
        }
        if colors[visiting.index()].contains(&color) {
            continue;
        }
        colors[visiting.index()].push(color);
        let block = &body.blocks[visiting];
        let mut successor_color = color;
        if let Some(last) = block.insts().last()
            && body.insts[last].opcode == Opcode::CatchRet
        {
            // catchret from %pad: the catchswitch of %pad, and the pad it sits within.
            let parent = first_operand_definition(body, last)
                .and_then(|pad| first_operand_definition(body, pad))
                .and_then(|switch| first_operand_definition(body, switch));
            successor_color = parent.map_or(entry, |p| block_of(body, p));
        }
        for successor in body.successors(visiting) {
            worklist.push((successor, successor_color));
        }
    }
    colors
}
