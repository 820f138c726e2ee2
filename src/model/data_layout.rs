//! The `target datalayout` string: what merging needs of it (pointer and index sizes, the
//! default address spaces) and the sizes and alignments of types in memory, by which
//! getelementptr offsets are worked out (spec §5), as LLVM 22's `DataLayout` gives them.

use super::triple_layouts::TRIPLE_LAYOUTS;
use super::{Body, Item, Layout, Module, Opcode, Type, TypeId, Types};
use cranelift_entity::EntityRef;
use std::borrow::Cow;

/// What merging needs of the `target datalayout` string: pointer sizes, alignments and index
/// sizes per address space, the ABI alignments of integers, floats, vectors and structs, and
/// the address spaces of functions (`P`), global variables (`G`) and allocas (`A`).
#[derive(Clone, Debug)]
pub struct DataLayout {
    // Borrowed from LLVM's defaults until a string changes them: a default layout allocates
    // nothing, and every body's parser makes one (stlprog-O0: 23,000 allocations and frees).
    pointers: Cow<'static, [PointerSpec]>,
    /// The `i`, `f` and `v` specifications: a width in bits and its ABI and preferred
    /// alignments in bytes, sorted by width.
    ints: Cow<'static, [(u32, u64, u64)]>,
    floats: Cow<'static, [(u32, u64, u64)]>,
    vectors: Cow<'static, [(u32, u64, u64)]>,
    /// `a:<abi>:<pref>`: the least ABI and preferred alignments of a struct, in bytes (the
    /// ABI one only for a struct that is not packed).
    aggregate_align: u64,
    aggregate_pref: u64,
    pub program_addr_space: u32,
    pub globals_addr_space: u32,
    pub alloca_addr_space: u32,
    /// A module that names a target triple LLVM knows and no datalayout takes the target's
    /// ([`DataLayout::for_triple`]); one whose triple is not known here has a layout unknown:
    /// no type has a room in memory (`memory` is `None`) and a pointer no integer width, so
    /// nothing merging compares by them (getelementptr offsets, alignments left implied,
    /// pointers against integers) is taken as equal.
    pub unknown: bool,
    /// The names pointer specifications give address spaces (`p1(global):64:64`, LLVM 22),
    /// by which a type may name one: `ptr addrspace("global")`.
    pub addr_space_names: Vec<(Box<[u8]>, u32)>,
}

/// A `p[<n>]:<size>:<abi>[:<pref>[:<idx>]]` specification.
#[derive(Clone, Copy, Debug)]
struct PointerSpec {
    addr_space: u32,
    bits: u32,
    /// ABI and preferred alignments in bytes.
    align: u64,
    pref: u64,
    index_bits: u32,
}

/// A type's room in memory: LLVM's `getTypeAllocSize` and `getABITypeAlign`, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    pub size: u64,
    pub align: u64,
}

/// `p:64:64:64:64`, LLVM's pointers unless the string says otherwise.
const DEFAULT_POINTER: PointerSpec = PointerSpec {
    addr_space: 0,
    bits: 64,
    align: 8,
    pref: 8,
    index_bits: 64,
};

impl Default for DataLayout {
    /// LLVM 22's defaults, for what the string does not say.
    fn default() -> Self {
        DataLayout {
            pointers: Cow::Borrowed(&[DEFAULT_POINTER]),
            ints: Cow::Borrowed(&[(1, 1, 1), (8, 1, 1), (16, 2, 2), (32, 4, 4), (64, 4, 8)]),
            floats: Cow::Borrowed(&[(16, 2, 2), (32, 4, 4), (64, 8, 8), (128, 16, 16)]),
            vectors: Cow::Borrowed(&[(64, 8, 8), (128, 16, 16)]),
            aggregate_align: 1,
            aggregate_pref: 8,
            program_addr_space: 0,
            globals_addr_space: 0,
            alloca_addr_space: 0,
            unknown: false,
            addr_space_names: Vec::new(),
        }
    }
}

impl DataLayout {
    /// The layout LLVM 22's `opt` gives a module that names `triple` and no datalayout: its
    /// target's (`tools/gen-triple-layouts.py` asked opt-22 for each triple of a list), found
    /// by the triple without the versions of its system and environment
    /// (`x86_64-apple-macosx10.15.0` as `x86_64-apple-macosx`); unknown ([`DataLayout::unknown`]) for a triple not in the list.
    pub fn for_triple(triple: &[u8]) -> DataLayout {
        match DataLayout::text_for_triple(triple) {
            Some(text) => DataLayout::parse(text.as_bytes()),
            None => DataLayout {
                unknown: true,
                ..DataLayout::default()
            },
        }
    }

    /// The datalayout string of [`DataLayout::for_triple`], as opt-22 prints it; `None` for a
    /// triple not in the list.
    pub fn text_for_triple(triple: &[u8]) -> Option<&'static str> {
        let key = triple_key(triple);
        TRIPLE_LAYOUTS
            .binary_search_by(|(k, _)| k.as_bytes().cmp(&key))
            .ok()
            .map(|i| TRIPLE_LAYOUTS[i].1)
    }

    /// Read a datalayout string: its pointer, integer, float, vector and aggregate
    /// specifications and its default address spaces; the others (endianness, mangling,
    /// native widths, stack alignment...) change nothing merging compares. A string
    /// [`DataLayout::check`] refuses is never asked of this; a part that does not read is
    /// left at its default.
    pub fn parse(s: &[u8]) -> DataLayout {
        fn number<N: std::str::FromStr>(t: &[u8]) -> Option<N> {
            std::str::from_utf8(t).ok()?.parse().ok()
        }
        // An alignment in bits, as bytes (`0` is allowed for aggregates: one byte).
        let bytes = |t: &[u8]| number(t).map(|bits: u64| (bits / 8).max(1));
        let mut dl = DataLayout::default();
        for spec in s.split(|&b| b == b'-') {
            let Some((&letter, rest)) = spec.split_first() else {
                continue;
            };
            let parts: Vec<&[u8]> = rest.split(|&b| b == b':').collect();
            match letter {
                b'P' => dl.program_addr_space = number(rest).unwrap_or(0),
                b'G' => dl.globals_addr_space = number(rest).unwrap_or(0),
                b'A' => dl.alloca_addr_space = number(rest).unwrap_or(0),
                b'p' if parts.len() >= 3 => {
                    let Ok((addr_space, name)) = pointer_addr_space(parts[0]) else {
                        continue;
                    };
                    let (Some(bits), Some(align)) = (number(parts[1]), bytes(parts[2])) else {
                        continue;
                    };
                    if let Some(name) = name {
                        dl.addr_space_names.push((name.into(), addr_space));
                    }
                    let pref = parts.get(3).and_then(|&t| bytes(t)).unwrap_or(align);
                    let index_bits = parts.get(4).and_then(|&t| number(t)).unwrap_or(bits);
                    let pointers = dl.pointers.to_mut();
                    pointers.retain(|p| p.addr_space != addr_space);
                    pointers.push(PointerSpec {
                        addr_space,
                        bits,
                        align,
                        pref,
                        index_bits,
                    });
                }
                b'i' | b'f' | b'v' if parts.len() >= 2 => {
                    let (Some(bits), Some(align)) = (number(parts[0]), bytes(parts[1])) else {
                        continue;
                    };
                    let pref = parts.get(2).and_then(|&t| bytes(t)).unwrap_or(align);
                    let specs = match letter {
                        b'i' => dl.ints.to_mut(),
                        b'f' => dl.floats.to_mut(),
                        _ => dl.vectors.to_mut(),
                    };
                    match specs.binary_search_by_key(&bits, |&(w, ..)| w) {
                        Ok(at) => specs[at] = (bits, align, pref),
                        Err(at) => specs.insert(at, (bits, align, pref)),
                    }
                }
                b'a' if parts.len() >= 2 => {
                    dl.aggregate_align = bytes(parts[1]).unwrap_or(1);
                    dl.aggregate_pref = parts
                        .get(2)
                        .and_then(|&t| bytes(t))
                        .unwrap_or(dl.aggregate_align);
                }
                _ => {}
            }
        }
        dl
    }

    /// Whether a datalayout string holds to LLVM 22's rules (`DataLayout::parseSpecification`),
    /// else LLVM's error message.
    pub fn check(s: &[u8]) -> Result<(), String> {
        if s.is_empty() {
            return Ok(());
        }
        let mut names = Vec::new();
        s.split(|&b| b == b'-')
            .try_for_each(|spec| check_specification(spec, &mut names))
    }

    /// The address space a type names by `name` (`addrspace("A")`, `"G"`, `"P"`: the
    /// layout's defaults; another, a pointer specification's name).
    pub fn named_addr_space(&self, name: &[u8]) -> Option<u32> {
        match name {
            b"A" => Some(self.alloca_addr_space),
            b"G" => Some(self.globals_addr_space),
            b"P" => Some(self.program_addr_space),
            _ => self
                .addr_space_names
                .iter()
                .find(|(n, _)| **n == *name)
                .map(|&(_, a)| a),
        }
    }

    pub fn pointer_bits(&self, addr_space: u32) -> u32 {
        self.pointer(addr_space).bits
    }

    /// The width of the indices of pointers into `addr_space` (`getIndexSizeInBits`).
    pub fn index_bits(&self, addr_space: u32) -> u32 {
        self.pointer(addr_space).index_bits
    }

    /// The specification of pointers into `addr_space`, or of those of address space 0 (as
    /// LLVM takes them for an address space the string does not name).
    fn pointer(&self, addr_space: u32) -> PointerSpec {
        let lookup = |a| self.pointers.iter().find(|p| p.addr_space == a);
        // Address space 0 always has one: the default, unless the string gave another.
        lookup(addr_space)
            .or_else(|| lookup(0))
            .copied()
            .unwrap_or(DEFAULT_POINTER)
    }

    /// The room each type of `types` takes in memory, by id (see [`DataLayout::memory`]):
    /// worked out once, in the order of the ids, each type from its parts'.
    pub fn memories(&self, types: &Types) -> Vec<Option<Memory>> {
        let mut memo = vec![None; types.len()];
        for id in types.types.keys() {
            self.memo(types, id, &mut memo, 0);
        }
        memo.into_iter().map(Option::flatten).collect()
    }

    fn memo(
        &self,
        types: &Types,
        id: TypeId,
        memo: &mut [Option<Option<Memory>>],
        depth: u32,
    ) -> Option<Memory> {
        if let Some(known) = memo[id.index()] {
            return known;
        }
        // Past any nesting valid input reaches (a struct holds itself only through a
        // pointer); the ids are taken in one order, so the answer is the same on every run.
        if depth > Layout::NESTING_LIMIT {
            return None;
        }
        let resolve = |t: TypeId| {
            let ty = types.get(types.resolve(t));
            (!matches!(ty, Type::Named(_))).then_some(ty)
        };
        let memory = resolve(id).and_then(|ty| {
            self.memory(ty, &resolve, &mut |part| {
                self.memo(types, part, memo, depth + 1)
            })
        });
        memo[id.index()] = Some(memory);
        memory
    }

    /// The room `ty` takes in memory by LLVM 22's rules, given its parts' (`part`) and the
    /// type of a vector's element (`resolve`, which follows named types and gives `None` for
    /// an opaque one); `None` for a type without a fixed size (scalable vectors, opaque
    /// structs, target extension types, `x86_amx`, types that are not first class) or one
    /// too large to count in bytes.
    pub fn memory<'t>(
        &self,
        ty: &'t Type,
        resolve: &Resolve<'t>,
        part: &mut dyn FnMut(TypeId) -> Option<Memory>,
    ) -> Option<Memory> {
        if self.unknown {
            return None;
        }
        match *ty {
            Type::Array(len, elem) => {
                let e = part(elem)?;
                Some(Memory {
                    size: e.size.checked_mul(len)?,
                    align: e.align,
                })
            }
            Type::Struct { packed, ref elems } => {
                let (size, align) = self.struct_layout(packed, elems, None, part)?;
                // The `a` specification raises a struct's alignment, not a packed one's.
                let align = if packed {
                    1
                } else {
                    align.max(self.aggregate_align)
                };
                Some(Memory {
                    size: align_to(size, align)?,
                    align,
                })
            }
            Type::Vector {
                scalable: false,
                len,
                elem,
            } => {
                let bits = self.vector_bits(len, elem, resolve)?;
                let store = bits.div_ceil(8);
                // The alignment the string gives vectors of this width, else the store size
                // rounded up to a power of two.
                let align = match u32::try_from(bits)
                    .ok()
                    .and_then(|b| exact(&self.vectors, b))
                {
                    Some(align) => align,
                    None => store.checked_next_power_of_two()?,
                };
                Some(Memory {
                    size: align_to(store, align)?,
                    align,
                })
            }
            _ => {
                let bits = self.primitive_bits(ty)?;
                let align = match *ty {
                    Type::Int(bits) => self.int_align(bits),
                    Type::Ptr(space) => self.pointer(space).align,
                    // A float the string does not name: its store size rounded up to a power
                    // of two (x86_fp80: 16 bytes).
                    _ => exact(&self.floats, bits as u32)
                        .unwrap_or_else(|| (bits / 8).next_power_of_two()),
                };
                Some(Memory {
                    size: align_to(bits.div_ceil(8), align)?,
                    align,
                })
            }
        }
    }

    /// Where field `field` of a struct starts, in bytes, given its fields' room (`part`).
    pub fn field_offset(
        &self,
        packed: bool,
        elems: &[TypeId],
        field: usize,
        part: &mut dyn FnMut(TypeId) -> Option<Memory>,
    ) -> Option<u64> {
        if field == 0 {
            return Some(0);
        }
        self.struct_layout(packed, elems.get(..=field)?, Some(field), part)
            .map(|(offset, _)| offset)
    }

    /// A struct's size (before the `a` specification) and alignment, as LLVM's
    /// `StructLayout` lays it out: each field at the next multiple of its alignment (of one
    /// byte when packed), the whole rounded up to the largest; or, given `field`, where that
    /// field starts.
    fn struct_layout(
        &self,
        packed: bool,
        elems: &[TypeId],
        field: Option<usize>,
        part: &mut dyn FnMut(TypeId) -> Option<Memory>,
    ) -> Option<(u64, u64)> {
        let (mut size, mut align) = (0u64, 1u64);
        for (i, &e) in elems.iter().enumerate() {
            let m = part(e)?;
            let a = if packed { 1 } else { m.align };
            size = align_to(size, a)?;
            align = align.max(a);
            if field == Some(i) {
                return Some((size, align));
            }
            size = size.checked_add(m.size)?;
        }
        Some((align_to(size, align)?, align))
    }

    /// The width in bits of a vector of `len` elements of type `elem` (integers, floats or
    /// pointers).
    fn vector_bits<'t>(&self, len: u64, elem: TypeId, resolve: &Resolve<'t>) -> Option<u64> {
        self.primitive_bits(resolve(elem)?)?.checked_mul(len)
    }

    /// The width in bits of an integer, float or pointer type.
    pub fn primitive_bits(&self, ty: &Type) -> Option<u64> {
        Some(match *ty {
            Type::Int(bits) => u64::from(bits),
            Type::Ptr(space) => u64::from(self.pointer(space).bits),
            Type::Float(kind) => kind.bits(),
            _ => return None,
        })
    }

    /// An integer's ABI alignment: the string's for its width, else the next wider one's,
    /// else the widest one's (LLVM's `getIntegerAlignment`).
    fn int_align(&self, bits: u32) -> u64 {
        self.int_spec(bits).1
    }

    /// The `i` specification an integer this wide takes: the string's for its width, else
    /// the next wider one's, else the widest one's.
    fn int_spec(&self, bits: u32) -> (u32, u64, u64) {
        let at = self.ints.partition_point(|&(w, ..)| w < bits);
        self.ints
            .get(at)
            .or(self.ints.last())
            .copied()
            .unwrap_or((bits, 1, 1))
    }

    /// The alignment LLVM gives an `alloca` that says none (`getPrefTypeAlign`), given the
    /// type's ABI alignment (`abi`, from [`DataLayout::memory`]), how to find a vector's
    /// element type (`resolve`) and an array element's preferred alignment (`element`);
    /// `None` for a type whose is not worked out here.
    pub fn preferred_align<'t>(
        &self,
        ty: &'t Type,
        abi: u64,
        resolve: &Resolve<'t>,
        element: &mut dyn FnMut(TypeId) -> Option<u64>,
    ) -> Option<u64> {
        Some(match *ty {
            Type::Int(bits) => self.int_spec(bits).2,
            Type::Ptr(space) => self.pointer(space).pref,
            Type::Float(kind) => exact_spec(&self.floats, kind.bits() as u32).map_or(abi, |s| s.2),
            Type::Vector {
                scalable: false,
                len,
                elem,
            } => {
                // The string's for this width, else the natural alignment, the ABI one.
                let bits = u32::try_from(self.vector_bits(len, elem, resolve)?).ok()?;
                exact_spec(&self.vectors, bits).map_or(abi, |s| s.2)
            }
            Type::Array(_, elem) => element(elem)?,
            // A packed struct's too: LLVM raises its alignment of one to the `a` one.
            Type::Struct { .. } => self.aggregate_pref.max(abi),
            _ => return None,
        })
    }
}

/// How [`DataLayout::memory`] finds a vector's element type: with named types followed,
/// `None` for an opaque struct.
pub type Resolve<'t> = dyn Fn(TypeId) -> Option<&'t Type> + 't;

/// The ABI alignment `specs` give exactly `bits`, if they do.
fn exact(specs: &[(u32, u64, u64)], bits: u32) -> Option<u64> {
    exact_spec(specs, bits).map(|s| s.1)
}

/// The specification of `specs` for exactly `bits`, if there is one.
fn exact_spec(specs: &[(u32, u64, u64)], bits: u32) -> Option<(u32, u64, u64)> {
    specs.iter().find(|&&(w, ..)| w == bits).copied()
}

/// `n` rounded up to a multiple of `align` (a power of two).
fn align_to(n: u64, align: u64) -> Option<u64> {
    n.checked_next_multiple_of(align)
}

/// The address space of a pointer specification (`p1:...`, `p:...`), after its flags (`e`
/// for external state, `u` for an unstable representation) and with its name
/// (`p1(global):...`), by LLVM 22's rules (`parsePointerSpec`), else LLVM's error.
fn pointer_addr_space(text: &[u8]) -> Result<(u32, Option<&[u8]>), String> {
    let flags = text.iter().take_while(|b| matches!(b, b'e' | b'u')).count();
    let (flagged, rest) = (flags > 0, &text[flags..]);
    if let Some(&c) = rest.first().filter(|c| c.is_ascii_alphabetic()) {
        return Err(format!(
            "'{}' is not a valid pointer specification flag",
            c as char
        ));
    }
    let (mut addr_space, mut name) = (0, None);
    if !rest.is_empty() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (number, after) = rest.split_at(digits);
        if digits > 0 {
            addr_space = std::str::from_utf8(number)
                .ok()
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n < 1 << 24)
                .ok_or("address space must be a 24-bit integer")?;
        }
        if !after.is_empty() {
            let inner = after
                .strip_prefix(b"(")
                .ok_or("address space must be a 24-bit integer")?;
            let inner = inner
                .strip_suffix(b")")
                .filter(|n| !n.is_empty())
                .ok_or("Expected `( address space name )`")?;
            if matches!(inner, b"P" | b"G" | b"A") {
                return Err(
                    "Cannot use predefined address space names P/G/A in data layout".into(),
                );
            }
            name = Some(inner);
        }
    }
    if addr_space == 0 && flagged {
        return Err("address space 0 cannot be unstable or have external state".into());
    }
    Ok((addr_space, name))
}

/// One `-`-separated specification of a datalayout string, by LLVM 22's rules; `names`, the
/// address space names the specifications before it gave.
fn check_specification<'s>(spec: &'s [u8], names: &mut Vec<&'s [u8]>) -> Result<(), String> {
    let number = |t: &[u8]| -> Option<u64> {
        (!t.is_empty() && t.iter().all(u8::is_ascii_digit))
            .then(|| std::str::from_utf8(t).ok()?.parse().ok())
            .flatten()
    };
    let size = |t: &[u8], name: &str| match number(t) {
        _ if t.is_empty() => Err(format!("{name} component cannot be empty")),
        Some(n) if n > 0 && n < 1 << 24 => Ok(n),
        _ => Err(format!("{name} must be a non-zero 24-bit integer")),
    };
    let addr_space = |t: &[u8]| match number(t) {
        _ if t.is_empty() => Err("address space component cannot be empty".to_string()),
        Some(n) if n < 1 << 24 => Ok(n),
        _ => Err("address space must be a 24-bit integer".to_string()),
    };
    // In bytes; 0 only where allowed (it then means 1).
    let alignment = |t: &[u8], name: &str, zero_allowed: bool| match number(t) {
        _ if t.is_empty() => Err(format!("{name} alignment component cannot be empty")),
        Some(0) if zero_allowed => Ok(1),
        Some(0) => Err(format!("{name} alignment must be non-zero")),
        Some(n) if n < 1 << 16 => match n % 8 == 0 && (n / 8).is_power_of_two() {
            true => Ok(n / 8),
            false => Err(format!(
                "{name} alignment must be a power of two times the byte width"
            )),
        },
        _ => Err(format!("{name} alignment must be a 16-bit integer")),
    };
    let form = |f: &str| format!("malformed specification, must be of the form \"{f}\"");
    let Some((&letter, rest)) = spec.split_first() else {
        return Err("empty specification is not allowed".into());
    };
    let parts: Vec<&[u8]> = rest.split(|&b| b == b':').collect();
    // ABI and preferred alignments, the preferred one optional and not below the other.
    let abi_and_preferred = |abi: &[u8], preferred: Option<&&[u8]>, zero_allowed: bool| {
        let abi = alignment(abi, "ABI", zero_allowed)?;
        if let Some(preferred) = preferred
            && alignment(preferred, "preferred", false)? < abi
        {
            return Err("preferred alignment cannot be less than the ABI alignment".to_string());
        }
        Ok(abi)
    };
    match letter {
        b'n' if rest.first() == Some(&b'i') => {
            let Some(spaces) = rest[1..].strip_prefix(b":") else {
                return Err(form("ni:<address space>[:<address space>]..."));
            };
            for t in spaces.split(|&b| b == b':') {
                if addr_space(t)? == 0 {
                    return Err("address space 0 cannot be non-integral".into());
                }
            }
        }
        b'p' => {
            if !(3..=5).contains(&parts.len()) {
                return Err(form("p[<n>]:<size>:<abi>[:<pref>[:<idx>]]"));
            }
            if let (_, Some(name)) = pointer_addr_space(parts[0])? {
                if names.contains(&name) {
                    let name = String::from_utf8_lossy(name);
                    return Err(format!("address space name `{name}` already used"));
                }
                names.push(name);
            }
            let bits = size(parts[1], "pointer size")?;
            abi_and_preferred(parts[2], parts.get(3), false)?;
            if let Some(index) = parts.get(4)
                && size(index, "index size")? > bits
            {
                return Err("index size cannot be larger than the pointer size".into());
            }
        }
        b'i' | b'v' | b'f' => {
            if !(2..=3).contains(&parts.len()) {
                let l = letter as char;
                return Err(form(&format!("{l}<size>:<abi>[:<pref>]")));
            }
            let bits = size(parts[0], "size")?;
            let abi = abi_and_preferred(parts[1], parts.get(2), false)?;
            if letter == b'i' && bits == 8 && abi != 1 {
                return Err("i8 must be 8-bit aligned".into());
            }
        }
        b'a' => {
            if !(2..=3).contains(&parts.len()) {
                return Err(form("a:<abi>[:<pref>]"));
            }
            if !parts[0].is_empty() && number(parts[0]) != Some(0) {
                return Err("size must be zero".into());
            }
            abi_and_preferred(parts[1], parts.get(2), true)?;
        }
        b'n' => {
            for t in rest.split(|&b| b == b':') {
                size(t, "size")?;
            }
        }
        b's' => {}
        b'e' | b'E' if !rest.is_empty() => {
            return Err("malformed specification, must be just 'e' or 'E'".into());
        }
        b'e' | b'E' => {}
        b'S' if rest.is_empty() => return Err(form("S<size>")),
        b'S' => {
            alignment(rest, "stack natural", false)?;
        }
        b'F' => {
            let Some((&kind, abi)) = rest.split_first() else {
                return Err(form("F<type><abi>"));
            };
            if !matches!(kind, b'i' | b'n') {
                let kind = kind as char;
                return Err(format!("unknown function pointer alignment type '{kind}'"));
            }
            alignment(abi, "ABI", false)?;
        }
        b'P' | b'A' | b'G' if rest.is_empty() => {
            return Err(form(&format!("{}<address space>", letter as char)));
        }
        b'P' | b'A' | b'G' => {
            addr_space(rest)?;
        }
        b'm' => match rest.strip_prefix(b":") {
            None | Some([]) => return Err(form("m:<mangling>")),
            Some([b'e' | b'l' | b'm' | b'o' | b'w' | b'x' | b'a']) => {}
            Some(_) => return Err("unknown mangling mode".into()),
        },
        _ => {
            let l = String::from_utf8_lossy(&spec[..1]);
            return Err(format!("unknown specifier '{l}'"));
        }
    }
    Ok(())
}

/// Operating systems and environments LLVM's triples give a version (`macosx10.15`,
/// `android21`): the digits after one of these are left out of a triple's key; others are
/// part of the name (`gnux32`). `tools/gen-triple-layouts.py` keeps the same list.
const VERSIONED: &[&[u8]] = &[
    b"aix",
    b"amdhsa",
    b"amdpal",
    b"android",
    b"androideabi",
    b"bridgeos",
    b"cuda",
    b"darwin",
    b"dragonfly",
    b"driverkit",
    b"emscripten",
    b"freebsd",
    b"ios",
    b"macos",
    b"macosx",
    b"msvc",
    b"netbsd",
    b"ohos",
    b"openbsd",
    b"solaris",
    b"tvos",
    b"visionos",
    b"wasi",
    b"watchos",
    b"xros",
    b"zos",
];

/// A target triple without the versions of its operating system and environment: what
/// [`TRIPLE_LAYOUTS`] is keyed by.
fn triple_key(triple: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(triple.len());
    for (i, part) in triple.split(|&b| b == b'-').enumerate() {
        if i > 0 {
            key.push(b'-');
        }
        let name = part.iter().position(u8::is_ascii_digit).map(|d| &part[..d]);
        let versioned = name.filter(|name| {
            i > 0
                && VERSIONED.contains(name)
                && part[name.len()..]
                    .iter()
                    .all(|&b| b.is_ascii_digit() || b == b'.')
        });
        key.extend_from_slice(versioned.unwrap_or(part));
    }
    key
}

/// The room in memory of the types a body names (the module's and its own), for what LLVM
/// works out of them as it reads a body.
pub struct BodyLayout<'a> {
    pub m: &'a Module,
    pub body: &'a Body,
    /// The room of each of the module's types ([`DataLayout::memories`]).
    pub module_memories: &'a [Option<Memory>],
}

impl<'a> BodyLayout<'a> {
    pub fn memory(&self, t: TypeId, depth: u32) -> Option<Memory> {
        if t.index() < self.body.base.types as usize {
            return self.module_memories.get(t.index()).copied().flatten();
        }
        if depth > Layout::NESTING_LIMIT {
            return None;
        }
        let resolve = |t| self.resolve(t);
        self.m
            .data_layout
            .memory(resolve(t)?, &resolve, &mut |part| {
                self.memory(part, depth + 1)
            })
    }

    fn preferred_align(&self, t: TypeId, depth: u32) -> Option<u64> {
        if depth > Layout::NESTING_LIMIT {
            return None;
        }
        let resolve = |t| self.resolve(t);
        let abi = self.memory(t, depth)?.align;
        self.m
            .data_layout
            .preferred_align(resolve(t)?, abi, &resolve, &mut |elem| {
                self.preferred_align(elem, depth + 1)
            })
    }

    /// The type `t` names, named types followed; `None` for an opaque struct.
    fn resolve(&self, t: TypeId) -> Option<&'a Type> {
        let (m, body) = (self.m, self.body);
        let ty = body.ty(m, body.resolve_ty(m, t));
        (!matches!(ty, Type::Named(_))).then_some(ty)
    }

    /// The alignment LLVM's parser gives a memory instruction that says none: a load's or
    /// store's the ABI alignment of its value's type, an alloca's the preferred one of its
    /// type, an atomic one's its value's size. `None` when it is not worked out here.
    pub fn implied_align(&self, op: Opcode, result: TypeId, items: &[Item]) -> Option<u64> {
        let (m, body) = (self.m, self.body);
        let first_type = || {
            items.iter().find_map(|i| match i {
                Item::Type(t) => Some(*t),
                _ => None,
            })
        };
        match op {
            Opcode::Load => Some(self.memory(result, 0)?.align),
            Opcode::Store => Some(self.memory(first_type()?, 0)?.align),
            Opcode::Alloca => self.preferred_align(first_type()?, 0),
            Opcode::AtomicRmw => Some(self.memory(result, 0)?.size),
            Opcode::AtomicCmpXchg => match body.ty(m, body.resolve_ty(m, result)) {
                Type::Struct { elems, .. } => Some(self.memory(*elems.first()?, 0)?.size),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A triple's layout is its target's, whatever versions it names; one not known is
    /// unknown, which no room in memory is asked of.
    #[test]
    fn triples_give_their_targets_layouts() {
        assert_eq!(
            triple_key(b"x86_64-apple-macosx10.15.0"),
            b"x86_64-apple-macosx"
        );
        assert_eq!(
            triple_key(b"armv7-linux-androideabi21"),
            b"armv7-linux-androideabi"
        );
        assert_eq!(
            triple_key(b"thumbv7em-none-eabihf"),
            b"thumbv7em-none-eabihf"
        );
        let i64_align = |triple: &[u8]| DataLayout::for_triple(triple).int_spec(64).1;
        assert_eq!(i64_align(b"x86_64-unknown-linux-gnu"), 8);
        assert_eq!(i64_align(b"x86_64-apple-macosx10.15.0"), 8);
        assert_eq!(i64_align(b"i686-unknown-linux-gnu"), 4);
        assert_eq!(
            DataLayout::for_triple(b"i686-unknown-linux-gnu").pointer_bits(0),
            32
        );
        assert!(!DataLayout::for_triple(b"aarch64").unknown);
        let unknown = DataLayout::for_triple(b"foo-bar-baz");
        assert!(unknown.unknown);
        let none = |_: TypeId| None;
        assert_eq!(unknown.memory(&Type::Int(8), &none, &mut |_| None), None);
        let sorted = TRIPLE_LAYOUTS.windows(2).all(|w| w[0].0 < w[1].0);
        assert!(sorted && TRIPLE_LAYOUTS.len() > 400);
    }

    #[test]
    fn address_spaces_are_read_and_named() {
        let dl = DataLayout::parse(b"e-m:e-p:16:8-p3:32:32-P1-G2-A5-i8:8");
        assert_eq!(
            (
                dl.program_addr_space,
                dl.globals_addr_space,
                dl.alloca_addr_space
            ),
            (1, 2, 5)
        );
        assert_eq!(
            (dl.pointer_bits(0), dl.pointer_bits(3), dl.pointer_bits(7)),
            (16, 32, 16)
        );
        let plain = DataLayout::parse(b"e-i64:64");
        assert_eq!(plain.program_addr_space, 0);
        // As the reader resolves `addrspace(...)`: a number, or the datalayout's.
        let m = crate::read::parse(
            "target datalayout = \"P1-G2-A5\"\n\
             @a = addrspace(7) global i32 0\n@b = addrspace(\"G\") global i32 0\n\
             @c = global i32 0\n\
             declare void @f() addrspace( 4 )\ndeclare void @g() addrspace(\"P\")\n\
             declare void @h()\ndeclare void @i() addrspace(\"A\")\n"
                .to_string(),
        )
        .unwrap();
        let space = |name: &str| m.global_addr_space(m.global_by_name[name.as_bytes()]);
        let spaces: Vec<u32> = ["a", "b", "c", "f", "g", "h", "i"].map(space).to_vec();
        assert_eq!(spaces, [7, 2, 0, 4, 1, 1, 5]);
    }

    /// Sizes and alignments as LLVM 22 gives them (`tests/merge.rs` asks opt-22 the offsets
    /// of many more): the defaults (`i64` aligned to 4), what the string changes, packed
    /// structs, x86_fp80 and vectors whose size is not a power of two.
    #[test]
    fn memory_is_llvms() {
        let room = |layout: &str, ty: &str| {
            // A parameter's type: a global may hold no scalable vector.
            let text = format!("target datalayout = \"{layout}\"\ndeclare void @g({ty})\n");
            let m = crate::read::parse(text).unwrap();
            let memories = m.data_layout.memories(&m.types);
            let g = m.global_by_name[&b"g"[..]];
            let ty = match m.globals[g].kind {
                crate::model::GlobalKind::Function(f) => m.functions[f].params[0].ty,
                _ => unreachable!(),
            };
            memories[ty.index()].map(|r| (r.size, r.align))
        };
        let x86_64 =
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
        assert_eq!(room("", "{ i8, i64 }"), Some((12, 4)));
        assert_eq!(room(x86_64, "{ i8, i64 }"), Some((16, 8)));
        assert_eq!(room(x86_64, "<{ i8, i64 }>"), Some((9, 1)));
        assert_eq!(room(x86_64, "{ i8, x86_fp80 }"), Some((32, 16)));
        assert_eq!(room("", "x86_fp80"), Some((16, 16)));
        assert_eq!(room(x86_64, "[3 x <3 x i32>]"), Some((48, 16)));
        assert_eq!(
            room(x86_64, "{ i1, i17, ptr addrspace(270) }"),
            Some((12, 4))
        );
        assert_eq!(room("e-a:64", "{ i8 }"), Some((8, 8)));
        assert_eq!(room(x86_64, "<vscale x 4 x i32>"), None);
    }
}
