/**
 * What the session view asks the service, on real traces in a real SQLite file: the "why this
 * generation" of a GC (trigger always; condemned reasons from the trace, or "not in this trace"),
 * and tiles that summarise exactly the GCs the table's filter lets through.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gcReasonName } from '../../src-main/shared/gc-enums.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { noFilter, passesFilter, type GcFilter } from '../../src-main/shared/gc-filter.js';
import { Database } from '../../src-main/store/db.js';
import { getGcRecords, getHeapDetail } from '../../src-main/store/gc-store.js';
import { createSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'session-view-service');
const dbPath = join(DIR, 'view.db');
const ids: Record<string, number> = {};
let svc: ProfilerService;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  for (const t of ['workload-concurrent', 'workload-server', 'workload-datas']) ids[t] = (await importTrace(db, `${TRACES}${t}.nettrace.zip`)).sessionId;
  await db.close();
  svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
});

afterAll(async () => {
  await svc?.close();
});

async function gcByNumber(session: string, number: number): Promise<Awaited<ReturnType<ProfilerService['getGcDetail']>>> {
  const d = await svc.getSessionData(ids[session]!);
  const i = Array.from(d.series.number).indexOf(number);
  expect(i, `GC #${number}`).toBeGreaterThanOrEqual(0);
  return svc.getGcDetail(ids[session]!, d.series.index[i]!);
}

describe('why this generation', () => {
  it('an induced blocking gen2 says Induced…, requested and collected gen2, "induced (blocking)" — not a gen0 budget', async () => {
    // workload-concurrent GC #24: GC.Collect(2, Forced, blocking, compacting); its GCPerHeapHistory
    // has CondemnReasons0 = 0b1010 (requested 2, final 2) and CondemnReasons1 bit 0 (induced_fullgc).
    const d = await gcByNumber('workload-concurrent', 24);
    expect(d.record.generation).toBe(2);
    expect(d.why.trigger).toBe('InducedCompacting');
    expect(d.why.source).toBe('per-heap');
    expect([d.why.requestedGeneration, d.why.collectedGeneration]).toEqual([2, 2]);
    expect(d.why.factors).toEqual(['induced (blocking)']);
    // The global history of this GC carries zeros, which the old view read as "gen 0" reasons.
    expect(d.record.condemnReasons0).toBe(0);
  });

  it("a background gen2 escalated from a gen0 allocation says so, with gen2's budget as the reason", async () => {
    // GC #28: a BackgroundGC triggered by AllocSmall; CondemnReasons0 = 40 (requested 0, final 2, budget 2).
    const d = await gcByNumber('workload-concurrent', 28);
    expect(d.typeName).toBe('BackgroundGC');
    expect(d.why.trigger).toBe('AllocSmall');
    expect([d.why.requestedGeneration, d.why.collectedGeneration]).toEqual([0, 2]);
    expect(d.why.factors).toContain('escalated from gen0 to gen2');
    expect(d.why.factors).toContain('gen2 allocation budget exceeded');
    expect(d.why.factors.some((f) => f.startsWith('run as a background GC'))).toBe(true);
  });

  it('a Server GC background GC without per-heap history says "not in this trace" but still names its trigger', async () => {
    const d = await gcByNumber('workload-server', 3);
    expect(d.typeName).toBe('BackgroundGC');
    expect(d.heaps).toEqual([]);
    expect(d.why.trigger).toBe(gcReasonName(d.record.reason));
    expect(d.why.source).toBeNull();
    expect(d.why.missing).toMatch(/^not in this trace/);
  });

  it("on every GC of three real traces: the trigger is the GC's reason, and reasons, when shown, explain the generation it collected", async () => {
    const db = await Database.open(dbPath);
    try {
      for (const session of Object.keys(ids)) {
        const data = await svc.getSessionData(ids[session]!);
        let withReasons = 0;
        for (let i = 0; i < data.series.length; i++) {
          const d = await svc.getGcDetail(ids[session]!, data.series.index[i]!);
          const label = `${session} GC #${d.record.number}`;
          expect(d.why.trigger, label).toBe(gcReasonName(d.record.reason));
          const heaps = await getHeapDetail(db, ids[session]!, data.series.index[i]!);
          if (heaps.length > 0) {
            withReasons++;
            expect(d.why.collectedGeneration, label).toBe(d.record.generation);
            // The heap shown is the first one with the highest final generation (TraceEvent's
            // choice), and the requested generation is that heap's (CondemnReasons0 bits 0–1).
            const finals = heaps.map((h) => (h.condemnReasons0! >> 2) & 3);
            const decided = heaps[finals.indexOf(Math.max(...finals))]!;
            if (heaps.length > 1) expect(d.why.heap, label).toBe(decided.heap);
            expect(d.why.requestedGeneration, label).toBe(decided.condemnReasons0! & 3);
            if (d.record.generation > d.why.requestedGeneration!)
              expect(d.why.factors[0], label).toBe(`escalated from gen${d.why.requestedGeneration} to gen${d.record.generation}`);
          } else if (d.why.source === null) expect(d.why.missing, label).toMatch(/^not in this trace/);
          if (d.record.generation > 0) expect(d.why.factors.join('; '), label).not.toContain('gen0 allocation budget');
        }
        expect(withReasons, session).toBeGreaterThanOrEqual(data.series.length / 2);
      }
    } finally {
      await db.close();
    }
  });
});

describe('tiles under a filter', () => {
  it("summarise only the complete GCs that pass the table's filter: count, pauses and induced count", async () => {
    const id = ids['workload-concurrent']!;
    const d = await svc.getSessionData(id);
    const s = d.series;
    const whole = await svc.getRangeSummary(id, d.startMSec, d.endMSec);
    const cases: GcFilter[] = [
      { ...noFilter(), reason: 1 },
      { ...noFilter(), generations: [false, false, true] },
      { ...noFilter(), kinds: [false, true, false] },
      { ...noFilter(), minPauseMSec: 5 },
    ];
    for (const f of cases) {
      const pass: number[] = [];
      for (let i = 0; i < s.length; i++) if (s.complete[i] === 1 && passesFilter(f, s.generation[i]!, s.type[i]!, s.reason[i]!, s.pause[i]!)) pass.push(i);
      const sum = await svc.getRangeSummary(id, d.startMSec, d.endMSec, null, f);
      const label = JSON.stringify(f);
      expect(pass.length, label).toBeGreaterThan(0);
      expect(sum.gcCount, label).toBe(pass.length);
      expect(sum.totalPauseMSec, label).toBeCloseTo(
        pass.reduce((a, i) => a + s.pause[i]!, 0),
        6,
      );
      expect(sum.maxPauseMSec, label).toBeCloseTo(Math.max(...pass.map((i) => s.pause[i]!)), 6);
      expect(
        sum.countByGeneration.reduce((a, b) => a + b, 0),
        label,
      ).toBe(pass.length);
      // The tile's "total … of …": the % is the total over the span it names, for the whole
      // session the unfiltered tile's (first GC to last HeapStats).
      expect(sum.pausedOverMSec, label).toBeCloseTo(whole.processDurationMSec, 6);
      expect(sum.pauseTimePercentage!, label).toBeCloseTo((sum.totalPauseMSec * 100) / sum.pausedOverMSec, 9);
    }
    // A filter every GC passes (a finding whose evidence is every GC) says what no filter says.
    const every: number[] = [];
    for (let i = 0; i < s.length; i++) if (s.complete[i] === 1) every.push(s.number[i]!);
    const all = await svc.getRangeSummary(id, d.startMSec, d.endMSec, null, { ...noFilter(), gcs: every });
    expect(all.pausedOverMSec).toBe(whole.pausedOverMSec);
    expect(all.pauseTimePercentage!).toBeCloseTo(whole.pauseTimePercentage!, 9);
    expect(all.gcCount).toBe(whole.gcCount);
    // No filter: the whole session, as before (and as `report` prints).
    expect(await svc.getRangeSummary(id, d.startMSec, d.endMSec, null, noFilter())).toEqual(whole);
    expect(whole.pausedOverMSec).toBe(whole.processDurationMSec);
    expect(whole.pauseTimePercentage!).toBeCloseTo((whole.totalPauseMSec * 100) / whole.pausedOverMSec, 9);
    // A selected range: over the range.
    const mid = (d.startMSec + d.endMSec) / 2;
    const part = await svc.getRangeSummary(id, d.startMSec, mid);
    expect(part.pausedOverMSec).toBeCloseTo(mid - d.startMSec, 6);
    expect(part.pauseTimePercentage!).toBeCloseTo((part.totalPauseMSec * 100) / part.pausedOverMSec, 9);
    const induced = await svc.getRangeSummary(id, d.startMSec, d.endMSec, null, { ...noFilter(), reason: 1 });
    expect(induced.gcCount).toBeLessThan(whole.gcCount);
  });
});

describe('rollups and allocations the session view shows', () => {
  it('rolls the summarised GCs up by generation and by trigger reason, each adding up to the tiles', async () => {
    const id = ids['workload-concurrent']!;
    const d = await svc.getSessionData(id);
    const s = d.series;
    for (const f of [noFilter(), { ...noFilter(), generations: [false, true, true] as [boolean, boolean, boolean] }]) {
      const sum = await svc.getRangeSummary(id, d.startMSec, d.endMSec, null, f);
      const { byGeneration, byReason } = sum;
      expect(byGeneration.map((g) => g.label)).toEqual(['gen0', 'gen1', 'gen2']);
      expect(byGeneration.map((g) => g.count)).toEqual(sum.countByGeneration);
      expect(byReason.reduce((a, g) => a + g.count, 0)).toBe(sum.gcCount);
      expect(byReason.reduce((a, g) => a + g.totalPauseMSec, 0)).toBeCloseTo(sum.totalPauseMSec, 6);
      // Each reason's row against the series itself.
      for (const g of byReason) {
        const idx = Array.from({ length: s.length }, (_, i) => i).filter(
          (i) => s.complete[i] === 1 && s.reason[i] === g.key && passesFilter(f, s.generation[i]!, s.type[i]!, s.reason[i]!, s.pause[i]!),
        );
        expect(g.label).toBe(gcReasonName(g.key));
        expect(g.count, g.label).toBe(idx.length);
        expect(g.totalPauseMSec, g.label).toBeCloseTo(
          idx.reduce((a, i) => a + s.pause[i]!, 0),
          6,
        );
      }
      // Most pause first.
      expect(byReason.map((g) => g.totalPauseMSec)).toEqual([...byReason.map((g) => g.totalPauseMSec)].sort((a, b) => b - a));
    }
  });

  it("lists allocations by type from the trace's AllocationTick samples, largest first", async () => {
    const { summary: a } = await svc.getStackAllocations(ids['workload-concurrent']!, {
      fromMSec: null,
      toMSec: null,
      direction: 'bottom-up',
      kind: null,
      typeName: null,
      search: null,
    });
    expect(a.ticks).toBeGreaterThan(0);
    expect(a.byType.length).toBeGreaterThanOrEqual(5);
    expect(a.byType.map((t) => t.sampledBytes)).toEqual([...a.byType.map((t) => t.sampledBytes)].sort((x, y) => y - x));
    // The workload allocates byte arrays above all (churn, LOH and POH scenarios).
    expect(a.byType[0]!.typeName).toBe('System.Byte[]');
    expect(new Set(a.byType.map((t) => t.kind))).toContain('large');
    expect(a.sampledBytes).toBe(a.byType.reduce((x, t) => x + t.sampledBytes, 0));
  });
});

describe('optional table columns', () => {
  it('give fragmentation %, pinning and survival by generation per GC from the stored records, and say which the trace lacks', async () => {
    const id = ids['workload-concurrent']!;
    const x = await svc.getTableExtras(id);
    const db = await Database.open(dbPath);
    const records = await getGcRecords(db, id);
    await db.close();
    expect(x.columns.fragPercent.length).toBe(records.length);
    let checked = 0;
    records.forEach((r, i) => {
      const frag =
        r.fragmentationMB.some((v) => v === null) || r.heapSizeAfterMB === null
          ? Number.NaN
          : (r.fragmentationMB.reduce<number>((a, v) => a + (v ?? 0), 0) * 100) / r.heapSizeAfterMB;
      if (Number.isNaN(frag)) expect(x.columns.fragPercent[i]).toBeNaN();
      else {
        expect(x.columns.fragPercent[i]).toBeCloseTo(frag, 6);
        checked++;
      }
      for (const g of [0, 1, 2] as const) {
        const want = r.survivalPercent[g];
        if (want === null) expect(x.columns[`gen${g}SurvivalPercent`][i]).toBeNaN();
        else expect(x.columns[`gen${g}SurvivalPercent`][i]).toBeCloseTo(want, 6);
      }
      expect(Number.isNaN(x.columns.pinnedCount[i]!) ? null : x.columns.pinnedCount[i]).toBe(r.pinnedObjectCount);
    });
    expect(checked).toBeGreaterThan(20);
    expect(x.missing.fragPercent).toBeUndefined();
    expect(x.missing.gen0SurvivalPercent).toBeUndefined();
    // A trace recorded without pinning events (gc-collect level) says so instead of empty columns.
    const db2 = await Database.open(dbPath);
    const plain = (await importTrace(db2, `${TRACES}threadpool.nettrace`)).sessionId;
    await db2.close();
    const y = await svc.getTableExtras(plain);
    expect(y.columns.pinnedMB.length).toBeGreaterThan(0);
    expect(y.missing.pinnedMB).toMatch(/^not in this trace: no pinning events/);
    expect(y.missing.pinnedCount).toBe(y.missing.pinnedMB);
    expect(y.missing.fragPercent).toBeUndefined();
    // No background GC with the private provider's wait events: the LOH wait columns say so.
    for (const k of ['lohWaitCount', 'lohWaitMaxMSec', 'lohWaitTotalMSec'] as const)
      expect(y.missing[k]).toMatch(/^not in this trace: no background GC with the private provider's BGCAllocWaitBegin\/End events/);
  });

  it('give the LOH allocation waits of each background GC (count, longest, total) from the stored records', async () => {
    const db = await Database.open(dbPath);
    const id = (await importTrace(db, `${TRACES}problem-loh-alloc-wait.nettrace.zip`)).sessionId;
    const records = await getGcRecords(db, id);
    await db.close();
    const x = await svc.getTableExtras(id);
    for (const k of ['lohWaitCount', 'lohWaitMaxMSec', 'lohWaitTotalMSec'] as const) expect(x.missing[k]).toBeUndefined();
    // NaN where the record has null (not a background GC); the stored value (to the ns) otherwise.
    const same = (v: number | undefined, want: number | null): boolean =>
      want === null ? v !== undefined && Number.isNaN(v) : v !== undefined && Math.abs(v - want) < 1e-6;
    records.forEach((r, i) => {
      expect(same(x.columns.lohWaitCount[i], r.lohAllocWaitCount), `GC ${r.number}`).toBe(true);
      expect(same(x.columns.lohWaitMaxMSec[i], r.lohAllocWaitMaxMSec), `GC ${r.number}: ${x.columns.lohWaitMaxMSec[i]} vs ${r.lohAllocWaitMaxMSec}`).toBe(true);
      expect(same(x.columns.lohWaitTotalMSec[i], r.lohAllocWaitTotalMSec), `GC ${r.number}`).toBe(true);
    });
    expect(records.filter((r) => (r.lohAllocWaitCount ?? 0) > 0).length).toBeGreaterThan(5);
  });
});

describe('Stop on a session row left "recording"', () => {
  it('ends a row whose recorder is gone as failed with the reason, and refuses one another live GCScope process records', async () => {
    const db = await Database.open(dbPath);
    // A recorder that died: a real process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const orphan = await createSession(db, { kind: 'gc', name: 'orphan', source: 'record', status: 'recording', recorderPid: dead });
    // A recorder that is alive: another process, sleeping.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    const busy = await createSession(db, { kind: 'gc', name: 'busy', source: 'record', status: 'recording', recorderPid: other.pid! });
    await db.close();
    try {
      await svc.stopRecording(orphan);
      const s = (await svc.listSessions()).find((x) => x.id === orphan)!;
      expect(s.status).toBe('failed');
      expect(s.statusReason).toMatch(/stopped receiving data/);
      await expect(svc.stopRecording(busy)).rejects.toThrow(new RegExp(`another GCScope process \\(pid ${other.pid}\\)`));
      expect((await svc.listSessions()).find((x) => x.id === busy)!.status).toBe('recording');
    } finally {
      other.kill('SIGKILL');
    }
  });
});
