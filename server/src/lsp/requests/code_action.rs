//! Not implemented yet: advertises nothing and answers nothing.

use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::*;

pub fn register(_caps: &mut ServerCapabilities) {}

pub fn code_action(_snap: &Snapshot, _params: CodeActionParams) -> Option<CodeActionResponse> {
    None
}
