//! Diagnostics: what every rule produces, for the CLI and the server alike.
//!
//! Ranges are byte ranges into the decoded text ([`crate::text`]); the CLI and
//! the LSP layer convert them to lines and columns at the edge.

use std::ops::Range;
use std::sync::Arc;

pub use crate::codes::{all as all_codes, lookup, Category, CodeInfo, Severity};

/// A secondary location (e.g. the first of two duplicate tags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: Range<usize>,
    pub message: Arc<str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static CodeInfo,
    pub severity: Severity,
    pub range: Range<usize>,
    /// Shared, not copied, when the language server reuses a game's
    /// diagnostics after an edit (the checker): a clone is a reference count.
    pub message: Arc<str>,
    /// 0-based index of the game the diagnostic belongs to, if any.
    pub game: Option<usize>,
    pub related: Vec<Related>,
    /// The range is unused code (rendered faded by editors).
    pub unnecessary: bool,
    /// The repair, when the meaning is recoverable (shared, like the
    /// message, when the checker reuses a game's diagnostics).
    pub fix: Option<Arc<Fix>>,
}

/// One replacement of a byte range of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub new_text: String,
}

/// Whether a fix may be applied without asking (`pbn check --fix`, `pbn
/// fmt`, the editors' fix-all) or only on request (`--unsafe-fixes`, a
/// quick fix chosen by hand): unsafe when a guess is involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Applicability {
    Safe,
    Unsafe,
}

impl Applicability {
    /// `Safe` when `safe`, else `Unsafe`.
    pub fn safe_if(safe: bool) -> Applicability {
        if safe {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        }
    }
}

/// The text edits that resolve a diagnostic (as ruff's fixes): edits do not
/// overlap and are in no particular order. A fix of the file's encoding
/// (§2.2) has no edits and names the encoding to write the file in
/// ([`Fix::reencode`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
    /// The editor's preferred quick fix for the diagnostic.
    pub preferred: bool,
    /// Write the file in this encoding: a change of the bytes, not of the
    /// text, that only a writer of the file can make
    /// ([`crate::checker::fix::fix_source`] for `pbn check --fix` and `pbn
    /// fmt`; [`crate::text::reencoded`] gives the text as it then reads).
    /// [`apply_fixes`], which edits text, leaves such a fix alone.
    pub encoding: Option<crate::text::Encoding>,
    /// Made in a game with a syntax error (`rules::fixes::attach`): taken
    /// in a round of [`apply_fixes`] only with no other fix in this range
    /// of the text (the game between its game breaks). Each such fix keeps
    /// how the game reads around it, but two side by side may not (two
    /// repeated tags removed join what stood on either side).
    pub alone_in: Option<Range<usize>>,
}

impl Fix {
    pub fn new(title: impl Into<String>, edits: Vec<Edit>, applicability: Applicability) -> Fix {
        Fix {
            title: title.into(),
            edits,
            applicability,
            preferred: applicability == Applicability::Safe,
            encoding: None,
            alone_in: None,
        }
    }

    /// Writing the file in `encoding` (safe: the text reads the same,
    /// [`crate::text::reencoded`]); no text edit.
    pub fn reencode(title: impl Into<String>, encoding: crate::text::Encoding) -> Fix {
        Fix {
            encoding: Some(encoding),
            ..Fix::new(title, Vec::new(), Applicability::Safe)
        }
    }

    /// One replacement.
    pub fn replace(
        title: impl Into<String>,
        range: Range<usize>,
        new_text: impl Into<String>,
        applicability: Applicability,
    ) -> Fix {
        let new_text = new_text.into();
        Fix::new(title, vec![Edit { range, new_text }], applicability)
    }

    /// The bytes the edits cover, from the first start to the last end.
    pub fn span(&self) -> Range<usize> {
        let start = self.edits.iter().map(|e| e.range.start).min().unwrap_or(0);
        let end = self.edits.iter().map(|e| e.range.end).max().unwrap_or(0);
        start..end
    }

    /// Whether the fix would be applied when `unsafe_fixes` are allowed or not.
    pub fn applies(&self, unsafe_fixes: bool) -> bool {
        unsafe_fixes || self.applicability == Applicability::Safe
    }
}

/// The text with the fixes of `diagnostics` applied: those that
/// [`Fix::applies`], in the order of their first edit; a fix whose edits
/// overlap or touch a fix already taken is left for the next round (as ruff
/// does), as is a fix with an edit outside the text or not on character
/// boundaries. Returns the new text and the indices of the diagnostics
/// whose fix was applied; `None` when none was.
pub fn apply_fixes(
    text: &str,
    diagnostics: &[Diagnostic],
    unsafe_fixes: bool,
) -> Option<(String, Vec<usize>)> {
    let mut fixes: Vec<(usize, &Fix)> = diagnostics
        .iter()
        .enumerate()
        .filter_map(|(i, d)| Some((i, d.fix.as_deref().filter(|f| f.applies(unsafe_fixes))?)))
        .filter(|(_, f)| {
            !f.edits.is_empty()
                && f.edits.iter().all(|e| {
                    e.range.start <= e.range.end
                        && text.is_char_boundary(e.range.start)
                        && text.is_char_boundary(e.range.end)
                        && e.range.end <= text.len()
                })
        })
        .collect();
    fixes.sort_by_key(|(i, f)| (f.span().start, f.span().end, *i));
    // Taken edits by start: (end, index of the edit).
    let mut taken: std::collections::BTreeMap<usize, (usize, &Edit)> = Default::default();
    let mut applied = Vec::new();
    let mut seen: Vec<&Fix> = Vec::new();
    // Two edits conflict when they overlap or start or end at one point
    // (two insertions there would be ordered by chance).
    let conflict = |a: &Range<usize>, b: &Range<usize>| {
        (a.start < b.end && b.start < a.end) || a.start == b.start || a.end == b.end
    };
    // The ranges of the fixes taken that must be alone in them.
    let mut alone: Vec<Range<usize>> = Vec::new();
    let touches = |a: &Range<usize>, b: &Range<usize>| a.start <= b.end && b.start <= a.end;
    for (i, f) in fixes {
        if seen.last().is_some_and(|s| *s == f) {
            // The same fix on two diagnostics (a Deal's two PBN1012).
            applied.push(i);
            continue;
        }
        let span = f.span();
        let crowded = alone.iter().any(|a| touches(a, &span))
            || f.alone_in.as_ref().is_some_and(|a| {
                let before = taken.range(..=a.start).next_back();
                let inside = taken.range(a.start..=a.end).next();
                before.into_iter().any(|(_, (end, _))| *end >= a.start) || inside.is_some()
            });
        if crowded {
            continue;
        }
        let mut own: Vec<&Edit> = f.edits.iter().collect();
        own.sort_by_key(|e| (e.range.start, e.range.end));
        let inner = own.windows(2).any(|w| conflict(&w[0].range, &w[1].range));
        let clash = own.iter().any(|e| {
            let before = taken.range(..=e.range.start).next_back();
            let after = taken.range(e.range.start..).next();
            before
                .into_iter()
                .chain(after)
                .any(|(_, (_, t))| conflict(&e.range, &t.range))
        });
        if inner || clash {
            continue;
        }
        for e in own {
            taken.insert(e.range.start, (e.range.end, e));
        }
        alone.extend(f.alone_in.clone());
        seen.push(f);
        applied.push(i);
    }
    if applied.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    // Where a deletion inside one line was made, in `out`.
    let mut cuts = Vec::new();
    for (_, (_, e)) in taken {
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.new_text);
        if e.new_text.is_empty()
            && !e.range.is_empty()
            && !text[e.range.clone()].contains(['\n', '\r'])
        {
            cuts.push(out.len());
        }
        at = e.range.end;
    }
    out.push_str(&text[at..]);
    applied.sort_unstable();
    Some((drop_emptied_lines(out, &cuts), applied))
}

/// `out` without the lines that deletions left semi-empty (each held the
/// deleted text, so it was not): two deletions side by side on one line
/// (`[Vulner[Time "x"]`, each fix removing its part) would otherwise
/// leave a blank line, a game break (§3.1). `cuts` are ascending positions
/// in `out`; each line is scanned once, so many cuts on one line stay
/// linear.
fn drop_emptied_lines(out: String, cuts: &[usize]) -> String {
    let b = out.as_bytes();
    let is_break = |c: u8| c == b'\n' || c == b'\r';
    let semi_blank = |c: u8| matches!(c, b' ' | b'\t' | b'\x0B' | b'\x0C');
    let mut drop: Vec<std::ops::Range<usize>> = Vec::new();
    let mut scanned = 0;
    for &p in cuts {
        // (Between the `\r` and `\n` of a line end: no line of its own.)
        if p < scanned || (p > 0 && b[p - 1] == b'\r' && b.get(p) == Some(&b'\n')) {
            continue;
        }
        let start = b[..p]
            .iter()
            .rposition(|&c| is_break(c))
            .map_or(0, |i| i + 1);
        let end = b[p..]
            .iter()
            .position(|&c| is_break(c))
            .map_or(b.len(), |i| p + i);
        scanned = end + 1;
        if b[start..end].iter().all(|&c| semi_blank(c)) {
            // The line and its end: `\r\n`, `\r` or `\n`.
            let eol = match (b.get(end), b.get(end + 1)) {
                (Some(b'\r'), Some(b'\n')) => 2,
                (Some(_), _) => 1,
                (None, _) => 0,
            };
            if drop.last().is_none_or(|d| d.end <= start) {
                drop.push(start..end + eol);
            }
        }
    }
    if drop.is_empty() {
        return out;
    }
    let mut kept = String::with_capacity(out.len());
    let mut at = 0;
    for r in drop {
        kept.push_str(&out[at..r.start]);
        at = r.end;
    }
    kept.push_str(&out[at..]);
    kept
}

impl Diagnostic {
    /// The diagnostic with its range and related ranges moved by `by`
    /// bytes (its fix's edits are not: the checker shifts diagnostics kept
    /// per game or piece, whose fixes are built from the text when asked).
    pub fn shifted(mut self, by: isize) -> Diagnostic {
        let f = |r: &mut std::ops::Range<usize>| {
            *r = (r.start as isize + by) as usize..(r.end as isize + by) as usize
        };
        f(&mut self.range);
        for r in &mut self.related {
            f(&mut r.range);
        }
        self
    }

    /// A diagnostic with the code's default severity.
    /// Quotes of the file's text in the message longer than
    /// [`QUOTE_MAX`] characters are shortened, control characters shown
    /// ([`tidy`]).
    pub fn new(code: &'static CodeInfo, range: Range<usize>, message: impl Into<Arc<str>>) -> Self {
        Diagnostic {
            code,
            severity: code.severity,
            range,
            message: shortened(message.into()),
            game: None,
            related: Vec::new(),
            unnecessary: false,
            fix: None,
        }
    }

    pub fn with_fix(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix.map(Arc::new);
        self
    }

    pub fn with_game(mut self, game: Option<usize>) -> Self {
        self.game = game;
        self
    }

    pub fn with_related(mut self, range: Range<usize>, message: impl Into<Arc<str>>) -> Self {
        self.related.push(Related {
            range,
            message: shortened(message.into()),
        });
        self
    }

    /// Replaces the message (tidied as by [`Diagnostic::new`]).
    pub fn set_message(&mut self, message: impl Into<Arc<str>>) {
        self.message = shortened(message.into());
    }
}

/// The longest quote of the file's text a message keeps whole, in
/// characters; longer than any quote of the rules' own text (the longest,
/// ScoreRubberHistory's format in PBN0322, has 70).
pub const QUOTE_MAX: usize = 80;

/// The longest message a diagnostic carries, in characters. The rules' own
/// messages stay under 280 with their quotes shortened to [`QUOTE_MAX`];
/// a message over this is one whose quotes could not be told apart (a
/// quoted value holding `` ` `` or `"` itself) and is cut by [`tidy`].
pub const MESSAGE_MAX: usize = 400;

/// How much of the end a message cut at [`MESSAGE_MAX`] keeps: the rule's
/// closing words and its spec section.
const MESSAGE_TAIL: usize = 80;

fn shortened(message: Arc<str>) -> Arc<str> {
    match tidy(&message) {
        Some(short) => short.into(),
        None => message,
    }
}

/// A message as diagnostics carry it: quotes shortened
/// ([`shorten_quotes`]), control characters made visible
/// ([`visible_char`]) and at most [`MESSAGE_MAX`] characters
/// ([`cut_middle`]), so that a message quoting the file neither floods nor
/// drives the terminal (an ESC in a tag value). `None` when the message is
/// fine as it is.
pub fn tidy(message: &str) -> Option<String> {
    let short = shorten_quotes(message);
    let text = short.as_deref().unwrap_or(message);
    let visible = if text.chars().any(|c| c.is_control()) {
        Some(text.chars().map(visible_char).collect())
    } else {
        short
    };
    let text = visible.as_deref().unwrap_or(message);
    cut_middle(text).or(visible)
}

/// A message longer than [`MESSAGE_MAX`] characters keeps its start and its
/// last [`MESSAGE_TAIL`] characters (the end of the rule and its spec
/// section) around a `…`. Quotes are shortened first ([`shorten_quotes`]);
/// this catches the messages whose quotes cannot be paired because the
/// quoted text holds the delimiters itself (fuzz fixture
/// `parse_check/message-quoting-its-own-delimiters`: an unquoted tag value
/// full of `` ` ``). `None` when short enough.
fn cut_middle(message: &str) -> Option<String> {
    // Most messages: no more bytes than the limit, so no more characters.
    if message.len() <= MESSAGE_MAX {
        return None;
    }
    let count = message.chars().count();
    if count <= MESSAGE_MAX {
        return None;
    }
    let head_end = message
        .char_indices()
        .nth(MESSAGE_MAX - MESSAGE_TAIL - 1)
        .map_or(message.len(), |(i, _)| i);
    let tail_start = message
        .char_indices()
        .nth(count - MESSAGE_TAIL)
        .map_or(message.len(), |(i, _)| i);
    Some(format!(
        "{}…{}",
        &message[..head_end],
        &message[tail_start..]
    ))
}

/// A control character as it is shown in messages and source excerpts: C0
/// controls and DEL as their Unicode Control Pictures (`␀`, `␉`, `␛`,
/// `␡`), C1 controls as `�`; any other character as itself. One character
/// for one, so that carets stay in line.
pub fn visible_char(c: char) -> char {
    match c as u32 {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{FFFD}'),
        0x7f => '\u{2421}',
        0x80..=0x9f => '\u{FFFD}',
        _ => c,
    }
}

/// Messages quote the file (`` `name` ``, `"value"`), and a file may hold a
/// tag name of 100,000 characters or a value of a megabyte on one line
/// (§2.3 allows 255 characters): a quote longer than [`QUOTE_MAX`]
/// characters keeps its first `QUOTE_MAX - 4` and `…`, so that a message
/// stays readable and small; the diagnostic's range still covers all of
/// it. Quotes are the stretches between a `` ` `` and the next one, and
/// between a `"` and the next one. `None` when nothing is shortened.
pub fn shorten_quotes(message: &str) -> Option<String> {
    if message.len() <= QUOTE_MAX {
        return None;
    }
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for delim in ['`', '"'] {
        let mut rest = message
            .char_indices()
            .filter(|&(_, c)| c == delim)
            .map(|(i, _)| i);
        while let (Some(open), Some(close)) = (rest.next(), rest.next()) {
            let inner = &message[open + 1..close];
            if inner.len() > QUOTE_MAX && inner.chars().count() > QUOTE_MAX {
                let keep = inner
                    .char_indices()
                    .nth(QUOTE_MAX - 4)
                    .map_or(inner.len(), |(i, _)| i);
                cuts.push((open + 1 + keep, close));
            }
        }
    }
    if cuts.is_empty() {
        return None;
    }
    // A quote inside another one (`[Note "…"]`) is cut with it.
    cuts.sort_unstable();
    let mut out = String::with_capacity(message.len().min(4 * QUOTE_MAX * (cuts.len() + 1)));
    let mut at = 0;
    for (from, to) in cuts {
        if from < at {
            at = at.max(to);
            continue;
        }
        out.push_str(&message[at..from]);
        out.push('…');
        at = to;
    }
    out.push_str(&message[at..]);
    Some(out)
}

/// The order of every diagnostic list: by range, then code (stable).
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start, a.range.end, a.code.code).cmp(&(b.range.start, b.range.end, b.code.code))
    });
}

#[cfg(test)]
mod quote_tests {
    use super::*;

    #[test]
    fn short_quotes_are_kept() {
        assert_eq!(
            shorten_quotes("unknown tag `Foo` is skipped by PBN readers (§4.9)"),
            None
        );
        let at_limit = "N".repeat(QUOTE_MAX);
        assert_eq!(
            shorten_quotes(&format!("unknown tag `{at_limit}` (§4.9)")),
            None
        );
    }

    #[test]
    fn long_quotes_keep_their_start_and_the_rest_of_the_message() {
        let name = "N".repeat(100_000);
        let short = shorten_quotes(&format!(
            "unknown tag `{name}` is skipped by PBN readers (§4.9)"
        ))
        .unwrap();
        assert_eq!(
            short,
            format!(
                "unknown tag `{}…` is skipped by PBN readers (§4.9)",
                "N".repeat(QUOTE_MAX - 4)
            )
        );
        let value = "é".repeat(1000);
        let short = shorten_quotes(&format!(
            "the Board tag value is a positive integer, not \"{value}\" (§3.4.4)"
        ))
        .unwrap();
        assert_eq!(
            short,
            format!(
                "the Board tag value is a positive integer, not \"{}…\" (§3.4.4)",
                "é".repeat(QUOTE_MAX - 4)
            )
        );
    }

    #[test]
    fn nested_and_several_quotes() {
        let long = "x".repeat(200);
        let m = format!("no `[Note \"{long}\"]` explains `={long}=` (§3.5.5)");
        let short = shorten_quotes(&m).unwrap();
        let kept = "x".repeat(QUOTE_MAX - 4 - "[Note \"".len());
        assert_eq!(
            short,
            format!(
                "no `[Note \"{kept}…` explains `={}…` (§3.5.5)",
                "x".repeat(QUOTE_MAX - 5)
            )
        );
    }

    #[test]
    fn control_characters_are_shown() {
        assert_eq!(
            tidy("unexpected `a\u{0}b\u{1b}[31m\t\u{7f}\u{9b}`").as_deref(),
            Some("unexpected `a␀b␛[31m␉␡\u{FFFD}`")
        );
        assert_eq!(tidy("unexpected `é`"), None);
        assert_eq!(visible_char('x'), 'x');
    }

    #[test]
    fn a_message_whose_quotes_cannot_be_paired_is_cut_in_the_middle() {
        // The quoted value holds backticks, so no quote is longer than
        // QUOTE_MAX and shorten_quotes leaves it whole.
        let value = "ab`".repeat(1000);
        let m = format!("tag value `{value}` is not a quoted string (§3.3)");
        assert_eq!(shorten_quotes(&m), None);
        let cut = tidy(&m).unwrap();
        assert_eq!(cut.chars().count(), MESSAGE_MAX);
        assert!(cut.starts_with("tag value `ab`ab`"), "{cut}");
        assert!(cut.ends_with("` is not a quoted string (§3.3)"), "{cut}");
        assert_eq!(cut.matches('…').count(), 1);
        assert_eq!(tidy(&cut), None, "tidy is idempotent");
        // Control characters are made visible before the cut.
        let m = format!("`{}` (§3.3)", "\u{1}`".repeat(500));
        let cut = tidy(&m).unwrap();
        assert!(
            cut.chars().count() == MESSAGE_MAX && !cut.chars().any(char::is_control),
            "{cut}"
        );
        // A message at the limit is kept.
        let m = "x".repeat(MESSAGE_MAX);
        assert_eq!(tidy(&m), None);
    }

    #[test]
    fn constructors_shorten() {
        let name = "N".repeat(1000);
        let d = Diagnostic::new(
            &crate::codes::tags::UNKNOWN_TAG,
            0..1,
            format!("unknown tag `{name}`"),
        )
        .with_related(0..1, format!("first `{name}` tag"));
        assert!(d.message.chars().count() < 100 && d.related[0].message.chars().count() < 100);
        let mut d = d;
        d.set_message(format!("`{name}` again"));
        assert!(d.message.chars().count() < 100);
    }
}

#[cfg(test)]
mod apply_tests {
    use super::drop_emptied_lines;
    use crate::checker::{fix::fix_source, CheckOptions};
    use crate::text::decode;

    #[test]
    fn a_line_emptied_by_deletions_goes_with_its_line_end() {
        let out = "[A \"1\"]\r\n  \r\n[B \"2\"]\n".to_owned();
        assert_eq!(
            drop_emptied_lines(out.clone(), &[11]),
            "[A \"1\"]\r\n[B \"2\"]\n"
        );
        // A line that keeps text stays; a cut on it is scanned once.
        let out = "[A \"1\"] x\n".to_owned();
        assert_eq!(drop_emptied_lines(out.clone(), &[8, 9, 10]), out);
        // The last line, without a line end.
        assert_eq!(drop_emptied_lines("a\n \t".to_owned(), &[3]), "a\n");
        // Two cuts on one emptied line, the second at its line end: the
        // line goes once.
        assert_eq!(drop_emptied_lines("a\n  \nb".to_owned(), &[3, 4]), "a\nb");
        // A cut between `\r` and `\n` has no line of its own.
        assert_eq!(drop_emptied_lines("a\r\nb".to_owned(), &[2]), "a\r\nb");
    }

    /// Two repeated tags side by side on one line are deleted in one round:
    /// the line goes too, so no game break appears and the game stays one.
    #[test]
    fn side_by_side_deletions_leave_no_game_break() {
        let text = "[Event \"a\"]\n[Vul \"x\"][Time \"one\"]\n[Site \"b\"]\n[Vul \"x\"][Time \"one\"]\n[Site \"b\"]\n";
        let fixed = fix_source(&decode(text.as_bytes()), &CheckOptions::default(), false);
        assert_eq!(
            fixed.source.text,
            "[Event \"a\"]\n[Vul \"x\"][Time \"one\"]\n[Site \"b\"]\n"
        );
        assert_eq!(fixed.remaining.games, 1);
    }
}
