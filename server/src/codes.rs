//! The registry of diagnostic codes. Every rule has one stable code; `pbn
//! explain CODE` prints its entry. Codes are grouped by hundreds:
//! PBN00xx syntax, PBN01xx characters/encoding, PBN02xx tags, … (see
//! ARCHITECTURE.md). Never renumber a published code.

use crate::diagnostic::Severity;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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
    pub bad: &'static str,
    pub good: &'static str,
}

macro_rules! codes {
    ($( $ident:ident = $code:literal, $name:literal, $sev:ident, $cat:ident, $sec:literal,
        $summary:literal, $expl:literal, bad: $bad:literal, good: $good:literal; )*) => {
        $( pub static $ident: CodeInfo = CodeInfo {
            code: $code, name: $name, severity: Severity::$sev, category: Category::$cat,
            section: $sec, summary: $summary, explanation: $expl, bad: $bad, good: $good,
        }; )*
        /// Every code, in code order.
        pub static CODES: &[&CodeInfo] = &[ $( &$ident ),* ];
    };
}

codes! {
    SYNTAX_ERROR = "PBN0001", "syntax-error", Error, Syntax, "§3.2",
        "text that is not a PBN token here",
        "The parser found characters that do not form a PBN token at this place \
         (§3.2 lists the tokens: brackets, names, strings, calls, cards, suffixes, \
         note references, NAGs, `*`, `+`, irregularities and section tokens). Free text \
         belongs in a `{…}` or `;` comment (§3.8). A `}` with no `{` before it usually \
         means a brace comment contained another `}`: brace comments do not nest.",
        bad: "[Event \"x\"]\nthis is free text\n",
        good: "[Event \"x\"]\n{this is free text}\n";
    MISSING_TOKEN = "PBN0002", "missing-token", Error, Syntax, "§3.3",
        "a required token is missing",
        "A tag pair is composed of four consecutive tokens: a left bracket, a name, a \
         string and a right bracket (§3.3). The parser inserted the missing token to \
         continue; the tag is read as if it were there.",
        bad: "[Event \"x\"\n",
        good: "[Event \"x\"]\n";
    UNTERMINATED_STRING = "PBN0003", "unterminated-string", Error, Syntax, "§3.2",
        "string without its closing quote",
        "A string token is delimited by a pair of quote characters and cannot cross a \
         line boundary (§3.2: tokens do not cross line boundaries; newline is not \
         permitted inside strings). This string reaches the end of its line without \
         a closing `\"`. A quote inside a string is written `\\\"`.",
        bad: "[Note \"1:forcing]\n",
        good: "[Note \"1:forcing\"]\n";
    UNTERMINATED_COMMENT = "PBN0004", "unterminated-comment", Error, Syntax, "§3.8",
        "brace comment without its closing `}`",
        "A brace comment continues to the next right brace (§3.8). This one has no \
         closing `}` before the next semi-empty line; by the letter of the spec it would \
         swallow the rest of the file. It is read up to the semi-empty line.",
        bad: "{ a comment\n\n[Event \"x\"]\n",
        good: "{ a comment }\n\n[Event \"x\"]\n";
    MISSING_TAG_VALUE = "PBN0005", "missing-tag-value", Error, Syntax, "§3.3",
        "tag pair without a value",
        "A tag pair is a left bracket, a tag name, a string (the tag value) and a right \
         bracket (§3.3). This tag has no string. Use `\"\"` for an empty value or `\"?\"` \
         for an unknown one (§3.4).",
        bad: "[Event]\n",
        good: "[Event \"\"]\n";
    UNQUOTED_TAG_VALUE = "PBN0006", "unquoted-tag-value", Error, Syntax, "§3.3",
        "tag value is not a quoted string",
        "The tag value must be a string token, delimited by quote characters (§3.2, \
         §3.3). The bare word is read as the value.",
        bad: "[Event No_quotes]\n",
        good: "[Event \"No_quotes\"]\n";
}

/// Finds a code by its number (`PBN0001`, `pbn0001`, `1`) or its name.
pub fn lookup(query: &str) -> Option<&'static CodeInfo> {
    let q = query.trim();
    let upper = q.to_ascii_uppercase();
    let by_number = |n: &str| CODES.iter().copied().find(|c| c.code == n);
    if let Some(c) = by_number(&upper) {
        return Some(c);
    }
    if let Ok(n) = q.parse::<u32>() {
        return by_number(&format!("PBN{n:04}"));
    }
    CODES.iter().copied().find(|c| c.name.eq_ignore_ascii_case(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for w in CODES.windows(2) {
            assert!(w[0].code < w[1].code, "{} before {}", w[0].code, w[1].code);
        }
        let mut names: Vec<_> = CODES.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CODES.len());
    }

    #[test]
    fn every_code_cites_a_section_and_has_examples() {
        for c in CODES {
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
