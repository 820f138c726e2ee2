//! Near twins: a module's functions beside copies of them changed in one place each, for the
//! differential test against opt-22. A copy changed where LLVM's comparison looks must not
//! merge with its original; one changed where it does not look (a getelementptr's flags) merges
//! in opt-22 and, unless a rule of the spec says otherwise, in mergefn.
//!
//! A copy is named `@<name>.twin.<i>`, made `internal` and taken out of any comdat, so that
//! merging may fold it into its original or the original into it. The change is one of: an
//! integer or floating-point literal, an array or vector length, a string (inline assembly,
//! constraints, metadata), a flag (`nsw`, `inbounds`, `volatile`, fast-math...), a comparison
//! predicate, an opcode for another taking the same operands, an alignment, an atomic
//! ordering or its scope, the node of a metadata attachment, a global operand, the operands of
//! a non-commutative instruction, two destinations of a terminator, a call's tail marker,
//! calling convention or one of its attributes; or in the header: the attribute group, a
//! parameter's attribute, the section, the collector, the alignment or the address space. What opt-22's verifier refuses is
//! dropped: mergefn's reader finds most such copies at once, opt-22 the rest.
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use mergefn::parse;
use std::path::Path;

/// A small deterministic generator (xorshift64*), seeded by the module's name, so that a
/// failure names copies that the next run makes again.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: &str) -> Rng {
        let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
        for b in seed.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
        Rng(h | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// Words replaced by others that take the same operands, or by nothing (a flag or attribute
/// dropped).
const SWAPS: &[(&str, &str)] = &[
    ("eq", "ne"),
    ("ne", "eq"),
    ("slt", "sle"),
    ("ult", "ule"),
    ("sgt", "sge"),
    ("ugt", "uge"),
    ("oeq", "une"),
    ("olt", "ole"),
    ("ogt", "oge"),
    ("une", "oeq"),
    ("sext", "zext"),
    ("zext", "sext"),
    ("fptosi", "fptoui"),
    ("sitofp", "uitofp"),
    ("sdiv", "udiv"),
    ("udiv", "sdiv"),
    ("srem", "urem"),
    ("ashr", "lshr"),
    ("lshr", "ashr"),
    ("add", "sub"),
    ("sub", "add"),
    ("mul", "add"),
    ("and", "or"),
    ("or", "xor"),
    ("xor", "and"),
    ("fadd", "fsub"),
    ("fmul", "fdiv"),
    ("monotonic", "acquire"),
    ("acquire", "seq_cst"),
    ("release", "seq_cst"),
    ("seq_cst", "monotonic"),
    ("tail", ""),
    ("musttail", ""),
    ("nsw", ""),
    ("nuw", ""),
    ("exact", ""),
    ("disjoint", ""),
    ("nneg", ""),
    ("inbounds", ""),
    ("nusw", ""),
    ("volatile", ""),
    ("samesign", ""),
    ("fast", ""),
    ("nnan", ""),
    ("ninf", ""),
    ("weak", ""),
    ("noundef", ""),
    ("nonnull", ""),
    ("zeroext", ""),
    ("signext", ""),
    ("fastcc", ""),
    ("coldcc", ""),
    ("reassoc", ""),
    ("contract", ""),
    ("nsz", ""),
    ("arcp", ""),
    ("afn", ""),
    ("inrange", ""),
    ("notail", "tail"),
    ("sideeffect", ""),
    ("cleanup", ""),
];

/// Flags added after an opcode.
const ADDED: &[(&str, &str)] = &[
    ("= add ", "= add nsw "),
    ("= sub ", "= sub nuw "),
    ("= shl ", "= shl nuw "),
    ("= udiv ", "= udiv exact "),
    ("= getelementptr ", "= getelementptr inbounds "),
    ("= load ", "= load volatile "),
    ("store ", "store volatile "),
    ("= fadd ", "= fadd nnan "),
    ("= zext ", "= zext nneg "),
    ("= call ", "= tail call "),
    (" monotonic", " syncscope(\"singlethread\") monotonic"),
    (" seq_cst", " syncscope(\"singlethread\") seq_cst"),
];

/// Opcodes whose operands may not be swapped.
const NON_COMMUTATIVE: &[&str] = &[
    "sub", "sdiv", "udiv", "srem", "urem", "shl", "lshr", "ashr", "fsub", "fdiv", "frem", "icmp",
    "fcmp",
];

/// The words of a line of IR and where each is: runs of bytes between spaces and the
/// punctuation that separates operands, a quoted string (`@"a b"`, `c"..."`) as one word.
fn words(line: &str) -> Vec<(usize, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b" ,()[]{}<>=".contains(&b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut quoted = false;
        while i < b.len() && (quoted || !b" ,()[]{}<>=".contains(&b[i])) {
            if b[i] == b'"' {
                quoted = !quoted;
            }
            i += 1;
        }
        out.push((start, &line[start..i]));
    }
    out
}

fn is_int_type(w: &str) -> bool {
    w.strip_prefix('i')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

fn is_local(w: &str) -> bool {
    w.starts_with('%')
}

/// What a module offers a change: its globals (but intrinsics and LLVM's own) and the nodes
/// each attachment kind names.
pub struct Choices {
    globals: Vec<String>,
    attachments: Vec<(String, Vec<String>)>,
    groups: Vec<String>,
}

impl Choices {
    pub fn of(text: &str) -> Choices {
        let mut globals = Vec::new();
        let mut groups = Vec::new();
        let mut attachments: std::collections::BTreeMap<
            String,
            std::collections::BTreeSet<String>,
        > = Default::default();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix('@') {
                if let Some((name, _)) = rest.split_once(" = ") {
                    if !name.starts_with("llvm.") && !name.starts_with("\"llvm.") {
                        globals.push(name.to_string());
                    }
                }
            }
            if let Some(rest) = line.strip_prefix("attributes #") {
                groups.extend(rest.split_once(' ').map(|(n, _)| n.to_string()));
            }
            let w = words(line);
            for pair in w.windows(2) {
                let (kind, node) = (pair[0].1, pair[1].1);
                if kind.starts_with('!')
                    && kind[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                    && node.len() > 1
                    && node.starts_with('!')
                    && node[1..].bytes().all(|c| c.is_ascii_digit())
                {
                    attachments
                        .entry(kind.to_string())
                        .or_default()
                        .insert(node.to_string());
                }
            }
        }
        globals.sort();
        globals.dedup();
        Choices {
            globals,
            attachments: attachments
                .into_iter()
                .map(|(k, v)| (k, v.into_iter().collect()))
                .collect(),
            groups,
        }
    }
}

/// `line` with `range` replaced by `with` (a word dropped with the space before it).
fn replaced(line: &str, at: usize, len: usize, with: &str) -> String {
    if with.is_empty() && at > 0 && line.as_bytes()[at - 1] == b' ' {
        format!("{}{}", &line[..at - 1], &line[at + len..])
    } else {
        format!("{}{}{}", &line[..at], with, &line[at + len..])
    }
}

/// The changes one line of a body offers.
fn line_changes(line: &str, rng: &mut Rng, choices: &Choices) -> Vec<String> {
    let mut out = Vec::new();
    let w = words(line);
    for (k, &(at, word)) in w.iter().enumerate() {
        let next = w.get(k + 1).map(|&(_, n)| n);
        if let Some(&(_, to)) = SWAPS.iter().find(|(from, _)| *from == word) {
            out.push(replaced(line, at, word.len(), to));
        }
        match next {
            Some(_) if is_int_type(word) => {
                let (at, n) = w[k + 1];
                if let Ok(v) = n.parse::<i128>() {
                    let by = [1, -1, 2, 7][rng.below(4)];
                    out.push(replaced(line, at, n.len(), &(v + by).to_string()));
                } else if n == "true" || n == "false" {
                    let flipped = if n == "true" { "false" } else { "true" };
                    out.push(replaced(line, at, n.len(), flipped));
                }
            }
            Some(_) if matches!(word, "half" | "float" | "double") => {
                let (at, n) = w[k + 1];
                let changed = if let Some(hex) = n.strip_prefix("0x") {
                    let last = if hex.ends_with('1') { "2" } else { "1" };
                    Some(format!("{}{last}", &n[..n.len() - 1]))
                } else if n.contains('.') && n.parse::<f64>().is_ok() {
                    Some(
                        n.strip_prefix('-')
                            .map_or_else(|| format!("-{n}"), str::to_string),
                    )
                } else {
                    None
                };
                out.extend(changed.map(|c| replaced(line, at, n.len(), &c)));
            }
            Some(_) if word == "align" => {
                let (at, n) = w[k + 1];
                if let Ok(a) = n.parse::<u64>() {
                    let other = if a < 16 { a * 2 } else { a / 2 };
                    out.push(replaced(line, at, n.len(), &other.to_string()));
                }
            }
            Some(n) if word.starts_with('!') && n.starts_with('!') => {
                let (at, n) = w[k + 1];
                let others: Vec<&String> = choices
                    .attachments
                    .iter()
                    .find(|(kind, _)| kind == word)
                    .map(|(_, nodes)| nodes.iter().filter(|o| *o != n).collect())
                    .unwrap_or_default();
                if let Some(o) = rng.pick(&others) {
                    out.push(replaced(line, at, n.len(), o));
                }
            }
            _ => {}
        }
        // `[4 x i8]` -> `[5 x i8]`, `<2 x i32>` -> `<4 x i32>` (allocas, getelementptrs).
        if next == Some("x") && at > 0 && b"[<".contains(&line.as_bytes()[at - 1]) {
            if let Ok(n) = word.parse::<u64>() {
                let other = if line.as_bytes()[at - 1] == b'<' {
                    n * 2
                } else {
                    n + 1
                };
                out.push(replaced(line, at, word.len(), &other.to_string()));
            }
        }
        // An inline assembly string or constraint, a metadata string: one byte more.
        let string = word.strip_prefix('!').unwrap_or(word);
        if string.len() >= 2 && string.starts_with('"') && string.ends_with('"') {
            let end = at + word.len() - 1;
            out.push(format!("{} {}", &line[..end], &line[end..]));
        }
        if let Some(name) = word.strip_prefix('@') {
            if !name.starts_with("llvm.") && !name.starts_with("\"llvm.") {
                let others: Vec<&String> = choices.globals.iter().filter(|g| *g != name).collect();
                if let Some(o) = rng.pick(&others) {
                    out.push(replaced(line, at + 1, name.len(), o));
                }
            }
        }
    }
    for (from, to) in ADDED {
        if let Some(at) = line.find(from) {
            out.push(replaced(line, at, from.len(), to));
        }
    }
    // The first two destinations of a branch, a switch or an invoke, swapped.
    let labels: Vec<(usize, &str)> = w
        .windows(2)
        .filter(|p| p[0].1 == "label" && is_local(p[1].1))
        .map(|p| p[1])
        .collect();
    if let [(a_at, a), (b_at, b), ..] = labels[..] {
        if a != b {
            out.push(format!(
                "{}{b}{}{a}{}",
                &line[..a_at],
                &line[a_at + a.len()..b_at],
                &line[b_at + b.len()..]
            ));
        }
    }
    // `%x = sub i32 %a, %b` -> `... %b, %a`.
    let opcode = w.get(1).map(|&(_, o)| o);
    let swappable = opcode.is_some_and(|o| NON_COMMUTATIVE.contains(&o));
    if let [.., (a_at, a), (b_at, b)] = w[..] {
        if swappable && is_local(a) && is_local(b) && a != b && b_at + b.len() == line.len() {
            out.push(format!(
                "{}{b}{}{a}",
                &line[..a_at],
                &line[a_at + a.len()..b_at]
            ));
        }
    }
    out
}

/// The part of a header after the function's name, changed in one place.
fn header_change(rest: &str, rng: &mut Rng, choices: &Choices) -> Option<String> {
    let mut out = vec![
        rest.replacen(" {", " section \".text.twin\" {", 1),
        rest.replacen(" {", " gc \"statepoint-example\" {", 1),
        rest.replacen(" {", " align 64 {", 1),
        rest.replacen(") ", ") addrspace(1) ", 1),
    ];
    let w = words(rest);
    for &(at, word) in &w {
        if let Some(group) = word.strip_prefix('#') {
            let others: Vec<&String> = choices.groups.iter().filter(|g| *g != group).collect();
            if let Some(o) = rng.pick(&others) {
                out.push(replaced(rest, at + 1, group.len(), o));
            }
        }
        if matches!(
            word,
            "noundef" | "nonnull" | "readonly" | "noalias" | "signext" | "zeroext"
        ) {
            out.push(replaced(rest, at, word.len(), ""));
        }
    }
    out.retain(|c| c != rest);
    rng.pick(&out).cloned()
}

/// The definitions of a module as LLVM prints them: (first line, last line, printed name).
fn definitions(lines: &[&str]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") && line.ends_with('{') {
            let name = line.find(" @").and_then(|at| {
                let rest = &line[at + 2..];
                let end = match rest.strip_prefix('"') {
                    Some(quoted) => quoted.find('"').map(|q| q + 2),
                    None => rest.find('('),
                };
                end.map(|e| rest[..e].to_string())
            });
            open = name.map(|n| (i, n));
        } else if line.starts_with('}') {
            if let Some((start, name)) = open.take() {
                out.push((start, i, name));
            }
        }
    }
    out
}

/// Keywords of a header before the name that a local copy must not keep.
const LINKAGE_WORDS: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce_odr",
    "weak_odr",
    "linkonce",
    "weak",
    "common",
    "extern_weak",
    "external",
    "dso_local",
    "dso_preemptable",
    "hidden",
    "protected",
    "dllexport",
    "dllimport",
];

/// A copy of the definition in `lines[start..=end]` changed in one place, named for `index`.
fn twin(
    lines: &[&str],
    (start, end, name): &(usize, usize, String),
    index: usize,
    rng: &mut Rng,
    choices: &Choices,
) -> Option<String> {
    let new_name = match name.strip_suffix('"') {
        Some(quoted) => format!("{quoted}.twin.{index}\""),
        None => format!("{name}.twin.{index}"),
    };
    let header = lines[*start];
    let at = header.find(&format!(" @{name}"))?;
    let before: Vec<&str> = header[..at]
        .split(' ')
        .skip(1)
        .filter(|w| !LINKAGE_WORDS.contains(w))
        .collect();
    let mut rest = header[at + 2 + name.len()..].to_string();
    // Out of any comdat: `comdat` or `comdat($name)`.
    if let Some(c) = rest.find(" comdat") {
        let tail = &rest[c + 7..];
        let len = if tail.starts_with("($") {
            tail.find(')').map_or(0, |p| p + 1)
        } else {
            0
        };
        rest = format!("{}{}", &rest[..c], &rest[c + 7 + len..]);
    }
    let mut body: Vec<String> = lines[start + 1..=*end]
        .iter()
        .map(|l| l.to_string())
        .collect();
    if rng.below(7) == 0 {
        rest = header_change(&rest, rng, choices)?;
    } else {
        let mut order: Vec<usize> = (0..body.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let at = order.into_iter().find_map(|i| {
            let line = &body[i];
            let code = line.trim_start();
            if !line.starts_with("  ") || code.starts_with(';') || code.starts_with("#dbg_") {
                return None;
            }
            let changes = line_changes(line, rng, choices);
            rng.pick(&changes).map(|c| (i, c.clone()))
        })?;
        body[at.0] = at.1;
    }
    let mut text = format!("define internal {}", before.join(" "));
    if !before.is_empty() {
        text.push(' ');
    }
    text.push_str(&format!("@{new_name}{rest}\n"));
    for line in body {
        text.push_str(&line);
        text.push('\n');
    }
    Some(text)
}

/// `base` with the copies after it, and the lines (1-based, inclusive) each copy takes.
pub fn module_with(base: &str, twins: &[String]) -> (String, Vec<(usize, usize)>) {
    let mut text = base.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut line = text.lines().count() + 1;
    let mut spans = Vec::new();
    for t in twins {
        text.push('\n');
        line += 1;
        let n = t.lines().count();
        spans.push((line, line + n - 1));
        text.push_str(t);
        line += n;
    }
    (text, spans)
}

/// The line of the first error in `text`, 0 for one without a line; None when it reads and
/// verifies. mergefn's reader first, then opt-22's verifier.
fn first_fault(text: &str, with_opt: bool) -> Option<usize> {
    // mergefn says `L:C: ...`, opt-22 `opt-22: /tmp/.../m.ll:L:C: error: ...`.
    let shown = match with_opt {
        false => parse(text.to_string()).err()?.to_string(),
        true => crate::common::verify(text).err()?,
    };
    let at = shown
        .split_once(".ll:")
        .map_or(shown.as_str(), |(_, at)| at);
    Some(
        at.split(':')
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or(0),
    )
}

/// The copies of `twins` that make, with `base`, a module opt-22 verifies.
fn keep_valid(base: &str, mut twins: Vec<String>) -> Vec<String> {
    for with_opt in [false, true] {
        while !twins.is_empty() {
            let (text, spans) = module_with(base, &twins);
            let Some(line) = first_fault(&text, with_opt) else {
                break;
            };
            let culprit = match spans.iter().position(|&(a, b)| a <= line && line <= b) {
                Some(k) => k,
                None => {
                    // No line, or one outside the copies (a use they made wrong): the
                    // shortest failing prefix of the copies ends at the culprit.
                    let (mut lo, mut hi) = (0, twins.len());
                    while lo + 1 < hi {
                        let mid = (lo + hi) / 2;
                        let (text, _) = module_with(base, &twins[..mid]);
                        if first_fault(&text, with_opt).is_none() {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    hi - 1
                }
            };
            twins.remove(culprit);
        }
    }
    twins
}

/// The longest definition copied, in lines: a module of one large function (llvm-stress's)
/// would otherwise grow by its size for each copy.
const MAX_LINES: usize = 400;

/// `module`'s text and up to `count` near twins of its functions, valid or not. Each `seed`
/// makes other twins.
pub fn near_twins(module: &Path, count: usize, seed: &str) -> (String, Vec<String>) {
    let base = std::fs::read_to_string(module).unwrap();
    let lines: Vec<&str> = base.lines().collect();
    let mut defs = definitions(&lines);
    defs.retain(|(start, end, _)| end - start <= MAX_LINES);
    let choices = Choices::of(&base);
    let mut rng = Rng::new(&format!(
        "{seed}:{}",
        module.file_name().unwrap().to_string_lossy()
    ));
    let twins: Vec<String> = (0..count)
        .filter_map(|i| {
            let def = rng.pick(&defs)?.clone();
            twin(&lines, &def, i, &mut rng, &choices)
        })
        .collect();
    (base, twins)
}

/// `module` with up to `count` near twins of its functions after it, all of them valid for
/// opt-22, and how many there are. Each `seed` makes other twins.
pub fn with_near_twins(module: &Path, count: usize, seed: &str) -> (String, usize) {
    let (base, twins) = near_twins(module, count, seed);
    let kept = keep_valid(&base, twins);
    let n = kept.len();
    (module_with(&base, &kept).0, n)
}
