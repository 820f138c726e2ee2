//! Function headers, and bodies: stepped over in the first phase, read in the second.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn function(&mut self) -> PResult<()> {
        let kw = self.bump();
        let is_definition = self.text(kw) == b"define";
        // A declaration's attachments come first: `declare !dbg !7 void @f()`.
        let mut metadata = Vec::new();
        while !is_definition && self.tok.kind == Tok::MdName {
            metadata.push(self.attachment()?);
        }
        let mut link = self.linkable()?;
        let cconv = self.calling_convention()?;
        let (ret_attrs, ret_kinds) = self.attributes(AttrPlace::Return)?;
        let ret_at = self.tok.span;
        let ret_ty = self.parse_type_or_void()?;
        // LLVM checks the linkage once the result type is read.
        self.function_linkage_holds(link.linkage, is_definition, link.linkage_span)?;
        self.local_linkage_holds(&link, link.linkage_span)?;
        if matches!(
            self.ty(self.resolve_ty(ret_ty)),
            Type::Label | Type::Metadata | Type::Function { .. }
        ) {
            return Err(self.err_at(ret_at, "invalid function return type"));
        }
        let mut rules = HeaderRules::default();
        let name_at = self.tok.span;
        let name = self.expect_global("a function name")?;
        let func = self.m.functions.next_key();
        let g = self.define_global(name, GlobalKind::Function(func))?;
        if matches!(&self.m.globals[g].name, GlobalName::Named(n) if n.starts_with(b"llvm.")) {
            rules.intrinsic = Some(g);
        }
        if is_definition {
            // The parameters' names are checked here, in the tables of the last header.
            let mut scope = self.spent_scope.take().unwrap_or_default();
            scope.reset(ArenaBase::default());
            self.scope = Some(scope);
        }
        let ParameterList {
            params,
            varargs,
            mut only_intrinsics_take,
        } = self.parameter_list(
            &mut rules,
            ListOf {
                ret_ty,
                name_at,
                is_definition,
            },
        )?;
        let intrinsic = rules.intrinsic.is_some();
        let dropped =
            self.header_rules_hold(rules, (ret_kinds, ret_attrs, ret_ty), ret_at, name_at)?;
        if !intrinsic && only_intrinsics_take.is_none() {
            only_intrinsics_take = match self.ty(ret_ty) {
                t if t.is_token_like() => Some("Function returns a token but isn't an intrinsic"),
                Type::X86Amx => Some("Function returns a x86_amx but isn't an intrinsic"),
                _ => None,
            };
        }
        if let Some(message) = only_intrinsics_take {
            self.rule_broken(name_at, message);
        }
        // The parameter names are checked; the body is read later, on its own.
        if let Some(scope) = self.scope.take() {
            self.spent_scope = Some(scope);
        }
        let fn_ty = self.intern(Type::Function {
            ret: ret_ty,
            params: params.iter().map(|p| p.ty).collect(),
            varargs,
        });
        // LLVM gives a known intrinsic its own attributes only if it takes this type.
        if let (Some((at, message)), GlobalName::Named(name)) = (dropped, &self.m.globals[g].name)
            && intrinsics::signature_holds(&*self, name, fn_ty).is_err()
        {
            self.rule_broken(at, &message);
        }
        self.unnamed_addr(&mut link);
        let addrspace = self.addrspace()?.map(|(_, number)| number);
        let mut f = Function {
            global: g,
            link,
            ret_attrs,
            ret_ty,
            fn_ty,
            params: params.into_boxed_slice(),
            varargs,
            fn_attrs: AttrList::default(),
            metadata: Box::default(),
            header_span: kw.span,
            span: kw.span,
            newlines_after: 0,
            body: None,
            rewritten: false,
            deleted: false,
            extras: None,
        };
        if cconv.is_some() {
            f.extras_mut().cconv = cconv;
        }
        if addrspace.is_some() {
            f.extras_mut().rare_mut().addrspace = addrspace;
        }
        // Function attributes (LLVM also takes `align N` among them), then the optional parts
        // in the order LLVM's grammar fixes.
        let fn_attrs_start = self.m.attrs.len();
        loop {
            if self.is_word(b"align") {
                f.extras_mut().set_align(self.function_alignment()?);
            } else if let Some((a, _)) = self.next_attribute(AttrPlace::Function)? {
                // A call may be marked `builtin`, a function may not (a group may hold it).
                if let AttrKind::Text(span) = a.kind()
                    && self.src[span.range()] == *b"builtin"
                {
                    return Err(self.err_at(span, "'builtin' attribute not valid on function"));
                }
                self.m.attrs.push(a);
            } else {
                break;
            }
        }
        f.fn_attrs = AttrList::since(&self.m.attrs, fn_attrs_start);
        if self.eat_word(b"section") {
            f.extras_mut().rare_mut().section = Some(self.expect(Tok::Str, "a section name")?.span);
        }
        if self.eat_word(b"partition") {
            f.extras_mut().rare_mut().partition =
                Some(self.expect(Tok::Str, "a partition name")?.span);
        }
        if let Some(comdat) = self.comdat_ref(name)? {
            f.extras_mut().comdat = Some(comdat);
        }
        if self.is_word(b"align") {
            f.extras_mut().set_align(self.function_alignment()?);
        }
        if self.eat_word(b"gc") {
            f.extras_mut().rare_mut().gc =
                Some(self.expect(Tok::Str, "a garbage collector name")?.span);
        }
        if let Some(prefix) = self.header_value(b"prefix")? {
            f.extras_mut().rare_mut().prefix = Some(prefix);
        }
        if let Some(prologue) = self.header_value(b"prologue")? {
            f.extras_mut().rare_mut().prologue = Some(prologue);
        }
        if let Some(personality) = self.header_value(b"personality")? {
            f.extras_mut().personality = Some(personality);
        }
        // A definition's attachments come before its body; after a declaration, `!name` is
        // named metadata (`!prof !0` there is an error at `!0`: LLVM wants `=`).
        while is_definition && self.tok.kind == Tok::MdName {
            metadata.push(self.attachment()?);
        }
        f.metadata = metadata.into_boxed_slice();
        f.header_span = kw.span.to(self.prev_end());
        if is_definition {
            let span = self.skim_body()?;
            f.body = Some(BodyInfo {
                span,
                blocks: 0,
                insts: 0,
                reachable_blocks: 0,
                reachable_insts: 0,
                shape: 0,
                llvm_hash: 0,
                passes_distinct_metadata: false,
                leaves_implicit: false,
                first_use: 0,
                use_count: 0,
            });
        }
        f.span = kw.span.to(self.prev_end());
        let after = &self.src[f.span.end as usize..];
        f.newlines_after = after.iter().take_while(|&&b| b == b'\n').count() as u32;
        self.m.functions.push(f);
        Ok(())
    }

    /// A header's parameters, from its `(` to its `)`. C++ headers repeat their lists (a
    /// class's methods, `(ptr noundef nonnull align 8 dereferenceable(16) %this)`): one read
    /// before is found again by its text, with what its reading decided ([`KnownParams`]).
    fn parameter_list(&mut self, rules: &mut HeaderRules, of: ListOf) -> PResult<ParameterList> {
        let (src, start) = (self.src, self.tok.span.start);
        let end = match rules.intrinsic {
            None if self.tok.kind == Tok::LParen => parameter_list_end(src, start as usize),
            _ => None,
        };
        let Some(end) = end else {
            return self.read_parameter_list(rules, of);
        };
        let text = &src[start as usize..end];
        let context = (of.is_definition, of.ret_ty);
        let known = (self.known_params.get(text))
            .and_then(|entries| entries.iter().find(|k| k.context == context));
        if let Some(known) = known {
            let attrs = &mut self.m.attrs;
            let mut params = Vec::with_capacity(known.params.len());
            for p in known.params.iter() {
                let attrs_start = attrs.len();
                attrs.extend(p.attrs.iter().map(|&a| rebased(a, 0, start)));
                params.push(Param::new(
                    p.ty,
                    AttrList::since(attrs, attrs_start),
                    p.name.map(|s| rebased_span(s, 0, start)),
                    start + p.end,
                ));
            }
            (rules.count, rules.sret) = (params.len(), known.sret);
            rules.parameters = known.parameters.clone();
            let list = ParameterList {
                params,
                varargs: known.varargs,
                only_intrinsics_take: known.only_intrinsics_take,
            };
            self.seek(end);
            return Ok(list);
        }
        let broken_before = self.invalid.is_some();
        let list = self.read_parameter_list(rules, of)?;
        // Kept when its reading broke no rule (only the first broken is recorded) and ended
        // where its text was found to.
        if !broken_before && self.invalid.is_none() && self.prev_end().end as usize == end {
            let known = KnownParams {
                context,
                params: (list.params.iter())
                    .map(|p| KnownParam {
                        ty: p.ty,
                        attrs: (self.m.attr_list(p.attrs).iter())
                            .map(|&a| rebased(a, start, 0))
                            .collect(),
                        name: p.name().map(|s| rebased_span(s, start, 0)),
                        end: p.end - start,
                    })
                    .collect(),
                varargs: list.varargs,
                parameters: rules.parameters.clone(),
                sret: rules.sret,
                only_intrinsics_take: list.only_intrinsics_take,
            };
            self.known_params
                .entry(text.into())
                .or_default()
                .push(known);
        }
        Ok(list)
    }

    fn read_parameter_list(
        &mut self,
        rules: &mut HeaderRules,
        of: ListOf,
    ) -> PResult<ParameterList> {
        let ListOf {
            ret_ty,
            name_at,
            is_definition,
        } = of;
        let mut params = Vec::new();
        let mut varargs = false;
        // Only an intrinsic (`llvm.*`) takes or returns a `token` (or a type like it), takes
        // `metadata`, or takes or returns an `x86_amx`: LLVM's verifier checks it after the
        // attributes.
        let mut only_intrinsics_take = None;
        // The number the next unnamed parameter takes: LLVM checks numbered parameters against
        // it in a declaration too, at the parameter's type.
        let mut next_number = 0u32;
        self.expect(Tok::LParen, "'('")?;
        if self.tok.kind != Tok::RParen {
            loop {
                if self.eat(Tok::DotDotDot) {
                    varargs = true;
                    break;
                }
                let at = self.tok.span;
                let ty = self.parse_type()?;
                self.check_argument_type(ty, at)?;
                if rules.intrinsic.is_none() && only_intrinsics_take.is_none() {
                    only_intrinsics_take = match self.ty(ty) {
                        t if t.is_token_like() => {
                            Some("Function takes token but isn't an intrinsic")
                        }
                        Type::Metadata => Some("Function takes metadata but isn't an intrinsic"),
                        Type::X86Amx => Some("Function takes x86_amx but isn't an intrinsic"),
                        _ => None,
                    };
                }
                let (attrs, kinds) = self.attributes(AttrPlace::Parameter)?;
                self.header_parameter(rules, kinds, attrs, ty, ret_ty, name_at);
                let pname = match self.tok.kind {
                    Tok::LocalName | Tok::LocalNum => Some(self.bump()),
                    _ => None,
                };
                if pname.is_none_or(|t| t.kind == Tok::LocalNum) {
                    let n = pname.map_or(next_number, |t| value_number(&self.text(t)[1..]));
                    if n < next_number {
                        let message =
                            format!("argument expected to be numbered '%{next_number}' or greater");
                        return Err(self.err_at(at, message));
                    }
                    next_number = n.saturating_add(1);
                }
                if is_definition {
                    let index = params.len() as u32;
                    self.define_local(pname, LocalDef::Arg(index))?;
                }
                params.push(Param::new(
                    ty,
                    attrs,
                    pname.map(|t| t.span),
                    self.prev_end().end,
                ));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')'")?;
        Ok(ParameterList {
            params,
            varargs,
            only_intrinsics_take,
        })
    }

    /// A header's `prefix`, `prologue` or `personality` (`word`) with its typed value, if
    /// written next.
    fn header_value(&mut self, word: &[u8]) -> PResult<Option<(TypeId, Value)>> {
        if !self.is_word(word) {
            return Ok(None);
        }
        self.bump();
        let ty = self.parse_type()?;
        let v = self.parse_value(ty)?;
        Ok(Some((ty, self.note_direct_use(v))))
    }

    /// The verifier's rules over a header parameter's list (see `verify_attributes`).
    fn header_parameter(
        &mut self,
        rules: &mut HeaderRules,
        kinds: Kinds,
        attrs: AttrList,
        ty: TypeId,
        ret: TypeId,
        name_at: Span,
    ) {
        let index = rules.count;
        rules.count += 1;
        if kinds == Kinds::NONE {
            return;
        }
        rules.sret |= kinds.has(verify_attributes::STRUCT_RET);
        self.header_list_holds(rules, kinds, attrs, false, ty, name_at);
        if !verify_attributes::Parameters::concern(kinds) {
            return;
        }
        let next = rules.parameters.next(verify_attributes::Parameter {
            index,
            fixed: usize::MAX,
            kinds,
            returns_losslessly: &|| {
                verify_attributes::bitcasts_losslessly(ty, ret, &|t| self.body_ty(t))
            },
            intrinsic: rules.intrinsic.is_some(),
            inline_asm: false,
        });
        if let Err(message) = next {
            self.header_rule_broken(rules, name_at, message);
        }
    }

    /// The verifier's rules over a header's result and all its parameters, once they are
    /// read, and the parser's: a function with an `sret` parameter returns `void`.
    /// Returns the first rule broken that LLVM may drop with the attributes (see
    /// `header_rule_broken`), to be asked once the function's type is known.
    fn header_rules_hold(
        &mut self,
        mut rules: HeaderRules,
        (kinds, attrs, ret): (Kinds, AttrList, TypeId),
        ret_at: Span,
        name_at: Span,
    ) -> PResult<Option<(Span, String)>> {
        if rules.sret && !matches!(self.ty(ret), Type::Void) {
            return Err(self.err_at(ret_at, "functions with 'sret' argument must return void"));
        }
        self.header_list_holds(&mut rules, kinds, attrs, true, ret, name_at);
        if let Err(message) = rules.parameters.finish(rules.count) {
            self.header_rule_broken(&mut rules, name_at, message);
        }
        Ok(rules.dropped)
    }

    /// A rule broken by a header's attributes, unless the function is an intrinsic LLVM
    /// knows: LLVM replaces its attributes with its own as it reads the declaration (when it
    /// has the intrinsic's type), so the verifier never sees those written. The first such is
    /// kept in `rules.dropped`. (Asked only then: the table of intrinsics is large, and most
    /// declarations break no rule.)
    fn header_rule_broken(&mut self, rules: &mut HeaderRules, at: Span, message: &str) {
        let replaced = rules
            .intrinsic
            .is_some_and(|g| match &self.m.globals[g].name {
                GlobalName::Named(name) => intrinsics::is_known(name),
                GlobalName::Numbered(_) => false,
            });
        if replaced {
            rules
                .dropped
                .get_or_insert_with(|| (at, message.to_string()));
        } else {
            self.rule_broken(at, message);
        }
    }

    fn header_list_holds(
        &mut self,
        rules: &mut HeaderRules,
        kinds: Kinds,
        attrs: AttrList,
        result: bool,
        ty: TypeId,
        name_at: Span,
    ) {
        let held = self.attribute_list_holds(self.m.attr_list(attrs), kinds, result, ty);
        if let Err(broken) = held {
            self.header_rule_broken(rules, broken.attribute.unwrap_or(name_at), &broken.message);
        }
    }

    fn function_alignment(&mut self) -> PResult<u64> {
        self.expect_word("align")?;
        if self.tok.kind == Tok::LParen {
            let open = self.bump();
            let a = self.expect_alignment(Some(open.span))?;
            self.expect(Tok::RParen, "')'")?;
            return Ok(a);
        }
        self.expect_alignment(None)
    }

    pub(super) fn calling_convention(&mut self) -> PResult<Option<Span>> {
        let t = self.tok;
        if self.is_word(b"cc") {
            self.bump();
            let n = self.expect(Tok::Int, "a calling convention number")?;
            return Ok(Some(t.span.to(n.span)));
        }
        if t.kind == Tok::Word && is_calling_conv(self.text(t)) {
            self.bump();
            if self.tok.kind == Tok::LParen {
                let p = self.skip_parens()?;
                return Ok(Some(t.span.to(p)));
            }
            return Ok(Some(t.span));
        }
        Ok(None)
    }

    /// The linkages LLVM allows a function (`LLParser::parseFunctionHeader`): none but
    /// `external` and `extern_weak` for a declaration, any but `extern_weak` for a definition,
    /// never `appending` or `common`. Reported `at` the linkage.
    fn function_linkage_holds(
        &self,
        linkage: Linkage,
        is_definition: bool,
        at: Span,
    ) -> PResult<()> {
        let message = match linkage {
            Linkage::Appending | Linkage::Common => "invalid function linkage type",
            Linkage::External => return Ok(()),
            Linkage::ExternWeak if is_definition => "invalid linkage for function definition",
            Linkage::ExternWeak => return Ok(()),
            _ if is_definition => return Ok(()),
            _ => "invalid linkage for function declaration",
        };
        Err(self.err_at(at, message))
    }

    /// Step over a function body without reading it, as the lexer would: braces balance, and
    /// strings and comments are skipped. Returns the span from `{` to `}`; a body left open runs
    /// to the end of the input, where reading it will say what is wrong.
    pub(super) fn skim_body(&mut self) -> PResult<Span> {
        if self.tok.kind != Tok::LBrace {
            return Err(self.err("'{' to start the function body"));
        }
        let start = self.tok.span.start as usize;
        let src = self.src;
        // Only a `{` that ends its line, as LLVM prints it: a body written on one line would
        // otherwise run on to the next function's end and have to be read again.
        if self.body_end == BodyEnd::FirstClosingLine
            && matches!(src.get(start + 1), Some(b'\n' | b'\r'))
            && let Some(at) = CLOSING_LINE.find(&src[start..])
        {
            let end = start + at + 2;
            self.seek(end);
            return Ok(Span::new(start, end));
        }
        let mut depth = 0u32;
        let mut i = start;
        let end = loop {
            let Some(at) = next_skim_stop(src, i) else {
                break src.len();
            };
            i = at;
            match src[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break i + 1;
                    }
                }
                b'"' => match search::memchr(b'"', &src[i + 1..]) {
                    Some(close) => i += close + 1,
                    None => break src.len(),
                },
                b'/' if src.get(i + 1) == Some(&b'*') => match c_comment_end(src, i) {
                    Some(end) => i = end - 1,
                    None => break src.len(),
                },
                b'/' => {}
                _ => match search::memchr(b'\n', &src[i..]) {
                    Some(eol) => i += eol,
                    None => break src.len(),
                },
            }
            i += 1;
        };
        self.seek(end);
        Ok(Span::new(start, end))
    }

    /// Read the body of `f`, a definition in `base`, whose top level is read. `replay`: the
    /// body was read before and its uses are the ones `base` recorded then.
    pub(crate) fn read_body(
        src: &'a str,
        base: &'a Module,
        f: FuncId,
        replay: bool,
        scratch: &mut Scratch<'a>,
    ) -> PResult<(Body, Vec<GlobalUse>)> {
        let func = &base.functions[f];
        let mut p = Parser::new(src.as_bytes());
        let Some(info) = &func.body else {
            return Err(p.err_at(func.header_span, "a function body"));
        };
        p.enter_body(
            base,
            f,
            info.span.range(),
            replay.then_some((info.first_use, info.use_count)),
            std::mem::take(&mut scratch.types),
            scratch.scope.take().unwrap_or_default(),
        );
        p.known_lists = std::mem::take(&mut scratch.known_lists);
        let read = p.params_and_body(func);
        // Hand the tables back, whatever happened.
        scratch.scope = p.scope.take().or(p.spent_scope.take());
        scratch.known_lists = std::mem::take(&mut p.known_lists);
        let bm = p.body_mode.take().expect("in a body");
        let read = match bm.undefined.or(p.invalid) {
            Some(e) => read.and(Err(e)),
            None => read,
        };
        scratch.types = bm.types;
        read.map(|body| (body, bm.uses))
    }

    /// Read the blocks of `f`'s body (a definition in `base`) from `from` to `to` (a block's
    /// start, or the body's end when `None`) on their own, as a [`Piece`]. The first piece
    /// starts at the body's `{`. Names defined elsewhere are left unresolved, and numbers
    /// are checked within the piece only: joining the pieces checks the rest.
    pub(crate) fn read_piece(
        src: &'a str,
        base: &'a Module,
        f: FuncId,
        from: usize,
        to: Option<usize>,
    ) -> PResult<Piece<'a>> {
        let func = &base.functions[f];
        let mut p = Parser::new(src.as_bytes());
        let Some(info) = &func.body else {
            return Err(p.err_at(func.header_span, "a function body"));
        };
        let first = from == info.span.start as usize;
        p.enter_body(
            base,
            f,
            from..to.unwrap_or(info.span.end as usize),
            None,
            BodyTypes::default(),
            Box::default(),
        );
        p.scope().numbering_unknown = !first;
        let start = p.tok.span;
        if first {
            p.define_params(func)?;
            p.expect(Tok::LBrace, "'{' to start the function body")?;
        }
        let end = p.blocks_until(to)?;
        let scope = p.scope.take().expect("in a function");
        let bm = p.body_mode.take().expect("in a body");
        if let Some(e) = bm.undefined.or(p.invalid) {
            return Err(e);
        }
        let uses = bm.uses;
        Ok(Piece {
            span: start.to(end),
            uses,
            scope,
        })
    }

    /// Read the `text` of the body of `f` (all of it, or a piece), names resolving in `base`
    /// and what the body adds kept with it (see [`BodyMode`]), in the tables given, emptied.
    fn enter_body(
        &mut self,
        base: &'a Module,
        f: FuncId,
        text: std::ops::Range<usize>,
        replay_from: Option<(u32, u32)>,
        mut types: BodyTypes<'a>,
        mut scope: Box<FnScope<'a>>,
    ) {
        self.seek(text.start);
        types.clear();
        self.body_mode = Some(BodyMode {
            base,
            func: f,
            uses: Vec::new(),
            replay_from,
            first_use: replay_from.map_or(base.uses.len() as u32, |(first, _)| first),
            types,
            undefined: None,
        });
        scope.reset(ArenaBase::of(base));
        scope.reserve_for(text.len());
        self.scope = Some(scope);
    }

    fn params_and_body(&mut self, func: &Function) -> PResult<Body> {
        self.define_params(func)?;
        self.function_body()
    }

    /// The parameters' names, as the header read them.
    fn define_params(&mut self, func: &Function) -> PResult<()> {
        for (index, param) in func.params.iter().enumerate() {
            let name = param
                .name()
                .map(|span| Lexer::starting_at(self.src, span.start as usize).next());
            let l = self.define_local(name, LocalDef::Arg(index as u32))?;
            self.local_defined_as(l, param.ty, param.name().unwrap_or_default())?;
        }
        Ok(())
    }

    fn function_body(&mut self) -> PResult<Body> {
        let open = self.expect(Tok::LBrace, "'{' to start the function body")?;
        let close = self.blocks_until(None)?;
        let mut scope = self.scope.take().expect("in a function");
        let undefined = scope
            .forward
            .iter()
            .find(|&&(l, _)| !scope.is_defined(l))
            .map(|&(_, span)| span);
        let mut body = std::mem::take(&mut scope.body);
        self.spent_scope = Some(scope);
        if let Some(span) = undefined {
            return Err(self.undefined_at(span, "use of undefined value"));
        }
        body.span = open.span.to(close);
        Ok(body)
    }

    /// Read blocks up to the body's `}` (and the use-list orders before it), whose span comes
    /// back; or, with `stop`, up to the block that starts there, which must be the next token.
    fn blocks_until(&mut self, stop: Option<usize>) -> PResult<Span> {
        loop {
            self.block()?;
            let at = self.tok.span.start as usize;
            match stop {
                Some(stop) if at == stop => return Ok(self.prev_end()),
                Some(stop) if at > stop => {
                    return Err(self.err("a block (the piece ends inside this line)"));
                }
                _ => {}
            }
            if self.tok.kind == Tok::RBrace || self.is_word(b"uselistorder") {
                break;
            }
            if self.tok.kind == Tok::Eof {
                return Err(self.err("'}' to end the function body"));
            }
        }
        if stop.is_some() {
            return Err(self.err("a block (the body ends before the piece)"));
        }
        // As in LLVM, a body's use-list orders follow its last block.
        if self.is_word(b"uselistorder") {
            let src = self.src;
            let first = self.tok.span.start as usize;
            let line = first
                - src[..first]
                    .iter()
                    .rev()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count();
            let mut last = self.uselistorder()?;
            while self.is_word(b"uselistorder") {
                last = self.uselistorder()?;
            }
            self.scope().body.use_list_orders = Span::new(line, last.end as usize);
        }
        Ok(self
            .expect(Tok::RBrace, "'}' to end the function body")?
            .span)
    }

    pub(super) fn block(&mut self) -> PResult<()> {
        let start = self.tok.span;
        let label = match self.tok.kind {
            Tok::Label | Tok::LabelNum if self.is_label_read(self.tok) => Some(self.bump()),
            Tok::Label | Tok::LabelNum => return Err(self.err("instruction opcode")),
            _ => None,
        };
        let id = self.scope().body.blocks.next_key();
        let local = self.define_local(label, LocalDef::Block(id))?;
        let label_ty = self.intern(Type::Label);
        let at = label.map_or(self.tok.span, |t| t.span);
        self.local_defined_as(local, label_ty, at)?;
        let first_inst = self.scope().body.insts.len() as u32;
        self.scope().body.blocks.push(Block {
            local,
            first_inst,
            inst_count: 0,
            span: start,
        });
        // A musttail call is no terminator: none is pending from another block, unless that
        // one failed to read.
        self.musttail = None;
        loop {
            if self.tok.kind == Tok::DebugRecord {
                let at = self.tok.span;
                self.scope().body.debug_forms.record.get_or_insert(at);
                let span = self.debug_record()?;
                let before = self.scope().body.insts.next_key();
                self.scope()
                    .body
                    .debug_records
                    .push(DebugRecord { before, span });
                continue;
            }
            let tail = self.musttail.take();
            let insts_before = match tail {
                Some(_) => self.scope().body.insts.len(),
                None => 0,
            };
            let opcode = self.instruction()?;
            if tail.is_some() || self.musttail.is_some() {
                self.after_musttail(tail, insts_before, opcode);
            }
            if opcode.is_terminator() {
                break;
            }
            if matches!(self.tok.kind, Tok::RBrace | Tok::Eof) {
                return Err(self.err("an instruction (a block must end with a terminator)"));
            }
        }
        let end = self.prev_end();
        let scope = self.scope();
        let n = scope.body.insts.len() as u32;
        let (_, b) = scope.body.blocks.last_mut().expect("just pushed");
        b.inst_count = n - first_inst;
        b.span = start.to(end);
        Ok(())
    }
}

impl Parser<'_> {
    /// After an instruction `opcode` read when `tail`, a `musttail` call, was the one before
    /// (its next instruction is checked), or when the instruction is one (its result is the
    /// value its `ret` returns). A call of a debug intrinsic is read as a debug record, no
    /// instruction (`insts_before`, the count before it, tells).
    #[cold]
    fn after_musttail(&mut self, tail: Option<MustTail>, insts_before: usize, opcode: Opcode) {
        let read_one = self.scope().body.insts.len() > insts_before;
        match tail {
            Some(tail) if read_one => self.musttail_followed(tail, opcode),
            Some(tail) => self.musttail = Some(tail),
            None => {
                let result = self.scope().body.insts.last().and_then(|(_, i)| i.result);
                if let Some(tail) = &mut self.musttail {
                    tail.value = result;
                }
            }
        }
    }
}

/// What the verifier's rules over a header's parameters have seen so far.
#[derive(Default)]
struct HeaderRules {
    parameters: verify_attributes::Parameters,
    count: usize,
    sret: bool,
    /// The function, if it is an intrinsic (named `llvm.*`): it may take `immarg` and
    /// `elementtype`, and LLVM may replace its attributes (see `header_rule_broken`).
    intrinsic: Option<GlobalId>,
    /// The first rule its attributes break that LLVM drops with them if it replaces them.
    dropped: Option<(Span, String)>,
}

/// Of which header a parameter list is: its function's result type, where its name is (where
/// a rule the list breaks is reported), and whether it defines the function (its parameters'
/// names are defined then).
#[derive(Clone, Copy)]
struct ListOf {
    ret_ty: TypeId,
    name_at: Span,
    is_definition: bool,
}

/// A header's parameters as read: what [`Function`] keeps of them, and whether one of them is
/// of a type only an intrinsic takes (the verifier's message).
struct ParameterList {
    params: Vec<Param>,
    varargs: bool,
    only_intrinsics_take: Option<&'static str>,
}

/// A header's parameter list as read (`Parser::known_params`), spans from its `(`: what
/// reading it decided, which its text decides, with whether it is a definition's (its names
/// are defined) and its function's result type (`returned` is checked against it). An
/// intrinsic's is never kept: LLVM may replace its attributes.
pub(super) struct KnownParams {
    context: (bool, TypeId),
    params: Box<[KnownParam]>,
    varargs: bool,
    parameters: verify_attributes::Parameters,
    sret: bool,
    only_intrinsics_take: Option<&'static str>,
}

struct KnownParam {
    ty: TypeId,
    attrs: Box<[Attr]>,
    name: Option<Span>,
    end: u32,
}

/// Where the parameter list opening at `open` ends, just past its `)`, when it lies on one
/// line, holding no string and no comment (a name or attribute in quotes, which may hold
/// parentheses, is read as it comes); `None` otherwise.
fn parameter_list_end(src: &[u8], open: usize) -> Option<usize> {
    let end = balanced_parenthesis_end(src, open)?;
    let list = &src[open..end];
    let plain = search::memchr3(b'"', b';', b'/', list).is_none()
        && search::memchr2(b'\n', b'\r', list).is_none();
    plain.then_some(end)
}

/// `span`, found at `from` in one text, at `to` in another.
fn rebased_span(span: Span, from: u32, to: u32) -> Span {
    Span::new(
        (span.start - from + to) as usize,
        (span.end - from + to) as usize,
    )
}

fn rebased(a: Attr, from: u32, to: u32) -> Attr {
    match a.kind() {
        AttrKind::Group(n, s) => AttrKind::Group(n, rebased_span(s, from, to)),
        AttrKind::Typed(s, t) => AttrKind::Typed(rebased_span(s, from, to), t),
        AttrKind::Text(s) => AttrKind::Text(rebased_span(s, from, to)),
    }
    .into()
}
