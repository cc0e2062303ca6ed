//! This crate provides the PBN (Portable Bridge Notation 2.1) language for
//! the [tree-sitter] parsing library.
//!
//! ```
//! let code = "[Event \"Test\"]\n[Board \"1\"]\n";
//! let mut parser = tree_sitter::Parser::new();
//! let language = tree_sitter_pbn::LANGUAGE;
//! parser
//!     .set_language(&language.into())
//!     .expect("Error loading PBN parser");
//! let tree = parser.parse(code, None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```
//!
//! [tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_pbn() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for this grammar.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_pbn) };

/// The content of the [`node-types.json`] file for this grammar.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// The syntax highlighting query (Neovim / Helix / Zed capture names).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The folding query.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

/// The injections query.
pub const INJECTIONS_QUERY: &str = include_str!("../../queries/injections.scm");

/// The text objects query (games, sections, comments).
pub const TEXTOBJECTS_QUERY: &str = include_str!("../../queries/textobjects.scm");

#[cfg(test)]
mod tests {
    #[test]
    fn test_can_load_grammar() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&super::LANGUAGE.into())
            .expect("Error loading PBN parser");
    }
}
