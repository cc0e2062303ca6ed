//! Checking a document: `pbn check`'s [`check_text`] (the language
//! server's game-by-game re-check, [`crate::checker::engine`], from an
//! empty state) and the server's [`check_segments`]. The reference they
//! are tested against is [`crate::reference::check_whole`]. All run the
//! rule functions of [`crate::rules`].

mod deal_ids;
mod engine;
pub mod fix;
mod game;
pub mod group;
mod inherit;
pub mod json;
mod layout;
mod merge;
mod piece;
mod resolve;
mod state;

pub use engine::{check, check_segments};
pub use inherit::Resolutions;
pub use state::{Checked, GameRanges, Segment, State, Stats};

pub use crate::rules::CheckOptions;

use crate::diagnostic::Diagnostic;
use crate::model::{CommentKind, Document};
use crate::syntax::{self, Trees};
use crate::text::SourceText;

/// The result of checking one document.
#[derive(Debug)]
pub struct CheckResult {
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks a decoded document: `pbn check`'s path. The text is cut at game
/// breaks into pieces of about [`syntax::EDIT_PIECE`] bytes and run
/// through the language server's re-check ([`crate::checker::engine`]) from an
/// empty state: the pieces are parsed on every core, and each piece's games
/// are lowered and checked by the worker that parsed it while its trees
/// are at hand (in its caches), so that the trees of the whole document
/// never exist at once (a tenth of the memory, and no time spent faulting
/// it in). A document with `#` values (§4.8) needs every game's tags before
/// any game can be checked: its pieces are parsed again for the check
/// after the tags are read (kept, the trees of a whole document took about
/// 45 bytes a byte of text, beyond the memory ceiling of ROBUSTNESS.md), a
/// few of them kept in a small cache. The diagnostics are those of
/// [`crate::reference::check_whole`] (tested in `tests/tests/checker.rs`).
pub fn check_text(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    let text = source.text.as_str();
    let budget = if source.uses_hash_values() {
        syntax::CACHE_BUDGET
    } else {
        0
    };
    let forest = syntax::Forest::cut_with_cache(text, syntax::EDIT_PIECE, budget);
    let result = engine::check_once(source, &forest, opts);
    crate::par::drop_later(forest);
    result
}

/// [`syntax::syntax_diagnostics`] for a document whose model is already lowered:
/// when the tree has no ERROR/MISSING node, only the games the model marked
/// as having a lenient error leaf (unterminated string or comment, a value
/// that is missing or unquoted) are walked, instead of the whole tree.
pub fn syntax_diagnostics_for<T: Trees + ?Sized>(
    trees: &T,
    text: &str,
    doc: &Document,
) -> Vec<Diagnostic> {
    if syntax::has_error(trees) {
        return syntax::syntax_diagnostics(trees, text);
    }
    let broken: Vec<std::ops::Range<usize>> = doc
        .games
        .iter()
        .filter(|g| g.syntax_error)
        .map(|g| g.range.clone())
        .collect();
    let loose = doc
        .loose
        .iter()
        .any(|c| c.kind == CommentKind::UnterminatedBrace);
    syntax::syntax_diagnostics_in(trees, text, &broken, loose)
}

#[cfg(test)]
mod cap_tests {
    use super::{check_text, CheckOptions};
    use crate::text::decode;

    fn codes(text: &str, code: &str) -> Vec<String> {
        let r = check_text(&decode(text.as_bytes()), &CheckOptions::default());
        r.diagnostics
            .iter()
            .filter(|d| d.code.code == code)
            .map(|d| d.message.to_string())
            .collect()
    }

    /// `n` notes with the number 1 after an auction that refers to it: n - 1
    /// duplicates (PBN0207).
    fn notes(n: usize) -> String {
        "[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= AP\n".to_string() + &"[Note \"1:x\"]\n".repeat(n)
    }

    #[test]
    fn a_code_is_limited_per_game_and_the_last_says_how_many_more() {
        let at_cap = codes(&notes(crate::rules::GAME_CODE_CAP + 1), "PBN0207");
        assert_eq!(at_cap.len(), crate::rules::GAME_CODE_CAP);
        assert!(at_cap.iter().all(|m| !m.contains("more like this")));
        let over = codes(&notes(crate::rules::GAME_CODE_CAP + 11), "PBN0207");
        assert_eq!(over.len(), crate::rules::GAME_CODE_CAP);
        assert!(
            over.last()
                .unwrap()
                .ends_with("(10 more like this in this game not shown)"),
            "{over:?}"
        );
    }

    /// Far more than `GameCtx::push` lets a game's list grow to before it
    /// thins it: the count is still that of every duplicate, and with
    /// fixes (nothing thinned before the fixes are built) the messages are
    /// the same.
    #[test]
    fn a_list_thinned_as_it_grows_counts_what_it_left_out() {
        let n = 5_000;
        let over = codes(&notes(n), "PBN0207");
        assert_eq!(over.len(), crate::rules::GAME_CODE_CAP);
        let more = n - 1 - crate::rules::GAME_CODE_CAP;
        assert!(
            over.last()
                .unwrap()
                .ends_with(&format!("({more} more like this in this game not shown)")),
            "{over:?}"
        );
        let opts = CheckOptions {
            fixes: true,
            ..Default::default()
        };
        let messages = |o: &CheckOptions| -> Vec<String> {
            check_text(&decode(notes(n).as_bytes()), o)
                .diagnostics
                .iter()
                .map(|d| d.message.to_string())
                .collect()
        };
        assert_eq!(messages(&opts), messages(&CheckOptions::default()));
    }

    /// With fixes, a list thinned as it grows keeps the fixes of what it
    /// dropped: fixing all of 5,000 repeated tags leaves one.
    #[test]
    fn fixes_of_what_a_thinned_list_dropped_are_kept() {
        let n = 5_000;
        let source = decode("[Event \"x\"]".repeat(n).as_bytes());
        let opts = CheckOptions {
            fixes: true,
            ..Default::default()
        };
        let r = check_text(&source, &opts);
        let dups: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.code.code == "PBN0202")
            .collect();
        assert_eq!(dups.len(), crate::rules::GAME_CODE_CAP);
        let edits: usize = dups
            .iter()
            .map(|d| d.fix.as_ref().map_or(0, |f| f.edits.len()))
            .sum();
        assert_eq!(edits, n - 1);
        let fixed = crate::checker::fix::fix_source(&source, &opts, false);
        assert_eq!(fixed.source.text, "[Event \"x\"]");
    }

    /// Control characters in games across many pieces: each game and piece
    /// keeps only what the per-file limit shows, and the count is of all.
    #[test]
    fn text_limits_across_pieces_count_every_game() {
        let n = 20_000;
        let text = "[Event \"a\x01b\"]\n\n".repeat(n);
        let source = decode(text.as_bytes());
        let opts = CheckOptions::default();
        let piecewise = check_text(&source, &opts);
        assert_eq!(
            piecewise.diagnostics,
            crate::reference::check_whole(&source, &opts).diagnostics
        );
        let control = codes(&text, "PBN0101");
        assert_eq!(control.len(), crate::rules::text::CAP);
        let more = n - crate::rules::text::CAP;
        assert!(
            control
                .last()
                .unwrap()
                .ends_with(&format!("({more} more not shown)")),
            "{control:?}"
        );
    }

    #[test]
    fn syntax_errors_are_limited_per_file() {
        // one syntax error per line: `]` alone is not a PBN token
        let few = codes(&"]\n\n".repeat(crate::rules::text::CAP), "PBN0001");
        assert_eq!(few.len(), crate::rules::text::CAP);
        assert!(few.iter().all(|m| !m.contains("more not shown")));
        let many = codes(&"]\n\n".repeat(crate::rules::text::CAP + 7), "PBN0001");
        assert_eq!(many.len(), crate::rules::text::CAP);
        assert!(
            many.last().unwrap().ends_with("(7 more not shown)"),
            "{many:?}"
        );
    }
}
