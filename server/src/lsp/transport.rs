//! A framing guard around the server's stdio.
//!
//! After a frame with unusable headers (a `Content-Length` that is not a
//! number, negative, missing or over the limit, a header line that is not a
//! header, bytes that are not UTF-8) or a body that is not JSON (a length
//! too short), the reader skips to the next `Content-Length` header: one
//! bad frame costs one parse error, not the session.
//!
//! tower-lsp-server stops reading its input after a frame whose body is not
//! JSON-RPC (its framed reader ends on the first decode error), which would
//! let one malformed frame kill the session. This guard reads the client's
//! frames itself, passes well-formed JSON messages through, and answers the
//! rest with a JSON-RPC "Parse error" (-32700, id null), written whole
//! between the server's own frames.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The largest body accepted (a larger `Content-Length` is a bad frame).
const MAX_BODY: usize = 512 << 20;

/// The longest header line kept: of a longer line (the rest of a body
/// whose length was wrong) only the last bytes are kept, where the next
/// frame's `Content-Length` header starts.
const MAX_LINE: usize = 4096;

const CONTENT_LENGTH: &[u8] = b"content-length:";

/// One frame as read.
pub enum Frame {
    Body(Vec<u8>),
    /// Unusable headers (why); the reader then looks for the next
    /// `Content-Length` header, skipping whatever is before it.
    Bad(&'static str),
}

/// Reads a line of bytes (through `\n`), keeping its last [`MAX_LINE`]
/// bytes; `None` at end of input.
async fn read_line<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = r.fill_buf().await?;
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        line.extend_from_slice(chunk);
        let n = chunk.len();
        r.consume(n);
        if line.len() > 2 * MAX_LINE {
            line.drain(..line.len() - MAX_LINE);
        }
        if done {
            if line.len() > MAX_LINE {
                line.drain(..line.len() - MAX_LINE);
            }
            return Ok(Some(line));
        }
    }
}

/// Where the last `Content-Length:` (any case) starts in `line`.
fn rfind_content_length(line: &[u8]) -> Option<usize> {
    (0..=line.len().checked_sub(CONTENT_LENGTH.len())?)
        .rev()
        .find(|&i| line[i..i + CONTENT_LENGTH.len()].eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// Reads JSON-RPC frames; after a bad one, resynchronises on the next
/// `Content-Length` header instead of reading the rest of the bad frame as
/// headers (which would merge every later message with it).
pub struct FrameReader<R> {
    r: BufReader<R>,
    skipping: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    pub fn new(input: R) -> Self {
        FrameReader {
            r: BufReader::new(input),
            skipping: false,
        }
    }

    /// Skips to the next `Content-Length` header from now on (after a body
    /// that was not JSON: its length may have been wrong).
    pub fn resync(&mut self) {
        self.skipping = true;
    }

    /// The next frame, `None` at end of input.
    pub async fn next(&mut self) -> std::io::Result<Option<Frame>> {
        let mut len: Option<Option<usize>> = None;
        let mut saw_header = false;
        let mut bad: Option<&'static str> = None;
        loop {
            let Some(mut line) = read_line(&mut self.r).await? else {
                return Ok(None);
            };
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            if self.skipping {
                match rfind_content_length(&line) {
                    Some(i) => {
                        line.drain(..i);
                        self.skipping = false;
                    }
                    None => continue,
                }
            } else if let Some(i) = rfind_content_length(&line).filter(|&i| i > 0) {
                // The rest of an earlier body, then a header: a new frame.
                line.drain(..i);
                len = None;
                saw_header = false;
                bad = None;
            }
            if line.is_empty() {
                if !saw_header {
                    continue; // stray blank line between frames
                }
                break;
            }
            saw_header = true;
            let header = line
                .iter()
                .position(|&b| b == b':')
                .filter(|&i| i > 0 && line[..i].iter().all(|b| b.is_ascii_graphic()));
            match header {
                Some(i) if line[..=i].eq_ignore_ascii_case(CONTENT_LENGTH) => {
                    let v = std::str::from_utf8(&line[i + 1..]).unwrap_or("").trim();
                    let n = if v.bytes().all(|b| b.is_ascii_digit()) {
                        v.parse::<usize>().ok()
                    } else {
                        None
                    };
                    len = Some(n);
                }
                Some(_) => {} // Content-Type and others
                None => bad = Some("a header line is not `Name: value`"),
            }
        }
        let reason = match (bad, len) {
            (Some(why), _) => why,
            (None, None) => "missing Content-Length header",
            (None, Some(None)) => "invalid Content-Length header",
            (None, Some(Some(n))) if n > MAX_BODY => "Content-Length over the limit (512 MiB)",
            (None, Some(Some(n))) => {
                let mut body = vec![0; n];
                self.r.read_exact(&mut body).await?;
                return Ok(Some(Frame::Body(body)));
            }
        };
        self.skipping = true;
        Ok(Some(Frame::Bad(reason)))
    }
}

/// What the guard reads of a client message: whether it is a JSON object
/// with a `jsonrpc` member, and its `method` and `id` (the last of each
/// when repeated, as a parse into a `Value` keeps). Every other member is
/// checked to be JSON and skipped without being kept, except the `params`
/// of a `didOpen` after its `method`: its text is found in the frame
/// ([`Taken`]).
#[derive(Default)]
struct Envelope {
    jsonrpc: Option<Value>,
    method: Option<Value>,
    id: Option<Value>,
    /// The `params` of a `didOpen` whose `method` came first.
    open: Option<OpenParams>,
}

const DID_OPEN: &str = "textDocument/didOpen";

impl<'de> serde::Deserialize<'de> for Envelope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Envelope;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON-RPC message object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Envelope, A::Error> {
                use serde::de::IgnoredAny;
                let mut e = Envelope::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match &*key {
                        "jsonrpc" => e.jsonrpc = Some(map.next_value()?),
                        "method" => e.method = Some(map.next_value()?),
                        "id" => e.id = Some(map.next_value()?),
                        "params" if e.method.as_ref().and_then(Value::as_str) == Some(DID_OPEN) => {
                            let raw: &'de serde_json::value::RawValue = map.next_value()?;
                            e.open = OpenParams::read(raw);
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(e)
            }
        }
        d.deserialize_map(Visit)
    }
}

/// The `params` of a `didOpen`, its text left where it is in the frame.
#[derive(Default)]
struct OpenParams {
    /// Every member but `textDocument`.
    rest: serde_json::Map<String, Value>,
    /// Every member of `textDocument` but `text` (`None`: not an object).
    doc: Option<serde_json::Map<String, Value>>,
    /// Where the `text` (a JSON string, quotes included) is: its address
    /// and length.
    text: Option<(usize, usize)>,
}

impl<'de> serde::Deserialize<'de> for OpenParams {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// `textDocument`: an object is read member by member.
        struct Doc(
            Option<serde_json::Map<String, Value>>,
            Option<(usize, usize)>,
        );
        impl<'de> serde::Deserialize<'de> for Doc {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visit;
                impl<'de> serde::de::Visitor<'de> for Visit {
                    type Value = Doc;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a text document item")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<Doc, A::Error> {
                        let mut doc = serde_json::Map::new();
                        let mut text = None;
                        while let Some(key) = map.next_key::<String>()? {
                            if key == "text" {
                                let raw: &'de serde_json::value::RawValue = map.next_value()?;
                                let raw = raw.get();
                                text = Some((raw.as_ptr() as usize, raw.len()));
                            } else {
                                doc.insert(key, map.next_value()?);
                            }
                        }
                        Ok(Doc(Some(doc), text))
                    }
                }
                d.deserialize_map(Visit)
            }
        }
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = OpenParams;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("didOpen parameters")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OpenParams, A::Error> {
                let mut p = OpenParams::default();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "textDocument" {
                        let Doc(doc, text) = map.next_value()?;
                        (p.doc, p.text) = (doc, text);
                    } else {
                        p.rest.insert(key, map.next_value()?);
                    }
                }
                Ok(p)
            }
        }
        d.deserialize_map(Visit)
    }
}

impl OpenParams {
    /// `None` when they are not an object, or their `textDocument` is not
    /// (the message is then passed on as it came).
    fn read(raw: &serde_json::value::RawValue) -> Option<OpenParams> {
        serde_json::from_str(raw.get()).ok()
    }
}

/// The `params` alone, when they came before the `method` of a `didOpen`.
#[derive(serde::Deserialize)]
struct ParamsOnly<'a> {
    #[serde(borrow)]
    params: Option<&'a serde_json::value::RawValue>,
}

/// A document's text taken out of its `didOpen` by the input guard.
struct TakenText {
    uri: String,
    version: i64,
    text: String,
}

/// The texts of `didOpen` notifications, taken out of their frames by
/// [`filter_input`] (which passes each on with an empty text) and given to
/// the server's `didOpen` handler ([`Taken::take`]), in order.
///
/// The text is decoded in the frame's own buffer: otherwise a large
/// document's text would be held four times at once (the frame as read,
/// tower-lsp-server's read buffer, which keeps its size, serde_json's
/// scratch buffer and the decoded string): 5× the file at the open of
/// 100 MB, where now it is the frame alone.
#[derive(Default)]
pub struct Taken(std::sync::Mutex<std::collections::VecDeque<TakenText>>);

impl Taken {
    fn push(&self, uri: String, version: i64, text: String) {
        let mut q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        q.push_back(TakenText { uri, version, text });
    }

    /// The text taken out of the `didOpen` of `uri` at `version`. Texts
    /// taken before it belong to notifications the server did not handle
    /// (a `didOpen` before `initialize`, or whose parameters it refused)
    /// and are dropped; `None` (nothing dropped) when there is none, as
    /// when the server runs without the guard.
    pub fn take(&self, uri: &str, version: i32) -> Option<String> {
        let mut q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = q
            .iter()
            .position(|t| t.uri == uri && t.version == i64::from(version))?;
        q.drain(..i);
        q.pop_front().map(|t| t.text)
    }
}

/// Decodes the JSON string at `at` (quotes included, already checked to be
/// JSON by serde_json) of `buf` into `buf` itself (every escape is at least
/// as long as what it stands for): no second buffer of a document's size.
/// A lone surrogate (`\ud800`) becomes U+FFFD. `None` when the result is not
/// UTF-8.
fn decode_in_place(mut buf: Vec<u8>, at: std::ops::Range<usize>) -> Option<String> {
    fn hex4(b: &[u8]) -> Option<u32> {
        let h = std::str::from_utf8(b.get(..4)?).ok()?;
        u32::from_str_radix(h, 16).ok()
    }
    let end = at.end.checked_sub(1)?;
    let (mut r, mut w) = (at.start + 1, 0);
    while r < end {
        // Invariant: w < r (the write never overtakes the read).
        let run = memchr::memchr(b'\\', &buf[r..end]).map_or(end, |i| r + i);
        buf.copy_within(r..run, w);
        w += run - r;
        r = run;
        if r == end {
            break;
        }
        let c = *buf.get(r + 1)?;
        r += 2;
        let ch = match c {
            b'"' | b'\\' | b'/' => c as char,
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let mut cp = hex4(&buf[r..end])?;
                r += 4;
                if (0xD800..0xDC00).contains(&cp) && buf[r..end].starts_with(b"\\u") {
                    if let Some(lo) =
                        hex4(&buf[r + 2..end]).filter(|lo| (0xDC00..0xE000).contains(lo))
                    {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        r += 6;
                    }
                }
                char::from_u32(cp).unwrap_or('\u{FFFD}')
            }
            _ => return None,
        };
        let mut tmp = [0; 4];
        let s = ch.encode_utf8(&mut tmp).as_bytes();
        buf[w..w + s.len()].copy_from_slice(s);
        w += s.len();
    }
    buf.truncate(w);
    String::from_utf8(buf).ok()
}

/// The frame of a `didOpen` without its text, which goes to `taken`
/// (decoded in `body`'s buffer); `Err(body)` when it has no text to take;
/// `Ok(None)` when the text is not UTF-8 (the message is refused, as the
/// server would have refused it).
fn take_text(
    body: Vec<u8>,
    msg: &mut Envelope,
    open: OpenParams,
    taken: &Taken,
) -> Result<Option<Vec<u8>>, Vec<u8>> {
    let OpenParams {
        rest,
        doc: Some(mut doc),
        text: Some((ptr, len)),
    } = open
    else {
        return Err(body);
    };
    let (Some(uri), Some(version)) = (
        doc.get("uri").and_then(Value::as_str).map(str::to_owned),
        doc.get("version").and_then(Value::as_i64),
    ) else {
        return Err(body);
    };
    let start = ptr.wrapping_sub(body.as_ptr() as usize);
    if start.checked_add(len).is_none_or(|e| e > body.len()) || body.get(start) != Some(&b'"') {
        return Err(body); // not a string
    }
    let Some(text) = decode_in_place(body, start..start + len) else {
        return Ok(None);
    };
    taken.push(uri, version, text);
    doc.insert("text".into(), Value::String(String::new()));
    let mut params = rest;
    params.insert("textDocument".into(), Value::Object(doc));
    let mut m = serde_json::Map::new();
    m.insert("jsonrpc".into(), msg.jsonrpc.take().unwrap_or(Value::Null));
    m.insert("method".into(), DID_OPEN.into());
    if let Some(id) = msg.id.take() {
        m.insert("id".into(), id);
    }
    m.insert("params".into(), Value::Object(params));
    Ok(Some(serde_json::to_vec(&m).unwrap_or_default()))
}

/// A frame to write whole, in parts (a `publishDiagnostics` of a large
/// document is its pieces' cached JSON: sent as they are, not joined into
/// one buffer of megabytes first).
pub type Chunks = Vec<std::sync::Arc<[u8]>>;

/// A JSON-RPC error response frame.
fn error_frame(id: &Value, code: i64, message: &str) -> Chunks {
    let err = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    vec![frame(err.to_string().as_bytes()).into()]
}

/// A frame: the `Content-Length` header and the body.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

/// Copies client frames to the server, replacing malformed ones by parse
/// errors sent to `errors`. A request whose method starts with `$/` is
/// answered here with MethodNotFound (-32601): LSP defines none, and
/// tower-lsp-server would leave it unanswered; such notifications are
/// passed on (and ignored there).
///
/// The text of a `didOpen` is taken out of it into `taken` (see [`Taken`]).
pub async fn filter_input<R, W>(
    input: R,
    mut to_server: W,
    errors: mpsc::UnboundedSender<Chunks>,
    taken: std::sync::Arc<Taken>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut r = FrameReader::new(input);
    loop {
        match r.next().await {
            Ok(None) => break,
            Err(e) => {
                eprintln!("pbn lsp: cannot read the client's messages: {e}");
                break;
            }
            Ok(Some(Frame::Body(body))) => {
                let msg = serde_json::from_slice::<Envelope>(&body)
                    .ok()
                    .filter(|e| e.jsonrpc.is_some());
                let Some(mut msg) = msg else {
                    r.resync();
                    let _ = errors.send(error_frame(
                        &Value::Null,
                        -32700,
                        "Parse error: the message is not a JSON-RPC object",
                    ));
                    continue;
                };
                let method = msg.method.as_ref().and_then(Value::as_str);
                if let (Some(m), Some(id)) = (method, &msg.id) {
                    if m.starts_with("$/") {
                        let _ =
                            errors.send(error_frame(id, -32601, &format!("Method not found: {m}")));
                        continue;
                    }
                }
                let is_open = method == Some(DID_OPEN);
                if is_open && msg.open.is_none() {
                    // `params` before `method`: read again.
                    msg.open = serde_json::from_slice::<ParamsOnly>(&body)
                        .ok()
                        .and_then(|p| p.params)
                        .and_then(OpenParams::read);
                }
                let body = match msg.open.take() {
                    Some(open) if is_open => match take_text(body, &mut msg, open, &taken) {
                        Ok(Some(frame)) => frame,
                        Ok(None) => {
                            let _ = errors.send(error_frame(
                                &Value::Null,
                                -32700,
                                "Parse error: the message is not UTF-8",
                            ));
                            continue;
                        }
                        Err(body) => body,
                    },
                    _ => body,
                };
                // The header, then the body as read (a `didOpen` of a large
                // document without its text: nothing copied again).
                let header = format!("Content-Length: {}\r\n\r\n", body.len());
                if to_server.write_all(header.as_bytes()).await.is_err()
                    || to_server.write_all(&body).await.is_err()
                    || to_server.flush().await.is_err()
                {
                    break;
                }
            }
            Ok(Some(Frame::Bad(why))) => {
                let _ = errors.send(error_frame(
                    &Value::Null,
                    -32700,
                    &format!("Parse error: {why}"),
                ));
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// Copies the server's frames to the client, interleaving injected frames
/// only at frame boundaries. `output` is written in place on this worker
/// thread (`block_in_place`, multi-threaded runtime), through a buffer of
/// its own: a `publishDiagnostics` frame of a large document is megabytes
/// in many parts, which tokio's own stdout would copy into its buffer in
/// pieces first.
pub async fn merge_output<R, W>(
    from_server: R,
    output: W,
    mut injected: mpsc::UnboundedReceiver<Chunks>,
) where
    R: AsyncRead + Unpin,
    W: std::io::Write + Send,
{
    let mut r = FrameReader::new(from_server);
    let mut output = std::io::BufWriter::with_capacity(1 << 16, output);
    let mut write = |chunks: &[&[u8]]| {
        tokio::task::block_in_place(|| {
            use std::io::Write;
            for c in chunks {
                output.write_all(c)?;
            }
            output.flush()
        })
    };
    loop {
        tokio::select! {
            f = r.next() => match f {
                Ok(Some(Frame::Body(body))) => {
                    let header = format!("Content-Length: {}\r\n\r\n", body.len());
                    if write(&[header.as_bytes(), &body]).is_err() {
                        return;
                    }
                }
                _ => return,
            },
            Some(extra) = injected.recv() => {
                let parts: Vec<&[u8]> = extra.iter().map(|c| &**c).collect();
                if write(&parts).is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Option<(bool, Option<Value>, Option<Value>)> {
        serde_json::from_str::<Envelope>(s)
            .ok()
            .map(|e| (e.jsonrpc.is_some(), e.method, e.id))
    }

    /// The guard reads what a parse into a `Value` gave: an object's
    /// `jsonrpc` member (any value), `method` and `id` (the last when
    /// repeated); anything else that is JSON is skipped, and what is not
    /// JSON or not an object is refused.
    #[test]
    fn the_envelope_reads_what_a_value_would() {
        let big = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"text":"{}\u00e9\"x"}}}}}}"#,
            "[Board \\\"1\\\"]\\n".repeat(1000)
        );
        assert_eq!(
            read(&big),
            Some((true, Some(json!("textDocument/didOpen")), None))
        );
        assert_eq!(
            read(r#"{"id":1,"jsonrpc":null,"method":"$/x","id":"b"}"#),
            Some((true, Some(json!("$/x")), Some(json!("b"))))
        );
        assert_eq!(
            read(r#"{"method":3,"params":[1,{"a":null}]}"#),
            Some((false, Some(json!(3)), None))
        );
        for bad in [
            "[1,2]",
            "\"jsonrpc\"",
            "{\"jsonrpc\":\"2.0\",",
            "{\"jsonrpc\":\"2.0\"} x",
            "{\"jsonrpc\":\"2.0\",\"params\":\"\\q\"}",
            "",
        ] {
            assert_eq!(read(bad), None, "{bad}");
            let v = serde_json::from_str::<Value>(bad)
                .ok()
                .filter(Value::is_object);
            assert_eq!(v, None, "{bad}: a Value refuses it too");
        }
    }

    /// Runs `input` through [`filter_input`]: the frames passed on to the
    /// server, the error frames, and what was taken.
    fn filter(input: &[u8]) -> (Vec<Value>, Vec<Value>, Arc<Taken>) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let taken = Arc::new(Taken::default());
        let (passed, errors) = rt.block_on(async {
            let (to_server, mut from_filter) = tokio::io::duplex(1 << 16);
            let (tx, mut rx) = mpsc::unbounded_channel();
            filter_input(input, to_server, tx, taken.clone()).await;
            let mut out = Vec::new();
            from_filter.read_to_end(&mut out).await.unwrap();
            let mut errors = Vec::new();
            while let Ok(chunks) = rx.try_recv() {
                errors.push(chunks.concat());
            }
            (out, errors)
        });
        let bodies = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes).into_owned();
            text.split("Content-Length: ")
                .filter_map(|f| f.split_once("\r\n\r\n"))
                .map(|(_, body)| serde_json::from_str::<Value>(body).unwrap())
                .collect::<Vec<_>>()
        };
        let errors = errors.iter().flat_map(|e| bodies(e)).collect();
        (bodies(&passed), errors, taken)
    }

    use std::sync::Arc;

    fn open_frame(body: &str) -> Vec<u8> {
        frame(body.as_bytes())
    }

    /// The text of a `didOpen` (escapes of every kind, UTF-8, surrogate
    /// pairs, a lone surrogate) is taken out, decoded as serde_json decodes
    /// it; the server gets the rest of the message unchanged.
    #[test]
    fn the_text_of_a_did_open_is_taken_out_and_decoded() {
        let texts = [
            "",
            "[Event \"Café ♠\"]\r\n[Board \"1\"]\n",
            "tab\tslash/back\\quote\"\u{8}\u{c}\u{1}𝄞é\n",
        ];
        for (k, text) in texts.iter().enumerate() {
            let msg = json!({"jsonrpc": "2.0", "method": DID_OPEN, "params": {
                "textDocument": {"uri": "file:///a%20b.pbn", "languageId": "pbn", "version": k, "text": text},
                "extra": [1]}});
            let (passed, errors, taken) = filter(&open_frame(&msg.to_string()));
            assert!(errors.is_empty());
            let mut expect = msg.clone();
            expect["params"]["textDocument"]["text"] = json!("");
            assert_eq!(passed, [expect]);
            assert_eq!(
                taken.take("file:///a%20b.pbn", k as i32).as_deref(),
                Some(*text)
            );
            assert_eq!(
                taken.take("file:///a%20b.pbn", k as i32),
                None,
                "taken once"
            );
        }
        // Written with \u escapes, a surrogate pair among them.
        let body = r#"{"params":{"textDocument":{"uri":"u","version":1,"text":"\u00e9\ud834\udd1e\ud800x\u0041\/"}},"method":"textDocument/didOpen","jsonrpc":"2.0"}"#;
        let (passed, _, taken) = filter(&open_frame(body));
        assert_eq!(passed[0]["params"]["textDocument"]["text"], "");
        assert_eq!(taken.take("u", 1).as_deref(), Some("é𝄞\u{fffd}xA/"));
    }

    /// What has no text to take is passed on as it came; a text that is
    /// not UTF-8 is refused with a parse error.
    #[test]
    fn a_did_open_without_a_string_text_passes_unchanged() {
        for msg in [
            json!({"jsonrpc": "2.0", "method": DID_OPEN, "params": {"textDocument": {"uri": "u", "version": 1, "text": 5}}}),
            json!({"jsonrpc": "2.0", "method": DID_OPEN, "params": {"textDocument": {"version": 1, "text": "x"}}}),
            json!({"jsonrpc": "2.0", "method": DID_OPEN, "params": [1]}),
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "u", "version": 1, "text": "x"}}}),
        ] {
            let (passed, errors, taken) = filter(&open_frame(&msg.to_string()));
            assert_eq!((passed, errors.len()), (vec![msg], 0));
            assert_eq!(taken.take("u", 1), None);
        }
        let mut bad = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"u","version":1,"text":"a"#.to_vec();
        bad.extend_from_slice(b"\xff\"}}}");
        let (passed, errors, taken) = filter(&frame(&bad));
        assert!(passed.is_empty());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0]["error"]["code"], -32700);
        assert_eq!(taken.take("u", 1), None);
    }

    /// A text is given to the `didOpen` of its document and version; texts
    /// taken before it (of notifications the server did not handle) are
    /// dropped then, later ones kept.
    #[test]
    fn texts_are_taken_in_order() {
        let taken = Taken::default();
        taken.push("a".into(), 1, "a1".into());
        taken.push("b".into(), 1, "b1".into());
        taken.push("a".into(), 1, "a1 again".into());
        assert_eq!(taken.take("c", 1), None);
        assert_eq!(taken.take("b", 2), None);
        assert_eq!(taken.take("b", 1).as_deref(), Some("b1"));
        assert_eq!(taken.take("a", 1).as_deref(), Some("a1 again"));
        assert_eq!(taken.take("a", 1), None);
    }
}
