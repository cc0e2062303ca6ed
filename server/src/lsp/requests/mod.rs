//! Request handlers, one file each. Every handler is a pure function of a
//! [`crate::lsp::snapshot::Snapshot`] and the request's params; `register`
//! advertises the capabilities of the handlers that are implemented.

pub mod code_action;
pub mod completion;
pub mod convert_game;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod semantic_tokens;
pub mod symbols;
#[cfg(test)]
pub(crate) mod tests_common;

use tower_lsp_server::ls_types::ServerCapabilities;

/// Fills in the capabilities of every handler.
pub fn register(caps: &mut ServerCapabilities) {
    code_action::register(caps);
    completion::register(caps);
    convert_game::register(caps);
    folding::register(caps);
    formatting::register(caps);
    hover::register(caps);
    inlay_hints::register(caps);
    navigation::register(caps);
    semantic_tokens::register(caps);
    symbols::register(caps);
}
