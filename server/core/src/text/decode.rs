use serde::Serialize;

/// The character encoding a file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// UTF-8 without a byte order mark (plain ASCII files are reported so).
    Utf8,
    /// UTF-8 starting with a byte order mark (kept when writing back).
    Utf8Bom,
    /// ISO 8859-1, the encoding PBN 2.1 §2.2 prescribes. Every byte maps to
    /// the code point of the same value, so reading and writing back is
    /// lossless for any input.
    Latin1,
    /// Windows-1252: used when the file declares it (`charset=windows-1252`);
    /// bytes 0x80–0x9F are then curly quotes, the euro sign, ….
    Windows1252,
    /// UTF-16, little endian (found by its byte order mark or by a NUL after
    /// every ASCII character). Not a PBN encoding (§2.2): decoded so the
    /// file can be checked, reported, and written back as UTF-8 only when
    /// asked to.
    Utf16Le,
    /// UTF-16, big endian (a NUL before every ASCII character).
    Utf16Be,
    /// UTF-32, little endian (three NULs after every ASCII character).
    Utf32Le,
    /// UTF-32, big endian (three NULs before every ASCII character).
    Utf32Be,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Latin1 => "iso-8859-1",
            Encoding::Windows1252 => "windows-1252",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Utf32Le => "utf-32le",
            Encoding::Utf32Be => "utf-32be",
        }
    }

    /// UTF-16 or UTF-32: an encoding PBN does not allow (§2.2), which
    /// [`encode`] writes as UTF-8.
    pub fn is_wide(self) -> bool {
        matches!(
            self,
            Encoding::Utf16Le | Encoding::Utf16Be | Encoding::Utf32Le | Encoding::Utf32Be
        )
    }
}

/// The line ending convention of a file (§2.3: export format uses CRLF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnding {
    Lf,
    CrLf,
    Cr,
    /// More than one convention; `dominant` is the most frequent one.
    Mixed,
    /// The file has no line break at all.
    None,
}

impl LineEnding {
    pub fn name(self) -> &'static str {
        match self {
            LineEnding::Lf => "lf",
            LineEnding::CrLf => "crlf",
            LineEnding::Cr => "cr",
            LineEnding::Mixed => "mixed",
            LineEnding::None => "none",
        }
    }
}

/// Something worth telling the user about how the bytes were read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeNote {
    /// The file is not valid UTF-8 and was read as Latin-1 / Windows-1252.
    /// `byte` is the first offending byte offset in the raw input.
    NotUtf8 { byte: usize },
    /// A `%Content-type: …; charset=X` line named an encoding this reader does
    /// not know; detection fell back to the content.
    UnknownCharset { charset: String },
    /// The declared charset disagrees with the content (e.g. declares
    /// ISO-8859-1 but is valid, non-ASCII UTF-8).
    CharsetMismatch { declared: String, used: Encoding },
    /// The file is UTF-16 or UTF-32 (`encoding`), found by its byte order
    /// mark (`bom`) or by the NULs between ASCII characters; it was decoded.
    Wide { encoding: Encoding, bom: bool },
}

/// A decoded PBN file.
#[derive(Clone, Debug)]
pub struct SourceText {
    /// The text, without a byte order mark.
    pub text: String,
    pub encoding: Encoding,
    pub line_ending: LineEnding,
    /// The most frequent line ending (CRLF when there is none), what a writer
    /// should use to "keep" the file's convention.
    pub dominant_line_ending: LineEnding,
    pub notes: Vec<DecodeNote>,
    /// Counts that whole-file rules ask for, computed on first use and
    /// carried through [`SourceText::edited`] (the language server must not
    /// scan a large document again on every keystroke).
    counts: std::sync::OnceLock<Counts>,
    /// Where the first `% EXPORT` escape line starts ([`SourceText::export_line`]),
    /// computed on first use and carried through [`SourceText::replace`] by
    /// looking at the edited lines only.
    export_line: std::sync::OnceLock<Option<usize>>,
    /// The line ends of each kind, what `line_ending` and
    /// `dominant_line_ending` come from; kept by [`SourceText::replace`]
    /// from the edited bytes.
    ends: LineEnds,
    /// The text was decoded from a file's bytes ([`decode`]), so
    /// `encoding` is the file's; an editor's buffer ([`SourceText::from_text`],
    /// [`SourceText::replace`]) is UTF-8 text whose file encoding is the
    /// editor's business.
    from_bytes: bool,
}

/// Line ends by kind (a CR followed by an LF is one CRLF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LineEnds {
    crlf: usize,
    lf: usize,
    cr: usize,
}

impl LineEnds {
    fn of(b: &[u8]) -> LineEnds {
        // Without a CR, only LFs (one fast count).
        if memchr::memchr(b'\r', b).is_none() {
            return LineEnds {
                lf: memchr::memchr_iter(b'\n', b).count(),
                ..LineEnds::default()
            };
        }
        LineEnds::starting_in(b, 0, b.len())
    }

    /// The line ends of `b` that start in `from..to` (the bytes around
    /// tell whether a CR there is followed by an LF, and whether an LF
    /// there ends a CRLF that started before).
    fn starting_in(b: &[u8], from: usize, to: usize) -> LineEnds {
        let mut e = LineEnds::default();
        for i in memchr::memchr2_iter(b'\n', b'\r', &b[from..to]).map(|i| from + i) {
            match b[i] {
                b'\r' if b.get(i + 1) == Some(&b'\n') => e.crlf += 1,
                b'\r' => e.cr += 1,
                _ if i > 0 && b[i - 1] == b'\r' => {} // the LF of a CRLF
                _ => e.lf += 1,
            }
        }
        e
    }

    /// The file's line ending (one kind, none or mixed) and the most
    /// frequent one (CRLF when there is none).
    fn kinds(&self) -> (LineEnding, LineEnding) {
        let kinds = [
            (self.crlf, LineEnding::CrLf),
            (self.lf, LineEnding::Lf),
            (self.cr, LineEnding::Cr),
        ];
        let present = kinds.iter().filter(|(n, _)| *n > 0).count();
        let dominant = kinds
            .iter()
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, _)| *n)
            .map(|(_, k)| *k)
            .unwrap_or(LineEnding::CrLf);
        let ending = match present {
            0 => LineEnding::None,
            1 => dominant,
            _ => LineEnding::Mixed,
        };
        (ending, dominant)
    }
}

/// What [`SourceText::has_tab`] and [`SourceText::uses_hash_values`] count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Tab and vertical tab characters (export format forbids them, §2.3).
    tabs: usize,
    /// `#` characters: without one, no tag value inherits (§4.8). (Any
    /// `#`, not only `"#`: the reader takes an unquoted `##` value too;
    /// found by fuzzing.)
    hashes: usize,
    /// Characters outside ASCII: the lead bytes of the text's UTF-8
    /// sequences (0xC0 and up; an edit on character boundaries adds and
    /// removes whole sequences, so the count stays exact).
    non_ascii: usize,
    /// Characters above U+00FF, which ISO 8859-1 cannot hold: the lead
    /// bytes from 0xC4 (U+0100 is `C4 80`).
    non_latin1: usize,
}

impl Counts {
    fn of(b: &[u8]) -> Counts {
        let tabs = memchr::memchr2_iter(b'\t', 0x0b, b).count();
        let hashes = memchr::memchr_iter(b'#', b).count();
        // Branch-free counts (vectorised); ASCII text is the common case.
        let (non_ascii, non_latin1) = if b.is_ascii() {
            (0, 0)
        } else {
            (
                b.iter().map(|&c| usize::from(c >= 0xC0)).sum(),
                b.iter().map(|&c| usize::from(c >= 0xC4)).sum(),
            )
        };
        Counts {
            tabs,
            hashes,
            non_ascii,
            non_latin1,
        }
    }
}

impl SourceText {
    /// Text that is already decoded (an editor buffer): UTF-8, line endings
    /// detected from the text.
    pub fn from_text(text: String) -> SourceText {
        let ends = LineEnds::of(text.as_bytes());
        let (line_ending, dominant_line_ending) = ends.kinds();
        SourceText {
            text,
            encoding: Encoding::Utf8,
            line_ending,
            dominant_line_ending,
            notes: Vec::new(),
            counts: Default::default(),
            export_line: Default::default(),
            ends,
            from_bytes: false,
        }
    }

    /// A source of `text` read as this one was: the same encoding, decode
    /// notes and origin (what a fix of the text gives; the writer writes
    /// it in the same encoding).
    pub fn with_text(&self, text: String) -> SourceText {
        let mut s = SourceText::from_text(text);
        s.encoding = self.encoding;
        s.notes = self.notes.clone();
        s.from_bytes = self.from_bytes;
        s
    }

    /// Whether the text was decoded from a file's bytes, so that
    /// [`SourceText::encoding`] is the file's (an editor's buffer is not:
    /// the editor chooses how to save it).
    pub fn from_bytes(&self) -> bool {
        self.from_bytes
    }

    /// How many characters of the text are outside ASCII.
    pub fn non_ascii_chars(&self) -> usize {
        self.counts().non_ascii
    }

    /// How many characters of the text ISO 8859-1 cannot hold (above U+00FF).
    pub fn non_latin1_chars(&self) -> usize {
        self.counts().non_latin1
    }

    fn counts(&self) -> Counts {
        *self.counts.get_or_init(|| Counts::of(self.text.as_bytes()))
    }

    /// The text holds a tab or vertical tab character.
    pub fn has_tab(&self) -> bool {
        self.counts().tabs > 0
    }

    /// The text holds a `#`, so some tag value may inherit (§4.8).
    pub fn uses_hash_values(&self) -> bool {
        self.counts().hashes > 0
    }

    /// Where the first `% EXPORT` escape line (§2.4) starts, anywhere in
    /// the text: from there on, export rules apply. Found once by a scan of
    /// the text and then kept up to date by [`SourceText::replace`], which
    /// looks at the edited lines only (the language server asks on every
    /// edit, and most files in import format have no such line: a scan of
    /// 100 MB per keystroke cost more than the rest of the check).
    pub fn export_line(&self) -> Option<usize> {
        *self
            .export_line
            .get_or_init(|| export_line_in(&self.text, 0, self.text.len()))
    }

    /// [`SourceText::replace`] on a copy; `text` is the result, where the
    /// inserted text is `start..new_end`.
    pub fn edited(&self, text: String, start: usize, old_end: usize, new_end: usize) -> SourceText {
        let mut out = self.clone();
        out.replace(start, old_end, &text[start..new_end]);
        debug_assert_eq!(out.text, text);
        out
    }

    /// Replaces `start..old_end` of the text with `new`, in place, keeping
    /// the line-ending statistics, the counts of [`SourceText::has_tab`]
    /// and [`SourceText::uses_hash_values`] and [`SourceText::export_line`]
    /// up to date from the edited bytes and lines. (The language server
    /// calls this on every edit; copying or scanning a large document again
    /// would dominate.) Edited text is the editor's: UTF-8, without
    /// decoding notes.
    pub fn replace(&mut self, start: usize, old_end: usize, new: &str) {
        let old = self.text.as_bytes();
        let new_end = start + new.len();
        // The line ends that start from the byte before the edit to the
        // byte after it: the only ones an edit can add, remove or change
        // (a CR before it may meet an LF after it).
        let from = start.saturating_sub(1);
        let removed = LineEnds::starting_in(old, from, (old_end + 1).min(old.len()));
        // The counts: less what the edit removed, plus what it inserted.
        let counts = self.counts.get().map(|c| {
            let (out, into) = (Counts::of(&old[start..old_end]), Counts::of(new.as_bytes()));
            Counts {
                tabs: c.tabs - out.tabs + into.tabs,
                hashes: c.hashes - out.hashes + into.hashes,
                non_ascii: c.non_ascii - out.non_ascii + into.non_ascii,
                non_latin1: c.non_latin1 - out.non_latin1 + into.non_latin1,
            }
        });
        let export_line = self.export_line.get().copied();
        self.text.replace_range(start..old_end, new);
        let export_line =
            export_line.map(|e| export_line_after_edit(&self.text, e, start, old_end, new_end));
        let b = self.text.as_bytes();
        let added = LineEnds::starting_in(b, from, (new_end + 1).min(b.len()));
        let e = self.ends;
        self.ends = LineEnds {
            crlf: e.crlf - removed.crlf + added.crlf,
            lf: e.lf - removed.lf + added.lf,
            cr: e.cr - removed.cr + added.cr,
        };
        (self.line_ending, self.dominant_line_ending) = self.ends.kinds();
        self.encoding = Encoding::Utf8;
        self.from_bytes = false;
        self.notes.clear();
        self.counts = std::sync::OnceLock::new();
        if let Some(c) = counts {
            let _ = self.counts.set(c);
        }
        self.export_line = std::sync::OnceLock::new();
        if let Some(e) = export_line {
            let _ = self.export_line.set(e);
        }
    }
}

/// Whether `line` (without its line end) is a `% EXPORT` escape line
/// (§2.4): a `%` in column 1, and `EXPORT` among the words after it.
pub fn is_export_line(line: &str) -> bool {
    line.strip_prefix('%')
        .is_some_and(|rest| rest.split_whitespace().any(|w| w == "EXPORT"))
}

/// The start of the first `% EXPORT` escape line among the lines of `text`
/// that start in `from..to` (`from` a line start; lines end at LF, and CRs
/// before it are not part of the line). Only the lines holding the word
/// `EXPORT` are looked at.
fn export_line_in(text: &str, from: usize, to: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = from;
    while at < to {
        let hit = at + memchr::memmem::find(&b[at..], b"EXPORT")?;
        let line = memchr::memrchr(b'\n', &b[at..hit]).map_or(at, |i| at + i + 1);
        if line >= to {
            return None;
        }
        let end = memchr::memchr(b'\n', &b[hit..]).map_or(b.len(), |i| hit + i);
        if is_export_line(text[line..end].trim_end_matches('\r')) {
            return Some(line);
        }
        at = end + 1;
    }
    None
}

/// [`SourceText::export_line`] after `start..old_end` of a text whose
/// first export line was `old` became `start..new_end` of `text`: the lines
/// before the edited ones and after them are as they were (moved by the
/// edit's length difference after it), so only the edited lines are
/// scanned, and the rest of the text only when the edit removed the
/// export line itself.
fn export_line_after_edit(
    text: &str,
    old: Option<usize>,
    start: usize,
    old_end: usize,
    new_end: usize,
) -> Option<usize> {
    let b = text.as_bytes();
    // The edited lines, in the new text: from the start of the line the
    // edit starts in to the end of the line its insert ends in.
    let first = memchr::memrchr(b'\n', &b[..start]).map_or(0, |i| i + 1);
    let after = memchr::memchr(b'\n', &b[new_end..]).map_or(b.len(), |i| new_end + i + 1);
    match old {
        Some(p) if p < first => return Some(p),
        _ => {}
    }
    if let Some(q) = export_line_in(text, first, after) {
        return Some(q);
    }
    // Where the unchanged lines after the edit started before it.
    let old_after = after + old_end - new_end;
    match old {
        None => None,
        Some(p) if p >= old_after => Some(p + new_end - old_end),
        Some(_) => export_line_in(text, after, b.len()),
    }
}

/// Decodes raw bytes. Never fails.
///
/// Order of detection: a UTF-8 byte order mark; a `%Content-type: …;
/// charset=…` escape line (§2.4) near the top; valid UTF-8; otherwise
/// Latin-1 (Windows-1252 only when declared).
pub fn decode(bytes: &[u8]) -> SourceText {
    decode_cow(std::borrow::Cow::Borrowed(bytes))
}

/// [`decode`] of bytes the caller no longer needs: valid UTF-8 (the usual
/// case) becomes the text without a copy.
pub fn decode_owned(bytes: Vec<u8>) -> SourceText {
    decode_cow(std::borrow::Cow::Owned(bytes))
}

fn decode_cow(bytes: std::borrow::Cow<'_, [u8]>) -> SourceText {
    let mut notes = Vec::new();
    let (text, encoding) = if let Some((encoding, bom)) = wide(&bytes) {
        notes.push(DecodeNote::Wide { encoding, bom });
        (decode_wide(&bytes, encoding, bom), encoding)
    } else if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        (
            String::from_utf8_lossy(rest).into_owned(),
            Encoding::Utf8Bom,
        )
    } else {
        let declared = declared_charset(&bytes);
        match std::str::from_utf8(&bytes) {
            // Valid UTF-8 is read as UTF-8 whatever the declaration says.
            Ok(s) => {
                match declared.as_deref() {
                    Some(cs) if is_utf8_label(cs) => {}
                    // Declared Latin-1 but valid UTF-8 with non-ASCII: the
                    // declaration is wrong (seen in real files); trust content.
                    Some(cs) if is_latin1_label(cs) || is_cp1252_label(cs) => {
                        notes.extend((!s.is_ascii()).then(|| DecodeNote::CharsetMismatch {
                            declared: cs.to_owned(),
                            used: Encoding::Utf8,
                        }));
                    }
                    // Declared Latin-1 and plain ASCII: both agree.
                    Some(cs) if is_latin1_label(cs) || is_cp1252_label(cs) => {}
                    Some(cs) => notes.push(DecodeNote::UnknownCharset {
                        charset: cs.to_owned(),
                    }),
                    None => {}
                }
                let copy = matches!(bytes, std::borrow::Cow::Borrowed(_)).then(|| s.to_owned());
                let text = copy.unwrap_or_else(|| {
                    String::from_utf8(bytes.into_owned())
                        .expect("the bytes were just found to be valid UTF-8")
                });
                (text, Encoding::Utf8)
            }
            Err(e) => match declared.as_deref() {
                Some(cs) if is_utf8_label(cs) => {
                    notes.push(DecodeNote::NotUtf8 {
                        byte: e.valid_up_to(),
                    });
                    single_byte(&bytes)
                }
                Some(cs) if is_cp1252_label(cs) => (decode_cp1252(&bytes), Encoding::Windows1252),
                Some(cs) if is_latin1_label(cs) => single_byte(&bytes),
                other => {
                    if let Some(cs) = other {
                        notes.push(DecodeNote::UnknownCharset {
                            charset: cs.to_owned(),
                        });
                    }
                    notes.push(DecodeNote::NotUtf8 {
                        byte: e.valid_up_to(),
                    });
                    single_byte(&bytes)
                }
            },
        }
    };
    let ends = LineEnds::of(text.as_bytes());
    let (line_ending, dominant_line_ending) = ends.kinds();
    SourceText {
        text,
        encoding,
        line_ending,
        dominant_line_ending,
        notes,
        counts: Default::default(),
        export_line: Default::default(),
        ends,
        from_bytes: true,
    }
}

/// How many bytes [`wide`] looks at for NUL patterns.
const SNIFF: usize = 1024;

/// Whether `bytes` are UTF-16 or UTF-32, and whether they start with a byte
/// order mark. By the mark (UTF-32 first: its little-endian mark starts
/// with UTF-16's) unless a `charset=` line readable as ASCII says otherwise
/// (such a file is not UTF-16, a fuzz finding); else by NULs in the first
/// KiB: three quarters of the code units are an ASCII character next to
/// NULs. A file of NULs only is none of these (nothing between the NULs).
fn wide(bytes: &[u8]) -> Option<(Encoding, bool)> {
    if declared_charset(bytes).is_some() {
        return None;
    }
    let marks: [(&[u8], Encoding); 4] = [
        (b"\xFF\xFE\0\0", Encoding::Utf32Le),
        (b"\0\0\xFE\xFF", Encoding::Utf32Be),
        (b"\xFF\xFE", Encoding::Utf16Le),
        (b"\xFE\xFF", Encoding::Utf16Be),
    ];
    if let Some((_, e)) = marks.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some((*e, true));
    }
    let head = &bytes[..bytes.len().min(SNIFF)];
    let mostly = |units: usize, hits: usize| units >= 2 && hits * 4 >= units * 3;
    let quads = head.chunks_exact(4);
    let n = quads.len();
    let (mut le, mut be) = (0, 0);
    for q in quads {
        le += usize::from(q[0] != 0 && q[1..] == [0, 0, 0]);
        be += usize::from(q[3] != 0 && q[..3] == [0, 0, 0]);
    }
    if mostly(n, le) {
        return Some((Encoding::Utf32Le, false));
    }
    if mostly(n, be) {
        return Some((Encoding::Utf32Be, false));
    }
    let pairs = head.chunks_exact(2);
    let n = pairs.len();
    let (mut le, mut be) = (0, 0);
    for p in pairs {
        le += usize::from(p[0] != 0 && p[1] == 0);
        be += usize::from(p[0] == 0 && p[1] != 0);
    }
    if mostly(n, le) {
        return Some((Encoding::Utf16Le, false));
    }
    if mostly(n, be) {
        return Some((Encoding::Utf16Be, false));
    }
    None
}

/// UTF-16 (with encoding_rs) or UTF-32 (by hand: encoding_rs has no
/// UTF-32) without the byte order mark; what is not a character (a lone
/// surrogate, a value above U+10FFFF, a last incomplete unit) becomes
/// U+FFFD.
fn decode_wide(bytes: &[u8], encoding: Encoding, bom: bool) -> String {
    let body = match (encoding, bom) {
        (Encoding::Utf32Le | Encoding::Utf32Be, true) => &bytes[4..],
        (_, true) => &bytes[2..],
        (_, false) => bytes,
    };
    let utf32 = |b: [u8; 4]| match encoding {
        Encoding::Utf32Le => u32::from_le_bytes(b),
        _ => u32::from_be_bytes(b),
    };
    match encoding {
        Encoding::Utf16Le => encoding_rs::UTF_16LE
            .decode_without_bom_handling(body)
            .0
            .into_owned(),
        Encoding::Utf16Be => encoding_rs::UTF_16BE
            .decode_without_bom_handling(body)
            .0
            .into_owned(),
        _ => {
            let units = body.chunks_exact(4);
            let partial = !units.remainder().is_empty();
            let mut s = String::with_capacity(body.len() / 4);
            for u in units {
                let c = char::from_u32(utf32([u[0], u[1], u[2], u[3]]));
                s.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            if partial {
                s.push(char::REPLACEMENT_CHARACTER);
            }
            s
        }
    }
}

/// Not UTF-8 and not declared otherwise: ISO 8859-1, as §2.2 prescribes.
/// Bytes 0x80–0x9F become the C1 control characters U+0080–U+009F (which
/// the checker reports; they are often Windows-1252 curly quotes). Reading
/// is lossless: writing back gives the same bytes.
fn single_byte(bytes: &[u8]) -> (String, Encoding) {
    (bytes.iter().map(|&b| b as char).collect(), Encoding::Latin1)
}

/// Declared Windows-1252: every byte is one character. Without BOM
/// handling: `Encoding::decode` would read a file that begins with `FE FF`
/// or `FF FE` as UTF-16 whatever it declares, and a file whose `%` line is
/// readable as ASCII is not UTF-16 (a fuzz finding, ROBUSTNESS.md).
fn decode_cp1252(bytes: &[u8]) -> String {
    let (s, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
    s.into_owned()
}

/// Encodes text back into `encoding`. Characters the encoding cannot hold
/// are written as `?` (§2.2 suggests `?` for characters that cannot be
/// shown); the count of such replacements is returned so callers can refuse
/// or warn.
pub fn encode(text: &str, encoding: Encoding) -> (Vec<u8>, usize) {
    match encoding {
        Encoding::Utf8 => (text.as_bytes().to_vec(), 0),
        Encoding::Utf8Bom => {
            let mut v = b"\xEF\xBB\xBF".to_vec();
            v.extend_from_slice(text.as_bytes());
            (v, 0)
        }
        Encoding::Latin1 => {
            let mut lost = 0;
            let v = text
                .chars()
                .map(|c| {
                    if (c as u32) < 256 {
                        c as u8
                    } else {
                        lost += 1;
                        b'?'
                    }
                })
                .collect();
            (v, lost)
        }
        Encoding::Windows1252 => {
            let mut out = Vec::with_capacity(text.len());
            let mut lost = 0;
            let mut buf = [0u8; 4];
            for c in text.chars() {
                let s = c.encode_utf8(&mut buf);
                let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(s);
                if unmappable {
                    lost += 1;
                    out.push(b'?');
                } else {
                    out.extend_from_slice(&bytes);
                }
            }
            (out, lost)
        }
        // PBN has no UTF-16 or UTF-32 (§2.2): such a file is written back
        // as UTF-8 (`pbn fmt` does so only with --force).
        Encoding::Utf16Le | Encoding::Utf16Be | Encoding::Utf32Le | Encoding::Utf32Be => {
            (text.as_bytes().to_vec(), 0)
        }
    }
}

/// `source` as it reads after being written in `to` (ISO 8859-1, what
/// PBN 2.1 §2.2 prescribes, or UTF-8 without a byte order mark): a
/// `charset=` declaration naming another encoding is rewritten to
/// `ISO-8859-1` when ISO 8859-1 is written for a text that is not ASCII,
/// and the text is encoded and decoded again. `None` when that does not
/// give the same text back: a character ISO 8859-1 cannot hold, or bytes a
/// reader (this one included) takes for UTF-8 or UTF-16 (`Ã©` written in
/// ISO 8859-1 is the UTF-8 of `é`; a text starting `ÿþ` is a UTF-16 byte
/// order mark).
pub fn reencoded(source: &SourceText, to: Encoding) -> Option<SourceText> {
    let mut text = source.text.clone();
    if to == Encoding::Latin1 && !text.is_ascii() {
        if let Some(r) = declared_charset_range(text.as_bytes()) {
            let name = &text[r.clone()];
            if !is_latin1_label(name) || name.to_ascii_lowercase().contains("ascii") {
                text.replace_range(r, "ISO-8859-1");
            }
        }
    }
    let (bytes, lost) = encode(&text, to);
    if lost > 0 {
        return None;
    }
    let back = decode_owned(bytes);
    (back.text == text).then_some(back)
}

/// Looks for `%Content-type: text/x-pbn; charset=ISO-8859-1` (or any `%`
/// line with `charset=`) in the first 4 KiB.
fn declared_charset(bytes: &[u8]) -> Option<String> {
    declared_charset_range(bytes).map(|r| String::from_utf8_lossy(&bytes[r]).into_owned())
}

/// Where [`declared_charset`]'s name is in `bytes` (what a fix of the
/// declaration replaces).
pub fn declared_charset_range(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
    let head = &bytes[..bytes.len().min(4096)];
    let mut start = 0;
    for line in head.split(|&b| b == b'\n' || b == b'\r') {
        let line_start = start;
        start += line.len() + 1;
        if line.first() != Some(&b'%') {
            continue;
        }
        let lower: Vec<u8> = line.iter().map(|b| b.to_ascii_lowercase()).collect();
        if let Some(pos) = find(&lower, b"charset=") {
            let rest = &line[pos + 8..];
            let n = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
                .count();
            if n > 0 {
                let at = line_start + pos + 8;
                return Some(at..at + n);
            }
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn is_utf8_label(cs: &str) -> bool {
    matches!(cs.to_ascii_lowercase().as_str(), "utf-8" | "utf8")
}

fn is_latin1_label(cs: &str) -> bool {
    matches!(
        cs.to_ascii_lowercase().as_str(),
        "iso-8859-1"
            | "iso8859-1"
            | "iso_8859-1"
            | "latin1"
            | "latin-1"
            | "l1"
            | "us-ascii"
            | "ascii"
    )
}

fn is_cp1252_label(cs: &str) -> bool {
    matches!(
        cs.to_ascii_lowercase().as_str(),
        "windows-1252" | "cp1252" | "x-cp1252"
    )
}

#[cfg(test)]
fn detect_line_ending(text: &str) -> (LineEnding, LineEnding) {
    LineEnds::of(text.as_bytes()).kinds()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edit of every text (replacing any range by any insert), with
    /// the source of the text (its counts computed first) and the source
    /// `edited` gives; the expected text is checked here.
    fn each_edit(texts: &[&str], inserts: &[&str], check: impl Fn(&str, &SourceText, &str)) {
        for t in texts {
            let src = SourceText::from_text(t.to_string());
            assert_eq!(src.counts(), Counts::of(t.as_bytes()));
            assert_eq!(src.export_line(), export_line_by_lines(t));
            for start in (0..=t.len()).filter(|&i| t.is_char_boundary(i)) {
                for end in (start..=t.len()).filter(|&i| t.is_char_boundary(i)) {
                    for ins in inserts {
                        let mut next = t.to_string();
                        next.replace_range(start..end, ins);
                        let e = src.edited(next.clone(), start, end, start + ins.len());
                        assert_eq!(e.text, next);
                        check(&format!("{t:?} {start}..{end} {ins:?}"), &e, &next);
                    }
                }
            }
        }
    }

    /// `SourceText::edited` gives the line-ending statistics a fresh
    /// `from_text` would, for edits that keep them and edits that do not.
    #[test]
    fn edited_keeps_or_recounts_line_endings() {
        let texts = [
            "a\r\nb\r\nc",
            "a\nb\r\nc\rd",
            "a\rxb",
            "abc",
            "a\nb\n",
            "\r\r\n\n\r",
            "\n\r",
        ];
        let inserts = ["", "x", "\n", "\r", "\r\n", "é", "\n\r", "\r\r\n"];
        each_edit(&texts, &inserts, |what, e, next| {
            let f = SourceText::from_text(next.to_owned());
            assert_eq!(
                (e.line_ending, e.dominant_line_ending),
                (f.line_ending, f.dominant_line_ending),
                "{what}"
            );
            assert_eq!(e.ends, f.ends, "{what}");
        });
    }

    /// The tab and `#` counts carried through `edited` equal a fresh count,
    /// whatever the edit removes or inserts.
    #[test]
    fn edited_keeps_the_counts() {
        let texts = ["[A \"#\"]\t", "\"#\"##\"", "ab\u{b}c", "#\"", "", "é♠ÿ"];
        let inserts = ["", "\"", "#", "\"#", "\t", "x", "é\"", "♠", "\u{100}"];
        each_edit(&texts, &inserts, |what, e, next| {
            assert_eq!(
                e.counts.get().copied(),
                Some(Counts::of(next.as_bytes())),
                "{what}"
            );
            assert_eq!(
                (e.has_tab(), e.uses_hash_values()),
                (next.contains(['\t', '\u{b}']), next.contains('#')),
                "{what}"
            );
        });
    }

    /// The first `% EXPORT` line as the reader found it before it was kept
    /// through edits: every line split off and looked at.
    fn export_line_by_lines(text: &str) -> Option<usize> {
        let mut off = 0;
        for line in text.split_inclusive('\n') {
            if is_export_line(line.trim_end_matches(['\r', '\n'])) {
                return Some(off);
            }
            off += line.len();
        }
        None
    }

    /// The export line carried through `edited` is the one a scan of the
    /// edited text finds, whatever the edit removes or inserts: an export
    /// line before, in or after the edited lines, made or broken by the
    /// edit, one of several.
    #[test]
    fn edited_keeps_the_export_line() {
        let texts = [
            "% EXPORT\n[A \"x\"]\n",
            "[A \"x\"]\n% EXPORT\r\n[B \"y\"]\n%  EXPORT x\n",
            "a\n%EXPORT\nb\n% EXPORT\n",
            "EXPORT\n% EXPORTS\n%\tEXPORT",
            "% PBN 2.1\n\n[A \"\"]",
            "",
        ];
        let inserts = [
            "",
            "%",
            " ",
            "\n",
            "\r\n",
            "EXPORT",
            "% EXPORT\n",
            "x",
            "T\n%",
        ];
        each_edit(&texts, &inserts, |what, e, next| {
            assert_eq!(
                e.export_line.get().copied(),
                Some(export_line_by_lines(next)),
                "{what}"
            );
        });
        // Not asked for before the edit: found by a scan after it.
        let src = SourceText::from_text("[A \"x\"]\n".into());
        let e = src.edited("% EXPORT\n[A \"x\"]\n".into(), 0, 0, 9);
        assert_eq!(e.export_line.get(), None);
        assert_eq!(e.export_line(), Some(0));
    }

    /// The scan for the export line looks only at lines holding `EXPORT`,
    /// and finds what a scan of every line finds.
    #[test]
    fn export_line_scan() {
        for t in [
            "",
            "EXPORT",
            "%EXPORT",
            "x\n% a EXPORT b\r\r\n",
            "% EXPORTx\n%EXPORT\n",
            "a EXPORT\n%\u{a0}EXPORT",
            "\n\n% EXPORT",
        ] {
            assert_eq!(
                export_line_in(t, 0, t.len()),
                export_line_by_lines(t),
                "{t:?}"
            );
            assert_eq!(
                SourceText::from_text(t.into()).export_line(),
                export_line_by_lines(t),
                "{t:?}"
            );
        }
    }

    /// Non-ASCII and non-Latin-1 characters are counted by their lead
    /// bytes: U+00FF is the last character ISO 8859-1 holds.
    #[test]
    fn non_ascii_counts() {
        let s = SourceText::from_text("a\u{80}é\u{ff}\u{100}♠😀".into());
        assert_eq!((s.non_ascii_chars(), s.non_latin1_chars()), (6, 3));
        let s = decode(b"caf\xe9");
        assert_eq!((s.non_ascii_chars(), s.non_latin1_chars()), (1, 0));
        assert!(s.from_bytes() && !SourceText::from_text(String::new()).from_bytes());
    }

    /// A UTF-8 text written in ISO 8859-1 reads the same, its declaration
    /// rewritten; what cannot be written so, or would read back as
    /// something else, is `None`.
    #[test]
    fn reencoded_in_latin1() {
        let s = decode("[Event \"Café\"]\r\n".as_bytes());
        let r = reencoded(&s, Encoding::Latin1).unwrap();
        assert_eq!(
            (r.encoding, r.text.as_str()),
            (Encoding::Latin1, s.text.as_str())
        );
        assert_eq!(encode(&r.text, r.encoding).0, b"[Event \"Caf\xe9\"]\r\n");
        for utf8 in ["{ 4♠ }", "{ Ã© }", "ÿþ{ x }"] {
            assert!(
                reencoded(&decode(utf8.as_bytes()), Encoding::Latin1).is_none(),
                "{utf8}"
            );
        }
        for (declared, kept) in [
            ("UTF-8", false),
            ("us-ascii", false),
            ("klingon", false),
            ("latin1", true),
        ] {
            let text = format!("%Content-type: text/x-pbn; charset={declared}\n{{ é }}\n");
            let r = reencoded(&decode(text.as_bytes()), Encoding::Latin1).unwrap();
            let want = if kept { declared } else { "ISO-8859-1" };
            assert_eq!(
                r.text,
                format!("%Content-type: text/x-pbn; charset={want}\n{{ é }}\n")
            );
            assert!(
                r.notes
                    .iter()
                    .all(|n| matches!(n, DecodeNote::NotUtf8 { .. })),
                "{:?}",
                r.notes
            );
        }
        // ASCII keeps its declaration; a byte order mark is dropped.
        let s = decode(b"\xEF\xBB\xBF%charset=UTF-8\n[Event \"x\"]\n");
        let r = reencoded(&s, Encoding::Latin1).unwrap();
        assert_eq!(
            (r.encoding, r.text.as_str()),
            (Encoding::Utf8, s.text.as_str())
        );
        let s = decode("\u{feff}{ ♠ }".as_bytes());
        assert_eq!(s.encoding, Encoding::Utf8Bom);
        assert_eq!(
            reencoded(&s, Encoding::Utf8).unwrap().encoding,
            Encoding::Utf8
        );
    }

    #[test]
    fn utf8_plain() {
        let s = decode(b"[Event \"x\"]\r\n");
        assert_eq!(s.encoding, Encoding::Utf8);
        assert_eq!(s.line_ending, LineEnding::CrLf);
        assert!(s.notes.is_empty());
    }

    #[test]
    fn bom_is_stripped_and_remembered() {
        let s = decode(b"\xEF\xBB\xBF% PBN 2.1\n");
        assert_eq!(s.encoding, Encoding::Utf8Bom);
        assert_eq!(s.text, "% PBN 2.1\n");
        assert_eq!(encode(&s.text, s.encoding).0, b"\xEF\xBB\xBF% PBN 2.1\n");
    }

    #[test]
    fn latin1_roundtrips_every_byte() {
        let bytes: Vec<u8> = (0u8..=255).filter(|b| !(0x80..0xA0).contains(b)).collect();
        let s = decode(&bytes);
        assert_eq!(s.encoding, Encoding::Latin1);
        assert_eq!(encode(&s.text, s.encoding), (bytes, 0));
        assert!(matches!(s.notes[0], DecodeNote::NotUtf8 { .. }));
    }

    #[test]
    fn c1_bytes_stay_latin1_unless_declared() {
        let s = decode(b"{ \x93quoted\x94 caf\xe9 }\n");
        assert_eq!(s.encoding, Encoding::Latin1);
        assert_eq!(s.text, "{ \u{93}quoted\u{94} caf\u{e9} }\n");
        assert_eq!(
            encode(&s.text, s.encoding).0,
            b"{ \x93quoted\x94 caf\xe9 }\n"
        );
        let s = decode(b"%charset=windows-1252\n{ \x93quoted\x94 caf\xe9 }\n");
        assert_eq!(s.encoding, Encoding::Windows1252);
        let s = decode(b"{ \x93quoted\x94 caf\xe9 }\n");
        assert_eq!(s.text, "{ \u{93}quoted\u{94} caf\u{e9} }\n");
    }

    /// A declared Windows-1252 file that begins with the bytes of a UTF-16
    /// byte-order mark is still Windows-1252: one character a byte, and
    /// written back byte for byte, not read as UTF-16 (a fuzz finding).
    #[test]
    fn declared_cp1252_is_not_sniffed_for_a_utf16_bom() {
        for bom in [&b"\xFE\xFF"[..], b"\xFF\xFE"] {
            let bytes = [bom, b"\r\n%charset=windows-1252\r\n{ caf\xe9 \x93 }\r\n"].concat();
            let s = decode(&bytes);
            assert_eq!(s.encoding, Encoding::Windows1252);
            assert_eq!(s.text.chars().count(), bytes.len(), "{:?}", s.text);
            assert_eq!(encode(&s.text, s.encoding), (bytes.clone(), 0));
        }
    }

    fn utf16(s: &str, big: bool) -> Vec<u8> {
        s.encode_utf16()
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    fn utf32(s: &str, big: bool) -> Vec<u8> {
        s.chars()
            .flat_map(|c| {
                let u = c as u32;
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    /// UTF-16 and UTF-32, with a byte order mark or found by their NULs,
    /// are decoded to the same text and reported once; writing back gives
    /// UTF-8.
    #[test]
    fn utf16_and_utf32_are_recognised_and_decoded() {
        let text = "[Event \"Café ♠\"]\r\n[Dealer \"N\"]\r\n";
        let cases: [(Vec<u8>, Encoding, bool); 8] = [
            (
                [&b"\xFF\xFE"[..], &utf16(text, false)].concat(),
                Encoding::Utf16Le,
                true,
            ),
            (
                [&b"\xFE\xFF"[..], &utf16(text, true)].concat(),
                Encoding::Utf16Be,
                true,
            ),
            (utf16(text, false), Encoding::Utf16Le, false),
            (utf16(text, true), Encoding::Utf16Be, false),
            (
                [&b"\xFF\xFE\0\0"[..], &utf32(text, false)].concat(),
                Encoding::Utf32Le,
                true,
            ),
            (
                [&b"\0\0\xFE\xFF"[..], &utf32(text, true)].concat(),
                Encoding::Utf32Be,
                true,
            ),
            (utf32(text, false), Encoding::Utf32Le, false),
            (utf32(text, true), Encoding::Utf32Be, false),
        ];
        for (bytes, encoding, bom) in cases {
            for s in [decode(&bytes), decode_owned(bytes.clone())] {
                assert_eq!(s.text, text, "{encoding:?}");
                assert_eq!(s.encoding, encoding);
                assert!(s.encoding.is_wide());
                assert_eq!(s.notes, vec![DecodeNote::Wide { encoding, bom }]);
                assert_eq!(s.line_ending, LineEnding::CrLf);
                assert_eq!(encode(&s.text, s.encoding), (text.as_bytes().to_vec(), 0));
            }
        }
    }

    /// What is not UTF-16 or UTF-32: NULs only, a few NULs among text,
    /// binary bytes, a UTF-16 mark before an ASCII charset line; and broken
    /// code units become U+FFFD, never a panic.
    #[test]
    fn wide_detection_is_not_fooled() {
        for bytes in [
            &b"\0\0\0\0\0\0\0\0"[..],
            b"[Event \"a\0b\"]\n\0\0",
            b"\0\x01\x02\x03\x04\x05\x06\x07",
            b"a\0",
            b"\xFF\xFE\n%charset=ISO-8859-1\n",
        ] {
            let s = decode(bytes);
            assert!(!s.encoding.is_wide(), "{bytes:?}: {:?}", s.encoding);
            assert!(s
                .notes
                .iter()
                .all(|n| !matches!(n, DecodeNote::Wide { .. })));
        }
        let s = decode(b"\xFF\xFEa\0\x00\xD8b");
        assert!(s.text.starts_with("a\u{FFFD}"), "{:?}", s.text);
        let s = decode(b"\xFF\xFE\0\0a\0\0\0\0\0\x11\0b\0");
        assert_eq!(s.text, "a\u{FFFD}\u{FFFD}");
        assert_eq!(decode(b"\xFE\xFF").text, "");
    }

    #[test]
    fn declared_latin1_but_utf8_content() {
        let s = decode("%Content-type: text/x-pbn; charset=ISO-8859-1\n{ café }\n".as_bytes());
        assert_eq!(s.encoding, Encoding::Utf8);
        assert!(matches!(s.notes[0], DecodeNote::CharsetMismatch { .. }));
    }

    /// Every way of reading: bytes the caller keeps or hands over decode
    /// alike (each declaration, valid or invalid UTF-8, a BOM).
    #[test]
    fn decode_owned_is_decode() {
        let bodies: [&[u8]; 4] = [
            b"[Event \"x\"]\r\n",
            "{ café }\n".as_bytes(),
            b"{ caf\xe9 \x93 }\n",
            b"",
        ];
        let heads: [&[u8]; 6] = [
            b"",
            b"\xEF\xBB\xBF",
            b"%charset=UTF-8\n",
            b"%Content-type: text/x-pbn; charset=ISO-8859-1\n",
            b"%charset=windows-1252\n",
            b"%charset=klingon\n",
        ];
        for h in heads {
            for b in bodies {
                let bytes = [h, b].concat();
                let (a, o) = (decode(&bytes), decode_owned(bytes.clone()));
                assert_eq!(
                    (&a.text, a.encoding, a.line_ending, &a.notes),
                    (&o.text, o.encoding, o.line_ending, &o.notes),
                    "{bytes:?}"
                );
            }
        }
    }

    #[test]
    fn mixed_line_endings() {
        let s = decode(b"a\r\nb\r\nc\n");
        assert_eq!(s.line_ending, LineEnding::Mixed);
        assert_eq!(s.dominant_line_ending, LineEnding::CrLf);
    }

    /// The memchr scan counts line ends as a byte-by-byte reading does, on
    /// every string of up to 7 of `\r`, `\n` and `x`.
    #[test]
    fn line_ending_counts_match_a_byte_by_byte_scan() {
        let reference = |b: &[u8]| {
            let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'\r' if b.get(i + 1) == Some(&b'\n') => {
                        crlf += 1;
                        i += 1;
                    }
                    b'\r' => cr += 1,
                    b'\n' => lf += 1,
                    _ => {}
                }
                i += 1;
            }
            let kinds = [
                (crlf, LineEnding::CrLf),
                (lf, LineEnding::Lf),
                (cr, LineEnding::Cr),
            ];
            let present = kinds.iter().filter(|(n, _)| *n > 0).count();
            let dominant = kinds
                .iter()
                .filter(|(n, _)| *n > 0)
                .max_by_key(|(n, _)| *n)
                .map(|(_, k)| *k)
                .unwrap_or(LineEnding::CrLf);
            (
                if present == 0 {
                    LineEnding::None
                } else if present == 1 {
                    dominant
                } else {
                    LineEnding::Mixed
                },
                dominant,
            )
        };
        for n in 0..=7u32 {
            for code in 0..3usize.pow(n) {
                let text: String = (0..n)
                    .map(|k| ["\r", "\n", "x"][code / 3usize.pow(k) % 3])
                    .collect();
                assert_eq!(
                    detect_line_ending(&text),
                    reference(text.as_bytes()),
                    "{text:?}"
                );
            }
        }
    }
}
