//! The settings that affect analysis, and their JSON form from the client.

use pbn_core::text::PositionEncoding;
use serde::Deserialize;

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
    /// Check the double-dummy values a game states (PBN11xx), as
    /// `pbn check --dd`; also on with `[check] dd = true` in pbn.toml.
    pub dd: bool,
    /// How many games, from the start of a document, have their deals
    /// solved in the background once it is opened or edited (the hover's
    /// double-dummy table is then ready); 0: none. `{"pbn": {"ddBackground": N}}`.
    pub dd_background: usize,
    /// A pattern that runs through a file as one diagnostic
    /// (`pbn_core::codes::POLICY`); `{"pbn": {"check": {"group": false}}}`
    /// or `[check] group = false` in pbn.toml lists each.
    pub group: bool,
    /// `[check] ignore` and `[check.severity]` of the file's `pbn.toml`,
    /// applied to the published diagnostics as `pbn check` applies them.
    /// Interned ([`intern`]): the settings stay `Copy`.
    pub policy: &'static pbn_core::config::Policy,
    /// The client resolves a code action's `edit` later
    /// (`codeAction/resolve`): the costly actions (fix all, convert the
    /// file, double-dummy analysis) are listed without their edits.
    pub resolve_edits: bool,
    /// The client pulls diagnostics without ever sending the
    /// `previousResultId` it holds (Neovim 0.11): it holds the last full
    /// report answered for the document, so a pull without one can be
    /// answered `unchanged`. Another client sends no id when it holds
    /// nothing (VS Code after a tab is closed), and gets a full report.
    pub pull_keeps_last: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            encoding: PositionEncoding::Utf16,
            export: false,
            add_missing_tags: true,
            dd: false,
            dd_background: 200,
            group: true,
            policy: intern(pbn_core::config::Policy::default()),
            resolve_edits: false,
            pull_keeps_last: false,
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
    pub check: Option<ClientCheckSettings>,
    pub dd_background: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientFormatSettings {
    pub add_missing_tags: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientCheckSettings {
    /// `{"pbn": {"check": {"dd": true}}}`.
    pub dd: Option<bool>,
    /// `{"pbn": {"check": {"group": false}}}`.
    pub group: Option<bool>,
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
            if let Some(check) = c.check {
                if let Some(d) = check.dd {
                    self.dd = d;
                }
                if let Some(g) = check.group {
                    self.group = g;
                }
            }
            if let Some(n) = c.dd_background {
                self.dd_background = n;
            }
        }
    }
}

/// The one shared copy of `policy`: each distinct policy (one per
/// `pbn.toml` content) is allocated once for the life of the server.
pub fn intern(policy: pbn_core::config::Policy) -> &'static pbn_core::config::Policy {
    static SEEN: std::sync::Mutex<Vec<&'static pbn_core::config::Policy>> =
        std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&p) = seen.iter().find(|&&p| *p == policy) {
        return p;
    }
    let p: &'static _ = Box::leak(Box::new(policy));
    seen.push(p);
    p
}
