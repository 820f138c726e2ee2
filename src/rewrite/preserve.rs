//! What a thunk keeps of its function under `-mergefunc-preserve-debug-info` (spec §6): the
//! debug information of its parameters, as LLVM's `filterInstsUnrelatedToPDI` selects it.
//!
//! Of the entry block, LLVM keeps
//! - `#dbg_value` and `#dbg_assign` records of a parameter variable;
//! - `#dbg_declare` records of a parameter variable whose address is an `alloca` that some
//!   `store` fills with an argument, with that `alloca` and those stores (the ones in the entry
//!   block: the rest of the body goes);
//! - `#dbg_label` records, which it never examines.
//!
//! A kept record whose operand was an instruction that goes reads `poison` instead, as LLVM
//! prints it once the instruction is erased. Numbered values are numbered again, as LLVM's
//! printer does. The thunk's call and return get a new location: line `scopeLine` of the
//! function's `DISubprogram`, column 0.

use super::fold::{is_number, param_names};
use crate::model::*;
use crate::read::local_names;
use rustc_hash::{FxHashMap, FxHashSet};

/// The entry block a thunk keeps, and the location its call and return carry.
pub struct KeptEntry {
    /// The kept instructions and records, a line each (empty when the function has none, or
    /// when its names are written in a way the renaming below does not follow).
    pub lines: String,
    /// How many numbered values the lines define.
    pub values: usize,
    /// `!DILocation(...)` for the call and the return, when the function has a `DISubprogram`.
    pub location: Option<String>,
}

/// What `f` keeps of its entry block when it becomes a thunk in place.
pub fn kept_entry(m: &Module, f: FuncId) -> KeptEntry {
    let (lines, values) = m
        .body(f)
        .ok()
        .and_then(|body| kept_lines(m, f, &body))
        .unwrap_or_default();
    KeptEntry {
        lines,
        values,
        location: subprogram_location(m, &m.functions[f]),
    }
}

/// The kept lines and how many numbered values they define; `None` when a name in them is
/// escaped or is also a type's name.
fn kept_lines(m: &Module, f: FuncId, body: &Body) -> Option<(String, usize)> {
    let entry = body.blocks.values().next()?;
    let names = LocalNames::of(m, f, body)?;
    let entry_insts = entry.first_inst..entry.first_inst + entry.inst_count;
    let in_entry = |i: InstId| entry_insts.contains(&i.as_u32());

    let mut kept_insts: Vec<InstId> = Vec::new();
    let mut kept: Vec<(Span, &str)> = Vec::new();
    for record in body.debug_records.iter().filter(|r| in_entry(r.before)) {
        let Some((kind, operands)) = split_record(m.text(record.span)) else {
            continue;
        };
        let of_parameter = || operands.get(1).is_some_and(|v| is_parameter(m, v));
        let keep = match kind {
            "dbg_label" => true,
            "dbg_value" | "dbg_assign" => of_parameter(),
            "dbg_declare" if of_parameter() => {
                let address = operands.first().map_or("", |a| value_text(a));
                let stores = argument_stores(body, &names, address);
                kept_insts.extend(&stores);
                !stores.is_empty()
            }
            _ => false,
        };
        if keep {
            let text = m.text(record.span);
            kept.push((
                record.span,
                if text.starts_with('#') { "    " } else { "  " },
            ));
        }
    }
    // Only what is in the entry block stays; the rest of the body goes.
    kept_insts.retain(|&i| in_entry(i));
    kept_insts.sort_by_key(|&i| body.insts[i].span.start);
    kept_insts.dedup();

    // Numbered values: the unnamed parameters keep theirs, the entry block (its label is not
    // kept) takes the next, then the kept results in order.
    let first = names.arguments.iter().filter(|a| is_number(a)).count() + 1;
    let mut next = first;
    let mut renumbered: FxHashMap<&str, String> = FxHashMap::default();
    let mut kept_results: FxHashSet<&str> = FxHashSet::default();
    for &i in &kept_insts {
        kept.push((body.insts[i].span, "  "));
        let Some(result) = names.result_of(i) else {
            continue;
        };
        kept_results.insert(result);
        if is_number(result) {
            renumbered.insert(result, format!("%{next}"));
            next += 1;
        }
    }
    kept.sort_by_key(|(s, _)| s.start);

    let mut lines = String::new();
    for (span, indent) in kept {
        let text = m.text(span);
        lines.push_str(indent);
        let mut at = 0;
        for r in local_names(text) {
            let name = normalize(&text[r.clone()])?;
            let is_local = names.arguments.contains(&name) || names.results.contains_key(&name);
            if is_local && m.types.named_by_key.contains_key(name.as_bytes()) {
                return None;
            }
            lines.push_str(&text[at..r.start]);
            let gone = is_local
                && !names.arguments.contains(&name)
                && !kept_results.contains(name.as_str());
            match renumbered.get(name.as_str()) {
                Some(new) => lines.push_str(new),
                None if gone => lines.push_str("poison"),
                None => lines.push_str(&text[r.clone()]),
            }
            at = r.end;
        }
        lines.push_str(&text[at..]);
        lines.push('\n');
    }
    Some((lines, next - first))
}

/// `%"name"` as `%name`, so that both spellings of one local compare equal; `None` for a name
/// with escapes.
fn normalize(name: &str) -> Option<String> {
    if name.contains('\\') {
        return None;
    }
    Some(name.replacen('"', "", 2))
}

/// The function's local names, normalized: parameters and instruction results.
struct LocalNames {
    arguments: FxHashSet<String>,
    results: FxHashMap<String, InstId>,
    by_inst: FxHashMap<InstId, String>,
}

impl LocalNames {
    fn of(m: &Module, f: FuncId, body: &Body) -> Option<Self> {
        let mut arguments = FxHashSet::default();
        for name in param_names(m, f) {
            arguments.insert(normalize(&name)?);
        }
        let mut results = FxHashMap::default();
        let mut by_inst = FxHashMap::default();
        for (i, inst) in body.insts.iter().filter(|(_, inst)| inst.result.is_some()) {
            let text = m.text(inst.span);
            if let Some(r) = local_names(text).first().filter(|r| r.start == 0) {
                let name = normalize(&text[r.clone()])?;
                results.insert(name.clone(), i);
                by_inst.insert(i, name);
            }
        }
        Some(LocalNames {
            arguments,
            results,
            by_inst,
        })
    }

    fn result_of(&self, i: InstId) -> Option<&str> {
        self.by_inst.get(&i).map(String::as_str)
    }
}

/// The stores in `body` of an argument into the `alloca` named `address`; empty when
/// `address` names no `alloca`.
fn argument_stores(body: &Body, names: &LocalNames, address: &str) -> Vec<InstId> {
    let Some(&alloca) = normalize(address).and_then(|a| names.results.get(&a)) else {
        return Vec::new();
    };
    if body.insts[alloca].opcode != Opcode::Alloca {
        return Vec::new();
    }
    let defined_by = |v: &Value| match v.kind() {
        ValueKind::Local(l) => Some(body.locals[l].def),
        _ => None,
    };
    let mut stores = Vec::new();
    for (i, inst) in body.insts.iter() {
        if inst.opcode != Opcode::Store {
            continue;
        }
        let mut values = body.items(i).iter().filter_map(|it| match it {
            Item::Value(v) => Some(*v),
            _ => None,
        });
        let (Some(stored), Some(pointer)) = (values.next(), values.next()) else {
            continue;
        };
        if matches!(defined_by(&stored), Some(LocalDef::Arg(_)))
            && matches!(defined_by(&pointer), Some(LocalDef::Inst(i)) if i == alloca)
        {
            stores.push(i);
        }
    }
    if !stores.is_empty() {
        stores.push(alloca);
    }
    stores
}

/// `#kind(op, op, ...)`, or the call it stands for in older text
/// (`call void @llvm.dbg.kind(metadata op, ...)`): the kind (`dbg_value`...) and the operands,
/// split at the commas outside brackets and strings.
pub(super) fn split_record(text: &str) -> Option<(&str, Vec<&str>)> {
    let (kind, args) = match text.strip_prefix('#') {
        Some(rest) => {
            let open = rest.find('(')?;
            (&rest[..open], &rest[open + 1..])
        }
        None => {
            let rest = &text[text.find("@llvm.dbg.")? + "@llvm.dbg.".len()..];
            let open = rest.find('(')?;
            let kind = match &rest[..open] {
                "value" => "dbg_value",
                "declare" => "dbg_declare",
                "assign" => "dbg_assign",
                "label" => "dbg_label",
                _ => return None,
            };
            (kind, &rest[open + 1..])
        }
    };
    let mut operands = Vec::new();
    let (mut depth, mut in_string, mut start) = (0i32, false, 0);
    for (i, b) in args.bytes().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' if depth == 0 => {
                operands.push(operand(&args[start..i]));
                return Some((kind, operands));
            }
            b')' | b'}' | b']' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                operands.push(operand(&args[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// An operand of a record, without the `metadata` a call writes before it.
fn operand(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix("metadata ").unwrap_or(text)
}

/// The value of a `<type> <value>` operand: its last token.
fn value_text(operand: &str) -> &str {
    if let Some(quoted) = operand.strip_suffix('"') {
        // A quoted name: `%"..."`, whose text has no other quote.
        let open = quoted.rfind('"').unwrap_or(0);
        return &operand[open.saturating_sub(1)..];
    }
    operand
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or(operand)
}

/// Whether a record's variable operand (`!N`) is a `DILocalVariable` with an `arg:` field.
fn is_parameter(m: &Module, variable: &str) -> bool {
    let Some(node) = numbered_node(m, variable) else {
        return false;
    };
    match &node.body {
        MdBody::Specialized(name) => {
            m.bytes(*name) == b"!DILocalVariable"
                && m.md_fields(*name)
                    .iter()
                    .any(|(key, _)| m.bytes(*key) == b"arg:")
        }
        _ => false,
    }
}

fn numbered_node<'a>(m: &'a Module, reference: &str) -> Option<&'a MdNode> {
    let n: u32 = reference.strip_prefix('!')?.parse().ok()?;
    m.md_by_number.get(n).map(|id| &m.metadata[id])
}

/// `!DILocation(line: <scopeLine>, scope: !SP)` for `func`'s `!dbg` subprogram.
fn subprogram_location(m: &Module, func: &Function) -> Option<String> {
    let (kind, subprogram) = func
        .metadata
        .iter()
        .find(|(kind, _)| m.bytes(*kind) == b"!dbg")?;
    // The subprogram's number as the attachment writes it: `!dbg !28`.
    let after = &m.source[kind.end as usize..];
    let digits = after.trim_start().strip_prefix('!')?;
    let number = &digits[..digits.bytes().take_while(u8::is_ascii_digit).count()];
    if number.is_empty() {
        return None;
    }
    let MdRef::Node(id) = subprogram else {
        return None;
    };
    let line = match &m.metadata[*id].body {
        MdBody::Specialized(name) => m
            .md_fields(*name)
            .iter()
            .find(|(key, _)| m.bytes(*key) == b"scopeLine:")
            .and_then(|(_, value)| m.text(*value).trim().parse::<u64>().ok())
            .unwrap_or(0),
        _ => 0,
    };
    Some(format!("!DILocation(line: {line}, scope: !{number})"))
}
