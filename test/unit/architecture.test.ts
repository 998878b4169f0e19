// The house reads one way (docs/architecture.md, issue 24): dependency-cruiser over src/, capability/ and
// fhir-profiles/ with the layer rules of .dependency-cruiser.cjs (no import up a layer, none between sibling
// layers, data folders importing nothing from src/), and no source file over 400 lines.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const require = createRequire(import.meta.url);
const MAX_LINES = 400;
const RULES = (require('../../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] }).forbidden;

async function violationsIn(dirs: string[], baseDir?: string): Promise<ICruiseResult> {
  const out = await cruise(dirs, {
    ruleSet: { forbidden: RULES },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    validate: true,
    ...(baseDir ? { baseDir } : {}),
  }, undefined, baseDir ? {} : { tsConfig: extractTSConfig('tsconfig.json') });
  return out.output as ICruiseResult;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('architecture: one direction through the house', function () {
  this.timeout(120_000);
  let result: ICruiseResult;

  before(async () => {
    result = await violationsIn(['src', 'capability', 'fhir-profiles']);
  });

  it('when every import of src/ is read, then none points up a layer, sideways between sibling layers, or from data into src/', () => {
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(violations).to.deep.equal([]);
    // The check saw the whole house (a wrong path would pass vacuously).
    expect(result.summary.totalCruised).to.be.greaterThan(150);
    expect(result.modules.some((m) => m.source === 'src/api/registry.ts')).to.equal(true);
  });

  it('when a house has an import up a layer, one between siblings and one from data, then each is reported (the rules are live)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arch-'));
    const file = (rel: string, text: string): void => {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };
    file('src/domain/a.ts', "import { b } from '../services/b.js';\nexport const a = b;\n");
    file('src/services/b.ts', "export const b = 1;\n");
    file('src/corpus/c.ts', "import { d } from '../ingest/d.js';\nexport const c = d;\n");
    file('src/ingest/d.ts', "export const d = 2;\n");
    file('capability/e.ts', "import { b } from '../src/services/b.js';\nexport const e = b;\n");
    file('src/fhir/ok.ts', "import { d } from '../ingest/d.js';\nexport const ok = d;\n");
    const r = await violationsIn(['src', 'capability'], dir);
    expect(r.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort()).to.deep.equal([
      'data-only: capability/e.ts -> src/services/b.ts',
      'sideways-from-corpus: src/corpus/c.ts -> src/ingest/d.ts',
      'up-from-domain: src/domain/a.ts -> src/services/b.ts',
    ]);
  });

  it('when every source file is counted, then none is over 400 lines', () => {
    const long = sourceFiles('src').map((f) => [f, readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_LINES);
    expect(long).to.deep.equal([]);
  });
});
