// The project root, found from a module's own address: the nearest folder above it holding package.json. The same
// answer whether the module runs from src/ or scripts/ under tsx or from dist/ once compiled.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root above `moduleUrl` (pass `import.meta.url`), or undefined when no package.json is above it. */
export function projectRootOf(moduleUrl: string): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
