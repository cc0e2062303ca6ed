//! `pbn lsp`: the language server. The only module that knows the protocol
//! (tower-lsp-server); it converts between LSP positions and the core's byte
//! ranges at the edge (`convert.rs`).
//!
//! - `server.rs`: the `LanguageServer` implementation, one table of handlers;
//! - `document.rs`: incremental sync (ropey rope + tree-sitter `InputEdit`);
//! - `snapshot.rs`: immutable per-version views that requests run on;
//! - `requests/*.rs`, `notifications/*.rs`: one file per handler.

pub mod convert;
pub mod docs;
pub mod document;
pub mod notifications;
pub mod requests;
pub mod server;
pub mod snapshot;
pub mod state;

pub use server::Backend;

/// Runs the server on stdin/stdout until the client exits.
pub fn run_stdio() -> std::process::ExitCode {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    runtime.block_on(async {
        let stdin = tokio::io::stdin();
        let stdout = tokio::io::stdout();
        let (service, socket) = tower_lsp_server::LspService::new(Backend::new);
        tower_lsp_server::Server::new(stdin, stdout, socket).serve(service).await;
    });
    std::process::ExitCode::SUCCESS
}
