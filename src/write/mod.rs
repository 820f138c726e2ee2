//! write: [`Module`] → text. The source is copied with the edits' patches spliced in, and the
//! appended entities after the last function; an unedited module is written back byte for byte.

use crate::model::{GlobalName, Module, Progress, RELEASE_STEP, Source, search};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub mod attribute_numbers;
pub mod comdats;
pub mod layout;
pub mod metadata_numbers;
pub mod upgrades;

/// The pieces of the output in order, each handed to `put`: source slices between patches,
/// patch texts, the appended entities after the last function; added aliases go before the
/// first function.
/// Writing them one after another gives the edited module without copying the source; handed
/// on as they are found, they take no list (a merge of 40,000 tiny functions writes 160,000).
fn pieces<'a>(m: &'a Module, put: impl FnMut(&'a [u8]) -> io::Result<()>) -> io::Result<()> {
    // By position; of two patches starting together the wider one wins and covers the other,
    // but for an insertion that precedes it. Of two patches of one span and slot, the later
    // (first here, by the reversed index) is written and the earlier dropped.
    // The key packed in one integer, the patch's index in its low bits: a merge makes tens
    // of thousands of patches, and a tuple key built at each comparison made this sort most
    // of the writer's work (stlprog-O0: 14.4 M instructions).
    const _: () = assert!(
        (crate::model::PatchSlot::Align as u32) < 8,
        "a slot takes 3 bits"
    );
    let patch = |i: u32| &m.patches[i as usize];
    let mut keys: Vec<u128> = (0..m.patches.len() as u32)
        .map(|i| {
            let p = patch(i);
            let precedes = p.span.is_empty() && p.slot.precedes_wider();
            (u128::from(p.span.start) << 68)
                | (u128::from(!precedes) << 67)
                | (u128::from(u32::MAX - p.span.end) << 35)
                | ((p.slot as u128) << 32)
                | u128::from(u32::MAX - i)
        })
        .collect();
    keys.sort_unstable();
    let mut order: Vec<u32> = keys.iter().map(|&k| u32::MAX - k as u32).collect();
    // Not kept while the module is written, which maps its text in (eigenprog-O0: 50,305 patches, 0.8 MB).
    drop(keys);
    order.dedup_by_key(|i| (patch(*i).span, patch(*i).slot));
    let mut out = Out { put, last: &[] };
    // Before the first function, or at the end of a module without any; before any patch
    // there, as the first function's own text may be replaced.
    let mut aliases_at = (!m.aliases_added.is_empty()).then(|| {
        m.functions
            .values()
            .map(|f| f.span.start as usize)
            .min()
            .map_or(m.source.len(), |at| above_comments(m.source.as_bytes(), at))
    });
    // After the last function, where LLVM appends a function it makes: before the attribute
    // groups and metadata that follow the functions.
    let src = m.source.as_bytes();
    let mut appended_at = (!m.appended.is_empty()).then(|| {
        m.functions
            .values()
            .map(|f| f.span.end as usize)
            .max()
            .map_or(src.len(), |end| {
                search::memchr(b'\n', &src[end..]).map_or(src.len(), |at| end + at + 1)
            })
    });
    let mut cursor = 0usize;
    for p in order.into_iter().map(patch) {
        let (start, end) = (p.span.start as usize, p.span.end as usize);
        if let Some(at) = aliases_at.take_if(|at| *at <= start) {
            put_aliases(m, at, &mut cursor, &mut out)?;
        }
        if let Some(at) = appended_at.take_if(|at| *at <= start) {
            put_appended(m, at, &mut cursor, &mut out)?;
        }
        if start < cursor {
            continue; // inside a wider patch already applied
        }
        out.put(&src[cursor..start])?;
        out.put(p.text.as_bytes())?;
        cursor = end;
    }
    if let Some(at) = aliases_at {
        put_aliases(m, at, &mut cursor, &mut out)?;
    }
    if let Some(at) = appended_at {
        put_appended(m, at, &mut cursor, &mut out)?;
    }
    out.put(&src[cursor..])?;
    Ok(())
}

/// The source up to `at` (or, should a patch cover it, from where the text kept reaches),
/// then the appended entities, after an empty line as LLVM separates functions, and before
/// one if more follows.
fn put_appended<'a, F: FnMut(&'a [u8]) -> io::Result<()>>(
    m: &'a Module,
    at: usize,
    cursor: &mut usize,
    out: &mut Out<'a, F>,
) -> io::Result<()> {
    let src = m.source.as_bytes();
    let at = at.max(*cursor);
    out.put(&src[*cursor..at])?;
    match out.last {
        [] => {}
        end if end.ends_with(b"\n\n") => {}
        end if end.ends_with(b"\n") => out.put(b"\n")?,
        _ => out.put(b"\n\n")?,
    }
    out.put(m.appended.as_bytes())?;
    let rest = &src[at..];
    if !rest.is_empty() && !rest.starts_with(b"\n") && !rest.starts_with(b"\r\n") {
        out.put(b"\n")?;
    }
    *cursor = at;
    Ok(())
}

/// Hands the pieces of the output on, keeping the last that was not empty.
struct Out<'a, F> {
    put: F,
    last: &'a [u8],
}

impl<'a, F: FnMut(&'a [u8]) -> io::Result<()>> Out<'a, F> {
    fn put(&mut self, piece: &'a [u8]) -> io::Result<()> {
        if !piece.is_empty() {
            self.last = piece;
        }
        (self.put)(piece)
    }
}

/// The source up to `at` (or, should a patch cover it, from where the text kept reaches),
/// then the added aliases on lines of their own.
fn put_aliases<'a, F: FnMut(&'a [u8]) -> io::Result<()>>(
    m: &'a Module,
    at: usize,
    cursor: &mut usize,
    out: &mut Out<'a, F>,
) -> io::Result<()> {
    let at = at.max(*cursor);
    let before = &m.source.as_bytes()[*cursor..at];
    out.put(before)?;
    if !before.is_empty() && !before.ends_with(b"\n") {
        out.put(b"\n")?;
    }
    out.put(m.aliases_added.as_bytes())?;
    out.put(b"\n")?;
    *cursor = at;
    Ok(())
}

/// The start of the comment lines just above the line at `at` (`; Function Attrs: ...`, which
/// clang writes above a function), or `at`.
fn above_comments(src: &[u8], mut at: usize) -> usize {
    while at > 0 {
        let line_start = src[..at - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if src[line_start] != b';' {
            break;
        }
        at = line_start;
    }
    at
}

/// How the module is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style<'a> {
    /// As read, with the edits: an unedited module is written back byte for byte.
    #[default]
    AsRead,
    /// As `opt -S` prints it (`mergefn opt`), for tests that check opt's output with
    /// FileCheck: headed by the module's identifier (`; ModuleID = 'in.ll'`, the input's
    /// name as opt was given it, and as its `source_filename` if it names none), without
    /// the input's comments (which hold the CHECK lines, that must not match themselves),
    /// with only the comdats a global names ([`comdats`]), and with attribute groups and
    /// metadata numbered as LLVM numbers them ([`attribute_numbers`], [`metadata_numbers`]).
    AsOpt { module_id: &'a str },
}

/// The module's text, with every edit applied.
pub fn to_string(m: &Module) -> String {
    // Every piece is cut where a token starts or ends, never inside a character.
    let mut text = Vec::new();
    // Kept in memory, no piece fails.
    pieces(m, |piece| {
        text.extend_from_slice(piece);
        Ok(())
    })
    .unwrap_or_default();
    String::from_utf8_lossy(&text).into_owned()
}

pub fn write_to(m: &Module, w: &mut impl Write) -> io::Result<()> {
    write_to_as(m, w, Style::AsRead)
}

/// [`write_to`], in either [`Style`].
pub fn write_to_as(m: &Module, w: &mut impl Write, style: Style<'_>) -> io::Result<()> {
    match style {
        Style::AsRead => stream(m, w, false),
        Style::AsOpt { module_id } => {
            // Numbering needs the whole text: every node's place is known only at the end.
            let mut text = Vec::with_capacity(m.source.len());
            opt_header(m, module_id, &mut text);
            stream(m, &mut text, true)?;
            if let Some(layout) = m.header.triple_layout {
                insert_triple_layout(&mut text, layout);
            }
            // The passes below read the text a line at a time: a string or a summary entry
            // that runs over lines, or two statements on one (LLVM's printer never writes
            // either, a text may), could hide statements or lines that look like them, so
            // such a text is written as it is.
            if m.header.lines_shared || !statements_end_on_their_lines(&text) {
                return w.write_all(&text);
            }
            // A text written by hand may hold its statements out of LLVM's order.
            if let Some(laid_out) = layout::laid_out(&text) {
                text = laid_out;
            }
            // Applied as the metadata's numbers are written, the text copied no more.
            let mut edits = comdats::edits(&text);
            edits.extend(attribute_numbers::edits(&text));
            edits.extend(upgrades::edits(&text));
            edits.sort_by_key(|e| e.start);
            metadata_numbers::write_as_llvm_numbers(&text, edits, w)
        }
    }
}

/// Whether every string in `text`, which holds no comments, ends on the line it starts on,
/// and so does every summary entry (`^N = gv: (...)`, its parentheses opened and closed on
/// its line; `^N = flags: 8` and `^N = blockcount: 8` take none).
fn statements_end_on_their_lines(text: &[u8]) -> bool {
    let mut at = 0;
    while let Some(open) = search::memchr(b'"', &text[at..]) {
        let from = at + open + 1;
        match search::memchr2(b'"', b'\n', &text[from..]) {
            Some(i) if text[from + i] == b'"' => at = from + i + 1,
            _ => return false,
        }
    }
    // Only the lines that start with `^` (none in what clang or rustc writes).
    let entry = search::Pair::new(*b"\n^");
    let mut from = match text.first() {
        Some(b'^') => 0,
        _ => match entry.find(text) {
            Some(at) => at + 1,
            None => return true,
        },
    };
    loop {
        let end = search::memchr(b'\n', &text[from..]).map_or(text.len(), |i| from + i);
        let line = &text[from..end];
        let opened = search::count(b'(', line);
        if opened != search::count(b')', line) || opened == 0 && !takes_no_parentheses(line) {
            return false;
        }
        match entry.find(&text[end..]) {
            Some(at) => from = end + at + 1,
            None => return true,
        }
    }
}

/// Whether a summary entry's line `^N = ...` is of a kind written without parentheses.
fn takes_no_parentheses(line: &[u8]) -> bool {
    let after = line
        .iter()
        .position(|&b| b == b'=')
        .map_or(&[][..], |i| &line[i + 1..]);
    let kind = after.trim_ascii_start();
    kind.starts_with(b"flags") || kind.starts_with(b"blockcount")
}

/// A replacement of `text[start..end]`, which the writer of `mergefn opt`'s text applies with
/// its own (see [`metadata_numbers::write_as_llvm_numbers`]). Two never overlap.
pub struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: Vec<u8>,
}

/// `text` with `edits` (in order of position) applied; `None` when there are none.
#[cfg(test)]
fn edited(text: &[u8], edits: &[TextEdit]) -> Option<Vec<u8>> {
    if edits.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&text[at..e.start]);
        out.extend_from_slice(&e.text);
        at = e.end;
    }
    out.extend_from_slice(&text[at..]);
    Some(out)
}

/// What LLVM's printer writes before the module's own text: its identifier (unless it spans
/// lines), and, where the module names no source file, the identifier as one, with the blank
/// line that follows the lines heading a module when none follows.
fn opt_header(m: &Module, module_id: &str, out: &mut Vec<u8>) {
    if !module_id.contains('\n') {
        out.extend_from_slice(format!("; ModuleID = '{module_id}'\n").as_bytes());
    }
    if !m.header.source_filename && !module_id.is_empty() {
        let mut line = String::from("source_filename = ");
        push_string_literal(&mut line, module_id.as_bytes());
        line.push('\n');
        out.extend_from_slice(line.as_bytes());
        if !m.header.target {
            out.push(b'\n');
        }
    }
}

/// The layout LLVM derives from the module's triple, on the line before the triple's, where
/// opt prints it: the triple heads the module (comments dropped, only the other heading lines
/// before it), so its line is the first to start with `target triple`.
fn insert_triple_layout(text: &mut Vec<u8>, layout: &str) {
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        if let Some(after) = rest.strip_prefix(b"target")
            && after.trim_ascii_start().starts_with(b"triple")
        {
            let mut line = String::from("target datalayout = ");
            push_string_literal(&mut line, layout.as_bytes());
            line.push('\n');
            text.splice(at..at, line.bytes());
            return;
        }
        at += search::memchr(b'\n', rest).map_or(rest.len(), |eol| eol + 1);
    }
}

/// The source is written a step at a time, while another thread maps in the step ahead and
/// gives back the text written (`Source::read_beside`), so a mapped text is never all
/// resident while it is written.
fn stream(m: &Module, w: &mut impl Write, drop_comments: bool) -> io::Result<()> {
    m.source.read_beside(|progress| {
        let mut out = PieceWriter::new(w, &m.source, progress);
        let mut strip = CommentStripper::default();
        pieces(m, |piece| {
            for step in in_steps(piece) {
                if drop_comments {
                    strip.push(step);
                    for settled in strip.settled() {
                        out.put(settled)?;
                    }
                } else {
                    out.put(step)?;
                }
            }
            Ok(())
        })?;
        for rest in strip.rest() {
            out.put(rest)?;
        }
        out.flush()
    })
}

/// `piece` in parts of at most [`RELEASE_STEP`] bytes, each but the last ending after a
/// newline (so a part never ends inside a character).
fn in_steps(piece: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = piece;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = match rest.len() > RELEASE_STEP {
            true => search::memchr(b'\n', &rest[RELEASE_STEP..])
                .map_or(rest.len(), |at| RELEASE_STEP + at + 1),
            false => rest.len(),
        };
        let (step, after) = rest.split_at(cut);
        rest = after;
        Some(step)
    })
}

/// Takes the comments out of pieces of a valid module's text, as slices of them. A line
/// that held only a comment goes whole; a comment after other text goes with the blanks before
/// it. In valid IR a `"` only opens or closes a string (quoted names too; escapes are `\22`),
/// and a `;` outside a string opens a comment, so strings are stepped over and nothing else
/// needs lexing.
#[derive(Default)]
struct CommentStripper<'a> {
    /// The text kept, the last pieces of which may still lose their blanks at the end.
    out: Vec<&'a [u8]>,
    in_string: bool,
    in_comment: bool,
    line_goes: bool,
    /// Inside a C-style comment (`/* ... */`, which LLVM 22 reads as blank); whether the next
    /// byte is the `*` that opens it, or the byte after a `*`, which closes it if it is a `/`
    /// (as LLVM's lexer reads it, a `*` takes the byte after it; a piece may end between).
    in_c_comment: bool,
    opening: bool,
    after_star: bool,
    /// The last piece ended with a `/`, held back until the next says whether it opens a
    /// comment.
    slash: bool,
}

impl<'a> CommentStripper<'a> {
    fn push(&mut self, bytes: &'a [u8]) {
        // `kept` is where the text to keep starts; `i` where the search goes on.
        let (mut kept, mut i) = (0, 0);
        if self.slash && !bytes.is_empty() {
            self.slash = false;
            match bytes[0] {
                b'*' => {
                    self.in_c_comment = true;
                    i = 1;
                    kept = 1;
                }
                _ => self.out.push(b"/"),
            }
        }
        while i < bytes.len() {
            if self.in_c_comment {
                if self.opening {
                    self.opening = false;
                    i += 1;
                } else if self.after_star {
                    self.after_star = false;
                    i += 1;
                    if bytes[i - 1] == b'/' {
                        self.in_c_comment = false;
                        kept = i;
                    }
                } else {
                    let Some(p) = search::memchr(b'*', &bytes[i..]) else {
                        break;
                    };
                    i += p + 1;
                    self.after_star = true;
                }
            } else if self.in_comment {
                let Some(p) = search::memchr(b'\n', &bytes[i..]) else {
                    break;
                };
                self.in_comment = false;
                i += p + 1;
                kept = if self.line_goes { i } else { i - 1 };
            } else if self.in_string {
                let Some(p) = search::memchr(b'"', &bytes[i..]) else {
                    break;
                };
                self.in_string = false;
                i += p + 1;
            } else {
                let Some(p) = search::memchr3(b'"', b';', b'/', &bytes[i..]) else {
                    break;
                };
                i += p;
                if bytes[i] == b'"' {
                    self.in_string = true;
                } else if bytes[i] == b'/' && i + 1 == bytes.len() {
                    // Whether it opens a comment the next piece says.
                    self.out.push(&bytes[kept..i]);
                    self.slash = true;
                    return;
                } else if bytes[i] == b'/' && bytes[i + 1] == b'*' {
                    self.out.push(&bytes[kept..i]);
                    self.in_c_comment = true;
                    self.opening = true;
                    i += 1;
                    continue;
                } else if bytes[i] == b'/' {
                    // Outside a comment, a `/` is in a summary entry's text, which the
                    // reader steps over.
                } else {
                    self.out.push(&bytes[kept..i]);
                    self.line_goes = trim_blanks_at_end(&mut self.out);
                    self.in_comment = true;
                }
                i += 1;
            }
        }
        if !self.in_comment && !self.in_c_comment {
            self.out.push(&bytes[kept..]);
        }
    }

    /// What is kept after the last piece.
    fn rest(mut self) -> Vec<&'a [u8]> {
        if self.slash {
            self.out.push(b"/");
        }
        self.out
    }

    /// The pieces kept that no later comment can change: all but the last one holding more
    /// than blanks, and the blanks after it.
    fn settled(&mut self) -> std::vec::Drain<'_, &'a [u8]> {
        let last_text = self
            .out
            .iter()
            .rposition(|p| !p.iter().all(|&b| b == b' ' || b == b'\t'))
            .unwrap_or(0);
        self.out.drain(..last_text)
    }
}

/// Take the spaces and tabs off the end of the text kept so far; whether the line is then
/// empty (the first line of the text, or one after a newline).
fn trim_blanks_at_end(out: &mut Vec<&[u8]>) -> bool {
    while let Some(last) = out.last_mut() {
        let blanks = last.iter().rev().take_while(|&&b| b == b' ' || b == b'\t');
        let trimmed = &last[..last.len() - blanks.count()];
        if trimmed.is_empty() {
            out.pop();
            continue;
        }
        *last = trimmed;
        return trimmed.ends_with(b"\n");
    }
    true
}

/// Writes pieces in order, handing the system many at a time (`writev`): the source is
/// copied once, from its mapping into the file, rather than into a buffer first. Short pieces
/// (a patch, the text between two patches) are copied together into a buffer of their own,
/// handed over as one: the system's cost is per piece (spvc-O0: 30,000 of its 41,000 pieces
/// are under 256 bytes). How far the source is written is told to the thread that maps it in
/// and gives it back.
struct PieceWriter<'w, 'a, W: Write> {
    w: &'w mut W,
    parts: Vec<Part<'a>>,
    /// The short pieces copied, in order.
    copied: Vec<u8>,
    /// The bytes in `parts`.
    bytes: usize,
    source: &'a Source,
    /// Where the source pieces written so far end.
    source_end: usize,
    progress: Option<&'a Progress<'a>>,
}

/// What a [`PieceWriter`] hands over next: a piece, or a run of short ones copied.
enum Part<'a> {
    Piece(&'a [u8]),
    Copied(std::ops::Range<usize>),
}

impl<'w, 'a, W: Write> PieceWriter<'w, 'a, W> {
    /// At most what one `writev` takes (IOV_MAX on Linux).
    const BATCH: usize = 1024;
    /// A piece shorter than this is copied.
    const SHORT: usize = 256;
    /// What the copies may hold before they are handed over.
    const COPIED: usize = 64 << 10;

    fn new(w: &'w mut W, source: &'a Source, progress: Option<&'a Progress<'a>>) -> Self {
        PieceWriter {
            w,
            parts: Vec::with_capacity(Self::BATCH),
            copied: Vec::with_capacity(Self::COPIED),
            bytes: 0,
            source,
            source_end: 0,
            progress,
        }
    }

    fn put(&mut self, piece: &'a [u8]) -> io::Result<()> {
        // Empty pieces (between adjacent patches) left out: a write of nothing returns 0.
        if piece.is_empty() {
            return Ok(());
        }
        if let Some(at) = self.source.offset_of(piece) {
            self.source_end = self.source_end.max(at + piece.len());
        }
        if piece.len() < Self::SHORT {
            if self.copied.len() + piece.len() > Self::COPIED {
                self.flush()?;
            }
            let start = self.copied.len();
            self.copied.extend_from_slice(piece);
            match self.parts.last_mut() {
                Some(Part::Copied(run)) if run.end == start => run.end = self.copied.len(),
                _ => self.parts.push(Part::Copied(start..self.copied.len())),
            }
        } else {
            self.parts.push(Part::Piece(piece));
        }
        self.bytes += piece.len();
        if self.parts.len() == Self::BATCH || self.bytes >= RELEASE_STEP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut slices: Vec<io::IoSlice> = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Piece(piece) => io::IoSlice::new(piece),
                Part::Copied(run) => io::IoSlice::new(&self.copied[run.clone()]),
            })
            .collect();
        let mut rest = &mut slices[..];
        while !rest.is_empty() {
            match self.w.write_vectored(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => io::IoSlice::advance_slices(&mut rest, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.parts.clear();
        self.copied.clear();
        self.bytes = 0;
        if let Some(progress) = self.progress {
            // Source pieces come in text order: all before their end is written.
            progress.read_up_to(self.source_end);
        }
        Ok(())
    }
}

/// Write the module to `path` atomically: a temporary file in the same directory, renamed over
/// the target once complete, so a reader never sees a partial file. A device or a pipe
/// (`/dev/null`) is written directly, and a symbolic link is followed to the file it names.
pub fn write_file(m: &Module, path: &Path) -> io::Result<()> {
    write_file_as(m, path, Style::AsRead).map(drop)
}

/// [`write_file`], in either [`Style`]; what it replaced is removed when the
/// value returned is dropped.
pub fn write_file_as(m: &Module, path: &Path, style: Style<'_>) -> io::Result<Replaced> {
    write_file_with(path, |mut file| write_to_as(m, &mut file, style))
}

/// Write to `path` atomically, as [`write_file`] does, what `fill` writes (through a buffer).
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_file_with(path, |file| {
        let mut out = io::BufWriter::new(file);
        fill(&mut out)?;
        out.flush()
    })
    .map(drop)
}

/// The file a written one replaced, now under a temporary name, removed when this is dropped.
/// Removing a file frees its pages, about half a millisecond for a module of 5 MB: a caller
/// with more to write can do it meanwhile, on another thread.
#[derive(Default)]
pub struct Replaced {
    /// Held for its drop, which removes the file.
    _old: Option<tempfile::TempPath>,
}

fn write_file_with(
    path: &Path,
    fill: impl FnOnce(&File) -> io::Result<()>,
) -> io::Result<Replaced> {
    let Some(path) = replaceable(path)? else {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        return fill(&file).map(|()| Replaced::default());
    };
    let tmp = temporary_beside(&path)?;
    fill(tmp.as_file())?;
    replace(tmp.into_temp_path(), &path)
}

/// The file a temporary file will replace when `path` is written, or `None` when `path` is a
/// device or a pipe (`/dev/null`, a FIFO), which is written as it is: replacing it would put a
/// regular file where the device was. A symbolic link stays: the file it leads to is replaced.
fn replaceable(path: &Path) -> io::Result<Option<PathBuf>> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Ok(None),
        Ok(_) if std::fs::symlink_metadata(path)?.is_symlink() => {
            std::fs::canonicalize(path).map(Some)
        }
        _ => Ok(Some(path.to_path_buf())),
    }
}

/// An empty temporary file in the directory of `path`, so that renaming it there is atomic.
fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
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
    builder.tempfile_in(dir).map_err(|e| {
        // The system's reason, without the random name the temporary file would have had
        // (`tempfile` appends ` at path "..."`).
        let text = e.to_string();
        let reason = text.split(" at path ").next().unwrap_or_default();
        let at = dir.display();
        io::Error::new(e.kind(), format!("cannot create a file in {at}: {reason}"))
    })
}

/// Put the finished temporary file in place of `path`; a reader sees the old file or the new
/// one, never a part. On Linux the two are exchanged and the old one removed: ext4 forces the
/// blocks of a file that replaces another by rename to be allocated at once (`auto_da_alloc`),
/// which costs as much as writing a large module, and an exchange does not.
fn replace(tmp: tempfile::TempPath, path: &Path) -> io::Result<Replaced> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        if renameat_with(CWD, &*tmp, CWD, path, RenameFlags::EXCHANGE).is_ok() {
            // The temporary name now holds the old file; dropping the path removes it.
            return Ok(Replaced { _old: Some(tmp) });
        }
        // No file there yet, or a file system that cannot exchange: a plain rename.
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(Replaced::default())
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

/// A name, quoted and escaped as LLVM's printer writes it (`printLLVMNameWithoutPrefix`):
/// bare when it does not start with a digit and holds only letters, digits, `-`, `.` and
/// `_`. A `$` would read bare too, but LLVM quotes it (clang's `@"_ZN...$_0..."`), and so
/// must a drop-in for opt, whose output tests check.
pub fn quote_name(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    push_quoted_name(&mut s, bytes);
    s
}

fn push_quoted_name(s: &mut String, bytes: &[u8]) {
    /// The bytes LLVM writes bare (after a first that is not a digit).
    const BARE: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            t[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_');
            b += 1;
        }
        t
    };
    // Without a branch a byte: C++ and Rust names run to hundreds of bytes, nearly all bare.
    let bare = bytes
        .iter()
        .fold(true, |all, &b| all & BARE[usize::from(b)]);
    if bare
        && !bytes.is_empty()
        && !bytes[0].is_ascii_digit()
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        s.push_str(text);
        return;
    }
    push_string_literal(s, bytes);
}

/// `bytes` as a string literal, as LLVM's `printEscapedString` writes one between quotes:
/// printable ASCII but `"` and `\`, the rest as `\` and two hex digits.
fn push_string_literal(s: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let escaped = |b: &u8| *b == b'"' || *b == b'\\' || !(0x20..0x7F).contains(b);
    s.reserve(bytes.len() + 2);
    s.push('"');
    // Runs of printable bytes copied whole: a quoted C++ name (one with a `$`) is hundreds
    // of bytes with no escape at all.
    let mut rest = bytes;
    while !rest.is_empty() {
        let run = rest.iter().position(escaped).unwrap_or(rest.len());
        let (printable, after) = rest.split_at(run);
        s.push_str(std::str::from_utf8(printable).expect("printable ASCII"));
        rest = after;
        if let Some((&b, after)) = rest.split_first() {
            s.push('\\');
            s.push(HEX[usize::from(b >> 4)] as char);
            s.push(HEX[usize::from(b & 15)] as char);
            rest = after;
        }
    }
    s.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_aliases_go_above_the_comments_over_the_first_function() {
        let text = "; module\n\n@v = global i32 0\n\n; Function Attrs: x\n; more\n\
                    define void @f() {\n  ret void\n}\n";
        let mut m = crate::parse(text.to_string()).unwrap();
        m.add_alias_text("@a = alias void (), ptr @f");
        assert_eq!(
            to_string(&m),
            "; module\n\n@v = global i32 0\n\n@a = alias void (), ptr @f\n\n\
             ; Function Attrs: x\n; more\ndefine void @f() {\n  ret void\n}\n"
        );
    }

    /// A string (or a summary entry) may run over lines, and what it holds may look like
    /// statements: such a text is written as it is, its metadata not numbered (a line of the
    /// string read as a node's definition was once moved out of it).
    #[test]
    fn a_string_over_lines_is_written_as_it_is() {
        let text = "@s = constant [14 x i8] c\"a\n!7 = !{!8}\nb\"\n\n\
                    define void @f() {\n  ret void\n}\n\n!llvm.ident = !{!5}\n!5 = !{!\"x\"}\n";
        let m = crate::parse(text.to_string()).unwrap();
        let mut out = Vec::new();
        write_to_as(&m, &mut out, Style::AsOpt { module_id: "m" }).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.ends_with(text), "{out}");
        assert!(crate::parse(out).is_ok());
        assert!(!statements_end_on_their_lines(b"c\"a\nb\""));
        assert!(!statements_end_on_their_lines(b"\"open"));
        assert!(statements_end_on_their_lines(b"a \"b\" \"c\"\nd\n"));
        // A summary entry over lines, one of them like a node's definition (as the fuzz
        // target wrote one).
        assert!(!statements_end_on_their_lines(
            b"^1 = gv: (name: \"f\",\n!1 = !{})\n"
        ));
        assert!(statements_end_on_their_lines(
            b"^1 = gv: (name: \"f\")\n!1 = !{}\n"
        ));
        // An entry whose parentheses open on a later line (the fuzz target's find: a
        // `define` inside it was laid out as a function).
        assert!(!statements_end_on_their_lines(
            b"^6 = \ngv: (name: \"f\",\ndefine void @f() {\n}\n)\n"
        ));
        assert!(statements_end_on_their_lines(
            b"^2 = flags: 8\n^3 = blockcount: 5\n"
        ));
        // Two statements on a line (the fuzz target's third find): written as it is too.
        let shared = "declare void @g() !2 = distinct !{!2}\n!llvm.ident = !{!3}\n!3 = !{!\"x\"}\n";
        let m = crate::parse(shared.to_string()).unwrap();
        assert!(m.header.lines_shared);
        let mut out = Vec::new();
        write_to_as(&m, &mut out, Style::AsOpt { module_id: "m" }).unwrap();
        assert!(String::from_utf8(out).unwrap().ends_with(shared));
    }

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
        assert_eq!(quote_name("caf\u{e9}".as_bytes()), "\"caf\\C3\\A9\"");
        assert_eq!(quote_name(b"x-y.z"), "x-y.z");
        assert_eq!(quote_name(b"f$_0"), "\"f$_0\"");
        assert_eq!(quote_name(b"\x01a\tbc\x7F"), "\"\\01a\\09bc\\7F\"");
    }

    /// Pieces are written whole and in order, however many there are (more than one
    /// `writev` takes), however many are empty, and however little each write takes.
    #[test]
    fn pieces_are_written_in_order_through_short_writes() {
        struct Trickle(Vec<u8>);
        impl Write for Trickle {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                let n = buf.len().min(7);
                self.0.extend_from_slice(&buf[..n]);
                Ok(n)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        // Empty, short (copied together) and long pieces, more of the short ones than one
        // copy holds and more pieces than one `writev` takes.
        let numbers: Vec<String> = (0..30_000)
            .map(|i| match i % 7 {
                0 => format!("{i},").repeat(60),
                _ => format!("{i},"),
            })
            .collect();
        let pieces: Vec<&str> = numbers
            .iter()
            .enumerate()
            .map(|(i, n)| if i % 3 == 0 { "" } else { n.as_str() })
            .collect();
        fn write_all_pieces(w: &mut impl Write, pieces: &[&str]) -> io::Result<()> {
            let source = Source::default();
            let mut out = PieceWriter::new(w, &source, None);
            for piece in pieces {
                out.put(piece.as_bytes())?;
            }
            out.flush()
        }
        let mut whole = Vec::new();
        write_all_pieces(&mut whole, &pieces).unwrap();
        let mut trickle = Trickle(Vec::new());
        write_all_pieces(&mut trickle, &pieces).unwrap();
        assert_eq!(whole, pieces.concat().into_bytes());
        assert_eq!(trickle.0, whole);
    }

    /// The pieces with the comments taken out, taken as `write_to_as` takes them: what is
    /// settled after each piece, then the rest.
    fn without_comments(pieces: &[&str]) -> String {
        let mut strip = CommentStripper::default();
        let mut out = Vec::new();
        for &piece in pieces {
            strip.push(piece.as_bytes());
            out.extend(strip.settled());
        }
        out.extend(strip.rest());
        String::from_utf8(out.concat()).unwrap()
    }

    /// Comments go, wherever the pieces are cut; strings and quoted names stay whole.
    #[test]
    fn comments_are_dropped_and_strings_kept() {
        let text = "; ModuleID = 'x'\n@s = constant [3 x i8] c\"a;b\" ; trailing\n  ; alone\n\
                    define void @\"f;g\"() {\t; after a brace\n4:                ; preds = %3\n  \
                    ret void\n}\n; last, no newline";
        let expected = "@s = constant [3 x i8] c\"a;b\"\ndefine void @\"f;g\"() {\n4:\n  \
                        ret void\n}\n";
        // Every way of cutting the text in two or three pieces gives the same output.
        for a in 0..=text.len() {
            for b in (a..=text.len()).step_by(7) {
                let pieces = [&text[..a], &text[a..b], &text[b..]];
                assert_eq!(without_comments(&pieces), expected, "cut at {a}, {b}");
            }
        }
        assert_eq!(without_comments(&["a\r\n; c\r\nb"]), "a\r\nb");
        // C-style comments too, closed as LLVM's lexer closes them, wherever a piece ends.
        let text = "a /* ; \" */b/*/ **/ */c\n/**/d";
        for a in 0..=text.len() {
            assert_eq!(
                without_comments(&[&text[..a], &text[a..]]),
                "a bc\nd",
                "cut at {a}"
            );
        }
        assert_eq!(without_comments(&["x ;c"]), "x");
        // A `/` that opens no comment (in a summary entry, which the reader steps over),
        // wherever a piece ends.
        let text = "^1 = gv: (a/b) ; c\n^2 = gv: (d/";
        for a in 0..=text.len() {
            let out = without_comments(&[&text[..a], &text[a..]]);
            assert_eq!(out, "^1 = gv: (a/b)\n^2 = gv: (d/", "cut at {a}");
        }
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
        write_atomically(&fifo, |out| out.write_all(b"; text\n")).unwrap();
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
        write_atomically(&link, |out| out.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
    }

    /// A directory that cannot take the file is named in the error, not the temporary file's
    /// random name.
    #[test]
    fn a_missing_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone").join("out.ll");
        let e = write_atomically(&path, |out| out.write_all(b"x")).unwrap_err();
        let at = dir.path().join("gone");
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(
            e.to_string()
                .starts_with(&format!("cannot create a file in {}: ", at.display())),
            "{e}"
        );
        assert!(!e.to_string().contains("at path"), "{e}");
    }

    /// The new file is in place as soon as the write returns; the old one stays, under another
    /// name, until what the write returned is dropped, and nothing else is left behind.
    #[test]
    fn the_replaced_file_goes_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.ll");
        let names = || {
            let mut names: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            names.sort();
            names
        };
        let m = crate::read::parse("; new\n".to_string()).unwrap();
        let first = write_file_as(&m, &path, Style::AsRead).unwrap();
        drop(first);
        assert_eq!(names(), ["out.ll"]);
        std::fs::write(&path, "; old\n").unwrap();
        let replaced = write_file_as(&m, &path, Style::AsRead).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"; new\n");
        let kept = names();
        drop(replaced);
        assert_eq!(names(), ["out.ll"]);
        // Where a file system can exchange two names, the old file was kept until now.
        if cfg!(target_os = "linux") {
            assert_eq!(kept.len(), 2, "{kept:?}");
        }
    }
}
