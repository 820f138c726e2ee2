//! write: [`Module`] → text. The source is copied with the edits' patches spliced in, then the
//! appended entities; an unedited module is written back byte for byte.

use crate::model::{GlobalName, Module};
use std::io::{self, Write};
use std::path::Path;

/// The module's text, with every edit applied.
pub fn to_string(m: &Module) -> String {
    if m.patches.is_empty() && m.appended.is_empty() {
        return m.source.clone();
    }
    let mut patches: Vec<_> = m.patches.iter().collect();
    // By position; of two patches starting together the wider one wins and covers the other.
    patches.sort_by(|a, b| {
        (a.span.start, std::cmp::Reverse(a.span.end))
            .cmp(&(b.span.start, std::cmp::Reverse(b.span.end)))
    });
    let mut out = String::with_capacity(m.source.len() + m.appended.len());
    let mut cursor = 0usize;
    for p in patches {
        let (start, end) = (p.span.start as usize, p.span.end as usize);
        if start < cursor {
            continue; // inside a wider patch already applied
        }
        out.push_str(&m.source[cursor..start]);
        out.push_str(&p.text);
        cursor = end;
    }
    out.push_str(&m.source[cursor..]);
    if !m.appended.is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&m.appended);
    }
    out
}

pub fn write_to(m: &Module, w: &mut impl Write) -> io::Result<()> {
    w.write_all(to_string(m).as_bytes())
}

/// Write the module to `path` atomically: a temporary file in the same directory, renamed over
/// the target once complete, so a reader never sees a partial file.
pub fn write_file(m: &Module, path: &Path) -> io::Result<()> {
    write_file_atomic(path, to_string(m).as_bytes())
}

pub fn write_file_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A global's name as LLVM writes it: `@name`, `@"needs quotes"`, `@0`.
pub fn global_name(name: &GlobalName) -> String {
    match name {
        GlobalName::Numbered(n) => format!("@{n}"),
        GlobalName::Named(bytes) => format!("@{}", quote_name(bytes)),
    }
}

/// A name, quoted and escaped when it has characters a bare name cannot.
pub fn quote_name(bytes: &[u8]) -> String {
    let bare = !bytes.is_empty()
        && !bytes[0].is_ascii_digit()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_'));
    if bare {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut s = String::from("\"");
    for &b in bytes {
        if b == b'"' || b == b'\\' || !(0x20..0x7F).contains(&b) {
            s.push_str(&format!("\\{b:02X}"));
        } else {
            s.push(b as char);
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(quote_name(b"main"), "main");
        assert_eq!(
            quote_name(b"_ZN3foo3barE.llvm.123"),
            "_ZN3foo3barE.llvm.123"
        );
        assert_eq!(quote_name(b"a b"), "\"a b\"");
        assert_eq!(quote_name(b"1x"), "\"1x\"");
        assert_eq!(quote_name(b"q\"\\"), "\"q\\22\\5C\"");
    }
}
