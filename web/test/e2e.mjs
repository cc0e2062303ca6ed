// Drives the built page (web/build.sh's output) in Debian's chromium with
// playwright-core, as a person would: opens files with the file picker,
// clicks Fix all, Format, Hand records. Run by tests/tests/web_chromium.rs,
// which compares what it prints (one JSON document) with the pbn CLI.
//
//   node e2e.mjs SPEC.json   (SPEC: {dist, out, errors, latin1, records, big})
//   node e2e.mjs --bench DIST FILE   (BENCHMARKS.md's "Web": opening FILE,
//                                     three times: load to first diagnostics, check time)
//
// Exits 77 with "SKIP: why" when playwright-core or chromium is missing.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(77);
}

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(CHROMIUM)) skip(`chromium not found at ${CHROMIUM} (run .ci/install-web.sh)`);
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  skip("playwright-core is not installed in web/test/node_modules (run .ci/install-web.sh)");
}

const bench = process.argv[2] === "--bench";
const spec = bench
  ? { dist: path.resolve(process.argv[3]), bench: path.resolve(process.argv[4]) }
  : JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

// A static file server on the loopback interface: the page needs nothing else.
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm",
};
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = path.join(spec.dist, rel === "/" ? "index.html" : rel);
  if (!file.startsWith(spec.dist) || !fs.existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const out = {};

async function newPage() {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") console.error(`console: ${m.text()}`); });
  // The longest tasks of the main thread, from the first script on.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.pbnPage && window.pbnPage.ready);
  await page.evaluate(() => window.pbnPage.ready);
  return page;
}

// Opens `file` through the page's file picker and waits for its check.
async function open(page, file) {
  const before = await page.evaluate(() => window.pbnPage.doc.checked);
  await page.setInputFiles("#file", file);
  await page.waitForFunction(
    (b) => window.pbnPage.doc.checked !== b && window.pbnPage.doc.checked === window.pbnPage.doc.version,
    before, { timeout: 120000 });
}

const shownDiagnostics = (page) =>
  page.$$eval("#diagnostics li[data-code]", (lis) => lis.map((li) => ({
    line: Number(li.dataset.line), column: Number(li.dataset.column),
    code: li.dataset.code, severity: li.dataset.severity,
    message: li.querySelector(".message").textContent,
  })));

async function clickAndWait(page, button) {
  const v = await page.evaluate(() => window.pbnPage.doc.version);
  await page.click(button);
  await page.waitForFunction(
    (v) => window.pbnPage.doc.version !== v && window.pbnPage.doc.checked === window.pbnPage.doc.version,
    v, { timeout: 120000 });
}

// Saves the bytes Download would save as SPEC.out/NAME.
async function saveBytes(page, name) {
  const a = await page.evaluate(async () => Array.from(await window.pbnPage.bytes()));
  fs.writeFileSync(path.join(spec.out, name), Buffer.from(a));
}

if (bench) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.pbnPage && window.pbnPage.ready);
    await page.evaluate(() => window.pbnPage.ready);
    await open(page, spec.bench);
    runs.push({
      loadToFirstDiagnosticsMs: Date.now() - t0,
      checkMs: Math.round(await page.evaluate(() => window.pbnPage.doc.checkMs)),
      games: await page.evaluate(() => window.pbnPage.doc.games),
    });
    await page.close();
  }
  await browser.close();
  server.close();
  console.log(JSON.stringify(runs));
  process.exit(0);
}

try {
  // A file with known errors: diagnostics, squiggles, Fix all, Format.
  {
    const page = await newPage();
    await open(page, spec.errors);
    out.errors = {
      diagnostics: await shownDiagnostics(page),
      squiggles: await page.$$eval(".cm-pbn-error, .cm-pbn-warning, .cm-pbn-info, .cm-pbn-hint", (e) => e.length),
      highlighted: await page.$$eval("[class^='h-'], [class*=' h-']", (e) => e.length),
      encoding: await page.evaluate(() => window.pbnPage.doc.encoding),
    };
    // One diagnostic's own fix, applied with a click.
    const fixButtons = await page.$$("#diagnostics li button.fix");
    out.errors.fixButtons = fixButtons.length;
    if (fixButtons.length) {
      const before = await page.evaluate(() => window.pbnPage.doc.diagnostics.length);
      await fixButtons[0].click();
      await page.waitForFunction(
        () => window.pbnPage.doc.checked === window.pbnPage.doc.version, null, { timeout: 60000 });
      await page.waitForFunction((b) => window.pbnPage.doc.diagnostics.length < b, before, { timeout: 60000 });
      out.errors.afterOneFix = await page.evaluate(() => window.pbnPage.doc.diagnostics.length);
      out.errors.beforeOneFix = before;
    }
    await open(page, spec.errors);
    await clickAndWait(page, "#fix-all");
    await saveBytes(page, "fixed.pbn");
    await open(page, spec.errors);
    await clickAndWait(page, "#format");
    await saveBytes(page, "formatted.pbn");
    await page.close();
  }
  // Text pasted into the editor is checked.
  {
    const page = await newPage();
    await page.click("#editor .cm-content");
    await page.keyboard.insertText('[Event "pasted"]\n[Board "x"]\n');
    await page.waitForFunction(
      () => window.pbnPage.doc.checked === window.pbnPage.doc.version && window.pbnPage.doc.version > 0,
      null, { timeout: 60000 });
    out.pasted = await shownDiagnostics(page);
    await page.close();
  }
  // A Latin-1 file round-trips: open, then the bytes Download saves.
  {
    const page = await newPage();
    await open(page, spec.latin1);
    out.latin1 = {
      encoding: await page.evaluate(() => window.pbnPage.doc.encoding),
    };
    await saveBytes(page, "latin1.pbn");
    await page.close();
  }
  // Hand records: every board drawn, then solved in the worker.
  {
    const page = await newPage();
    await open(page, spec.records);
    // Hover on the first Deal's value: the core's hover, shown as a tooltip.
    const at = await page.evaluate(() => {
      const d = window.pbnPage.view.state.doc;
      for (let n = 1; n <= d.lines; n++) {
        if (d.line(n).text.startsWith("[Deal ")) return { line: n - 1, col: 8, pos: d.line(n).from + 8 };
      }
      return null;
    });
    const answer = await page.evaluate(({ line, col }) => window.pbnPage.core("hover", { line, col }), at);
    const box = await page.evaluate((pos) => {
      const c = window.pbnPage.view.coordsAtPos(pos);
      return { x: (c.left + c.right) / 2 + 2, y: (c.top + c.bottom) / 2 };
    }, at.pos);
    await page.mouse.move(box.x, box.y);
    await page.waitForSelector(".pbn-hover .core-hover", { timeout: 60000 });
    out.hover = {
      line: at.line, col: at.col,
      markdown: answer && answer.markdown,
      tooltip: await page.textContent(".pbn-hover .core-hover"),
    };
    await page.mouse.move(0, 0);
    await page.click("#tab-records");
    await page.waitForFunction(() => window.pbnPage.doc.ddDone, null, { timeout: 300000 });
    const frame = page.frameLocator("#records-frame");
    out.records = {
      articles: await frame.locator("article.board").count(),
      titles: await frame.locator("article.board h2").allTextContents(),
      dd: await page.evaluate(() => window.pbnPage.doc.dd.map((d) => d && d.tricks)),
      progress: await page.textContent("#dd-progress"),
    };
    // Download as RBN, LIN, forum text, the dump and the score report.
    await page.click("#tab-editor");
    for (const to of ["rbn", "lin", "forum", "dump", "score"]) {
      await page.selectOption("#convert-to", to);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#convert")]);
      await download.saveAs(path.join(spec.out, `converted.${to}`));
    }
    await page.close();
  }
  // A big file: the page stays responsive (the longest main-thread task).
  {
    const page = await newPage();
    const t0 = Date.now();
    await open(page, spec.big);
    const firstMs = Date.now() - t0;
    // Scroll to the end and back: highlighting follows the viewport.
    await page.evaluate(() => {
      const v = window.pbnPage.view;
      v.dispatch({ selection: { anchor: v.state.doc.length }, scrollIntoView: true });
    });
    await page.waitForTimeout(500);
    out.big = {
      firstDiagnosticsMs: firstMs,
      checkMs: await page.evaluate(() => window.pbnPage.doc.checkMs),
      games: await page.evaluate(() => window.pbnPage.doc.games),
      diagnostics: await page.evaluate(() => window.pbnPage.doc.diagnostics.length),
      longestTaskMs: Math.max(0, ...(await page.evaluate(() => window.__longTasks))),
    };
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
console.log(JSON.stringify(out));
