/**
 * `gcscope watch` against real .NET 10 processes (test/workloads): the flight recorder catches the
 * one long induced GC of a quiet run with the seconds before and after it, in a capture that
 * GCScope and TraceEvent (test/oracle) both open; and its limits hold when a trigger keeps firing.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureInfo } from '../../src-main/shared/capture.js';
import { listCaptures } from '../../src-main/store/captures.js';
import { Database } from '../../src-main/store/db.js';
import { getGcRecords, getGcRecords as getGcs } from '../../src-main/store/gc-store.js';
import { getSession, listSessions } from '../../src-main/store/sessions.js';
import { BIN, runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { compareWithOracle, parseCsv } from '../oracle/compare.js';
import { buildWorkload, dotnetMissingReason, parseWorkloadOutput, startWorkload } from '../workloads/workload.js';

const exec = promisify(execFile);
const DIR = join(process.cwd(), 'test-output', 'watch-live');
const ORACLE_BIN = join(process.cwd(), 'test-output', 'oracle-bin');
let skip = false;
const children: ChildProcess[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'watch tests against a live .NET process');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(join(ORACLE_BIN, 'GcOracle.dll')))
    await exec('dotnet', ['build', join(process.cwd(), 'test/oracle/GcOracle'), '-c', 'Release', '-o', ORACLE_BIN, '--nologo', '-v', 'q'], {
      maxBuffer: 16 << 20,
    });
}, 300_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('gcscope watch on a live process', () => {
  it('one long induced GC after a quiet period: the trigger fires once and the capture spans 2 s before to 2 s after it, opening in GCScope and TraceEvent with that GC complete and every GC of it the same in both', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'watch-spike', '--seconds', '9'], env: { GCSCOPE_SPIKE_AT: '5' } }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'spike.db');
    const out = join(DIR, 'spike');
    // Two triggers that both match the spike: one capture, and the second is told apart from a
    // trigger the limits held back.
    const r = await runCli(
      [
        'watch',
        '--pid',
        String(pid),
        '--trigger',
        'induced',
        '--trigger',
        'reason=InducedCompacting',
        '--before',
        '2s',
        '--after',
        '2s',
        '--cooldown',
        '0',
        '--db',
        db,
        '--out',
        out,
        '--json',
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(w.output()).toMatch(/GCSCOPE-SPIKE/);
    const lines = jsonLines(r.stdout);
    const triggers = lines
      .filter((l) => 'trigger' in l)
      .map((l) => l.trigger as { gcNumber: number; refused: string | null; detail: string; gcStartMSec: number; gcEndMSec: number });
    expect(triggers).toHaveLength(2);
    expect(triggers[0]!.refused).toBeNull();
    expect(triggers[0]!.detail).toMatch(/^induced \(InducedCompacting\)$/);
    expect(triggers[1]!.gcNumber).toBe(triggers[0]!.gcNumber);
    expect(triggers[1]!.refused).toMatch(/^GC #\d+ is in the capture induced started$/);
    const summary = lines.find((l) => 'summary' in l)!.summary as { triggersFired: number; triggersCovered: number; triggersRefused: number };
    expect(summary).toMatchObject({ triggersFired: 1, triggersCovered: 1, triggersRefused: 0 });
    const captures = lines.filter((l) => 'capture' in l).map((l) => l.capture as CaptureInfo);
    expect(captures).toHaveLength(1);
    const c = captures[0]!;
    expect(c.status).toBe('complete');
    expect(c.gcNumber).toBe(triggers[0]!.gcNumber);
    // From the ring: at least the 2 s before the GC's pause; the post-roll: at least 2 s after it ends.
    expect(c.fromMSec!).toBeLessThanOrEqual(c.gcStartMSec - 2000);
    expect(c.toMSec!).toBeGreaterThanOrEqual(c.gcEndMSec + 2000);
    // ...and not the whole run: the ring let go of older seconds (segments of 1 s, plus 2 s slack).
    expect(c.fromMSec!).toBeGreaterThan(c.gcStartMSec - 2000 - 3500);

    const d = await Database.open(db);
    try {
      const sessions = await listSessions(d);
      const watch = sessions.find((s) => s.tags.includes('watch'))!;
      expect(watch.status).toBe('complete');
      expect(watch.tracePath).toBeNull();
      // Every GC of the run is a row of the watch session, captured or not.
      const rows = await getGcs(d, watch.id);
      expect(rows.length).toBeGreaterThan(10);
      const spike = rows.find((g) => g.number === c.gcNumber)!;
      expect(spike.reason).toBe(10);
      expect(spike.pauseDurationMSec).toBe(c.gcEndMSec - c.gcStartMSec);
      expect(await listCaptures(d, watch.id)).toEqual([c]);
      // The capture is a session of its own holding the triggering GC complete, with the same numbers.
      const cs = await getSession(d, c.captureSessionId!);
      expect(cs.status).toBe('complete');
      expect(cs.droppedEvents).toBe(0);
      const inCapture = await getGcs(d, cs.id);
      const g = inCapture.find((x) => x.number === c.gcNumber)!;
      expect(g.isComplete).toBe(true);
      expect(g.pauseStartRelativeMSec).toBeCloseTo(spike.pauseStartRelativeMSec, 6);
      expect(g.pauseDurationMSec).toBeCloseTo(spike.pauseDurationMSec, 6);
      expect(g.heapSizeAfterMB).toBeCloseTo(spike.heapSizeAfterMB!, 6);
      expect(inCapture.filter((x) => x.isComplete).length).toBeLessThan(rows.length);
    } finally {
      await d.close();
    }

    // TraceEvent reads the capture as an ordinary trace, with the triggering GC complete and the same pause.
    const { stdout } = await exec('dotnet', [join(ORACLE_BIN, 'GcOracle.dll'), c.path], { maxBuffer: 16 << 20 });
    const te = parseCsv(stdout).find((row) => Number(row.Number) === c.gcNumber)!;
    expect(te).toBeDefined();
    expect(te.IsComplete).toBe('True');
    expect(te.Reason).toBe('InducedCompacting');
    expect(Math.abs(Number(te.PauseDurationMSec) - (c.gcEndMSec - c.gcStartMSec))).toBeLessThan(0.001);
    // And every GC of the capture, not only that one, as the golden tests compare whole traces.
    const csv = join(DIR, 'spike-capture.gcs.csv');
    writeFileSync(csv, stdout);
    const cmp = await compareWithOracle(c.path, csv);
    expect(cmp.theirs).toBeGreaterThan(5);
    expect(cmp.diffs).toEqual([]);
    await w.exited;
  }, 180_000);

  it('a trigger that keeps firing (GC.Collect every second) writes only what cooldown and the hourly limit allow', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'induced-gcs', '--seconds', '9'] }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'limits.db');
    const r = await runCli(
      [
        'watch',
        '--pid',
        String(pid),
        '--trigger',
        'induced',
        '--before',
        '1s',
        '--after',
        '0.5s',
        '--cooldown',
        '1.5s',
        '--max-per-hour',
        '2',
        '--db',
        db,
        '--out',
        join(DIR, 'limits'),
        '--json',
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const triggers = lines.filter((l) => 'trigger' in l).map((l) => l.trigger as { refused: string | null });
    const captures = lines.filter((l) => 'capture' in l).map((l) => l.capture as CaptureInfo);
    expect(triggers.length).toBeGreaterThanOrEqual(5);
    expect(captures).toHaveLength(2);
    expect(captures.every((c) => c.status === 'complete')).toBe(true);
    expect(triggers.filter((t) => t.refused === null)).toHaveLength(2);
    expect(triggers.filter((t) => t.refused !== null && /2 captures in the last hour/.test(t.refused)).length).toBeGreaterThanOrEqual(2);
    // GC.Collect comes every second and the cooldown is 1.5 s: the one right after a capture is held back.
    expect(triggers.some((t) => t.refused !== null && /^cooldown/.test(t.refused))).toBe(true);
    const summary = lines.find((l) => 'summary' in l)!.summary as { ring: { ringBytes: number } };
    expect(summary.ring.ringBytes).toBeLessThanOrEqual(64 << 20);
    await w.exited;
  }, 180_000);

  it('GCScope killed mid-watch: at the next start the session is interrupted, with its GC rows and its capture kept', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'watch-spike', '--seconds', '30'], env: { GCSCOPE_SPIKE_AT: '2' } }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'killed.db');
    const cli = spawn(
      process.execPath,
      [BIN, 'watch', '--pid', String(pid), '--trigger', 'induced', '--before', '1s', '--after', '1s', '--db', db, '--out', join(DIR, 'killed'), '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(cli);
    let out = '';
    const captured = new Promise<CaptureInfo>((resolve) =>
      cli.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const c = jsonLines(out).find((l) => 'capture' in l);
        if (c !== undefined) resolve(c.capture as CaptureInfo);
      }),
    );
    const c = await captured;
    cli.kill('SIGKILL');
    await new Promise((r) => cli.once('exit', r));
    w.child.kill('SIGKILL');
    const r = await runCli(['sessions', '--db', db, '--json']);
    expect(r.stderr).toMatch(
      /recovered session 1 \(watch: GcWorkload \(pid \d+\)\): GCScope stopped while watching; the GCs and captures stored until then are kept/,
    );
    const d = await Database.open(db);
    try {
      const s = await getSession(d, 1);
      expect(s.status).toBe('interrupted');
      // The rows stored up to the kill include the GC that fired (numbers count from the process's start).
      expect((await getGcRecords(d, 1)).some((g) => g.number === c.gcNumber && g.isComplete)).toBe(true);
      const caps = await listCaptures(d, 1);
      expect(caps.map((x) => x.id)).toEqual([c.id]);
      expect(existsSync(caps[0]!.path)).toBe(true);
      expect((await getSession(d, caps[0]!.captureSessionId!)).status).toBe('complete');
    } finally {
      await d.close();
    }
  }, 180_000);

  it('GCScope killed in a capture\'s post-roll: recovery settles the capture (failed, the reason in the session) instead of leaving it "writing" (issue 40)', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'watch-spike', '--seconds', '30'], env: { GCSCOPE_SPIKE_AT: '2' } }, children);
    const { pid } = await w.ready;
    const db = join(DIR, 'killed-post-roll.db');
    // --after 60s: the kill comes long before the capture's file is written.
    const cli = spawn(
      process.execPath,
      [
        BIN,
        'watch',
        '--pid',
        String(pid),
        '--trigger',
        'induced',
        '--before',
        '1s',
        '--after',
        '60s',
        '--db',
        db,
        '--out',
        join(DIR, 'killed-post-roll'),
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(cli);
    let out = '';
    await new Promise<void>((resolve) =>
      cli.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (jsonLines(out).some((l) => 'trigger' in l)) resolve();
      }),
    );
    await new Promise((r) => setTimeout(r, 500)); // the capture's row is written
    cli.kill('SIGKILL');
    await new Promise((r) => cli.once('exit', r));
    w.child.kill('SIGKILL');
    const d0 = await Database.open(db);
    expect((await listCaptures(d0, 1)).map((c) => c.status)).toEqual(['writing']);
    await d0.close();
    const r = await runCli(['sessions', '--db', db, '--json']);
    expect(r.stderr).toMatch(/recovered session 1 .*capture \d+ \(GC #\d+, induced\) is lost: GCScope stopped before its file was written/);
    const d = await Database.open(db);
    try {
      expect((await getSession(d, 1)).status).toBe('interrupted');
      expect((await listCaptures(d, 1)).map((c) => c.status)).toEqual(['failed']);
    } finally {
      await d.close();
    }
  }, 180_000);

  it('--reattach follows the process across a restart (a new session), and --verbose-after adds a gc-verbose recording of the seconds after the trigger', async () => {
    const args = ['--scenario', 'watch-spike', '--seconds', '5'];
    const first = startWorkload({ mode: 'concurrent', args, env: { GCSCOPE_SPIKE_AT: '100' } }, children);
    const { pid } = await first.ready;
    const db = join(DIR, 'reattach.db');
    const cli = runCli(
      [
        'watch',
        '--pid',
        String(pid),
        '--reattach',
        '--verbose-after',
        '--trigger',
        'induced',
        '--before',
        '1s',
        '--after',
        '1s',
        '--duration',
        '25s',
        '--db',
        db,
        '--out',
        join(DIR, 'reattach'),
        '--json',
      ],
      { timeoutMs: 90_000 },
    );
    await first.exited;
    // The same command line again, as a service manager would restart it; this run has its spike.
    const second = startWorkload({ mode: 'concurrent', args, env: { GCSCOPE_SPIKE_AT: '3.5' } }, children);
    const { pid: pid2 } = await second.ready;
    await second.exited;
    const r = await cli;
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.some((l) => l.note === `reattached to pid ${pid2}`)).toBe(true);
    const summary = lines.find((l) => 'summary' in l)!.summary as { sessions: number[] };
    expect(summary.sessions).toHaveLength(2);
    const captures = lines.filter((l) => 'capture' in l).map((l) => l.capture as CaptureInfo);
    expect(captures).toHaveLength(1);
    const c = captures[0]!;
    expect(c.sessionId).toBe(summary.sessions[1]);
    expect(c.status).toBe('complete');
    const d = await Database.open(db);
    try {
      const s1 = await getSession(d, summary.sessions[0]!);
      const s2 = await getSession(d, summary.sessions[1]!);
      expect(s1.processId).toBe(pid);
      expect(s2.processId).toBe(pid2);
      expect(s1.gcCount).toBeGreaterThan(0);
      expect(s2.gcCount).toBeGreaterThan(0);
    } finally {
      await d.close();
    }
    // The verbose recording holds what gc-collect does not: allocation ticks.
    expect(c.verbosePath).not.toBeNull();
    const ev = await runCli(['events', c.verbosePath!, '--json']);
    expect(ev.code).toBe(0);
    const counts = (JSON.parse(ev.stdout) as { counts: Record<string, number> }).counts;
    expect(counts['Microsoft-Windows-DotNETRuntime/GC/AllocationTick'] ?? 0).toBeGreaterThan(0);
  }, 180_000);

  it('a finding trigger fires when the diagnosis of the last seconds reaches warning level (induced GCs), once while it lasts', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'induced-gcs', '--seconds', '14'] }, children);
    const { pid } = await w.ready;
    const r = await runCli(
      [
        'watch',
        '--pid',
        String(pid),
        '--trigger',
        'finding=induced-gcs/10s',
        '--before',
        '2s',
        '--after',
        '0.5s',
        '--cooldown',
        '0',
        '--db',
        join(DIR, 'finding.db'),
        '--out',
        join(DIR, 'finding'),
        '--json',
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const triggers = lines.filter((l) => 'trigger' in l).map((l) => l.trigger as { trigger: string; detail: string; refused: string | null });
    expect(triggers).toHaveLength(1);
    expect(triggers[0]!.trigger).toBe('finding=induced-gcs/10s');
    expect(triggers[0]!.detail).toMatch(/^finding induced-gcs at warning level: /);
    const captures = lines.filter((l) => 'capture' in l).map((l) => l.capture as CaptureInfo);
    expect(captures).toHaveLength(1);
    expect(captures[0]!.status).toBe('complete');
    await w.exited;
  }, 180_000);

  it('captures while the process collects hundreds of times a second: the ring stays within its 256 KB, each capture is complete and every GC of the run is still a row', async () => {
    const w = startWorkload({ mode: 'concurrent', args: ['--scenario', 'churn', '--seconds', '5', '--wait-for-input'] }, children);
    const ready = await w.ready;
    const db = join(DIR, 'busy.db');
    const cli = spawn(
      process.execPath,
      [
        BIN,
        'watch',
        '--pid',
        String(ready.pid),
        '--trigger',
        'gen>=0',
        '--cooldown',
        '1s',
        '--max-per-hour',
        '100',
        '--before',
        '10s',
        '--after',
        '0.3s',
        '--ring-mb',
        '0.25',
        '--db',
        db,
        '--out',
        join(DIR, 'busy'),
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(cli);
    let out = '';
    let err = '';
    cli.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => cli.once('exit', r));
    await new Promise<void>((resolve) =>
      cli.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"watching"')) resolve();
      }),
    );
    w.child.stdin!.end('\n');
    await w.exited;
    expect(await exited).toBe(0);
    expect(err).toBe('');
    const counts = parseWorkloadOutput(w.output()).counts!;
    const lines = jsonLines(out);
    const captures = lines.filter((l) => 'capture' in l).map((l) => l.capture as CaptureInfo);
    expect(captures.length).toBeGreaterThanOrEqual(3);
    expect(captures.every((c) => c.status === 'complete' && c.captureSessionId !== null)).toBe(true);
    // 256 KB covers the few hundred ms between a GC and its judgement at this rate: no capture
    // was cut after its GC (the watcher would have said so).
    expect(lines.filter((l) => 'note' in l)).toEqual([]);
    // A 256 KB ring cannot hold 10 s of this stream: it stayed within its size, dropping the oldest segments.
    const ring = (lines.find((l) => 'summary' in l)!.summary as { ring: { peakBytes: number; droppedForSpace: number } }).ring;
    expect(ring.peakBytes).toBeLessThanOrEqual(256 << 10);
    expect(ring.peakBytes).toBeGreaterThan(128 << 10);
    expect(ring.droppedForSpace).toBeGreaterThan(0);
    const d = await Database.open(db);
    try {
      const watch = (await listSessions(d)).find((s) => s.tags.includes('watch'))!;
      // Hundreds a second, not thousands (workload.ts: GEN0_BUDGET_ENV).
      expect(counts.gen0 - ready.gen0).toBeGreaterThan(500);
      expect(counts.gen0 - ready.gen0).toBeLessThan(5 * 1500);
      expect(watch.gcCount).toBe(counts.gen0 - ready.gen0);
      for (const c of captures) {
        const cs = await getSession(d, c.captureSessionId!);
        expect(cs.droppedEvents).toBe(0);
        expect((await getGcRecords(d, cs.id)).some((g) => g.number === c.gcNumber && g.isComplete)).toBe(true);
      }
    } finally {
      await d.close();
    }
  }, 180_000);
});
