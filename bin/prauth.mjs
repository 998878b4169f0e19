#!/usr/bin/env node
// The CLI entry point: runs the compiled CLI (npm install builds it through the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const compiled = fileURLToPath(new URL('../dist/src/cli/prauth.js', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write('prauth: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(compiled);
