//! `pbn-core`: PBN (Portable Bridge Notation 2.1) without IO or LSP: text
//! decoding, the tree-sitter syntax, the typed model, the rules, the checker
//! and the export formatter. The `pbn` crate adds the CLI and the language
//! server on top. See ARCHITECTURE.md at the repository root for the map.
//!
//! Layers, each depending only on the ones listed before it (checked by
//! `tests/layers.rs`):
//! - [`hash`], [`par`]: hashing and worker threads;
//! - [`text`]: bytes → text (encoding, line endings) and positions;
//! - [`codes`], [`diagnostic`]: the code registry and what rules produce;
//! - [`spec`]: PBN's vocabulary (tags);
//! - [`syntax`]: the tree-sitter-pbn tree, games, syntax diagnostics;
//! - [`bridge`]: bridge logic (auction, play, scores) on plain values;
//! - [`model`]: the typed game model lowered from the tree;
//! - [`dd`]: double-dummy analysis (the DDS solver behind the core's types)
//!   and `pbn check --dd`;
//! - [`rules`]: every rule of the standard, on the model;
//! - [`checker`]: the incremental checker that runs the rules piece by
//!   piece, for `pbn check` and the language server alike;
//! - [`format`]: the export-format formatter;
//! - [`reference`]: the tests' whole-document references for the checker,
//!   the fixes and the formatter;
//! - [`render`]: hand records (terminal text, HTML, hover Markdown);
//! - [`hover`]: the hover's Markdown at a byte offset (the language server
//!   and the web page);
//! - [`convert`]: PBN ↔ RBN and LIN, PBN → forum notation;
//! - [`config`]: the `pbn.toml` options.

pub mod bridge;
pub mod checker;
pub mod codes;
pub mod config;
pub mod convert;
pub mod dd;
pub mod diagnostic;
pub mod format;
pub mod hash;
pub mod hover;
pub mod model;
pub mod par;
pub mod reference;
pub mod render;
pub mod rules;
pub mod spec;
pub mod syntax;
pub mod text;
