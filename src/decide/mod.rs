//! decide: for a class of equal functions, which one keeps the body and how every other
//! member is folded into it (spec §6, with the survivor order `opt-22` follows).
//!
//! A decision only names functions and fold kinds; `rewrite::fold` turns it into text.

use crate::model::{FuncId, GlobalName, Module, UnnamedAddr, calling_convention};

/// Options of the pass, with LLVM's defaults (`Options::default()`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Fold a member whose address is not significant into an alias instead of a thunk
    /// (`-mergefunc-use-aliases`).
    pub aliases: bool,
    /// Keep members as thunks built in place, never redirect their callers nor delete them
    /// (`-mergefunc-preserve-debug-info`).
    pub preserve_debug_info: bool,
}

/// Which uses of a folded member are made to refer to the body it is folded into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redirect {
    /// Every use: the member's address is not significant.
    AllUses,
    /// Only calls that name it as callee.
    DirectCalls,
    /// None: the member can be interposed, or callers must keep calling it.
    Nothing,
}

/// One member folded into the class's body.
#[derive(Clone, Copy, Debug)]
pub struct Fold {
    pub member: FuncId,
    pub redirect: Redirect,
}

/// The decision for one class.
#[derive(Clone, Debug)]
pub struct ClassPlan {
    /// The member whose body is kept.
    pub survivor: FuncId,
    /// The survivor's body moves to a new private function and the survivor's own name is
    /// folded like the other members (the survivor is interposable or ODR).
    pub private_body: bool,
    /// The members folded, in rank order; with `private_body` the survivor's name first.
    pub folds: Vec<Fold>,
}

/// Survivor preference, lowest first: `opt-22` keeps a strong non-local definition over a
/// local one, a local one over an ODR one, and any of them over an interposable one.
fn rank(m: &Module, f: FuncId) -> u8 {
    let linkage = m.functions[f].link.linkage;
    if m.is_interposable(f) {
        3
    } else if linkage.is_odr() {
        2
    } else if linkage.is_local() {
        1
    } else {
        0
    }
}

/// LLVM orders by name; numbered globals have the empty name and come first, by number.
fn name_key(m: &Module, f: FuncId) -> (&[u8], u32) {
    match &m.globals[m.functions[f].global].name {
        GlobalName::Named(n) => (n, 0),
        GlobalName::Numbered(n) => (&[], *n),
    }
}

/// The members ordered by survivor preference, a total order independent of input order.
pub fn rank_members(m: &Module, members: &mut [FuncId]) {
    members.sort_by(|&a, &b| {
        rank(m, a)
            .cmp(&rank(m, b))
            .then_with(|| name_key(m, a).cmp(&name_key(m, b)))
    });
}

/// Whether a thunk calling `kept`'s body may replace `f`: not varargs, not a calling
/// convention that forbids calls, and the kept body not a single block of fewer than two
/// instructions (a thunk would be no smaller). As LLVM's `canCreateThunkFor`, the size is the
/// kept body's, unreachable blocks counted: `f` may differ there.
pub fn can_thunk(m: &Module, f: FuncId, kept: FuncId) -> bool {
    let func = &m.functions[f];
    if func.varargs {
        return false;
    }
    if let Some(cc) = func.extras().cconv
        && calling_convention::number(m.bytes(cc)).is_some_and(calling_convention::forbids_thunks)
    {
        return false;
    }
    match &m.functions[kept].body {
        Some(body) => !(body.blocks == 1 && body.insts < 2),
        None => false,
    }
}

/// Whether survivor `f` keeps its body under a new private name, its own name becoming a
/// thunk or alias like the others: an interposable one may be replaced at link or load time,
/// an ODR one by another module's copy, which need not have merged the same way.
pub fn needs_private_body(m: &Module, f: FuncId) -> bool {
    m.is_interposable(f) || m.functions[f].link.linkage.is_odr()
}

/// Whether the member may become an alias of the body (`-mergefunc-use-aliases`, address not
/// significant).
pub fn can_alias(m: &Module, opts: &Options, f: FuncId) -> bool {
    opts.aliases && m.functions[f].link.unnamed_addr == UnnamedAddr::Global
}

/// Decide a class; `members` in rank order. `None` when nothing can be folded.
pub fn decide(
    m: &Module,
    opts: &Options,
    members: &[FuncId],
    is_used: &dyn Fn(FuncId) -> bool,
) -> Option<ClassPlan> {
    let (&best, _) = members.split_first()?;
    // LLVM folds pairwise in module order. In a class of ODR functions the first two members
    // make the pair: the better of them keeps the body, moved to a private function, and
    // both become thunks whose direct callers call that body; each later member meets the
    // body, a local function, and is folded into it as into any other.
    let all_odr = members
        .iter()
        .all(|&f| m.functions[f].link.linkage.is_odr());
    let first = members.iter().copied().min()?;
    let second = members.iter().copied().filter(|&f| f != first).min();
    let survivor = if all_odr {
        members
            .iter()
            .copied()
            .find(|&f| f == first || Some(f) == second)?
    } else {
        best
    };
    let partner = members.iter().copied().filter(|&f| f != survivor).min();
    let private_body = needs_private_body(m, survivor);
    if private_body
        && !can_thunk(m, survivor, survivor)
        && !members.iter().all(|&f| can_alias(m, opts, f))
    {
        return None;
    }
    // Folded into a body kept elsewhere: every use moves if the member's address is not
    // significant, else its calls (none if it can be interposed). Uses move between
    // functions of different but equal types too (`%A` and `%B` of one layout, `ptr` and the
    // pointer-sized integer), as LLVM moves them: spec §4 makes such types equal because they
    // are passed and returned alike, so a call whose type is not its new callee's behaves as
    // the old call did.
    let into_kept_body = |member: FuncId| {
        let g = &m.functions[member];
        if m.is_interposable(member) || opts.preserve_debug_info {
            Redirect::Nothing
        } else if g.link.unnamed_addr == UnnamedAddr::Global && !is_used(member) {
            Redirect::AllUses
        } else {
            Redirect::DirectCalls
        }
    };
    let folds = if private_body {
        members
            .iter()
            .map(|&member| {
                let odr = m.functions[member].link.linkage.is_odr();
                let pair = member == survivor || Some(member) == partner;
                let redirect = if !odr || opts.preserve_debug_info {
                    Redirect::Nothing
                } else if pair || m.is_interposable(survivor) {
                    Redirect::DirectCalls
                } else {
                    into_kept_body(member)
                };
                Fold { member, redirect }
            })
            .collect()
    } else {
        members
            .iter()
            .copied()
            .filter(|&f| f != survivor)
            .map(|member| Fold {
                member,
                redirect: into_kept_body(member),
            })
            .collect()
    };
    Some(ClassPlan {
        survivor,
        private_body,
        folds,
    })
}
