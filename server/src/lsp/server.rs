//! The `LanguageServer` implementation: one table of handlers. Requests run
//! on a snapshot in a blocking task (never on the main loop); a panic in a
//! handler becomes an error response and the server keeps running.

use super::document::Document;
use super::requests;
use super::snapshot::Snapshot;
use super::state::{Settings, State};
use pbn_core::text::PositionEncoding;
use std::sync::Arc;
use std::time::Duration;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

/// How long to wait before checking a change that follows another one
/// closely (typing): a burst of edits is checked once, after it.
const DEBOUNCE: Duration = Duration::from_millis(120);

/// How long a document must stay unchanged after its diagnostics were
/// published before its pieces are formatted in the background
/// ([`fill_format_later`]).
const FILL_PAUSE: Duration = Duration::from_millis(300);

/// The latest version of a closed document: no snapshot has it.
const CLOSED: i32 = i32::MIN;

/// Sends whole JSON-RPC frames to the client, between the frames of
/// tower-lsp-server (see `transport::merge_output`).
pub type Output = tokio::sync::mpsc::UnboundedSender<super::transport::Chunks>;

pub struct Backend {
    client: Client,
    state: Arc<State>,
    /// Where diagnostics are published when the server runs on stdio: the
    /// notification is built from cached JSON (`diagnostics::publish_json`)
    /// instead of being serialised again by tower-lsp-server. `None` in
    /// tests that drive the `LspService` directly.
    output: Option<Output>,
    publish: Arc<Publisher>,
    /// The last `semanticTokens/full` answer of each document (for
    /// `full/delta`).
    tokens: Arc<requests::semantic_tokens::Results>,
}

/// Per document: when it last changed (for the debounce) and the JSON of
/// its last published diagnostics. One lock keeps publications in order.
#[derive(Default)]
struct Publisher {
    docs: std::sync::Mutex<std::collections::HashMap<Uri, PublishState>>,
    /// The client pulls diagnostics (`textDocument/diagnostic`, LSP 3.17):
    /// none are pushed.
    pull: std::sync::atomic::AtomicBool,
    /// The client accepts `workspace/diagnostic/refresh` (asked when the
    /// double-dummy diagnostics join).
    refresh: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct PublishState {
    last_change: Option<std::time::Instant>,
    cache: super::notifications::diagnostics::JsonCache,
    /// What the last publication without `cache` sent
    /// ([`super::notifications::diagnostics::fingerprint_of`]).
    last_sent: Option<u64>,
    /// The result id of the last full report a pull answered: what a
    /// client that pulls without `previousResultId` (Neovim 0.11) holds.
    pulled: Option<String>,
}

impl Publisher {
    fn pulled(&self) -> bool {
        self.pull.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend::with_state(client, Arc::default())
    }

    /// A backend on shared state (`run_stdio` reads `shutdown_requested`
    /// after the server ends).
    pub fn with_state(client: Client, state: Arc<State>) -> Backend {
        Backend {
            client,
            state,
            output: None,
            publish: Arc::default(),
            tokens: Arc::default(),
        }
    }

    /// A backend that publishes diagnostics through `output`.
    pub fn with_output(client: Client, output: Output) -> Backend {
        Backend::with_output_and_state(client, output, Arc::default())
    }

    /// A backend that publishes diagnostics through `output`, on `state`.
    pub fn with_output_and_state(client: Client, output: Output, state: Arc<State>) -> Backend {
        Backend {
            output: Some(output),
            ..Backend::with_state(client, state)
        }
    }

    /// Rebuilds every open document's snapshot with the current settings
    /// and configuration, and checks it again.
    fn recheck_all(&self) {
        let docs: Vec<_> = self
            .state
            .documents
            .lock()
            .expect("documents lock")
            .values()
            .cloned()
            .collect();
        for d in docs {
            let (uri, version) = {
                let mut d = d.lock().expect("document lock");
                let settings = settings_for(&self.state, &d.uri);
                let text = d.snapshot.source.text.clone();
                d.snapshot = Arc::new(
                    Snapshot::new(d.uri.clone(), d.version, text, settings).with_latest(&d.latest),
                );
                (d.uri.clone(), d.version)
            };
            self.schedule_diagnostics(uri, version);
        }
        // A client that pulls asks again (the new settings may change them).
        if self.publish.pulled()
            && self
                .publish
                .refresh
                .load(std::sync::atomic::Ordering::Relaxed)
        {
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.workspace_diagnostic_refresh().await;
            });
        }
    }

    /// Runs `f` on the current snapshot of `uri` in a blocking task.
    async fn on_snapshot<R: Send + 'static>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&Snapshot) -> Option<R> + Send + 'static,
    ) -> Result<Option<R>> {
        let Some(snap) = self.state.snapshot(uri) else {
            return Ok(None);
        };
        match tokio::task::spawn_blocking(move || f(&snap)).await {
            Ok(r) => Ok(r),
            Err(e) => {
                let msg = if e.is_panic() {
                    "internal error in the PBN server (the request failed; please report it)"
                } else {
                    "request cancelled"
                };
                Err(Error {
                    code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
                    message: msg.into(),
                    data: None,
                })
            }
        }
    }

    /// Publishes the diagnostics of `uri` once edits have settled, unless a
    /// newer version arrived meanwhile (never stale).
    ///
    /// The first change after a quiet moment is checked at once; a change
    /// that follows another one within [`DEBOUNCE`] waits that long, so a
    /// burst of keystrokes is checked once it pauses.
    fn schedule_diagnostics(&self, uri: Uri, version: i32) {
        let state = self.state.clone();
        let client = self.client.clone();
        let output = self.output.clone();
        let publish = self.publish.clone();
        let delay = {
            let now = std::time::Instant::now();
            let mut docs = publish.docs.lock().expect("publisher lock");
            let entry = docs.entry(uri.clone()).or_default();
            let busy = entry
                .last_change
                .is_some_and(|t| now.duration_since(t) < DEBOUNCE);
            entry.last_change = Some(now);
            if busy {
                DEBOUNCE
            } else {
                Duration::ZERO
            }
        };
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let Some(snap) = state.snapshot(&uri) else {
                return;
            };
            if snap.version != version {
                return;
            }
            if publish.pulled() {
                // The client asks: check now, so that its pull answers at
                // once; ask it to pull again once the double-dummy
                // diagnostics join.
                let joined = tokio::task::spawn_blocking(move || {
                    snap.checked();
                    snap.dd_diagnostics(false).is_none() && snap.dd_diagnostics(true).is_some()
                })
                .await;
                if joined.unwrap_or(false)
                    && publish.refresh.load(std::sync::atomic::Ordering::Relaxed)
                {
                    let client = client.clone();
                    tokio::spawn(async move {
                        let _ = client.workspace_diagnostic_refresh().await;
                    });
                }
                prefetch_dd_later(state.clone(), client.clone(), uri.clone(), version);
                fill_format_later(state, client, uri, version);
                return;
            }
            if let Some(output) = output {
                let _ = tokio::task::spawn_blocking(move || {
                    // Checked outside the lock; serialised and sent under it,
                    // so that publications of one document stay in order.
                    snap.checked();
                    let publish_now = |snap: &Snapshot| {
                        let mut docs = publish.docs.lock().unwrap_or_else(|e| e.into_inner());
                        // Not `state.snapshot`: that waits for the document,
                        // which an edit holds while it waits for this
                        // snapshot to be released (`Document::take_text`).
                        if snap.is_stale() {
                            return; // a newer version, or closed
                        }
                        let entry = docs.entry(snap.uri.clone()).or_default();
                        // Not again when they did not change.
                        if let Some(frame) =
                            super::notifications::diagnostics::publish_frame_if_changed(
                                snap,
                                &mut entry.cache,
                            )
                        {
                            let _ = output.send(frame);
                        }
                    };
                    // With `[check] dd`: the double-dummy diagnostics join
                    // at once when every deal is solved already, else in a
                    // second publication once they are.
                    let dd_ready = snap.dd_diagnostics(false).is_some();
                    publish_now(&snap);
                    if !dd_ready && snap.dd_diagnostics(true).is_some() {
                        publish_now(&snap);
                    }
                })
                .await;
                prefetch_dd_later(state.clone(), client.clone(), uri.clone(), version);
                fill_format_later(state, client, uri, version);
                return;
            }
            let diags = tokio::task::spawn_blocking(move || {
                let d = super::notifications::diagnostics::to_lsp(&snap);
                (snap, d)
            })
            .await;
            let Ok((snap, diags)) = diags else { return };
            let current = |v: i32| state.snapshot(&uri).is_some_and(|c| c.version == v);
            // Not again when they did not change.
            let changed = |diags: &[Diagnostic]| {
                let f = super::notifications::diagnostics::fingerprint_of(diags);
                let mut docs = publish.docs.lock().unwrap_or_else(|e| e.into_inner());
                let entry = docs.entry(uri.clone()).or_default();
                entry.last_sent.replace(f) != Some(f)
            };
            let v = snap.version;
            if current(v) {
                if changed(&diags) {
                    client
                        .publish_diagnostics(uri.clone(), diags, Some(v))
                        .await;
                }
                prefetch_dd_later(state.clone(), client.clone(), uri.clone(), v);
                fill_format_later(state.clone(), client.clone(), uri.clone(), v);
            }
            if snap.dd_ready().is_none() && snap.settings.dd {
                let diags = tokio::task::spawn_blocking(move || {
                    snap.dd_diagnostics(true)
                        .is_some()
                        .then(|| super::notifications::diagnostics::to_lsp(&snap))
                })
                .await;
                if let Ok(Some(diags)) = diags {
                    if current(v) && changed(&diags) {
                        client.publish_diagnostics(uri, diags, Some(v)).await;
                    }
                }
            }
        });
    }
}

/// Once `version` of `uri` has its diagnostics: solves the deals of the
/// document's first [`super::settings::Settings::dd_background`] games in the background
/// ([`super::dd::DdService::prefetch`]), and logs (`window/logMessage`, type Log)
/// how many it solved, or that a newer version stopped it.
fn prefetch_dd_later(state: Arc<State>, client: Client, uri: Uri, version: i32) {
    let Some(snap) = state.snapshot(&uri) else {
        return;
    };
    let limit = snap.settings.dd_background;
    if snap.version != version || limit == 0 {
        return;
    }
    tokio::spawn(async move {
        let start = std::time::Instant::now();
        let done = tokio::task::spawn_blocking(move || {
            let mut positions: Vec<pbn_core::dd::verify::Position> = Vec::new();
            let games = snap.game_spans().len().min(limit);
            for p in (0..games).filter_map(|i| pbn_core::dd::verify::Position::of(snap.game(i)?)) {
                if p.hands.iter().all(Option::is_some) && !positions.contains(&p) {
                    positions.push(p);
                }
            }
            let asked = snap.staleness();
            // Not held while the deals are solved (seconds): the next edit
            // edits the text in place only when no one else holds its
            // snapshot, and would copy the whole document otherwise.
            drop(snap);
            let solved = super::dd::service().prefetch(&positions, &asked);
            (solved, positions.len(), asked.is_stale())
        })
        .await;
        let Ok((solved, total, stale)) = done else {
            return;
        };
        if total == 0 {
            return;
        }
        let how = if stale {
            "stopped: the document changed"
        } else {
            "done"
        };
        let msg = format!(
            "{} version {version}: {solved} of {total} deals solved in the background ({how}, {} ms)",
            uri.as_str(),
            start.elapsed().as_millis()
        );
        client
            .log_message(tower_lsp_server::ls_types::MessageType::LOG, msg)
            .await;
    });
}

/// Formats the pieces of `uri` in the background once `version` has
/// stayed the latest for [`FILL_PAUSE`] after its diagnostics, so that the
/// first formatting request (format on save) answers from kept pieces
/// instead of formatting the whole document then. Done once per document:
/// after that, a request formats the few pieces an edit touched. A fill
/// that a newer version interrupts keeps what it formatted and resumes
/// after that version's diagnostics. Logged (`window/logMessage`, type
/// Log) when done.
fn fill_format_later(state: Arc<State>, client: Client, uri: Uri, version: i32) {
    let Some(snap) = state.snapshot(&uri) else {
        return;
    };
    if snap.version != version || snap.format_filled() {
        return;
    }
    drop(snap);
    tokio::spawn(async move {
        tokio::time::sleep(FILL_PAUSE).await;
        let Some(snap) = state.snapshot(&uri) else {
            return;
        };
        if snap.version != version || snap.format_filled() {
            return;
        }
        let start = std::time::Instant::now();
        let pieces = snap.forest.len();
        let filled = tokio::task::spawn_blocking(move || {
            snap.fill_format(&requests::formatting::options(&snap))
        })
        .await;
        if let Ok(Some(fresh)) = filled {
            let msg = format!(
                "{}: formatted {fresh} of {pieces} pieces in the background ({} ms); \
                 formatting requests answer from them",
                uri.as_str(),
                start.elapsed().as_millis()
            );
            client.log_message(MessageType::LOG, msg).await;
        }
    });
}

/// Chooses UTF-8 when the client offers it, else UTF-16 (the default).
fn negotiate(params: &InitializeParams) -> PositionEncoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(list) if list.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
        _ => PositionEncoding::Utf16,
    }
}

pub fn capabilities(encoding: PositionEncoding) -> ServerCapabilities {
    let mut caps = ServerCapabilities {
        position_encoding: Some(match encoding {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            _ => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: None,
                will_save: None,
                will_save_wait_until: None,
            },
        )),
        ..Default::default()
    };
    requests::register(&mut caps);
    caps
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = negotiate(&params);
        {
            let mut s = self.state.settings.write().expect("settings lock");
            s.encoding = encoding;
            s.pull_keeps_last = params
                .client_info
                .as_ref()
                .is_some_and(|c| c.name == "Neovim");
            s.resolve_edits = params
                .capabilities
                .text_document
                .as_ref()
                .and_then(|t| t.code_action.as_ref())
                .and_then(|c| c.resolve_support.as_ref())
                .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
            if let Some(opts) = &params.initialization_options {
                s.apply_json(opts);
            }
        }
        let text_document = params.capabilities.text_document.as_ref();
        let pull = text_document.is_some_and(|t| t.diagnostic.is_some());
        self.publish
            .pull
            .store(pull, std::sync::atomic::Ordering::Relaxed);
        let refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.diagnostics.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false);
        self.publish
            .refresh
            .store(refresh, std::sync::atomic::Ordering::Relaxed);
        let mut capabilities = capabilities(encoding);
        if pull {
            capabilities.diagnostic_provider =
                Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("pbn".into()),
                    inter_file_dependencies: false,
                    workspace_diagnostics: false,
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }));
        }
        let dynamic_watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        self.state
            .watch_config
            .store(dynamic_watch, std::sync::atomic::Ordering::Relaxed);
        let workspace = params.capabilities.workspace.as_ref();
        if workspace.and_then(|w| w.inlay_hint.as_ref()?.refresh_support) == Some(true) {
            super::dd::refresh_hints_when_played(self.client.clone());
        }
        #[allow(deprecated)]
        if let Some(pid) = params.process_id {
            watch_parent(pid);
        }
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "pbn".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if !self
            .state
            .watch_config
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            return;
        }
        // Told when a pbn.toml changes, so it is read again then only.
        let watchers: Vec<FileSystemWatcher> = pbn_core::config::FILE_NAMES
            .iter()
            .map(|n| FileSystemWatcher {
                glob_pattern: GlobPattern::String(format!("**/{n}")),
                kind: None,
            })
            .collect();
        let registration = Registration {
            id: "pbn-config-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
                watchers,
            })
            .ok(),
        };
        let _ = self.client.register_capability(vec![registration]).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.state
            .shutdown_requested
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let settings = settings_for(&self.state, &doc.uri);
        // On stdio the text came apart from the notification (see
        // `transport::Taken`).
        let text = match doc.text.is_empty() {
            true => self
                .state
                .taken
                .take(doc.uri.as_str(), doc.version)
                .unwrap_or_default(),
            false => doc.text,
        };
        let d = Document::open(doc.uri.clone(), doc.version, text, settings);
        self.state
            .documents
            .lock()
            .expect("documents lock")
            .insert(doc.uri.clone(), Arc::new(std::sync::Mutex::new(d)));
        self.schedule_diagnostics(doc.uri, doc.version);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // Applied synchronously, before any await: notifications may run
        // concurrently, edits must not.
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let Some(doc) = self.state.document(&uri) else {
            return;
        };
        let settings = settings_for(&self.state, &uri);
        doc.lock().expect("document lock").apply(
            version,
            params.content_changes,
            settings.encoding,
            settings,
        );
        self.schedule_diagnostics(uri, version);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let closed = self
            .state
            .documents
            .lock()
            .expect("documents lock")
            .remove(&uri);
        self.tokens.forget(&uri);
        if let Some(d) = closed {
            // Its snapshots are stale: work on them stops, nothing of them
            // is published.
            d.lock()
                .unwrap_or_else(|e| e.into_inner())
                .latest
                .store(CLOSED, std::sync::atomic::Ordering::Relaxed);
        }
        match &self.output {
            Some(output) => {
                // Through the same channel and lock as the other
                // publications of this document, so it comes last.
                let mut docs = self.publish.docs.lock().expect("publisher lock");
                docs.remove(&uri);
                let params = PublishDiagnosticsParams {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                };
                let body = serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params});
                let _ = output.send(vec![
                    super::transport::frame(body.to_string().as_bytes()).into()
                ]);
            }
            None => self.client.publish_diagnostics(uri, Vec::new(), None).await,
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.state
            .settings
            .write()
            .expect("settings lock")
            .apply_json(&params.settings);
        self.state.forget_configs();
        self.recheck_all();
    }

    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        // Only pbn.toml / .pbn.toml are watched.
        self.state.forget_configs();
        self.recheck_all();
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let uri = params
            .text_document_position_params
            .text_document
            .uri
            .clone();
        self.on_snapshot(&uri, move |s| requests::hover::hover(s, params))
            .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let uri = params
            .text_document_position_params
            .text_document
            .uri
            .clone();
        self.on_snapshot(&uri, move |s| requests::navigation::definition(s, params))
            .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::navigation::references(s, params))
            .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let uri = params
            .text_document_position_params
            .text_document
            .uri
            .clone();
        self.on_snapshot(&uri, move |s| requests::navigation::highlight(s, params))
            .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| {
            requests::navigation::prepare_rename(s, params)
        })
        .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        // Notes are numbered 1..32 (§3.5.4): say so instead of doing nothing.
        let name = params.new_name.trim();
        if !name.bytes().all(|b| b.is_ascii_digit())
            || !name.parse::<u32>().is_ok_and(|n| (1..=32).contains(&n))
        {
            return Err(Error::invalid_params(format!(
                "`{name}` is not a note number: notes are numbered 1 to 32 (§3.5.4)"
            )));
        }
        let uri = params.text_document_position.text_document.uri.clone();
        match self
            .on_snapshot(&uri, move |s| requests::navigation::rename(s, params))
            .await?
        {
            Some(Ok(edit)) => Ok(Some(edit)),
            Some(Err(msg)) => Err(Error::invalid_params(msg)),
            None => Ok(None),
        }
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::formatting::document(s, params))
            .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::formatting::range(s, params))
            .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::code_action::code_action(s, params))
            .await
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        let Some(uri) = requests::code_action::resolve_uri(&action) else {
            return Ok(action);
        };
        let unchanged = action.clone();
        match self
            .on_snapshot(&uri, move |s| {
                Some(requests::code_action::resolve(s, action))
            })
            .await?
        {
            Some(Ok(a)) => Ok(a),
            Some(Err(message)) => Err(Error {
                // LSP 3.17 `ContentModified`: the client asks again.
                code: tower_lsp_server::jsonrpc::ErrorCode::ContentModified,
                message: message.into(),
                data: None,
            }),
            None => Ok(unchanged),
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let invalid = |message: String| Error {
            code: tower_lsp_server::jsonrpc::ErrorCode::InvalidParams,
            message: message.into(),
            data: None,
        };
        if params.command == requests::code_action::APPLY_COMMAND {
            let Some(uri) = requests::code_action::command_uri(&params) else {
                return Err(invalid(format!(
                    "{} takes one object {{uri, version, action, game}}",
                    params.command
                )));
            };
            let edit = match self
                .on_snapshot(&uri, move |s| {
                    Some(requests::code_action::apply_command(s, &params))
                })
                .await?
            {
                Some(Ok(edit)) => edit,
                Some(Err(e)) => return Err(invalid(e)),
                None => return Err(invalid(format!("{} is not open", uri.as_str()))),
            };
            let applied = self.client.apply_edit(edit).await?;
            return Ok(Some(serde_json::json!({ "applied": applied.applied })));
        }
        let args = requests::convert_game::parse(&params).map_err(invalid)?;
        let uri = args.uri.clone();
        match self
            .on_snapshot(&uri, move |s| Some(requests::convert_game::run(s, args)))
            .await?
        {
            Some(Ok(v)) => Ok(Some(v)),
            Some(Err(e)) => Err(invalid(e)),
            None => Err(invalid(format!("{} is not open", uri.as_str()))),
        }
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::completion::completion(s, params))
            .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::symbols::document_symbol(s, params))
            .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::folding::folding_range(s, params))
            .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri.clone();
        let results = self.tokens.clone();
        self.on_snapshot(&uri, move |s| {
            requests::semantic_tokens::full(s, &results, params)
        })
        .await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri.clone();
        let results = self.tokens.clone();
        self.on_snapshot(&uri, move |s| {
            requests::semantic_tokens::full_delta(s, &results, params)
        })
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::semantic_tokens::range(s, params))
            .await
    }

    /// `textDocument/diagnostic` (LSP 3.17): `unchanged` when the client's
    /// previous result is still right, else the full report with its id.
    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        use super::notifications::diagnostics;
        let uri = params.text_document.uri.clone();
        let previous = params.previous_result_id;
        let publish = self.publish.clone();
        let report = self
            .on_snapshot(&uri, move |snap| {
                // Checked outside the lock (the first check of a large
                // document takes a while).
                snap.checked();
                let (id, unchanged) = {
                    let mut docs = publish.docs.lock().unwrap_or_else(|e| e.into_inner());
                    let entry = docs.entry(snap.uri.clone()).or_default();
                    let id = diagnostics::result_id(snap, &mut entry.cache);
                    // A client that never sends `previousResultId` holds the
                    // last full report this document's pulls answered (until
                    // it closes the document): nothing is sent again for it.
                    let unchanged = match previous.as_deref() {
                        Some(p) => p == id,
                        None => {
                            snap.settings.pull_keeps_last
                                && entry.pulled.as_deref() == Some(id.as_str())
                        }
                    };
                    if !unchanged {
                        entry.pulled = Some(id.clone());
                    }
                    (id, unchanged)
                };
                Some(if unchanged {
                    DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                        related_documents: None,
                        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                            result_id: id,
                        },
                    })
                } else {
                    DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                        related_documents: None,
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: Some(id),
                            items: diagnostics::to_lsp(snap),
                        },
                    })
                })
            })
            .await?;
        // A document that is not open has none.
        let report = report.unwrap_or_else(|| {
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport::default())
        });
        Ok(DocumentDiagnosticReportResult::Report(report))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s| requests::inlay_hints::inlay_hint(s, params))
            .await
    }
}

/// How often the parent process named in `initialize` is looked for.
const PARENT_POLL: Duration = Duration::from_secs(3);

/// Ends the server (status 1) once the process `pid` (the editor that
/// started it, `processId` in `initialize`) is gone: an editor that died
/// without closing the server's input must not leave it running.
fn watch_parent(pid: u32) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    if pid <= 0 {
        return;
    }
    tokio::spawn(async move {
        loop {
            // First after a pause: `initialize` is answered before.
            tokio::time::sleep(PARENT_POLL).await;
            // SAFETY: signal 0 only checks that the process exists.
            let gone = unsafe { libc::kill(pid, 0) } != 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
            if gone {
                eprintln!("pbn lsp: the parent process {pid} has ended; exiting");
                std::process::exit(1);
            }
        }
    });
}

/// Settings for a document: the client's, with `pbn.toml` found upward from
/// the file filling in what the client does not say.
fn settings_for(state: &State, uri: &Uri) -> Settings {
    let mut s = state.settings();
    let dir = uri_to_path(uri).and_then(|p| p.parent().map(|d| d.to_path_buf()));
    if let Some(dir) = dir {
        if let Some(config) = state.config_for_dir(&dir) {
            s.export = s.export || config.check.export;
            s.dd = s.dd || config.check.dd;
            s.group = s.group && config.check.group;
            s.add_missing_tags = s.add_missing_tags && config.format.add_missing_tags;
            s.policy = super::settings::intern(config.check.policy());
        }
    }
    s
}

fn uri_to_path(uri: &Uri) -> Option<std::path::PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    let decoded = percent_decode(rest);
    Some(std::path::PathBuf::from(decoded))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
