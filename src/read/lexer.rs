//! Tokens of LLVM's textual IR, lexed on demand from a byte slice.
//!
//! The lexer never allocates: a token is a kind and a byte span; its text is read back from the
//! source by the parser. It follows LLVM's `LLLexer` for what counts as a name, a label, a number
//! and a string, so that every input LLVM accepts lexes the same way here.

use crate::model::{Span, search};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Eof,
    /// A bare word: keyword, type name, opcode, attribute (`i32`, `add`, `nounwind`).
    Word,
    /// `name:` or `"name":` — a label definition or a metadata field name.
    Label,
    /// `123:`
    LabelNum,
    /// `%name` / `%"name"`
    LocalName,
    /// `%123`
    LocalNum,
    /// `@name` / `@"name"`
    GlobalName,
    /// `@123`
    GlobalNum,
    /// `!name` (named metadata, attachment kind, specialized node name such as `!DILocation`)
    MdName,
    /// `!123`
    MdNum,
    /// `!"text"`
    MdString,
    /// `!` alone (before `{`)
    Exclaim,
    /// `#123`
    AttrGroup,
    /// `#dbg_value` and the other debug record kinds (or any `#` before a word)
    DebugRecord,
    /// `$name` / `$"name"`
    ComdatName,
    /// `^123`
    SummaryId,
    /// `123`, `-5`
    Int,
    /// `u0x1F` / `s0x1F`
    HexInt,
    /// `1.5`, `-2.0e+10`
    Float,
    /// `0x3FF0000000000000`, `0xK...`, `0xL...`, `0xM...`, `0xH...`, `0xR...`
    HexFloat,
    /// `"text"`
    Str,
    /// `c"text"`
    CStr,
    Equal,
    Comma,
    Star,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Less,
    Greater,
    Bar,
    DotDotDot,
    /// A byte that starts no token; the parser reports it.
    Invalid,
}

impl Tok {
    /// How a token kind is named in an error message ("expected ...").
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Eof => "end of file",
            Tok::Word => "a keyword",
            Tok::Label | Tok::LabelNum => "a label",
            Tok::LocalName | Tok::LocalNum => "a local value",
            Tok::GlobalName | Tok::GlobalNum => "a global value",
            Tok::MdName | Tok::MdNum | Tok::MdString | Tok::Exclaim => "metadata",
            Tok::AttrGroup => "an attribute group",
            Tok::DebugRecord => "a debug record",
            Tok::ComdatName => "a comdat name",
            Tok::SummaryId => "a summary entry",
            Tok::Int | Tok::HexInt => "an integer",
            Tok::Float | Tok::HexFloat => "a floating-point number",
            Tok::Str | Tok::CStr => "a string",
            Tok::Equal => "'='",
            Tok::Comma => "','",
            Tok::Star => "'*'",
            Tok::LSquare => "'['",
            Tok::RSquare => "']'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::Less => "'<'",
            Tok::Greater => "'>'",
            Tok::Bar => "'|'",
            Tok::DotDotDot => "'...'",
            Tok::Invalid => "an invalid character",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub span: Span,
}

#[derive(Clone, Copy)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

/// Character classes, one table lookup per byte (the lexer's inner loops).
const NAME_START: u8 = 1;
const NAME_CHAR: u8 = 2;
const SPACE: u8 = 4;
const DIGIT: u8 = 8;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_') {
            t[b] |= NAME_START | NAME_CHAR;
        }
        if c.is_ascii_digit() {
            t[b] |= NAME_CHAR | DIGIT;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            t[b] |= SPACE;
        }
        b += 1;
    }
    t
};

fn is_name_start(b: u8) -> bool {
    CLASS[b as usize] & NAME_START != 0
}

/// A character of a name (`[-a-zA-Z$._0-9]`).
pub fn is_name_char(b: u8) -> bool {
    CLASS[b as usize] & NAME_CHAR != 0
}

fn is_digit(b: u8) -> bool {
    CLASS[b as usize] & DIGIT != 0
}

/// The end of the run of bytes of class `class` in `src` from `i`. Names are long in C++ and
/// Rust modules (mangled), so four bytes are tested per round.
#[inline(always)]
fn run_end(src: &[u8], mut i: usize, class: u8) -> usize {
    let is = |b: u8| CLASS[b as usize] & class != 0;
    while let Some(&[a, b, c, d]) = src.get(i..i + 4) {
        if !is(a) {
            return i;
        }
        if !is(b) {
            return i + 1;
        }
        if !is(c) {
            return i + 2;
        }
        if !is(d) {
            return i + 3;
        }
        i += 4;
    }
    while i < src.len() && is(src[i]) {
        i += 1;
    }
    i
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Lexer { src, pos: 0 }
    }

    /// A lexer that starts at byte `pos` of `src` (a token boundary).
    pub fn starting_at(src: &'a [u8], pos: usize) -> Self {
        Lexer {
            src,
            pos: pos.min(src.len()),
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// The end of the run of name characters from `i`.
    fn name_end(&self, i: usize) -> usize {
        run_end(self.src, i, NAME_CHAR)
    }

    /// The end of the run of decimal digits from `i`.
    fn digits_end(&self, i: usize) -> usize {
        run_end(self.src, i, DIGIT)
    }

    /// Offset just past a `"..."` string starting at `i` (which holds the opening quote), or
    /// `None` when the string is not closed.
    fn string_end(&self, i: usize) -> Option<usize> {
        // Strings run long in debug information (mangled linkage names).
        search::memchr(b'"', &self.src[i + 1..]).map(|p| i + 1 + p + 1)
    }

    /// Lex the name after a sigil (`%`, `@`, `$`): quoted, numeric or bare.
    #[inline(never)]
    fn sigil_name(&mut self, start: usize, named: Tok, numbered: Tok) -> Token {
        let i = start + 1;
        let b = self.at(i);
        if is_digit(b) {
            // Digits end a number even before a letter: LLVM reads `%12abc` as `%12` `abc`.
            let j = self.digits_end(i);
            return self.tok(numbered, start, j);
        }
        if is_name_start(b) {
            let j = self.name_end(i);
            return self.tok(named, start, j);
        }
        self.quoted_name(start, named)
    }

    #[cold]
    fn quoted_name(&mut self, start: usize, named: Tok) -> Token {
        if self.at(start + 1) == b'"' {
            return match self.string_end(start + 1) {
                // LLVM refuses it (see `is_nul_name`).
                Some(end) if is_nul_name(&self.src[start..end]) => {
                    self.tok(Tok::Invalid, start, end)
                }
                Some(end) => self.tok(named, start, end),
                None => self.tok(Tok::Invalid, start, self.src.len()),
            };
        }
        self.tok(Tok::Invalid, start, start + 1)
    }

    #[inline(always)]
    fn tok(&mut self, kind: Tok, start: usize, end: usize) -> Token {
        self.pos = end;
        Token {
            kind,
            span: Span::new(start, end),
        }
    }

    /// A number: the common decimal integer here, the other forms in [`Lexer::number_rest`].
    #[inline(never)]
    fn number(&mut self, start: usize) -> Token {
        if is_digit(self.at(start)) {
            let j = self.digits_end(start);
            if !is_name_char(self.at(j)) && self.at(j) != b':' {
                return self.tok(Tok::Int, start, j);
            }
        }
        self.number_rest(start)
    }

    #[cold]
    fn number_rest(&mut self, start: usize) -> Token {
        let mut j = start;
        if matches!(self.at(j), b'-' | b'+') {
            j += 1;
        }
        // Hexadecimal floating-point forms: 0x..., 0xK..., 0xL..., 0xM..., 0xH..., 0xR...,
        // never signed (LLVM reads `-0x10` as `-0` and a word).
        if j == start && self.at(j) == b'0' && self.at(j + 1) == b'x' {
            let mut k = j + 2;
            let kind = self.at(k);
            if matches!(kind, b'K' | b'L' | b'M' | b'H' | b'R') {
                k += 1;
            }
            let digits = k;
            while self.at(k).is_ascii_hexdigit() {
                k += 1;
            }
            // LLVM's lexer refuses a half or a bfloat wider than its 16 bits
            // ([`hex_float_too_large`] says so); a double's wider than 64 it reads as 0.
            let significant = self.src[digits..k]
                .iter()
                .skip_while(|&&d| d == b'0')
                .count();
            let too_large = matches!(kind, b'H' | b'R') && significant > 4;
            if k > digits && !too_large {
                return self.tok(Tok::HexFloat, start, k);
            }
            return self.tok(Tok::Invalid, start, k);
        }
        if !self.at(j).is_ascii_digit() {
            return self.tok(Tok::Invalid, start, j.max(start + 1));
        }
        j = self.digits_end(j);
        if self.at(j) == b':' && !matches!(self.at(start), b'-' | b'+') {
            return self.tok(Tok::LabelNum, start, j + 1);
        }
        // A label that starts like a number: `-3:`, `12abc:` (LLVM's string labels).
        if self.at(start) != b'+' && (is_name_char(self.at(j)) || self.at(j) == b':') {
            let end = self.name_end(j);
            if self.at(end) == b':' {
                return self.tok(Tok::Label, start, end + 1);
            }
        }
        if self.at(j) != b'.' {
            return self.tok(Tok::Int, start, j);
        }
        j = self.digits_end(j + 1);
        if matches!(self.at(j), b'e' | b'E') {
            let mut k = j + 1;
            if matches!(self.at(k), b'-' | b'+') {
                k += 1;
            }
            if self.at(k).is_ascii_digit() {
                j = self.digits_end(k);
            }
        }
        self.tok(Tok::Float, start, j)
    }

    /// The start of the next token: whitespace and comments skipped.
    #[inline(always)]
    fn skip_trivia(&self) -> usize {
        let src = self.src;
        let mut i = self.pos;
        while let Some(&b) = src.get(i) {
            if CLASS[b as usize] & SPACE != 0 {
                i += 1;
            } else if b == b';' {
                i = match src[i..].iter().position(|&c| c == b'\n') {
                    Some(eol) => i + eol,
                    None => src.len(),
                };
            } else if b == b'/' && src.get(i + 1) == Some(&b'*') {
                // One left open is the invalid token `next` makes of it.
                match c_comment_end(src, i) {
                    Some(end) => i = end,
                    None => break,
                }
            } else {
                break;
            }
        }
        i
    }

    pub fn next(&mut self) -> Token {
        let start = self.skip_trivia();
        let Some(&b) = self.src.get(start) else {
            self.pos = start;
            return Token {
                kind: Tok::Eof,
                span: Span::new(start, start),
            };
        };
        // The frequent tokens first; the rest out of line, so this stays small.
        match b {
            b'%' => self.sigil_name(start, Tok::LocalName, Tok::LocalNum),
            b'@' => self.sigil_name(start, Tok::GlobalName, Tok::GlobalNum),
            b',' => self.tok(Tok::Comma, start, start + 1),
            b'0'..=b'9' => self.number(start),
            b'=' => self.tok(Tok::Equal, start, start + 1),
            b'(' => self.tok(Tok::LParen, start, start + 1),
            b')' => self.tok(Tok::RParen, start, start + 1),
            b'[' => self.tok(Tok::LSquare, start, start + 1),
            b']' => self.tok(Tok::RSquare, start, start + 1),
            b'{' => self.tok(Tok::LBrace, start, start + 1),
            b'}' => self.tok(Tok::RBrace, start, start + 1),
            b'<' => self.tok(Tok::Less, start, start + 1),
            b'>' => self.tok(Tok::Greater, start, start + 1),
            b'*' => self.tok(Tok::Star, start, start + 1),
            b'|' => self.tok(Tok::Bar, start, start + 1),
            b'a'..=b'b' | b'd'..=b'r' | b't' | b'v'..=b'z' | b'A'..=b'Z' | b'_' => self.word(start),
            _ => self.rare(start, b),
        }
    }

    /// A keyword or a label.
    #[inline(never)]
    fn word(&mut self, start: usize) -> Token {
        let j = self.name_end(start);
        if self.at(j) == b':' {
            return self.tok(Tok::Label, start, j + 1);
        }
        // An integer type ends where its digits do (`i8-83` is `i8` then `-83`), as in LLVM.
        if self.at(start) == b'i' && is_digit(self.at(start + 1)) {
            return self.tok(Tok::Word, start, self.digits_end(start + 1));
        }
        self.tok(Tok::Word, start, j)
    }

    #[inline(never)]
    fn rare(&mut self, start: usize, b: u8) -> Token {
        match b {
            b'$' => {
                // `$name:` is a label, as in LLVM; otherwise a comdat name, whose end is
                // this one when it is bare (C++ comdat names are long: scanned once).
                let end = self.name_end(start);
                if self.at(end) == b':' {
                    return self.tok(Tok::Label, start, end + 1);
                }
                if is_name_start(self.at(start + 1)) {
                    return self.tok(Tok::ComdatName, start, end);
                }
                self.sigil_name(start, Tok::ComdatName, Tok::Invalid)
            }
            b'!' => {
                let c = self.at(start + 1);
                if c == b'"' {
                    return match self.string_end(start + 1) {
                        Some(end) => self.tok(Tok::MdString, start, end),
                        None => self.tok(Tok::Invalid, start, self.src.len()),
                    };
                }
                if c.is_ascii_digit() {
                    let j = self.digits_end(start + 1);
                    return self.tok(Tok::MdNum, start, j);
                }
                // LLVM reads `!` and the number as two tokens: space may part them (`! 16`).
                if CLASS[c as usize] & SPACE != 0 {
                    let at = run_end(self.src, start + 1, SPACE);
                    if is_digit(self.at(at)) {
                        let j = self.digits_end(at);
                        return self.tok(Tok::MdNum, start, j);
                    }
                }
                if is_name_start(c) || c == b'\\' {
                    let mut j = self.name_end(start + 1);
                    while self.at(j) == b'\\' {
                        j = self.name_end(j + 1);
                    }
                    return self.tok(Tok::MdName, start, j);
                }
                self.tok(Tok::Exclaim, start, start + 1)
            }
            b'#' => {
                if self.at(start + 1).is_ascii_digit() {
                    let j = self.digits_end(start + 1);
                    return self.tok(Tok::AttrGroup, start, j);
                }
                // A `#` before a word starts a debug record, whose kind the parser checks.
                if is_name_start(self.at(start + 1)) {
                    let j = self.name_end(start + 1);
                    return self.tok(Tok::DebugRecord, start, j);
                }
                self.tok(Tok::Invalid, start, start + 1)
            }
            b'^' => {
                let j = self.digits_end(start + 1);
                if j == start + 1 {
                    return self.tok(Tok::Invalid, start, start + 1);
                }
                self.tok(Tok::SummaryId, start, j)
            }
            b'"' => match self.string_end(start) {
                Some(end) if self.at(end) == b':' => {
                    let kind = match is_nul_name(&self.src[start..end]) {
                        true => Tok::Invalid,
                        false => Tok::Label,
                    };
                    self.tok(kind, start, end + 1)
                }
                Some(end) => self.tok(Tok::Str, start, end),
                None => self.tok(Tok::Invalid, start, self.src.len()),
            },
            // A C-style comment left open (one closed is trivia), to the end of the text.
            b'/' if self.at(start + 1) == b'*' => self.tok(Tok::Invalid, start, self.src.len()),
            b'.' if self.at(start + 1) == b'.' && self.at(start + 2) == b'.' => {
                self.tok(Tok::DotDotDot, start, start + 3)
            }
            b'+' => self.number_rest(start),
            b'-' if self.at(start + 1).is_ascii_digit() => self.number_rest(start),
            b'c' if self.at(start + 1) == b'"' => match self.string_end(start + 1) {
                Some(end) => self.tok(Tok::CStr, start, end),
                None => self.tok(Tok::Invalid, start, self.src.len()),
            },
            b'u' | b's' if self.at(start + 1) == b'0' && self.at(start + 2) == b'x' => {
                let mut j = start + 3;
                while self.at(j).is_ascii_hexdigit() {
                    j += 1;
                }
                if j == start + 3 {
                    return self.tok(Tok::Invalid, start, j);
                }
                self.tok(Tok::HexInt, start, j)
            }
            _ if is_name_start(b) => self.word(start),
            _ => {
                // One whole UTF-8 character, so the error quotes it intact.
                let len = match b {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF7 => 4,
                    _ => 1,
                };
                self.tok(Tok::Invalid, start, (start + len).min(self.src.len()))
            }
        }
    }
}

/// LLVM's error for an invalid token `text` that is a hexadecimal floating-point literal too
/// wide for its form, if it is one.
pub(crate) fn hex_float_too_large(text: &[u8]) -> Option<&'static str> {
    match text.strip_prefix(b"0x")? {
        [b'H', _, ..] => Some("hexadecimal constant too large for half (16-bit)"),
        [b'R', _, ..] => Some("hexadecimal constant too large for bfloat (16-bit)"),
        _ => None,
    }
}

/// Where the C-style comment opening at `open` (`/*`, which LLVM 22 reads as blank) ends, just
/// past its `*/`; `None` if it is left open. As LLVM's lexer reads it, a `*` takes the byte
/// after it: `/* a **/` is not closed by its `*/`.
pub(crate) fn c_comment_end(src: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 2;
    loop {
        let star = at + src.get(at..).and_then(|rest| search::memchr(b'*', rest))?;
        match src.get(star + 1)? {
            b'/' => return Some(star + 2),
            _ => at = star + 2,
        }
    }
}

/// Decode the `\XX` hex escapes and `\\` of an LLVM string body (without its quotes).
/// Whether `text`, a quoted name (`%"a"`, `@"b"`, `$"c"`, or a label's `"d"`), holds a NUL
/// character, raw or escaped: LLVM refuses such a name.
pub fn is_nul_name(text: &[u8]) -> bool {
    let quoted = text.strip_suffix(b":").unwrap_or(text);
    let quoted = match quoted {
        [b'%' | b'@' | b'$', rest @ ..] => rest,
        _ => quoted,
    };
    match quoted {
        // Most names hold neither: one scan tells.
        [b'"', inner @ .., b'"'] => match search::memchr2(0, b'\\', inner) {
            None => false,
            Some(_) => inner.contains(&0) || unescape(inner).contains(&0),
        },
        _ => false,
    }
}

pub fn unescape(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if b == b'\\' {
            if body.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            if let (Some(h), Some(l)) = (
                body.get(i + 1).and_then(|c| (*c as char).to_digit(16)),
                body.get(i + 2).and_then(|c| (*c as char).to_digit(16)),
            ) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        let mut lx = Lexer::new(src.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lx.next();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push(t.kind);
        }
    }

    #[test]
    fn lexes_sigils_labels_and_numbers() {
        use Tok::*;
        assert_eq!(
            kinds(r#"%x %12 @"a b" @3 !dbg !7 !"s" !{ #0 #dbg_value $c ^2 entry: 4: "q":"#),
            vec![
                LocalName,
                LocalNum,
                GlobalName,
                GlobalNum,
                MdName,
                MdNum,
                MdString,
                Exclaim,
                LBrace,
                AttrGroup,
                DebugRecord,
                ComdatName,
                SummaryId,
                Label,
                LabelNum,
                Label
            ]
        );
        assert_eq!(
            kinds("-12 1.5e+10 0x3FF0 0xK4000 u0xFF c\"ab\\00\" ... ; comment\n i32"),
            vec![
                Int, Float, HexFloat, HexFloat, HexInt, CStr, DotDotDot, Word
            ]
        );
    }

    #[test]
    fn numbers_take_the_fast_path_only_when_plain() {
        use Tok::*;
        assert_eq!(
            kinds("7 12: 3.5 0x1F 4x %5a @77 -8 +9 %x.1 $c -3: 12ab: $N:"),
            vec![
                Int, LabelNum, Float, HexFloat, Int, Word, LocalNum, Word, GlobalNum, Int, Int,
                LocalName, ComdatName, Label, Label, Label
            ]
        );
    }

    #[test]
    fn metadata_names_take_escapes_and_strings_end_at_their_quote() {
        let src = r#"!llvm.a\5Cb\2Ec.d !"x y" "s" !DILocation("#;
        let mut lx = Lexer::new(src.as_bytes());
        let texts: Vec<&str> = std::iter::from_fn(|| {
            let t = lx.next();
            (t.kind != Tok::Eof).then(|| &src[t.span.range()])
        })
        .collect();
        assert_eq!(
            texts,
            [
                r#"!llvm.a\5Cb\2Ec.d"#,
                r#"!"x y""#,
                r#""s""#,
                "!DILocation",
                "("
            ]
        );
    }

    #[test]
    fn unterminated_string_is_invalid() {
        assert_eq!(kinds("\"abc"), vec![Tok::Invalid]);
    }

    #[test]
    fn unescapes_hex_and_backslash() {
        assert_eq!(unescape(br"a\22b\\c\0A"), b"a\"b\\c\n".to_vec());
    }
}
