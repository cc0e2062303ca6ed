//! The registry of diagnostic codes. Every rule has one stable code; `pbn
//! explain CODE` prints its entry. Codes are grouped by hundreds, one file
//! per group owner:
//!
//! | range    | category            | file          |
//! |----------|---------------------|---------------|
//! | PBN00xx  | syntax              | `syntax.rs`   |
//! | PBN01xx  | characters, lines, encoding | `text.rs` |
//! | PBN02xx  | tags (names, duplicates, `#`, dependencies) | `tags.rs` |
//! | PBN03xx  | tag values          | `values.rs`   |
//! | PBN04xx  | the Deal            | `values.rs`   |
//! | PBN05xx  | the auction         | `bridge.rs`   |
//! | PBN06xx  | the play            | `bridge.rs`   |
//! | PBN07xx  | annotations and notes | `notes.rs`  |
//! | PBN08xx  | supplemental sections and tables | `tables.rs` |
//! | PBN09xx  | consistency between tags | `bridge.rs` |
//! | PBN10xx  | export format       | `export.rs`   |
//! | PBN11xx  | double-dummy analysis (`pbn check --dd`) | `dd.rs` |
//!
//! Never renumber or reuse a published code. Default severities follow
//! [`POLICY`]; `pbn.toml` can change them ([`crate::config::Policy`]).

/// How a code's default severity is chosen: printed by `pbn explain
/// --policy` and quoted in README.md (a test keeps them equal).
pub const POLICY: &str = "\
Severity policy
- error: the file breaks what the PBN standard requires, whether or not the
  meaning can still be recovered. What the file cannot mean (a revoke, an
  impossible deal, a wrong score) is always an error.
- warning instead of error, in import format only (no `% EXPORT` line, no
  --export): a value in a form PBN does not define that is read without
  doubt and has a safe fix: `P` for Pass, `3N` for 3NT, `2023-07-28` for
  2023.07.28, `North` for N, `...` for an empty hand (PBN0302, PBN0311,
  PBN0313, PBN0316, PBN0411, PBN0520, PBN0620). Export format keeps them
  errors.
- warning: the file goes against what the standard only recommends or
  discourages (a missing `*` at the end of an incomplete auction, white
  space around a value, a duplicate tag), and tags the standard does not
  define (§4.9).
- info: advice; the file is correct (a dealer that is not the usual one
  for the board number).
- hint: a remark on a correct file that asks for nothing (a tag another
  program defines for itself).
A file-wide pattern is shown once: the same code and message form (numbers
aside) in at least 5 games, or in at least 3 that are more than half of the
file's, for a readable form above, an unknown tag, a tag name's case, a
value's padding, an unlisted value, a layout fault of export format
(PBN10xx), a dealer or vulnerability off the usual rotation, an auction
written from the opening bid (PBN0512), sections without the tags they
need before them (PBN0204, PBN0205: a board's second table written
without its Deal), characters outside ISO 8859-1 (PBN0106), board
numbers of another form (PBN0307, `7-3`). It sits on the
first, says in how many games, lists the places as related information and
carries one fix for all. `pbn check --no-group` or `[check] group = false`
lists each.
A pbn.toml can ignore codes or categories and change a code's severity:
  [check]
  ignore = [\"PBN0710\", \"export\"]
  [check.severity]
  PBN0208 = \"info\"
";

/// The codes of a value read without doubt, in a form PBN does not define,
/// whose fix is safe: warnings in import format, errors in export format
/// ([`POLICY`], [`severity_in`]).
pub static READABLE: [&CodeInfo; 7] = [
    &values::NONSTANDARD_DATE,
    &values::NONSTANDARD_SEAT,
    &values::NONSTANDARD_VULNERABLE,
    &values::NONSTANDARD_CONTRACT,
    &values::DEAL_EMPTY_HAND,
    &bridge::NONSTANDARD_CALL,
    &bridge::NONSTANDARD_CARD,
];

/// The severity of a diagnostic of `code` whose rule gave it `severity`,
/// in a game under export rules or not ([`POLICY`]): the one place the
/// import-format leniency is decided.
pub fn severity_in(code: &CodeInfo, severity: Severity, export: bool) -> Severity {
    let readable = READABLE.iter().any(|c| std::ptr::eq(*c, code));
    if readable && !export && severity == Severity::Error {
        Severity::Warning
    } else {
        severity
    }
}

/// The severity of a diagnostic of `code` shown with `severity`, as export
/// rules have it ([`severity_in`] undone): what a strict reader, such as
/// the reference verifier, calls it.
pub fn strict_severity(code: &CodeInfo, severity: Severity) -> Severity {
    let readable = READABLE.iter().any(|c| std::ptr::eq(*c, code));
    if readable && severity == Severity::Warning {
        code.severity
    } else {
        severity
    }
}

/// How the diagnostics of a code that forms file-wide patterns are told
/// apart ([`POLICY`]; `crate::checker` groups them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// By code alone: a convention of the whole file (a dealer or a
    /// vulnerability off the usual rotation).
    Code,
    /// By the message with its numbers left out (`1N` and `3N` alike,
    /// `P` apart).
    Numbers,
    /// By the message with its numbers and quotes left out: a layout fault
    /// whatever tag or token it is on.
    Quotes,
}

/// Whether diagnostics of `code` form file-wide patterns, and how.
pub fn pattern(code: &CodeInfo) -> Option<Pattern> {
    if READABLE.iter().any(|c| std::ptr::eq(*c, code)) {
        return Some(Pattern::Numbers);
    }
    match code.code {
        "PBN0905" | "PBN0906" | "PBN0512" | "PBN0106" => Some(Pattern::Code),
        "PBN0307" => Some(Pattern::Quotes),
        "PBN0201" | "PBN0204" | "PBN0205" | "PBN0208" | "PBN0314" | "PBN0328" | "PBN0331" => {
            Some(Pattern::Numbers)
        }
        c if c.starts_with("PBN10") => Some(Pattern::Quotes),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

pub mod bridge;
pub mod dd;
pub mod export;
pub mod notes;
pub mod syntax;
pub mod tables;
pub mod tags;
pub mod text;
pub mod values;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Syntax,
    Encoding,
    Tag,
    Deal,
    Auction,
    Play,
    Note,
    Table,
    Consistency,
    Export,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::Syntax => "syntax",
            Category::Encoding => "encoding",
            Category::Tag => "tag",
            Category::Deal => "deal",
            Category::Auction => "auction",
            Category::Play => "play",
            Category::Note => "note",
            Category::Table => "table",
            Category::Consistency => "consistency",
            Category::Export => "export",
        }
    }

    /// Every category, in code order.
    pub const ALL: [Category; 10] = [
        Category::Syntax,
        Category::Encoding,
        Category::Tag,
        Category::Deal,
        Category::Auction,
        Category::Play,
        Category::Note,
        Category::Table,
        Category::Consistency,
        Category::Export,
    ];

    /// The category named `name` (as [`Category::name`] writes it, any case).
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// One diagnostic code: its default severity, category, the spec section it
/// enforces and the long explanation with a failing and a fixed example.
#[derive(Debug, PartialEq, Eq)]
pub struct CodeInfo {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub category: Category,
    /// PBN 2.1 section, e.g. "§3.3".
    pub section: &'static str,
    pub summary: &'static str,
    pub explanation: &'static str,
    /// A PBN fragment that triggers the code…
    pub bad: &'static str,
    /// …and the same fragment fixed.
    pub good: &'static str,
}

/// Defines code statics and a `LIST` of them. Used by each group file:
///
/// ```ignore
/// codes! {
///     NAME = "PBN0301", "rule-name", Error, Tag, "§3.4.3",
///         "one-line summary",
///         "long explanation",
///         bad: "[Date \"95.06.10\"]\n",
///         good: "[Date \"1995.06.10\"]\n";
/// }
/// ```
macro_rules! codes {
    ($( $ident:ident = $code:literal, $name:literal, $sev:ident, $cat:ident, $sec:literal,
        $summary:literal, $expl:literal, bad: $bad:literal, good: $good:literal; )*) => {
        $( pub static $ident: $crate::codes::CodeInfo = $crate::codes::CodeInfo {
            code: $code, name: $name, severity: $crate::codes::Severity::$sev,
            category: $crate::codes::Category::$cat,
            section: $sec, summary: $summary, explanation: $expl, bad: $bad, good: $good,
        }; )*
        /// The codes of this group.
        pub static LIST: &[&$crate::codes::CodeInfo] = &[ $( &$ident ),* ];
    };
}
pub(crate) use codes;

/// Every code, sorted by code.
pub fn all() -> &'static [&'static CodeInfo] {
    static ALL: OnceLock<Vec<&'static CodeInfo>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<&'static CodeInfo> = Vec::new();
        for group in [
            syntax::LIST,
            text::LIST,
            tags::LIST,
            values::LIST,
            bridge::LIST,
            notes::LIST,
            tables::LIST,
            export::LIST,
            dd::LIST,
        ] {
            v.extend_from_slice(group);
        }
        v.sort_by_key(|c| c.code);
        v
    })
}

/// Finds a code by its number (`PBN0001`, `pbn0001`, `1`) or its name.
pub fn lookup(query: &str) -> Option<&'static CodeInfo> {
    let q = query.trim();
    let upper = q.to_ascii_uppercase();
    let by_number = |n: &str| all().iter().copied().find(|c| c.code == n);
    if let Some(c) = by_number(&upper) {
        return Some(c);
    }
    if let Ok(n) = q.parse::<u32>() {
        return by_number(&format!("PBN{n:04}"));
    }
    all()
        .iter()
        .copied()
        .find(|c| c.name.eq_ignore_ascii_case(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    impl CodeInfo {
        fn message_like_summary(&self) -> bool {
            !self.summary.is_empty() && !self.summary.ends_with('.') && self.explanation.len() > 40
        }
    }

    #[test]
    fn codes_are_unique_and_sorted() {
        let all = all();
        for w in all.windows(2) {
            assert_ne!(w[0].code, w[1].code, "duplicate code");
            assert!(w[0].code < w[1].code, "{} before {}", w[0].code, w[1].code);
        }
        let mut names: Vec<_> = all.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }

    #[test]
    fn every_code_cites_a_section_and_has_examples() {
        for c in all() {
            assert!(c.code.len() == 7 && c.code.starts_with("PBN"), "{}", c.code);
            assert!(c.message_like_summary(), "{}", c.code);
            assert!(c.section.starts_with('§'), "{}", c.code);
            assert!(!c.bad.is_empty() && !c.good.is_empty(), "{}", c.code);
            assert_ne!(c.bad, c.good, "{}", c.code);
        }
    }

    #[test]
    fn lookup_forms() {
        assert_eq!(lookup("PBN0001").unwrap().code, "PBN0001");
        assert_eq!(lookup("pbn0003").unwrap().code, "PBN0003");
        assert_eq!(lookup("5").unwrap().code, "PBN0005");
        assert_eq!(lookup("syntax-error").unwrap().code, "PBN0001");
        assert!(lookup("PBN9999").is_none());
    }
}
