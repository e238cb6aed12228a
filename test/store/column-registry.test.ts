/**
 * The column registry (shared/gc-column-registry.ts) is the one list of per-GC quantities: the
 * `gcs` table, the records read back, the series the app draws, the report's CSV and JSON, the
 * GC table's columns and the summaries all follow it. Checked on real traces in a real SQLite
 * file and through the built `gcscope` command.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { TABLE_EXTRA_COLUMNS } from '../../src-main/shared/contract.js';
import { CSV_COLUMN_DEFS, GC_COLUMN_SPECS, PICKER_COLUMN_DEFS, SERIES_COLUMN_DEFS, viewValue } from '../../src-main/shared/gc-column-registry.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { Database } from '../../src-main/store/db.js';
import { GC_COLUMNS } from '../../src-main/store/gc-rows.js';
import { getGcRecords } from '../../src-main/store/gc-store.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'column-registry');
const dbPath = join(DIR, 'registry.db');
const SERVER = TRACES + 'workload-server.nettrace.zip';
let db: Database;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(dbPath);
});
afterAll(async () => {
  await db.close();
  rmSync(DIR, { recursive: true, force: true });
});

/** Same value within what the view's arrays keep: Float32 for sizes, 1e-6 for times. */
function near(a: number, b: number): boolean {
  if (Number.isNaN(b)) return Number.isNaN(a);
  return Math.abs(a - b) <= 1e-6 + 2e-7 * Math.abs(b);
}

describe('the column registry', () => {
  it('every stored column of the registry exists in the gcs table, and the table has no column the registry lacks', async () => {
    const cols = (await db.all<{ name: string }>('PRAGMA table_info(gcs)')).map((r) => r.name).filter((n) => n !== 'session_id');
    expect([...GC_COLUMNS].sort()).toEqual([...cols].sort());
  });

  it('a stored GC reads back with exactly the registry fields, each one present (null when unavailable, never undefined)', async () => {
    const { sessionId } = await importTrace(db, SERVER);
    const gcs = await getGcRecords(db, sessionId);
    expect(gcs.length).toBeGreaterThan(10);
    const fields = GC_COLUMN_SPECS.map((c) => c.field).sort();
    for (const g of gcs) {
      expect(Object.keys(g).sort()).toEqual(fields);
      for (const f of fields) expect((g as unknown as Record<string, unknown>)[f], f).not.toBeUndefined();
    }
  });

  it("gen0 fragmentation (one registry entry) shows in the report JSON and CSV and in the GC table's column picker", async () => {
    const json = await runCli(['report', '--format', 'json', SERVER]);
    expect(json.code).toBe(0);
    const rep = JSON.parse(json.stdout) as { gcs: GcRecord[] };
    // Server GC with per-heap history: TraceEvent's GenFragmentationMB(gen0) for every GC.
    expect(rep.gcs.filter((g) => g.gen0FragmentationMB !== null && g.gen0FragmentationMB > 0).length).toBeGreaterThan(0);
    for (const g of rep.gcs) expect(g.gen0FragmentationMB).toBe(g.fragmentationMB[0]);

    const csv = await runCli(['report', '--format', 'csv', SERVER]);
    const [head, ...rows] = csv.stdout.trim().split('\n');
    const k = head!.split(',').indexOf('gen0FragmentationMB');
    expect(k).toBeGreaterThan(0);
    rows.forEach((r, i) => {
      const cell = r.split(',')[k]!;
      const want = rep.gcs[i]!.gen0FragmentationMB;
      expect(cell === '' ? null : Number(cell), `GC ${rep.gcs[i]!.number}`).toBe(want);
    });

    // …and in the GC table's column picker, with the stored values (fetched on demand).
    expect(TABLE_EXTRA_COLUMNS).toContain('gen0FragMB');
    expect(PICKER_COLUMN_DEFS.find((c) => c.key === 'gen0FragMB')?.label).toBe('Gen0 frag MB');
    const { sessionId } = await importTrace(db, SERVER, { force: true });
    const svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
    try {
      const x = await svc.getTableExtras(sessionId);
      expect(x.missing.gen0FragMB).toBeUndefined();
      expect(x.columns.gen0FragMB.length).toBe(rep.gcs.length);
      rep.gcs.forEach((g, i) => expect(near(x.columns.gen0FragMB[i]!, g.gen0FragmentationMB ?? Number.NaN), `GC ${g.number}`).toBe(true));
    } finally {
      await svc.close();
    }
  });

  it('whole-heap fragmentation % (one derived registry entry over two fields) is in the report JSON and the GC table\'s "Frag %" column with the same values', async () => {
    const json = await runCli(['report', '--format', 'json', SERVER]);
    const rep = JSON.parse(json.stdout) as { gcs: GcRecord[] };
    const expected = (g: GcRecord): number | null =>
      g.heapSizeAfterMB === null || g.heapSizeAfterMB <= 0 || g.fragmentationMB.some((f) => f === null)
        ? null
        : (g.fragmentationMB.reduce<number>((a, f) => a + f!, 0) * 100) / g.heapSizeAfterMB!;
    expect(rep.gcs.filter((g) => g.heapFragmentationPercent !== null && g.heapFragmentationPercent > 0).length).toBeGreaterThan(0);
    for (const g of rep.gcs) expect(g.heapFragmentationPercent, `GC ${g.number}`).toBe(expected(g));
    expect(PICKER_COLUMN_DEFS.find((c) => c.key === 'fragPercent')?.label).toBe('Frag %');
    const { sessionId } = await importTrace(db, SERVER, { force: true });
    const svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
    try {
      const x = await svc.getTableExtras(sessionId);
      expect(x.missing.fragPercent).toBeUndefined();
      rep.gcs.forEach((g, i) =>
        expect(
          near(x.columns.fragPercent[i]!, g.heapFragmentationPercent ?? Number.NaN),
          `GC ${g.number}: ${x.columns.fragPercent[i]} vs ${g.heapFragmentationPercent}`,
        ).toBe(true),
      );
    } finally {
      await svc.close();
    }
  });

  it('every CSV column is a registry entry, in the published order (number, generation, type, gcGenerationName, reason, …)', () => {
    expect(CSV_COLUMN_DEFS.slice(0, 7).map((c) => c.header)).toEqual([
      'number',
      'generation',
      'type',
      'gcGenerationName',
      'reason',
      'isComplete',
      'pauseStartRelativeMSec',
    ]);
    expect(new Set(CSV_COLUMN_DEFS.map((c) => c.header)).size).toBe(CSV_COLUMN_DEFS.length);
  });
});

describe('a session imported with its snapshot', () => {
  it('opens with the numbers of its rows (the snapshot is built from the columns in memory, not read back)', async () => {
    const { sessionId } = await importTrace(db, TRACES + 'workload-concurrent.nettrace.zip', { snapshotMinGcs: 1 });
    const stored = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gc_columns WHERE session_id = ?', [sessionId]);
    expect(stored!.n).toBeGreaterThan(0);
    const records = await getGcRecords(db, sessionId);
    const svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
    try {
      const { series } = await svc.getSessionData(sessionId);
      expect(series.length).toBe(records.length);
      for (const c of SERIES_COLUMN_DEFS) {
        const got = (series as unknown as Record<string, ArrayLike<number>>)[c.key]!;
        records.forEach((r, i) => expect(near(got[i]!, viewValue(r, c)), `${c.key}[${i}]: ${got[i]} vs ${viewValue(r, c)}`).toBe(true));
      }
    } finally {
      await svc.close();
    }
  });

  it("the app's whole-session tiles and `report --session` print one summary (same type, same computation)", async () => {
    const { sessionId } = await importTrace(db, SERVER, { force: true });
    const svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
    let tiles;
    try {
      const d = await svc.getSessionData(sessionId);
      tiles = await svc.getRangeSummary(sessionId, d.startMSec, d.endMSec);
    } finally {
      await svc.close();
    }
    const out = await runCli(['report', '--session', String(sessionId), '--db', dbPath, '--format', 'json']);
    expect(out.code).toBe(0);
    const s = (JSON.parse(out.stdout) as { summary: Record<string, unknown> }).summary;
    expect(tiles.completedGCs).toBe(s.completedGCs);
    // The app reads times as whole nanoseconds (store/gc-store.ts): equal to 1e-6 ms.
    expect(tiles.totalPauseMSec).toBeCloseTo(s.totalPauseMSec as number, 6);
    expect(tiles.maxPauseMSec).toBeCloseTo(s.maxPauseMSec as number, 6);
    expect(tiles.pauseP99MSec).toBeCloseTo(s.pauseP99MSec as number, 6);
    expect(tiles.pauseTimePercentage).toBeCloseTo(s.pauseTimePercentage as number, 6);
    expect(tiles.countByGeneration).toEqual(s.countByGeneration);
    expect(tiles.inducedGCs).toBe(s.inducedGCs);
    expect(tiles.peakHeapMB).toBeCloseTo(s.maxHeapSizeMB as number, 6);
    expect(tiles.allocatedMB).toBeCloseTo(s.totalAllocatedMB as number, 6);
  });
});
