/**
 * Paths given relative to the folder GCScope ran in (issue 40): `gcscope record --out traces`
 * stored the raw trace's path as given, so recovery run from another folder did not find the
 * file and marked the session failed although its raw trace was there. Every stored path is
 * absolute: the raw trace's, and a watch's captures'.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listCaptures } from '../../src-main/store/captures.js';
import { Database } from '../../src-main/store/db.js';
import { BIN } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, startWorkload } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'relative-out');
let skip = false;
const children: ChildProcess[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'recording with a relative --out against a live .NET process');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(join(DIR, 'here'), { recursive: true });
  mkdirSync(join(DIR, 'elsewhere'), { recursive: true });
}, 300_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Runs the CLI in `cwd`, returning when it exits. */
function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the CLI in `cwd` and kills it (-9) once `ready(stdout)` holds. */
async function killWhen(args: string[], cwd: string, ready: (stdout: string) => boolean): Promise<string> {
  const p = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(p);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gcscope ${args[0]} never got ready: ${out}`)), 90_000);
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  await new Promise((r) => setTimeout(r, 300)); // let a flush commit
  p.kill('SIGKILL');
  await new Promise((r) => p.once('exit', r));
  return out;
}

describe('a relative --out', () => {
  it('record --out traces, killed; recovery run from another folder finds the raw trace (was: failed, "raw trace … is missing")', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'churn', '--seconds', '60'] }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'record.db');
    await killWhen(['record', '--pid', String(pid), '--db', db, '--out', 'traces', '--json'], join(DIR, 'here'), (o) => o.split('\n').length > 5);
    w.child.kill('SIGKILL');
    await w.exited;
    const r = await cli(['sessions', '--db', db, '--json'], join(DIR, 'elsewhere'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/recovered session 1 .*recovered \d+ GCs from the raw trace/);
    const s = (JSON.parse(r.stdout) as { sessions: { status: string; gcCount: number; tracePath: string }[] }).sessions[0]!;
    expect(s.status).toBe('interrupted');
    expect(s.gcCount).toBeGreaterThan(0);
    expect(s.tracePath).toBe(join(DIR, 'here', 'traces', s.tracePath.split('/').pop()!));
  }, 180_000);

  it('watch --out captures stores each capture with its absolute path', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'watch-spike', '--seconds', '30'], env: { GCSCOPE_SPIKE_AT: '2' } }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'watch.db');
    const r = await cli(
      ['watch', '--pid', String(pid), '--trigger', 'induced', '--before', '1s', '--after', '1s', '--duration', '6s', '--db', db, '--out', 'captures', '--json'],
      join(DIR, 'here'),
    );
    w.child.kill('SIGKILL');
    expect(r.code, r.stderr).toBe(0);
    const d = await Database.open(db);
    try {
      const caps = await listCaptures(d, 1);
      expect(caps.length).toBeGreaterThan(0);
      for (const c of caps) {
        expect(isAbsolute(c.path), c.path).toBe(true);
        expect(c.path.startsWith(join(DIR, 'here', 'captures'))).toBe(true);
        expect(existsSync(c.path)).toBe(true);
      }
    } finally {
      await d.close();
    }
  }, 180_000);
});
