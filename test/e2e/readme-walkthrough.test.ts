// The README's walk-through, run as a new user would: a fresh data directory, `npm start`'s server, `npx prauth`,
// and every curl line of the walk-through sent as written. When the README's commands stop working, this fails.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { MINIMAL_RECORDS } from '../../src/ingest/ingest-doc.js';
import { startServer, type Spawned } from '../support/spawn.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The shell lines of the README section "A walk-through with a key" (up to the next section). */
export function walkthroughLines(readme: string): string[] {
  const section = readme.slice(readme.indexOf('## A walk-through with a key'), readme.indexOf('\n## ', readme.indexOf('## A walk-through with a key') + 5));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));
}

async function npxPrauth(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // The walk-through's server runs on the embedded store (see startServer): so does its CLI, as a user's would.
    const { MONGODB_URI: _uri, MONGODB_DB: _db, ...inherited } = process.env;
    const { stdout, stderr } = await run('npx', ['--no-install', 'prauth', ...args], { cwd: root, env: { ...inherited, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Splits a command line into words, honouring double quotes (enough for the README's lines). */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('end to end: the README walk-through, as written', function () {
  this.timeout(120_000);
  let server: Spawned | undefined;
  after(async () => server?.stop('SIGKILL'));

  it('runs every command of the walk-through against a fresh data directory with npx prauth and the sample corpus', async () => {
    const lines = walkthroughLines(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(lines[0]).to.match(/^SERVE_SAMPLE_RULES=true npm start/);
    expect(lines.filter((l) => l.startsWith('curl')).length).to.be.at.least(5);
    const env = { PRAUTH_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'prauth-readme-')), 'data') };
    const vars: Record<string, string> = {};
    let lastKeyId = '';
    const ran: string[] = [];
    for (const raw of lines) {
      if (/^(\w+=\S+ )*npm start/.test(raw)) {
        // The walk-through opts in to sample rules as written (SERVE_SAMPLE_RULES=true npm start): pass what it sets.
        const set = Object.fromEntries([...raw.matchAll(/(\w+)=(\S+) /g)].map((m) => [m[1]!, m[2]!]));
        expect(set).to.deep.equal({ SERVE_SAMPLE_RULES: 'true' });
        server = await startServer({ ...env, ...set }, 60_000); // the same dist/src/main.js that npm start runs, with the sample corpus
        continue;
      }
      const assign = /^(\w+)=\$\((.*)\)$/.exec(raw);
      const line = (assign ? assign[2]! : raw).replace(/\$(\w+)/g, (_, v: string) => vars[v] ?? '').replace('<key id>', () => lastKeyId);
      if (line.startsWith('npx prauth ')) {
        const args = words(line).slice(2).map((a) => (a === './my-rules.ndjson' ? myRules() : a));
        const out = await npxPrauth(args, env);
        expect(out.code, `${raw}\n${out.stderr}`).to.equal(0);
        if (/^npx prauth (keys (create|revoke)|ingest)/.test(raw)) expect(out.stderr).to.match(/wrote to the embedded store in .* \(through the server pid \d+/);
        if (assign) vars[assign[1]!] = out.stdout.trim();
        const id = /key id (k_[0-9a-f]+)/.exec(out.stderr);
        if (id) lastKeyId = id[1]!;
        ran.push(raw);
        continue;
      }
      if (line.startsWith('curl ')) {
        const w = words(line);
        const url = w.find((x) => x.startsWith('localhost:8080'))!.replace('localhost:8080', server!.url);
        const headers: Record<string, string> = {};
        for (let i = 0; i < w.length; i++) if (w[i] === '-H') headers[w[i + 1]!.split(':')[0]!] = w[i + 1]!.split(': ')[1]!;
        const res = await fetch(url, { headers });
        const body = await res.text();
        const expected404 = /glp1_weight_loss/.test(line) && /medicare_traditional/.test(line); // the README says 404 scope_gap
        expect(res.status, `${raw}\n${body.slice(0, 300)}`).to.equal(expected404 ? 404 : 200);
        if (expected404) expect(JSON.parse(body)).to.include({ code: 'scope_gap', scope_gap: true });
        else expect(body.length).to.be.greaterThan(20);
        ran.push(raw);
        continue;
      }
      throw new Error(`the README walk-through has a line this test does not know how to run: ${raw}`);
    }
    expect(ran.some((l) => l.includes('keys revoke'))).to.equal(true);
    expect(vars.KEY).to.match(/^[0-9a-f-]{36}$/);
  });
});

function myRules(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'prauth-rules-')), 'my-rules.ndjson');
  writeFileSync(file, `${JSON.stringify(MINIMAL_RECORDS.CoverageRule)}\n`);
  return file;
}
