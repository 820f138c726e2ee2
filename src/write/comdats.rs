//! Comdats written as LLVM's printer writes them, for `mergefn opt`: only those a global object
//! names, in the order it first meets them (functions first, then global variables). A
//! function folded away leaves its comdat unnamed, and opt writes no line for it. A global
//! in the comdat of its own name is written `comdat`, as opt writes it, however the text
//! names it (`define void @f() comdat($f)`).
//!
//! This works on the written text, a valid module, a line at a time: a comdat is defined by a
//! line `$name = comdat any`, the definitions together (blank lines between them, as LLVM
//! sets them apart), and named by a `comdat` on the line of a function's header or of a
//! global variable (`comdat($name)`, or `comdat` alone for the global's own name). A text it
//! does not follow (a `comdat` elsewhere, a header on several lines, definitions apart) is
//! written as it is: a comdat dropped that a global still names would make the module
//! invalid.

use super::TextEdit;
use crate::model::search;
use crate::read::lexer::{Lexer, Tok};
use crate::read::strip_name;
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;

/// The edits that leave only the comdats `text`'s globals name, in LLVM's order, and write
/// a global's own comdat `comdat` alone: none when it is so already, or when the text is not
/// one this follows.
pub fn edits(text: &[u8]) -> Vec<TextEdit> {
    let Some((definitions, mut own_names)) = edit(text) else {
        return Vec::new();
    };
    own_names.extend(definitions);
    own_names.sort_by_key(|e| e.start);
    own_names
}

/// The edit of the comdats' definitions, if any, and those of the globals that name their
/// own comdat by name.
fn edit(text: &[u8]) -> Option<(Option<TextEdit>, Vec<TextEdit>)> {
    // Each definition's line (with its end), by the comdat's name.
    let mut defs: FxHashMap<Vec<u8>, (usize, usize)> = FxHashMap::default();
    let mut def_order: Vec<(usize, usize)> = Vec::new();
    let (mut by_functions, mut by_variables) = (Vec::new(), Vec::new());
    let mut own_names = Vec::new();
    // Only the lines that hold the word: few (a header or variable in a comdat, a definition).
    let word = search::Needle::new(b"comdat");
    let mut from = 0;
    while let Some(found) = word.find(&text[from..]) {
        let at = from + found;
        let start = search::memrchr(b'\n', &text[..at]).map_or(0, |eol| eol + 1);
        let end = search::memchr(b'\n', &text[at..]).map_or(text.len(), |eol| at + eol);
        from = end;
        let line = &text[start..end];
        if line.starts_with(b"$") {
            let name = definition(line)?;
            let line_end = (end + 1).min(text.len());
            if defs.insert(name, (start, line_end)).is_some() {
                return None;
            }
            def_order.push((start, line_end));
        } else {
            match named(line)? {
                Named::Nothing => {}
                Named::Comdat(name, redundant) => {
                    if let Some(r) = redundant {
                        own_names.push(TextEdit {
                            start: start + r.start,
                            end: start + r.end,
                            text: Vec::new(),
                        });
                    }
                    match line.starts_with(b"define") {
                        true => by_functions.push(name),
                        false => by_variables.push(name),
                    }
                }
            }
        }
    }
    // LLVM writes the comdats together, a blank line between two: a text whose definitions
    // stand apart is not followed.
    let (region_start, mut region_end) = (def_order.first()?.0, def_order.last()?.1);
    let mut defs_in_region = def_order.iter().peekable();
    let mut at = region_start;
    while at < region_end {
        if defs_in_region.peek().is_some_and(|d| d.0 == at) {
            at = defs_in_region.next()?.1;
        } else if text[at] == b'\n' {
            at += 1;
        } else {
            return None;
        }
    }
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut seen = FxHashSet::default();
    for name in by_functions.iter().chain(&by_variables) {
        let def = *defs.get(name)?;
        if seen.insert(def) {
            kept.push(def);
        }
    }
    let mut block = Vec::new();
    for (i, &(from, to)) in kept.iter().enumerate() {
        if i > 0 {
            block.push(b'\n');
        }
        block.extend_from_slice(&text[from..to]);
        if text[to - 1] != b'\n' {
            block.push(b'\n');
        }
    }
    // With no comdat left, the blank line that set them apart from what follows goes too.
    if kept.is_empty() && text.get(region_end) == Some(&b'\n') {
        region_end += 1;
    }
    let definitions = (block != text[region_start..region_end]).then_some(TextEdit {
        start: region_start,
        end: region_end,
        text: block,
    });
    Some((definitions, own_names))
}

/// The name `$name = comdat <kind>` defines.
fn definition(line: &[u8]) -> Option<Vec<u8>> {
    let mut lex = Lexer::new(line);
    let name = lex.next();
    (name.kind == Tok::ComdatName).then_some(())?;
    (lex.next().kind == Tok::Equal).then_some(())?;
    let word = lex.next();
    (word.kind == Tok::Word && &line[word.span.range()] == b"comdat").then_some(())?;
    (lex.next().kind == Tok::Word && lex.next().kind == Tok::Eof).then_some(())?;
    Some(strip_name(&line[name.span.range()][1..]).into_owned())
}

enum Named {
    Nothing,
    /// By a function's header (`define`) or a global variable (`@v = ...`); where the line
    /// names it by the global's own name (`comdat($f)` of `@f`, which LLVM writes `comdat`),
    /// the `($f)`.
    Comdat(Vec<u8>, Option<Range<usize>>),
}

/// The comdat a line names, if it is a function's header or a global variable; `None` for a
/// `comdat` anywhere else.
fn named(line: &[u8]) -> Option<Named> {
    let mut lex = Lexer::new(line);
    let mut own_name = None;
    let is_header = line.starts_with(b"define");
    if !is_header && !line.starts_with(b"@") {
        // A `comdat` in a string is no keyword.
        return loop {
            let t = lex.next();
            match t.kind {
                Tok::Eof => break Some(Named::Nothing),
                Tok::Word if &line[t.span.range()] == b"comdat" => break None,
                _ => {}
            }
        };
    }
    loop {
        let t = lex.next();
        match t.kind {
            Tok::Eof => return Some(Named::Nothing),
            Tok::GlobalName | Tok::GlobalNum if own_name.is_none() => own_name = Some(t),
            Tok::Word if &line[t.span.range()] == b"comdat" => {
                let after = lex.next();
                let own = strip_name(&line[own_name?.span.range()][1..]);
                let (name, redundant) = match after.kind {
                    Tok::LParen => {
                        let name = lex.next();
                        (name.kind == Tok::ComdatName).then_some(())?;
                        let close = lex.next();
                        (close.kind == Tok::RParen).then_some(())?;
                        let name = strip_name(&line[name.span.range()][1..]);
                        let redundant =
                            (name == own).then_some(t.span.end as usize..close.span.end as usize);
                        (name.into_owned(), redundant)
                    }
                    _ => (own.into_owned(), None),
                };
                return Some(Named::Comdat(name, redundant));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_global_in_its_own_comdat_names_it_as_llvm_does() {
        let text = "$f = comdat any\n\n$\"q x\" = comdat any\n\n\
                    @\"q x\" = global i32 0, comdat($\"q x\")\n\
                    define void @f() comdat ( $f ) {\n  ret void\n}\n\
                    define void @g() comdat($f) {\n  ret void\n}\n";
        let expected = "$f = comdat any\n\n$\"q x\" = comdat any\n\n\
                        @\"q x\" = global i32 0, comdat\n\
                        define void @f() comdat {\n  ret void\n}\n\
                        define void @g() comdat($f) {\n  ret void\n}\n";
        let out = as_llvm_prints(text.as_bytes()).expect("rewritten");
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    /// `text` with only the comdats its globals name; `None` if so already.
    fn as_llvm_prints(text: &[u8]) -> Option<Vec<u8>> {
        super::super::edited(text, &edits(text))
    }

    /// opt-22 writes the comdats of the functions first, then the variables', each once, and
    /// none that nothing names.
    #[test]
    fn only_comdats_named_in_llvm_order() {
        let text = "\
$gone = comdat any

$v = comdat any

$\"q x\" = comdat any

$f = comdat largest

@v = global i32 0, comdat
@w = global i32 0, comdat($f)

define void @f() comdat {
  ret void
}

define void @\"q x\"() comdat {
  ret void
}

define void @g() comdat($\"q x\") {
  ret void
}
";
        let expected = text.replace(
            "$gone = comdat any\n\n$v = comdat any\n\n$\"q x\" = comdat any\n\n$f = comdat largest\n",
            "$f = comdat largest\n\n$\"q x\" = comdat any\n\n$v = comdat any\n",
        );
        let out = as_llvm_prints(text.as_bytes()).expect("rewritten");
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        assert!(as_llvm_prints(expected.as_bytes()).is_none());
        // Written one under another, they are set apart as LLVM writes them; with none named,
        // they go with the blank line after them.
        let packed =
            "$b = comdat any\n$a = comdat any\n\ndefine void @a() comdat {\n  ret void\n}\n";
        let out = as_llvm_prints(packed.as_bytes()).expect("rewritten");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "$a = comdat any\n\ndefine void @a() comdat {\n  ret void\n}\n"
        );
        let unnamed = "$a = comdat any\n\ndefine void @a() {\n  ret void\n}\n";
        let out = as_llvm_prints(unnamed.as_bytes()).expect("rewritten");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "define void @a() {\n  ret void\n}\n"
        );
    }

    /// A `comdat` this cannot tell the global of leaves the text as it is.
    #[test]
    fn a_comdat_elsewhere_leaves_the_text() {
        let split_header =
            "$f = comdat any\n$g = comdat any\ndefine void @f()\n    comdat {\n  ret void\n}\n";
        assert!(as_llvm_prints(split_header.as_bytes()).is_none());
        let apart = "$f = comdat any\n@x = global i32 0\n$g = comdat any\ndefine void @f() comdat {\n  ret void\n}\n";
        assert!(as_llvm_prints(apart.as_bytes()).is_none());
        let in_string = "$f = comdat any\n\n$g = comdat any\n@s = global [6 x i8] c\"comdat\"\ndefine void @f() comdat {\n  ret void\n}\n";
        let out = as_llvm_prints(in_string.as_bytes()).expect("rewritten");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            in_string.replace("\n$g = comdat any\n", "")
        );
    }
}
