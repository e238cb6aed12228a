/**
 * Live recording on every runtime users run: the workload (test/workloads) published for .NET 8
 * and .NET 9 (self-contained, from the runtime packs) and .NET 10 (the installed shared runtime),
 * each in workstation GC (concurrent, so background GCs happen), Server GC (2 heaps) and DATAS
 * (opt-in on .NET 8 with DOTNET_GCDynamicAdaptationMode=1, the default for Server GC since .NET 9).
 *
 * For every runtime × mode, one workload process per scenario:
 * - attach by pid: `ps` lists the process with its runtime version, and the recording holds exactly
 *   the GCs the runtime itself counted (GC.CollectionCount) while it was attached; the raw trace
 *   re-imports to the same rows;
 * - launch with reverse connect (`gcscope record -- app`): the very first GC is caught, every GC of
 *   the run is stored, and what the older runtime could not do is said (CLI notes);
 * - stop: a user stop drains the session (rundown and end marker in the file), the target lives on;
 * - kill -9 of the target: every flushed GC is kept and the raw trace is finalized;
 * - recorder killed: the session is recovered from the raw trace at the next start.
 * Runtimes run in sequence (this file), scenarios are short, and processes are killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listDotnetProcesses } from '../../src-main/diagnostics/process-list.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { LiveRecorder } from '../../src-main/recording/live-recorder.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { Database } from '../../src-main/store/db.js';
import { getGcRecords } from '../../src-main/store/gc-store.js';
import { checkIntegrity } from '../../src-main/store/integrity.js';
import { getSession } from '../../src-main/store/sessions.js';
import { BIN, runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import {
  buildWorkload,
  dotnetMissingReason,
  parseWorkloadOutput,
  RUNTIMES,
  runtimeMajor,
  startWorkload,
  workloadCommand,
  MODE_ENV,
  type GcMode,
  type Runtime,
} from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'live-runtimes');
const TRACES = join(DIR, 'traces');
let skip = false;
let db: Database;
const children: ChildProcess[] = [];

/** The live modes: workstation with background GCs, Server GC with 2 heaps, DATAS. */
const LIVE_MODES: { label: string; mode: GcMode; gcMode: RegExp }[] = [
  { label: 'workstation GC', mode: 'concurrent', gcMode: /^workstation$/ },
  { label: 'Server GC', mode: 'server', gcMode: /^server$/ },
  { label: 'DATAS', mode: 'datas', gcMode: /^server \(DATAS\)$/ },
];

/**
 * What each runtime cannot do that GCScope asks for, as the recorder reports it. Before .NET 9 the
 * runtime has no CollectTracing4 (custom rundown keyword) and fails a session that asks for no
 * stacks, so GCScope falls back to CollectTracing2: stacks on, and the full default rundown — which
 * on .NET 8 still carries the GC settings (checked below: the session has them on every runtime).
 */
function expectedDowngrades(runtime: Runtime, profile: 'gc-collect' | 'gc-verbose' = 'gc-collect'): string[] {
  // gc-verbose asks for stacks and the full rundown (issue 14): nothing an older runtime lacks.
  if (profile === 'gc-verbose') return [];
  return runtimeMajor(runtime) < 9
    ? [
        'the session ends with the full rundown of methods and modules, not only the GC settings (that needs .NET 9 or later)',
        'stacks are collected (turning them off needs .NET 9 or later)',
      ]
    : [];
}

const byGen = (rows: GcRecord[]): number[] => [0, 1, 2].map((g) => rows.filter((x) => x.generation === g).length);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'live tests on .NET 8, 9 and 10');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(join(DIR, 'live.db'));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await db?.close();
});

for (const runtime of RUNTIMES) {
  const major = runtimeMajor(runtime);
  describe(`.NET ${major}`, () => {
    for (const { label, mode, gcMode } of LIVE_MODES) {
      it(`${label}: ps lists the process with its .NET ${major} version, and attaching by pid records exactly the GCs the runtime counted; the raw trace re-imports to the same rows`, async () => {
        const w = startWorkload({ runtime, mode, args: ['--scenario', 'mixed', '--iterations', '1', '--wait-for-input'] }, children);
        const ready = await w.ready;
        expect(ready.runtime.startsWith(`${major}.0.`)).toBe(true);
        const me = (await listDotnetProcesses()).find((p) => p.pid === ready.pid);
        expect(me, 'listed by ps').toBeDefined();
        expect(me!.runtimeVersion).toBe(ready.runtime);
        expect(me!.name).toBe('GcWorkload');
        expect(me!.commandLine).toContain('--scenario mixed --iterations 1 --wait-for-input');

        const rec = new LiveRecorder(db, { target: { pid: ready.pid }, profile: 'gc-collect', outDir: TRACES });
        await rec.start();
        w.child.stdin!.write('\n');
        const r = await rec.done();
        await w.exited;
        const final = parseWorkloadOutput(w.output()).counts!;
        expect(r.endedBy).toBe('target-exited');
        expect(r.status).toBe('complete');
        expect(r.downgrades).toEqual(expectedDowngrades(runtime));
        const rows = await getGcRecords(db, r.sessionId);
        expect(byGen(rows), 'GCs per generation: GCScope vs GC.CollectionCount').toEqual([
          final.exactGen0 - ready.exactGen0,
          final.exactGen1 - ready.exactGen1,
          final.exactGen2 - ready.exactGen2,
        ]);
        expect(rows.every((x) => x.isComplete)).toBe(true);
        const s = await getSession(db, r.sessionId);
        expect(s.runtimeVersion).toBe(ready.runtime);
        expect(s.gcMode).toMatch(gcMode);
        if (mode !== 'concurrent') expect(s.heapCount).toBeGreaterThanOrEqual(mode === 'server' ? 2 : 1);
        // The GC settings arrive on every runtime: alone on .NET 9+, inside the full rundown on .NET 8.
        const settings = (await db.all<{ gc_settings: string | null }>('SELECT gc_settings FROM sessions WHERE id = ?', [r.sessionId]))[0]!.gc_settings;
        expect(settings === null ? null : (JSON.parse(settings) as { kind: string; lohThreshold: number })).toMatchObject({
          kind: 'GCSettingsRundown',
          lohThreshold: 85000,
        });
        expect((await readTraceFile(r.tracePath, {})).state).toBe('complete');
        // DATAS is on (opt-in on .NET 8) and reports in this runtime's own event layout, decoded;
        // plain Server GC has no DATAS samples.
        const { analyzer } = await analyzeTraceFile(r.tracePath);
        const dynamic = analyzer.gcs.flatMap((g) => g?.dynamicEvents.map((d) => d.name) ?? []);
        const sample = major >= 9 ? 'SizeAdaptationSample' : 'HeapCountSample';
        expect(dynamic).not.toContain('Raw');
        if (mode === 'datas') expect(dynamic).toContain(sample);
        else expect(dynamic).not.toContain(sample);
        const again = await importTrace(db, r.tracePath, { force: true });
        expect(await getGcRecords(db, again.sessionId)).toEqual(rows);
        expect(await checkIntegrity(db)).toEqual([]);
      });

      it(`${label}: gcscope record -- <app> launches it paused, catches GC #1 and every GC of the run, and notes what .NET ${major} cannot do`, async () => {
        const dbPath = join(DIR, `launch-${runtime}-${mode}.db`);
        const { command, args } = workloadCommand(runtime);
        // gc-verbose (allocation ticks, the most events) in workstation GC; gc-collect elsewhere.
        const profile = mode === 'concurrent' ? 'gc-verbose' : 'gc-collect';
        const r = await runCli(
          ['record', '--json', '--profile', profile, '--db', dbPath, '--out', TRACES, '--', command, ...args, '--scenario', 'mixed', '--iterations', '1'],
          { env: MODE_ENV[mode], timeoutMs: 90_000 },
        );
        expect(r.code, r.stderr).toBe(0);
        // The target's own output goes to stderr; GCs and the final summary are JSON lines on stdout.
        const counts = parseWorkloadOutput(r.stderr).counts!;
        const lines = r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { gc?: GcRecord; downgrades?: string[]; endedBy?: string; status?: string; sessionId?: number });
        const end = lines[lines.length - 1]!;
        expect(end.endedBy).toBe('target-exited');
        expect(end.status).toBe('complete');
        expect(end.downgrades).toEqual(expectedDowngrades(runtime, profile));
        const d = await Database.open(dbPath);
        try {
          const rows = await getGcRecords(d, end.sessionId!);
          expect(rows[0]!.number).toBe(1);
          expect(rows.length).toBe(counts.gen0);
          expect(byGen(rows)).toEqual([counts.exactGen0, counts.exactGen1, counts.exactGen2]);
          expect(lines.filter((l) => l.gc !== undefined).length, 'one printed line per GC').toBe(rows.length);
          const s = await getSession(d, end.sessionId!);
          expect(s.gcMode).toMatch(gcMode);
          expect(s.runtimeVersion).toBe(JSON.parse(/^GCSCOPE-READY (.*)$/m.exec(r.stderr)![1]!).runtime);
          expect(s.hasAllocTicks).toBe(profile === 'gc-verbose');
          if (mode === 'server') expect(s.hasPerHeapHistory).toBe(true);
        } finally {
          await d.close();
        }
        // Said in plain words to a user without --json too (once per runtime).
        if (expectedDowngrades(runtime).length > 0 && mode === 'concurrent') {
          const human = await runCli(['record', '--db', dbPath, '--out', TRACES, '--', command, ...args, '--scenario', 'induced', '--iterations', '1'], {
            env: MODE_ENV[mode],
            timeoutMs: 60_000,
          });
          expect(human.code, human.stderr).toBe(0);
          for (const note of expectedDowngrades(runtime)) expect(human.stderr).toContain(`note: ${note}`);
        }
      });

      it(`${label}: stopping a recording drains the session (rundown and end marker written) and leaves the .NET ${major} process running`, async () => {
        const w = startWorkload({ runtime, mode, args: ['--scenario', 'churn,survivors', '--seconds', '60'] }, children);
        const ready = await w.ready;
        const stored: number[] = [];
        const rec = new LiveRecorder(db, { target: { pid: ready.pid }, profile: 'gc-collect', outDir: TRACES, onGC: (g) => stored.push(g.number) });
        await rec.start();
        await waitFor('10 GCs', () => stored.length >= 10);
        const r = await rec.stop();
        expect(r.endedBy).toBe('stopped');
        expect(r.status).toBe('complete');
        expect(r.statusReason).toBeNull();
        expect(r.gcCount).toBeGreaterThanOrEqual(10);
        const reader = await readTraceFile(r.tracePath, {});
        expect(reader.state).toBe('complete');
        expect(w.child.exitCode).toBeNull();
        // The process keeps working after the session is gone.
        const before = w.output().length;
        await waitFor('more workload output after the stop', () => w.output().length > before, 30_000);
        w.child.kill('SIGKILL');
        await w.exited;
      });

      it(`${label}: the .NET ${major} process killed with SIGKILL mid-recording ends the session as complete with the reason, keeping every flushed GC`, async () => {
        const w = startWorkload({ runtime, mode, args: ['--scenario', 'churn,survivors', '--seconds', '60'] }, children);
        const ready = await w.ready;
        const stored: number[] = [];
        const rec = new LiveRecorder(db, { target: { pid: ready.pid }, profile: 'gc-collect', outDir: TRACES, onGC: (g) => stored.push(g.number) });
        await rec.start();
        await waitFor('10 GCs', () => stored.length >= 10);
        w.child.kill('SIGKILL');
        const r = await rec.done();
        expect(r.status).toBe('complete');
        expect(r.endedBy).toBe('target-exited');
        expect(r.statusReason).toMatch(/process ended without closing the session/);
        const rows = await getGcRecords(db, r.sessionId);
        expect(rows.filter((x) => x.isComplete).length).toBeGreaterThanOrEqual(stored.length);
        expect((await readTraceFile(r.tracePath, {})).state).toBe('complete');
      });

      it(`${label}: a recording of .NET ${major} whose recorder is killed mid-way is recovered at the next start`, async () => {
        const w = startWorkload({ runtime, mode, args: ['--scenario', 'churn,survivors', '--seconds', '60'] }, children);
        const ready = await w.ready;
        const dbPath = join(DIR, `recover-${runtime}-${mode}.db`);
        const rec = spawn(process.execPath, [BIN, 'record', '--pid', String(ready.pid), '--db', dbPath, '--out', TRACES, '--json'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(rec);
        let lines = 0;
        rec.stdout!.on('data', (d: Buffer) => (lines += d.toString().split('\n').length - 1));
        await waitFor('15 GC lines from gcscope record', () => lines >= 15);
        await sleep(300); // let a flush commit
        rec.kill('SIGKILL');
        await new Promise((r) => rec.once('exit', r));
        w.child.kill('SIGKILL');
        await w.exited;
        const before = await Database.open(dbPath);
        const s0 = (await before.all<{ status: string }>('SELECT status FROM sessions'))[0]!;
        await before.close();
        expect(s0.status).toBe('recording');
        const r = await runCli(['sessions', '--json', '--db', dbPath]);
        expect(r.stderr).toMatch(/recovered session 1/);
        const j = JSON.parse(r.stdout) as { sessions: { status: string; gcCount: number; statusReason: string; tracePath: string; runtimeVersion: string }[] };
        expect(j.sessions[0]!.status).toBe('interrupted');
        expect(j.sessions[0]!.gcCount).toBeGreaterThanOrEqual(15);
        expect(j.sessions[0]!.statusReason).toMatch(/recovered \d+ GCs from the raw trace/);
        expect(j.sessions[0]!.runtimeVersion).toBe(ready.runtime);
        expect(existsSync(j.sessions[0]!.tracePath)).toBe(true);
        expect((await readTraceFile(j.sessions[0]!.tracePath, {})).state).toBe('complete');
      });
    }
  });
}
