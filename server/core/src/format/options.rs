//! Formatting options, read from `pbn.toml` / `.pbn.toml` (the `[format]`
//! table) or given on the command line.

use serde::{Deserialize, Serialize};

/// Which line ending to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EolOption {
    /// The file's own (most frequent) line ending.
    #[default]
    Keep,
    /// CRLF, as export format requires (§2.3).
    Crlf,
    Lf,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FormatOptions {
    /// Add the mandatory tags a game lacks with the value "?" (§3.4), unless
    /// a `##` tag of an earlier game covers them (§4.8).
    pub add_missing_tags: bool,
    /// Line endings to write.
    pub eol: EolOption,
    /// Make sure the file starts with `% PBN 2.1` and `% EXPORT` (§2.4).
    pub export_header: bool,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            add_missing_tags: true,
            eol: EolOption::Keep,
            export_header: false,
        }
    }
}
