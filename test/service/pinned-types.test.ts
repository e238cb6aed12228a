/**
 * Who is pinned, in the app (issue 39): a gc-verbose trace's PinObjectAtGCTime events name each
 * pinned object's type; importing the trace stores every GC's pinned objects by type, the GC
 * detail lists them, and the pinning finding names them — the same numbers the trace file's
 * report gives (`gcscope report --format json`).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { Database } from '../../src-main/store/db.js';
import { TRACES, problemTraceName } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'pinned-types');
const dbPath = join(DIR, 'pins.db');
const TRACE = TRACES + problemTraceName('pinning-fragmentation');
const ids: Record<string, number> = {};
let svc: ProfilerService;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  ids.pins = (await importTrace(db, TRACE)).sessionId;
  ids.healthy = (await importTrace(db, TRACES + problemTraceName('healthy'))).sessionId;
  ids.noPins = (await importTrace(db, TRACES + 'HeartRateMonitor.10068.nettrace.zip')).sessionId;
  await db.close();
  svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
}, 120_000);

afterAll(async () => {
  await svc?.close();
});

describe('who is pinned, in the GC detail and the pinning finding', () => {
  it("the GC detail lists each GC's pinned objects by type: ~1,000 System.Byte[] request buffers, as the trace's report counts them", async () => {
    const report = await reportFromFile(TRACE);
    const data = await svc.getSessionData(ids.pins!);
    let checked = 0;
    for (let k = 0; k < data.series.length; k++) {
      const d = await svc.getGcDetail(ids.pins!, data.series.index[k]!);
      expect(d.pinned, `GC #${d.record.number}`).not.toBeNull();
      const bytes = d.pinned!.find((t) => t.typeName === 'System.Byte[]');
      expect(bytes, `GC #${d.record.number}`).toBeDefined();
      // 136-byte arrays: 160 bytes each on the heap.
      expect(bytes!.bytes).toBe(bytes!.objects * 160);
      // The pinned objects the GC's HeapStats counted, by type.
      const all = d.pinned!.reduce((s, t) => s + t.objects, 0);
      expect(all, `GC #${d.record.number}`).toBe(d.record.pinnedObjectCount);
      checked++;
    }
    expect(checked).toBe(report.gcs.length);
    expect(Math.max(...report.gcs.map((g) => g.pinnedObjectCount ?? 0))).toBeGreaterThanOrEqual(500);
  });

  it('the pinning finding names the pinned type in the app, as in `gcscope diagnose`', async () => {
    const file = (await reportFromFile(TRACE)).findings.find((f) => f.id === 'pinning-fragmentation')!;
    const app = (await svc.getFindings(ids.pins!, null, null)).findings.find((f) => f.id === 'pinning-fragmentation')!;
    expect(app.evidence.pinned).toEqual(file.evidence.pinned);
    expect(app.evidence.pinned![0]!.typeName).toBe('System.Byte[]');
    expect(app.explanation).toContain('Pinned here (PinObjectAtGCTime): System.Byte[]');
  });

  it('says "none" for a GC that pinned nothing, and "not in this trace" when the trace has no pin events', async () => {
    const healthy = await svc.getSessionData(ids.healthy!);
    const details = await Promise.all(Array.from(healthy.series.index, (i) => svc.getGcDetail(ids.healthy!, i)));
    // A gc-verbose trace: every GC has the list; GCs that pinned nothing have an empty one.
    for (const d of details) expect(d.pinned).not.toBeNull();
    expect(details.some((d) => d.pinned!.length === 0 && d.record.pinnedObjectCount === 0)).toBe(true);
    const noPins = await svc.getSessionData(ids.noPins!);
    // HeartRateMonitor: the GC keyword at Informational, so no PinObjectAtGCTime events.
    const d = await svc.getGcDetail(ids.noPins!, noPins.series.index[0]!);
    expect(d.pinned).toBeNull();
  });
});
