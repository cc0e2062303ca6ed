//! The language server's `Document` driven in process, as an editor would
//! drive it: UTF-8 positions, byte-range edits.

use pbn::lsp::document::Document;
use pbn::lsp::settings::Settings;
use pbn_core::text::PositionEncoding;
use std::ops::Range;

/// Default settings with UTF-8 positions.
pub fn settings() -> Settings {
    Settings {
        encoding: PositionEncoding::Utf8,
        ..Settings::default()
    }
}

/// Replaces bytes `r` of the document by `new` as the next version.
pub fn change(doc: &mut Document, r: Range<usize>, new: &str) {
    let index = &doc.snapshot.index;
    let pos = |b: usize| {
        let line = index.line_of(b);
        serde_json::json!({"line": line, "character": b - index.line_start(line)})
    };
    let changes = serde_json::from_value(serde_json::json!([
        {"range": {"start": pos(r.start), "end": pos(r.end)}, "text": new}
    ]))
    .expect("a content change");
    let v = doc.version + 1;
    doc.apply(v, changes, PositionEncoding::Utf8, settings());
}
