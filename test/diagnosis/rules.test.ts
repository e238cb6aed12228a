/**
 * Every rule on hand-built GC sequences at, just below and just above each of its thresholds
 * (the defaults documented in docs/diagnosis.md): a finding appears exactly at its threshold,
 * not a hair below, with the severity the JMC score model gives, and with the right GCs as
 * evidence. A failure here means a user sees a finding that should not be there, or misses one.
 */
import { describe, expect, it } from 'vitest';
import { gc, judge, seq, type GcSpec } from './gc-sequences.js';
import { evidenceText } from '../../src-main/report/findings-text.js';
import { diagnose, hasWarning } from '../../src-main/diagnosis/diagnose.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import { WORKSTATION } from './gc-sequences.js';

/** Every rule over the GCs, as `gcscope diagnose` runs them. */
const diagnoseAll = (gcs: ReturnType<typeof seq>) => diagnose(columnsFromRecords(gcs), WORKSTATION);

const sev = (id: string, gcs: ReturnType<typeof seq>, opts?: Parameters<typeof judge>[2]) => judge(id, gcs, opts).severity;

describe('long-suspension (M1)', () => {
  const withSuspend = (ms: number, times = 2) =>
    seq(10, (i) => (i === 4 || (times === 2 && i === 7) ? { suspendDurationMSec: ms, pauseDurationMSec: ms * 4 } : {}));
  it('is info from a 1 ms suspension and a warning from 10 ms in two GCs, nothing below 1 ms', () => {
    expect(sev('long-suspension', withSuspend(0.99))).toBeNull();
    expect(sev('long-suspension', withSuspend(1))).toBe('info');
    expect(sev('long-suspension', withSuspend(1.01))).toBe('info');
    expect(sev('long-suspension', withSuspend(9.9))).toBe('info');
    expect(sev('long-suspension', withSuspend(10))).toBe('warning');
    expect(sev('long-suspension', withSuspend(10.1))).toBe('warning');
  });
  it('says one 24 ms suspension on a busy machine as information, not a warning; one of 100 ms (a pause users notice) warns by itself', () => {
    // Issue 39: a healthy service recorded while other work loaded both cores; one GC waited 23.7 ms for a thread that had lost the CPU.
    expect(sev('long-suspension', withSuspend(23.7, 1))).toBe('info');
    expect(judge('long-suspension', withSuspend(23.7, 1)).outcome.reason).toContain('1 GCs suspended ≥ 10.0 ms');
    expect(sev('long-suspension', withSuspend(99.9, 1))).toBe('info');
    expect(sev('long-suspension', withSuspend(100, 1))).toBe('warning');
  });
  it('names the slow GC as evidence and says it in the title', () => {
    const j = judge('long-suspension', withSuspend(150, 1));
    expect(j.finding!.evidence.gcs).toEqual([5]);
    expect(j.finding!.title).toContain('150 ms');
  });
  it('warns when suspension is most of the pause in at least 3 GCs (and 20 % of them), not in 2', () => {
    const dominated = (k: number) => seq(10, (i) => (i < k ? { suspendDurationMSec: 0.75, pauseDurationMSec: 1.5 } : {}));
    expect(sev('long-suspension', dominated(2))).toBeNull();
    expect(sev('long-suspension', dominated(3))).toBe('warning');
    expect(judge('long-suspension', dominated(3)).finding!.evidence.gcs).toEqual([1, 2, 3]);
    // The evidence is the GCs the title counts, though a fourth GC had a long (not dominating) suspension.
    const mixed = seq(10, (i) =>
      i < 3 ? { suspendDurationMSec: 1, pauseDurationMSec: 1.5 } : i === 5 ? { suspendDurationMSec: 1.2, pauseDurationMSec: 10 } : {},
    );
    const m = judge('long-suspension', mixed).finding!;
    expect(m.title).toMatch(/^Suspension is most of the pause in 3 GCs/);
    expect(m.evidence.gcs).toEqual([1, 2, 3]);
    // Just below the share: 0.74 / 1.5 < 0.5.
    expect(
      sev(
        'long-suspension',
        seq(10, (i) => (i < 3 ? { suspendDurationMSec: 0.74, pauseDurationMSec: 1.5 } : {})),
      ),
    ).toBeNull();
  });
  // Issue 39: loh-alloc-wait recorded while other work loaded both cores. The gen0 GCs that ran
  // inside background GCs (foreground, type 2) took 1–37 ms to suspend — they wait for the BGC's
  // own thread — while the blocking GCs and the BGCs' starts, which stop the same application
  // threads, took 0.03 ms. Blaming an application thread there is the wrong cause.
  const bgcThenForeground = (fgSuspend: number, otherSuspend = 0.03) =>
    seq(12, (i) =>
      i === 3
        ? { type: 1, suspendDurationMSec: otherSuspend, pauseDurationMSec: 5 }
        : i > 3 && i < 9
          ? { type: 2, suspendDurationMSec: fgSuspend, pauseDurationMSec: fgSuspend + 0.3 }
          : { suspendDurationMSec: otherSuspend, pauseDurationMSec: 10 },
    );
  it('says slow suspensions in foreground GCs alone are the background GC thread letting them in late: information, not a warning', () => {
    const j = judge('long-suspension', bgcThenForeground(30));
    expect(j.severity).toBe('info');
    expect(j.finding!.title).toMatch(/^Foreground GCs waited up to 30\.0 ms for the background GC's thread/);
    expect(j.finding!.evidence.gcs).toEqual([5, 6, 7, 8, 9]);
    expect(j.finding!.explanation).not.toMatch(/native code called without switching/);
  });
  it('still warns when a GC other than a foreground one suspends slowly too: then an application thread may be the one', () => {
    expect(sev('long-suspension', bgcThenForeground(30, 1))).toBe('warning');
    expect(sev('long-suspension', bgcThenForeground(30, 0.99))).toBe('info');
    // Too few other GCs to tell (othersMinCount 3): judged as before.
    const fewOthers = seq(7, (i) => (i < 5 ? { type: 2, suspendDurationMSec: 30, pauseDurationMSec: 30.3 } : {}));
    expect(sev('long-suspension', fewOthers)).toBe('warning');
  });
});

describe('random-long-pause (M2)', () => {
  // Ten gen0 GCs promoting 1 MB do 10 ms of GC work; GC #11 promotes as much and takes `work`.
  const withWork = (work: number, peerWork = 10) => [
    ...seq(10, () => ({ promotedMB: 1, suspendDurationMSec: 0.1, pauseDurationMSec: peerWork + 0.1 })),
    gc(10, { promotedMB: 1, suspendDurationMSec: 0.1, pauseDurationMSec: work + 0.1 }),
  ];
  it("advises for the trace's GC flavour: Server GC heaps and DATAS only for Server GC", () => {
    const ws = judge('random-long-pause', withWork(40), { facts: { gcMode: 'workstation', heapCount: 1 } }).finding!;
    expect(ws.advice).not.toMatch(/Server GC|DATAS|GCHeapCount/);
    expect(ws.advice).toMatch(/Workstation GC collects on the thread that triggered it/);
    expect(judge('random-long-pause', withWork(40), { facts: { gcMode: 'server', heapCount: 4 } }).finding!.advice).toMatch(
      /GCHeapCount, GCHeapAffinitizeMask\) or use DATAS/,
    );
  });
  it("is info at 2× the peers' time and a warning at 4×, for a pause users notice", () => {
    // Peers doing 50 ms of work: 2× is a 100 ms pause, long enough to matter by itself.
    expect(sev('random-long-pause', withWork(99.9, 50))).toBeNull();
    expect(sev('random-long-pause', withWork(100, 50))).toBe('info');
    expect(sev('random-long-pause', withWork(199.9, 50))).toBe('info');
    expect(sev('random-long-pause', withWork(200, 50))).toBe('warning');
    expect(sev('random-long-pause', withWork(210, 50))).toBe('warning');
    expect(judge('random-long-pause', withWork(200, 50)).finding!.evidence.gcs).toEqual([11]);
  });
  it('needs the GC to take at least 10 ms longer than expected, however large the ratio', () => {
    expect(sev('random-long-pause', withWork(11.9, 2))).toBeNull();
    expect(sev('random-long-pause', withWork(12, 2))).toBe('info');
  });
  it('says one short outlier on a busy machine (a 12 ms gen0 GC, 10× its peers) as a low info, not a warning that fails a CI gate', () => {
    // Issue 39: a healthy service recorded on a busy machine; one gen0 GC lost the CPU for 11 ms.
    const gcs = [
      ...seq(30, () => ({ promotedMB: 0.5, suspendDurationMSec: 0.05, pauseDurationMSec: 1.2 })),
      gc(30, { promotedMB: 0.5, suspendDurationMSec: 0.05, pauseDurationMSec: 12.05 }),
    ];
    const j = judge('random-long-pause', gcs);
    expect(j.severity).toBe('info');
    expect(j.score).toBeLessThan(30);
    expect(j.finding!.explanation).toContain('too little to act on unless it recurs');
    // A setting can still make it matter: a 10 ms pause budget per GC.
    expect(sev('random-long-pause', gcs, { overrides: { 'random-long-pause.warnPauseMSec': 12 } })).toBe('warning');
  });
  it('warns when three or more outliers cost half the pause budget, not when two do', () => {
    const outliers = (n: number) => [
      ...seq(20, () => ({ promotedMB: 0.5, suspendDurationMSec: 0.05, pauseDurationMSec: 2.05 })),
      ...Array.from({ length: n }, (_, k) => gc(20 + k, { promotedMB: 0.5, suspendDurationMSec: 0.05, pauseDurationMSec: 40.05 })),
    ];
    // Three: 114 ms beyond the peers' 2 ms each, of 160 ms paused in all (71 %).
    const three = judge('random-long-pause', outliers(3));
    expect(three.severity).toBe('warning');
    expect(three.finding!.evidence.gcs).toEqual([21, 22, 23]);
    expect(three.outcome.reason).toMatch(/3 outliers, longest 40\.1 ms/);
    expect(sev('random-long-pause', outliers(2))).toBe('info');
  });
  it('ranks below the induced GCs of a GC.Collect loop on a busy machine: the real problem comes first', () => {
    // Gen0 GCs of 1 ms, an induced full blocking gen2 every 10th GC (8 ms), and one gen0 GC that lost the CPU for 15 ms.
    const gcs = seq(60, (i) =>
      i % 10 === 9
        ? { generation: 2, reason: 1, promotedMB: 40, suspendDurationMSec: 0.05, pauseDurationMSec: 8 }
        : { promotedMB: 0.5, suspendDurationMSec: 0.05, pauseDurationMSec: i === 33 ? 16 : 1 },
    );
    const d = diagnoseAll(gcs);
    expect(d.findings.map((f) => `${f.id} ${f.severity}`)).toEqual(['induced-gcs warning', 'random-long-pause info']);
    expect(hasWarning({ findings: d.findings.filter((f) => f.id !== 'induced-gcs') })).toBe(false);
  });
  it('does not judge warm-up GCs (nor take them as peers): a slow GC while the caches fill is startup, not a stolen CPU', () => {
    // The live data grows 4 → 40 MB over the first 10 GCs, then stays; every GC promotes 1 MB in 10 ms but one, which takes 110 ms.
    const withSlow = (slow: number) =>
      seq(30, (i) => ({
        genSizeAfterMB: [1, 1, Math.min(40, 4 * (i + 1)), 0, 0],
        promotedMB: 1,
        suspendDurationMSec: 0.1,
        pauseDurationMSec: (i === slow ? 110 : 10) + 0.1,
      }));
    const during = judge('random-long-pause', withSlow(3));
    expect(during.severity).toBeNull();
    expect(during.outcome.reason).toContain('warm-up ends at');
    expect(during.outcome.reason).toContain('8 warm-up GCs not judged');
    const after = judge('random-long-pause', withSlow(20));
    expect(after.severity).toBe('warning');
    expect(after.finding!.evidence.gcs).toEqual([21]);
  });
  it('compares only GCs that promote about as much: a GC promoting 10× more may take longer', () => {
    const gcs = [...seq(10, () => ({ promotedMB: 1, pauseDurationMSec: 10.05 })), gc(10, { promotedMB: 10, pauseDurationMSec: 80 })];
    expect(sev('random-long-pause', gcs)).toBeNull();
  });
});

describe('full-blocking-gcs (M3)', () => {
  const withFull = (k: number, over: GcSpec = {}) => seq(20, (i) => (i < k ? { generation: 2, type: 0, ...over } : {}));
  it('is info when 25 % of GCs are full blocking and a warning above half', () => {
    expect(sev('full-blocking-gcs', withFull(4))).toBeNull();
    expect(sev('full-blocking-gcs', withFull(5))).toBe('info');
    expect(sev('full-blocking-gcs', withFull(6))).toBe('info');
    expect(sev('full-blocking-gcs', withFull(9))).toBe('info');
    expect(sev('full-blocking-gcs', withFull(10))).toBe('warning');
    expect(sev('full-blocking-gcs', withFull(11))).toBe('warning');
  });
  it('leaves induced and LOH-triggered full GCs to their own rules, and background gen2s out', () => {
    expect(sev('full-blocking-gcs', withFull(15, { reason: 1 }))).toBeNull();
    expect(sev('full-blocking-gcs', withFull(15, { reason: 4 }))).toBeNull();
    expect(sev('full-blocking-gcs', withFull(15, { type: 1 }))).toBeNull();
  });
  it('flags even one full blocking GC on a heap of 1 GB or more', () => {
    expect(sev('full-blocking-gcs', withFull(1, { heapSizeBeforeMB: 1023 }))).toBeNull();
    expect(sev('full-blocking-gcs', withFull(1, { heapSizeBeforeMB: 1024 }))).toBe('info');
  });
});

describe('induced-gcs (M4)', () => {
  // 100 GCs of 1 ms; the first k are induced with pause p: share = k·p / (k·p + 100 − k).
  const induced = (k: number, p: number, over: GcSpec = {}) => seq(100, (i) => (i < k ? { reason: 1, pauseDurationMSec: p, ...over } : {}));
  it('is info from one induced GC, a warning from 10 % of all pause time', () => {
    expect(sev('induced-gcs', seq(100))).toBeNull();
    expect(sev('induced-gcs', induced(1, 1))).toBe('info');
    // 10 induced GCs of 1 ms: 10 % of 100 ms.
    expect(sev('induced-gcs', induced(10, 1))).toBe('warning');
    // 9.9 %: 10 induced × p with p just under 1 ms.
    expect(sev('induced-gcs', induced(10, 0.989))).toBe('info');
    expect(sev('induced-gcs', induced(10, 1.02))).toBe('warning');
  });
  it('writes counts with thousands separators in the title and the reason ("1,200 induced gen0 GCs", not "1200")', () => {
    const j = judge(
      'induced-gcs',
      seq(2000, (i) => (i < 1200 ? { reason: 1 } : {})),
    );
    expect(j.finding!.title).toMatch(/^1,200 induced gen0 GCs: /);
    expect(j.outcome.reason).toMatch(/: 1,200 induced GCs, /);
    // The text report's evidence line counts them the same way.
    expect(evidenceText(j.finding!)).toMatch(/ … \(1,200 GCs\)/);
  });
  it("leaves out the gen2 GCs GCScope's own heap snapshots induced while recording: they are not the app's GC.Collect", () => {
    const gcs = induced(10, 1, { generation: 2 });
    // All ten were snapshots taken from GCScope: no finding, and the reason says why.
    const all = judge('induced-gcs', gcs, { facts: { snapshotGcNumbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
    expect(all.severity).toBeNull();
    expect(all.outcome.reason).toMatch(/0 induced GCs.*; 10 more were GCScope's own heap snapshots \(GC #1, #2, .*#10\), not counted/);
    // Two of them: the other eight are the app's, and the finding says the two are left out.
    const two = judge('induced-gcs', gcs, { facts: { snapshotGcNumbers: [1, 2] } });
    expect(two.finding!.title).toBe('8 induced gen2 GCs: 8 % of all pause time');
    expect(two.finding!.evidence.gcs).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(two.finding!.explanation).toContain("2 other induced GCs in view were GCScope's own heap snapshots and are not counted here.");
  });
  it('warns about a single induced full blocking GC of 100 ms, not 99 ms', () => {
    const one = (p: number) => [...seq(2000), gc(2000, { reason: 1, generation: 2, type: 0, pauseDurationMSec: p })];
    expect(sev('induced-gcs', one(99))).toBe('info');
    expect(sev('induced-gcs', one(100))).toBe('warning');
  });
  it('says how many and what share of the pause in the title, with the induced GCs as evidence', () => {
    const j = judge('induced-gcs', induced(10, 1, { generation: 2 }));
    expect(j.finding!.title).toBe('10 induced gen2 GCs: 10 % of all pause time');
    expect(j.finding!.evidence.gcs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(j.finding!.explanation).not.toContain('Induced tile');
  });
  it("counts GC.Collect in every form, and says which of them the Induced tile (PerfView's count) leaves out", () => {
    // 2 Induced, 1 InducedCompacting, 1 InducedAggressive: the tile says 2, the finding 4.
    const j = judge(
      'induced-gcs',
      seq(100, (i) => ({ reason: [1, 1, 10, 17][i] ?? 0 })),
    );
    expect(j.finding!.title).toMatch(/^4 induced gen0 GCs/);
    expect(j.finding!.explanation).toContain('2 of them (InducedCompacting, InducedAggressive) are not in the Induced tile');
    const one = judge(
      'induced-gcs',
      seq(100, (i) => ({ reason: [1, 10][i] ?? 0 })),
    );
    expect(one.finding!.explanation).toContain('1 of them (InducedCompacting) is not in the Induced tile');
  });
  it('does not advise the optimized GC.Collect to callers that already use it (every induced GC InducedNotForced)', () => {
    const forced = judge(
      'induced-gcs',
      seq(100, (i) => (i < 3 ? { reason: 1, generation: 2, type: 0 } : {})),
    );
    expect(forced.finding!.advice).toContain('use GC.Collect(2, GCCollectionMode.Optimized, blocking: false)');
    const gentle = judge(
      'induced-gcs',
      seq(100, (i) => (i < 3 ? { reason: 7, generation: 2, type: 1 } : {})),
    );
    expect(gentle.finding!.advice).not.toContain('use GC.Collect(2, GCCollectionMode.Optimized');
    expect(gentle.finding!.advice).toContain(
      "already use GC.Collect's optimized form (InducedNotForced: GCCollectionMode.Optimized, so the GC decides, and they do not block",
    );
    const mixed = judge(
      'induced-gcs',
      seq(100, (i) => (i < 3 ? { reason: i === 0 ? 1 : 7, generation: 2, type: 1 } : {})),
    );
    expect(mixed.finding!.advice).toContain('use GC.Collect(2, GCCollectionMode.Optimized, blocking: false)');
  });
});

describe('loh-triggered-gen2 (M5)', () => {
  const gen2 = (k: number, n = 10) => seq(n, (i) => ({ generation: 2, type: 1, reason: i < k ? 4 : 0 }));
  it('is info from one LOH-triggered gen2 and a warning when half the gen2s are (at least 3)', () => {
    expect(sev('loh-triggered-gen2', gen2(0))).toBeNull();
    expect(sev('loh-triggered-gen2', gen2(1))).toBe('info');
    expect(sev('loh-triggered-gen2', gen2(4))).toBe('info');
    expect(sev('loh-triggered-gen2', gen2(5))).toBe('warning');
    expect(sev('loh-triggered-gen2', gen2(6))).toBe('warning');
    expect(sev('loh-triggered-gen2', gen2(2, 2))).toBe('info');
    expect(sev('loh-triggered-gen2', gen2(3, 3))).toBe('warning');
  });
  it('counts OutOfSpaceLOH too, and names the LOH-triggered GCs', () => {
    const j = judge(
      'loh-triggered-gen2',
      seq(6, (i) => ({ generation: 2, reason: i % 2 === 0 ? 6 : 0 })),
    );
    expect(j.severity).toBe('warning');
    expect(j.finding!.evidence.gcs).toEqual([1, 3, 5]);
  });
});

describe('loh-alloc-wait (M6)', () => {
  // GCs 1–6; GC #3 is a background GC whose LOH waits are `max` (longest) and `total` ms.
  const bgcWith = (max: number | null, total: number | null = max, count: number | null = max === null ? null : max > 0 ? 1 : 0) =>
    seq(6, (i) => (i === 2 ? { generation: 2, type: 1, lohAllocWaitMaxMSec: max, lohAllocWaitTotalMSec: total, lohAllocWaitCount: count } : {}));
  it('says "not measured: needs the private provider" when background GCs ran without its events', () => {
    const j = judge('loh-alloc-wait', bgcWith(null));
    expect(j.outcome.status).toBe('not-measured');
    expect(j.outcome.needs).toContain('Microsoft-Windows-DotNETRuntimePrivate');
    expect(j.outcome.needs).toContain('BGCAllocWait');
  });
  it('does not apply without a background GC (nothing can wait), even without the provider', () => {
    expect(judge('loh-alloc-wait', seq(6)).outcome.status).toBe('not-applicable');
  });
  it('is measured and silent when the provider was on and nothing waited', () => {
    const j = judge('loh-alloc-wait', bgcWith(0));
    expect(j.outcome.status).toBe('ok');
    expect(j.severity).toBeNull();
    expect(j.outcome.reason).toContain('no LOH allocation waited');
  });
  it('is info from one 50 ms wait and a warning from a 200 ms wait', () => {
    expect(sev('loh-alloc-wait', bgcWith(49.9))).toBeNull();
    expect(sev('loh-alloc-wait', bgcWith(50))).toBe('info');
    expect(sev('loh-alloc-wait', bgcWith(50.1))).toBe('info');
    expect(sev('loh-alloc-wait', bgcWith(199.9))).toBe('info');
    expect(sev('loh-alloc-wait', bgcWith(200))).toBe('warning');
    expect(sev('loh-alloc-wait', bgcWith(200.1))).toBe('warning');
  });
  it('is info when several short waits of one BGC add up to 50 ms, but never a warning from the total alone', () => {
    expect(sev('loh-alloc-wait', bgcWith(20, 49.9, 3))).toBeNull();
    expect(sev('loh-alloc-wait', bgcWith(20, 50, 3))).toBe('info');
    expect(sev('loh-alloc-wait', bgcWith(100, 900, 9))).toBe('info');
  });
  it('names the background GC the threads waited for, and says how long', () => {
    const j = judge('loh-alloc-wait', bgcWith(250, 400, 2));
    expect(j.finding!.evidence.gcs).toEqual([3]);
    expect(j.finding!.title).toContain('250 ms');
    expect(j.finding!.title).toContain('#3');
  });
});

describe('high-pause-time (M7)', () => {
  // One GC a second for 3 minutes, each pausing p ms: every 60 s window is p/1000 paused.
  const paused = (p: number, spike?: { from: number; to: number; p: number }) =>
    seq(180, (i) => ({ pauseStartRelativeMSec: 1000 + i * 1000, pauseDurationMSec: spike !== undefined && i >= spike.from && i < spike.to ? spike.p : p }));
  it('is info from 5 % of a 60 s window paused and a warning from 10 %', () => {
    expect(sev('high-pause-time', paused(49.5))).toBeNull();
    expect(sev('high-pause-time', paused(50))).toBe('info');
    expect(sev('high-pause-time', paused(99))).toBe('info');
    expect(sev('high-pause-time', paused(100))).toBe('warning');
    expect(sev('high-pause-time', paused(101))).toBe('warning');
  });
  it('finds the worst window: a 30 s burst shows although the whole recording averages under 5 %', () => {
    const j = judge('high-pause-time', paused(10, { from: 90, to: 120, p: 300 }));
    expect(j.severity).toBe('warning');
    expect(j.finding!.evidence.startMSec).toBe(61_000);
    expect(j.finding!.evidence.endMSec).toBe(121_000);
    expect(j.finding!.evidence.gcs).toHaveLength(60);
  });
  it('a windowSec setting changes the window', () => {
    const j = judge('high-pause-time', paused(10, { from: 90, to: 100, p: 300 }), { overrides: { 'high-pause-time.windowSec': 10 } });
    expect(j.finding!.title).toContain('worst 10.0 s window');
  });
});

describe('promotion-spike (M8)', () => {
  const spike = (promoted: number, pause: number) => [
    ...seq(20, () => ({ promotedMB: 1, pauseDurationMSec: 2 })),
    gc(20, { promotedMB: promoted, pauseDurationMSec: pause }),
  ];
  it('is info when an ephemeral GC promotes 3× and pauses 2× the rolling median', () => {
    expect(sev('promotion-spike', spike(3, 4))).toBe('info');
    expect(sev('promotion-spike', spike(2.99, 4))).toBeNull();
    expect(sev('promotion-spike', spike(3, 3.99))).toBeNull();
    expect(judge('promotion-spike', spike(5, 8)).finding!.evidence.gcs).toEqual([21]);
  });
  it('ignores gen2 GCs and GCs without enough history', () => {
    expect(
      sev('promotion-spike', [...seq(20, () => ({ promotedMB: 1, pauseDurationMSec: 2 })), gc(20, { generation: 2, promotedMB: 9, pauseDurationMSec: 9 })]),
    ).toBeNull();
    expect(sev('promotion-spike', [...seq(5, () => ({ promotedMB: 1, pauseDurationMSec: 2 })), gc(5, { promotedMB: 9, pauseDurationMSec: 9 })])).toBeNull();
  });
});

describe('growing-live-set (M9)', () => {
  // Gen2 GCs every 30 s for 20 minutes; gen2 grows by `perMin` % of its first 100 MB a minute.
  const growing = (perMin: number, noise = 0) =>
    seq(41, (i) => {
      const min = (i * 30) / 60;
      return { generation: 2, pauseStartRelativeMSec: i * 30_000, genSizeAfterMB: [1, 1, 100 + perMin * min + (i % 2 === 0 ? noise : -noise), 0, 0] };
    });
  const fromStart = { overrides: { 'growing-live-set.warmUpFraction': 0 } };
  it('is info from 1 %/min after warm-up and a warning from 5 %/min', () => {
    expect(sev('growing-live-set', growing(0.99), fromStart)).toBeNull();
    expect(sev('growing-live-set', growing(1), fromStart)).toBe('info');
    expect(sev('growing-live-set', growing(4.9), fromStart)).toBe('info');
    expect(sev('growing-live-set', growing(5), fromStart)).toBe('warning');
    expect(sev('growing-live-set', growing(5.1), fromStart)).toBe('warning');
  });
  it('needs a trend (R² ≥ 0.5), enough gen2 GCs, and growth that is a real share of the live set', () => {
    expect(sev('growing-live-set', growing(1, 15), fromStart)).toBeNull();
    expect(sev('growing-live-set', growing(10).slice(0, 4), fromStart)).toBeNull();
    // 5 %/min over 1.5 minutes is under the 10 % minimum growth.
    expect(
      sev('growing-live-set', growing(5).slice(0, 4), { overrides: { 'growing-live-set.warmUpFraction': 0, 'growing-live-set.minGen2GCs': 3 } }),
    ).toBeNull();
  });
  it('does not call a sawtooth a leak: a live set that climbs and drops back, ending where it began, "keeps growing 769 MB → 769 MB" no more', () => {
    // Climbs 100 → 300 MB over 21 gen2 GCs, and the last one drops back to 100 MB (a cache filled,
    // then cleared): the fitted line still rises, the live data did not grow.
    const saw = seq(22, (i) => ({ generation: 2, pauseStartRelativeMSec: i * 30_000, genSizeAfterMB: [1, 1, i === 21 ? 100 : 100 + 10 * i, 0, 0] }));
    const j = judge('growing-live-set', saw, fromStart);
    expect(j.severity).toBeNull();
    expect(j.outcome.reason).toMatch(/the last gen2 GC's live data is 0 % above the first's/);
  });
  it('ignores a live set that grows during warm-up and then stays flat', () => {
    const gcs = seq(60, (i) => ({ generation: 2, pauseStartRelativeMSec: i * 10_000, genSizeAfterMB: [1, 1, i < 10 ? 10 * (i + 1) : 100 + (i % 3), 0, 0] }));
    const j = judge('growing-live-set', gcs);
    expect(j.severity).toBeNull();
    expect(j.outcome.reason).toContain('warm-up ends at');
  });
  it('warns about a leak that never levels off in a short recording (8 s, 9 gen2 GCs, 1 → 650 MB): no steady state is the leak, not a warm-up', () => {
    // Issue 39: 80 GCs 100 ms apart, every 9th a gen2; what survives climbs by 8.1 MB per GC and
    // each gen2 GC reclaims nothing. Warm-up detection used to take the whole climb for warm-up.
    const leak = seq(80, (i) => ({ generation: i % 9 === 8 ? 2 : 0, genSizeAfterMB: [1, 1, 1 + 8.1 * i, 0, 0] }));
    const j = judge('growing-live-set', leak);
    expect(j.severity, j.outcome.reason).toBe('warning');
    expect(j.outcome.reason).toContain('still climbing at the end');
    expect(j.finding!.evidence.gcs).toEqual([9, 18, 27, 36, 45, 54, 63, 72]);
    expect(j.finding!.title).toContain('never levelling off');
  });
  it('warns about a leak caught in only 3 gen2 GCs (a busy machine ran few), when none of them reclaimed what the one before left', () => {
    // 20 GCs 400 ms apart, gen2 at #3, #7 and #14; gen2's live data climbs 15 MB per GC.
    const gen2At = new Set([2, 6, 13]);
    const leak = seq(20, (i) => ({ generation: gen2At.has(i) ? 2 : 1, pauseStartRelativeMSec: 1800 + 400 * i, genSizeAfterMB: [0, 15, 15 * i, 0, 0] }));
    const j = judge('growing-live-set', leak);
    expect(j.severity, j.outcome.reason).toBe('warning');
    expect(j.finding!.evidence.gcs).toEqual([3, 7, 14]);
    expect(j.outcome.reason).toContain('none reclaiming what the one before left');
    // The same GCs where the second gen2 GC reclaimed what the gen1 GCs had promoted (a mid-life crisis's sawtooth): no leak.
    const saw = seq(20, (i) => ({
      generation: gen2At.has(i) ? 2 : 1,
      pauseStartRelativeMSec: 1800 + 400 * i,
      genSizeAfterMB: [0, 15, i === 6 ? 10 : 15 * i, 0, 0],
    }));
    expect(sev('growing-live-set', saw)).toBeNull();
  });
  it('raises nothing on a start-up fill that climbs to 200 MB in the first 2 s and then stays level, in the same short recording', () => {
    const fill = seq(80, (i) => ({ generation: i % 9 === 8 ? 2 : 0, genSizeAfterMB: [1, 1, Math.min(200, 10 * (i + 1)) + (i % 3), 0, 0] }));
    const j = judge('growing-live-set', fill);
    expect(j.severity, j.outcome.reason).toBeNull();
    expect(j.outcome.reason).toContain('warm-up ends at');
    expect(j.outcome.reason).not.toContain('climbing');
  });
  it('counts LOH and subtracts free space: a leak of large arrays shows, fragmentation does not', () => {
    const loh = seq(41, (i) => ({ generation: 2, pauseStartRelativeMSec: i * 30_000, genSizeAfterMB: [1, 1, 100, 100 + 10 * i, 0] }));
    expect(sev('growing-live-set', loh, fromStart)).toBe('warning');
    const frag = seq(41, (i) => ({
      generation: 2,
      pauseStartRelativeMSec: i * 30_000,
      genSizeAfterMB: [1, 1, 100 + 10 * i, 0, 0],
      fragmentationMB: [0, 0, 10 * i, 0, 0],
    }));
    expect(sev('growing-live-set', frag, fromStart)).toBeNull();
  });
});

describe('gen0-budget-peak (M10)', () => {
  const heap = (peak: number, budget: number) => seq(10, () => ({ heapSizeAfterMB: 10, heapSizePeakMB: peak, genBudgetMB: [budget, 1, 1, 1, 0] }));
  it('is info when the peak is twice the heap after and the gen0 budget half of it', () => {
    expect(sev('gen0-budget-peak', heap(20, 5))).toBe('info');
    expect(sev('gen0-budget-peak', heap(19.9, 5))).toBeNull();
    expect(sev('gen0-budget-peak', heap(20, 4.9))).toBeNull();
    expect(sev('gen0-budget-peak', heap(30, 8))).toBe('info');
  });
  it('explains the peak with the ratios it measured, the same as its title, not a fixed "about twice"', () => {
    // Peak 388 MB over 10 MB surviving: 38.8× in the title, and the body must say as much.
    const f = judge('gen0-budget-peak', heap(388, 370)).finding!;
    expect(f.title).toMatch(/^Heap peaks at 38\.8× what survives/);
    expect(f.explanation).toMatch(
      /median gen0 budget \(370 MB\) is 37× the median surviving heap \(10\.0 MB\), and the heap peaks at a median 38\.8× what survives: the process needs about 39× the memory/,
    );
    expect(f.explanation).not.toMatch(/twice|as large as the surviving heap/);
  });
  it('says "not measured" without per-heap history (no budget)', () => {
    expect(
      judge(
        'gen0-budget-peak',
        seq(5, () => ({ genBudgetMB: [null, null, null, null, null] })),
      ).outcome.status,
    ).toBe('not-measured');
  });
  it('explains and advises for the GC flavour of the trace: no Server GC heaps or DATAS for workstation GC', () => {
    const ws = judge('gen0-budget-peak', heap(30, 8), { facts: { gcMode: 'workstation', heapCount: 1 } }).finding!;
    expect(ws.explanation).toMatch(/Workstation GC sizes the gen0 budget from the CPU's cache/);
    expect(`${ws.explanation} ${ws.advice}`).not.toMatch(/Server GC|DATAS|GCHeapCount/);
    expect(ws.advice).toMatch(/GCgen0MaxBudget/);
    const sv = judge('gen0-budget-peak', heap(30, 8), { facts: { gcMode: 'server', heapCount: 4 } }).finding!;
    expect(sv.explanation).toMatch(/Server GC sets large budgets, one per heap/);
    expect(sv.advice).toMatch(/DATAS.*GCHeapCount/);
  });
});

describe('pinning-fragmentation (M11)', () => {
  // After each affected GC gen0 is 4 MB (of a 10 MB heap) with `frag` MB free and 12 pinned objects.
  const pinned = (k: number, frag = 3, n = 10) =>
    seq(n, (i) => (i < k ? { genSizeAfterMB: [4, 1, 3, 2, 0], fragmentationMB: [frag, 0, 0, 0, 0], pinnedObjectCount: 12 } : {}));
  it('is info when 10 % of GCs leave gen0 mostly free around pins and a warning from half', () => {
    expect(sev('pinning-fragmentation', pinned(0))).toBeNull();
    expect(sev('pinning-fragmentation', pinned(1))).toBe('info');
    expect(sev('pinning-fragmentation', pinned(4))).toBe('info');
    expect(sev('pinning-fragmentation', pinned(5))).toBe('warning');
    expect(sev('pinning-fragmentation', pinned(6))).toBe('warning');
    expect(sev('pinning-fragmentation', pinned(1, 3, 11))).toBeNull();
  });
  it('counts a GC from 50 % free space in gen0, not 49.9 %', () => {
    expect(sev('pinning-fragmentation', pinned(10, 2))).toBe('warning');
    expect(sev('pinning-fragmentation', pinned(10, 1.996))).toBeNull();
  });
  it('needs pins: the same free space without pinned objects is not this problem', () => {
    expect(
      sev(
        'pinning-fragmentation',
        seq(10, () => ({ genSizeAfterMB: [4, 1, 3, 2, 0], fragmentationMB: [3, 0, 0, 0, 0], pinnedObjectCount: 0 })),
      ),
    ).toBeNull();
  });
  it('says "not measured" without per-heap history', () => {
    expect(
      judge(
        'pinning-fragmentation',
        seq(5, () => ({ fragmentationMB: [null, null, null, null, null] })),
      ).outcome.status,
    ).toBe('not-measured');
  });
});

describe('gen2-fragmentation-bgc (M12)', () => {
  // Pairs: a gen0 GC leaving gen2 at 100 MB with `frag` MB free, then a background GC.
  const entry = (frag: number) =>
    seq(10, (i) => (i % 2 === 0 ? { genSizeAfterMB: [1, 1, 100, 0, 0], fragmentationMB: [0, 0, frag, 0, 0] } : { generation: 2, type: 1 }));
  it('is info from a median 50 % free gen2 at background GC start and a warning from 70 %', () => {
    expect(sev('gen2-fragmentation-bgc', entry(49.9))).toBeNull();
    expect(sev('gen2-fragmentation-bgc', entry(50))).toBe('info');
    expect(sev('gen2-fragmentation-bgc', entry(69))).toBe('info');
    expect(sev('gen2-fragmentation-bgc', entry(70))).toBe('warning');
    expect(sev('gen2-fragmentation-bgc', entry(71))).toBe('warning');
  });
  it('advises the GCConserveMemory value that aims for 20 % free space', () => {
    expect(judge('gen2-fragmentation-bgc', entry(75)).finding!.advice).toContain('GCConserveMemory=8');
  });
});

describe('finalization-cost (M13)', () => {
  const fin = (mb: number) => seq(10, () => ({ promotedMB: 1, finalizationPromotedMB: mb }));
  it('is info when finalization keeps 10 % of what ephemeral GCs promote', () => {
    expect(sev('finalization-cost', fin(0.099))).toBeNull();
    expect(sev('finalization-cost', fin(0.1))).toBe('info');
    expect(sev('finalization-cost', fin(0.5))).toBe('info');
  });
  it('says "not measured" without HeapStats finalization sizes', () => {
    expect(
      judge(
        'finalization-cost',
        seq(5, () => ({ finalizationPromotedMB: null })),
      ).outcome.status,
    ).toBe('not-measured');
  });
});

describe('high-memory-load (M14)', () => {
  it('is info within 5 points of the 90 % threshold', () => {
    expect(
      sev(
        'high-memory-load',
        seq(5, (i) => ({ memoryLoadPercent: i === 2 ? 84.9 : 30 })),
      ),
    ).toBeNull();
    expect(
      sev(
        'high-memory-load',
        seq(5, (i) => ({ memoryLoadPercent: i === 2 ? 85 : 30 })),
      ),
    ).toBe('info');
  });
  it('warns at or above it for 3 GCs when full blocking GCs were condemned for memory load', () => {
    const high = (k: number) =>
      seq(6, (i) => ({ memoryLoadPercent: i < k ? 90 : 30, ...(i === 5 ? { generation: 2, type: 0, condemnReasons1: 1 << 2 } : {}) }));
    expect(sev('high-memory-load', high(2))).toBe('info');
    expect(sev('high-memory-load', high(3))).toBe('warning');
    expect(
      sev(
        'high-memory-load',
        seq(6, (i) => ({ memoryLoadPercent: i < 4 ? 95 : 30 })),
      ),
    ).toBe('info');
  });
  it('says "not measured" without GlobalHeapHistory memory load', () => {
    expect(
      judge(
        'high-memory-load',
        seq(5, () => ({ memoryLoadPercent: null })),
      ).outcome.status,
    ).toBe('not-measured');
  });
});

describe('server-heap-imbalance (M15)', () => {
  const server = { gcMode: 'server', heapCount: 4 };
  // Per GC: per heap, MB survived per generation; these gen0 GCs only count gen0.
  const heaps = (values: number[]) => new Map(Array.from({ length: 5 }, (_, i) => [i, values.map((v) => [v, 50, 50, 50, 50])] as const));
  const perHeap = (busiest: number) => ({ facts: { ...server, perHeapSurvivedMB: heaps([busiest, 1, 1, 1]) } });
  it('does not apply to workstation GC and is not measured without per-heap survivors', () => {
    expect(judge('server-heap-imbalance', seq(5)).outcome.status).toBe('not-applicable');
    expect(judge('server-heap-imbalance', seq(5), { facts: { gcMode: 'server', heapCount: 1 } }).outcome.reason).toMatch(/one heap in use/);
    expect(
      judge(
        'server-heap-imbalance',
        seq(5, () => ({ heapCount: 4 })),
        { facts: server },
      ).outcome.status,
    ).toBe('not-measured');
  });
  it('is info when the busiest heap promotes 2× the mean and a warning from 4×', () => {
    // busiest b among 4 heaps: b / ((b + 3) / 4) = 2 → b = 3; = 4 → unreachable, so use more heaps.
    expect(sev('server-heap-imbalance', seq(5), perHeap(2.9))).toBeNull();
    expect(sev('server-heap-imbalance', seq(5), perHeap(3))).toBe('info');
    const eight = (b: number) => ({ facts: { ...server, perHeapSurvivedMB: heaps([b, 1, 1, 1, 1, 1, 1, 1]) } });
    // b / ((b + 7) / 8) = 4 → b = 7.
    expect(sev('server-heap-imbalance', seq(5), eight(6.9))).toBe('info');
    expect(sev('server-heap-imbalance', seq(5), eight(7))).toBe('warning');
  });
  it('counts the generations a GC condemned: a gen2 GC adds gen1, gen2, LOH and POH survivors', () => {
    // Busy gen0 on heap 0 (3 MB vs 1) but gen2 balanced at 50 MB each: a gen2 GC is balanced.
    const gen2 = seq(5, () => ({ generation: 2 }));
    expect(sev('server-heap-imbalance', gen2, perHeap(3))).toBeNull();
    expect(sev('server-heap-imbalance', seq(5), perHeap(3))).toBe('info');
  });
});

describe('long-bgc-pause (M16)', () => {
  const bgc = (p: number) => seq(5, (i) => (i === 2 ? { generation: 2, type: 1, pauseDurationMSec: p } : {}));
  it('is info from a 50 ms background GC pause and a warning from 200 ms', () => {
    expect(sev('long-bgc-pause', bgc(49.9))).toBeNull();
    expect(sev('long-bgc-pause', bgc(50))).toBe('info');
    expect(sev('long-bgc-pause', bgc(199))).toBe('info');
    expect(sev('long-bgc-pause', bgc(200))).toBe('warning');
    expect(sev('long-bgc-pause', bgc(201))).toBe('warning');
    expect(judge('long-bgc-pause', bgc(300)).finding!.evidence.gcs).toEqual([3]);
  });
  it('ignores long blocking pauses (other rules judge those)', () => {
    expect(
      sev(
        'long-bgc-pause',
        seq(5, (i) => (i === 2 ? { generation: 2, type: 0, pauseDurationMSec: 500 } : {})),
      ),
    ).toBeNull();
  });
});

describe('midlife-crisis', () => {
  /**
   * Cycles of 9 gen0 GCs, each allocating 10 MB and growing gen2's live data by `d` MB, then a
   * gen2 GC that frees `reclaim` × what the cycle promoted. Promoted share = d / 10.
   */
  const cycles = (d: number, reclaim = 1, n = 4) => {
    const out: GcSpec[] = [];
    let live = 50;
    for (let c = 0; c < n; c++) {
      for (let k = 0; k < 9; k++) {
        live += d;
        out.push({ generation: 0, allocedSinceLastGCMB: 10, genSizeAfterMB: [1, 1, live, 0, 0] });
      }
      live -= 9 * d * reclaim;
      out.push({ generation: 2, type: 1, allocedSinceLastGCMB: 0, genSizeAfterMB: [1, 1, live, 0, 0] });
    }
    return out.map((o, i) => gc(i, o));
  };
  it('is info when 5 % of allocations reach gen2 and die there, a warning from 15 %', () => {
    // The first GC's growth is not seen (nothing before it), so aim a little above each line.
    const share = (p: number) => (p * 10 * 36) / 35;
    expect(sev('midlife-crisis', cycles(share(0.049)))).toBeNull();
    expect(sev('midlife-crisis', cycles(share(0.05)))).toBe('info');
    expect(sev('midlife-crisis', cycles(share(0.149)))).toBe('info');
    expect(sev('midlife-crisis', cycles(share(0.15)))).toBe('warning');
    expect(sev('midlife-crisis', cycles(share(0.3)))).toBe('warning');
  });
  it('is not a mid-life crisis when gen2 keeps what it got (that is a leak) or with under 3 gen2 GCs', () => {
    expect(sev('midlife-crisis', cycles(3, 0.45))).toBeNull();
    expect(sev('midlife-crisis', cycles(3, 0.5))).toBe('warning');
    expect(sev('midlife-crisis', cycles(3, 1, 2))).toBeNull();
  });
  it('does not hold against them what was promoted after the last gen2 GC (the recording ended first)', () => {
    // Four cycles reclaiming all, then 80 more gen0 GCs promoting 240 MB with no gen2 GC to
    // follow: counted against the gen2 GCs, only 31 % would look reclaimed.
    const tail = Array.from({ length: 80 }, (_, k) => ({
      generation: 0,
      allocedSinceLastGCMB: 10,
      genSizeAfterMB: [1, 1, 50 + 3 * (k + 1), 0, 0] as [number, number, number, number, number],
    }));
    const gcs = [...cycles(3), ...tail.map((o, k) => gc(40 + k, o))];
    expect(sev('midlife-crisis', gcs)).toBe('warning');
  });
  it('names the gen2 GCs that reclaimed them', () => {
    expect(judge('midlife-crisis', cycles(3)).finding!.evidence.gcs).toEqual([10, 20, 30, 40]);
  });
});
