//! Not implemented yet: advertises nothing and answers nothing.

use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::*;

pub fn register(_caps: &mut ServerCapabilities) {}

pub fn definition(_snap: &Snapshot, _params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    None
}

pub fn references(_snap: &Snapshot, _params: ReferenceParams) -> Option<Vec<Location>> {
    None
}

pub fn highlight(_snap: &Snapshot, _params: DocumentHighlightParams) -> Option<Vec<DocumentHighlight>> {
    None
}

pub fn prepare_rename(_snap: &Snapshot, _params: TextDocumentPositionParams) -> Option<PrepareRenameResponse> {
    None
}

pub fn rename(_snap: &Snapshot, _params: RenameParams) -> Option<WorkspaceEdit> {
    None
}
