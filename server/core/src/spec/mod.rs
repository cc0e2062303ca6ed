//! PBN's vocabulary: the words of the standard that every layer above
//! (model, rules, formatter, language server) shares. Nothing here depends
//! on another module of the crate; `bridge` maps the plain values used
//! here to its own types.

pub mod calls;
pub mod cards;
pub mod seats;
pub mod sections;
pub mod tags;

/// Escapes a value for writing inside quotes (§3.2: `\"` and `\\`).
pub fn escape(text: &str) -> String {
    if !text.contains(['"', '\\']) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
