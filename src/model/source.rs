//! The text of a module: read into memory, or mapped from its file.

use std::fmt;
use std::ops::Deref;

/// A module's text, valid UTF-8. Mapping a file instead of copying it saves the copy and the
/// fresh memory it would fill; either way the text is read through `&str`.
pub struct Source(Text);

enum Text {
    Owned(String),
    /// Checked to be UTF-8 when made.
    Mapped(memmap2::Mmap),
}

impl Source {
    /// Map `file`, if it is text. `None` when it cannot be mapped (a pipe, an empty file):
    /// read it instead. `Err` with the byte offset where the bytes stop being UTF-8.
    pub fn map(file: &std::fs::File) -> Option<Result<Source, (memmap2::Mmap, usize)>> {
        // SAFETY: the file is mapped read-only and private; mergefn's inputs are the files a
        // build wrote before calling it, and like a linker it assumes they do not change
        // while it reads them (a change could make the text differ between two reads).
        let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
        if map.is_empty() {
            return None;
        }
        let valid = valid_up_to(&map, |from, len| {
            // Mapped in at once rather than a fault at a time; on an older kernel than 5.14,
            // which refuses this, the pages fault in as they are checked.
            let _ = map.advise_range(memmap2::Advice::PopulateRead, from, len);
        });
        Some(match valid == map.len() {
            true => Ok(Source(Text::Mapped(map))),
            false => Err((map, valid)),
        })
    }
}

/// Below this many bytes, checking in one piece is faster than starting a second thread.
const UTF8_WORTH_THREADS: usize = 1 << 20;

/// How many of `bytes` are valid UTF-8 from the start: all of them when the text is. A large
/// text is checked in two halves on two threads, each half given to `prepare` first (to map
/// it in): the halves are cut before a byte that starts a character, so the text is valid
/// exactly when both halves are, and an error in the second counts from the cut.
fn valid_up_to(bytes: &[u8], prepare: impl Fn(usize, usize) + Sync) -> usize {
    let check = |from: usize, to: usize| {
        prepare(from, to - from);
        match std::str::from_utf8(&bytes[from..to]) {
            Ok(_) => to - from,
            Err(e) => e.valid_up_to(),
        }
    };
    let len = bytes.len();
    let mut cut = len / 2;
    // At most three bytes of a character follow its first (0b10xx_xxxx each).
    for _ in 0..3 {
        if bytes.get(cut).is_some_and(|&b| b & 0xC0 == 0x80) {
            cut += 1;
        }
    }
    if len < UTF8_WORTH_THREADS || bytes.get(cut).is_some_and(|&b| b & 0xC0 == 0x80) {
        return check(0, len);
    }
    match rayon::join(|| check(0, cut), || check(cut, len)) {
        (first, _) if first < cut => first,
        (_, second) => cut + second,
    }
}

impl From<String> for Source {
    fn from(s: String) -> Source {
        Source(Text::Owned(s))
    }
}

impl Default for Source {
    fn default() -> Source {
        Source::from(String::new())
    }
}

impl Deref for Source {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            Text::Owned(s) => s,
            // SAFETY: checked to be UTF-8 in `Source::map`, and the mapping is read-only.
            Text::Mapped(m) => unsafe { std::str::from_utf8_unchecked(m) },
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({} bytes)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The halves agree with one check of the whole text, wherever the cut falls in a
    /// character and wherever the text stops being UTF-8.
    #[test]
    fn halves_find_what_one_check_finds() {
        let whole = |b: &[u8]| std::str::from_utf8(b).map_or_else(|e| e.valid_up_to(), |_| b.len());
        let mut text = "a\u{e9}\u{20ac}\u{1f600}"
            .repeat(UTF8_WORTH_THREADS / 5)
            .into_bytes();
        for shift in 0..4 {
            text.insert(0, b'x');
            assert_eq!(valid_up_to(&text, |_, _| {}), text.len(), "{shift}");
            let half = text.len() / 2;
            for at in [
                1,
                half - 1,
                half,
                half + 1,
                half + 2,
                half + 3,
                text.len() - 1,
            ] {
                let mut bad = text.clone();
                bad[at] = 0xFF;
                assert_eq!(valid_up_to(&bad, |_, _| {}), whole(&bad), "{shift} {at}");
                let mut cut_short = text.clone();
                cut_short.truncate(at);
                assert_eq!(valid_up_to(&cut_short, |_, _| {}), whole(&cut_short));
            }
        }
    }
}
