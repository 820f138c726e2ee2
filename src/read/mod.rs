//! read: bytes → [`Module`]. The lexer turns text into tokens, the parser builds the model and
//! resolves names; any input gives a module or a located [`ReadError`], never a panic.

mod error;
mod lexer;
mod parser;

pub use error::{Diagnostic, ReadError};

use crate::model::Module;

/// Read a module from its text.
pub fn parse(source: String) -> Result<Module, ReadError> {
    // Every local, constant and use takes at least one byte of text, so below 1 GiB no arena
    // index outgrows a packed `Value`.
    if !crate::model::Value::fits(source.len()) {
        return Err(ReadError::TooLarge);
    }
    let mut module = parser::Parser::new(&source).module()?;
    module.source = source;
    Ok(module)
}

/// Read a module from raw bytes: rejects bitcode and invalid UTF-8 with a clear error.
pub fn parse_bytes(bytes: Vec<u8>) -> Result<Module, ReadError> {
    if bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]) {
        return Err(ReadError::Bitcode);
    }
    match String::from_utf8(bytes) {
        Ok(s) => parse(s),
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let d = Diagnostic::at(bytes, at, 1, String::new());
            Err(ReadError::NotUtf8 {
                line: d.line,
                col: d.col,
            })
        }
    }
}
