//! Which names LLVM 22 takes for intrinsics: an intrinsic a body calls without declaring it is
//! declared by the reader, as by LLVM, only under a name LLVM knows ([`is_known`]). The names
//! come from LLVM's own table ([`names`]).

#[path = "intrinsic_names.rs"]
mod names;

/// Whether LLVM 22 takes `name` as an intrinsic's, as `Intrinsic::lookupIntrinsicID` does:
/// an intrinsic's name, or an overloaded one's followed by `.` and type suffixes
/// (`llvm.memcpy.p0.p0.i64`); of several names it starts with, the longest counts.
pub(super) fn is_known(name: &[u8]) -> bool {
    if lookup(name).is_some() {
        return true;
    }
    (0..name.len())
        .rev()
        .filter(|&at| name[at] == b'.')
        .find_map(|at| lookup(&name[..at]))
        .unwrap_or(false)
}

/// Whether `name` is an intrinsic's: `Some(overloaded)`, by binary search of [`names::NAMES`]
/// line by line.
fn lookup(name: &[u8]) -> Option<bool> {
    let table = names::NAMES.as_bytes();
    // [lo, hi) holds whole lines, lo at the start of one.
    let (mut lo, mut hi) = (0, table.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = table[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |i| lo + i + 1);
        let end = table[start..hi]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(hi, |i| start + i);
        let line = &table[start..end];
        let (entry, overloaded) = match line.strip_suffix(b"*") {
            Some(entry) => (entry, true),
            None => (line, false),
        };
        match entry.cmp(name) {
            std::cmp::Ordering::Equal => return Some(overloaded),
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found_and_suffixes_only_after_overloaded_ones() {
        for line in names::NAMES.lines() {
            let (name, overloaded) = match line.strip_suffix('*') {
                Some(name) => (name, true),
                None => (line, false),
            };
            assert_eq!(lookup(name.as_bytes()), Some(overloaded), "{name}");
            assert!(is_known(name.as_bytes()), "{name}");
            let suffixed = format!("{name}.i32");
            // A name with a suffix may be another intrinsic's (`llvm.x.y` and `llvm.x`).
            if lookup(suffixed.as_bytes()).is_none() {
                assert_eq!(is_known(suffixed.as_bytes()), overloaded, "{suffixed}");
            }
        }
        for name in [
            "",
            "llvm",
            "llvm.",
            "llvm.foobar",
            "llvm.donothing.x",
            "llvm.memcp",
        ] {
            assert!(!is_known(name.as_bytes()), "{name}");
        }
        for name in [
            "llvm.memcpy.p0.p0.i64",
            "llvm.memcpy.inline.p0.p0.i64",
            "llvm.donothing",
        ] {
            assert!(is_known(name.as_bytes()), "{name}");
        }
    }
}
