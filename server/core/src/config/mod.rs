//! `pbn.toml` / `.pbn.toml`: project configuration, its options and how
//! they are read ([`parse`]). The CLI (`check`, `fmt`) and the language
//! server read the same file, found upward from the file being processed
//! (`pbn::config_file`: the core does no IO).
//!
//! ```toml
//! [format]
//! add_missing_tags = true   # add the mandatory tags as "?" (§3.4)
//! eol = "keep"              # "keep", "crlf" (export format, §2.3) or "lf"
//! export_header = false     # start the file with "% PBN 2.1" and "% EXPORT"
//!
//! [check]
//! export = false            # also report export-format rules
//! dd = false                # also check double-dummy values (pbn check --dd)
//! group = true              # a file-wide pattern as one diagnostic (codes::POLICY)
//! ignore = ["PBN0123", "export"]   # codes or categories never reported
//!
//! [check.severity]          # a code's or a category's severity
//! PBN0302 = "error"         # "error", "warning", "info" or "hint"
//! ```

use crate::codes::{Category, Severity};
use crate::diagnostic::Diagnostic;
use crate::format::FormatOptions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Checker options in `pbn.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckConfig {
    /// Report export-format rules too (like `pbn check --export`).
    pub export: bool,
    /// Solve each deal and check its double-dummy values (like `pbn check
    /// --dd`).
    pub dd: bool,
    /// Show a file-wide pattern as one diagnostic ([`crate::codes::POLICY`]);
    /// `false` lists each (like `pbn check --no-group`).
    pub group: bool,
    /// Codes or categories never reported.
    pub ignore: Vec<Selector>,
    /// The severity of a code or a category, instead of its default.
    pub severity: BTreeMap<Selector, Severity>,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            export: false,
            dd: false,
            group: true,
            ignore: Vec::new(),
            severity: BTreeMap::new(),
        }
    }
}

impl CheckConfig {
    /// The `ignore` and `severity` entries.
    pub fn policy(&self) -> Policy {
        Policy {
            ignore: self.ignore.clone(),
            severity: self.severity.clone(),
            select: Vec::new(),
        }
    }
}

/// A code (`PBN0302`, `302` or its name `nonstandard-date`) or a category
/// (`export`), as `ignore` and `[check.severity]` name them. Written back
/// as the code or the category's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "String")]
pub enum Selector {
    Code(&'static str),
    Category(Category),
}

impl<'de> Deserialize<'de> for Selector {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Selector, D::Error> {
        Selector::try_from(String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<String> for Selector {
    type Error = String;
    fn try_from(s: String) -> Result<Selector, String> {
        if let Some(c) = Category::from_name(&s) {
            return Ok(Selector::Category(c));
        }
        match crate::codes::lookup(&s) {
            Some(info) => Ok(Selector::Code(info.code)),
            None => Err(format!(
                "`{s}` is neither a diagnostic code (`pbn explain --list`) nor a category ({})",
                Category::ALL.map(|c| c.name()).join(", ")
            )),
        }
    }
}

impl From<Selector> for String {
    fn from(s: Selector) -> String {
        match s {
            Selector::Code(c) => c.to_string(),
            Selector::Category(c) => c.name().to_string(),
        }
    }
}

impl Selector {
    fn matches_code(self, d: &Diagnostic) -> bool {
        self == Selector::Code(d.code.code)
    }
    fn matches_category(self, d: &Diagnostic) -> bool {
        self == Selector::Category(d.code.category)
    }
}

/// Which diagnostics are reported and how severe they are: `[check]`
/// `ignore` and `[check.severity]`, applied by `pbn check` and the language
/// server alike. A code's own entry wins over its category's; within one
/// level `ignore` wins over a severity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policy {
    /// Codes or categories never reported.
    pub ignore: Vec<Selector>,
    /// The severity of a code or a category, instead of its default.
    pub severity: BTreeMap<Selector, Severity>,
    /// When not empty, only these codes or categories are reported (`pbn
    /// check --select`).
    pub select: Vec<Selector>,
}

/// What the policy does to one diagnostic.
enum Verdict {
    Keep,
    Drop,
    Set(Severity),
}

impl Policy {
    /// No entry: every diagnostic as the rules report it.
    pub fn is_empty(&self) -> bool {
        self.ignore.is_empty() && self.severity.is_empty() && self.select.is_empty()
    }

    fn verdict(&self, d: &Diagnostic) -> Verdict {
        if !self.select.is_empty()
            && !self
                .select
                .iter()
                .any(|&s| s.matches_code(d) || s.matches_category(d))
        {
            return Verdict::Drop;
        }
        type Matcher = fn(Selector, &Diagnostic) -> bool;
        let levels: [Matcher; 2] = [Selector::matches_code, Selector::matches_category];
        for matches in levels {
            if self.ignore.iter().any(|&s| matches(s, d)) {
                return Verdict::Drop;
            }
            if let Some((_, &sev)) = self.severity.iter().find(|(&s, _)| matches(s, d)) {
                return Verdict::Set(sev);
            }
        }
        Verdict::Keep
    }

    /// Drops the ignored diagnostics and sets the configured severities.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.is_empty() {
            return;
        }
        diagnostics.retain_mut(|d| match self.verdict(d) {
            Verdict::Keep => true,
            Verdict::Drop => false,
            Verdict::Set(sev) => {
                d.severity = sev;
                true
            }
        });
    }
}

/// The whole configuration file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub format: FormatOptions,
    pub check: CheckConfig,
}

/// File names looked for, in this order, in each directory.
pub const FILE_NAMES: [&str; 2] = ["pbn.toml", ".pbn.toml"];

/// Parses configuration text; the error names the file, line and column.
pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
    toml::from_str(text).map_err(|e| {
        let loc = e.span().map(|s| {
            let before = &text[..s.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
            format!(":{line}:{col}")
        });
        format!(
            "{}{}: {}",
            path.display(),
            loc.unwrap_or_default(),
            e.message()
        )
    })
}

/// The JSON schema of `pbn.toml` (printed by `pbn config schema`).
pub fn schema() -> serde_json::Value {
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "pbn.toml",
        "description": "Configuration of the PBN tools (pbn check, pbn fmt, pbn lsp), found upward from the file.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "format": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "add_missing_tags": { "type": "boolean", "default": true,
                        "description": "Add the mandatory tags a game lacks with the value \"?\" (PBN 2.1 §3.4), unless a ## tag of an earlier game covers them (§4.8)." },
                    "eol": { "enum": ["keep", "crlf", "lf"], "default": "keep",
                        "description": "Line endings to write: the file's own, CRLF (export format, §2.3) or LF." },
                    "export_header": { "type": "boolean", "default": false,
                        "description": "Start the file with \"% PBN 2.1\" and \"% EXPORT\" (§2.4)." }
                }
            },
            "check": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "export": { "type": "boolean", "default": false,
                        "description": "Also report what import format allows but export format does not." },
                    "dd": { "type": "boolean", "default": false,
                        "description": "Also solve each deal and check its double-dummy values (pbn check --dd)." },
                    "group": { "type": "boolean", "default": true,
                        "description": "Show a pattern that runs through a file (the same readable form, unknown tag, export layout fault or board rotation in many games) as one diagnostic on its first occurrence; false lists each (pbn check --no-group)." },
                    "ignore": { "type": "array", "default": [],
                        "items": { "type": "string" },
                        "description": "Codes (PBN0302, or a name such as nonstandard-date) or categories (syntax, encoding, tag, deal, auction, play, note, table, consistency, export) never reported." },
                    "severity": { "type": "object", "default": {},
                        "additionalProperties": { "enum": ["error", "warning", "info", "hint"] },
                        "description": "The severity of a code or a category instead of its default; a code's entry wins over its category's." }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::EolOption;

    #[test]
    fn parses_and_defaults() {
        let c = parse("[format]\neol = \"crlf\"\n", Path::new("pbn.toml")).unwrap();
        assert_eq!(c.format.eol, EolOption::Crlf);
        assert!(c.format.add_missing_tags);
        assert_eq!(parse("", Path::new("x")).unwrap(), Config::default());
    }

    fn diag(code: &str) -> Diagnostic {
        Diagnostic::new(crate::codes::lookup(code).unwrap(), 0..1, "m")
    }

    #[test]
    fn ignore_and_severity_by_code_and_category() {
        let text = "[check]\nignore = [\"PBN0302\", \"export\"]\n\n[check.severity]\nnonstandard-contract = \"error\"\ntag = \"info\"\nPBN1001 = \"hint\"\n";
        let c = parse(text, Path::new("pbn.toml")).unwrap();
        let p = c.check.policy();
        assert!(!p.is_empty());
        let mut d = vec![
            diag("PBN0302"), // ignored by code
            diag("PBN1001"), // an export code: its own severity wins over the category's ignore
            diag("PBN1002"), // export: ignored by category
            diag("PBN0316"), // severity by name
            diag("PBN0301"), // tag category: info
            diag("PBN0501"), // untouched
        ];
        let auction = d[5].severity;
        p.apply(&mut d);
        let got: Vec<_> = d.iter().map(|d| (d.code.code, d.severity)).collect();
        assert_eq!(
            got,
            [
                ("PBN1001", Severity::Hint),
                ("PBN0316", Severity::Error),
                ("PBN0301", Severity::Info),
                ("PBN0501", auction),
            ]
        );
        // `pbn config show` writes the entries back by code and category.
        let shown = toml::to_string(&c).unwrap();
        assert!(
            shown.contains("ignore = [\"PBN0302\", \"export\"]"),
            "{shown}"
        );
        assert!(shown.contains("PBN0316 = \"error\""), "{shown}");
        assert!(shown.contains("tag = \"info\""), "{shown}");
        assert!(Config::default().check.policy().is_empty());
    }

    #[test]
    fn an_unknown_code_or_severity_is_an_error_with_a_position() {
        let e = parse("[check]\nignore = [\"PBN9999\"]\n", Path::new("pbn.toml")).unwrap_err();
        assert!(e.starts_with("pbn.toml:2:"), "{e}");
        assert!(e.contains("`PBN9999` is neither a diagnostic code"), "{e}");
        let e = parse(
            "[check.severity]\nPBN0302 = \"fatal\"\n",
            Path::new("pbn.toml"),
        )
        .unwrap_err();
        assert!(e.starts_with("pbn.toml:2:"), "{e}");
    }

    #[test]
    fn unknown_keys_are_errors_with_a_position() {
        let e = parse("[format]\nwidth = 3\n", Path::new("pbn.toml")).unwrap_err();
        assert!(e.starts_with("pbn.toml:2:"), "{e}");
    }

    #[test]
    fn schema_lists_every_option() {
        let s = schema();
        for (k, _) in serde_json::to_value(Config::default()).unwrap()["check"]
            .as_object()
            .unwrap()
        {
            assert!(
                s["properties"]["check"]["properties"].get(k).is_some(),
                "schema misses {k}"
            );
        }
        for key in ["add_missing_tags", "eol", "export_header"] {
            assert!(
                s["properties"]["format"]["properties"].get(key).is_some(),
                "{key}"
            );
        }
        let defaults = serde_json::to_value(Config::default()).unwrap();
        for (k, _) in defaults["format"].as_object().unwrap() {
            assert!(
                s["properties"]["format"]["properties"].get(k).is_some(),
                "schema misses {k}"
            );
        }
    }
}
