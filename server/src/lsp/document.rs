//! An open document: a ropey rope that incremental changes are applied to,
//! the tree-sitter tree kept in step with `InputEdit`s, and the immutable
//! [`Snapshot`] that requests run on.

use super::snapshot::Snapshot;
use crate::text::PositionEncoding;
use ropey::Rope;
use std::sync::Arc;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};
use tree_sitter::{InputEdit, Parser, Point, Tree};

pub struct Document {
    pub uri: Uri,
    pub version: i32,
    pub rope: Rope,
    pub tree: Tree,
    parser: Parser,
    pub snapshot: Arc<Snapshot>,
}

/// A byte offset in the rope for an LSP position (clamped to the line).
pub fn rope_offset(rope: &Rope, p: Position, enc: PositionEncoding) -> usize {
    let line = p.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let start_byte = rope.line_to_byte(line);
    let slice = rope.line(line);
    // The line without its line break.
    let mut chars = slice.len_chars();
    while chars > 0 && matches!(slice.char(chars - 1), '\n' | '\r') {
        chars -= 1;
    }
    let slice = slice.slice(..chars);
    let col = p.character as usize;
    let char_idx = match enc {
        PositionEncoding::Utf16 => slice.utf16_cu_to_char(col.min(slice.len_utf16_cu())),
        PositionEncoding::Chars => col.min(slice.len_chars()),
        PositionEncoding::Utf8 => slice.byte_to_char(col.min(slice.len_bytes())),
    };
    start_byte + slice.char_to_byte(char_idx)
}

fn point(rope: &Rope, byte: usize) -> Point {
    let line = rope.byte_to_line(byte);
    Point { row: line, column: byte - rope.line_to_byte(line) }
}

impl Document {
    pub fn open(uri: Uri, version: i32, text: String, settings: super::state::Settings) -> Document {
        let mut parser = crate::syntax::new_parser();
        let tree = parser.parse(&text, None).expect("parse without timeout");
        let rope = Rope::from_str(&text);
        let snapshot = Arc::new(Snapshot::new(uri.clone(), version, text, tree.clone(), settings));
        Document { uri, version, rope, tree, parser, snapshot }
    }

    /// Applies the changes of one `didChange`, in order, then reparses
    /// incrementally. Runs synchronously: the next notification sees the
    /// result.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>, enc: PositionEncoding, settings: super::state::Settings) {
        for change in changes {
            match change.range {
                None => {
                    self.rope = Rope::from_str(&change.text);
                    self.tree = self.parser.parse(&change.text, None).expect("parse");
                }
                Some(range) => {
                    let start = rope_offset(&self.rope, range.start, enc);
                    let end = rope_offset(&self.rope, range.end, enc).max(start);
                    let start_position = point(&self.rope, start);
                    let old_end_position = point(&self.rope, end);
                    let start_char = self.rope.byte_to_char(start);
                    let end_char = self.rope.byte_to_char(end);
                    self.rope.remove(start_char..end_char);
                    self.rope.insert(start_char, &change.text);
                    let new_end = start + change.text.len();
                    let new_end_position = point(&self.rope, new_end);
                    self.tree.edit(&InputEdit {
                        start_byte: start,
                        old_end_byte: end,
                        new_end_byte: new_end,
                        start_position,
                        old_end_position,
                        new_end_position,
                    });
                }
            }
        }
        let text = self.rope.to_string();
        self.tree = self.parser.parse(&text, Some(&self.tree)).expect("parse");
        self.version = version;
        self.snapshot = Arc::new(Snapshot::new(self.uri.clone(), version, text, self.tree.clone(), settings));
    }
}
