//! Conversions between PBN and other bridge formats: RBN 2.2 ([`rbn`]),
//! BBO's LIN ([`lin`]) and forum notation ([`forum`], write only).
//!
//! PBN is the pivot: a reader turns its format into PBN text (import format,
//! then written in export format by [`crate::format`]), a writer reads PBN
//! through the typed model ([`crate::model::typed`]) and writes its format.
//! `convert(RBN → LIN)` is RBN → PBN → LIN. Readers are liberal and report
//! what they could not read as [`ReadDiagnostic`]s; writers report what the
//! target cannot hold as [`Loss`]es, per game. Nothing is dropped silently.

pub mod forum;
pub mod lin;
pub mod rbn;

use std::ops::Range;

use crate::codes::Severity;
use crate::model::{CallToken, CardToken, Entry};

/// A format `pbn convert` reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Pbn,
    Rbn,
    Lin,
    /// Forum notation (`[hand …]`, `[bidding …]`): written, never read.
    Forum,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Pbn, Format::Rbn, Format::Lin, Format::Forum];

    /// The name used by `--from`/`--to` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pbn => "pbn",
            Format::Rbn => "rbn",
            Format::Lin => "lin",
            Format::Forum => "forum",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The format a file name's extension stands for (`.pbn`, `.rbn`,
    /// `.lin`, `.txt`/`.forum` for forum notation).
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1;
        match ext.to_ascii_lowercase().as_str() {
            "pbn" => Some(Format::Pbn),
            "rbn" => Some(Format::Rbn),
            "lin" => Some(Format::Lin),
            "forum" | "txt" => Some(Format::Forum),
            _ => None,
        }
    }

    pub fn can_read(self) -> bool {
        self != Format::Forum
    }
}

/// A problem met while reading a source format: a byte range of the input
/// (the CLI turns it into line and column) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadDiagnostic {
    pub severity: Severity,
    pub range: Range<usize>,
    pub message: String,
}

impl ReadDiagnostic {
    /// A reader's diagnostic, its message as the checker's are shown
    /// ([`crate::diagnostic::tidy`]: control characters made visible, long
    /// quotes and messages shortened): the input is anything.
    pub fn new(severity: Severity, range: Range<usize>, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = crate::diagnostic::tidy(&message).unwrap_or(message);
        ReadDiagnostic {
            severity,
            range,
            message,
        }
    }
}

/// Something of one game the target format cannot hold (reported on
/// stderr per game by `pbn convert`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// 0-based game (board) index in the input.
    pub game: usize,
    /// The parts of the game's meaning (its `pbn dump`) the loss takes
    /// away: a round trip keeps everything else.
    pub parts: Vec<Part>,
    pub what: String,
}

/// A part of a game's meaning, as `pbn dump` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// A tag's value (`tags.<name>`) and the section data after it
    /// (`sections.<name>`).
    Tag(String),
    /// Only the section data after a tag (`sections.<name>`).
    Section(String),
    /// Only the `#`/`##` marks of a tag (§4.8): its value is kept.
    Inheritance(String),
    /// The auction: its calls, their notes and where it ends.
    Auction,
    /// The NAGs, suffixes, irregularity marks and notes of the calls.
    AuctionAnnotations,
    /// Only how the auction ends (`end`: `*`, `+` or nothing after the
    /// last call): its calls are kept.
    AuctionEnd,
    /// The play: its cards, their notes and where it ends.
    Play,
    /// The NAGs, suffixes, irregularity marks and notes of the cards.
    PlayAnnotations,
    /// Only how the play ends (`end`: `*`, `+` or nothing after the last
    /// card): its cards are kept.
    PlayEnd,
    /// That the game has syntax errors (`syntax_error`): it is written as
    /// far as it could be read, and reads back without them.
    SyntaxErrors,
    /// The game as a whole (it cannot be told apart or read back).
    Game,
}

impl Part {
    pub fn tag(name: &str) -> Part {
        Part::Tag(name.to_string())
    }

    /// Whether the part is game meaning: a call, a card, a result, the deal
    /// and who plays it ([`MEANING_TAGS`]), or a whole game. Annotations,
    /// `#`/`##` marks and the other tags are not.
    pub fn is_meaning(&self) -> bool {
        match self {
            Part::Auction | Part::Play | Part::Game => true,
            Part::Tag(name) => MEANING_TAGS.contains(&name.as_str()),
            _ => false,
        }
    }
}

/// The tags whose values are the game itself (§3.4: the deal, who deals
/// and plays it, the contract and its result): losing one is losing game
/// meaning.
pub const MEANING_TAGS: [&str; 6] = [
    "Dealer",
    "Vulnerable",
    "Deal",
    "Declarer",
    "Contract",
    "Result",
];

impl Loss {
    /// Whether the loss takes game meaning away ([`Part::is_meaning`]).
    pub fn is_meaning(&self) -> bool {
        self.parts.iter().any(Part::is_meaning)
    }
}

/// The losses of one kind in a file: what `pbn convert` says once, with a
/// count, instead of once per game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LossSummary {
    /// The first loss's text.
    pub what: String,
    /// How many of the losses are of another value of the same kind (a
    /// message quoting another value).
    pub other_values: usize,
    /// The games (0-based, ascending, each once) that lose it.
    pub games: Vec<usize>,
    /// Whether it is game meaning ([`Loss::is_meaning`]).
    pub meaning: bool,
}

/// A loss's kind: its text without the values it quotes in `"…"`.
fn loss_kind(what: &str) -> String {
    what.split('"').step_by(2).collect::<Vec<_>>().join("\"\"")
}

/// The losses grouped by kind, in the order each kind first occurs.
pub fn summarize(losses: &[Loss]) -> Vec<LossSummary> {
    let mut out: Vec<LossSummary> = Vec::new();
    let mut index: crate::hash::Map<String, (usize, String)> = Default::default();
    for l in losses {
        let kind = loss_kind(&l.what);
        let (k, first) = index.entry(kind).or_insert_with(|| {
            out.push(LossSummary {
                what: l.what.clone(),
                other_values: 0,
                games: Vec::new(),
                meaning: false,
            });
            (out.len() - 1, l.what.clone())
        });
        let s = &mut out[*k];
        if *first != l.what {
            s.other_values += 1;
        }
        if s.games.last() != Some(&l.game) {
            s.games.push(l.game);
        }
        s.meaning |= l.is_meaning();
    }
    for s in &mut out {
        s.games.sort_unstable();
        s.games.dedup();
    }
    out
}

/// The result of one conversion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    pub text: String,
    /// What the reader could not read (empty when the source is PBN).
    pub diagnostics: Vec<ReadDiagnostic>,
    /// What the writer could not carry.
    pub losses: Vec<Loss>,
}

/// Converts `input` (decoded text) from one format to another through PBN.
/// Reading forum notation is refused with one diagnostic.
pub fn convert(input: &str, from: Format, to: Format) -> Converted {
    let mut read = match from {
        Format::Pbn => Converted {
            text: input.to_string(),
            diagnostics: pbn_syntax_errors(input),
            ..Converted::default()
        },
        Format::Rbn => rbn::to_pbn(input),
        Format::Lin => lin::to_pbn(input),
        Format::Forum => {
            return Converted {
                diagnostics: vec![ReadDiagnostic {
                    severity: Severity::Error,
                    range: 0..0,
                    message: "forum notation is written, not read".into(),
                }],
                ..Converted::default()
            }
        }
    };
    let written = match to {
        Format::Pbn => return read,
        Format::Rbn => rbn::from_pbn(&read.text),
        Format::Lin => lin::from_pbn(&read.text),
        Format::Forum => forum::from_pbn(&read.text),
    };
    read.text = written.text;
    read.diagnostics.extend(written.diagnostics);
    read.losses.extend(written.losses);
    read
}

/// At most this many syntax errors of a PBN input are reported one by one.
const SYNTAX_ERRORS_SHOWN: usize = 20;

/// The syntax errors of a PBN input (its games are converted as far as they
/// could be read, so the conversion is not clean): the first
/// [`SYNTAX_ERRORS_SHOWN`], then one line with how many more.
fn pbn_syntax_errors(input: &str) -> Vec<ReadDiagnostic> {
    let trees = crate::syntax::parse_pieces(input);
    let all: Vec<_> = crate::syntax::syntax_diagnostics(&trees, input)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let mut out: Vec<ReadDiagnostic> = all
        .iter()
        .take(SYNTAX_ERRORS_SHOWN)
        .map(|d| ReadDiagnostic {
            severity: Severity::Error,
            range: d.range.clone(),
            message: format!("{}: {}", d.code.code, d.message),
        })
        .collect();
    if let (Some(last), true) = (all.last(), all.len() > SYNTAX_ERRORS_SHOWN) {
        out.push(ReadDiagnostic {
            severity: Severity::Error,
            range: last.range.clone(),
            message: format!(
                "{} more syntax errors (`pbn check` lists them all)",
                all.len() - SYNTAX_ERRORS_SHOWN
            ),
        });
    }
    out
}

/// Writes the games (0-based indices) in `games` of a PBN text in another
/// format: the editor's "Open as RBN/LIN" and "Copy as forum notation".
/// The games before them are read for the values they pass on with
/// `#`/`##` (§4.8), not written. To PBN, the text of those games as is.
pub fn convert_games(pbn: &str, games: Range<usize>, to: Format) -> Converted {
    match to {
        Format::Pbn => {
            let doc = read_pbn(pbn);
            let picked: Vec<_> = doc
                .games
                .iter()
                .filter(|g| games.contains(&g.index))
                .collect();
            let text = match (picked.first(), picked.last()) {
                (Some(a), Some(b)) => pbn[a.range.start..b.range.end].to_string(),
                _ => String::new(),
            };
            Converted {
                text,
                ..Converted::default()
            }
        }
        Format::Rbn => rbn::from_pbn_games(pbn, games),
        Format::Lin => lin::from_pbn_games(pbn, games),
        Format::Forum => forum::from_pbn_games(pbn, games),
    }
}

/// A strain as RBN, LIN and forum notation write it: `N` for notrump
/// (PBN writes `NT`), the suit letter otherwise.
pub(crate) fn strain_letter(s: crate::bridge::Strain) -> &'static str {
    match s {
        crate::bridge::Strain::Notrump => "N",
        s => crate::bridge::strain_text(s),
    }
}

/// A bid as RBN, LIN and forum notation write it: `1N`, `4S`.
pub(crate) fn short_bid(b: crate::bridge::Bid) -> String {
    format!("{}{}", b.level.get(), strain_letter(b.strain))
}

/// The calls of an auction section as the PBN reader understands them: a
/// token in another spelling [`crate::spec::calls`] reads (`P`, `1N`,
/// `Dbl`, `Rdbl`, `ap`) becomes the call it spells, so that every writer
/// writes it in its own spelling; only a token no reader understands stays
/// [`CallToken::Invalid`]. Annotations and ranges are the entries'.
pub fn read_calls(text: &str, entries: &[Entry<CallToken>]) -> Vec<Entry<CallToken>> {
    entries
        .iter()
        .map(|e| {
            let mut e = e.clone();
            if e.token == CallToken::Invalid {
                e.token = crate::model::typed::interpret_call(&text[e.range.clone()])
                    .map_or(CallToken::Invalid, |(t, _)| t);
            }
            e
        })
        .collect()
}

/// The cards of a play section as the PBN reader understands them: a
/// token in another spelling [`crate::spec::cards`] reads (`S10`, `ha`,
/// `--`) becomes the card (or `-`) it spells; only a token no reader
/// understands stays [`CardToken::Invalid`].
pub fn read_cards(text: &str, entries: &[Entry<CardToken>]) -> Vec<Entry<CardToken>> {
    entries
        .iter()
        .map(|e| {
            let mut e = e.clone();
            if e.token == CardToken::Invalid {
                e.token = crate::model::typed::interpret_card(&text[e.range.clone()])
                    .map_or(CardToken::Invalid, |(t, _)| t);
            }
            e
        })
        .collect()
}

/// Parses PBN text into the model (for writers).
pub fn read_pbn(pbn: &str) -> crate::model::Document {
    crate::model::lower(&crate::syntax::parse_pieces(pbn), pbn)
}

/// PBN text being written by a reader, in import format (§2.1; the CLI
/// turns it into export format with the formatter). Shared by the readers.
#[derive(Debug, Default)]
pub struct PbnWriter {
    pub out: String,
}

impl PbnWriter {
    /// `[Name "value"]` with `"` and `\` escaped (§3.2).
    pub fn tag(&mut self, name: &str, value: &str) {
        self.out.push('[');
        self.out.push_str(name);
        self.out.push_str(" \"");
        self.out.push_str(&crate::model::escape(value));
        self.out.push_str("\"]\n");
    }

    /// A `{…}` commentary (§3.8); a `}` inside, which would end it early,
    /// becomes `)`. Long lines are wrapped at spaces: PBN lines hold at
    /// most 255 characters (§2.3).
    pub fn comment(&mut self, text: &str) {
        let text = text.replace('}', ")");
        self.out.push('{');
        for (k, line) in text.split('\n').enumerate() {
            if k > 0 {
                self.out.push('\n');
            }
            let mut width = if k == 0 { 1 } else { 0 };
            for (j, word) in line.split(' ').enumerate() {
                if j > 0 {
                    if width + 1 + word.chars().count() > 78 {
                        self.out.push('\n');
                        width = 0;
                    } else {
                        self.out.push(' ');
                        width += 1;
                    }
                }
                self.out.push_str(word);
                width += word.chars().count();
            }
        }
        self.out.push_str("}\n");
    }

    /// A line as is (section data, `%` escape lines).
    pub fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Ends a game with an empty line (§3: games are separated by one).
    pub fn end_game(&mut self) {
        self.out.push('\n');
    }
}
