//! mergefn: find functions in LLVM IR that do the same thing and keep one copy.
//!
//! The data takes one path: [`read`] → [`model`] → [`fingerprint`] → [`partition`] →
//! [`decide`] → [`rewrite`] → [`write`](mod@write), driven by [`merge()`]. See ARCHITECTURE.md
//! for what each stage owns.
//!
//! ```
//! let text = "define internal i32 @a(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n\
//!             define internal i32 @b(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n\
//!             define i32 @main() {\n  %r = call i32 @b(i32 2)\n  ret i32 %r\n}\n";
//! let mut module = mergefn::parse(text.to_string()).unwrap();
//! let report = mergefn::merge(&mut module, &mergefn::Options::default());
//! assert_eq!(report.folded_names(), ["@b"]);
//! let out = mergefn::write::to_string(&module);
//! assert!(out.contains("call i32 @a(i32 2)") && !out.contains("@b("));
//! ```

pub mod decide;
pub mod fingerprint;
pub mod merge;
pub mod model;
pub mod partition;
pub mod read;
pub mod rewrite;
pub mod write;

pub use merge::{Options, Report, merge};
pub use model::Module;
pub use read::{ReadError, parse, parse_bytes};

/// Per-function counts: all blocks and instructions, and those reachable from the entry (what
/// LLVM's `print<func-properties>` reports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCounts {
    /// The name as LLVM prints it in diagnostics: unquoted, escapes decoded.
    pub name: String,
    pub blocks: usize,
    pub instructions: usize,
    pub reachable_blocks: usize,
    pub reachable_instructions: usize,
}

/// Blocks and instructions of every defined function, in source order.
pub fn function_counts(m: &Module) -> Vec<FunctionCounts> {
    m.functions
        .values()
        .filter_map(|f| {
            let body = f.body.as_ref()?;
            Some(FunctionCounts {
                name: match &m.globals[f.global].name {
                    model::GlobalName::Named(n) => String::from_utf8_lossy(n).into_owned(),
                    model::GlobalName::Numbered(n) => n.to_string(),
                },
                blocks: body.blocks as usize,
                instructions: body.insts as usize,
                reachable_blocks: body.reachable_blocks as usize,
                reachable_instructions: body.reachable_insts as usize,
            })
        })
        .collect()
}
