/**
 * Every command ends with a full garbage collection (src-main/cli/exit-settle.ts): without it,
 * Node 20 hung for ever at exit in ~2 % of `gcscope diagnose` runs (a background compile job
 * waiting for a collection the exiting main thread never runs). The hang itself is a race too
 * rare to catch in a test; this checks the collection happens last, through both entries.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const BUNDLE = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));

describe('a gcscope command can always exit', () => {
  for (const [name, entry] of [
    ['the gcscope command', BIN],
    ['node dist/cli.mjs', BUNDLE],
  ] as const) {
    it(`${name} runs a full collection after its output, so Node cannot hang at exit`, () => {
      const r = spawnSync(process.execPath, ['--trace-gc', entry, 'help'], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.findIndex((l) => l.includes('Usage: gcscope'))).toBeGreaterThanOrEqual(0);
      // V8's --trace-gc names a gc() call "testing"; it must be the last thing the process did.
      expect(lines.at(-1)).toMatch(/Mark-Compact .* testing/);
    });
  }
});
