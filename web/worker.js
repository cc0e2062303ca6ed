// The page's worker: every call into the core (pkg/pbn_wasm.js, built from
// web/pbn-wasm) runs here, off the page's main thread. Messages are
// {id, op, args}; answers {id, result} or {id, error}; the double-dummy
// run also posts {type: "dd", …} as each game is solved.
import init, * as pbn from "./pkg/pbn_wasm.js";

const ready = init();
let highlights = null;
let checkedText = null;
let hovers = null;
let ddRun = 0;

const ops = {
  decode: ({ bytes }) => JSON.parse(pbn.decode(new Uint8Array(bytes))),
  encode: ({ text, encoding }) => pbn.encode(text, encoding),
  check: ({ text, encoding }) => {
    const t0 = performance.now();
    const result = JSON.parse(pbn.check(text, encoding));
    result.checkMs = performance.now() - t0;
    if (highlights) highlights.free();
    if (hovers) hovers.free();
    highlights = hovers = null;
    checkedText = text;
    return result;
  },
  // The highlights of lines first..=last of the text last checked (all of
  // its highlights are computed at the first request).
  highlight: ({ first, last }) => {
    if (!highlights && checkedText !== null) highlights = new pbn.Highlights(checkedText);
    return highlights ? JSON.parse(highlights.lines(first, last)) : [];
  },
  fixAll: ({ text, encoding, unsafeFixes }) =>
    JSON.parse(pbn.fix_all(text, encoding, !!unsafeFixes)),
  format: ({ text, encoding }) => JSON.parse(pbn.format(text, encoding)),
  dump: ({ text, encoding }) => pbn.dump(text, encoding),
  score: ({ text }) => pbn.score(text),
  records: ({ text, encoding, name }) => pbn.records_html(text, encoding, name),
  convert: ({ text, to }) => JSON.parse(pbn.convert(text, to)),
  explain: ({ code }) => JSON.parse(pbn.explain(code)),
  // The language server's hover at a position of the text last checked.
  hover: ({ line, col }) => {
    if (!hovers && checkedText !== null) hovers = new pbn.Hover(checkedText);
    return hovers ? JSON.parse(hovers.at(line, col)) : null;
  },
  // Solves every game in turn, posting each result; a newer run (or
  // `ddStop`) ends an older one between two games.
  dd: async ({ text, encoding, name }) => {
    const run = ++ddRun;
    const session = new pbn.DdSession(text, encoding, name);
    const n = session.games();
    postMessage({ type: "dd", run, k: -1, n });
    for (let k = 0; k < n; k++) {
      await new Promise((r) => setTimeout(r, 0));
      if (run !== ddRun) break;
      const solved = JSON.parse(session.solve(k));
      postMessage({ type: "dd", run, k, n, solved });
    }
    session.free();
    return { run, n };
  },
  ddStop: () => {
    ddRun++;
    return null;
  },
};

onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    await ready;
    const result = await ops[op](args || {});
    postMessage({ id, result });
  } catch (err) {
    postMessage({ id, error: String((err && err.stack) || err) });
  }
};
