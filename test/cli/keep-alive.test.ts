/**
 * A command that ends by awaiting an unref'd deadline (a recording stopping after its target
 * exited) must still finish: without keepAlive, Node exits with 13 ("unsettled top-level await")
 * the moment nothing else holds the process open.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const helper = pathToFileURL(join(process.cwd(), 'src-main', 'cli', 'keep-alive.ts')).href;
const run = (code: string) => spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 30_000 });

describe("a command awaiting an unref'd deadline at its end", () => {
  it('finishes with its own exit code instead of 13 (unsettled top-level await)', () => {
    const deadline = 'new Promise((r) => setTimeout(() => r("settled"), 200).unref())';
    const bare = run(`const v = await ${deadline}; console.log(v);`);
    expect(bare.status).toBe(13);
    const held = run(`import { keepAlive } from ${JSON.stringify(helper)}; const v = await keepAlive(${deadline}); console.log(v);`);
    expect(held.status).toBe(0);
    expect(held.stdout.trim()).toBe('settled');
  });
});
