//! Shared helpers for the end-to-end tests, the PBN generator and the
//! benchmark binary.

pub mod binary;
pub mod corpus;
pub mod editors;
pub mod fuzz;
pub mod gen;
pub mod hostile;
pub mod lsp_client;
pub mod lsp_doc;
pub mod mutate;
pub mod patterns;
pub mod skips;
pub mod verifier;
