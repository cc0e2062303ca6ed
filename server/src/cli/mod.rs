pub mod check;
pub mod config;
pub mod dump;
pub mod explain;
pub mod files;
pub mod fmt;
pub mod lsp;
pub mod render;
