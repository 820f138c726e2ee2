//! Errors of the reader: where (line and column), what was found, what was expected.

use crate::model::Span;
use std::fmt;

/// Why a module could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The input is LLVM bitcode, not text.
    Bitcode,
    /// The text is not valid UTF-8 at this place.
    NotUtf8 { line: u32, col: u32 },
    /// The input is larger than the 1 GiB the model can index.
    TooLarge,
    /// A syntax or name-resolution error (boxed: the reader passes results up through every
    /// rule, and a small error keeps them small).
    Syntax(Box<Diagnostic>),
    /// A name used and never defined (a value, type, comdat, metadata node, or an intrinsic
    /// LLVM does not know or that is not called): LLVM reports these once the whole module
    /// is read, so any syntax error comes first.
    Undefined(Box<Diagnostic>),
    /// A module that reads, but that LLVM's verifier refuses (`opt-22` says "input module is
    /// broken!" without a place): a value used where its definition does not dominate the
    /// use, a phi node whose entries do not match its block's predecessors, a branch to the
    /// entry block, alias scopes that are not lists of scopes and domains (`read::verify`).
    /// LLVM reports these once the module is read, after any other error.
    Invalid(Box<Diagnostic>),
}

impl ReadError {
    /// A [`ReadError::Syntax`] error about the text of `span` (at least one byte of it is shown).
    pub(crate) fn at(src: &[u8], span: Span, message: impl Into<String>) -> ReadError {
        ReadError::Syntax(Diagnostic::of_span(src, span, message.into()))
    }

    /// An [`ReadError::Undefined`] name at `span`.
    pub(crate) fn undefined(src: &[u8], span: Span, message: impl Into<String>) -> ReadError {
        ReadError::Undefined(Diagnostic::of_span(src, span, message.into()))
    }

    /// An [`ReadError::Invalid`] body at `span`.
    pub(crate) fn invalid(src: &[u8], span: Span, message: impl Into<String>) -> ReadError {
        ReadError::Invalid(Diagnostic::of_span(src, span, message.into()))
    }

    /// Where in the text, and what, for an error about the text.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            ReadError::Syntax(d) | ReadError::Undefined(d) | ReadError::Invalid(d) => Some(d),
            _ => None,
        }
    }
}

/// A located error message about the source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line and column (in bytes) of the offending text.
    pub line: u32,
    pub col: u32,
    /// What was wrong, e.g. "expected type".
    pub message: String,
    /// The offending text, at most one line of it.
    pub found: String,
    /// The whole source line, to show under the message.
    pub line_text: String,
    /// The byte offset of the offending text.
    pub offset: usize,
}

impl Diagnostic {
    fn of_span(src: &[u8], span: Span, message: String) -> Box<Diagnostic> {
        let len = (span.end - span.start).max(1) as usize;
        Box::new(Diagnostic::at(src, span.start as usize, len, message))
    }

    pub fn at(src: &[u8], offset: usize, len: usize, message: String) -> Diagnostic {
        let offset = offset.min(src.len());
        let line_start = src[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line_end = src[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |p| offset + p);
        let line = src[..line_start].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let found_end = (offset + len).min(line_end).max(offset);
        let clip = |b: &[u8]| {
            let s = String::from_utf8_lossy(b);
            s.chars().take(200).collect::<String>()
        };
        Diagnostic {
            line,
            col: (offset - line_start) as u32 + 1,
            message,
            found: clip(&src[offset..found_end]),
            line_text: clip(&src[line_start..line_end]),
            offset,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Bitcode => write!(
                f,
                "1:1: this is LLVM bitcode, not textual IR; mergefn reads .ll files \
                 (convert with `llvm-dis-22 FILE.bc`)"
            ),
            ReadError::NotUtf8 { line, col } => {
                write!(f, "{line}:{col}: invalid UTF-8; LLVM IR text must be UTF-8")
            }
            ReadError::TooLarge => write!(f, "1:1: input larger than 1 GiB"),
            ReadError::Syntax(d) | ReadError::Undefined(d) | ReadError::Invalid(d) => {
                if d.found.is_empty() {
                    write!(f, "{}:{}: {}, found end of input", d.line, d.col, d.message)?;
                } else {
                    write!(
                        f,
                        "{}:{}: {}, found `{}`",
                        d.line, d.col, d.message, d.found
                    )?;
                }
                if !d.line_text.is_empty() {
                    write!(
                        f,
                        "\n  {}\n  {}^",
                        d.line_text,
                        " ".repeat(d.col as usize - 1)
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ReadError {}
