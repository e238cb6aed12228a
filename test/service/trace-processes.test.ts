/**
 * The service side of the app's process picker, through the contract's dispatcher as the
 * WebSocket bridge and IPC call it: a machine-wide trace (made-up format,
 * test/helpers/machine-toy-format.ts) uploaded or given by path lists its .NET processes before
 * it is imported; an import with `processIds` stores a session per process chosen, named after
 * it, and reports every session; bad `processIds` are refused before anything runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerTraceFormat, unregisterTraceFormat } from '../../src-main/recording/trace-formats.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import type { ImportProgress, TraceProcesses } from '../../src-main/shared/contract.js';
import { TRACES } from '../helpers/fixtures.js';
import { MACHINE_TOY_FORMAT, machineTrace, THREE_DOTNET } from '../helpers/machine-toy-format.js';

let dir: string;
let svc: ProfilerService;
const TRACE = Buffer.from(machineTrace(THREE_DOTNET));

beforeAll(() => registerTraceFormat(MACHINE_TOY_FORMAT));
afterAll(() => unregisterTraceFormat(MACHINE_TOY_FORMAT));
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-picker-svc-'));
  svc = await ProfilerService.create({
    dbPath: join(dir, 'db.sqlite'),
    tracesDir: join(dir, 'traces'),
    uploadDir: join(dir, 'uploads'),
    mode: 'browser',
    version: 'test',
  });
});
afterEach(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

function done(jobId: string): Promise<ImportProgress> {
  return new Promise((resolve) => {
    const f = (p: ImportProgress): void => {
      if (p.jobId === jobId && p.done) {
        svc.events.off('import-progress', f);
        resolve(p);
      }
    };
    svc.events.on('import-progress', f);
  });
}

const value = <T>(r: { ok: boolean; value?: unknown; error?: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error!.message);
  return r.value as T;
};

describe('the process picker, service side', () => {
  it('an uploaded machine-wide trace lists its .NET processes with GC counts before it is imported', async () => {
    expect((await dispatch(svc, 'uploadChunk', ['up-picker-01', 0, TRACE.toString('base64')])).ok).toBe(true);
    const found = value<TraceProcesses>(await dispatch(svc, 'traceProcesses', [{ uploadId: 'up-picker-01', fileName: 'machine.etl' }]));
    expect(found.machineWide).toBe(true);
    expect(found.processes.map((p) => [p.processId, p.name, p.gcCount])).toEqual([
      [1234, 'Test.x64.exe', 264],
      [5678, 'Worker.exe', 40],
      [9012, 'Idle.exe', 0],
    ]);
    // Then imported with the process picked: one session, named after it.
    const { jobId } = value<{ jobId: string }>(await dispatch(svc, 'importUpload', ['up-picker-01', 'machine.etl', false, [5678]]));
    const p = await done(jobId);
    expect(p.error).toBeUndefined();
    const sessions = await svc.listSessions();
    expect(sessions.map((s) => [s.id, s.name, s.processId, s.gcCount])).toEqual([[p.sessionId, 'Worker.exe (PID 5678)', 5678, 40]]);
  });

  it('a path imported with two processes stores a session each; the first is the one opened', async () => {
    const file = join(dir, 'machine.etl');
    writeFileSync(file, TRACE);
    const { jobId } = value<{ jobId: string }>(await dispatch(svc, 'importTracePath', [file, false, [1234, 5678]]));
    const p = await done(jobId);
    expect(p.error).toBeUndefined();
    const byId = new Map((await svc.listSessions()).map((s) => [s.id, s]));
    expect(p.sessionIds!.map((id) => [byId.get(id)!.processId, byId.get(id)!.gcCount])).toEqual([
      [1234, 264],
      [5678, 40],
    ]);
    expect(p.sessionId).toBe(p.sessionIds![0]);
  });

  it('a one-process trace is not machine-wide and its import is unchanged', async () => {
    const found = value<TraceProcesses>(await dispatch(svc, 'traceProcesses', [{ path: TRACES + 'wait.nettrace' }]));
    expect(found.machineWide).toBe(false);
    expect(found.processes.map((p) => p.processId)).toEqual([72192]);
  });

  it('refuses processIds that are empty, repeated or not process ids, before anything runs', async () => {
    for (const bad of [[], [5678, 5678], [-1], [1.5], ['5678']]) {
      const r = await dispatch(svc, 'importTracePath', [TRACES + 'wait.nettrace', false, bad]);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.code).toBe('bad-request');
    }
    expect((await dispatch(svc, 'traceProcesses', [{ uploadId: 'up-picker-01' }])).ok).toBe(false);
  });

  it('a PID the trace does not hold fails the import with the PIDs that ran GCs', async () => {
    const file = join(dir, 'machine.etl');
    writeFileSync(file, TRACE);
    const { jobId } = value<{ jobId: string }>(await dispatch(svc, 'importTracePath', [file, false, [99]]));
    const p = await done(jobId);
    expect(p.error).toEqual({
      code: 'no-such-process',
      message: `${file}: no PID 99 in this trace; processes with GCs: 1234 Test.x64.exe (264 GCs), 5678 Worker.exe (40 GCs)`,
    });
    expect(await svc.listSessions()).toEqual([]);
  });
});
