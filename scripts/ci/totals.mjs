// Adds up the closing counts of the CI logs: mocha's "N passing / N pending / N failing", schemathesis's
// "N generated, N passed, N failed, N skipped" and StrykerJS's final mutation score (one check: passed when the score
// reaches the break threshold), and prints one plain line "N passed, N failed, N skipped".
// Exits non-zero when a log has no count at all (a runner that ran nothing must not look green).
//   node scripts/ci/totals.mjs LOG...            the closing line over every log
//   node scripts/ci/totals.mjs --stage LOG       a one-line summary of one log, worded so no runner reader takes it
//                                                for a closing line ("mocha: 639 passing, 0 failing, 7 pending",
//                                                "stryker: mutation score 85.31% (break 80), 1341 mutants detected, 231 undetected")
import { readFileSync } from 'node:fs';

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** The counts in one log, or null when it holds none. */
export function countsOf(text) {
  text = strip(text);
  const last = (re) => { let n = 0; for (const m of text.matchAll(re)) n = Number(m[1]); return n; };
  if (/^\s*\d+ passing\b/m.test(text)) {
    return { runner: 'mocha', passed: last(/^\s*(\d+) passing\b/gm), failed: last(/^\s*(\d+) failing\b/gm), skipped: last(/^\s*(\d+) pending\b/gm) };
  }
  // schemathesis: one summary per run (the CI script runs it twice: an ordinary key, then the admin operations).
  const runs = [...text.matchAll(/^\s*(\d+) generated, (.*)$/gm)];
  if (runs.length) {
    const part = (st, word) => Number((st[2].match(new RegExp(`(\\d+) ${word}`)) ?? [0, 0])[1]);
    const sum = (word) => runs.reduce((n, st) => n + part(st, word), 0);
    // scripts/ci/schemathesis-coverage.mjs's summary: how many keyed operations reached a 2xx.
    const keyed = /keyed: (\d+), (\d+) reached 2xx/.exec(text);
    return { runner: 'schemathesis', passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), ...(keyed ? { keyed: Number(keyed[1]), keyed2xx: Number(keyed[2]) } : {}) };
  }
  // StrykerJS (npm run mutate): the clear-text table's "All files" row and the final score against the threshold.
  const all = /^All files\s*\|\s*([\d.]+)\s*\|\s*[\d.]+\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|/m.exec(text);
  const verdict = /Final mutation score (?:of )?([\d.]+) (is greater than or equal to break threshold|under breaking threshold) (\d+)/.exec(text);
  if (all && verdict) {
    const ok = verdict[2].startsWith('is greater');
    const [killed, timeout, survived, noCoverage] = all.slice(2, 6).map(Number);
    return { runner: 'stryker', passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, score: Number(verdict[1]), threshold: Number(verdict[3]), detected: killed + timeout, undetected: survived + noCoverage };
  }
  return null;
}

const args = process.argv.slice(2);
if (args[0] === '--stage') {
  const c = countsOf(readFileSync(args[1], 'utf8'));
  if (!c) { console.log('no count'); process.exit(1); }
  if (c.runner === 'stryker') {
    console.log(`stryker: mutation score ${c.score}% (break ${c.threshold}), ${c.detected} mutants detected, ${c.undetected} undetected`);
    process.exit(0);
  }
  const words = c.runner === 'mocha' ? ['passing', 'failing', 'pending'] : ['cases passed', 'cases failed', 'cases skipped'];
  const keyed = c.keyed !== undefined ? `; ${c.keyed2xx} of ${c.keyed} keyed operations reached 2xx` : '';
  console.log(`${c.runner}: ${c.passed} ${words[0]}, ${c.failed} ${words[1]}, ${c.skipped} ${words[2]}${keyed}`);
  process.exit(0);
}
let passed = 0, failed = 0, skipped = 0, missing = 0;
for (const file of args) {
  let text = '';
  try { text = readFileSync(file, 'utf8'); } catch { /* a stage that never ran */ }
  const c = countsOf(text);
  if (!c) { console.error(`${file}: no test count found`); missing++; continue; }
  passed += c.passed; failed += c.failed; skipped += c.skipped;
}
// A log without a count is a failure of that stage: it counts as one failed check so the line never reads green.
console.log(`${passed} passed, ${failed + missing} failed, ${skipped} skipped`);
process.exit(missing ? 1 : 0);
