//! PBN01xx: characters, lines, tokens and encoding (§2.2, §2.3, §3.2).

use crate::codes::text as c;
use crate::diagnostic::Diagnostic;
use crate::syntax::{game_at, games, Trees};
use crate::text::{DecodeNote, Encoding, SourceText};
use std::ops::Range;
use tree_sitter::Node;

/// At most this many diagnostics of one code per file; the last one says
/// how many more there are.
pub const CAP: usize = 50;

/// The text rules of a whole document.
pub fn check<T: Trees + ?Sized>(source: &SourceText, trees: &T) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = file_level(source);
    out.extend(span(
        source.encoding,
        text,
        0..text.len(),
        &crate::syntax::top_nodes(trees),
    ));
    // The per-file limits ([`cap`]) apply to the whole list, syntax
    // diagnostics included: `reference::check_parsed` and the engine apply them.
    let (chunks, _) = games(trees, text);
    for d in &mut out {
        d.game = game_at(&chunks, d.range.start);
    }
    out
}

/// What does not belong to any part of the text: notes from decoding.
pub fn file_level(source: &SourceText) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fix = encoding_fix(source).map(std::sync::Arc::new);
    decode_notes(source, fix.as_ref(), &mut out);
    out.extend(utf8_file(source, fix));
    out
}

/// The fix of a UTF-8 file's encoding (§2.2: PBN data is ISO 8859-1):
/// writing it in ISO 8859-1 when its text reads the same that way
/// ([`crate::text::reencoded`]), else writing it without its byte order
/// mark; `None` when neither applies, and for an editor's buffer (the
/// editor, not the language server, decides how the file is saved).
pub fn encoding_fix(source: &SourceText) -> Option<crate::diagnostic::Fix> {
    if !source.from_bytes() {
        return None;
    }
    let (bom, n) = utf8_beyond_ascii(source)?;
    use crate::diagnostic::Fix;
    if source.non_latin1_chars() == 0 && crate::text::reencoded(source, Encoding::Latin1).is_some()
    {
        return Some(if n == 0 {
            Fix::reencode("Drop the UTF-8 byte order mark", Encoding::Latin1)
        } else {
            Fix::reencode("Write the file in ISO 8859-1 (§2.2)", Encoding::Latin1)
        });
    }
    (bom && crate::text::reencoded(source, Encoding::Utf8).is_some())
        .then(|| Fix::reencode("Drop the UTF-8 byte order mark", Encoding::Utf8))
}

/// Whether the source is UTF-8 with a byte order mark, and how many
/// non-ASCII characters it has, when it is UTF-8 with either (what PBN0111
/// reports). Only for text decoded from a file's bytes: an editor's buffer
/// says nothing of how the file is saved (a Latin-1 file arrives as UTF-8).
fn utf8_beyond_ascii(source: &SourceText) -> Option<(bool, usize)> {
    if !source.from_bytes() {
        return None;
    }
    let bom = source.encoding == Encoding::Utf8Bom;
    let n = source.non_ascii_chars();
    (bom || (source.encoding == Encoding::Utf8 && n > 0)).then_some((bom, n))
}

/// The encoding a writer of `source`'s file writes the fixed or formatted
/// text in: [`encoding_fix`]'s when there is one (ISO 8859-1, §2.2), else
/// the file's own.
pub fn write_encoding(source: &SourceText) -> Encoding {
    encoding_fix(source)
        .and_then(|f| f.encoding)
        .unwrap_or(source.encoding)
}

/// PBN0111: the file is UTF-8 with non-ASCII characters or a byte order
/// mark, where PBN data is ISO 8859-1 (§2.2). Once per file, on the first
/// non-ASCII character (the start of the file for a byte order mark alone),
/// with the count; `fix` is [`encoding_fix`]'s.
fn utf8_file(
    source: &SourceText,
    fix: Option<std::sync::Arc<crate::diagnostic::Fix>>,
) -> Option<Diagnostic> {
    let (bom, n) = utf8_beyond_ascii(source)?;
    let text = source.text.as_str();
    let range = match text.bytes().position(|b| b >= 0x80) {
        Some(i) => i..i + text[i..].chars().next().map_or(0, char::len_utf8),
        None => 0..0,
    };
    let latin1 = fix
        .as_ref()
        .is_some_and(|f| f.encoding == Some(Encoding::Latin1));
    let outside = source.non_latin1_chars();
    let what = match (n, bom) {
        (0, _) => "starts with a UTF-8 byte order mark".to_owned(),
        (n, false) => format!("is UTF-8 with {n} non-ASCII character(s)"),
        (n, true) => format!("is UTF-8 (with a byte order mark) with {n} non-ASCII character(s)"),
    };
    let then = if latin1 {
        match n {
            0 => "`pbn fmt` and `pbn check --fix` write it without the mark".to_owned(),
            _ => "all of them fit ISO 8859-1: `pbn fmt` and `pbn check --fix` write the file in ISO 8859-1".to_owned(),
        }
    } else if outside > 0 {
        format!(
            "{outside} of them outside ISO 8859-1 (PBN0106): the file stays UTF-8 until they are replaced{}",
            if bom { " (`pbn fmt` drops the byte order mark)" } else { "" }
        )
    } else {
        "all of them fit ISO 8859-1, but written in ISO 8859-1 the bytes would read as UTF-8 or UTF-16 again: re-save the file as ISO 8859-1 by hand after checking these characters".to_owned()
    };
    let mut d = Diagnostic::new(
        &c::UTF8_FILE,
        range,
        format!("the file {what}, where PBN data is ISO 8859-1 (§2.2); {then}"),
    );
    d.fix = fix;
    Some(d)
}

/// The character, line and token rules on `text[range]`, which must start
/// at a line start and end at a line end (or the end of the text); `nodes`
/// are the top-level nodes inside it. Nothing is capped: a document's spans
/// together go through [`cap`]. The language server checks each game's span
/// on its own and keeps the result while the game is unchanged.
pub fn span(
    encoding: Encoding,
    text: &str,
    range: std::ops::Range<usize>,
    nodes: &[Node<'_>],
) -> Vec<Diagnostic> {
    span_lines(encoding, text, range.clone(), range, nodes)
}

/// [`span`] whose line rule looks at the whole lines of `lines` instead:
/// a part of a game cut for its length ([`crate::syntax::GAME_WINDOW`])
/// may start or end inside a line, which the part where it starts
/// measures whole.
pub fn span_lines(
    encoding: Encoding,
    text: &str,
    range: std::ops::Range<usize>,
    line_range: std::ops::Range<usize>,
    nodes: &[Node<'_>],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let part = &text[range.clone()];
    let bytes = ByteClasses::of(part.as_bytes());
    if bytes.unusual {
        characters(encoding, part, range.start, &mut out);
    }
    let has_long_line = lines(&text[line_range.clone()], line_range.start, &mut out);
    // The token walk only finds something when a token can be long, contain
    // a tab, or contain a non-ASCII character (a part cut inside a line
    // may hold a long line's tokens without its start).
    if has_long_line || bytes.non_ascii || bytes.tab || line_range != range {
        for node in nodes {
            tokens(text, *node, &mut out);
        }
    }
    out
}

/// How many codes [`cap`] looks at ([`cap_counts`]).
pub const CAP_KINDS: usize = CAPPED.len() + 1;

/// The codes limited to [`CAP`] per file, then the Windows-1252 code that
/// [`cap`] merges into one.
fn capped_codes() -> [&'static crate::codes::CodeInfo; CAP_KINDS] {
    let mut codes = [&c::C1_CHARACTER; CAP_KINDS];
    codes[..CAPPED.len()].copy_from_slice(&CAPPED);
    codes
}

/// Limited to [`CAP`] per file: characters and lines, and the syntax
/// errors, of which a file that is not PBN (a binary, a spreadsheet) has
/// one every few bytes.
const CAPPED: [&crate::codes::CodeInfo; 10] = [
    &c::CONTROL_CHARACTER,
    &c::TAB_IN_STRING,
    &c::NOT_LATIN1,
    &c::LINE_TOO_LONG,
    &c::TOKEN_TOO_LONG,
    &c::NON_ASCII_SYMBOL,
    &crate::codes::syntax::SYNTAX_ERROR,
    &crate::codes::syntax::MISSING_TOKEN,
    &crate::codes::syntax::UNTERMINATED_STRING,
    &crate::codes::syntax::UNTERMINATED_COMMENT,
];

/// How many diagnostics of each code [`cap`] looks at are in `diags`: the
/// counts of parts of a document add up to the document's.
pub fn cap_counts(diags: &[Diagnostic]) -> CapCounts {
    let mut n = [0; CAP_KINDS];
    for k in diags.iter().filter_map(cap_kind) {
        n[k] += 1;
    }
    n
}

/// Whether [`cap`] would change diagnostics with these counts (beyond
/// their order): a code over the limit, or any Windows-1252 character.
pub fn cap_changes(counts: &[usize; CAP_KINDS]) -> bool {
    counts[..CAPPED.len()].iter().any(|&n| n > CAP) || counts[CAPPED.len()] > 0
}

/// Per code [`cap`] looks at (in [`cap_counts`]' order): how many.
pub type CapCounts = [usize; CAP_KINDS];

/// Adds the counts `more` to `to`.
pub fn add_counts(to: &mut CapCounts, more: &CapCounts) {
    for (n, k) in to.iter_mut().zip(more) {
        *n += k;
    }
}

/// Which of [`cap`]'s codes `d` has, as an index into [`CapCounts`].
fn cap_kind(d: &Diagnostic) -> Option<usize> {
    capped_codes().iter().position(|c| std::ptr::eq(d.code, *c))
}

/// Drops from `diags` what [`cap`] drops whatever comes before and after
/// them in the file: of each capped code, what comes after the first
/// [`CAP`] by position (`seen` counts those already kept before `diags`,
/// and is updated), of Windows-1252 characters all but the first. Adds to
/// `dropped` how many of each were dropped, for [`cap`]'s counts. Applied
/// to each game's and each piece's diagnostics as they are made, so that
/// a file with millions of them never holds them all; the order of what
/// is kept does not change.
pub fn thin(diags: &mut Vec<Diagnostic>, seen: &mut CapCounts, dropped: &mut CapCounts) {
    let mut capped: Vec<(usize, usize)> = diags
        .iter()
        .enumerate()
        .filter_map(|(i, d)| Some((i, cap_kind(d)?)))
        .collect();
    if capped.is_empty() {
        return;
    }
    capped.sort_by_key(|&(i, _)| (diags[i].range.start, diags[i].range.end, i));
    let mut gone = vec![false; diags.len()];
    let mut any = false;
    for (i, k) in capped {
        seen[k] += 1;
        let limit = if k == CAPPED.len() { 1 } else { CAP };
        if seen[k] > limit {
            gone[i] = true;
            dropped[k] += 1;
            any = true;
        }
    }
    if any {
        let mut i = 0;
        diags.retain(|_| {
            i += 1;
            !gone[i - 1]
        });
    }
}

/// Applies the per-file limits to the diagnostics of all spans (in any
/// order): at most [`CAP`] of each capped code, the last saying how many more
/// there are; Windows-1252 characters become one diagnostic with the count.
/// `dropped`: how many of each [`thin`] dropped before.
pub fn cap(out: &mut Vec<Diagnostic>, dropped: &CapCounts) {
    let capped = CAPPED;
    let is = |d: &Diagnostic, code: &crate::codes::CodeInfo| std::ptr::eq(d.code, code);
    if !out
        .iter()
        .any(|d| is(d, &c::C1_CHARACTER) || capped.iter().any(|k| is(d, k)))
    {
        return;
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    let mut kept = Vec::with_capacity(out.len());
    let mut counts = [0usize; CAPPED.len()];
    let mut c1: Option<(usize, usize)> = None; // (index in kept, count)
    for d in out.drain(..) {
        if is(&d, &c::C1_CHARACTER) {
            match &mut c1 {
                Some((_, n)) => *n += 1,
                None => {
                    c1 = Some((kept.len(), 1));
                    kept.push(d);
                }
            }
            continue;
        }
        match capped.iter().position(|k| is(&d, k)) {
            Some(k) => {
                counts[k] += 1;
                if counts[k] <= CAP {
                    kept.push(d);
                }
            }
            None => kept.push(d),
        }
    }
    if let Some((i, n)) = c1 {
        let n = n + dropped[CAPPED.len()];
        kept[i].message = format!("the file uses {n} Windows-1252 character(s) in the byte range 128–159, which ISO 8859-1 does not use for PBN data (§2.2)").into();
    }
    for (k, code) in capped.iter().enumerate() {
        let total = counts[k] + dropped[k];
        if total > CAP {
            if let Some(last) = kept.iter_mut().rev().find(|d| is(d, code)) {
                last.message = format!("{} ({} more not shown)", last.message, total - CAP).into();
            }
        }
    }
    *out = kept;
}

/// The decoder's notes; `encoding` is [`encoding_fix`]'s fix, which
/// resolves a declared charset that contradicts UTF-8 content when it
/// writes ISO 8859-1.
fn decode_notes(
    source: &SourceText,
    encoding: Option<&std::sync::Arc<crate::diagnostic::Fix>>,
    out: &mut Vec<Diagnostic>,
) {
    for n in &source.notes {
        match n {
            DecodeNote::CharsetMismatch { declared, used } => {
                // The note is the decoder's; once a fix rewrote the
                // declaration, the text no longer makes it.
                let now = crate::text::declared_charset_range(source.text.as_bytes())
                    .map(|r| &source.text[r]);
                if now.is_some_and(|n| !n.eq_ignore_ascii_case(declared)) {
                    continue;
                }
                let mut d = Diagnostic::new(
                    &c::CHARSET_MISMATCH,
                    charset_line(&source.text),
                    format!("declared charset `{declared}` does not match the content; read as {} (§2.2)", used.name()),
                );
                d.fix = match encoding {
                    Some(f) if f.encoding == Some(Encoding::Latin1) => Some(f.clone()),
                    _ => charset_fix(source).map(std::sync::Arc::new),
                };
                out.push(d);
            }
            DecodeNote::UnknownCharset { charset } => out.push(Diagnostic::new(
                &c::UNKNOWN_CHARSET,
                charset_line(&source.text),
                format!("unknown charset `{charset}`; the encoding was detected from the content (§2.2)"),
            )),
            DecodeNote::Wide { encoding, bom } => out.push(Diagnostic::new(
                &c::WIDE_ENCODING,
                0..0,
                format!(
                    "the file is {} ({}), not ISO 8859-1 or UTF-8 as PBN 2.1 wants (§2.2); it was decoded and checked, save it as UTF-8 (`pbn fmt --force` does)",
                    encoding.name().to_uppercase(),
                    if *bom { "byte order mark" } else { "NUL bytes between the ASCII characters" }
                ),
            )),
            DecodeNote::NotUtf8 { .. } => {}
        }
    }
}

/// PBN0107's fix: the `charset=` declaration names the encoding the
/// content is in (the text is read that way already, so what the file
/// means does not change; writing it in ISO 8859-1 instead is `pbn fmt`'s
/// choice of encoding, not an edit of the text). `None` without a
/// mismatch.
pub fn charset_fix(source: &SourceText) -> Option<crate::diagnostic::Fix> {
    let used = source.notes.iter().find_map(|n| match n {
        DecodeNote::CharsetMismatch { declared, used } => Some((declared, *used)),
        _ => None,
    });
    let (declared, used) = used?;
    let label = match used {
        Encoding::Utf8 | Encoding::Utf8Bom => "UTF-8",
        Encoding::Latin1 => "ISO-8859-1",
        Encoding::Windows1252 => "windows-1252",
        _ => return None,
    };
    let range = crate::text::declared_charset_range(source.text.as_bytes())?;
    let now = &source.text[range.clone()];
    (now.eq_ignore_ascii_case(declared) && !now.eq_ignore_ascii_case(label)).then(|| {
        crate::diagnostic::Fix::replace(
            format!("Declare `charset={label}`, the encoding of the content"),
            range,
            label,
            crate::diagnostic::Applicability::Safe,
        )
    })
}

fn charset_line(text: &str) -> std::ops::Range<usize> {
    let lower = text.to_ascii_lowercase();
    match lower.find("charset=") {
        Some(i) => {
            let start = lower[..i].rfind('\n').map(|p| p + 1).unwrap_or(0);
            let end = lower[i..]
                .find(['\n', '\r'])
                .map(|p| i + p)
                .unwrap_or(text.len());
            start..end
        }
        None => 0..0,
    }
}

/// What kinds of bytes a span holds, found in one pass without branches
/// (which the compiler vectorises): most spans are printable ASCII and line
/// ends only, and need no character-by-character look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ByteClasses {
    /// A byte other than printable ASCII, tab, vertical tab, LF and CR.
    unusual: bool,
    /// A tab or vertical tab.
    tab: bool,
    /// A byte of a non-ASCII character.
    non_ascii: bool,
}

impl ByteClasses {
    fn of(b: &[u8]) -> ByteClasses {
        let (mut unusual, mut tab, mut high) = (false, false, false);
        for chunk in b.chunks(256) {
            let (mut u, mut t, mut h) = (0u8, 0u8, 0u8);
            for &c in chunk {
                let is_tab = (c == b'\t') | (c == 0x0b);
                let line_end = (c == b'\n') | (c == b'\r');
                u |= ((c >= 0x7f) | ((c < 0x20) & !is_tab & !line_end)) as u8;
                t |= is_tab as u8;
                h |= (c >= 0x80) as u8;
            }
            unusual |= u != 0;
            tab |= t != 0;
            high |= h != 0;
        }
        ByteClasses {
            unusual,
            tab,
            non_ascii: high,
        }
    }
}

/// The character rules (§2.2) on `part`; only called when [`ByteClasses`]
/// found an unusual byte.
/// A run of the same control character is one diagnostic over the run: a
/// file of NULs gives one, not one per byte (which took about 400 bytes of
/// memory per input byte before the per-file cap applied). A run never
/// crosses a line end, so it lies in one span.
fn characters(encoding: Encoding, part: &str, base: usize, out: &mut Vec<Diagnostic>) {
    let mut chars = part.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        let i = base + i;
        let code = ch as u32;
        let is_control = (code < 0x20 && !matches!(ch, '\t' | '\u{b}' | '\n' | '\r'))
            || code == 0x7f
            || (0x80..0xa0).contains(&code);
        if is_control {
            let mut run = 1;
            while chars.next_if(|&(_, next)| next == ch).is_some() {
                run += 1;
            }
            let what = if (0x80..0xa0).contains(&code) {
                format!("byte 0x{code:02X} is a control character in ISO 8859-1 and not used for PBN data (§2.2); if the file is Windows-1252, declare it with `%Content-type: text/x-pbn; charset=windows-1252`")
            } else {
                format!("control character U+{code:04X} is not permitted in PBN data (§2.2)")
            };
            out.push(Diagnostic::new(
                &c::CONTROL_CHARACTER,
                i..i + run * ch.len_utf8(),
                if run == 1 {
                    what
                } else {
                    format!("{run} in a row: {what}")
                },
            ));
        } else if code > 0xff && ch != '\u{feff}' {
            if encoding == Encoding::Windows1252 && is_cp1252_extra(ch) {
                // One per character here; `cap` merges them into one.
                out.push(Diagnostic::new(
                    &c::C1_CHARACTER,
                    i..i + ch.len_utf8(),
                    String::new(),
                ));
                continue;
            }
            out.push(Diagnostic::new(
                &c::NOT_LATIN1,
                i..i + ch.len_utf8(),
                format!("`{ch}` (U+{code:04X}) is not an ISO 8859-1 character (§2.2)"),
            ));
        }
    }
}

fn is_cp1252_extra(ch: char) -> bool {
    let mut buf = [0u8; 4];
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(ch.encode_utf8(&mut buf));
    !unmappable && bytes.len() == 1 && (0x80..0xa0).contains(&bytes[0])
}

/// Reports long lines; returns whether any line is over 255 bytes. §2.3
/// allows 255 characters "including the end-of-line indicator", which
/// counts as one character, CRLF too: the standard's author's own test
/// file (`correct_10.pbn`) has "a line of 255 characters" of 254 before its
/// CRLF, and his verifier accepts it.
fn lines(text: &str, base: usize, out: &mut Vec<Diagnostic>) -> bool {
    let mut any_long = false;
    let mut start = 0;
    let b = text.as_bytes();
    // A line of more than 254 bytes (one of at most 254 bytes has at most
    // 254 characters).
    let mut check = |start: usize, end: usize, out: &mut Vec<Diagnostic>| {
        let line = &text[start..end];
        any_long |= line.len() > 255;
        let chars = line.chars().count();
        if chars > 254 {
            let cut = line
                .char_indices()
                .nth(254)
                .map(|(o, _)| start + o)
                .unwrap_or(end);
            out.push(Diagnostic::new(
                &c::LINE_TOO_LONG,
                base + cut..base + end,
                format!("line has {} characters plus its end-of-line; at most 255 including the end-of-line are allowed (§2.3)", chars),
            ));
        }
    };
    if b.len() <= 254 {
        return false; // no line of it can be longer
    }
    // The LF of a CRLF ends nothing: the line ended at its CR.
    let mut lf_of_crlf = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', b) {
        if lf_of_crlf != Some(i) {
            if i - start > 254 {
                check(start, i, out);
            }
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                lf_of_crlf = Some(i + 1);
            }
        }
        start = i + 1;
    }
    if b.len() - start > 254 {
        check(start, b.len(), out);
    }
    any_long
}

/// The token rules on every leaf under `root`.
fn tokens(text: &str, root: Node<'_>, out: &mut Vec<Diagnostic>) {
    crate::syntax::for_each_node(root, |node| {
        if node.child_count() == 0 {
            leaf(text, node, out);
        }
    });
}

fn leaf(text: &str, node: Node<'_>, out: &mut Vec<Diagnostic>) {
    let kind = node.kind();
    let r = node.byte_range();
    let s = &text[r.clone()];
    match kind {
        // `junk`: a run of one punctuation character that the parser
        // skipped as one leaf while recovering from an error; the syntax
        // error already reports it.
        "comment" | "unterminated_comment" | "escape_line" | "game_break" | "junk" => {}
        "string" | "unterminated_string" => {
            if let Some(p) = s.find(['\t', '\u{b}']) {
                out.push(Diagnostic::new(
                    &c::TAB_IN_STRING,
                    r.start + p..r.start + p + 1,
                    "tab character inside a string; tabs may not appear inside string data (§2.3)",
                ));
            }
            token_length(text, r.clone(), out);
            if kind == "string" {
                long_note(text, node, r, out);
            }
        }
        // One node holds a run of section tokens (a table row, §5), of call
        // tokens (§3.5.1) or of card tokens (§3.6.1): the rules apply to
        // each §3.2 token in it.
        "section_token" | "calls" | "cards" => {
            for cell in crate::syntax::section_cells(text, r) {
                non_ascii(text, cell.clone(), out);
                token_length(text, cell, out);
            }
        }
        _ => {
            if !node.is_error() {
                non_ascii(text, r.clone(), out);
            }
            token_length(text, r, out);
        }
    }
}

/// §2.2: non-ASCII characters only in strings and commentary; the first in
/// the token `r` is reported.
fn non_ascii(text: &str, r: Range<usize>, out: &mut Vec<Diagnostic>) {
    let s = &text[r.clone()];
    if !s.is_ascii() {
        let p = s.find(|c: char| !c.is_ascii()).unwrap_or(0);
        let ch = s[p..].chars().next().unwrap_or('?');
        out.push(Diagnostic::new(
            &c::NON_ASCII_SYMBOL,
            r.start + p..r.start + p + ch.len_utf8(),
            format!("non-ASCII character `{ch}` outside strings and comments; it may only appear in string data and commentary (§2.2)"),
        ));
    }
}

/// The PBN0104 diagnostics of `text` (parsed as `trees`) that carry a fix
/// (a Note too long for one line, [`long_note`]): what the formatter's fix
/// rounds apply besides the games' rules. Empty at once when no line is
/// long.
pub fn long_note_fixes<T: Trees + ?Sized>(text: &str, trees: &T) -> Vec<Diagnostic> {
    if !may_hold_long_note(text) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for node in crate::syntax::top_nodes(trees) {
        tokens(text, node, &mut out);
    }
    out.retain(|d| d.code.code == c::TOKEN_TOO_LONG.code && d.fix.is_some());
    out
}

/// Whether a line of `text` may hold a Note value longer than a token
/// can be (§3.2): a string of more than 255 bytes after `Note`, read
/// without a parse, so that the formatter parses a piece again only then.
pub fn may_hold_long_note(text: &str) -> bool {
    text.split(['\n', '\r']).any(|l| {
        l.len() > 255
            && l.match_indices("Note").any(|(i, _)| {
                let Some(q) = l[i..].find('"') else {
                    return false;
                };
                let b = &l.as_bytes()[i + q + 1..];
                let mut k = 0;
                while k < b.len() && b[k] != b'"' {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
                k > 253
            })
    })
}

/// The fix of PBN0104 on the value of a Note tag (`out`'s last
/// diagnostic when it is that one): the note cut at a space, the rest in a
/// comment after the tag that [`crate::model::Game::note`] reads back
/// ([`crate::model::values::note::split_long`]).
fn long_note(text: &str, node: Node<'_>, r: Range<usize>, out: &mut [Diagnostic]) {
    let Some(d) = out
        .last_mut()
        .filter(|d| d.code.code == c::TOKEN_TOO_LONG.code && d.range == r)
    else {
        return;
    };
    let Some(tag) = node.parent().filter(|p| p.kind() == "tag_pair") else {
        return;
    };
    let named_note = tag
        .child_by_field_name("name")
        .is_some_and(|n| &text[n.byte_range()] == "Note");
    let raw = &text[r.start + 1..r.end - 1];
    let eol = crate::rules::fixes::eol(text);
    let (Some((cut, comment)), true) =
        (crate::model::values::note::split_long(raw, eol), named_note)
    else {
        return;
    };
    let end = tag.end_byte();
    d.fix = Some(std::sync::Arc::new(crate::diagnostic::Fix::new(
        "Continue the note in a comment after the tag (§2.3)",
        vec![
            crate::diagnostic::Edit {
                range: r.start + 1 + cut..r.end - 1,
                new_text: String::new(),
            },
            crate::diagnostic::Edit {
                range: end..end,
                new_text: format!("{eol}{comment}"),
            },
        ],
        crate::diagnostic::Applicability::Safe,
    )));
}

/// §3.2: a token is at most 255 characters long.
fn token_length(text: &str, r: Range<usize>, out: &mut Vec<Diagnostic>) {
    let s = &text[r.clone()];
    if s.len() > 255 && s.chars().count() > 255 {
        out.push(Diagnostic::new(
            &c::TOKEN_TOO_LONG,
            r,
            format!(
                "token of {} characters; a token is at most 255 characters long (§3.2)",
                s.chars().count()
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`thin`] keeps what [`cap`] shows whatever comes before and after:
    /// the first [`CAP`] of a capped code by position (not in the list's
    /// order), counting on from the parts before; the first Windows-1252
    /// character; every diagnostic of other codes. [`cap`] on the parts
    /// thinned, with the counts, gives what it gives on the whole list.
    #[test]
    fn thinning_keeps_what_the_cap_shows() {
        let d = |code, at: usize| Diagnostic::new(code, at..at + 1, format!("at {at}"));
        let control: Vec<Diagnostic> = (0..CAP + 20)
            .map(|i| d(&c::CONTROL_CHARACTER, 2 * i))
            .collect();
        // The first part in reverse order of position; the second with
        // the rest, five Windows-1252 characters and a code not capped.
        let mut a: Vec<Diagnostic> = control[..30].iter().rev().cloned().collect();
        let mut b: Vec<Diagnostic> = control[30..].to_vec();
        b.extend((0..5).map(|i| d(&c::C1_CHARACTER, 1000 + i)));
        b.extend((0..CAP + 3).map(|i| d(&c::UTF8_FILE, 2000 + i)));
        let mut whole: Vec<Diagnostic> = a.iter().chain(&b).cloned().collect();
        cap(&mut whole, &CapCounts::default());

        let (mut seen, mut dropped) = (CapCounts::default(), CapCounts::default());
        thin(&mut a, &mut seen, &mut dropped);
        assert_eq!(a.len(), 30);
        assert_eq!(dropped, CapCounts::default());
        thin(&mut b, &mut seen, &mut dropped);
        assert_eq!(b.len(), CAP - 30 + 1 + CAP + 3, "{b:?}");
        assert!(b[..CAP - 30]
            .iter()
            .zip(&control[30..CAP])
            .all(|(x, y)| x == y));
        assert_eq!(dropped[0], 20);
        assert_eq!(dropped[CAP_KINDS - 1], 4);
        let mut parts: Vec<Diagnostic> = a.into_iter().chain(b).collect();
        cap(&mut parts, &dropped);
        assert_eq!(parts, whole);
        assert!(parts
            .iter()
            .any(|d| d.message.ends_with("(20 more not shown)")));
        assert!(parts
            .iter()
            .any(|d| d.message.starts_with("the file uses 5 Windows-1252")));
    }

    fn utf8_file_of(source: &SourceText) -> Vec<Diagnostic> {
        file_level(source)
            .into_iter()
            .filter(|d| std::ptr::eq(d.code, &c::UTF8_FILE))
            .collect()
    }

    /// PBN0111: once per UTF-8 file with non-ASCII characters or a byte
    /// order mark, on the first non-ASCII character, with the count; its
    /// fix writes ISO 8859-1 when every character fits, only drops the
    /// mark when one does not; an editor's buffer has no such diagnostic.
    #[test]
    fn utf8_file_once_with_its_fix() {
        let at = |bytes: &[u8]| {
            let s = crate::text::decode(bytes);
            let d = utf8_file_of(&s);
            assert!(d.len() <= 1, "{d:?}");
            d.into_iter().next().map(|d| {
                (
                    d.range,
                    d.message.to_string(),
                    d.fix.and_then(|f| f.encoding),
                )
            })
        };
        let (range, message, fix) = at("{ a }\n{ é è }\n".as_bytes()).unwrap();
        assert_eq!(range, 8..10);
        assert!(
            message.contains("2 non-ASCII character(s)") && message.contains("all of them fit"),
            "{message}"
        );
        assert_eq!(fix, Some(Encoding::Latin1));
        let (_, message, fix) = at("{ é ♠ }\n".as_bytes()).unwrap();
        assert!(
            message.contains("1 of them outside ISO 8859-1"),
            "{message}"
        );
        assert_eq!(fix, None);
        let (range, message, fix) = at(b"\xEF\xBB\xBF{ x }\n").unwrap();
        assert_eq!(range, 0..0);
        assert!(message.contains("byte order mark"), "{message}");
        assert_eq!(fix, Some(Encoding::Latin1));
        assert_eq!(
            at("\u{feff}{ ♠ }".as_bytes()).unwrap().2,
            Some(Encoding::Utf8)
        );
        // Bytes that ISO 8859-1 would turn back into UTF-8: no fix.
        assert_eq!(at("{ Ã© }".as_bytes()).unwrap().2, None);
        // ASCII, ISO 8859-1 and Windows-1252 files: nothing.
        for bytes in [
            &b"{ x }\n"[..],
            b"{ caf\xe9 }\n",
            b"%charset=windows-1252\n{ \x93 }\n",
        ] {
            assert_eq!(at(bytes), None, "{bytes:?}");
        }
        // An editor's buffer: nothing, whatever the file's bytes (a Latin-1
        // file with é reaches the server as UTF-8 text too).
        assert!(utf8_file_of(&SourceText::from_text("{ é }".into())).is_empty());
        assert_eq!(
            write_encoding(&crate::text::decode("{ é }".as_bytes())),
            Encoding::Latin1
        );
        assert_eq!(
            write_encoding(&crate::text::decode("{ ♠ }".as_bytes())),
            Encoding::Utf8
        );
    }

    /// A declared ISO-8859-1 that UTF-8 content contradicts (PBN0107) is
    /// fixed by writing ISO 8859-1 when that is possible, else by declaring
    /// UTF-8.
    #[test]
    fn charset_mismatch_takes_the_encoding_fix() {
        let fix_of = |text: &str| {
            let s = crate::text::decode(text.as_bytes());
            file_level(&s)
                .into_iter()
                .find(|d| std::ptr::eq(d.code, &c::CHARSET_MISMATCH))
                .and_then(|d| d.fix)
        };
        let f = fix_of("%charset=ISO-8859-1\n{ é }\n").unwrap();
        assert_eq!((f.encoding, f.edits.len()), (Some(Encoding::Latin1), 0));
        let f = fix_of("%charset=ISO-8859-1\n{ ♠ }\n").unwrap();
        assert_eq!((f.encoding, f.edits[0].new_text.as_str()), (None, "UTF-8"));
    }

    #[test]
    fn byte_classes_of_every_byte() {
        for c in 0u8..=255 {
            let want = ByteClasses {
                unusual: !((0x20..0x7f).contains(&c) || matches!(c, b'\t' | 0x0b | b'\n' | b'\r')),
                tab: matches!(c, b'\t' | 0x0b),
                non_ascii: c >= 0x80,
            };
            // Alone, and late in a long run of ordinary bytes.
            assert_eq!(ByteClasses::of(&[c]), want, "{c:#04x}");
            let mut long = vec![b'a'; 700];
            long[600] = c;
            assert_eq!(ByteClasses::of(&long), want, "{c:#04x} at 600");
        }
    }

    /// A run of one control character is one diagnostic over the run (a
    /// file of NULs took ~400 bytes a byte); different ones stay apart.
    #[test]
    fn a_run_of_one_control_character_is_one_diagnostic() {
        let mut out = Vec::new();
        characters(Encoding::Utf8, "a\0\0\0b\x01\x02\x02", 10, &mut out);
        let got: Vec<_> = out
            .iter()
            .map(|d| (d.range.clone(), d.message.to_string()))
            .collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].0, 11..14);
        assert!(
            got[0].1.starts_with("3 in a row: control character U+0000"),
            "{got:?}"
        );
        assert_eq!(got[1].0, 15..16);
        assert!(got[1].1.starts_with("control character U+0001"), "{got:?}");
        assert_eq!(got[2].0, 16..18);
        let mut out = Vec::new();
        characters(Encoding::Latin1, &"\0".repeat(1 << 20), 0, &mut out);
        assert_eq!(out.len(), 1);
    }

    /// The line-length rule against a byte-by-byte reading of the line ends
    /// (LF, CRLF, lone CR), on lines around the 255-character limit.
    #[test]
    fn long_lines_match_a_byte_by_byte_scan() {
        let reference = |text: &str| -> Vec<std::ops::Range<usize>> {
            let b = text.as_bytes();
            let mut lines = Vec::new();
            let (mut start, mut i) = (0, 0);
            while i < b.len() {
                if b[i] == b'\n' || b[i] == b'\r' {
                    lines.push(start..i);
                    if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    start = i + 1;
                }
                i += 1;
            }
            if start < b.len() {
                lines.push(start..b.len());
            }
            lines
                .into_iter()
                .filter(|r| text[r.clone()].chars().count() > 254)
                .collect()
        };
        let ends = ["\n", "\r", "\r\n", "\n\r", ""];
        let fills = ["x", "é"];
        for a in [0, 1, 253, 254, 255, 256, 300] {
            for b in [0, 254, 255, 256] {
                for e1 in ends {
                    for e2 in ends {
                        for f in fills {
                            let text = format!("{}{e1}{}{e2}x", f.repeat(a), "y".repeat(b));
                            let mut out = Vec::new();
                            let long = lines(&text, 7, &mut out);
                            let want = reference(&text);
                            assert_eq!(out.len(), want.len(), "{a} {b} {e1:?} {e2:?} {f}");
                            for (d, r) in out.iter().zip(&want) {
                                assert_eq!(d.range.end, r.end + 7, "{a} {b} {e1:?} {e2:?} {f}");
                            }
                            assert_eq!(
                                long,
                                reference_any_long(&text),
                                "{a} {b} {e1:?} {e2:?} {f}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Whether any line is over 255 bytes (what turns the token walk on).
    fn reference_any_long(text: &str) -> bool {
        text.split(['\n', '\r']).any(|l| l.len() > 255)
    }
}
