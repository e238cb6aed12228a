/** Where the installed GCScope package is (its bundled workers and assets live under it). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Package root: the nearest folder above this module with a package.json (the bundled CLI's
 * code sits in dist/ or, split per command, in dist/chunks/).
 */
export function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here, i = 0; i < 4; i++, dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return join(here, '..');
}
