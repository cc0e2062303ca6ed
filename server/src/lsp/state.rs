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
    /// The `pbn.toml` in effect for each directory of an open document
    /// (`None`: none, or unreadable). Read once; emptied on
    /// `workspace/didChangeConfiguration` and on a watched-file change, not
    /// read again on every keystroke.
    pub configs: Mutex<HashMap<std::path::PathBuf, Option<pbn_core::config::Config>>>,
    /// Set when the client sent `shutdown`: `exit` then ends with status 0,
    /// otherwise 1 (LSP 3.17, `exit`).
    pub shutdown_requested: std::sync::atomic::AtomicBool,
    /// The client can watch files for the server (dynamic registration of
    /// `workspace/didChangeWatchedFiles`).
    pub watch_config: std::sync::atomic::AtomicBool,
    /// The texts of `didOpen` notifications, taken out of their frames by
    /// the input guard (`transport::filter_input`).
    pub taken: Arc<super::transport::Taken>,
}

impl State {
    pub fn settings(&self) -> Settings {
        *self.settings.read().expect("settings lock")
    }

    /// The configuration for files in `dir`, read on first use.
    pub fn config_for_dir(&self, dir: &std::path::Path) -> Option<pbn_core::config::Config> {
        let mut configs = self.configs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = configs.get(dir) {
            return c.clone();
        }
        let c = match crate::config_file::load_for(dir) {
            Ok((c, Some(_))) => Some(c),
            _ => None,
        };
        configs.insert(dir.to_path_buf(), c.clone());
        c
    }

    /// Forgets the configurations read (they are read again on next use).
    pub fn forget_configs(&self) {
        self.configs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
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
