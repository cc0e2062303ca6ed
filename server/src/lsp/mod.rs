//! `pbn lsp`: the language server. The only module that knows the protocol
//! (tower-lsp-server); it converts between LSP positions and the core's byte
//! ranges at the edge (`convert.rs`).
//!
//! - `server.rs`: the `LanguageServer` implementation, one table of handlers;
//! - `document.rs`: incremental sync (the text and line index edited in
//!   place, tree-sitter `InputEdit`s);
//! - `dd.rs`: double-dummy solving on a worker thread, cached per deal;
//! - `snapshot.rs`: immutable per-version views that requests run on;
//! - `requests/*.rs`, `notifications/*.rs`: one file per handler.

pub mod convert;
pub mod dd;
pub mod document;
pub mod line_diff;
pub mod notifications;
pub mod requests;
pub mod server;
pub mod settings;
pub mod snapshot;
pub mod state;
pub mod transport;

pub use server::Backend;

/// Runs the server on stdin/stdout until the client exits.
pub fn run_stdio() -> std::process::ExitCode {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let shut_down = runtime.block_on(async {
        let (to_server, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, from_server) = tokio::io::duplex(1 << 20);
        let (errors_tx, errors_rx) = tokio::sync::mpsc::unbounded_channel();
        // Diagnostics are published through the same channel (see
        // `Backend::with_output`).
        let inject = errors_tx.clone();
        let state = std::sync::Arc::new(state::State::default());
        let input = tokio::spawn(transport::filter_input(
            tokio::io::stdin(),
            to_server,
            errors_tx,
            state.taken.clone(),
        ));
        let output = tokio::spawn(transport::merge_output(
            from_server,
            std::io::stdout(),
            errors_rx,
        ));
        let shared = state.clone();
        let (service, socket) = tower_lsp_server::LspService::new(move |client| {
            Backend::with_output_and_state(client, inject.clone(), shared.clone())
        });
        tower_lsp_server::Server::new(server_in, server_out, socket)
            .serve(service)
            .await;
        // The server has ended (exit, or its input closed): flush what it wrote.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), output).await;
        input.abort();
        state
            .shutdown_requested
            .load(std::sync::atomic::Ordering::SeqCst)
    });
    // A read of stdin may still be blocked in the runtime's thread pool (the
    // client need not close its end): do not wait for it.
    runtime.shutdown_background();
    // LSP: 0 after `shutdown` then `exit`; 1 when the server ends without
    // `shutdown` (`exit` alone, or the client's end closed).
    if shut_down {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
