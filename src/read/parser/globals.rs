//! Linkage and its companions (preemption, visibility, DLL storage, `unnamed_addr`), global
//! variables, aliases and ifuncs.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn linkable(&mut self) -> PResult<Linkable> {
        let start = self.tok.span.start;
        let mut link = Linkable {
            linkage: Linkage::External,
            linkage_span: Span::empty_at(start),
            dso_local_at: Span::default(),
            visibility: Visibility::Default,
            dll_storage_at: Span::default(),
            prefix_span: Span::empty_at(start),
            unnamed_addr: UnnamedAddr::None,
            unnamed_addr_span: Span::empty_at(start),
        };
        if let Some(l) = Linkage::from_keyword(self.word()) {
            link.linkage = l;
            link.linkage_span = self.bump().span;
        }
        if matches!(self.word(), b"dso_local" | b"dso_preemptable") {
            link.dso_local_at = self.bump().span;
        }
        let vis = match self.word() {
            b"default" => Some(Visibility::Default),
            b"hidden" => Some(Visibility::Hidden),
            b"protected" => Some(Visibility::Protected),
            _ => None,
        };
        if let Some(v) = vis {
            link.visibility = v;
            self.bump();
        }
        if matches!(self.word(), b"dllimport" | b"dllexport") {
            let dll = self.bump().span;
            link.dll_storage_at = dll;
            // An imported symbol is another module's: it cannot be local to this one.
            let dso_local = link
                .dso_local()
                .is_some_and(|s| self.src[s.range()] == *b"dso_local");
            if dso_local && self.src[dll.range()] == *b"dllimport" {
                let message = "dso_location and DLL-StorageClass mismatch";
                return Err(self.err_at(self.tok.span, message));
            }
        }
        link.prefix_span = Span::new(start as usize, self.tok.span.start as usize);
        Ok(link)
    }

    /// What LLVM asks of a symbol of local linkage (`private`, `internal`), reported `at`.
    pub(super) fn local_linkage_holds(&self, link: &Linkable, at: Span) -> PResult<()> {
        if !link.linkage.is_local() {
            Ok(())
        } else if link.visibility != Visibility::Default {
            Err(self.err_at(at, "symbol with local linkage must have default visibility"))
        } else if link.dll_storage().is_some() {
            Err(self.err_at(
                at,
                "symbol with local linkage cannot have a DLL storage class",
            ))
        } else {
            Ok(())
        }
    }

    pub(super) fn unnamed_addr(&mut self, link: &mut Linkable) {
        link.unnamed_addr_span = Span::empty_at(self.tok.span.start);
        let ua = match self.word() {
            b"unnamed_addr" => UnnamedAddr::Global,
            b"local_unnamed_addr" => UnnamedAddr::Local,
            _ => return,
        };
        link.unnamed_addr = ua;
        link.unnamed_addr_span = self.bump().span;
    }

    /// `addrspace(N)`, if present: its text and the number it stands for.
    pub(super) fn addrspace(&mut self) -> PResult<Option<(Span, u32)>> {
        if !self.is_word(b"addrspace") {
            return Ok(None);
        }
        let t = self.bump();
        let number = self.addr_space_value()?;
        Ok(Some((t.span.to(self.prev_end()), number)))
    }

    /// `(N)` after `addrspace`: a number below 2^24, or `"A"`, `"G"` or `"P"`, which name
    /// the datalayout's.
    pub(super) fn addr_space_value(&mut self) -> PResult<u32> {
        self.expect(Tok::LParen, "'('")?;
        let a = if self.tok.kind == Tok::Str {
            let t = self.bump();
            let name = unescape(&self.text(t)[1..t.span.range().len() - 1]);
            match self.data_layout().named_addr_space(&name) {
                Some(a) => a,
                None => {
                    let name = String::from_utf8_lossy(&name);
                    let message = format!("invalid symbolic addrspace '{name}'");
                    return Err(self.err_at(t.span, message));
                }
            }
        } else {
            let at = self.tok.span;
            let a = self.expect_u32("an address space")?;
            if a >= 1 << 24 {
                let message = "invalid address space, must be a 24-bit integer";
                return Err(self.err_at(at, message));
            }
            a
        };
        self.expect(Tok::RParen, "')'")?;
        Ok(a)
    }

    /// The module's datalayout, read before the bodies.
    /// See [`Module::labels_end`].
    pub(super) fn labels_end(&self) -> u32 {
        match (&self.body_mode, self.fields_of) {
            (Some(bm), _) => bm.base.labels_end,
            (None, Some(base)) => base.labels_end,
            (None, None) => self.m.labels_end,
        }
    }

    /// Whether `t` is a label LLVM reads as one: quoted, or before [`Module::labels_end`].
    pub(super) fn is_label_read(&self, t: Token) -> bool {
        t.span.start < self.labels_end() || self.src[t.span.start as usize] == b'"'
    }

    pub(super) fn data_layout(&self) -> &DataLayout {
        &self.top().data_layout
    }

    /// The module's top level, read before the bodies.
    pub(super) fn top(&self) -> &Module {
        match &self.body_mode {
            Some(bm) => bm.base,
            None => &self.m,
        }
    }

    /// `comdat($c)`, or `comdat` naming the comdat of `global`'s name, if there.
    pub(super) fn comdat_ref(&mut self, global: Token) -> PResult<Option<ComdatRef>> {
        if !self.is_word(b"comdat") {
            return Ok(None);
        }
        let t = self.bump();
        let spaced_from = self.src[..t.span.start as usize]
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t'))
            .map_or(0, |i| i + 1) as u32;
        let (name, span) = if self.tok.kind == Tok::LParen {
            self.bump();
            let name = self.expect(Tok::ComdatName, "a comdat name")?;
            let close = self.expect(Tok::RParen, "')'")?;
            (name.span, t.span.to(close.span))
        } else if global.kind == Tok::GlobalNum {
            return Err(self.err_at(self.tok.span, "comdat cannot be unnamed"));
        } else {
            (global.span, t.span)
        };
        let key = self.global_name_at(name);
        if !self.comdat_defined(&key) {
            // An implicit comdat is reported at the keyword.
            let at = if name == global.span { t.span } else { name };
            self.comdat_refs.entry(key).or_insert(at);
        }
        Ok(Some(ComdatRef {
            span,
            implicit: span == t.span,
            spaced_from,
        }))
    }

    /// Whether the comdat `key` names is defined yet.
    fn comdat_defined(&mut self, key: &[u8]) -> bool {
        let next = self.m.comdats.get(self.next_comdat);
        if next.is_some_and(|c| *self.global_name_at(c.name) == *key) {
            self.next_comdat += 1;
            return true;
        }
        match self.comdats_defined.get(key) {
            Some(&at) => {
                self.next_comdat = at + 1;
                true
            }
            None => false,
        }
    }

    pub(super) fn attachment(&mut self) -> PResult<(Span, MdRef)> {
        let kind = self.expect(Tok::MdName, "a metadata kind '!name'")?;
        let node = match self.tok.kind {
            Tok::MdNum => {
                let t = self.bump();
                MdRef::Node(self.md_number_ref(t)?)
            }
            _ => {
                let (body, span) = self.md_node_body(false)?;
                MdRef::Node(self.push_md_node(MdNode {
                    distinct: false,
                    body,
                    span,
                }))
            }
        };
        Ok((kind.span, node))
    }

    // ---- global variables, aliases, ifuncs ----

    pub(super) fn global_definition(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        let mut link = self.linkable()?;
        let thread_local = self.eat_word(b"thread_local");
        if thread_local && self.eat(Tok::LParen) {
            if !matches!(self.word(), b"localdynamic" | b"initialexec" | b"localexec") {
                return Err(self.err("localdynamic, initialexec or localexec"));
            }
            self.bump();
            self.expect(Tok::RParen, "')' after thread local model")?;
        }
        self.unnamed_addr(&mut link);
        // Once LLVM knows what the global is, it checks the linkage: an alias is never
        // `extern_weak`, `appending` or `common` (`GlobalAlias::isValidLinkage`).
        let is_alias = self.is_word(b"alias");
        if is_alias
            && matches!(
                link.linkage,
                Linkage::ExternWeak | Linkage::Appending | Linkage::Common
            )
        {
            return Err(self.err_at(name.span, "invalid linkage type for alias"));
        }
        self.local_linkage_holds(&link, name.span)?;
        if is_alias || self.is_word(b"ifunc") {
            return self.alias(name, link, thread_local);
        }
        let addrspace = self.addrspace()?.map(|(_, number)| number);
        let externally_initialized = self.eat_word(b"externally_initialized");
        if !matches!(self.word(), b"global" | b"constant") {
            return Err(if addrspace.is_some() || externally_initialized {
                self.err("'global' or 'constant'")
            } else {
                self.err("'global', 'constant', 'alias' or 'ifunc'")
            });
        }
        let is_constant = self.bump_word_is(b"constant");
        let id = self.m.variables.next_key();
        let g = self.define_global(name, GlobalKind::Variable(id))?;
        let at = self.tok.span;
        let ty = self.parse_type()?;
        if !self.is_array_element(ty) {
            return Err(self.err_at(at, "invalid type for global variable"));
        }
        // As in LLVM: a declaration is `external` or `extern_weak` written out; anything else
        // has an initializer.
        let has_init = link.linkage_span.is_empty()
            || !matches!(link.linkage, Linkage::External | Linkage::ExternWeak);
        let init = if has_init {
            let init = self.parse_value(ty)?;
            Some(self.note_direct_use(init))
        } else {
            None
        };
        let mut var = Variable {
            global: g,
            link,
            is_constant,
            thread_local,
            ty,
            addrspace,
            init,
            align: None,
            comdat: None,
            section: None,
            metadata: Vec::new(),
            span: name.span,
        };
        while self.tok.kind == Tok::Comma {
            self.bump();
            match (self.tok.kind, self.word()) {
                (Tok::Word, b"section") => {
                    self.bump();
                    var.section = Some(self.expect(Tok::Str, "a section name")?.span);
                }
                (Tok::Word, b"partition") => {
                    self.bump();
                    self.expect(Tok::Str, "a string")?;
                }
                (Tok::Word, b"code_model") => {
                    self.bump();
                    // LLVM reads the string's value whatever the token is.
                    let text = self.text(self.tok);
                    let model = match self.tok.kind {
                        Tok::Str => unescape(&text[1..text.len() - 1]),
                        _ => Vec::new(),
                    };
                    if !matches!(
                        &model[..],
                        b"tiny" | b"small" | b"kernel" | b"medium" | b"large"
                    ) {
                        return Err(self.err_at(self.tok.span, "expected global code model string"));
                    }
                    self.bump();
                }
                (Tok::Word, b"comdat") => var.comdat = self.comdat_ref(name)?,
                (Tok::Word, b"align") => {
                    self.bump();
                    var.align = Some(self.expect_alignment(None)?);
                }
                (
                    Tok::Word,
                    b"no_sanitize_address"
                    | b"no_sanitize_hwaddress"
                    | b"sanitize_address_dyninit"
                    | b"sanitize_memtag",
                ) => {
                    self.bump();
                }
                (Tok::MdName, _) => var.metadata.push(self.attachment()?),
                _ => return Err(self.err("a global variable property")),
            }
        }
        // Attributes, as a function's: groups, strings (`"key"="value"`) and keywords (`align 4`
        // there is an attribute, not the variable's alignment). A property without its comma
        // is no attribute: as in LLVM, the top level refuses it.
        self.step_over_attributes(AttrPlace::Function)?;
        var.span = name.span.to(self.prev_end());
        self.m.variables.push(var);
        Ok(())
    }

    fn bump_word_is(&mut self, w: &[u8]) -> bool {
        let t = self.bump();
        self.text(t) == w
    }

    pub(super) fn alias(&mut self, name: Token, link: Linkable, thread_local: bool) -> PResult<()> {
        let is_ifunc = self.bump_word_is(b"ifunc");
        let id = self.m.aliases.next_key();
        let g = self.define_global(name, GlobalKind::Alias(id))?;
        let ty = self.parse_type()?;
        self.expect(Tok::Comma, "','")?;
        // LLVM writes an aliasee or resolver that is a cast or a `getelementptr` without its
        // type, which is the expression's.
        let expression = matches!(
            self.word(),
            b"bitcast" | b"getelementptr" | b"addrspacecast" | b"inttoptr"
        );
        let (target, target_ty) = if expression {
            let op = self.bump();
            let opcode = Opcode::from_keyword(self.text(op)).expect("a constant expression");
            let target = self.constant_expression(op, opcode, None)?;
            let ptr = self.ptr_ty(0);
            (target, self.expression_ty(target).unwrap_or(ptr))
        } else {
            let ty = self.parse_type()?;
            let target = self.parse_value(ty)?;
            (self.note_direct_use(target), ty)
        };
        while self.tok.kind == Tok::Comma {
            self.bump();
            if self.eat_word(b"partition") {
                self.expect(Tok::Str, "a partition name")?;
            } else if is_ifunc && self.tok.kind == Tok::MdName {
                let (kind, _) = self.attachment()?;
                // `Verifier::visitGlobalIFunc`'s.
                match &self.src[kind.range()] {
                    b"!dbg" => self.rule_broken(kind, "an ifunc may not have a !dbg attachment"),
                    b"!prof" => self.rule_broken(kind, "an ifunc may not have a !prof attachment"),
                    _ => {}
                }
            } else {
                return Err(self.err_at(self.tok.span, "unknown alias or ifunc property!"));
            }
        }
        let span = name.span.to(self.prev_end());
        self.m.aliases.push(Alias {
            global: g,
            link,
            is_ifunc,
            thread_local,
            ty,
            target,
            target_ty,
            span,
        });
        Ok(())
    }

    /// The type a top-level constant expression gives: a cast's `to` type, the pointer a
    /// `getelementptr` offsets.
    fn expression_ty(&self, v: Value) -> Option<TypeId> {
        let ValueKind::Const(c) = v.kind() else {
            return None;
        };
        let Const::Expr(e) = &self.m.consts[c] else {
            return None;
        };
        let (op, items) = &**e;
        let mut types = items.iter().filter_map(|i| match i {
            Item::Type(t) => Some(*t),
            _ => None,
        });
        match &self.src[op.range()] {
            b"getelementptr" => types.nth(1),
            _ => types.next_back(),
        }
    }
}
