//! Server-wide state: open documents and settings.

use super::document::Document;
pub use super::settings::Settings;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use tower_lsp_server::ls_types::Uri;

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
