//! `pbn dump`: the meaning of every game as JSON, independent of layout.
//!
//! Two files that mean the same (e.g. a file and its export-format
//! rendering by the formatter) dump equal: tags are keyed by name (the first
//! occurrence counts, §3.4), `"?"` (unknown, §3.4) is the same as absent,
//! values are in canonical form (upper case, `None`/`All`, dates
//! `YYYY.MM.DD`, contract `3NT`, the Deal per seat with sorted ranks, Result
//! as declarer's tricks), calls and cards are written as `spec` writes them
//! whatever their spelling (`P` → `Pass`, `3N` → `3NT`, `Dbl` → `X`, `S10` →
//! `ST`) and carry their seat, suffixes are translated to NAGs (§3.7) and
//! NAGs are sorted. So a file and its formatted or fixed version dump the
//! same.
//! Comments and positions are not part of the meaning (the formatter tests
//! check comments separately).

use super::values::{self, ContractValue};
use super::*;
use crate::bridge::seat_letter;
use crate::spec::sections::Section;
use contract_bridge::Seat;
use serde_json::{json, Map, Value};

/// The dump of a whole document.
pub fn dump(doc: &Document, text: &str) -> Value {
    json!({
        "games": doc.games.iter().map(|g| dump_game(g, text)).collect::<Vec<_>>(),
    })
}

/// [`dump`]'s value with the top-level fields `extra` after `games`, as
/// JSON text (`pretty`: serde_json's pretty printing, else its compact
/// one), streamed: the games are lowered, dumped and printed piece by piece
/// on every core ([`super::lower::for_each_piece`]) and `sink` gets the
/// text in order, never the model or JSON value of the whole document. The
/// text is serde_json's printing of that value (`tests/tests/formatter.rs`).
pub fn write_streamed(
    text: &str,
    extra: &[(&str, Value)],
    pretty: bool,
    mut sink: impl FnMut(&str),
) {
    let print = |v: &Value| {
        if pretty {
            serde_json::to_string_pretty(v)
        } else {
            serde_json::to_string(v)
        }
        .expect("JSON values serialize")
    };
    // In pretty printing, a value's lines after its first are indented by
    // its depth.
    let indent = |s: String, by: &str| -> String {
        if !pretty || !s.contains('\n') {
            return s;
        }
        s.replace('\n', &format!("\n{by}"))
    };
    let (sep, open, close) = if pretty {
        (",\n    ", "[\n    ", "\n  ]")
    } else {
        (",", "[", "]")
    };
    // The fields in the order serde_json's map keeps them (sorted, or as
    // inserted with its `preserve_order` feature): `games` put first.
    let mut fields = serde_json::Map::new();
    fields.insert("games".to_owned(), Value::Null);
    for (name, v) in extra {
        fields.insert((*name).to_owned(), v.clone());
    }
    sink("{");
    for (i, (name, v)) in fields.iter().enumerate() {
        let key = print(&Value::String(name.clone()));
        match (i > 0, pretty) {
            (true, true) => sink(&format!(",\n  {key}: ")),
            (false, true) => sink(&format!("\n  {key}: ")),
            (true, false) => sink(&format!(",{key}:")),
            (false, false) => sink(&format!("{key}:")),
        }
        if name != "games" {
            sink(&indent(print(v), "  "));
            continue;
        }
        let mut any = false;
        super::lower::for_each_piece(
            text,
            |_, games, _| {
                let mut out = String::new();
                for (k, g) in games.iter().enumerate() {
                    if k > 0 {
                        out.push_str(sep);
                    }
                    out.push_str(&indent(print(&dump_game(g, text)), "    "));
                }
                out
            },
            |part| {
                if part.is_empty() {
                    return;
                }
                sink(if any { sep } else { open });
                any = true;
                sink(&part);
            },
        );
        sink(if any { close } else { "[]" });
    }
    sink(if pretty { "\n}" } else { "}" });
}

fn canonical_value(game: &Game, name: &str, value: &str) -> Value {
    let parsed_ok = |v: Option<String>| {
        v.map(Value::String)
            .unwrap_or_else(|| Value::String(value.to_owned()))
    };
    match name {
        "Dealer" | "Auction" | "Play" => parsed_ok(
            values::parse_dealer(value)
                .value
                .map(|s| seat_letter(s.seat).to_owned()),
        ),
        "Declarer" => parsed_ok(values::parse_declarer(value).value.map(|d| match d.seat {
            Some(s) => format!("{}{}", if d.swapped { "^" } else { "" }, seat_letter(s)),
            None => String::new(),
        })),
        "Vulnerable" => parsed_ok(
            values::parse_vulnerable(value)
                .value
                .map(|v| v.canonical_export().to_owned()),
        ),
        "Contract" => parsed_ok(values::parse_contract(value).value.map(|c| c.export_form())),
        "Date" | "EventDate" | "UTCDate" => {
            parsed_ok(values::parse_date(value).value.map(|d| d.canonical))
        }
        "Deal" => match values::parse_deal(value).value {
            Some(deal) => {
                let mut m = Map::new();
                for s in Seat::ALL {
                    if let Some(form) = deal.export_form(s) {
                        // The hand of `s` is the first hand of the export form.
                        let hand = form
                            .split_once(':')
                            .map(|(_, h)| h.split(' ').next().unwrap_or("").to_owned())
                            .unwrap_or_default();
                        m.insert(seat_letter(s).to_owned(), Value::String(hand));
                    } else {
                        return Value::String(value.to_owned());
                    }
                }
                Value::Object(m)
            }
            None => Value::String(value.to_owned()),
        },
        "Result" => {
            let Some(r) = values::parse_result(value).value else {
                return Value::String(value.to_owned());
            };
            let declarer = game
                .value("Declarer")
                .and_then(|d| values::parse_declarer(d).value)
                .and_then(|d| d.seat);
            match (r.tricks, declarer) {
                (None, _) => Value::String(String::new()),
                (Some(t), Some(d)) => {
                    match t.for_declarer(matches!(d, Seat::North | Seat::South)) {
                        Some(n) => Value::String(format!(
                            "{}{n}",
                            if r.differs_from_actual { "^" } else { "" }
                        )),
                        None => Value::String(value.to_owned()),
                    }
                }
                (Some(values::SideScores::Declarer(n)), None) => Value::String(format!(
                    "{}{n}",
                    if r.differs_from_actual { "^" } else { "" }
                )),
                _ => Value::String(value.to_owned()),
            }
        }
        _ => Value::String(value.to_owned()),
    }
}

fn annotations(
    pre: &[Annotation],
    post: &[Annotation],
    sec: Section,
    text: &str,
) -> Map<String, Value> {
    let mut m = Map::new();
    let mut nags: Vec<u32> = Vec::new();
    let mut notes: Vec<Value> = Vec::new();
    for a in post {
        match a.kind {
            AnnotationKind::Suffix(s) => nags.push(sec.suffix_nag(s)),
            AnnotationKind::Nag(Some(n)) => nags.push(n),
            AnnotationKind::Nag(None) => {
                notes.push(Value::String(text[a.range.clone()].to_owned()))
            }
            AnnotationKind::NoteRef(Some(n)) => notes.push(json!(n)),
            AnnotationKind::NoteRef(None) => {
                notes.push(Value::String(text[a.range.clone()].to_owned()))
            }
            AnnotationKind::Irregularity(_) => {}
        }
    }
    nags.sort_unstable();
    if !notes.is_empty() {
        m.insert(
            "note".into(),
            if notes.len() == 1 {
                notes.remove(0)
            } else {
                Value::Array(notes)
            },
        );
    }
    if !nags.is_empty() {
        m.insert("nags".into(), json!(nags));
    }
    let irr: Vec<String> = pre
        .iter()
        .filter_map(|a| match a.kind {
            AnnotationKind::Irregularity(c) => Some(format!("^{c}")),
            _ => None,
        })
        .collect();
    if !irr.is_empty() {
        m.insert("irregular".into(), json!(irr));
    }
    m
}

fn notes_of(game: &Game, idx: &[usize]) -> Value {
    let mut m = Map::new();
    for &i in idx {
        let Some(v) = &game.tags[i].value else {
            continue;
        };
        match values::parse_note(&v.raw).value {
            Some(n) => {
                m.entry(n.index.to_string())
                    .or_insert(Value::String(n.text));
            }
            None => {
                m.entry(v.text.clone()).or_insert(Value::Null);
            }
        }
    }
    Value::Object(m)
}

fn dump_game(game: &Game, text: &str) -> Value {
    let mut tags = Map::new();
    for t in &game.tags {
        if matches!(
            t.role,
            TagRole::AuctionNote | TagRole::PlayNote | TagRole::Auction | TagRole::Play
        ) || tags.contains_key(t.name.as_str())
        {
            continue;
        }
        let Some(v) = t.effective() else { continue };
        if v == "?" && t.inherit == Inherit::None {
            continue;
        }
        // With a Pass contract, an empty Declarer or Result says nothing more
        // (§3.4.13, §3.4.15).
        if v.is_empty()
            && matches!(t.name.as_str(), "Declarer" | "Result")
            && super::contract_is_pass(game)
        {
            continue;
        }
        // `#` is forbidden for these tags (§4.8): the value it would take is
        // not part of the game's meaning.
        let forbidden = crate::spec::tags::NO_INHERIT.contains(&t.name.as_str());
        let value = match &t.inherit {
            Inherit::None => canonical_value(game, &t.name, v),
            Inherit::Previous if forbidden => json!({ "inherit": "#" }),
            Inherit::Previous => {
                json!({ "inherit": "#", "value": canonical_value(game, &t.name, v) })
            }
            Inherit::Header => {
                json!({ "inherit": "##", "value": canonical_value(game, &t.name, t.header_text().unwrap_or("")) })
            }
        };
        tags.insert(t.name.as_str().to_owned(), value);
    }
    // A value received through `##` (or a plain value that replaced one,
    // §4.8) is part of the game's meaning as if the tag were written here.
    for i in &game.inherited {
        if i.value != "?" && !tags.contains_key(i.name.as_str()) {
            tags.insert(i.name.clone(), canonical_value(game, &i.name, &i.value));
        }
    }
    let mut g = Map::new();
    g.insert("game".into(), json!(game.index + 1));
    if game.syntax_error {
        g.insert("syntax_error".into(), json!(true));
    }
    g.insert("tags".into(), Value::Object(tags));

    if let Some(a) = &game.auction {
        let first = (a.tag != usize::MAX && game.tags[a.tag].inherit == Inherit::None)
            .then(|| game.tags[a.tag].effective())
            .flatten()
            .and_then(|v| values::parse_auction_seat(v).value)
            .map(|s| s.seat);
        let mut seat = first;
        let mut calls = Vec::new();
        let mut end = Value::Null;
        for (k, e) in a.entries.iter().enumerate() {
            let token = &text[e.range.clone()];
            let call = match e.token {
                CallToken::Bid(_) | CallToken::Pass | CallToken::Double | CallToken::Redouble => {
                    e.token.canonical(token).unwrap_or(token).to_owned()
                }
                CallToken::AllPass if e.post().is_empty() && e.pre().is_empty() => {
                    // AP is the passes it stands for (§3.5.1).
                    let n = super::all_pass_count(&a.entries[..k]);
                    for _ in 0..n {
                        let mut m = Map::new();
                        m.insert("call".into(), json!(crate::spec::calls::PASS));
                        if let Some(s) = seat {
                            m.insert("seat".into(), json!(seat_letter(s)));
                        }
                        seat = seat.map(|s| s.lho());
                        calls.push(Value::Object(m));
                    }
                    if n > 0 {
                        continue;
                    }
                    crate::spec::calls::ALL_PASS.into()
                }
                CallToken::AllPass => crate::spec::calls::ALL_PASS.into(),
                CallToken::Skip => "^S".into(),
                // A call in another spelling (`P`, `3N`) dumps as the call
                // it spells, so that its fixed version dumps the same.
                CallToken::Invalid => e.token.canonical(token).unwrap_or(token).to_owned(),
                CallToken::Dash => {
                    seat = seat.map(|s| s.lho());
                    continue;
                }
                CallToken::Terminator => {
                    end = json!("*");
                    continue;
                }
                CallToken::Continuation => {
                    end = json!("+");
                    continue;
                }
            };
            let mut m = annotations(e.pre(), e.post(), Section::Auction, text);
            m.insert("call".into(), Value::String(call));
            if let Some(s) = seat {
                m.insert("seat".into(), json!(seat_letter(s)));
            }
            seat = seat.map(|s| s.lho());
            calls.push(Value::Object(m));
        }
        let mut auction = json!({ "calls": calls, "end": end, "notes": notes_of(game, &a.notes) });
        // The outcome the calls give (§3.5), when the auction is complete.
        if let Some(analysis) = super::typed::typed(text, game).auction {
            match analysis.contract {
                Some(crate::bridge::FinalContract::PassedOut) => {
                    auction["outcome"] = json!({ "contract": "Pass" })
                }
                Some(crate::bridge::FinalContract::Contract { contract, declarer }) => {
                    auction["outcome"] = json!({
                        "contract": values::ContractTag { value: ContractValue::Contract(contract), was_lowercase: false }.export_form(),
                        "declarer": seat_letter(declarer),
                    })
                }
                None => {}
            }
        }
        g.insert("auction".into(), auction);
    }
    if let Some(p) = &game.play {
        let first = (p.tag != usize::MAX && game.tags[p.tag].inherit == Inherit::None)
            .then(|| game.tags[p.tag].effective())
            .flatten()
            .and_then(|v| values::parse_play_seat(v).value)
            .map(|s| s.seat);
        let mut tricks: Vec<Map<String, Value>> = Vec::new();
        let mut col = 0usize;
        let mut end = Value::Null;
        for e in &p.entries {
            let token = &text[e.range.clone()];
            let card = match e.token {
                CardToken::Card(_) | CardToken::Invalid => {
                    e.token.canonical(token).unwrap_or(token).to_owned()
                }
                CardToken::Dash => "-".into(),
                CardToken::Continuation => "+".into(),
                CardToken::Terminator => {
                    end = json!("*");
                    continue;
                }
            };
            if col.is_multiple_of(4) {
                tricks.push(Map::new());
            }
            let key = match first {
                Some(f) => seat_letter(Seat::ALL[(f as usize + col % 4) % 4]).to_owned(),
                None => (col % 4).to_string(),
            };
            let ann = annotations(e.pre(), e.post(), Section::Play, text);
            let v = if ann.is_empty() {
                Value::String(card)
            } else {
                let mut m = ann;
                m.insert("card".into(), Value::String(card));
                Value::Object(m)
            };
            tricks.last_mut().unwrap().insert(key, v);
            col += 1;
        }
        g.insert(
            "play".into(),
            json!({
                "tricks": tricks.into_iter().map(Value::Object).collect::<Vec<_>>(),
                "end": end,
                "notes": notes_of(game, &p.notes),
            }),
        );
    }
    let mut sections = Map::new();
    for s in &game.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let t = &game.tags[s.tag];
        if sections.contains_key(t.name.as_str()) {
            continue;
        }
        // The tag's value as `tags` shows it: section data can follow any
        // tag, `[Contract "2Dx"]` included (found by fuzzing).
        sections.insert(
            t.name.as_str().to_owned(),
            json!({
                "value": canonical_value(game, &t.name, t.effective().unwrap_or("")),
                "elements": s.elements.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
            }),
        );
    }
    if !sections.is_empty() {
        g.insert("sections".into(), Value::Object(sections));
    }
    Value::Object(g)
}

#[cfg(test)]
mod tests {
    fn dump(text: &str) -> serde_json::Value {
        let tree = crate::syntax::parse_pieces(text);
        let doc = crate::model::lower(&tree, text);
        super::dump(&doc, text)
    }

    const OTHER_SPELLINGS: &str = "[Event \"x\"]\n[Date \"2024-07-12\"]\n[Dealer \"n\"]\n\
        [Vulnerable \"both\"]\n[Declarer \"n\"]\n[Contract \"1n\"]\n[Result \"7\"]\n\
        [Auction \"N\"]\nP 1S! Dbl Rdbl\n1n p p P\n[Play \"E\"]\nS10 hA? d2 c3\n-- - - --\n*\n";

    const CANONICAL: &str = "[Event \"x\"]\n[Date \"2024.07.12\"]\n[Dealer \"N\"]\n\
        [Vulnerable \"All\"]\n[Declarer \"N\"]\n[Contract \"1NT\"]\n[Result \"7\"]\n\
        [Auction \"N\"]\nPass 1S $1 X XX\n1NT Pass Pass Pass\n[Play \"E\"]\nST HA $8 D2 C3\n- - - -\n*\n";

    /// Calls, cards, dates and tag values in other spellings dump as their
    /// canonical form, so a file and its fixed version dump the same.
    #[test]
    fn other_spellings_dump_canonical() {
        let got = dump(OTHER_SPELLINGS);
        assert_eq!(got, dump(CANONICAL));
        insta::assert_json_snapshot!(got);
    }

    /// A different call, card or date is a different meaning.
    #[test]
    fn other_values_dump_differently() {
        let canonical = dump(CANONICAL);
        for (from, to) in [
            ("1n p p P", "2n p p P"),
            ("S10 hA?", "S9 hA?"),
            ("-- - - --", "-- - - SA"),
            ("2024-07-12", "2024-07-13"),
            ("Dbl Rdbl", "Dbl Dbl"),
        ] {
            let changed = OTHER_SPELLINGS.replace(from, to);
            assert_ne!(dump(&changed), canonical, "{to}");
        }
        // What spells no call or card is dumped as written.
        let odd = dump(&OTHER_SPELLINGS.replace("Rdbl", "Foo"));
        assert_eq!(odd["games"][0]["auction"]["calls"][3]["call"], "Foo");
        let odd = dump(&OTHER_SPELLINGS.replace("S10", "S1"));
        assert_eq!(odd["games"][0]["play"]["tricks"][0]["E"], "S1");
    }
}
