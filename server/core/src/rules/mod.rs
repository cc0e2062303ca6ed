//! The semantic checker: every rule, one file per group (matching
//! `codes/`). [`check_document`] runs them all; games are independent and
//! are checked in parallel on large documents.

mod bridge;
pub mod deal_id;
pub(crate) mod export;
pub mod fixes;
mod notes;
pub(crate) mod tables;
pub mod tags;
pub(crate) mod text;
mod values;

pub use text::write_encoding;

use crate::diagnostic::Diagnostic;
use crate::model::score_table::ScoreMark;
use crate::model::{Document, Game};
use crate::syntax::Trees;
use crate::text::SourceText;

/// Hash maps and sets for the rules' small per-game sets of tag names: with
/// SipHash, hashing and growing them from empty cost about a tenth of the
/// per-game rules.
pub(crate) type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;
pub(crate) type FastSet<K> = rustc_hash::FxHashSet<K>;

/// Options of a check run.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Also report what is legal in import format but not in export format.
    pub export: bool,
    /// Give each fixable diagnostic its [`crate::diagnostic::Fix`]
    /// ([`fixes::attach`]): set by whoever applies or offers fixes (`pbn
    /// check --fix`/`--diff`, `pbn fmt`, the language server); a plain
    /// check does not pay for building them.
    pub fixes: bool,
    /// List each diagnostic of a file-wide pattern instead of one for the
    /// pattern (`pbn check --no-group`, `[check] group = false`; the fix
    /// loop, which counts and applies each fix).
    pub ungrouped: bool,
}

impl CheckOptions {
    /// These options with fixes built.
    pub fn with_fixes(&self) -> CheckOptions {
        CheckOptions {
            fixes: true,
            ..self.clone()
        }
    }
}

/// What a per-game rule sees.
pub struct GameCtx<'a> {
    pub text: &'a str,
    pub game: &'a Game,
    pub opts: &'a CheckOptions,
    /// Export-format rules are on (`--export` or a `% EXPORT` line).
    pub export: bool,
    /// What [`GameCtx::push`] left out past the per-game cap.
    thinned: std::cell::RefCell<Thinned>,
}

/// The diagnostics of a game that [`GameCtx::push`] dropped as it went,
/// per code, the length of the list at which it next looks, and how much
/// of the list has its fixes built.
#[derive(Default)]
struct Thinned {
    dropped: FastMap<&'static str, usize>,
    next: usize,
    attached: usize,
}

/// [`GameCtx::push`] first thins a game's list at this length.
const THIN_FROM: usize = 1024;

impl GameCtx<'_> {
    /// Adds `d` to the game's diagnostics. A list that grew long keeps only
    /// the first [`GAME_CODE_CAP`] of each code found so far
    /// ([`cap_per_code`] would drop the others whatever follows) and counts
    /// the rest: 100,000 notes with the same number are never 100,000
    /// diagnostics at once. With fixes, the fixes of the ones dropped are
    /// built first and join the last one kept of their code, so that fixing
    /// all still fixes them all.
    pub fn push(&self, out: &mut Vec<Diagnostic>, d: Diagnostic) {
        out.push(d.with_game(Some(self.game.index)));
        let mut t = self.thinned.borrow_mut();
        if out.len() >= t.next.max(THIN_FROM) {
            if self.opts.fixes {
                fixes::attach(self.text, self.game, &mut out[t.attached..]);
            }
            crate::diagnostic::sort(out);
            drop_past_cap(out, GAME_CODE_CAP, &mut t.dropped);
            t.attached = out.len();
            t.next = 2 * out.len();
        }
    }
}

/// Whether export rules apply to the document, and from which offset: a
/// `% EXPORT` line further down switches the games after it to export rules
/// (the reference verifier's error file does this).
pub fn export_from(source: &SourceText, opts: &CheckOptions) -> Option<usize> {
    if opts.export || export::declares_export(&source.text) {
        Some(0)
    } else {
        source.export_line()
    }
}

/// Whether export rules apply to game `g`.
pub fn game_export(export_from: Option<usize>, g: &Game) -> bool {
    let first_tag = g
        .tags
        .first()
        .map(|t| t.range.start)
        .unwrap_or(g.range.start);
    export_from.is_some_and(|p| p <= first_tag)
}

/// Runs every rule on a document.
pub fn check_document<T: Trees + ?Sized>(
    source: &SourceText,
    trees: &T,
    doc: &Document,
    opts: &CheckOptions,
) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = text::check(source, trees);
    let export_from = export_from(source, opts);
    if export_from == Some(0) {
        out.extend(file_export(source, trees));
    }
    let all: Vec<usize> = (0..doc.games.len()).collect();
    out.extend(
        check_some_games(text, doc, opts, export_from, &all)
            .into_iter()
            .flatten(),
    );
    let marks: Vec<(usize, deal_id::DealIdMark)> = doc
        .games
        .iter()
        .filter_map(|g| Some((g.index, deal_id::DealIdMark::of(g)?)))
        .collect();
    out.extend(deal_id::conflicts(text, marks.iter().map(|(g, m)| (*g, m))));
    let scores: Vec<(usize, ScoreMark)> = doc
        .games
        .iter()
        .filter_map(|g| Some((g.index, ScoreMark::of(g)?)))
        .collect();
    out.extend(tables::score_totals(scores.iter().map(|(g, m)| (*g, m))));
    out
}

/// The file-level export rules (line ends, tabs, game separators), each
/// with its game.
pub fn file_export<T: Trees + ?Sized>(source: &SourceText, trees: &T) -> Vec<Diagnostic> {
    let top = crate::syntax::top_nodes(trees);
    let (chunks, _) = crate::syntax::games(trees, &source.text);
    file_export_in(source, &top, &chunks)
}

/// [`file_export`] from the top-level nodes and games already collected.
pub fn file_export_in(
    source: &SourceText,
    top: &[tree_sitter::Node<'_>],
    chunks: &[crate::syntax::GameChunk<'_>],
) -> Vec<Diagnostic> {
    let mut file = Vec::new();
    export::check_file(source, top, &mut file);
    for d in &mut file {
        d.game = crate::syntax::game_at(chunks, d.range.start);
    }
    file
}

/// Runs the per-game rules on a range of games.
pub fn check_games(
    text: &str,
    doc: &Document,
    opts: &CheckOptions,
    export_from: Option<usize>,
    games: std::ops::Range<usize>,
) -> Vec<Diagnostic> {
    let idx: Vec<usize> = games.collect();
    check_some_games(text, doc, opts, export_from, &idx)
        .into_iter()
        .flatten()
        .collect()
}

/// The per-game rules on one game.
pub fn check_game(text: &str, opts: &CheckOptions, export: bool, g: &Game) -> Vec<Diagnostic> {
    // A part of a game cut for its length gets no fixes: made from a part,
    // they would repair a game that is not there (add its "missing" tags).
    let unfixed;
    let opts = if g.is_part() && opts.fixes {
        unfixed = CheckOptions {
            fixes: false,
            ..opts.clone()
        };
        &unfixed
    } else {
        opts
    };
    let ctx = GameCtx {
        text,
        game: g,
        opts,
        export,
        thinned: Default::default(),
    };
    let mut out = Vec::new();
    if let Some(cut) = g.cut_before {
        game_part(&ctx, cut, &mut out);
    }
    tags::check(&ctx, &mut out);
    notes::check(&ctx, &mut out);
    tables::check(&ctx, &mut out);
    values::check(&ctx, &mut out);
    bridge::check(&ctx, &mut out);
    if export {
        export::check(&ctx, &mut out);
    }
    let thinned = ctx.thinned.into_inner();
    if opts.fixes {
        // The diagnostics kept at a thinning have theirs already.
        let from = thinned.attached.min(out.len());
        fixes::attach(text, g, &mut out[from..]);
    }
    cap_per_code(&mut out, &thinned.dropped);
    for d in &mut out {
        d.severity = crate::codes::severity_in(d.code, d.severity, export);
    }
    out
}

/// PBN0007: the game is a part of a game longer than
/// [`crate::syntax::GAME_WINDOW`], cut at `cut` (its first character).
fn game_part(ctx: &GameCtx<'_>, cut: usize, out: &mut Vec<Diagnostic>) {
    let end = ctx.text[cut..]
        .chars()
        .next()
        .map_or(cut, |c| cut + c.len_utf8());
    ctx.push(
        out,
        Diagnostic::new(
            &crate::codes::syntax::GAME_TOO_LONG,
            cut..end,
            format!(
                "game longer than {} MiB: read in parts, this one from here; \
                 each part is checked as a game and kept as written",
                crate::syntax::GAME_WINDOW >> 20
            ),
        ),
    );
}

/// At most this many diagnostics of one code in one game.
pub const GAME_CODE_CAP: usize = 50;

/// Keeps the first [`GAME_CODE_CAP`] diagnostics of each code (in file
/// order); the last one kept says how many more there are. 100,000 notes
/// with the same few numbers are 100,000 true errors, but a reader wants
/// the first few and the count, not 30 MB of them (the text rules cap the
/// same way per file, the bridge rules per section). `dropped`: how many
/// of each code [`GameCtx::push`] already left out.
fn cap_per_code(out: &mut Vec<Diagnostic>, dropped: &FastMap<&'static str, usize>) {
    if out.len() <= GAME_CODE_CAP && dropped.is_empty() {
        return;
    }
    crate::diagnostic::sort(out);
    keep_first_per_code(
        out,
        GAME_CODE_CAP,
        |code| dropped.get(code).copied().unwrap_or(0),
        |more| format!("({more} more like this in this game not shown)"),
    );
}

/// Keeps, in their order, the first `cap` diagnostics of each code; the
/// last one kept of a code that had more gets `note(how many more)`
/// appended to its message. `uncounted(code)`: how many more of a code
/// were found but never made into diagnostics ([`crate::bridge::Issues`]).
pub(crate) fn keep_first_per_code(
    diags: &mut Vec<Diagnostic>,
    cap: usize,
    uncounted: impl Fn(&str) -> usize,
    note: impl Fn(usize) -> String,
) {
    let mut counts: FastMap<&'static str, usize> = FastMap::default();
    for d in diags.iter() {
        *counts.entry(d.code.code).or_default() += 1;
    }
    for (code, n) in counts.iter_mut() {
        *n += uncounted(code);
    }
    if counts.values().all(|&n| n <= cap) {
        return;
    }
    drop_past_cap(diags, cap, &mut FastMap::default());
    let mut seen: FastMap<&'static str, usize> = FastMap::default();
    for d in diags.iter_mut() {
        let n = seen.entry(d.code.code).or_default();
        *n += 1;
        let total = counts[d.code.code];
        if *n == cap && total > cap {
            d.message = format!("{} {}", d.message, note(total - cap)).into();
        }
    }
}

/// Keeps, in their order, the first `cap` diagnostics of each code, and
/// adds how many of each it dropped to `dropped`. The fixes of the ones
/// dropped join the last one kept of their code, so that fixing all still
/// fixes them all.
fn drop_past_cap(
    diags: &mut Vec<Diagnostic>,
    cap: usize,
    dropped: &mut FastMap<&'static str, usize>,
) {
    let mut seen: FastMap<&'static str, usize> = FastMap::default();
    let mut last: FastMap<&'static str, usize> = FastMap::default();
    let mut merged: Vec<(usize, Vec<crate::diagnostic::Fix>)> = Vec::new();
    let mut k = 0;
    diags.retain_mut(|d| {
        let n = seen.entry(d.code.code).or_default();
        *n += 1;
        if *n == cap {
            last.insert(d.code.code, k);
        }
        let keep = *n <= cap;
        if !keep {
            *dropped.entry(d.code.code).or_default() += 1;
            if let (Some(f), Some(&at)) = (d.fix.take(), last.get(d.code.code)) {
                let f = std::sync::Arc::unwrap_or_clone(f);
                match merged.iter_mut().find(|(i, _)| *i == at) {
                    Some((_, v)) => v.push(f),
                    None => merged.push((at, vec![f])),
                }
            }
        }
        k += usize::from(keep);
        keep
    });
    const JOINED: &str = " (and the same fix where not shown)";
    for (at, more) in merged {
        let d = &mut diags[at];
        let mut more = more.into_iter();
        // The one kept may have no fix of its own: then it carries theirs.
        let Some(mut f) = d
            .fix
            .take()
            .map(std::sync::Arc::unwrap_or_clone)
            .or_else(|| more.next())
        else {
            continue;
        };
        for m in more {
            f.applicability = f.applicability.max(m.applicability);
            f.edits.extend(m.edits);
        }
        if !f.title.ends_with(JOINED) {
            f.title.push_str(JOINED);
        }
        d.fix = Some(std::sync::Arc::new(f));
    }
}

/// The per-game diagnostics of the games `idx`, in that order; in parallel
/// over the cores for many games.
fn check_some_games(
    text: &str,
    doc: &Document,
    opts: &CheckOptions,
    export_from: Option<usize>,
    idx: &[usize],
) -> Vec<Vec<Diagnostic>> {
    let runs: Vec<&[usize]> = idx.chunks(64).collect();
    crate::par::map(&runs, |run| {
        run.iter()
            .map(|&i| {
                check_game(
                    text,
                    opts,
                    game_export(export_from, &doc.games[i]),
                    &doc.games[i],
                )
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}
