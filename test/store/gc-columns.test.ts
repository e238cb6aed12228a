/**
 * Column snapshots: a finished session's view data is read once from its GC rows, stored as
 * BLOBs, and served from them afterwards (what makes a 100 000-GC session open within budget).
 * The snapshot must never show different numbers than the rows: checked on a real trace in a
 * real SQLite file, across a restart, after rows change, and after a re-import.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import { Database } from '../../src-main/store/db.js';
import { loadGcColumns, SNAPSHOT_AT_IMPORT_MIN_GCS, VIEW_COLUMNS } from '../../src-main/store/gc-columns.js';
import { getGcColumnsFloat64, getGcRecords } from '../../src-main/store/gc-store.js';
import { getSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'gc-columns');
const dbPath = join(DIR, 'columns.db');
let sessionId: number;

const service = (): Promise<ProfilerService> =>
  ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });

/** Every series column as plain numbers (NaN kept), for exact comparison. */
function plain(s: GcSeries): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(s)) if (ArrayBuffer.isView(v)) out[k] = Array.from(v as unknown as ArrayLike<number>);
  return out;
}

/**
 * The view must show what the rows hold. Times cross as whole nanoseconds (ms × 1e6) and sizes
 * and ratios as Float32: equal within 1 ns absolute and one Float32 step relative.
 */
function expectSameSeries(actual: Record<string, number[]>, expected: Record<string, number[]>): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, want] of Object.entries(expected)) {
    const got = actual[k]!;
    expect(got.length, k).toBe(want.length);
    for (let i = 0; i < want.length; i++) {
      const a = got[i]!;
      const b = want[i]!;
      if (Number.isNaN(b)) expect(a, `${k}[${i}]`).toBeNaN();
      else expect(Math.abs(a - b), `${k}[${i}]: ${a} vs ${b}`).toBeLessThanOrEqual(1e-6 + 2e-7 * Math.abs(b));
    }
  }
}

async function fromRows(): Promise<Record<string, number[]>> {
  const db = await Database.open(dbPath);
  try {
    return plain(seriesFromRecords(await getGcRecords(db, sessionId)));
  } finally {
    await db.close();
  }
}

async function snapshotRows(): Promise<number> {
  const db = await Database.open(dbPath);
  try {
    return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gc_columns WHERE session_id = ?', [sessionId]))!.n;
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  sessionId = (await importTrace(db, TRACES + 'workload-concurrent.nettrace.zip')).sessionId;
  await db.close();
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('session column snapshots', () => {
  it('opening a finished session shows exactly the stored GCs, and stores a snapshot', async () => {
    const expected = await fromRows();
    expect(expected.time!.length).toBeGreaterThan(20);
    const svc = await service();
    try {
      expectSameSeries(plain((await svc.getSessionData(sessionId)).series), expected);
      expectSameSeries(plain((await svc.getSessionData(sessionId)).series), expected);
    } finally {
      await svc.close();
    }
    expect(await snapshotRows()).toBeGreaterThan(20);
  });

  it('after a restart the session is served from its snapshot, with the same numbers and summary', async () => {
    const db = await Database.open(dbPath);
    const s = await getSession(db, sessionId);
    const snap = await loadGcColumns(db, sessionId, ['pause_msec', 'heap_after_mb'] as const, { gcCount: s.gcCount, store: true });
    await db.close();
    expect(snap.fromSnapshot).toBe(true);
    const svc = await service();
    try {
      const d = await svc.getSessionData(sessionId);
      expectSameSeries(plain(d.series), await fromRows());
      const whole = await svc.getRangeSummary(sessionId, d.startMSec, d.endMSec);
      expect(whole.gcCount).toBe(d.series.length);
      // A second call is answered from memory and must be identical.
      expect(await svc.getRangeSummary(sessionId, d.startMSec, d.endMSec)).toEqual(whole);
      const half = await svc.getRangeSummary(sessionId, d.startMSec, (d.startMSec + d.endMSec) / 2);
      expect(half.gcCount).toBeLessThan(whole.gcCount);
      expect(half.gcCount).toBeGreaterThan(0);
      // A live view that has received GCs up to number 10 gets tiles for exactly those.
      const through = await svc.getRangeSummary(sessionId, d.startMSec, d.endMSec, 10);
      expect(through.gcCount).toBe(Array.from(d.series.number).filter((n, i) => n <= 10 && d.series.complete[i] === 1).length);
      expect(await svc.getRangeSummary(sessionId, d.startMSec, d.endMSec)).toEqual(whole);
    } finally {
      await svc.close();
    }
  });

  it('a snapshot that no longer matches the rows is ignored and rebuilt', async () => {
    const db = await Database.open(dbPath);
    try {
      const last = (await db.get<{ m: number }>('SELECT MAX(idx) AS m FROM gcs WHERE session_id = ?', [sessionId]))!.m;
      await db.run('DELETE FROM gcs WHERE session_id = ? AND idx = ?', [sessionId, last]);
      const s = await getSession(db, sessionId);
      const r = await loadGcColumns(db, sessionId, ['idx'] as const, { gcCount: s.gcCount, store: true });
      expect(r.fromSnapshot).toBe(false);
      expect(r.columns.idx.length).toBe(s.gcCount);
      expect(r.columns.idx[r.columns.idx.length - 1]).toBe(last - 1);
    } finally {
      await db.close();
    }
    const svc = await service();
    try {
      expectSameSeries(plain((await svc.getSessionData(sessionId)).series), await fromRows());
    } finally {
      await svc.close();
    }
  });

  it('a large import writes its snapshot at once (CLI imports open fast in the app the first time too); a small one does not', async () => {
    const db = await Database.open(join(DIR, 'at-import.db'));
    try {
      const count = async (id: number): Promise<number> => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gc_columns WHERE session_id = ?', [id]))!.n;
      const small = await importTrace(db, TRACES + 'workload-server.nettrace.zip');
      expect(small.gcCount).toBeLessThan(SNAPSHOT_AT_IMPORT_MIN_GCS);
      expect(await count(small.sessionId)).toBe(0);
      const large = await importTrace(db, TRACES + 'workload-concurrent.nettrace.zip', { snapshotMinGcs: 1 });
      expect(await count(large.sessionId)).toBe(VIEW_COLUMNS.length);
      const s = await getSession(db, large.sessionId);
      expect((await loadGcColumns(db, large.sessionId, VIEW_COLUMNS, { gcCount: s.gcCount, store: true })).fromSnapshot).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('a finished session read from its rows over two connections gives the same columns as over one', async () => {
    const db = await Database.open(dbPath);
    try {
      // The second connection exists for a file (an in-memory database has none to share).
      expect(await db.reader()).not.toBeNull();
      const one = await getGcColumnsFloat64(db, sessionId, VIEW_COLUMNS, { finished: false });
      const two = await getGcColumnsFloat64(db, sessionId, VIEW_COLUMNS, { finished: true });
      expect(Object.keys(two).sort()).toEqual([...VIEW_COLUMNS].sort());
      for (const c of VIEW_COLUMNS) expect(Array.from(two[c]!), c).toEqual(Array.from(one[c]!));
      expect(one.idx!.length).toBe((await getSession(db, sessionId)).gcCount);
    } finally {
      await db.close();
    }
    const mem = await Database.open(':memory:');
    try {
      expect(await mem.reader()).toBeNull();
    } finally {
      await mem.close();
    }
  });

  it('re-importing a session drops its snapshot, so the view cannot show the old rows', async () => {
    expect(await snapshotRows()).toBeGreaterThan(0);
    const db = await Database.open(dbPath);
    try {
      await importTrace(db, TRACES + 'workload-concurrent.nettrace.zip', { sessionId, force: true });
    } finally {
      await db.close();
    }
    expect(await snapshotRows()).toBe(0);
    const svc = await service();
    try {
      expectSameSeries(plain((await svc.getSessionData(sessionId)).series), await fromRows());
    } finally {
      await svc.close();
    }
  });
});
