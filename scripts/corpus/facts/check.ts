// A curator's check of the fact files (corpus/facts/FORMAT.md), without writing anything:
//   npx tsx scripts/corpus/facts/check.ts [--why] [XX ...]
// Prints every problem of the fact files (all of them: one broken file fails the build for everyone), then, per named
// state (or every state with a fact file), how many program-level rules the facts make verified and how many use a
// fact but are not verified yet (awaiting a second read, a submission route or a scope basis). --why also lists, per
// state, what keeps those rules from being verified (the rule's caveat, counted by program, with the subjects). Exit 1 on a problem.
import { join } from 'node:path';
import { PROGRAMS } from '../../../src/domain/vocabulary.js';
import { projectRootOf } from '../../../src/domain/project-root.js';
import { payerLevelRules, programLevelRules } from '../rules.js';
import { applyFacts } from './apply.js';
import { loadFacts } from './load.js';

const root = projectRootOf(import.meta.url)!;

const loaded = loadFacts(join(root, 'corpus', 'facts'), root);
const { rules, report } = applyFacts([...programLevelRules(), ...payerLevelRules()], loaded.facts);
const problems = [...loaded.errors, ...report.errors];
for (const p of problems) console.log(`problem: ${p}`);

const why = process.argv.includes('--why');
const wanted = process.argv.slice(2).filter((a) => a !== '--why').map((s) => s.toUpperCase());
const states = wanted.length ? wanted : [...new Set(loaded.facts.map((f) => f.file))].filter((s) => s !== 'national').sort();
for (const st of states) {
  const mine = rules.filter((r) => !r.payer && r.jurisdiction === st);
  const cells = PROGRAMS.map((p) => {
    const ofP = mine.filter((r) => r.program === p);
    const verified = ofP.filter((r) => r.verification.status === 'verified' && (r.evidence?.length ?? 0) > 0).length;
    const partial = ofP.filter((r) => r.verification.status !== 'verified' && (r.evidence?.length ?? 0) > 0).length;
    return `${p} ${verified}${partial ? ` (+${partial} not yet)` : ''}`;
  });
  console.log(`${st}: ${cells.join(', ')}`);
  if (!why) continue;
  const reasons = new Map<string, string[]>();
  for (const r of mine) {
    if (r.verification.status === 'verified' || !(r.evidence?.length)) continue;
    const missing = /Partly verified: (.*?)(?: A source document|$)/.exec(r.verification.caveat ?? '')?.[1] ?? r.verification.caveat ?? '';
    const key = `${r.program}: ${missing}`;
    reasons.set(key, [...(reasons.get(key) ?? []), r.subject.code]);
  }
  // Each reason with the subjects it holds back, so a curator sees which rules one more fact would verify.
  for (const [k, codes] of [...reasons].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${codes.length} x ${k}\n      ${codes.sort().join(', ')}`);
}
const disputed = report.disputed.filter((d) => !wanted.length || wanted.some((s) => d.includes(`/${s}.yaml`)));
if (disputed.length) console.log(`disputed (not applied): ${disputed.join(', ')}`);
console.log(`${problems.length} problem(s); ${report.verified} verified rules overall`);
process.exit(problems.length ? 1 : 0);
