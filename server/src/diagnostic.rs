//! Diagnostics: what every rule produces, for the CLI and the server alike.
//!
//! Ranges are byte ranges into the decoded text ([`crate::text`]); the CLI and
//! the LSP layer convert them to lines and columns at the edge.

use serde::Serialize;
use std::ops::Range;
use std::sync::Arc;

pub use crate::codes::{all as all_codes, lookup, Category, CodeInfo};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A secondary location (e.g. the first of two duplicate tags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: Range<usize>,
    pub message: Arc<str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static CodeInfo,
    pub severity: Severity,
    pub range: Range<usize>,
    /// Shared, not copied, when the language server reuses a game's
    /// diagnostics after an edit (`recheck`): a clone is a reference count.
    pub message: Arc<str>,
    /// 0-based index of the game the diagnostic belongs to, if any.
    pub game: Option<usize>,
    pub related: Vec<Related>,
    /// The range is unused code (rendered faded by editors).
    pub unnecessary: bool,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: &'static CodeInfo, range: Range<usize>, message: impl Into<Arc<str>>) -> Self {
        Diagnostic {
            code,
            severity: code.severity,
            range,
            message: message.into(),
            game: None,
            related: Vec::new(),
            unnecessary: false,
        }
    }

    pub fn with_game(mut self, game: Option<usize>) -> Self {
        self.game = game;
        self
    }

    pub fn with_related(mut self, range: Range<usize>, message: impl Into<Arc<str>>) -> Self {
        self.related.push(Related { range, message: message.into() });
        self
    }
}
