//! A framing guard around the server's stdio.
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

/// Reads one frame: `Ok(Some(body))`, `Ok(None)` at end of input,
/// `Err(())` for a frame whose headers are unusable (skipped).
async fn read_frame<R: AsyncRead + Unpin>(
    r: &mut BufReader<R>,
) -> std::io::Result<Option<Result<Vec<u8>, ()>>> {
    let mut len: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let t = line.trim_end_matches(['\r', '\n']);
        if t.is_empty() {
            if !saw_header {
                continue; // stray blank line between frames
            }
            break;
        }
        saw_header = true;
        if let Some((k, v)) = t.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().ok();
            }
        }
    }
    let Some(len) = len.filter(|&n| n <= 512 << 20) else {
        return Ok(Some(Err(())));
    };
    let mut body = vec![0; len];
    r.read_exact(&mut body).await?;
    Ok(Some(Ok(body)))
}

/// A frame: the `Content-Length` header and the body.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

/// Copies client frames to the server, replacing malformed ones by parse
/// errors sent to `errors`.
pub async fn filter_input<R, W>(input: R, mut to_server: W, errors: mpsc::UnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut r = BufReader::new(input);
    loop {
        match read_frame(&mut r).await {
            Ok(None) | Err(_) => break,
            Ok(Some(Ok(body))) => {
                let ok = serde_json::from_slice::<Value>(&body)
                    .is_ok_and(|v| v.is_object() && v.get("jsonrpc").is_some());
                if ok {
                    if to_server.write_all(&frame(&body)).await.is_err()
                        || to_server.flush().await.is_err()
                    {
                        break;
                    }
                } else {
                    let err = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: the message is not a JSON-RPC object"}});
                    let _ = errors.send(frame(err.to_string().as_bytes()));
                }
            }
            Ok(Some(Err(()))) => {
                let err = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: missing or invalid Content-Length header"}});
                let _ = errors.send(frame(err.to_string().as_bytes()));
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// Copies the server's frames to the client, interleaving injected frames
/// only at frame boundaries. `output` is written in place on this worker
/// thread (`block_in_place`, multi-threaded runtime): a `publishDiagnostics`
/// frame of a large document is megabytes, which tokio's own stdout would
/// copy into its buffer in pieces first.
pub async fn merge_output<R, W>(
    from_server: R,
    mut output: W,
    mut injected: mpsc::UnboundedReceiver<Vec<u8>>,
) where
    R: AsyncRead + Unpin,
    W: std::io::Write + Send,
{
    let mut r = BufReader::new(from_server);
    let mut write = |bytes: &[u8]| {
        tokio::task::block_in_place(|| output.write_all(bytes).and_then(|()| output.flush()))
    };
    loop {
        tokio::select! {
            f = read_frame(&mut r) => match f {
                Ok(Some(Ok(body))) => {
                    if write(&frame(&body)).is_err() {
                        return;
                    }
                }
                _ => return,
            },
            Some(extra) = injected.recv() => {
                if write(&extra).is_err() {
                    return;
                }
            }
        }
    }
}
