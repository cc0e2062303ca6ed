//! `pbn`: the language server and the pieces the `pbn` binary shares with
//! the tests. Everything that knows PBN without IO or LSP is in `pbn-core`
//! (`server/core`); this crate adds the LSP types and the allocator. See
//! ARCHITECTURE.md at the repository root for the map.

pub mod alloc;
pub mod config_file;
pub mod lsp;
