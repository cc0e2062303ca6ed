//! An immutable view of a document at one version. Requests run on
//! snapshots (off the main loop); the expensive parts (model, diagnostics)
//! are computed once, on first use.

use super::convert::Converter;
use super::state::Settings;
use crate::check::{CheckOptions, CheckResult};
use crate::recheck::{recheck_segments, Checked, State as RecheckState};
use std::sync::Arc;
use crate::model::{self, Document as Model};
use crate::text::{LineIndex, PositionEncoding, SourceText};
use std::sync::OnceLock;
use tower_lsp_server::ls_types::Uri;
use crate::syntax::Forest;

pub struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    /// The text (and its line endings; the editor's text is UTF-8). Checks
    /// read it in place: no copy of a large document per edit.
    pub source: SourceText,
    /// The parse, in pieces (see `document.rs`).
    pub forest: Forest,
    pub index: LineIndex,
    pub settings: Settings,
    model: OnceLock<Model>,
    /// Game spans and the games lowered one at a time (see [`Snapshot::game`]).
    spans: OnceLock<Vec<std::ops::Range<usize>>>,
    lowered: OnceLock<Vec<OnceLock<model::Game>>>,
    check: Arc<OnceLock<(Checked, RecheckState)>>,
    /// The diagnostics of `check` in one list, for requests that look
    /// through them (code actions); publishing does not need it.
    flat: OnceLock<CheckResult>,
    /// The latest computed check of an earlier version: its per-game
    /// diagnostics are reused for the games an edit did not touch. (Only the
    /// result cell is kept, never the earlier snapshot itself.)
    previous_check: Option<Arc<OnceLock<(Checked, RecheckState)>>>,
}

impl Snapshot {
    pub fn new(uri: Uri, version: i32, text: String, forest: Forest, settings: Settings) -> Snapshot {
        let index = LineIndex::new(&text);
        Snapshot::with_index(uri, version, SourceText::from_text(text), forest, index, settings)
    }

    /// [`Snapshot::new`] with the line index already built (the document
    /// updates the previous one after an edit).
    pub fn with_index(uri: Uri, version: i32, source: SourceText, forest: Forest, index: LineIndex, settings: Settings) -> Snapshot {
        Snapshot {
            uri,
            version,
            source,
            forest,
            index,
            settings,
            model: OnceLock::new(),
            spans: OnceLock::new(),
            lowered: OnceLock::new(),
            check: Arc::new(OnceLock::new()),
            flat: OnceLock::new(),
            previous_check: None,
        }
    }

    /// A snapshot that may reuse the per-game diagnostics of `previous` (or
    /// of the last version before it that was checked).
    pub fn with_previous(mut self, previous: &Snapshot) -> Snapshot {
        if previous.settings == self.settings {
            self.previous_check = if previous.check.get().is_some() {
                Some(previous.check.clone())
            } else {
                previous.previous_check.clone()
            };
        }
        self
    }

    /// The number of games whose diagnostics the previous check can lend
    /// (for tests and benchmarks).
    pub fn reusable_games(&self) -> usize {
        self.previous_check.as_ref().and_then(|c| c.get()).map(|(_, c)| c.len()).unwrap_or(0)
    }

    pub fn converter(&self) -> Converter<'_> {
        Converter { text: &self.source.text, index: &self.index, encoding: self.settings.encoding }
    }

    /// The typed model.
    pub fn model(&self) -> &Model {
        self.model.get_or_init(|| model::lower(&self.forest, &self.source.text))
    }

    /// Every diagnostic, from the same code path as `pbn check`.
    pub fn check(&self) -> &CheckResult {
        self.flat.get_or_init(|| self.checked().flatten())
    }

    /// Every diagnostic, in segments that later versions share while the
    /// parts of the document they cover do not change (what
    /// `publishDiagnostics` is built from).
    pub fn checked(&self) -> &Checked {
        &self
            .check
            .get_or_init(|| {
                let source = &self.source;
                let opts = CheckOptions { export: self.settings.export };
                let empty = RecheckState::default();
                let prev = self.previous_check.as_ref().and_then(|p| p.get()).map(|(_, c)| c).unwrap_or(&empty);
                let (result, state, _) = recheck_segments(source, &self.forest, &opts, prev);
                (result, state)
            })
            .0
    }

    /// The byte range of every game (one walk of the top-level nodes).
    pub fn game_spans(&self) -> &[std::ops::Range<usize>] {
        self.spans.get_or_init(|| match self.model.get() {
            Some(m) => m.games.iter().map(|g| g.range.clone()).collect(),
            None => crate::syntax::games(&self.forest).0.into_iter().map(|c| c.range).collect(),
        })
    }

    /// Game `i`, lowered on its own the first time it is asked for: a hover
    /// or completion right after an edit costs one game, not the whole file.
    /// When the document uses `#` values (§4.8), which need every earlier
    /// game, and once the whole model exists, it comes from the model.
    pub fn game(&self, i: usize) -> Option<&model::Game> {
        if let Some(m) = self.model.get() {
            return m.games.get(i);
        }
        if self.source.uses_hash_values() {
            return self.model().games.get(i);
        }
        let span = self.game_spans().get(i)?.clone();
        let cells = self.lowered.get_or_init(|| (0..self.game_spans().len()).map(|_| OnceLock::new()).collect());
        Some(cells[i].get_or_init(|| {
            let tree = self.forest.tree_at(span.start);
            let (chunks, _) = crate::syntax::games(tree);
            let chunk = chunks.iter().find(|c| c.range == span).expect("the game's piece holds its chunk");
            model::lower::lower_game(i, chunk, &self.source.text)
        }))
    }

    /// The index of the game containing byte `offset`.
    pub fn game_index_at(&self, offset: usize) -> Option<usize> {
        let spans = self.game_spans();
        let i = spans.partition_point(|r| r.end < offset);
        (i < spans.len() && spans[i].start <= offset).then_some(i)
    }

    /// The game containing byte `offset`.
    pub fn game_at(&self, offset: usize) -> Option<&model::Game> {
        self.game(self.game_index_at(offset)?)
    }

    /// The last game starting at or before `offset`.
    pub fn game_before(&self, offset: usize) -> Option<&model::Game> {
        let i = self.game_spans().partition_point(|r| r.start <= offset);
        self.game(i.checked_sub(1)?)
    }

    /// The games overlapping `range` (ends included).
    pub fn games_overlapping(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = &model::Game> {
        let spans = self.game_spans();
        let first = spans.partition_point(|r| r.end < range.start);
        let last = spans.partition_point(|r| r.start <= range.end);
        (first..last).filter_map(move |i| self.game(i))
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.settings.encoding
    }
}
