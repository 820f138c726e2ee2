//! The text of a folded function: a thunk that calls the kept body, or an alias of it.

use crate::model::*;
use crate::write::global_name;
use std::fmt::Write;

/// The source text of `f`'s header, `define` to the end of its metadata attachments, keeping
/// only the attachments a thunk carries: `!type` and `!kcfi_type`. A thunk built in place
/// (`-mergefunc-preserve-debug-info`) keeps `!dbg` and its parameters' names too; any other is
/// a new function in LLVM, whose parameters have no names: they are numbered here, as LLVM
/// prints them.
fn thunk_header(m: &Module, f: FuncId, in_place: bool) -> String {
    let func = &m.functions[f];
    let header = func.header_span;
    let attachments = func
        .metadata
        .first()
        .map_or(header.end, |first| first.0.start);
    let mut text = String::new();
    let mut copied = header.start as usize;
    if !in_place {
        for (i, param) in func.params.iter().enumerate() {
            match param.name() {
                Some(name) => {
                    text.push_str(m.text(Span::new(copied, name.start as usize)));
                    let _ = write!(text, "%{i}");
                    copied = name.end as usize;
                }
                None => {
                    // `(ptr)`: the number LLVM prints for it, after its type and attributes.
                    let at = super::spelling::code_end(m.source.as_bytes(), param.end as usize);
                    text.push_str(m.text(Span::new(copied, at)));
                    let _ = write!(text, " %{i}");
                    copied = at;
                }
            }
        }
    }
    text.push_str(m.text(Span::new(copied, attachments as usize)));
    if func.metadata.is_empty() {
        return text;
    }
    for (i, (kind, _)) in func.metadata.iter().enumerate() {
        let end = func
            .metadata
            .get(i + 1)
            .map_or(header.end, |next| next.0.start);
        let k = m.bytes(*kind);
        if k == b"!type" || k == b"!kcfi_type" || (in_place && k == b"!dbg") {
            text.push_str(m.text(Span::new(kind.start as usize, end as usize)));
        }
    }
    text.trim_end().to_string()
}

fn attr_text(m: &Module, a: &Attr) -> String {
    match a.kind() {
        AttrKind::Group(_, s) | AttrKind::Text(s) => m.text(s).to_string(),
        AttrKind::Typed(s, t) => format!("{}({})", m.text(s), m.types.display(t)),
    }
}

fn attrs_text(m: &Module, list: AttrList) -> String {
    let mut s = String::new();
    for a in m.attr_list(list) {
        s.push_str(&attr_text(m, a));
        s.push(' ');
    }
    s
}

/// The names of `f`'s parameters as its body refers to them.
pub(super) fn param_names(m: &Module, f: FuncId) -> Vec<String> {
    param_names_as(m, f, true)
}

/// `f`'s parameters' names: as its text names them, or (`named` false) numbered in order.
fn param_names_as(m: &Module, f: FuncId, named: bool) -> Vec<String> {
    if !named {
        let count = m.functions[f].params.len();
        return (0..count).map(|i| format!("%{i}")).collect();
    }
    let mut numbered = 0;
    m.functions[f]
        .params
        .iter()
        .map(|p| {
            let name = match p.name() {
                Some(s) => m.text(s).to_string(),
                None => format!("%{numbered}"),
            };
            if is_number(&name) {
                numbered += 1;
            }
            name
        })
        .collect()
}

/// Whether a local is named by number: `%7`.
pub(super) fn is_number(name: &str) -> bool {
    name[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Writes instructions that turn a value of one type into the equal value of another type
/// that the merge semantics considers the same (§4): `ptr`/integer, and aggregates of them.
struct Casts<'m> {
    m: &'m Module,
    code: String,
    /// The number the next value takes (values are numbered as LLVM numbers them).
    next: usize,
}

impl Casts<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%{}", self.next - 1)
    }

    fn cast(&mut self, value: String, from: TypeId, to: TypeId) -> String {
        let types = &self.m.types;
        if from == to || types.display(from) == types.display(to) {
            return value;
        }
        let (rf, rt) = (types.resolve(from), types.resolve(to));
        let (tf, tt) = (types.get(rf).clone(), types.get(rt).clone());
        let (from_s, to_s) = (types.display(from), types.display(to));
        let elems = |t: &Type| -> Option<Vec<TypeId>> {
            match t {
                Type::Struct { elems, .. } => Some(elems.clone()),
                Type::Array(n, e) => Some(vec![*e; *n as usize]),
                _ => None,
            }
        };
        if let (Some(ef), Some(et)) = (elems(&tf), elems(&tt))
            && ef.len() == et.len()
        {
            let mut acc = "poison".to_string();
            for (i, (a, b)) in ef.into_iter().zip(et).enumerate() {
                let part = self.fresh();
                let _ = writeln!(self.code, "  {part} = extractvalue {from_s} {value}, {i}");
                let converted = self.cast(part, a, b);
                let next = self.fresh();
                let _ = writeln!(
                    self.code,
                    "  {next} = insertvalue {to_s} {acc}, {} {converted}, {i}",
                    self.m.types.display(b)
                );
                acc = next;
            }
            return acc;
        }
        let scalar = |t: &Type| -> Type {
            match t {
                Type::Vector { elem, .. } => types.get(types.resolve(*elem)).clone(),
                other => other.clone(),
            }
        };
        let op = match (scalar(&tf), scalar(&tt)) {
            (Type::Int(_), Type::Ptr(_)) => "inttoptr",
            (Type::Ptr(_), Type::Int(_)) => "ptrtoint",
            _ => "bitcast",
        };
        let out = self.fresh();
        let _ = writeln!(self.code, "  {out} = {op} {from_s} {value} to {to_s}");
        out
    }
}

/// What a thunk built in place keeps under `-mergefunc-preserve-debug-info`: its header's
/// `!dbg`, the lines of its entry block that describe its parameters, and the location (`!N`)
/// of its call and return.
pub struct DebugInfo<'a> {
    pub entry_lines: &'a str,
    /// How many numbered values the entry lines define.
    pub entry_values: usize,
    pub location: Option<&'a str>,
}

/// A function with `member`'s header whose body calls `target` (named `target_name`) with its
/// arguments and returns the result, casting between types the merge treats as equal. With
/// `debug_info`, the thunk is built in place of `member`'s body and keeps its parameters'
/// names; without, it is a new function, with numbered parameters.
pub fn thunk_text(
    m: &Module,
    member: FuncId,
    target: FuncId,
    target_name: &str,
    debug_info: Option<DebugInfo>,
) -> String {
    let g = &m.functions[member];
    let t = &m.functions[target];
    let mut casts = Casts {
        m,
        code: debug_info
            .as_ref()
            .map_or(String::new(), |d| d.entry_lines.to_string()),
        next: 0,
    };
    let location = debug_info
        .as_ref()
        .and_then(|d| d.location)
        .map_or(String::new(), |l| format!(", !dbg {l}"));
    let names = param_names_as(m, member, debug_info.is_some());
    // Numbered values: the parameters, the entry block, the kept entry lines', then ours.
    let numbered_params = names.iter().filter(|n| is_number(n)).count();
    casts.next = numbered_params + 1 + debug_info.as_ref().map_or(0, |d| d.entry_values);
    let mut args = Vec::new();
    for (i, p) in t.params.iter().enumerate() {
        let (Some(name), Some(gp)) = (names.get(i), g.params.get(i)) else {
            break;
        };
        let v = casts.cast(name.clone(), gp.ty, p.ty);
        args.push(format!(
            "{} {}{}",
            m.types.display(p.ty),
            attrs_text(m, p.attrs),
            v
        ));
    }
    let tail = match (t.extras().cconv, g.extras().cconv) {
        (Some(a), Some(b)) if m.bytes(a) == b"swifttailcc" && m.bytes(b) == b"swifttailcc" => {
            "musttail"
        }
        _ => "tail",
    };
    let cc = t
        .extras()
        .cconv
        .map_or(String::new(), |s| format!("{} ", m.text(s)));
    let ret_attrs = attrs_text(m, t.ret_attrs);
    let fn_attrs = attrs_text(m, t.fn_attrs);
    // As LLVM prints a call: its address space unless both it and the program's are 0 (a
    // call without one is read as a call into the program's).
    let addr_space = match m.function_addr_space(target) {
        0 if m.data_layout.program_addr_space == 0 => String::new(),
        a => format!("addrspace({a}) "),
    };
    let void = m.types.is_void(t.ret_ty);
    let result = if void { None } else { Some(casts.fresh()) };
    let mut call = String::from("  ");
    if let Some(r) = &result {
        let _ = write!(call, "{r} = ");
    }
    let _ = write!(
        call,
        "{tail} call {cc}{ret_attrs}{addr_space}{} {target_name}({}){}{}",
        m.types.display(t.ret_ty),
        args.join(", "),
        if fn_attrs.is_empty() { "" } else { " " },
        fn_attrs.trim_end()
    );
    call.push_str(&location);
    call.push('\n');
    casts.code.push_str(&call);
    let ret = match result {
        Some(r) if !m.types.is_void(g.ret_ty) => {
            let v = casts.cast(r, t.ret_ty, g.ret_ty);
            format!("  ret {} {v}{location}\n", m.types.display(g.ret_ty))
        }
        _ => format!("  ret void{location}\n"),
    };
    format!(
        "{} {{\n{}{ret}}}",
        thunk_header(m, member, debug_info.is_some()),
        casts.code
    )
}

/// `@member = <linkage> <visibility> unnamed_addr alias <type>, ptr <target_name>`, with the
/// linkage and visibility of `link` (the member's before the merge).
pub fn alias_text(
    m: &Module,
    member: FuncId,
    link: &Linkable,
    name: &GlobalName,
    target_name: &str,
) -> String {
    let mut head = String::new();
    for w in [
        link.linkage.keyword(),
        match link.visibility {
            Visibility::Default => "",
            Visibility::Hidden => "hidden",
            Visibility::Protected => "protected",
        },
    ] {
        if !w.is_empty() {
            head.push_str(w);
            head.push(' ');
        }
    }
    let name = global_name(name);
    format!(
        "{name} = {head}unnamed_addr alias {}, {} {target_name}",
        m.types.display(m.functions[member].fn_ty),
        pointer_text(m.function_addr_space(member))
    )
}

impl Module {
    /// Replace a whole function (its text from `define` to `}`) with `text`.
    pub fn replace_function(&mut self, f: FuncId, text: String) {
        let span = self.functions[f].span;
        self.drop_function_uses(f, span);
        self.functions[f].rewritten = true;
        self.patch(span, text);
    }
}
