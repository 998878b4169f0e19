// The committed ELM (cql/elm) is what the pinned CQL reference translator makes of cql/*.cql today: recompile into
// a temporary folder with scripts/cql/compile.sh and compare every file. Skipped, saying so, where java or mvn is
// not installed (the ELM is committed, so the service itself never needs them).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('CQL: the committed ELM matches a fresh translation', function () {
  this.timeout(300_000);

  it('when cql/*.cql is compiled again by the pinned translator, then every ELM file is identical to the committed one', function () {
    const missing = ['java', 'mvn'].filter((c) => !has(c));
    if (missing.length) {
      console.log(`      SKIPPED ELM drift check: ${missing.join(' and ')} not installed (install a JDK 17+ and Maven to run it)`);
      this.skip();
    }
    const out = mkdtempSync(join(tmpdir(), 'elm-'));
    try {
      execFileSync(join(ROOT, 'scripts/cql/compile.sh'), [out], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 280_000 });
      const committed = readdirSync(join(ROOT, 'cql/elm')).sort();
      expect(readdirSync(out).sort()).to.deep.equal(committed);
      for (const f of committed) {
        expect(readFileSync(join(out, f), 'utf8') === readFileSync(join(ROOT, 'cql/elm', f), 'utf8'), `cql/elm/${f} differs from a fresh translation: run scripts/cql/compile.sh and commit`).to.equal(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
