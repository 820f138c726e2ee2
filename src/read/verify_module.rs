//! What LLVM 22's verifier refuses in the module's own entities once every part is read
//! (`Verifier::visitGlobalVariable`, `visitFunction`, `visitModuleIdents`,
//! `visitModuleCommandLines`): the special globals `llvm.used`, `llvm.compiler.used`,
//! `llvm.global_ctors` and `llvm.global_dtors` not of the form LLVM gives them (mergefn reads
//! the first two to keep their members), functions other than intrinsics that take or return
//! what only intrinsics may (`token`, `metadata`, `x86_amx`), an intrinsic's name as an
//! initializer or aliasee, `!llvm.ident` and `!llvm.commandline` entries that are not one
//! string each, and `!llvm.module.flags` entries not of the form LLVM gives them
//! (`visitModuleFlag`); a `common` variable not zero, constant or in a comdat; an alias whose
//! aliasee names a declaration, an interposable alias or itself again; an ifunc whose resolver
//! is no function defined here returning a pointer. Also, as for any global: it holds no scalable vector, one that appends is an array, a declaration is in no
//! comdat, `dllexport` is not hidden and `dllimport` is on declarations.

use crate::model::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

/// Where the first entity LLVM's verifier refuses is written, and its message.
pub(super) type Refusal = (Span, Cow<'static, str>);

/// That the globals' linkage, the special globals, the functions' types and the named
/// metadata hold; else the first that does not, in text order.
pub(super) fn module_holds(m: &Module) -> Result<(), Refusal> {
    let mut refusals: Vec<Refusal> = Vec::new();
    for func in m.functions.values() {
        let at = || defined_at(m, func.global, func.header_span);
        let declared = func.body.is_none();
        refusals.extend(
            linkage_holds(m, &func.link, declared, func.extras().comdat.is_some(), at).err(),
        );
    }
    for var in m.variables.values() {
        let at = || defined_at(m, var.global, var.span);
        let declared = var.init.is_none();
        refusals.extend(linkage_holds(m, &var.link, declared, var.comdat.is_some(), at).err());
    }
    for alias in m.aliases.values() {
        let at = || defined_at(m, alias.global, alias.span);
        let held = match alias.is_ifunc {
            true => ifunc_linkage_holds(m, &alias.link, at),
            false => linkage_holds(m, &alias.link, false, false, at),
        };
        refusals.extend(held.err());
    }
    refusals.extend(
        m.variables
            .values()
            .filter_map(|v| special_global_holds(m, v).err()),
    );
    refusals.extend(
        m.variables
            .values()
            .filter_map(|v| common_holds(m, v).err()),
    );
    let mut walks = AliaseeWalks::default();
    refusals.extend(
        m.aliases
            .values()
            .filter_map(|a| aliasee_holds(m, a, &mut walks).err()),
    );
    let attachments = m
        .variables
        .values()
        .map(|v| (v.global, v.init.is_none(), &v.metadata[..]))
        .chain(
            m.functions
                .values()
                .map(|f| (f.global, f.body.is_none(), &f.metadata[..])),
        );
    for (global, declared, metadata) in attachments {
        for &(kind, md) in metadata {
            let held = match m.bytes(kind) {
                b"!associated" => reference_holds(m, global, md, &ASSOCIATED),
                b"!implicit.ref" if declared => {
                    Err("ref metadata must not be placed on a declaration")
                }
                b"!implicit.ref" => reference_holds(m, global, md, &IMPLICIT_REF),
                b"!absolute_symbol" => {
                    let bits = m.data_layout.pointer_bits(m.global_addr_space(global));
                    super::verify_metadata::absolute_symbol_holds(m, bits, md)
                }
                _ => continue,
            };
            refusals.extend(held.or_else(|e| refuse(kind, e)).err());
        }
    }
    // The nodes a function's attachments or named metadata reach, walked as LLVM's
    // `visitMDNode` walks them: a location is allowed but under a definition's attachment
    // other than `!dbg`.
    let named = m
        .named_metadata
        .iter()
        .flat_map(|n| n.nodes.iter().map(|&id| (n.span, id, true)));
    let attached = m.functions.values().flat_map(|f| {
        f.metadata.iter().filter_map(|&(kind, md)| match md {
            MdRef::Node(id) => Some((kind, id, f.body.is_none() || m.bytes(kind) == b"!dbg")),
            _ => None,
        })
    });
    for (at, id, locations_allowed) in named.chain(attached) {
        if let Some(message) = m.nodes_reached.top_level_refused(m, id, locations_allowed) {
            refusals.extend(refuse(at, message).err());
        }
    }
    refusals.extend(
        m.functions
            .values()
            .filter_map(|f| function_attachments_hold(m, f).err()),
    );
    refusals.extend(gc_intrinsics_hold(m).err());
    refusals.extend(comdats_hold(m).err());
    refusals.extend(named_metadata_holds(m).err());
    refusals.extend(super::verify_debug_info::debug_info_holds(m).err());
    refusals.extend(module_flags_hold(m).err());
    refusals.extend(super::verify_funclets::funclet_calls_hold(m).err());
    match refusals.into_iter().min_by_key(|(at, _)| at.start) {
        Some(refusal) => Err(refusal),
        None => Ok(()),
    }
}

/// A function's own attachments, as `Verifier::visitFunction` counts them: no `!prof` on a
/// declaration, one `!prof` and one `!kcfi_type` at most on a definition (the error at the
/// attachment that breaks the rule), the `!prof` an entry count; then no personality on a
/// declaration (at its name). `!dbg`'s rules are the debug-information verifier's.
fn function_attachments_hold(m: &Module, func: &Function) -> Result<(), Refusal> {
    let (mut prof, mut kcfi_type) = (0, 0);
    for &(kind, md) in &func.metadata {
        match m.bytes(kind) {
            b"!prof" if func.body.is_none() => {
                return refuse(kind, "function declaration may not have a !prof attachment");
            }
            b"!prof" => {
                prof += 1;
                entry_count_holds(m, md).or_else(|message| refuse(kind, message))?;
            }
            b"!kcfi_type" => {
                kcfi_type_holds(m, md).or_else(|message| refuse(kind, message))?;
                if func.body.is_none() {
                    continue;
                }
                kcfi_type += 1;
            }
            _ => continue,
        }
        if prof > 1 {
            return refuse(kind, "function must have a single !prof attachment");
        }
        if kcfi_type > 1 {
            return refuse(kind, "function must have a single !kcfi_type attachment");
        }
    }
    if func.body.is_none() && func.extras().personality.is_some() {
        return refuse(
            defined_at(m, func.global, func.header_span),
            "Function declaration shouldn't have a personality routine",
        );
    }
    Ok(())
}

/// The operands of the module's tuple `md` names (`!{...}`), if it names one.
fn tuple_operands(m: &Module, md: MdRef) -> Option<&[Option<MdRef>]> {
    let MdRef::Node(id) = md else {
        return None;
    };
    match &m.metadata.get(id)?.body {
        MdBody::Tuple(ops) => Some(ops),
        _ => None,
    }
}

/// What LLVM's verifier says of a global's attachment that must name another global
/// (`!associated`, `!implicit.ref`), for each way it fails.
struct ReferenceMessages {
    not_one_operand: &'static str,
    null: &'static str,
    not_a_value: &'static str,
    not_a_pointer: &'static str,
    itself: &'static str,
}

/// A global's `!associated`, as `Verifier::visitGlobalObject` checks it: one operand, a
/// pointer, that is not the global itself (through aliases).
const ASSOCIATED: ReferenceMessages = ReferenceMessages {
    not_one_operand: "associated metadata must have one operand",
    null: "associated metadata must have a global value",
    not_a_value: "associated metadata must be ValueAsMetadata",
    not_a_pointer: "associated value must be pointer typed",
    itself: "global values should not associate to themselves",
};

/// A defined global's `!implicit.ref`, as `Verifier::visitGlobalValue` checks it: likewise.
const IMPLICIT_REF: ReferenceMessages = ReferenceMessages {
    not_one_operand: "ref metadata must have one operand",
    null: "ref metadata must be ValueAsMetadata",
    not_a_value: "ref metadata must be ValueAsMetadata",
    not_a_pointer: "ref value must be pointer typed",
    itself: "values should not reference themselves",
};

/// That attachment `md` of `global` is one pointer naming another global (through aliases),
/// or LLVM's message for how it is not.
fn reference_holds(
    m: &Module,
    global: GlobalId,
    md: MdRef,
    says: &ReferenceMessages,
) -> Result<(), &'static str> {
    let Some(ops) = tuple_operands(m, md) else {
        return Ok(());
    };
    let [op] = ops[..] else {
        return Err(says.not_one_operand);
    };
    let (ty, value) = match op {
        None => return Err(says.null),
        Some(MdRef::Value(ty, value)) => (ty, value),
        Some(_) => return Err(says.not_a_value),
    };
    if !matches!(m.types.get(m.types.resolve(ty)), Type::Ptr(_)) {
        return Err(says.not_a_pointer);
    }
    match names_through_aliases(m, value) == Some(global) {
        true => Err(says.itself),
        false => Ok(()),
    }
}

/// The global a value names, through aliases (`stripPointerCastsAndAliases` where no cast
/// is written); `None` when it names none (or through a constant expression).
fn names_through_aliases(m: &Module, mut value: Value) -> Option<GlobalId> {
    // A chain of aliases ends (`aliasee_holds`).
    for _ in 0..=m.aliases.len() {
        let ValueKind::Global(u) = value.kind() else {
            return None;
        };
        let named = m.uses[u].global;
        match m.globals.get(named).map(|g| &g.kind) {
            Some(&GlobalKind::Alias(a)) => value = m.aliases.get(a)?.target,
            _ => return Some(named),
        }
    }
    None
}

/// A function's `!prof`, as `Verifier::verifyFunctionMetadata` checks it: the name
/// `function_entry_count` or `synthetic_function_entry_count`, then a constant; or
/// `unknown` and the name of the pass that dropped the count.
fn entry_count_holds(m: &Module, md: MdRef) -> Result<(), &'static str> {
    let Some(ops) = tuple_operands(m, md) else {
        return Ok(());
    };
    let string = |op: Option<MdRef>| super::verify_metadata::string_operand(m, op);
    let name = ops.first().and_then(|&op| string(op));
    if ops.len() == 2 && name.as_deref() == Some(b"unknown") {
        return super::verify_metadata::unknown_profile_holds(m, ops[1]);
    }
    if ops.len() < 2 {
        return Err("!prof annotations should have no less than 2 operands");
    }
    if ops[0].is_none() {
        return Err("first operand should not be null");
    }
    let name = name.ok_or("expected string with name of the !prof annotation")?;
    if !matches!(
        &name[..],
        b"function_entry_count" | b"synthetic_function_entry_count"
    ) {
        return Err(
            "first operand should be 'function_entry_count' or 'synthetic_function_entry_count'",
        );
    }
    match ops[1] {
        None => Err("second operand should not be null"),
        Some(MdRef::Value(_, value))
            if matches!(value.kind(), ValueKind::Const(_) | ValueKind::Global(_)) =>
        {
            Ok(())
        }
        Some(_) => Err("expected integer argument to function_entry_count"),
    }
}

/// A function's `!kcfi_type`, as `Verifier::verifyFunctionMetadata` checks it: a node of one
/// operand, a 32-bit integer constant.
fn kcfi_type_holds(m: &Module, md: MdRef) -> Result<(), &'static str> {
    let MdRef::Node(id) = md else {
        return Ok(());
    };
    let ops = match &m.metadata.get(id).map(|node| &node.body) {
        Some(MdBody::Tuple(ops)) => &ops[..],
        _ => return Ok(()),
    };
    let [op] = ops else {
        return Err("!kcfi_type must have exactly one operand");
    };
    let Some(op) = op else {
        return Err("!kcfi_type operand must not be null");
    };
    let constant = match op {
        MdRef::Value(_, value) => match value.kind() {
            ValueKind::Const(c) => Some(&m.consts[c]),
            ValueKind::Global(_) => None,
            ValueKind::Local(_) => return Err("expected a constant operand for !kcfi_type"),
        },
        _ => return Err("expected a constant operand for !kcfi_type"),
    };
    match constant {
        Some(&Const::Int(_, 32)) => Ok(()),
        Some(Const::Int(..)) => Err("expected a 32-bit integer constant operand for !kcfi_type"),
        _ => Err("expected a constant integer operand for !kcfi_type"),
    }
}

/// On a COFF target, no comdat is named after a private global (`Verifier::visitComdat`:
/// such a global has no symbol), the error at the global.
fn comdats_hold(m: &Module) -> Result<(), Refusal> {
    if !m.coff {
        return Ok(());
    }
    for comdat in &m.comdats {
        let name = super::parser::strip_name(&m.bytes(comdat.name)[1..]);
        let Some(&g) = m.global_by_name.get(name.as_ref()) else {
            continue;
        };
        if m.linkable(g)
            .is_some_and(|link| link.linkage == Linkage::Private)
        {
            let at = defined_at(m, g, comdat.span);
            return refuse(at, "comdat global value has private linkage");
        }
    }
    Ok(())
}

/// `llvm.gcroot`, `llvm.gcread` and `llvm.gcwrite` are called only in a function that names
/// its garbage collector (`gc "..."`), as LLVM's verifier checks them: the error at the first
/// call that is not.
fn gc_intrinsics_hold(m: &Module) -> Result<(), Refusal> {
    for global in m.globals.values() {
        if !matches!(&global.name, GlobalName::Named(name)
            if matches!(&name[..], b"llvm.gcroot" | b"llvm.gcread" | b"llvm.gcwrite"))
        {
            continue;
        }
        for &u in &global.uses {
            let use_ = &m.uses[u];
            let Some(f) = use_.in_function.expand() else {
                continue;
            };
            if use_.role == UseRole::Callee && m.functions[f].extras().rare().gc.is_none() {
                return refuse(use_.span, "Enclosing function does not use GC.");
            }
        }
    }
    Ok(())
}

fn name_of(m: &Module, g: GlobalId) -> &[u8] {
    match &m.globals[g].name {
        GlobalName::Named(name) => name,
        GlobalName::Numbered(_) => b"",
    }
}

/// Where a global's name is written in its definition (`otherwise` if it is not).
pub(super) fn defined_at(m: &Module, g: GlobalId, otherwise: Span) -> Span {
    m.globals[g]
        .uses
        .iter()
        .map(|&u| m.uses[u])
        .find(|u| u.role == UseRole::Definition)
        .map_or(otherwise, |u| u.span)
}

fn refuse(at: Span, message: impl Into<Cow<'static, str>>) -> Result<(), Refusal> {
    Err((at, message.into()))
}

/// Whether `at`, at the top level, lies in a global variable's initializer or an alias's
/// aliasee: in its definition, before its attachments.
fn in_initializer(m: &Module, at: Span) -> bool {
    let before_attachments = |span: Span, metadata: &[(Span, MdRef)]| {
        span.start <= at.start
            && at.end <= span.end
            && metadata
                .first()
                .is_none_or(|(kind, _)| at.end <= kind.start)
    };
    m.variables
        .values()
        .any(|v| before_attachments(v.span, &v.metadata))
        || m.aliases.values().any(|a| before_attachments(a.span, &[]))
}

/// An ifunc's linkage, as `Verifier::visitGlobalIFunc` checks it: what any global's allows
/// (appending only for a variable), then one of those `GlobalIFunc::isValidLinkage` takes.
fn ifunc_linkage_holds(m: &Module, link: &Linkable, at: impl Fn() -> Span) -> Result<(), Refusal> {
    if link.linkage == Linkage::Appending {
        return refuse(at(), "Only global variables can have appending linkage!");
    }
    linkage_holds(m, link, false, false, &at)?;
    match link.linkage {
        Linkage::ExternWeak | Linkage::AvailableExternally | Linkage::Common => refuse(
            at(),
            "IFunc should have private, internal, linkonce, weak, linkonce_odr, weak_odr, or \
             external linkage!",
        ),
        _ => Ok(()),
    }
}

/// What any global's linkage and storage allow: a declaration, or a definition the linker
/// takes for one (`available_externally`), in no comdat; `dllexport` not hidden; `dllimport`
/// of default visibility, only on a declaration, external or `extern_weak`, or an
/// `available_externally` definition.
fn linkage_holds(
    m: &Module,
    link: &Linkable,
    declared: bool,
    in_comdat: bool,
    at: impl Fn() -> Span,
) -> Result<(), Refusal> {
    let available = link.linkage == Linkage::AvailableExternally;
    if (declared || available) && in_comdat {
        return refuse(at(), "Declaration may not be in a Comdat!");
    }
    let dll = link.dll_storage().map(|span| m.bytes(span));
    if dll == Some(b"dllexport") && link.visibility == Visibility::Hidden {
        return refuse(
            at(),
            "dllexport GlobalValue must have default or protected visibility",
        );
    }
    if dll == Some(b"dllimport") && link.visibility != Visibility::Default {
        return refuse(at(), "dllimport GlobalValue must have default visibility");
    }
    let external = matches!(link.linkage, Linkage::External | Linkage::ExternWeak);
    if dll == Some(b"dllimport") && !(declared && external || available) {
        return refuse(at(), "Global is marked as dllimport, but not external");
    }
    Ok(())
}

/// A global's initializer is sized. No global holds a scalable vector or a target extension
/// type LLVM keeps out of globals (in a struct or array too). Only arrays append.
/// `llvm.used` and `llvm.compiler.used`: arrays of pointers, appending, used by nothing, their
/// elements named functions, variables or aliases. `llvm.global_ctors` and
/// `llvm.global_dtors`: appending, used by nothing, arrays of `{ i32, ptr, ptr }` (the second a
/// pointer into the program's address space).
fn special_global_holds(m: &Module, var: &Variable) -> Result<(), Refusal> {
    let layout = m.types.layout(var.ty);
    if var.init.is_some() && layout.is_some_and(|l| !l.sized) {
        let at = defined_at(m, var.global, var.span);
        return refuse(at, "Global variable initializer must be sized");
    }
    // Its size is known only when the program runs.
    if layout.is_some_and(|l| l.scalable) {
        let at = defined_at(m, var.global, var.span);
        return refuse(at, "Globals cannot contain scalable types");
    }
    if layout.is_some_and(|l| l.bars_globals) {
        let at = defined_at(m, var.global, var.span);
        let name = String::from_utf8_lossy(name_of(m, var.global));
        return refuse(
            at,
            format!("Global @{name} has illegal target extension type"),
        );
    }
    let appends = var.link.linkage == Linkage::Appending;
    if appends && !matches!(m.types.get(m.types.resolve(var.ty)), Type::Array(..)) {
        let at = defined_at(m, var.global, var.span);
        return refuse(at, "Only global arrays can have appending linkage!");
    }
    let name = name_of(m, var.global);
    let used_list = matches!(name, b"llvm.used" | b"llvm.compiler.used");
    let structors = matches!(name, b"llvm.global_ctors" | b"llvm.global_dtors");
    if !used_list && !structors {
        return Ok(());
    }
    let at = defined_at(m, var.global, var.span);
    if var.init.is_some() && !appends {
        return refuse(at, "invalid linkage for intrinsic global variable");
    }
    // A name inside metadata is no use to LLVM; one inside a constant is: at the top level,
    // one in a global's initializer or aliasee, before its attachments (a constant inside a
    // body's metadata cannot be told from the text at hand, and is let through).
    let used = m.globals[var.global].uses.iter().any(|&u| {
        let use_ = &m.uses[u];
        use_.role != UseRole::Definition
            && (use_.direct || (use_.in_function.is_none() && in_initializer(m, use_.span)))
    });
    if used {
        return refuse(at, "invalid uses of intrinsic global variable");
    }
    let types = &m.types;
    let Type::Array(_, elem) = types.get(types.resolve(var.ty)) else {
        return Ok(());
    };
    let elem = types.get(types.resolve(*elem));
    let wrong_type = "wrong type for intrinsic global variable";
    if structors {
        let Type::Struct { elems, .. } = elem else {
            return refuse(at, wrong_type);
        };
        let field = |i: usize| elems.get(i).map(|&t| types.get(types.resolve(t)));
        let program = Type::Ptr(m.data_layout.program_addr_space);
        if !(2..=3).contains(&elems.len())
            || field(0) != Some(&Type::Int(32))
            || field(1) != Some(&program)
        {
            return refuse(at, wrong_type);
        }
        if elems.len() != 3 {
            return refuse(
                at,
                "the third field of the element type is mandatory, specify ptr null to \
                 migrate from the obsoleted 2-field form",
            );
        }
        if !matches!(field(2), Some(Type::Ptr(_))) {
            return refuse(at, wrong_type);
        }
        return Ok(());
    }
    if !matches!(elem, Type::Ptr(_)) {
        return refuse(at, wrong_type);
    }
    let Some(init) = var.init else {
        return Ok(());
    };
    let list = String::from_utf8_lossy(name);
    let is_null =
        |v: Value| matches!(v.kind(), ValueKind::Const(c) if matches!(m.consts[c], Const::Null));
    match init.kind() {
        // An array of no element or of null pointers only is a zero, not a list, to LLVM.
        ValueKind::Const(c) => match &m.consts[c] {
            Const::Aggregate(b'[', elems) if !elems.iter().all(|&(_, v)| is_null(v)) => elems
                .iter()
                .try_for_each(|&(_, v)| member_holds(m, v, &list, at)),
            _ => refuse(at, "wrong initializer for intrinsic global variable"),
        },
        _ => refuse(at, "wrong initializer for intrinsic global variable"),
    }
}

/// An element of `llvm.used` or `llvm.compiler.used` (`list`, defined at `at`): a named
/// function, variable or alias, not an ifunc. One inside a constant expression (a cast) is
/// taken as it is.
fn member_holds(m: &Module, v: Value, list: &str, at: Span) -> Result<(), Refusal> {
    let (g, at) = match v.kind() {
        ValueKind::Global(u) => (m.uses[u].global, m.uses[u].span),
        ValueKind::Const(c) if matches!(m.consts[c], Const::Expr(_)) => return Ok(()),
        _ => return refuse(at, format!("invalid {list} member")),
    };
    let member = match m.globals[g].kind {
        GlobalKind::Function(_) | GlobalKind::Variable(_) => true,
        GlobalKind::Alias(a) => !m.aliases[a].is_ifunc,
        GlobalKind::Pending | GlobalKind::Intrinsic => false,
    };
    if !member {
        return refuse(at, format!("invalid {list} member"));
    }
    if matches!(m.globals[g].name, GlobalName::Numbered(_)) {
        return refuse(at, format!("members of {list} must be named"));
    }
    Ok(())
}

/// Each node `!llvm.ident` and `!llvm.commandline` list holds one string; `!llvm.errno.tbaa`
/// lists one node at least, each a struct-path access tag.
fn named_metadata_holds(m: &Module) -> Result<(), Refusal> {
    for named in &m.named_metadata {
        let what = match m.bytes(named.name) {
            b"!llvm.ident" => "llvm.ident",
            b"!llvm.commandline" => "llvm.commandline",
            b"!llvm.errno.tbaa" if named.nodes.is_empty() => {
                return refuse(named.name, "llvm.errno.tbaa must have at least one operand");
            }
            b"!llvm.errno.tbaa" => {
                for &node in &named.nodes {
                    super::verify_metadata::errno_tbaa_holds(m, node)
                        .or_else(|message| refuse(m.metadata[node].span, message))?;
                }
                continue;
            }
            _ => continue,
        };
        for &node in &named.nodes {
            let node = &m.metadata[node];
            let operands: &[Option<MdRef>] = match &node.body {
                MdBody::Tuple(operands) => operands,
                _ => &[],
            };
            if operands.len() != 1 {
                return refuse(
                    node.span,
                    format!("incorrect number of operands in {what} metadata"),
                );
            }
            if !matches!(operands[0], Some(MdRef::Str(_))) {
                return refuse(
                    node.span,
                    format!(
                        "invalid value for {what} metadata entry operand(the operand should be \
                         a string)"
                    ),
                );
            }
        }
    }
    Ok(())
}

/// An integer operand of a module flag (see [`Module::metadata_int`]): its bits and width.
fn flag_int(m: &Module, op: Option<MdRef>) -> Result<Option<(u128, u32)>, ()> {
    let Some(MdRef::Value(ty, value)) = op else {
        return Ok(None);
    };
    let ValueKind::Const(c) = value.kind() else {
        return Ok(None);
    };
    let Some(c) = m.consts.get(c) else {
        return Ok(None);
    };
    let int = m.metadata_int(m.types.get(m.types.resolve(ty)), c)?;
    Ok(int.map(|(width, bits)| (bits, width)))
}

/// Each `!llvm.module.flags` entry as LLVM's verifier takes it (`visitModuleFlag`): three
/// operands; a behavior from 1 (`error`) to 8 (`min`); an identifier string, met once but for
/// `require` flags; a value the behavior takes (`min` a non-negative integer, `max` an
/// integer, `require` a pair whose first is a string naming a flag present, the `append` ones
/// a node); `wchar_size` and `SemanticInterposition` integers; no `Linker Options` flag without
/// `!llvm.linker.options`. Not checked: that a required flag has the required value.
fn module_flags_hold(m: &Module) -> Result<(), Refusal> {
    const REQUIRE: u128 = 3;
    let linker_options = m
        .named_metadata
        .iter()
        .any(|named| m.bytes(named.name) == b"!llvm.linker.options");
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut required: Vec<(Span, &[u8])> = Vec::new();
    for node in m.module_flags() {
        let Some(node) = m.metadata.get(node) else {
            continue;
        };
        // A specialized node (`!DIFile(...)`) is no flag: LLVM counts its operands as its
        // kind keeps them, three for none that could pass the next checks.
        let MdBody::Tuple(ops) = &node.body else {
            return refuse(node.span, "incorrect number of operands in module flag");
        };
        let [behavior, id, value] = ops[..] else {
            return refuse(node.span, "incorrect number of operands in module flag");
        };
        let behavior = match flag_int(m, behavior) {
            Ok(Some((b, _))) if (1..=8).contains(&b) => b,
            Ok(Some(_)) => {
                let message = "invalid behavior operand in module flag (unexpected constant)";
                return refuse(node.span, message);
            }
            Ok(None) => {
                let message = "invalid behavior operand in module flag (expected constant integer)";
                return refuse(node.span, message);
            }
            Err(()) => continue,
        };
        let Some(MdRef::Str(id)) = id else {
            let message = "invalid ID operand in module flag (expected metadata string)";
            return refuse(node.span, message);
        };
        let id = m.bytes(id);
        let integer = flag_int(m, value);
        match behavior {
            7 if integer == Ok(None) => {
                let message = "invalid value for 'max' module flag (expected constant integer)";
                return refuse(node.span, message);
            }
            8 => {
                let negative =
                    matches!(integer, Ok(Some((bits, width))) if bits >> (width - 1) & 1 == 1);
                if integer == Ok(None) || negative {
                    let message = "invalid value for 'min' module flag (expected constant \
                                   non-negative integer)";
                    return refuse(node.span, message);
                }
            }
            REQUIRE => {
                let pair = match value {
                    Some(MdRef::Node(pair)) => match m.metadata.get(pair).map(|n| &n.body) {
                        Some(MdBody::Tuple(pair)) if pair.len() == 2 => Some(pair),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(pair) = pair else {
                    let message =
                        "invalid value for 'require' module flag (expected metadata pair)";
                    return refuse(node.span, message);
                };
                let Some(MdRef::Str(flag)) = pair[0] else {
                    let message = "invalid value for 'require' module flag (first value \
                                   operand should be a string)";
                    return refuse(node.span, message);
                };
                required.push((node.span, m.bytes(flag)));
            }
            5 | 6 if !matches!(value, Some(MdRef::Node(_))) => {
                let message =
                    "invalid value for 'append'-type module flag (expected a metadata node)";
                return refuse(node.span, message);
            }
            _ => {}
        }
        if behavior != REQUIRE {
            if seen.contains(&id) {
                let message = "module flag identifiers must be unique (or of 'require' type)";
                return refuse(node.span, message);
            }
            seen.push(id);
        }
        let needs_integer = match id {
            b"!\"wchar_size\"" => Some("wchar_size metadata requires constant integer argument"),
            b"!\"SemanticInterposition\"" => {
                Some("SemanticInterposition metadata requires constant integer argument")
            }
            _ => None,
        };
        if let Some(message) = needs_integer
            && integer == Ok(None)
        {
            return refuse(node.span, message);
        }
        if id == b"!\"Linker Options\"" && !linker_options {
            return refuse(
                node.span,
                "'Linker Options' named metadata no longer supported",
            );
        }
        if id == b"!\"CG Profile\""
            && let Err(message) = cg_profile_holds(m, value)
        {
            return refuse(node.span, message);
        }
    }
    match required.into_iter().find(|(_, flag)| !seen.contains(flag)) {
        Some((at, _)) => refuse(
            at,
            "invalid requirement on flag, flag is not present in module",
        ),
        None => Ok(()),
    }
}

/// A `CG Profile` module flag's value, as `Verifier::visitModuleFlagCGProfileEntry` checks
/// each of its entries: a triple of two functions (or nulls) and an integer count.
fn cg_profile_holds(m: &Module, value: Option<MdRef>) -> Result<(), &'static str> {
    let tuple = |op: Option<MdRef>| match op {
        Some(MdRef::Node(n)) => m.metadata.get(n).map(|n| &n.body),
        _ => None,
    };
    // LLVM takes the value for a node (it would fail otherwise): what it is not is left.
    let Some(MdBody::Tuple(entries)) = tuple(value) else {
        return Ok(());
    };
    for &entry in entries.iter() {
        let triple = match (entry, tuple(entry)) {
            (_, Some(MdBody::Tuple(ops))) => ops,
            (Some(MdRef::Node(_)), _) => return Ok(()),
            _ => return Err("expected a MDNode triple"),
        };
        let [caller, callee, count] = triple[..] else {
            return Err("expected a MDNode triple");
        };
        for function in [caller, callee] {
            let is_function = match function {
                None => true,
                Some(MdRef::Value(_, v)) => match v.kind() {
                    ValueKind::Global(u) => matches!(
                        m.globals[m.uses[u].global].kind,
                        GlobalKind::Function(_) | GlobalKind::Intrinsic
                    ),
                    // A cast of a function, which LLVM strips: not looked into.
                    _ => true,
                },
                Some(_) => false,
            };
            if !is_function {
                return Err("expected a Function or null");
            }
        }
        let integer = match count {
            Some(MdRef::Value(ty, _)) => matches!(m.types.get(m.types.resolve(ty)), Type::Int(_)),
            _ => false,
        };
        if !integer {
            return Err("expected an integer constant");
        }
    }
    Ok(())
}

/// A `common` variable: zero, not constant, in no comdat.
fn common_holds(m: &Module, var: &Variable) -> Result<(), Refusal> {
    let Some(init) = var.init.filter(|_| var.link.linkage == Linkage::Common) else {
        return Ok(());
    };
    let at = defined_at(m, var.global, var.span);
    if null_value(m, init) == Some(false) {
        return refuse(at, "'common' global must have a zero initializer!");
    }
    if var.is_constant {
        return refuse(at, "'common' global may not be marked constant!");
    }
    if var.comdat.is_some() {
        return refuse(at, "'common' global may not be in a Comdat!");
    }
    Ok(())
}

/// Whether a constant is the null of its type (LLVM's `isNullValue`): a zero, a positive
/// zero, `null`, `none`, `zeroinitializer`, or an aggregate, string or splat of those, which
/// LLVM's parser makes one zero. `None` when it depends on a constant expression, which LLVM
/// folds as it reads (`add (i32 1, i32 -1)` is null).
fn null_value(m: &Module, v: Value) -> Option<bool> {
    let ValueKind::Const(c) = v.kind() else {
        return Some(false);
    };
    Some(match m.consts.get(c)? {
        Const::Int(s, width) => int_value(m.bytes(*s), *width)?.is_zero(),
        Const::Float(s) => float_key(m.bytes(*s))?.is_zero(),
        Const::Null | Const::None | Const::Zero => true,
        Const::Aggregate(_, elems) => {
            let mut all = Some(true);
            for &(_, e) in elems.iter() {
                match null_value(m, e) {
                    Some(false) => return Some(false),
                    None => all = None,
                    Some(true) => {}
                }
            }
            all?
        }
        Const::Bytes(s) => {
            let text = m.bytes(*s);
            crate::read::unescape(&text[2..text.len() - 1])
                .iter()
                .all(|&b| b == 0)
        }
        Const::Splat(_, e) => null_value(m, *e)?,
        Const::Expr(_) => return None,
        _ => false,
    })
}

/// What the walks of a module's aliasees have learnt, kept from one alias to the next.
#[derive(Default)]
struct AliaseeWalks {
    /// Aliases whose own walk held.
    sound: FxHashSet<GlobalId>,
    /// Whether walking a constant meets an alias itself, or never ends ([`meets_an_alias`]).
    meets_alias: FxHashMap<ConstId, bool>,
}

/// An alias's aliasee, as `Verifier::visitAliaseeSubExpr` walks it: every global it names is
/// a definition; an alias met on the way is not interposable and is not met twice (no cycle);
/// the walk goes on through aliases, not into variables' initializers. An ifunc's resolver is
/// a function defined here that returns a pointer (through aliases, pointer casts and
/// offsets of zero: [`pointer_cast_operand`]).
fn aliasee_holds(m: &Module, alias: &Alias, walks: &mut AliaseeWalks) -> Result<(), Refusal> {
    let at = defined_at(m, alias.global, alias.span);
    if alias.is_ifunc {
        return resolver_holds(m, alias.target, at);
    }
    if let ValueKind::Const(c) = alias.target.kind()
        && !matches!(m.consts[c], Const::Expr(_))
    {
        return refuse(at, "Aliasee should be either GlobalValue or ConstantExpr");
    }
    let mut visited: FxHashSet<GlobalId> = FxHashSet::default();
    visited.insert(alias.global);
    // Constants walked already: LLVM walks one again each time it is met, which on aliases
    // naming the one before more than once takes time exponential in the chain's length.
    let mut expanded: FxHashSet<ConstId> = FxHashSet::default();
    // Constants still to walk: LLVM's recursion, as a loop (a chain of aliases may be long).
    let mut pending = vec![alias.target];
    // An `available_externally` alias names, at each step, an `available_externally` global
    // (which need not be defined): no constant expression.
    let available = alias.link.linkage == Linkage::AvailableExternally;
    while let Some(c) = pending.pop() {
        if available {
            let named = match c.kind() {
                ValueKind::Global(u) => m.linkable(m.uses[u].global),
                _ => None,
            };
            if named.is_none_or(|link| link.linkage != Linkage::AvailableExternally) {
                return refuse(
                    at,
                    "available_externally alias must point to available_externally global value",
                );
            }
        }
        match c.kind() {
            ValueKind::Global(u) => {
                let g = m.uses[u].global;
                let Some(next) = aliasee(m, g) else {
                    if !available && declared_for_linker(m, g) {
                        return refuse(at, "Alias must point to a definition");
                    }
                    continue;
                };
                if !visited.insert(g) {
                    return refuse(at, "Aliases cannot form a cycle");
                }
                if m.is_interposable_link(&next.link) {
                    return refuse(at, "Alias cannot point to an interposable alias");
                }
                // An alias whose own walk held leads to no cycle and nothing refused: a
                // chain of aliases costs a step each rather than the chain each (LLVM's
                // verifier walks it whole: 100,000 aliases each naming the one before took
                // opt-22 230 s).
                if !walks.sound.contains(&g) {
                    pending.push(next.target);
                }
            }
            ValueKind::Const(k) if expanded.insert(k) => pending.extend(stepped_operands(m, k)),
            // Walked again, it would meet again every alias it met (a cycle, for LLVM too);
            // without one, it holds as it held the first time. A walk that never ends (through
            // aliases' aliasees alone) overflows LLVM's stack: it is refused as a cycle.
            ValueKind::Const(k) => {
                if meets_an_alias(m, k, &mut walks.meets_alias) {
                    return refuse(at, "Aliases cannot form a cycle");
                }
            }
            ValueKind::Local(_) => {}
        }
    }
    // Each alias this walk went through holds too: its own walk is a part of this one.
    walks.sound.extend(visited);
    Ok(())
}

/// The alias (not an ifunc) a global is, if it is one.
fn aliasee(m: &Module, g: GlobalId) -> Option<&Alias> {
    match m.globals[g].kind {
        GlobalKind::Alias(a) if !m.aliases[a].is_ifunc => Some(&m.aliases[a]),
        _ => None,
    }
}

/// A constant's operands as the aliasee walk goes on to them: an operand that is an alias is
/// stepped over, to its aliasee, as LLVM does.
fn stepped_operands(m: &Module, c: ConstId) -> Vec<Value> {
    let mut operands = constant_operands(m, c);
    for v in &mut operands {
        if let ValueKind::Global(u) = v.kind()
            && let Some(next) = aliasee(m, m.uses[u].global)
        {
            *v = next.target;
        }
    }
    operands
}

/// Whether the aliasee walk from the constant `c` meets an alias (not stepped over as an
/// operand), or never ends. Depth first, in post-order, each constant once: a constant met
/// while its own walk is open lies on a cycle through aliases' aliasees, so it and every
/// constant open above it count as meeting one.
fn meets_an_alias(m: &Module, c: ConstId, known: &mut FxHashMap<ConstId, bool>) -> bool {
    if let Some(&meets) = known.get(&c) {
        return meets;
    }
    known.insert(c, true);
    let mut open = vec![(c, stepped_operands(m, c), false)];
    while let Some((_, operands, meets)) = open.last_mut() {
        let Some(v) = operands.pop() else {
            if let Some((k, _, meets)) = open.pop() {
                known.insert(k, meets);
                if let Some((_, _, parent_meets)) = open.last_mut() {
                    *parent_meets |= meets;
                }
            }
            continue;
        };
        match v.kind() {
            ValueKind::Global(u) => *meets |= aliasee(m, m.uses[u].global).is_some(),
            ValueKind::Const(inner) => match known.get(&inner) {
                Some(&inner_meets) => *meets |= inner_meets,
                None => {
                    known.insert(inner, true);
                    open.push((inner, stepped_operands(m, inner), false));
                }
            },
            ValueKind::Local(_) => {}
        }
    }
    known.get(&c).copied().unwrap_or(true)
}

/// The values a constant is made of (LLVM's operands of a `Constant`).
fn constant_operands(m: &Module, c: ConstId) -> Vec<Value> {
    let global = |u: UseId| Value::global(u);
    match m.consts.get(c) {
        Some(Const::DsoLocalEquivalent(u) | Const::NoCfi(u) | Const::BlockAddress(u, _)) => {
            vec![global(*u)]
        }
        Some(constant) => constant.values().collect(),
        None => Vec::new(),
    }
}

/// LLVM's `isDeclarationForLinker`: a declaration, or an `available_externally` definition.
fn declared_for_linker(m: &Module, g: GlobalId) -> bool {
    let (link, declared) = match m.globals[g].kind {
        GlobalKind::Function(f) => (&m.functions[f].link, m.functions[f].body.is_none()),
        GlobalKind::Variable(v) => (&m.variables[v].link, m.variables[v].init.is_none()),
        GlobalKind::Alias(_) => return false,
        GlobalKind::Pending | GlobalKind::Intrinsic => return true,
    };
    declared || link.linkage == Linkage::AvailableExternally
}

/// What LLVM's `stripPointerCastsAndAliases` makes of a constant that is not a global.
pub(super) enum Stripped {
    /// The pointer it casts or offsets by nothing, to strip in turn.
    Operand(Value),
    /// No function: any other constant.
    NoFunction,
    /// Not told here: an index LLVM's parser may fold to zero (itself an expression).
    Unknown,
}

/// The pointer the constant `c` stands for, as `stripPointerCastsAndAliases` steps through it:
/// a `bitcast` or `addrspacecast`, a `getelementptr` whose indices are all zero.
pub(super) fn pointer_cast_operand(m: &Module, c: ConstId) -> Stripped {
    let Some(Const::Expr(e)) = m.consts.get(c) else {
        return Stripped::NoFunction;
    };
    let (op, items) = &**e;
    let mut values = items.iter().filter_map(|i| match i {
        Item::Value(v) => Some(*v),
        _ => None,
    });
    let is_expression = |v: Value| matches!(v.kind(), ValueKind::Const(k) if matches!(m.consts.get(k), Some(Const::Expr(_))));
    match m.bytes(*op) {
        b"bitcast" | b"addrspacecast" => values.next().map_or(Stripped::Unknown, Stripped::Operand),
        b"getelementptr" => {
            let Some(base) = values.next() else {
                return Stripped::Unknown;
            };
            let mut unknown = false;
            let all_zero = values.all(|index| {
                let zero = match index.kind() {
                    ValueKind::Const(k) => match m.consts.get(k) {
                        Some(Const::Int(span, _)) => {
                            crate::model::int_literal(m.bytes(*span)) == Some(0)
                        }
                        Some(Const::Zero) => true,
                        _ => false,
                    },
                    _ => false,
                };
                unknown |= !zero && is_expression(index);
                zero
            });
            match (all_zero, unknown) {
                (true, _) => Stripped::Operand(base),
                (false, true) => Stripped::Unknown,
                (false, false) => Stripped::NoFunction,
            }
        }
        // `inttoptr (i64 ptrtoint (ptr @f to i64) to ptr)` too: LLVM's parser does not fold it.
        _ => Stripped::NoFunction,
    }
}

/// An ifunc's resolver, once aliases are followed (`getResolverFunction`).
fn resolver_holds(m: &Module, resolver: Value, at: Span) -> Result<(), Refusal> {
    let mut target = resolver;
    // More steps than aliases: a cycle, the aliases' own error.
    let mut steps = 0..=m.aliases.len();
    let f = loop {
        let u = match target.kind() {
            ValueKind::Global(u) => u,
            ValueKind::Const(c) => match pointer_cast_operand(m, c) {
                Stripped::Operand(operand) => {
                    target = operand;
                    continue;
                }
                Stripped::Unknown => return Ok(()),
                Stripped::NoFunction => return refuse(at, "IFunc must have a Function resolver"),
            },
            ValueKind::Local(_) => return Ok(()),
        };
        match m.globals[m.uses[u].global].kind {
            GlobalKind::Function(f) => break f,
            GlobalKind::Alias(a) if !m.aliases[a].is_ifunc => match steps.next() {
                Some(_) => target = m.aliases[a].target,
                None => return Ok(()),
            },
            _ => return refuse(at, "IFunc must have a Function resolver"),
        }
    };
    if declared_for_linker(m, m.functions[f].global) {
        return refuse(at, "IFunc resolver must be a definition");
    }
    if !matches!(m.types.get(m.functions[f].ret_ty), Type::Ptr(_)) {
        return refuse(at, "IFunc resolver must return a pointer");
    }
    Ok(())
}
