/**
 * Heap snapshots of a real .NET process while GCScope records it (issue 38's live snapshots): the
 * recording's session keeps the runtime's Type keyword on, and the runtime names each type once
 * while it is on, so the second walk is told almost no type names. The heap worker's jobs
 * (service/heap-jobs.ts, what the app runs) keep each process's type table and name the second
 * walk's objects from it; a fresh worker (no earlier walk) shows the condition is real. Each walk's
 * session stops on the walk's end as it arrives, not at the capture's timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeapJobs, type HeapTaken } from '../../src-main/service/heap-jobs.js';
import { skipOrFail } from '../helpers/environment.js';
import { dotnetMissingReason } from '../workloads/workload.js';
import { buildHeapWorkload, startWorkload, type Workload } from './dotnet-gcdump.js';

const skip = skipOrFail(await dotnetMissingReason(), 'the heap snapshots during a recording');
const BIN = join(process.cwd(), 'bin', 'gcscope.mjs');

describe.skipIf(skip)('heap snapshots while the process is being recorded', () => {
  let w: Workload;
  let recording: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'gcscope-heap-rec-'));

  beforeAll(async () => {
    w = await startWorkload(await buildHeapWorkload(), 3000);
    // `gcscope record` (dist), attached until killed.
    const rec = spawn(process.execPath, [BIN, 'record', '--pid', String(w.pid), '--duration', '5m', '--db', join(dir, 'rec.db')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    recording = rec;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const seen = (d: Buffer): void => {
        out += d.toString();
        if (/^recording /m.test(out)) resolve();
      };
      // It says so on stderr (stdout is the GCs).
      rec.stdout.on('data', seen);
      rec.stderr.on('data', seen);
      rec.on('exit', (code) => reject(new Error(`gcscope record exited (${code}) before recording: ${out}`)));
      setTimeout(() => reject(new Error(`gcscope record did not start recording within 60 s: ${out}`)), 60_000).unref();
    });
  }, 300_000);
  afterAll(() => {
    recording?.kill();
    w?.child.kill();
  });

  const customers = (t: HeapTaken): number | undefined => t.types.find((x) => x.fullName === 'Customer')?.count;

  it('names the second snapshot’s types from the first one’s (the runtime does not name them again)', async () => {
    const jobs = new HeapJobs();
    const take = (j: HeapJobs): Promise<HeapTaken> => j.take({ pid: w.pid, heapAtLastGc: null, snapshotsDir: dir }, () => undefined);
    const first = await take(jobs);
    expect(first.stored.snapshot.stoppedBy).toBe('walk-ended');
    const second = await take(jobs);
    expect(second.stored.snapshot.stoppedBy).toBe('walk-ended');
    expect(second.untypedObjects).toBe(0);
    expect(second.stored.snapshot.typesFromCache).toBeGreaterThan(10);
    expect(customers(second)).toBe(3000);
    expect(second.types.find((x) => x.name === 'UNKNOWN')).toBeUndefined();
    // A worker that saw no earlier walk of this process gets the runtime's untyped walk.
    const fresh = await take(new HeapJobs());
    expect(fresh.untypedObjects).toBeGreaterThan(fresh.totals.objects / 2);
    expect(customers(fresh)).toBeUndefined();
  }, 180_000);
});
