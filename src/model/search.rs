//! Byte searches in the text: `memchr`'s, by its SSE2 routines on x86-64.
//!
//! `memchr`'s own entry points first ask the processor whether it has AVX2, through the
//! standard library's feature detection: a dozen `cpuid` instructions, each trapped by a
//! virtual machine (about 7 µs each on the development machine), 0.1 ms at the start of every
//! run, 7% of reading a small module. SSE2 is part of x86-64, so nothing need be asked, and
//! the large modules read as fast with it (sqlite3-O0, stlprog-O0: equal times). Elsewhere
//! (AArch64's NEON is part of the architecture too) `memchr`'s entry points ask nothing.

#[cfg(target_arch = "x86_64")]
mod imp {
    use memchr::arch::x86_64::sse2::memchr::{One, Three, Two};
    use memchr::arch::x86_64::sse2::packedpair;

    /// The first `a` in `text`.
    #[inline]
    pub fn memchr(a: u8, text: &[u8]) -> Option<usize> {
        match One::new(a) {
            Some(s) => s.find(text),
            None => memchr::memchr(a, text),
        }
    }

    /// The first `a` or `b` in `text`.
    #[inline]
    pub fn memchr2(a: u8, b: u8, text: &[u8]) -> Option<usize> {
        match Two::new(a, b) {
            Some(s) => s.find(text),
            None => memchr::memchr2(a, b, text),
        }
    }

    /// The first `a`, `b` or `c` in `text`.
    #[inline]
    pub fn memchr3(a: u8, b: u8, c: u8, text: &[u8]) -> Option<usize> {
        match Three::new(a, b, c) {
            Some(s) => s.find(text),
            None => memchr::memchr3(a, b, c, text),
        }
    }

    /// The last `a` in `text`.
    #[inline]
    pub fn memrchr(a: u8, text: &[u8]) -> Option<usize> {
        match One::new(a) {
            Some(s) => s.rfind(text),
            None => memchr::memrchr(a, text),
        }
    }

    /// How many times `a` occurs in `text`.
    pub fn count(a: u8, text: &[u8]) -> usize {
        match One::new(a) {
            Some(s) => s.count(text),
            None => memchr::memchr_iter(a, text).count(),
        }
    }

    /// A searcher for a word of two bytes or more, built once and used for many texts.
    pub struct Needle {
        needle: &'static [u8],
        vector: Option<packedpair::Finder>,
    }

    impl Needle {
        pub fn new(needle: &'static [u8]) -> Needle {
            Needle {
                needle,
                vector: packedpair::Finder::new(needle),
            }
        }

        /// Where the word first starts in `text`.
        pub fn find(&self, text: &[u8]) -> Option<usize> {
            match &self.vector {
                Some(v) if text.len() >= v.min_haystack_len() => v.find(text, self.needle),
                _ => text
                    .windows(self.needle.len())
                    .position(|w| w == self.needle),
            }
        }
    }

    /// A searcher for two bytes in a row, built once and used for many texts.
    pub struct Pair {
        needle: [u8; 2],
        vector: Option<packedpair::Finder>,
    }

    impl Pair {
        pub fn new(needle: [u8; 2]) -> Pair {
            Pair {
                needle,
                vector: packedpair::Finder::new(&needle),
            }
        }

        /// Where the pair first starts in `text`.
        pub fn find(&self, text: &[u8]) -> Option<usize> {
            match &self.vector {
                Some(v) if text.len() >= v.min_haystack_len() => v.find(text, &self.needle),
                // A text shorter than a vector, or no SSE2 (never, on x86-64).
                _ => text.windows(2).position(|w| w == self.needle),
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    pub use memchr::{memchr, memchr2, memchr3, memrchr};

    /// A searcher for a word of two bytes or more, built once and used for many texts.
    pub struct Needle(memchr::memmem::Finder<'static>);

    impl Needle {
        pub fn new(needle: &'static [u8]) -> Needle {
            Needle(memchr::memmem::Finder::new(needle))
        }

        /// Where the word first starts in `text`.
        pub fn find(&self, text: &[u8]) -> Option<usize> {
            self.0.find(text)
        }
    }

    /// How many times `a` occurs in `text`.
    pub fn count(a: u8, text: &[u8]) -> usize {
        memchr::memchr_iter(a, text).count()
    }

    /// A searcher for two bytes in a row, built once and used for many texts.
    pub struct Pair(memchr::memmem::Finder<'static>);

    impl Pair {
        pub fn new(needle: [u8; 2]) -> Pair {
            Pair(memchr::memmem::Finder::new(&needle).into_owned())
        }

        /// Where the pair first starts in `text`.
        pub fn find(&self, text: &[u8]) -> Option<usize> {
            self.0.find(text)
        }
    }
}

pub use imp::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_agree_with_a_plain_scan() {
        let text: Vec<u8> = (0..300u32)
            .map(|i| b"ab\n}\"(;x"[(i * 7 % 11 % 8) as usize])
            .collect();
        for start in [0, 1, 15, 16, 17, 100, 290, 299, 300] {
            let t = &text[start..];
            let plain = |pred: &dyn Fn(u8) -> bool| t.iter().position(|&b| pred(b));
            assert_eq!(memchr(b'x', t), plain(&|b| b == b'x'));
            assert_eq!(memchr(b'z', t), None);
            assert_eq!(memchr2(b'"', b';', t), plain(&|b| b == b'"' || b == b';'));
            assert_eq!(
                memchr3(b'(', b'}', b'\n', t),
                plain(&|b| matches!(b, b'(' | b'}' | b'\n'))
            );
            assert_eq!(count(b'a', t), t.iter().filter(|&&b| b == b'a').count());
            assert_eq!(memrchr(b'x', t), t.iter().rposition(|&b| b == b'x'));
            for needle in [&b"\n}\"("[..], b"ab\n", b"zzz"] {
                assert_eq!(
                    Needle::new(needle).find(t),
                    t.windows(needle.len()).position(|w| w == needle),
                    "{needle:?} from {start}"
                );
            }
            for needle in [*b"\n}", *b"x\"", *b"zz"] {
                assert_eq!(
                    Pair::new(needle).find(t),
                    t.windows(2).position(|w| w == needle),
                    "{needle:?} from {start}"
                );
            }
        }
    }
}
