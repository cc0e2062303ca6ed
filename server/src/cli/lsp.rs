use clap::Args;
use std::process::ExitCode;

/// Run the language server on stdin/stdout (Language Server Protocol).
///
/// Editors start it themselves; see the editors/ directory for VS Code,
/// Neovim, Emacs, Vim and Helix set-ups.
#[derive(Args)]
pub struct LspArgs {
    /// Accepted for compatibility with clients that pass it; stdio is the only transport.
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: LspArgs) -> ExitCode {
    pbn::lsp::run_stdio()
}
