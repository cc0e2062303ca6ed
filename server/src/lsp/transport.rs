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
/// checked to be JSON and skipped without being kept: the `didOpen` of a
/// large document holds its whole text, which the server parses anyway.
#[derive(Default)]
struct Envelope {
    jsonrpc: bool,
    method: Option<Value>,
    id: Option<Value>,
}

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
                        "jsonrpc" => {
                            map.next_value::<IgnoredAny>()?;
                            e.jsonrpc = true;
                        }
                        "method" => e.method = Some(map.next_value()?),
                        "id" => e.id = Some(map.next_value()?),
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
pub async fn filter_input<R, W>(input: R, mut to_server: W, errors: mpsc::UnboundedSender<Chunks>)
where
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
                    .filter(|e| e.jsonrpc);
                let Some(msg) = msg else {
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
                // The header, then the body as read (a `didOpen` of a large
                // document is its whole text: not copied again).
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
            .map(|e| (e.jsonrpc, e.method, e.id))
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
}
