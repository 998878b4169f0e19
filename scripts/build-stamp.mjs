// Whether dist/ is built from the sources as they are now, so `npm start` rebuilds only when something changed.
// The fingerprint is every build input's path, size and mtime; `npm run build` takes it before compiling
// (`--begin`) and records it when the build has succeeded (`--end`), so a file edited during a build leaves the
// fingerprint stale and the next start rebuilds. `--if-stale` runs `npm run build` only when they differ.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// What the build reads: the compiled sources, the corpus facts and pages it generates from, and the installed
// dependencies (the pages bundle vendor files; node_modules/.package-lock.json changes on every install).
const INPUTS = ['src', 'scripts', 'corpus', 'pages', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'];
const STAMP = join(root, 'dist', '.build-stamp');

function fingerprint() {
  const hash = createHash('sha256');
  const visit = (rel) => {
    const path = join(root, rel);
    if (!existsSync(path)) return hash.update(`${rel}\0missing\n`);
    const st = statSync(path);
    if (!st.isDirectory()) return hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
    for (const name of readdirSync(path).sort()) visit(join(rel, name));
  };
  INPUTS.forEach(visit);
  return hash.digest('hex');
}

const built = () => (existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '');

switch (process.argv[2]) {
  case '--begin':
    mkdirSync(dirname(STAMP), { recursive: true });
    writeFileSync(`${STAMP}.pending`, fingerprint());
    break;
  case '--end':
    renameSync(`${STAMP}.pending`, STAMP);
    break;
  case '--if-stale':
    if (built() !== fingerprint()) {
      const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
      process.exit(r.status ?? 1);
    }
    break;
  default:
    process.stderr.write('usage: node scripts/build-stamp.mjs --begin | --end | --if-stale\n');
    process.exit(2);
}
