/**
 * The README is the five-minute introduction: it must open with exactly the two set-up commands
 * (and CI must run the second one as written), document every CLI command that exists, and
 * show screenshots and link pages that exist.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const ROOT = process.cwd();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('opens with exactly the two set-up commands, and .ci/run runs the test one as written', () => {
    const first = /^# GCScope\n\n```\n([^`]*)```/.exec(readme);
    expect(first, 'a code block right after the title').not.toBeNull();
    expect(first![1]!.trim().split('\n')).toEqual(['npm install && npm start', 'npm install && npm test']);
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci.trim().split('\n').at(-1)).toBe('npm install && npm test');
  });

  it('documents every command `gcscope --help` lists', async () => {
    const r = await runCli(['--help']);
    const commands = [...r.stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThanOrEqual(8);
    for (const c of commands) expect(readme, `README mentions gcscope ${c}`).toContain(`\`gcscope ${c}`);
  });

  it('the bundle run directly (node dist/cli.mjs --help) prints the same help as the gcscope command', async () => {
    const viaBin = await runCli(['--help']);
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.mjs'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(viaBin.stdout);
    expect(r.stdout).toContain('Usage: gcscope');
  });

  it('shows screenshots and links pages that exist', () => {
    const refs = [...readme.matchAll(/\]\(((?:docs|assets)\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(refs.filter((r) => r.endsWith('.png')).length).toBeGreaterThanOrEqual(3);
    for (const r of refs) expect(existsSync(join(ROOT, r)), r).toBe(true);
    expect(readme).toContain('docs/architecture.md');
    expect(existsSync(join(ROOT, 'docs', 'architecture.md'))).toBe(true);
  });
});
