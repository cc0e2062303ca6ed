// A minimal LSP client over stdio, used by the e2e driver to ask `pbn lsp`
// directly what it offers (capabilities, code actions, hover text), so that
// the VS Code checks compare against the server's own answers.

import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

export class LspProbe {
  constructor(binary, args = ["lsp"]) {
    this.proc = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.nextId = 1;
    this.pending = new Map();
    this.notifications = [];
    this.waiters = [];
    this.buffer = Buffer.alloc(0);
    this.stderr = "";
    this.proc.stderr.on("data", (d) => (this.stderr += d.toString()));
    this.proc.stdout.on("data", (d) => this.#onData(d));
    this.exited = new Promise((resolve) => this.proc.on("exit", resolve));
  }

  #onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString("ascii");
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`bad LSP header: ${header}`);
      const len = Number(m[1]);
      if (this.buffer.length < headerEnd + 4 + len) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + len).toString("utf8");
      this.buffer = this.buffer.subarray(headerEnd + 4 + len);
      this.#onMessage(JSON.parse(body));
    }
  }

  #onMessage(msg) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
        else p.resolve(msg.result);
      }
    } else if (msg.id !== undefined) {
      // A request from the server (workDoneProgress/create, configuration, ...).
      this.#send({ jsonrpc: "2.0", id: msg.id, result: null });
    } else {
      this.notifications.push(msg);
      for (const w of [...this.waiters]) w();
    }
  }

  #send(msg) {
    const body = Buffer.from(JSON.stringify(msg), "utf8");
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  request(method, params, timeoutMs = 10000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`LSP ${method}: no answer in ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method, params) {
    this.#send({ jsonrpc: "2.0", method, params });
  }

  /** Waits for a notification matching `pred`. */
  waitNotification(pred, timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.notifications.find(pred);
        if (found) {
          this.waiters = this.waiters.filter((w) => w !== check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no matching notification in ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  async initialize(rootPath, initializationOptions = {}) {
    const result = await this.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(rootPath).href,
      capabilities: {
        textDocument: {
          hover: { contentFormat: ["markdown", "plaintext"] },
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } },
            resolveSupport: { properties: ["edit"] },
          },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
        },
        general: { positionEncodings: ["utf-16"] },
      },
      initializationOptions,
    });
    this.notify("initialized", {});
    this.capabilities = result.capabilities;
    return result;
  }

  /** Opens a document and returns its first published diagnostics. */
  async open(path, text) {
    const uri = pathToFileURL(path).href;
    this.notify("textDocument/didOpen", { textDocument: { uri, languageId: "pbn", version: 1, text } });
    const n = await this.waitNotification(
      (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri
    );
    return { uri, diagnostics: n.params.diagnostics };
  }

  async close() {
    try {
      await this.request("shutdown", null, 3000);
      this.notify("exit", null);
    } catch {
      // ignore
    }
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), 3000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The plain text of a hover result. */
export function hoverText(hover) {
  if (!hover) return "";
  const c = hover.contents;
  const one = (x) => (typeof x === "string" ? x : x.value ?? "");
  return Array.isArray(c) ? c.map(one).join("\n") : one(c);
}
