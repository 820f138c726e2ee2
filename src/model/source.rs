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
        let map = unsafe { memmap2::MmapOptions::new().populate().map(file) }.ok()?;
        if map.is_empty() {
            return None;
        }
        Some(match std::str::from_utf8(&map) {
            Ok(_) => Ok(Source(Text::Mapped(map))),
            Err(e) => {
                let at = e.valid_up_to();
                Err((map, at))
            }
        })
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
