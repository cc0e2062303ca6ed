//! `pbn`: the PBN (Portable Bridge Notation 2.1) checker, formatter and
//! language server. See ARCHITECTURE.md at the repository root for the map.
//!
//! Layers, each depending only on the ones above it:
//! - [`text`]: bytes → text (encoding, line endings) and positions;
//! - [`syntax`]: the tree-sitter-pbn tree, games, syntax diagnostics;
//! - [`diagnostic`], [`codes`]: what rules produce, and the code registry;
//! - [`check`]: one entry point that produces every diagnostic of a file;
//! - `cli` (in the binary): `pbn check`, `pbn explain`, …
//!
//! Nothing here knows about LSP; the `lsp` module is the only one that will.

pub mod alloc;
pub mod bridge;
pub mod check;
pub mod codes;
pub mod config;
pub mod diagnostic;
pub mod format;
pub mod hash;
pub mod lsp;
pub mod model;
pub mod par;
pub mod recheck;
pub mod rules;
pub mod syntax;
pub mod text;
