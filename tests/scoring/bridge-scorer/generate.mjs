// Writes tests/fixtures/scoring/bridge_scorer.json: the results of the npm
// package bridge-scorer (pinned in package.json) on random boards of NS
// scores, for tests/tests/scoring_cross_check.rs, which compares them with
// pbn_core::bridge::scoring. Run it with
//
//     cd tests/scoring/bridge-scorer && npm ci && node generate.mjs
//
// The output depends only on SEED and bridge-scorer's version: running it
// again must not change the committed file.

import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const scorer = require('bridge-scorer');
// Not re-exported by index.js, but the function every IMP of the package
// goes through.
const { toImps } = require('bridge-scorer/lib/imps.js');
const VERSION = require('bridge-scorer/package.json').version;

const SEED = 0x5eed2024;
const BOARDS = 300;
const OUT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/scoring/bridge_scorer.json',
);

// mulberry32: a tiny seeded PRNG, enough to pick scores reproducibly.
function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(SEED);
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // lo..=hi
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const sign = () => (rnd() < 0.5 ? -1 : 1);

// Scores a declarer can make, vulnerable or not: part scores, games (with
// overtricks and doubled), slams and grand slams.
const MADE = [
  70, 80, 90, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 230, 240,
  400, 420, 430, 450, 460, 470, 490, 510, 530, 550, 590, 600, 610, 620, 630,
  640, 650, 660, 670, 690, 710, 730, 750, 760, 790, 800, 840, 870, 920, 940,
  980, 990, 1010, 1090, 1370, 1390, 1430, 1440, 1460, 1470, 1510, 1520, 1540,
  1580, 1630, 1660, 2140, 2170, 2210, 2220,
];
// Undertricks, undoubled and doubled, either vulnerability.
const DOWN = [
  50, 100, 150, 200, 250, 300, 400, 500, 800, 1100, 1400, 1700, 2000, 2300,
];
const POOL = [...new Set([...MADE, ...DOWN])].sort((a, b) => a - b);
// The upper ends of the IMP steps of the 1962 scale (0-10, 20-40, 50-80, …).
const IMP_TOPS = [
  10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090,
  1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
];

const poolScore = () => (rnd() < 0.04 ? 0 : sign() * pick(POOL));
// The score next to `s` in POOL (an overtrick more or less, another
// contract nearby), on the same side.
function nextTo(s) {
  if (s === 0) return poolScore();
  const i = POOL.indexOf(Math.abs(s)) + pick([-1, 1]);
  return Math.sign(s) * POOL[Math.min(Math.max(i, 0), POOL.length - 1)];
}

// A board most tables bid alike: a common result, with overtricks, a few
// other contracts, penalties and the odd passed-out table.
function typicalBoard(n) {
  const theme = poolScore();
  const other = poolScore();
  const scores = [];
  for (let t = 0; t < n; ++t) {
    const r = rnd();
    if (r < 0.4) scores.push(theme);
    else if (r < 0.55) scores.push(nextTo(theme));
    else if (r < 0.7) scores.push(other);
    else if (r < 0.8) scores.push(theme === 0 ? -50 : -Math.sign(theme) * pick(DOWN));
    else if (r < 0.95) scores.push(poolScore());
    else scores.push(0);
  }
  return scores;
}

// Scores at a difference on each side of an IMP step (10/20, 40/50, …,
// 3990/4000/4010) from a common score.
function boundaryBoard(n) {
  const base = poolScore();
  const scores = [base];
  while (scores.length < n) {
    const top = pick(IMP_TOPS);
    const d = pick([top, top + 10, rnd() < 0.2 ? 4000 + 10 * int(0, 30) : top]);
    scores.push(rnd() < 0.3 ? base : base + sign() * d);
  }
  return scores;
}

const wildBoard = (n) => Array.from({ length: n }, poolScore);
const flatBoard = (n) => new Array(n).fill(poolScore());

// Boards picked by hand, first: the edges of each method.
const EDGES = [
  [420, 170, -50], // pbn_core's unit test of cross-IMPs
  [120, 50, -80, -80, -110, -140, -150, -150], // ruter71.pbn board 1: datum -90
  [50, -100, -140, -140, -140, -140, -140, -140], // ruter71.pbn board 2: -130
  [-80, -90], // a mean of -85: a half ten below zero
  [80, 90], // a mean of 85
  [-50, -100, -150, -50], // Butler-2 keeps -100 and -50: -75
  [0, 0], // passed out at both tables
  [620, 620, 620, 620, 620, 620], // one score everywhere
  [100, 110, 120, 140, 150, 180, 190], // 10, 20, 40, 50, 80, 90 from 100
  [2000, -1990, -2000, -2010], // 3990, 4000, 4010
  [2210, -2300, 50], // beyond 4000
  [420, 450, 420, 400, -50, -100, 420, 170, 140, 650, 620], // 11 tables
  [1440, -100, 680, 650, 650, 620, 620, 170, 200, -200, 650, 1430, -1400, 0], // 14
];

function board(k) {
  if (k < EDGES.length) return EDGES[k];
  const n = int(2, 14);
  const r = rnd();
  if (r < 0.55) return typicalBoard(n);
  if (r < 0.75) return boundaryBoard(n);
  if (r < 0.95) return wildBoard(n);
  return flatBoard(n);
}

// bridge-scorer's games for NS scores: a declarer from either side, the
// score from the declarer's side, `{ score: 0 }` for a passed-out board.
function games(scores, declarers) {
  return scores.map((s, i) =>
    s === 0
      ? { score: 0 }
      : { contract: { declaror: declarers[i] }, score: 'NS'.includes(declarers[i]) ? s : -s },
  );
}

function check(cond, what, scores) {
  if (!cond) throw new Error(`bridge-scorer ${what} on ${JSON.stringify(scores)}`);
}

function run(scores) {
  const declarers = scores.map(() => pick(['N', 'E', 'S', 'W']));
  const mp = scorer.matchpoints(games(scores, declarers));
  const acbl = scorer.matchpointsACBL(games(scores, declarers));
  const cross = games(scores, declarers);
  scorer.crossImps(cross);
  const butler = games(scores, declarers);
  const datum = scorer.butler(butler);
  // What the fixture leaves out, because it follows from what it keeps:
  // each game has every result; the percentages of the two scales are the
  // same numbers (k/m and 2k/2m are the same double); EW's IMPs are NS's
  // negated.
  for (let i = 0; i < scores.length; ++i) {
    check(mp[i].matchpointsNS && acbl[i].matchpointsNS, 'dropped a game', scores);
    check(cross[i].impsNS && butler[i].impsNS, 'dropped a game', scores);
    check(
      Object.is(mp[i].matchpointsNS.percentage, acbl[i].matchpointsNS.percentage) &&
        Object.is(mp[i].matchpointsEW.percentage, acbl[i].matchpointsEW.percentage),
      'gave MP and ACBL different percentages',
      scores,
    );
    check(cross[i].impsEW.value === -cross[i].impsNS.value, 'EW cross-IMPs', scores);
    check(butler[i].impsEW.value === -butler[i].impsNS.value, 'EW Butler IMPs', scores);
  }
  return {
    scores,
    mp: mp.map((g) => g.matchpointsNS.value),
    mpEW: mp.map((g) => g.matchpointsEW.value),
    acbl: acbl.map((g) => g.matchpointsNS.value),
    acblEW: acbl.map((g) => g.matchpointsEW.value),
    pct: mp.map((g) => g.matchpointsNS.percentage),
    pctEW: mp.map((g) => g.matchpointsEW.percentage),
    cross: cross.map((g) => g.impsNS.value),
    datum,
    butler: butler.map((g) => g.impsNS.value),
  };
}

// toImps on every difference from -4600 to 4600 by 5: the multiples of 10
// real scores differ by, and the odd fives between them.
const imps = [];
for (let d = -4600; d <= 4600; d += 5) imps.push([d, toImps(d)]);

const boards = [];
for (let k = 0; k < BOARDS; ++k) boards.push(run(board(k)));

const rows = (xs, perLine) => {
  const lines = [];
  for (let i = 0; i < xs.length; i += perLine) {
    lines.push(xs.slice(i, i + perLine).map((x) => JSON.stringify(x)).join(','));
  }
  return lines.join(',\n  ');
};

const text = `{
 "generator": "tests/scoring/bridge-scorer/generate.mjs (bridge-scorer ${VERSION}, seed 0x${SEED.toString(16)})",
 "fields": {
  "imps": "[difference, toImps(difference)]: lib/imps.js's IMP scale",
  "scores": "NS scores, one per table",
  "mp": "matchpoints(): matchpointsNS.value (2 per lower score, 1 per equal)",
  "mpEW": "matchpoints(): matchpointsEW.value",
  "acbl": "matchpointsACBL(): matchpointsNS.value (1 per lower score, 1/2 per equal)",
  "acblEW": "matchpointsACBL(): matchpointsEW.value",
  "pct": "matchpoints(): matchpointsNS.percentage (matchpointsACBL()'s is the same double)",
  "pctEW": "matchpoints(): matchpointsEW.percentage",
  "cross": "crossImps(): impsNS.value (impsEW is its negation)",
  "datum": "butler()'s return: the NS datum",
  "butler": "butler(): impsNS.value (impsEW is its negation)"
 },
 "imps": [
  ${rows(imps, 12)}
 ],
 "boards": [
  ${boards.map((b) => JSON.stringify(b)).join(',\n  ')}
 ]
}
`;
JSON.parse(text);
writeFileSync(OUT, text);
console.log(`${OUT}: ${boards.length} boards, ${boards.reduce((a, b) => a + b.scores.length, 0)} rows, ${imps.length} differences, ${text.length} bytes`);
