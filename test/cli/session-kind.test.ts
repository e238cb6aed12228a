/**
 * The CLI on a database holding a session of a kind this version does not know: `sessions` lists
 * it with its kind (a Kind column only then), and every GC command on it exits 2 with one line
 * saying what kind it is and that it has no GCs.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { createSession } from '../../src-main/store/sessions.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'cli-session-kind');
const DB = join(DIR, 'kinds.db');
const env = { GCSCOPE_DB: DB };
let other = 0;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  expect((await runCli(['import', TRACES + 'workload-concurrent.nettrace.zip'], { env })).code).toBe(0);
  const db = await Database.open(DB);
  other = await createSession(db, { kind: 'something-new', name: 'from a newer GCScope', source: 'record', status: 'complete', processName: 'App' });
  await db.close();
}, 60_000);

describe('a session of an unknown kind on the command line', () => {
  it('sessions lists it with its kind; sessions --json carries every kind', async () => {
    const r = await runCli(['sessions'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+Status\s+Kind\s+Name\s+Process\s+GCs\s+Max pause\s+GC mode\s+Created \(UTC\)$/m);
    expect(r.stdout).toMatch(new RegExp(`^\\s*${other}\\s+complete\\s+something-new \\(unknown\\)\\s+from a newer GCScope\\s+App\\s+\\d{4}-`, 'm'));
    expect(r.stdout).toMatch(/^\s*1\s+complete\s+gc\s+workload-concurrent\.nettrace\.zip\s+GcWorkload\s+38\s/m);
    expect(r.stdout).toMatch(/\(unknown\) was written by a newer GCScope/);
    const j = JSON.parse((await runCli(['sessions', '--json'], { env })).stdout) as { sessions: { id: number; kind: string }[] };
    expect(j.sessions.map((s) => [s.id, s.kind])).toEqual([
      [other, 'something-new'],
      [1, 'gc'],
    ]);
  });

  for (const args of [['report'], ['report', '--format', 'json'], ['diagnose'], ['log'], ['allocs'], ['compare', '--session', '1']]) {
    it(`${args.join(' ')} --session on it exits 2 with one line`, async () => {
      const r = await runCli([...args, '--session', String(other)], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `gcscope: session ${other} is of kind "something-new", which this version of GCScope does not know (a newer GCScope made it): it has no GCs this version can show\n`,
      );
    });
  }

  it('a database of GC recordings only lists as before (no Kind column)', async () => {
    const only = join(DIR, 'gc-only.db');
    expect((await runCli(['import', '--db', only, TRACES + 'workload-concurrent.nettrace.zip'], { env })).code).toBe(0);
    const r = await runCli(['sessions', '--db', only], { env });
    expect(r.stdout.split('\n')[1]).toMatch(/^ID\s+Status\s+Name\s+Process\s+GCs\s+Max pause\s+GC mode\s+Created \(UTC\)$/);
  });
});
