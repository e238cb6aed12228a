/**
 * Watch triggers over the GCs of real traces (the problem-mode workload traces, analysed as a
 * recording would store them), and the capture limits.
 */
import { describe, expect, it } from 'vitest';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { CaptureLimiter, parseTrigger, pausedPercent, TriggerSet, TriggerSyntaxError } from '../../src-main/watch/triggers.js';
import { problemTraceName, traceBytes } from '../helpers/fixtures.js';

function records(name: string): GcRecord[] {
  const a = new GCAnalyzer();
  const r = new NettraceReader({ onTrace: (t) => a.setTrace(t), onEvent: (e) => a.onEvent(e) });
  r.push(traceBytes(name));
  r.end();
  a.finish();
  return a.gcs.filter((g) => g !== undefined && g.isComplete).map((g) => toGcRecord(g!));
}

function fire(set: TriggerSet, gcs: GcRecord[]): number[] {
  return gcs.flatMap((g) => set.onGC(g).map((h) => h.gcNumber));
}

describe('watch triggers', () => {
  const induced = records(problemTraceName('induced-gcs'));
  const healthy = records(problemTraceName('healthy'));

  it('induced fires on exactly the GC.Collect() GCs, and none in a healthy run', () => {
    const expected = induced.filter((g) => [1, 7, 9, 10, 17].includes(g.reason)).map((g) => g.number);
    expect(expected.length).toBeGreaterThan(2);
    expect(fire(TriggerSet.parse(['induced']), induced)).toEqual(expected);
    expect(fire(TriggerSet.parse(['induced']), healthy)).toEqual([]);
  });

  it('pause, generation, kind and reason conditions combine with AND, and say what they measured', () => {
    const longest = Math.max(...induced.map((g) => g.pauseDurationMSec));
    const threshold = longest / 2;
    const set = TriggerSet.parse([`gen=2,kind=blocking,pause>${threshold}ms`]);
    const hits = induced.flatMap((g) => set.onGC(g));
    const expected = induced.filter((g) => g.generation === 2 && g.type === 0 && g.pauseDurationMSec > threshold);
    expect(hits.map((h) => h.gcNumber)).toEqual(expected.map((g) => g.number));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.detail).toMatch(/^gen2, blocking, pause [\d.]+ ms > [\d.]+ ms$/);
    expect(fire(TriggerSet.parse(['reason=Induced']), induced)).toEqual(induced.filter((g) => g.reason === 1).map((g) => g.number));
    expect(fire(TriggerSet.parse(['gen>=1']), healthy)).toEqual(healthy.filter((g) => g.generation >= 1).map((g) => g.number));
    const maxHeap = Math.max(...healthy.map((g) => g.heapSizeAfterMB ?? 0));
    expect(fire(TriggerSet.parse([`heap-after>${maxHeap}`]), healthy)).toEqual([]);
    expect(fire(TriggerSet.parse([`heap-after>=${maxHeap}MB`]), healthy).length).toBeGreaterThan(0);
    const maxSusp = Math.max(...healthy.map((g) => g.suspendDurationMSec));
    expect(fire(TriggerSet.parse([`suspension>=${maxSusp}`]), healthy).length).toBeGreaterThan(0);
  });

  it('bgc-pause fires on background GCs whose final pause is over the threshold (midlife-crisis: background GCs every few seconds)', () => {
    const gcs = records(problemTraceName('midlife-crisis'));
    const bgcs = gcs.filter((g) => g.type === 1 && g.bgcFinalPauseMSec !== null);
    expect(bgcs.length).toBeGreaterThan(1);
    const pauses = bgcs.map((g) => g.bgcFinalPauseMSec!).sort((a, b) => a - b);
    const threshold = pauses[Math.floor(pauses.length / 2)]!;
    const set = TriggerSet.parse([`bgc-pause>${threshold}ms`]);
    const hits = gcs.flatMap((g) => set.onGC(g));
    expect(hits.map((h) => h.gcNumber)).toEqual(bgcs.filter((g) => g.bgcFinalPauseMSec! > threshold).map((g) => g.number));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => /^background GC final pause [\d.]+ ms > [\d.]+ ms$/.test(h.detail))).toBe(true);
  });

  it('% paused over a window is computed with pauses clipped to it, and waits for a full window', () => {
    expect(
      pausedPercent(
        [
          { start: 0, pause: 100 },
          { start: 950, pause: 100 },
        ],
        50,
        1050,
      ),
    ).toBeCloseTo(15, 9);
    const all = induced;
    const span = all[all.length - 1]!.pauseStartRelativeMSec - all[0]!.pauseStartRelativeMSec;
    // A window longer than the run never fires; a 1 s one over a run with GC.Collect each second does at some low bar.
    expect(fire(TriggerSet.parse([`paused>0.001%/${Math.ceil(span / 1000) + 5}s`]), all)).toEqual([]);
    expect(fire(TriggerSet.parse(['paused>0.5%/1s']), all).length).toBeGreaterThan(0);
  });

  it('bad triggers are refused with a message naming the problem', () => {
    expect(() => parseTrigger('pause=3')).toThrow(TriggerSyntaxError);
    expect(() => parseTrigger('kind=sometimes')).toThrow(/blocking, background, foreground/);
    expect(() => parseTrigger('reason=Tuesday')).toThrow(/unknown GC reason "Tuesday"/);
    expect(() => parseTrigger('paused>120%')).toThrow(/between 0 and 100/);
    expect(() => parseTrigger('finding,gen=2')).toThrow(/stands alone/);
    expect(() => parseTrigger('latency>3')).toThrow(/unknown condition "latency"/);
    expect(parseTrigger('pause>1.5s').conditions[0]).toEqual({ k: 'pause', cmp: '>', value: 1500 });
    expect(parseTrigger('finding=m4-induced/5m').conditions[0]).toEqual({ k: 'finding', rule: 'm4-induced', windowMSec: 300_000 });
  });

  it('finding triggers fire on a warning of their rule (or any)', () => {
    const set = TriggerSet.parse(['finding=m1', 'finding']);
    const hits = set.onFindings([{ id: 'm4', title: 'Induced GCs' }], induced[induced.length - 1]!);
    expect(hits.map((h) => h.trigger)).toEqual(['finding']);
    expect(hits[0]!.detail).toBe('finding m4 at warning level: Induced GCs');
  });
});

describe('capture limits', () => {
  it('cooldown and the hourly maximum hold over a day of triggers every second', () => {
    const lim = new CaptureLimiter(60_000, 5);
    const taken: number[] = [];
    for (let t = 0; t < 24 * 3600_000; t += 1000) {
      if (lim.refusal(t) === null) {
        lim.take(t);
        taken.push(t);
      }
    }
    for (let i = 1; i < taken.length; i++) expect(taken[i]! - taken[i - 1]!).toBeGreaterThanOrEqual(60_000);
    for (const t of taken) expect(taken.filter((x) => x > t - 3600_000 && x <= t).length).toBeLessThanOrEqual(5);
    // Five at the start of each hour (one a minute), then nothing until the first leaves the window.
    expect(taken.length).toBe(24 * 5);
    expect(lim.refusal(taken[taken.length - 1]! + 1000)).toMatch(/cooldown/);
  });
});
