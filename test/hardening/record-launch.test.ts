/**
 * `gcscope record -- COMMAND` with a command that is not a .NET app (issue 19 defect 12): it used
 * to print a stack trace and never exit (the reverse-connect socket and its 60 s accept kept the
 * process alive). Now: exit 2 at once, one line saying why, nothing stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-record-launch-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('record -- a command that never connects', () => {
  for (const [cmd, why] of [
    [['true'], /true exited \(code 0\) before its runtime connected to GCScope: is it a \.NET 5\+ app\?/],
    [['/nonexistent'], /cannot start \/nonexistent: no such program/],
  ] as const) {
    it(`record -- ${cmd.join(' ')} exits 2 with one line and stores nothing (no stack, no hang)`, async () => {
      const db = join(dir, `${cmd[0]!.replace(/\W/g, '')}.db`);
      // Well under the 60 s the launch used to wait: a hang fails this test.
      const r = await runCli(['record', '--db', db, '--', ...cmd], { timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(why);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const s = await runCli(['sessions', '--db', db, '--json']);
      expect((JSON.parse(s.stdout) as { sessions: unknown[] }).sessions).toEqual([]);
    });
  }
});
