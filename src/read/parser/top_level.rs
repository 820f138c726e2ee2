//! The top level, in order: directives, comdats, named types, summary entries and `uselistorder`,
//! with the checks that need the whole of it.

use super::*;

impl<'a> Parser<'a> {
    /// Read the top level: everything but the function bodies, which are stepped over (see
    /// `read::parse`). On an error, the module read so far comes with it.
    /// With [`BodyEnd::FirstClosingLine`], the fields of specialized metadata nodes are
    /// stepped over too, and their spans come back to be read in the second phase.
    pub fn module(mut self, body_end: BodyEnd) -> TopLevel {
        self.body_end = body_end;
        // Room for what a module of this size holds at most as LLVM prints one: grown by
        // doubling, each copy writes to pages never touched before (a tenth of the top
        // level's page faults), while room reserved and not used is never touched.
        let len = self.src.len();
        self.m.functions.reserve(len / 1024);
        self.m.globals.reserve(len / 1024);
        // Grown by doubling, the name table would hash every name again at each step, and
        // C++ names run to hundreds of bytes (harfbuzz-O0: 7% of the top level's time). A
        // C++ module at -O0 has a global for every 1.5 KiB of text or more, and the table
        // rounds its room up to a power of two: room for one per KiB made rocksdb-O0's table
        // (20,155 globals) twice the size it needed, 1.5 MiB, all of it touched.
        self.m.global_by_name.reserve(len / 1536);
        self.comdats_defined.reserve(len / 2048);
        self.m.attrs.reserve(len / 128);
        // Every block and branch target has this type: interned here, it is found without
        // hashing in every body (see `Types::known`).
        self.m.types.intern(Type::Label);
        let result = self.top_level();
        if result.is_ok() {
            // Every global's kind is known now.
            self.intrinsic_uses_hold();
        } else {
            // The bodies before the error are read all the same: the global of a definition
            // that did not read to its end names nothing, as one named and never defined.
            let m = &mut self.m;
            for global in m.globals.values_mut() {
                let made = match global.kind {
                    GlobalKind::Function(f) => m.functions.get(f).is_some(),
                    GlobalKind::Variable(v) => m.variables.get(v).is_some(),
                    GlobalKind::Alias(a) => m.aliases.get(a).is_some(),
                    GlobalKind::Pending | GlobalKind::Intrinsic => true,
                };
                if !made {
                    global.kind = GlobalKind::Pending;
                }
            }
        }
        self.m.types.settle_layouts();
        TopLevel {
            module: self.m,
            deferred_fields: self.deferred_fields,
            use_list_checks: self.use_list_checks,
            block_addresses: self.block_addresses,
            error: result.err(),
            invalid: self.invalid,
        }
    }

    /// A parser of `source` that tells `progress` how far the top level has been read (see
    /// `Source::read_beside`).
    pub fn telling(source: &'a [u8], progress: Option<&'a Progress<'a>>) -> Self {
        let mut parser = Parser::new(source);
        parser.progress = progress;
        parser
    }

    pub(super) fn top_level(&mut self) -> PResult<()> {
        // As LLVM 22 reads a module: `source_filename` and `target` definitions first, before
        // any other entity (after one, they are no top-level entity).
        let mut leading = true;
        loop {
            let t = self.tok;
            if let Some(progress) = self.progress {
                progress.read_up_to(t.span.start as usize);
            }
            // A statement after another on its line (LLVM prints each on its own).
            let line_start = self.src[..t.span.start as usize]
                .iter()
                .rev()
                .find(|&&b| !matches!(b, b' ' | b'\t'))
                .is_none_or(|&b| b == b'\n');
            self.m.header.lines_shared |= t.kind != Tok::Eof && !line_start;
            let header =
                t.kind == Tok::Word && matches!(self.text(t), b"source_filename" | b"target");
            if header && !leading {
                return Err(self.err("a top-level entity"));
            }
            leading &= header;
            match t.kind {
                Tok::Eof => break,
                Tok::Word => match self.text(t) {
                    b"source_filename" => {
                        self.m.header.source_filename = true;
                        self.bump();
                        self.expect(Tok::Equal, "'='")?;
                        self.expect(Tok::Str, "a string")?;
                    }
                    b"target" => {
                        self.m.header.target = true;
                        self.bump();
                        let is_layout = self.is_word(b"datalayout");
                        if !is_layout && !self.is_word(b"triple") {
                            return Err(self.err("'datalayout' or 'triple'"));
                        }
                        self.bump();
                        self.expect(Tok::Equal, "'='")?;
                        let s = self.expect(Tok::Str, "a string")?;
                        let body = &self.text(s)[1..s.span.range().len() - 1];
                        if is_layout {
                            DataLayout::check(body).map_err(|e| self.err_at(s.span, e))?;
                            // An empty one says nothing: the triple's stands (as in opt).
                            self.layout_line = true;
                            self.m.header.triple_layout = None;
                            if !body.is_empty() {
                                self.m.data_layout = DataLayout::parse(body);
                                self.layout_written = true;
                            }
                        } else {
                            let arch = body.split(|&b| b == b'-').next().unwrap_or_default();
                            self.m.amdgpu = matches!(arch, b"amdgcn" | b"r600");
                            self.m.coff = is_coff(body);
                            if !self.layout_written {
                                self.m.data_layout = DataLayout::for_triple(body);
                            }
                            if !self.layout_line {
                                self.m.header.triple_layout = DataLayout::text_for_triple(body);
                            }
                        }
                    }
                    b"module" => {
                        self.bump();
                        self.expect_word("asm")?;
                        self.expect(Tok::Str, "a string")?;
                    }
                    b"define" | b"declare" => self.function()?,
                    b"attributes" => self.attribute_group()?,
                    b"uselistorder" | b"uselistorder_bb" => {
                        // What a directive names is no use: it orders uses (LLVM's folds
                        // ignore it too), and the first edit deletes it.
                        let uses = self.m.uses.len();
                        let span = self.uselistorder()?;
                        for u in uses..self.m.uses.len() {
                            let g = self.m.uses[UseId::new(u)].global;
                            self.m.globals[g].uses.pop();
                        }
                        self.m.use_list_orders.push(span);
                    }
                    _ => return Err(self.err("a top-level entity")),
                },
                Tok::LocalName | Tok::LocalNum => self.type_definition()?,
                Tok::GlobalName | Tok::GlobalNum => self.global_definition()?,
                Tok::ComdatName => self.comdat()?,
                Tok::MdName => self.named_metadata()?,
                Tok::MdNum => self.metadata_definition()?,
                Tok::SummaryId => {
                    let span = self.summary_entry()?;
                    self.m.summary_entries.push(span);
                }
                _ => return Err(self.err("a top-level entity")),
            }
        }
        self.check_module_references()
    }

    fn check_module_references(&self) -> PResult<()> {
        // As LLVM reports them: first what `dso_local_equivalent` named ahead, then the
        // comdats, the first name in byte order.
        for &(at, g) in &self.dso_local_equivalents {
            if has_function_type(&self.m, g) == Some(false) {
                return Err(self.undefined_at(at, NOT_A_FUNCTION_EQUIVALENT));
            }
        }
        if let Some((name, &span)) = self.comdat_refs.iter().min_by_key(|&(name, _)| name) {
            let message = format!(
                "use of undefined comdat '${}'",
                String::from_utf8_lossy(name)
            );
            return Err(self.undefined_at(span, message));
        }
        if let Some(g) = self
            .m
            .globals
            .values()
            .find(|g| g.kind == GlobalKind::Pending)
        {
            // Outside a body nothing is called: an intrinsic never declared is misused.
            let message = match &g.name {
                GlobalName::Named(n) if is_intrinsic_name(n) => NOT_A_CALLEE,
                _ => "use of undefined value",
            };
            return Err(self.undefined_at(g.first_use, message));
        }
        if let Some(n) = self.m.types.named.values().find(|n| n.body.is_none()) {
            return Err(self.undefined_at(n.first_use, "use of undefined type"));
        }
        if let Some(&span) = self.md_text_refs.values().min_by_key(|s| s.start) {
            return Err(undefined_metadata(self.src, span));
        }
        if let Some(node) = self
            .m
            .metadata
            .values()
            .find(|n| matches!(n.body, MdBody::Pending))
        {
            return Err(undefined_metadata(self.src, node.span));
        }
        Ok(())
    }

    /// `^N = kind: ...`, stepped over as LLVM steps over it when it reads a module (not a
    /// summary): `flags` and `blockcount` take an integer, `gv`, `module` and `typeid`
    /// balanced parentheses; any other kind is refused (clang-22 writes
    /// `typeidCompatibleVTable` with -flto=thin, which opt-22 refuses too). Its span.
    fn summary_entry(&mut self) -> PResult<Span> {
        const KINDS: &str = "Expected 'gv', 'module', 'typeid', 'flags' or 'blockcount' at the start of summary entry";
        let start = self.bump().span.start as usize;
        self.m.labels_end = self.m.labels_end.min(self.tok.span.start);
        self.expect(Tok::Equal, "'='")?;
        let kind = self.tok;
        let word = match kind.kind {
            Tok::Label => &self.text(kind)[..kind.span.range().len() - 1],
            Tok::Word => self.text(kind),
            _ => b"",
        };
        let takes_integer = match word {
            b"flags" | b"blockcount" => true,
            b"gv" | b"module" | b"typeid" => false,
            _ => return Err(self.err_at(kind.span, KINDS)),
        };
        self.bump();
        // The lexer has no token for a lone `:` (LLVM's reads `gv :` as `gv:` here).
        let colon = self.tok.kind == Tok::Invalid && self.text(self.tok) == b":";
        if colon {
            self.bump();
        } else if kind.kind == Tok::Word {
            let message = if takes_integer {
                "expected ':' here"
            } else {
                "expected ':' at start of summary entry"
            };
            return Err(self.err_at(self.tok.span, message));
        }
        if takes_integer {
            if self.tok.kind != Tok::Int || !self.text(self.tok)[0].is_ascii_digit() {
                return Err(self.err_at(self.tok.span, "expected integer"));
            }
            let last = self.bump();
            return Ok(Span::new(start, last.span.end as usize));
        }
        if self.tok.kind != Tok::LParen {
            return Err(self.err_at(self.tok.span, "expected '(' at start of summary entry"));
        }
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                Tok::LParen => depth += 1,
                Tok::RParen => depth -= 1,
                Tok::Eof => {
                    let message = "found end of file while parsing summary entry";
                    return Err(self.err_at(self.tok.span, message));
                }
                // LLVM skips every other token here, even one it cannot lex (a lone `%`),
                // but for a string left open, which runs to the end.
                Tok::Invalid if self.tok.span.end as usize == self.src.len() => {
                    return Err(self.err_at(self.tok.span, "end of file in string constant"));
                }
                _ => {}
            }
            let last = self.bump();
            if depth == 0 {
                return Ok(Span::new(start, last.span.end as usize));
            }
        }
    }

    /// A `uselistorder` or `uselistorder_bb` directive; its span.
    pub(super) fn uselistorder(&mut self) -> PResult<Span> {
        let is_bb = self.is_word(b"uselistorder_bb");
        let start = self.bump().span;
        // The directive names a value without using it.
        let intrinsic_uses = self.intrinsic_uses.len();
        // The global the directive orders the uses of, or the function and block.
        let (mut global, mut block) = (None, None);
        if is_bb {
            let g = self.expect_global("a function")?;
            self.global_use(g, UseRole::Operand, GlobalUse::UNTYPED)?;
            self.expect(Tok::Comma, "','")?;
            if !matches!(self.tok.kind, Tok::LocalName | Tok::LocalNum) {
                return Err(self.err("a block name"));
            }
            block = Some((g, self.bump()));
        } else {
            let ty = self.parse_type()?;
            let value = self.tok;
            self.parse_value(ty)?;
            // A global itself, not a constant that names one.
            if matches!(value.kind, Tok::GlobalName | Tok::GlobalNum) && self.tok.kind == Tok::Comma
            {
                global = global_named(self.top(), &self.src[value.span.range()][1..]);
            }
        }
        self.intrinsic_uses.truncate(intrinsic_uses);
        self.expect(Tok::Comma, "','")?;
        let open = self.expect(Tok::LBrace, "'{'")?;
        if self.tok.kind == Tok::RBrace {
            return Err(self.err("non-empty list of uselistorder indexes"));
        }
        // The indexes are a permutation of 0..n other than the identity, told as LLVM tells
        // it: their sum's excess over 0 + 1 + ... + (n - 1), in wrapping `u32`, and their
        // largest.
        let (mut excess, mut largest, mut count, mut ordered) = (0u32, 0u32, 0u32, true);
        loop {
            let t = self.expect(Tok::Int, "a use index")?;
            let index = decimal_u32(self.text(t)).unwrap_or(u32::MAX);
            excess = excess.wrapping_add(index.wrapping_sub(count));
            largest = largest.max(index);
            ordered &= index == count;
            count += 1;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::RBrace, "'}'")?.span;
        let message = if count < 2 {
            "expected >= 2 uselistorder indexes"
        } else if excess != 0 || largest >= count {
            "expected distinct uselistorder indexes in range [0, size)"
        } else if ordered {
            "expected uselistorder indexes to change the order"
        } else {
            if let Some(global) = global {
                if self.body_mode.is_some() {
                    let orders = &mut self.scope().body.global_use_list_orders;
                    orders.push((start, global, count));
                } else {
                    self.use_list_checks.push(UseListCheck::Global {
                        at: start,
                        global,
                        indexes: count,
                    });
                }
            }
            if let Some((function, block)) = block {
                self.uselistorder_bb_holds(function, block)?;
            }
            return Ok(start.to(end));
        };
        Err(self.err_at(open.span, message))
    }

    /// What LLVM checks of `uselistorder_bb @f, %block` where it stands: `@f` is a function
    /// defined before it, and the block is named, not numbered. That `f` has such a block is
    /// checked once its body is read.
    fn uselistorder_bb_holds(&mut self, function: Token, block: Token) -> PResult<()> {
        let global = global_named(&self.m, &self.src[function.span.range()][1..]);
        let kind = global.map(|g| self.m.globals[g].kind);
        let f = match kind {
            None | Some(GlobalKind::Pending) => {
                let message = "invalid function forward reference in uselistorder_bb";
                return Err(self.err_at(function.span, message));
            }
            Some(GlobalKind::Function(f)) => f,
            Some(_) => {
                let message = "expected function name in uselistorder_bb";
                return Err(self.err_at(function.span, message));
            }
        };
        if self.m.functions[f].body.is_none() {
            let message = "invalid declaration in uselistorder_bb";
            return Err(self.err_at(function.span, message));
        }
        if block.kind == Tok::LocalNum {
            let message = "invalid numeric label in uselistorder_bb";
            return Err(self.err_at(block.span, message));
        }
        self.use_list_checks.push(UseListCheck::Block {
            function: f,
            block: block.span,
        });
        Ok(())
    }

    pub(super) fn expect_global(&mut self, what: &str) -> PResult<Token> {
        if matches!(self.tok.kind, Tok::GlobalName | Tok::GlobalNum) {
            Ok(self.bump())
        } else {
            Err(self.err(what))
        }
    }

    /// `dso_local_equivalent` names a function, or an alias or ifunc of a function type, as
    /// LLVM checks it: at once for a global defined before (a body's are all defined), when
    /// the top level ends for one defined after.
    pub(super) fn dso_local_equivalent_holds(&mut self, name: Token) -> PResult<()> {
        // A body read again held when first read, and its names may have changed since.
        if self
            .body_mode
            .as_ref()
            .is_some_and(|bm| bm.replay_from.is_some())
        {
            return Ok(());
        }
        let module = self.body_mode.as_ref().map_or(&self.m, |bm| bm.base);
        let Some(g) = global_named(module, &self.src[name.span.range()][1..]) else {
            // Undefined: reported as such.
            return Ok(());
        };
        match has_function_type(module, g) {
            Some(true) => Ok(()),
            Some(false) => Err(self.err_at(name.span, NOT_A_FUNCTION_EQUIVALENT)),
            None => {
                self.dso_local_equivalents.push((name.span, g));
                Ok(())
            }
        }
    }

    pub(super) fn comdat(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect_word("comdat")?;
        let kind = self.tok;
        match self.word() {
            b"any" | b"exactmatch" | b"largest" | b"nodeduplicate" | b"samesize" => {}
            _ => return Err(self.err("a comdat selection kind")),
        }
        self.bump();
        // Checked once the definition is read, as LLVM does.
        let key = self.global_name_at(name.span);
        self.comdat_refs.remove(&key);
        if self
            .comdats_defined
            .insert(key, self.m.comdats.len())
            .is_some()
        {
            let key = self.global_name_at(name.span);
            let message = format!(
                "redefinition of comdat '${}'",
                String::from_utf8_lossy(&key)
            );
            return Err(self.err_at(name.span, message));
        }
        self.m.comdats.push(Comdat {
            name: name.span,
            kind: kind.span,
            span: name.span.to(kind.span),
        });
        Ok(())
    }

    fn type_definition(&mut self) -> PResult<()> {
        let name = self.bump();
        self.expect(Tok::Equal, "'='")?;
        self.expect_word("type")?;
        let n = self.named_type(name)?;
        if self.m.types.named[n].body.is_some() {
            return Err(self.err_at(name.span, "redefinition of a type"));
        }
        let body = if self.eat_word(b"opaque") {
            None
        } else {
            Some(self.parse_type()?)
        };
        self.m.types.named[n].body = Some(body);
        self.m.types.named[n].defined_at = name.span.start;
        // A struct that holds itself, not through a pointer, has no size: LLVM refuses it
        // once the definition that closes the cycle is read.
        if body.is_some_and(|body| self.holds_by_value(body, n)) {
            let name = self.m.types.named[n].spelling.trim_matches('"');
            let message = format!("identified structure type '{name}' is recursive");
            return Err(self.err_at(self.tok.span, message));
        }
        Ok(())
    }

    /// Whether a value of type `ty` holds one of the named type `target` (in a struct, array
    /// or vector element, followed through named types defined so far). A walk that meets no
    /// named type still undefined marks `target` and every named type it followed complete:
    /// what they hold is all defined, so no later definition can close a cycle through them,
    /// and later walks do not enter them. A chain of types each holding the one before, defined
    /// in order, costs a step a definition rather than the whole chain (reading 8,000 such
    /// types took 34 s). The walk keeps its own stack: such a chain runs deeper than a thread's.
    fn holds_by_value(&mut self, ty: TypeId, target: NamedTypeId) -> bool {
        let complete = &mut self.complete_types;
        complete.resize(self.m.types.named.len(), false);
        let mut stack = vec![ty];
        let mut followed: FxHashSet<NamedTypeId> = FxHashSet::default();
        let mut met_undefined = false;
        while let Some(ty) = stack.pop() {
            match self.m.types.get(ty) {
                Type::Named(n) if *n == target => return true,
                Type::Named(n) => match self.m.types.named[*n].body {
                    _ if complete[n.index()] => {}
                    Some(Some(body)) => {
                        if followed.insert(*n) {
                            stack.push(body);
                        }
                    }
                    Some(None) => {}
                    None => met_undefined = true,
                },
                Type::Struct { elems, .. } => stack.extend(elems.iter().rev()),
                Type::Array(_, elem) | Type::Vector { elem, .. } => stack.push(*elem),
                _ => {}
            }
        }
        if !met_undefined {
            complete[target.index()] = true;
            for n in followed {
                complete[n.index()] = true;
            }
        }
        false
    }

    pub(super) fn named_type(&mut self, t: Token) -> PResult<NamedTypeId> {
        let text = self.text(t);
        // The key is `%` and the unquoted, unescaped name: the text itself when bare, else
        // made in a buffer kept for the next (C++ names its types `%"class.std::..."`).
        let key: &[u8] = if t.kind == Tok::LocalNum || text.get(1) != Some(&b'"') {
            text
        } else {
            self.key_buffer.clear();
            self.key_buffer.push(b'%');
            self.key_buffer.extend_from_slice(&strip_name(&text[1..]));
            &self.key_buffer
        };
        if let Some(bm) = &self.body_mode {
            return match bm.base.types.named_by_key.get(key) {
                Some(&n) if bm.base.types.named[n].body.is_some() => Ok(n),
                _ => Err(self.undefined_at(t.span, "use of undefined type")),
            };
        }
        if let Some(&n) = self.m.types.named_by_key.get(key) {
            return Ok(n);
        }
        let key: Box<[u8]> = key.into();
        let n = self.m.types.named.push(crate::model::types::NamedType {
            spelling: String::from_utf8_lossy(&text[1..]).into(),
            body: None,
            first_use: t.span,
            defined_at: u32::MAX,
        });
        self.m.types.named_by_key.insert(key, n);
        Ok(n)
    }
}

const NOT_A_FUNCTION_EQUIVALENT: &str =
    "expected a function, alias to function, or ifunc in dso_local_equivalent";

/// Whether a target triple's object format is COFF, as LLVM's `Triple` finds it: named by
/// the environment's suffix, or the default of a Windows or UEFI system when none is named.
fn is_coff(triple: &[u8]) -> bool {
    let mut parts = triple.split(|&b| b == b'-');
    let (os, environment) = (
        parts.nth(2).unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    const FORMATS: [&[u8]; 8] = [
        b"coff",
        b"elf",
        b"macho",
        b"wasm",
        b"xcoff",
        b"goff",
        b"dxcontainer",
        b"spirv",
    ];
    match FORMATS
        .iter()
        .find(|&&format| environment.ends_with(format))
    {
        Some(&format) => format == b"coff",
        None => [&b"windows"[..], b"win32", b"uefi"]
            .iter()
            .any(|&name| os.starts_with(name)),
    }
}

/// Whether global `g` of `m` has a function type (a function, an alias or ifunc written with
/// one); `None` while it is not defined.
fn has_function_type(m: &Module, g: GlobalId) -> Option<bool> {
    match m.globals[g].kind {
        GlobalKind::Function(_) | GlobalKind::Intrinsic => Some(true),
        GlobalKind::Alias(a) => Some(matches!(
            m.types.get(m.aliases[a].ty),
            Type::Function { .. }
        )),
        GlobalKind::Variable(_) => Some(false),
        GlobalKind::Pending => None,
    }
}
