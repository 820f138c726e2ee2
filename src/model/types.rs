//! Interned types. Each distinct type is stored once; `TypeId` equality is type identity
//! (named structs are identified by name, as in LLVM).

use cranelift_entity::{EntityRef, PrimaryMap, entity_impl};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);
entity_impl!(TypeId, "type");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NamedTypeId(u32);
entity_impl!(NamedTypeId, "named");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Half,
    BFloat,
    Float,
    Double,
    X86Fp80,
    Fp128,
    PpcFp128,
}

impl FloatKind {
    /// The size in bits.
    pub fn bits(self) -> u64 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::X86Fp80 => 80,
            FloatKind::Fp128 | FloatKind::PpcFp128 => 128,
        }
    }

    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::X86Fp80 => "x86_fp80",
            FloatKind::Fp128 => "fp128",
            FloatKind::PpcFp128 => "ppc_fp128",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Label,
    Metadata,
    Token,
    X86Amx,
    Float(FloatKind),
    Int(u32),
    /// `ptr addrspace(N)`
    Ptr(u32),
    Array(u64, TypeId),
    Vector {
        scalable: bool,
        len: u64,
        elem: TypeId,
    },
    Struct {
        packed: bool,
        elems: Vec<TypeId>,
    },
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        varargs: bool,
    },
    /// `target("name", types..., ints...)`
    TargetExt {
        name: Box<[u8]>,
        types: Vec<TypeId>,
        ints: Vec<u32>,
    },
    /// `%name` or `%N`: its body lives in [`Types::named`].
    Named(NamedTypeId),
}

impl Type {
    /// LLVM 22's `isTokenLikeTy`: `token`, or a target extension type it gives the token's
    /// restrictions (no argument or result of a function but an intrinsic, no phi): the
    /// DirectX resources `dx.*` but `dx.Padding`.
    pub fn is_token_like(&self) -> bool {
        match self {
            Type::Token => true,
            Type::TargetExt { name, .. } => name.starts_with(b"dx.") && &name[..] != b"dx.Padding",
            _ => false,
        }
    }
}

/// A named struct type (`%T = type { ... }` / `%T = type opaque`).
#[derive(Clone, Debug)]
pub struct NamedType {
    /// The name as written after `%`, without quotes or escapes resolved (used to print it).
    pub spelling: Box<str>,
    /// `None` until its definition is read; `Some(None)` for `opaque`.
    pub body: Option<Option<TypeId>>,
    /// Where it was first referenced, for an "undefined type" error.
    pub first_use: super::Span,
    /// Where its definition starts in the text (`u32::MAX` until read): LLVM reads a body
    /// before the text after it, so there a type defined after is not yet known.
    pub defined_at: u32,
}

#[derive(Default, Debug)]
pub struct Types {
    pub types: PrimaryMap<TypeId, Type>,
    dedup: FxHashMap<Type, TypeId>,
    pub named: PrimaryMap<NamedTypeId, NamedType>,
    pub named_by_key: FxHashMap<Box<[u8]>, NamedTypeId>,
    /// `iN` for small N, and the types without parts (`ptr`, `float`, `void`...): the types
    /// almost every operand names, found without hashing.
    small_ints: Vec<Option<TypeId>>,
    simple: [Option<TypeId>; SIMPLE_TYPES],
    /// `%T` by its named type, when interned: found without hashing too, as C++ bodies name
    /// their classes at every alloca and getelementptr.
    named_ids: Vec<Option<TypeId>>,
    /// Each type's [`Layout`], once the top level is read ([`Types::settle_layouts`]): the
    /// reader asks it of every alloca and getelementptr, and a struct's takes a walk of its
    /// members.
    layouts: Vec<Layout>,
}

/// What the reader checks of a type's layout: LLVM's `Type::isSized` and `isScalableTy`
/// (target extension types count as sized and not scalable: their table is LLVM's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub sized: bool,
    pub scalable: bool,
    /// Where in the text the last definition of a named type it holds by value starts (0
    /// for none): before that place, as LLVM reads a body, the type is not sized yet.
    pub complete_at: u32,
    /// It is, or holds in an array or struct, a target extension type LLVM keeps out of
    /// globals (`containsNonGlobalTargetExtType`), or off the stack
    /// (`containsNonLocalTargetExtType`).
    pub bars_globals: bool,
    pub bars_stack: bool,
}

impl Layout {
    /// Past any depth that valid input reaches (named types nest without end only in bad
    /// input), a type is taken as sized and not scalable, which refuses nothing.
    pub const DEEP: Layout = Layout {
        sized: true,
        scalable: false,
        complete_at: 0,
        bars_globals: false,
        bars_stack: false,
    };
    pub const NESTING_LIMIT: u32 = 64;

    /// The layout of `ty`, a type with named types followed (`body` follows them too), given
    /// its parts' layouts (`part`). A struct mixing scalable vectors with anything else is
    /// unsized; one of identical scalable vectors is sized, as in LLVM 22.
    pub fn of<'t>(
        ty: &Type,
        body: impl Fn(TypeId) -> &'t Type,
        mut part: impl FnMut(TypeId) -> Layout,
    ) -> Layout {
        let mut complete_at = 0;
        let (mut bars_globals, mut bars_stack) = (false, false);
        let (sized, scalable) = match ty {
            Type::Int(_) | Type::Float(_) | Type::Ptr(_) | Type::X86Amx => (true, false),
            Type::TargetExt { name, .. } => {
                let places = target_ext_places(name);
                (bars_globals, bars_stack) = (!places.global, !places.local);
                target_ext_layout(name)
            }
            Type::Array(_, elem) => {
                let elem = part(*elem);
                complete_at = elem.complete_at;
                (bars_globals, bars_stack) = (elem.bars_globals, elem.bars_stack);
                (elem.sized, elem.scalable)
            }
            Type::Vector { scalable, elem, .. } => {
                let elem = part(*elem);
                complete_at = elem.complete_at;
                (elem.sized, *scalable)
            }
            Type::Struct { elems, .. } => {
                let (mut sized, mut scalable) = (true, false);
                for &e in elems {
                    let l = part(e);
                    (sized, scalable) = (sized && l.sized, scalable || l.scalable);
                    complete_at = complete_at.max(l.complete_at);
                    bars_globals |= l.bars_globals;
                    bars_stack |= l.bars_stack;
                }
                if scalable {
                    let first = body(elems[0]);
                    sized = matches!(first, Type::Vector { scalable: true, .. })
                        && elems.iter().all(|&e| body(e) == first);
                }
                (sized, scalable)
            }
            Type::Void
            | Type::Label
            | Type::Metadata
            | Type::Token
            | Type::Function { .. }
            | Type::Named(_) => (false, false),
        };
        Layout {
            sized,
            scalable,
            complete_at,
            bars_globals,
            bars_stack,
        }
    }

    /// This layout, of a type reached through named types defined at `defined_at`.
    pub fn named(self, defined_at: impl IntoIterator<Item = u32>) -> Layout {
        let complete_at = defined_at
            .into_iter()
            .fold(self.complete_at, |at, d| at.max(d));
        Layout {
            complete_at,
            ..self
        }
    }
}

/// Whether a target extension type named `name` is sized and scalable: as its layout type
/// is, which LLVM 22 fixes for the names it knows (`getTargetTypeInfo`): a scalable vector
/// for `aarch64.svcount` and `riscv.vector.tuple`, a pointer, a vector or an integer for
/// `spirv.*`, `dx.*`, `amdgcn.named.barrier` and `llvm.test.vectorelement`; `void`, unsized,
/// for `spirv.IntegralConstant`, `spirv.Literal` and any other name.
fn target_ext_layout(name: &[u8]) -> (bool, bool) {
    match name {
        b"aarch64.svcount" | b"riscv.vector.tuple" => (true, true),
        b"spirv.IntegralConstant" | b"spirv.Literal" => (false, false),
        b"amdgcn.named.barrier" | b"llvm.test.vectorelement" => (true, false),
        _ => (
            name.starts_with(b"spirv.") || name.starts_with(b"dx."),
            false,
        ),
    }
}

/// Where a target extension type named `name` may live, as LLVM 22 fixes it for the names it
/// knows (`getTargetTypeInfo`'s `CanBeGlobal` and `CanBeLocal`): in a global, on the stack.
/// An unknown name may live in neither.
fn target_ext_places(name: &[u8]) -> TargetExtPlaces {
    let (global, local) = match name {
        b"spirv.IntegralConstant" | b"spirv.Literal" => (false, false),
        b"spirv.Padding" | b"dx.Padding" | b"amdgcn.named.barrier" => (true, false),
        b"aarch64.svcount" | b"riscv.vector.tuple" | b"llvm.test.vectorelement" => (false, true),
        _ if name.starts_with(b"spirv.") || name.starts_with(b"dx.") => (true, true),
        _ => (false, false),
    };
    TargetExtPlaces { global, local }
}

/// See [`target_ext_places`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TargetExtPlaces {
    global: bool,
    local: bool,
}

const SIMPLE_TYPES: usize = 13;

/// The place of a type without parts in [`Types::simple`].
fn simple_slot(ty: &Type) -> Option<usize> {
    Some(match *ty {
        Type::Void => 0,
        Type::Label => 1,
        Type::Metadata => 2,
        Type::Token => 3,
        Type::X86Amx => 4,
        Type::Ptr(0) => 5,
        Type::Float(kind) => 6 + kind as usize,
        _ => return None,
    })
}

impl Types {
    pub fn int(&mut self, bits: u32) -> TypeId {
        if let Some(Some(id)) = self.small_ints.get(bits as usize) {
            return *id;
        }
        let id = self.intern(Type::Int(bits));
        if bits <= 128 {
            if self.small_ints.len() <= bits as usize {
                self.small_ints.resize(bits as usize + 1, None);
            }
            self.small_ints[bits as usize] = Some(id);
        }
        id
    }

    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(id) = self.known(&ty) {
            return id;
        }
        let (slot, named) = match ty {
            Type::Named(n) => (None, Some(n.index())),
            _ => (simple_slot(&ty), None),
        };
        let id = match self.dedup.get(&ty) {
            Some(&id) => id,
            None => {
                let id = self.types.push(ty.clone());
                self.dedup.insert(ty, id);
                id
            }
        };
        if let Some(i) = slot {
            self.simple[i] = Some(id);
        }
        if let Some(n) = named {
            if self.named_ids.len() <= n {
                self.named_ids.resize(n + 1, None);
            }
            self.named_ids[n] = Some(id);
        }
        id
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id]
    }

    /// Work out every type's [`Layout`] once, when no more types are to be read before bodies.
    pub fn settle_layouts(&mut self) {
        let mut memo = vec![None; self.types.len()];
        for id in self.types.keys() {
            self.layout_memo(id, &mut memo, 0);
        }
        self.layouts = memo
            .into_iter()
            .map(|l| l.unwrap_or(Layout::DEEP))
            .collect();
    }

    fn layout_memo(&self, id: TypeId, memo: &mut [Option<Layout>], depth: u32) -> Layout {
        if let Some(layout) = memo[id.index()] {
            return layout;
        }
        if depth > Layout::NESTING_LIMIT {
            return Layout::DEEP;
        }
        let body = |t: TypeId| self.get(self.resolve(t));
        let mut layout = Layout::of(body(id), body, |e| self.layout_memo(e, memo, depth + 1));
        if let Type::Named(n) = self.types[id] {
            layout = layout.named(self.definitions_from(n));
        }
        memo[id.index()] = Some(layout);
        layout
    }

    /// A type's layout, if worked out ([`Types::settle_layouts`]; not for types added after).
    pub fn layout(&self, id: TypeId) -> Option<Layout> {
        self.layouts.get(id.index()).copied()
    }

    /// Where the definitions of the named types [`Types::resolve`] follows from `n` start.
    pub fn definitions_from(&self, n: NamedTypeId) -> impl Iterator<Item = u32> + '_ {
        let mut next = Some(n);
        std::iter::from_fn(move || {
            let n = next?;
            next = match self.named[n].body.flatten().map(|b| &self.types[b]) {
                Some(Type::Named(m)) => Some(*m),
                _ => None,
            };
            Some(self.named[n].defined_at)
        })
        .take(64)
    }

    /// Follow a named type to its body (opaque named types stay as they are).
    pub fn resolve(&self, mut id: TypeId) -> TypeId {
        // Bounded: in bad input a named type's body can name a type again, in a cycle.
        for _ in 0..64 {
            match self.types[id] {
                Type::Named(n) => match self.named[n].body {
                    Some(Some(body)) => id = body,
                    _ => return id,
                },
                _ => return id,
            }
        }
        id
    }

    /// `iN`, when interned and small: without hashing, as almost every operand names one.
    pub fn known_int(&self, bits: u32) -> Option<TypeId> {
        self.small_ints.get(bits as usize).copied().flatten()
    }

    /// The id of a small integer type, a type without parts or a named type, when interned.
    pub fn known(&self, ty: &Type) -> Option<TypeId> {
        match *ty {
            Type::Int(bits) => self.known_int(bits),
            Type::Named(n) => self.named_ids.get(n.index()).copied().flatten(),
            _ => simple_slot(ty).and_then(|i| self.simple[i]),
        }
    }

    /// The id of a type already interned, without interning it.
    pub fn lookup(&self, ty: &Type) -> Option<TypeId> {
        self.known(ty).or_else(|| self.dedup.get(ty).copied())
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.types[id], Type::Void)
    }

    /// Print a type as LLVM writes it.
    pub fn display(&self, id: TypeId) -> String {
        self.display_in(&[], id)
    }

    /// Whether type `a` of one body and `b` of another are one type: the module's types are
    /// compared by id, a body's own (numbered per body, continuing these) by what they are.
    pub fn same_in_bodies(&self, body_a: &[Type], a: TypeId, body_b: &[Type], b: TypeId) -> bool {
        let base = self.types.len();
        if a.index() < base && b.index() < base {
            return a == b;
        }
        fn get<'t>(types: &'t PrimaryMap<TypeId, Type>, body: &'t [Type], id: TypeId) -> &'t Type {
            types
                .get(id)
                .unwrap_or_else(|| &body[id.index() - types.len()])
        }
        let same = |p: &TypeId, q: &TypeId| self.same_in_bodies(body_a, *p, body_b, *q);
        let all_same = |p: &[TypeId], q: &[TypeId]| {
            p.len() == q.len() && p.iter().zip(q).all(|(p, q)| same(p, q))
        };
        match (get(&self.types, body_a, a), get(&self.types, body_b, b)) {
            (Type::Array(n, e), Type::Array(m, f)) => n == m && same(e, f),
            (
                Type::Vector {
                    scalable,
                    len,
                    elem,
                },
                Type::Vector {
                    scalable: scalable_b,
                    len: len_b,
                    elem: elem_b,
                },
            ) => scalable == scalable_b && len == len_b && same(elem, elem_b),
            (
                Type::Struct { packed, elems },
                Type::Struct {
                    packed: packed_b,
                    elems: elems_b,
                },
            ) => packed == packed_b && all_same(elems, elems_b),
            (
                Type::Function {
                    ret,
                    params,
                    varargs,
                },
                Type::Function {
                    ret: ret_b,
                    params: params_b,
                    varargs: varargs_b,
                },
            ) => varargs == varargs_b && same(ret, ret_b) && all_same(params, params_b),
            (
                Type::TargetExt { name, types, ints },
                Type::TargetExt {
                    name: name_b,
                    types: types_b,
                    ints: ints_b,
                },
            ) => name == name_b && ints == ints_b && all_same(types, types_b),
            // No ids inside: equal as they are.
            (x, y) => x == y,
        }
    }

    /// [`Types::display`] for a type of a body, whose own types continue these
    /// (`Body::types`).
    pub fn display_in(&self, body_types: &[Type], id: TypeId) -> String {
        let mut s = String::new();
        self.write(id, &mut s, body_types);
        s
    }

    fn write(&self, id: TypeId, out: &mut String, body: &[Type]) {
        use std::fmt::Write;
        let ty = match self.types.get(id) {
            Some(ty) => ty,
            None => &body[id.index() - self.types.len()],
        };
        match ty {
            Type::Void => out.push_str("void"),
            Type::Label => out.push_str("label"),
            Type::Metadata => out.push_str("metadata"),
            Type::Token => out.push_str("token"),
            Type::X86Amx => out.push_str("x86_amx"),
            Type::Float(k) => out.push_str(k.keyword()),
            Type::Int(w) => {
                let _ = write!(out, "i{w}");
            }
            Type::Ptr(0) => out.push_str("ptr"),
            Type::Ptr(a) => {
                let _ = write!(out, "ptr addrspace({a})");
            }
            Type::Array(n, e) => {
                let _ = write!(out, "[{n} x ");
                self.write(*e, out, body);
                out.push(']');
            }
            Type::Vector {
                scalable,
                len,
                elem,
            } => {
                out.push('<');
                if *scalable {
                    out.push_str("vscale x ");
                }
                let _ = write!(out, "{len} x ");
                self.write(*elem, out, body);
                out.push('>');
            }
            Type::Struct { packed, elems } => {
                if *packed {
                    out.push('<');
                }
                if elems.is_empty() {
                    out.push_str("{}");
                } else {
                    out.push_str("{ ");
                    for (i, e) in elems.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write(*e, out, body);
                    }
                    out.push_str(" }");
                }
                if *packed {
                    out.push('>');
                }
            }
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                self.write(*ret, out, body);
                out.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(*p, out, body);
                }
                if *varargs {
                    out.push_str(if params.is_empty() { "..." } else { ", ..." });
                }
                out.push(')');
            }
            Type::TargetExt { name, types, ints } => {
                out.push_str("target(\"");
                out.push_str(&String::from_utf8_lossy(name));
                out.push('"');
                for t in types {
                    out.push_str(", ");
                    self.write(*t, out, body);
                }
                for i in ints {
                    let _ = write!(out, ", {i}");
                }
                out.push(')');
            }
            Type::Named(n) => {
                out.push('%');
                out.push_str(&self.named[*n].spelling);
            }
        }
    }
}
