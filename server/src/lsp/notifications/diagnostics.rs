//! `textDocument/publishDiagnostics`: exactly what `pbn check` reports
//! (same code path), with the code, related information and the
//! `Unnecessary` tag for unused notes.
//!
//! Nothing is sent again for nothing: a document's diagnostics are
//! published only when their JSON differs from the last publication
//! ([`publish_frame_if_changed`]), and a pull (`textDocument/diagnostic`,
//! LSP 3.17) answers `unchanged` when the client's `previousResultId` is
//! the [`result_id`] of the current diagnostics (a hash of their JSON).

use crate::lsp::convert::Converter;
use crate::lsp::snapshot::Snapshot;
use pbn_core::checker::Segment;
use pbn_core::diagnostic::Severity;
use pbn_core::text::Near;
use rustc_hash::FxHashMap as HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location,
    NumberOrString, Range,
};

pub fn to_lsp(snap: &Snapshot) -> Vec<Diagnostic> {
    let conv = snap.converter();
    let mut near = Default::default();
    let dd = snap.dd_diagnostics(false).unwrap_or_default();
    snap.check()
        .diagnostics
        .iter()
        .chain(dd)
        .map(|d| one(snap, &conv, d, &mut near))
        .collect()
}

/// One diagnostic as [`to_lsp`] has it (a code action names the ones it
/// resolves without converting every other).
pub fn to_lsp_one(snap: &Snapshot, d: &pbn_core::diagnostic::Diagnostic) -> Diagnostic {
    one(snap, &snap.converter(), d, &mut Default::default())
}

/// One diagnostic as LSP has it. `near` carries where the previous one's
/// range and related ranges were (diagnostics come in text order): columns
/// on a long line are counted on, not from the line's start each time.
fn one(
    snap: &Snapshot,
    conv: &Converter<'_>,
    d: &pbn_core::diagnostic::Diagnostic,
    near: &mut [Near; 2],
) -> Diagnostic {
    let [at, related] = near;
    let range = conv.range_near(d.range.clone(), at);
    let related: Vec<_> = d
        .related
        .iter()
        .map(|r| conv.range_near(r.range.clone(), related))
        .collect();
    with_ranges(snap, d, range, &related)
}

/// [`one`] with its range and related ranges already converted.
fn with_ranges(
    snap: &Snapshot,
    d: &pbn_core::diagnostic::Diagnostic,
    range: Range,
    related: &[Range],
) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
            Severity::Hint => DiagnosticSeverity::HINT,
        }),
        code: Some(NumberOrString::String(d.code.code.to_owned())),
        code_description: None,
        source: Some("pbn".into()),
        message: format!("{} [{}]", d.message, d.code.name),
        related_information: (!d.related.is_empty()).then(|| {
            d.related
                .iter()
                .zip(related)
                .map(|(r, &range)| DiagnosticRelatedInformation {
                    location: Location {
                        uri: snap.uri.clone(),
                        range,
                    },
                    message: r.message.to_string(),
                })
                .collect()
        }),
        tags: d.unnecessary.then(|| vec![DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}

/// What earlier publications serialised, for the next one. An edit
/// changes few diagnostics, and serialising every diagnostic of a large
/// document again (20,000 of them in a 20,000-game file) would cost far more
/// than the check itself.
///
/// - A lasting segment (one piece of the document, shared by the checks of
///   later versions while that piece does not change) is serialised once;
///   publishing it again sends that text as it is, or, when the piece moved
///   to other lines, a copy with its line numbers shifted, which is kept
///   instead.
/// - The diagnostics of other segments are cached one by one, by a hash of
///   everything that appears in their JSON.
#[derive(Default)]
pub struct JsonCache {
    pieces: HashMap<(usize, u8), Template>,
    map: std::collections::HashMap<u64, Arc<str>>,
    /// The [`Message::fingerprint`] of the last publication.
    last: Option<u64>,
}

/// A lasting segment's JSON (its diagnostics joined by commas) as last
/// published, its piece's first line then at `base`. Kept once: a piece
/// that moved to other lines gets its line numbers shifted into a new text,
/// which replaces the old one.
struct Template {
    /// Keeps the segment's diagnostics alive, so that their address (the
    /// key) is not reused while the entry exists.
    _diags: Arc<Vec<pbn_core::diagnostic::Diagnostic>>,
    json: Arc<str>,
    base: u32,
    /// Where each line number is in `json`: offset, length, value.
    lines: Vec<(usize, usize, u32)>,
}

impl Template {
    fn new(snap: &Snapshot, conv: &Converter<'_>, seg: &Segment, base: u32) -> Template {
        let mut json = String::new();
        let mut near = Default::default();
        for (i, d) in seg.diags.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            let lsp = one(snap, conv, &seg.absolute(d), &mut near);
            json.push_str(&serde_json::to_string(&lsp).expect("a diagnostic serialises"));
        }
        // A `"line":` key (a quote inside a JSON string is escaped, so
        // this is never text of a message).
        let mut lines = Vec::new();
        let key = b"\"line\":";
        let b = json.as_bytes();
        let mut at = 0;
        while let Some(p) = memchr::memmem::find(&b[at..], key) {
            let start = at + p + key.len();
            let len = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            let value = json[start..start + len].parse().expect("a line number");
            lines.push((start, len, value));
            at = start + len;
        }
        Template {
            _diags: seg.diags.clone(),
            json: Arc::from(json),
            base,
            lines,
        }
    }

    /// The JSON with the piece's first line at `base`.
    fn at(&mut self, base: u32) -> Arc<str> {
        if base == self.base {
            return self.json.clone();
        }
        // Every line of a self-contained segment is at or after its first.
        let shift = |v: u32| (i64::from(v) - i64::from(self.base) + i64::from(base)) as u32;
        let mut out = String::with_capacity(self.json.len() + self.lines.len() * 4);
        let mut lines = Vec::with_capacity(self.lines.len());
        let mut from = 0;
        for &(at, len, value) in &self.lines {
            out.push_str(&self.json[from..at]);
            let v = shift(value);
            let mut digits = itoa::Buffer::new();
            let d = digits.format(v);
            lines.push((out.len(), d.len(), v));
            out.push_str(d);
            from = at + len;
        }
        out.push_str(&self.json[from..]);
        self.json = Arc::from(out);
        self.lines = lines;
        self.base = base;
        self.json.clone()
    }
}

/// Whether a segment's positions depend only on its own text: it starts at
/// a line start and every range (related ones too) lies inside it.
fn self_contained(text: &str, seg: &Segment) -> bool {
    let at_line_start =
        seg.shift == 0 || matches!(text.as_bytes().get(seg.shift - 1), Some(b'\n' | b'\r'));
    let end = seg
        .diags
        .iter()
        .flat_map(|d| std::iter::once(&d.range).chain(d.related.iter().map(|r| &r.range)))
        .map(|r| r.end)
        .max()
        .unwrap_or(0);
    at_line_start && end <= seg.len
}

/// The body of the `textDocument/publishDiagnostics` notification of this
/// snapshot (a JSON-RPC message, without the frame header), built from what
/// `cache` kept of earlier publications; `cache` is replaced by what this
/// one used.
pub fn publish_json(snap: &Snapshot, cache: &mut JsonCache) -> String {
    let message = Message::of(snap, cache);
    let mut out = Vec::with_capacity(message.len());
    message.write(&mut out);
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// [`publish_json`] as a whole frame (the `Content-Length` header and the
/// body) in parts: the cached JSON of each piece as it is kept, not copied
/// into one buffer (the body of a large document is megabytes).
pub fn publish_frame(snap: &Snapshot, cache: &mut JsonCache) -> crate::lsp::transport::Chunks {
    let message = Message::of(snap, cache);
    cache.last = Some(message.fingerprint());
    frame_of(message)
}

/// [`publish_frame`], or `None` when the diagnostics are those `cache`
/// last published (whatever the version): the client has them already.
pub fn publish_frame_if_changed(
    snap: &Snapshot,
    cache: &mut JsonCache,
) -> Option<crate::lsp::transport::Chunks> {
    let message = Message::of(snap, cache);
    let fingerprint = message.fingerprint();
    if cache.last == Some(fingerprint) {
        return None;
    }
    cache.last = Some(fingerprint);
    Some(frame_of(message))
}

/// The result id of the snapshot's diagnostics for a pull: the same for
/// the same diagnostics (positions included), in any version.
pub fn result_id(snap: &Snapshot, cache: &mut JsonCache) -> String {
    format!("{:016x}", Message::of(snap, cache).fingerprint())
}

/// The hash of a list of diagnostics as [`to_lsp`] has them, for
/// publications that do not go through [`JsonCache`].
pub fn fingerprint_of(diags: &[Diagnostic]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    h.write(
        serde_json::to_string(diags)
            .expect("diagnostics serialise")
            .as_bytes(),
    );
    h.finish()
}

fn frame_of(message: Message) -> crate::lsp::transport::Chunks {
    let header = format!("Content-Length: {}\r\n\r\n{}", message.len(), message.head);
    let comma: Arc<[u8]> = Arc::from(&b","[..]);
    let mut out: crate::lsp::transport::Chunks = Vec::with_capacity(2 * message.parts.len() + 2);
    out.push(Arc::from(header.as_bytes()));
    for (i, p) in message.parts.into_iter().enumerate() {
        if i > 0 {
            out.push(comma.clone());
        }
        out.push(Arc::<[u8]>::from(p));
    }
    out.push(Arc::from(Message::TAIL.as_bytes()));
    out
}

/// The `publishDiagnostics` message in parts: its head (up to the
/// diagnostics array), each segment's or diagnostic's JSON, and the tail.
struct Message {
    head: String,
    parts: Vec<Arc<str>>,
}

impl Message {
    const TAIL: &'static str = "]}}";

    /// A hash of the diagnostics' JSON (the parts joined by commas; not the
    /// head, which holds the version): equal for equal JSON however it is
    /// cut into parts (SipHash's `write` is a byte stream).
    fn fingerprint(&self) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                h.write(b",");
            }
            h.write(p.as_bytes());
        }
        h.finish()
    }

    /// The length in bytes.
    fn len(&self) -> usize {
        self.head.len()
            + self.parts.iter().map(|p| p.len()).sum::<usize>()
            + self.parts.len().saturating_sub(1)
            + Self::TAIL.len()
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.head.as_bytes());
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(p.as_bytes());
        }
        out.extend_from_slice(Self::TAIL.as_bytes());
    }

    fn of(snap: &Snapshot, cache: &mut JsonCache) -> Message {
        let conv = snap.converter();
        let checked = snap.checked();
        let text = snap.source.text.as_str();
        let enc = snap.settings.encoding;
        let mut pieces =
            HashMap::with_capacity_and_hasher(checked.segments.len(), Default::default());
        let mut map = std::collections::HashMap::new();
        let mut parts: Vec<Arc<str>> = Vec::with_capacity(checked.segments.len());
        let mut hint = Near::default();
        let mut related = Near::default();
        for seg in &checked.segments {
            if seg.diags.is_empty() {
                continue;
            }
            if seg.lasting && self_contained(text, seg) {
                let key = (Arc::as_ptr(&seg.diags) as usize, enc as u8);
                let base = conv.position(seg.shift).line;
                let mut t = cache
                    .pieces
                    .remove(&key)
                    .unwrap_or_else(|| Template::new(snap, &conv, seg, base));
                parts.push(t.at(base));
                pieces.insert(key, t);
                continue;
            }
            for d in seg.diags.iter() {
                let d = seg.absolute(d);
                let range = conv.range_near(d.range.clone(), &mut hint);
                let related: Vec<_> = d
                    .related
                    .iter()
                    .map(|r| (conv.range_near(r.range.clone(), &mut related), &*r.message))
                    .collect();
                let mut h = std::hash::DefaultHasher::new();
                (
                    range.start.line,
                    range.start.character,
                    range.end.line,
                    range.end.character,
                )
                    .hash(&mut h);
                (
                    d.severity as u8,
                    d.code.code,
                    d.code.name,
                    &*d.message,
                    d.unnecessary,
                )
                    .hash(&mut h);
                for (r, m) in &related {
                    (
                        r.start.line,
                        r.start.character,
                        r.end.line,
                        r.end.character,
                        m,
                    )
                        .hash(&mut h);
                }
                let key = h.finish();
                let json = match map.get(&key).or_else(|| cache.map.get(&key)) {
                    Some(j) => Arc::clone(j),
                    None => Arc::from(
                        serde_json::to_string(&with_ranges(
                            snap,
                            &d,
                            range,
                            &related.iter().map(|(r, _)| *r).collect::<Vec<_>>(),
                        ))
                        .expect("a diagnostic serialises"),
                    ),
                };
                map.insert(key, json.clone());
                parts.push(json);
            }
        }
        // The double-dummy diagnostics once solved (few: not cached).
        if let Some(dd) = snap.dd_ready() {
            let mut near = Default::default();
            for d in dd {
                parts.push(Arc::from(
                    serde_json::to_string(&one(snap, &conv, d, &mut near))
                        .expect("a diagnostic serialises"),
                ));
            }
        }
        cache.pieces = pieces;
        cache.map = map;
        let uri = serde_json::to_string(&snap.uri).expect("a URI serialises");
        let head = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{uri},"version":{},"diagnostics":["#,
            snap.version
        );
        Message { head, parts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot;

    #[test]
    fn codes_related_information_and_unnecessary_tag() {
        let text = "[Room \"Open\"]\n[Room \"Closed\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n[Note \"1:unused\"]\n";
        let snap = snapshot(text);
        let diags = to_lsp(&snap);
        let dup = diags
            .iter()
            .find(|d| d.code == Some(NumberOrString::String("PBN0202".into())))
            .unwrap();
        assert_eq!(dup.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(
            dup.related_information.as_ref().unwrap()[0]
                .location
                .range
                .start
                .line,
            0
        );
        let unused = diags
            .iter()
            .find(|d| d.code == Some(NumberOrString::String("PBN0710".into())))
            .unwrap();
        assert_eq!(unused.tags, Some(vec![DiagnosticTag::UNNECESSARY]));
        insta::assert_debug_snapshot!(diags
            .iter()
            .map(|d| (d.range, d.code.clone(), d.message.clone()))
            .collect::<Vec<_>>());
    }

    /// The JSON built from cached pieces is the notification serde would
    /// write for the typed diagnostics, on a first publication and on one
    /// that reuses the cache after an edit.
    #[test]
    fn publish_json_equals_the_typed_notification() {
        let text = "[Room \"Open\"]\n[Room \"Closed\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n[Note \"1:unüsed 😀\"]\n\n[Board \"x\"]\n";
        let mut cache = JsonCache::default();
        for text in [text.to_owned(), text.replace("Closed", "Shut")] {
            let snap = snapshot(&text);
            let body = publish_json(&snap, &mut cache);
            let built: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(built, typed(&snap));
            // The frame: its header gives the body's exact length.
            let frame = publish_frame(&snap, &mut JsonCache::default()).concat();
            assert_eq!(
                frame,
                format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
            );
            assert!(!cache.map.is_empty() || !cache.pieces.is_empty());
        }
    }

    fn typed(snap: &Snapshot) -> serde_json::Value {
        use tower_lsp_server::ls_types::PublishDiagnosticsParams;
        let params = PublishDiagnosticsParams {
            uri: snap.uri.clone(),
            diagnostics: to_lsp(snap),
            version: Some(snap.version),
        };
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
    }

    /// Edits of a document of several pieces, in both position encodings:
    /// after each, the notification built from templates (pieces that did
    /// not change, some on other lines than before) is the one serde would
    /// write. The edits keep the lines, add and remove lines above other
    /// pieces, add related information, and put a loose diagnostic (the
    /// export rule on tabs) inside a piece.
    #[test]
    fn publish_json_after_edits_equals_the_typed_notification() {
        use crate::lsp::document::Document;
        use crate::lsp::state::Settings;
        use pbn_core::text::PositionEncoding;
        use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
        // A character outside the BMP in a few games (each is reported, and
        // more than 50 would be capped, which makes one list).
        let game = |b: usize| {
            format!("[Event \"É{}\"]\n[Board \"{b}\"]\n[Date \"2024-01-0{}\"]\n[Evnet \"x\"]\n{{ a comment }}\n", if b.is_multiple_of(50) { " 😀" } else { "" }, b % 9 + 1)
        };
        let text = "% EXPORT\n".to_owned() + &(1..=1000).map(game).collect::<Vec<_>>().join("\n");
        for encoding in [PositionEncoding::Utf16, PositionEncoding::Utf8] {
            // Each game's diagnostics listed (file-wide patterns otherwise).
            let settings = Settings {
                encoding,
                group: false,
                ..Settings::default()
            };
            let mut doc =
                Document::open("file:///t.pbn".parse().unwrap(), 1, text.clone(), settings);
            assert!(doc.forest.ranges().len() >= 3, "several pieces");
            let mut cache = JsonCache::default();
            let check = |snap: &Snapshot, cache: &mut JsonCache, what: &str| {
                let built: serde_json::Value =
                    serde_json::from_str(&publish_json(snap, cache)).unwrap();
                assert_eq!(built, typed(snap), "{encoding:?}: {what}");
                assert!(!cache.pieces.is_empty(), "{what}: pieces are cached");
            };
            check(&doc.snapshot, &mut cache, "open");
            let edits: [(&str, usize, &str); 7] = [
                ("[Board \"500\"]", 0, "[Board \"501\"]"),
                ("[Board \"10\"]", 0, "[Board \"10\"]\n\n{ new lines }\n"),
                ("[Board \"700\"]", 0, "[Board \"700\"]\n[Board \"7\"]"),
                ("[Board \"3\"]\n", 1, ""),
                ("[Board \"900\"]", 0, "[Board \"900\"]\t"),
                ("[Board \"501\"]", 0, "[Board \"501\"]\n"),
                ("[Board \"501\"]\n\n", 0, "[Board \"501\"]"),
            ];
            for (v, (find, lines, new)) in edits.into_iter().enumerate() {
                let now = doc.snapshot.source.text.clone();
                let at = now.find(find).unwrap_or_else(|| panic!("{find}"));
                let end = if lines == 0 {
                    at + find.len()
                } else {
                    at + find.len() + now[at + find.len()..].find('\n').unwrap() + 1
                };
                let conv = doc.snapshot.converter();
                let pos = |o: usize| -> Position { conv.position(o) };
                let range = Range {
                    start: pos(at),
                    end: pos(end),
                };
                let change = TextDocumentContentChangeEvent {
                    range: Some(range),
                    range_length: None,
                    text: new.to_owned(),
                };
                doc.apply(v as i32 + 2, vec![change], encoding, settings);
                check(&doc.snapshot, &mut cache, find);
            }
        }
    }
}
