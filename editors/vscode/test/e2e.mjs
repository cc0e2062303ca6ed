#!/usr/bin/env node
// End-to-end test of the PBN extension in real VS Code (code-server), driven
// by Debian's chromium through playwright-core.
//
//   node test/e2e.mjs            (from editors/vscode; run by tests/tests/editor_vscode.rs)
//
// Environment:
//   PBN_BINARY     the pbn binary (required)
//   CODE_SERVER    code-server executable (default: the newest
//                  .ci/cache/code-server-*/node_modules/.bin/code-server)
//   CHROMIUM       default /usr/bin/chromium
//   PBN_VSCODE_UPDATE_SCREENSHOTS=1   write the README screenshots to
//                  editors/vscode/screenshots/ (else to the run's temp dir)
//   PBN_E2E_KEEP=1 keep the temp dir (code-server logs, workspace)
//
// Steps: package the .vsix a user installs (`npm run package -- --bundle
// PBN_BINARY`: a linux-x64 .vsix carrying server/pbn), install it into a
// fresh extensions dir, start code-server on 127.0.0.1 with a fresh
// user-data-dir, no pbn.server.path setting and no `pbn` on PATH, open a
// copy of examples/broken.pbn, and check: the extension started its
// bundled binary; the error squiggle and the Problems entry with its code (PBN0003);
// hover on a NAG; a deal-diagram hover; Format Document (export format, as
// `pbn fmt`); a quick fix (when the server offers code actions); and the
// error notification when pbn.server.path names no binary.
// Exit code 0: passed; 1: failed (screenshots in screenshots/failure-*.png);
// 77: a prerequisite is missing.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LspProbe, hoverText } from "./lsp-probe.mjs";

const EXT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO = path.resolve(EXT_DIR, "../..");
const SCREENSHOTS = path.join(EXT_DIR, "screenshots");
const T0 = Date.now();
const log = (...a) => console.log(`[e2e ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)}s]`, ...a);

// ---------------------------------------------------------------- prerequisites
function skip(msg) {
  console.log(`SKIP: ${msg}`);
  process.exit(77);
}

function findCodeServer() {
  if (process.env.CODE_SERVER) return process.env.CODE_SERVER;
  const cache = path.join(REPO, ".ci/cache");
  const dirs = fs.existsSync(cache)
    ? fs.readdirSync(cache).filter((d) => d.startsWith("code-server-")).sort().reverse()
    : [];
  for (const d of dirs) {
    const bin = path.join(cache, d, "node_modules/.bin/code-server");
    if (fs.existsSync(bin) && fs.existsSync(path.join(cache, d, ".complete"))) return bin;
  }
  return undefined;
}

const PBN = process.env.PBN_BINARY;
if (!PBN || !fs.existsSync(PBN)) skip(`PBN_BINARY not set or missing (${PBN})`);
const CODE_SERVER = findCodeServer();
if (!CODE_SERVER || !fs.existsSync(CODE_SERVER)) skip("code-server not found (run .ci/install-vscode.sh)");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(CHROMIUM)) skip(`chromium not found at ${CHROMIUM} (run .ci/install-vscode.sh)`);
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  skip("playwright-core is not installed in editors/vscode/node_modules (run .ci/install-vscode.sh)");
}

// ---------------------------------------------------------------- helpers
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-vscode-e2e-"));
const children = [];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function poll(what, fn, timeoutMs = 30000, intervalMs = 200) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? `: ${last.message}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const norm = (s) => s.replace(/\u00a0/g, " ").replace(/\s+/g, " ").trim();

/** Applies LSP TextEdits (UTF-16 positions, as JS strings) to a text. */
function applyEdits(text, edits) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") lineStarts.push(i + 1);
  }
  const offset = (p) => Math.min((lineStarts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

function editsFor(workspaceEdit, uri) {
  if (!workspaceEdit) return [];
  if (workspaceEdit.changes?.[uri]) return workspaceEdit.changes[uri];
  const out = [];
  for (const dc of workspaceEdit.documentChanges ?? []) {
    if (dc.textDocument?.uri === uri) out.push(...dc.edits);
  }
  return out;
}

// ---------------------------------------------------------------- fixtures
const WS = path.join(TMP, "workspace");
fs.mkdirSync(WS);
const brokenSrc = fs.readFileSync(path.join(REPO, "examples/broken.pbn"), "utf8");
// A NAG after a call (hover), and a non-standard call `1N` (PBN0520, quick fix).
let broken = brokenSrc.replace(/^1D Pass 1H Pass$/m, "1D Pass 1H $3 Pass");
broken = broken.replace(/^1C this is free text$/m, "1C 1N this is free text");
if (!broken.includes("1H $3 Pass") || !broken.includes("1C 1N this")) {
  throw new Error("examples/broken.pbn changed: update the fixture edits in test/e2e.mjs");
}
const BROKEN = path.join(WS, "broken.pbn");
fs.writeFileSync(BROKEN, broken);

// An import-format game: tags out of order, several on a line, calls not 4 a line.
const FORMAT = path.join(WS, "format.pbn");
fs.writeFileSync(
  FORMAT,
  [
    "% PBN 2.1",
    '[Event "Club night"]',
    '[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]',
    '[Board "1"]',
    '[Dealer "N"]',
    '[Vulnerable "None"]',
    '[Site "Amsterdam"]',
    '[Date "1995.06.10"]',
    '[West "Podgor"]  [North "Westra"] [East "Kalish"] [South "Leufkens"]',
    '[Declarer "S"]',
    '[Contract "5HX"]',
    '[Result "9"]',
    '[Auction "N"]',
    "1D 1S 3H 4S 4NT X pass pass",
    "5C X 5H X pass pass pass",
    '[Play "W"]',
    "SK H3 S4 S3 C5 C2 C6 CK",
    "*",
    "",
  ].join("\n")
);
const formatOriginal = fs.readFileSync(FORMAT, "utf8");
const formatExpected = run(PBN, ["fmt", "--stdout", FORMAT]);
if (formatExpected === formatOriginal) throw new Error("format.pbn fixture is already in export format");

// ---------------------------------------------------------------- ask the server
log(`pbn: ${PBN}`);
const probe = new LspProbe(PBN);
const init = await probe.initialize(WS, { export: false, addMissingTags: true });
const caps = init.capabilities;
const brokenUri = `file://${BROKEN}`;
const { diagnostics } = await probe.open(BROKEN, broken);
const lines = broken.split("\n");
const posOf = (needle, lineText) => {
  const line = lines.findIndex((l) => l === lineText);
  return { line, character: lines[line].indexOf(needle) };
};
const nagPos = posOf("$3", "1D Pass 1H $3 Pass");
const dealPos = { line: lines.findIndex((l) => l.startsWith("[Deal ")), character: 12 };
const nagHover = hoverText(await probe.request("textDocument/hover", { textDocument: { uri: brokenUri }, position: nagPos }));
const dealHover = hoverText(await probe.request("textDocument/hover", { textDocument: { uri: brokenUri }, position: dealPos }));
const nagExpected = norm(nagHover.split("\n")[0].replace(/\*\*|`/g, ""));
if (!/\$3/.test(nagExpected)) throw new Error(`unexpected NAG hover from the server: ${nagHover}`);
if (!/HCP/.test(dealHover)) throw new Error(`no deal diagram in the server's Deal hover: ${dealHover}`);
const pbn0003 = diagnostics.find((d) => d.code === "PBN0003");
if (!pbn0003) throw new Error("the server reports no PBN0003 on broken.pbn");

// The quick fix to try: PBN0520 (`1N` → `1NT`) first, else any the server offers.
let quickFix;
if (caps.codeActionProvider) {
  const preferred = ["PBN0520", "PBN0006"];
  const rank = (d) => (preferred.includes(d.code) ? preferred.indexOf(d.code) : preferred.length);
  const ordered = [...diagnostics].sort((a, b) => rank(a) - rank(b));
  for (const d of ordered) {
    const actions =
      (await probe.request("textDocument/codeAction", {
        textDocument: { uri: brokenUri },
        range: d.range,
        context: { diagnostics: [d], only: ["quickfix"] },
      })) ?? [];
    let action = actions.find((a) => a.title && (a.kind ?? "quickfix").startsWith("quickfix") && (a.edit || a.data));
    if (action && !action.edit && caps.codeActionProvider.resolveProvider) {
      action = await probe.request("codeAction/resolve", action);
    }
    if (action?.edit) {
      quickFix = { diagnostic: d, title: action.title, expected: applyEdits(broken, editsFor(action.edit, brokenUri)) };
      break;
    }
  }
}
await probe.close();
log(`server: ${diagnostics.length} diagnostics on broken.pbn; code actions: ${caps.codeActionProvider ? "yes" : "no"}`);

// ---------------------------------------------------------------- code-server
// No `pbn` on PATH: the extension must find the one bundled in the .vsix.
const isExecutable = (p) => {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};
const pathWithoutPbn = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((d) => d && !isExecutable(path.join(d, "pbn")))
  .join(path.delimiter);
const env = {
  ...process.env,
  PATH: pathWithoutPbn,
  XDG_CONFIG_HOME: path.join(TMP, "xdg/config"),
  XDG_DATA_HOME: path.join(TMP, "xdg/data"),
  XDG_CACHE_HOME: path.join(TMP, "xdg/cache"),
};
const USER_DATA = path.join(TMP, "user-data");
const EXTENSIONS = path.join(TMP, "extensions");
const settings = {
  "pbn.trace.server": "messages",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.enableExperiments": false,
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.commandCenter.enabled": false,
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "git.enabled": false,
  "editor.minimap.enabled": false,
  "editor.hover.delay": 200,
  "editor.fontSize": 15,
  "editor.lightbulb.enabled": "on",
  "files.autoSave": "off",
  "window.commandCenter": false,
};
for (const scope of ["User", "Machine"]) {
  fs.mkdirSync(path.join(USER_DATA, scope), { recursive: true });
  fs.writeFileSync(path.join(USER_DATA, scope, "settings.json"), JSON.stringify(settings, null, 2));
}
const csConfig = path.join(TMP, "code-server.yaml");
fs.writeFileSync(csConfig, "auth: none\ncert: false\n");
const csBase = ["--config", csConfig, "--user-data-dir", USER_DATA, "--extensions-dir", EXTENSIONS];

let browserContext;
let page;
let codeServer;
let csLog = "";
let failedStep;

async function cleanup() {
  try {
    await browserContext?.close();
  } catch {
    // ignore
  }
  for (const c of children) {
    if (c.exitCode === null) {
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {
        c.kill("SIGTERM");
      }
    }
  }
  await new Promise((r) => setTimeout(r, 300));
  for (const c of children) {
    if (c.exitCode === null) {
      try {
        process.kill(-c.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  if (!process.env.PBN_E2E_KEEP) fs.rmSync(TMP, { recursive: true, force: true });
  else log(`kept ${TMP}`);
}

const results = [];
async function step(name, fn) {
  const t = Date.now();
  try {
    const note = await fn();
    results.push({ name, status: note?.skipped ? "skipped" : "passed", note: note?.skipped ?? "" });
    log(`${note?.skipped ? "SKIP" : "ok  "} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)${note?.skipped ? `: ${note.skipped}` : ""}`);
  } catch (e) {
    failedStep = name;
    results.push({ name, status: "failed" });
    log(`FAIL ${name}: ${e.message}`);
    throw e;
  }
}

// ---------------------------------------------------------------- UI helpers
async function quickInput(prefixAndText) {
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: 15000 });
  await input.fill(prefixAndText);
  return input;
}

/** Runs a command from the palette by its label (the first of `labels` found). */
async function runCommand(...labels) {
  let lastError;
  for (const label of labels) {
    await page.keyboard.press("F1");
    await quickInput(`>${label}`);
    const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: label }).first();
    try {
      await row.waitFor({ state: "visible", timeout: labels.length > 1 ? 5000 : 15000 });
    } catch (e) {
      lastError = e;
      await page.keyboard.press("Escape");
      continue;
    }
    await page.keyboard.press("Enter");
    await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: 15000 });
    return;
  }
  throw new Error(`no command ${labels.map((l) => `"${l}"`).join(" or ")} in the palette: ${lastError?.message}`);
}

async function openFile(name) {
  // The quick input without the `>` prefix is Quick Open (files).
  await page.keyboard.press("F1");
  await quickInput(name);
  await page
    .locator(".quick-input-widget .monaco-list-row", { hasText: name })
    .first()
    .waitFor({ state: "visible", timeout: 15000 });
  await page.keyboard.press("Enter");
  await page.locator(".tab.active", { hasText: name }).waitFor({ timeout: 15000 });
  await page.locator(".editor-instance .monaco-editor .view-lines").first().waitFor({ timeout: 15000 });
}

/** Moves the cursor to a 0-based LSP position (Go to Line/Column). */
async function gotoPos(pos) {
  // `:line:column` in the quick input is Go to Line/Column.
  await page.keyboard.press("F1");
  await quickInput(`:${pos.line + 1}:${pos.character + 1}`);
  await page
    .locator(".quick-input-widget .monaco-list-row", { hasText: `${pos.line + 1}` })
    .first()
    .waitFor({ state: "visible", timeout: 15000 });
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: 15000 });
  await poll(
    `cursor at Ln ${pos.line + 1}, Col ${pos.character + 1}`,
    async () =>
      (await page.locator("#status\\.editor\\.selection").innerText().catch(() => "")).includes(
        `Ln ${pos.line + 1}, Col ${pos.character + 1}`
      ),
    10000
  );
}

async function showHoverAt(pos, expectFn, what) {
  return poll(
    what,
    async () => {
      await page.keyboard.press("Escape");
      await gotoPos(pos);
      await runCommand("Show or Focus Hover");
      const hover = page.locator(".monaco-hover:not(.hidden) .hover-contents, .monaco-hover:not(.hidden) .markdown-hover");
      const text = await poll("a hover", async () => {
        const n = await hover.count();
        for (let i = 0; i < n; i++) {
          const t = await hover.nth(i).innerText().catch(() => "");
          if (t.trim()) return t;
        }
        return "";
      }, 5000);
      if (!expectFn(text)) throw new Error(`hover text: ${text}`);
      return text;
    },
    45000,
    500
  );
}

/** Saves the active editor until the file on disk equals `expected` (the edit may still be on its way). */
async function saveAndRead(file, expected, what) {
  let last = 0;
  try {
    return await poll(
      what,
      async () => {
        if (fs.readFileSync(file, "utf8") === expected) return true;
        if (Date.now() - last > 1000) {
          last = Date.now();
          await page.keyboard.press("Control+S");
        }
        return false;
      },
      20000
    );
  } catch (e) {
    throw new Error(`${e.message}\n--- on disk:\n${fs.readFileSync(file, "utf8")}--- expected:\n${expected}`);
  }
}

async function screenshot(name, dir = SCREENSHOTS) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

async function screenshotClip(name, dir, clip) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, clip });
  return file;
}

const readmeShots =
  process.env.PBN_VSCODE_UPDATE_SCREENSHOTS === "1" ? SCREENSHOTS : path.join(os.tmpdir(), "pbn-vscode-e2e-screenshots");
const shots = [];

// ---------------------------------------------------------------- the test
let exitCode = 0;
try {
  await step("npm run package -- --bundle PBN_BINARY (tsc + vsce --target)", async () => {
    const vsix = path.join(TMP, "pbn-bundled.vsix");
    // Through npm, as a user runs it (npm runs scripts with sh).
    run("npm", ["run", "--silent", "package", "--", "--bundle", PBN, "-o", vsix], { cwd: EXT_DIR });
    if (!fs.existsSync(vsix)) throw new Error("no .vsix");
    const listing = run("unzip", ["-l", vsix]);
    if (!/extension\/server\/pbn\n/.test(listing)) throw new Error(`the .vsix has no server/pbn:\n${listing}`);
    const manifest = run("unzip", ["-p", vsix, "extension.vsixmanifest"]);
    const target = /TargetPlatform="([^"]+)"/.exec(manifest)?.[1];
    if (!target) throw new Error(`the .vsix names no target platform:\n${manifest}`);
    log(`  ${path.basename(vsix)}: ${target}, server/pbn bundled`);
    globalThis.VSIX = vsix;
  });

  await step("install the .vsix into code-server (no pbn on PATH)", async () => {
    if (pathWithoutPbn.split(path.delimiter).some((d) => isExecutable(path.join(d, "pbn")))) {
      throw new Error("pbn is still on PATH");
    }
    const out = run(CODE_SERVER, [...csBase, "--install-extension", globalThis.VSIX, "--force"], { env });
    const list = run(CODE_SERVER, [...csBase, "--list-extensions"], { env });
    if (!/pbn-tools\.pbn/.test(list)) throw new Error(`extension not installed:\n${out}\n${list}`);
    const installed = fs.readdirSync(EXTENSIONS).find((d) => d.startsWith("pbn-tools.pbn-"));
    if (!installed || !isExecutable(path.join(EXTENSIONS, installed, "server/pbn"))) {
      throw new Error(`the installed extension (${installed}) has no executable server/pbn`);
    }
  });

  await step("start code-server on 127.0.0.1", async () => {
    const port = await freePort();
    globalThis.URL_BASE = `http://127.0.0.1:${port}`;
    codeServer = spawn(
      CODE_SERVER,
      [
        ...csBase,
        "--bind-addr",
        `127.0.0.1:${port}`,
        "--auth",
        "none",
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--ignore-last-opened",
        WS,
      ],
      { env, stdio: ["ignore", "pipe", "pipe"], detached: true }
    );
    children.push(codeServer);
    codeServer.stdout.on("data", (d) => (csLog += d));
    codeServer.stderr.on("data", (d) => (csLog += d));
    await poll(
      "code-server to answer /healthz",
      async () => {
        if (codeServer.exitCode !== null) throw new Error(`code-server exited: ${csLog}`);
        const r = await fetch(`${globalThis.URL_BASE}/healthz`);
        return r.ok;
      },
      60000,
      250
    );
  });

  await step("open the workspace in chromium", async () => {
    browserContext = await chromium.launchPersistentContext(path.join(TMP, "chromium-profile"), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1440, height: 900 },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    });
    page = browserContext.pages()[0] ?? (await browserContext.newPage());
    page.setDefaultTimeout(30000);
    await page.goto(`${globalThis.URL_BASE}/?folder=${encodeURIComponent(WS)}`, { waitUntil: "domcontentloaded", timeout: 60000 });
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    // The explorer shows the workspace once the remote connection is up.
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "broken.pbn" }).waitFor({ timeout: 60000 });
  });

  await step("broken.pbn: error squiggle and Problems entry PBN0003", async () => {
    await openFile("broken.pbn");
    // The extension starts on onLanguage:pbn; diagnostics come from the server.
    await page.locator(".editor-instance .monaco-editor .squiggly-error").first().waitFor({ timeout: 60000 });
    // The squiggle under 17:7 is the PBN0003 diagnostic: its hover says so.
    await showHoverAt(
      pbn0003.range.start,
      (t) => t.includes("PBN0003") && t.includes(pbn0003.message.slice(0, 30)),
      "the PBN0003 diagnostic in the hover at its squiggle"
    );
    await page.keyboard.press("Escape");
    await runCommand("View: Focus Problems (Errors, Warnings, Infos)", "Problems: Focus on Problems View");
    const panel = page.locator(".markers-panel");
    await panel.waitFor({ timeout: 15000 });
    const row = await poll(
      "a Problems row with PBN0003 at Ln 17, Col 7",
      async () => {
        const rows = page.locator(".markers-panel .monaco-list-row");
        const n = await rows.count();
        for (let i = 0; i < n; i++) {
          const t = norm(await rows.nth(i).innerText());
          if (t.includes("PBN0003") && t.includes(`[Ln ${pbn0003.range.start.line + 1}, Col ${pbn0003.range.start.character + 1}]`)) {
            return t;
          }
        }
        return undefined;
      },
      30000
    );
    log(`  Problems: ${row}`);
    // The server that answered is the binary bundled in the .vsix.
    const started = await poll(
      "the extension's log line naming the bundled server",
      async () => {
        const found = [];
        const walk = (d) => {
          for (const f of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
            const p = path.join(d, f.name);
            if (f.isDirectory()) walk(p);
            else if (f.name.endsWith("PBN Language Server.log")) found.push(fs.readFileSync(p, "utf8"));
          }
        };
        walk(path.join(USER_DATA, "logs"));
        return found.join("\n").split("\n").find((l) => l.includes("[pbn] starting"));
      },
      30000,
      500
    );
    if (!started.includes("(from bundled)") || !started.includes(`${path.sep}server${path.sep}pbn lsp`)) {
      throw new Error(`the extension did not start its bundled binary: ${started}`);
    }
    log(`  ${started.trim()}`);
    // Select the entry: the editor reveals its squiggle.
    await page.locator(".markers-panel .monaco-list-row", { hasText: "PBN0003" }).first().click();
    await gotoPos(pbn0003.range.start);
    shots.push(await screenshot("vscode-problems", readmeShots));
  });

  await step("hover on the NAG $3", async () => {
    const text = await showHoverAt(nagPos, (t) => norm(t.replace(/`/g, "")).includes(nagExpected), `the hover "${nagExpected}"`);
    log(`  hover: ${norm(text)}`);
  });

  await step("deal-diagram hover on [Deal]", async () => {
    // The diagram must fit a hover in a 900-pixel-high window (a hover is
    // at most max(editor height / 4, 250 px) tall before it scrolls).
    await runCommand("View: Hide Panel", "View: Close Panel");
    await showHoverAt(
      dealPos,
      (t) => /HCP/.test(t) && t.includes("♠") && /Board \d+/.test(t) && /10/.test(t),
      "the deal diagram hover (board in the title, 10 for the ten)",
    );
    const scroll = await page
      .locator(".monaco-hover:not(.hidden) .monaco-scrollable-element")
      .first()
      .evaluate((e) => [e.scrollHeight, e.clientHeight])
      .catch(() => null);
    if (scroll && scroll[0] > scroll[1] + 2) {
      throw new Error(`the deal diagram hover scrolls in a 900-pixel-high window (${scroll[0]} px in ${scroll[1]} px)`);
    }
    log(`  deal hover: ${scroll ? `${scroll[0]} px high, fits` : "height not measured"}`);
    shots.push(await screenshotClip("vscode-hover-deal", readmeShots, { x: 0, y: 0, width: 1440, height: 760 }));
    await page.keyboard.press("Escape");
  });

  await step("quick fix", async () => {
    if (!caps.codeActionProvider) {
      return { skipped: "the server does not offer code actions (no codeActionProvider in its capabilities)" };
    }
    if (!quickFix) throw new Error("the server advertises code actions but offers no quick fix for any diagnostic of broken.pbn");
    log(`  ${quickFix.diagnostic.code}: "${quickFix.title}"`);
    await page.keyboard.press("Escape");
    await gotoPos(quickFix.diagnostic.range.start);
    await runCommand("Quick Fix...");
    const item = page.locator(".action-widget .monaco-list-row.action", { hasText: quickFix.title }).first();
    await item.waitFor({ state: "visible", timeout: 20000 });
    // The action list takes the keyboard (a pointer block covers it): move
    // the focus to the item, then apply it with Enter.
    await poll(`the quick fix "${quickFix.title}" focused`, async () => {
      const focused = await page.locator(".action-widget .monaco-list-row.focused").getAttribute("aria-label").catch(() => null);
      if (focused === quickFix.title) return true;
      await page.keyboard.press("ArrowDown");
      return false;
    }, 10000, 150);
    await page.keyboard.press("Enter");
    await page.locator(".action-widget").waitFor({ state: "hidden", timeout: 10000 }).catch(() => {});
    await saveAndRead(BROKEN, quickFix.expected, `broken.pbn after "${quickFix.title}"`);
  });

  await step("Format Document: import format → export format", async () => {
    await openFile("format.pbn");
    await runCommand("Format Document");
    await saveAndRead(FORMAT, formatExpected, "format.pbn on disk to equal `pbn fmt --stdout`");
  });

  await step("a clear error when the server binary is missing", async () => {
    // Changing pbn.server.path restarts the client; a path with no binary
    // must give an error notification naming the setting.
    const missing = path.join(TMP, "no-such-dir", "pbn");
    for (const scope of ["User", "Machine"]) {
      fs.writeFileSync(
        path.join(USER_DATA, scope, "settings.json"),
        JSON.stringify({ ...settings, "pbn.server.path": missing }, null, 2)
      );
    }
    const toast = await poll(
      "an error notification about the missing server",
      async () => {
        const texts = await page.locator(".notification-toast").allInnerTexts();
        return texts.map(norm).find((t) => t.includes("language server was not found") && t.includes(missing));
      },
      30000,
      250
    );
    log(`  notification: ${toast}`);
  });
} catch (e) {
  exitCode = 1;
  console.log(`\nFAILED at step "${failedStep}": ${e.stack ?? e}`);
  if (page) {
    try {
      const f = await screenshot(`failure-${(failedStep ?? "setup").replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`);
      console.log(`screenshot: ${f}`);
    } catch (se) {
      console.log(`(no screenshot: ${se.message})`);
    }
    try {
      const notes = await page.locator(".notification-toast").allInnerTexts();
      if (notes.length) console.log(`notifications:\n  ${notes.map(norm).join("\n  ")}`);
    } catch {
      // ignore
    }
  }
  console.log(`\ncode-server log (tail):\n${csLog.split("\n").slice(-40).join("\n")}`);
  const exthostLogs = [];
  const walk = (d) => {
    for (const f of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p);
      else if (/exthost|PBN Language Server/i.test(p) && f.name.endsWith(".log")) exthostLogs.push(p);
    }
  };
  walk(path.join(USER_DATA, "logs"));
  for (const f of exthostLogs) {
    console.log(`\n${path.relative(USER_DATA, f)} (tail):\n${fs.readFileSync(f, "utf8").split("\n").slice(-30).join("\n")}`);
  }
} finally {
  await cleanup();
}

const count = (s) => results.filter((r) => r.status === s).length;
for (const s of shots) log(`screenshot: ${s}`);
for (const r of results.filter((r) => r.status === "skipped")) console.log(`SKIPPED: ${r.name}: ${r.note}`);
log(`vscode e2e: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`);
process.exit(exitCode);
