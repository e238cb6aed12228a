/**
 * `gcscope watch`'s contract at the command line without a .NET process: bad input is exit 2 with
 * one line naming the problem, and the help lists every option the README documents.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('gcscope watch: bad input and help', () => {
  it('a missing pid, a mistyped trigger and a bad number are exit 2 with one line saying what to fix', async () => {
    const none = await runCli(['watch']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('gcscope: watch needs --pid N (gcscope ps lists the processes)\n');
    const trig = await runCli(['watch', '--pid', '1', '--trigger', 'gen=2,kind=slow']);
    expect(trig.code).toBe(2);
    expect(trig.stderr).toBe('gcscope: --trigger: kind must be one of blocking, background, foreground (kind=blocking), not "slow"\n');
    const ring = await runCli(['watch', '--pid', '1', '--ring-mb', '-5']);
    expect(ring.code).toBe(2);
    expect(ring.stderr).toMatch(/^gcscope: --ring-mb needs a number above 0, not "-5"\n$/);
    const after = await runCli(['watch', '--pid', '1', '--after', 'soon']);
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/cannot read duration "soon"/);
  });

  it('a process that does not exist is exit 2, like record', async () => {
    rmSync('test-output/watch-cli.db', { force: true });
    const r = await runCli(['watch', '--pid', '999999', '--db', 'test-output/watch-cli.db']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no process with id 999999/);
  });

  it('--help lists the options', async () => {
    const r = await runCli(['watch', '--help']);
    expect(r.code).toBe(0);
    for (const o of [
      '--pid',
      '--trigger',
      '--ring-mb',
      '--before',
      '--after',
      '--cooldown',
      '--max-per-hour',
      '--verbose-after',
      '--reattach',
      '--out',
      '--db',
      '--json',
    ])
      expect(r.stdout).toContain(o);
  });
});
