// Adds up the closing counts of the CI logs: mocha's "N passing / N pending / N failing" and schemathesis's
// "N generated, N passed, N failed, N skipped", and prints one plain line "ci: N passed, N failed, N skipped".
// Exits non-zero when a log has no count at all (a runner that ran nothing must not look green).
import { readFileSync } from 'node:fs';

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
let passed = 0, failed = 0, skipped = 0;
for (const file of process.argv.slice(2)) {
  const text = strip(readFileSync(file, 'utf8'));
  const num = (re) => { let n = 0; for (const m of text.matchAll(re)) n = Number(m[1]); return n; };
  const mochaPassing = [...text.matchAll(/^\s*(\d+) passing\b/gm)];
  if (mochaPassing.length) {
    passed += num(/^\s*(\d+) passing\b/gm);
    failed += num(/^\s*(\d+) failing\b/gm);
    skipped += num(/^\s*(\d+) pending\b/gm);
    continue;
  }
  const st = [...text.matchAll(/^\s*(\d+) generated, (.*)$/gm)].pop();
  if (st) {
    const part = (word) => Number((st[2].match(new RegExp(`(\\d+) ${word}`)) ?? [0, 0])[1]);
    passed += part('passed');
    failed += part('failed');
    skipped += part('skipped');
    continue;
  }
  console.error(`${file}: no test count found`);
  process.exit(1);
}
console.log(`ci: ${passed} passed, ${failed} failed, ${skipped} skipped`);
