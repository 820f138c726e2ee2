//! What LLVM's printer writes out that a text may leave implicit, written out for `mergefn
//! opt`: its output is read as `opt -S`'s is, by tests that check lines such as
//! `%2 = add i32 %0, 1` or `load i8, ptr %0, align 1` (LLVM's own MergeFunc tests are
//! written so). Only insertions and the debug calls' own text change: what LLVM reads of the
//! module is the same before and after.

use crate::model::*;
use crate::read::lexer::{Lexer, Tok};
use cranelift_entity::EntityRef;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// What one function's text needs: text to insert (where, in which slot, what), text to
/// replace, and the uses of globals inside the replaced text.
#[derive(Default)]
struct Spelling {
    inserts: Vec<(u32, PatchSlot, String)>,
    replaced: Vec<(Span, String)>,
    /// How its debug calls are written as records; `None` when one of them is not a call
    /// LLVM reads as a record.
    records: Option<Records>,
}

/// The patches that write a body's debug calls as records, and the uses of the intrinsics
/// they take away.
#[derive(Default)]
struct Records {
    patches: Vec<(Span, String)>,
    uses: Vec<UseId>,
}

impl Module {
    /// Write out, in every function whose text is kept, what LLVM's printer writes and the
    /// text leaves implicit: the numbers of unnamed values, parameters and blocks (`%2 = add`,
    /// `define i32 @f(i32 %0)`, `3:`), the alignment a memory instruction takes when it gives
    /// none (`, align 4`), and a debug record written as a call (`call void
    /// @llvm.dbg.value(metadata i32 %x, ...), !dbg !5`) as the record LLVM reads it as
    /// (`#dbg_value(i32 %x, ..., !5)`); the declarations of those intrinsics go, as LLVM
    /// drops them (when nothing but their own declaration names them); and a global variable
    /// written on several lines on one. Call after the last edit of a body: a body replaced
    /// later would lose them.
    pub fn spell_as_llvm_prints(&mut self) {
        let functions: Vec<FuncId> = self
            .functions
            .iter()
            .filter(|(_, func)| {
                !func.deleted
                    && !func.rewritten
                    && func.body.as_ref().is_some_and(|b| b.leaves_implicit)
            })
            .map(|(f, _)| f)
            .collect();
        let spellings: Vec<Spelling> = if functions.is_empty() {
            Vec::new()
        } else {
            let memories = self.data_layout.memories(&self.types);
            let m = &*self;
            functions
                .par_iter()
                .map(|&f| m.spelling(f, &memories))
                .collect()
        };
        // The texts merging wrote: a thunk that keeps its parameters' debug records
        // (`-mergefunc-preserve-debug-info`) writes them as the body did.
        let written: Vec<Option<Option<String>>> = std::iter::once(&self.appended[..])
            .chain(self.patches.iter().map(|p| &*p.text))
            .map(records_for_calls)
            .collect();
        // A module holds debug records or calls of their intrinsics, never both: the calls
        // become records only if all of them can (LLVM reads a call of another form, such as
        // `llvm.dbg.value` with an offset, as something else, or drops it).
        let as_records =
            spellings.iter().all(|s| s.records.is_some()) && written.iter().all(Option::is_some);
        if as_records {
            let mut written = written.into_iter().flatten();
            if let Some(Some(text)) = written.next() {
                self.appended = text;
            }
            for (patch, text) in self.patches.iter_mut().zip(written) {
                if let Some(text) = text {
                    patch.text = text.into();
                }
            }
        }
        for spelling in spellings {
            for (at, slot, text) in spelling.inserts {
                self.patch_slot(Span::empty_at(at), slot, text.into());
            }
            for (span, text) in spelling.replaced {
                self.patch(span, text);
            }
            if as_records && let Some(records) = spelling.records {
                for (span, text) in records.patches {
                    self.patch(span, text);
                }
                self.drop_uses(records.uses);
            }
        }
        let breaks: Vec<Span> = self
            .variables
            .values()
            .flat_map(|v| line_breaks(self.source.as_bytes(), v.span))
            .collect();
        for span in breaks {
            self.patch(span, " ");
        }
        if !as_records {
            return;
        }
        for name in DEBUG_INTRINSICS {
            if let Some(&g) = self.global_by_name.get(name)
                && let GlobalKind::Function(f) = self.globals[g].kind
                && self.functions[f].body.is_none()
                && !self.functions[f].deleted
                && self
                    .uses_of(g)
                    .all(|u| self.uses[u].role == UseRole::Definition)
            {
                self.delete_function(f);
            }
        }
    }

    fn spelling(&self, f: FuncId, memories: &[Option<Memory>]) -> Spelling {
        let mut out = Spelling::default();
        // Read once already, so this does not fail; should it, the text stays as it is.
        let Ok(body) = self.body(f) else {
            return out;
        };
        let src = self.source.as_bytes();
        let func = &self.functions[f];
        // A function's blocks are numbered as LLVM prints them unless a block address may
        // name one by the number the text gives it (in another function, or in this one,
        // where a number would be read as this function's).
        let renumber = body.block_addresses.is_empty()
            && self.uses_of(func.global).all(|u| {
                let at = self.uses[u].span.start;
                self.block_address_uses.binary_search(&at).is_err()
            });
        let mut numbers = Numbers {
            renumber,
            ..Numbers::default()
        };
        for param in &func.params {
            let text = param.name().map_or(&b""[..], |s| &src[s.range()]);
            if let Some(n) = numbers.next(text, param.name().is_none()) {
                let at = code_end(src, param.end as usize) as u32;
                out.inserts
                    .push((at, PatchSlot::ValueName, format!(" %{n}")));
            }
        }
        for (b, block) in body.blocks.iter() {
            let first = Lexer::starting_at(src, block.span.start as usize).next();
            let labeled = matches!(first.kind, Tok::Label | Tok::LabelNum);
            let label = match labeled {
                true => &src[first.span.start as usize..first.span.end as usize - 1],
                false => &[],
            };
            if let Some(n) = numbers.next(label, !labeled)
                && b.index() > 0
            {
                let (at, text) = label_insertion(src, block.span.start as usize, n);
                out.inserts.push((at as u32, PatchSlot::Label, text));
            }
            for i in block.insts() {
                let inst = &body.insts[i];
                if inst.result.is_none() {
                    continue;
                }
                let first = Lexer::starting_at(src, inst.span.start as usize).next();
                let named = matches!(first.kind, Tok::LocalName | Tok::LocalNum);
                if let Some(n) = numbers.next(&src[first.span.range()], !named) {
                    out.inserts
                        .push((inst.span.start, PatchSlot::ValueName, format!("%{n} = ")));
                }
            }
        }
        if !numbers.changed.is_empty() {
            let header = func.params.iter().filter_map(|p| p.name());
            let mut lexer = Lexer::starting_at(src, body.span.start as usize);
            let tokens = std::iter::from_fn(|| {
                let t = lexer.next();
                (t.kind != Tok::Eof && t.span.end <= body.span.end).then_some(t.span)
            });
            for span in header.chain(tokens) {
                let text = &src[span.range()];
                let (digits, label) = match (text.first(), text.last()) {
                    (Some(b'%'), _) => (&text[1..], false),
                    (_, Some(b':')) => (&text[..text.len() - 1], true),
                    _ => continue,
                };
                if let Some(&new) = numbered(digits).and_then(|n| numbers.changed.get(&n)) {
                    let text = match label {
                        true => format!("{new}:"),
                        false => format!("%{new}"),
                    };
                    out.replaced.push((span, text));
                }
            }
        }
        let layout = BodyLayout {
            m: self,
            body: &body,
            module_memories: memories,
        };
        for &(i, at) in &body.implied_aligns {
            let inst = &body.insts[i];
            if let Some(align) = layout.implied_align(inst.opcode, inst.ty, body.items(i)) {
                let at = code_end(src, at as usize) as u32;
                out.inserts
                    .push((at, PatchSlot::Align, format!(", align {align}")));
            }
        }
        let mut records = Some(Records::default());
        for record in &body.debug_records {
            if src.get(record.span.start as usize) != Some(&b'#')
                && let Some(written) = &mut records
                && !self.debug_call_as_record(f, record.span, written)
            {
                records = None;
            }
        }
        out.records = records;
        out
    }

    /// The patches that make a call of a debug intrinsic (`call void @llvm.dbg.value(metadata
    /// i32 %x, metadata !4, metadata !DIExpression()), !dbg !5`) the record LLVM reads it as
    /// (`#dbg_value(i32 %x, !4, !DIExpression(), !5)`): the call up to its `(` and from its
    /// `)` on are replaced, and each argument's word `metadata` goes. The arguments' own text
    /// stays, so an edit of a global they name still shows. Whether the call is one LLVM
    /// reads as a record ([`record_text`]).
    fn debug_call_as_record(&self, f: FuncId, span: Span, records: &mut Records) -> bool {
        let src = self.source.as_bytes();
        let span = Span::new(span.start as usize, code_end(src, span.end as usize));
        let text = self.text(span);
        let Some((kind, operands)) = super::preserve::split_record(text) else {
            return false;
        };
        let Some(location) = dbg_location(text) else {
            return false;
        };
        if record_text(kind, &operands, location).is_none() {
            return false;
        }
        let mut lexer = Lexer::starting_at(src, span.start as usize);
        let mut tokens = std::iter::from_fn(|| {
            let t = lexer.next();
            (t.kind != Tok::Eof && t.span.end <= span.end).then_some(t)
        });
        let Some(open) = tokens.by_ref().find(|t| t.kind == Tok::LParen) else {
            return false;
        };
        let head = Span::new(span.start as usize, open.span.end as usize);
        let info = self.functions[f].body.as_ref().expect("a definition");
        let Some(callee) = info.uses().find(|&u| head.covers(self.uses[u].span)) else {
            return false;
        };
        // Each operand: its word `metadata`, where its text starts and ends.
        let (mut depth, mut close) = (1u32, None);
        let mut operands: Vec<(Option<Span>, Option<Span>)> = vec![(None, None)];
        for t in tokens {
            match t.kind {
                Tok::LParen | Tok::LSquare | Tok::LBrace | Tok::Less => depth += 1,
                Tok::RParen | Tok::RSquare | Tok::RBrace | Tok::Greater => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                close = Some(t.span);
                break;
            }
            let operand = operands.last_mut().expect("one at least");
            match operand {
                _ if depth == 1 && t.kind == Tok::Comma => operands.push((None, None)),
                (None, None) if t.kind == Tok::Word && &src[t.span.range()] == b"metadata" => {
                    operand.0 = Some(t.span)
                }
                (_, None) => operand.1 = Some(t.span),
                (_, Some(text)) => text.end = t.span.end,
            }
        }
        let Some(close) = close else { return false };
        let mut patches = vec![(head, format!("#{kind}("))];
        for (i, (word, text)) in operands.into_iter().enumerate() {
            let Some(text) = text else { return false };
            if let Some(word) = word {
                patches.push((
                    Span::new(word.start as usize, text.start as usize),
                    String::new(),
                ));
            }
            if is_value_node(kind, i, self.text(text)) {
                patches.push((text, "!{}".to_string()));
            }
        }
        patches.push((
            Span::new(close.start as usize, span.end as usize),
            format!(", {location})"),
        ));
        records.patches.extend(patches);
        records.uses.push(callee);
        true
    }
}

/// The node a debug intrinsic's call names in its `!dbg` attachment (its last).
fn dbg_location(call: &str) -> Option<&str> {
    Some(call[call.rfind("!dbg ")? + "!dbg ".len()..].trim_end())
}

/// The text of the record a call of a debug intrinsic stands for, `kind` (`dbg_value`...)
/// with `operands` (without their `metadata`) and its `!dbg` node; `None` unless LLVM reads
/// the call as that record: as many operands as the record takes, each node a node (`!4`,
/// `!DIExpression()`, not `!"x"`), as LLVM's parser takes a record.
fn record_text(kind: &str, operands: &[&str], location: &str) -> Option<String> {
    let nodes: &[usize] = match kind {
        "dbg_value" | "dbg_declare" if operands.len() == 3 => &[1, 2],
        "dbg_assign" if operands.len() == 6 => &[1, 2, 3, 5],
        "dbg_label" if operands.len() == 1 => &[0],
        _ => return None,
    };
    let is_node = |text: &str| {
        let mut rest = text.strip_prefix('!').unwrap_or("").bytes();
        rest.next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'{' || b.is_ascii_uppercase())
    };
    let valued = operands
        .iter()
        .all(|o| !o.is_empty() && !o.starts_with("metadata"));
    if !valued || !nodes.iter().all(|&i| is_node(operands[i])) || !is_node(location) {
        return None;
    }
    let operands: Vec<&str> = (operands.iter().enumerate())
        .map(|(i, o)| if is_value_node(kind, i, o) { "!{}" } else { o })
        .collect();
    Some(format!("#{kind}({}, {location})", operands.join(", ")))
}

/// Whether operand `i` of a record of `kind` is a value (a variable's location) written as a
/// node (`!6`), not a value nor a list of them (`!DIArgList(...)`): LLVM reads such a location
/// as none, the empty node (`!{}`).
fn is_value_node(kind: &str, i: usize, operand: &str) -> bool {
    let value = match kind {
        "dbg_value" | "dbg_declare" => i == 0,
        "dbg_assign" => i == 0 || i == 4,
        _ => false,
    };
    value && operand.starts_with('!') && !operand.starts_with("!DIArgList")
}

/// Where the text before `at` ends once the comments and blanks just before `at` are left
/// out: the reader takes an end as the last byte before the next token that is not blank,
/// which may be a comment's.
pub(super) fn code_end(src: &[u8], mut at: usize) -> usize {
    loop {
        while at > 0 && src[at - 1].is_ascii_whitespace() {
            at -= 1;
        }
        let line_start = src[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        let mut in_string = false;
        let comment = src[line_start..at].iter().position(|&b| {
            in_string ^= b == b'"';
            b == b';' && !in_string
        });
        match comment {
            Some(c) => at = line_start + c,
            None => return at,
        }
    }
}

/// The line breaks in the text of a global variable written on more than one line, which
/// LLVM prints on one (`@x = constant { ptr, ptr }` then `{ ptr @a,` on the next line): each
/// with the blanks and comments around it, up to the next text. (Its span may end with the
/// comments after it: they stay.)
fn line_breaks(src: &[u8], span: Span) -> Vec<Span> {
    let text = &src[span.range()];
    if search::memchr(b'\n', text).is_none() {
        return Vec::new();
    }
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\r');
    let (mut breaks, mut in_string, mut at) = (Vec::new(), false, 0);
    while at < text.len() {
        match text[at] {
            b'"' => in_string = !in_string,
            b'\n' | b';' if !in_string => {
                let start = at - text[..at].iter().rev().take_while(|&&c| blank(c)).count();
                let mut end = at;
                while end < text.len() {
                    match text[end] {
                        b';' => {
                            end += search::memchr(b'\n', &text[end..]).unwrap_or(text.len() - end)
                        }
                        c if c == b'\n' || blank(c) => end += 1,
                        _ => break,
                    }
                }
                if end == text.len() {
                    break;
                }
                if text[start..end].contains(&b'\n') {
                    breaks.push(Span::new(
                        span.start as usize + start,
                        span.start as usize + end,
                    ));
                }
                at = end;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    breaks
}

/// `text`, written by merging a line an instruction, with each call of a debug intrinsic
/// written as the record it stands for: `Some(None)` when it holds none, `None` when one is
/// not a call LLVM reads as a record.
fn records_for_calls(text: &str) -> Option<Option<String>> {
    if !text.contains("@llvm.dbg.") {
        return Some(None);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let call = line.trim_start();
        if !(call.starts_with("call ") || call.starts_with("tail call "))
            || !call.contains("@llvm.dbg.")
        {
            out.push_str(line);
            continue;
        }
        let (kind, operands) = super::preserve::split_record(call)?;
        let record = record_text(kind, &operands, dbg_location(call)?)?;
        out.push_str("    ");
        out.push_str(&record);
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    Some(Some(out))
}

/// A function's numbered values and blocks, as LLVM's parser numbers them (an unnamed one
/// takes the next number, a numbered one sets it: `%5` may follow `%3`) and as its printer
/// does (each the next number, with no gaps).
#[derive(Default)]
struct Numbers {
    parsed: u32,
    printed: u32,
    /// Whether the text's numbers may change to the printer's.
    renumber: bool,
    /// The numbers the printer changes, by which the text refers to them: the parser's, the
    /// printer's.
    changed: FxHashMap<u32, u32>,
}

impl Numbers {
    /// The number of a value or block named `name` (unless `unnamed`), if it has one and the
    /// text does not write it.
    fn next(&mut self, name: &[u8], unnamed: bool) -> Option<u32> {
        let parsed = match (unnamed, numbered(name)) {
            (true, _) => self.parsed,
            (false, Some(n)) => n,
            (false, None) => return None,
        };
        self.parsed = parsed.saturating_add(1);
        let printed = match self.renumber {
            true => self.printed,
            false => parsed,
        };
        self.printed += 1;
        if printed != parsed {
            self.changed.insert(parsed, printed);
        }
        unnamed.then_some(printed)
    }
}

/// The number a name is (`%3`, `3`), if it is one.
fn numbered(name: &[u8]) -> Option<u32> {
    let digits = name.strip_prefix(b"%").unwrap_or(name);
    decimal_u128(digits).and_then(|n| u32::try_from(n).ok())
}

/// Where the label of an unlabeled block whose first token starts at `at` goes, and its
/// text: at the start of that line, after a blank line as LLVM prints it.
fn label_insertion(src: &[u8], at: usize, n: u32) -> (usize, String) {
    let indent = src[..at]
        .iter()
        .rev()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    let line_start = at - indent;
    if line_start == 0 || src[line_start - 1] != b'\n' {
        return (at, format!("\n\n{n}:\n"));
    }
    let line_before = &src[..line_start - 1];
    let blank_before = line_before
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|c| c.is_ascii_whitespace());
    match blank_before {
        true => (line_start, format!("{n}:\n")),
        false => (line_start, format!("\n{n}:\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_on_several_lines_goes_on_one() {
        let src = b"@x = constant [2 x i8]\n  [i8 1, ; one\n   i8 2] ; after\n; more";
        let span = Span::new(0, src.len());
        let joined: Vec<&[u8]> = line_breaks(src, span)
            .iter()
            .map(|b| &src[b.range()])
            .collect();
        assert_eq!(joined, [&b"\n  "[..], b" ; one\n   "]);
        let one_line = b"@y = global i32 0 ; c\n; d";
        assert!(line_breaks(one_line, Span::new(0, one_line.len())).is_empty());
    }

    #[test]
    fn calls_read_as_records_are_those_llvm_reads_so() {
        let value = |ops: &[&str]| record_text("dbg_value", ops, "!5");
        assert_eq!(
            value(&["i32 %x", "!4", "!DIExpression()"]).as_deref(),
            Some("#dbg_value(i32 %x, !4, !DIExpression(), !5)")
        );
        // A location written as a node is none; a list of values is one.
        assert_eq!(
            value(&["!6", "!4", "!DIExpression()"]).as_deref(),
            Some("#dbg_value(!{}, !4, !DIExpression(), !5)")
        );
        assert!(
            value(&["!DIArgList(i32 %x)", "!4", "!7"])
                .unwrap()
                .contains("!DIArgList")
        );
        // LLVM's older form, with an offset, and a variable that is no node.
        assert_eq!(value(&["i32 %x", "i64 0", "!4", "!DIExpression()"]), None);
        assert_eq!(value(&["i32 %x", "!\"\"", "!DIExpression()"]), None);
        assert_eq!(
            record_text("dbg_label", &["!9"], "!DILocation(line: 1, scope: !4)").as_deref(),
            Some("#dbg_label(!9, !DILocation(line: 1, scope: !4))")
        );
        let call = "  call void @llvm.dbg.label(metadata !9), !dbg !5\n  ret void\n";
        assert_eq!(
            records_for_calls(call),
            Some(Some("    #dbg_label(!9, !5)\n  ret void\n".to_string()))
        );
        assert_eq!(records_for_calls("  ret void\n"), Some(None));
        assert_eq!(
            records_for_calls("  call void @llvm.dbg.label(metadata !9)\n"),
            None
        );
    }

    #[test]
    fn code_ends_before_comments() {
        let src = b"  %x = load i32, ptr %p ; \"a;\n  ; next\n  ret";
        let next = src.len() - 5;
        assert_eq!(code_end(src, next), 23);
        assert_eq!(code_end(b"store ptr @\"a;b\"", 16), 16);
    }

    #[test]
    fn numbers_close_their_gaps() {
        let mut numbers = Numbers {
            renumber: true,
            ..Numbers::default()
        };
        assert_eq!(numbers.next(b"", true), Some(0));
        assert_eq!(numbers.next(b"%x", false), None);
        assert_eq!(numbers.next(b"%5", false), None);
        assert_eq!(numbers.next(b"", true), Some(2));
        assert_eq!(numbers.changed, FxHashMap::from_iter([(5, 1), (6, 2)]));
    }
}
