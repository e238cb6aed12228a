/**
 * .NET Framework's heap histories (net.4.5.2.x64.etl.zip): the runtime writes GCPerHeapHistory
 * and GCGlobalHeapHistory only to its private provider, the per-heap one in 4.5.2's own layout
 * (version 2, 433 bytes in the 64-bit Test.x64, 233 in the 32-bit PerfView). Decoded, they feed
 * the same analysis as the public events: per-heap sizes, survival, fragmentation and budgets,
 * condemned reasons and mechanisms — in the report, the GC log, the diagnosis and the app's GC
 * detail.
 *
 * TraceEvent's baseline prints only the first five histories (all zeros but the sizes it does not
 * print), so the per-GC values are checked against what the same trace says elsewhere: each GC's
 * HeapStats (generation sizes after, gen0 promoted bytes) and the runtime's own survival rate,
 * which is the tenth value of each generation record (TraceEvent's SurvRate for this version).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE, PrivateEvent } from '../../src-main/clr/gc-events.js';
import { Gen } from '../../src-main/gc/trace-gc.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { importTraceProcesses } from '../../src-main/recording/importer.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { Database } from '../../src-main/store/db.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { etlBytes, readEtl } from './helpers.js';

const FILE = `${FIXTURES}etl/net.4.5.2.x64.etl.zip`;
const TEST_X64 = 3676;
const PERFVIEW = 3988;

/** The runtime's SurvRate of gen0..LOH in each private GCPerHeapHistory of a process, read from the raw payload (the 10th value of each record). */
function runtimeSurvRates(pid: number, pointerSize: number): number[][] {
  const out: number[][] = [];
  for (const e of readEtl(etlBytes('net.4.5.2.x64.etl.zip'), { processId: pid }).events) {
    const md = e.record.metadata;
    if (md.provider !== PRIVATE || md.eventId !== PrivateEvent.GCPerHeapHistory) continue;
    const r = e.record;
    const v = new DataView(r.bytes.buffer, r.bytes.byteOffset + r.payloadStart, r.payloadSize);
    const at = (i: number): number => (pointerSize === 8 ? Number(v.getBigUint64(i * 8, true)) : v.getUint32(i * 4, true));
    out.push([0, 1, 2, 3].map((g) => at(g * 10 + 9)));
  }
  return out;
}

describe('.NET Framework 4.5.2 heap histories from the private provider', () => {
  it('every Test.x64 GC has its per-heap history: sizes after equal HeapStats, gen0 survivors its promoted bytes, survival the runtime’s own rate', async () => {
    const a = await analyzeTraceFile(FILE, { processId: TEST_X64 });
    expect(a.hasPerHeapHistory).toBe(true);
    const gcs = a.analyzer.gcs.filter((g) => g !== undefined);
    expect(gcs).toHaveLength(263);
    const rates = runtimeSurvRates(TEST_X64, 8);
    expect(rates).toHaveLength(263);
    let compared = 0;
    gcs.forEach((gc, k) => {
      const at = `GC #${gc.number}`;
      expect(gc.perHeapHistories, at).toHaveLength(1);
      const h = gc.perHeapHistories[0]!;
      expect(h.heapIndex, at).toBe(0);
      // gen0, gen1, gen2, LOH: the layout's fifth record is a second gen0, not a POH.
      expect(h.generations, at).toHaveLength(4);
      expect(gc.hasGenData(Gen.Poh), at).toBe(false);
      const hs = gc.heapStats!;
      expect(
        h.generations.map((g) => g.sizeAfter),
        at,
      ).toEqual(hs.generationSize.slice(0, 4));
      expect(h.generations[0]!.pinnedSurv + h.generations[0]!.nonePinnedSurv, at).toBe(hs.totalPromotedSize[0]);
      // All 263 are gen0 GCs (TraceEvent's baseline: Depth=0): only gen0's survival is shown.
      expect(gc.generation, at).toBe(0);
      expect(gc.survivalPercent(Gen.Gen0), at).toBe(rates[k]![0]);
      expect(gc.survivalPercent(Gen.Gen1), at).toBeNaN();
      // The allocation counters are not in this layout (TraceEvent's baseline leaves them empty).
      expect(h.freeListAllocated, at).toBeNull();
      compared++;
    });
    expect(compared).toBe(263);
    // The gen0 budget, gen1 fragmentation and global history every GC now carries.
    const first = gcs[0]!;
    expect(first.genBudgetMB(Gen.Gen0)).toBe(4.194304);
    expect(first.genFragmentationMB(Gen.Gen1)).toBeCloseTo((3176 + 48) / 1e6, 12);
    expect(gcs.every((g) => g.globalHeapHistory?.numHeaps === 1 && g.globalHeapHistory.globalMechanisms === 0x14)).toBe(true);
    // Allocated since the previous GC from the histories (TraceEvent's GetUserAllocated): SizeBefore
    // of gen0 minus the previous GC's gen0 after, 4,194,328 − 24 bytes for GC #2.
    expect(gcs[1]!.userAllocated[Gen.Gen0]).toBeCloseTo(4.194304, 9);
  });

  it('the 32-bit PerfView process’s gen1 GC decodes with 4-byte pointers: its condemned reasons, compaction and survival as the runtime wrote them', async () => {
    const a = await analyzeTraceFile(FILE, { processId: PERFVIEW });
    expect(a.trace!.pointerSize).toBe(4);
    const gc = a.analyzer.gcs.find((g) => g !== undefined)!;
    expect(gc.generation).toBe(1);
    const h = gc.perHeapHistories[0]!;
    expect(h.generations.map((g) => g.sizeAfter)).toEqual(gc.heapStats!.generationSize.slice(0, 4));
    // Requested gen0, final gen1 (bits 2-3 of CondemnReasons0); ephemeral segment low on space and card efficiency.
    expect([h.condemnReasons0, h.condemnReasons1]).toEqual([4, 0x30]);
    expect(h.compactMechanisms).toBe(0x80000001);
    expect(h.memoryPressure).toBe(31);
    // The global history says the same GC compacted (0x1e: Compaction, Promotion, Demotion, CardBundles).
    expect(gc.globalHeapHistory).toMatchObject({ condemnedGeneration: 1, globalMechanisms: 0x1e, gen0ReductionCount: 2 });
    const rates = runtimeSurvRates(PERFVIEW, 4);
    expect(rates).toEqual([[12, 97, 0, 0]]);
    expect([gc.survivalPercent(Gen.Gen0), gc.survivalPercent(Gen.Gen1)]).toEqual([12, 97]);
  });
});

describe('a user sees them: report, diagnose and the app’s GC detail', () => {
  const DIR = join(process.cwd(), 'test-output', 'framework-heap-history');
  const dbPath = join(DIR, 'framework.db');
  let svc: ProfilerService;
  const sessions = new Map<number, number>();

  beforeAll(async () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const db = await Database.open(dbPath);
    for (const pid of [TEST_X64, PERFVIEW]) sessions.set(pid, (await importTraceProcesses(db, FILE, { processIds: [pid] }))[0]!.sessionId);
    await db.close();
    svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
  }, 120_000);

  afterAll(async () => {
    await svc?.close();
  });

  it('the GC detail of PerfView’s gen1 GC shows its heap: sizes, survival, compaction and why it was gen1', async () => {
    const id = sessions.get(PERFVIEW)!;
    const data = await svc.getSessionData(id);
    const d = await svc.getGcDetail(id, data.series.index[0]!);
    expect(d.heaps).toHaveLength(1);
    const heap = d.heaps[0]!;
    expect(heap.sizeAfterMB).toEqual([4.893704, 0.458468, 16.358464, 4.268672]);
    expect(heap.survivalPercent).toEqual([12, 97, null, null]);
    expect(heap.compactMechanism).toBe('compact_low_ephemeral');
    expect(d.why).toMatchObject({ source: 'per-heap', requestedGeneration: 0, collectedGeneration: 1, missing: null });
    expect(d.why.factors).toEqual(['escalated from gen0 to gen1', 'ephemeral segment low on space', 'internal tuning (card efficiency)']);
    expect(d.globalMechanisms).toContain('Compaction');
    expect(d.notes.join(' ')).not.toMatch(/Survival, fragmentation and budgets|Compaction and condemned reasons/);
  });

  it('a Test.x64 GC’s detail has its gen0 budget and a reason; the session says it has per-heap history', async () => {
    const id = sessions.get(TEST_X64)!;
    const data = await svc.getSessionData(id);
    expect(data.series.index).toHaveLength(263);
    const d = await svc.getGcDetail(id, data.series.index[1]!);
    expect(d.heaps[0]!.budgetMB[0]).toBe(4.194304);
    expect(d.heaps[0]!.survivalPercent[0]).toBe(0);
    expect(d.why).toMatchObject({ source: 'per-heap', requestedGeneration: 0, collectedGeneration: 0 });
  });
});
