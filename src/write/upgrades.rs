//! Attributes LLVM 22's parser reads as another, written as its printer writes that other,
//! for `mergefn opt`: `nocapture` is read as `captures(none)` (LLVM 21 replaced the one by
//! the other), so opt prints a parameter `ptr nocapture %p` as `ptr captures(none) %p`,
//! which a test of opt's output checks.
//!
//! This works on the written text, a valid module without comments whose strings end on
//! their lines: the word stands alone (not part of a name, `%nocapture`, or of a string,
//! `"nocapture"`), which leaves only the attribute.

use super::TextEdit;
use crate::model::search;

/// The edits that spell `text`'s upgraded attributes as LLVM prints them.
pub fn edits(text: &[u8]) -> Vec<TextEdit> {
    let word = search::Needle::new(b"nocapture");
    let mut edits = Vec::new();
    let mut from = 0;
    while let Some(found) = word.find(&text[from..]) {
        let (start, end) = (from + found, from + found + b"nocapture".len());
        from = end;
        let before = start.checked_sub(1).map(|i| text[i]);
        let after = text.get(end).copied();
        let stands_alone = matches!(before, Some(b' ' | b'\t' | b'(' | b',' | b'{'))
            && matches!(
                after,
                None | Some(b' ' | b'\t' | b',' | b')' | b'}' | b'\r' | b'\n')
            );
        if stands_alone && !in_string(text, start) {
            edits.push(TextEdit {
                start,
                end,
                text: b"captures(none)".to_vec(),
            });
        }
    }
    edits
}

/// Whether `at` is inside a string or quoted name: strings end on their lines, so an odd
/// number of quotes stands between the line's start and `at`.
fn in_string(text: &[u8], at: usize) -> bool {
    let line_start = search::memrchr(b'\n', &text[..at]).map_or(0, |eol| eol + 1);
    search::count(b'"', &text[line_start..at]) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upgraded(text: &str) -> String {
        let edits = edits(text.as_bytes());
        String::from_utf8(super::super::edited(text.as_bytes(), &edits).unwrap_or_default())
            .unwrap()
    }

    #[test]
    fn nocapture_is_written_as_captures_none() {
        assert_eq!(
            upgraded("declare void @f(ptr nocapture, ptr nocapture readonly %p)\n"),
            "declare void @f(ptr captures(none), ptr captures(none) readonly %p)\n"
        );
        assert_eq!(
            upgraded("  call void @f(ptr nocapture %nocapture)\n"),
            "  call void @f(ptr captures(none) %nocapture)\n"
        );
    }

    #[test]
    fn names_and_strings_are_not_attributes() {
        for text in [
            "@nocapture = global i32 0\n",
            "declare void @f(ptr \"nocapture\")\n",
            "@s = constant [11 x i8] c\"a nocapture\"\n",
            "  br label %nocapture\n",
            "nocapture:\n",
        ] {
            assert!(edits(text.as_bytes()).is_empty(), "{text}");
        }
    }
}
