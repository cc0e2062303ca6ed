//! Server-wide state: open documents and settings.

use super::document::Document;
use pbn_core::text::PositionEncoding;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use tower_lsp_server::ls_types::Uri;

/// Settings that affect analysis, from `initializationOptions`,
/// `workspace/didChangeConfiguration` (`{"pbn": {...}}`) and `pbn.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The negotiated position encoding.
    pub encoding: PositionEncoding,
    /// Report export-format rules (also on when the file declares `% EXPORT`).
    pub export: bool,
    /// Formatter: add missing mandatory tags as "?".
    pub add_missing_tags: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            encoding: PositionEncoding::Utf16,
            export: false,
            add_missing_tags: true,
        }
    }
}

/// The JSON form of the client's settings (all optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientSettings {
    pub export: Option<bool>,
    pub add_missing_tags: Option<bool>,
    pub format: Option<ClientFormatSettings>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientFormatSettings {
    pub add_missing_tags: Option<bool>,
}

impl Settings {
    /// Applies a client settings object (either `{...}` or `{"pbn": {...}}`).
    pub fn apply_json(&mut self, value: &serde_json::Value) {
        let v = value.get("pbn").unwrap_or(value);
        if let Ok(c) = serde_json::from_value::<ClientSettings>(v.clone()) {
            if let Some(e) = c.export {
                self.export = e;
            }
            if let Some(a) = c
                .add_missing_tags
                .or(c.format.and_then(|f| f.add_missing_tags))
            {
                self.add_missing_tags = a;
            }
        }
    }
}

#[derive(Default)]
pub struct State {
    pub documents: Mutex<HashMap<Uri, Arc<Mutex<Document>>>>,
    pub settings: RwLock<Settings>,
}

impl State {
    pub fn settings(&self) -> Settings {
        *self.settings.read().expect("settings lock")
    }

    pub fn document(&self, uri: &Uri) -> Option<Arc<Mutex<Document>>> {
        self.documents
            .lock()
            .expect("documents lock")
            .get(uri)
            .cloned()
    }

    /// The current snapshot of a document.
    pub fn snapshot(&self, uri: &Uri) -> Option<Arc<super::snapshot::Snapshot>> {
        self.document(uri)
            .map(|d| d.lock().expect("document lock").snapshot.clone())
    }
}
