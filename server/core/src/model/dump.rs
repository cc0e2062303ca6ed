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
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The dump of a whole document.
pub fn dump(doc: &Document, text: &str) -> Value {
    let games: Vec<Value> = doc
        .games
        .iter()
        .map(|game| serde_json::to_value(GameDump { game, text }).expect(SERIALIZES))
        .collect();
    json!({ "games": games })
}

/// Why serializing a game cannot fail: its keys are strings, its numbers
/// integers, and the writers never fail.
const SERIALIZES: &str = "a game's dump has string keys and integer numbers";

/// A game whose text is at least this long is written straight to the sink
/// as it is serialized (its JSON is 5 to 16 times its text), not into a
/// string first.
const STREAM_GAME: usize = 1 << 18;
/// The text given to the sink at a time while a long game is written.
const SINK_CHUNK: usize = 1 << 16;

/// [`dump`]'s value with the top-level fields `extra` after `games`, as
/// JSON text (`pretty`: serde_json's pretty printing, else its compact
/// one), streamed: the games are lowered and dumped piece by piece on every
/// core ([`super::lower::for_each_piece_with_games`]) and `sink` gets the
/// text in order, never the model or JSON value of the whole document, nor
/// any JSON value of a game: each game is serialized straight to text
/// ([`GameDump`]), a long one straight to `sink`. The text is serde_json's
/// printing of [`dump`]'s value (`tests/tests/streaming.rs`).
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
        super::lower::for_each_piece_with_games(
            text,
            |_, games, _| {
                // Short games are serialized here, on every core; long ones
                // later, straight to the sink.
                games
                    .iter()
                    .map(|g| {
                        (g.range.len() < STREAM_GAME).then(|| {
                            let mut out = JsonOut::new(pretty, None);
                            write_game(g, text, pretty, &mut out);
                            out.into_string()
                        })
                    })
                    .collect::<Vec<_>>()
            },
            |parts, games| {
                for (g, part) in games.iter().zip(parts) {
                    sink(if any { sep } else { open });
                    any = true;
                    match part {
                        Some(s) => sink(&s),
                        None => {
                            let mut out = JsonOut::new(pretty, Some(&mut sink));
                            write_game(g, text, pretty, &mut out);
                            out.drain(true);
                        }
                    }
                }
            },
        );
        sink(if any { close } else { "[]" });
    }
    sink(if pretty { "\n}" } else { "}" });
}

/// Serializes one game's dump into `out`.
fn write_game(game: &Game, text: &str, pretty: bool, out: &mut JsonOut) {
    let dump = GameDump { game, text };
    let done = if pretty {
        dump.serialize(&mut serde_json::Serializer::pretty(out))
    } else {
        dump.serialize(&mut serde_json::Serializer::new(out))
    };
    done.expect(SERIALIZES);
}

/// Where a game's JSON text goes: a buffer, in pretty printing with every
/// line after the first indented by the game's depth in the document
/// (JSON strings escape their line ends, so every `\n` is a line break),
/// given to `sink` (when there is one) a chunk at a time.
struct JsonOut<'s> {
    buf: Vec<u8>,
    indent: &'static [u8],
    sink: Option<&'s mut dyn FnMut(&str)>,
}

impl<'s> JsonOut<'s> {
    fn new(pretty: bool, sink: Option<&'s mut dyn FnMut(&str)>) -> Self {
        JsonOut {
            buf: Vec::new(),
            indent: if pretty { b"    " } else { b"" },
            sink,
        }
    }

    /// Gives the sink the buffer's text (up to its last whole character
    /// unless `all`).
    fn drain(&mut self, all: bool) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let whole = match std::str::from_utf8(&self.buf) {
            Ok(s) => s.len(),
            Err(e) if all => {
                // Not reached: serde_json writes UTF-8; never lose text.
                sink(&String::from_utf8_lossy(&self.buf[e.valid_up_to()..]));
                e.valid_up_to()
            }
            Err(e) => e.valid_up_to(),
        };
        if let Ok(s) = std::str::from_utf8(&self.buf[..whole]) {
            sink(s);
        }
        self.buf.drain(..whole);
    }

    fn into_string(self) -> String {
        String::from_utf8(self.buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl std::io::Write for JsonOut<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut rest = bytes;
        while let Some(i) = memchr::memchr(b'\n', rest) {
            self.buf.extend_from_slice(&rest[..=i]);
            self.buf.extend_from_slice(self.indent);
            rest = &rest[i + 1..];
        }
        self.buf.extend_from_slice(rest);
        if self.buf.len() >= SINK_CHUNK {
            self.drain(false);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
                        return Value::String(with_hands_not_given(value, &deal));
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

/// A note reference as the dump writes it: its number, or its text when it
/// is not one.
enum NoteRef<'a> {
    Number(u32),
    Text(&'a str),
}

impl Serialize for NoteRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            NoteRef::Number(n) => s.serialize_u32(*n),
            NoteRef::Text(t) => s.serialize_str(t),
        }
    }
}

/// A call's or card's annotations: NAGs (suffixes translated, §3.7)
/// sorted, note references, irregularities (`^I`, §3.9).
struct Annotated<'a> {
    nags: Vec<u32>,
    notes: Vec<NoteRef<'a>>,
    irregular: Vec<char>,
}

impl<'a> Annotated<'a> {
    fn of<T>(e: &Entry<T>, sec: Section, text: &'a str) -> Self {
        let mut ann = Annotated {
            nags: Vec::new(),
            notes: Vec::new(),
            irregular: Vec::new(),
        };
        for a in e.post() {
            match a.kind {
                AnnotationKind::Suffix(s) => ann.nags.push(sec.suffix_nag(s)),
                AnnotationKind::Nag(Some(n)) => ann.nags.push(n),
                AnnotationKind::NoteRef(Some(n)) => ann.notes.push(NoteRef::Number(n)),
                AnnotationKind::Nag(None) | AnnotationKind::NoteRef(None) => {
                    ann.notes.push(NoteRef::Text(&text[a.range.clone()]))
                }
                AnnotationKind::Irregularity(_) => {}
            }
        }
        ann.nags.sort_unstable();
        // A NAG written twice says no more than once.
        ann.nags.dedup();
        for a in e.pre() {
            if let AnnotationKind::Irregularity(c) = a.kind {
                ann.irregular.push(c);
            }
        }
        ann
    }

    fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.notes.is_empty() && self.irregular.is_empty()
    }

    /// The fields `irregular`, `nags` and `note`, in that (sorted) order.
    fn write<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        if !self.irregular.is_empty() {
            let irregular: Vec<String> = self.irregular.iter().map(|c| format!("^{c}")).collect();
            m.serialize_entry("irregular", &irregular)?;
        }
        if !self.nags.is_empty() {
            m.serialize_entry("nags", &self.nags)?;
        }
        match self.notes.as_slice() {
            [] => Ok(()),
            [one] => m.serialize_entry("note", one),
            all => m.serialize_entry("note", all),
        }
    }
}

/// The notes of a section (§3.5.4, §3.6.4) by number, the first of each
/// number kept; a note whose value is not `n:text` by its text, as null.
struct NotesDump<'a> {
    game: &'a Game,
    idx: &'a [usize],
}

impl Serialize for NotesDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m: BTreeMap<String, Option<String>> = BTreeMap::new();
        for &i in self.idx {
            let Some(v) = &self.game.tags[i].value else {
                continue;
            };
            match self.game.note(i) {
                Some(n) => {
                    m.entry(n.index.to_string()).or_insert(Some(n.text));
                }
                None => {
                    m.entry(v.text.as_str().to_owned()).or_insert(None);
                }
            }
        }
        s.collect_map(m)
    }
}

/// One game's dump, serialized field by field in sorted key order (the
/// order serde_json's map prints them), so that the whole game is never a
/// JSON value: an auction of a million calls is written call by call.
struct GameDump<'a> {
    game: &'a Game,
    text: &'a str,
}

impl Serialize for GameDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (game, text) = (self.game, self.text);
        let mut m = s.serialize_map(None)?;
        if let Some(auction) = &game.auction {
            m.serialize_entry(
                "auction",
                &AuctionDump {
                    game,
                    auction,
                    text,
                },
            )?;
        }
        m.serialize_entry("game", &(game.index + 1))?;
        // `[Play ""]` with nothing after it: a board not played (PBN0310).
        if let Some(play) = game
            .play
            .as_ref()
            .filter(|_| super::empty_play_tag(game).is_none())
        {
            m.serialize_entry("play", &PlayDump { game, play, text })?;
        }
        let sections = sections_of(game);
        if !sections.is_empty() {
            m.serialize_entry("sections", &sections)?;
        }
        if game.syntax_error {
            m.serialize_entry("syntax_error", &true)?;
        }
        m.serialize_entry("tags", &tags_of(game, text))?;
        m.end()
    }
}

/// A tag as `tags` shows it: its canonical value, or how it inherits it.
enum TagDump<'a> {
    Tag {
        game: &'a Game,
        tag: &'a Tag,
        value: &'a str,
    },
    Inherited {
        game: &'a Game,
        inherited: &'a Inherited,
    },
    /// A time written after the date (`2013-08-24 18:36`), shown as the
    /// Time (UTCTime) tag it belongs in when that tag says nothing.
    TimeOfDate(String),
}

impl Serialize for TagDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value = match *self {
            TagDump::Tag {
                game,
                tag: t,
                value,
            } => {
                // `#` is forbidden for these tags (§4.8): the value it would
                // take is not part of the game's meaning.
                let forbidden = crate::spec::tags::NO_INHERIT.contains(&t.name.as_str());
                match &t.inherit {
                    Inherit::None => canonical_value(game, &t.name, value),
                    Inherit::Previous if forbidden => json!({ "inherit": "#" }),
                    Inherit::Previous => {
                        json!({ "inherit": "#", "value": canonical_value(game, &t.name, value) })
                    }
                    Inherit::Header => {
                        json!({ "inherit": "##", "value": canonical_value(game, &t.name, t.header_text().unwrap_or("")) })
                    }
                }
            }
            TagDump::Inherited { game, inherited } => {
                canonical_value(game, &inherited.name, &inherited.value)
            }
            TagDump::TimeOfDate(ref time) => Value::String(time.clone()),
        };
        value.serialize(s)
    }
}

/// A Deal value that has no export form (`x` spot cards) as written, but
/// each hand not given written `-`: `...` and `-` are one reading
/// (§3.4.11, PBN0411), so a Deal and its fixed form dump the same.
fn with_hands_not_given(raw: &str, deal: &values::Deal) -> String {
    let mut hands: Vec<_> = (0..4)
        .filter(|&k| deal.hands[k].is_none())
        .map(|k| deal.hand_ranges[k].clone())
        .collect();
    hands.sort_by_key(|r| std::cmp::Reverse(r.start));
    let mut out = raw.to_owned();
    for r in hands {
        if out.get(r.clone()).is_some() {
            out.replace_range(r, "-");
        }
    }
    out
}

/// The game's tags by name, the first occurrence of each (§3.4).
fn tags_of<'a>(game: &'a Game, text: &str) -> BTreeMap<&'a str, TagDump<'a>> {
    let mut tags = BTreeMap::new();
    // Names already met: a first `?` or a first value that says nothing
    // more still makes a repeated tag's later value the ignored one.
    let mut seen = std::collections::BTreeSet::new();
    for tag in &game.tags {
        if matches!(
            tag.role,
            TagRole::AuctionNote | TagRole::PlayNote | TagRole::Auction | TagRole::Play
        ) || !seen.insert(tag.name.as_str())
        {
            continue;
        }
        let Some(value) = tag.effective() else {
            continue;
        };
        if value == "?" && tag.inherit == Inherit::None {
            continue;
        }
        // With a Pass contract, an empty Declarer or Result says nothing more
        // (§3.4.13, §3.4.15); after an auction of passes only, neither does
        // the Contract `Pass` (what `pbn fmt` adds when it is missing).
        if value.is_empty()
            && matches!(tag.name.as_str(), "Declarer" | "Result")
            && (super::contract_is_pass(game) || super::typed::passed_out(text, game))
        {
            continue;
        }
        if tag.name == "Contract"
            && value.trim().eq_ignore_ascii_case("pass")
            && super::typed::passed_out(text, game)
        {
            continue;
        }
        tags.insert(tag.name.as_str(), TagDump::Tag { game, tag, value });
    }
    // A value received through `##` (or a plain value that replaced one,
    // §4.8) is part of the game's meaning as if the tag were written here.
    for inherited in &game.inherited {
        if inherited.value != "?" {
            tags.entry(inherited.name.as_str())
                .or_insert(TagDump::Inherited { game, inherited });
        }
    }
    // `Date "2013-08-24 18:36"` says the time too: what PBN0302's fix
    // moves to the Time tag when that tag is absent, empty or unknown.
    for (date, time) in [("Date", "Time"), ("UTCDate", "UTCTime")] {
        let Some(TagDump::Tag { tag, value, .. }) = tags.get(date) else {
            continue;
        };
        if tag.inherit != Inherit::None {
            continue;
        }
        let Some(t) = values::parse_date(value).value.and_then(|d| d.time) else {
            continue;
        };
        let says_nothing = match tags.get(time) {
            None => match game.tag(time) {
                None => game.value(time).is_none(),
                Some(t) => t.inherit == Inherit::None,
            },
            Some(TagDump::Tag { tag, value, .. }) => {
                tag.inherit == Inherit::None && value.trim().is_empty()
            }
            Some(_) => false,
        };
        if says_nothing {
            tags.insert(time, TagDump::TimeOfDate(t));
        }
    }
    tags
}

/// A supplemental section (§5): its tag's value as `tags` shows it and its
/// elements as written.
struct SectionDump<'a> {
    game: &'a Game,
    tag: &'a Tag,
    section: &'a super::Section,
}

impl Serialize for SectionDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        // A cell of a Contract column as the Contract tag reads it (`3N`
        // is `3NT`, PBN0316), so that its fixed form dumps the same.
        let columns = values::layout_columns(&self.tag.name, self.tag.effective().unwrap_or(""))
            .unwrap_or_default();
        let elements: Vec<String> = self
            .section
            .elements
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let contract = !e.quoted
                    && !columns.is_empty()
                    && columns[i % columns.len()].name == "Contract";
                contract
                    .then(|| {
                        values::parse_contract(&e.text)
                            .value
                            .map(|c| c.export_form())
                    })
                    .flatten()
                    .unwrap_or_else(|| e.text.to_string())
            })
            .collect();
        m.serialize_entry("elements", &elements)?;
        // Section data can follow any tag, `[Contract "2Dx"]` included
        // (found by fuzzing).
        m.serialize_entry(
            "value",
            &canonical_value(
                self.game,
                &self.tag.name,
                self.tag.effective().unwrap_or(""),
            ),
        )?;
        m.end()
    }
}

/// The game's supplemental sections by tag name, the first of each.
fn sections_of(game: &Game) -> BTreeMap<&str, SectionDump<'_>> {
    let mut sections = BTreeMap::new();
    for section in &game.sections {
        if section.tag == usize::MAX {
            continue;
        }
        let tag = &game.tags[section.tag];
        // Free text after a tag that takes no section data (`Generated 16
        // hands` after Site): no part of the game, kept as a comment by
        // PBN0209's fix.
        if crate::spec::tags::takes_no_section_data(&tag.name) {
            continue;
        }
        sections
            .entry(tag.name.as_str())
            .or_insert(SectionDump { game, tag, section });
    }
    sections
}

/// The seat of a section's first call or card, from its tag when the tag
/// is written here (not inherited).
fn first_seat(game: &Game, tag: usize, parse: fn(&str) -> Option<Seat>) -> Option<Seat> {
    (tag != usize::MAX && game.tags[tag].inherit == Inherit::None)
        .then(|| game.tags[tag].effective())
        .flatten()
        .and_then(parse)
}

struct AuctionDump<'a> {
    game: &'a Game,
    auction: &'a Auction,
    text: &'a str,
}

impl Serialize for AuctionDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (game, a) = (self.game, self.auction);
        let end = a.entries.iter().rev().find_map(|e| match e.token {
            CallToken::Terminator => Some("*"),
            CallToken::Continuation => Some("+"),
            _ => None,
        });
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("calls", &CallsDump(self))?;
        m.serialize_entry("end", &end)?;
        m.serialize_entry(
            "notes",
            &NotesDump {
                game,
                idx: &a.notes,
            },
        )?;
        // The outcome the calls give (§3.5), when the auction is complete.
        if let Some(analysis) = super::typed::typed(self.text, game).auction {
            match analysis.contract {
                Some(crate::bridge::FinalContract::PassedOut) => {
                    m.serialize_entry("outcome", &json!({ "contract": "Pass" }))?
                }
                Some(crate::bridge::FinalContract::Contract { contract, declarer }) => m
                    .serialize_entry(
                        "outcome",
                        &json!({
                            "contract": values::ContractTag { value: ContractValue::Contract(contract), was_lowercase: false }.export_form(),
                            "declarer": seat_letter(declarer),
                        }),
                    )?,
                None => {}
            }
        }
        m.end()
    }
}

/// The calls of an auction, each with its seat; `AP` written as the passes
/// it stands for (§3.5.1).
struct CallsDump<'a>(&'a AuctionDump<'a>);

/// One call: `call`, then its annotations, then `seat` (sorted keys).
struct CallDump<'a> {
    call: &'a str,
    seat: Option<Seat>,
    annotated: Option<Annotated<'a>>,
}

impl Serialize for CallDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("call", self.call)?;
        if let Some(a) = &self.annotated {
            a.write(&mut m)?;
        }
        if let Some(seat) = self.seat {
            m.serialize_entry("seat", seat_letter(seat))?;
        }
        m.end()
    }
}

impl Serialize for CallsDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let AuctionDump {
            game,
            auction: a,
            text,
        } = *self.0;
        let mut seat = first_seat(game, a.tag, |v| {
            values::parse_auction_seat(v).value.map(|s| s.seat)
        });
        let mut seq = s.serialize_seq(None)?;
        for (k, e) in a.entries.iter().enumerate() {
            let token = &text[e.range.clone()];
            let call = match e.token {
                CallToken::Bid(_) | CallToken::Pass | CallToken::Double | CallToken::Redouble => {
                    e.token.canonical(token).unwrap_or(token)
                }
                CallToken::AllPass if e.post().is_empty() && e.pre().is_empty() => {
                    // AP is the passes it stands for (§3.5.1).
                    let n = super::all_pass_count(&a.entries[..k]);
                    for _ in 0..n {
                        seq.serialize_element(&CallDump {
                            call: crate::spec::calls::PASS,
                            seat,
                            annotated: None,
                        })?;
                        seat = seat.map(|s| s.lho());
                    }
                    if n > 0 {
                        continue;
                    }
                    crate::spec::calls::ALL_PASS
                }
                CallToken::AllPass => crate::spec::calls::ALL_PASS,
                CallToken::Skip => "^S",
                // A call in another spelling (`P`, `3N`) dumps as the call
                // it spells, so that its fixed version dumps the same.
                CallToken::Invalid => e.token.canonical(token).unwrap_or(token),
                CallToken::Dash => {
                    seat = seat.map(|s| s.lho());
                    continue;
                }
                CallToken::Terminator | CallToken::Continuation => continue,
            };
            seq.serialize_element(&CallDump {
                call,
                seat,
                annotated: Some(Annotated::of(e, Section::Auction, text)),
            })?;
            seat = seat.map(|s| s.lho());
        }
        seq.end()
    }
}

struct PlayDump<'a> {
    game: &'a Game,
    play: &'a Play,
    text: &'a str,
}

impl Serialize for PlayDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.play;
        let end = p
            .entries
            .iter()
            .any(|e| e.token == CardToken::Terminator)
            .then_some("*");
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("end", &end)?;
        m.serialize_entry(
            "notes",
            &NotesDump {
                game: self.game,
                idx: &p.notes,
            },
        )?;
        m.serialize_entry("tricks", &TricksDump(self))?;
        m.end()
    }
}

/// The cards of a play section four by four, each keyed by the seat that
/// plays it (by its column, `0` to `3`, when the first seat is unknown).
struct TricksDump<'a>(&'a PlayDump<'a>);

/// One card: its text alone, or `card` then its annotations.
struct CardDump<'a> {
    card: &'a str,
    annotated: Annotated<'a>,
}

impl Serialize for CardDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.annotated.is_empty() {
            return s.serialize_str(self.card);
        }
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("card", self.card)?;
        self.annotated.write(&mut m)?;
        m.end()
    }
}

/// One trick's cards, by key in sorted order.
struct TrickDump<'t, 'a>(&'t [(&'static str, CardDump<'a>)]);

impl Serialize for TrickDump<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl Serialize for TricksDump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let PlayDump {
            game,
            play: p,
            text,
        } = *self.0;
        let first = first_seat(game, p.tag, |v| {
            values::parse_play_seat(v).value.map(|s| s.seat)
        });
        const COLUMNS: [&str; 4] = ["0", "1", "2", "3"];
        let mut seq = s.serialize_seq(None)?;
        let mut trick: Vec<(&'static str, CardDump)> = Vec::with_capacity(4);
        let mut col = 0usize;
        for e in &p.entries {
            let token = &text[e.range.clone()];
            let card = match e.token {
                CardToken::Card(_) | CardToken::Invalid => {
                    e.token.canonical(token).unwrap_or(token)
                }
                CardToken::Dash => "-",
                CardToken::Continuation => "+",
                CardToken::Terminator => continue,
            };
            if col.is_multiple_of(4) && !trick.is_empty() {
                trick.sort_by_key(|(k, _)| *k);
                seq.serialize_element(&TrickDump(&trick))?;
                trick.clear();
            }
            let key = match first {
                Some(f) => seat_letter(Seat::ALL[(f as usize + col % 4) % 4]),
                None => COLUMNS[col % 4],
            };
            trick.push((
                key,
                CardDump {
                    card,
                    annotated: Annotated::of(e, Section::Play, text),
                },
            ));
            col += 1;
        }
        if !trick.is_empty() {
            trick.sort_by_key(|(k, _)| *k);
            seq.serialize_element(&TrickDump(&trick))?;
        }
        seq.end()
    }
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

    /// A long game reaches the sink a chunk at a time as it is serialized,
    /// never as one string (its JSON is up to 16 times its text), and the
    /// chunks make the same text as a short game's single string.
    #[test]
    fn long_game_streams_in_chunks() {
        let calls = super::STREAM_GAME / 4;
        let text = format!(
            "[Dealer \"N\"]\n[Auction \"N\"]\n{}\n",
            "1C! ".repeat(calls)
        );
        for pretty in [true, false] {
            let mut chunks = Vec::new();
            super::write_streamed(&text, &[], pretty, |s| chunks.push(s.len()));
            let total: usize = chunks.iter().sum();
            assert!(total > 16 * super::SINK_CHUNK, "{total}");
            let largest = chunks.iter().max().copied().unwrap_or(0);
            assert!(
                largest < 2 * super::SINK_CHUNK,
                "a chunk of {largest} bytes"
            );
            let mut out = String::new();
            super::write_streamed(&text, &[], pretty, |s| out.push_str(s));
            let whole = dump(&text);
            let printed = if pretty {
                serde_json::to_string_pretty(&whole)
            } else {
                serde_json::to_string(&whole)
            };
            assert_eq!(out, printed.unwrap());
        }
    }

    /// A Deal with `x` spot cards (no export form) dumps as written, but a
    /// hand not given is `-` however it is written (`...`, PBN0411's safe
    /// fix); another card is another meaning.
    #[test]
    fn a_deal_with_spot_cards_dumps_its_hands_not_given_as_dashes() {
        let deal = |d: &str| {
            dump(&format!("[Dealer \"N\"]\n[Deal \"{d}\"]\n"))["games"][0]["tags"]["Deal"].clone()
        };
        let dashes = deal("N:- AKxx.Qx.xxx.xxxx - ...");
        assert_eq!(dashes, "N:- AKxx.Qx.xxx.xxxx - -");
        assert_eq!(deal("N:... AKxx.Qx.xxx.xxxx ... -"), dashes);
        assert_ne!(deal("N:... AQxx.Qx.xxx.xxxx ... -"), dashes);
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
