//! The RBN writer (PBN → RBN): what RBN cannot hold reported as losses,
//! the labels written in order, the game's commentary as paragraphs.

use super::LABELS;
use crate::convert::{read_pbn, Converted, Loss, Part};
use crate::model::values;
use crate::model::{typed, CommentKind, Game, Inherit, TagRole};

/// Tags the writer carries (the mapping of the module documentation).
const CARRIED: &[&str] = &[
    "Description",
    "Annotator",
    "Date",
    "Time",
    "Site",
    "Event",
    "Stage",
    "Scoring",
    "HomeTeam",
    "VisitTeam",
    "North",
    "South",
    "West",
    "East",
    "Room",
    "Table",
    "Board",
    "Section",
    "Deal",
    "Hidden",
    "Dealer",
    "Vulnerable",
    "Contract",
    "Declarer",
    "Result",
    "Score",
    "ScoreIMP",
    "ScorePercentage",
    "OptimumResultTable",
];

/// Reads PBN and writes RBN.
pub fn from_pbn(pbn: &str) -> Converted {
    from_pbn_games(pbn, 0..usize::MAX)
}

/// [`from_pbn`] of the games (0-based indices) in `games` only: earlier
/// games are read for the values they pass on with `#`/`##` (§4.8).
pub fn from_pbn_games(pbn: &str, games: std::ops::Range<usize>) -> Converted {
    let doc = read_pbn(pbn);
    let mut out = String::from("% RBN 2.2\n");
    let mut losses = Vec::new();
    for g in doc.games.iter().filter(|g| games.contains(&g.index)) {
        let mut wr = GameWriter {
            text: pbn,
            game: g,
            losses: Vec::new(),
            labels: Default::default(),
            auction_notes: Vec::new(),
            play_notes: Vec::new(),
            makes: None,
        };
        wr.write();
        out.push_str(&wr.finish());
        losses.extend(wr.losses);
    }
    Converted {
        text: out,
        diagnostics: Vec::new(),
        losses,
    }
}

pub(super) struct GameWriter<'a> {
    pub(super) text: &'a str,
    pub(super) game: &'a Game,
    pub(super) losses: Vec<Loss>,
    /// Data of each label (`LABELS` order).
    pub(super) labels: [Option<String>; 16],
    /// Note lines after the A and P labels.
    pub(super) auction_notes: Vec<String>,
    pub(super) play_notes: Vec<String>,
    /// The double-dummy makes of M (`:north+south:west+east`), from the
    /// OptimumResultTable; the tricks after the lead come before them.
    pub(super) makes: Option<String>,
}

impl GameWriter<'_> {
    /// Reports a loss of `part` of the game.
    pub(super) fn lose(&mut self, part: Part, what: impl Into<String>) {
        self.lose_parts(vec![part], what);
    }

    /// Reports a loss of `parts` of the game.
    pub(super) fn lose_parts(&mut self, parts: Vec<Part>, what: impl Into<String>) {
        self.losses.push(Loss {
            game: self.game.index,
            parts,
            what: what.into(),
        });
    }

    /// Sets the data of `label`.
    pub(super) fn set(&mut self, label: u8, data: String) {
        if let Some(k) = LABELS.iter().position(|&l| l == label) {
            self.labels[k] = Some(data);
        }
    }

    /// The game's own value of a tag (values received through `##` are not
    /// part of the game's dump, §4.8).
    pub(super) fn value(&self, name: &str) -> Option<&str> {
        self.game.value(name).filter(|v| *v != "?" && !v.is_empty())
    }

    /// Losses for carried tags whose value cannot be read: RBN's labels hold
    /// only readable data.
    fn unreadable(&mut self, ty: &typed::TypedGame) {
        for (name, read) in [
            ("Dealer", ty.dealer.is_some()),
            ("Vulnerable", ty.vulnerable.is_some()),
            ("Deal", ty.deal.is_some()),
            ("Declarer", ty.declarer.is_some()),
            ("Contract", ty.contract.is_some()),
            ("Result", ty.result.is_some()),
            ("Score", ty.score.is_some()),
        ] {
            if self.value(name).is_some() && !read {
                self.lose(Part::tag(name), format!("the {name} (unreadable)"));
            }
        }
        for (name, ok) in [
            (
                "ScoreIMP",
                self.value("ScoreIMP")
                    .map(|v| values::parse_score_imp(v).value.is_some()),
            ),
            (
                "ScorePercentage",
                self.value("ScorePercentage")
                    .map(|v| values::parse_score_percentage(v).value.is_some()),
            ),
        ] {
            if ok == Some(false) {
                self.lose(Part::tag(name), format!("the {name} (unreadable)"));
            }
        }
    }

    /// Reports what RBN cannot hold and sets the labels from the game.
    fn write(&mut self) {
        let g = self.game;
        for t in &g.tags {
            if t.inherit == Inherit::Previous
                && crate::spec::tags::NO_INHERIT.contains(&t.name.as_str())
            {
                // §4.8 forbids `#` here: the game has no value, but RBN's
                // repeated label gives it the previous one.
                self.lose(
                    Part::tag(&t.name),
                    format!(
                        "the forbidden `#` of tag {} (§4.8; RBN repeats the value)",
                        t.name
                    ),
                );
            } else if t.inherit != Inherit::None {
                self.lose(
                    Part::Inheritance(t.name.to_string()),
                    format!(
                        "the `#`/`##` inheritance of tag {} (RBN repeats labels instead)",
                        t.name
                    ),
                );
            }
            if t.effective() == Some("")
                && CARRIED.contains(&t.name.as_str())
                && !(matches!(t.name.as_str(), "Declarer" | "Result")
                    && crate::model::contract_is_pass(g))
            {
                self.lose(
                    Part::tag(&t.name),
                    format!(
                        "the empty value of tag {} (an RBN null label is an absent value)",
                        t.name
                    ),
                );
            }
            if matches!(t.role, TagRole::Plain | TagRole::Section)
                && !CARRIED.contains(&t.name.as_str())
                && t.effective().is_some_and(|v| v != "?")
            {
                self.lose(Part::tag(&t.name), format!("tag {} (no RBN label)", t.name));
            }
        }
        for s in &g.sections {
            if let Some(t) = g.tags.get(s.tag) {
                if CARRIED.contains(&t.name.as_str())
                    && t.name != "OptimumResultTable"
                    && !s.elements.is_empty()
                {
                    self.lose(
                        Part::Section(t.name.to_string()),
                        format!("the section data of tag {}", t.name),
                    );
                }
            }
        }
        for i in &g.inherited {
            if !CARRIED.contains(&i.name.as_str()) && i.value != "?" && g.tag(&i.name).is_none() {
                self.lose(Part::tag(&i.name), format!("tag {} (no RBN label)", i.name));
            }
        }
        let ty = typed::typed(self.text, g);
        self.unreadable(&ty);
        if g.syntax_error {
            self.lose(
                Part::SyntaxErrors,
                "the syntax errors (the game is written as far as it could be read)",
            );
        }
        self.write_title();
        self.write_date();
        self.write_texts();
        self.write_scoring();
        self.write_teams();
        self.write_names();
        self.write_board();
        self.write_deal(&ty);
        self.write_auction(&ty);
        self.write_contract(&ty);
        self.write_play(&ty);
        self.write_result(&ty);
        self.write_makes();
    }

    /// The game's commentary as RBN paragraphs: before the H label (those
    /// before the Deal tag) and after; `{RBN <label> <data>}` back to the
    /// label.
    fn paragraphs(&mut self) -> (Vec<String>, Vec<String>) {
        let deal_at = self.game.tag("Deal").map_or(usize::MAX, |t| t.range.start);
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let game = self.game;
        for c in game.commentary() {
            let raw = &self.text[c.range.clone()];
            let body = match c.kind {
                CommentKind::Brace | CommentKind::UnterminatedBrace | CommentKind::Line => {
                    c.body(self.text)
                }
                // `% PBN 2.1`, `% EXPORT` (§2.4) and `% RBN 2.2` say
                // which format a file is in: the RBN file has its own.
                CommentKind::Escape
                    if ["% PBN", "% EXPORT", "% RBN"]
                        .iter()
                        .any(|p| raw.starts_with(p)) =>
                {
                    continue
                }
                CommentKind::Escape => {
                    self.lose_parts(Vec::new(), "an escape line (`%`) inside a game");
                    continue;
                }
            };
            if let Some(rest) = body.strip_prefix("RBN ") {
                let b = rest.as_bytes();
                if b.len() >= 2 && LABELS.contains(&b[0]) && b[1] == b' ' {
                    self.set(b[0], rest[2..].to_string());
                    continue;
                }
            }
            let text: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
            let mut text = text.join("\n").replace('{', "(");
            if text.trim().is_empty() {
                continue;
            }
            if text.contains('\n') {
                // A line of a paragraph may not start with `{`, which the
                // replacement above already rules out.
                text = text
                    .lines()
                    .map(str::trim_end)
                    .collect::<Vec<_>>()
                    .join("\n");
            }
            if c.range.start < deal_at {
                before.push(text);
            } else {
                after.push(text);
            }
        }
        (before, after)
    }

    /// The RBN deal: paragraphs, the labels in order with their notes.
    fn finish(&mut self) -> String {
        let (before, after) = self.paragraphs();
        if let Some(makes) = self.makes.take() {
            // The tricks after the lead (kept as `{RBN M …}`), then the
            // makes.
            let k = LABELS.iter().position(|&l| l == b'M').unwrap_or(15);
            let lead = self.labels[k]
                .as_deref()
                .map_or("", |m| m.split(':').next().unwrap_or(""))
                .to_string();
            self.labels[k] = Some(format!("{lead}{makes}"));
        }
        let mut out = String::new();
        for p in &before {
            out.push_str(&format!("{{{p}}}\n"));
        }
        for (k, &label) in LABELS.iter().enumerate() {
            match &self.labels[k] {
                Some(d) => out.push_str(&format!("{} {d}\n", label as char)),
                // Every repeating label is written, null when absent, so
                // that nothing repeats from the previous deal ("General
                // Database Rules").
                None if k < 10 => out.push_str(&format!("{}\n", label as char)),
                None => {}
            }
            let notes = match label {
                b'A' => &self.auction_notes,
                b'P' => &self.play_notes,
                _ => continue,
            };
            for n in notes {
                out.push_str(n);
                out.push('\n');
            }
        }
        for p in &after {
            out.push_str(&format!("{{{p}}}\n"));
        }
        out.push('\n');
        out
    }
}
