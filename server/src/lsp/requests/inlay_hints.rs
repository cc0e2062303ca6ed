//! `textDocument/inlayHint`:
//!
//! - `N:` before each auction call (and `-`, `^S`, `+`): who made it, from
//!   the auction analysis (§3.5);
//! - `E:` before each card of the play section (and `-`, `+`): who played it
//!   (§3.6: the columns follow the Play tag, not the playing order);
//! - `→ S` at the end of each complete trick line: who won the trick;
//! - `−1` after each card that gave tricks away double dummy (from the
//!   server's solver: queued behind the hovers' work, shown by the first
//!   request after it is done, which a client with refresh support is
//!   asked to send);
//! - `17 HCP` after each hand of the Deal value (§3.4.11).

use crate::lsp::convert::Converter;
use crate::lsp::snapshot::Snapshot;
use contract_bridge::{Seat, Suit};
use pbn_core::bridge::hcp;
use pbn_core::bridge::seat_name;
use pbn_core::model::typed::typed;
use pbn_core::model::values;
use pbn_core::model::{CallToken, CardToken, Entry, Game, Inherit};
use std::ops::Range as ByteRange;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.inlay_hint_provider = Some(OneOf::Left(true));
}

pub fn inlay_hint(snap: &Snapshot, params: InlayHintParams) -> Option<Vec<InlayHint>> {
    let conv = snap.converter();
    let range = conv.byte_range(params.range);
    let mut hints = Hints {
        conv,
        range: range.clone(),
        out: Vec::new(),
    };
    for g in snap.games_overlapping(range.clone()) {
        deal_hints(&mut hints, g);
        let touches = |r: &ByteRange<usize>| r.start <= range.end && range.start <= r.end;
        let auction = g.auction.as_ref().filter(|a| touches(&a.range));
        let play = g.play.as_ref().filter(|p| touches(&p.range));
        if auction.is_none() && play.is_none() {
            continue;
        }
        let t = typed(&snap.source.text, g);
        if let (Some(a), Some(an)) = (auction, &t.auction) {
            for (k, e) in a.entries.iter().enumerate() {
                if e.token == CallToken::Terminator {
                    continue;
                }
                if let Some(seat) = an.seats.get(k).copied().flatten() {
                    hints.seat(e, seat);
                }
            }
        }
        if let (Some(p), Some(an)) = (play, &t.play) {
            for (k, e) in p.entries.iter().enumerate() {
                if e.token == CardToken::Terminator {
                    continue;
                }
                if let Some(seat) = an.seats.get(k).copied().flatten() {
                    hints.seat(e, seat);
                }
            }
            for (i, trick) in an.tricks.iter().enumerate() {
                let (Some(winner), true) = (trick.winner, trick.complete) else {
                    continue;
                };
                let Some(last) = trick
                    .cards
                    .iter()
                    .flatten()
                    .max()
                    .and_then(|&k| p.entries.get(k))
                else {
                    continue;
                };
                let end = last
                    .post()
                    .iter()
                    .map(|a| a.range.end)
                    .fold(last.range.end, usize::max);
                hints.push(
                    end,
                    format!("→ {}", winner.letter()),
                    format!("Trick {} won by {}", i + 1, seat_name(winner)),
                    InlayHintKind::TYPE,
                    true,
                    false,
                );
            }
            cost_hints(&mut hints, snap, g, p, &t);
        }
    }
    let mut out = hints.out;
    out.sort_by_key(|h| (h.position.line, h.position.character));
    Some(out)
}

struct Hints<'a> {
    conv: Converter<'a>,
    range: ByteRange<usize>,
    out: Vec<InlayHint>,
}

impl Hints<'_> {
    fn push(
        &mut self,
        offset: usize,
        label: String,
        tooltip: String,
        kind: InlayHintKind,
        left: bool,
        right: bool,
    ) {
        if offset < self.range.start || offset > self.range.end {
            return;
        }
        self.out.push(InlayHint {
            position: self.conv.position(offset),
            label: InlayHintLabel::String(label),
            kind: Some(kind),
            text_edits: None,
            tooltip: Some(InlayHintTooltip::String(tooltip)),
            padding_left: Some(left),
            padding_right: Some(right),
            data: None,
        });
    }

    /// `N:` before a call or card (before its irregularity mark, if any).
    fn seat<T>(&mut self, e: &Entry<T>, seat: Seat) {
        let at = e
            .pre()
            .iter()
            .map(|a| a.range.start)
            .fold(e.range.start, usize::min);
        self.push(
            at,
            format!("{}:", seat.letter()),
            seat_name(seat).to_owned(),
            InlayHintKind::PARAMETER,
            false,
            false,
        );
    }
}

/// `−1` after each card of the play that gave tricks away double dummy,
/// once the server's solver has analysed the game's play (never waits).
fn cost_hints(
    hints: &mut Hints<'_>,
    snap: &Snapshot,
    g: &Game,
    p: &pbn_core::model::Play,
    t: &pbn_core::model::typed::TypedGame,
) {
    use crate::lsp::dd::{service, Lookup};
    let Ok(line) = pbn_core::dd::play::line_of(&snap.source.text, g, t) else {
        return;
    };
    let Lookup::Ready(report) = service().lookup_play(&line.trace, &snap.staleness(), false) else {
        return;
    };
    let Ok(r) = report.as_ref() else { return };
    for (i, c) in r.costly() {
        let Some(e) = line.items.get(i).and_then(|&k| p.entries.get(k)) else {
            continue;
        };
        let end = e
            .post()
            .iter()
            .map(|a| a.range.end)
            .fold(e.range.end, usize::max);
        let better: Vec<String> = c
            .better
            .iter()
            .map(|&b| pbn_core::render::card_text(b))
            .collect();
        hints.push(
            end,
            pbn_core::render::cost_text(c.cost),
            format!(
                "Double dummy: gave away {} trick(s); would have kept them: {}",
                c.cost,
                better.join(" ")
            ),
            InlayHintKind::TYPE,
            false,
            false,
        );
    }
}

/// `17 HCP` after each given hand of the game's Deal tag.
fn deal_hints(hints: &mut Hints<'_>, g: &Game) {
    let Some(tag) = g.tag("Deal").filter(|t| t.inherit == Inherit::None) else {
        return;
    };
    let Some(value) = &tag.value else { return };
    if value.range.start > hints.range.end || value.range.end < hints.range.start {
        return;
    }
    let Some(deal) = values::parse_deal(&value.raw).value else {
        return;
    };
    for seat in Seat::ALL {
        let Some(hand) = deal.hand(seat) else {
            continue;
        };
        let points = hcp(hand);
        let lens: Vec<String> = Suit::DESC
            .into_iter()
            .map(|s| hand[s].len().to_string())
            .collect();
        let end = value.range.start + deal.hand_ranges[seat as usize].end;
        hints.push(
            end,
            format!("{points} HCP"),
            format!(
                "{}: {points} HCP, {} (♠-♥-♦-♣)",
                seat_name(seat),
                lens.join("-")
            ),
            InlayHintKind::TYPE,
            true,
            false,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot as snap;

    const DOC: &str = r###"[Event "Club"]
[Board "1"]
[Dealer "S"]
[Vulnerable "None"]
[Deal "N:AKQ2.K32.Q32.K32 JT98.AQJ.KJ4.J54 7654.T98.A98.AT9 3.7654.T765.Q876"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "W"]
-    -    -    Pass
Pass 1S ! =1= $2 Pass 2S
Pass 4S   AP
[Note "1:five+ spades"]
[Play "E"]
DK   DA   D5   D2 $8
S8   S4   S3   SA
HA   H8   H4   H2
+

[Event "#"]
[Deal "N:AKQ2.K32.Q32.K32 - - 3.7654.T765.Q876"]
[Auction "N"]
{🂡 é} 1C Pass ^I 1C
"###;

    fn request(s: &Snapshot, range: tower_lsp_server::ls_types::Range) -> Vec<InlayHint> {
        let params = InlayHintParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            range,
            work_done_progress_params: Default::default(),
        };
        inlay_hint(s, params).unwrap()
    }

    fn whole(s: &Snapshot) -> tower_lsp_server::ls_types::Range {
        s.converter().range(0..s.source.text.len())
    }

    /// The text with each hint inlined as `⟨label⟩` (padding as spaces).
    fn inline(s: &Snapshot, hints: &[InlayHint]) -> String {
        let conv = s.converter();
        let mut at: Vec<(usize, String)> = hints
            .iter()
            .map(|h| {
                let InlayHintLabel::String(l) = &h.label else {
                    panic!("label parts")
                };
                let pad = |p: Option<bool>| if p == Some(true) { " " } else { "" };
                (
                    conv.offset(h.position),
                    format!("{}⟨{l}⟩{}", pad(h.padding_left), pad(h.padding_right)),
                )
            })
            .collect();
        at.sort_by_key(|(o, _)| *o);
        let mut out = String::new();
        let mut last = 0;
        for (o, l) in at {
            out.push_str(&s.source.text[last..o]);
            out.push_str(&l);
            last = o;
        }
        out.push_str(&s.source.text[last..]);
        out
    }

    #[test]
    fn whole_document() {
        let s = snap(DOC);
        let hints = request(&s, whole(&s));
        insta::assert_snapshot!("inlined", inline(&s, &hints));
    }

    #[test]
    fn tooltips_and_kinds() {
        let s = snap(DOC);
        let hints = request(&s, whole(&s));
        let lines: Vec<String> = hints
            .iter()
            .map(|h| {
                let InlayHintLabel::String(l) = &h.label else {
                    panic!()
                };
                let Some(InlayHintTooltip::String(t)) = &h.tooltip else {
                    panic!()
                };
                format!(
                    "{}:{} {l:?} {:?} {t}",
                    h.position.line,
                    h.position.character,
                    h.kind.unwrap()
                )
            })
            .collect();
        insta::assert_snapshot!("tooltips", lines.join("\n"));
    }

    #[test]
    fn only_the_requested_range() {
        let s = snap(DOC);
        // Line 15 (the second trick) only.
        let r = tower_lsp_server::ls_types::Range {
            start: Position {
                line: 15,
                character: 0,
            },
            end: Position {
                line: 15,
                character: 17,
            },
        };
        let hints = request(&s, r);
        assert!(hints.iter().all(|h| h.position.line == 15), "{hints:?}");
        insta::assert_debug_snapshot!("range_line_15", hints);
    }

    #[test]
    fn utf16_positions() {
        let s = snap(DOC);
        let hints = request(&s, whole(&s));
        // `{🂡 é} 1C Pass ^I 1C`: 🂡 is two UTF-16 units, é one.
        let line = 22;
        let on_line: Vec<(u32, String)> = hints
            .iter()
            .filter(|h| h.position.line == line)
            .map(|h| {
                let InlayHintLabel::String(l) = &h.label else {
                    panic!()
                };
                (h.position.character, l.clone())
            })
            .collect();
        assert_eq!(
            on_line,
            vec![
                (7, "N:".to_owned()),
                (10, "E:".to_owned()),
                (15, "S:".to_owned())
            ]
        );
    }

    #[test]
    fn costly_cards_get_their_cost_once_solved() {
        // Spades trumps, North to lead: the ♠2 costs a trick.
        let s = snap("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n");
        for _ in 0..600 {
            let hints = request(&s, whole(&s));
            if hints.iter().any(|h| {
                h.kind == Some(InlayHintKind::TYPE)
                    && matches!(&h.label, InlayHintLabel::String(l) if l.starts_with('−'))
            }) {
                insta::assert_snapshot!("costly_inlined", inline(&s, &hints));
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("no cost hint in 30 s");
    }

    #[test]
    fn capability() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        assert_eq!(caps.inlay_hint_provider, Some(OneOf::Left(true)));
    }
}
