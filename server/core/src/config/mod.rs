//! `pbn.toml` / `.pbn.toml`: project configuration, found upward from the
//! file being processed. The CLI and the language server read the same
//! file.
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
//! ```

use crate::format::FormatOptions;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Checker options in `pbn.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckConfig {
    /// Report export-format rules too (like `pbn check --export`).
    pub export: bool,
    /// Solve each deal and check its double-dummy values (like `pbn check
    /// --dd`).
    pub dd: bool,
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

/// Finds the configuration file for `start` (a file or directory): the
/// first `pbn.toml` or `.pbn.toml` in it or any parent directory.
pub fn find(start: &Path) -> Option<PathBuf> {
    let mut dir = if start.is_dir() {
        Some(start)
    } else {
        start.parent()
    };
    while let Some(d) = dir {
        for name in FILE_NAMES {
            let p = d.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
        dir = d.parent();
    }
    None
}

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

/// Loads the configuration for `start`, or the defaults when there is none.
pub fn load_for(start: &Path) -> Result<(Config, Option<PathBuf>), String> {
    match find(start) {
        None => Ok((Config::default(), None)),
        Some(p) => {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            Ok((parse(&text, &p)?, Some(p)))
        }
    }
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
                        "description": "Also report what import format allows but export format does not." }
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

    #[test]
    fn unknown_keys_are_errors_with_a_position() {
        let e = parse("[format]\nwidth = 3\n", Path::new("pbn.toml")).unwrap_err();
        assert!(e.starts_with("pbn.toml:2:"), "{e}");
    }

    #[test]
    fn schema_lists_every_option() {
        let s = schema();
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
