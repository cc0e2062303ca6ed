//! Not implemented yet: advertises nothing and answers nothing.

use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::*;

pub fn register(_caps: &mut ServerCapabilities) {}

pub fn inlay_hint(_snap: &Snapshot, _params: InlayHintParams) -> Option<Vec<InlayHint>> {
    None
}
