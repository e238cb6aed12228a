/**
 * `gcscope import` writes its GC rows from a second thread (dist/write-worker.mjs, built by
 * `npm test` before the tests) on its own connection. What it stores must be exactly what the
 * importer's own connection stores: every table, row for row; a failed write must fail the import.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { Database } from '../../src-main/store/db.js';
import { WriteWorker } from '../../src-main/store/write-worker-client.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'write-worker');
const WRITE_WORKER = join(process.cwd(), 'dist', 'write-worker.mjs');
// Server GC (per-heap rows), DATAS (dynamic events), a gc-verbose pinning trace, an old runtime.
const TRACE_NAMES = [
  'workload-net8-server.nettrace.zip',
  'workload-datas.nettrace.zip',
  'problem-pinning-fragmentation.nettrace.zip',
  'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip',
];
const TABLES = ['gcs', 'gc_heaps', 'gc_dynamic_events', 'gc_columns', 'stack_frames', 'stacks', 'alloc_ticks', 'alloc_tick_types', 'gc_triggers'];

let here: Database;
let there: Database;

beforeAll(async () => {
  expect(existsSync(WRITE_WORKER), 'run `node scripts/build.mjs` first (dist/write-worker.mjs)').toBe(true);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  here = await Database.open(join(DIR, 'this-thread.db'));
  there = await Database.open(join(DIR, 'write-worker.db'));
});
afterAll(async () => {
  await here.close();
  await there.close();
});

async function rowsOf(db: Database, table: string, sessionId: number): Promise<unknown[]> {
  return db.all(`SELECT * FROM ${table} WHERE session_id = ? ORDER BY 1, 2, 3`, [sessionId]);
}

describe("GC rows written by the writer thread equal the rows written on the importer's connection", () => {
  for (const name of TRACE_NAMES) {
    it(`${name}: every table holds the same rows`, async () => {
      const a = await importTrace(here, TRACES + name, { snapshotMinGcs: 1 });
      const b = await importTrace(there, TRACES + name, { snapshotMinGcs: 1, writeWorkerScript: WRITE_WORKER, writeWorkerMinBytes: 0 });
      expect(b.status).toBe('complete');
      expect(b.gcCount).toBe(a.gcCount);
      for (const t of TABLES) {
        const ra = await rowsOf(here, t, a.sessionId);
        const rb = await rowsOf(there, t, b.sessionId);
        expect(rb.length, t).toBe(ra.length);
        expect(rb, t).toEqual(ra);
      }
      expect((await rowsOf(there, 'gcs', b.sessionId)).length).toBe(b.gcCount);
    });
  }

  it("a write the writer thread cannot do fails the batch with the database's reason", async () => {
    const w = new WriteWorker(WRITE_WORKER, join(DIR, 'write-worker.db'));
    try {
      await expect(w.sink({ tables: [['INSERT INTO no_such_table (a) VALUES ', [[1]]]] })).rejects.toThrow(/writing GC rows: .*no such table/);
    } finally {
      await w.close();
    }
  });
});

describe('connections that write do not map the database', () => {
  it("an import connection reads pages into SQLite's cache (no 256 MB of mapped pages in its RSS); a reading one maps", async () => {
    const path = join(DIR, 'mapping.db');
    const writing = await Database.open(path, { mapped: false });
    const reading = await Database.open(path);
    try {
      expect(await writing.get<{ mmap_size: number }>('PRAGMA mmap_size')).toEqual({ mmap_size: 0 });
      expect((await reading.get<{ mmap_size: number }>('PRAGMA mmap_size'))?.mmap_size).toBeGreaterThan(0);
    } finally {
      await writing.close();
      await reading.close();
    }
  });
});
