//! The module laid out as LLVM's printer lays it out, for `mergefn opt`: its statements in
//! the printer's order (the heading lines, module assembly, types, comdats, global
//! variables, aliases, ifuncs, functions, use-list orders, attribute groups, metadata), each
//! kind in the text's order, which is the order LLVM's parser makes them in; and within a
//! body, no blank line but one before each block's label. A text LLVM printed is laid out so
//! already and is not copied; a text written by hand may hold its globals after its
//! functions or blank lines between instructions, which tests checking opt's output with
//! `CHECK-NEXT` do not expect.
//!
//! This works on the written text, a valid module without comments whose strings end on
//! their lines and whose lines hold one statement at most, a line at a time: a statement
//! starts at a line that starts with what starts one (`define`, `@g =`, `!7 =`...), and any
//! other line that is not blank goes on the statement before it (a global written over
//! lines). A body is the lines between a header's line that ends with `{` and the next line
//! that starts with `}`; one whose braces do not balance there (a `{` that opens no body, a
//! `}` inside one) is written as it is, and so is the order of a text whose unnamed globals
//! (`@0`) it would reorder, which LLVM numbers anew in the order it prints them.

use crate::model::search;
use crate::read::lexer::{Lexer, Tok};

/// What a top-level statement is, in the order LLVM's printer writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    /// The module's identifier (the one comment left), `source_filename`, `target`.
    Heading,
    ModuleAsm,
    Type,
    Comdat,
    Variable,
    Alias,
    IFunc,
    Function,
    UseListOrder,
    AttributeGroup,
    /// Named metadata and nodes, which metadata numbering orders.
    Metadata,
    /// Summary entries (`^N = ...`), which opt does not print.
    Summary,
}

/// A statement: its lines, and for a function whose header's line ends with `{`, where the
/// body's lines start and where the next line starting with `}` starts (the body's lines if
/// their braces balance, [`push_body`] checks).
struct Statement {
    rank: Rank,
    start: usize,
    end: usize,
    body: Option<(usize, usize)>,
}

/// `text` laid out as LLVM lays it out; `None` when it is so already.
pub fn laid_out(text: &[u8]) -> Option<Vec<u8>> {
    let statements = statements(text)?;
    // LLVM numbers unnamed globals in the order it prints them, and reads them only in the
    // order of their numbers: a text whose unnamed globals the new order would reorder keeps
    // its order.
    let keep_order = statements.windows(2).all(|w| w[0].rank <= w[1].rank) || {
        let numbered_ranks: Vec<Rank> = statements
            .iter()
            .filter(|s| defines_numbered_global(&text[s.start..s.end]))
            .map(|s| s.rank)
            .collect();
        numbered_ranks.windows(2).any(|w| w[0] > w[1])
    };
    let bodies_clean = statements
        .iter()
        .filter_map(|s| s.body)
        .all(|(start, end)| body_is_laid_out(&text[start..end]));
    if keep_order && bodies_clean {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    if keep_order {
        // Only the bodies change: the text between them stays as it is.
        let mut at = 0;
        for s in &statements {
            if let Some((start, end)) = s.body {
                out.extend_from_slice(&text[at..start]);
                push_body(&text[start..end], &mut out);
                at = end;
            }
        }
        out.extend_from_slice(&text[at..]);
        return Some(out);
    }
    let mut order: Vec<&Statement> = statements.iter().collect();
    order.sort_by_key(|s| s.rank);
    let mut previous = None;
    for s in order {
        // A blank line before each kind, and between two comdats or two functions.
        let blank = match previous {
            None => false,
            Some(rank) if rank != s.rank => s.rank != Rank::Heading,
            Some(_) => matches!(s.rank, Rank::Comdat | Rank::Function),
        };
        if blank {
            out.push(b'\n');
        }
        previous = Some(s.rank);
        match s.body {
            Some((start, end)) => {
                out.extend_from_slice(&text[s.start..start]);
                push_body(&text[start..end], &mut out);
                out.extend_from_slice(&text[end..s.end]);
            }
            None => out.extend_from_slice(&text[s.start..s.end]),
        }
        if !out.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    Some(out)
}

/// The statements of `text` in its order; `None` if a line that is not blank comes before
/// any statement.
fn statements(text: &[u8]) -> Option<Vec<Statement>> {
    let closing_line = search::Pair::new(*b"\n}");
    let mut statements: Vec<Statement> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let line_end = line_end(text, at);
        let line = text[at..line_end].trim_ascii_end();
        if line.is_empty() {
            at = line_end;
            continue;
        }
        let Some(rank) = rank_of(line) else {
            // What goes on the statement before it.
            statements.last_mut()?.end = line_end;
            at = line_end;
            continue;
        };
        let mut statement = Statement {
            rank,
            start: at,
            end: line_end,
            body: None,
        };
        if line.starts_with(b"define") && line.ends_with(b"{") {
            // The body runs to the next line that starts with `}`.
            let close = closing_line
                .find(&text[line_end - 1..])
                .map(|i| line_end + i);
            if let Some(close) = close {
                statement.body = Some((line_end, close));
                statement.end = self::line_end(text, close);
            }
        }
        at = statement.end;
        statements.push(statement);
    }
    Some(statements)
}

/// Where the line starting at `at` ends, past its newline.
fn line_end(text: &[u8], at: usize) -> usize {
    search::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i + 1)
}

/// What statement a line starts, if it starts one: by its first word, or by the name it
/// defines and, for a global, the word that says what the global is.
fn rank_of(line: &[u8]) -> Option<Rank> {
    match line[0] {
        // An indented line goes on the statement before it (`  !dbg !0`, a constant's next
        // elements), unless it starts a statement no body holds (` declare void @f()`): a
        // `uselistorder` may be an instruction of a body whose header spans lines.
        b' ' | b'\t' => {
            return rank_of(line.trim_ascii_start())
                .filter(|&rank| rank != Rank::UseListOrder && rank != Rank::Heading);
        }
        b';' => return Some(Rank::Heading),
        _ => {}
    }
    let mut lex = Lexer::new(line);
    let first = lex.next();
    let word = |t: &crate::read::lexer::Token| &line[t.span.range()];
    let rank = match first.kind {
        Tok::Word => match word(&first) {
            b"source_filename" | b"target" => Rank::Heading,
            b"module" => Rank::ModuleAsm,
            b"define" | b"declare" => Rank::Function,
            b"attributes" => Rank::AttributeGroup,
            b"uselistorder" | b"uselistorder_bb" => Rank::UseListOrder,
            _ => return None,
        },
        Tok::LocalName | Tok::LocalNum => {
            let defines_type = lex.next().kind == Tok::Equal && {
                let t = lex.next();
                t.kind == Tok::Word && word(&t) == b"type"
            };
            return defines_type.then_some(Rank::Type);
        }
        Tok::ComdatName => Rank::Comdat,
        Tok::MdName | Tok::MdNum => Rank::Metadata,
        Tok::SummaryId => Rank::Summary,
        Tok::GlobalName | Tok::GlobalNum => {
            if lex.next().kind != Tok::Equal {
                return None;
            }
            // The linkage and other words first, then what the global is.
            return loop {
                let t = lex.next();
                match (t.kind, word(&t)) {
                    (Tok::Eof, _) => break None,
                    (Tok::Word, b"global" | b"constant") => break Some(Rank::Variable),
                    (Tok::Word, b"alias") => break Some(Rank::Alias),
                    (Tok::Word, b"ifunc") => break Some(Rank::IFunc),
                    _ => {}
                }
            };
        }
        _ => return None,
    };
    // A definition names itself then `=` (`!dbg !7` on a line of its own goes on the global
    // before it).
    let defines = match rank {
        Rank::Comdat | Rank::Metadata | Rank::Summary => lex.next().kind == Tok::Equal,
        _ => true,
    };
    defines.then_some(rank)
}

/// Whether a statement defines an unnamed global (`@7 = global ...`, `define void @7()`): the
/// first global it names on its first line is a number.
fn defines_numbered_global(statement: &[u8]) -> bool {
    let first_line = &statement[..line_end(statement, 0)];
    let mut lex = Lexer::new(first_line);
    loop {
        match lex.next().kind {
            Tok::GlobalNum => return true,
            Tok::GlobalName | Tok::Eof => return false,
            _ => {}
        }
    }
}

/// Whether the braces of `body` balance, those in strings and quoted names aside.
fn braces_balance(body: &[u8]) -> bool {
    let mut depth = 0i64;
    let mut at = 0;
    while let Some(i) = search::memchr3(b'{', b'}', b'"', &body[at..]) {
        at += i;
        match body[at] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => match search::memchr(b'"', &body[at + 1..]) {
                Some(close) => at += close + 1,
                None => return false,
            },
        }
        at += 1;
    }
    depth == 0
}

/// Whether a body's lines are as LLVM prints them: no blank line, but one before each label
/// after the first line.
fn body_is_laid_out(body: &[u8]) -> bool {
    let mut previous_blank = false;
    let mut first = true;
    for line in body_lines(body) {
        let blank = line.is_empty();
        let wanted_blank = !first && !blank && is_label(line);
        if blank && previous_blank || !blank && wanted_blank != previous_blank {
            return false;
        }
        if blank && first || !blank && split_as_llvm(line).is_some() {
            return false;
        }
        previous_blank = blank;
        first = false;
    }
    !previous_blank
}

/// A body's lines as LLVM prints them: blank ones dropped, one before each label after the
/// first line; lines whose braces do not balance (no body's) as they are.
fn push_body(body: &[u8], out: &mut Vec<u8>) {
    // Checked only here, for the few bodies that change: most are laid out already.
    if !braces_balance(body) {
        out.extend_from_slice(body);
        return;
    }
    let mut first = true;
    let mut at = 0;
    while at < body.len() {
        let end = line_end(body, at);
        let line = body[at..end].trim_ascii();
        if !line.is_empty() {
            if !first && is_label(line) {
                out.push(b'\n');
            }
            match split_as_llvm(line) {
                Some(split) => {
                    let indent = body[at..end].len() - body[at..end].trim_ascii_start().len();
                    out.extend_from_slice(&body[at..at + indent]);
                    out.extend_from_slice(&split);
                    out.push(b'\n');
                }
                None => out.extend_from_slice(&body[at..end]),
            }
            first = false;
        }
        at = end;
    }
}

/// A trimmed line holding an instruction LLVM prints over lines, split as it prints it, if
/// the text writes it on one: an `invoke`'s or a `callbr`'s labels on a line of their own
/// (`to label %a unwind label %b`), each clause of a `landingpad` on one (`cleanup`, `catch
/// ptr @x`), each case of a `switch` on one, and its `]`.
fn split_as_llvm(line: &[u8]) -> Option<Vec<u8>> {
    let opcode = match line.first()? {
        b'%' => {
            let equal = search::memchr(b'=', line)?;
            line[equal + 1..].trim_ascii_start()
        }
        _ => line,
    };
    let word_end = opcode
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(opcode.len());
    let kind = &opcode[..word_end];
    if !matches!(kind, b"invoke" | b"callbr" | b"landingpad" | b"switch") {
        return None;
    }
    // Where each new line starts, and the `]` of a switch.
    let mut cuts: Vec<(usize, &[u8])> = Vec::new();
    let mut lex = Lexer::new(line);
    let mut depth = 0i32;
    let mut previous = Tok::Eof;
    let mut in_cases = false;
    let mut case_start = true;
    loop {
        let t = lex.next();
        let word = &line[t.span.range()];
        match t.kind {
            Tok::Eof => break,
            _ if in_cases && depth == 1 && t.kind == Tok::RSquare => {
                cuts.push((t.span.start as usize, b"\n  "));
                in_cases = false;
            }
            _ if in_cases && depth == 1 && case_start => {
                cuts.push((t.span.start as usize, b"\n    "));
                case_start = false;
            }
            Tok::LocalName | Tok::LocalNum if in_cases && previous == Tok::Word => {
                // `label %a` ends a case.
                case_start = true;
            }
            Tok::LSquare if kind == b"switch" && depth == 0 => in_cases = true,
            Tok::Word if depth == 0 => match (kind, word) {
                (b"invoke" | b"callbr", b"to") => {
                    cuts.push((t.span.start as usize, b"\n          "))
                }
                (b"landingpad", b"cleanup" | b"catch" | b"filter") => {
                    cuts.push((t.span.start as usize, b"\n          "));
                }
                _ => {}
            },
            _ => {}
        }
        match t.kind {
            Tok::LParen | Tok::LSquare | Tok::LBrace | Tok::Less => depth += 1,
            Tok::RParen | Tok::RSquare | Tok::RBrace | Tok::Greater => depth -= 1,
            _ => {}
        }
        previous = t.kind;
    }
    if cuts.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(line.len() + 16 * cuts.len());
    let mut at = 0;
    for (cut, break_and_indent) in cuts {
        out.extend_from_slice(line[at..cut].trim_ascii_end());
        out.extend_from_slice(break_and_indent);
        at = cut;
    }
    out.extend_from_slice(&line[at..]);
    Some(out)
}

/// The lines of a body, each trimmed of its blanks.
fn body_lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        (at < body.len()).then(|| {
            let end = line_end(body, at);
            let line = body[at..end].trim_ascii();
            at = end;
            line
        })
    })
}

/// Whether a trimmed line of a body is a block's label (`bb:`, `"a b":`, `7:`) alone.
fn is_label(line: &[u8]) -> bool {
    if !line.ends_with(b":") {
        return false;
    }
    let mut lex = Lexer::new(line);
    matches!(lex.next().kind, Tok::Label | Tok::LabelNum) && lex.next().kind == Tok::Eof
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laid(text: &str) -> Option<String> {
        laid_out(text.as_bytes()).map(|t| String::from_utf8(t).unwrap())
    }

    #[test]
    fn a_text_laid_out_as_llvm_lays_it_out_is_not_copied() {
        let text = "; ModuleID = 'a.ll'\nsource_filename = \"a.ll\"\n\n%T = type { i32 }\n\n\
                    $c = comdat any\n\n@g = global i32 0\n@h = global ptr @f\n\n\
                    @a = alias i32, ptr @g\n\ndefine void @f() comdat($c) {\nentry:\n  \
                    br label %next\n\nnext:\n  ret void\n}\n\ndeclare void @d()\n\n\
                    attributes #0 = { nounwind }\n\n!0 = !{}\n";
        assert_eq!(laid(text), None);
    }

    #[test]
    fn statements_go_in_llvm_order_and_bodies_lose_their_blank_lines() {
        let text = "; ModuleID = 'a.ll'\nsource_filename = \"a.ll\"\n\
                    define void @f() {\n  call void @d()\n\n  call void @d()\n  br label %b\n\
                    b:\n  ret void\n}\n\
                    @g = global ptr @f,\n  !dbg !0\n\
                    $c = comdat any\n$d = comdat any\n\
                    @a = alias void (), ptr @f\n\
                    %T = type { i32 }\n\
                    declare void @d()\n\
                    !0 = !{}\n";
        let expected = "; ModuleID = 'a.ll'\nsource_filename = \"a.ll\"\n\n%T = type { i32 }\n\n\
                        $c = comdat any\n\n$d = comdat any\n\n@g = global ptr @f,\n  !dbg !0\n\n\
                        @a = alias void (), ptr @f\n\ndefine void @f() {\n  call void @d()\n  \
                        call void @d()\n  br label %b\n\nb:\n  ret void\n}\n\n\
                        declare void @d()\n\n!0 = !{}\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
    }

    #[test]
    fn an_indented_statement_is_a_statement() {
        // LLVM's parser reads the declaration wherever its line starts; a global's
        // attachment on a line of its own stays with it.
        let text = "attributes #0 = { noinline }\n\n declare void @g(ptr)\n\
                    define void @f() #0 {\n  ret void\n}\n@v = global i32 0,\n  !dbg !0\n";
        let expected = "@v = global i32 0,\n  !dbg !0\n\n declare void @g(ptr)\n\n\
                        define void @f() #0 {\n  ret void\n}\n\nattributes #0 = { noinline }\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
    }

    #[test]
    fn a_body_in_order_has_only_its_blank_lines_changed() {
        let text = "@g = global i32 0\n\n\n\ndefine void @f() {\n\n  ret void\n}\n";
        let expected = "@g = global i32 0\n\n\n\ndefine void @f() {\n  ret void\n}\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
    }

    #[test]
    fn a_body_whose_braces_do_not_balance_is_left_as_it_is() {
        // The header's `{` opens prefix data, not the body: the lines after it are the
        // function's, and the function keeps its place and its lines.
        let text = "define void @f() prefix { i32 } {\n  i32 1 } {\n\n  ret void\n}\n\
                    @g = global i32 0\n";
        let expected = "@g = global i32 0\n\ndefine void @f() prefix { i32 } {\n  \
                        i32 1 } {\n\n  ret void\n}\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
    }

    #[test]
    fn unnamed_globals_keep_their_order() {
        // LLVM reads `@0` before `@1` only: moved before the functions, the variable would
        // need a number of its own.
        let text = "define void @0() {\n\n  ret void\n}\n@1 = global i8 0\n";
        let expected = "define void @0() {\n  ret void\n}\n@1 = global i8 0\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
        // A named global moves before them.
        let text = "define void @0() {\n  ret void\n}\n@g = global i8 0\n";
        let expected = "@g = global i8 0\n\ndefine void @0() {\n  ret void\n}\n";
        assert_eq!(laid(text).as_deref(), Some(expected));
    }

    #[test]
    fn instructions_over_lines_are_split_as_llvm_prints_them() {
        let split =
            |line: &str| split_as_llvm(line.as_bytes()).map(|s| String::from_utf8(s).unwrap());
        assert_eq!(
            split("%r = invoke i32 @f(i32 1) to label %a unwind label %b, !dbg !3").as_deref(),
            Some("%r = invoke i32 @f(i32 1)\n          to label %a unwind label %b, !dbg !3")
        );
        assert_eq!(
            split("%p = landingpad { ptr, i32 } cleanup catch ptr @x filter [1 x ptr] [ptr @y]")
                .as_deref(),
            Some(
                "%p = landingpad { ptr, i32 }\n          cleanup\n          catch ptr @x\n          \
                 filter [1 x ptr] [ptr @y]"
            )
        );
        assert_eq!(
            split("switch i32 %x, label %d [ i32 1, label %a i32 2, label %b ]").as_deref(),
            Some("switch i32 %x, label %d [\n    i32 1, label %a\n    i32 2, label %b\n  ]")
        );
        assert_eq!(
            split("switch i32 %x, label %d []").as_deref(),
            Some("switch i32 %x, label %d [\n  ]")
        );
        // Already as LLVM prints them, or not over lines at all.
        for line in [
            "%r = invoke i32 @f(i32 1)",
            "to label %a unwind label %b",
            "%p = landingpad { ptr, i32 }",
            "switch i32 %x, label %d [",
            "%c = call i32 @invoke(i32 1)",
            "%x = add i32 1, 2",
        ] {
            assert_eq!(split(line), None, "{line}");
        }
    }

    #[test]
    fn labels_are_told_from_instructions() {
        assert!(is_label(b"entry:"));
        assert!(is_label(b"\"a b\":"));
        assert!(is_label(b"7:"));
        assert!(!is_label(b"ret void"));
        assert!(!is_label(b"entry: ret void"));
    }
}
