//! Values and constants: locals, globals, literals, aggregates, constant expressions and the
//! checks LLVM makes of each against the type its place wants.

use super::*;

impl<'a> Parser<'a> {
    /// A value of type `ty`.
    pub fn parse_value(&mut self, ty: TypeId) -> PResult<Value> {
        let t = self.tok;
        match t.kind {
            Tok::LocalName | Tok::LocalNum => Ok(Value::local(self.typed_local_ref(t, ty)?)),
            Tok::GlobalName | Tok::GlobalNum => {
                let Type::Ptr(addr_space) = *self.ty(self.resolve_ty(ty)) else {
                    let message = "global variable reference must have pointer type";
                    return Err(self.err_at(t.span, message));
                };
                self.bump();
                let u = self.global_use(t, UseRole::Operand, addr_space)?;
                Ok(Value::global(u))
            }
            Tok::Int | Tok::HexInt => {
                // Decimal, `u0x` and `s0x` literals are integers (`0x` spells a float's bits).
                let Type::Int(width) = *self.body_ty(ty) else {
                    return Err(self.err_at(t.span, "integer constant must have integer type"));
                };
                self.bump();
                Ok(self.push_const(Const::Int(t.span, width)))
            }
            Tok::Float | Tok::HexFloat => {
                self.bump();
                let fits = match *self.body_ty(ty) {
                    Type::Float(kind) => float_literal_fits(self.text(t), kind),
                    _ => false,
                };
                if !fits {
                    return Err(self.err_at(t.span, "floating point constant invalid for type"));
                }
                Ok(self.push_const(Const::Float(t.span)))
            }
            Tok::CStr => {
                self.bump();
                // `c"..."` is an `[N x i8]`, N its bytes once unescaped.
                let text = self.text(t);
                let len = unescaped_len(&text[2..text.len() - 1]);
                let fits = match *self.ty(self.resolve_ty(ty)) {
                    Type::Array(n, elem) => n == len && *self.ty(elem) == Type::Int(8),
                    _ => false,
                };
                if !fits {
                    let message = format!(
                        "constant expression type mismatch: got type '[{len} x i8]' but \
                         expected '{}'",
                        self.type_text(self.resolve_ty(ty))
                    );
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::Bytes(t.span)))
            }
            Tok::LBrace => {
                let elems = self.aggregate(Tok::LBrace, Tok::RBrace)?;
                if let Some(message) = self.struct_constant_misfit(ty, false, &elems) {
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::Aggregate(b'{', Box::new(elems))))
            }
            Tok::LSquare => {
                let elems = self.aggregate(Tok::LSquare, Tok::RSquare)?;
                self.sequence_holds(t.span, false, &elems, ty)?;
                Ok(self.push_const(Const::Aggregate(b'[', Box::new(elems))))
            }
            Tok::Less => {
                if self.peek2().kind == Tok::LBrace {
                    self.bump();
                    let elems = self.aggregate(Tok::LBrace, Tok::RBrace)?;
                    self.expect(Tok::Greater, "'>'")?;
                    if let Some(message) = self.struct_constant_misfit(ty, true, &elems) {
                        return Err(self.err_at(t.span, message));
                    }
                    Ok(self.push_const(Const::Aggregate(b'p', Box::new(elems))))
                } else {
                    let elems = self.aggregate(Tok::Less, Tok::Greater)?;
                    self.sequence_holds(t.span, true, &elems, ty)?;
                    Ok(self.push_const(Const::Aggregate(b'<', Box::new(elems))))
                }
            }
            Tok::MdNum | Tok::MdString | Tok::Exclaim | Tok::MdName => {
                if !matches!(self.ty(ty), Type::Metadata) {
                    return Err(self.err("a value"));
                }
                let md = self.md_operand(true)?;
                Ok(self.push_const(Const::Metadata(md)))
            }
            Tok::Word => self.word_value(ty),
            _ => Err(self.err("a value")),
        }
    }

    /// Why LLVM 22 refuses the constant `word` (`null`, `undef`...) for a value of type `ty`,
    /// if it does. Whether a target extension type has a zero value depends on LLVM's table of
    /// target types, not kept here: `zeroinitializer` is taken for any.
    fn simple_constant_misfit(&self, word: &[u8], ty: TypeId) -> Option<String> {
        let body = self.body_ty(ty);
        let fits = match word {
            b"true" | b"false" => matches!(body, Type::Int(1)),
            b"null" => matches!(body, Type::Ptr(_)),
            b"none" => matches!(body, Type::Token),
            b"zeroinitializer" if let Type::TargetExt { name, .. } = body => {
                target_ext_has_zero(name)
            }
            _ => self.is_scalar(ty) || self.is_first_class(ty) && !matches!(body, Type::Label),
        };
        if fits {
            return None;
        }
        Some(match word {
            b"true" | b"false" => format!(
                "constant expression type mismatch: got type 'i1' but expected '{}'",
                self.type_text(ty)
            ),
            b"null" => "null must be a pointer type".into(),
            b"none" => "invalid type for none constant".into(),
            b"undef" => "invalid type for undef constant".into(),
            b"poison" => "invalid type for poison constant".into(),
            _ => "invalid type for null constant".into(),
        })
    }

    /// Why LLVM 22 refuses a struct constant (`packed`: written `<{ }>`) with elements of these
    /// types for a value of type `ty`, if it does. A named struct not defined yet has no
    /// elements, as in LLVM; element types are told apart once resolved.
    fn struct_constant_misfit(
        &self,
        ty: TypeId,
        packed: bool,
        elems: &[(TypeId, Value)],
    ) -> Option<String> {
        let (want_packed, want) = match self.body_ty(ty) {
            Type::Struct { packed, elems } => (*packed, elems.as_slice()),
            Type::Named(_) => (false, &[][..]),
            _ => return Some("constant expression type mismatch".into()),
        };
        if want.len() != elems.len() {
            return Some("initializer with struct type has wrong # elements".into());
        }
        if want_packed != packed {
            return Some("packed'ness of initializer and type don't match".into());
        }
        let differs = |(&(got, _), &want): (&(TypeId, Value), &TypeId)| {
            self.resolve_ty(got) != self.resolve_ty(want)
        };
        let i = elems.iter().zip(want).position(differs)?;
        Some(format!(
            "element {i} of struct initializer doesn't match struct element type"
        ))
    }

    /// Why LLVM 22 refuses a `select` of these operand types (`SelectInst::areInvalidOperands`),
    /// if it does. Types are told apart once resolved: a named type and its body are taken
    /// for one (LLVM tells a named struct from its body; refusing less is the safe side).
    pub(super) fn select_misfit(
        &self,
        condition: TypeId,
        a: TypeId,
        b: TypeId,
    ) -> Option<&'static str> {
        let (condition, a, b) = (
            self.resolve_ty(condition),
            self.resolve_ty(a),
            self.resolve_ty(b),
        );
        if a != b {
            return Some("both values to select must have same type");
        }
        if matches!(self.ty(a), Type::Token) {
            return Some("select values cannot have token type");
        }
        match *self.ty(condition) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => {
                if !matches!(self.body_ty(elem), Type::Int(1)) {
                    return Some("vector select condition element type must be i1");
                }
                match *self.ty(a) {
                    Type::Vector {
                        scalable: s,
                        len: l,
                        ..
                    } if (s, l) == (scalable, len) => None,
                    Type::Vector { .. } => Some(
                        "vector select requires selected vectors to have the same vector length \
                         as select condition",
                    ),
                    _ => Some("selected values for vector select must be vectors"),
                }
            }
            Type::Int(1) => None,
            _ => Some("select condition must be i1 or <n x i1>"),
        }
    }

    /// Why LLVM 22 refuses an `atomicrmw` `operation` on a value of type `ty`, if it does: a
    /// scalable type; a type the operation does not take; a size in memory that is not a
    /// power of two bytes (pointers are let through: their size is the datalayout's).
    pub(super) fn atomicrmw_misfit(&self, operation: &[u8], ty: TypeId) -> Option<String> {
        let name = String::from_utf8_lossy(operation);
        let body = self.body_ty(ty);
        if let Type::Vector { scalable: true, .. } = body {
            return Some("atomicrmw operand may not be scalable".into());
        }
        let kind = atomicrmw_kind(operation)?;
        let fits = match kind {
            AtomicRmwKind::Exchange => matches!(body, Type::Int(_) | Type::Float(_) | Type::Ptr(_)),
            AtomicRmwKind::Float => match body {
                Type::Vector { elem, .. } => matches!(self.body_ty(*elem), Type::Float(_)),
                _ => matches!(body, Type::Float(_)),
            },
            AtomicRmwKind::Integer => matches!(body, Type::Int(_)),
        };
        if !fits {
            return Some(match kind {
                AtomicRmwKind::Exchange => format!(
                    "atomicrmw {name} operand must be an integer, floating point, or pointer type"
                ),
                AtomicRmwKind::Float => {
                    format!("atomicrmw {name} operand must be a floating point type")
                }
                AtomicRmwKind::Integer => format!("atomicrmw {name} operand must be an integer"),
            });
        }
        let bits = match body {
            Type::Int(n) => u64::from(n.div_ceil(8) * 8),
            Type::Float(kind) => kind.bits(),
            Type::Vector { len, elem, .. } => match self.body_ty(*elem) {
                Type::Float(kind) => (len * kind.bits()).div_ceil(8) * 8,
                _ => return None,
            },
            _ => return None,
        };
        (bits < 8 || !bits.is_power_of_two())
            .then(|| "atomicrmw operand must be power-of-two byte-sized integer".into())
    }

    /// Why LLVM's verifier refuses an atomic access (`what`) of a value of type `ty`, if it
    /// does: a load or store of a value whose scalars are not integers, pointers or floats, a
    /// `cmpxchg` of one not an integer or a pointer; then any whose size in bits is less than
    /// a byte or not a power of two (`checkAtomicMemAccessSize`; scalable vectors let
    /// through).
    pub(super) fn atomic_access_misfit(
        &self,
        what: AtomicAccess,
        ty: TypeId,
    ) -> Option<&'static str> {
        let body = self.body_ty(ty);
        let (scalar, count) = match *body {
            Type::Vector { scalable: true, .. } => return None,
            Type::Vector { len, elem, .. } => (self.body_ty(elem), len),
            ref scalar => (scalar, 1),
        };
        let scalar_bits = match *scalar {
            Type::Int(bits) => Some(u64::from(bits)),
            Type::Ptr(space) => Some(u64::from(self.data_layout().pointer_bits(space))),
            Type::Float(kind) => Some(kind.bits()),
            _ => None,
        };
        let fits = match what {
            AtomicAccess::Load | AtomicAccess::Store => scalar_bits.is_some(),
            AtomicAccess::CmpXchg => matches!(body, Type::Int(_) | Type::Ptr(_)),
            AtomicAccess::Rmw => true,
        };
        if !fits {
            return Some(match what {
                AtomicAccess::Load => {
                    "atomic load operand must have integer, pointer, floating point, or vector type!"
                }
                AtomicAccess::Store => {
                    "atomic store operand must have integer, pointer, floating point, or vector type!"
                }
                _ => "cmpxchg operand must have integer or pointer type",
            });
        }
        let bits = scalar_bits? * count;
        if bits < 8 {
            Some("atomic memory access' size must be byte-sized")
        } else if !bits.is_power_of_two() {
            Some("atomic memory access' operand must have a power-of-two size")
        } else {
            None
        }
    }

    /// The length of a getelementptr's vectors that a base of type `ty` sets, if it is one.
    #[inline]
    pub(super) fn gep_width(&self, ty: TypeId) -> Option<(bool, u64)> {
        match *self.body_ty(ty) {
            Type::Vector { scalable, len, .. } => Some((scalable, len)),
            _ => None,
        }
    }

    /// A getelementptr index of type `ty` is an integer or a vector of them, of the length of
    /// the vectors before it (`width`, which it sets if none was): LLVM's words where not.
    #[inline]
    pub(super) fn gep_index_holds(
        &self,
        ty: TypeId,
        width: &mut Option<(bool, u64)>,
    ) -> Result<(), &'static str> {
        if let Type::Int(_) = self.ty(ty) {
            return Ok(());
        }
        match *self.body_ty(ty) {
            Type::Int(_) => Ok(()),
            Type::Vector { elem, .. } if matches!(self.body_ty(elem), Type::Int(_)) => {
                let len = self.gep_width(ty);
                if width.is_some() && *width != len {
                    return Err("getelementptr vector index has a wrong number of elements");
                }
                *width = len;
                Ok(())
            }
            _ => Err("getelementptr index must be an integer"),
        }
    }

    /// The type a getelementptr index (of type `index_ty`, written `index`) steps into from
    /// `ty`: `Err` where LLVM 22 finds the indices invalid (a step into what is no aggregate;
    /// into a struct, an index that is not an `i32` number within it), `Ok(None)` where
    /// this cannot tell (a constant other than a literal, a vector of indices into a struct),
    /// which lets the text through.
    pub(super) fn gep_step(
        &self,
        ty: TypeId,
        index_ty: TypeId,
        index: Token,
    ) -> Result<Option<TypeId>, ()> {
        match self.body_ty(ty) {
            Type::Array(_, elem) | Type::Vector { elem, .. } => Ok(Some(*elem)),
            Type::Struct { elems, .. } => {
                let field = |field: Option<i128>| match field
                    .map(|i| usize::try_from(i).map(|i| elems.get(i)))
                {
                    None => Ok(None),
                    Some(Ok(Some(&elem))) => Ok(Some(elem)),
                    Some(_) => Err(()),
                };
                match self.body_ty(index_ty) {
                    Type::Int(32) => match index.kind {
                        Tok::LocalName | Tok::LocalNum => Err(()),
                        Tok::Word if matches!(self.text(index), b"undef" | b"poison") => Err(()),
                        // The literal cut to 32 bits, as LLVM makes an `i32` of it
                        // (`i32 4294967296` is field 0).
                        Tok::Int => field(match int_value(self.text(index), 32) {
                            Some(IntValue::Bits(bits)) => Some(bits as i128),
                            _ => None,
                        }),
                        _ => Ok(None),
                    },
                    // A vector of indexes into a struct must hold one field's number throughout.
                    Type::Vector {
                        scalable: false,
                        elem,
                        ..
                    } if matches!(self.body_ty(*elem), Type::Int(32)) => match index.kind {
                        Tok::LocalName | Tok::LocalNum => Err(()),
                        Tok::Word => match self.text(index) {
                            b"undef" | b"poison" => Err(()),
                            b"zeroinitializer" => field(Some(0)),
                            _ => Ok(None),
                        },
                        Tok::Less => match self.vector_splat(index) {
                            Some(Some(splat)) => field(Some(splat)),
                            Some(None) => Err(()),
                            None => Ok(None),
                        },
                        _ => Ok(None),
                    },
                    _ => Err(()),
                }
            }
            Type::Named(_) | Type::TargetExt { .. } => Ok(None),
            _ => Err(()),
        }
    }

    /// The number every element of the vector of `i32` at `open` (its `<`) holds, if they
    /// hold one; `Some(None)` if they do not, or one is no number; `None` if it cannot be told
    /// from the tokens (a number not in decimal).
    fn vector_splat(&self, open: Token) -> Option<Option<i128>> {
        let mut lex = Lexer::starting_at(self.src, open.span.end as usize);
        let mut splat = None;
        loop {
            if lex.next().kind != Tok::Word {
                return None;
            }
            let value = lex.next();
            if value.kind != Tok::Int {
                return Some(None);
            }
            let number = decimal_i128(self.text(value))?;
            if splat.is_some_and(|s| s != number) {
                return Some(None);
            }
            splat = Some(number);
            match lex.next().kind {
                Tok::Comma => {}
                Tok::Greater => return Some(splat),
                _ => return None,
            }
        }
    }

    fn word_value(&mut self, ty: TypeId) -> PResult<Value> {
        let t = self.tok;
        let w = self.text(t);
        let simple = match w {
            b"true" | b"false" => Some(Const::Int(t.span, 1)),
            b"null" => Some(Const::Null),
            b"none" => Some(Const::None),
            b"undef" => Some(Const::Undef),
            b"poison" => Some(Const::Poison),
            b"zeroinitializer" => Some(Const::Zero),
            _ => None,
        };
        if let Some(c) = simple {
            if let Some(message) = self.simple_constant_misfit(w, ty) {
                return Err(self.err_at(t.span, message));
            }
            self.bump();
            return Ok(self.push_const(c));
        }
        if matches!(self.ty(ty), Type::Metadata) {
            let md = self.md_operand(true)?;
            return Ok(self.push_const(Const::Metadata(md)));
        }
        self.nested(|p| p.word_constant(t, ty))
    }

    /// The constant the word `t` starts (a constant expression, `splat`, `blockaddress`...),
    /// of type `ty`.
    fn word_constant(&mut self, t: Token, ty: TypeId) -> PResult<Value> {
        let w = self.text(t);
        self.bump();
        match w {
            b"blockaddress" => {
                self.expect(Tok::LParen, "'('")?;
                let f = self.expect_global("a function")?;
                let u = self.global_use(f, UseRole::Operand, GlobalUse::UNTYPED)?;
                self.expect(Tok::Comma, "','")?;
                let bb = self.tok;
                if !matches!(bb.kind, Tok::LocalName | Tok::LocalNum) {
                    return Err(self.err("a block name"));
                }
                self.bump();
                self.expect(Tok::RParen, "')'")?;
                let written = BlockAddressRef {
                    function: f.span,
                    block: bb.span,
                    used: self.metadata_values == 0,
                };
                match (&self.body_mode, &mut self.scope) {
                    (Some(_), Some(scope)) => scope.body.block_addresses.push(written),
                    _ => self.block_addresses.push(written),
                }
                Ok(self.push_const(Const::BlockAddress(u, bb.span)))
            }
            b"dso_local_equivalent" | b"no_cfi" => {
                let f = self.expect_global("a function")?;
                let u = self.global_use(f, UseRole::Operand, GlobalUse::UNTYPED)?;
                if w == b"dso_local_equivalent" {
                    self.dso_local_equivalent_holds(f)?;
                }
                let c = if w == b"no_cfi" {
                    Const::NoCfi(u)
                } else {
                    Const::DsoLocalEquivalent(u)
                };
                Ok(self.push_const(c))
            }
            b"ptrauth" => {
                self.expect(Tok::LParen, "'('")?;
                let mut parts = Vec::new();
                // Whether each part is an integer constant (`ConstantInt`) of what width.
                let mut integers = Vec::new();
                loop {
                    let ty = self.parse_type()?;
                    let literal = matches!(self.tok.kind, Tok::Int | Tok::HexInt)
                        || matches!(self.word(), b"zeroinitializer" | b"true" | b"false");
                    integers.push(match *self.body_ty(ty) {
                        Type::Int(bits) if literal => Some(bits),
                        _ => None,
                    });
                    parts.push((ty, self.parse_value(ty)?));
                    // The pointer, key, discriminator, address discriminator and (LLVM 22)
                    // deactivation symbol, the last three optional.
                    if parts.len() == 5 || !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RParen, "')' in constant ptrauth expression")?;
                let pointer = |i: usize| parts.get(i).is_none_or(|&(ty, _)| self.is_pointer(ty));
                let message = if !pointer(0) {
                    Some("constant ptrauth base pointer must be a pointer")
                } else if integers.get(1) != Some(&Some(32)) {
                    Some("constant ptrauth key must be i32 constant")
                } else if integers.get(2).is_some_and(|&bits| bits != Some(64)) {
                    Some("constant ptrauth integer discriminator must be i64 constant")
                } else if !pointer(3) {
                    Some("constant ptrauth address discriminator must be a pointer")
                } else if !pointer(4) {
                    Some("constant ptrauth deactivation symbol must be a pointer")
                } else {
                    None
                };
                if let Some(message) = message {
                    return Err(self.err_at(t.span, message));
                }
                // LLVM's verifier asks more of the deactivation symbol than its parser: a
                // global, or null (`visitConstantPtrAuth`).
                if let Some(&(_, symbol)) = parts.get(4) {
                    let global_or_null = matches!(symbol.kind(), ValueKind::Global(_))
                        || match self.constant_of(symbol) {
                            Some(Const::Null | Const::Zero) => true,
                            Some(Const::Expr(e)) => !self.is_nonzero_address(e),
                            _ => false,
                        };
                    if !global_or_null {
                        self.rule_broken(
                            t.span,
                            "signed ptrauth constant deactivation symbol must be a global value \
                             or null",
                        );
                    }
                }
                Ok(self.push_const(Const::PtrAuth(Box::new(parts))))
            }
            b"splat" => {
                self.expect(Tok::LParen, "'('")?;
                let ety = self.parse_type()?;
                let v = self.parse_value(ety)?;
                self.expect(Tok::RParen, "')'")?;
                let Type::Vector { elem, .. } = *self.body_ty(ty) else {
                    return Err(self.err_at(t.span, "vector constant must have vector type"));
                };
                if !self.same_type(elem, ety) {
                    let message = format!(
                        "constant expression type mismatch: got type '{}' but expected '{}'",
                        self.type_text(ety),
                        self.type_text(elem)
                    );
                    return Err(self.err_at(t.span, message));
                }
                Ok(self.push_const(Const::Splat(ty, v)))
            }
            b"asm" => {
                // Each at most once, in this order, as LLVM takes them.
                for word in [
                    &b"sideeffect"[..],
                    b"alignstack",
                    b"inteldialect",
                    b"unwind",
                ] {
                    if self.word() == word {
                        self.bump();
                    }
                }
                self.expect(Tok::Str, "the assembly string")?;
                self.expect(Tok::Comma, "','")?;
                let c = self.expect(Tok::Str, "the constraint string")?;
                Ok(self.push_const(Const::InlineAsm(t.span.to(c.span))))
            }
            _ => match Opcode::from_keyword(w) {
                Some(op) if is_constant_expression_opcode(op) => {
                    self.constant_expression(t, op, Some(ty))
                }
                Some(op) if is_former_constant_expression_opcode(op) => Err(self.err_at(
                    t.span,
                    format!(
                        "{} constexprs are no longer supported",
                        String::from_utf8_lossy(w)
                    ),
                )),
                _ => Err(self.err_at(t.span, "expected a value")),
            },
        }
    }

    /// An array (`[...]`) or vector (`<...>`) constant opening at `open`: its elements of
    /// one type, and the array or vector they make the type `expected`, as LLVM checks them
    /// (its messages leave a quote open: "... is not of type 'i32").
    fn sequence_holds(
        &self,
        open: Span,
        vector: bool,
        elems: &[(TypeId, Value)],
        expected: TypeId,
    ) -> PResult<()> {
        let expected_ty = self.ty(self.resolve_ty(expected));
        let Some(&(first, _)) = elems.first() else {
            return match (vector, expected_ty) {
                (true, _) => Err(self.err_at(open, "constant vector must not be empty")),
                (false, Type::Array(0, _)) => Ok(()),
                (false, _) => Err(self.err_at(open, "invalid empty array initializer")),
            };
        };
        let first_at = || Lexer::starting_at(self.src, open.end as usize).next().span;
        if vector && !self.is_vector_element(first) {
            return Err(self.err_at(
                first_at(),
                "vector elements must have integer, pointer or floating point type",
            ));
        }
        let kind = if vector { "vector" } else { "array" };
        if let Some(i) = elems.iter().position(|&(t, _)| !self.same_type(t, first)) {
            let message = format!(
                "{kind} element #{i} is not of type '{}",
                self.type_text(first)
            );
            return Err(self.err_at(first_at(), message));
        }
        let len = elems.len() as u64;
        let fits = match (vector, expected_ty) {
            (false, &Type::Array(n, elem)) => n == len && self.same_type(elem, first),
            (
                true,
                &Type::Vector {
                    scalable: false,
                    len: n,
                    elem,
                },
            ) => n == len && self.same_type(elem, first),
            _ => false,
        };
        if !fits {
            let first = self.type_text(first);
            let got = match vector {
                true => format!("<{len} x {first}>"),
                false => format!("[{len} x {first}]"),
            };
            return Err(self.type_mismatch(open, &got, expected));
        }
        Ok(())
    }

    pub(super) fn aggregate(&mut self, open: Tok, close: Tok) -> PResult<Vec<(TypeId, Value)>> {
        self.nested(|p| p.aggregate_elements(open, close))
    }

    fn aggregate_elements(&mut self, open: Tok, close: Tok) -> PResult<Vec<(TypeId, Value)>> {
        self.expect(open, open.describe())?;
        let mut elems = Vec::new();
        if self.tok.kind != close {
            loop {
                let ty = self.parse_type()?;
                elems.push((ty, self.parse_value(ty)?));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(close, close.describe())?;
        Ok(elems)
    }

    /// Whether a cast `opcode` converts `from` into `to`, as LLVM's `CastInst::castIsValid`
    /// rules (each type with its text, for the message, reported `at`).
    pub(super) fn cast_holds(
        &mut self,
        opcode: Opcode,
        from: (TypeId, Span),
        to: (TypeId, Span),
        at: Span,
    ) -> PResult<()> {
        use Opcode::*;
        // A named type opaque or not yet defined: what it is is not known here.
        if [from.0, to.0]
            .iter()
            .any(|&t| matches!(self.body_ty(t), Type::Named(_)))
        {
            return Ok(());
        }
        let (s, d) = (self.cast_operand(from.0), self.cast_operand(to.0));
        let valid = match (s, d) {
            (Some(s), Some(d)) => {
                let same_count = s.count == d.count;
                match opcode {
                    Trunc => s.is_int() && d.is_int() && same_count && s.bits > d.bits,
                    ZExt | SExt => s.is_int() && d.is_int() && same_count && s.bits < d.bits,
                    FpTrunc => s.is_float() && d.is_float() && same_count && s.bits > d.bits,
                    FpExt => s.is_float() && d.is_float() && same_count && s.bits < d.bits,
                    UiToFp | SiToFp => s.is_int() && d.is_float() && same_count,
                    FpToUi | FpToSi => s.is_float() && d.is_int() && same_count,
                    PtrToInt | PtrToAddr => s.is_ptr() && d.is_int() && same_count,
                    IntToPtr => s.is_int() && d.is_ptr() && same_count,
                    BitCast => match (s.element, d.element) {
                        (CastElement::Ptr(a), CastElement::Ptr(b)) => {
                            a == b
                                && (same_count
                                    || s.count.is_none() && d.count == Some((false, 1))
                                    || d.count.is_none() && s.count == Some((false, 1)))
                        }
                        (CastElement::Ptr(_), _) | (_, CastElement::Ptr(_)) => false,
                        _ => s.size() == d.size(),
                    },
                    AddrSpaceCast => match (s.element, d.element) {
                        (CastElement::Ptr(a), CastElement::Ptr(b)) => a != b && same_count,
                        _ => false,
                    },
                    _ => true,
                }
            }
            _ => false,
        };
        if valid {
            // LLVM's verifier: `ptrtoaddr` gives an integer as wide as the pointer's address,
            // which LLVM 22 takes to be its index.
            if opcode == PtrToAddr
                && let (Some(s), Some(d)) = (s, d)
                && let CastElement::Ptr(space) = s.element
                && d.bits != u64::from(self.data_layout().index_bits(space))
            {
                self.rule_broken(at, "PtrToAddr result must be address width");
            }
            return Ok(());
        }
        let text = |span: Span| String::from_utf8_lossy(&self.src[span.range()]).into_owned();
        Err(self.err_at(
            at,
            format!(
                "invalid cast opcode for cast from '{}' to '{}'",
                text(from.1),
                text(to.1)
            ),
        ))
    }

    /// A type as a cast sees it, `None` where no cast takes it (an aggregate, a function).
    fn cast_operand(&self, ty: TypeId) -> Option<CastOperand> {
        let element = |ty: &Type| match *ty {
            Type::Int(bits) => Some((CastElement::Int, u64::from(bits))),
            Type::Float(kind) => Some((CastElement::Float, kind.bits())),
            Type::Ptr(space) => Some((CastElement::Ptr(space), 0)),
            Type::X86Amx => Some((CastElement::Other, 8192)),
            Type::Label | Type::Metadata | Type::Token | Type::TargetExt { .. } => {
                Some((CastElement::Other, 0))
            }
            _ => None,
        };
        match *self.body_ty(ty) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => element(self.body_ty(elem)).map(|(element, bits)| CastOperand {
                element,
                bits,
                count: Some((scalable, len)),
            }),
            ref scalar => element(scalar).map(|(element, bits)| CastOperand {
                element,
                bits,
                count: None,
            }),
        }
    }

    /// A getelementptr's `inrange(start, end)`, from its `(`, as LLVM reads it: two integers
    /// (`None` for a hexadecimal one, taken as it stands). Its span and the bounds, which
    /// [`Parser::inrange_holds`] compares once the base is read.
    fn inrange(&mut self) -> PResult<(Span, [Option<i128>; 2])> {
        let open = self.bump();
        let mut bounds = [None; 2];
        for (i, bound) in bounds.iter_mut().enumerate() {
            if i == 1 {
                self.expect(Tok::Comma, "','")?;
            }
            if !matches!(self.tok.kind, Tok::Int | Tok::HexInt) {
                return Err(self.err("integer"));
            }
            let t = self.bump();
            // A hexadecimal bound (`u0x...`) is taken as it stands.
            *bound = decimal_i128(self.text(t)).filter(|_| t.kind == Tok::Int);
        }
        let close = self.expect(Tok::RParen, "')'")?;
        Ok((open.span.to(close.span), bounds))
    }

    /// The `inrange` bounds of a getelementptr headed at `op` whose base has type `base`:
    /// the end above the start, compared at the width of the base's indices.
    fn inrange_holds(&self, op: Token, bounds: [Option<i128>; 2], base: TypeId) -> PResult<()> {
        let pointer = match self.body_ty(base) {
            Type::Vector { elem, .. } => self.body_ty(*elem),
            other => other,
        };
        let &Type::Ptr(addr_space) = pointer else {
            return Ok(());
        };
        let cut = 128 - self.data_layout().index_bits(addr_space).clamp(1, 128);
        if let [Some(start), Some(end)] = bounds.map(|b| b.map(|v| (v << cut) >> cut))
            && start >= end
        {
            return Err(self.err_at(op.span, "expected end to be larger than start"));
        }
        Ok(())
    }

    /// `opcode [flags] (T V, ... [to T])`, the opcode already read.
    /// A constant expression headed by `op`, which must have type `ty` if given (an alias's
    /// aliasee has the type it implies).
    pub(super) fn constant_expression(
        &mut self,
        op: Token,
        opcode: Opcode,
        ty: Option<TypeId>,
    ) -> PResult<Value> {
        let mut items = Vec::new();
        // A cast's two types, to check that it converts one into the other.
        let cast = opcode.is_cast();
        let (mut from, mut to) = (None, None);
        // The flags each kind takes; LLVM expects the `(` where another word stands.
        let (flags, expected): (&[&[u8]], _) = match opcode {
            Opcode::GetElementPtr => (
                &[b"inbounds", b"nusw", b"nuw", b"inrange"],
                "'(' in constantexpr",
            ),
            Opcode::Add | Opcode::Sub => (&[b"nuw", b"nsw"], "'(' in binary constantexpr"),
            Opcode::Xor => (&[], "'(' in binary constantexpr"),
            _ if cast => (&[], "'(' after constantexpr cast"),
            _ => (&[], "'(' in constantexpr"),
        };
        let mut in_range = None;
        // A getelementptr's flags may repeat; `nuw` and `nsw` of `add` and `sub` may not.
        let repeats = opcode == Opcode::GetElementPtr;
        let mut seen = 0u32;
        while self.tok.kind == Tok::Word {
            let Some(i) = flags.iter().position(|f| *f == self.text(self.tok)) else {
                break;
            };
            if !repeats && seen & 1 << i != 0 {
                break;
            }
            seen |= 1 << i;
            let t = self.bump();
            items.push(Item::word(t.span));
            if self.tok.kind == Tok::LParen && self.text(t) == b"inrange" {
                let (p, bounds) = self.inrange()?;
                items.push(Item::word(p));
                in_range = Some(bounds);
            }
        }
        self.expect(Tok::LParen, expected)?;
        items.push(Item::Mark(b'('));
        // A getelementptr's operands (the base, then the indices): how many, and where each
        // index after the first is written (most have none, and allocate nothing).
        let (mut operand_count, mut later_indices) = (0, Vec::new());
        // A getelementptr's source element type stands alone; every other type has its value.
        if opcode == Opcode::GetElementPtr {
            items.push(Item::Type(self.parse_type()?));
            self.expect(Tok::Comma, "comma after getelementptr's type")?;
        }
        loop {
            let at = self.tok.span;
            let ty = self.parse_type()?;
            if cast && from.is_none() {
                from = Some((ty, at.to(self.prev_end())));
            }
            items.push(Item::Type(ty));
            if opcode == Opcode::GetElementPtr {
                if operand_count >= 2 {
                    later_indices.push(self.tok);
                }
                operand_count += 1;
            }
            let v = self.parse_value(ty)?;
            items.push(Item::Value(v));
            if self.is_word(b"to") {
                items.push(Item::word(self.bump().span));
                let at = self.tok.span;
                let ty = self.parse_type()?;
                if cast {
                    to = Some((ty, at.to(self.prev_end())));
                }
                items.push(Item::Type(ty));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')'")?;
        if let (Some(from), Some(to)) = (from, to) {
            self.cast_holds(opcode, from, to, op.span)?;
        }
        let types: Vec<TypeId> = items
            .iter()
            .filter_map(|i| match i {
                Item::Type(t) => Some(*t),
                _ => None,
            })
            .collect();
        if opcode == Opcode::GetElementPtr {
            if let (Some(bounds), Some(&base)) = (in_range, types.get(1)) {
                self.inrange_holds(op, bounds, base)?;
            }
            // The source type, the base's, then the indices'.
            let mut width = types.get(1).and_then(|&base| self.gep_width(base));
            for &index in types.iter().skip(2) {
                if let Err(message) = self.gep_index_holds(index, &mut width) {
                    return Err(self.err_at(op.span, message));
                }
            }
            // As the instruction's: indexed, the source type is sized (a named type not yet
            // defined is not), and each index after the first steps into it.
            if let (Some(&source), true) = (types.first(), types.len() > 2)
                && !self.is_sized_here(source)
            {
                return Err(self.err_at(op.span, "base element of getelementptr must be sized"));
            }
            if let Some(&source) = types.first()
                && self.layout(source, 0).scalable
            {
                let message = "invalid base element for constant getelementptr";
                return Err(self.err_at(op.span, message));
            }
            let mut indexed = types.first().copied();
            for (&index_ty, &index) in types.iter().skip(3).zip(&later_indices) {
                indexed = match indexed.map(|ty| self.gep_step(ty, index_ty, index)) {
                    Some(Err(())) => {
                        return Err(self.err_at(op.span, "invalid getelementptr indices"));
                    }
                    Some(Ok(next)) => next,
                    None => None,
                };
            }
        }
        if let Some(ty) = ty {
            self.expression_type_holds(op.span, opcode, &types, ty)?;
        }
        Ok(self.push_const(Const::Expr(Box::new((op.span, items)))))
    }

    /// A constant expression (headed at `op`, with the `types` its text names in order) has
    /// the type `expected`, and a binary one two operands of one type, as LLVM checks them.
    /// The type is worked out where it is plain: casts, binary operations, `getelementptr`
    /// and `extractelement`, `insertelement`.
    fn expression_type_holds(
        &self,
        op: Span,
        opcode: Opcode,
        types: &[TypeId],
        expected: TypeId,
    ) -> PResult<()> {
        use Opcode::*;
        let got = match opcode {
            _ if opcode.is_cast() => types.get(1).copied(),
            Add | Sub | Xor => {
                if let [a, b] = types
                    && !self.same_type(*a, *b)
                {
                    return Err(self.err_at(op, "operands of constexpr must have same type"));
                }
                types.first().copied()
            }
            InsertElement => types.first().copied(),
            ExtractElement => types
                .first()
                .and_then(|&v| match *self.ty(self.resolve_ty(v)) {
                    Type::Vector { elem, .. } => Some(elem),
                    _ => None,
                }),
            GetElementPtr => {
                let Some(&base) = types.get(1) else {
                    return Ok(());
                };
                // A scalar base with vector indices gives a vector of pointers.
                let index_vector =
                    types
                        .iter()
                        .skip(2)
                        .find_map(|&t| match *self.ty(self.resolve_ty(t)) {
                            Type::Vector { scalable, len, .. } => Some((scalable, len)),
                            _ => None,
                        });
                match (self.ty(self.resolve_ty(base)), index_vector) {
                    (Type::Ptr(space), Some((scalable, len))) => {
                        let fits = match *self.ty(self.resolve_ty(expected)) {
                            Type::Vector {
                                scalable: s,
                                len: n,
                                elem,
                            } => s == scalable && n == len && *self.ty(elem) == Type::Ptr(*space),
                            _ => false,
                        };
                        if !fits {
                            let scale = if scalable { "vscale x " } else { "" };
                            let got = format!("<{scale}{len} x {}>", self.type_text(base));
                            return Err(self.type_mismatch(op, &got, expected));
                        }
                        return Ok(());
                    }
                    _ => Some(base),
                }
            }
            _ => None,
        };
        match got {
            Some(got) if !self.same_type(got, expected) => {
                Err(self.type_mismatch(op, &self.type_text(got), expected))
            }
            _ => Ok(()),
        }
    }

    fn type_mismatch(&self, at: Span, got: &str, expected: TypeId) -> ReadError {
        let expected = self.type_text(self.resolve_ty(expected));
        let message = format!(
            "constant expression type mismatch: got type '{got}' but expected '{expected}'"
        );
        self.err_at(at, message)
    }

    /// Whether two types are one: interned, equal types have one id, but a body's own types
    /// are interned apart from the module's.
    fn same_type(&self, a: TypeId, b: TypeId) -> bool {
        let (a, b) = (self.resolve_ty(a), self.resolve_ty(b));
        a == b || self.type_text(a) == self.type_text(b)
    }
}

/// Which atomic access [`Parser::atomic_access_misfit`] checks.
#[derive(Clone, Copy)]
pub(super) enum AtomicAccess {
    Load,
    Store,
    CmpXchg,
    Rmw,
}
