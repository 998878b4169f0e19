// npx tsx bench/ask-accuracy.ts: how many of our own phrasings (test/unit/ask-phrasings.ts) /v1/ask reads correctly
// (state, program and subjects all as expected), per pattern, and how long extraction takes in process. Reads the
// generated sample corpus (fixtures/, `npm run build`). Prints a Markdown table (docs/ask-accuracy.md keeps the runs).
import { buildReadModel } from '../src/corpus/read-model.js';
import { planAnswer } from '../src/services/ask/answer.js';
import { extract } from '../src/services/ask/extract.js';
import { PHRASINGS, type Phrasing } from '../test/unit/ask-phrasings.js';
import { sampleCorpusDocuments } from '../test/support/sample-corpus.js';

const model = buildReadModel(sampleCorpusDocuments(), 1);

function reading(q: string): { state: string | null; program: string | null; subjects: string[] } {
  const plan = planAnswer(model, { question: q });
  const subjects = extract(model, q).subjects.map((s) => s.code);
  return { state: plan.scope.states[0] ?? null, program: plan.scope.programs[0] ?? null, subjects: [...new Set(subjects)].sort() };
}

const same = (p: Phrasing, r: ReturnType<typeof reading>): boolean =>
  p.state === r.state && p.program === r.program && JSON.stringify([...p.subjects].sort()) === JSON.stringify(r.subjects);

const rows: string[] = ['| pattern | correct | of | accuracy | controls correct |', '|---|---|---|---|---|'];
let correct = 0;
let total = 0;
const misses: string[] = [];
for (const [pattern, table] of Object.entries(PHRASINGS)) {
  let ok = 0;
  let controls = 0;
  for (const p of table) {
    const r = reading(p.q);
    if (same(p, r)) {
      ok++;
      if (p.control) controls++;
    } else misses.push(`${pattern}: "${p.q}" read as ${JSON.stringify(r)}`);
  }
  correct += ok;
  total += table.length;
  rows.push(`| ${pattern} | ${ok} | ${table.length} | ${((100 * ok) / table.length).toFixed(1)}% | ${controls} of ${table.filter((p) => p.control).length} |`);
}
rows.push(`| all | ${correct} | ${total} | ${((100 * correct) / total).toFixed(1)}% | |`);

// Extraction time in process: every phrasing, warmed up, then each timed over many calls; the slowest question's mean
// and the 99th percentile of single calls (a garbage collection lands in the odd single call).
const questions = Object.values(PHRASINGS).flatMap((t) => t.map((p) => p.q));
for (let i = 0; i < 200; i++) for (const q of questions) extract(model, q);
const ROUNDS = 500;
const calls: number[] = [];
let slowest = { q: '', mean: 0 };
for (const q of questions) {
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) {
    const s = performance.now();
    extract(model, q);
    calls.push(performance.now() - s);
  }
  const mean = (performance.now() - t0) / ROUNDS;
  if (mean > slowest.mean) slowest = { q, mean };
}
// The longest question the interface accepts (1,000 characters), timed the same way.
const long = 'My patient was switched between plans several times this year and the pharmacy keeps telling us something different about whether the request has to be submitted again, what paperwork the reviewer expects, how long a decision usually takes, and who we should call. '.repeat(4).slice(0, 1000);
for (let i = 0; i < 200; i++) extract(model, long);
const tLong = performance.now();
for (let i = 0; i < ROUNDS; i++) extract(model, long);
const longMean = (performance.now() - tLong) / ROUNDS;
calls.sort((a, b) => a - b);
const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
const overall = calls.reduce((a, b) => a + b, 0) / calls.length;

console.log(rows.join('\n'));
console.log(`\nextract(): mean ${us(overall)}, p99 ${us(calls[Math.floor(calls.length * 0.99)]!)} per call; slowest question ${us(slowest.mean)} on average ("${slowest.q}"); ${questions.length} questions x ${ROUNDS} calls after warm-up; a 1,000-character question ${us(longMean)}`);
if (misses.length) console.log(`\nmisses:\n${misses.map((m) => `- ${m}`).join('\n')}`);
