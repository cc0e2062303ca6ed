//! The export formatter (§2.1, §2.3, §3, §5): prints the model and every
//! comment back in PBN export format.
//!
//! The formatter lays out; it repairs nothing. What makes a value, call,
//! card or annotation its export form (`3N` → `3NT`, `s` → `S`, a suffix
//! → its NAG, a Deal from the dealer) is a safe fix of a rule
//! ([`crate::rules::fixes`]), applied first ([`format_fixed`],
//! [`format_streamed`]: `pbn fmt`) with the export rules on for every game,
//! so that `pbn check --export --fix` and the language server's quick
//! fixes write the same forms. [`format`] prints the values as written.
//!
//! Comments are attached before printing (biome-style): each comment or
//! escape line belongs to the item it follows — a tag, a call or card, one
//! of its annotations, a note, a section element — or leads the game when it
//! comes before the first tag (§3.8: "A comment refers to the preceding
//! event tag, auction call, played card, suffix, note reference, or nag").
//! When items move (tags into export order, annotations into note-then-NAGs
//! order) their comments move with them. After printing, the multiset of
//! printed comments is checked against the input's; a game that fails this
//! check, or has a syntax error, is printed verbatim.
//!
//! Nothing is dropped: what export format cannot hold (a repeated tag's
//! ignored value, a second `*` at the end of the auction or play) is
//! written as a `;` comment where it stood ([`Formatted::commented_games`]);
//! a `*` with calls or cards after it keeps its game as written (as a
//! comment it would let them count).

mod fixed;
mod game;
mod incremental;
mod options;

pub(crate) use fixed::fix_options;
pub use incremental::{edits, PieceOut};

pub use options::{EolOption, FormatOptions};

use crate::model::{self, CommentKind};
use crate::text::{LineEnding, SourceText};

/// The result of formatting a document.
#[derive(Debug, Clone)]
pub struct Formatted {
    /// The formatted text (in the chosen line ending; encode it with
    /// [`crate::text::encode`] and the source's encoding to write it).
    pub text: String,
    /// 0-based indices of games printed verbatim: those with syntax errors
    /// (their meaning is uncertain) and those in [`Self::unprintable_games`].
    pub verbatim_games: Vec<usize>,
    /// The games among [`Self::verbatim_games`] without a syntax error,
    /// kept as written because export format cannot hold them without a
    /// change of meaning or a lost comment (a Note tag with data before the
    /// auction, a second auction…). Writing them back loses nothing.
    pub unprintable_games: Vec<usize>,
    /// Number of later duplicate tags (§3.4: they are ignored), written as
    /// comments after the first one.
    pub dropped_duplicates: usize,
    /// Number of safe fixes applied before formatting ([`format_fixed`],
    /// [`format_streamed`]).
    pub fixes: usize,
    /// 0-based indices of the games where something export format cannot
    /// hold (a repeated tag's ignored value, a `*` before the end of the
    /// auction or play) was kept as a `{…}` comment where it stood.
    pub commented_games: Vec<usize>,
}

impl Formatted {
    /// The games kept as written because of their syntax errors.
    pub fn syntax_error_games(&self) -> Vec<usize> {
        self.verbatim_games
            .iter()
            .copied()
            .filter(|g| !self.unprintable_games.contains(g))
            .collect()
    }
}

/// Formats a document as written, no fix applied (`pbn fmt` writes
/// [`format_fixed`]'s text), piece by piece. [`crate::reference::format_whole`]
/// is the tests' reference for it (`tests/tests/streaming.rs`).
pub fn format(source: &SourceText, opts: &FormatOptions) -> Formatted {
    let n = source.text.len();
    let mut text = String::with_capacity(n + n / 8);
    let mut out = streamed(source, opts, false, |part| text.push_str(part));
    out.text = text;
    out
}

/// What `pbn fmt` writes: [`format`] after every safe fix of the
/// document's diagnostics (export rules on), what the checker reads as
/// something else written as what it was read as, each value in its
/// export form (measured by `tests/tests/fmt_export_corpus.rs`).
/// [`format_streamed`]'s text, collected: the one pipeline that `pbn fmt`,
/// the language server (piece by piece, [`format_piece_fixed`]) and the
/// web page share.
pub fn format_fixed(source: &SourceText, opts: &FormatOptions) -> Formatted {
    let n = source.text.len();
    let mut text = String::with_capacity(n + n / 8);
    let mut out = format_streamed(source, opts, |part| text.push_str(part));
    out.text = text;
    out
}

/// [`format_fixed`] piece by piece: each piece of the document (the
/// checker's cut, [`model::lower::for_each_piece_at`]) is checked, its safe
/// fixes applied and the result formatted before the next piece is read,
/// so that `pbn fmt` costs about one check and holds one piece's trees and
/// diagnostics at a time. What `sink` gets, put together, is
/// [`format_fixed`]'s text (`tests/tests/streaming.rs`): `pbn fmt`'s path.
pub fn format_streamed(
    source: &SourceText,
    opts: &FormatOptions,
    sink: impl FnMut(&str),
) -> Formatted {
    streamed(source, opts, true, sink)
}

/// [`format_streamed`] (`fix`), or the document formatted as written,
/// piece by piece ([`model::lower::for_each_piece`]): the formatted text is
/// handed to `sink` in order, a part at a time, and the result's `text` is
/// empty; the tree and model of the whole document never exist at once.
fn streamed(
    source: &SourceText,
    opts: &FormatOptions,
    fix: bool,
    mut sink: impl FnMut(&str),
) -> Formatted {
    // The fixes outside every game: the charset declaration (PBN0107) and
    // the file's encoding (PBN0111, §2.2).
    let (declared, file_fixes) = if fix { file_fixed(source) } else { (None, 0) };
    let source = declared.as_ref().unwrap_or(source);
    let text = source.text.as_str();
    // Only `#` values make a game's missing tags depend on later games:
    // their marks first, in a pass of their own.
    let keep = if opts.add_missing_tags && source.uses_hash_values() {
        let mut marks = Vec::new();
        model::lower::for_each_piece(
            text,
            |_, games, _| games.iter().map(game::mandatory_marks).collect::<Vec<_>>(),
            |m| marks.extend(m),
        );
        game::keep_from_marks(&marks)
    } else {
        Vec::new()
    };
    let mut out = Assembler::new(source);
    out.out = String::new();
    let mut fixes = 0;
    model::lower::for_each_piece_at(
        text,
        |p| {
            let keep = match p.games.first() {
                Some(g) if !keep.is_empty() => keep[g.index..g.index + p.games.len()].to_vec(),
                _ => vec![0; p.games.len()],
            };
            if fix {
                // Fixed games, lowered again, are resolved from the state
                // before them in the document as written, as the language
                // server resolves them (`checker::inherit`'s `env_before`):
                // the state before the piece walked over its games.
                let walked = std::cell::RefCell::new((0, p.env.cloned()));
                let resolve = |games: &mut [model::Game]| {
                    let mut walked = walked.borrow_mut();
                    let (next, env) = &mut *walked;
                    let (Some(env), Some(first)) = (env, games.first()) else {
                        return;
                    };
                    for g in p.games[*next..]
                        .iter()
                        .take_while(|g| g.index < first.index)
                    {
                        env.step(g.index, &model::inherit::TagSummary::of(g));
                        *next += 1;
                    }
                    env.clone().apply_all(games);
                };
                return format_piece_fixed(text, p, &keep, opts, &resolve);
            }
            (format_part(text, p.trees, p.games, &keep, opts), 0)
        },
        |(part, n)| {
            fixes += n;
            out.push(part);
            let ready = out.take_ready(opts);
            if !ready.is_empty() {
                sink(&ready);
            }
        },
    );
    let mut done = out.finish(opts);
    sink(&std::mem::take(&mut done.text));
    done.fixes = fixes + file_fixes;
    done
}

/// [`format_part`] of piece `p` after the safe fixes of its games (export
/// rules on), and how many were applied: what `pbn fmt` writes for the
/// piece. `resolve` gives fixed games, lowered again, their `#`/`##` values
/// (from the state before the first of them).
///
/// The piece is fixed a stretch at a time: each game with the text after
/// it up to the next game break ([`crate::syntax::cut_points`], the finest
/// cut of the canonical parse, so every piece is made of whole stretches).
/// A stretch's fixes are taken when its fixed text has the stretch's games
/// and blocks and the text between them; otherwise it is formatted as
/// written. So whether a game is fixed depends on that game alone, wherever
/// the document is cut into pieces (the language server's pieces,
/// `pbn fmt`'s; fuzz fixtures `fmt/fixes-beside-a-broken-game-in-one-piece`,
/// `fmt/unterminated-comment-beside-refused-fixes`).
pub fn format_piece_fixed<'a>(
    text: &'a str,
    p: &model::lower::PieceAt<'_>,
    keep: &[u16],
    opts: &FormatOptions,
    resolve: &dyn Fn(&mut [model::Game]),
) -> (Part<'a>, usize) {
    let fixes: Vec<Vec<crate::diagnostic::Diagnostic>> = p
        .games
        .iter()
        .map(|g| {
            if g.is_part() {
                Vec::new()
            } else {
                fixed::game_fixes(text, g)
            }
        })
        .collect();
    let open = crate::syntax::top_nodes(p.trees)
        .iter()
        .any(|n| n.kind() == "unterminated_comment");
    let diagnosed = fixes.iter().any(|f| !f.is_empty());
    if !fixed::may_fix(text, p.range.clone(), p.games, diagnosed, open) {
        return (format_part(text, p.trees, p.games, keep, opts), 0);
    }
    let groups = node_groups(p.trees);
    let ranges: Vec<std::ops::Range<usize>> = groups.iter().map(|n| group_range(n)).collect();
    let mut fixes = fixes.into_iter();
    let mut parts: Vec<Part<'a>> = Vec::new();
    let mut applied = 0;
    // The blocks and games not yet in `out`, formatted as written.
    let (mut block, mut game) = (0, 0);
    let mut written = (0, 0);
    for unit in units(text, p, &ranges) {
        let blocks = block..block + ranges[block..].partition_point(|r| r.start < unit.end);
        let games = game..game + p.games[game..].partition_point(|g| g.range.start < unit.end);
        (block, game) = (blocks.end, games.end);
        let unit_fixes: Vec<_> = fixes.by_ref().take(games.len()).flatten().collect();
        let u = fixed::Unit {
            range: unit.clone(),
            games: &p.games[games.clone()],
            open: groups[blocks.clone()]
                .iter()
                .flatten()
                .any(|n| n.kind() == "unterminated_comment"),
            fixes: unit_fixes,
        };
        if u.games.iter().any(model::Game::is_part) || !u.has_fixes(text) {
            continue;
        }
        let Some((part, n)) = fixed::fix_unit(text, u, resolve).and_then(|f| {
            fixed_part(
                text,
                unit,
                &ranges[blocks.clone()],
                &f,
                &keep[games.clone()],
                opts,
            )
            .map(|part| (part, f.fixes))
        }) else {
            continue;
        };
        if written.0 < blocks.start {
            parts.push(format_groups(
                text,
                &groups[written.0..blocks.start],
                &p.games[written.1..games.start],
                &keep[written.1..games.start],
                opts,
            ));
        }
        parts.push(part);
        applied += n;
        written = (blocks.end, games.end);
    }
    if written.0 < groups.len() || parts.is_empty() {
        parts.push(format_groups(
            text,
            &groups[written.0..],
            &p.games[written.1..],
            &keep[written.1..],
            opts,
        ));
    }
    let mut parts = parts.into_iter();
    let mut out = parts.next().expect("at least one part");
    for part in parts {
        out.append(part);
    }
    (out, applied)
}

/// The stretches of piece `p` that are fixed one at a time: between the
/// cut points in it, joined where a block (at `ranges`) spans a cut point.
fn units(
    text: &str,
    p: &model::lower::PieceAt<'_>,
    ranges: &[std::ops::Range<usize>],
) -> Vec<std::ops::Range<usize>> {
    let start = p.range.start;
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    let mut from = start;
    let mut blocks = ranges.iter().peekable();
    for c in crate::syntax::cut_points(&text[p.range.clone()], 1)
        .into_iter()
        .map(|c| c + start)
        .chain(std::iter::once(p.range.end))
    {
        let mut spans = false;
        while let Some(r) = blocks.peek() {
            if r.end <= c {
                blocks.next();
            } else {
                spans = r.start < c;
                break;
            }
        }
        if !spans {
            out.push(from..c);
            from = c;
        }
    }
    out
}

/// `source` with the fixes of its file-level diagnostics applied
/// ([`crate::rules::text::file_level`]: the charset declaration, the
/// encoding), round after round by the loop
/// [`crate::checker::fix::fix_source`] runs (`fix_loop`), and how many;
/// `None` when none applies.
fn file_fixed(source: &SourceText) -> (Option<SourceText>, usize) {
    use crate::checker::fix::{fix_loop, fix_round, Round};
    let start = (None, crate::rules::text::file_level(source), 0);
    let looped = fix_loop(start, |(current, diags, fixes), apply| {
        let src = current.as_ref().unwrap_or(source);
        match apply.then(|| fix_round(src, &diags, false)).flatten() {
            Some((next, which)) => {
                let diags = crate::rules::text::file_level(&next);
                Round::Fixed((Some(next), diags, fixes + which.len()))
            }
            None => Round::Unfixed((current, diags, fixes)),
        }
    });
    let (current, _, fixes) = looped.state;
    (current, fixes)
}

/// The part of stretch `unit` of `text`, whose blocks are at `ranges`,
/// printed from its fixed text `f`, its blocks placed where the stretch's
/// blocks are in the document (a fix edits inside a game, so the text
/// between blocks, which the assembler takes from the document, is as
/// written); `None` when the fixed stretch does not have the stretch's
/// games and blocks, or the text between them differs (then the stretch is
/// formatted as written).
fn fixed_part(
    text: &str,
    unit: std::ops::Range<usize>,
    ranges: &[std::ops::Range<usize>],
    f: &fixed::FixedPiece,
    keep: &[u16],
    opts: &FormatOptions,
) -> Option<Part<'static>> {
    if f.games.len() != keep.len() {
        return None;
    }
    let part = format_part(&f.text, &f.trees, &f.games, keep, opts);
    if part.ranges.len() != ranges.len() {
        return None;
    }
    // The text between blocks is the document's: where it is written out
    // (beside a block kept as written, and at the stretch's ends, whose
    // neighbours are in other stretches) the fixed text must have it too. A
    // fix that moved a game's end would otherwise move text out of (or into)
    // a game kept as written.
    let piece = &text[unit.clone()];
    let n = ranges.len();
    fn gap<'t>(
        t: &'t str,
        rs: &[std::ops::Range<usize>],
        base: usize,
        i: usize,
    ) -> Option<&'t str> {
        let from = if i == 0 { 0 } else { rs[i - 1].end - base };
        let to = rs.get(i).map_or(t.len(), |r| r.start - base);
        t.get(from..to)
    }
    let shown = |i: usize| {
        i == 0
            || i == n
            || !matches!(part.kept[i - 1], Kept::Printed)
            || !matches!(part.kept[i], Kept::Printed)
    };
    if (0..=n)
        .filter(|&i| shown(i))
        .any(|i| gap(&f.text, &part.ranges, 0, i) != gap(piece, ranges, unit.start, i))
    {
        return None;
    }
    Some(Part {
        blocks: part
            .blocks
            .into_iter()
            .map(|b| std::borrow::Cow::Owned(b.into_owned()))
            .collect(),
        ranges: ranges.to_vec(),
        kept: part.kept,
        dropped: part.dropped,
        commented: part.commented,
    })
}

/// The mandatory tags a game has and those of them it writes `"#"` (a bit
/// per tag of the roster): what [`keep_from_marks`] needs of each game.
pub fn mandatory_marks(g: &model::Game) -> (u16, u16) {
    game::mandatory_marks(g)
}

/// Which of a document's mandatory tags (a bit per tag of the seven-tag
/// roster) a game must not get as `"?"` when missing, because a later game
/// inherits them with `#` (§4.8), from each game's [`mandatory_marks`] in
/// order; for [`format_part`].
pub fn keep_from_marks(marks: &[(u16, u16)]) -> Vec<u16> {
    game::keep_from_marks(marks)
}

/// The line end to write (`opts.eol`, or the source's most frequent one).
pub fn eol_of(opts: &FormatOptions, source: &SourceText) -> &'static str {
    match opts.eol {
        EolOption::Keep => match source.dominant_line_ending {
            LineEnding::Lf => "\n",
            LineEnding::Cr => "\r",
            _ => "\r\n",
        },
        EolOption::Crlf => "\r\n",
        EolOption::Lf => "\n",
    }
}

/// One part of a formatted document: the blocks between game breaks of
/// some consecutive trees (a game's printed text, a game kept verbatim,
/// or comments only), in order.
pub struct Part<'a> {
    blocks: Vec<std::borrow::Cow<'a, str>>,
    /// Per block: where it is in the source (its first node's start to its
    /// last node's end).
    ranges: Vec<std::ops::Range<usize>>,
    /// Per block: how it is written.
    kept: Vec<Kept>,
    dropped: usize,
    commented: Vec<usize>,
}

impl<'a> Part<'a> {
    /// `next`'s blocks after these.
    fn append(&mut self, next: Part<'a>) {
        self.blocks.extend(next.blocks);
        self.ranges.extend(next.ranges);
        self.kept.extend(next.kept);
        self.dropped += next.dropped;
        self.commented.extend(next.commented);
    }
}

/// How a block of a [`Part`] is written.
#[derive(Clone, Copy)]
enum Kept {
    /// In export format (a game, or comments and escape lines one a line).
    Printed,
    /// As written: tokens outside any game.
    Stray,
    /// As written: a game (its index), for a syntax error or not.
    Game { index: usize, syntax_error: bool },
}

/// Formats the games `games` of `trees` (consecutive pieces of the
/// document, whose games these are, in order); `keep_absent` has an entry
/// per game of `games` ([`keep_from_marks`]'s for them, or zeros). Parts of a document
/// formatted one after the other and put together by an [`Assembler`] give
/// what [`crate::reference::format_whole`] gives for the whole: the language server formats
/// a large document piece by piece, never holding the trees and model of
/// all of it.
pub(crate) fn format_part<'a>(
    text: &'a str,
    trees: &[tree_sitter::Tree],
    games: &[model::Game],
    keep_absent: &[u16],
    opts: &FormatOptions,
) -> Part<'a> {
    format_groups(text, &node_groups(trees), games, keep_absent, opts)
}

/// [`format_part`] of the blocks `groups` ([`node_groups`]), whose games
/// are `games`.
fn format_groups<'a>(
    text: &'a str,
    groups: &[Vec<tree_sitter::Node<'_>>],
    games: &[model::Game],
    keep_absent: &[u16],
    opts: &FormatOptions,
) -> Part<'a> {
    // Blocks between game breaks: a game, or comments only.
    enum Block {
        Game(usize),
        /// Comments and escape lines between games, one a line.
        Loose(String),
        /// Other nodes outside any game (tokens that error recovery left at
        /// the top of a broken document): kept as written, since one a line
        /// they could read as something else.
        Stray,
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    let mut next_game = 0;
    for nodes in groups {
        ranges.push(group_range(nodes));
        let is_game = nodes
            .iter()
            .any(|n| n.kind() == "game" || n.is_error() || n.is_missing());
        if is_game {
            assert!(next_game < games.len(), "one model game per game chunk");
            blocks.push(Block::Game(next_game));
            next_game += 1;
        } else if nodes
            .iter()
            .any(|n| !matches!(n.kind(), "comment" | "unterminated_comment" | "escape_line"))
        {
            blocks.push(Block::Stray);
        } else {
            let mut s = String::new();
            for n in nodes.iter() {
                s.push_str(&text[n.byte_range()]);
                s.push('\n');
            }
            blocks.push(Block::Loose(s.trim_end_matches('\n').to_owned()));
        }
    }

    // Games are printed independently: in runs, on every core.
    let runs: Vec<std::ops::Range<usize>> = (0..games.len())
        .step_by(256)
        .map(|s| s..(s + 256).min(games.len()))
        .collect();
    let printed: Vec<Option<game::Printed>> = crate::par::map(&runs, |run| {
        games[run.clone()]
            .iter()
            .zip(&keep_absent[run.clone()])
            .map(|(g, &keep)| {
                if g.syntax_error {
                    None
                } else {
                    game::print(text, g, opts, keep)
                }
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let mut dropped = 0;
    let mut commented = Vec::new();
    let mut printed = printed.into_iter();
    let mut kept = Vec::with_capacity(blocks.len());
    let blocks: Vec<std::borrow::Cow<'_, str>> = blocks
        .into_iter()
        .zip(&ranges)
        .map(|(b, r)| match b {
            Block::Loose(s) => {
                kept.push(Kept::Printed);
                s.into()
            }
            Block::Stray => {
                kept.push(Kept::Stray);
                text[r.clone()].into()
            }
            Block::Game(i) => match printed.next().expect("one printed entry per game") {
                Some(pr) => {
                    dropped += pr.duplicates;
                    if pr.commented > 0 {
                        commented.push(games[i].index);
                    }
                    kept.push(Kept::Printed);
                    pr.text.into()
                }
                None => {
                    let g = &games[i];
                    kept.push(Kept::Game {
                        index: g.index,
                        syntax_error: g.syntax_error,
                    });
                    text[g.range.clone()].into()
                }
            },
        })
        .collect();
    Part {
        blocks,
        ranges,
        kept,
        dropped,
        commented,
    }
}

/// The top-level nodes of `trees` between game breaks, in order: the
/// blocks of a [`Part`] (a tree's end ends a game too: see `syntax::games`).
fn node_groups(trees: &[tree_sitter::Tree]) -> Vec<Vec<tree_sitter::Node<'_>>> {
    let mut groups = Vec::new();
    let mut current = Vec::new();
    for tree in trees {
        for child in crate::syntax::top_nodes(tree) {
            if child.kind() == "game_break" {
                if !current.is_empty() {
                    groups.push(std::mem::take(&mut current));
                }
            } else {
                current.push(child);
            }
        }
        if !current.is_empty() {
            groups.push(std::mem::take(&mut current));
        }
    }
    groups
}

/// Where a block of nodes is: its first node's start to its last's end.
fn group_range(nodes: &[tree_sitter::Node<'_>]) -> std::ops::Range<usize> {
    nodes[0].start_byte()..nodes[nodes.len() - 1].end_byte()
}

/// The formatted document from its parts, pushed in order ([`format_part`]):
/// the blocks one blank line apart, the export header, the line endings.
/// Next to a game kept verbatim the text between the blocks (blank lines,
/// white space, form feeds) is kept as written too: where a game has a
/// syntax error, how many blank lines follow it, and what white space
/// precedes it, can decide where the reader ends it (after `[` and a line
/// end one blank line is not a game break; tabs before a `%` keep it from
/// being an escape line). A
/// part's text is freed once it is in the output (the language server
/// formats large documents part by part).
pub struct Assembler<'s> {
    source: &'s SourceText,
    out: String,
    verbatim_games: Vec<usize>,
    unprintable_games: Vec<usize>,
    dropped: usize,
    commented: Vec<usize>,
    verbatim_first: bool,
    /// The end (in the source) of the block pushed last, and whether it was
    /// kept verbatim.
    prev: Option<(usize, bool)>,
    /// Where `out` holds text as written (games kept verbatim and the text
    /// between them and their neighbours): its line ends are kept too, since
    /// a lone CR and a LF do not always end a broken game alike.
    raw: Vec<std::ops::Range<usize>>,
    /// The export header is in `out` already ([`Assembler::take_ready`]).
    header_done: bool,
}

impl<'s> Assembler<'s> {
    pub fn new(source: &'s SourceText) -> Assembler<'s> {
        let n = source.text.len();
        Assembler {
            source,
            out: String::with_capacity(n + n / 8),
            verbatim_games: Vec::new(),
            unprintable_games: Vec::new(),
            dropped: 0,
            commented: Vec::new(),
            verbatim_first: false,
            prev: None,
            raw: Vec::new(),
            header_done: false,
        }
    }

    /// The output so far that no later part can change, in its final form
    /// (line ends made, export header added), taken out of the assembler:
    /// for writing a large document as it is formatted. Empty while the
    /// export header cannot be placed yet (the text so far is all `%` lines).
    pub fn take_ready(&mut self, opts: &FormatOptions) -> String {
        if opts.export_header && !self.header_done {
            if leading_escape_lines(&self.out) == self.out.len() {
                return String::new();
            }
            self.add_export_header();
        }
        // After a printed block, its line end: the next block, if kept as
        // written, takes it back (see `push`).
        let keep = match self.prev {
            Some((_, false)) => 1,
            _ => 0,
        };
        let cut = self.out.len() - keep;
        let rest = self.out.split_off(cut);
        let done = std::mem::replace(&mut self.out, rest);
        let raw = std::mem::take(&mut self.raw);
        normalize_eol(done, eol_of(opts, self.source), &raw)
    }

    /// Puts the export header in front of `out`, moving the ranges kept as
    /// written behind it.
    fn add_export_header(&mut self) {
        self.header_done = true;
        let (with, at, added) =
            with_export_header(std::mem::take(&mut self.out), self.verbatim_first);
        self.out = with;
        // The ranges kept as written after the added lines move; one
        // the lines went into (a version line's end kept as written
        // with what follows: found by fuzzing) is cut around them.
        self.raw = std::mem::take(&mut self.raw)
            .into_iter()
            .flat_map(|r| match r {
                r if r.start >= at => [Some(r.start + added..r.end + added), None],
                r if r.end > at => [Some(r.start..at), Some(at + added..r.end + added)],
                r => [Some(r), None],
            })
            .flatten()
            .filter(|r| !r.is_empty())
            .collect();
    }

    /// Appends the next part.
    pub fn push(&mut self, part: Part<'_>) {
        self.dropped += part.dropped;
        self.commented.extend(&part.commented);
        let text = self.source.text.as_str();
        for ((b, r), &kept) in part.blocks.iter().zip(&part.ranges).zip(&part.kept) {
            let verbatim = !matches!(kept, Kept::Printed);
            match self.prev {
                None => {
                    // A game printed verbatim keeps its text whole, even its
                    // leading escape lines, and the white space before it;
                    // but not a U+FEFF that starts the text (a second byte
                    // order mark), which the reader skips only there and
                    // a printed game drops as well: behind an added export
                    // header, on a line of its own, it would read as a game
                    // (fuzz fixture `fmt/second-bom-moved-behind-the-export-header`).
                    self.verbatim_first = verbatim;
                    if verbatim {
                        let from = if text.starts_with('\u{feff}') {
                            '\u{feff}'.len_utf8().min(r.start)
                        } else {
                            0
                        };
                        self.push_raw(&text[from..r.start]);
                    }
                }
                Some((end, prev_verbatim)) if verbatim || prev_verbatim => {
                    // The text between the two blocks as written (it starts
                    // with the line end of the previous block's last line,
                    // which a printed block has just written).
                    if !prev_verbatim {
                        self.out.pop();
                    }
                    self.push_raw(&text[end..r.start]);
                }
                Some(_) => self.out.push('\n'),
            }
            self.prev = Some((r.end, verbatim));
            if let Kept::Game {
                index,
                syntax_error,
            } = kept
            {
                self.verbatim_games.push(index);
                if !syntax_error {
                    self.unprintable_games.push(index);
                }
            }
            if verbatim {
                // Its line end comes with the text after it.
                self.push_raw(b);
            } else {
                self.out.push_str(b.trim_end_matches(['\n', '\r']));
                self.out.push('\n');
            }
        }
    }

    /// Appends text as written.
    fn push_raw(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let start = self.out.len();
        self.out.push_str(s);
        match self.raw.last_mut() {
            Some(last) if last.end == start => last.end = self.out.len(),
            _ => self.raw.push(start..self.out.len()),
        }
    }

    /// The export header and the line endings.
    pub fn finish(mut self, opts: &FormatOptions) -> Formatted {
        if let Some((end, true)) = self.prev {
            // After a last block kept as written, the end of the file as
            // written too (with or without a line end: found by CI's short
            // `fmt` run, where an added CRLF changed a broken game's end).
            let source = self.source;
            self.push_raw(&source.text[end..]);
        }
        if opts.export_header && !self.header_done {
            self.add_export_header();
        }
        let eol = eol_of(opts, self.source);
        let text = normalize_eol(self.out, eol, &self.raw);
        let _ = CommentKind::Line;
        Formatted {
            text,
            verbatim_games: self.verbatim_games,
            unprintable_games: self.unprintable_games,
            dropped_duplicates: self.dropped,
            fixes: 0,
            commented_games: self.commented,
        }
    }
}

/// Puts the export header (§2.4: `% PBN 2.1` and `% EXPORT` as the first
/// lines) in front of `out`, keeping what the file's leading escape lines
/// already say: a version line of its own (`% PBN 1.0`) is kept and not
/// doubled, and `% EXPORT` goes right after the version line, or in front
/// of everything when that line belongs to a game printed verbatim
/// (`verbatim_first`). Line ends of any kind count (the output is
/// normalised later), so formatting the result again adds nothing.
/// Returns the text, where the lines were added and their length.
fn with_export_header(out: String, verbatim_first: bool) -> (String, usize, usize) {
    let (version_end, export) = escape_lines(&out);
    let export_line = if export { "" } else { "% EXPORT\n" };
    let n = out.len();
    let (s, at) = match version_end {
        // Before a game kept as written, a blank line: the game must start
        // where the reader starts a file, or a broken one may be read
        // otherwise (an unterminated `{` first, found by CI's short `fmt` run).
        None if verbatim_first => (format!("% PBN 2.1\n{export_line}\n{out}"), 0),
        None => (format!("% PBN 2.1\n{export_line}{out}"), 0),
        Some(_) if !export && verbatim_first => (format!("% EXPORT\n{out}"), 0),
        Some(end) if !export => {
            let mut s = out;
            if !s[..end].ends_with(['\n', '\r']) {
                s.insert(end, '\n');
                s.insert_str(end + 1, "% EXPORT");
            } else {
                s.insert_str(end, export_line);
            }
            (s, end)
        }
        Some(_) => (out, 0),
    };
    let added = s.len() - n;
    (s, at, added)
}

/// Where the `%` lines that start `out` end.
fn leading_escape_lines(out: &str) -> usize {
    scan_escape_lines(out).2
}

/// Of the `%` lines that start `out`: the end of the version line (after
/// its line end) and whether one is `% EXPORT`.
fn escape_lines(out: &str) -> (Option<usize>, bool) {
    let (v, e, _) = scan_escape_lines(out);
    (v, e)
}

/// [`escape_lines`] and [`leading_escape_lines`] in one scan.
fn scan_escape_lines(out: &str) -> (Option<usize>, bool, usize) {
    let mut version_end = None; // byte offset after the version line's end
    let mut export = false;
    let mut at = 0;
    while out[at..].starts_with('%') {
        let len = out[at..].find(['\n', '\r']).unwrap_or(out.len() - at);
        let line = out[at..at + len].trim();
        let mut next = at + len;
        if out[next..].starts_with("\r\n") {
            next += 2;
        } else if next < out.len() {
            next += 1;
        }
        if version_end.is_none()
            && line
                .strip_prefix('%')
                .is_some_and(|l| l.trim_start().starts_with("PBN"))
        {
            version_end = Some(next);
        }
        export |= line == "% EXPORT";
        at = next;
    }
    (version_end, export, at)
}

/// Converts every line end (LF, CRLF, CR) to `eol` (in place when they
/// are all LF already and `eol` is LF), except in the `raw` ranges (sorted,
/// disjoint), which are copied as they are.
fn normalize_eol(s: String, eol: &str, raw: &[std::ops::Range<usize>]) -> String {
    if eol == "\n" && !s.contains('\r') {
        return s;
    }
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    let mut at = 0;
    for r in raw {
        push_normalized(&mut out, &s[at..r.start], eol);
        out.push_str(&s[r.clone()]);
        at = r.end;
    }
    push_normalized(&mut out, &s[at..], eol);
    out
}

/// Appends `s` with every line end (LF, CRLF, CR) made `eol`.
fn push_normalized(out: &mut String, s: &str, eol: &str) {
    let b = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\r' || b[i] == b'\n' {
            out.push_str(&s[start..i]);
            out.push_str(eol);
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    out.push_str(&s[start..]);
}
