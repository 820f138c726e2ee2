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
    /// Map `file` and read its bytes with `read`, which goes through them once, in order,
    /// telling its [`Progress`], while a thread beside it checks that they are UTF-8 (and, on
    /// a text given back, maps it in ahead of the reader and gives it back behind it, as
    /// [`Source::read_beside`]): the check costs the reader no pass of its own. `None` when
    /// the file cannot be mapped (a pipe, an empty file): read it instead. The text and what
    /// `read` made if it is UTF-8; else the mapping, with the byte offset where it stops
    /// being UTF-8 (what `read` made of bytes that are not text is dropped).
    pub fn map_reading<R>(
        file: &std::fs::File,
        read: impl FnOnce(&[u8], Option<&Progress>) -> R,
    ) -> Option<Result<(Source, R), (memmap2::Mmap, usize)>> {
        // SAFETY: the file is mapped read-only and private; mergefn's inputs are the files a
        // build wrote before calling it, and like a linker it assumes they do not change
        // while it reads them (a change could make the text differ between two reads).
        let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
        if map.is_empty() {
            return None;
        }
        let (result, valid) = if map.len() < UTF8_WORTH_THREADS {
            // Checked first: a text that is not UTF-8 is not read at all.
            let mut check = Utf8Check::default();
            check.up_to(&map, map.len());
            match check.valid_up_to(map.len()) {
                valid if valid < map.len() => return Some(Err((map, valid))),
                valid => (read(&map, None), valid),
            }
        } else {
            let given_back = (map.len() >= RELEASE_MIN).then_some(&map);
            run_beside(&map, given_back, Some(Utf8Check::default()), |progress| {
                read(&map, progress)
            })
        };
        Some(match valid == map.len() {
            true => Ok((Source(Text::Mapped(map)), result)),
            false => Err((map, valid)),
        })
    }

    /// Give back the memory of the pages wholly inside `range` of a mapped text of 8 MiB or
    /// more (`RELEASE_MIN`), and of those up to 2 MiB before it (`FOLIO_MAX`): the reader and the
    /// writer call this behind them, so a module's text is not all resident at once (it is
    /// most of what reading costs in memory). What is read there again comes back from the
    /// file, unchanged. A text read into memory stays as it is.
    pub fn release(&self, range: std::ops::Range<usize>) {
        if let Text::Mapped(map) = &self.0 {
            release(map, range);
        }
    }

    /// Runs `read`, a reader that goes through the whole text once, in order, telling its
    /// [`Progress`], while another thread maps the text in a step ahead of it and gives the
    /// text behind it back. A text that is not given back (read into memory, or under
    /// `RELEASE_MIN`) needs no such thread: `read` gets no progress to tell.
    pub fn read_beside<R>(&self, read: impl FnOnce(Option<&Progress>) -> R) -> R {
        match &self.0 {
            Text::Mapped(map) if map.len() >= RELEASE_MIN => {
                run_beside(map, Some(map), None, read).0
            }
            _ => read(None),
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

/// How far a reader that goes through the whole text in order on one thread (the top level,
/// the writer) has got, told to a thread beside it that maps the text in ahead of it and gives
/// it back behind it ([`Source::read_beside`]): the reader neither waits for the system to map
/// pages in nor gives them back itself (harfbuzz-O0, 27 MB: a fifth of the top level's time),
/// unless that thread falls behind (it has no core: the pool's threads spin a while once
/// their work is done), when the reader gives back what lies more than `MAX_LAG` behind it
/// (stlprog-O0 merge, its text written that way: peak up to 22 MiB, 16 otherwise; text the
/// thread beside has yet to check is then mapped in again to be checked).
pub struct Progress<'m> {
    at: AtomicUsize,
    done: AtomicBool,
    /// Held to wait for, and to tell of, a new step reached or the end.
    moved: Mutex<()>,
    wake: Condvar,
    /// The mapping given back, if any.
    given_back: Option<&'m memmap2::Mmap>,
    /// Given back up to here by the thread beside the reader, and by the reader itself.
    given: AtomicUsize,
    taken_back: AtomicUsize,
}

impl<'m> Progress<'m> {
    fn new(given_back: Option<&'m memmap2::Mmap>) -> Progress<'m> {
        Progress {
            at: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            moved: Mutex::new(()),
            wake: Condvar::new(),
            given_back,
            given: AtomicUsize::new(0),
            taken_back: AtomicUsize::new(0),
        }
    }

    /// Everything before `at` has been read.
    pub fn read_up_to(&self, at: usize) {
        // Only the reader writes `at`: a load and a store, not a locked exchange, which cost
        // the top level as much as a cache miss at each statement.
        let before = self.at.load(Relaxed);
        self.at.store(at, Release);
        if before / RELEASE_STEP == at / RELEASE_STEP {
            return;
        }
        self.tell();
        if let Some(map) = self.given_back {
            let behind = at / RELEASE_STEP * RELEASE_STEP;
            let from = self.given.load(Acquire).max(self.taken_back.load(Relaxed));
            if behind > from + MAX_LAG {
                release(map, from..behind);
                self.taken_back.store(behind, Relaxed);
            }
        }
    }

    fn tell(&self) {
        let _held = self.moved.lock().unwrap_or_else(PoisonError::into_inner);
        self.wake.notify_one();
    }
}

/// How much text read may stay mapped in behind a reader whose thread beside it falls behind.
const MAX_LAG: usize = 2 * RELEASE_STEP;

/// Tells the thread beside a reader that it is done, however it ends.
struct Finished<'a, 'm>(&'a Progress<'m>);

impl Drop for Finished<'_, '_> {
    fn drop(&mut self) {
        self.0.done.store(true, Release);
        self.0.tell();
    }
}

/// Runs `read` over `bytes` with a thread beside it ([`Source::read_beside`]) that gives
/// back `given_back` (a mapping of `bytes`) behind the reader, mapping it in ahead of it, and
/// makes `check` of all of `bytes`; returns what `read` made and how many bytes are valid
/// UTF-8 (all of them, unchecked). The reader stays on this thread: on the main thread, what
/// it allocates grows the allocator's main heap, where a thread's heap grows by a call to the
/// system for each few pages (harfbuzz-O0: a fifth of the top level's time). The thread beside
/// it is a thread of its own, not one of the pool's, which may all be busy: the reader would
/// wait for one at the end.
fn run_beside<R>(
    bytes: &[u8],
    given_back: Option<&memmap2::Mmap>,
    check: Option<Utf8Check>,
    read: impl FnOnce(Option<&Progress>) -> R,
) -> (R, usize) {
    let progress = Progress::new(given_back);
    let beside = Beside {
        bytes,
        given_back,
        check,
    };
    std::thread::scope(|scope| {
        let thread =
            std::thread::Builder::new().spawn_scoped(scope, || beside.keep_ahead(&progress));
        let finished = Finished(&progress);
        let result = match &thread {
            Ok(_) => read(Some(&progress)),
            Err(_) => read(None),
        };
        drop(finished);
        let valid = match thread {
            Ok(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: the text was mapped in as it was read; it is checked and
            // given back now.
            Err(_) => beside.keep_ahead(&progress),
        };
        (result, valid)
    })
}

/// The thread beside a reader ([`run_beside`]).
#[derive(Clone, Copy)]
struct Beside<'b> {
    bytes: &'b [u8],
    given_back: Option<&'b memmap2::Mmap>,
    check: Option<Utf8Check>,
}

impl Beside<'_> {
    /// Maps in the step the reader is in and the next and checks them, gives back (once
    /// checked) the steps behind it, and waits for it to reach another; once the reader is
    /// done, checks and gives back the rest. Returns how many bytes are valid UTF-8.
    fn keep_ahead(mut self, progress: &Progress<'_>) -> usize {
        let len = self.bytes.len();
        let (mut mapped, mut released) = (0, 0);
        loop {
            let done = progress.done.load(Acquire);
            let at = progress.at.load(Acquire).min(len);
            let behind = match done {
                true => len,
                false => at / RELEASE_STEP * RELEASE_STEP,
            };
            while released < behind {
                let to = behind.min(released + RELEASE_STEP);
                if mapped < to {
                    self.map_in(released.max(mapped)..to);
                    mapped = to;
                }
                self.check_up_to(to);
                self.give_back(released..to);
                released = to;
                progress.given.store(released, Release);
            }
            if done {
                return self.check.map_or(len, |check| check.valid_up_to(len));
            }
            let ahead = ((at / RELEASE_STEP + 2) * RELEASE_STEP).min(len);
            if mapped < ahead {
                self.map_in(mapped.max(released)..ahead);
                mapped = ahead;
                self.check_up_to(ahead);
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

    fn map_in(&self, range: std::ops::Range<usize>) {
        if let Some(map) = self.given_back
            && range.start < range.end
        {
            // Mapped in at once rather than a fault every sixteen pages; on an older kernel
            // than 5.14, which refuses this, the pages fault in as they are read.
            let _ = map.advise_range(
                memmap2::Advice::PopulateRead,
                range.start,
                range.end - range.start,
            );
        }
    }

    fn check_up_to(&mut self, to: usize) {
        if let Some(check) = &mut self.check {
            check.up_to(self.bytes, to);
        }
    }

    fn give_back(&self, range: std::ops::Range<usize>) {
        if let Some(map) = self.given_back {
            release(map, range);
        }
    }
}

/// Checks that bytes are UTF-8 from their start, a part at a time: every cut falls before a
/// byte that starts a character, so the bytes are valid exactly when every part is, and an
/// error in a part counts from its start.
#[derive(Clone, Copy, Default)]
struct Utf8Check {
    /// Checked up to here.
    at: usize,
    /// Where the bytes stop being UTF-8, once found.
    invalid: Option<usize>,
}

impl Utf8Check {
    /// Check on to the first place from `to` where a character may start.
    fn up_to(&mut self, bytes: &[u8], to: usize) {
        if self.invalid.is_some() || self.at >= to {
            return;
        }
        let end = match char_start_after(bytes, to) {
            Some(cut) if cut < bytes.len() => cut,
            _ => bytes.len(),
        };
        if let Err(e) = std::str::from_utf8(&bytes[self.at..end]) {
            self.invalid = Some(self.at + e.valid_up_to());
        }
        self.at = end;
    }

    /// How many of the `len` bytes are UTF-8, once all are checked.
    fn valid_up_to(&self, len: usize) -> usize {
        self.invalid.unwrap_or(len)
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
    /// system maps in around a page read (Linux's fault-around: 64 KiB; a whole folio of the
    /// page cache, up to 2 MiB, on a recent kernel and a filesystem with large folios, which is
    /// not counted: giving the text back at each read left merging's peak as it was).
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

/// Unmaps the program's read-only segments (its code and constants) from the process: they
/// are pages of its file, which the system maps in again, from its cache, when they are next
/// run or read. A fault on one maps the 64 KiB around it (the kernel's fault-around), so
/// after any run most of the program's 4 MB is resident, counted in its peak although most of
/// it is the top level's or the bodies' code, not run again: unmapped before the bodies are
/// read and at each stage after, eigenprog-O0's merge peak is 28.9 MiB rather than 29.8 (the
/// program's pages at the peak 2.8 MiB rather than 3.7).
pub(crate) fn release_program_code() {
    #[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
    {
        /// Called for each loaded object; the first is the program itself, whose segments
        /// without write access it unmaps, then it stops (`1`).
        unsafe extern "C" fn unmap_read_only(
            info: *mut libc::dl_phdr_info,
            _size: libc::size_t,
            _data: *mut libc::c_void,
        ) -> libc::c_int {
            // SAFETY: glibc hands a valid `dl_phdr_info` whose `dlpi_phdr` points to
            // `dlpi_phnum` program headers.
            let info = unsafe { &*info };
            let headers =
                unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum.into()) };
            // SAFETY: `sysconf` takes no pointer.
            let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
                size if size > 0 => size as u64,
                _ => return 1,
            };
            for h in headers {
                if h.p_type != libc::PT_LOAD || h.p_flags & libc::PF_W != 0 {
                    continue;
                }
                // The whole pages inside the segment: a page shared with a writable one keeps
                // what was written to it.
                let at = info.dlpi_addr + h.p_vaddr;
                let start = at.next_multiple_of(page);
                let end = (at + h.p_memsz) / page * page;
                if start < end {
                    // SAFETY: the range is the program's own read-only mapping, never
                    // written (Rust's code has no text relocations), whose pages the system
                    // reads again from its file when they are next used: what they hold is
                    // unchanged.
                    unsafe {
                        libc::madvise(
                            start as usize as *mut libc::c_void,
                            (end - start) as usize,
                            libc::MADV_DONTNEED,
                        )
                    };
                }
            }
            1
        }
        // SAFETY: the callback only reads what glibc hands it.
        unsafe { libc::dl_iterate_phdr(Some(unmap_read_only), std::ptr::null_mut()) };
    }
}

/// Below this size a mapped text is not given back: it is a small part of what reading
/// costs in memory (the model, the program), and mapping pages in again costs time (about a
/// tenth more to merge harfbuzz-O0, 27 MB: each page is mapped in by each pass over the text).
pub const RELEASE_MIN: usize = 8 << 20;

/// The largest block of a file's pages the system maps in at once. Linux (6.18 here) maps in
/// the whole folio of its page cache around a page read (older kernels the 64 KiB around it),
/// and a filesystem with large folios (ext4, XFS) keeps a file's text in folios of up to 2 MiB
/// (a byte read here mapped 1 MiB in): reading on past a range given back maps in again the
/// part of its folio behind, which no later release covered (eigenprog-O0 merge on ext4: 6.5
/// MiB of text resident while its bodies were read, 2 MiB on tmpfs; peak 33.2 -> 31.8 MiB with
/// this, 29.2 on tmpfs).
const FOLIO_MAX: usize = 2 << 20;

/// [`Source::release`] on a mapping: `range`, and up to [`FOLIO_MAX`] behind it, which a
/// read of `range` may have mapped in again (every caller gives back what lies behind a
/// reader, or the whole text).
fn release(map: &memmap2::Mmap, range: std::ops::Range<usize>) {
    if map.len() < RELEASE_MIN {
        return;
    }
    let start = range.start.saturating_sub(FOLIO_MAX).next_multiple_of(PAGE);
    let end = match range.end >= map.len() {
        true => map.len(),
        false => range.end / PAGE * PAGE,
    };
    if start < end {
        // SAFETY: the mapping is private and never written, so dropping its pages loses
        // nothing: a later read maps the file's bytes in again (the file does not change
        // while mergefn runs, as `Source::map_reading` assumes).
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// The page size `Source::release` rounds to; where pages are larger, the system rounds
/// further, which at worst gives back a page still to be read (it is mapped in again).
const PAGE: usize = 4096;

/// Below this many bytes, the text is checked in one piece before it is read: a thread
/// beside the reader costs more.
const UTF8_WORTH_THREADS: usize = 1 << 20;

/// The first place from `at` where a character may start (a byte that is not
/// 0b10xx_xxxx), looking at most three bytes on, as a character has at most three bytes after
/// its first; `None` if there is none (the text is not UTF-8 there, and is checked uncut).
fn char_start_after(bytes: &[u8], at: usize) -> Option<usize> {
    (at..at + 4).find(|&i| bytes.get(i).is_none_or(|&b| b & 0xC0 != 0x80))
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
            // SAFETY: checked to be UTF-8 in `Source::map_reading`, and the mapping is read-only.
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
    /// beside a reader (while the thread beside it checks it), forward behind a reader, by a
    /// budget shared by threads.
    #[test]
    fn a_text_given_back_reads_the_same() {
        let line = "define void @f() {\n  ret void\n}\n\u{e9}\n";
        let text = line.repeat(RELEASE_MIN / line.len() + 1000);
        let file = file_of(text.as_bytes());
        let walk = |bytes: &[u8], progress: Option<&Progress>| {
            for at in (0..bytes.len()).step_by(4096) {
                progress.unwrap().read_up_to(at);
                assert_eq!(bytes[at], text.as_bytes()[at]);
            }
        };
        let (source, ()) = Source::map_reading(&file, walk).unwrap().unwrap();
        assert!(source.len() >= RELEASE_MIN);
        source.read_beside(|progress| walk(source.as_bytes(), progress));
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

    fn file_of(bytes: &[u8]) -> std::fs::File {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, bytes).unwrap();
        file
    }

    /// Checked a step at a time, beside a reader or after it, a text is found to be UTF-8 or
    /// not where one check of the whole finds it, wherever a step's end falls in a character
    /// and wherever the text stops being UTF-8; what the reader made of a text that is not is
    /// dropped.
    #[test]
    fn steps_find_what_one_check_finds() {
        let whole = |b: &[u8]| std::str::from_utf8(b).map_or_else(|e| e.valid_up_to(), |_| b.len());
        let chars = "a\u{e9}\u{20ac}\u{1f600}";
        let mut text = chars.repeat(5 * RELEASE_STEP / chars.len()).into_bytes();
        for shift in 0..4 {
            text.insert(0, b'x');
            let mut check = Utf8Check::default();
            for to in (0..text.len()).step_by(RELEASE_STEP) {
                check.up_to(&text, to);
            }
            check.up_to(&text, text.len());
            assert_eq!(check.valid_up_to(text.len()), text.len(), "{shift}");
            let around = |cut: usize| cut - 1..cut + 4;
            let cuts = [RELEASE_STEP, 2 * RELEASE_STEP, 4 * RELEASE_STEP + 1].into_iter();
            for at in cuts.flat_map(around).chain([1, text.len() - 1]) {
                let mut bad = text.clone();
                bad[at] = 0xFF;
                let mut cut_short = text.clone();
                cut_short.truncate(at);
                for bytes in [&bad, &cut_short] {
                    let mut check = Utf8Check::default();
                    for to in (0..bytes.len()).step_by(RELEASE_STEP).skip(1) {
                        check.up_to(bytes, to - 1);
                    }
                    check.up_to(bytes, bytes.len());
                    assert_eq!(check.valid_up_to(bytes.len()), whole(bytes), "{shift} {at}");
                }
            }
        }
        // Beside a reader that reads it all, and one that stops at once.
        for stop in [false, true] {
            let mut bad = text.clone();
            bad[3 * RELEASE_STEP + 2] = 0xFF;
            let read = |bytes: &[u8], progress: Option<&Progress>| {
                for at in (0..bytes.len()).step_by(4096).take_while(|_| !stop) {
                    progress.unwrap().read_up_to(at);
                }
            };
            let found = Source::map_reading(&file_of(&bad), read).unwrap();
            assert_eq!(found.err().map(|(_, at)| at), Some(whole(&bad)), "{stop}");
            assert!(Source::map_reading(&file_of(&text), read).unwrap().is_ok());
        }
    }
}
