//! The text of a module: read into memory, or mapped from its file.

use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{
    AtomicBool, AtomicUsize, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::sync::{Condvar, Mutex, PoisonError};

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
        let valid = valid_up_to(
            &map,
            |from, len| {
                // Mapped in at once rather than a fault at a time; on an older kernel than
                // 5.14, which refuses this, the pages fault in as they are checked.
                let _ = map.advise_range(memmap2::Advice::PopulateRead, from, len);
            },
            |from, len| release(&map, from..from + len),
        );
        Some(match valid == map.len() {
            true => Ok(Source(Text::Mapped(map))),
            false => Err((map, valid)),
        })
    }

    /// Give back the memory of the pages wholly inside `range` of a mapped text of 8 MiB or
    /// more (`RELEASE_MIN`): the reader and the writer call this behind them, so a module's
    /// text is not all resident at once (it is most of what reading costs in memory). What is
    /// read there again comes back from the file, unchanged. A text read into memory stays as
    /// it is.
    pub fn release(&self, range: std::ops::Range<usize>) {
        if let Text::Mapped(map) = &self.0 {
            release(map, range);
        }
    }

    /// Map in the pages of `range` of a mapped text at once, ahead of reading them: one call
    /// to the system rather than a fault every sixteen pages.
    pub fn prefetch(&self, range: std::ops::Range<usize>) {
        if let Text::Mapped(map) = &self.0
            && map.len() >= RELEASE_MIN
            && range.start < range.end.min(map.len())
        {
            let len = range.end.min(map.len()) - range.start;
            // On a kernel older than 5.14, which refuses this, the pages fault in as read.
            let _ = map.advise_range(memmap2::Advice::PopulateRead, range.start, len);
        }
    }

    /// Runs `read`, a reader that goes through the whole text once, in order, telling its
    /// [`Progress`], while another thread maps the text in a step ahead of it and gives the
    /// text behind it back. A text that is not given back (read into memory, or under
    /// [`RELEASE_MIN`]) needs no such thread: `read` gets no progress to tell.
    pub fn read_beside<R>(&self, read: impl FnOnce(Option<&Progress>) -> R) -> R {
        if !matches!(&self.0, Text::Mapped(map) if map.len() >= RELEASE_MIN) {
            return read(None);
        }
        let progress = Progress::default();
        // The reader stays on this thread: on the main thread, what it allocates grows the
        // allocator's main heap, where a thread's heap grows by a call to the system for
        // each few pages (harfbuzz-O0: a fifth of the top level's time). The thread beside
        // it is a thread of its own, not one of the pool's, which may all be busy: the reader
        // would wait for one at the end.
        std::thread::scope(|scope| {
            let beside =
                std::thread::Builder::new().spawn_scoped(scope, || self.keep_ahead(&progress));
            let _finished = Finished(&progress);
            match beside {
                Ok(_) => read(Some(&progress)),
                // No thread to be had: the text is mapped in as it is read, and given back
                // at the end.
                Err(_) => {
                    let result = read(None);
                    self.release(0..self.len());
                    result
                }
            }
        })
    }

    /// The thread beside a reader ([`Source::read_beside`]): maps in the step the reader is
    /// in and the next, gives back the steps behind it, and waits for it to reach another.
    fn keep_ahead(&self, progress: &Progress) {
        let (mut mapped, mut released) = (0, 0);
        loop {
            let done = progress.done.load(Acquire);
            let at = progress.at.load(Acquire);
            let behind = match done {
                true => self.len(),
                false => at / RELEASE_STEP * RELEASE_STEP,
            };
            if behind > released {
                self.release(released..behind);
                released = behind;
            }
            if done {
                return;
            }
            let ahead = ((at / RELEASE_STEP + 2) * RELEASE_STEP).min(self.len());
            if mapped < ahead {
                self.prefetch(mapped.max(released)..ahead);
                mapped = ahead;
                continue;
            }
            let held = progress
                .moved
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let step = progress.at.load(Acquire) / RELEASE_STEP;
            if !progress.done.load(Acquire) && step == at / RELEASE_STEP {
                drop(progress.wake.wait(held));
            }
        }
    }

    /// Where `piece` starts in the text, if it is a slice of it.
    pub fn offset_of(&self, piece: &[u8]) -> Option<usize> {
        let base = self.as_ptr() as usize;
        let at = piece.as_ptr() as usize;
        (at >= base && at + piece.len() <= base + self.len()).then(|| at - base)
    }
}

/// Gives back the text behind a reader that goes forward through it ([`Source::release`]),
/// a step at a time: one call to the system per [`RELEASE_STEP`] bytes, not one per body.
/// What is still pending goes when it is dropped.
pub struct ReleaseBehind<'a> {
    source: &'a Source,
    from: usize,
    to: usize,
}

impl<'a> ReleaseBehind<'a> {
    pub fn new(source: &'a Source) -> ReleaseBehind<'a> {
        ReleaseBehind {
            source,
            from: 0,
            to: 0,
        }
    }

    /// `range` has been read and is not needed again soon. Ranges read one after another
    /// (bodies, headers) are given back together, with what lies between them, which was read
    /// before (the top level) or is read by another thread (a large body: it is mapped in
    /// again).
    pub fn read(&mut self, range: std::ops::Range<usize>) {
        if self.from == self.to || range.start < self.to {
            self.flush();
            self.from = range.start;
        }
        self.to = range.end.max(self.to);
        if self.to - self.from >= RELEASE_STEP {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.from < self.to {
            self.source.release(self.from..self.to);
        }
        self.from = self.to;
    }
}

impl Drop for ReleaseBehind<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// How far a reader that goes through the whole text in order on one thread (the top level)
/// has got, told to a thread beside it that maps the text in ahead of it and gives it back
/// behind it ([`Source::read_beside`]): the reader neither waits for the system to map pages
/// in nor gives them back itself (harfbuzz-O0, 27 MB: a fifth of the top level's time).
#[derive(Default)]
pub struct Progress {
    at: AtomicUsize,
    done: AtomicBool,
    /// Held to wait for, and to tell of, a new step reached or the end.
    moved: Mutex<()>,
    wake: Condvar,
}

impl Progress {
    /// Everything before `at` has been read.
    pub fn read_up_to(&self, at: usize) {
        let before = self.at.swap(at, Release);
        if before / RELEASE_STEP != at / RELEASE_STEP {
            self.tell();
        }
    }

    fn tell(&self) {
        let _held = self.moved.lock().unwrap_or_else(PoisonError::into_inner);
        self.wake.notify_one();
    }
}

/// Tells the thread beside a reader that it is done, however it ends.
struct Finished<'a>(&'a Progress);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.done.store(true, Release);
        self.0.tell();
    }
}

/// Gives back the whole text each time [`RELEASE_STEP`] bytes of it have been read here and
/// there (bodies read again, headers of the members of a class), by a stage that reads in no
/// order: the text is then never all resident, at the cost of mapping in again, now and then,
/// a page still in use. One budget may be shared by threads.
#[derive(Default)]
pub struct TextBudget {
    read: AtomicUsize,
}

impl TextBudget {
    /// `bytes` more bytes of `source` have been read, in one place: at least the pages the
    /// system maps in around a page read (Linux's fault-around: 64 KiB).
    pub fn read(&self, source: &Source, bytes: usize) {
        let before = self.read.fetch_add(bytes.max(FAULT_AROUND), Relaxed);
        let after = before + bytes.max(FAULT_AROUND);
        if before / RELEASE_STEP != after / RELEASE_STEP {
            source.release(0..source.len());
        }
    }

    /// Reading is done: give back what was read since the text was last given back.
    pub fn give_back(&self, source: &Source) {
        if self.read.load(Relaxed) % RELEASE_STEP != 0 {
            source.release(0..source.len());
        }
    }
}

const FAULT_AROUND: usize = 64 << 10;

/// How much text read is given back at once.
pub const RELEASE_STEP: usize = 512 << 10;
/// Below this size a mapped text is not given back: it is a small part of what reading
/// costs in memory (the model, the program), and mapping pages in again costs time (about a
/// tenth more to merge harfbuzz-O0, 27 MB: each page is mapped in by each pass over the text).
pub const RELEASE_MIN: usize = 8 << 20;

/// [`Source::release`] on a mapping.
fn release(map: &memmap2::Mmap, range: std::ops::Range<usize>) {
    if map.len() < RELEASE_MIN {
        return;
    }
    let start = range.start.next_multiple_of(PAGE);
    let end = match range.end >= map.len() {
        true => map.len(),
        false => range.end / PAGE * PAGE,
    };
    if start < end {
        // SAFETY: the mapping is private and never written, so dropping its pages loses
        // nothing: a later read maps the file's bytes in again (the file does not change
        // while mergefn runs, as `Source::map` assumes).
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// The page size `Source::release` rounds to; where pages are larger, the system rounds
/// further, which at worst gives back a page still to be read (it is mapped in again).
const PAGE: usize = 4096;

/// Below this many bytes, checking in one piece is faster than starting a second thread.
const UTF8_WORTH_THREADS: usize = 1 << 20;

/// How many of `bytes` are valid UTF-8 from the start: all of them when the text is. A large
/// text is checked in two halves on two threads, each in steps of [`UTF8_STEP`] bytes given to
/// `prepare` first (to map them in) and to `done` after (to give their memory back): every cut
/// falls before a byte that starts a character, so the text is valid exactly when every step
/// is, and an error in a step counts from its start.
fn valid_up_to(
    bytes: &[u8],
    prepare: impl Fn(usize, usize) + Sync,
    done: impl Fn(usize, usize) + Sync,
) -> usize {
    let check = |from: usize, to: usize| {
        let mut at = from;
        while at < to {
            let end = match char_start_after(bytes, at + UTF8_STEP) {
                Some(cut) if cut < to => cut,
                _ => to,
            };
            prepare(at, end - at);
            let valid = match std::str::from_utf8(&bytes[at..end]) {
                Ok(_) => end - at,
                Err(e) => e.valid_up_to(),
            };
            done(at, end - at);
            if valid < end - at {
                return at + valid - from;
            }
            at = end;
        }
        to - from
    };
    let len = bytes.len();
    match char_start_after(bytes, len / 2) {
        Some(cut) if len >= UTF8_WORTH_THREADS && cut < len => {
            match rayon::join(|| check(0, cut), || check(cut, len)) {
                (first, _) if first < cut => first,
                (_, second) => cut + second,
            }
        }
        _ => check(0, len),
    }
}

/// The first place from `at` where a character may start (a byte that is not
/// 0b10xx_xxxx), looking at most three bytes on, as a character has at most three bytes after
/// its first; `None` if there is none (the text is not UTF-8 there, and is checked uncut).
fn char_start_after(bytes: &[u8], at: usize) -> Option<usize> {
    (at..at + 4).find(|&i| bytes.get(i).is_none_or(|&b| b & 0xC0 != 0x80))
}

/// How much of the text is checked at a time: mapped in, checked, given back.
const UTF8_STEP: usize = 1 << 20;

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

    /// Pages given back read the same when read again, however the text is walked: forward
    /// beside a reader, forward behind a reader, by a budget shared by threads, or at each step of the check of UTF-8.
    #[test]
    fn a_text_given_back_reads_the_same() {
        let line = "define void @f() {\n  ret void\n}\n\u{e9}\n";
        let text = line.repeat(RELEASE_MIN / line.len() + 1000);
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
        let source = Source::map(&file).unwrap().unwrap();
        assert!(source.len() >= RELEASE_MIN);
        let read = |progress: Option<&Progress>| {
            for at in (0..source.len()).step_by(4096) {
                progress.unwrap().read_up_to(at);
                assert_eq!(source.as_bytes()[at], text.as_bytes()[at]);
            }
        };
        source.read_beside(read);
        let mut behind = ReleaseBehind::new(&source);
        for at in (0..source.len()).step_by(4096) {
            behind.read(at..at + 4096);
        }
        drop(behind);
        let budget = TextBudget::default();
        rayon::join(
            || (0..64).for_each(|_| budget.read(&source, 100)),
            || (0..64).for_each(|_| budget.read(&source, 100)),
        );
        source.release(5..source.len() - 5);
        assert_eq!(&source[..], text);
    }

    /// The halves and their steps agree with one check of the whole text, wherever a cut
    /// falls in a character and wherever the text stops being UTF-8.
    #[test]
    fn halves_find_what_one_check_finds() {
        let whole = |b: &[u8]| std::str::from_utf8(b).map_or_else(|e| e.valid_up_to(), |_| b.len());
        let mut text = "a\u{e9}\u{20ac}\u{1f600}"
            .repeat(3 * UTF8_STEP / 10)
            .into_bytes();
        for shift in 0..4 {
            text.insert(0, b'x');
            assert_eq!(
                valid_up_to(&text, |_, _| {}, |_, _| {}),
                text.len(),
                "{shift}"
            );
            let half = text.len() / 2;
            let around = |cut: usize| cut - 1..cut + 4;
            let cuts = [half, UTF8_STEP, half + UTF8_STEP].into_iter();
            for at in cuts.flat_map(around).chain([1, text.len() - 1]) {
                let mut bad = text.clone();
                bad[at] = 0xFF;
                assert_eq!(
                    valid_up_to(&bad, |_, _| {}, |_, _| {}),
                    whole(&bad),
                    "{shift} {at}"
                );
                let mut cut_short = text.clone();
                cut_short.truncate(at);
                assert_eq!(
                    valid_up_to(&cut_short, |_, _| {}, |_, _| {}),
                    whole(&cut_short)
                );
            }
        }
    }
}
