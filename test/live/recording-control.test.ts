/**
 * Recording control through the service (what the app's Record and Stop buttons call), against
 * real .NET processes from test/workloads: Record on a process that is already being recorded
 * opens that recording; Stop ends the session even when the target cannot answer (frozen with
 * SIGSTOP); a recording whose process is gone ends by itself, and never stays "recording".
 * The service is set up as the app and `gcscope serve` set it up: recordings run in the
 * recording worker (dist/record-worker.mjs, built by `npm test` before the tests), off the
 * thread that serves the UI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveRecorder } from '../../src-main/recording/live-recorder.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { batchSize, type LiveBatch } from '../../src-main/shared/gc-series.js';
import type { SessionInfo } from '../../src-main/shared/session.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, GEN0_BUDGET_ENV, WORKLOAD_DLL } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'recording-control');
const RECORD_WORKER = join(process.cwd(), 'dist', 'record-worker.mjs');
let skip = false;
let svc: ProfilerService;
const children: ChildProcess[] = [];

/** A workload that keeps collecting for a while (or, idle, waits for input first); resolves with its pid once its runtime is up. */
async function startWorkload(idle = false): Promise<{ child: ChildProcess; pid: number }> {
  const args = [WORKLOAD_DLL, '--scenario', 'churn', '--seconds', '60', '--pause-ms', '20', ...(idle ? ['--wait-for-input'] : [])];
  const child = spawn('dotnet', args, { env: { ...process.env, DOTNET_gcServer: '0', ...GEN0_BUDGET_ENV }, stdio: [idle ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^GCSCOPE-READY (.*)$/m.exec(out);
      if (m !== null) resolve((JSON.parse(m[1]!) as { pid: number }).pid);
    });
    child.once('exit', (c) => reject(new Error(`workload exited (${c}) before it was ready: ${out}`)));
  });
  return { child, pid };
}

async function session(id: number): Promise<SessionInfo> {
  return (await svc.listSessions()).find((s) => s.id === id)!;
}

/** Waits (without a clock assertion) until the session is no longer recording. */
async function untilEnded(id: number, limitMs: number): Promise<SessionInfo> {
  for (let waited = 0; waited < limitMs; waited += 100) {
    const s = await session(id);
    if (s.status !== 'recording') return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  return session(id);
}

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'recording control tests');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(RECORD_WORKER)) throw new Error(`${RECORD_WORKER} is missing: run \`node scripts/build.mjs\` (npm test builds it first)`);
  svc = await ProfilerService.create({
    dbPath: join(DIR, 'rec.db'),
    tracesDir: join(DIR, 'traces'),
    uploadDir: join(DIR, 'up'),
    mode: 'browser',
    version: 'test',
    recordWorkerScript: RECORD_WORKER,
  });
}, 180000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await svc?.close();
});

describe('recording control on real .NET processes', () => {
  it('a recording decodes in the recording worker, not on the thread that serves the UI, and its GCs still reach the view live', async () => {
    // LiveRecorder in this thread's module graph: the worker has its own (bundled) copy.
    const inThisThread = vi.spyOn(LiveRecorder.prototype, 'start');
    const batches: LiveBatch[] = [];
    const onBatch = (b: LiveBatch): void => void batches.push(b);
    svc.events.on('live-batch', onBatch);
    try {
      const w = await startWorkload();
      const r = await svc.startRecording(w.pid, 'gc-collect');
      for (let waited = 0; waited < 20000 && !batches.some((b) => b.sessionId === r.sessionId && batchSize(b) > 0); waited += 100)
        await new Promise((res) => setTimeout(res, 100));
      const live = batches.filter((b) => b.sessionId === r.sessionId);
      expect(live.some((b) => batchSize(b) > 0 && b.summary !== undefined && b.state === 'recording')).toBe(true);
      // The rows the worker writes are readable here while it records (its own connection, WAL).
      const data = await svc.getSessionData(r.sessionId);
      expect(data.live).toBe(true);
      expect(data.series.length).toBeGreaterThan(0);
      // The view's span covers every GC it holds (GC numbers and pause starts need not be in the
      // same order), so its whole-session tiles count every GC the table lists.
      const n = data.series.length;
      for (let i = 0; i < n; i++) {
        expect(data.startMSec, `GC ${data.series.number[i]}`).toBeLessThanOrEqual(data.series.time[i]!);
        expect(data.endMSec, `GC ${data.series.number[i]}`).toBeGreaterThanOrEqual(
          data.series.time[i]! + (Number.isNaN(data.series.pause[i]!) ? 0 : data.series.pause[i]!),
        );
      }
      const tiles = await svc.getRangeSummary(r.sessionId, data.startMSec, Math.max(data.endMSec, data.startMSec + 1), data.series.number[n - 1]!);
      expect(tiles.gcCount).toBe(n);
      // Findings while recording come from the columns kept from the batches (no re-read of the rows).
      const findings = await svc.getFindings(r.sessionId, null, null);
      expect(findings.explain.length).toBeGreaterThan(0);
      await svc.stopRecording(r.sessionId);
      const s = await session(r.sessionId);
      expect(s.status).toBe('complete');
      expect(s.gcCount).toBeGreaterThanOrEqual(data.series.length);
      // What the recording's columns held is what was stored.
      const stored = (await svc.getSessionData(r.sessionId)).series;
      for (let i = 0; i < data.series.length; i++) {
        expect(stored.number[i], `GC index ${i}`).toBe(data.series.number[i]);
        expect(stored.pause[i], `GC ${data.series.number[i]}`).toBeCloseTo(data.series.pause[i]!, 6);
      }
      expect(batches.filter((b) => b.sessionId === r.sessionId).at(-1)!.state).toBe('ended');
      expect(inThisThread).not.toHaveBeenCalled();
      w.child.kill('SIGKILL');
    } finally {
      svc.events.off('live-batch', onBatch);
      inThisThread.mockRestore();
    }
  }, 60000);

  it('LOH allocation waits show in the findings while recording (each wait ends after its background GC was sent live)', async () => {
    // The workload's loh-alloc-wait mode, background GC on: a thread's large allocations wait for most of each BGC.
    const child = spawn('dotnet', [WORKLOAD_DLL, '--scenario', 'loh-alloc-wait', '--seconds', '40'], {
      env: { ...process.env, DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1', ...GEN0_BUDGET_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^GCSCOPE-READY (.*)$/m.exec(out);
        if (m !== null) resolve((JSON.parse(m[1]!) as { pid: number }).pid);
      });
      child.once('exit', (c) => reject(new Error(`workload exited (${c}) before it was ready: ${out}`)));
    });
    const r = await svc.startRecording(pid, 'gc-collect');
    let finding: { id: string; evidence: { gcs: number[] } } | undefined;
    for (let waited = 0; waited < 30000 && finding === undefined; waited += 500) {
      await new Promise((res) => setTimeout(res, 500));
      finding = (await svc.getFindings(r.sessionId, null, null)).findings.find((f) => f.id === 'loh-alloc-wait');
    }
    expect((await session(r.sessionId)).status).toBe('recording');
    expect(finding, 'the loh-alloc-wait finding while recording').toBeDefined();
    expect(finding!.evidence.gcs.length).toBeGreaterThan(0);
    await svc.stopRecording(r.sessionId);
    child.kill('SIGKILL');
  }, 90000);

  it("while the recorded process is idle (no GCs, no events), the live view's clock keeps moving: its time axis does not freeze", async () => {
    const batches: LiveBatch[] = [];
    const onBatch = (b: LiveBatch): void => void batches.push(b);
    svc.events.on('live-batch', onBatch);
    try {
      const w = await startWorkload(true);
      const r = await svc.startRecording(w.pid, 'gc-collect');
      const mine = (): LiveBatch[] => batches.filter((b) => b.sessionId === r.sessionId && b.state === 'recording' && b.nowMSec !== null);
      // Heartbeat batches come about once a second between GCs.
      for (let waited = 0; waited < 20000 && mine().length < 4; waited += 100) await new Promise((res) => setTimeout(res, 100));
      const idle = mine();
      expect(idle.length).toBeGreaterThanOrEqual(4);
      expect(idle.reduce((n, b) => n + batchSize(b), 0)).toBe(0);
      const first = idle[0]!.nowMSec!;
      const last = idle.at(-1)!.nowMSec!;
      // Three heartbeats apart: at least two seconds later on the trace's clock, and never going back.
      expect(last - first).toBeGreaterThan(2000);
      for (let i = 1; i < idle.length; i++) expect(idle[i]!.nowMSec!).toBeGreaterThanOrEqual(idle[i - 1]!.nowMSec!);
      // Once the process works, its GCs are within the clock the view already showed or after it.
      w.child.stdin!.write('\n');
      for (let waited = 0; waited < 20000 && !batches.some((b) => b.sessionId === r.sessionId && batchSize(b) > 0); waited += 100)
        await new Promise((res) => setTimeout(res, 100));
      const gc = batches.find((b) => b.sessionId === r.sessionId && batchSize(b) > 0)!.gcs;
      expect(gc.time[0]).toBeGreaterThan(first);
      await svc.stopRecording(r.sessionId);
      w.child.kill('SIGKILL');
    } finally {
      svc.events.off('live-batch', onBatch);
    }
  }, 60000);

  it('Record on a process already being recorded opens the running recording instead of a second session, and Stop ends it', async () => {
    const w = await startWorkload();
    // A double click: two requests at once.
    const [a, b] = await Promise.all([svc.startRecording(w.pid, 'gc-collect'), svc.startRecording(w.pid, 'gc-collect')]);
    expect(b.sessionId).toBe(a.sessionId);
    expect([a.alreadyRecording, b.alreadyRecording].filter(Boolean)).toHaveLength(1);
    // Record again later: the same recording.
    const c = await svc.startRecording(w.pid, 'gc-verbose');
    expect(c.sessionId).toBe(a.sessionId);
    expect(c.alreadyRecording).toBe(true);
    expect((await svc.listSessions()).filter((s) => s.processId === w.pid)).toHaveLength(1);
    expect((await session(a.sessionId)).status).toBe('recording');
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = performance.now();
    await svc.stopRecording(a.sessionId);
    console.log(`stop of a responsive target took ${(performance.now() - t0).toFixed(0)} ms`);
    const s = await session(a.sessionId);
    expect(s.status).toBe('complete');
    expect(s.gcCount).toBeGreaterThan(0);
    // Once stopped, Record starts a new recording.
    const d = await svc.startRecording(w.pid, 'gc-collect');
    expect(d.sessionId).not.toBe(a.sessionId);
    expect(d.alreadyRecording).toBeUndefined();
    w.child.kill('SIGKILL');
    expect((await untilEnded(d.sessionId, 20000)).status).not.toBe('recording');
  }, 60000);

  it('Stop ends the session even when the target cannot answer (frozen with SIGSTOP), with the reason', async () => {
    const w = await startWorkload();
    const r = await svc.startRecording(w.pid, 'gc-collect');
    await new Promise((res) => setTimeout(res, 1000));
    process.kill(w.pid, 'SIGSTOP');
    try {
      const t0 = performance.now();
      await svc.stopRecording(r.sessionId);
      console.log(`stop of a frozen target took ${(performance.now() - t0).toFixed(0)} ms`);
      // Stop has returned: the session is over, not left "recording".
      const s = await session(r.sessionId);
      expect(s.status).not.toBe('recording');
      expect(s.statusReason).toMatch(/did not answer the stop request/);
    } finally {
      process.kill(w.pid, 'SIGCONT');
      w.child.kill('SIGKILL');
    }
  }, 60000);

  it('a recording whose process is killed (recorded twice over) ends by itself, as one session with the reason', async () => {
    const w = await startWorkload();
    const r = await svc.startRecording(w.pid, 'gc-collect');
    expect((await svc.startRecording(w.pid, 'gc-collect')).sessionId).toBe(r.sessionId);
    await new Promise((res) => setTimeout(res, 1000));
    w.child.kill('SIGKILL');
    const s = await untilEnded(r.sessionId, 20000);
    expect(s.status).toBe('complete');
    expect(s.statusReason).toMatch(/process (ended|exited)|is gone/);
    expect((await svc.listSessions()).filter((x) => x.processId === w.pid)).toHaveLength(1);
    // Nothing is left to stop.
    await expect(svc.stopRecording(r.sessionId)).rejects.toThrow(/not recording/);
  }, 60000);
});
