//! Not implemented yet: advertises nothing and answers nothing.

use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::*;

pub fn register(_caps: &mut ServerCapabilities) {}

pub fn completion(_snap: &Snapshot, _params: CompletionParams) -> Option<CompletionResponse> {
    None
}
