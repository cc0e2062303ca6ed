//! `textDocument/hover`: the core's hover ([`pbn_core::hover`], which
//! builds every word of it) at the cursor. This adapter converts the
//! position to a byte offset, gives the core the snapshot's pieces and
//! games and the double-dummy results from the server's cache
//! ([`crate::lsp::dd`]: never waits, queues what is missing, "solving…"
//! until it is done), and wraps the Markdown and its range in LSP types.

use crate::lsp::dd::{service, Lookup, Staleness};
use crate::lsp::snapshot::Snapshot;
use pbn_core::dd::play::{PlayTrace, Setup};
use pbn_core::dd::verify::{Position as DealPosition, Solved};
use pbn_core::hover::{DdAnswers, DdLookup, Games, HoverInput, LeadsSolved, PlaySolved};
use pbn_core::model::Game;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
}

pub fn hover(snap: &Snapshot, params: HoverParams) -> Option<Hover> {
    let conv = snap.converter();
    let offset = conv.offset(params.text_document_position_params.position);
    let trees = snap.piece_trees_at(offset);
    let dd = ServerDd(snap.staleness());
    let input = HoverInput {
        text: &snap.source.text,
        lines: &snap.index,
        trees: &trees,
        games: &SnapshotGames(snap),
        dd: &dd,
    };
    let answer = pbn_core::hover::hover(&input, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: answer.markdown,
        }),
        range: Some(conv.range(answer.range)),
    })
}

/// The snapshot's games, each lowered on its own when first asked for.
struct SnapshotGames<'a>(&'a Snapshot);

impl Games for SnapshotGames<'_> {
    fn game_at(&self, offset: usize) -> Option<&Game> {
        self.0.game_at(offset)
    }

    fn game(&self, index: usize) -> Option<&Game> {
        self.0.game(index)
    }
}

/// The server's solver: the cached result, else the job queued (a hover's
/// ahead of the background work) and "solving…".
struct ServerDd(Staleness);

fn lookup<T>(l: Lookup<T>) -> DdLookup<T> {
    match l {
        Lookup::Ready(r) => DdLookup::Ready(r),
        Lookup::Solving => DdLookup::Solving,
    }
}

impl DdAnswers for ServerDd {
    fn table(&self, position: &DealPosition) -> DdLookup<Solved> {
        lookup(service().lookup(position, &self.0))
    }

    fn play(&self, trace: &PlayTrace) -> DdLookup<PlaySolved> {
        lookup(service().lookup_play(trace, &self.0, true))
    }

    fn leads(&self, setup: &Setup) -> DdLookup<LeadsSolved> {
        lookup(service().lookup_leads(setup, &self.0))
    }
}

/// The adapter: positions in UTF-16 to offsets and back, every position
/// answered, the server's solver behind "solving…". What the hover says is
/// tested with the core (`pbn_core::hover`'s tests).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot as snap;
    use crate::lsp::snapshot::Snapshot;

    /// The core's hover test document.
    const DOC: &str = include_str!("../../../core/src/hover/test_doc.pbn");

    fn params(line: u32, character: u32) -> HoverParams {
        HoverParams {
            text_document_position_params: TextDocumentPositionParams {
                text_document: TextDocumentIdentifier {
                    uri: "file:///t.pbn".parse().unwrap(),
                },
                position: Position { line, character },
            },
            work_done_progress_params: Default::default(),
        }
    }

    /// Hovers the first occurrence of `needle` on line `line` (byte column,
    /// ASCII lines only), at its `k`-th character.
    fn at(s: &Snapshot, line: u32, needle: &str, k: u32) -> String {
        let l = s.source.text.lines().nth(line as usize).unwrap();
        let col = l
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} not on line {line}")) as u32;
        render(s, hover(s, params(line, col + k)))
    }

    fn render(s: &Snapshot, h: Option<Hover>) -> String {
        let Some(h) = h else { return "(none)".into() };
        let HoverContents::Markup(m) = h.contents else {
            panic!("not markup")
        };
        assert_eq!(m.kind, MarkupKind::Markdown);
        let r = h.range.unwrap();
        // The range covers exactly the hovered token.
        let conv = s.converter();
        let b = conv.byte_range(r);
        format!(
            "[{}:{}-{}:{}] `{}`\n{}",
            r.start.line,
            r.start.character,
            r.end.line,
            r.end.character,
            &s.source.text[b],
            m.value
        )
    }

    #[test]
    fn utf16_positions() {
        let s = snap(DOC);
        // Line 29: `{🂡 é} Pass 1NT ?! =3= $255 X AP`: 🂡 is 2 UTF-16
        // units (4 bytes), é one (2 bytes).
        let line = 29;
        let l = s.source.text.lines().nth(line).unwrap();
        let utf16_col = |needle: &str| l[..l.find(needle).unwrap()].encode_utf16().count() as u32;
        let one_nt = utf16_col("1NT");
        assert_eq!(one_nt, 12);
        let h = hover(&s, params(line as u32, one_nt + 1)).unwrap();
        assert_eq!(
            h.range.unwrap(),
            tower_lsp_server::ls_types::Range {
                start: Position {
                    line: 29,
                    character: 12
                },
                end: Position {
                    line: 29,
                    character: 15
                }
            }
        );
        insta::assert_snapshot!("utf16_call", render(&s, Some(h)));
        insta::assert_snapshot!(
            "utf16_suffix",
            render(&s, hover(&s, params(line as u32, utf16_col("?!"))))
        );
        insta::assert_snapshot!(
            "utf16_nag",
            render(&s, hover(&s, params(line as u32, utf16_col("$255") + 2)))
        );
        insta::assert_snapshot!(
            "utf16_missing_note",
            render(&s, hover(&s, params(line as u32, utf16_col("=3="))))
        );
        insta::assert_snapshot!(
            "utf16_double",
            render(&s, hover(&s, params(line as u32, utf16_col(" X ") + 1)))
        );
    }

    #[test]
    fn every_position_of_broken_text() {
        let broken = "[Deal \"N:AKQ.x.-\"]\n[Auction \"N\"]\n1N $ $x =a= =40= ^Q ^S [Note \"x\"]\n[Play \"Q\"]\nS10 -- + *\n[Contract \"\"]\n[Result \"^\"]\n[Event \"#\"\n";
        for text in [DOC, broken] {
            let s = snap(text);
            for (line, l) in text.lines().enumerate() {
                for col in 0..=l.encode_utf16().count() as u32 + 1 {
                    let _ = hover(&s, params(line as u32, col));
                }
            }
        }
    }

    /// Hovers until the server's solver has answered ("solving…" first).
    fn solved(s: &Snapshot, line: u32, needle: &str) -> String {
        for _ in 0..600 {
            let h = at(s, line, needle, 0);
            if !h.contains("solving…") {
                return h;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("not solved in 30 s")
    }

    #[test]
    fn a_card_says_what_it_cost_double_dummy_and_the_deal_its_leads() {
        // Spades trumps, North to lead: the ♠2 lets West overtrump, the ♥A
        // keeps a trick (`pbn_core::dd::play`'s tests).
        let s = snap("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n");
        insta::assert_snapshot!("card_dd_costly", solved(&s, 4, "S2"));
        insta::assert_snapshot!("card_dd_best", solved(&s, 5, "HA"));
        let deal = solved(&s, 0, "2.A");
        let leads = deal.split("\n\n").last().unwrap_or("");
        assert_eq!(
            leads,
            "**Opening leads:** North leads, ♠ trumps; tricks for North-South: ♥A: 1, ♠2: 0"
        );
    }

    #[test]
    fn capability() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        assert_eq!(
            caps.hover_provider,
            Some(HoverProviderCapability::Simple(true))
        );
    }
}
