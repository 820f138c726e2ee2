//! One key per attribute, whatever way the text spells it (spec §2: attribute lists compare
//! by what LLVM's parser makes of them). What LLVM prints has one spelling; hand-written IR
//! has others: `align(8)` and `align 8`, `dereferenceable( 08 )`, `"k" = "v"` and `"k"=""`,
//! `nocapture` (read as `captures(none)`), `uwtable(async)`, `alignstack=16` (as attribute
//! groups print it), `memory(...)` locations in any order, `nofpclass(nan)` or
//! `nofpclass(qnan snan)`, `vscale_range(2)`; and a list's memory keywords of LLVM before 16
//! (`readonly argmemonly`) as the one `memory(...)` LLVM's parser makes of them
//! ([`upgrade_memory_keys`]).

use std::borrow::Cow;

/// The key of an attribute written `text`: the text itself when it is a plain word or
/// already in the one form this gives, else that form.
pub(super) fn attribute_key(text: &[u8]) -> Cow<'_, [u8]> {
    if text.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_') {
        return match text {
            b"nocapture" => Cow::Borrowed(NO_CAPTURES),
            b"uwtable" => Cow::Borrowed(b"uwtable(async)"),
            _ => Cow::Borrowed(text),
        };
    }
    if text.first() == Some(&b'"') {
        return string_attribute(text);
    }
    let name_end = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(name_end);
    let rest = rest.trim_ascii();
    // `align 8`, `align(8)`; `alignstack(16)`, `alignstack=16`: the number.
    if matches!(name, b"align" | b"alignstack") {
        let number = rest
            .strip_prefix(b"=")
            .or_else(|| rest.strip_prefix(b"(")?.strip_suffix(b")"))
            .unwrap_or(rest)
            .trim_ascii();
        let mut key = name.to_vec();
        key.push(b' ');
        push_number(&mut key, number);
        return owned_unless_same(text, key);
    }
    let Some(args) = rest.strip_prefix(b"(").and_then(|r| r.strip_suffix(b")")) else {
        return Cow::Borrowed(text);
    };
    let tokens = tokens(args);
    let key = match name {
        b"memory" => memory(&tokens),
        b"nofpclass" => nofpclass(&tokens),
        b"captures" => captures(&tokens),
        b"vscale_range" if tokens.len() == 1 => {
            let mut key = b"vscale_range(".to_vec();
            push_number(&mut key, tokens[0]);
            key.extend_from_slice(b", ");
            push_number(&mut key, tokens[0]);
            key.push(b')');
            Some(key)
        }
        _ => None,
    };
    let key = key.unwrap_or_else(|| {
        let mut key = name.to_vec();
        key.push(b'(');
        join(&mut key, &tokens);
        key.push(b')');
        key
    });
    owned_unless_same(text, key)
}

fn owned_unless_same(text: &[u8], key: Vec<u8>) -> Cow<'_, [u8]> {
    match key == text {
        true => Cow::Borrowed(text),
        false => Cow::Owned(key),
    }
}

/// `"k"="v"`, spaced any way; `"k"` and `"k"=""` alike.
fn string_attribute(text: &[u8]) -> Cow<'_, [u8]> {
    // A string holds no `"` (LLVM escapes it as `\22`).
    let Some(close) = memchr::memchr(b'"', &text[1..]) else {
        return Cow::Borrowed(text);
    };
    let (key, rest) = text.split_at(close + 2);
    // Written as LLVM prints it (`"key"="value"`, as compilers write it): the text is the key.
    if let Some(value) = rest.strip_prefix(b"=")
        && value.first().is_some_and(|&b| !b.is_ascii_whitespace())
        && value.last().is_some_and(|&b| !b.is_ascii_whitespace())
    {
        return Cow::Borrowed(text);
    }
    let value = match rest.trim_ascii().strip_prefix(b"=") {
        Some(value) => value.trim_ascii(),
        None if rest.trim_ascii().is_empty() => b"\"\"",
        None => return Cow::Borrowed(text),
    };
    let mut canonical = key.to_vec();
    canonical.push(b'=');
    canonical.extend_from_slice(value);
    owned_unless_same(text, canonical)
}

/// The tokens between an attribute's parentheses: `(`, `)`, `,` and `:` each one, a string
/// whole, and runs of anything else.
fn tokens(args: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let b = args[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b"(),:".contains(&b) {
            out.push(&args[i..=i]);
            i += 1;
        } else if b == b'"' {
            let end = args[i + 1..]
                .iter()
                .position(|&c| c == b'"')
                .map_or(args.len(), |p| i + p + 2);
            out.push(&args[i..end]);
            i = end;
        } else {
            let end = args[i..]
                .iter()
                .position(|&c| c.is_ascii_whitespace() || b"(),:\"".contains(&c))
                .map_or(args.len(), |p| i + p);
            out.push(&args[i..end]);
            i = end;
        }
    }
    out
}

/// Tokens joined as LLVM prints them: a space after `,` and `:` and between two words,
/// numbers without leading zeros.
fn join(key: &mut Vec<u8>, tokens: &[&[u8]]) {
    let word = |t: &[u8]| !matches!(t, b"(" | b")" | b"," | b":");
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 && (matches!(tokens[i - 1], b"," | b":") || word(tokens[i - 1]) && word(t)) {
            key.push(b' ');
        }
        push_number(key, t);
    }
}

/// A decimal number without its leading zeros; any other text as it is.
fn push_number(key: &mut Vec<u8>, text: &[u8]) {
    let (sign, digits) = match text {
        [b'-', rest @ ..] => (&text[..1], rest),
        _ => (&text[..0], text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        key.extend_from_slice(text);
        return;
    }
    let significant = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len() - 1);
    key.extend_from_slice(sign);
    key.extend_from_slice(&digits[significant..]);
}

/// The locations `memory(...)` names, in the order of the key; the last, every other memory,
/// takes the access given without a location (LLVM's reader names it not).
const MEMORY_LOCATIONS: [&[u8]; 6] = [
    b"argmem",
    b"inaccessiblemem",
    b"errnomem",
    b"target_mem0",
    b"target_mem1",
    b"other",
];

/// The key of a `memory(...)` giving each of [`MEMORY_LOCATIONS`] its access.
fn memory_key<'k>(access: impl Iterator<Item = &'k [u8]>) -> Vec<u8> {
    let mut key = b"memory(".to_vec();
    for (i, (location, kind)) in MEMORY_LOCATIONS.iter().zip(access).enumerate() {
        if i > 0 {
            key.extend_from_slice(b", ");
        }
        key.extend_from_slice(location);
        key.extend_from_slice(b": ");
        key.extend_from_slice(kind);
    }
    key.push(b')');
    key
}

/// `memory(read, argmem: none)`: every location's access, in one order.
fn memory(tokens: &[&[u8]]) -> Option<Vec<u8>> {
    let mut access: [Option<&[u8]>; MEMORY_LOCATIONS.len()] = [None; MEMORY_LOCATIONS.len()];
    let mut default = None;
    for entry in tokens.split(|t| *t == b",") {
        match *entry {
            [kind] => default = Some(kind),
            [location, b":", kind] => {
                let at = MEMORY_LOCATIONS.iter().position(|l| *l == location)?;
                access[at] = Some(kind);
            }
            _ => return None,
        }
    }
    Some(memory_key(
        access
            .into_iter()
            .map(|kind| kind.or(default).unwrap_or(b"none")),
    ))
}

/// The accesses a memory keyword of LLVM before 16 allows, by location of
/// [`MEMORY_LOCATIONS`] (bit 1 read, bit 2 write), as LLVM's `upgradeMemoryAttr` reads it.
fn legacy_memory(word: &[u8]) -> Option<[u8; MEMORY_LOCATIONS.len()]> {
    const ARGMEM: usize = 0;
    const INACCESSIBLEMEM: usize = 1;
    let only = |locations: &[usize]| {
        let mut access = [0; MEMORY_LOCATIONS.len()];
        locations.iter().for_each(|&l| access[l] = 3);
        access
    };
    Some(match word {
        b"readnone" => [0; MEMORY_LOCATIONS.len()],
        b"readonly" => [1; MEMORY_LOCATIONS.len()],
        b"writeonly" => [2; MEMORY_LOCATIONS.len()],
        b"argmemonly" => only(&[ARGMEM]),
        b"inaccessiblememonly" => only(&[INACCESSIBLEMEM]),
        b"inaccessiblemem_or_argmemonly" => only(&[ARGMEM, INACCESSIBLEMEM]),
        _ => return None,
    })
}

/// The keys of one list as LLVM's parser reads it (`parseFnAttributeValuePairs`): its memory
/// keywords of LLVM before 16 (`readnone`, `argmemonly`...) become one `memory(...)`, the
/// accesses they allow intersected, in place of any `memory(...)` the list holds (LLVM's
/// order, whatever the text's: `readnone memory(read)` is `memory(none)`). A parameter's
/// `readnone`, `readonly` or `writeonly` is keyed so too: a list LLVM takes holds one of them
/// at most and no `memory(...)`, so its keys still tell such lists apart.
pub(super) fn upgrade_memory_keys(keys: &mut Vec<Cow<'_, [u8]>>) {
    if !keys.iter().any(|k| legacy_memory(k).is_some()) {
        return;
    }
    let mut access = [3u8; MEMORY_LOCATIONS.len()];
    keys.retain(|k| match legacy_memory(k) {
        Some(allowed) => {
            access.iter_mut().zip(allowed).for_each(|(a, b)| *a &= b);
            false
        }
        None => !is_memory_key(k),
    });
    let names: [&[u8]; 4] = [b"none", b"read", b"write", b"readwrite"];
    keys.push(Cow::Owned(memory_key(
        access.iter().map(|&a| names[usize::from(a)]),
    )));
}

/// The keys of an attribute group's list (`group`, as written) merged into those of the list
/// that names it (`keys`, upgraded), as LLVM merges a group into a list: the group's
/// `memory(...)` replaces the list's.
pub(super) fn merge_group_keys<'k>(keys: &mut Vec<Cow<'k, [u8]>>, mut group: Vec<Cow<'k, [u8]>>) {
    upgrade_memory_keys(&mut group);
    if group.iter().any(|k| is_memory_key(k)) {
        keys.retain(|k| !is_memory_key(k));
    }
    keys.append(&mut group);
}

/// Whether `key` is a `memory(...)` attribute's.
fn is_memory_key(key: &[u8]) -> bool {
    key.starts_with(b"memory(")
}

/// `nofpclass(nan ninf)`, by the classes' bits (`nan` is `snan qnan`; a number is the bits).
fn nofpclass(tokens: &[&[u8]]) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    for t in tokens {
        bits |= match *t {
            b"snan" => 1,
            b"qnan" => 2,
            b"nan" => 3,
            b"ninf" => 4,
            b"nnorm" => 8,
            b"nsub" => 16,
            b"nzero" => 32,
            b"pzero" => 64,
            b"psub" => 128,
            b"pnorm" => 256,
            b"pinf" => 512,
            b"inf" => 4 | 512,
            b"norm" => 8 | 256,
            b"sub" => 16 | 128,
            b"zero" => 32 | 64,
            b"all" => 1023,
            number => std::str::from_utf8(number).ok()?.parse().ok()?,
        };
    }
    Some(format!("nofpclass({bits})").into_bytes())
}

/// The key of `captures(none)`, which LLVM reads `nocapture` as.
const NO_CAPTURES: &[u8] = b"captures(0, ret: 0)";

/// `captures(address, ret: provenance)`: the components captured other than by returning
/// the pointer, and by returning it (the same unless `ret:` says), as bits (`address` holds
/// `address_is_null`, `provenance` `read_provenance`).
fn captures(tokens: &[&[u8]]) -> Option<Vec<u8>> {
    let (mut other, mut ret, mut in_ret) = (0u8, None, false);
    for part in tokens.split(|t| *t == b",") {
        let component = match *part {
            [b"ret", b":", c] => {
                in_ret = true;
                c
            }
            [c] => c,
            _ => return None,
        };
        let bits = match component {
            b"none" => 0,
            b"address_is_null" => 1,
            b"address" => 3,
            b"read_provenance" => 4,
            b"provenance" => 12,
            b"all" => 15,
            _ => return None,
        };
        if in_ret {
            *ret.get_or_insert(0) |= bits;
        } else {
            other |= bits;
        }
    }
    Some(format!("captures({other}, ret: {})", ret.unwrap_or(other)).into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_attribute_have_one_key() {
        let groups: &[&[&str]] = &[
            &["align 8", "align(8)", "align   8", "align 08", "align( 8 )"],
            &["alignstack(16)", "alignstack=16", "alignstack( 16 )"],
            &["dereferenceable(8)", "dereferenceable( 08 )"],
            &["\"k\"=\"v\"", "\"k\" = \"v\""],
            &["\"k\"", "\"k\"=\"\""],
            &["nocapture", "captures(none)", "captures( none )"],
            &[
                "captures(address, provenance)",
                "captures(provenance, address)",
                "captures(all)",
            ],
            &["captures(ret: address, provenance)"],
            &["captures(address, ret: provenance)"],
            &["uwtable", "uwtable(async)"],
            &["uwtable(sync)"],
            &["memory(read)", "memory(read, argmem: read)"],
            &[
                "memory(argmem: read, inaccessiblemem: read, errnomem: read, target_mem0: read, target_mem1: read)",
            ],
            &[
                "memory(argmem: read, inaccessiblemem: write)",
                "memory(inaccessiblemem: write, argmem: read)",
                "memory(none, argmem: read, inaccessiblemem: write)",
            ],
            &["memory(read, argmem: none)", "memory(argmem: none, read)"],
            &[
                "nofpclass(nan ninf)",
                "nofpclass(qnan ninf snan)",
                "nofpclass(7)",
            ],
            &[
                "range(i32 0, 10)",
                "range(i32 0,010)",
                "range( i32 0 , 10 )",
            ],
            &["vscale_range(2)", "vscale_range(2,2)", "vscale_range(2, 2)"],
            &["initializes((0, 4))", "initializes( ( 0 , 4 ) )"],
            &["noundef"],
        ];
        let key = |g: usize, i: usize| {
            String::from_utf8_lossy(&attribute_key(groups[g][i].as_bytes())).into_owned()
        };
        crate::fingerprint::tests::assert_spelling_groups(groups, key);
        // LLVM's own spellings cost no copy.
        for printed in [
            "align 8",
            "dereferenceable(8)",
            "\"k\"=\"v\"",
            "range(i32 0, 10)",
            "noundef",
        ] {
            assert!(
                matches!(attribute_key(printed.as_bytes()), Cow::Borrowed(_)),
                "{printed}"
            );
        }
    }

    /// A list's memory keywords of LLVM before 16 are the `memory(...)` LLVM's parser makes
    /// of them (as opt-22 prints each list, in `attributes #N = { ... }`); a spelling's
    /// attributes are apart by `;`.
    #[test]
    fn memory_keywords_of_old_are_read_as_llvm_reads_them() {
        let groups: &[&[&str]] = &[
            &[
                "readnone",
                "memory(none)",
                "readonly;readnone",
                "memory(read);readnone",
            ],
            &["readonly", "memory(read)"],
            &["writeonly", "memory(write)"],
            &[
                "argmemonly",
                "memory(argmem: readwrite)",
                "argmemonly;inaccessiblemem_or_argmemonly",
            ],
            &["inaccessiblememonly", "memory(inaccessiblemem: readwrite)"],
            &[
                "inaccessiblemem_or_argmemonly",
                "memory(argmem: readwrite, inaccessiblemem: readwrite)",
            ],
            &[
                "readonly;argmemonly",
                "memory(argmem: read)",
                "argmemonly;memory(write);readonly",
            ],
            &[
                "writeonly;inaccessiblememonly",
                "memory(inaccessiblemem: write)",
            ],
            &["nounwind;readnone", "memory(none);nounwind"],
        ];
        let key = |g: usize, i: usize| {
            let mut keys: Vec<Cow<[u8]>> = (groups[g][i].split(';'))
                .map(|a| attribute_key(a.as_bytes()))
                .collect();
            upgrade_memory_keys(&mut keys);
            keys.sort();
            keys
        };
        crate::fingerprint::tests::assert_spelling_groups(groups, key);
    }
}
