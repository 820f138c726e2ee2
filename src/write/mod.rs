//! write: [`Module`] → text. The source is copied with the edits' patches spliced in, then the
//! appended entities; an unedited module is written back byte for byte.

use crate::model::{GlobalName, Module};
use std::io::{self, Write};
use std::path::Path;

/// The pieces of the output in order: source slices between patches, patch texts, then the
/// appended entities. Writing them one after another gives the edited module without copying
/// the source.
fn pieces(m: &Module) -> Vec<&str> {
    let mut patches: Vec<_> = m.patches.iter().collect();
    // By position; of two patches starting together the wider one wins and covers the other.
    patches.sort_by_key(|p| (p.span.start, std::cmp::Reverse(p.span.end), p.slot));
    let mut out = Vec::with_capacity(2 * patches.len() + 3);
    let mut cursor = 0usize;
    for p in patches {
        let (start, end) = (p.span.start as usize, p.span.end as usize);
        if start < cursor {
            continue; // inside a wider patch already applied
        }
        out.push(&m.source[cursor..start]);
        out.push(p.text.as_str());
        cursor = end;
    }
    out.push(&m.source[cursor..]);
    if !m.appended.is_empty() {
        if !m.source.ends_with('\n') && cursor == m.source.len() {
            out.push("\n");
        }
        out.push(&m.appended);
    }
    out
}

/// The module's text, with every edit applied.
pub fn to_string(m: &Module) -> String {
    pieces(m).concat()
}

pub fn write_to(m: &Module, w: &mut impl Write) -> io::Result<()> {
    for piece in pieces(m) {
        w.write_all(piece.as_bytes())?;
    }
    Ok(())
}

/// Write the module to `path` atomically: a temporary file in the same directory, renamed over
/// the target once complete, so a reader never sees a partial file. A device or a pipe
/// (`/dev/null`) is written directly, and a symbolic link is followed to the file it names.
pub fn write_file(m: &Module, path: &Path) -> io::Result<()> {
    let size = m.source.len() + m.appended.len();
    write_file_with(path, |w| write_to(m, w), size)
}

/// Write `bytes` to `path` atomically, as [`write_file`] does.
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file_with(path, |w| w.write_all(bytes), bytes.len())
}

fn write_file_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&std::fs::File>) -> io::Result<()>,
    size_hint: usize,
) -> io::Result<()> {
    let capacity = size_hint.clamp(4096, 1 << 20);
    // A device or a pipe (`/dev/null`, a FIFO) is written as it is: replacing it would put a
    // regular file where the device was.
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut w = io::BufWriter::with_capacity(capacity, &file);
        fill(&mut w)?;
        return w.flush();
    }
    // A symbolic link stays: the file it leads to is the one replaced.
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_symlink() && std::fs::metadata(path).is_ok() => {
            resolved = std::fs::canonicalize(path)?;
            resolved.as_path()
        }
        _ => path,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // A new output file gets what `open` with 0666 gives under the umask, as any file a tool
    // creates (a temporary file alone would be 0600).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(dir)?;
    let mut w = io::BufWriter::with_capacity(capacity, tmp.as_file());
    fill(&mut w)?;
    w.flush()?;
    drop(w);
    replace(tmp.into_temp_path(), path)
}

/// Put the finished temporary file in place of `path`; a reader sees the old file or the new
/// one, never a part. On Linux the two are exchanged and the old one removed: ext4 forces the
/// blocks of a file that replaces another by rename to be allocated at once (`auto_da_alloc`),
/// which costs as much as writing a large module, and an exchange does not.
fn replace(tmp: tempfile::TempPath, path: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        if renameat_with(CWD, &*tmp, CWD, path, RenameFlags::EXCHANGE).is_ok() {
            // The temporary name now holds the old file; dropping the path removes it.
            return Ok(());
        }
        // No file there yet, or a file system that cannot exchange: a plain rename.
    }
    tmp.persist(path).map_err(|e| e.error)
}

/// A global's name as LLVM writes it: `@name`, `@"needs quotes"`, `@0`.
pub fn global_name(name: &GlobalName) -> String {
    match name {
        GlobalName::Numbered(n) => format!("@{n}"),
        GlobalName::Named(bytes) => {
            let mut s = String::with_capacity(bytes.len() + 3);
            s.push('@');
            push_quoted_name(&mut s, bytes);
            s
        }
    }
}

/// A name, quoted and escaped when it has characters a bare name cannot.
pub fn quote_name(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    push_quoted_name(&mut s, bytes);
    s
}

fn push_quoted_name(s: &mut String, bytes: &[u8]) {
    /// The bytes of a bare name (after its first, which must not be a digit).
    const BARE: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            t[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_');
            b += 1;
        }
        t
    };
    if let Ok(text) = std::str::from_utf8(bytes)
        && !bytes.is_empty()
        && !bytes[0].is_ascii_digit()
        && bytes.iter().all(|&b| BARE[usize::from(b)])
    {
        s.push_str(text);
        return;
    }
    s.push('"');
    for &b in bytes {
        if b == b'"' || b == b'\\' || !(0x20..0x7F).contains(&b) {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            s.push('\\');
            s.push(HEX[usize::from(b >> 4)] as char);
            s.push(HEX[usize::from(b & 15)] as char);
        } else {
            s.push(b as char);
        }
    }
    s.push('"');
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

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.ll");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_bytes_atomically(&fifo, b"; text\n").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"; text\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_stays_and_its_file_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (file, link) = (dir.path().join("real.ll"), dir.path().join("link.ll"));
        std::fs::write(&file, "old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_bytes_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
    }
}
