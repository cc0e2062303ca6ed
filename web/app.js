// The page: CodeMirror 6 on the main thread, the core (WebAssembly) in
// workers (worker.js): one for checking, fixing and formatting, one for
// the double-dummy solver. Nothing is sent anywhere.
import {
  EditorState, StateField, StateEffect, RangeSetBuilder,
  EditorView, Decoration, ViewPlugin, keymap, hoverTooltip, lineNumbers,
  highlightActiveLine, highlightActiveLineGutter, drawSelection,
  history, defaultKeymap, historyKeymap,
} from "./codemirror.js";

// ---- workers ------------------------------------------------------------

function makeWorker(onEvent) {
  const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const pending = new Map();
  let next = 0;
  w.onmessage = (e) => {
    const m = e.data;
    if (m.type) return onEvent && onEvent(m);
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve(m.result);
  };
  return (op, args, transfer) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      w.postMessage({ id, op, args }, transfer || []);
    });
}

const core = makeWorker();
const solver = makeWorker(onSolved);

// ---- document state -----------------------------------------------------

const doc = {
  name: "untitled.pbn",
  encoding: "utf-8",
  eol: "\n",
  version: 0,
  checked: -1,
  diagnostics: [],
  games: 0,
  dd: [],
};

const $ = (id) => document.getElementById(id);
const status = (s) => { $("status").textContent = s; };

// The text as the core reads it: CodeMirror's lines joined with the file's
// line break (the dominant one of a file with mixed line breaks).
function text() {
  const d = view.state.doc;
  return d.sliceString(0, d.length, doc.eol);
}

function eolOf(t) {
  const crlf = (t.match(/\r\n/g) || []).length;
  const lf = (t.match(/\n/g) || []).length - crlf;
  const cr = (t.match(/\r/g) || []).length - crlf;
  if (crlf >= lf && crlf >= cr && crlf > 0) return "\r\n";
  if (cr > lf) return "\r";
  return "\n";
}

function posOf(state, [line, col]) {
  const d = state.doc;
  if (line >= d.lines) return d.length;
  const l = d.line(line + 1);
  return Math.min(l.from + col, l.to);
}

// ---- diagnostics in the editor -------------------------------------------

const setDiagnostics = StateEffect.define();
const diagnosticsField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setDiagnostics)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function diagnosticDecorations(state, list) {
  const marks = [];
  for (const d of list) {
    let from = posOf(state, d.from);
    let to = posOf(state, d.to);
    if (to <= from) {
      to = Math.min(from + 1, state.doc.length);
      if (to <= from) continue;
    }
    marks.push(Decoration.mark({ class: `cm-pbn-${d.severity}`, diagnostic: d }).range(from, to));
  }
  return Decoration.set(marks, true);
}

// ---- highlighting from the core ------------------------------------------

const setHighlights = StateEffect.define();
const highlightField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setHighlights)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const markCache = new Map();
function markFor(name) {
  let m = markCache.get(name);
  if (!m) {
    const cls = name.split(".").map((p, i, a) => "h-" + a.slice(0, i + 1).join("-")).join(" ");
    m = Decoration.mark({ class: cls });
    markCache.set(name, m);
  }
  return m;
}

// Asks the worker for the highlights of the visible lines (of the version
// last checked) and shows them.
async function refreshHighlights() {
  if (doc.checked !== doc.version) return;
  const version = doc.version;
  const { from, to } = view.viewport;
  const first = view.state.doc.lineAt(from).number - 1;
  const last = view.state.doc.lineAt(to).number - 1;
  const spans = await core("highlight", { first: Math.max(0, first - 50), last: last + 50 });
  if (version !== doc.version) return;
  const b = new RangeSetBuilder();
  const d = view.state.doc;
  for (const [line, c0, c1, name] of spans) {
    if (line >= d.lines) break;
    const l = d.line(line + 1);
    const a = Math.min(l.from + c0, l.to);
    const z = Math.min(l.from + Math.min(c1, 1e9), l.to);
    if (z > a) b.add(a, z, markFor(name));
  }
  view.dispatch({ effects: setHighlights.of(b.finish()) });
}

const viewportWatcher = ViewPlugin.fromClass(class {
  constructor() { this.timer = 0; }
  update(u) {
    if (u.viewportChanged && !u.docChanged) {
      clearTimeout(this.timer);
      this.timer = setTimeout(refreshHighlights, 50);
    }
  }
});

// ---- hover: the diagnostics under the pointer, and the core's hover -------

const hover = hoverTooltip(async (v, pos) => {
  const here = [];
  v.state.field(diagnosticsField).between(pos, pos, (a, z, deco) => {
    here.push(deco.spec.diagnostic);
  });
  let info = null;
  if (doc.checked === doc.version) {
    const line = v.state.doc.lineAt(pos);
    try {
      info = await core("hover", { line: line.number - 1, col: pos - line.from });
    } catch (e) {
      info = null;
    }
  }
  if (!here.length && !info) return null;
  return {
    pos,
    above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "pbn-hover";
      for (const d of here) {
        const p = document.createElement("div");
        p.className = "d";
        p.textContent = `${d.severity}[${d.code}]: ${d.message}`;
        dom.appendChild(p);
      }
      if (info && info.markdown) dom.appendChild(markdown(info.markdown));
      return { dom };
    },
  };
}, { hoverTime: 300 });

// The hover's Markdown, simply: fenced blocks as <pre>, the rest as text
// with `code` and **bold**.
function markdown(md) {
  const root = document.createElement("div");
  root.className = "core-hover";
  const parts = md.split(/^```[a-z]*\n?/m);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const pre = document.createElement("pre");
      pre.textContent = part.replace(/\n$/, "");
      root.append(pre);
      return;
    }
    for (const para of part.split(/\n{2,}/)) {
      if (!para.trim()) continue;
      const rows = para.trim().split("\n");
      if (rows.every((r) => r.startsWith("|"))) {
        const table = document.createElement("table");
        for (const r of rows) {
          const cells = r.slice(1, r.endsWith("|") ? -1 : undefined).split("|");
          if (cells.every((c) => /^\s*:?-+:?\s*$/.test(c))) continue;
          const tr = table.insertRow();
          for (const c of cells) tr.insertCell().textContent = c.trim();
        }
        root.append(table);
        continue;
      }
      const p = document.createElement("p");
      for (const [j, bit] of para.split(/(`[^`]*`|\*\*[^*]+\*\*)/).entries()) {
        if (j % 2 === 0) p.append(bit);
        else if (bit.startsWith("`")) {
          const c = document.createElement("code");
          c.textContent = bit.slice(1, -1);
          p.append(c);
        } else {
          const b = document.createElement("b");
          b.textContent = bit.slice(2, -2);
          p.append(b);
        }
      }
      root.append(p);
    }
  });
  return root;
}

// ---- the editor ----------------------------------------------------------

let checkTimer = 0;
const onChange = EditorView.updateListener.of((u) => {
  if (!u.docChanged) return;
  doc.version++;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 300);
});

function extensions() {
  return [
    lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
    history(), keymap.of([...defaultKeymap, ...historyKeymap]),
    diagnosticsField, highlightField, viewportWatcher, hover, onChange,
    EditorView.theme({ "&": { height: "100%" } }),
  ];
}

const view = new EditorView({
  state: EditorState.create({ doc: "", extensions: extensions() }),
  parent: $("editor"),
});

function setText(t) {
  view.setState(EditorState.create({ doc: t, extensions: extensions() }));
  doc.version++;
}

// ---- checking ------------------------------------------------------------

let firstDiagnostics = null;
const firstDiagnosticsShown = new Promise((r) => { firstDiagnostics = r; });

async function runCheck() {
  const version = doc.version;
  const t = text();
  status(`checking ${doc.name}…`);
  const res = await core("check", { text: t, encoding: doc.encoding });
  if (version !== doc.version) return;
  doc.checked = version;
  doc.diagnostics = res.diagnostics;
  doc.games = res.games;
  doc.checkMs = res.checkMs;
  view.dispatch({ effects: setDiagnostics.of(diagnosticDecorations(view.state, res.diagnostics)) });
  showDiagnostics(res);
  refreshHighlights();
  firstDiagnostics(performance.now());
}

const SHOWN = 1000;
function showDiagnostics(res) {
  const count = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of res.diagnostics) count[d.severity]++;
  const fixable = res.diagnostics.filter((d) => d.fix && d.fix.applicability === "safe").length;
  status(`${doc.name} (${doc.encoding}): ${res.games} game${res.games === 1 ? "" : "s"}, ` +
    `${count.error} errors, ${count.warning} warnings, ${count.info} infos, ${count.hint} hints` +
    (fixable ? `; ${fixable} fixable by Fix all` : "") +
    ` (checked in ${Math.round(res.checkMs)} ms)`);
  const ul = $("diagnostics");
  ul.textContent = "";
  const frag = document.createDocumentFragment();
  res.diagnostics.slice(0, SHOWN).forEach((d, i) => {
    const li = document.createElement("li");
    li.className = `sev-${d.severity}`;
    Object.assign(li.dataset, {
      index: i, line: d.line, column: d.column, code: d.code, severity: d.severity,
    });
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.line}:${d.column}`;
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = `${d.severity}[${d.code}]`;
    const msg = document.createElement("span");
    msg.className = "message";
    msg.textContent = d.message;
    li.append(where, code, msg);
    if (d.fix && d.edits.length) {
      const b = document.createElement("button");
      b.className = "fix";
      b.type = "button";
      b.textContent = d.fix.applicability === "safe" ? "Fix" : "Fix (unsafe)";
      b.title = d.fix.message;
      b.onclick = (e) => { e.stopPropagation(); applyFix(d); };
      li.append(b);
    }
    const x = document.createElement("button");
    x.className = "explain";
    x.type = "button";
    x.textContent = "?";
    x.title = `pbn explain ${d.code}`;
    x.onclick = (e) => { e.stopPropagation(); explain(d.code); };
    li.append(x);
    li.onclick = () => {
      const p = posOf(view.state, d.from);
      view.dispatch({ selection: { anchor: p }, scrollIntoView: true });
      view.focus();
    };
    frag.append(li);
  });
  if (res.diagnostics.length > SHOWN) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and ${res.diagnostics.length - SHOWN} more`;
    frag.append(li);
  }
  ul.append(frag);
}

function applyFix(d) {
  const changes = d.edits.map((e) => ({
    from: posOf(view.state, e.from), to: posOf(view.state, e.to), insert: e.insert,
  }));
  view.dispatch({ changes });
}

async function explain(code) {
  const e = await core("explain", { code });
  $("explanation").textContent = e
    ? `${e.code} ${e.name} (PBN 2.1 ${e.section})\n\n${e.summary}\n\n${e.explanation}\n\nFails:\n${e.bad}\nPasses:\n${e.good}`
    : "";
}

// ---- opening, fixing, formatting, saving ----------------------------------

async function openBytes(name, bytes) {
  const t0 = performance.now();
  doc.name = name;
  const d = await core("decode", { bytes }, [bytes]);
  doc.encoding = d.encoding;
  doc.eol = d.eol;
  doc.lineEnding = d.line_ending;
  doc.dd = [];
  setText(d.text);
  await runCheck();
  doc.openMs = performance.now() - t0;
  if (document.body.classList.contains("records")) showRecords();
}

async function openFile(file) {
  await openBytes(file.name, await file.arrayBuffer());
}

async function replaceText(t, encoding) {
  doc.encoding = encoding;
  doc.eol = eolOf(t);
  const d = view.state.doc;
  view.dispatch({ changes: { from: 0, to: d.length, insert: t } });
  clearTimeout(checkTimer);
  await runCheck();
}

async function fixAll() {
  const r = await core("fixAll", { text: text(), encoding: doc.encoding });
  await replaceText(r.text, r.encoding);
  return r;
}

async function format() {
  const r = await core("format", { text: text(), encoding: doc.encoding });
  await replaceText(r.text, r.encoding);
  return r;
}

// The bytes Download saves: the text in the file's encoding.
async function bytes() {
  return core("encode", { text: text(), encoding: doc.encoding });
}

function save(name, data, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([data], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

const stem = () => doc.name.replace(/\.[^.]*$/, "");

async function convertTo(to) {
  if (to === "dump") {
    const json = await core("dump", { text: text(), encoding: doc.encoding });
    save(`${stem()}.json`, json, "application/json");
    return { text: json, losses: [] };
  }
  if (to === "score") {
    const report = await core("score", { text: text() });
    save(`${stem()}-score.txt`, report, "text/plain;charset=utf-8");
    return { text: report, losses: [] };
  }
  const r = await core("convert", { text: text(), to });
  const ext = { rbn: "rbn", lin: "lin", forum: "txt" }[to];
  save(`${stem()}.${ext}`, r.text, "text/plain;charset=utf-8");
  if (r.losses.length) status(`converted to ${to.toUpperCase()}; not carried: ${r.losses.join("; ")}`);
  return r;
}

// ---- hand records ---------------------------------------------------------

async function showRecords() {
  const html = await core("records", { text: text(), encoding: doc.encoding, name: doc.name });
  const frame = $("records-frame");
  await new Promise((r) => { frame.onload = r; frame.srcdoc = html; });
  doc.dd = [];
  $("dd-progress").textContent = "solving double dummy…";
  solver("dd", { text: text(), encoding: doc.encoding, name: doc.name });
}

let currentRun = 0;
function onSolved(m) {
  if (m.k < 0) { currentRun = m.run; }
  if (m.run !== currentRun) return;
  if (m.solved) {
    doc.dd[m.k] = m.solved;
    const fd = $("records-frame").contentDocument;
    const old = fd && fd.getElementById(`game-${m.k + 1}`);
    if (old) old.outerHTML = m.solved.html;
  }
  const done = m.k + 1;
  $("dd-progress").textContent = done >= m.n
    ? `double dummy: ${m.n} game${m.n === 1 ? "" : "s"} solved`
    : `solving double dummy: ${done} of ${m.n} games…`;
  if (done >= m.n) doc.ddDone = true;
}

function tab(records) {
  document.body.classList.toggle("records", records);
  $("tab-editor").setAttribute("aria-selected", String(!records));
  $("tab-records").setAttribute("aria-selected", String(records));
  if (records) { doc.ddDone = false; showRecords(); }
  else solver("ddStop");
}

// ---- wiring -----------------------------------------------------------------

$("open").onclick = () => $("file").click();
$("file").onchange = (e) => { const f = e.target.files[0]; if (f) openFile(f); e.target.value = ""; };
$("fix-all").onclick = fixAll;
$("format").onclick = format;
$("download").onclick = async () => save(doc.name, await bytes(), "application/octet-stream");
$("convert").onclick = () => convertTo($("convert-to").value);
$("tab-editor").onclick = () => tab(false);
$("tab-records").onclick = () => tab(true);
$("print").onclick = () => $("records-frame").contentWindow.print();

let drags = 0;
addEventListener("dragenter", (e) => { e.preventDefault(); drags++; document.body.classList.add("dragging"); });
addEventListener("dragleave", () => { if (--drags <= 0) { drags = 0; document.body.classList.remove("dragging"); } });
addEventListener("dragover", (e) => e.preventDefault());
addEventListener("drop", (e) => {
  e.preventDefault();
  drags = 0;
  document.body.classList.remove("dragging");
  const f = e.dataTransfer.files[0];
  if (f) openFile(f);
});

// For the tests (tests/tests/web_chromium.rs) and the curious.
window.pbnPage = {
  doc, view, text, bytes, openBytes, fixAll, format, convertTo, showRecords, tab,
  core, firstDiagnosticsShown,
  ready: core("explain", { code: "PBN0001" }).then(() => true),
};
