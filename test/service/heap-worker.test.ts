/**
 * Heap snapshots analysed in the heap worker (dist/heap-worker.mjs, what the app and `gcscope
 * serve` use): the Types, Dominators and Paths views are the same as when the analysis runs on
 * the service's thread, and while a 3.5 M-object snapshot is read and analysed the service keeps
 * answering other requests (on its own thread it could not: the analysis is seconds of CPU).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGcdump } from '../../src-main/heap/gcdump.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import type { HeapTypesQuery } from '../../src-main/shared/heap-view.js';
import { Database } from '../../src-main/store/db.js';
import { saveHeapSnapshot } from '../../src-main/store/heap-snapshots.js';
import { leakHeap } from '../heap/generated-graphs.js';

const DIR = join(process.cwd(), 'test-output', 'heap-worker');
const dbPath = join(DIR, 'd.db');
const WORKER = join(process.cwd(), 'dist', 'heap-worker.mjs');
const QUERY: HeapTypesQuery = { sort: 'retained', search: null, module: null, limit: 50, diffWith: null };
let small = 0;
let big = 0;
const opts = { dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser' as const, version: 'test' };

async function store(db: Database, customers: number): Promise<number> {
  const file = join(DIR, `leak-${customers}.gcdump`);
  writeFileSync(file, writeGcdump(leakHeap(customers), { processId: 42, processName: 'leak', collectedAtMs: Date.UTC(2026, 0, 1) }));
  return saveHeapSnapshot(db, {
    name: `leak ${customers}`,
    source: 'import',
    file,
    objects: customers * 7 + 2,
    bytes: 0,
    references: customers * 7,
    gcNumber: null,
    untypedObjects: 0,
    walkMs: null,
    heapAtLastGc: null,
    processId: 42,
    processName: 'leak',
    commandLine: null,
    runtimeVersion: null,
    os: null,
    arch: null,
    takenAtUtc: null,
  });
}

beforeAll(async () => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run node scripts/build.mjs (npm test builds it first)`);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  small = await store(db, 20_000);
  big = await store(db, 500_000);
  await db.close();
}, 120_000);

describe('heap snapshots in the heap worker', () => {
  let inThread: ProfilerService | undefined;
  let inWorker: ProfilerService | undefined;
  afterAll(async () => {
    await inWorker?.close();
    await inThread?.close();
  });

  it('Types, Dominators and Paths show the same from the worker as from the service thread', async () => {
    inThread = await ProfilerService.create(opts);
    inWorker = await ProfilerService.create({ ...opts, heapWorkerScript: WORKER });
    const types = await inWorker.getHeapTypes(small, QUERY);
    expect(types.rows.find((r) => r.name === 'Customer')?.count).toBe(20_000);
    expect(types).toEqual(await inThread.getHeapTypes(small, QUERY));
    const doms = await inWorker.getHeapDominators(small, 10);
    expect(doms[0]?.name).toBe('Dictionary<int, Customer>');
    expect(doms[0]?.children[0]?.name).toBe('Entry<int, Customer>[]');
    expect(doms).toEqual(await inThread.getHeapDominators(small, 10));
    const paths = await inWorker.getHeapPaths(small, 'Order');
    expect(paths[0]!.nodes[0]!.name).toBe('[static var Cache.Customers]');
    expect(paths).toEqual(await inThread.getHeapPaths(small, 'Order'));
    await expect(inWorker.getHeapPaths(small, 'NoSuchType')).rejects.toMatchObject({ code: 'not-found' });
  }, 120_000);

  it('the service answers other requests while a 3.5 M-object snapshot is read and analysed', async () => {
    const svc = await ProfilerService.create({ ...opts, ...(process.env.HEAP_IN_THREAD ? {} : { heapWorkerScript: WORKER }) });
    try {
      let done = false;
      const heavy = svc.getHeapTypes(big, QUERY).finally(() => (done = true));
      // One request after another for as long as the analysis runs: each is answered by the
      // service's thread, which a synchronous analysis there would hold for its whole length.
      let answered = 0;
      while (!done) {
        await svc.listSessions();
        answered++;
        if (answered > 100_000) break;
      }
      const types = await heavy;
      expect(types.rows.find((r) => r.name === 'Customer')?.count).toBe(500_000);
      expect(types.summary.objects).toBe(500_000 * 7 + 2);
      // In the worker: thousands (6,189 on the 2-core test machine). On the service's thread: only
      // those that fit in the file's asynchronous read (91 there; HEAP_IN_THREAD=1 runs it so).
      expect(answered, 'requests answered while the snapshot was analysed').toBeGreaterThanOrEqual(500);
    } finally {
      await svc.close();
    }
  }, 180_000);
});
