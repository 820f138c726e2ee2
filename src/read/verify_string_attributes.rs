//! What LLVM 22's verifier checks of the values of a function's string attributes
//! (`verifyFunctionAttrs`, and `verifyAttributeTypes` for the attributes LLVM's
//! `Attributes.td` declares `StrBoolAttr`): `"frame-pointer"` one of four words,
//! `"denormal-fp-math"` one or two modes, `"target-features"` a list of `+f` and `-f`,
//! `"patchable-function-entry"` an unsigned number, a boolean `"true"`, `"false"` or empty,
//! AArch64's SME modes not two of a group, `"modular-format"` naming one of the function's
//! parameters, `"vector-function-abi-variant"` a vector variant's name that fits the
//! function's type, `"alloc-variant-zeroed"` a name, of a zeroing allocator like the function
//! if the module has one by that name... clang writes several in every function's attribute
//! group, rustc the last on its allocator's declaration.
//!
//! A function's value of a key is the last one written, a group's over the header's own
//! (LLVM's parser merges the groups, in order, over the header's attributes), and a group is
//! checked once for the functions that take it alone (but for what their types decide).
//! A call's function attributes are checked the same way, against the call's type
//! (`verifyCallBase`): the function type written, or the result's and the arguments'.

use super::intrinsics::TypeView;
use super::lexer::unescape;
use crate::model::{Attr, AttrKind, FloatKind, Module, Span, Type, TypeId};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// The attributes LLVM's `Attributes.td` declares `StrBoolAttr`: their value is `"true"`,
/// `"false"` or empty.
const BOOLEANS: [&[u8]; 11] = [
    b"allow_direct_access_in_hot_patch_function",
    b"less-precise-fpmad",
    b"loader-replaceable",
    b"marked_for_windows_hot_patching",
    b"no-infs-fp-math",
    b"no-inline-line-tables",
    b"no-jump-tables",
    b"no-nans-fp-math",
    b"no-signed-zeros-fp-math",
    b"profile-sample-accurate",
    b"use-sample-profile",
];

/// The attributes of AArch64's streaming and ZA states, checked for their presence alone:
/// each group of modes is exclusive (LLVM 22's `verifyFunctionAttrs`, after the booleans).
const SME: [&[u8]; 13] = [
    b"aarch64_pstate_sm_enabled",
    b"aarch64_pstate_sm_compatible",
    b"aarch64_new_za",
    b"aarch64_in_za",
    b"aarch64_out_za",
    b"aarch64_inout_za",
    b"aarch64_preserves_za",
    b"aarch64_za_state_agnostic",
    b"aarch64_new_zt0",
    b"aarch64_in_zt0",
    b"aarch64_out_zt0",
    b"aarch64_inout_zt0",
    b"aarch64_preserves_zt0",
];

/// The SME modes no function takes two of, by their places in [`SME`], and the verifier's
/// message for each group.
const EXCLUSIVE_MODES: [(&[usize], &str); 3] = [
    (
        &[0, 1],
        "Attributes 'aarch64_pstate_sm_enabled and aarch64_pstate_sm_compatible' are \
         incompatible!",
    ),
    (
        &[2, 3, 4, 5, 6, 7],
        "Attributes 'aarch64_new_za', 'aarch64_in_za', 'aarch64_out_za', 'aarch64_inout_za', \
         'aarch64_preserves_za' and 'aarch64_za_state_agnostic' are mutually exclusive",
    ),
    (
        &[8, 9, 10, 11, 12, 7],
        "Attributes 'aarch64_new_zt0', 'aarch64_in_zt0', 'aarch64_out_zt0', \
         'aarch64_inout_zt0', 'aarch64_preserves_zt0' and 'aarch64_za_state_agnostic' are \
         mutually exclusive",
    ),
];

/// The other attributes checked, in the order LLVM's verifier checks them (after the
/// booleans and the SME modes); `"alloc-family"` only read, for `"alloc-variant-zeroed"`.
const OTHERS: [&[u8]; 17] = [
    b"alloc-variant-zeroed",
    b"alloc-family",
    b"frame-pointer",
    b"patchable-function-prefix",
    b"patchable-function-entry",
    b"patchable-function-entry-section",
    b"warn-stack-size",
    b"sign-return-address",
    b"sign-return-address-key",
    b"branch-target-enforcement",
    b"branch-protection-pauth-lr",
    b"guarded-control-stack",
    b"vector-function-abi-variant",
    b"denormal-fp-math",
    b"denormal-fp-math-f32",
    b"modular-format",
    b"target-features",
];

/// Why the verifier refuses the function of the module named by a function's
/// `"alloc-variant-zeroed"`, given that name and the function's `"alloc-family"`, if it has
/// one; `None` when there is none by that name or it is a zeroing variant of the function.
pub(crate) type VariantRefused<'a> = &'a dyn Fn(&[u8], Option<&[u8]>) -> Option<&'static str>;

/// What the rules that look past a list of attributes ask of the function that takes it.
#[derive(Clone, Copy)]
pub(crate) struct Taker<'a> {
    pub(crate) signature: Signature<'a>,
    pub(crate) variant_refused: VariantRefused<'a>,
}

/// A function's type, for the rules it decides.
#[derive(Clone, Copy)]
pub(crate) struct Signature<'a> {
    types: &'a dyn TypeView,
    ret: TypeId,
    params: &'a [TypeId],
    varargs: bool,
}

impl<'a> Signature<'a> {
    /// A call's type written as its result's and its arguments' types (`call i32 @f(i8 %x)`).
    pub(crate) fn new(types: &'a dyn TypeView, ret: TypeId, params: &'a [TypeId]) -> Self {
        Signature {
            types,
            ret,
            params,
            varargs: false,
        }
    }

    /// The signature of the function type `fn_ty`.
    pub(crate) fn of(types: &'a dyn TypeView, fn_ty: TypeId) -> Option<Signature<'a>> {
        match types.get(fn_ty) {
            Type::Function {
                ret,
                params,
                varargs,
            } => Some(Signature {
                types,
                ret: *ret,
                params,
                varargs: *varargs,
            }),
            _ => None,
        }
    }
}

const KEYS: usize = BOOLEANS.len() + SME.len() + OTHERS.len();

/// The key checked at `i` of [`Values`].
const fn key(i: usize) -> &'static [u8] {
    let others = BOOLEANS.len() + SME.len();
    match i {
        _ if i < BOOLEANS.len() => BOOLEANS[i],
        _ if i < others => SME[i - BOOLEANS.len()],
        _ => OTHERS[i - others],
    }
}

/// The place of `key` in [`Values`], if it is checked. A `const fn`: the places checked for
/// every function are found as the program is compiled (a search there was 4% of reading
/// 100,000 declarations).
const fn slot(key_written: &[u8]) -> Option<usize> {
    let mut i = 0;
    'keys: while i < KEYS {
        let (checked, at) = (key(i), i);
        i += 1;
        if checked.len() != key_written.len() {
            continue;
        }
        let mut j = 0;
        while j < checked.len() {
            if checked[j] != key_written[j] {
                continue 'keys;
            }
            j += 1;
        }
        return Some(at);
    }
    None
}

/// Whether `text`, an attribute as written, is a string attribute whose value the verifier
/// checks (`"frame-pointer"="all"`).
pub(crate) fn is_checked(text: &[u8]) -> bool {
    text.first() == Some(&b'"') && string(text).is_some_and(|(_, key)| slot(&key).is_some())
}

/// The place of `key`, one of those checked (else the program does not compile).
const fn checked_slot(key: &[u8]) -> usize {
    match slot(key) {
        Some(i) => i,
        None => panic!("a key not checked"),
    }
}

const SIGN_RETURN_ADDRESS: usize = checked_slot(b"sign-return-address");
const MODULAR_FORMAT: usize = checked_slot(b"modular-format");
const VECTOR_VARIANT: usize = checked_slot(b"vector-function-abi-variant");
const ALLOC_VARIANT: usize = checked_slot(b"alloc-variant-zeroed");
const ALLOC_FAMILY: usize = checked_slot(b"alloc-family");

/// Where each checked key's value is written in a list (the whole `"key"="value"`), the last
/// one of the key.
#[derive(Clone, Copy)]
pub(crate) struct Values([Option<Span>; KEYS]);

impl Default for Values {
    fn default() -> Values {
        Values([None; KEYS])
    }
}

impl Values {
    /// Add the string attributes of `attrs` (not its groups), each over one of its key
    /// before it. Whether there were any.
    fn add_own(&mut self, src: &[u8], attrs: &[Attr]) -> bool {
        let mut any = false;
        for a in attrs {
            if let AttrKind::Text(span) = a.kind()
                && src[span.range()].first() == Some(&b'"')
            {
                any = true;
                // Only the key is looked at here: a value (`"target-features"`' is long) is
                // read when checked.
                if let Some((_, written)) = string(&src[span.range()])
                    && let Some(i) = slot(&written)
                {
                    self.0[i] = Some(span);
                }
            }
        }
        any
    }

    /// `over`'s values over these.
    fn overlay(&mut self, over: &Values) {
        for (mine, theirs) in self.0.iter_mut().zip(&over.0) {
            if theirs.is_some() {
                *mine = *theirs;
            }
        }
    }

    /// Where the value of the key checked at `i` is written, and the value unescaped (empty
    /// when none is written).
    fn value<'s>(&self, src: &'s [u8], i: usize) -> Option<(Span, Cow<'s, [u8]>)> {
        self.0[i].map(|span| {
            let value = split(&src[span.range()]).and_then(|(_, v)| v);
            (span, value.unwrap_or(Cow::Borrowed(b"")))
        })
    }

    /// The list's `"alloc-family"`, if it has one.
    pub(crate) fn alloc_family<'s>(&self, src: &'s [u8]) -> Option<Cow<'s, [u8]>> {
        self.value(src, ALLOC_FAMILY).map(|(_, family)| family)
    }

    /// The first value LLVM's verifier refuses, in its order: where, and its message. Without
    /// the function that takes the list (`taker`), what depends on it is not checked.
    fn first_refused(&self, src: &[u8], taker: Option<Taker>) -> Option<(Span, String)> {
        let signature = taker.map(|t| t.signature);
        let value = |i: usize| self.value(src, i);
        let shown = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        let invalid = |i: usize, v: &[u8]| {
            let key = String::from_utf8_lossy(key(i));
            format!("invalid value for '{key}' attribute: {}", shown(v))
        };
        for i in 0..BOOLEANS.len() {
            if let Some((span, v)) = value(i)
                && !matches!(v.as_ref(), b"" | b"true" | b"false")
            {
                return Some((span, invalid(i, &v)));
            }
        }
        for (modes, message) in EXCLUSIVE_MODES {
            let mut taken = modes
                .iter()
                .filter_map(|&mode| self.0[BOOLEANS.len() + mode]);
            if let (Some(_), Some(second)) = (taken.next(), taken.next()) {
                return Some((second, message.to_string()));
            }
        }
        for i in BOOLEANS.len() + SME.len()..KEYS {
            let Some((span, v)) = value(i) else {
                continue;
            };
            let v = v.as_ref();
            let refused = match key(i) {
                b"alloc-variant-zeroed" if v.is_empty() => {
                    Some("'alloc-variant-zeroed' must not be empty".to_string())
                }
                b"alloc-variant-zeroed" => taker
                    .and_then(|t| (t.variant_refused)(v, self.alloc_family(src).as_deref()))
                    .map(str::to_string),
                b"frame-pointer" => (!matches!(
                    v,
                    b"all" | b"non-leaf" | b"non-leaf-no-reserve" | b"none" | b"reserved"
                ))
                .then(|| invalid(i, v)),
                k @ (b"patchable-function-prefix"
                | b"patchable-function-entry"
                | b"warn-stack-size") => (!is_unsigned_32(v)).then(|| {
                    let k = String::from_utf8_lossy(k);
                    format!("\"{k}\" takes an unsigned integer: {}", shown(v))
                }),
                b"patchable-function-entry-section" => v
                    .is_empty()
                    .then(|| "\"patchable-function-entry-section\" must not be empty".to_string()),
                b"sign-return-address" => {
                    (!matches!(v, b"none" | b"all" | b"non-leaf")).then(|| invalid(i, v))
                }
                b"sign-return-address-key" => {
                    if !matches!(v, b"a_key" | b"b_key") {
                        Some(invalid(i, v))
                    } else if self.0[SIGN_RETURN_ADDRESS].is_none() {
                        Some(
                            "'sign-return-address-key' present without `sign-return-address`"
                                .to_string(),
                        )
                    } else {
                        None
                    }
                }
                b"branch-target-enforcement"
                | b"branch-protection-pauth-lr"
                | b"guarded-control-stack" => {
                    (!matches!(v, b"" | b"true" | b"false")).then(|| invalid(i, v))
                }
                b"vector-function-abi-variant" => signature
                    .filter(|&signature| !vector_variant_holds(v, signature))
                    .map(|_| format!("invalid name for a VFABI variant: {}", shown(v))),
                b"denormal-fp-math" | b"denormal-fp-math-f32" => {
                    (!is_denormal_mode(v)).then(|| invalid(i, v))
                }
                b"modular-format" => modular_format_refused(v, signature).map(str::to_string),
                b"target-features" => target_features_refused(v),
                _ => None,
            };
            if let Some(message) = refused {
                return Some((span, message));
            }
        }
        None
    }
}

/// A string attribute's key and value (if written), unescaped.
type KeyValue<'a> = (Cow<'a, [u8]>, Option<Cow<'a, [u8]>>);

/// The key and value of a string attribute `"key"="value"`.
fn split(text: &[u8]) -> Option<KeyValue<'_>> {
    let (end, key) = string(text)?;
    let rest = text[end..].trim_ascii_start();
    let value = match rest.strip_prefix(b"=") {
        Some(rest) => Some(string(rest.trim_ascii_start())?.1),
        None => None,
    };
    Some((key, value))
}

/// The body of the string `text` starts with, unescaped, and where the string ends.
fn string(text: &[u8]) -> Option<(usize, Cow<'_, [u8]>)> {
    let end = 1 + memchr::memchr(b'"', text.get(1..)?)?;
    let body = &text[1..end];
    let body = match body.contains(&b'\\') {
        true => Cow::Owned(unescape(body)),
        false => Cow::Borrowed(body),
    };
    Some((end + 1, body))
}

/// Whether `v` is a decimal number that fits in 32 bits unsigned (`StringRef::getAsInteger`).
fn is_unsigned_32(v: &[u8]) -> bool {
    matches!(unsigned(v), Some((n, [])) if n <= u64::from(u32::MAX))
}

/// Whether `v` is a denormal mode LLVM parses (`parseDenormalFPAttribute`): an output mode,
/// then optionally `,` and an input mode, each `ieee`, `preserve-sign`, `positive-zero`,
/// `dynamic` or empty.
fn is_denormal_mode(v: &[u8]) -> bool {
    let mode = |m: &[u8]| {
        matches!(
            m,
            b"" | b"ieee" | b"preserve-sign" | b"positive-zero" | b"dynamic"
        )
    };
    match v.iter().position(|&b| b == b',') {
        Some(comma) => mode(&v[..comma]) && mode(&v[comma + 1..]),
        None => mode(v),
    }
}

/// Why LLVM refuses `v` as `"modular-format"`: five arguments or more, separated by commas,
/// the third a decimal index of one of the function's parameters (counted from 1, the
/// variable arguments one more).
fn modular_format_refused(v: &[u8], signature: Option<Signature>) -> Option<&'static str> {
    let args: Vec<&[u8]> = v.split(|&b| b == b',').collect();
    if args.len() < 5 {
        return Some("modular-format attribute requires at least 5 arguments");
    }
    if !is_unsigned_32(args[2]) {
        return Some("modular-format attribute first arg index is not an integer");
    }
    let (count, varargs) = signature.map(|s| (s.params.len(), s.varargs))?;
    let index = std::str::from_utf8(args[2]).ok()?.parse::<usize>().ok()?;
    (index == 0 || index > count + usize::from(varargs))
        .then_some("modular-format attribute first arg index is out of bounds")
}

/// Whether LLVM's `VFABI::tryDemangleForVFABI` takes `name` as the name of a vector variant
/// of a function of `signature`: `_ZGV`, an ISA (`_LLVM_`, or any one letter), a mask (`M` or
/// `N`), a vector length (a number not 0, or `x` for SVE's `s` and RVV's `r`, where each
/// vector parameter and the result must then be of a type it gives a length), one
/// parameter each of the function's (`v`, `u`, `l`/`R`/`L`/`U` with an optional `n` and
/// step, `ls`/`Rs`/`Ls`/`Us` with a position; each optionally aligned, `a` and a power of
/// two), `_`, the scalar name and, in parentheses, the vector's (which `_LLVM_` requires).
/// The whole value is one name, as LLVM reads it, commas and all.
fn vector_variant_holds(name: &[u8], signature: Signature) -> bool {
    let Some(rest) = name.strip_prefix(b"_ZGV") else {
        return false;
    };
    let (isa, rest) = match rest.strip_prefix(b"_LLVM_") {
        Some(rest) => (b'_', rest),
        None => match rest.split_first() {
            Some((&isa, rest)) => (isa, rest),
            None => return false,
        },
    };
    let Some(rest) = rest.strip_prefix(b"M").or_else(|| rest.strip_prefix(b"N")) else {
        return false;
    };
    let (scalable, mut rest) = match rest.strip_prefix(b"x") {
        Some(rest) if matches!(isa, b's' | b'r') => (true, rest),
        Some(_) => return false,
        None => match unsigned(rest) {
            Some((length, rest)) if length != 0 && length <= u64::from(u32::MAX) => (false, rest),
            _ => return false,
        },
    };
    let mut vectors = Vec::new();
    loop {
        let position = vectors.len();
        let (vector, after) = match rest.first() {
            Some(b'v') => (true, &rest[1..]),
            Some(b'u') => (false, &rest[1..]),
            Some(b'l' | b'R' | b'L' | b'U') if rest.get(1) == Some(&b's') => {
                match signed_32(&rest[2..]) {
                    (Some(_), after) => (false, after),
                    (None, _) => return false,
                }
            }
            // A step that is no `int` counts as 1.
            Some(b'l' | b'R' | b'L' | b'U') => {
                let after = rest[1..].strip_prefix(b"n").unwrap_or(&rest[1..]);
                (false, signed_32(after).1)
            }
            _ => break,
        };
        rest = after;
        if let Some(after) = rest.strip_prefix(b"a") {
            match unsigned(after) {
                Some((align, after)) if align.is_power_of_two() => rest = after,
                _ => return false,
            }
        }
        vectors.push((position, vector));
    }
    if vectors.is_empty() || vectors.len() != signature.params.len() {
        return false;
    }
    if scalable && !lengths_from_types(signature, &vectors) {
        return false;
    }
    let Some(rest) = rest.strip_prefix(b"_") else {
        return false;
    };
    let scalar = rest.iter().position(|&b| b == b'(').unwrap_or(rest.len());
    if scalar == 0 {
        return false;
    }
    match &rest[scalar..] {
        [] => isa != b'_',
        [b'(', vector @ .., b')'] => !vector.is_empty(),
        _ => false,
    }
}

/// Whether LLVM finds a scalable vector length from the types of a function's vector
/// parameters and result (`getScalableECFromSignature`): each of those and each of the
/// result's (a literal unpacked struct's elements, or itself unless `void`) an `i8` to `i64`,
/// a `half`, `bfloat`, `float` or `double`, or a pointer; and at least one.
fn lengths_from_types(signature: Signature, parameters: &[(usize, bool)]) -> bool {
    let gives_length = |ty: TypeId| {
        matches!(
            signature.types.get(ty),
            Type::Int(8 | 16 | 32 | 64)
                | Type::Float(
                    FloatKind::Half | FloatKind::BFloat | FloatKind::Float | FloatKind::Double
                )
                | Type::Ptr(_)
        )
    };
    let mut any = false;
    for &(position, vector) in parameters {
        if vector {
            if !gives_length(signature.params[position]) {
                return false;
            }
            any = true;
        }
    }
    match signature.types.get(signature.ret) {
        Type::Void => any,
        Type::Struct {
            packed: false,
            elems,
        } => elems.iter().all(|&e| gives_length(e)) && (any || !elems.is_empty()),
        Type::Struct { .. } | Type::Named(_) => false,
        _ => gives_length(signature.ret),
    }
}

/// A decimal number at the start of `text` (LLVM's `consumeInteger` into 64 bits
/// unsigned), and the text after it.
fn unsigned(text: &[u8]) -> Option<(u64, &[u8])> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    let value = std::str::from_utf8(&text[..digits]).ok()?.parse().ok()?;
    Some((value, &text[digits..]))
}

/// A decimal number at the start of `text`, `-` allowed, if it fits in 32 bits signed, and
/// the text after it, as LLVM's `consumeInteger` into an `int` leaves it: after the number
/// when it fits in 64 bits, else (or with no digits) as it was.
fn signed_32(text: &[u8]) -> (Option<i32>, &[u8]) {
    let sign = usize::from(text.first() == Some(&b'-'));
    let digits = text[sign..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let number = std::str::from_utf8(&text[..sign + digits]).ok();
    match number.and_then(|n| n.parse::<i64>().ok()) {
        Some(value) => (i32::try_from(value).ok(), &text[sign + digits..]),
        None => (None, text),
    }
}

/// Why LLVM refuses `v` as `"target-features"`: an empty feature, or one that does not start
/// with `+` or `-` (an empty value is none).
fn target_features_refused(v: &[u8]) -> Option<String> {
    if v.is_empty() {
        return None;
    }
    v.split(|&b| b == b',')
        .find_map(|feature| match feature.first() {
            None => {
                Some("target-features attribute should not contain an empty string".to_string())
            }
            Some(b'+' | b'-') => None,
            Some(_) => Some(format!(
                "target feature '{}' must start with a '+' or '-'",
                String::from_utf8_lossy(feature)
            )),
        })
}

/// The values of each attribute group, and what the verifier refuses of a function that
/// takes that group alone.
pub(crate) struct StringRules {
    groups: FxHashMap<u32, (Values, Option<(Span, String)>)>,
}

impl StringRules {
    pub(crate) fn new(m: &Module) -> StringRules {
        let src = m.source.as_bytes();
        let groups = m
            .attr_groups
            .iter()
            .map(|(&n, &list)| {
                let mut values = Values::default();
                values.add_own(src, m.attr_list(list));
                (n, (values, values.first_refused(src, None)))
            })
            .collect();
        StringRules { groups }
    }

    /// The string attributes checked of a function whose own attributes are `attrs`, its
    /// groups' over its own.
    pub(crate) fn values_of(&self, src: &[u8], attrs: &[Attr]) -> Values {
        let mut values = Values::default();
        values.add_own(src, attrs);
        for a in attrs {
            if let AttrKind::Group(n, _) = a.kind()
                && let Some((group, _)) = self.groups.get(&n)
            {
                values.overlay(group);
            }
        }
        values
    }

    /// What the verifier refuses of the string attributes of a function whose own attributes
    /// are `attrs`, taken by `taker`: where, and its message.
    pub(crate) fn function_refused(
        &self,
        src: &[u8],
        attrs: &[Attr],
        taker: Taker,
    ) -> Option<(Span, String)> {
        let mut groups = attrs.iter().filter_map(|a| match a.kind() {
            AttrKind::Group(n, _) => self.groups.get(&n),
            _ => None,
        });
        let own = Values::default().add_own(src, attrs);
        match (groups.clone().count(), own) {
            (0, false) => None,
            // A group's refusal holds for every function but what the function decides.
            (1, false) => groups.next().and_then(|(group, refused)| {
                let taken = [MODULAR_FORMAT, VECTOR_VARIANT, ALLOC_VARIANT];
                match taken.iter().any(|&i| group.0[i].is_some()) {
                    true => group.first_refused(src, Some(taker)),
                    false => refused.clone(),
                }
            }),
            _ => self.values_of(src, attrs).first_refused(src, Some(taker)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_and_checked_as_llvm_reads_them() {
        assert!(matches!(split(br#""a"="b""#), Some((k, Some(v))) if *k == *b"a" && *v == *b"b"));
        assert!(
            matches!(split(br#""a\62" = "\63""#), Some((k, Some(v))) if *k == *b"ab" && *v == *b"c")
        );
        assert!(matches!(split(br#""a""#), Some((k, None)) if *k == *b"a"));
        assert!(is_unsigned_32(b"007") && is_unsigned_32(b"4294967295"));
        assert!(!is_unsigned_32(b"4294967296") && !is_unsigned_32(b"") && !is_unsigned_32(b"+1"));
        assert!(is_denormal_mode(b"ieee,") && is_denormal_mode(b",ieee") && is_denormal_mode(b""));
        assert!(!is_denormal_mode(b"ieee,ieee,ieee") && !is_denormal_mode(b" ieee"));
        // A step or position: after it when it fits in 64 bits, an `int` or not.
        assert_eq!(signed_32(b"-12_f"), (Some(-12), &b"_f"[..]));
        assert_eq!(signed_32(b"9999999999_f"), (None, &b"_f"[..]));
        assert_eq!(
            signed_32(b"99999999999999999999_f"),
            (None, &b"99999999999999999999_f"[..])
        );
        assert_eq!(signed_32(b"-_f"), (None, &b"-_f"[..]));
        assert_eq!(target_features_refused(b"+a,-b"), None);
        assert!(target_features_refused(b"+a,").is_some());
        assert!(target_features_refused(b"+a, -b").is_some());
    }
}
