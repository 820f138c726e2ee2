//! Metadata: named and numbered nodes, specialized nodes (`!DILocation(...)`) and their fields
//! (stepped over in the first phase, read in the second), debug records, metadata operands.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn named_metadata(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect(Tok::Exclaim, "'!'")?;
        self.expect(Tok::LBrace, "'{'")?;
        let mut nodes = Vec::new();
        if self.tok.kind != Tok::RBrace {
            loop {
                // A `DIExpression` may be written in the list (LLVM prints it there); a
                // `DIArgList` names locals, which only a body has.
                let node = match self.tok.kind {
                    Tok::MdName if self.text(self.tok) == b"!DIExpression" => {
                        let (body, span) = self.md_node_body(false)?;
                        self.push_md_node(MdNode {
                            distinct: false,
                            body,
                            span,
                        })
                    }
                    Tok::MdName if self.text(self.tok) == b"!DIArgList" => {
                        let message = "found DIArgList outside of function";
                        return Err(self.err_at(self.tok.span, message));
                    }
                    _ => {
                        let t = self.expect(Tok::MdNum, "a metadata node '!N'")?;
                        self.md_number_ref(t)?
                    }
                };
                nodes.push(node);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let close = self.expect(Tok::RBrace, "'}'")?;
        self.m.named_metadata.push(NamedMd {
            name: name.span,
            nodes,
            span: name.span.to(close.span),
        });
        Ok(())
    }

    pub(super) fn md_number_ref(&mut self, t: Token) -> PResult<MdId> {
        let n = self.md_number(t)?;
        if let Some(bm) = &mut self.body_mode {
            return Ok(match bm.base.md_by_number.get(n) {
                Some(id) => id,
                None => {
                    // Noted, and a node of the body's stands in while reading goes on.
                    if bm.undefined.is_none() {
                        bm.undefined = Some(undefined_metadata(self.src, t.span));
                    }
                    self.push_md_node(MdNode {
                        distinct: false,
                        body: MdBody::Pending,
                        span: t.span,
                    })
                }
            });
        }
        if let Some(id) = self.m.md_by_number.get(n) {
            return Ok(id);
        }
        let id = self.m.metadata.push(MdNode {
            distinct: false,
            body: MdBody::Pending,
            span: t.span,
        });
        self.m.md_by_number.insert(n, id);
        self.md_text_refs.remove(&n);
        Ok(id)
    }

    pub(super) fn metadata_definition(&mut self) -> PResult<()> {
        let t = self.bump();
        let id = self.md_number_ref(t)?;
        self.expect(Tok::Equal, "'='")?;
        let distinct = self.eat_word(b"distinct");
        let (body, span) = self.md_node_body(distinct)?;
        // LLVM reads the node before it finds its number taken.
        if !matches!(self.m.metadata[id].body, MdBody::Pending) {
            return Err(self.err_at(self.tok.span, "Metadata id is already used"));
        }
        self.m.metadata[id] = MdNode {
            distinct,
            body,
            span: t.span.to(span),
        };
        Ok(())
    }

    /// The operands of a tuple (`!{...}`), pushed on [`Parser::md_ops_stack`].
    fn md_tuple_operands(&mut self) -> PResult<()> {
        if self.tok.kind == Tok::RBrace {
            return Ok(());
        }
        loop {
            let op = if self.eat_word(b"null") {
                None
            } else {
                Some(self.md_operand(false)?)
            };
            self.md_ops_stack.push(op);
            if !self.eat(Tok::Comma) {
                return Ok(());
            }
        }
    }

    /// `!{...}` or `!Name(...)`, `distinct` or not; returns the body and the span it covered.
    pub(super) fn md_node_body(&mut self, distinct: bool) -> PResult<(MdBody, Span)> {
        self.nested(|p| p.read_md_node_body(distinct))
    }

    fn read_md_node_body(&mut self, distinct: bool) -> PResult<(MdBody, Span)> {
        let start = self.tok.span;
        match self.tok.kind {
            Tok::Exclaim => {
                self.bump();
                self.expect(Tok::LBrace, "'{'")?;
                // The operands gather on a stack shared by all tuples (one may hold another),
                // and leave it as one exact allocation.
                let from = self.md_ops_stack.len();
                let read = self.md_tuple_operands();
                let ops = self.md_ops_stack.split_off(from);
                read?;
                let close = self.expect(Tok::RBrace, "'}'")?;
                Ok((MdBody::Tuple(ops.into()), start.to(close.span)))
            }
            Tok::MdName => {
                let name = self.bump();
                if self.text(name) == b"!DIArgList" {
                    self.expect(Tok::LParen, "'(' here")?;
                    let mut args = Vec::new();
                    if self.tok.kind != Tok::RParen {
                        loop {
                            let ty = self.parse_type()?;
                            let v = self.metadata_value(ty)?;
                            args.push(MdRef::Value(ty, v));
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    let close = self.expect(Tok::RParen, "')' here")?;
                    return Ok((MdBody::ArgList(args.into()), start.to(close.span)));
                }
                // The fields are read again when needed (`read::md_fields`): debug information
                // has so many that keeping them would cost more memory than the text. They are
                // most of a module with debug information: when guessing, they are read in the
                // second phase, in parallel.
                if self.body_end == BodyEnd::FirstClosingLine
                    && self.tok.kind == Tok::LParen
                    && let Some(end) = skim_md_fields(self.src, self.tok.span.start as usize)
                {
                    self.deferred_fields
                        .push(Span::new(name.span.start as usize, end));
                    self.seek(end);
                    return Ok((
                        MdBody::Specialized(name.span),
                        start.to(Span::empty_at(end as u32)),
                    ));
                }
                let mut fields = std::mem::take(&mut self.md_fields_scratch);
                let read = self.specialized_body(name.span, distinct, &mut fields);
                fields.clear();
                self.md_fields_scratch = fields;
                read?;
                let end = self.prev_end();
                Ok((MdBody::Specialized(name.span), start.to(end)))
            }
            _ => Err(self.err("a metadata node '!{...}' or '!Name(...)'")),
        }
    }

    /// The fields of the specialized node whose name (`!DIxxx`) is at `name` in `src`, which
    /// was read before (so this cannot fail).
    pub(crate) fn specialized_fields(src: &'a str, name: Span) -> Vec<(Span, Span)> {
        let mut p = Parser::new(src.as_bytes());
        p.seek(name.end as usize);
        let mut fields = Vec::new();
        // A throwaway parser: the references it notes go nowhere.
        let distinct = is_after_distinct(src.as_bytes(), name);
        let _ = p.specialized_body(name, distinct, &mut fields);
        fields
    }

    /// Whether the fields the first phase stepped over (see [`Parser::module`]) read, each
    /// ending where it was stepped over to, and name only metadata `base` defines.
    pub(crate) fn deferred_fields_hold(src: &'a str, base: &'a Module, fields: &[Span]) -> bool {
        let mut p = Parser::new(src.as_bytes());
        p.fields_of = Some(base);
        let mut scratch = Vec::new();
        let read = fields.iter().all(|span| {
            // The name holds no `(`: the fields start at the first.
            let node = &src.as_bytes()[span.range()];
            let Some(open) = search::memchr(b'(', node) else {
                return false;
            };
            let start = span.start as usize;
            let name = Span::new(start, start + node[..open].trim_ascii_end().len());
            p.seek(start + open);
            scratch.clear();
            let distinct = is_after_distinct(src.as_bytes(), name);
            p.specialized_body(name, distinct, &mut scratch).is_ok()
                && p.prev_end().start == span.end
        });
        // References are checked against the module, whose nodes are all known now.
        read && p.md_text_refs.is_empty()
    }

    pub(super) fn prev_end(&self) -> Span {
        // The lexer has consumed the current token; the previous token ended before it.
        let mut end = self.tok.span.start as usize;
        while end > 0 && matches!(self.src[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        Span::empty_at(end as u32)
    }

    /// What follows the name (at `name`, `!DIxxx`) of a specialized node of a kind LLVM 22
    /// has, `distinct` or not: its fields, added to `fields` as spans of text (label and
    /// value; an expression's elements have empty labels), read as LLVM 22 reads them.
    fn specialized_body(
        &mut self,
        name: Span,
        distinct: bool,
        fields: &mut Vec<(Span, Span)>,
    ) -> PResult<()> {
        let kind = &self.src[name.range()][1..];
        match kind {
            b"DIExpression" => return self.expression_elements(fields),
            b"DIAssignID" => {
                if !distinct {
                    return Err(self.err_at(name, "missing 'distinct', required for !DIAssignID()"));
                }
                self.expect(Tok::LParen, "'(' here")?;
                self.expect(Tok::RParen, "')' here")?;
                return Ok(());
            }
            b"DICompileUnit" if !distinct => {
                return Err(self.err_at(name, "missing 'distinct', required for !DICompileUnit"));
            }
            _ => {}
        }
        let Some(table) = debug_info::fields(kind) else {
            return Err(self.err_at(name, "expected metadata type"));
        };
        let first = fields.len();
        let after = self.md_fields(table, fields)?;
        let fields = &fields[first..];
        let field = |label: &str| {
            fields.iter().find_map(|&(f, v)| {
                let f = &self.src[f.range()];
                (f.strip_suffix(b":") == Some(label.as_bytes())).then(|| &self.src[v.range()])
            })
        };
        match kind {
            b"DISubprogram" if !distinct => {
                // An explicit `spFlags` wins over `isDefinition`, which is true unless said.
                let definition = match field("spFlags") {
                    Some(flags) => flags.split(|&b| b == b'|').any(|flag| {
                        let flag = flag.trim_ascii();
                        flag == b"DISPFlagDefinition"
                            || unsigned(flag)
                                .is_some_and(|n| n & debug_info::words::DISP_FLAG_DEFINITION != 0)
                    }),
                    None => field("isDefinition") != Some(b"false"),
                };
                if definition {
                    let message =
                        "missing 'distinct', required for !DISubprogram that is a Definition";
                    return Err(self.err_at(name, message));
                }
            }
            b"DICompileUnit" => {
                let language = field("language").is_some();
                let language_name = field("sourceLanguageName").is_some();
                let message = if language && language_name {
                    "can only specify one of 'language' and 'sourceLanguageName' on !DICompileUnit"
                } else if !language && !language_name {
                    "missing one of 'language' or 'sourceLanguageName', required for !DICompileUnit"
                } else if !language_name && field("sourceLanguageVersion").is_some() {
                    "'sourceLanguageVersion' requires an associated 'sourceLanguageName' on \
                     !DICompileUnit"
                } else {
                    return Ok(());
                };
                return Err(self.err_at(name, message));
            }
            b"DIFile" if field("checksumkind").is_some() != field("checksum").is_some() => {
                let message = "'checksumkind' and 'checksum' must be provided together";
                return Err(self.err_at(after, message));
            }
            b"DIEnumerator"
                if field("isUnsigned") == Some(b"true")
                    && field("value").is_some_and(|v| v.starts_with(b"-")) =>
            {
                return Err(self.err_at(after, "unsigned enumerator with negative value"));
            }
            _ => {}
        }
        Ok(())
    }

    /// The `(field: value, ...)` of a specialized node whose kind has the fields of `table`,
    /// added to `fields` as spans of text: each field one of the table's, named once, its value
    /// what the field takes, and every field the kind requires there. Returns the span of the
    /// token after the `)`.
    fn md_fields(
        &mut self,
        table: &[debug_info::Field],
        fields: &mut Vec<(Span, Span)>,
    ) -> PResult<Span> {
        self.expect(Tok::LParen, "'(' here")?;
        let mut seen = 0u64;
        // LLVM prints a kind's fields in the order of its table, which is this one's: the
        // next field is looked for first after the last.
        let mut next = 0;
        if self.tok.kind != Tok::RParen {
            loop {
                let label = self.tok;
                if label.kind != Tok::Label || !self.is_label_read(label) {
                    return Err(self.err("field label here"));
                }
                let text = self.text(label);
                let name = &text[..text.len() - 1];
                let is = |&i: &usize| {
                    let f = table[i].name.as_bytes();
                    f.len() == name.len() && f == name
                };
                let Some(i) = (next..table.len()).chain(0..next).find(is) else {
                    let name = String::from_utf8_lossy(name);
                    return Err(self.err_at(label.span, format!("invalid field '{name}'")));
                };
                if seen & 1 << i != 0 {
                    let name = table[i].name;
                    let message = format!("field '{name}' cannot be specified more than once");
                    return Err(self.err_at(label.span, message));
                }
                seen |= 1 << i;
                next = i + 1;
                self.bump();
                let start = self.tok.span;
                self.field_value(table[i].name, table[i].value)?;
                fields.push((label.span, start.to(self.prev_end())));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let close = self.expect(Tok::RParen, "')' here")?;
        let missing = table
            .iter()
            .enumerate()
            .find(|&(i, f)| f.required && seen & 1 << i == 0);
        if let Some((_, field)) = missing {
            let message = format!("missing required field '{}'", field.name);
            return Err(self.err_at(close.span, message));
        }
        Ok(self.tok.span)
    }

    /// The value of the field `name`, which takes `value`: stepped over once it is checked.
    fn field_value(&mut self, name: &str, value: debug_info::FieldValue) -> PResult<()> {
        use debug_info::FieldValue::*;
        let t = self.tok;
        match value {
            Node { null } => return self.field_node(name, null),
            Str { empty } => {
                let s = self.expect(Tok::Str, "string constant")?;
                if !empty && s.span.range().len() == 2 {
                    return Err(self.err_at(s.span, format!("'{name}' cannot be empty")));
                }
                return Ok(());
            }
            Unsigned(max) => self.field_unsigned(name, max)?,
            UnsignedOrNode(_) | SignedOrNode(..) if !self.is_integer() => {
                return self.field_node(name, !matches!(value, SignedOrNode(_, _, false)));
            }
            UnsignedOrNode(max) => self.field_unsigned(name, max)?,
            Signed(min, max) | SignedOrNode(min, max, _) => self.field_signed(name, min, max)?,
            Integer => {
                if !self.is_integer() {
                    return Err(self.err("integer"));
                }
            }
            Bool => {
                if !(self.is_word(b"true") || self.is_word(b"false")) {
                    return Err(self.err("'true' or 'false'"));
                }
            }
            Word(words) => {
                if self.is_integer() {
                    self.field_unsigned(name, words.max)?;
                } else {
                    let word = if t.kind == Tok::Word {
                        self.text(t)
                    } else {
                        b""
                    };
                    if !words.contains(word) {
                        let what = words.what;
                        return Err(match words.prefix {
                            Some(p) if word.starts_with(p.as_bytes()) => {
                                let word = String::from_utf8_lossy(word);
                                self.err_at(t.span, format!("invalid {what} '{word}'"))
                            }
                            _ => self.err(what),
                        });
                    }
                }
            }
            Flags | SubprogramFlags => return self.field_flags(value == SubprogramFlags),
            NodeList => return self.md_operand_list(),
            Checksum => {
                let word = if t.kind == Tok::Word {
                    self.text(t)
                } else {
                    b""
                };
                if !matches!(word, b"CSK_MD5" | b"CSK_SHA1" | b"CSK_SHA256") {
                    // LLVM quotes the last word its lexer kept: this one if it is a checksum
                    // kind's, else the field's own name.
                    let quoted = if word.starts_with(b"CSK_") {
                        String::from_utf8_lossy(word)
                    } else {
                        name.into()
                    };
                    return Err(self.err_at(t.span, format!("invalid checksum kind '{quoted}'")));
                }
            }
        }
        self.bump();
        Ok(())
    }

    /// Whether the current token is an integer as LLVM's lexer reads one (`u0x..` and
    /// `s0x..` too, `+1` not).
    fn is_integer(&self) -> bool {
        match self.tok.kind {
            Tok::Int => self.text(self.tok)[0] != b'+',
            Tok::HexInt => true,
            _ => false,
        }
    }

    /// The current token as an integer, as LLVM's lexer reads one: whether it is negative,
    /// and its magnitude (`None` past 64 bits).
    pub(super) fn integer(&self) -> Option<(bool, Option<u64>)> {
        let text = self.text(self.tok);
        match self.tok.kind {
            Tok::Int if text[0] != b'+' => match text.strip_prefix(b"-") {
                Some(digits) => Some((true, unsigned(digits))),
                None => Some((false, unsigned(text))),
            },
            Tok::HexInt => {
                let digits = std::str::from_utf8(&text[3..]).ok()?;
                Some((false, u64::from_str_radix(digits, 16).ok()))
            }
            _ => None,
        }
    }

    /// An unsigned integer field up to `max`, the current token (not stepped over).
    #[inline(always)]
    fn field_unsigned(&self, name: &str, max: u64) -> PResult<()> {
        // Most are line and column numbers of a few digits.
        let text = self.text(self.tok);
        if self.tok.kind == Tok::Int
            && text.len() <= 4
            && text[0].is_ascii_digit()
            && u64::from(decimal(text)) <= max
        {
            return Ok(());
        }
        self.field_unsigned_in_full(name, max)
    }

    fn field_unsigned_in_full(&self, name: &str, max: u64) -> PResult<()> {
        match self.integer() {
            Some((false, n)) if self.text(self.tok)[0] != b's' => {
                if n.is_none_or(|n| n > max) {
                    let message = format!("value for '{name}' too large, limit is {max}");
                    return Err(self.err_at(self.tok.span, message));
                }
                Ok(())
            }
            _ => Err(self.err("unsigned integer")),
        }
    }

    /// A signed integer field within `min..=max`, the current token (not stepped over).
    fn field_signed(&self, name: &str, min: i64, max: i64) -> PResult<()> {
        let Some((negative, n)) = self.integer() else {
            return Err(self.err("signed integer"));
        };
        let n = i128::from(n.unwrap_or(u64::MAX)) + i128::from(n.is_none());
        let value = if negative { -n } else { n };
        if value < i128::from(min) {
            let message = format!("value for '{name}' too small, limit is {min}");
            return Err(self.err_at(self.tok.span, message));
        }
        if value > i128::from(max) {
            let message = format!("value for '{name}' too large, limit is {max}");
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(())
    }

    /// `DIFlag*` (or, for a subprogram's `spFlags`, `DISPFlag*`) words and 32-bit numbers,
    /// joined by `|`.
    fn field_flags(&mut self, subprogram: bool) -> PResult<()> {
        let (prefix, list, invalid) = if subprogram {
            (
                &b"DISPFlag"[..],
                debug_info::words::DISP_FLAG,
                "invalid subprogram debug info flag",
            )
        } else {
            (
                &b"DIFlag"[..],
                debug_info::words::DI_FLAG,
                "invalid debug info flag",
            )
        };
        loop {
            let t = self.tok;
            match self.integer() {
                Some((false, n)) if self.text(t)[0] != b's' => {
                    if n.is_none_or(|n| n > u32::MAX.into()) {
                        return Err(self.err_at(t.span, "expected 32-bit integer (too large)"));
                    }
                }
                _ if t.kind == Tok::Word && self.text(t).starts_with(prefix) => {
                    if !is_listed(list, self.text(t)) {
                        let word = String::from_utf8_lossy(self.text(t));
                        return Err(self.err_at(t.span, format!("{invalid} '{word}'")));
                    }
                }
                _ => return Err(self.err("debug info flag")),
            }
            self.bump();
            if !self.eat(Tok::Bar) {
                return Ok(());
            }
        }
    }

    /// A field naming a node, a string or a constant (LLVM's `MDField`), or `null` when
    /// `null` is allowed.
    fn field_node(&mut self, name: &str, null: bool) -> PResult<()> {
        if self.is_word(b"null") {
            if !null {
                return Err(self.err_at(self.tok.span, format!("'{name}' cannot be null")));
            }
            self.bump();
            return Ok(());
        }
        self.md_field_operand(false)
    }

    /// A metadata operand that is kept as text (a node's field, a debug record's): a node
    /// (numbered, a tuple, or specialized: its fields read too), a metadata string, or a typed
    /// value, which may be a local value of the function only with `locals` (a debug record's
    /// location, which may be a `!DIArgList` of them too).
    fn md_field_operand(&mut self, locals: bool) -> PResult<()> {
        let t = self.tok;
        match t.kind {
            Tok::MdName if locals && self.text(t) == b"!DIArgList" => {
                self.bump();
                self.expect(Tok::LParen, "'(' here")?;
                if self.tok.kind != Tok::RParen {
                    loop {
                        let ty = self.parse_type()?;
                        self.metadata_value(ty)?;
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "')' here")?;
            }
            Tok::MdNum => {
                self.note_md_ref(t)?;
                self.bump();
            }
            Tok::MdString => {
                self.bump();
            }
            Tok::MdName => {
                self.bump();
                if self.text(t) == b"!DIArgList" {
                    return Err(self.err_at(t.span, "expected metadata type"));
                }
                let mut nested = Vec::new();
                self.nested(|p| p.specialized_body(t.span, false, &mut nested))?;
            }
            Tok::Exclaim => {
                self.bump();
                self.md_operand_list()?;
            }
            _ => {
                let ty = match self.parse_type() {
                    Ok(ty) => ty,
                    // What cannot start a type cannot start an operand.
                    Err(ReadError::Syntax(d) | ReadError::Undefined(d))
                        if d.offset == t.span.start as usize =>
                    {
                        return Err(self.err_at(t.span, "expected metadata operand"));
                    }
                    Err(e) => return Err(e),
                };
                self.value_as_metadata_holds(ty, t.span)?;
                let at = self.tok.span;
                let v = self.metadata_value(ty)?;
                if !locals && matches!(v.kind(), ValueKind::Local(_)) {
                    return Err(self.err_at(at, "invalid use of function-local name"));
                }
            }
        }
        Ok(())
    }

    /// `{` operands kept as text or `null`, separated by commas `}`: a tuple's after its `!`,
    /// or a generic node's `operands:`.
    fn md_operand_list(&mut self) -> PResult<()> {
        self.nested(Parser::read_md_operand_list)
    }

    fn read_md_operand_list(&mut self) -> PResult<()> {
        self.expect(Tok::LBrace, "'{' here")?;
        if self.tok.kind != Tok::RBrace {
            loop {
                if !self.eat_word(b"null") {
                    self.md_field_operand(false)?;
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBrace, "'}' here")?;
        Ok(())
    }

    /// A debug record (`#dbg_value(...)`, the current token) read as LLVM 22 reads one; its
    /// span.
    pub(super) fn debug_record(&mut self) -> PResult<Span> {
        let t = self.bump();
        let operands: &[bool] = match self.text(t).strip_prefix(b"#dbg_").unwrap_or_default() {
            // Whether each operand before the location is a value (else a node).
            b"value" | b"declare" | b"declare_value" => &[true, false, false],
            b"assign" => &[true, false, false, false, true, false],
            b"label" => &[false],
            _ => {
                let kind = Span::new(t.span.start as usize + 1, t.span.end as usize);
                return Err(self.err_at(kind, "expected debug record type here"));
            }
        };
        self.expect_in_record(Tok::LParen, "'('")?;
        for &value in operands {
            if value {
                self.md_field_operand(true)?;
            } else {
                self.record_node()?;
            }
            self.expect_in_record(Tok::Comma, "','")?;
        }
        self.record_node()?;
        let close = self.expect_in_record(Tok::RParen, "')'")?;
        Ok(t.span.to(close.span))
    }

    /// `kind` in a debug record, where LLVM words what it lacks with a capital ("Expected ','
    /// here").
    #[inline(always)]
    fn expect_in_record(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        match self.tok.kind == kind {
            true => Ok(self.bump()),
            false => Err(self.record_lacks(what)),
        }
    }

    #[cold]
    fn record_lacks(&self, what: &str) -> ReadError {
        self.err_at(self.tok.span, format!("Expected {what} here"))
    }

    /// A node operand of a debug record: numbered, a tuple or specialized.
    fn record_node(&mut self) -> PResult<()> {
        match self.tok.kind {
            Tok::MdNum | Tok::MdName | Tok::Exclaim => self.md_field_operand(false),
            _ => Err(self.err("'!' here")),
        }
    }

    /// A value inside metadata is no metadata itself (LLVM's "roundtrip").
    fn value_as_metadata_holds(&self, ty: TypeId, at: Span) -> PResult<()> {
        match self.ty(ty) {
            Type::Metadata => Err(self.err_at(at, "invalid metadata-value-metadata roundtrip")),
            _ => Ok(()),
        }
    }

    /// The elements of a `!DIExpression(...)`: DWARF operations, attribute encodings and
    /// unsigned numbers, each added to `fields` with an empty label.
    fn expression_elements(&mut self, fields: &mut Vec<(Span, Span)>) -> PResult<()> {
        let open = self.expect(Tok::LParen, "'(' here")?;
        let label = Span::empty_at(open.span.end);
        if self.tok.kind != Tok::RParen {
            loop {
                let t = self.tok;
                let word = if t.kind == Tok::Word {
                    self.text(t)
                } else {
                    b""
                };
                let list = if word.starts_with(b"DW_OP_") {
                    Some((debug_info::words::DW_OP, "invalid DWARF op"))
                } else if word.starts_with(b"DW_ATE_") {
                    Some((
                        debug_info::words::DW_ATE,
                        "invalid DWARF attribute encoding",
                    ))
                } else {
                    None
                };
                match list {
                    Some((list, invalid)) => {
                        if !is_listed(list, word) {
                            let word = String::from_utf8_lossy(word);
                            return Err(self.err_at(t.span, format!("{invalid} '{word}'")));
                        }
                    }
                    None => match self.integer() {
                        Some((false, n)) if self.text(t)[0] != b's' => {
                            if n.is_none() {
                                let message = format!("element too large, limit is {}", u64::MAX);
                                return Err(self.err_at(t.span, message));
                            }
                        }
                        _ => return Err(self.err("unsigned integer")),
                    },
                }
                self.bump();
                fields.push((label, t.span));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' here")?;
        Ok(())
    }

    /// A value operand of metadata (`!{ptr @g}`, `metadata i32 0`): no use of what it names,
    /// as LLVM counts uses.
    fn metadata_value(&mut self, ty: TypeId) -> PResult<Value> {
        self.metadata_values += 1;
        let value = self.parse_value(ty);
        self.metadata_values -= 1;
        value
    }

    /// A metadata operand: a node, a string, or a typed value, which may be a local value of
    /// the function only with `locals` (a call's `metadata i32 %v`, not a node's `!{i32 %v}`).
    pub(super) fn md_operand(&mut self, locals: bool) -> PResult<MdRef> {
        match self.tok.kind {
            Tok::MdNum => {
                let t = self.bump();
                Ok(MdRef::Node(self.md_number_ref(t)?))
            }
            Tok::MdString => Ok(MdRef::Str(self.bump().span)),
            Tok::Exclaim | Tok::MdName => {
                let (body, span) = self.md_node_body(false)?;
                let id = self.push_md_node(MdNode {
                    distinct: false,
                    body,
                    span,
                });
                Ok(MdRef::Node(id))
            }
            _ => {
                let type_at = self.tok.span;
                let ty = self.parse_type()?;
                self.value_as_metadata_holds(ty, type_at)?;
                let at = self.tok.span;
                let v = self.metadata_value(ty)?;
                if !locals && matches!(v.kind(), ValueKind::Local(_)) {
                    return Err(self.err_at(at, "invalid use of function-local name"));
                }
                Ok(MdRef::Value(ty, v))
            }
        }
    }
}
