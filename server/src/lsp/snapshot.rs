//! An immutable view of a document at one version. Requests run on
//! snapshots (off the main loop); the expensive parts (model, diagnostics)
//! are computed once, on first use.

use super::convert::Converter;
use super::state::Settings;
use crate::check::{check_parsed, CheckOptions, CheckResult};
use crate::model::{self, Document as Model};
use crate::text::{LineIndex, PositionEncoding, SourceText};
use std::sync::OnceLock;
use tower_lsp_server::ls_types::Uri;
use tree_sitter::Tree;

pub struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub text: String,
    pub tree: Tree,
    pub index: LineIndex,
    pub settings: Settings,
    model: OnceLock<Model>,
    check: OnceLock<CheckResult>,
}

impl Snapshot {
    pub fn new(uri: Uri, version: i32, text: String, tree: Tree, settings: Settings) -> Snapshot {
        let index = LineIndex::new(&text);
        Snapshot { uri, version, text, tree, index, settings, model: OnceLock::new(), check: OnceLock::new() }
    }

    pub fn converter(&self) -> Converter<'_> {
        Converter { text: &self.text, index: &self.index, encoding: self.settings.encoding }
    }

    /// The typed model.
    pub fn model(&self) -> &Model {
        self.model.get_or_init(|| model::lower(&self.tree, &self.text))
    }

    /// Every diagnostic, from the same code path as `pbn check`.
    pub fn check(&self) -> &CheckResult {
        self.check.get_or_init(|| {
            let source = SourceText::from_text(self.text.clone());
            let opts = CheckOptions { export: self.settings.export };
            check_parsed(&source, &self.tree, &opts)
        })
    }

    /// The game containing byte `offset`.
    pub fn game_at(&self, offset: usize) -> Option<&model::Game> {
        self.model().games.iter().find(|g| g.range.start <= offset && offset <= g.range.end)
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.settings.encoding
    }
}
