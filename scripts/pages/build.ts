// Builds the service's own pages into dist/pages (run by `npm run build`, so `npm install` builds them): the coverage
// explorer's script bundled by esbuild with its map data (us-atlas states, d3-geo, topojson-client), the API
// reference's initializer, swagger-ui-dist's bundle and stylesheet copied beside them, and the HTML and CSS as they
// are. Everything is served from the service's own origin: no CDN at run time.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRootOf } from '../../src/domain/project-root.js';

// The project root (this file runs from scripts/ under tsx and from dist/scripts/ once compiled).
const root = projectRootOf(import.meta.url)!;
const src = join(root, 'pages');
const out = join(root, 'dist', 'pages');
const assets = join(out, 'assets');
const quiet = process.argv.includes('--quiet');

rmSync(out, { recursive: true, force: true });
mkdirSync(join(assets, 'swagger-ui'), { recursive: true });

await build({
  entryPoints: { explorer: join(src, 'explorer', 'main.ts'), docs: join(src, 'docs', 'main.ts') },
  outdir: assets,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: quiet ? 'warning' : 'info',
});

for (const file of readdirSync(src)) {
  if (file.endsWith('.html')) copyFileSync(join(src, file), join(out, file));
  if (file.endsWith('.css') || file.endsWith('.svg')) copyFileSync(join(src, file), join(assets, file));
}
const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE']) {
  copyFileSync(join(swagger, file), join(assets, 'swagger-ui', file));
}
if (!quiet) process.stdout.write(`pages built in ${out}\n`);
