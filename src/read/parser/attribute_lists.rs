//! Attribute lists and groups: each keyword where LLVM 22 takes it, and the arguments it checks.

use super::*;

/// Attribute lists of parameters and results read once, found again by their text: C++ and
/// Rust repeat a few lists (`noundef nonnull align 8 dereferenceable(16)`) at thousands of
/// headers and call sites. Kept by the thread that reads, from body to body (see
/// [`Scratch`]). Only lists of text attributes are kept, whose reading depends on their text
/// alone (a typed one, `byval(%T)`, names a type of the module or the body).
#[derive(Default)]
pub(crate) struct KnownLists {
    /// By place (parameter, result), then by text (see [`list_text_end`]).
    by_text: [FxHashMap<Box<[u8]>, KnownList>; 2],
    /// What the verifier's rules name of each attribute group met, by number.
    groups: FxHashMap<u32, Kinds>,
    /// The values of the groups' checked string attributes, made at the first call that
    /// writes one.
    string_rules: Option<Box<StringRules>>,
}

/// A list as its first reading left it: each attribute's span, and where the token after
/// the list starts, as offsets from the list's start.
struct KnownList {
    attrs: Box<[(u32, u32)]>,
    end: u32,
    kinds: Kinds,
}

/// How many bytes of text a list is found by at most.
const KNOWN_LIST_TEXT: usize = 256;

/// Where the text that decides how a list of parameter or result attributes starting at
/// `start` reads ends: after the first `%`, `@`, `,` or `)` outside parentheses, whose token
/// is no attribute and so ends any list there (it does not depend on what follows it). `None`
/// if a string, a comment or the line's end comes first, or nothing within
/// [`KNOWN_LIST_TEXT`] bytes.
fn list_text_end(src: &[u8], start: usize) -> Option<usize> {
    let text = src.get(start..)?;
    let text = &text[..text.len().min(KNOWN_LIST_TEXT)];
    let stops = |b: u8| LIST_STOPS[usize::from(b)];
    let mut depth = 0u32;
    let mut i = 0;
    loop {
        // Most bytes are none of these: stepped over four at a time, a table lookup each.
        while let Some(&[a, b, c, d]) = text.get(i..i + 4) {
            if stops(a) | stops(b) | stops(c) | stops(d) {
                break;
            }
            i += 4;
        }
        while !stops(*text.get(i)?) {
            i += 1;
        }
        match text[i] {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b'%' | b'@' | b',' | b')' if depth == 0 => return Some(start + i + 1),
            b'%' | b'@' | b',' => {}
            _ => return None,
        }
        i += 1;
    }
}

/// The bytes [`list_text_end`] stops at.
const LIST_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let stops = *b"()%@,\";\n\r";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

/// Where a list stands and the text it is found by (see [`KnownLists::text_of`]).
#[derive(Clone, Copy)]
struct ListText {
    place: usize,
    start: usize,
    end: usize,
}

impl KnownLists {
    /// The text the list at `tok` in `place` is found by, if such a list is kept: of
    /// parameters or results, starting with a word followed by another (a list of one
    /// attribute, or one before a number, `noundef %x`, `noundef 7`, reads faster than it is
    /// found).
    fn text_of(src: &[u8], tok: Token, place: AttrPlace) -> Option<ListText> {
        let place = match place {
            AttrPlace::Parameter => 0,
            AttrPlace::Return => 1,
            AttrPlace::Function | AttrPlace::Group => return None,
        };
        if tok.kind != Tok::Word {
            return None;
        }
        let next = src[tok.span.end as usize..].iter().find(|&&b| b != b' ');
        if !next.is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let start = tok.span.start as usize;
        let end = list_text_end(src, start)?;
        Some(ListText { place, start, end })
    }

    fn get(&self, src: &[u8], text: ListText) -> Option<&KnownList> {
        self.by_text[text.place].get(&src[text.start..text.end])
    }

    /// Remember `attrs`, the list just read from `text`, the token after it at `after`, if
    /// its reading depends on that text alone.
    fn remember(&mut self, src: &[u8], text: ListText, after: usize, attrs: &[Attr], kinds: Kinds) {
        let start = text.start;
        if after >= text.end {
            return;
        }
        let Some(spans) = attrs
            .iter()
            .map(|a| match a.kind() {
                AttrKind::Text(s) => Some((s.start - start as u32, s.end - start as u32)),
                AttrKind::Group(..) | AttrKind::Typed(..) => None,
            })
            .collect::<Option<Box<[_]>>>()
        else {
            return;
        };
        self.by_text[text.place].insert(
            src[start..text.end].into(),
            KnownList {
                attrs: spans,
                end: (after - start) as u32,
                kinds,
            },
        );
    }
}

impl KnownList {
    /// The list's attributes, at their spans in the text found at `start`.
    fn attrs_at(&self, start: usize) -> impl Iterator<Item = Attr> + '_ {
        self.attrs.iter().map(move |&(from, to)| {
            Attr::from(AttrKind::Text(Span::new(
                start + from as usize,
                start + to as usize,
            )))
        })
    }
}

impl<'a> Parser<'a> {
    pub(super) fn attribute_group(&mut self) -> PResult<()> {
        let keyword = self.bump();
        let t = self.expect(Tok::AttrGroup, "an attribute group '#N'")?;
        let n = value_number(&self.text(t)[1..]);
        self.expect(Tok::Equal, "'='")?;
        self.expect(Tok::LBrace, "'{'")?;
        let start = self.m.attrs.len();
        while self.tok.kind != Tok::RBrace {
            match self.next_attribute(AttrPlace::Group)? {
                Some((a, _)) => self.m.attrs.push(a),
                None => return Err(self.err("an attribute or '}'")),
            }
        }
        self.bump();
        if self.m.attrs.len() == start {
            return Err(self.err_at(keyword.span, "attribute group has no attributes"));
        }
        // A group defined again is its last definition, as LLVM's parser takes it.
        let attrs = AttrList::since(&self.m.attrs, start);
        self.m.attr_groups.insert(n, attrs);
        Ok(())
    }

    /// The next attribute of a list standing in `place`, or `None` where the list ends: at a
    /// token that is no attribute there, as LLVM reads it (a keyword it does not know, such
    /// as `foo`, ends the list, and what follows must then be what the grammar expects).
    pub(super) fn next_attribute(&mut self, place: AttrPlace) -> PResult<Option<(Attr, Kinds)>> {
        let keyword = match self.tok.kind {
            Tok::Str => None,
            Tok::AttrGroup if place == AttrPlace::Function => None,
            Tok::Word => match attributes::keyword(self.text(self.tok)) {
                Some(k) if k.read_in & place.bit() != 0 => Some(k),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let kinds = match keyword {
            Some(k) => k.checks,
            None if self.tok.kind == Tok::Str
                && verify_string_attributes::is_checked(self.text(self.tok)) =>
            {
                verify_attributes::STRING_CHECKED
            }
            None => Kinds::NONE,
        };
        Ok(Some((self.attribute(place, keyword)?, kinds)))
    }

    /// What LLVM 22 checks of an argument otherwise stepped over, the `(` being the current
    /// token: `allockind`'s kinds, and that `range` is of an integer type (one of a name is
    /// let through, which may name one).
    fn check_attribute_argument(&self, keyword: Token) -> PResult<()> {
        if self.tok.kind != Tok::LParen {
            return Ok(());
        }
        let arg = self.peek2();
        match self.text(keyword) {
            b"allockind" => {
                if arg.kind != Tok::Str {
                    return Err(self.err_at(arg.span, "expected allockind value"));
                }
                let text = self.text(arg);
                // Read unescaped, as LLVM reads the string (`\\2C` is a comma).
                let kinds = unescape(&text[1..text.len() - 1]);
                for kind in kinds.split(|&b| b == b',') {
                    let known = matches!(
                        kind,
                        b"alloc" | b"realloc" | b"free" | b"uninitialized" | b"zeroed" | b"aligned"
                    );
                    if !known {
                        let kind = String::from_utf8_lossy(kind);
                        return Err(self.err_at(arg.span, format!("unknown allockind {kind}")));
                    }
                }
            }
            b"allocsize" => {
                self.integers_hold(arg)?;
                // `allocsize(N, M)`: M, if given, names another parameter than N.
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let [size, comma, count] = [lex.next(), lex.next(), lex.next()];
                let number = |t: Token| (t.kind == Tok::Int).then(|| decimal_u32(self.text(t)));
                if comma.kind == Tok::Comma
                    && let (Some(Some(a)), Some(Some(b))) = (number(size), number(count))
                    && a == b
                {
                    let message = "'allocsize' indices can't refer to the same parameter";
                    return Err(self.err_at(count.span, message));
                }
            }
            b"initializes" => self.initializes_holds(arg)?,
            b"dereferenceable" | b"dereferenceable_or_null" => {
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let bytes = lex.next();
                if !self.is_unsigned_int(bytes) {
                    return Err(self.err_at(bytes.span, "expected integer"));
                }
                if unsigned(self.text(bytes)) == Some(0) {
                    let message = "dereferenceable bytes must be non-zero";
                    return Err(self.err_at(bytes.span, message));
                }
                self.closes(lex.next())?;
            }
            b"alignstack" => {
                let mut lex = Lexer::starting_at(self.src, arg.span.start as usize);
                let align = lex.next();
                if !self.is_unsigned_int(align) {
                    return Err(self.err_at(align.span, "expected integer"));
                }
                if !unsigned(self.text(align)).is_some_and(u64::is_power_of_two) {
                    let message = "stack alignment is not a power of two";
                    return Err(self.err_at(align.span, message));
                }
                self.closes(lex.next())?;
            }
            b"vscale_range" => self.integers_hold(arg)?,
            b"uwtable" => {
                if !(arg.kind == Tok::Word && matches!(self.text(arg), b"sync" | b"async")) {
                    return Err(self.err_at(arg.span, "expected unwind table kind"));
                }
                let mut lex = Lexer::starting_at(self.src, arg.span.end as usize);
                self.closes(lex.next())?;
            }
            b"memory" => self.memory_holds(arg)?,
            b"nofpclass" => self.nofpclass_holds(arg)?,
            b"captures" => self.captures_holds(arg)?,
            b"range" => {
                let width = match arg.kind {
                    Tok::Word if is_int_type_word(self.text(arg)) => {
                        Some(decimal(&self.text(arg)[1..]))
                    }
                    Tok::LocalName | Tok::LocalNum => self.named_int_width(arg),
                    _ => None,
                };
                let Some(width) = width else {
                    return Err(self.err_at(arg.span, "the range must have integer type!"));
                };
                self.range_bounds_hold(width, arg)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The width of the integer type the named type `t` stands for where `t` is written: LLVM's
    /// parser knows a type defined further on only as an opaque placeholder there.
    fn named_int_width(&self, t: Token) -> Option<u32> {
        let m = self.body_mode.as_ref().map_or(&self.m, |bm| bm.base);
        let text = self.text(t);
        let key: Cow<[u8]> = match t.kind == Tok::LocalNum || text.get(1) != Some(&b'"') {
            true => text.into(),
            false => [&b"%"[..], &strip_name(&text[1..])].concat().into(),
        };
        let named = &m.types.named[*m.types.named_by_key.get(&*key)?];
        let body = named
            .body
            .flatten()
            .filter(|_| named.defined_at < t.span.start)?;
        match m.types.get(m.types.resolve(body)) {
            Type::Int(width) => Some(*width),
            _ => None,
        }
    }

    /// The bounds of `range(T lo, hi)`, from its type `ty`, an integer type `width` bits wide,
    /// as LLVM's `parseRangeAttr` reads them: two integers, each within its bits (a decimal
    /// one as few bits as its value needs, signed when negative), not equal unless both are
    /// zero.
    fn range_bounds_hold(&self, width: u32, ty: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, ty.span.end as usize);
        let bound = |t: Token| -> PResult<Option<u128>> {
            if !matches!(t.kind, Tok::Int | Tok::HexInt) {
                return Err(self.err_at(t.span, "expected integer"));
            }
            // A hexadecimal bound (`u0x...`) is taken as it stands.
            if t.kind == Tok::HexInt {
                return Ok(None);
            }
            let (bits, value) = match decimal_i128(self.text(t)) {
                Some(v) if v < 0 => (129 - (!v).leading_zeros(), Some(v)),
                Some(v) => ((128 - v.leading_zeros()).max(1), Some(v)),
                // Past 128 bits.
                None => (129, None),
            };
            if bits > width {
                let message = "integer is too large for the bit width of specified type";
                return Err(self.err_at(t.span, message));
            }
            // Its bits, extended to the type's width (sign-extended when negative).
            let mask = u128::MAX >> 128u32.saturating_sub(width);
            Ok(value.map(|v| v as u128 & mask))
        };
        let lower = bound(lex.next())?;
        let comma = lex.next();
        if comma.kind != Tok::Comma {
            return Err(self.err_at(comma.span, "expected ','"));
        }
        let upper = bound(lex.next())?;
        let close = lex.next();
        if lower.is_some_and(|l| l != 0 && Some(l) == upper) {
            let message = "the range represent the empty set but limits aren't 0!";
            return Err(self.err_at(close.span, message));
        }
        self.closes(close)
    }

    fn is_unsigned_int(&self, t: Token) -> bool {
        t.kind == Tok::Int && self.text(t)[0].is_ascii_digit()
    }

    /// LLVM's "expected ')'" unless `t` is one.
    pub(super) fn closes(&self, t: Token) -> PResult<()> {
        match t.kind {
            Tok::RParen => Ok(()),
            _ => Err(self.err_at(t.span, "expected ')'")),
        }
    }

    /// `(N)` or `(N, M)` of unsigned 32-bit integers, from the first (`allocsize`,
    /// `vscale_range`).
    fn integers_hold(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        for _ in 0..2 {
            if !self.is_unsigned_int(t) {
                return Err(self.err_at(t.span, "expected integer"));
            }
            if decimal_u32(self.text(t)).is_none() {
                return Err(self.err_at(t.span, "expected 32-bit integer (too large)"));
            }
            t = lex.next();
            if t.kind != Tok::Comma {
                break;
            }
            t = lex.next();
        }
        self.closes(t)
    }

    /// `memory(...)` from the token after `(`: a default access kind first, then locations
    /// with theirs (`argmem: read`), as LLVM 22 reads it.
    fn memory_holds(&self, first: Token) -> PResult<()> {
        const LOCATIONS: [&[u8]; 5] = [
            b"argmem",
            b"inaccessiblemem",
            b"errnomem",
            b"target_mem0",
            b"target_mem1",
        ];
        let is_kind = |t: Token| {
            t.kind == Tok::Word
                && matches!(self.text(t), b"none" | b"read" | b"write" | b"readwrite")
        };
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        let mut seen_location = false;
        loop {
            // The lexer reads `argmem:` as a label.
            let text = self.text(t);
            let location = match t.kind {
                Tok::Label => LOCATIONS.contains(&&text[..text.len() - 1]),
                Tok::Word if LOCATIONS.contains(&text) => {
                    return Err(self.err_at(lex.next().span, "expected ':' after location"));
                }
                _ => false,
            };
            if location {
                t = lex.next();
            }
            if !is_kind(t) {
                return Err(self.err_at(t.span, match location {
                    true => "expected access kind (none, read, write, readwrite)",
                    false => {
                        "expected memory location (argmem, inaccessiblemem, errnomem) or access \
                         kind (none, read, write, readwrite)"
                    }
                }));
            }
            t = lex.next();
            if !location && seen_location {
                return Err(self.err_at(t.span, "default access kind must be specified first"));
            }
            seen_location |= location;
            match t.kind {
                Tok::RParen => return Ok(()),
                Tok::Comma => t = lex.next(),
                _ => return Err(self.err_at(t.span, "unterminated memory attribute")),
            }
        }
    }

    /// `nofpclass(...)` from the token after `(`: class words, or one mask.
    fn nofpclass_holds(&self, first: Token) -> PResult<()> {
        const CLASSES: [&[u8]; 16] = [
            b"all", b"nan", b"snan", b"qnan", b"inf", b"ninf", b"pinf", b"norm", b"nnorm",
            b"pnorm", b"sub", b"nsub", b"psub", b"zero", b"nzero", b"pzero",
        ];
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let mut t = lex.next();
        if self.is_unsigned_int(t) {
            let mask = unsigned(self.text(t));
            let after = lex.next();
            if !mask.is_some_and(|m| m != 0 && m < 1 << 10) {
                return Err(self.err_at(after.span, "invalid mask value for 'nofpclass'"));
            }
            return self.closes(after);
        }
        loop {
            if !(t.kind == Tok::Word && CLASSES.contains(&self.text(t))) {
                return Err(self.err_at(t.span, "expected nofpclass test mask"));
            }
            t = lex.next();
            if t.kind == Tok::RParen {
                return Ok(());
            }
        }
    }

    /// `captures(...)` from the token after `(`: components, those of the returned value
    /// after `ret:`.
    fn captures_holds(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.end as usize);
        let mut t = first;
        let mut seen_ret = false;
        let mut components = 0;
        let mut none = false;
        loop {
            if t.kind == Tok::Label && self.text(t) == b"ret:" {
                t = lex.next();
                if seen_ret {
                    return Err(self.err_at(t.span, "duplicate 'ret' location"));
                }
                seen_ret = true;
                (components, none) = (0, false);
            } else if t.kind == Tok::Word && self.text(t) == b"ret" {
                return Err(self.err_at(lex.next().span, "expected ':'"));
            }
            let component = t.kind == Tok::Word
                && matches!(
                    self.text(t),
                    b"none" | b"address" | b"address_is_null" | b"provenance" | b"read_provenance"
                );
            if !component {
                let message = "expected one of 'none', 'address', 'address_is_null', \
                               'provenance' or 'read_provenance'";
                return Err(self.err_at(t.span, message));
            }
            components += 1;
            none |= self.text(t) == b"none";
            if components > 1 && none {
                return Err(self.err_at(t.span, "cannot use 'none' with other component"));
            }
            t = lex.next();
            match t.kind {
                Tok::RParen => return Ok(()),
                Tok::Comma => t = lex.next(),
                _ => return Err(self.err_at(t.span, "expected ',' or ')'")),
            }
        }
    }

    /// `initializes((L, U), ...)`, from its first range's `(`: ranges of two integers, each
    /// neither empty nor full (refused at its `)`), then all of them ascending (L < U) and
    /// apart (each U below the next L; refused after the list), as LLVM checks them.
    fn initializes_holds(&self, first: Token) -> PResult<()> {
        let mut lex = Lexer::starting_at(self.src, first.span.start as usize);
        let expect = |t: Token, kind: Tok, what: &str| match t.kind == kind {
            true => Ok(t),
            false => Err(self.err_at(t.span, format!("expected {what}"))),
        };
        let number = |t: Token| {
            let text = std::str::from_utf8(self.text(t)).ok();
            match text.filter(|_| t.kind == Tok::Int).map(str::parse::<i64>) {
                Some(Ok(n)) => Ok(n),
                _ => Err(self.err_at(t.span, "expected integer")),
            }
        };
        let (mut ordered, mut previous_upper) = (true, None);
        loop {
            expect(lex.next(), Tok::LParen, "'('")?;
            let lower = number(lex.next())?;
            expect(lex.next(), Tok::Comma, "','")?;
            let upper = number(lex.next())?;
            let close = lex.next();
            if lower == upper {
                let message = "the range should not represent the full or empty set!";
                return Err(self.err_at(close.span, message));
            }
            expect(close, Tok::RParen, "')'")?;
            ordered &= lower < upper && previous_upper.is_none_or(|u| u < lower);
            previous_upper = Some(upper);
            let after = lex.next();
            match after.kind {
                Tok::Comma => continue,
                Tok::RParen if !ordered => {
                    let message = "Invalid (unordered or overlapping) range list";
                    return Err(self.err_at(lex.next().span, message));
                }
                _ => return expect(after, Tok::RParen, "')'").map(|_| ()),
            }
        }
    }

    /// The attribute that starts at the current token: a group, a string, or `keyword` with
    /// its argument, which must then apply where it stands (LLVM checks in that order).
    pub(super) fn attribute(
        &mut self,
        place: AttrPlace,
        keyword: Option<&attributes::Keyword>,
    ) -> PResult<Attr> {
        let t = self.bump();
        let Some(k) = keyword else {
            if t.kind == Tok::AttrGroup {
                // A group never defined is no error: LLVM reads it as no attributes.
                let n = value_number(&self.text(t)[1..]);
                return Ok(AttrKind::Group(n, t.span).into());
            }
            let mut end = t.span;
            if self.eat(Tok::Equal) {
                end = self.expect(Tok::Str, "a string attribute value")?.span;
            }
            return Ok(AttrKind::Text(t.span.to(end)).into());
        };
        let attr = match k.argument {
            Argument::None => AttrKind::Text(t.span),
            Argument::Type => {
                self.expect(Tok::LParen, "'('")?;
                let ty = self.parse_type()?;
                self.expect(Tok::RParen, "')'")?;
                AttrKind::Typed(t.span, ty)
            }
            Argument::Align | Argument::AlignStack if place == AttrPlace::Group => {
                self.expect(Tok::Equal, "'=' here")?;
                let v = self.expect(Tok::Int, "an integer")?;
                AttrKind::Text(t.span.to(v.span))
            }
            Argument::Align if self.tok.kind == Tok::LParen => {
                let open = self.bump();
                self.expect_alignment(Some(open.span))?;
                let close = self.expect(Tok::RParen, "')'")?;
                AttrKind::Text(t.span.to(close.span))
            }
            Argument::Align => {
                let n = self.tok.span;
                self.expect_alignment(None)?;
                AttrKind::Text(t.span.to(n))
            }
            Argument::OptionalParens if self.tok.kind != Tok::LParen => AttrKind::Text(t.span),
            Argument::AlignStack | Argument::Parens | Argument::OptionalParens => {
                self.check_attribute_argument(t)?;
                AttrKind::Text(t.span.to(self.skip_parens()?))
            }
        };
        if k.applies & place.bit() == 0 {
            let what = match place {
                AttrPlace::Function | AttrPlace::Group => "functions",
                AttrPlace::Parameter => "parameters",
                AttrPlace::Return => "return values",
            };
            return Err(self.err_at(t.span, format!("this attribute does not apply to {what}")));
        }
        Ok(attr.into())
    }

    /// The attributes of a list standing in `place`, onto the module's arena of them, and
    /// what the verifier's rules name of them.
    pub(super) fn attributes(&mut self, place: AttrPlace) -> PResult<(AttrList, Kinds)> {
        let start = self.m.attrs.len();
        let text = KnownLists::text_of(self.src, self.tok, place);
        if let Some(text) = text
            && let Some(known) = self.known_lists.get(self.src, text)
        {
            self.m.attrs.extend(known.attrs_at(text.start));
            let (after, kinds) = (text.start + known.end as usize, known.kinds);
            self.seek(after);
            return Ok((AttrList::since(&self.m.attrs, start), kinds));
        }
        let mut kinds = Kinds::NONE;
        while let Some((a, k)) = self.next_attribute(place)? {
            self.m.attrs.push(a);
            kinds = kinds.with(k);
        }
        if let Some(text) = text {
            let after = self.tok.span.start as usize;
            (self.known_lists).remember(self.src, text, after, &self.m.attrs[start..], kinds);
        }
        Ok((AttrList::since(&self.m.attrs, start), kinds))
    }

    /// Read the attributes of a list standing in `place`, keeping none (where LLVM reads and
    /// ignores them, or refuses them once read). Whether there were any.
    pub(super) fn step_over_attributes(&mut self, place: AttrPlace) -> PResult<bool> {
        let mut any = false;
        while self.next_attribute(place)?.is_some() {
            any = true;
        }
        Ok(any)
    }

    /// Attributes of an instruction standing in `place` (none at all without one), as an
    /// item: kept in the body's one arena of attributes (call sites have many lists, mostly
    /// short). What the verifier's rules name of them, and where they are in the arena.
    pub(super) fn item_attributes(
        &mut self,
        place: Option<AttrPlace>,
    ) -> PResult<(Kinds, Range<usize>)> {
        let start = self.scope().body.attrs.len();
        let kinds = match place {
            Some(place) => self.read_item_attributes(place, start)?,
            None => Kinds::NONE,
        };
        let body = &mut self.scope().body;
        let end = body.attrs.len();
        let i = if start == end {
            Body::NO_ATTRS
        } else {
            body.attr_lists.push((start as u32, end as u32));
            body.attr_lists.len() as u32 - 1
        };
        body.items.push(Item::Attrs(i));
        Ok((kinds, start..end))
    }

    /// The attributes of an instruction's list in `place`, onto the body's arena from
    /// `start` (found by their text when they were read before: [`KnownLists`]).
    fn read_item_attributes(&mut self, place: AttrPlace, start: usize) -> PResult<Kinds> {
        let text = KnownLists::text_of(self.src, self.tok, place);
        let scope = self
            .scope
            .as_mut()
            .expect("an instruction is read inside a function");
        if let Some(text) = text
            && let Some(known) = self.known_lists.get(self.src, text)
        {
            scope.body.attrs.extend(known.attrs_at(text.start));
            let (after, kinds) = (text.start + known.end as usize, known.kinds);
            self.seek(after);
            return Ok(kinds);
        }
        let mut kinds = Kinds::NONE;
        while let Some((a, k)) = self.next_attribute(place)? {
            kinds = kinds.with(match a.kind() {
                AttrKind::Group(n, _) => self.group_kinds(n),
                _ => k,
            });
            self.scope().body.attrs.push(a);
        }
        if let (Some(text), Some(scope)) = (text, &self.scope) {
            let after = self.tok.span.start as usize;
            let attrs = &scope.body.attrs[start..];
            (self.known_lists).remember(self.src, text, after, attrs, kinds);
        }
        Ok(kinds)
    }

    /// The values of the checked string attributes of the module's groups, made once per
    /// thread: taken to be read beside the parser, then given back ([`Self::keep_string_rules`]).
    pub(super) fn take_string_rules(&mut self) -> Box<StringRules> {
        let module = self.body_mode.as_ref().map_or(&self.m, |bm| bm.base);
        let rules = self.known_lists.string_rules.take();
        rules.unwrap_or_else(|| Box::new(StringRules::new(module)))
    }

    pub(super) fn keep_string_rules(&mut self, rules: Box<StringRules>) {
        self.known_lists.string_rules = Some(rules);
    }

    /// What the verifier's rules name of attribute group `n` (none if it is not defined, as
    /// LLVM reads it), found once per thread.
    fn group_kinds(&mut self, n: u32) -> Kinds {
        if let Some(&kinds) = self.known_lists.groups.get(&n) {
            return kinds;
        }
        let kinds = verify_attributes::group_kinds(self.names_module(), n);
        self.known_lists.groups.insert(n, kinds);
        kinds
    }
}
