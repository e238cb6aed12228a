/**
 * Importing into a real SQLite file: stored GC rows equal the in-memory analysis (which equals
 * TraceEvent's, see test/gc), the store passes its integrity check after every fixture import,
 * a truncated trace stores what precedes the cut, duplicates are refused, a newer-schema database
 * is refused, and the workload's own collection counts equal the stored per-generation counts.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { DuplicateImportError, importTrace } from '../../src-main/recording/importer.js';
import { Database, StoreError } from '../../src-main/store/db.js';
import { loadGcColumns } from '../../src-main/store/gc-columns.js';
import { getGcRecord, getGcRecords, getHeapDetail } from '../../src-main/store/gc-store.js';
import { checkIntegrity } from '../../src-main/store/integrity.js';
import { getSession, listSessions } from '../../src-main/store/sessions.js';
import { MIGRATIONS } from '../../src-main/store/migrations.js';
import { loadStackData } from '../../src-main/store/stack-store.js';
import { allocationsByType } from '../../src-main/symbols/allocations.js';
import { ALL_TRACES, PROBLEM_TRACES, TRACES, WORKLOAD_TRACES, traceBytes, unzippedName } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'store');
let db: Database;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(join(DIR, 'import.db'));
});
afterAll(async () => {
  await db.close();
});

describe('importing every fixture trace into SQLite', () => {
  // The problem traces too: in problem-growing-live-set, GCs complete inside a background GC.
  for (const name of [...ALL_TRACES, ...WORKLOAD_TRACES, ...PROBLEM_TRACES]) {
    if (name.includes('objver2')) continue;
    it(`${name}: stored rows equal the analysis, and the store passes its integrity check`, async () => {
      const r = await importTrace(db, TRACES + name);
      expect(r.status).toBe('complete');
      const stored = await getGcRecords(db, r.sessionId);
      const file = join(DIR, unzippedName(name));
      writeFileSync(file, traceBytes(name));
      const a = await analyzeTraceFile(file);
      const expected = a.analyzer.gcs.map((g) => toGcRecord(g!));
      expect(stored.length).toBe(expected.length);
      for (let i = 0; i < stored.length; i++) expect(stored[i], `GC index ${i}`).toEqual(expected[i]);
      expect(await checkIntegrity(db)).toEqual([]);
    });
  }

  it('stores the format the reader names: V5 where the blocks say so (the header alone says V4), as events and report FILE print it', async () => {
    const byName = new Map((await listSessions(db)).map((x) => [x.name, x.format]));
    // wait.nettrace: V5 (its --json events check says NetTrace V5); the workload traces are V5 too on .NET 8+.
    expect(byName.get('wait.nettrace')).toBe('NetTrace V5');
    expect(byName.get('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip')).toBe('NetTrace V4');
    expect(byName.get('eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip')).toBe('NetPerf V3');
  });

  it('only_managed_samples: 7,423 suspensions and no GC is a session with zero GCs', async () => {
    const s = (await listSessions(db)).find((x) => x.name === 'only_managed_samples.nettrace.zip')!;
    expect(s.gcCount).toBe(0);
    expect(s.nonGCSuspensions).toBe(7423);
  });

  it('Server GC detail: per-heap rows for every heap of every GC', async () => {
    const s = (await listSessions(db)).find((x) => x.name === 'workload-server.nettrace.zip')!;
    expect(s.gcMode).toBe('server');
    expect(s.heapCount).toBe(2);
    const heaps = await getHeapDetail(db, s.id, 0);
    expect(heaps.map((h) => h.heap)).toEqual([0, 1]);
    expect(heaps[0]!.gens.length).toBe(5);
  });

  it('DATAS: the session says the heap count is dynamic', async () => {
    const s = (await listSessions(db)).find((x) => x.name === 'workload-datas.nettrace.zip')!;
    expect(s.gcMode).toMatch(/^server/);
  });

  it('charts get columnar arrays: one Float64Array per column, NULL as NaN', async () => {
    const s = (await listSessions(db)).find((x) => x.name === 'workload-concurrent.nettrace.zip')!;
    const { columns: cols } = await loadGcColumns(db, s.id, ['pause_start_msec', 'pause_msec', 'gen0_size_after_mb'], { gcCount: s.gcCount, store: false });
    expect(cols.pause_msec).toBeInstanceOf(Float64Array);
    expect(cols.pause_msec.length).toBe(s.gcCount);
    await expect(loadGcColumns(db, s.id, ['pause_msec; DROP TABLE gcs' as 'pause_msec'], { gcCount: s.gcCount, store: false })).rejects.toThrow(
      /unknown GC column/,
    );
    // One GC by index is the same record the full list holds.
    const all = await getGcRecords(db, s.id);
    expect(await getGcRecord(db, s.id, 5)).toEqual(all[5]);
    expect(await getGcRecord(db, s.id, all.length + 10)).toBeUndefined();
  });

  it('allocation by type from AllocationTick (verbose traces)', async () => {
    const s = (await listSessions(db)).find((x) => x.name === 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip')!;
    const byType = allocationsByType(await loadStackData(db, s.id));
    expect(byType.length).toBeGreaterThanOrEqual(5);
    expect(byType[0]!.sampledBytes).toBeGreaterThan(byType[4]!.sampledBytes);
    expect(byType.reduce((n, t) => n + t.ticks, 0)).toBeGreaterThan(1000);
  });
});

describe("the workload's own collection counts equal the stored per-generation counts", () => {
  for (const name of WORKLOAD_TRACES) {
    it(name, async () => {
      const counts = JSON.parse(readFileSync(TRACES + name.replace('.nettrace.zip', '.counts.json'), 'utf8')) as {
        exactGen0: number;
        exactGen1: number;
        exactGen2: number;
      };
      const s = (await listSessions(db)).find((x) => x.name === name)!;
      const rows = await getGcRecords(db, s.id);
      const byGen = [0, 1, 2].map((g) => rows.filter((r) => r.generation === g).length);
      expect(byGen).toEqual([counts.exactGen0, counts.exactGen1, counts.exactGen2]);
    });
  }
});

describe('bad input and re-imports', () => {
  it('importing the same file twice is refused, and --force imports it again', async () => {
    await expect(importTrace(db, TRACES + 'wait.nettrace')).rejects.toBeInstanceOf(DuplicateImportError);
    const again = await importTrace(db, TRACES + 'wait.nettrace', { force: true });
    expect(again.status).toBe('complete');
  });

  it('a truncated trace stores the GCs before the cut and marks the session incomplete with the reason', async () => {
    const full = traceBytes('workload-concurrent.nettrace.zip');
    const cut = join(DIR, 'cut.nettrace');
    writeFileSync(cut, full.subarray(0, Math.floor(full.length * 0.6)));
    const r = await importTrace(db, cut);
    expect(r.status).toBe('incomplete');
    const s = await getSession(db, r.sessionId);
    expect(s.statusReason).toMatch(/truncated.*byte offset/);
    const rows = await getGcRecords(db, r.sessionId);
    const all = (await getGcRecords(db, (await listSessions(db)).find((x) => x.name === 'workload-concurrent.nettrace.zip')!.id)).filter((g) => g.isComplete);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(all.length);
    // Every GC completed before the cut has the same pause as in the full trace.
    for (const g of rows.filter((x) => x.isComplete)) expect(g.pauseDurationMSec).toBe(all.find((x) => x.number === g.number)!.pauseDurationMSec);
    expect(await checkIntegrity(db)).toEqual([]);
  });

  it('a file that is not a trace stores nothing', async () => {
    const bad = join(DIR, 'not-a-trace.nettrace');
    writeFileSync(bad, 'hello, this is not a trace');
    const before = (await listSessions(db)).length;
    await expect(importTrace(db, bad)).rejects.toMatchObject({ code: 'bad-magic' });
    expect((await listSessions(db)).length).toBe(before);
  });

  it('a database from a newer GCScope is refused with a clear message', async () => {
    const p = join(DIR, 'newer.db');
    const d = await Database.open(p);
    await d.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    await d.close();
    await expect(Database.open(p)).rejects.toBeInstanceOf(StoreError);
    await expect(Database.open(p)).rejects.toThrow(/written by a newer GCScope.*Update GCScope/);
  });

  it('migrations bring a new database to the latest schema version', async () => {
    const d = await Database.open(join(DIR, 'fresh.db'));
    expect(await d.schemaVersion()).toBe(MIGRATIONS.length);
    await d.close();
  });
});
