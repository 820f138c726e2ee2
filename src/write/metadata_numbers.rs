//! Metadata numbered as LLVM's printer numbers it, for `mergefn opt`: tests read its output as
//! they read `opt -S`'s, with lines such as `!nosanitize !1` or `; CHECK: [[META0]] = !{}`.
//!
//! LLVM keeps no numbers. It reads `!N` as a node and, printing, numbers the nodes anew in
//! the order its `SlotTracker` meets them: the attachments of each global variable, the
//! operands of each named metadata, then each function's attachments and, in its body, each
//! instruction's debug records, the nodes an intrinsic call takes as operands, and the
//! instruction's attachments (by kind); a node's operands right after it, depth first, in
//! the order LLVM keeps them (a `!DISubprogram`'s file before its scope, which the text
//! writes first). Nodes nothing reaches are not printed; two uniqued nodes alike are one;
//! a uniqued node that names itself is distinct (LLVM drops its uniquing when the forward
//! reference resolves to itself); a `!DIExpression` is written where it is used.
//!
//! This works on the written text, a valid module: every `!N` is renumbered, attachments go
//! in LLVM's order of kinds, and the node definitions are gathered at the end in their new
//! order, where LLVM prints them. A text it does not follow is left as it is.

use super::TextEdit;
use crate::model::NumberMap;
use crate::model::search;
use crate::read::decimal_u32;
use crate::read::lexer::{Lexer, Tok, Token, is_name_char};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::io::{self, Write};

/// Write `text` with its metadata numbered as LLVM prints it (as it is, if it is not a text
/// this follows), and `edits` (in order of position, apart from any node, named metadata or
/// attachment) made as it is written.
pub fn write_as_llvm_numbers(
    text: &[u8],
    edits: Vec<TextEdit>,
    w: &mut impl Write,
) -> io::Result<()> {
    let others = edits.into_iter().map(|e| Edit::Text {
        start: e.start,
        end: e.end,
        text: e.text,
    });
    match Scan::of(text) {
        Some(mut scan) => {
            scan.edits.extend(others);
            let named = &scan.named_statements;
            scan.edits.sort_by_key(|e| e.start(named));
            scan.emit(&scan.numbering(), w)
        }
        None => {
            let mut at = 0;
            for edit in others {
                if let Edit::Text {
                    start,
                    end,
                    text: new,
                } = edit
                {
                    w.write_all(&text[at..start])?;
                    w.write_all(&new)?;
                    at = end;
                }
            }
            w.write_all(&text[at..])
        }
    }
}

/// A node: a definition `!N = [distinct] body`, or a node written inline where it is used
/// (`types: !{}`, `metadata !{!1}`), which LLVM numbers as any other.
struct Def {
    /// From the node's kind (`!{`, `!DILocation(`) to its closing bracket.
    body: (usize, usize),
    distinct: bool,
    /// A `!DIExpression`, which LLVM writes where it is used, never numbered.
    expression: bool,
    /// The nodes the body names (`!N`, or written inline), in the text's order: a range of
    /// [`Scan::refs`].
    refs: (u32, u32),
    /// The same nodes in the order LLVM keeps the node's operands: a range of
    /// [`Scan::operands`].
    operands: (u32, u32),
}

/// What the output changes, in the order of the text.
enum Edit {
    /// A node named or written inline outside the definitions.
    Ref {
        start: usize,
        end: usize,
        number: u64,
    },
    /// Attachments written in another order than LLVM's: the span from the first kind to
    /// the last node, and the attachments as LLVM orders them, (kind start, kind end, number).
    Attachments {
        start: usize,
        end: usize,
        sorted: Vec<(usize, usize, u64)>,
        separator: &'static str,
    },
    /// A node definition's whole statement, with its line's end: it moves to the end.
    Definition { start: usize, end: usize },
    /// A named metadata, which moves to the end, before the nodes.
    Named(usize),
    /// Another pass's replacement ([`TextEdit`]).
    Text {
        start: usize,
        end: usize,
        text: Vec<u8>,
    },
}

impl Edit {
    /// Where the edit starts in the text.
    fn start(&self, named: &[Named]) -> usize {
        match self {
            Edit::Ref { start, .. }
            | Edit::Attachments { start, .. }
            | Edit::Definition { start, .. }
            | Edit::Text { start, .. } => *start,
            Edit::Named(i) => named[*i].statement.0,
        }
    }
}

/// A named metadata `!name = !{!1, !2}`.
struct Named {
    /// With its line's end.
    statement: (usize, usize),
    /// Where its `}` ends.
    text_end: usize,
    /// The nodes it names: a range of [`Scan::refs`].
    refs: (u32, u32),
}

/// A node named in a statement: where, and its number.
type NodeRef = (usize, usize, u64);

/// The first number of the nodes written inline, past any `!N`.
const INLINE: u64 = 1 << 32;

struct Scan<'a> {
    src: &'a [u8],
    defs: Vec<Def>,
    /// The nodes each definition names, a run each (one list for all: most are short).
    refs: Vec<NodeRef>,
    operands: Vec<u64>,
    /// Once numbers are indexed, `operands` as definitions ([`Numbers::NONE`]: undefined).
    operand_defs: Vec<u32>,
    by_number: Numbers,
    edits: Vec<Edit>,
    named_statements: Vec<Named>,
    /// Where numbering starts, in LLVM's order: the attachments of global variables, the
    /// operands of named metadata, then the functions' nodes; then any other node named
    /// outside a definition, in the text's order.
    globals: Vec<u64>,
    named: Vec<u64>,
    functions: Vec<u64>,
    others: Vec<u64>,
    /// Attachment kinds that are not LLVM's own, numbered as LLVM registers them: in the
    /// order it reads them.
    custom_kinds: FxHashMap<&'a [u8], u32>,
}

/// The node each number names: the text's numbers, then the nodes written inline, in the
/// order they are read.
#[derive(Default)]
struct Numbers {
    written: NumberMap<u32>,
    inline: Vec<u32>,
}

impl Numbers {
    const NONE: u32 = u32::MAX;

    /// Number `n` names definition `def`; `None` if it names one already.
    fn define(&mut self, n: u32, def: usize) -> Option<()> {
        if self.written.contains(n) {
            return None;
        }
        self.written.insert(n, def as u32);
        Some(())
    }

    fn get(&self, n: u64) -> Option<usize> {
        let def = match n.checked_sub(INLINE) {
            Some(k) => *self.inline.get(k as usize)?,
            None => self.written.get(n as u32)?,
        };
        (def != Self::NONE).then_some(def as usize)
    }
}

/// Which list of starting nodes a line's nodes go to.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Global,
    Function,
}

impl<'a> Scan<'a> {
    fn of(src: &'a [u8]) -> Option<Scan<'a>> {
        let mut scan = Scan {
            src,
            defs: Vec::new(),
            refs: Vec::new(),
            operands: Vec::new(),
            operand_defs: Vec::new(),
            by_number: Numbers::default(),
            edits: Vec::new(),
            named_statements: Vec::new(),
            globals: Vec::new(),
            named: Vec::new(),
            functions: Vec::new(),
            others: Vec::new(),
            custom_kinds: FxHashMap::default(),
        };
        let mut pos = 0;
        while pos < src.len() {
            let end = line_end(src, pos);
            pos = match src[pos] {
                b'!' if src.get(pos + 1).is_some_and(u8::is_ascii_digit) => scan.definition(pos)?,
                b'!' => scan.named_metadata(pos)?,
                b'@' => {
                    if search::memchr(b'!', &src[pos..end]).is_some() {
                        scan.statement(pos, end, Place::Global)?;
                    }
                    end
                }
                b'd' if src[pos..].starts_with(b"define") => scan.function(pos)?,
                b'd' if src[pos..].starts_with(b"declare") => {
                    scan.header(pos, end)?;
                    end
                }
                _ => end,
            };
            pos += src[pos..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        }
        if scan.defs.is_empty() {
            return None;
        }
        scan.operand_defs = scan
            .operands
            .iter()
            .map(|&n| scan.by_number.get(n).map_or(Numbers::NONE, |i| i as u32))
            .collect();
        Some(scan)
    }

    /// `!N = [distinct] body` at `start`; returns where it ends.
    fn definition(&mut self, start: usize) -> Option<usize> {
        let mut lex = Lexer::starting_at(self.src, start);
        let number = md_number(self.text(lex.next()))?;
        expect(lex.next(), Tok::Equal)?;
        let mut first = lex.next();
        let distinct = first.kind == Tok::Word && self.text(first) == b"distinct";
        if distinct {
            first = lex.next();
        }
        if !matches!(first.kind, Tok::Exclaim | Tok::MdName) {
            return None;
        }
        let index = match self.plain_node(first, distinct, number) {
            Some(index) => index,
            None => self.node(&mut lex, first, distinct, number)?,
        };
        self.by_number.define(number as u32, index)?;
        let end = self.defs[index].body.1;
        self.edits.push(Edit::Definition {
            start,
            end: statement_end(self.src, end),
        });
        Some(end)
    }

    /// [`Scan::node`] for a node as LLVM prints one, most of a module's: naming nodes by
    /// number only. Its bytes are walked rather than lexed; `None` for any other node, which
    /// the lexer reads.
    fn plain_node(&mut self, first: Token, distinct: bool, number: u64) -> Option<usize> {
        let src = self.src;
        let start = first.span.start as usize;
        let (kind, open) = match first.kind {
            Tok::Exclaim => (&b""[..], first.span.end as usize),
            _ => (&self.text(first)[1..], first.span.end as usize),
        };
        if !matches!(src.get(open), Some(b'{' | b'(')) {
            return None;
        }
        let mut refs = Vec::new();
        let mut ranked = Vec::new();
        let mut depth = 0usize;
        let mut at = open;
        let close = loop {
            // Past the bytes that matter to none of the cases below.
            at += src
                .get(at..)?
                .iter()
                .position(|&b| PLAIN_STOPS[b as usize])?;
            match src[at] {
                b'{' | b'(' | b'[' | b'<' => depth += 1,
                b'}' | b')' | b']' | b'>' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        break at;
                    }
                }
                b'"' => at += 1 + search::memchr(b'"', &src[at + 1..])?,
                b'!' => {
                    let digits = src[at + 1..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(src.len(), |d| at + 1 + d);
                    if digits > at + 1 {
                        let n = md_number(&src[at..digits])?;
                        refs.push((at, digits, n));
                        ranked.push((operand_rank(kind, field_before(src, at)), n));
                        at = digits;
                        continue;
                    }
                    // `!"string"` is stepped over as a string next; a node written inline
                    // is not plain.
                    if src.get(at + 1) != Some(&b'"') {
                        return None;
                    }
                }
                _ => {}
            }
            at += 1;
        };
        Some(self.push_def(
            number,
            (start, close + 1),
            distinct,
            kind,
            &refs,
            &mut ranked,
        ))
    }

    /// A node read: its body's span, and the nodes it names, in the text's order and ranked
    /// by where LLVM keeps them.
    fn push_def(
        &mut self,
        number: u64,
        body: (usize, usize),
        distinct: bool,
        kind: &[u8],
        refs: &[NodeRef],
        ranked: &mut [(u8, u64)],
    ) -> usize {
        // Stable: fields LLVM keeps in the text's order, and a tuple's operands, stay so.
        ranked.sort_by_key(|&(rank, _)| rank);
        // A uniqued node that names itself among its operands LLVM makes distinct (it drops
        // the uniquing when the forward reference resolves to the node itself).
        let distinct = distinct || refs.iter().any(|r| r.2 == number);
        let refs_start = self.refs.len() as u32;
        self.refs.extend_from_slice(refs);
        let operands_start = self.operands.len() as u32;
        self.operands.extend(ranked.iter().map(|&(_, n)| n));
        self.defs.push(Def {
            body,
            distinct,
            expression: kind == b"DIExpression",
            refs: (refs_start, self.refs.len() as u32),
            operands: (operands_start, self.operands.len() as u32),
        });
        self.defs.len() - 1
    }

    fn refs_of(&self, i: usize) -> &[NodeRef] {
        let (start, end) = self.defs[i].refs;
        &self.refs[start as usize..end as usize]
    }

    /// The node whose body starts at `first` (`!` of `!{`, or `!DIxxx`), read to its closing
    /// bracket, with the nodes written inline in it, each a node of its own.
    fn node(
        &mut self,
        lex: &mut Lexer<'a>,
        first: Token,
        distinct: bool,
        number: u64,
    ) -> Option<usize> {
        let kind = match first.kind {
            Tok::Exclaim => &b""[..],
            _ => &self.text(first)[1..],
        };
        let open = lex.next();
        if !matches!(open.kind, Tok::LBrace | Tok::LParen) {
            return None;
        }
        let mut refs = Vec::new();
        let mut ranked = Vec::new();
        let mut field: &[u8] = b"";
        let mut depth = 1;
        let close = loop {
            let t = lex.next();
            match t.kind {
                Tok::LBrace | Tok::LParen | Tok::LSquare | Tok::Less => depth += 1,
                Tok::RBrace | Tok::RParen | Tok::RSquare | Tok::Greater => {
                    depth -= 1;
                    if depth == 0 {
                        break t;
                    }
                }
                Tok::Label => field = self.text(t),
                Tok::MdNum | Tok::Exclaim | Tok::MdName => {
                    if let Some(r) = self.operand(lex, t)? {
                        refs.push(r);
                        ranked.push((operand_rank(kind, field), r.2));
                    }
                }
                Tok::Eof | Tok::Invalid => return None,
                _ => {}
            }
        };
        let body = (first.span.start as usize, close.span.end as usize);
        Some(self.push_def(number, body, distinct, kind, &refs, &mut ranked))
    }

    /// The node `t` starts, if it starts one: `!N`, or a node written inline (read whole,
    /// numbered past the text's numbers). A `!DIArgList(...)` holds values, no node; a
    /// `!DIExpression(...)` written inline is written so by LLVM too.
    fn operand(&mut self, lex: &mut Lexer<'a>, t: Token) -> Option<Option<NodeRef>> {
        match t.kind {
            Tok::MdNum => {
                let n = md_number(self.text(t))?;
                Some(Some((t.span.start as usize, t.span.end as usize, n)))
            }
            Tok::Exclaim => self.inline_node(lex, t).map(Some),
            Tok::MdName if lex.clone().next().kind == Tok::LParen => {
                if matches!(self.text(t), b"!DIExpression" | b"!DIArgList") {
                    skip_brackets(lex)?;
                    Some(None)
                } else {
                    self.inline_node(lex, t).map(Some)
                }
            }
            _ => Some(None),
        }
    }

    fn inline_node(&mut self, lex: &mut Lexer<'a>, first: Token) -> Option<NodeRef> {
        // Its number taken before the nodes written inline in it take theirs.
        let k = self.by_number.inline.len();
        self.by_number.inline.push(Numbers::NONE);
        let number = INLINE + k as u64;
        let index = self.node(lex, first, false, number)?;
        self.by_number.inline[k] = index as u32;
        Some((first.span.start as usize, self.defs[index].body.1, number))
    }

    /// `!name = !{!1, !2}` at `start`.
    /// It moves to the end, where LLVM prints named metadata, before the nodes.
    fn named_metadata(&mut self, start: usize) -> Option<usize> {
        let mut lex = Lexer::starting_at(self.src, start);
        expect(lex.next(), Tok::MdName)?;
        expect(lex.next(), Tok::Equal)?;
        expect(lex.next(), Tok::Exclaim)?;
        expect(lex.next(), Tok::LBrace)?;
        let refs_start = self.refs.len() as u32;
        loop {
            let t = lex.next();
            match t.kind {
                Tok::RBrace => {
                    let end = t.span.end as usize;
                    self.edits.push(Edit::Named(self.named_statements.len()));
                    self.named_statements.push(Named {
                        statement: (start, statement_end(self.src, end)),
                        text_end: t.span.end as usize,
                        refs: (refs_start, self.refs.len() as u32),
                    });
                    return Some(end);
                }
                Tok::MdNum => {
                    let n = md_number(self.text(t))?;
                    self.refs
                        .push((t.span.start as usize, t.span.end as usize, n));
                    self.named.push(n);
                }
                Tok::Comma => {}
                _ => return None,
            }
        }
    }

    /// A function's definition at `start`: its header, then the lines of its body that name
    /// nodes, to the `}` that closes it at the start of a line; returns the end of that line.
    fn function(&mut self, start: usize) -> Option<usize> {
        let open = self.header(start, usize::MAX)?;
        let src = self.src;
        let rest_of_line = line_end(src, open);
        let rest = src[open..rest_of_line].trim_ascii();
        if !rest.is_empty() {
            // A function on one line, `define void @f() { ret void }`.
            let close = open + src[open..rest_of_line].iter().rposition(|&b| b == b'}')?;
            if search::memchr(b'!', &src[open..close]).is_some() {
                self.statement(open, close, Place::Function)?;
            }
            return Some(rest_of_line);
        }
        // The `}` that starts a line.
        let mut close = rest_of_line;
        while !matches!(src[close - 1], b'\n' | b'\r') {
            close += 1 + search::memchr(b'}', &src[close + 1..])?;
        }
        let mut at = rest_of_line;
        while let Some(k) = search::memchr(b'!', &src[at..close]) {
            let found = at + k;
            let line_start = src[..found]
                .iter()
                .rposition(|&b| matches!(b, b'\n' | b'\r'))
                .map_or(0, |n| n + 1);
            let end = line_end(src, found);
            self.statement(line_start, end, Place::Function)?;
            at = end;
        }
        Some(close + 1)
    }

    /// A function's header from `start` (`define` or `declare`): its attachments start the
    /// function's nodes. A definition's header ends at the `{` that opens its body, whose end
    /// is returned; a declaration's at `end`.
    fn header(&mut self, start: usize, end: usize) -> Option<usize> {
        let mut lex = Lexer::starting_at(self.src, start);
        let mut attachments = Vec::new();
        let mut depth = 0i32;
        let mut params_closed = false;
        let mut previous = Tok::Eof;
        let mut previous_word: &[u8] = b"";
        loop {
            let t = lex.next();
            if t.span.start as usize >= end || t.kind == Tok::Eof {
                self.attachments(&attachments, " ", Place::Function);
                return (end != usize::MAX).then_some(end);
            }
            match t.kind {
                Tok::LBrace
                    if depth == 0
                        && params_closed
                        && !matches!(previous, Tok::RBrace | Tok::Greater)
                        && !matches!(previous_word, b"prefix" | b"prologue") =>
                {
                    self.attachments(&attachments, " ", Place::Function);
                    return Some(t.span.end as usize);
                }
                Tok::LParen | Tok::LBrace | Tok::LSquare | Tok::Less => depth += 1,
                Tok::RParen | Tok::RBrace | Tok::RSquare | Tok::Greater => {
                    depth -= 1;
                    params_closed |= t.kind == Tok::RParen && depth == 0;
                }
                Tok::MdName if lex.clone().next().kind != Tok::LParen => {
                    let first = lex.next();
                    let node = self.operand(&mut lex, first)??;
                    attachments.push((t, node));
                }
                Tok::MdNum | Tok::Exclaim | Tok::MdName => {
                    let n = self.reference(&mut lex, t)?;
                    self.others.push(n);
                }
                Tok::Invalid => return None,
                _ => {}
            }
            previous_word = if t.kind == Tok::Word {
                self.text(t)
            } else {
                b""
            };
            previous = t.kind;
        }
    }

    /// A statement of the text from `start` to `end` that names nodes: a global variable, an
    /// instruction (or one line of it) or a debug record. Its attachments are `, !kind node`
    /// after the rest.
    fn statement(&mut self, start: usize, end: usize, place: Place) -> Option<()> {
        let mut lex = Lexer::starting_at(self.src, start);
        let mut attachments = Vec::new();
        let mut operands = Vec::new();
        let mut record = false;
        let mut call = false;
        let mut intrinsic = false;
        let mut previous = Tok::Eof;
        loop {
            let t = lex.next();
            if t.kind == Tok::Eof || t.span.start as usize >= end {
                break;
            }
            match t.kind {
                Tok::DebugRecord if previous == Tok::Eof => record = true,
                Tok::Word if self.text(t) == b"call" => call = true,
                Tok::GlobalName
                    if self.text(t).starts_with(b"@llvm.")
                        && lex.clone().next().kind == Tok::LParen =>
                {
                    intrinsic = true
                }
                // A line of an instruction written on several may start with one.
                Tok::MdName
                    if matches!(previous, Tok::Comma | Tok::Eof)
                        && lex.clone().next().kind != Tok::LParen =>
                {
                    let first = lex.next();
                    let node = self.operand(&mut lex, first)??;
                    attachments.push((t, node));
                }
                Tok::MdNum | Tok::Exclaim | Tok::MdName => {
                    if let Some(r) = self.operand(&mut lex, t)? {
                        self.edits.push(Edit::Ref {
                            start: r.0,
                            end: r.1,
                            number: r.2,
                        });
                        operands.push(r.2);
                    }
                }
                Tok::Invalid => return None,
                _ => {}
            }
            previous = t.kind;
        }
        // LLVM starts from the nodes a debug record names, and those a call of an intrinsic
        // takes as operands (`metadata !1`); others are numbered when printed, after all.
        match (record || (call && intrinsic), place) {
            (true, Place::Function) => self.functions.extend(operands),
            _ => self.others.extend(operands),
        }
        self.attachments(&attachments, ", ", place);
        Some(())
    }

    /// The attachments of one global, function or instruction: their nodes start numbering
    /// in LLVM's order of kinds, and are written in it.
    fn attachments(&mut self, found: &[(Token, NodeRef)], separator: &'static str, place: Place) {
        let mut sorted: Vec<(u32, usize, usize, NodeRef)> = Vec::with_capacity(found.len());
        for &(kind, node) in found {
            let name = &self.text(kind)[1..];
            let id = match fixed_kind(name) {
                Some(id) => id,
                None => {
                    let next = FIXED_KINDS.len() as u32 + self.custom_kinds.len() as u32;
                    *self.custom_kinds.entry(name).or_insert(next)
                }
            };
            sorted.push((id, kind.span.start as usize, kind.span.end as usize, node));
        }
        sorted.sort_by_key(|&(id, ..)| id);
        for &(.., node) in &sorted {
            match place {
                Place::Global => self.globals.push(node.2),
                Place::Function => self.functions.push(node.2),
            }
        }
        let (Some(first), Some(last)) = (found.first(), found.last()) else {
            return;
        };
        let in_order = sorted
            .iter()
            .zip(found)
            .all(|(s, f)| s.1 == f.0.span.start as usize);
        if in_order {
            for &(_, (start, end, number)) in found {
                self.edits.push(Edit::Ref { start, end, number });
            }
        } else {
            self.edits.push(Edit::Attachments {
                start: first.0.span.start as usize,
                end: last.1.1,
                sorted: sorted
                    .into_iter()
                    .map(|(_, s, e, node)| (s, e, node.2))
                    .collect(),
                separator,
            });
        }
    }

    /// A node named outside the definitions: recorded to be renumbered.
    fn reference(&mut self, lex: &mut Lexer<'a>, t: Token) -> Option<u64> {
        let (start, end, number) = self.operand(lex, t)??;
        self.edits.push(Edit::Ref { start, end, number });
        Some(number)
    }

    fn text(&self, t: Token) -> &'a [u8] {
        &self.src[t.span.range()]
    }

    /// The definition that stands for each node: the first of the uniqued nodes alike
    /// (alike with their operands so replaced, until nothing changes).
    fn representatives(&self) -> Vec<usize> {
        let mut rep: Vec<usize> = (0..self.defs.len()).collect();
        let uniqued: Vec<usize> = (0..self.defs.len())
            .filter(|&i| !self.defs[i].distinct)
            .collect();
        // Groups only ever join, so this ends; the bound keeps a long chain of copies cheap.
        for _ in 0..8 {
            let hashes: Vec<u64> = uniqued
                .par_iter()
                .map_init(Vec::new, |text, &i| {
                    self.alike_text(i, &rep, text);
                    xxhash_rust::xxh3::xxh3_64(text)
                })
                .collect();
            let mut first_alike: FxHashMap<u64, usize> = FxHashMap::default();
            first_alike.reserve(uniqued.len());
            let mut changed = false;
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (&i, hash) in uniqued.iter().zip(hashes) {
                let first = *first_alike.entry(hash).or_insert(i);
                if rep[i] == rep[first] {
                    continue;
                }
                self.alike_text(i, &rep, &mut a);
                self.alike_text(first, &rep, &mut b);
                if a == b {
                    rep[i] = rep[first];
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        rep
    }

    /// A uniqued node's text as LLVM compares two, in `text`: without blanks but one between
    /// two characters of a word (`i32 1`), strings as they are, and each node it names as its
    /// representative.
    fn alike_text(&self, i: usize, rep: &[usize], text: &mut Vec<u8>) {
        text.clear();
        let d = &self.defs[i];
        let src = self.src;
        let (mut at, end) = d.body;
        let mut refs = self.refs_of(i).iter().peekable();
        while at < end {
            if let Some(&&(start, ref_end, n)) = refs.peek()
                && start == at
            {
                refs.next();
                let target = self.by_number.get(n).map_or(u32::MAX, |j| rep[j] as u32);
                text.push(0xFF);
                text.extend_from_slice(&target.to_le_bytes());
                at = ref_end;
                continue;
            }
            let b = src[at];
            if b == b'"' {
                let close = search::memchr(b'"', &src[at + 1..end]).map_or(end, |k| at + 2 + k);
                text.extend_from_slice(&src[at..close]);
                at = close;
            } else if b.is_ascii_whitespace() {
                let last = text.last().copied().unwrap_or(0);
                if is_name_char(last) && is_name_char(src.get(at + 1).copied().unwrap_or(0)) {
                    text.push(b' ');
                }
                at += 1;
            } else {
                text.push(b);
                at += 1;
            }
        }
    }

    /// The new number of each node, as LLVM meets the nodes.
    fn numbering(&self) -> Numbering {
        let rep = self.representatives();
        let mut new: Vec<Option<u32>> = vec![None; self.defs.len()];
        let mut order: Vec<usize> = Vec::new();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let roots = self
            .globals
            .iter()
            .chain(&self.named)
            .chain(&self.functions)
            .chain(&self.others);
        for &root in roots {
            let def = self.by_number.get(root).map_or(Numbers::NONE, |i| i as u32);
            let Some(i) = self.definition_for(def, &rep) else {
                continue;
            };
            if new[i].is_some() {
                continue;
            }
            new[i] = Some(order.len() as u32);
            order.push(i);
            stack.push((i, 0));
            while let Some((node, next)) = stack.last_mut() {
                let (start, end) = self.defs[*node].operands;
                if start as usize + *next >= end as usize {
                    stack.pop();
                    continue;
                }
                let operand = self.operand_defs[start as usize + *next];
                *next += 1;
                if let Some(j) = self.definition_for(operand, &rep)
                    && new[j].is_none()
                {
                    new[j] = Some(order.len() as u32);
                    order.push(j);
                    stack.push((j, 0));
                }
            }
        }
        Numbering { rep, new, order }
    }

    /// The node that stands for definition `def` and is numbered: none for a `!DIExpression`.
    fn definition_for(&self, def: u32, rep: &[usize]) -> Option<usize> {
        let i = rep[*(def != Numbers::NONE).then_some(&def)? as usize];
        (!self.defs[i].expression).then_some(i)
    }

    /// The text with every edit made and the definitions, renumbered, at the end: copied in
    /// a buffer handed over a megabyte at a time, long runs of the text handed over as they
    /// are.
    fn emit(&self, numbering: &Numbering, w: &mut impl Write) -> io::Result<()> {
        const HANDED_OVER: usize = 1 << 20;
        let src = self.src;
        let mut out = Vec::with_capacity(HANDED_OVER + 4096);
        let mut copy = |out: &mut Vec<u8>, piece: &[u8]| -> io::Result<()> {
            let long = piece.len() > HANDED_OVER / 4;
            if long || out.len() + piece.len() > HANDED_OVER {
                w.write_all(out)?;
                out.clear();
            }
            if long {
                return w.write_all(piece);
            }
            out.extend_from_slice(piece);
            Ok(())
        };
        let mut ends = LineEnds::default();
        let mut at = 0;
        for edit in &self.edits {
            let (start, end) = match edit {
                Edit::Ref { start, end, .. }
                | Edit::Attachments { start, end, .. }
                | Edit::Definition { start, end }
                | Edit::Text { start, end, .. } => (*start, *end),
                Edit::Named(i) => self.named_statements[*i].statement,
            };
            if start < at {
                continue;
            }
            // No run of empty lines where statements were taken out.
            let mut piece = &src[at..start];
            if ends.after_empty_line() {
                piece = &piece[piece
                    .iter()
                    .take_while(|&&b| matches!(b, b'\n' | b'\r'))
                    .count()..];
            }
            copy(&mut out, piece)?;
            ends.note(piece);
            match edit {
                Edit::Ref { number, .. } => {
                    self.write_ref(&mut out, *number, numbering);
                    ends.note(b"!");
                }
                Edit::Attachments {
                    sorted, separator, ..
                } => {
                    for (k, &(kind_start, kind_end, number)) in sorted.iter().enumerate() {
                        if k > 0 {
                            out.extend_from_slice(separator.as_bytes());
                        }
                        out.extend_from_slice(&src[kind_start..kind_end]);
                        out.push(b' ');
                        self.write_ref(&mut out, number, numbering);
                    }
                    ends.note(b"!");
                }
                Edit::Text { text, .. } => {
                    copy(&mut out, text)?;
                    ends.note(text);
                }
                Edit::Definition { .. } | Edit::Named(_) => {}
            }
            at = end;
        }
        copy(&mut out, &src[at..])?;
        ends.note(&src[at..]);
        // Named metadata, then the nodes, each after an empty line, as LLVM prints them.
        if !self.named_statements.is_empty() {
            ends.empty_line(&mut out);
        }
        for named in &self.named_statements {
            let mut at = named.statement.0;
            let (start, end) = named.refs;
            for &(ref_start, ref_end, number) in &self.refs[start as usize..end as usize] {
                out.extend_from_slice(&src[at..ref_start]);
                self.write_ref(&mut out, number, numbering);
                at = ref_end;
            }
            out.extend_from_slice(&src[at..named.text_end]);
            out.push(b'\n');
            ends.note(b"}\n");
        }
        if !numbering.order.is_empty() {
            ends.empty_line(&mut out);
        }
        for (new, &i) in numbering.order.iter().enumerate() {
            push_ref(&mut out, new as u64);
            out.extend_from_slice(b" = ");
            self.write_body(&mut out, i, numbering);
            out.push(b'\n');
            if out.len() > HANDED_OVER {
                w.write_all(&out)?;
                out.clear();
            }
        }
        w.write_all(&out)
    }

    /// A node's body, `distinct` first if LLVM makes it so, with the nodes it names
    /// renumbered.
    fn write_body(&self, out: &mut Vec<u8>, i: usize, numbering: &Numbering) {
        let d = &self.defs[i];
        if d.distinct {
            out.extend_from_slice(b"distinct ");
        }
        let mut at = d.body.0;
        for &(start, end, number) in self.refs_of(i) {
            out.extend_from_slice(&self.src[at..start]);
            self.write_ref(out, number, numbering);
            at = end;
        }
        out.extend_from_slice(&self.src[at..d.body.1]);
    }

    /// A node where it is named: its new number, or a `!DIExpression` written out.
    fn write_ref(&self, out: &mut Vec<u8>, number: u64, numbering: &Numbering) {
        let Some(i) = self.by_number.get(number) else {
            push_ref(out, number);
            return;
        };
        let i = numbering.rep[i];
        match numbering.new[i] {
            Some(new) => push_ref(out, new.into()),
            None if self.defs[i].expression => self.write_body(out, i, numbering),
            // Not reached from where LLVM starts, yet named here (a node written inline in
            // one that is not printed): as it was.
            None if number >= INLINE => self.write_body(out, i, numbering),
            None => push_ref(out, number),
        }
    }
}

/// Past the brackets that follow (`(...)`), nested ones included.
fn skip_brackets(lex: &mut Lexer) -> Option<()> {
    let mut depth = 0;
    loop {
        let t = lex.next();
        match t.kind {
            Tok::LBrace | Tok::LParen | Tok::LSquare | Tok::Less => depth += 1,
            Tok::RBrace | Tok::RParen | Tok::RSquare | Tok::Greater => {
                depth -= 1;
                if depth == 0 {
                    return Some(());
                }
            }
            Tok::Eof | Tok::Invalid => return None,
            _ => {}
        }
    }
}

/// How the text written so far ends, for the empty line before what moves to the end: its
/// last bytes, a line's end being `\n`, `\r\n` or `\r`.
struct LineEnds([u8; 4]);

impl Default for LineEnds {
    fn default() -> Self {
        LineEnds(*b"\n\n\n\n")
    }
}

impl LineEnds {
    fn note(&mut self, piece: &[u8]) {
        let keep = piece.len().min(4);
        self.0.rotate_left(keep);
        self.0[4 - keep..].copy_from_slice(&piece[piece.len() - keep..]);
    }

    /// The bytes before the last line end, if the text ends one.
    fn before_line_end(&self) -> Option<&[u8]> {
        match &self.0 {
            [rest @ .., b'\r', b'\n'] => Some(rest),
            [rest @ .., b'\n' | b'\r'] => Some(rest),
            _ => None,
        }
    }

    fn after_empty_line(&self) -> bool {
        self.before_line_end()
            .is_some_and(|rest| rest.ends_with(b"\n") || rest.ends_with(b"\r"))
    }

    /// Ends the line and writes an empty one, unless the text already does.
    fn empty_line(&mut self, out: &mut Vec<u8>) {
        let text: &[u8] = match (self.before_line_end(), self.after_empty_line()) {
            (None, _) => b"\n\n",
            (Some(_), false) => b"\n",
            (Some(_), true) => b"",
        };
        out.extend_from_slice(text);
        self.note(text);
    }
}

struct Numbering {
    rep: Vec<usize>,
    /// By definition: its new number, if it is printed.
    new: Vec<Option<u32>>,
    /// The definitions in their new order.
    order: Vec<usize>,
}

fn md_number(text: &[u8]) -> Option<u64> {
    decimal_u32(text.strip_prefix(b"!")?).map(u64::from)
}

/// The name of the field whose value starts at `at` (`scope` in `scope: !7`), or nothing.
fn field_before(src: &[u8], at: usize) -> &[u8] {
    let Some(colon) = src[..at].iter().rposition(|b| !b.is_ascii_whitespace()) else {
        return b"";
    };
    if src[colon] != b':' {
        return b"";
    }
    let name_start = src[..colon]
        .iter()
        .rposition(|&b| !is_name_char(b))
        .map_or(0, |k| k + 1);
    &src[name_start..colon]
}

/// The bytes [`Scan::plain_node`] stops at: brackets, strings and nodes.
const PLAIN_STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    let mut k = 0;
    let bytes = b"{}()[]<>\"!";
    while k < bytes.len() {
        stops[bytes[k] as usize] = true;
        k += 1;
    }
    stops
};

/// `!n`, written without a formatter (the numbers are most of what is written).
fn push_ref(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut n = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push(b'!');
    out.extend_from_slice(&digits[k..]);
}

fn expect(t: Token, kind: Tok) -> Option<()> {
    (t.kind == kind).then_some(())
}

/// The end of the line at `pos` (its `\n` or `\r`, or the end of the text).
fn line_end(src: &[u8], pos: usize) -> usize {
    let pos = pos.min(src.len());
    search::memchr2(b'\n', b'\r', &src[pos..]).map_or(src.len(), |at| pos + at)
}

/// Where a statement ending at `end` is taken out to: with the blanks after it, and its
/// line's end if nothing else follows on the line.
fn statement_end(src: &[u8], end: usize) -> usize {
    let rest = end
        + src[end..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    match &src[rest..] {
        [b'\r', b'\n', ..] => rest + 2,
        [b'\n' | b'\r', ..] => rest + 1,
        _ => rest,
    }
}

/// LLVM's own attachment kinds, by their ids (`FixedMetadataKinds.def` of LLVM 22, checked
/// against the order opt-22 prints them in); a kind not here gets an id after them as it is
/// first read.
const FIXED_KINDS: [&str; 47] = [
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
    "make.implicit",
    "unpredictable",
    "invariant.group",
    "align",
    "llvm.loop",
    "type",
    "section_prefix",
    "absolute_symbol",
    "associated",
    "callees",
    "irr_loop",
    "llvm.access.group",
    "callback",
    "llvm.preserve.access.index",
    "vcall_visibility",
    "noundef",
    "annotation",
    "nosanitize",
    "func_sanitize",
    "exclude",
    "memprof",
    "callsite",
    "kcfi_type",
    "pcsections",
    "DIAssignID",
    "coro.outside.frame",
    "mmra",
    "noalias.addrspace",
    "callee_type",
    "nofree",
    "captures",
    "alloc_token",
    "implicit.ref",
];

fn fixed_kind(name: &[u8]) -> Option<u32> {
    FIXED_KINDS
        .iter()
        .position(|k| k.as_bytes() == name)
        .map(|i| i as u32)
}

/// Where LLVM keeps the operand a field of a `!DIxxx(...)` node names, among the node's
/// operands (`DebugInfoMetadata.h`); a field not listed keeps the text's order, after them.
/// A tuple's operands are in the text's order.
fn operand_rank(node: &[u8], field: &[u8]) -> u8 {
    let field = field.strip_suffix(b":").unwrap_or(field);
    let order: &[&[u8]] = match node {
        b"" => return 0,
        b"DILocation" => &[b"scope", b"inlinedAt"],
        b"DISubprogram" => &[
            b"file",
            b"scope",
            b"name",
            b"linkageName",
            b"type",
            b"unit",
            b"declaration",
            b"retainedNodes",
            b"containingType",
            b"templateParams",
            b"thrownTypes",
            b"annotations",
            b"targetFuncName",
        ],
        b"DIBasicType" | b"DIFixedPointType" => &[b"file", b"scope", b"name", b"size"],
        b"DIDerivedType" => &[
            b"file",
            b"scope",
            b"name",
            b"size",
            b"offset",
            b"baseType",
            b"extraData",
            b"annotations",
        ],
        b"DICompositeType" => &[
            b"file",
            b"scope",
            b"name",
            b"size",
            b"offset",
            b"baseType",
            b"elements",
            b"vtableHolder",
            b"templateParams",
            b"identifier",
            b"discriminator",
            b"dataLocation",
            b"associated",
            b"allocated",
            b"rank",
            b"annotations",
            b"specification",
            b"bitStride",
        ],
        b"DISubroutineType" => &[b"file", b"scope", b"name", b"size", b"offset", b"types"],
        b"DIStringType" => &[
            b"file",
            b"scope",
            b"name",
            b"size",
            b"stringLength",
            b"stringLengthExpression",
            b"stringLocationExpression",
        ],
        b"DISubrangeType" => &[
            b"file",
            b"scope",
            b"name",
            b"size",
            b"offset",
            b"baseType",
            b"lowerBound",
            b"upperBound",
            b"stride",
            b"bias",
        ],
        b"DICompileUnit" => &[
            b"file",
            b"producer",
            b"flags",
            b"splitDebugFilename",
            b"enums",
            b"retainedTypes",
            b"globals",
            b"imports",
            b"macros",
            b"sysroot",
            b"sdk",
        ],
        b"DILexicalBlock" | b"DILexicalBlockFile" => &[b"file", b"scope"],
        b"DINamespace" => &[b"scope", b"name"],
        b"DIModule" => &[
            b"file",
            b"scope",
            b"name",
            b"configMacros",
            b"includePath",
            b"apinotes",
        ],
        b"DICommonBlock" => &[b"scope", b"declaration", b"name", b"file"],
        b"DILocalVariable" => &[b"scope", b"name", b"file", b"type", b"annotations"],
        b"DIGlobalVariable" => &[
            b"scope",
            b"name",
            b"file",
            b"type",
            b"linkageName",
            b"declaration",
            b"templateParams",
            b"annotations",
        ],
        b"DILabel" => &[b"scope", b"name", b"file"],
        b"DIImportedEntity" => &[b"scope", b"entity", b"name", b"file", b"elements"],
        b"DIObjCProperty" => &[b"name", b"file", b"getter", b"setter", b"type"],
        b"DIMacroFile" => &[b"file", b"nodes"],
        b"DISubrange" | b"DIGenericSubrange" => {
            &[b"count", b"lowerBound", b"upperBound", b"stride"]
        }
        b"DITemplateTypeParameter" | b"DITemplateValueParameter" => &[b"name", b"type", b"value"],
        _ => &[],
    };
    order
        .iter()
        .position(|&f| f == field)
        .map_or(u8::MAX, |i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> String {
        let mut out = Vec::new();
        write_as_llvm_numbers(text.as_bytes(), Vec::new(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// opt-22's output for the same module, in the comments (checked by hand).
    #[test]
    fn nodes_are_numbered_as_llvm_meets_them() {
        let text = "\
@g = global i32 0, !type !20

define void @f(ptr %p) !prof !30 {
  %a = load ptr, ptr %p, align 8, !zkind !44, !mykind !42, !nonnull !43
  call void @llvm.foo(metadata !50, metadata !51)
  ret void
}

define void @h(ptr %p) {
  %a = load i32, ptr %p, align 4, !zkind !60, !mykind !61
  ret void
}

declare void @llvm.foo(metadata, metadata)

!named = !{!10, !11}
!10 = !{!12}
!11 = !{!\"x\"}
!12 = !{!11, !13}
!13 = !{}
!20 = !{i64 0, !\"t\"}
!30 = !{!\"function_entry_count\", i64 1}
!42 = !{!\"my\"}
!43 = !{}
!44 = !{!\"z\"}
!50 = !{!\"a\"}
!51 = !{!\"b\"}
!60 = !{!\"z2\"}
!61 = !{!\"m2\"}
!99 = !{!\"unused\"}
!100 = !DIExpression()
";
        let expected = "\
@g = global i32 0, !type !0

define void @f(ptr %p) !prof !5 {
  %a = load ptr, ptr %p, align 8, !nonnull !4, !zkind !6, !mykind !7
  call void @llvm.foo(metadata !8, metadata !9)
  ret void
}

define void @h(ptr %p) {
  %a = load i32, ptr %p, align 4, !zkind !10, !mykind !11
  ret void
}

declare void @llvm.foo(metadata, metadata)

!named = !{!1, !3}

!0 = !{i64 0, !\"t\"}
!1 = !{!2}
!2 = !{!3, !4}
!3 = !{!\"x\"}
!4 = !{}
!5 = !{!\"function_entry_count\", i64 1}
!6 = !{!\"z\"}
!7 = !{!\"my\"}
!8 = !{!\"a\"}
!9 = !{!\"b\"}
!10 = !{!\"z2\"}
!11 = !{!\"m2\"}
";
        assert_eq!(numbered(text), expected);
    }

    /// A subprogram's file is numbered before its scope (LLVM keeps it first); a node that
    /// names itself is distinct; a `!DIExpression` goes where it is used; a node written
    /// inline is numbered. Expected: opt-22's output.
    #[test]
    fn debug_information_is_numbered_as_llvm_keeps_it() {
        let text = "\
define void @f(i32 %x) !dbg !10 {
    #dbg_value(i32 %x, !20, !30, !21)
  ret void, !dbg !21
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!named2 = !{!52}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"c\", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: \"a.c\", directory: \"/tmp\")
!3 = !{i32 2, !\"Debug Info Version\", i32 3}
!10 = distinct !DISubprogram(name: \"f\", scope: !2, file: !4, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!2 = !DIFile(filename: \"b.h\", directory: \"/tmp\")
!4 = !DIFile(filename: \"c.h\", directory: \"/tmp\")
!11 = !DISubroutineType(types: !{})
!20 = !DILocalVariable(name: \"x\", arg: 1, scope: !10, file: !1)
!21 = !DILocation(line: 1, scope: !10)
!30 = !DIExpression()
!52 = !{!52, !53}
!53 = !{!\"x\"}
";
        let expected = "\
define void @f(i32 %x) !dbg !5 {
    #dbg_value(i32 %x, !10, !DIExpression(), !11)
  ret void, !dbg !11
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!named2 = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"c\", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: \"a.c\", directory: \"/tmp\")
!2 = !{i32 2, !\"Debug Info Version\", i32 3}
!3 = distinct !{!3, !4}
!4 = !{!\"x\"}
!5 = distinct !DISubprogram(name: \"f\", scope: !7, file: !6, type: !8, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DIFile(filename: \"c.h\", directory: \"/tmp\")
!7 = !DIFile(filename: \"b.h\", directory: \"/tmp\")
!8 = !DISubroutineType(types: !9)
!9 = !{}
!10 = !DILocalVariable(name: \"x\", arg: 1, scope: !5, file: !1)
!11 = !DILocation(line: 1, scope: !5)
";
        assert_eq!(numbered(text), expected);
    }

    #[test]
    fn alike_uniqued_nodes_are_one() {
        let text = "\
define void @f(ptr %p) {
  %a = load ptr, ptr %p, align 8, !nonnull !3
  %b = load ptr, ptr %p, align 8, !nonnull !1, !noundef !2
  ret void
}

!1 = !{ }
!2 = !{!4}
!3 = !{}
!4 = !{!\"s\"}
!5 = !{!6}
!6 = !{!\"s\"}
";
        let expected = "\
define void @f(ptr %p) {
  %a = load ptr, ptr %p, align 8, !nonnull !0
  %b = load ptr, ptr %p, align 8, !nonnull !0, !noundef !1
  ret void
}

!0 = !{ }
!1 = !{!2}
!2 = !{!\"s\"}
";
        assert_eq!(numbered(text), expected);
    }

    /// Lines ended by `\r` alone (old Mac files, among LLVM's tests), or by `\r\n`, and
    /// several definitions on one line: each definition is read as one.
    #[test]
    fn definitions_are_read_whatever_ends_their_lines() {
        let text = "define void @f() {\r  ret void, !a !2\r}\r!2 = !{!3}\r!3 = !{}\r";
        assert_eq!(
            numbered(text),
            "define void @f() {\r  ret void, !a !0\r}\r\n!0 = !{!1}\n!1 = !{}\n"
        );
        let text = "define void @f() {\r\n  ret void, !a !2\r\n}\r\n\r\n!2 = !{!3} !3 = !{}\r\n";
        assert_eq!(
            numbered(text),
            "define void @f() {\r\n  ret void, !a !0\r\n}\r\n\r\n!0 = !{!1}\n!1 = !{}\n"
        );
    }

    /// An instruction written on several lines, its attachment on the last (checked against
    /// opt-22: the invoke's node comes before the return's).
    #[test]
    fn an_attachment_may_start_a_line() {
        let text = "\
define void @f() personality ptr null {
  invoke void @f()
          to label %a unwind label %b,
          !foo !7
a:
  ret void, !foo !3
b:
  %l = landingpad {} cleanup
  ret void
}

!3 = !{!\"three\"}
!7 = !{!\"seven\"}
";
        let out = numbered(text);
        assert!(out.contains("          !foo !0\n"), "{out}");
        assert!(out.contains("ret void, !foo !1\n"), "{out}");
    }

    /// Nodes written inline in nodes written inline: each its own number, the outer one's
    /// taken first. Expected: opt-22's output.
    #[test]
    fn nodes_written_inline_are_numbered_each() {
        let text = "\
define void @f() {
  store i32 0, ptr null, align 4, !a !{!\"hello\", !1, !{}, !2}
  ret void, !b !3
}

!1 = !{ptr null, !2}
!2 = !{!\"two\"}
!3 = !{!{!{!\"deep\"}}, !2}
";
        let expected = "\
define void @f() {
  store i32 0, ptr null, align 4, !a !0
  ret void, !b !4
}

!0 = !{!\"hello\", !1, !3, !2}
!1 = !{ptr null, !2}
!2 = !{!\"two\"}
!3 = !{}
!4 = !{!5, !2}
!5 = !{!6}
!6 = !{!\"deep\"}
";
        assert_eq!(numbered(text), expected);
    }

    #[test]
    fn a_module_numbered_as_llvm_is_left_alone() {
        for text in [
            "define void @f() {\n  ret void, !foo !0\n}\n\n!0 = !{}\n",
            "define void @f() { ret void }\n",
            "",
        ] {
            assert_eq!(numbered(text), text);
        }
        // A node nothing names is not printed.
        assert_eq!(numbered("!0 = !{}\n"), "");
    }
}
