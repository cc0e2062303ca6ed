//! The writer's H, A, C and P labels: the deal, the auction with its
//! notes, the contract and the play, with the notations of calls and cards.

use super::write::GameWriter;
use super::NOTATIONS;
use crate::bridge::{self, rotate, Seat, Suit};
use crate::convert::{short_bid, strain_letter, Part};
use crate::model::values::deal::rank_char;
use crate::model::values::{self, ContractValue};
use crate::model::{typed, AnnotationKind, CallToken, CardToken, Entry};

impl GameWriter<'_> {
    /// H from Deal and Hidden.
    pub(super) fn write_deal(&mut self, ty: &typed::TypedGame) {
        let Some(deal) = &ty.deal else {
            if self.value("Hidden").is_some() {
                self.lose(
                    Part::tag("Hidden"),
                    "Hidden without a Deal (RBN marks hidden hands in the H label)",
                );
            }
            return;
        };
        if deal.hands.iter().all(Option::is_none) {
            self.lose_parts(
                vec![Part::tag("Deal"), Part::tag("Hidden")],
                "a Deal of no hands (an RBN H label of no hands is no deal)",
            );
            return;
        }
        if deal.spot_cards.iter().any(|&n| n > 0) {
            self.lose_parts(
                vec![Part::tag("Deal"), Part::tag("Hidden")],
                "`x` spot cards of the Deal",
            );
            return;
        }
        let hidden = self
            .value("Hidden")
            .and_then(|v| values::parse_hidden(v).value);
        if hidden.as_ref().is_some_and(|x| {
            Seat::ALL
                .iter()
                .any(|&s| x.contains(s) && deal.hands[s as usize].is_none_or(|h| h.is_empty()))
        }) {
            self.lose(
                Part::tag("Hidden"),
                "Hidden of a hand with no cards (RBN's `;` hides cards)",
            );
        }
        let start = deal.first;
        let mut h = String::from(start.letter());
        for k in 0..4 {
            let seat = rotate(start, k);
            let hide = hidden.as_ref().is_some_and(|x| x.contains(seat));
            h.push(if hide { ';' } else { ':' });
            if let Some(hand) = deal.hands[seat as usize] {
                let suits: Vec<String> = Suit::DESC
                    .iter()
                    .map(|&s| hand[s].iter().map(rank_char).collect())
                    .collect();
                h.push_str(&suits.join("."));
            }
        }
        // A trailing empty, shown hand is not written ("else fourth hand
        // would be assumed not to exist"), unless the first three are full
        // (then it would get the rest).
        let fourth = rotate(start, 3);
        let three_full =
            (0..3).all(|k| deal.hands[rotate(start, k) as usize].is_some_and(|x| x.len() == 13));
        if deal.hands[fourth as usize].is_none() && h.ends_with(':') {
            if three_full {
                self.lose(
                    Part::tag("Deal"),
                    "an absent fourth hand after three full ones (RBN gives it the rest)",
                );
            }
            h.pop();
        }
        self.set(b'H', h);
    }

    /// A from Dealer, Vulnerable and the auction section, with its notes.
    pub(super) fn write_auction(&mut self, ty: &typed::TypedGame) {
        let g = self.game;
        let dealer = ty.dealer;
        let vul = ty
            .vulnerable
            .map(|v| crate::spec::seats::by_vulnerability(v.vulnerability, ['Z', 'N', 'E', 'B']));
        let Some(dealer) = dealer else {
            if vul.is_some() {
                self.lose(
                    Part::tag("Vulnerable"),
                    "Vulnerable without a Dealer (RBN's A label starts with the dealer)",
                );
            }
            if g.auction.is_some() {
                self.lose(Part::Auction, "the auction (no Dealer)");
            }
            return;
        };
        let mut a = String::from(dealer.letter());
        if let Some(v) = vul {
            a.push(v);
        }
        let mut note_lines = Vec::new();
        if let Some(auction) = &g.auction {
            let seat = g
                .tags
                .get(auction.tag)
                .and_then(|t| t.effective())
                .and_then(|v| values::parse_auction_seat(v).value)
                .map(|s| s.seat);
            if seat != Some(dealer) {
                self.lose(
                    Part::Auction,
                    "the auction (its first call is not the dealer's)",
                );
            } else {
                let calls = self.calls(&auction.entries);
                for (k, c) in calls.iter().enumerate() {
                    if k % 4 == 0 {
                        a.push(':');
                    }
                    a.push_str(c);
                }
                note_lines = self.notes(&auction.notes, Part::AuctionAnnotations);
            }
        }
        if let Some(an) = &ty.auction {
            if g.auction.is_some() && !an.complete && !an.ended_by_terminator && !an.continued {
                self.lose(
                    Part::AuctionEnd,
                    "an unfinished auction without `*` (RBN's reader ends it with `*`)",
                );
            }
        }
        self.set(b'A', a);
        self.auction_notes = note_lines;
    }

    /// RBN notations of an entry: suffixes and NAGs 1-6 (calls) or 7-12
    /// (cards) as `!` … `?!`, note references 1-9 as `^n`.
    fn notations<T>(&mut self, e: &Entry<T>, card: bool) -> String {
        let mut out = String::new();
        let part = if card {
            Part::PlayAnnotations
        } else {
            Part::AuctionAnnotations
        };
        if !e.pre().is_empty() {
            // Without its `^R`/`^L` the play is seated otherwise (a lead
            // out of turn leads the trick), so the play goes with them.
            if card {
                self.lose_parts(
                    vec![Part::PlayAnnotations, Part::Play],
                    "irregularity marks (^R ^L) of the play",
                );
            } else {
                self.lose(part.clone(), "irregularity marks (^I ^S ^R ^L)");
            }
        }
        let mut suffixes = 0;
        for a in e.post() {
            let nag = match a.kind {
                AnnotationKind::Suffix(s) => Some(u32::from(s) + if card { 6 } else { 0 }),
                AnnotationKind::Nag(Some(n)) => Some(n),
                AnnotationKind::Nag(None) => {
                    self.lose(part.clone(), "an unreadable NAG");
                    None
                }
                AnnotationKind::NoteRef(Some(n)) if (1..=9).contains(&n) => {
                    out.push_str(&format!("^{n}"));
                    None
                }
                AnnotationKind::NoteRef(_) => {
                    self.lose(part.clone(), "note references beyond 9 (RBN notes are 1-9)");
                    None
                }
                AnnotationKind::Irregularity(_) => None,
            };
            if let Some(n) = nag {
                let k = n.wrapping_sub(if card { 7 } else { 1 }) as usize;
                match NOTATIONS.get(k) {
                    Some(x) if suffixes == 0 => {
                        suffixes += 1;
                        out.insert_str(0, x);
                    }
                    Some(_) => {
                        self.lose(part.clone(), "a second suffix or NAG on one call or card")
                    }
                    None => self.lose(
                        part.clone(),
                        format!("NAG \"${n}\" (RBN holds ! ? !! ?? !? ?! only)"),
                    ),
                }
            }
        }
        out
    }

    /// The RBN calls of an auction section.
    fn calls(&mut self, entries: &[Entry<CallToken>]) -> Vec<String> {
        let entries = crate::convert::read_calls(self.text, entries);
        let mut out = Vec::new();
        let (mut passes, mut bid, mut ended) = (0, false, false);
        for e in &entries {
            if ended && !matches!(e.token, CallToken::Terminator | CallToken::Continuation) {
                self.lose(Part::Auction, "calls after the end of the auction");
                break;
            }
            match e.token {
                CallToken::Pass => passes += 1,
                CallToken::Bid(_) => {
                    bid = true;
                    passes = 0
                }
                CallToken::AllPass => ended = true,
                _ => passes = 0,
            }
            ended |= (bid && passes >= 3) || passes >= 4;
            let token = match e.token {
                CallToken::Bid(b) => short_bid(b),
                CallToken::Pass => "P".into(),
                CallToken::Double => "X".into(),
                CallToken::Redouble => "R".into(),
                CallToken::AllPass => "A".into(),
                CallToken::Continuation => "Y".into(),
                CallToken::Terminator => continue,
                CallToken::Dash => {
                    self.lose(Part::Auction, "`-` in the auction");
                    continue;
                }
                CallToken::Skip => {
                    self.lose(Part::Auction, "`^S` (a skipped player) in the auction");
                    continue;
                }
                CallToken::Invalid => {
                    let text = &self.text[e.range.clone()];
                    self.lose(Part::Auction, format!("the unreadable call \"{text}\""));
                    continue;
                }
            };
            let marks = self.notations(e, false);
            out.push(format!("{token}{marks}"));
        }
        out
    }

    /// Note lines (`n text`) of Note tags (§3.5.4, §3.6.5).
    fn notes(&mut self, idx: &[usize], part: Part) -> Vec<String> {
        let mut out = Vec::new();
        for &i in idx {
            let Some(v) = self.game.tags.get(i).and_then(|t| t.value.as_ref()) else {
                continue;
            };
            match self.game.note(i) {
                Some(n) if (1..=9).contains(&n.index) && !n.text.contains('\n') => {
                    out.push(format!("{} {}", n.index, n.text))
                }
                _ => self.lose(
                    part.clone(),
                    format!("Note \"{}\" (RBN notes are numbered 1-9, one line)", v.text),
                ),
            }
        }
        out
    }

    /// C from Contract and Declarer.
    pub(super) fn write_contract(&mut self, ty: &typed::TypedGame) {
        let Some(c) = &ty.contract else {
            if ty.declarer.is_some() {
                self.lose(
                    Part::tag("Declarer"),
                    "the Declarer without a Contract (RBN's C label holds both)",
                );
            }
            return;
        };
        let text = match c.value {
            ContractValue::Pass => {
                self.set(b'C', "P".into());
                return;
            }
            ContractValue::Empty => return,
            ContractValue::EndPosition(s) => strain_letter(s).to_string(),
            ContractValue::Contract(k) => format!(
                "{}{}",
                short_bid(k.bid),
                match k.penalty {
                    bridge::Penalty::Undoubled => "",
                    bridge::Penalty::Doubled => "X",
                    bridge::Penalty::Redoubled => "R",
                }
            ),
        };
        let decl = match ty.declarer {
            Some(d) if d.swapped => {
                self.lose_parts(
                    vec![Part::tag("Declarer"), Part::Play],
                    "the `^` of Declarer (declarer and dummy swapped)",
                );
                d.seat
            }
            Some(d) => d.seat,
            None => None,
        };
        match decl {
            Some(s) => self.set(b'C', format!("{text}:{}", s.letter())),
            None => self.set(b'C', text),
        }
    }

    /// P from the play section, with its notes.
    pub(super) fn write_play(&mut self, ty: &typed::TypedGame) {
        let g = self.game;
        let no_cards = |p: &crate::model::Play| {
            p.entries
                .iter()
                .all(|e| matches!(e.token, CardToken::Terminator))
        };
        if g.play.as_ref().is_some_and(no_cards) {
            self.lose(
                Part::Play,
                "a play of no cards (RBN's P label starts with the lead)",
            );
            return;
        }
        let (Some(play), Some(analysis)) = (&g.play, &ty.play) else {
            return;
        };
        let Some(leader) = g
            .tags
            .get(play.tag)
            .and_then(|t| t.effective())
            .and_then(|v| values::parse_play_seat(v).value)
            .map(|s| s.seat)
        else {
            self.lose(Part::Play, "the play (no opening leader)");
            return;
        };
        let mut p = String::from(leader.letter());
        let mut stopped = false;
        let cards = crate::convert::read_cards(self.text, &play.entries);
        'tricks: for trick in &analysis.tricks {
            let Some(tl) = trick.leader else {
                self.lose(Part::Play, "the play after a trick with an unknown card");
                break;
            };
            let mut led: Option<Suit> = None;
            let mut first = true;
            for k in 0..4 {
                let seat = rotate(tl, k);
                let Some(item) = trick.cards[seat as usize] else {
                    stopped = true;
                    continue;
                };
                let Some(e) = cards.get(item) else {
                    continue;
                };
                let card = match e.token {
                    CardToken::Card(c) => c,
                    CardToken::Invalid => {
                        self.lose(Part::Play, "the play from an unreadable card on");
                        break 'tricks;
                    }
                    CardToken::Continuation => {
                        if first {
                            p.push(':');
                        }
                        p.push('Y');
                        break 'tricks;
                    }
                    CardToken::Dash | CardToken::Terminator => {
                        stopped = true;
                        continue;
                    }
                };
                if stopped {
                    self.lose(Part::Play, "the play after an unknown card (`-`)");
                    break 'tricks;
                }
                if first {
                    p.push(':');
                    first = false;
                }
                if led != Some(card.suit) || k == 0 {
                    p.push(card.suit.letter());
                }
                if k == 0 {
                    led = Some(card.suit);
                }
                p.push(rank_char(card.rank));
                let marks = self.notations(e, true);
                p.push_str(&marks);
            }
        }
        let terminated = analysis.terminated;
        let all_given = analysis.tricks.len() == analysis.total_tricks as usize
            && analysis.tricks.last().is_some_and(|t| t.complete);
        if terminated && all_given {
            self.lose(Part::PlayEnd, "`*` after a complete play");
        } else if !terminated && !all_given && !analysis.continued {
            // The reader also gives the last trick's missing cards as `-`.
            self.lose(
                Part::Play,
                "an unfinished play without `*` (RBN's reader ends it with `*`)",
            );
        }
        self.set(b'P', p);
        self.play_notes = self.notes(&play.notes, Part::PlayAnnotations);
    }
}
