//! Attribute groups numbered as LLVM's printer numbers them, for `mergefn opt`: a test of
//! opt's output may name `#0` or check `attributes #1 = { ... }`.
//!
//! LLVM keeps no group numbers. It reads `#N` as the set of attributes the group holds (one
//! set for groups that hold the same) and, printing, numbers the sets in the order its
//! `SlotTracker` meets them: each global variable's, then each function's own (declarations
//! too), then the call sites' in the order of the functions and their instructions. A set
//! nothing names is not printed, and the groups are printed in their new order. So once
//! folds delete functions or add thunks, opt's numbers are not the text's.
//!
//! A declaration of an intrinsic takes the function attributes LLVM gives the intrinsic,
//! whatever its group says (LLVM reads them so: clang's -O2 output gives `llvm.lifetime.start`
//! a `mustprogress` that opt does not print), or none, its `#N` then dropped.
//!
//! This works on the written text, a valid module, a line at a time: a group is named on the
//! line of a global variable (`@v = ... #0`), a function header (`define`, `declare`) or an
//! indented instruction (a call site), outside strings, and defined by a line
//! `attributes #N = { ... }`. A text it does not follow (a group named elsewhere, named and
//! not defined or empty, whose set LLVM drops) is left as it is. The renumbering is one
//! mapping of sets, so what the text means never changes, whatever it follows.

use super::TextEdit;
use crate::model::search;
use crate::read::intrinsic_fn_attributes;
use crate::read::lexer::{Lexer, Tok};
use crate::read::strip_name;
use rustc_hash::FxHashMap;

/// The edits that number and order `text`'s attribute groups as LLVM prints them: none when
/// they already are, or when the text is not one this follows.
pub fn edits(text: &[u8]) -> Vec<TextEdit> {
    let Some(scan) = Scan::of(text) else {
        return Vec::new();
    };
    scan.numbers()
        .map_or_else(Vec::new, |numbers| scan.edits(&numbers))
}

/// Where a group is named: the order in which LLVM numbers sets.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    GlobalVariable,
    Function,
    CallSite,
}

/// A `#N` naming a group, outside a definition.
struct Ref {
    place: Place,
    /// The digits after `#`.
    digits: (usize, usize),
    number: u32,
    set: RefSet,
}

/// The set a `#N` stands for.
#[derive(Clone, Copy)]
enum RefSet {
    /// Its group's.
    Group,
    /// An intrinsic's, whatever the group holds.
    Intrinsic(&'static str),
    /// None: an intrinsic LLVM gives no function attributes, or a second group on an
    /// intrinsic's declaration (the first stands for the intrinsic's set).
    Dropped,
}

/// What a new number's definition holds.
#[derive(Clone, Copy)]
enum SetText {
    /// The set of a definition in the text.
    Def(usize),
    /// An intrinsic's set.
    Intrinsic(&'static str),
}

/// `attributes #N = { ... }`.
struct Def {
    number: u32,
    /// The whole line, with its line end.
    line: (usize, usize),
    /// From `{` to `}`.
    set: (usize, usize),
}

struct Scan<'a> {
    text: &'a [u8],
    /// In the order of the text.
    refs: Vec<Ref>,
    /// In the order of the text.
    defs: Vec<Def>,
}

struct Numbers {
    /// By reference (its place in [`Scan::refs`]), the new number; `None` for one dropped.
    new_of_ref: Vec<Option<u32>>,
    /// By new number, the set it prints.
    new_defs: Vec<SetText>,
}

impl<'a> Scan<'a> {
    fn of(text: &'a [u8]) -> Option<Scan<'a>> {
        let mut scan = Scan {
            text,
            refs: Vec::new(),
            defs: Vec::new(),
        };
        let mut start = 0;
        while start < text.len() {
            let end = search::memchr(b'\n', &text[start..]).map_or(text.len(), |at| start + at);
            let line = &text[start..end];
            if search::memchr(b'#', line).is_some() {
                scan.line(start, end)?;
            }
            start = end + 1;
        }
        Some(scan)
    }

    /// The groups named or defined on the line `start..end`.
    fn line(&mut self, start: usize, end: usize) -> Option<()> {
        let line = &self.text[start..end];
        let names = group_names(line);
        if names.is_empty() {
            return Some(());
        }
        if line.starts_with(b"attributes") {
            // `attributes #N = { ... }`: one name, then the set.
            let &[(at, digits_end)] = names.as_slice() else {
                return None;
            };
            let rest = &line[digits_end..];
            let eq = rest.iter().position(|&b| b != b' ')?;
            let after_eq = rest[eq..].strip_prefix(b"=")?;
            let open = after_eq.iter().position(|&b| b != b' ')?;
            if after_eq[open] != b'{' {
                return None;
            }
            let open = digits_end + eq + 1 + open;
            let close = closing_brace(&line[open..])? + open;
            if line[open + 1..close].trim_ascii().is_empty()
                || !line[close + 1..].trim_ascii().is_empty()
            {
                return None;
            }
            let line_end = (end + 1).min(self.text.len());
            self.defs.push(Def {
                number: decimal(&line[at + 1..digits_end])?,
                line: (start, line_end),
                set: (start + open, start + close + 1),
            });
            return Some(());
        }
        let place = if line.starts_with(b"@") {
            Place::GlobalVariable
        } else if line.starts_with(b"define") || line.starts_with(b"declare") {
            Place::Function
        } else if line.starts_with(b" ") || line.starts_with(b"\t") {
            Place::CallSite
        } else {
            return None;
        };
        let intrinsic = match line.starts_with(b"declare") {
            true => declared_intrinsic(line),
            false => None,
        };
        for (i, (at, digits_end)) in names.into_iter().enumerate() {
            let set = match intrinsic {
                None => RefSet::Group,
                Some(Some(set)) if i == 0 => RefSet::Intrinsic(set),
                Some(_) => RefSet::Dropped,
            };
            self.refs.push(Ref {
                place,
                digits: (start + at + 1, start + digits_end),
                number: decimal(&line[at + 1..digits_end])?,
                set,
            });
        }
        Some(())
    }

    /// New numbers in LLVM's order: by place, then in the text's order; groups that hold the
    /// same set (written alike) share one.
    fn numbers(&self) -> Option<Numbers> {
        let mut def_of: FxHashMap<u32, usize> = FxHashMap::default();
        for (i, d) in self.defs.iter().enumerate() {
            // A number defined twice is no text LLVM reads.
            if def_of.insert(d.number, i).is_some() {
                return None;
            }
        }
        let mut order: Vec<usize> = (0..self.refs.len()).collect();
        order.sort_by_key(|&r| self.refs[r].place);
        let mut new_of_set: FxHashMap<Vec<u8>, u32> = FxHashMap::default();
        let mut numbers = Numbers {
            new_of_ref: vec![None; self.refs.len()],
            new_defs: Vec::new(),
        };
        for r in order {
            let (key, text) = match self.refs[r].set {
                RefSet::Dropped => continue,
                RefSet::Group => {
                    let d = *def_of.get(&self.refs[r].number)?;
                    let (from, to) = self.defs[d].set;
                    (set_key(&self.text[from..to]), SetText::Def(d))
                }
                RefSet::Intrinsic(set) => (
                    set_key(format!("{{ {set} }}").as_bytes()),
                    SetText::Intrinsic(set),
                ),
            };
            let next = numbers.new_defs.len() as u32;
            let new = *new_of_set.entry(key).or_insert_with(|| {
                numbers.new_defs.push(text);
                next
            });
            numbers.new_of_ref[r] = Some(new);
        }
        Some(numbers)
    }

    /// The edits: every name renumbered (or dropped, with the ` #` before it), and the
    /// definitions of the sets named, in their new order, where the first definition was (the
    /// others go). None if the text is so already.
    fn edits(&self, numbers: &Numbers) -> Vec<TextEdit> {
        let text = self.text;
        let mut edits = Vec::new();
        for (r, new) in self.refs.iter().zip(&numbers.new_of_ref) {
            match new {
                Some(n) if *n == r.number => {}
                Some(n) => edits.push(TextEdit {
                    start: r.digits.0,
                    end: r.digits.1,
                    text: n.to_string().into_bytes(),
                }),
                None => {
                    let hash = r.digits.0 - 1;
                    let spaced = hash > 0 && text[hash - 1] == b' ';
                    edits.push(TextEdit {
                        start: hash - usize::from(spaced),
                        end: r.digits.1,
                        text: Vec::new(),
                    });
                }
            }
        }
        let mut block = self.definitions(numbers);
        let written: Vec<u8> = self
            .defs
            .iter()
            .flat_map(|d| &text[d.line.0..d.line.1])
            .copied()
            .collect();
        if edits.is_empty() && written == block {
            return Vec::new();
        }
        let first = self.defs.iter().map(|d| d.line.0).min();
        for d in &self.defs {
            let replacement = match Some(d.line.0) == first {
                true => std::mem::take(&mut block),
                false => Vec::new(),
            };
            edits.push(TextEdit {
                start: d.line.0,
                end: d.line.1,
                text: replacement,
            });
        }
        edits.sort_by_key(|e| e.start);
        edits
    }

    /// The definitions of the sets named, in their new order, a line each.
    fn definitions(&self, numbers: &Numbers) -> Vec<u8> {
        let mut block = Vec::new();
        for (n, set) in numbers.new_defs.iter().enumerate() {
            block.extend_from_slice(format!("attributes #{n} = ").as_bytes());
            match *set {
                SetText::Def(d) => {
                    let (from, to) = self.defs[d].set;
                    block.extend_from_slice(&self.text[from..to]);
                }
                SetText::Intrinsic(set) => {
                    block.extend_from_slice(format!("{{ {set} }}").as_bytes());
                }
            }
            block.push(b'\n');
        }
        block
    }
}

/// The `#N` in `line` outside strings: where each `#` is and where its digits end.
fn group_names(line: &[u8]) -> Vec<(usize, usize)> {
    let mut names = Vec::new();
    let mut in_string = false;
    for (i, &b) in line.iter().enumerate() {
        match b {
            // LLVM's strings escape a quote as `\22`: every `"` opens or closes one.
            b'"' => in_string = !in_string,
            b'#' if !in_string && line.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let digits = line[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                names.push((i, i + 1 + digits));
            }
            _ => {}
        }
    }
    names
}

/// For a declaration (`declare ... @name(...)`) of an intrinsic, the function attributes LLVM
/// gives it ([`intrinsic_fn_attributes`]). Its name is the first global the line names: what
/// precedes it (`range(i8 -1, 2)`) names none.
fn declared_intrinsic(line: &[u8]) -> Option<Option<&'static str>> {
    let mut lex = Lexer::new(line);
    loop {
        let t = lex.next();
        match t.kind {
            Tok::GlobalName => {
                let name = strip_name(&line[t.span.range()][1..]);
                return name
                    .starts_with(b"llvm.")
                    .then(|| intrinsic_fn_attributes(&name))
                    .flatten();
            }
            Tok::Eof => return None,
            _ => {}
        }
    }
}

/// Where the `}` closing the `{` that `text` starts with is, outside strings.
fn closing_brace(text: &[u8]) -> Option<usize> {
    let mut in_string = false;
    for (i, &b) in text.iter().enumerate().skip(1) {
        match b {
            b'"' => in_string = !in_string,
            b'}' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

/// A set's text, its blanks outside strings made one space: groups written alike hold the
/// same set.
fn set_key(set: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(set.len());
    let mut in_string = false;
    for &b in set {
        if b == b'"' {
            in_string = !in_string;
        }
        if !in_string && b.is_ascii_whitespace() {
            if key.last() != Some(&b' ') {
                key.push(b' ');
            }
        } else {
            key.push(b);
        }
    }
    key
}

fn decimal(digits: &[u8]) -> Option<u32> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` as LLVM numbers its groups; `None` if it is so already.
    fn llvm_numbered(text: &[u8]) -> Option<Vec<u8>> {
        super::super::edited(text, &edits(text))
    }

    /// The numbers opt-22 prints for this module (`opt-22 -S`, attrs.ll of the session that
    /// wrote this): global variables' sets first, then functions' own, then call sites', one
    /// number for sets alike, the unused dropped.
    #[test]
    fn numbered_as_opt_prints() {
        let text = "\
@v = global i32 0 #5

declare void @ext() #3

define void @f() #1 {
  call void @ext() #2
  call void @g() #4
  ret void
}

define void @g() #0 {
  call void @ext() #2
  ret void
}

define void @h() #6 {
  call void @ext() #7
  ret void
}

attributes #0 = { nounwind }
attributes #1 = { noinline }
attributes #2 = { cold }
attributes #3 = { \"x\"=\"y\" }
attributes #4 = { nounwind }
attributes #5 = { \"bss-section\"=\"b\" }
attributes #6 = { noinline \"a\"=\"b\" }
attributes #7 = { \"z\" }
attributes #8 = { \"unused\" }
";
        let expected = "\
@v = global i32 0 #0

declare void @ext() #1

define void @f() #2 {
  call void @ext() #5
  call void @g() #3
  ret void
}

define void @g() #3 {
  call void @ext() #5
  ret void
}

define void @h() #4 {
  call void @ext() #6
  ret void
}

attributes #0 = { \"bss-section\"=\"b\" }
attributes #1 = { \"x\"=\"y\" }
attributes #2 = { noinline }
attributes #3 = { nounwind }
attributes #4 = { noinline \"a\"=\"b\" }
attributes #5 = { cold }
attributes #6 = { \"z\" }
";
        let out = llvm_numbered(text.as_bytes()).expect("renumbered");
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        // Already as LLVM numbers them: nothing to do.
        assert!(llvm_numbered(expected.as_bytes()).is_none());
    }

    /// A declaration of an intrinsic takes the intrinsic's own set, as LLVM reads it: shared
    /// with a function whose group holds the same, new where none does, dropped where LLVM
    /// gives none; a call site keeps its group.
    #[test]
    fn intrinsics_take_their_own_sets() {
        let text = "\
declare void @llvm.lifetime.start.p0(ptr captures(none)) #0
declare range(i8 -1, 2) i8 @llvm.scmp.i8.i64(i64, i64) #1
declare void @llvm.coro.await.suspend.void(ptr, ptr, ptr) #1
declare void @f() #2

define void @g() {
  call void @llvm.trap() #0
  ret void
}

declare void @llvm.trap() #3

attributes #0 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { mustprogress nounwind }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { cold noreturn nounwind memory(inaccessiblemem: write) }
";
        let expected = "\
declare void @llvm.lifetime.start.p0(ptr captures(none)) #0
declare range(i8 -1, 2) i8 @llvm.scmp.i8.i64(i64, i64) #1
declare void @llvm.coro.await.suspend.void(ptr, ptr, ptr)
declare void @f() #0

define void @g() {
  call void @llvm.trap() #3
  ret void
}

declare void @llvm.trap() #2

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { cold noreturn nounwind memory(inaccessiblemem: write) }
attributes #3 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
";
        let out = llvm_numbered(text.as_bytes()).expect("renumbered");
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    /// A `#` in a string or before a word names no group; a text this does not follow is left.
    #[test]
    fn only_names_outside_strings_count() {
        let text = "\
@s = constant [3 x i8] c\"#1\\00\"
define void @f() #1 {
  #dbg_label(!1, !2)
  call void @g() \"k\"=\"#0\"
  ret void
}
attributes #1 = { \"x\" }
";
        assert_eq!(group_names(b"@s = constant [3 x i8] c\"#1\\00\""), []);
        let out = llvm_numbered(text.as_bytes()).expect("renumbered");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            text.replace("#1", "#0").replace("c\"#0", "c\"#1")
        );
        for refused in [
            "define void @f() #1 {\n  ret void\n}\n",
            "define void @f() #1 {\n  ret void\n}\nattributes #1 = { }\n",
            "define void @f() #1 {\n  ret void\n}\nattributes #1 = { \"x\" }\nattributes #1 = { \"y\" }\n",
            "uselistorder #1\nattributes #1 = { \"x\" }\n",
        ] {
            assert!(llvm_numbered(refused.as_bytes()).is_none(), "{refused}");
        }
    }
}
