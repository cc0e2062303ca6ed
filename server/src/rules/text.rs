//! PBN01xx: characters, lines, tokens and encoding (§2.2, §2.3, §3.2).

use crate::codes::text as c;
use crate::diagnostic::Diagnostic;
use crate::syntax::{game_at, games, Trees};
use crate::text::{DecodeNote, Encoding, SourceText};
use tree_sitter::Node;

/// At most this many diagnostics of one code per file; the last one says
/// how many more there are.
const CAP: usize = 50;

pub fn check<T: Trees + ?Sized>(source: &SourceText, trees: &T) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    decode_notes(source, &mut out);
    characters(source, &mut out);
    let has_long_line = lines(text, &mut out);
    // The token walk only finds something when a token can be long, contain
    // a tab, or contain a non-ASCII character.
    if has_long_line || !text.is_ascii() || text.contains(['\t', '\u{b}']) {
        let (mut long, mut non_ascii) = (0, 0);
        for tree in trees.trees() {
            tokens(text, tree, &mut out, &mut long, &mut non_ascii);
        }
    }
    let (chunks, _) = games(trees);
    for d in &mut out {
        d.game = game_at(&chunks, d.range.start);
    }
    out
}

fn decode_notes(source: &SourceText, out: &mut Vec<Diagnostic>) {
    for n in &source.notes {
        match n {
            DecodeNote::CharsetMismatch { declared, used } => out.push(Diagnostic::new(
                &c::CHARSET_MISMATCH,
                charset_line(&source.text),
                format!("declared charset `{declared}` does not match the content; read as {} (§2.2)", used.name()),
            )),
            DecodeNote::UnknownCharset { charset } => out.push(Diagnostic::new(
                &c::UNKNOWN_CHARSET,
                charset_line(&source.text),
                format!("unknown charset `{charset}`; the encoding was detected from the content (§2.2)"),
            )),
            DecodeNote::NotUtf8 { .. } => {}
        }
    }
}

fn charset_line(text: &str) -> std::ops::Range<usize> {
    let lower = text.to_ascii_lowercase();
    match lower.find("charset=") {
        Some(i) => {
            let start = lower[..i].rfind('\n').map(|p| p + 1).unwrap_or(0);
            let end = lower[i..].find(['\n', '\r']).map(|p| i + p).unwrap_or(text.len());
            start..end
        }
        None => 0..0,
    }
}

fn characters(source: &SourceText, out: &mut Vec<Diagnostic>) {
    let text = source.text.as_str();
    let (mut control, mut wide, mut c1) = (0usize, 0usize, 0usize);
    let mut first_c1 = None;
    for (i, ch) in text.char_indices() {
        let code = ch as u32;
        let is_control = (code < 0x20 && !matches!(ch, '\t' | '\u{b}' | '\n' | '\r')) || code == 0x7f || (0x80..0xa0).contains(&code);
        if is_control {
            control += 1;
            if control <= CAP {
                out.push(Diagnostic::new(
                    &c::CONTROL_CHARACTER,
                    i..i + ch.len_utf8(),
                    if (0x80..0xa0).contains(&code) {
                        format!("byte 0x{code:02X} is a control character in ISO 8859-1 and not used for PBN data (§2.2); if the file is Windows-1252, declare it with `%Content-type: text/x-pbn; charset=windows-1252`")
                    } else {
                        format!("control character U+{code:04X} is not permitted in PBN data (§2.2)")
                    },
                ));
            }
        } else if code > 0xff && ch != '\u{feff}' {
            if source.encoding == Encoding::Windows1252 && is_cp1252_extra(ch) {
                c1 += 1;
                first_c1.get_or_insert(i..i + ch.len_utf8());
                continue;
            }
            wide += 1;
            if wide <= CAP {
                out.push(Diagnostic::new(
                    &c::NOT_LATIN1,
                    i..i + ch.len_utf8(),
                    format!("`{ch}` (U+{code:04X}) is not an ISO 8859-1 character (§2.2)"),
                ));
            }
        }
    }
    if let Some(r) = first_c1 {
        out.push(Diagnostic::new(
            &c::C1_CHARACTER,
            r,
            format!("the file uses {c1} Windows-1252 character(s) in the byte range 128–159, which ISO 8859-1 does not use for PBN data (§2.2)"),
        ));
    }
    for (count, code) in [(control, &c::CONTROL_CHARACTER), (wide, &c::NOT_LATIN1)] {
        if count > CAP {
            if let Some(last) = out.iter_mut().rev().find(|d| std::ptr::eq(d.code, code)) {
                last.message.push_str(&format!(" ({} more not shown)", count - CAP));
            }
        }
    }
}

fn is_cp1252_extra(ch: char) -> bool {
    let mut buf = [0u8; 4];
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(ch.encode_utf8(&mut buf));
    !unmappable && bytes.len() == 1 && (0x80..0xa0).contains(&bytes[0])
}

/// Reports long lines; returns whether any line is over 255 bytes.
fn lines(text: &str, out: &mut Vec<Diagnostic>) -> bool {
    let mut n = 0;
    let mut any_long = false;
    let mut start = 0;
    let b = text.as_bytes();
    let mut i = 0;
    let mut check = |start: usize, end: usize, out: &mut Vec<Diagnostic>| {
        let line = &text[start..end];
        // Fast path: a line of at most 254 bytes has at most 254 characters.
        if line.len() > 254 {
            any_long |= line.len() > 255;
            let chars = line.chars().count();
            if chars > 254 {
                n += 1;
                if n <= CAP {
                    let cut = line.char_indices().nth(254).map(|(o, _)| start + o).unwrap_or(end);
                    out.push(Diagnostic::new(
                        &c::LINE_TOO_LONG,
                        cut..end,
                        format!("line has {} characters plus its end-of-line; at most 255 including the end-of-line are allowed (§2.3)", chars),
                    ));
                }
            }
        }
    };
    while i < b.len() {
        if b[i] == b'\n' || b[i] == b'\r' {
            check(start, i, out);
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    if start < b.len() {
        check(start, b.len(), out);
    }
    any_long
}

fn tokens(text: &str, tree: &tree_sitter::Tree, out: &mut Vec<Diagnostic>, long: &mut usize, non_ascii: &mut usize) {
    let mut cursor = tree.walk();
    // Iterative pre-order walk over all nodes.
    loop {
        let node = cursor.node();
        if node.child_count() == 0 {
            leaf(text, node, out, long, non_ascii);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

fn leaf(text: &str, node: Node<'_>, out: &mut Vec<Diagnostic>, long: &mut usize, non_ascii: &mut usize) {
    let kind = node.kind();
    let r = node.byte_range();
    let s = &text[r.clone()];
    match kind {
        "comment" | "unterminated_comment" | "escape_line" | "game_break" => {}
        "string" | "unterminated_string" => {
            if let Some(p) = s.find(['\t', '\u{b}']) {
                out.push(Diagnostic::new(
                    &c::TAB_IN_STRING,
                    r.start + p..r.start + p + 1,
                    "tab character inside a string; tabs may not appear inside string data (§2.3)",
                ));
            }
        }
        _ => {
            if !s.is_ascii() && !node.is_error() {
                *non_ascii += 1;
                if *non_ascii <= CAP {
                    let p = s.find(|c: char| !c.is_ascii()).unwrap_or(0);
                    let ch = s[p..].chars().next().unwrap_or('?');
                    out.push(Diagnostic::new(
                        &c::NON_ASCII_SYMBOL,
                        r.start + p..r.start + p + ch.len_utf8(),
                        format!("non-ASCII character `{ch}` outside strings and comments; it may only appear in string data and commentary (§2.2)"),
                    ));
                }
            }
        }
    }
    if !matches!(kind, "comment" | "unterminated_comment" | "escape_line" | "game_break") && s.len() > 255 && s.chars().count() > 255 {
        *long += 1;
        if *long <= CAP {
            out.push(Diagnostic::new(
                &c::TOKEN_TOO_LONG,
                r.clone(),
                format!("token of {} characters; a token is at most 255 characters long (§3.2)", s.chars().count()),
            ));
        }
    }
}
