//! Shared helpers for the handlers' in-process tests.

use crate::lsp::snapshot::Snapshot;
use crate::lsp::state::Settings;

pub fn snapshot(text: &str) -> Snapshot {
    Snapshot::new(
        "file:///t.pbn".parse().unwrap(),
        1,
        text.to_owned(),
        Settings::default(),
    )
}
