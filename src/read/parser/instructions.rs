//! Instructions: every opcode's operands, flags and attachments, as items.

use super::*;
use crate::model::calling_convention;
use crate::read::inline_asm;
use crate::read::intrinsics::Immediates;
use crate::read::verify_string_attributes::{Signature, Taker};
use values::AtomicAccess;

impl<'a> Parser<'a> {
    fn push_item(&mut self, item: Item) {
        self.scope().body.items.push(item);
    }

    fn item_type(&mut self) -> PResult<TypeId> {
        let ty = self.parse_type()?;
        self.push_item(Item::Type(ty));
        Ok(ty)
    }

    fn item_value(&mut self, ty: TypeId) -> PResult<Value> {
        let v = self.parse_value(ty)?;
        let v = self.note_direct_use(v);
        self.push_item(Item::Value(v));
        Ok(v)
    }

    /// `T V`
    fn item_typed_value(&mut self) -> PResult<TypeId> {
        let ty = self.item_type()?;
        self.item_value(ty)?;
        Ok(ty)
    }

    fn push_word(&mut self, span: Span) -> PResult<()> {
        if span.range().len() > Item::MAX_WORD {
            return Err(self.err_at(span, "text too long for an instruction operand"));
        }
        self.push_item(Item::word(span));
        Ok(())
    }

    /// The current token as a word item. A single token longer than `Item::MAX_WORD` only
    /// occurs in absurd input, where comparing its truncated text stays deterministic.
    fn item_word(&mut self) {
        let t = self.bump();
        self.push_item(Item::word(t.span));
    }

    /// Each of `words` at most once, in this order, as LLVM takes them (`load atomic
    /// volatile`).
    fn item_words_in_order(&mut self, words: &[&[u8]]) {
        for word in words {
            if self.is_word(word) {
                self.item_word();
            }
        }
    }

    fn item_words_while(&mut self, pred: impl Fn(&[u8]) -> bool) {
        while self.tok.kind == Tok::Word && pred(self.text(self.tok)) {
            self.item_word();
        }
    }

    /// Fast-math flags as items, repeated or not; whether there were any.
    fn item_fast_math_flags(&mut self) -> bool {
        let start = self.tok.span.start;
        self.item_words_while(is_fast_math_flag);
        self.tok.span.start != start
    }

    /// Fast-math flags on a phi, select or call of type `ty` (`what`) only where
    /// [`Parser::takes_fast_math`]; reported `at` where LLVM reports it.
    fn fast_math_holds(&self, fast_math: bool, ty: TypeId, at: Span, what: &str) -> PResult<()> {
        if !fast_math || self.takes_fast_math(ty) {
            return Ok(());
        }
        let message = format!(
            "fast-math-flags specified for {what} without floating-point scalar or vector \
             return type"
        );
        Err(self.err_at(at, message))
    }

    /// Whether LLVM's `FPMathOperator` takes a phi, select or call of type `ty`: a
    /// floating-point scalar or vector, in arrays or not, or a literal struct of one such type
    /// repeated.
    fn takes_fast_math(&self, ty: TypeId) -> bool {
        let is_fp = |t: TypeId| matches!(self.scalar_ty(t), Type::Float(_));
        // A named struct is not literal; a literal one's elements are not looked into.
        if let Type::Struct { elems, .. } = self.ty(ty) {
            return match elems.split_first() {
                Some((&first, rest)) => rest.iter().all(|&e| e == first) && is_fp(first),
                None => false,
            };
        }
        let mut t = ty;
        while let Type::Array(_, elem) = *self.ty(t) {
            t = elem;
        }
        is_fp(t)
    }

    /// The flags LLVM 22's parser takes after an opcode, as items: each word of `once` at most
    /// once, in any order, and fast-math flags, repeated, when `fast_math`. A flag it does not
    /// take is left where a type or a predicate must stand, which is LLVM's error
    /// (`add exact i32`, `udiv nuw i32`, `sext nneg i8`: "expected type").
    fn item_flags(&mut self, once: &[&[u8]], fast_math: bool) {
        let mut seen = 0u32;
        while self.tok.kind == Tok::Word {
            let w = self.text(self.tok);
            match once.iter().position(|o| *o == w) {
                Some(i) if seen & 1 << i == 0 => seen |= 1 << i,
                _ if fast_math && is_fast_math_flag(w) => {}
                _ => break,
            }
            self.item_word();
        }
    }

    fn item_comma(&mut self) -> PResult<()> {
        self.expect(Tok::Comma, "','")?;
        Ok(())
    }

    fn item_label(&mut self) -> PResult<()> {
        self.expect_word("label")?;
        let t = self.tok;
        if !matches!(t.kind, Tok::LocalName | Tok::LocalNum) {
            return Err(self.err("a block name"));
        }
        let label = self.intern(Type::Label);
        let l = self.typed_local_ref(t, label)?;
        self.push_item(Item::Value(Value::local(l)));
        Ok(())
    }

    /// `syncscope("name")`, if present.
    fn item_syncscope(&mut self) -> PResult<()> {
        if self.is_word(b"syncscope") {
            let t = self.bump();
            self.expect(Tok::LParen, "'('")?;
            self.expect(Tok::Str, "a synchronization scope name")?;
            let close = self.expect(Tok::RParen, "')'")?;
            self.push_word(t.span.to(close.span))?;
        }
        Ok(())
    }

    /// An atomic ordering, and which it is.
    fn item_ordering(&mut self) -> PResult<&'a [u8]> {
        match self.word() {
            w @ (b"unordered" | b"monotonic" | b"acquire" | b"release" | b"acq_rel"
            | b"seq_cst") => {
                self.item_word();
                Ok(w)
            }
            _ => Err(self.err("an atomic ordering")),
        }
    }

    /// Where LLVM reports a fault found once an instruction is read: at the token after it,
    /// or at its first metadata attachment (LLVM has taken the comma before it).
    fn after_instruction(&self) -> Span {
        if self.tok.kind == Tok::Comma && self.peek2().kind == Tok::MdName {
            self.peek2().span
        } else {
            self.tok.span
        }
    }

    /// `, align N` when the comma is followed by `align`; whether it was.
    fn item_opt_align(&mut self) -> PResult<bool> {
        if self.tok.kind == Tok::Comma && self.peek2_is_word(b"align") {
            self.bump();
            let t = self.bump();
            let n = self.tok.span;
            self.expect_alignment(None)?;
            self.push_word(t.span.to(n))?;
            return Ok(true);
        }
        let at = self.prev_end().start;
        let body = &mut self.scope().body;
        body.leaves_implicit = true;
        let inst = body.insts.next_key();
        body.implied_aligns.push((inst, at));
        Ok(false)
    }

    /// Whether a load or store may move a value of type `ty`: a first-class one, told at
    /// once for the most frequent.
    fn is_memory_type(&self, ty: TypeId) -> bool {
        self.is_scalar(ty) || self.is_first_class(ty)
    }

    /// [`Parser::is_memory_type`] where the type is written: a named type defined after the
    /// body is not one there (see [`Parser::is_named_later`]).
    fn is_memory_type_here(&self, ty: TypeId) -> bool {
        matches!(self.ty(ty), Type::Int(_) | Type::Float(_) | Type::Ptr(_))
            || (self.is_memory_type(ty) && !self.is_named_later(ty))
    }

    /// The synchronization scope and ordering of an `atomic` load or store, and which
    /// ordering it is.
    fn item_atomic_ordering(&mut self, atomic: bool) -> PResult<Option<&'a [u8]>> {
        if !atomic {
            return Ok(None);
        }
        self.item_syncscope()?;
        self.item_ordering().map(Some)
    }

    fn peek2_is_word(&self, w: &[u8]) -> bool {
        let t = self.peek2();
        t.kind == Tok::Word && &self.src[t.span.range()] == w
    }

    pub(super) fn instruction(&mut self) -> PResult<Opcode> {
        let start = self.tok.span;
        let result_name = match self.tok.kind {
            Tok::LocalName | Tok::LocalNum => {
                let t = self.bump();
                self.expect(Tok::Equal, "'='")?;
                Some(t)
            }
            _ => None,
        };
        let opcode = match Opcode::from_keyword(self.word()) {
            Some(op) => op,
            None => return Err(self.err("an instruction")),
        };
        let items_start = self.scope().body.items.len() as u32;
        // Left by an instruction that did not read to its end, if any.
        self.intrinsic_uses.clear();
        self.intrinsic_use_context = IntrinsicUseContext::default();
        let ty = self.instruction_operands(opcode)?;
        if !self.intrinsic_uses.is_empty() {
            self.intrinsic_uses_hold();
        }
        // Metadata attachments.
        let md_start = self.scope().body.attachments.len() as u32;
        while self.tok.kind == Tok::Comma && self.peek2().kind == Tok::MdName {
            self.bump();
            let a = self.attachment()?;
            self.scope().body.attachments.push(a);
        }
        if self.tok.kind == Tok::Comma {
            // A comma after an instruction brings an attachment, or an alignment where one
            // may follow.
            self.bump();
            let with_align = matches!(
                opcode,
                Opcode::Load | Opcode::Store | Opcode::AtomicRmw | Opcode::AtomicCmpXchg
            );
            return Err(self.err(match with_align {
                true => "metadata or 'align'",
                false => "metadata after comma",
            }));
        }
        let md_len = self.scope().body.attachments.len() as u32 - md_start;
        let end = self.prev_end();
        let id = self.scope().body.insts.next_key();
        let is_void = matches!(self.ty(ty), Type::Void);
        let result = if is_void {
            if let Some(t) = result_name {
                return Err(self.err_at(t.span, "instructions returning void cannot have a name"));
            }
            None
        } else {
            let l = self.define_local(result_name, LocalDef::Inst(id))?;
            self.local_defined_as(l, ty, result_name.map_or(start, |t| t.span))?;
            Some(l)
        };
        let debug_intrinsic = match opcode == Opcode::Call && result.is_none() {
            true => self.debug_intrinsic_called(items_start),
            false => None,
        };
        if let Some(intrinsic) = debug_intrinsic {
            self.scope().body.leaves_implicit = true;
            if intrinsic != b"llvm.dbg.label" {
                // Where LLVM's `parseCall` starts: after the word `call` or `tail`.
                let at = Lexer::starting_at(self.src, start.end as usize).next().span;
                self.scope()
                    .body
                    .debug_forms
                    .intrinsic_call
                    .get_or_insert(at);
            }
            // LLVM reads a call of `llvm.dbg.value` and its kin as the debug record it
            // stands for (`#dbg_value`): so do we, for counts and comparison alike.
            let body = &mut self.scope().body;
            body.items.truncate(items_start as usize);
            body.attachments.truncate(md_start as usize);
            body.debug_records.push(DebugRecord {
                before: id,
                span: start.to(end),
            });
            return Ok(opcode);
        }
        let scope = self.scope();
        let items_len = scope.body.items.len() as u32 - items_start;
        scope.body.insts.push(Inst {
            opcode,
            result,
            ty,
            items_start,
            items_len,
            md_start,
            md_len: u16::try_from(md_len).unwrap_or(u16::MAX),
            span: start.to(end),
        });
        Ok(opcode)
    }

    /// Which of `llvm.dbg.value`, `llvm.dbg.declare`, `llvm.dbg.assign` and `llvm.dbg.label`
    /// (declared or not) the call whose items start at `items_start` calls, if any: its callee
    /// is its first global operand.
    fn debug_intrinsic_called(&self, items_start: u32) -> Option<&'static [u8]> {
        let (Some(bm), Some(scope)) = (&self.body_mode, &self.scope) else {
            return None;
        };
        let callee = scope.body.items[items_start as usize..]
            .iter()
            .find_map(|it| match it {
                Item::Value(v) => match v.kind() {
                    ValueKind::Global(u) => {
                        bm.uses.get(u.index().checked_sub(bm.first_use as usize)?)
                    }
                    _ => None,
                },
                _ => None,
            });
        let use_ = callee?;
        let implicit;
        let name = if use_.global.is_reserved_value() {
            implicit = self.global_name_at(use_.span);
            &implicit[..]
        } else {
            match &bm.base.globals[use_.global].name {
                GlobalName::Named(n) => &n[..],
                GlobalName::Numbered(_) => return None,
            }
        };
        DEBUG_INTRINSICS
            .into_iter()
            .find(|&intrinsic| name == intrinsic)
    }

    /// The intrinsic `callee`, read from `tok`, names, if it is one whose calls' types are
    /// checked: one the module does not declare, or one it declares.
    fn intrinsic_callee(&mut self, callee: Value, tok: Token) -> Option<IntrinsicCall> {
        let ValueKind::Global(u) = callee.kind() else {
            return None;
        };
        let name = &self.src[tok.span.range()];
        if !names_intrinsic(tok, name) {
            return None;
        }
        let global = self.recorded_use(u)?.global;
        if global.is_reserved_value() {
            // Whether the call's type is the intrinsic's is known once it is read.
            let immediates = intrinsics::immediate_params_by_name(&strip_name(&name[1..]));
            return Some(IntrinsicCall::new(
                IntrinsicType::Undeclared(Vec::new()),
                immediates,
            ));
        }
        let bm = self.body_mode.as_ref()?;
        match bm.base.globals[global].kind {
            GlobalKind::Function(f) => {
                let declared = &bm.base.intrinsic_immediates;
                let immediates = declared
                    .binary_search_by_key(&f, |&(g, _)| g)
                    .map_or(Immediates::default(), |i| declared[i].1.clone());
                Some(IntrinsicCall::new(
                    IntrinsicType::Declared {
                        fn_ty: bm.base.functions[f].fn_ty,
                        params_match: true,
                        declared_at: bm.base.functions[f].span.start,
                    },
                    immediates,
                ))
            }
            _ => None,
        }
    }

    /// An argument of a call of an intrinsic: of type `ty`, the value `v` written at `at`,
    /// with the `range` attribute the call gives it, if any, and whether the call marks it
    /// `immarg`. Its type is kept (or matched against the declaration's), and the argument
    /// itself if the call marks it `immarg` and the intrinsic does not, or if its parameter
    /// takes only an immediate (LLVM's `ConstantInt` or `ConstantFP`) and it is none, or an
    /// integer out of the range of the call, or else of the intrinsic
    /// ([`Immediates::range`]).
    fn intrinsic_argument(
        &self,
        call: &mut IntrinsicCall,
        (ty, own_range, own_immarg): (TypeId, Option<Attr>, bool),
        v: Value,
        at: Span,
    ) {
        let index = call.arguments;
        call.arguments += 1;
        match &mut call.ty {
            IntrinsicType::Undeclared(params) => params.push(ty),
            IntrinsicType::Declared {
                fn_ty,
                params_match,
                ..
            } => {
                let param = match self.body_ty(*fn_ty) {
                    Type::Function { params, .. } => params.get(index).copied(),
                    _ => None,
                };
                *params_match &= param.is_some_and(|param| self.types_llvm_equates(param, ty));
            }
        }
        if call.refused.is_some() {
            return;
        }
        if index >= 32 || call.immediates.params >> index & 1 == 0 {
            if own_immarg {
                call.refused = Some((at, intrinsics::IMMEDIATE_AT_CALL_ONLY.into()));
            }
            return;
        }
        let (immediate, int) = match (self.constant_of(v), self.body_ty(ty)) {
            (Some(Const::Int(span, _)), &Type::Int(width)) => (
                true,
                int_literal(&self.src[span.range()]).map(|bits| (width, bits)),
            ),
            (Some(Const::Int(..) | Const::Float(_)), _) => (true, None),
            // An expression of constants alone LLVM may fold to an integer as it reads it
            // (`add (i32 2, i32 3)`, `ptrtoint (ptr null to i32)`): taken, unchecked. One
            // naming a global is no immediate: LLVM cannot fold `ptrtoint (ptr @f to i32)`.
            (Some(Const::Expr(expr)), _) => (!self.names_a_global(&expr.1), None),
            // `zeroinitializer` of an integer or floating-point type is LLVM's zero of it.
            (Some(Const::Zero), &Type::Int(width)) => (true, Some((width, 0))),
            (Some(Const::Zero), Type::Float(_)) => (true, None),
            _ => (false, None),
        };
        if !immediate {
            call.refused = Some((at, intrinsics::NOT_IMMEDIATE.into()));
            return;
        }
        let range = match own_range {
            // A range whose ends are not read here (none LLVM prints) is taken to hold.
            Some(own) => intrinsics::range_ends(&self.src[own.span().range()]),
            None => call.immediates.range(index),
        };
        if let (Some(ends), Some((width, bits))) = (range, int)
            && !intrinsics::in_range(width, bits, ends)
        {
            let signed = |bits| intrinsics::sign_extended(width, bits);
            let (value, low, high) = (signed(bits), signed(ends.0), signed(ends.1));
            let message = format!("immarg value {value} out of range [{low}, {high})");
            call.refused = Some((at, message.into()));
        }
    }

    /// Whether `a` and `b` are one type to LLVM: a name given to a type other than a struct
    /// (`%v = type <4 x i32>`) makes no new type, a named struct is not its body.
    pub(super) fn types_llvm_equates(&self, a: TypeId, b: TypeId) -> bool {
        let unaliased = |t: TypeId| match self.body_ty(t) {
            Type::Struct { .. } | Type::Named(_) => t,
            _ => self.resolve_ty(t),
        };
        a == b || unaliased(a) == unaliased(b)
    }

    /// A call of an intrinsic has the intrinsic's type: the function type written, or the
    /// result's and the arguments' types. LLVM declares one the module does not from the
    /// call, if its signature takes that type: the first call in a body whose type it does
    /// not take is kept, by its callee's name (`read::implicit_intrinsic` reports it). A call
    /// of a declared one at another type is a use LLVM's verifier refuses (unless LLVM may
    /// upgrade the declaration as it reads it, and its calls with it).
    fn intrinsic_call_holds(
        &mut self,
        callee: Span,
        call: IntrinsicCall,
        (fn_or_ret, ret): (TypeId, TypeId),
    ) {
        let written = match self.body_ty(fn_or_ret) {
            Type::Function { .. } => Some(self.resolve_ty(fn_or_ret)),
            _ => None,
        };
        let name = || strip_name(&self.src[callee.range()][1..]);
        // The type LLVM declares an intrinsic never declared with: the call's.
        let mut implied_ty = None;
        match call.ty {
            IntrinsicType::Undeclared(params) => {
                let fn_ty = written.unwrap_or_else(|| {
                    self.intern(Type::Function {
                        ret,
                        params,
                        varargs: false,
                    })
                });
                if intrinsics::signature_holds(self, &name(), fn_ty).is_err() {
                    self.scope()
                        .body
                        .mistyped_intrinsic_call
                        .get_or_insert(callee);
                }
                implied_ty = Some(fn_ty);
            }
            IntrinsicType::Declared {
                fn_ty,
                params_match,
                declared_at,
            } => {
                let same = match (written.map(|w| self.body_ty(w)), self.body_ty(fn_ty)) {
                    (
                        Some(Type::Function {
                            ret: r,
                            params: p,
                            varargs: v,
                        }),
                        Type::Function {
                            ret,
                            params,
                            varargs,
                        },
                    ) => {
                        v == varargs
                            && p.len() == params.len()
                            && self.types_llvm_equates(*r, *ret)
                            && p.iter()
                                .zip(params)
                                .all(|(&a, &b)| self.types_llvm_equates(a, b))
                    }
                    (
                        None,
                        Type::Function {
                            ret: r,
                            params,
                            varargs,
                        },
                    ) => {
                        self.types_llvm_equates(*r, ret)
                            && !varargs
                            && params.len() == call.arguments
                            && params_match
                    }
                    _ => true,
                };
                if !same
                    && !intrinsics::declaration_may_be_upgraded(
                        self,
                        &name(),
                        fn_ty,
                        call.arguments,
                    )
                {
                    // LLVM's verifier refuses the call when it reaches the call's function,
                    // or before, at a declaration it meets first, as a use other than a call
                    // at its type (`hasAddressTaken`, which lets assume-like calls be).
                    let declared_first =
                        self.declaration_met_first(declared_at, callee, &name(), fn_ty);
                    let message = if declared_first && !intrinsics::is_assume_like(&name()) {
                        INTRINSIC_USER_INVALID
                    } else {
                        "Intrinsic called with incompatible signature"
                    };
                    self.rule_broken(callee, message);
                }
            }
        }
        if let Some((at, message)) = &call.refused {
            // One declared from the call takes immediates only if the call's type is the
            // intrinsic's.
            let takes_immediates = implied_ty
                .is_none_or(|fn_ty| intrinsics::immediate_params(self, &name(), fn_ty).params != 0);
            if takes_immediates {
                self.rule_broken(*at, message);
            }
        }
    }

    pub(super) fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }

    /// `ty`, or the type of its elements when it is a vector (LLVM's `getScalarType`).
    fn scalar_ty(&self, ty: TypeId) -> &Type {
        match self.body_ty(ty) {
            Type::Vector { elem, .. } => self.body_ty(*elem),
            ty => ty,
        }
    }

    /// Whether a `shufflevector`'s operands are ones LLVM's reader takes
    /// (`ShuffleVectorInst::isValidOperands`): two vectors of one type, and a constant mask of
    /// `i32`s, scalable as they are, each element below twice their length or undefined. A
    /// scalable mask must be undefined or zero. A mask written as a constant expression,
    /// which LLVM folds first, is taken as it stands.
    fn shuffle_holds(&self, ty: TypeId, other: TypeId, mask: TypeId, mask_value: Value) -> bool {
        let Type::Vector { scalable, len, .. } = *self.body_ty(ty) else {
            return false;
        };
        let Type::Vector {
            scalable: mask_scalable,
            elem,
            ..
        } = *self.body_ty(mask)
        else {
            return false;
        };
        if self.resolve_ty(ty) != self.resolve_ty(other)
            || mask_scalable != scalable
            || !matches!(self.body_ty(elem), Type::Int(32))
        {
            return false;
        }
        let Some(constant) = self.constant_of(mask_value) else {
            return false;
        };
        let limit = len.saturating_mul(2);
        match constant {
            Const::Undef | Const::Poison | Const::Zero | Const::Expr(_) => true,
            // A splat of zero is zero.
            Const::Splat(_, element) if scalable => self.mask_element_holds(*element, 1),
            _ if scalable => false,
            Const::Splat(_, element) => self.mask_element_holds(*element, limit),
            Const::Aggregate(b'<', elements) => elements
                .iter()
                .all(|&(_, element)| self.mask_element_holds(element, limit)),
            _ => false,
        }
    }

    /// Whether one element of a shuffle mask is a constant below `limit` (as an unsigned
    /// 32-bit number: `-1` is not) or undefined.
    fn mask_element_holds(&self, element: Value, limit: u64) -> bool {
        match self.constant_of(element) {
            Some(Const::Undef | Const::Poison | Const::Zero | Const::Expr(_)) => true,
            Some(Const::Int(span, _)) => {
                int_literal(&self.src[span.range()]).is_none_or(|v| u64::from(v as u32) < limit)
            }
            _ => false,
        }
    }

    /// A switch case's value, `bits` wide, as LLVM takes it: an integer constant, truncated to
    /// the width (`Ok(None)` when it is wider than 128 bits or written as a constant
    /// expression, which LLVM folds: not compared); `Err` for anything else.
    fn case_value(&self, value: Value, bits: u32) -> Result<Option<u128>, ()> {
        let text = match self.constant_of(value) {
            Some(Const::Int(span, _)) => &self.src[span.range()],
            Some(Const::Zero) => b"0",
            Some(Const::Expr(_)) => return Ok(None),
            _ => return Err(()),
        };
        Ok(int_literal(text)
            .filter(|_| bits <= 128)
            .map(|v| v & (u128::MAX >> (128 - bits))))
    }

    /// A `swifterror` alloca of `ty` (at `at`) and `count` elements (where written) holds to
    /// LLVM's verifier: one pointer. A count written as a constant expression, which LLVM
    /// folds, is let through.
    fn swifterror_alloca_holds(&mut self, at: Span, ty: TypeId, count: Option<(Span, Value)>) {
        let one = |p: &Self, count: Value| {
            p.is_one(count) || matches!(p.constant_of(count), Some(Const::Expr(_)))
        };
        if !self.is_pointer(ty) {
            self.rule_broken(
                at,
                "swifterror alloca must have pointer type (LLVM's verifier)",
            );
        } else if let Some((count_at, count)) = count
            && !one(self, count)
        {
            let message = "swifterror alloca must not be array allocation (LLVM's verifier)";
            self.rule_broken(count_at, message);
        }
    }

    /// Whether a constant expression's `items` name a global, through any constant.
    fn names_a_global(&self, items: &[Item]) -> bool {
        items.iter().any(|item| match item {
            Item::Value(v) => match v.kind() {
                ValueKind::Global(_) => true,
                ValueKind::Local(_) => false,
                ValueKind::Const(_) => match self.constant_of(*v) {
                    Some(
                        Const::BlockAddress(..) | Const::DsoLocalEquivalent(_) | Const::NoCfi(_),
                    ) => true,
                    Some(c) => c.values().any(|e| self.names_a_global(&[Item::Value(e)])),
                    None => false,
                },
            },
            _ => false,
        })
    }

    /// The constant `v` is, if it is one.
    pub(super) fn constant_of(&self, v: Value) -> Option<&Const> {
        let ValueKind::Const(c) = v.kind() else {
            return None;
        };
        Some(match (&self.body_mode, &self.scope) {
            (Some(bm), Some(scope)) => scope.body.constant(bm.base, c),
            _ => &self.m.consts[c],
        })
    }

    fn bool_like(&mut self, ty: TypeId) -> TypeId {
        let i1 = self.intern(Type::Int(1));
        match *self.body_ty(ty) {
            Type::Vector { scalable, len, .. } => self.intern(Type::Vector {
                scalable,
                len,
                elem: i1,
            }),
            _ => i1,
        }
    }

    /// Read the operands of `opcode` (its keyword is the current token) and return the
    /// instruction's result type.
    fn instruction_operands(&mut self, opcode: Opcode) -> PResult<TypeId> {
        use Opcode::*;
        if opcode == Call {
            return self.call_like(Call);
        }
        let opcode_at = self.bump().span;
        Ok(match opcode {
            Ret => {
                let at = self.tok.span;
                let ty = if self.is_word(b"void") {
                    let ty = self.parse_type_or_void()?;
                    self.push_item(Item::Type(ty));
                    // `void ()*`, an old typed pointer, is a value's type.
                    if !matches!(self.ty(ty), Type::Void) {
                        self.item_value(ty)?;
                    }
                    ty
                } else {
                    self.item_typed_value()?
                };
                // Told apart once resolved, as a select's values are.
                if let Some(bm) = &self.body_mode {
                    let result = bm.base.functions[bm.func].ret_ty;
                    if self.resolve_ty(result) != self.resolve_ty(ty) {
                        let message = format!(
                            "value doesn't match function result type '{}'",
                            self.type_text(result)
                        );
                        return Err(self.err_at(at, message));
                    }
                }
                self.void()
            }
            Br => {
                if self.is_word(b"label") {
                    self.item_label()?;
                } else {
                    let at = self.tok.span;
                    let condition = self.item_typed_value()?;
                    if !matches!(self.body_ty(condition), Type::Int(1)) {
                        return Err(self.err_at(at, "branch condition must have 'i1' type"));
                    }
                    self.item_comma()?;
                    self.item_label()?;
                    self.item_comma()?;
                    self.item_label()?;
                }
                self.void()
            }
            Switch => {
                let at = self.tok.span;
                let condition = self.item_typed_value()?;
                self.item_comma()?;
                self.item_label()?;
                self.expect(Tok::LSquare, "'['")?;
                let Type::Int(bits) = *self.body_ty(condition) else {
                    return Err(self.err_at(at, "switch condition must have integer type"));
                };
                self.push_item(Item::Mark(b'['));
                let mut cases = FxHashSet::default();
                while self.tok.kind != Tok::RSquare {
                    let at = self.tok.span;
                    let ty = self.item_type()?;
                    if ty != condition {
                        self.rule_broken(
                            at,
                            "Switch constants must all be same type as switch value!",
                        );
                    }
                    let value = self.item_value(ty)?;
                    self.item_comma()?;
                    self.item_label()?;
                    match self.case_value(value, bits) {
                        Err(()) => {
                            return Err(self.err_at(at, "case value is not a constant integer"));
                        }
                        Ok(Some(case)) if !cases.insert(case) => {
                            return Err(self.err_at(at, "duplicate case value in switch"));
                        }
                        Ok(_) => {}
                    }
                }
                self.bump();
                self.push_item(Item::Mark(b']'));
                self.void()
            }
            IndirectBr => {
                let at = self.tok.span;
                let address = self.item_typed_value()?;
                self.item_comma()?;
                if self.tok.kind == Tok::LSquare && !self.is_pointer(address) {
                    return Err(self.err_at(at, "indirectbr address must have pointer type"));
                }
                self.item_bracketed(|p| p.item_label().map(drop))?;
                self.void()
            }
            Invoke | CallBr => self.call_like(opcode)?,
            Resume => {
                self.item_typed_value()?;
                self.void()
            }
            Unreachable => self.void(),
            CleanupRet => {
                self.expect_word("from")?;
                self.pad_value()?;
                self.expect_word("unwind")?;
                self.unwind_dest()?;
                self.void()
            }
            CatchRet => {
                self.expect_word("from")?;
                self.pad_value()?;
                self.expect_word("to")?;
                self.item_label()?;
                self.void()
            }
            CatchSwitch => {
                self.expect_word("within")?;
                self.pad_value()?;
                self.expect(Tok::LSquare, "'['")?;
                self.push_item(Item::Mark(b'['));
                loop {
                    self.item_label()?;
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RSquare, "']'")?;
                self.push_item(Item::Mark(b']'));
                self.expect_word("unwind")?;
                self.unwind_dest()?;
                self.intern(Type::Token)
            }
            CatchPad | CleanupPad => {
                self.expect_word("within")?;
                self.pad_value()?;
                self.item_bracketed(|p| p.item_typed_value().map(drop))?;
                self.intern(Type::Token)
            }
            FNeg => {
                self.item_flags(&[], true);
                let at = self.tok.span;
                let ty = self.item_typed_value()?;
                if !matches!(self.scalar_ty(ty), Type::Float(_)) {
                    return Err(self.err_at(at, "invalid operand type for instruction"));
                }
                ty
            }
            Add | Sub | Mul | Shl | UDiv | SDiv | LShr | AShr | Or | And | Xor | URem | SRem
            | FAdd | FSub | FMul | FDiv | FRem => {
                let (once, fast_math): (&[&[u8]], bool) = match opcode {
                    Add | Sub | Mul | Shl => (&[b"nuw", b"nsw"], false),
                    UDiv | SDiv | LShr | AShr => (&[b"exact"], false),
                    Or => (&[b"disjoint"], false),
                    FAdd | FSub | FMul | FDiv | FRem => (&[], true),
                    _ => (&[], false),
                };
                self.item_flags(once, fast_math);
                let at = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_value(ty)?;
                // As LLVM's reader takes them: the type the first operand is written with.
                let misfit = match (opcode, self.scalar_ty(ty)) {
                    (FAdd | FSub | FMul | FDiv | FRem, Type::Float(_)) => None,
                    (FAdd | FSub | FMul | FDiv | FRem, _) => {
                        Some("invalid operand type for instruction")
                    }
                    (_, Type::Int(_)) => None,
                    (And | Or | Xor, _) => {
                        Some("instruction requires integer or integer vector operands")
                    }
                    _ => Some("invalid operand type for instruction"),
                };
                if let Some(message) = misfit {
                    return Err(self.err_at(at, message));
                }
                ty
            }
            ICmp | FCmp => {
                match opcode {
                    ICmp => self.item_flags(&[b"samesign"], false),
                    _ => self.item_flags(&[], true),
                }
                let predicate = self.tok;
                let known = predicate.kind == Tok::Word
                    && match opcode {
                        ICmp => is_icmp_predicate(self.text(predicate)),
                        _ => is_fcmp_predicate(self.text(predicate)),
                    };
                if !known {
                    let message = match opcode {
                        ICmp => "expected icmp predicate (e.g. 'eq')",
                        _ => "expected fcmp predicate (e.g. 'oeq')",
                    };
                    return Err(self.err_at(predicate.span, message));
                }
                self.item_word();
                let at = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                self.item_value(ty)?;
                let misfit = match (opcode, self.scalar_ty(ty)) {
                    (ICmp, Type::Int(_) | Type::Ptr(_)) | (FCmp, Type::Float(_)) => None,
                    (ICmp, _) => Some("icmp requires integer operands"),
                    _ => Some("fcmp requires floating point operands"),
                };
                if let Some(message) = misfit {
                    return Err(self.err_at(at, message));
                }
                self.bool_like(ty)
            }
            Trunc | ZExt | SExt | FpToUi | FpToSi | UiToFp | SiToFp | FpTrunc | FpExt
            | PtrToInt | PtrToAddr | IntToPtr | BitCast | AddrSpaceCast => {
                match opcode {
                    Trunc => self.item_flags(&[b"nuw", b"nsw"], false),
                    ZExt | UiToFp => self.item_flags(&[b"nneg"], false),
                    FpTrunc | FpExt => self.item_flags(&[], true),
                    _ => {}
                }
                let from_at = self.tok.span;
                let from = self.item_type()?;
                let from_span = from_at.to(self.prev_end());
                self.item_value(from)?;
                self.expect_word("to")?;
                let to_at = self.tok.span;
                let to = self.item_type()?;
                self.cast_holds(
                    opcode,
                    (from, from_span),
                    (to, to_at.to(self.prev_end())),
                    from_at,
                )?;
                to
            }
            Select => {
                let fast_math = self.item_fast_math_flags();
                let at = self.tok.span;
                let condition = self.item_typed_value()?;
                self.item_comma()?;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let other = self.item_typed_value()?;
                if let Some(message) = self.select_misfit(condition, ty, other) {
                    return Err(self.err_at(at, message));
                }
                self.fast_math_holds(fast_math, ty, opcode_at, "select")?;
                ty
            }
            VaArg => {
                self.item_typed_value()?;
                self.item_comma()?;
                self.item_type()?
            }
            ExtractElement => {
                let at = self.tok.span;
                let vty = self.item_typed_value()?;
                self.item_comma()?;
                let index = self.item_typed_value()?;
                match *self.body_ty(vty) {
                    Type::Vector { elem, .. } if matches!(self.body_ty(index), Type::Int(_)) => {
                        elem
                    }
                    _ => return Err(self.err_at(at, "invalid extractelement operands")),
                }
            }
            InsertElement => {
                let at = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let value = self.item_typed_value()?;
                self.item_comma()?;
                let index = self.item_typed_value()?;
                let fits = match *self.body_ty(ty) {
                    Type::Vector { elem, .. } => {
                        self.resolve_ty(elem) == self.resolve_ty(value)
                            && matches!(self.body_ty(index), Type::Int(_))
                    }
                    _ => false,
                };
                if !fits {
                    return Err(self.err_at(at, "invalid insertelement operands"));
                }
                ty
            }
            ShuffleVector => {
                let at = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let other = self.item_typed_value()?;
                self.item_comma()?;
                let mask = self.item_type()?;
                let mask_value = self.item_value(mask)?;
                if !self.shuffle_holds(ty, other, mask, mask_value) {
                    return Err(self.err_at(at, "invalid shufflevector operands"));
                }
                match (self.ty(ty).clone(), self.ty(mask).clone()) {
                    (Type::Vector { elem, .. }, Type::Vector { scalable, len, .. }) => {
                        self.intern(Type::Vector {
                            scalable,
                            len,
                            elem,
                        })
                    }
                    _ => ty,
                }
            }
            ExtractValue => {
                let at = self.tok.span;
                let aggregate = self.item_typed_value()?;
                let indices = self.item_value_indices()?;
                self.member_type(aggregate, &indices)
                    .map_err(|why| self.err_at(at, why.message("extractvalue")))?
            }
            InsertValue => {
                let at = self.tok.span;
                let aggregate = self.item_typed_value()?;
                self.item_comma()?;
                let value_at = self.tok.span;
                let value = self.item_typed_value()?;
                let indices = self.item_value_indices()?;
                let member = self
                    .member_type(aggregate, &indices)
                    .map_err(|why| self.err_at(at, why.message("insertvalue")))?;
                // Told apart once resolved, as a select's values are.
                if self.resolve_ty(member) != self.resolve_ty(value) {
                    let message = format!(
                        "insertvalue operand and field disagree in type: '{}' instead of '{}'",
                        self.type_text(value),
                        self.type_text(member)
                    );
                    return Err(self.err_at(value_at, message));
                }
                aggregate
            }
            Alloca => {
                // In this order, each at most once, as LLVM reads them.
                let mut swifterror = false;
                for word in ["inalloca", "swifterror"] {
                    if self.is_word(word.as_bytes()) {
                        self.item_word();
                        swifterror = word == "swifterror";
                    }
                }
                let at = self.tok.span;
                let ty = self.item_type()?;
                if !self.is_array_element(ty) {
                    return Err(self.err_at(at, "invalid type for alloca"));
                }
                let layout = self.layout(ty, 0);
                if !self.is_scalar(ty) && !layout.sized {
                    return Err(self.err_at(at, "Cannot allocate unsized type"));
                }
                let mut count = None;
                if self.tok.kind == Tok::Comma
                    && !matches!(self.peek2().kind, Tok::MdName)
                    && !self.peek2_is_word(b"align")
                    && !self.peek2_is_word(b"addrspace")
                {
                    self.bump();
                    let at = self.tok.span;
                    let ty = self.item_type()?;
                    count = Some((at, ty, self.item_value(ty)?));
                }
                // With an alignment, LLVM's parser leaves the size to its verifier, which
                // sees the types the whole text defines.
                if !self.item_opt_align()? && !self.is_scalar(ty) && !self.sized_here(layout) {
                    return Err(self.err_at(at, "Cannot allocate unsized type"));
                }
                if layout.bars_stack {
                    self.rule_broken(at, "Alloca has illegal target extension type");
                }
                // LLVM 22's reader ignores the datalayout's `A` here.
                let mut addr_space = 0;
                if self.tok.kind == Tok::Comma && self.peek2_is_word(b"addrspace") {
                    self.bump();
                    let t = self.tok;
                    addr_space = self.opt_addrspace_number()?;
                    self.push_word(t.span.to(self.prev_end()))?;
                }
                if let Some((at, count, _)) = count
                    && !matches!(self.body_ty(count), Type::Int(_))
                {
                    return Err(self.err_at(at, "element count must have integer type"));
                }
                if swifterror {
                    let body = &mut self.scope().body;
                    body.swifterror_allocas.push(body.insts.next_key());
                    self.swifterror_alloca_holds(at, ty, count.map(|(at, _, v)| (at, v)));
                }
                if self.top().amdgpu && addr_space != 5 {
                    let message = "an alloca outside address space 5 on an AMDGPU target \
                                   (LLVM's verifier: alloca on amdgpu must be in addrspace(5))";
                    self.rule_broken(at, message);
                }
                self.intern(Type::Ptr(addr_space))
            }
            Load => {
                let atomic = self.is_word(b"atomic");
                self.item_words_in_order(&[b"atomic", b"volatile"]);
                let at = self.tok.span;
                let ty = self.item_type()?;
                self.item_comma()?;
                let pointer = self.tok.span;
                let pointer_ty = self.item_typed_value()?;
                let ordering = self.item_atomic_ordering(atomic)?;
                let aligned = self.item_opt_align()?;
                // In the order LLVM checks them; a type is sized when an alignment is given.
                if !self.is_pointer(pointer_ty) || !self.is_memory_type_here(ty) {
                    let message = "load operand must be a pointer to a first class type";
                    return Err(self.err_at(pointer, message));
                }
                if atomic && !aligned {
                    let message = "atomic load must have explicit non-zero alignment";
                    return Err(self.err_at(pointer, message));
                }
                if matches!(ordering, Some(b"release" | b"acq_rel")) {
                    let message = "atomic load cannot use Release ordering";
                    return Err(self.err_at(pointer, message));
                }
                if !aligned && !self.is_scalar(ty) && !self.is_sized_here(ty) {
                    return Err(self.err_at(at, "loading unsized types is not allowed"));
                }
                if atomic && let Some(message) = self.atomic_access_misfit(AtomicAccess::Load, ty) {
                    self.rule_broken(at, message);
                }
                ty
            }
            Store => {
                let atomic = self.is_word(b"atomic");
                self.item_words_in_order(&[b"atomic", b"volatile"]);
                let value = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let pointer = self.tok.span;
                let pointer_ty = self.item_typed_value()?;
                let ordering = self.item_atomic_ordering(atomic)?;
                let aligned = self.item_opt_align()?;
                // In the order LLVM checks them.
                if !self.is_pointer(pointer_ty) {
                    return Err(self.err_at(pointer, "store operand must be a pointer"));
                }
                let misfit = if !self.is_memory_type_here(ty) {
                    Some("store operand must be a first class value")
                } else if atomic && !aligned {
                    Some("atomic store must have explicit non-zero alignment")
                } else if matches!(ordering, Some(b"acquire" | b"acq_rel")) {
                    Some("atomic store cannot use Acquire ordering")
                } else if !aligned && !self.is_scalar(ty) && !self.is_sized_here(ty) {
                    Some("storing unsized types is not allowed")
                } else {
                    None
                };
                if let Some(message) = misfit {
                    return Err(self.err_at(value, message));
                }
                if atomic && let Some(message) = self.atomic_access_misfit(AtomicAccess::Store, ty)
                {
                    self.rule_broken(value, message);
                }
                self.void()
            }
            Fence => {
                self.item_syncscope()?;
                let ordering = self.item_ordering()?;
                if matches!(ordering, b"unordered" | b"monotonic") {
                    let message = format!("fence cannot be {}", String::from_utf8_lossy(ordering));
                    return Err(self.err_at(self.after_instruction(), message));
                }
                self.void()
            }
            AtomicCmpXchg => {
                self.item_words_in_order(&[b"weak", b"volatile"]);
                let pointer = (self.tok.span, self.item_typed_value()?);
                self.item_comma()?;
                let ty = self.item_typed_value()?;
                self.item_comma()?;
                let new = (self.tok.span, self.item_typed_value()?);
                self.item_syncscope()?;
                let success = self.item_ordering()?;
                let failure = self.item_ordering()?;
                self.item_opt_align()?;
                if success == b"unordered" {
                    let message = "invalid cmpxchg success ordering";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                if matches!(failure, b"unordered" | b"release" | b"acq_rel") {
                    let message = "invalid cmpxchg failure ordering";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                if !self.is_pointer(pointer.1) {
                    return Err(self.err_at(pointer.0, "cmpxchg operand must be a pointer"));
                }
                if self.resolve_ty(ty) != self.resolve_ty(new.1) {
                    let message = "compare value and new value type do not match";
                    return Err(self.err_at(new.0, message));
                }
                if !self.is_first_class(new.1) {
                    let message = "cmpxchg operand must be a first class value";
                    return Err(self.err_at(new.0, message));
                }
                if let Some(message) = self.atomic_access_misfit(AtomicAccess::CmpXchg, ty) {
                    self.rule_broken(new.0, message);
                }
                let i1 = self.intern(Type::Int(1));
                self.intern(Type::Struct {
                    packed: false,
                    elems: vec![ty, i1],
                })
            }
            AtomicRmw => {
                self.item_words_in_order(&[b"volatile"]);
                let operation = self.tok;
                if operation.kind != Tok::Word || atomicrmw_kind(self.text(operation)).is_none() {
                    return Err(self.err("binary operation in atomicrmw"));
                }
                self.item_word();
                let pointer = (self.tok.span, self.item_typed_value()?);
                self.item_comma()?;
                let value = self.tok.span;
                let ty = self.item_typed_value()?;
                self.item_syncscope()?;
                let ordering = self.item_ordering()?;
                self.item_opt_align()?;
                // In the order LLVM checks them.
                if ordering == b"unordered" {
                    let message = "atomicrmw cannot be unordered";
                    return Err(self.err_at(self.after_instruction(), message));
                }
                if !self.is_pointer(pointer.1) {
                    return Err(self.err_at(pointer.0, "atomicrmw operand must be a pointer"));
                }
                if let Some(message) = self.atomicrmw_misfit(self.text(operation), ty) {
                    return Err(self.err_at(value, message));
                }
                if let Some(message) = self.atomic_access_misfit(AtomicAccess::Rmw, ty) {
                    self.rule_broken(value, message);
                }
                ty
            }
            GetElementPtr => {
                self.item_words_while(|w| matches!(w, b"inbounds" | b"nusw" | b"nuw"));
                let source = self.item_type()?;
                self.item_comma()?;
                let base = self.tok.span;
                let mut result = self.item_typed_value()?;
                if !matches!(self.scalar_ty(result), Type::Ptr(_)) {
                    return Err(self.err_at(base, "base of getelementptr must be a pointer"));
                }
                let mut width = self.gep_width(result);
                // The type each index after the first steps into, while it can be followed.
                let mut indexed = None;
                let mut invalid = false;
                while self.tok.kind == Tok::Comma && self.peek2().kind != Tok::MdName {
                    self.bump();
                    let at = self.tok.span;
                    let ity = self.item_type()?;
                    let index = self.tok;
                    self.item_value(ity)?;
                    if let Err(message) = self.gep_index_holds(ity, &mut width) {
                        return Err(self.err_at(at, message));
                    }
                    indexed = match indexed {
                        None => Some(Some(source)),
                        Some(Some(ty)) => {
                            Some(self.gep_step(ty, ity, index).unwrap_or_else(|()| {
                                invalid = true;
                                None
                            }))
                        }
                        Some(None) => Some(None),
                    };
                    if let Type::Vector { scalable, len, .. } = *self.ty(ity)
                        && !matches!(self.ty(result), Type::Vector { .. })
                    {
                        result = self.intern(Type::Vector {
                            scalable,
                            len,
                            elem: result,
                        });
                    }
                }
                let layout = self.layout(source, 0);
                if indexed.is_some() && !self.sized_here(layout) {
                    return Err(self.err_at(base, "base element of getelementptr must be sized"));
                }
                if layout.scalable && matches!(self.body_ty(source), Type::Struct { .. }) {
                    let message =
                        "getelementptr cannot target structure that contains scalable vector type";
                    return Err(self.err_at(base, message));
                }
                if invalid {
                    return Err(self.err_at(base, "invalid getelementptr indices"));
                }
                result
            }
            Phi => {
                let fast_math = self.item_fast_math_flags();
                let at = self.tok.span;
                let ty = self.item_type()?;
                if !self.is_first_class(ty) {
                    return Err(self.err_at(at, "phi node must have first class type"));
                }
                if self.body_ty(ty).is_token_like() {
                    self.rule_broken(at, "PHI nodes cannot have token type!");
                }
                // No incoming value at all is valid (a block that no edge reaches).
                let mut incoming = self.tok.kind == Tok::LSquare;
                while incoming {
                    self.expect(Tok::LSquare, "'['")?;
                    self.item_value(ty)?;
                    self.item_comma()?;
                    let t = self.tok;
                    if !matches!(t.kind, Tok::LocalName | Tok::LocalNum) {
                        return Err(self.err("a block name"));
                    }
                    let label = self.intern(Type::Label);
                    let l = self.typed_local_ref(t, label)?;
                    self.push_item(Item::Value(Value::local(l)));
                    self.expect(Tok::RSquare, "']'")?;
                    incoming = self.tok.kind == Tok::Comma && self.peek2().kind == Tok::LSquare;
                    if incoming {
                        self.bump();
                    }
                }
                self.fast_math_holds(fast_math, ty, opcode_at, "phi")?;
                ty
            }
            LandingPad => {
                let ty = self.item_type()?;
                // `cleanup` once, before the clauses.
                if self.word() == b"cleanup" {
                    self.item_word();
                }
                loop {
                    let catch = match self.word() {
                        b"catch" => true,
                        b"filter" => false,
                        _ => break,
                    };
                    self.item_word();
                    let at = self.tok.span;
                    let clause = self.item_type()?;
                    let value = self.item_value(clause)?;
                    // A catch takes a constant that is not an array, a filter an array one.
                    if catch == matches!(self.body_ty(clause), Type::Array(..)) {
                        let message = match catch {
                            true => "'catch' clause has an invalid type",
                            false => "'filter' clause has an invalid type",
                        };
                        return Err(self.err_at(at, message));
                    }
                    if matches!(value.kind(), ValueKind::Local(_)) {
                        return Err(self.err_at(at, "clause argument must be a constant"));
                    }
                }
                ty
            }
            Freeze => self.item_typed_value()?,
            Call => unreachable!("handled above"),
        })
    }

    /// `[ x, y, ... ]` (possibly empty), each element read by `element`, between marks.
    fn item_bracketed(&mut self, mut element: impl FnMut(&mut Self) -> PResult<()>) -> PResult<()> {
        self.expect(Tok::LSquare, "'['")?;
        self.push_item(Item::Mark(b'['));
        if self.tok.kind != Tok::RSquare {
            loop {
                element(self)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        self.push_item(Item::Mark(b']'));
        Ok(())
    }

    /// The `, N` indices of extractvalue and insertvalue, kept as words; a number out of
    /// range stands as `u64::MAX`, which indexes nothing.
    fn item_value_indices(&mut self) -> PResult<Vec<u64>> {
        // As LLVM's `parseIndexList` reads them: at least one, each an unsigned 32-bit
        // integer, up to a metadata attachment.
        if self.tok.kind != Tok::Comma {
            return Err(self.err_at(self.tok.span, "expected ',' as start of index list"));
        }
        let mut indices = Vec::new();
        while self.tok.kind == Tok::Comma {
            let next = self.peek2();
            if next.kind == Tok::MdName {
                if indices.is_empty() {
                    return Err(self.err_at(next.span, "expected index"));
                }
                break;
            }
            self.bump();
            // An unsigned literal: not negative, nor `s0x` (`+1` is no integer token there).
            let value = match self.integer() {
                Some((false, magnitude)) if !self.text(self.tok).starts_with(b"s") => magnitude,
                _ => return Err(self.err("integer")),
            };
            let t = self.bump();
            let index = value.filter(|&i| i <= u64::from(u32::MAX));
            let Some(index) = index else {
                return Err(self.err_at(t.span, "expected 32-bit integer (too large)"));
            };
            self.push_word(t.span)?;
            indices.push(index);
        }
        Ok(indices)
    }

    /// The member of `aggregate` the indices name (`ExtractValueInst::getIndexedType`), or
    /// why there is none.
    fn member_type(&self, aggregate: TypeId, indices: &[u64]) -> Result<TypeId, NoMember> {
        if !matches!(
            self.body_ty(aggregate),
            Type::Struct { .. } | Type::Array(..)
        ) {
            return Err(NoMember::NotAggregate);
        }
        let mut ty = aggregate;
        for &index in indices {
            ty = match self.body_ty(ty) {
                Type::Struct { elems, .. } => elems.get(index as usize).copied(),
                Type::Array(n, elem) if index < *n => Some(*elem),
                _ => None,
            }
            .ok_or(NoMember::InvalidIndices)?;
        }
        Ok(ty)
    }

    /// The parent pad of a funclet instruction: a local value or `none`.
    fn pad_value(&mut self) -> PResult<()> {
        let token = self.intern(Type::Token);
        self.item_value(token)?;
        Ok(())
    }

    fn unwind_dest(&mut self) -> PResult<()> {
        if self.is_word(b"to") {
            self.bump();
            let t = self.expect_word("caller")?;
            self.push_word(t.span)?;
            Ok(())
        } else {
            self.item_label()
        }
    }

    /// call, invoke and callbr: `[tail] call [fmf] [cc] [retattrs] [addrspace] T callee(args)
    /// [fnattrs] [bundles]` and the destinations of invoke and callbr.
    fn call_like(&mut self, opcode: Opcode) -> PResult<TypeId> {
        let mut musttail = false;
        let (mut fast_math, mut fast_math_at) = (false, None);
        // Where LLVM's parser reports a call missing arguments: the token after `invoke`,
        // `callbr` or `call`, at `call` itself after a tail kind.
        let mut call_at = self.tok.span;
        if opcode == Opcode::Call {
            let tail = TAIL_KINDS.contains(&self.word());
            if tail {
                musttail = self.word() == b"musttail";
                self.item_word();
                call_at = self.tok.span;
            }
            self.expect_word("call")?;
            if !tail {
                call_at = self.tok.span;
            }
            fast_math_at = Some(self.tok.span);
            fast_math = self.item_fast_math_flags();
        }
        let cc = self.calling_convention()?;
        if let Some(cc) = cc {
            // Only a GPU's conventions are not callable (named, or by number).
            let text = &self.src[cc.range()];
            let maybe_uncallable =
                text.starts_with(b"amdgpu") || text.starts_with(b"spir") || text.starts_with(b"cc");
            if maybe_uncallable
                && calling_convention::number(text)
                    .is_some_and(|n| !calling_convention::callable(n))
            {
                self.rule_broken(cc, "calling convention does not permit calls");
            }
            self.push_word(cc)?;
        }
        let results = self.item_attributes(Some(AttrPlace::Return))?;
        // The callee is a pointer into this address space, the program's unless written.
        let addr_space = match self.addrspace()? {
            Some((text, number)) => {
                self.push_word(text)?;
                number
            }
            None => self.data_layout().program_addr_space,
        };
        let ret_at = self.tok.span;
        let fn_or_ret = self.parse_type_or_void()?;
        self.push_item(Item::Type(fn_or_ret));
        // A named type may stand for the function type (`%FnTy = type i32 ()`). Written
        // whole, its parameters must take the arguments: LLVM's parser checks them once the
        // call is read (its labels too), so the first mismatch is kept until then.
        let (ret, written_params) = match self.body_ty(fn_or_ret) {
            Type::Function {
                ret,
                params,
                varargs,
            } => (*ret, Some((params.clone(), *varargs))),
            _ => (fn_or_ret, None),
        };
        let mut arguments_mismatched: Option<(Span, String)> = None;
        // A result type alone LLVM makes a function type of, once the call is read.
        let result_refused =
            written_params.is_none() && matches!(self.body_ty(ret), Type::Label | Type::Metadata);
        // The callee.
        let ptr = self.intern(Type::Ptr(addr_space));
        let callee_tok = self.tok;
        let callee = self.parse_value(ptr)?;
        let callee = self.note_direct_use(callee);
        if let (ValueKind::Global(u), Tok::GlobalName | Tok::GlobalNum) =
            (callee.kind(), callee_tok.kind)
        {
            self.set_use_role(u, UseRole::Callee);
        }
        self.push_item(Item::Value(callee));
        // An intrinsic's call is checked against its type (or, for one never declared, its
        // signature): the arguments' types are kept.
        let mut intrinsic = self.intrinsic_callee(callee, callee_tok);
        let mut convergence_token = None;
        self.intrinsic_use_context.assume_like_call = intrinsic.is_some()
            && intrinsics::is_assume_like(&self.global_name_at(callee_tok.span));
        let mut rules = CallRules::new(self, fn_or_ret, ret, callee_tok);
        rules.result(self, results);
        // Arguments.
        self.expect(Tok::LParen, "'(' to start the argument list")?;
        self.push_item(Item::Mark(b'('));
        // A musttail call in a varargs function forwards the caller's own variable arguments,
        // written `...` last, and only there.
        let in_varargs = |p: &Self| match &p.body_mode {
            Some(bm) => bm.base.functions[bm.func].varargs,
            None => false,
        };
        let va_start = self.src[callee_tok.span.range()]
            .strip_prefix(b"@")
            .is_some_and(|name| intrinsics::is_named(name, b"llvm.va_start"));
        if va_start && !in_varargs(self) {
            self.rule_broken(callee_tok.span, "va_start called in a non-varargs function");
        }
        let mut forwards_varargs = false;
        // A musttail call's arguments' types and attributes, against the caller's, or an
        // inline assembly call's, against its constraints.
        let inline_asm = callee_tok.kind == Tok::Word;
        let ptrmask = callee_tok.kind == Tok::GlobalName && {
            let name = self.text(callee_tok);
            name == b"@llvm.ptrmask" || name.starts_with(b"@llvm.ptrmask.")
        };
        let assume = callee_tok.kind == Tok::GlobalName && self.text(callee_tok) == b"@llvm.assume";
        let mut assumed = None;
        let mut arguments_read = Vec::new();
        // Only an intrinsic takes metadata or a token (LLVM checks the call's function type's
        // parameters: not the variable arguments after them).
        let intrinsic_named = callee_tok.kind == Tok::GlobalName && {
            let name = &self.text(callee_tok)[1..];
            is_intrinsic_name(name.strip_prefix(b"\"").unwrap_or(name))
        };
        let mut typed_params = match &written_params {
            Some((params, true)) => params.len(),
            _ => usize::MAX,
        };
        let mut non_intrinsic_takes: Option<&str> = None;
        let element_type_rule = match intrinsic_named {
            true => element_type_rule(&self.text(callee_tok)[1..]),
            false => None,
        };
        let (mut argument_index, mut element_type_given) = (0, false);
        let mut constant_amx = false;
        // LLVM checks the types of the result and of the parameters the call's type names.
        if !intrinsic_named && self.aligned_past_maximum(ret, 0) {
            let message = "Incorrect alignment of return type to called function!";
            self.rule_broken(callee_tok.span, message);
        }
        if self.tok.kind != Tok::RParen {
            loop {
                if self.tok.kind == Tok::DotDotDot {
                    let unexpected = "unexpected ellipsis in argument list for ";
                    if !musttail {
                        let message = format!("{unexpected}non-musttail call");
                        return Err(self.err_at(self.tok.span, message));
                    }
                    if !in_varargs(self) {
                        let message = format!("{unexpected}musttail call in non-varargs function");
                        return Err(self.err_at(self.tok.span, message));
                    }
                    self.item_word();
                    forwards_varargs = true;
                    break;
                }
                let at = self.tok.span;
                let ty = self.item_type()?;
                if let Some((params, varargs)) = &written_params
                    && arguments_mismatched.is_none()
                {
                    arguments_mismatched = match params.get(argument_index) {
                        Some(&expected) if !self.types_llvm_equates(expected, ty) => Some((
                            at,
                            format!(
                                "argument is not of expected type '{}'",
                                self.type_text(expected)
                            ),
                        )),
                        None if !varargs => Some((at, "too many arguments specified".into())),
                        _ => None,
                    };
                }
                // A metadata argument has no attributes (`metadata ptr @g`: `ptr` is its type).
                let metadata = matches!(self.ty(ty), Type::Metadata);
                if !metadata {
                    self.check_argument_type(ty, at)?;
                }
                if !intrinsic_named && non_intrinsic_takes.is_none() && typed_params > 0 {
                    non_intrinsic_takes = if metadata {
                        Some("Function has metadata parameter but isn't an intrinsic")
                    } else if self.body_ty(ty).is_token_like() {
                        Some("Function has token parameter but isn't an intrinsic")
                    } else {
                        None
                    };
                }
                if !intrinsic_named
                    && !metadata
                    && typed_params > 0
                    && self.aligned_past_maximum(ty, 0)
                {
                    let message = "Incorrect alignment of argument passed to called function!";
                    self.rule_broken(at, message);
                }
                typed_params = typed_params.saturating_sub(1);
                let attrs = self.item_attributes((!metadata).then_some(AttrPlace::Parameter))?;
                if element_type_rule.is_some_and(|(index, _)| index == argument_index) {
                    element_type_given = self.body_attrs()[attrs.1.clone()]
                        .iter()
                        .any(|a| matches!(self.attribute_keyword(a), Some(b"elementtype")));
                }
                argument_index += 1;
                if musttail || inline_asm || ptrmask {
                    arguments_read.push((ty, attrs.1.clone()));
                }
                let inalloca = attrs.0.has(verify_attributes::INALLOCA);
                let own_immarg = attrs.0.has(verify_attributes::IMMARG);
                let own_range = match attrs.0.has(verify_attributes::RANGE) {
                    true => {
                        let own = &self.body_attrs()[attrs.1.clone()];
                        verify_attributes::attribute_of(self.src, own, verify_attributes::RANGE)
                            .copied()
                    }
                    false => None,
                };
                rules.argument(self, ty, attrs);
                let value_at = self.tok.span;
                let value = if metadata {
                    // `metadata <4 x i32> %v`, `metadata %T %v`: a type, not a value, follows.
                    let md = self.md_operand(true)?;
                    let c = self.push_const(Const::Metadata(md));
                    self.push_item(Item::Value(c));
                    c
                } else {
                    self.item_value(ty)?
                };
                if assume {
                    assumed.get_or_insert(value);
                }
                if inalloca && self.allocated_without_inalloca(value) {
                    let message = "inalloca argument for call has mismatched alloca";
                    self.rule_broken(value_at, message);
                }
                constant_amx |= intrinsic_named
                    && matches!(value.kind(), ValueKind::Const(_))
                    && matches!(self.body_ty(ty), Type::X86Amx);
                // (A call of another function marking `immarg` breaks an attribute's rule.)
                if let Some(call) = &mut intrinsic {
                    let own = (ty, own_range, own_immarg);
                    self.intrinsic_argument(call, own, value, value_at);
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if musttail {
            // The callee is inline assembly (`asm`), which no tail call can be.
            if callee_tok.kind == Tok::Word && self.text(callee_tok) == b"asm" {
                self.rule_broken(callee_tok.span, "cannot use musttail call with inline asm");
            }
            self.musttail_prototype_holds(callee_tok.span, cc, (fn_or_ret, ret), &arguments_read);
            self.musttail = Some(MustTail {
                call: callee_tok.span,
                value: None,
                cast: false,
            });
        }
        if musttail && !forwards_varargs && self.tok.kind == Tok::RParen && in_varargs(self) {
            let message = "expected '...' at end of argument list for musttail call in varargs \
                           function";
            return Err(self.err_at(self.tok.span, message));
        }
        self.expect(Tok::RParen, "')'")?;
        self.push_item(Item::Mark(b')'));
        if let Some(message) = non_intrinsic_takes
            && !self.callee_takes_token_or_metadata(callee)
        {
            self.rule_broken(callee_tok.span, message);
        }
        if let Some(call) = intrinsic {
            self.intrinsic_call_holds(callee_tok.span, call, (fn_or_ret, ret));
        }
        if constant_amx {
            self.rule_broken(callee_tok.span, "const x86_amx is not allowed in argument!");
        }
        if let Some((_, message)) = element_type_rule
            && !element_type_given
        {
            self.rule_broken(callee_tok.span, message);
        }
        if ptrmask {
            self.ptrmask_holds(callee_tok.span, &arguments_read);
        }
        // Function attributes.
        let function = self.item_attributes(Some(AttrPlace::Function))?;
        let call_kinds = function.0;
        // Convergent by its callee is found once the body is read, if asked.
        let convergent = call_kinds.has(verify_attributes::CONVERGENT);
        if call_kinds.has(verify_attributes::SPECULATABLE)
            && !self.callee_has(callee, callee_tok, verify_attributes::SPECULATABLE)
        {
            let message = "speculatable attribute may not apply to call sites";
            self.rule_broken(callee_tok.span, message);
        }
        rules.finish(self, function);
        let message = match self.body_ty(ret) {
            t if t.is_token_like() => Some("Return type cannot be token for indirect call!"),
            Type::X86Amx => Some("Return type cannot be x86_amx for indirect call!"),
            _ => None,
        };
        if let Some(message) = message
            && !self.calls_function_returning(callee, ret)
        {
            self.rule_broken(callee_tok.span, message);
        }
        // Operand bundles.
        let bundled = self.tok.kind == Tok::LSquare;
        if bundled {
            let assumption = (assume, assumed);
            convergence_token =
                self.operand_bundles(callee_tok, (ret, callee), call_kinds, assumption)?;
        }
        // The convergence control intrinsics' names start so (quoted or not), and few others.
        let callee_text = &self.src[callee_tok.span.range()];
        let named_convergence =
            callee_text.starts_with(b"@llvm.exp") || callee_text.starts_with(b"@\"llvm.exp");
        if convergent || named_convergence || convergence_token.is_some() {
            self.note_convergence_call(callee_tok, convergent, convergence_token);
        }
        if inline_asm {
            let types = (fn_or_ret, ret);
            self.inline_asm_call_holds(opcode, callee, callee_tok.span, types, &arguments_read)?;
        }
        match opcode {
            Opcode::Invoke => {
                self.expect_word("to")?;
                self.item_label()?;
                self.expect_word("unwind")?;
                self.item_label()?;
            }
            Opcode::CallBr => {
                self.expect_word("to")?;
                self.item_label()?;
                let mut indirect = 0;
                self.item_bracketed(|p| {
                    indirect += 1;
                    p.item_label().map(drop)
                })?;
                if let Some(message) = self.callbr_refused(callee, callee_tok, bundled, indirect) {
                    self.rule_broken(callee_tok.span, message);
                }
            }
            _ => {}
        }
        if let Some((params, _)) = &written_params
            && arguments_mismatched.is_none()
            && argument_index < params.len()
        {
            let message = "not enough parameters specified for call".to_string();
            arguments_mismatched = Some((call_at, message));
        }
        if result_refused {
            return Err(self.err_at(ret_at, "Invalid result type for LLVM function"));
        }
        if let Some((at, message)) = arguments_mismatched {
            return Err(self.err_at(at, message));
        }
        if let Some(at) = fast_math_at {
            self.fast_math_holds(fast_math, ret, at, "call")?;
        }
        Ok(ret)
    }
}

impl Parser<'_> {
    /// Whether LLVM's ABI alignment of `ty` passes its largest, 2^32 bytes, which a call of a
    /// function other than an intrinsic may neither pass nor return (LLVM's verifier): only a
    /// vector of more than 4 GiB (its store size rounded up to a power of two), alone or in
    /// an array or a struct that is not packed, has such an alignment.
    fn aligned_past_maximum(&self, ty: TypeId, depth: u32) -> bool {
        const MAXIMUM: u64 = 1 << 32;
        if depth > Layout::NESTING_LIMIT {
            return false;
        }
        match self.body_ty(ty) {
            Type::Vector { len, elem, .. } => {
                let bits = self.data_layout().primitive_bits(self.body_ty(*elem));
                bits.is_some_and(|bits| len.saturating_mul(bits).div_ceil(8) > MAXIMUM)
            }
            Type::Array(_, elem) => self.aligned_past_maximum(*elem, depth + 1),
            Type::Struct {
                packed: false,
                elems,
            } => elems
                .iter()
                .any(|&e| self.aligned_past_maximum(e, depth + 1)),
            _ => false,
        }
    }

    /// Whether `value` is the result of an `alloca` read before here and not marked
    /// `inalloca`, which LLVM's verifier refuses as an `inalloca` argument. (One defined
    /// later in the text, or reached through `getelementptr`s and casts, is not checked.)
    fn allocated_without_inalloca(&mut self, value: Value) -> bool {
        let ValueKind::Local(l) = value.kind() else {
            return false;
        };
        let src = self.src;
        let body = &self.scope().body;
        let LocalDef::Inst(i) = body.locals[l].def else {
            return false;
        };
        let Some(inst) = body.insts.get(i) else {
            return false;
        };
        let marked = match body.items.get(inst.items_start as usize) {
            Some(&Item::Word { start, len }) => {
                &src[start as usize..][..usize::from(len)] == b"inalloca"
            }
            _ => false,
        };
        inst.opcode == Opcode::Alloca && !marked
    }

    /// What LLVM 22's verifier refuses in a `callbr` (`visitCallBrInst`): an inline assembly
    /// callee that may unwind, or another callee than `llvm.amdgcn.kill` (a function called
    /// directly, without operand bundles) with one indirect destination. (That the
    /// destination starts with `unreachable` is not checked.)
    fn callbr_refused(
        &mut self,
        callee: Value,
        callee_tok: Token,
        bundled: bool,
        indirect: usize,
    ) -> Option<&'static str> {
        if callee_tok.kind == Tok::Word {
            let unwinds = match self.constant_of(callee) {
                Some(Const::InlineAsm(span)) => {
                    let text = &self.src[span.range()];
                    let words = &text[..text.iter().position(|&b| b == b'"').unwrap_or(0)];
                    words.split(u8::is_ascii_whitespace).any(|w| w == b"unwind")
                }
                _ => false,
            };
            return unwinds.then_some("Unwinding from Callbr is not allowed");
        }
        let function = match self.callee_global(callee) {
            Callee::Indirect => false,
            Callee::Unrecorded => return None,
            // An intrinsic never declared is declared once the body is read.
            Callee::Global(g) => {
                g.is_reserved_value()
                    || matches!(
                        self.names_module().globals.get(g).map(|g| g.kind),
                        Some(GlobalKind::Function(_))
                    )
            }
        };
        if !function {
            Some("Callbr: indirect function / invalid signature")
        } else if bundled {
            Some("Callbr for intrinsics currently doesn't support operand bundles")
        } else if self.text(callee_tok) != b"@llvm.amdgcn.kill" {
            Some("Callbr currently only supports asm-goto and selected intrinsics")
        } else if indirect != 1 {
            Some("Callbr amdgcn_kill only supports one indirect dest")
        } else {
            None
        }
    }

    /// What LLVM's verifier asks of the instruction after a `musttail` call (`tail`): a
    /// `ret` of the call's result (or of nothing, or `undef`), or a `bitcast` of the result
    /// then such a `ret`.
    pub(super) fn musttail_followed(&mut self, tail: MustTail, opcode: Opcode) {
        let Some(scope) = self.scope.as_deref() else {
            return;
        };
        let Some((_, inst)) = scope.body.insts.last() else {
            return;
        };
        let items = &scope.body.items[inst.items_start as usize..][..inst.items_len as usize];
        let first_value = items.iter().find_map(|item| match item {
            Item::Value(v) => Some(*v),
            _ => None,
        });
        let (span, result) = (inst.span, inst.result);
        let is_tail_value = |v: Value| tail.value.is_some_and(|l| v == Value::local(l));
        match opcode {
            Opcode::BitCast if !tail.cast => {
                if first_value.is_some_and(is_tail_value) {
                    self.musttail = Some(MustTail {
                        value: result,
                        cast: true,
                        ..tail
                    });
                } else {
                    self.rule_broken(span, "bitcast following musttail call must use the call");
                }
            }
            Opcode::Ret => {
                let returned = |v: Value| {
                    is_tail_value(v)
                        || matches!(self.constant_of(v), Some(Const::Undef | Const::Poison))
                };
                if !first_value.is_none_or(returned) {
                    self.rule_broken(span, "musttail call result must be returned");
                }
            }
            _ => self.rule_broken(
                tail.call,
                "musttail call must precede a ret with an optional bitcast",
            ),
        }
    }

    /// What LLVM's verifier asks of a call of `llvm.ptrmask`, at `at`, of arguments
    /// `arguments`: a pointer (or vector of them) and an integer mask of the pointer's index
    /// width (or a vector of as many), as the datalayout gives it (not checked when the
    /// layout is unknown).
    fn ptrmask_holds(&mut self, at: Span, arguments: &[(TypeId, Range<usize>)]) {
        let [(pointer, _), (mask, _)] = arguments else {
            return;
        };
        // A vector's lanes (none for a scalar) and the type of each.
        let lanes_of = |ty: TypeId| match self.body_ty(ty) {
            Type::Vector {
                scalable,
                len,
                elem,
            } => (Some((*scalable, *len)), self.body_ty(*elem)),
            scalar => (None, scalar),
        };
        let (lanes, pointer_elem) = lanes_of(*pointer);
        let (mask_lanes, mask_elem) = lanes_of(*mask);
        let address_space = match pointer_elem {
            Type::Ptr(a) => Some(*a),
            _ => None,
        };
        let mask_bits = match mask_elem {
            Type::Int(bits) => Some(*bits),
            _ => None,
        };
        let layout = self.data_layout();
        let message = match address_space {
            None => {
                Some("llvm.ptrmask intrinsic first argument must be pointer or vector of pointers")
            }
            Some(_) if lanes.is_some() != mask_lanes.is_some() => {
                Some("llvm.ptrmask intrinsic arguments must be both scalars or both vectors")
            }
            Some(_) if lanes != mask_lanes => {
                Some("llvm.ptrmask intrinsic arguments must have the same number of elements")
            }
            Some(a) if !layout.unknown && mask_bits.is_some_and(|b| b != layout.index_bits(a)) => {
                Some(
                    "llvm.ptrmask intrinsic second argument bitwidth must match pointer index \
                     type size of first argument",
                )
            }
            _ => None,
        };
        if let Some(message) = message {
            self.rule_broken(at, message);
        }
    }

    /// What LLVM asks of an inline assembly call's constraints, `callee` at `at`: against
    /// the call's type as its parser reads the call (an error), and against the arguments
    /// (types and attributes) in its verifier (a rule broken): an operand passed by pointer
    /// is a pointer with an `elementtype`, no other has one, and only `callbr` has labels.
    fn inline_asm_call_holds(
        &mut self,
        opcode: Opcode,
        callee: Value,
        at: Span,
        (fn_or_ret, ret): (TypeId, TypeId),
        arguments: &[(TypeId, Range<usize>)],
    ) -> PResult<()> {
        let Some(&Const::InlineAsm(span)) = self.constant_of(callee) else {
            return Ok(());
        };
        // The constraint string ends the text; no quote is inside it.
        let text = &self.src[span.range()];
        let Some(open) = text[..text.len() - 1].iter().rposition(|&b| b == b'"') else {
            return Ok(());
        };
        let constraints = crate::read::lexer::unescape(&text[open + 1..text.len() - 1]);
        let (params, varargs) = match self.body_ty(fn_or_ret) {
            Type::Function {
                params, varargs, ..
            } => (params.len(), *varargs),
            _ => (arguments.len(), false),
        };
        let result = match self.body_ty(ret) {
            Type::Void => inline_asm::Result::Void,
            Type::Struct { elems, .. } => inline_asm::Result::Struct(elems.len()),
            _ => inline_asm::Result::Other,
        };
        if let Some(message) = inline_asm::fits_call(&constraints, result, params, varargs) {
            return Err(self.err_at(at, message));
        }
        let parsed = inline_asm::parse(&constraints).unwrap_or_default();
        let mut operands = arguments.iter();
        let mut labels = 0;
        let mut broken = None;
        for c in &parsed {
            if c.kind == inline_asm::Kind::Label {
                labels += 1;
                continue;
            }
            if !c.has_argument() {
                continue;
            }
            let Some((ty, attrs)) = operands.next() else {
                break;
            };
            let element_type = self.body_attrs()[attrs.clone()]
                .iter()
                .any(|a| matches!(self.attribute_keyword(a), Some(b"elementtype")));
            broken = broken.or(match (c.indirect, self.is_pointer(*ty), element_type) {
                (true, false, _) => Some("Operand for indirect constraint must have pointer type"),
                (true, true, false) => {
                    Some("Operand for indirect constraint must have elementtype attribute")
                }
                (false, _, true) => {
                    Some("Elementtype attribute can only be applied for indirect constraints")
                }
                _ => None,
            });
        }
        if broken.is_none() && labels != 0 && opcode != Opcode::CallBr {
            broken = Some("Label constraints can only be used with callbr");
        }
        if let Some(message) = broken {
            self.rule_broken(at, message);
        }
        Ok(())
    }

    /// What LLVM's verifier asks of a `musttail` call, at `at`, of convention `cc`, type
    /// `fn_or_ret` (a function type, or the result's) and arguments `arguments` (type and
    /// attributes), against the function it is in (`verifyMustTailCall`): the same variable
    /// arguments, result type and convention; under `tailcc` and `swifttailcc`, no parameter
    /// passed in a register or in memory the call cannot give back; otherwise, parameters of
    /// the same types (an intrinsic's excepted) with the same attributes that change how
    /// they are passed. Pointers of one address space are of one type here.
    fn musttail_prototype_holds(
        &mut self,
        at: Span,
        cc: Option<Span>,
        (fn_or_ret, ret): (TypeId, TypeId),
        arguments: &[(TypeId, Range<usize>)],
    ) {
        let Some(bm) = &self.body_mode else {
            return;
        };
        let module = bm.base;
        let caller = &module.functions[bm.func];
        let convention = |written: Option<Span>| match written {
            Some(s) => calling_convention::number(&self.src[s.range()]),
            None => Some(calling_convention::C),
        };
        let (params, varargs): (Vec<TypeId>, bool) = match self.body_ty(fn_or_ret) {
            Type::Function {
                params, varargs, ..
            } => (params.to_vec(), *varargs),
            _ => (arguments.iter().map(|&(ty, _)| ty).collect(), false),
        };
        let congruent = |a: TypeId, b: TypeId| {
            self.types_llvm_equates(a, b)
                || matches!((self.body_ty(a), self.body_ty(b)), (Type::Ptr(x), Type::Ptr(y)) if x == y)
        };
        let call_cc = convention(cc);
        let broken = if caller.varargs != varargs {
            Some("cannot guarantee tail call due to mismatched varargs".to_string())
        } else if !congruent(caller.ret_ty, ret) {
            Some("cannot guarantee tail call due to mismatched return types".to_string())
        } else if let (Some(a), Some(b)) = (convention(caller.extras().cconv), call_cc)
            && a != b
        {
            Some("cannot guarantee tail call due to mismatched calling conv".to_string())
        } else {
            let caller_attrs = |i: usize| module.attr_list(caller.params[i].attrs);
            let call_attrs = |i: usize| match arguments.get(i) {
                Some((_, range)) => &self.body_attrs()[range.clone()],
                None => &[][..],
            };
            let tail_cc = match call_cc {
                Some(calling_convention::TAIL) => Some("tailcc"),
                Some(calling_convention::SWIFT_TAIL) => Some("swifttailcc"),
                _ => None,
            };
            match tail_cc {
                Some(name) => {
                    let refused = |attrs: &[Attr], role: &str| {
                        attrs.iter().find_map(|a| {
                            let keyword = self.attribute_keyword(a)?;
                            let refused = matches!(
                                keyword,
                                b"inalloca" | b"inreg" | b"swifterror" | b"preallocated" | b"byref"
                            );
                            refused.then(|| {
                                let keyword = String::from_utf8_lossy(keyword);
                                format!("{keyword} attribute not allowed in {name} musttail {role}")
                            })
                        })
                    };
                    (0..caller.params.len())
                        .find_map(|i| refused(caller_attrs(i), "caller"))
                        .or_else(|| {
                            (0..params.len()).find_map(|i| refused(call_attrs(i), "callee"))
                        })
                        .or_else(|| {
                            caller.varargs.then(|| {
                                format!("cannot guarantee {name} tail call for varargs function")
                            })
                        })
                }
                None => {
                    let intrinsic = self.src[at.range()].starts_with(b"@llvm.");
                    if !intrinsic && caller.params.len() != params.len() {
                        Some(
                            "cannot guarantee tail call due to mismatched parameter counts"
                                .to_string(),
                        )
                    } else if !intrinsic
                        && caller
                            .params
                            .iter()
                            .zip(&params)
                            .any(|(p, &t)| !congruent(p.ty, t))
                    {
                        Some(
                            "cannot guarantee tail call due to mismatched parameter types"
                                .to_string(),
                        )
                    } else if (0..caller.params.len())
                        .any(|i| !self.same_passing(caller_attrs(i), call_attrs(i)))
                    {
                        Some(
                            "cannot guarantee tail call due to mismatched ABI impacting function \
                             attributes"
                                .to_string(),
                        )
                    } else {
                        None
                    }
                }
            }
        };
        if let Some(message) = broken {
            self.rule_broken(at, &message);
        }
    }

    /// The keyword of attribute `a` (`byval` of `byval(%T)`, `align` of `align 8`); none for a
    /// group or a string attribute.
    fn attribute_keyword(&self, a: &Attr) -> Option<&[u8]> {
        let keyword = match a.kind() {
            AttrKind::Typed(span, _) | AttrKind::Text(span) => {
                verify_attributes::keyword_of(&self.src[span.range()])
            }
            AttrKind::Group(..) => return None,
        };
        (!keyword.is_empty()).then_some(keyword)
    }

    /// Whether two parameter attribute lists pass a value alike (`getParameterABIAttributes`):
    /// the same `sret`, `byval`, `inalloca`, `inreg`, `alignstack`, `swiftself`, `swiftasync`,
    /// `swifterror`, `preallocated` and `byref`, with the same types and numbers, and the same
    /// `align` where `byval` or `byref` is.
    fn same_passing(&self, a: &[Attr], b: &[Attr]) -> bool {
        let passing = |attrs: &[Attr]| {
            let by_memory = attrs
                .iter()
                .any(|a| matches!(self.attribute_keyword(a), Some(b"byval" | b"byref")));
            let mut kept: Vec<(&[u8], Option<TypeId>, Vec<u8>)> = attrs
                .iter()
                .filter_map(|a| {
                    let keyword = self.attribute_keyword(a)?;
                    let abi = matches!(
                        keyword,
                        b"sret"
                            | b"byval"
                            | b"inalloca"
                            | b"inreg"
                            | b"alignstack"
                            | b"swiftself"
                            | b"swiftasync"
                            | b"swifterror"
                            | b"preallocated"
                            | b"byref"
                    ) || (keyword == b"align" && by_memory);
                    if !abi {
                        return None;
                    }
                    Some(match a.kind() {
                        AttrKind::Typed(_, ty) => (keyword, Some(ty), Vec::new()),
                        // The argument's digits: `align 8`, `align(8)`, `alignstack(8)`.
                        _ => {
                            let text = &self.src[a.span().range()][keyword.len()..];
                            let digits = text.iter().copied().filter(u8::is_ascii_digit).collect();
                            (keyword, None, digits)
                        }
                    })
                })
                .collect();
            kept.sort_by(|x, y| x.0.cmp(y.0));
            kept
        };
        let (x, y) = (passing(a), passing(b));
        x.len() == y.len()
            && x.iter().zip(&y).all(|(p, q)| {
                p.0 == q.0
                    && p.2 == q.2
                    && match (p.1, q.1) {
                        (Some(s), Some(t)) => self.types_llvm_equates(s, t),
                        (s, t) => s == t,
                    }
            })
    }

    /// Read a call's operand bundles (`[ "tag"(ty %v, ...), ... ]`) and check each as LLVM's
    /// verifier does; returns the token of a `"convergencectrl"` bundle. Kept out of
    /// `call_like`, which most calls run without bundles. `assume`: the callee is
    /// `llvm.assume`, whose condition is `assumed`.
    #[inline(never)]
    fn operand_bundles(
        &mut self,
        callee_tok: Token,
        (ret, callee): (TypeId, Value),
        call_kinds: Kinds,
        (assume, assumed): (bool, Option<Value>),
    ) -> PResult<Option<(Span, Option<LocalId>)>> {
        let mut convergence_token = None;
        if assume && !assumed.is_some_and(|v| self.is_one(v)) {
            let message = "assume with operand bundles must have i1 true condition";
            self.rule_broken(callee_tok.span, message);
        }
        self.bump();
        self.push_item(Item::Mark(b'['));
        let mut tags_seen = 0;
        // LLVM's verifier stops at an assumption's bundle whose tag names no attribute.
        let mut assumptions_checked = assume;
        loop {
            let tag = self.expect(Tok::Str, "an operand bundle tag")?;
            self.push_word(tag.span)?;
            self.expect(Tok::LParen, "'('")?;
            self.push_item(Item::Mark(b'('));
            let mut operands = BundleOperands::default();
            let attached_call = self.text(tag) == b"\"clang.arc.attachedcall\"";
            self.intrinsic_use_context.attached_call_bundle = attached_call;
            if self.tok.kind != Tok::RParen {
                loop {
                    let ty = self.item_type()?;
                    let value = self.item_value(ty)?;
                    operands.push(ty, value);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            self.intrinsic_use_context.attached_call_bundle = false;
            let message = match self.bundle_refused(tag, &operands, &mut tags_seen) {
                None if attached_call => {
                    self.attached_call_refused(&operands, (ret, callee, callee_tok), call_kinds)
                }
                message => message.map(Cow::Owned),
            };
            if let Some(message) = message {
                self.rule_broken(tag.span, &message);
            }
            if self.text(tag) == b"\"convergencectrl\"" {
                match (operands.count, operands.first[0]) {
                    (1, Some((ty, token))) if matches!(self.body_ty(ty), Type::Token) => {
                        let local = match token.kind() {
                            ValueKind::Local(l) => Some(l),
                            _ => None,
                        };
                        convergence_token = Some((tag.span, local));
                    }
                    _ => self.rule_broken(
                        tag.span,
                        "The 'convergencectrl' bundle requires exactly one token use.",
                    ),
                }
            }
            if let (b"\"funclet\"", 1, Some((_, pad))) =
                (self.text(tag), operands.count, operands.first[0])
            {
                match pad.kind() {
                    ValueKind::Local(l) => self.scope().body.funclet_operands.push((tag.span, l)),
                    _ => self.rule_broken(tag.span, crate::read::verify::FUNCLET_OPERAND_NOT_PAD),
                }
            }
            if assumptions_checked {
                let (message, go_on) = self.assumption_refused(tag, &operands);
                if let Some(message) = message {
                    self.rule_broken(tag.span, message);
                }
                assumptions_checked = go_on;
            }
            self.expect(Tok::RParen, "')'")?;
            self.push_item(Item::Mark(b')'));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        self.push_item(Item::Mark(b']'));
        Ok(convergence_token)
    }

    /// Note the call being read, written `callee_tok`, for the convergence verifier's rules
    /// (see [`Body::convergence_calls`]), if it is convergent by its own attributes, calls a
    /// convergence control intrinsic or passes a token. Kept out of `call_like`: few calls
    /// get here.
    #[cold]
    #[inline(never)]
    fn note_convergence_call(
        &mut self,
        callee_tok: Token,
        convergent: bool,
        token: Option<(Span, Option<LocalId>)>,
    ) {
        let intrinsic = match callee_tok.kind {
            Tok::GlobalName => convergence_intrinsic(&self.global_name_at(callee_tok.span)),
            _ => None,
        };
        if convergent || intrinsic.is_some() || token.is_some() {
            let body = &mut self.scope().body;
            body.convergence_calls.push(ConvergenceCall {
                inst: body.insts.next_key(),
                callee: callee_tok.span,
                convergent,
                intrinsic,
                token,
            });
        }
    }

    /// The global a call's `callee` names, if any.
    fn callee_global(&mut self, callee: Value) -> Callee {
        let ValueKind::Global(u) = callee.kind() else {
            return Callee::Indirect;
        };
        match self.recorded_use(u) {
            Some(use_) => Callee::Global(use_.global),
            None => Callee::Unrecorded,
        }
    }

    /// Whether `callee` is a function that takes a token or metadata itself: LLVM's verifier
    /// refuses its declaration first.
    fn callee_takes_token_or_metadata(&mut self, callee: Value) -> bool {
        let Callee::Global(global) = self.callee_global(callee) else {
            return false;
        };
        let module = self.names_module();
        let Some(GlobalKind::Function(f)) = module.globals.get(global).map(|g| g.kind) else {
            return false;
        };
        module.functions[f].params.iter().any(|p| {
            let ty = module.types.get(module.types.resolve(p.ty));
            ty.is_token_like() || matches!(ty, Type::Metadata)
        })
    }

    /// Whether `callee`, written `callee_tok`, is a function declared with an attribute of
    /// `kinds` (`speculatable`, which a call that is must call; `noreturn`): for an intrinsic,
    /// whether LLVM's table gives it one (taken to, for a name the table does not settle).
    fn callee_has(&mut self, callee: Value, callee_tok: Token, kinds: Kinds) -> bool {
        // LLVM gives an intrinsic's declaration, written or not, the attributes of its table,
        // whatever the text says; one it renames on read, those of another.
        if callee_tok.kind == Tok::GlobalName {
            let name = self.global_name_at(callee_tok.span);
            if name.starts_with(b"llvm.") {
                return match intrinsics::table_kinds(&name) {
                    Some(table) if !intrinsics::is_renamed_on_read(&name) => table.has(kinds),
                    _ => true,
                };
            }
        }
        let global = match self.callee_global(callee) {
            Callee::Indirect => return false,
            Callee::Unrecorded => return true,
            Callee::Global(g) => g,
        };
        let module = self.names_module();
        match module.globals.get(global).map(|g| (&g.kind, &g.name)) {
            None | Some((GlobalKind::Intrinsic, _)) => true,
            Some((GlobalKind::Function(f), _)) => {
                verify_attributes::function_has(module, *f, kinds)
            }
            Some(_) => false,
        }
    }

    /// Whether a call of `callee` returning `ret` may call a function directly (LLVM's
    /// `getCalledFunction`, for an indirect call may not return a token): `callee` names a
    /// function that returns `ret`, or an intrinsic never declared. Parameters are not
    /// compared.
    fn calls_function_returning(&mut self, callee: Value, ret: TypeId) -> bool {
        let global = match self.callee_global(callee) {
            Callee::Indirect => return false,
            Callee::Unrecorded => return true,
            Callee::Global(g) => g,
        };
        let module = self.names_module();
        match module.globals.get(global).map(|g| g.kind) {
            Some(GlobalKind::Function(f)) => {
                let func_ret = module.functions[f].ret_ty;
                func_ret == ret || self.body_ty(func_ret) == self.body_ty(ret)
            }
            Some(GlobalKind::Variable(_) | GlobalKind::Alias(_)) => false,
            _ => true,
        }
    }

    /// What LLVM's verifier refuses of an operand bundle `tag` of a call (`visitCallBase`):
    /// a tag it knows written twice on the call (`tags_seen` has a bit for each written
    /// before), or operands `kcfi`, `ptrauth`, `cfguardtarget`, `funclet` and `preallocated`
    /// do not take. What an operand stands for (a funclet pad, the token of
    /// `llvm.call.preallocated.setup`) is not checked.
    fn bundle_refused(
        &self,
        tag: Token,
        operands: &BundleOperands,
        tags_seen: &mut u16,
    ) -> Option<String> {
        const KNOWN: [(&[u8], &str); 10] = [
            (b"deopt", "deopt"),
            (b"gc-transition", "gc-transition"),
            (b"funclet", "funclet"),
            (b"cfguardtarget", "CFGuardTarget"),
            (b"ptrauth", "ptrauth"),
            (b"kcfi", "kcfi"),
            (b"preallocated", "preallocated"),
            (b"gc-live", "gc-live"),
            (b"clang.arc.attachedcall", "\"clang.arc.attachedcall\""),
            (b"convergencectrl", ""),
        ];
        let text = self.text(tag);
        let name = &text[1..text.len() - 1];
        let i = KNOWN.iter().position(|(known, _)| *known == name)?;
        if *tags_seen & 1 << i != 0 {
            return Some(match name {
                b"convergencectrl" => {
                    "The 'convergencectrl' bundle can occur at most once on a call".to_string()
                }
                _ => format!("Multiple {} operand bundles", KNOWN[i].1),
            });
        }
        *tags_seen |= 1 << i;
        let int_constant = |operand: Option<(TypeId, Value)>, bits: u32| {
            operand.is_some_and(|(ty, v)| {
                self.body_ty(ty) == &Type::Int(bits)
                    && matches!(self.constant_of(v), Some(Const::Int(..) | Const::Zero))
            })
        };
        let message = match name {
            b"funclet" if operands.count != 1 => "Expected exactly one funclet bundle operand",
            b"cfguardtarget" if operands.count != 1 => {
                "Expected exactly one cfguardtarget bundle operand"
            }
            b"preallocated" if operands.count != 1 => {
                "Expected exactly one preallocated bundle operand"
            }
            b"kcfi" if operands.count != 1 => "Expected exactly one kcfi bundle operand",
            b"kcfi" if !int_constant(operands.first[0], 32) => {
                "Kcfi bundle operand must be an i32 constant"
            }
            b"ptrauth" if operands.count != 2 => "Expected exactly two ptrauth bundle operands",
            b"ptrauth" if !int_constant(operands.first[0], 32) => {
                "Ptrauth bundle key operand must be an i32 constant"
            }
            b"ptrauth"
                if operands.first[1].is_none_or(|(ty, _)| self.body_ty(ty) != &Type::Int(64)) =>
            {
                "Ptrauth bundle discriminator operand must be an i64"
            }
            _ => return None,
        };
        Some(message.to_string())
    }
}

impl Parser<'_> {
    /// Whether the constant expression `(opcode, items)` is an `inttoptr` of an integer other
    /// than 0: no global, and not null. (LLVM folds constant expressions as it reads them, so
    /// another may turn out a global or null: it is not taken for either.)
    pub(super) fn is_nonzero_address(&self, (opcode, items): &(Span, Vec<Item>)) -> bool {
        let operand = items.iter().find_map(|item| match *item {
            Item::Value(v) => Some(v),
            _ => None,
        });
        &self.src[opcode.range()] == b"inttoptr"
            && match operand.and_then(|v| self.constant_of(v)) {
                Some(&Const::Int(span, width)) => {
                    int_value(&self.src[span.range()], width).is_some_and(|v| !v.is_zero())
                }
                _ => false,
            }
    }

    /// Whether `v` is the integer constant 1 (`i1 true` too).
    fn is_one(&self, v: Value) -> bool {
        match self.constant_of(v) {
            Some(&Const::Int(span, width)) => {
                int_value(&self.src[span.range()], width) == Some(IntValue::Bits(1))
            }
            _ => false,
        }
    }

    /// What LLVM's verifier refuses of an operand bundle `tag` of `llvm.assume` (its
    /// `visitIntrinsicCall`): a tag that names no attribute (but `ignore` and
    /// `separate_storage`), the operands of `separate_storage`, `align` and `dereferenceable`,
    /// more than two of any other; and whether the bundles after it are checked (not after
    /// `ignore`, nor after a tag that names no attribute: LLVM stops there); another
    /// attribute's count of operands, and a number's being a constant.
    fn assumption_refused(
        &self,
        tag: Token,
        operands: &BundleOperands,
    ) -> (Option<&'static str>, bool) {
        let text = self.text(tag);
        let name = &text[1..text.len() - 1];
        let typed = |i: usize, pointer: bool| {
            operands.first[i].is_some_and(|(ty, _)| match self.body_ty(ty) {
                Type::Ptr(_) => pointer,
                Type::Int(_) => !pointer,
                _ => false,
            })
        };
        let count = operands.count;
        let attribute = super::super::attributes::keyword(name).filter(|k| !k.upgraded);
        let message = match name {
            b"separate_storage" if count != 2 => {
                Some("separate_storage assumptions should have 2 arguments")
            }
            b"separate_storage" if !(typed(0, true) && typed(1, true)) => {
                Some("arguments to separate_storage assumptions should be pointers")
            }
            b"separate_storage" => None,
            _ if name != b"ignore" && attribute.is_none() => {
                Some("tags must be valid attribute names")
            }
            b"align" if !(2..=3).contains(&count) => {
                Some("alignment assumptions should have 2 or 3 arguments")
            }
            b"dereferenceable" if count != 2 => {
                Some("dereferenceable assumptions should have 2 arguments")
            }
            b"align" | b"dereferenceable" if !typed(0, true) => {
                Some("first argument should be a pointer")
            }
            b"align" | b"dereferenceable" if !typed(1, false) => {
                Some("second argument should be an integer")
            }
            b"align" if count == 3 && !typed(2, false) => {
                Some("third argument should be an integer if present")
            }
            b"align" | b"dereferenceable" => None,
            _ if count > 2 => Some("too many arguments"),
            // What the attribute takes: a pointer and a constant for one with a number
            // (`Attribute::isIntAttrKind`), a pointer for a parameter's, nothing for a
            // function's.
            _ => match attribute {
                Some(_) if INT_ATTRIBUTES.contains(&name) => match count {
                    2 if operands.first[1].is_some_and(|(_, v)| {
                        matches!(self.constant_of(v), Some(Const::Int(..)))
                    }) =>
                    {
                        None
                    }
                    2 => Some("the second argument should be a constant integral value"),
                    _ => Some("this attribute should have 2 arguments"),
                },
                Some(k) if k.applies & attributes::PARAMETER != 0 => {
                    (count != 1).then_some("this attribute should have one argument")
                }
                Some(k) if k.applies & attributes::FUNCTION != 0 => {
                    (count != 0).then_some("this attribute has no argument")
                }
                _ => None,
            },
        };
        (message, attribute.is_some() || name == b"separate_storage")
    }

    /// What LLVM's verifier refuses of a call's `"clang.arc.attachedcall"` bundle
    /// (`verifyAttachedCallBundle`): a call that returns neither a pointer nor, not
    /// returning, `void` (its own attributes `call_kinds`, or its callee's, say `noreturn`),
    /// or operands other than one function, which must be one of the three ObjC runtime
    /// functions the bundle names (or their intrinsics). An operand that is a constant
    /// expression is taken as it may fold to one.
    fn attached_call_refused(
        &mut self,
        operands: &BundleOperands,
        (ret, callee, callee_tok): (TypeId, Value, Token),
        call_kinds: Kinds,
    ) -> Option<Cow<'static, str>> {
        let returns = match self.body_ty(ret) {
            Type::Ptr(_) => true,
            Type::Void => {
                call_kinds.has(verify_attributes::NO_RETURN)
                    || self.callee_has(callee, callee_tok, verify_attributes::NO_RETURN)
            }
            _ => false,
        };
        if !returns {
            return Some(Cow::Borrowed(
                "a call with operand bundle \"clang.arc.attachedcall\" must call a function \
                 returning a pointer or a non-returning function that has a void return type",
            ));
        }
        // The runtime's functions, `objc_` then one of these, or their intrinsics,
        // `llvm.objc.` then one.
        const RUNTIME: [&[u8]; 3] = [
            b"retainAutoreleasedReturnValue",
            b"claimAutoreleasedReturnValue",
            b"unsafeClaimAutoreleasedReturnValue",
        ];
        let known = |name: &[u8]| {
            let bare = name
                .strip_prefix(b"objc_")
                .or_else(|| name.strip_prefix(b"llvm.objc."));
            bare.is_some_and(|bare| RUNTIME.contains(&bare))
        };
        let first = operands.first[0].map(|(_, value)| value);
        // LLVM folds a constant expression as it reads it (`getelementptr (i8, ptr @f, i64
        // 0)` is `@f`); such an operand is not checked.
        if first.is_some_and(|v| matches!(self.constant_of(v), Some(Const::Expr(_)))) {
            return None;
        }
        let value = first.filter(|_| operands.count == 1);
        // Whether the one operand, a function, is one the bundle may name.
        let function = value
            .and_then(|v| match self.callee_global(v) {
                Callee::Global(g) => self.names_module().globals.get(g),
                Callee::Unrecorded | Callee::Indirect => None,
            })
            .and_then(|global| match (&global.kind, &global.name) {
                (GlobalKind::Function(_), GlobalName::Named(name)) => Some(known(name)),
                (GlobalKind::Function(_), _) => Some(false),
                _ => None,
            });
        let Some(known) = function else {
            return Some(Cow::Borrowed(
                "operand bundle \"clang.arc.attachedcall\" requires one function as an argument",
            ));
        };
        (!known).then_some(Cow::Borrowed("invalid function argument"))
    }
}

/// What a call's callee is: no global (a local, a constant, inline assembly), a use of a
/// global the reading did not record, or that global.
enum Callee {
    Indirect,
    Unrecorded,
    Global(GlobalId),
}

/// The attributes that carry a number (LLVM's `IntAttr`s), which an assumption gives with a
/// constant after the pointer.
const INT_ATTRIBUTES: &[&[u8]] = &[
    b"align",
    b"allockind",
    b"allocsize",
    b"dereferenceable",
    b"dereferenceable_or_null",
    b"memory",
    b"nofpclass",
    b"captures",
    b"alignstack",
    b"uwtable",
    b"vscale_range",
];

/// The operands of an operand bundle, as [`Parser::bundle_refused`] and
/// [`Parser::assumption_refused`] check them: how many, and the first three.
#[derive(Default)]
struct BundleOperands {
    count: usize,
    first: [Option<(TypeId, Value)>; 3],
}

impl BundleOperands {
    fn push(&mut self, ty: TypeId, value: Value) {
        if let Some(slot) = self.first.get_mut(self.count) {
            *slot = Some((ty, value));
        }
        self.count += 1;
    }
}

/// A call of an intrinsic, as [`Parser::intrinsic_call_holds`] checks it: its type, how many
/// arguments are read, the parameters that take only an immediate and the first argument
/// at one that is not an immediate or out of its range, with why.
struct IntrinsicCall {
    ty: IntrinsicType,
    arguments: usize,
    immediates: Immediates,
    refused: Option<(Span, Cow<'static, str>)>,
}

impl IntrinsicCall {
    fn new(ty: IntrinsicType, immediates: Immediates) -> IntrinsicCall {
        IntrinsicCall {
            ty,
            arguments: 0,
            immediates,
            refused: None,
        }
    }
}

/// The type of a call of an intrinsic: the types of its arguments as they are read for one
/// never declared; for one declared, its type and whether the arguments so far have its
/// parameters' types.
enum IntrinsicType {
    Undeclared(Vec<TypeId>),
    Declared {
        fn_ty: TypeId,
        params_match: bool,
        /// Where the declaration starts: before the call's function or after it.
        declared_at: u32,
    },
}

/// The verifier's rules over a call's attribute lists (see `verify_attributes`), fed as the
/// call is read. A broken rule is recorded ([`Parser::rule_broken`]), not returned: reading
/// goes on, as LLVM's parser's errors come before its verifier's.
struct CallRules {
    /// The call's type as written: a function type, or the result's.
    fn_or_ret: TypeId,
    ret: TypeId,
    callee: Token,
    parameters: verify_attributes::Parameters,
}

impl CallRules {
    /// The rules of a call whose arguments' types go to `p`'s `call_argument_types`, one
    /// for each argument read.
    fn new(p: &mut Parser, fn_or_ret: TypeId, ret: TypeId, callee: Token) -> CallRules {
        p.call_argument_types.clear();
        CallRules {
            fn_or_ret,
            ret,
            callee,
            parameters: Default::default(),
        }
    }

    fn result(&self, p: &mut Parser, (kinds, attrs): (Kinds, Range<usize>)) {
        if kinds != Kinds::NONE {
            self.list(p, kinds, attrs, true, self.ret);
        }
    }

    fn argument(&mut self, p: &mut Parser, ty: TypeId, (kinds, attrs): (Kinds, Range<usize>)) {
        let index = p.call_argument_types.len();
        p.call_argument_types.push(ty);
        if kinds == Kinds::NONE {
            return;
        }
        self.list(p, kinds, attrs.clone(), false, ty);
        let attrs_read = &p.body_attrs()[attrs.clone()];
        // (A call's `byval` of 4 GiB or more is let through: the room of a body's types is
        // not worked out as it is read.)
        let byval_refused = |t| {
            let message = "'byval' argument has illegal target extension type";
            p.layout(t, 0).bars_stack.then_some(message)
        };
        let sized = verify_attributes::passed_types_sized(
            p.src,
            attrs_read,
            kinds,
            |t| p.is_sized(t),
            byval_refused,
        );
        if let Err(broken) = sized {
            p.rule_broken(
                broken.attribute.unwrap_or(self.callee.span),
                &broken.message,
            );
        }
        if !verify_attributes::Parameters::concern(kinds) {
            return;
        }
        let callee = self.callee;
        // Parameters the callee's type names, when written (`void (i32, ...)`); variable
        // arguments come after.
        let fixed = match p.body_ty(self.fn_or_ret) {
            Type::Function { params, .. } => params.len(),
            _ => usize::MAX,
        };
        let ret = self.ret;
        let next = self.parameters.next(verify_attributes::Parameter {
            index,
            fixed,
            kinds,
            returns_losslessly: &|| {
                verify_attributes::bitcasts_losslessly(ty, ret, &|t| p.body_ty(t))
            },
            intrinsic: callee.kind == Tok::GlobalName && p.text(callee).starts_with(b"@llvm."),
            inline_asm: callee.kind == Tok::Word,
        });
        if let Err(message) = next {
            let at = p.body_attrs()[attrs]
                .first()
                .map_or(callee.span, |a| a.span());
            p.rule_broken(at, message);
        }
    }

    fn finish(self, p: &mut Parser, (kinds, attrs): (Kinds, Range<usize>)) {
        if let Err(message) = self.parameters.finish(p.call_argument_types.len()) {
            p.rule_broken(self.callee.span, message);
        }
        if self.parameters.saw(verify_attributes::WRITABLE) {
            let module = p.names_module();
            let group = |n| module.attr_group(n);
            let call_attrs = &p.body_attrs()[attrs.clone()];
            if !verify_attributes::memory_effects(p.src, call_attrs, group).writes_arguments() {
                let message = verify_attributes::WRITABLE_WITHOUT_ARGMEM_WRITE;
                p.rule_broken(self.callee.span, message);
            }
        }
        if kinds == Kinds::NONE {
            return;
        }
        let src = p.src;
        if let Some(at) =
            verify_attributes::alignment_of_call(src, &p.body_attrs()[attrs.clone()], kinds)
        {
            let text = String::from_utf8_lossy(&src[at.range()]);
            p.rule_broken(
                at,
                &format!("Attribute '{text}' does not apply to functions!"),
            );
        }
        if let Err(message) = verify_attributes::function_attributes_hold(kinds) {
            p.rule_broken(self.callee.span, message);
        }
        if kinds.has(verify_attributes::VALUED) {
            self.valued_attributes_hold(p, attrs.clone());
        }
        if kinds.has(verify_attributes::STRING_CHECKED) {
            self.string_attributes_hold(p, attrs);
        }
    }

    /// The values of the call's string attributes, its own and its groups', against the
    /// call's type (`verifyFunctionAttrs` called by `verifyCallBase`).
    fn string_attributes_hold(&self, p: &mut Parser, attrs: Range<usize>) {
        let rules = p.take_string_rules();
        let refused = self.string_attribute_refused(p, &rules, attrs);
        p.keep_string_rules(rules);
        if let Some((at, message)) = refused {
            p.rule_broken(at, &message);
        }
    }

    /// What the verifier refuses of the call's string attributes `attrs`, if anything: where,
    /// and its message.
    fn string_attribute_refused(
        &self,
        p: &Parser,
        rules: &StringRules,
        attrs: Range<usize>,
    ) -> Option<(Span, String)> {
        let module = p.names_module();
        let arguments = p.call_argument_types.as_slice();
        let written = Signature::of(p, self.fn_or_ret);
        let signature = written.unwrap_or_else(|| Signature::new(p, self.ret, arguments));
        // Written as its result's and arguments' types, the call's type is the variant's
        // when those are its parts (a type the module lacks is none of the variant's).
        let takes_type = |t: TypeId| match written {
            Some(_) => t == self.fn_or_ret,
            None => matches!(
                module.types.get(t),
                Type::Function { ret, params, varargs: false }
                    if *ret == self.ret && params.as_slice() == arguments
            ),
        };
        let variant_refused = |name: &[u8], family: Option<&[u8]>| {
            verify_attributes::alloc_variant_refused(module, rules, &takes_type, name, family)
        };
        let taker = Taker {
            signature,
            variant_refused: &variant_refused,
        };
        rules.function_refused(p.src, &p.body_attrs()[attrs], taker)
    }

    /// `allocsize`, `allockind` and `vscale_range`, against the call's type: the function
    /// type written, or its arguments' types.
    fn valued_attributes_hold(&self, p: &mut Parser, attrs: Range<usize>) {
        let params = match p.body_ty(self.fn_or_ret) {
            Type::Function { params, .. } => Some(params),
            _ => None,
        };
        let arguments = &p.call_argument_types;
        let count = params.map_or(arguments.len(), |params| params.len());
        let integer = |i: usize| match params.map_or(arguments.get(i), |ps| ps.get(i)) {
            Some(&ty) => matches!(p.body_ty(ty), Type::Int(_)),
            None => true,
        };
        let module = p.names_module();
        let group = |n| module.attr_group(n);
        let held = verify_attributes::valued_attributes_hold(
            p.src,
            &p.body_attrs()[attrs],
            group,
            count,
            integer,
        );
        if let Err(broken) = held {
            p.rule_broken(
                broken.attribute.unwrap_or(self.callee.span),
                &broken.message,
            );
        }
    }

    fn list(&self, p: &mut Parser, kinds: Kinds, attrs: Range<usize>, result: bool, ty: TypeId) {
        let held = p.attribute_list_holds(&p.body_attrs()[attrs], kinds, result, ty);
        if let Err(broken) = held {
            p.rule_broken(
                broken.attribute.unwrap_or(self.callee.span),
                &broken.message,
            );
        }
    }
}

/// The intrinsics (by their names without `@`) whose calls must give one pointer argument
/// its element type (`elementtype(T)`): which argument, and LLVM's verifier's message when
/// it is missing.
fn element_type_rule(name: &[u8]) -> Option<(usize, &'static str)> {
    const FIRST: &str = "Intrinsic requires elementtype attribute on first argument.";
    const SECOND: &str = "Intrinsic requires elementtype attribute on second argument.";
    const RULES: &[(&[u8], usize, &str)] = &[
        (b"llvm.preserve.array.access.index", 0, FIRST),
        (b"llvm.preserve.struct.access.index", 0, FIRST),
        (b"llvm.aarch64.ldaxr", 0, FIRST),
        (b"llvm.aarch64.ldxr", 0, FIRST),
        (b"llvm.arm.ldaex", 0, FIRST),
        (b"llvm.arm.ldrex", 0, FIRST),
        (b"llvm.aarch64.stlxr", 1, SECOND),
        (b"llvm.aarch64.stxr", 1, SECOND),
        (b"llvm.arm.stlex", 1, SECOND),
        (b"llvm.arm.strex", 1, SECOND),
        (
            b"llvm.experimental.gc.statepoint",
            2,
            "gc.statepoint callee argument must have elementtype attribute",
        ),
    ];
    let name = name.strip_prefix(b"\"").unwrap_or(name);
    RULES.iter().find_map(|&(base, index, message)| {
        let rest = name.strip_prefix(base)?;
        matches!(rest.first(), None | Some(b'.') | Some(b'"')).then_some((index, message))
    })
}

/// The convergence control intrinsic `name` is, if one.
fn convergence_intrinsic(name: &[u8]) -> Option<ConvergenceIntrinsic> {
    match name.strip_prefix(b"llvm.experimental.convergence.")? {
        b"entry" => Some(ConvergenceIntrinsic::Entry),
        b"anchor" => Some(ConvergenceIntrinsic::Anchor),
        b"loop" => Some(ConvergenceIntrinsic::Loop),
        _ => None,
    }
}
