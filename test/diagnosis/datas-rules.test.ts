/**
 * The DATAS rules (D1–D3, D5, D6) and the hard-limit headroom rule, each at, just below and just
 * above its thresholds, over hand-built DATAS data (shared/server-gc.ts shapes: what
 * getServerGc and the report read from a trace's dynamic events).
 */
import { describe, expect, it } from 'vitest';
import type { DatasSample, DatasTuning, ServerGcData } from '../../src-main/shared/server-gc.js';
import { judge, seq } from './gc-sequences.js';

/** GC i pauses at 1000 + 100·i ms (gc-sequences.ts). */
const timeOf = (i: number): number => 1000 + i * 100;

function datas(over: Partial<ServerGcData> = {}): ServerGcData {
  return {
    serverGc: true,
    gcMode: 'server (DATAS)',
    targetTcpPercent: 2,
    samples: [],
    tunings: [],
    changePauses: [],
    rawDynamicEvents: {},
    settings: null,
    missingDynamicEvents: false,
    ...over,
  };
}
const tuning = (i: number, from: number, to: number, tcp = 1, fields: Record<string, number> = {}): DatasTuning => ({
  kind: 'tuning',
  gcNumber: i + 1,
  timeMSec: timeOf(i),
  heapCount: from,
  newHeapCount: to,
  medianTcpPercent: tcp,
  fields,
});
const sample = (i: number, pauseUs: number, mslWaitUs: number, heapCount = 2): DatasSample => ({
  gcNumber: i + 1,
  timeMSec: timeOf(i),
  elapsedUs: 100_000,
  pauseUs,
  mslWaitUs,
  heapCount,
  gen0BudgetPerHeap: 1e6,
  sohStableSize: 1e7,
});
const server = (d: ServerGcData, _n = 40, extra: Record<string, unknown> = {}) => ({
  facts: { gcMode: 'server (DATAS)', heapCount: 4, serverGc: d, ...extra },
});

describe('datas-oscillation (D1)', () => {
  /** Decisions alternating up and down `k` times, then steady. */
  const zigzag = (reversals: number): DatasTuning[] => {
    const t: DatasTuning[] = [];
    let n = 2;
    for (let i = 0; i < 12; i++) {
      const next = i <= reversals ? (i % 2 === 0 ? n + 1 : n - 1) : n;
      t.push(tuning(i * 3, n, next));
      n = next;
    }
    return t;
  };
  it('is info at 3 reversals within 10 decisions, a warning at 5, nothing at 2', () => {
    expect(judge('datas-oscillation', seq(40), server(datas({ tunings: zigzag(2) }))).severity).toBeNull();
    expect(judge('datas-oscillation', seq(40), server(datas({ tunings: zigzag(3) }))).severity).toBe('info');
    const w = judge('datas-oscillation', seq(40), server(datas({ tunings: zigzag(5) })));
    expect(w.severity).toBe('warning');
    expect(w.finding!.evidence.gcs.length).toBe(5);
  });
  it('does not apply to workstation GC and is not measured without decisions', () => {
    expect(judge('datas-oscillation', seq(5)).outcome.status).toBe('not-applicable');
    expect(judge('datas-oscillation', seq(5), server(datas())).outcome.status).toBe('not-measured');
  });
});

describe('datas-capped (D2)', () => {
  /** Decisions every 3rd GC (300 ms apart) at the cap with a median TCP of `tcp`, for `sec` seconds. */
  const capped = (sec: number, tcp: number): DatasTuning[] =>
    Array.from({ length: Math.round(sec / 0.3) + 1 }, (_, k) => tuning(k * 3, 4, 4, tcp, { maxHeapCountDatas: 4 }));
  const gcs = (sec: number) => seq(Math.round(sec / 0.1) + 5);
  it('is info after 30 s at the cap above twice the target, a warning after 120 s', () => {
    expect(judge('datas-capped', gcs(29.7), server(datas({ tunings: capped(29.7, 5) }))).severity).toBeNull();
    expect(judge('datas-capped', gcs(30), server(datas({ tunings: capped(30, 5) }))).severity).toBe('info');
    expect(judge('datas-capped', gcs(120), server(datas({ tunings: capped(120, 5) }))).severity).toBe('warning');
  });
  it('a cost at twice the target or below, or a count under the cap, is no finding', () => {
    expect(judge('datas-capped', gcs(60), server(datas({ tunings: capped(60, 4) }))).severity).toBeNull();
    const under = Array.from({ length: 201 }, (_, k) => tuning(k * 3, 3, 3, 10, { maxHeapCountDatas: 4 }));
    expect(judge('datas-capped', gcs(60), server(datas({ tunings: under }))).severity).toBeNull();
    // …unless the machine has only 3 cores.
    expect(judge('datas-capped', gcs(60), server(datas({ tunings: under }), 0, { cpuCount: 3 })).severity).toBe('info');
  });
});

describe('datas-alloc-wait (D3)', () => {
  /** 20 samples, `k` of them with waits ÷ 2 heaps equal to the pause. */
  const samples = (k: number): DatasSample[] => Array.from({ length: 20 }, (_, i) => sample(i, 1000, i < k ? 2000 : 100));
  it('is info when half the samples are wait-dominated, a warning at 80 %', () => {
    expect(judge('datas-alloc-wait', seq(25), server(datas({ samples: samples(9) }))).severity).toBeNull();
    expect(judge('datas-alloc-wait', seq(25), server(datas({ samples: samples(10) }))).severity).toBe('info');
    expect(judge('datas-alloc-wait', seq(25), server(datas({ samples: samples(16) }))).severity).toBe('warning');
  });
  it('is not measured without samples', () => {
    expect(judge('datas-alloc-wait', seq(25), server(datas())).outcome.status).toBe('not-measured');
  });
});

describe('datas-change-cost (D5)', () => {
  const pauses = (ms: number) => [
    { startMSec: timeOf(3) + 50, durationMSec: 0.2, afterGCNumber: 4 },
    { startMSec: timeOf(8) + 50, durationMSec: ms, afterGCNumber: 9 },
  ];
  it("is info from a 10 ms heap-count change pause and a warning from 50 ms, with the pause's time as evidence", () => {
    expect(judge('datas-change-cost', seq(20), server(datas({ changePauses: pauses(9.9) }))).severity).toBeNull();
    const i = judge('datas-change-cost', seq(20), server(datas({ changePauses: pauses(10) })));
    expect(i.severity).toBe('info');
    expect(i.finding!.evidence).toEqual({ gcs: [9], startMSec: timeOf(8) + 50, endMSec: timeOf(8) + 60 });
    expect(judge('datas-change-cost', seq(20), server(datas({ changePauses: pauses(50) }))).severity).toBe('warning');
  });
});

describe('datas-missing-data (D6)', () => {
  it('is an info finding for Server GC on .NET 9+ without dynamic events, nothing otherwise', () => {
    expect(judge('datas-missing-data', seq(5), server(datas({ missingDynamicEvents: true }))).severity).toBe('info');
    expect(judge('datas-missing-data', seq(5), server(datas())).severity).toBeNull();
    expect(judge('datas-missing-data', seq(5)).outcome.status).toBe('not-applicable');
  });
});

describe('hard-limit-headroom (M14 headroom)', () => {
  const limit = 200e6;
  const withCommitted = (mb: number) => seq(5, (i) => ({ committedInUseAfterMB: i === 2 ? mb : 50 }));
  const facts = { facts: { serverGc: datas({ serverGc: false, settings: { hardLimitBytes: limit, highMemPercentConfig: 0, gen0MaxBudgetConfig: 0 } }) } };
  it('is info when committed reaches 80 % of the hard limit and a warning at 95 %', () => {
    expect(judge('hard-limit-headroom', withCommitted(159.9), facts).severity).toBeNull();
    const i = judge('hard-limit-headroom', withCommitted(160), facts);
    expect(i.severity).toBe('info');
    expect(i.finding!.evidence.gcs).toEqual([3]);
    expect(judge('hard-limit-headroom', withCommitted(190), facts).severity).toBe('warning');
  });
  it('is not measured without GCSettingsRundown, and no finding without a limit', () => {
    expect(judge('hard-limit-headroom', withCommitted(190)).outcome.status).toBe('not-measured');
    expect(
      judge('hard-limit-headroom', withCommitted(190), {
        facts: { serverGc: datas({ settings: { hardLimitBytes: 0, highMemPercentConfig: 0, gen0MaxBudgetConfig: 0 } }) },
      }).severity,
    ).toBeNull();
  });
});
