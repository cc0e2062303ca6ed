//! A minimal LSP client over stdio for end-to-end tests of `pbn lsp`.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct LspClient {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each message with the time its body had been read in full (before
    /// it was parsed as JSON).
    messages: Receiver<(Value, Instant)>,
    next_id: i64,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Value>,
    /// When each of `notifications` arrived (same order).
    arrivals: Vec<Instant>,
    /// Requests from the server received so far (each answered with null,
    /// `workspace/applyEdit` with `applied: true`).
    pub server_requests: Vec<Value>,
    /// When the message last returned by [`LspClient::request`] or
    /// [`LspClient::wait_for`] arrived (for benchmarks).
    pub last_arrival: Option<Instant>,
    /// How long to wait for a response or notification before panicking.
    pub timeout: Duration,
}

const TIMEOUT: Duration = Duration::from_secs(30);

impl LspClient {
    pub fn spawn() -> LspClient {
        LspClient::spawn_with(&crate::binary::pbn_binary())
    }

    /// Spawns `BIN lsp` (the benchmark passes its own release binary).
    pub fn spawn_with(bin: &std::path::Path) -> LspClient {
        let mut child = Command::new(bin)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn pbn lsp");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length:") {
                        len = v.trim().parse::<usize>().ok();
                    }
                }
                let Some(len) = len else { return };
                let mut body = vec![0; len];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let arrived = Instant::now();
                let Ok(v) = serde_json::from_slice::<Value>(&body) else {
                    return;
                };
                if tx.send((v, arrived)).is_err() {
                    return;
                }
            }
        });
        LspClient {
            child,
            stdin,
            messages: rx,
            next_id: 1,
            notifications: Vec::new(),
            arrivals: Vec::new(),
            server_requests: Vec::new(),
            last_arrival: None,
            timeout: TIMEOUT,
        }
    }

    /// The server's process id (for reading `/proc/PID/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes raw bytes (for malformed-frame tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, v: &Value) {
        let body = serde_json::to_vec(v).unwrap();
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend(body);
        self.send_raw(&frame);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (other messages are kept
    /// in `notifications`; server requests are answered as `handle_other` says).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let (msg, at) = self
                .messages
                .recv_timeout(self.timeout)
                .unwrap_or_else(|_| panic!("no response to {method}"));
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                self.last_arrival = Some(at);
                return msg;
            }
            self.handle_other(msg, at);
        }
    }

    fn handle_other(&mut self, msg: Value, at: Instant) {
        if msg.get("method").is_some() && msg.get("id").is_some() {
            // A request from the server (e.g. workspace/configuration).
            let id = msg["id"].clone();
            let result = match msg["method"].as_str() {
                Some("workspace/applyEdit") => json!({"applied": true}),
                _ => Value::Null,
            };
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
            self.server_requests.push(msg);
        } else {
            self.notifications.push(msg);
            self.arrivals.push(at);
        }
    }

    /// Forgets the notifications received so far.
    pub fn clear_notifications(&mut self) {
        self.notifications.clear();
        self.arrivals.clear();
    }

    /// Waits for a notification matching `pred`.
    pub fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.notifications.iter().position(&pred) {
            self.last_arrival = Some(self.arrivals.remove(i));
            return self.notifications.remove(i);
        }
        loop {
            match self.messages.recv_timeout(self.timeout) {
                Ok((msg, at)) if pred(&msg) => {
                    self.last_arrival = Some(at);
                    return msg;
                }
                Ok((msg, at)) => self.handle_other(msg, at),
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for a notification"),
                Err(RecvTimeoutError::Disconnected) => panic!("server closed its output"),
            }
        }
    }

    /// Waits for a request from the server with `method` (answered like
    /// every other) and takes it out of `server_requests`.
    pub fn wait_for_server_request(&mut self, method: &str) -> Value {
        loop {
            if let Some(i) = self
                .server_requests
                .iter()
                .position(|m| m["method"] == method)
            {
                return self.server_requests.remove(i);
            }
            match self.messages.recv_timeout(self.timeout) {
                Ok((msg, at)) => self.handle_other(msg, at),
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {method}"),
                Err(RecvTimeoutError::Disconnected) => panic!("server closed its output"),
            }
        }
    }

    /// The diagnostics published for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let m = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn initialize(&mut self, position_encodings: &[&str]) -> Value {
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {"general": {"positionEncodings": position_encodings}}}),
        );
        self.notify("initialized", json!({}));
        r
    }

    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits for the server to exit and returns its exit code. The limit
    /// only stops a hung server: it is not a timing check, and a stormed
    /// server on a machine running the stress tests side by side can take
    /// some seconds to wind down.
    pub fn wait_exit(&mut self) -> Option<i32> {
        self.wait_exit_for(Duration::from_secs(30))
    }

    /// Waits up to `limit` for the server to exit (a server holding a very
    /// large document takes a while to free it); kills it after that.
    pub fn wait_exit_for(&mut self, limit: Duration) -> Option<i32> {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            if start.elapsed() >= limit {
                let _ = self.child.kill();
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn shutdown(&mut self) -> Option<i32> {
        let r = self.request("shutdown", json!(null));
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", json!(null));
        self.wait_exit()
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
