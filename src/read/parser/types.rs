//! Types: the words, named types, literal aggregates, function types, target extension types
//! and the old typed-pointer spelling.

use super::*;

impl<'a> Parser<'a> {
    /// A type other than `void`, which LLVM takes only as a function's result.
    #[inline]
    pub fn parse_type(&mut self) -> PResult<TypeId> {
        self.parse_type_allowing(false)
    }

    /// A type, `void` included: a function's result.
    #[inline]
    pub(super) fn parse_type_or_void(&mut self) -> PResult<TypeId> {
        self.parse_type_allowing(true)
    }

    fn parse_type_allowing(&mut self, void: bool) -> PResult<TypeId> {
        let t = self.tok;
        let mut ty = match t.kind {
            Tok::Word => {
                let w = self.text(t);
                self.bump();
                // The frequent types first: a match on byte strings tests its arms in turn.
                match w {
                    _ if is_int_type_word(w) => {
                        let bits = decimal(&w[1..]);
                        if !(1..=(1 << 23)).contains(&bits) {
                            return Err(self.err_at(t.span, "integer width out of range"));
                        }
                        self.int_ty(bits)
                    }
                    b"ptr" => {
                        let a = self.opt_addrspace_number()?;
                        if self.tok.kind == Tok::Star {
                            return Err(
                                self.err_at(self.tok.span, "ptr* is invalid - use ptr instead")
                            );
                        }
                        self.ptr_ty(a)
                    }
                    // `void (i32)` is a function type, whatever the place; `void*` is refused
                    // at its `*` (below).
                    b"void"
                        if !void
                            && self.tok.kind != Tok::LParen
                            && self.tok.kind != Tok::Star
                            && !self.is_word(b"addrspace") =>
                    {
                        let message = "void type only allowed for function results";
                        return Err(self.err_at(t.span, message));
                    }
                    b"void" => self.intern(Type::Void),
                    b"half" => self.intern(Type::Float(FloatKind::Half)),
                    b"bfloat" => self.intern(Type::Float(FloatKind::BFloat)),
                    b"float" => self.intern(Type::Float(FloatKind::Float)),
                    b"double" => self.intern(Type::Float(FloatKind::Double)),
                    b"x86_fp80" => self.intern(Type::Float(FloatKind::X86Fp80)),
                    b"fp128" => self.intern(Type::Float(FloatKind::Fp128)),
                    b"ppc_fp128" => self.intern(Type::Float(FloatKind::PpcFp128)),
                    b"x86_amx" => self.intern(Type::X86Amx),
                    b"label" => self.intern(Type::Label),
                    b"metadata" => self.intern(Type::Metadata),
                    b"token" => self.intern(Type::Token),
                    b"target" => self.target_ext_type()?,
                    _ => return Err(self.err_at(t.span, "expected type")),
                }
            }
            Tok::LocalName | Tok::LocalNum => {
                self.bump();
                let n = self.named_type(t)?;
                self.intern(Type::Named(n))
            }
            Tok::LSquare | Tok::Less | Tok::LBrace => self.literal_type()?,
            _ => return Err(self.err("type")),
        };
        // Suffixes: function types and the old typed-pointer spelling.
        loop {
            match self.tok.kind {
                Tok::Star => {
                    self.pointee_holds(ty, "pointers to void are invalid - use i8* instead")?;
                    self.bump();
                    ty = self.intern(Type::Ptr(0));
                }
                Tok::Word if self.is_word(b"addrspace") => {
                    self.pointee_holds(ty, "pointers to void are invalid; use i8* instead")?;
                    // `T addrspace(N)*`: LLVM reads `addrspace` after a type as this alone.
                    let a = self.opt_addrspace_number()?;
                    if self.tok.kind != Tok::Star {
                        return Err(self.err_at(self.tok.span, "expected '*' in address space"));
                    }
                    self.bump();
                    ty = self.intern(Type::Ptr(a));
                }
                Tok::LParen => {
                    if matches!(
                        self.ty(self.resolve_ty(ty)),
                        Type::Label | Type::Metadata | Type::Function { .. }
                    ) {
                        return Err(self.err_at(self.tok.span, "invalid function return type"));
                    }
                    self.bump();
                    ty = self.nested(|p| p.function_type(ty))?;
                }
                _ => return Ok(ty),
            }
        }
    }

    /// In the old typed-pointer spelling, what `ty*` (or `ty addrspace(N)*`) may point to, as
    /// LLVM's parser asks at the suffix: no block, no `void` (its message is `void_message`),
    /// nor what `PointerType::isValidElementType` refuses.
    fn pointee_holds(&self, ty: TypeId, void_message: &str) -> PResult<()> {
        let message = match self.ty(self.resolve_ty(ty)) {
            Type::Label => "basic block pointers are invalid",
            Type::Void => void_message,
            Type::Metadata | Type::Token | Type::X86Amx => "pointer to this type is invalid",
            _ => return Ok(()),
        };
        Err(self.err_at(self.tok.span, message))
    }

    /// A function type's parameters, returning `ret`, after the `(`.
    fn function_type(&mut self, ret: TypeId) -> PResult<TypeId> {
        let mut params = Vec::new();
        let mut varargs = false;
        let mut refused = None;
        if self.tok.kind != Tok::RParen {
            loop {
                if self.eat(Tok::DotDotDot) {
                    varargs = true;
                    break;
                }
                let param = self.tok.span;
                let ty = self.parse_type()?;
                // LLVM reads attributes and a name as in a header, checks each parameter's
                // type, then refuses the first parameter with a name or attributes.
                let attributes = self.step_over_attributes(AttrPlace::Parameter)?;
                let named = matches!(self.tok.kind, Tok::LocalName | Tok::LocalNum);
                if named {
                    self.bump();
                }
                self.check_argument_type(ty, param)?;
                if refused.is_none() {
                    refused = match (named, attributes) {
                        (true, _) => Some((param, "argument name invalid in function type")),
                        (false, true) => {
                            Some((param, "argument attributes invalid in function type"))
                        }
                        (false, false) => None,
                    };
                }
                params.push(ty);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')'")?;
        if let Some((at, message)) = refused {
            return Err(self.err_at(at, message));
        }
        Ok(self.intern(Type::Function {
            ret,
            params,
            varargs,
        }))
    }

    /// A vector, array or struct type. In a body, one whose text has no bracket inside and
    /// stays on its line (`<4 x i32>`, `[8 x i8]`, `{ i32, ptr }`) is read once: it is then
    /// found by its text, which always reads as one type in one body (llvm-stress modules,
    /// full of vectors: 16% fewer instructions to read).
    pub(super) fn literal_type(&mut self) -> PResult<TypeId> {
        let text = self.literal_type_text();
        if let Some(text) = text
            && let Some(&ty) = self
                .body_mode
                .as_ref()
                .and_then(|bm| bm.types.by_text.get(text))
        {
            self.seek(self.tok.span.start as usize + text.len());
            return Ok(ty);
        }
        let ty = self.nested(Parser::read_literal_type)?;
        if let (Some(text), Some(bm)) = (text, &mut self.body_mode) {
            bm.types.by_text.insert(text, ty);
        }
        Ok(ty)
    }

    /// See [`Parser::literal_type`].
    pub(super) fn literal_type_text(&self) -> Option<&'a [u8]> {
        const LONGEST: usize = 48;
        self.body_mode.as_ref()?;
        let close = match self.tok.kind {
            Tok::Less => b'>',
            Tok::LSquare => b']',
            _ => b'}',
        };
        let open = self.tok.span.start as usize;
        let window = &self.src[open + 1..self.src.len().min(open + 1 + LONGEST)];
        let inside = window.iter().position(|&b| !IN_LITERAL_TYPE[b as usize])?;
        (window[inside] == close).then(|| &self.src[open..open + inside + 2])
    }

    /// A vector, array or struct type, read token by token.
    fn read_literal_type(&mut self) -> PResult<TypeId> {
        Ok(match self.tok.kind {
            Tok::LSquare => {
                self.bump();
                let len = self.expect_u64("an array length")?;
                self.expect_word("x")?;
                let at = self.tok.span;
                let elem = self.parse_type()?;
                if !self.is_array_element(elem) {
                    return Err(self.err_at(at, "invalid array element type"));
                }
                self.expect(Tok::RSquare, "']'")?;
                self.intern(Type::Array(len, elem))
            }
            Tok::Less => {
                self.bump();
                if self.tok.kind == Tok::LBrace {
                    let elems = self.struct_body()?;
                    self.expect(Tok::Greater, "'>'")?;
                    self.intern(Type::Struct {
                        packed: true,
                        elems,
                    })
                } else {
                    let scalable = self.eat_word(b"vscale");
                    if scalable {
                        self.expect_word("x")?;
                    }
                    let len_at = self.tok.span;
                    let len = self.expect_u64("a vector length")?;
                    self.expect_word("x")?;
                    let at = self.tok.span;
                    let elem = self.parse_type()?;
                    self.expect(Tok::Greater, "'>'")?;
                    // LLVM keeps a vector's length in an `unsigned`.
                    if len == 0 {
                        return Err(self.err_at(len_at, "zero element vector is illegal"));
                    }
                    if u32::try_from(len).is_err() {
                        return Err(self.err_at(len_at, "size too large for vector"));
                    }
                    // Of target extension types, only one LLVM 22 declares a vector's
                    // element (`CanBeVectorElement`), for its tests.
                    let valid = match self.body_ty(elem) {
                        Type::Int(_) | Type::Float(_) | Type::Ptr(_) | Type::Named(_) => true,
                        Type::TargetExt { name, .. } => &name[..] == b"llvm.test.vectorelement",
                        _ => false,
                    };
                    if !valid || self.is_named_later(elem) {
                        return Err(self.err_at(at, "invalid vector element type"));
                    }
                    self.intern(Type::Vector {
                        scalable,
                        len,
                        elem,
                    })
                }
            }
            // `{`: struct_body expects it.
            _ => {
                let elems = self.struct_body()?;
                self.intern(Type::Struct {
                    packed: false,
                    elems,
                })
            }
        })
    }

    /// What LLVM takes as a struct's element (`void` is refused where it is read).
    pub(super) fn is_struct_element(&self, ty: TypeId) -> bool {
        is_struct_element(self.body_ty(ty))
    }

    /// What LLVM takes as an array's element, and as a global variable's type: a struct's
    /// element, but not `x86_amx`.
    pub(super) fn is_vector_element(&self, ty: TypeId) -> bool {
        matches!(
            self.ty(self.resolve_ty(ty)),
            Type::Int(_) | Type::Float(_) | Type::Ptr(_)
        )
    }

    pub(super) fn is_array_element(&self, ty: TypeId) -> bool {
        let ty = self.body_ty(ty);
        is_struct_element(ty) && !matches!(ty, Type::X86Amx)
    }

    /// Whether LLVM 22 takes `ty` for sized (`Type::isSized`): what a value in memory may
    /// have. A struct that holds a scalable vector is sized only if its elements are all the
    /// same scalable vector type; a target extension type is sized as LLVM's table of them
    /// says ([`Layout`]).
    pub(super) fn is_sized(&self, ty: TypeId) -> bool {
        self.layout(ty, 0).sized
    }

    /// The module's types' layouts are worked out once the top level is read; a body's own
    /// types and the top level's, while it is read, are walked. (A named type that only
    /// bodies name is a body's own type, but its definition is the module's.)
    pub(super) fn layout(&self, ty: TypeId, depth: u32) -> Layout {
        if let Some(bm) = &self.body_mode {
            // A type of the top level's (named ones included), or one of the body's own
            // naming a type of the top level's.
            if let Some(layout) = bm.base.types.layout(ty) {
                return layout;
            }
            if let Some(layout) = bm.base.types.layout(self.resolve_ty(ty)) {
                return match *self.ty(ty) {
                    Type::Named(n) => layout.named(bm.base.types.definitions_from(n)),
                    _ => layout,
                };
            }
        }
        if depth > Layout::NESTING_LIMIT {
            return Layout::DEEP;
        }
        let body = |t: TypeId| self.body_ty(t);
        let layout = Layout::of(body(ty), body, |e| self.layout(e, depth + 1));
        match *self.ty(ty) {
            Type::Named(n) => layout.named(self.names_module().types.definitions_from(n)),
            _ => layout,
        }
    }

    /// Whether `ty` is sized where it is written, as LLVM's parser asks it of an `alloca`,
    /// `load`, `store` or getelementptr: LLVM reads a body before the text after it, so a
    /// named type defined after the body is not sized there, nor one holding it.
    pub(super) fn is_sized_here(&self, ty: TypeId) -> bool {
        self.sized_here(self.layout(ty, 0))
    }

    /// [`Parser::is_sized_here`], of a type whose layout is `layout`.
    #[inline]
    pub(super) fn sized_here(&self, layout: Layout) -> bool {
        layout.sized && layout.complete_at <= self.body_start()
    }

    /// Whether `ty` is a named type not yet defined where it is written (in a body, one
    /// defined after it): LLVM takes it for an opaque struct there.
    #[inline]
    pub(super) fn is_named_later(&self, ty: TypeId) -> bool {
        match *self.ty(ty) {
            Type::Named(n) => self.names_module().types.named[n].defined_at > self.body_start(),
            _ => false,
        }
    }

    /// Where the body being read starts, or the end of the text at the top level (where
    /// a type is known once defined).
    #[inline]
    fn body_start(&self) -> u32 {
        match &self.body_mode {
            Some(bm) => bm.base.functions[bm.func].header_span.start,
            None => u32::MAX,
        }
    }

    pub(super) fn opt_addrspace_number(&mut self) -> PResult<u32> {
        if !self.is_word(b"addrspace") {
            return Ok(0);
        }
        self.bump();
        self.addr_space_value()
    }

    fn struct_body(&mut self) -> PResult<Vec<TypeId>> {
        self.expect(Tok::LBrace, "'{'")?;
        let mut elems = Vec::new();
        if self.tok.kind != Tok::RBrace {
            loop {
                let at = self.tok.span;
                let elem = self.parse_type()?;
                if !self.is_struct_element(elem) {
                    return Err(self.err_at(at, "invalid element type for struct"));
                }
                elems.push(elem);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBrace, "'}'")?;
        Ok(elems)
    }

    fn target_ext_type(&mut self) -> PResult<TypeId> {
        self.expect(Tok::LParen, "'('")?;
        let name_tok = self.expect(Tok::Str, "a target type name")?;
        let name: Box<[u8]> =
            unescape(&self.text(name_tok)[1..name_tok.span.range().len() - 1]).into();
        let mut types = Vec::new();
        let mut ints = Vec::new();
        while self.eat(Tok::Comma) {
            if self.tok.kind == Tok::Int {
                ints.push(self.expect_u32("an integer parameter")?);
            } else if ints.is_empty() {
                types.push(self.parse_type_or_void()?);
            } else {
                return Err(self.err("an integer parameter"));
            }
        }
        self.expect(Tok::RParen, "')'")?;
        if let Some(message) = target_ext_params_misfit(&name, types.len(), ints.len()) {
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(self.intern(Type::TargetExt { name, types, ints }))
    }
}
