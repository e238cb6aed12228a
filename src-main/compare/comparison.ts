/**
 * The comparison model (insights §5.2): two sides' per-GC columns (column registry) → every
 * headline metric with A, B, change, interval and verdict, plus what the charts need. Steps:
 *   1. scope: completed GCs in each side's range; the warm-up (warmup.ts) is excluded by default;
 *      differences in GC mode, runtime, CPU and heap count are listed for the top of the view;
 *   2. stratify pauses (strata.ts) and compare each stratum: the median by Mann–Whitney U with the
 *      Hodges–Lehmann shift, p90/p99 by moving-block bootstrap (only where n·(1 − q) ≥ 10), the
 *      maximum shown untested;
 *   3. normalise counts by allocation: GCs (and gen2 GCs) per GB allocated, by the exact Poisson
 *      rate-ratio test;
 *   4. % time paused and allocation rate over fixed windows, heap peak and median after-GC heap,
 *      by moving-block bootstrap of the B/A ratio;
 *   5. Benjamini–Hochberg over the p-values, then the verdicts (verdict.ts).
 * Every bootstrap is seeded from the options' seed and the metric's id, so a comparison is
 * reproducible and a metric's interval does not depend on which other metrics were computed.
 */
import { completedRows } from '../gc/rollup.js';
import type {
  Comparison,
  ComparisonFindings,
  ComparisonMetric,
  ComparisonOptions,
  ComparisonSide,
  ComparisonUnit,
  FindingRef,
  HeapSeries,
  PauseDistribution,
  PauseStratum,
  VerdictKind,
} from '../shared/comparison.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { formatFixed, formatInt } from '../shared/format.js';
import { heapCountSpan, heapCountText } from '../shared/server-gc.js';
import { bootstrapTwoSample } from './bootstrap.js';
import { hodgesLehmann } from './hodges-lehmann.js';
import { benjaminiHochberg } from './multiple-testing.js';
import { max, mean, quantileSelect, quantileSorted } from './quantile.js';
import { mannWhitney } from './rank-test.js';
import { rateRatio } from './rate-test.js';
import { STRATA, stratumOf } from './strata.js';
import {
  decideRatio,
  decideShift,
  describeChange,
  describeInterval,
  direction,
  formatValue,
  oneValueDrivesChange,
  overallVerdict,
  verdictText,
  type Threshold,
} from './verdict.js';
import { findWarmupEnd } from './warmup.js';

export const DEFAULT_OPTIONS: ComparisonOptions = {
  includeWarmup: false,
  seed: 1,
  resamples: 2000,
  level: 0.95,
  alpha: 0.05,
  relativeThreshold: 0.05,
  pauseThresholdMSec: 0.1,
  minTailCount: 10,
  windowMSec: 1000,
};

/** The columns the comparison reads. */
export type CompareColumns = Pick<
  GcColumns,
  'complete' | 'time' | 'number' | 'generation' | 'type' | 'reason' | 'pause' | 'allocated' | 'heapAfter' | 'heapPeak' | 'gen2' | 'loh' | 'heapCount'
>;

export interface CompareInput {
  /** 'A: session 3 (GcWorkload)' */
  label: string;
  sessionId?: number | null;
  source?: string | null;
  processName?: string | null;
  runtimeVersion?: string | null;
  gcMode?: string | null;
  concurrent?: boolean | null;
  heapCount?: number | null;
  cpuCount?: number | null;
  columns: CompareColumns;
  range?: { fromMSec: number; toMSec: number } | null;
  /** The side's findings (diagnosis engine); null or absent when none were computed. */
  findings?: FindingRef[] | null;
}

interface Prepared {
  side: ComparisonSide;
  c: CompareColumns;
  /** All completed GCs in range, and the ones the statistics use. */
  all: Int32Array;
  used: Int32Array;
}

function prepare(input: CompareInput, o: ComparisonOptions): Prepared {
  const c = input.columns;
  const all = completedRows(c, input.range ?? undefined);
  const w = findWarmupEnd(c, all);
  const used = o.includeWarmup ? all : all.subarray(w.firstKept);
  const t0 = all.length > 0 ? c.time[all[0]!]! : 0;
  const endMSec = w.firstKept > 0 ? c.time[all[w.firstKept]!]! : null;
  let allocated = 0;
  let anyAlloc = false;
  for (const i of used) {
    const v = c.allocated[i]!;
    if (Number.isFinite(v)) {
      allocated += v;
      anyAlloc = true;
    }
  }
  const span = used.length > 1 ? c.time[used[used.length - 1]!]! - c.time[used[0]!]! : 0;
  // The heap count as the session view says it: each GC's own, over the compared range.
  const heaps = heapCountSpan(c.heapCount, all);
  return {
    c,
    all,
    used,
    side: {
      label: input.label,
      sessionId: input.sessionId ?? null,
      source: input.source ?? null,
      processName: input.processName ?? null,
      runtimeVersion: input.runtimeVersion ?? null,
      gcMode: input.gcMode ?? null,
      concurrent: input.concurrent ?? null,
      heapCount: heaps?.max ?? input.heapCount ?? null,
      minHeapCount: heaps?.min ?? input.heapCount ?? null,
      cpuCount: input.cpuCount ?? null,
      range:
        input.range == null
          ? null
          : {
              fromMSec: Number.isFinite(input.range.fromMSec) ? input.range.fromMSec : null,
              toMSec: Number.isFinite(input.range.toMSec) ? input.range.toMSec : null,
            },
      gcCount: all.length,
      usedGCs: used.length,
      warmup: {
        endMSec,
        endSec: endMSec === null ? null : (endMSec - t0) / 1000,
        excludedGCs: w.firstKept,
        excluded: !o.includeWarmup && w.firstKept > 0,
        note: w.note,
      },
      spanMSec: span,
      allocatedMB: anyAlloc ? allocated : null,
    },
  };
}

/**
 * Resamples for one interval: the options' number, fewer for very long series so one interval
 * costs at most about 10^8 element copies (a 100 000-GC session a side would otherwise keep the
 * service busy for a minute); never fewer than 400, whose percentile interval is still stable to
 * about a tenth of its width for the narrow intervals such long series give.
 */
export function resamplesFor(o: ComparisonOptions, nA: number, nB: number): number {
  return Math.min(o.resamples, Math.max(400, Math.floor(1e8 / (2 * (nA + nB)))));
}

/** FNV-1a of a metric id, mixed into the seed so each metric has its own reproducible stream. */
function seedFor(seed: number, id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h ^ seed) >>> 0;
}

function values(rows: ArrayLike<number>, col: Float64Array, keep: (i: number) => boolean = () => true): number[] {
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    if (keep(i) && Number.isFinite(col[i]!)) out.push(col[i]!);
  }
  return out;
}

function sortedCopy(x: readonly number[]): Float64Array {
  return Float64Array.from(x).sort();
}

/** At most `limit` evenly spaced order statistics of sorted values (the ends kept). */
function thin(sorted: Float64Array, limit: number): number[] {
  if (sorted.length <= limit) return Array.from(sorted);
  const out: number[] = [];
  for (let k = 0; k < limit; k++) out.push(sorted[Math.round((k * (sorted.length - 1)) / (limit - 1))]!);
  return out;
}

class MetricBuilder {
  readonly metrics: ComparisonMetric[] = [];
  /** Deferred verdicts of p-value metrics (decided after the adjustment). */
  private readonly pending: { m: ComparisonMetric; decide: (significant: boolean) => VerdictKind; t: Threshold }[] = [];

  constructor(private readonly o: ComparisonOptions) {}

  threshold(unit: ComparisonUnit): Threshold {
    return { relative: this.o.relativeThreshold, absolute: unit === 'ms' ? this.o.pauseThresholdMSec : 0 };
  }

  private base(
    id: string,
    label: string,
    group: ComparisonMetric['group'],
    stratum: PauseStratum | null,
    unit: ComparisonUnit,
    a: number | null,
    b: number | null,
    nA: number,
    nB: number,
    higherIsWorse: boolean | null,
  ): ComparisonMetric {
    return {
      id,
      label,
      group,
      stratum,
      unit,
      a,
      b,
      nA,
      nB,
      changePercent: a !== null && b !== null && a !== 0 ? ((b - a) / a) * 100 : null,
      interval: null,
      pValue: null,
      pAdjusted: null,
      method: '',
      verdict: 'insufficient',
      text: '',
      higherIsWorse,
      direction: null,
      aText: '',
      bText: '',
      changeText: '',
      intervalText: '',
    };
  }

  insufficient(
    id: string,
    label: string,
    group: ComparisonMetric['group'],
    stratum: PauseStratum | null,
    unit: ComparisonUnit,
    a: number | null,
    b: number | null,
    nA: number,
    nB: number,
    why: string,
    higherIsWorse: boolean | null = true,
  ): void {
    const m = this.base(id, label, group, stratum, unit, a, b, nA, nB, higherIsWorse);
    m.method = 'not tested';
    m.text = verdictText(m, this.threshold(unit), this.o.level * 100, why);
    this.metrics.push(m);
  }

  untested(
    id: string,
    label: string,
    group: ComparisonMetric['group'],
    stratum: PauseStratum | null,
    unit: ComparisonUnit,
    a: number | null,
    b: number | null,
    nA: number,
    nB: number,
  ): void {
    const m = this.base(id, label, group, stratum, unit, a, b, nA, nB, true);
    m.verdict = 'not-tested';
    m.method = 'shown for reference';
    m.text = verdictText(m, this.threshold(unit), this.o.level * 100);
    this.metrics.push(m);
  }

  /** Location: Mann–Whitney U, Hodges–Lehmann shift (verdict after the BH adjustment). */
  location(id: string, label: string, stratum: PauseStratum, unit: ComparisonUnit, xa: readonly number[], xb: readonly number[]): void {
    const a = quantileSorted(sortedCopy(xa), 0.5);
    const b = quantileSorted(sortedCopy(xb), 0.5);
    const m = this.base(id, label, 'pauses', stratum, unit, a, b, xa.length, xb.length, true);
    const test = mannWhitney(xa, xb);
    const hl = hodgesLehmann(xa, xb, this.o.level);
    m.pValue = test.pValue;
    m.interval = { kind: 'shift', estimate: hl.shift, ci: hl.ci };
    m.method = `Mann–Whitney U (${test.method}), Hodges–Lehmann shift; Cliff's δ ${formatFixed(test.cliffsDelta, 2)}`;
    const t = this.threshold(unit);
    this.pending.push({ m, t, decide: (sig) => decideShift(a, hl.shift, hl.ci, t, sig) });
    this.metrics.push(m);
  }

  /** A statistic of two series by moving-block bootstrap of the B/A ratio. */
  bootstrap(
    id: string,
    label: string,
    group: ComparisonMetric['group'],
    stratum: PauseStratum | null,
    unit: ComparisonUnit,
    xa: readonly number[],
    xb: readonly number[],
    stat: (x: Float64Array) => number,
    what: string,
    higherIsWorse: boolean | null = true,
  ): void {
    const a = stat(Float64Array.from(xa));
    const b = stat(Float64Array.from(xb));
    const m = this.base(id, label, group, stratum, unit, a, b, xa.length, xb.length, higherIsWorse);
    const resamples = resamplesFor(this.o, xa.length, xb.length);
    const r = bootstrapTwoSample(xa, xb, stat, { resamples, seed: seedFor(this.o.seed, id), level: this.o.level });
    m.interval = { kind: 'ratio', estimate: a === 0 ? Number.NaN : b / a, ci: r.ratio };
    if (a === 0) m.interval = null;
    m.method = `${what}: moving-block bootstrap of B/A (${formatInt(resamples)} resamples)`;
    const t = this.threshold(unit);
    m.verdict = a === 0 ? (b === 0 ? 'same' : 'inconclusive') : decideRatio(a, b, r.ratio, t, null);
    m.text = verdictText(m, t, this.o.level * 100);
    // A change that one window or GC makes on its own is no change (verdict.ts oneValueDrivesChange).
    const driven = oneValueDrivesChange(m, xa, xb, stat, t, group === 'time' ? 'time window' : 'GC');
    if (driven !== null) {
      m.verdict = 'inconclusive';
      m.text = driven;
    }
    this.metrics.push(m);
  }

  /** Counts per exposure: exact Poisson rate ratio (verdict after the BH adjustment). */
  rate(id: string, label: string, kA: number, eA: number, kB: number, eB: number): void {
    const a = kA / eA;
    const b = kB / eB;
    const m = this.base(id, label, 'counts', null, '/GB', a, b, kA, kB, true);
    const r = rateRatio(kA, eA, kB, eB, this.o.level);
    m.pValue = r.pValue;
    m.interval = r.ratio === null ? null : { kind: 'ratio', estimate: r.ratio, ci: r.ci };
    m.method = `exact Poisson rate-ratio test (${formatInt(kA)} vs ${formatInt(kB)} GCs over ${formatFixed(eA, 2)} vs ${formatFixed(eB, 2)} GB)`;
    const t = this.threshold('/GB');
    this.pending.push({ m, t, decide: (sig) => (r.ratio === null ? (kB === 0 ? 'same' : sig ? 'higher' : 'inconclusive') : decideRatio(a, b, r.ci, t, sig)) });
    this.metrics.push(m);
  }

  /** Adjusts the p-values together and decides the deferred verdicts. */
  finish(): void {
    const adj = benjaminiHochberg(this.pending.map((p) => p.m.pValue!));
    this.pending.forEach((p, k) => {
      p.m.pAdjusted = adj[k]!;
      p.m.verdict = p.decide(adj[k]! < this.o.alpha);
      p.m.text = verdictText(p.m, p.t, this.o.level * 100);
    });
  }
}

/** The most time windows a side gets: past it the windows widen (see windows()). */
export const MAX_WINDOWS = 100_000;

/** Per-window sums (pause % of the window, allocation MB/s) from the first used GC on. */
function windows(p: Prepared, windowMSec: number): { paused: number[]; allocRate: number[]; windowMSec: number } {
  const { c, used } = p;
  if (used.length < 2) return { paused: [], allocRate: [], windowMSec };
  const t0 = c.time[used[0]!]!;
  const span = c.time[used[used.length - 1]!]! - t0;
  // At least 10 windows when the recording is short; at most MAX_WINDOWS when it is long (a day
  // of 1 s windows is 86,400; a trace whose clock says it spans months — a damaged QPC frequency —
  // would otherwise ask for millions, and the bootstrap resamples every one of them).
  const w0 = span / windowMSec >= 10 ? windowMSec : span / 10;
  const w = span / w0 > MAX_WINDOWS ? span / MAX_WINDOWS : w0;
  const n = w > 0 ? Math.floor(span / w) : 0;
  const paused = new Array<number>(n).fill(0);
  const alloc = new Array<number>(n).fill(0);
  for (let j = 0; j < used.length; j++) {
    const i = used[j]!;
    const k = Math.floor((c.time[i]! - t0) / w);
    if (k >= n) continue;
    paused[k]! += c.pause[i]!;
    // A GC's allocation happened since the previous GC: the first one's falls before the windows.
    if (j > 0 && Number.isFinite(c.allocated[i]!)) alloc[k]! += c.allocated[i]!;
  }
  return { paused: paused.map((v) => (v * 100) / w), allocRate: alloc.map((v) => v / (w / 1000)), windowMSec: w };
}

function heapSeries(p: Prepared): HeapSeries {
  const { c, all } = p;
  const t0 = all.length > 0 ? c.time[all[0]!]! : 0;
  const t: number[] = [];
  const heap: number[] = [];
  // Up to 3,000 points: each bucket keeps its largest heap (peaks stay visible).
  const stride = Math.max(1, Math.ceil(all.length / 3000));
  for (let k = 0; k < all.length; k += stride) {
    let best = k;
    for (let j = k; j < Math.min(all.length, k + stride); j++) if ((c.heapAfter[all[j]!] ?? -1) > (c.heapAfter[all[best]!] ?? -1)) best = j;
    const v = c.heapAfter[all[best]!]!;
    if (!Number.isFinite(v)) continue;
    t.push((c.time[all[best]!]! - t0) / 1000);
    heap.push(v);
  }
  return { t, heapMB: heap, warmupEndSec: p.side.warmup.endSec, firstGcMSec: all.length > 0 ? t0 : null };
}

function differences(a: ComparisonSide, b: ComparisonSide): string[] {
  const out: string[] = [];
  const mode = (s: ComparisonSide): string =>
    s.gcMode === null ? 'unknown' : `${s.gcMode}${s.concurrent === true ? ' (concurrent)' : s.concurrent === false ? ' (non-concurrent)' : ''}`;
  if (mode(a) !== mode(b)) out.push(`GC mode differs: A ${mode(a)}, B ${mode(b)}.`);
  // Named as everywhere else: ".NET 10.0.12", ".NET Framework 4.0.30319.34209" (gc/process-info.ts).
  const rt = (v: string | null): string => (v === null ? 'unknown' : `.NET ${v}`);
  if (a.runtimeVersion !== b.runtimeVersion) out.push(`Runtime differs: A ${rt(a.runtimeVersion)}, B ${rt(b.runtimeVersion)}.`);
  if (a.cpuCount !== b.cpuCount) out.push(`CPU count differs: A ${a.cpuCount ?? 'unknown'}, B ${b.cpuCount ?? 'unknown'}.`);
  const heaps = (s: ComparisonSide): string => heapCountText(s.minHeapCount, s.heapCount) ?? 'unknown';
  if (heaps(a) !== heaps(b)) out.push(`GC heap count differs: A ${heaps(a)}, B ${heaps(b)}.`);
  if (a.processName !== null && b.processName !== null && a.processName !== b.processName)
    out.push(`Different programs: A ${a.processName}, B ${b.processName}.`);
  return out;
}

function compareFindings(a: FindingRef[] | null | undefined, b: FindingRef[] | null | undefined): ComparisonFindings {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return { available: false, onlyA: [], onlyB: [], both: [] };
  const fa = a ?? [];
  const fb = b ?? [];
  const inB = new Map(fb.map((f) => [f.id, f]));
  const idsA = new Set(fa.map((f) => f.id));
  return {
    available: true,
    onlyA: fa.filter((f) => !inB.has(f.id)),
    onlyB: fb.filter((f) => !idsA.has(f.id)),
    both: fa.filter((f) => inB.has(f.id)).map((f) => ({ ...f, titleB: inB.get(f.id)!.title })),
  };
}

export function compareSessions(inputA: CompareInput, inputB: CompareInput, options: Partial<ComparisonOptions> = {}): Comparison {
  const o: ComparisonOptions = { ...DEFAULT_OPTIONS, ...options };
  const A = prepare(inputA, o);
  const B = prepare(inputB, o);
  const mb = new MetricBuilder(o);
  const distributions: PauseDistribution[] = [];

  // ---- pauses per stratum ----
  for (const s of STRATA) {
    const inS = (p: Prepared) => (i: number) => stratumOf(p.c.generation[i]!, p.c.type[i]!, p.c.reason[i]!) === s.id;
    const xa = values(A.used, A.c.pause, inS(A));
    const xb = values(B.used, B.c.pause, inS(B));
    if (xa.length === 0 && xb.length === 0) continue;
    const sa = sortedCopy(xa);
    const sb = sortedCopy(xb);
    distributions.push({ stratum: s.id, label: s.label, a: thin(sa, 2000), b: thin(sb, 2000), nA: xa.length, nB: xb.length });
    const med = (x: Float64Array) => (x.length > 0 ? quantileSorted(x, 0.5) : null);
    if (xa.length < 5 || xb.length < 5) {
      mb.insufficient(
        `p50-pause-${s.id}`,
        `${s.label} median pause`,
        'pauses',
        s.id,
        'ms',
        med(sa),
        med(sb),
        xa.length,
        xb.length,
        `needs at least 5 ${s.label} GCs on each side (A ${formatInt(xa.length)}, B ${formatInt(xb.length)})`,
      );
    } else mb.location(`p50-pause-${s.id}`, `${s.label} median pause`, s.id, 'ms', xa, xb);
    for (const q of [0.9, 0.99]) {
      const name = `p${Math.round(q * 100)}`;
      const need = Math.ceil(o.minTailCount / (1 - q) - 1e-9);
      const id = `${name}-pause-${s.id}`;
      const label = `${s.label} ${name} pause`;
      if (xa.length < need || xb.length < need) {
        mb.insufficient(
          id,
          label,
          'pauses',
          s.id,
          'ms',
          xa.length > 0 ? quantileSorted(sa, q) : null,
          xb.length > 0 ? quantileSorted(sb, q) : null,
          xa.length,
          xb.length,
          `${name} needs at least ${formatInt(need)} ${s.label} GCs on each side (A ${formatInt(xa.length)}, B ${formatInt(xb.length)})`,
        );
      } else mb.bootstrap(id, label, 'pauses', s.id, 'ms', xa, xb, (x) => quantileSelect(x, q), name);
    }
    mb.untested(
      `max-pause-${s.id}`,
      `${s.label} max pause`,
      'pauses',
      s.id,
      'ms',
      xa.length > 0 ? max(xa) : null,
      xb.length > 0 ? max(xb) : null,
      xa.length,
      xb.length,
    );
  }

  // ---- time shares and rates, over windows ----
  const wa = windows(A, o.windowMSec);
  const wb = windows(B, o.windowMSec);
  const enoughWindows = wa.paused.length >= 5 && wb.paused.length >= 5;
  const whyWindows = `needs at least 5 time windows on each side (A ${wa.paused.length}, B ${wb.paused.length})`;
  if (enoughWindows)
    mb.bootstrap(
      'pause-time-percent',
      '% time paused',
      'time',
      null,
      '%',
      wa.paused,
      wb.paused,
      mean,
      `mean over ${formatFixed(wa.windowMSec / 1000, 2)} s / ${formatFixed(wb.windowMSec / 1000, 2)} s windows`,
    );
  else mb.insufficient('pause-time-percent', '% time paused', 'time', null, '%', null, null, wa.paused.length, wb.paused.length, whyWindows);
  if (enoughWindows && A.side.allocatedMB !== null && B.side.allocatedMB !== null)
    mb.bootstrap('alloc-rate', 'allocation rate', 'time', null, 'MB/s', wa.allocRate, wb.allocRate, mean, 'mean over windows', null);
  else
    mb.insufficient(
      'alloc-rate',
      'allocation rate',
      'time',
      null,
      'MB/s',
      null,
      null,
      wa.paused.length,
      wb.paused.length,
      A.side.allocatedMB === null || B.side.allocatedMB === null ? 'the trace has no allocated-bytes data' : whyWindows,
      null,
    );

  // ---- counts per GB allocated ----
  const gb = (p: Prepared) => (p.side.allocatedMB ?? 0) / 1000;
  const count = (p: Prepared, keep: (i: number) => boolean) => {
    let k = 0;
    for (const i of p.used) if (keep(i)) k++;
    return k;
  };
  for (const [id, label, keep] of [
    ['gcs-per-gb', 'GCs per GB allocated', () => true],
    ['gen2-per-gb', 'gen2 GCs per GB allocated', (c: CompareColumns, i: number) => c.generation[i] === 2],
  ] as const) {
    const kA = count(A, (i) => keep(A.c, i));
    const kB = count(B, (i) => keep(B.c, i));
    if (kA === 0 && kB === 0) mb.insufficient(id, label, 'counts', null, '/GB', 0, 0, 0, 0, 'none on either side');
    else if (gb(A) > 0 && gb(B) > 0) mb.rate(id, label, kA, gb(A), kB, gb(B));
    else mb.insufficient(id, label, 'counts', null, '/GB', null, null, A.used.length, B.used.length, 'no allocation volume to normalise by');
  }

  // ---- heap ----
  for (const [id, label, col, stat, what] of [
    ['peak-heap', 'peak heap', 'heapPeak', max, 'largest heap before a GC'],
    ['after-gc-heap', 'median heap after GC', 'heapAfter', (x: Float64Array) => quantileSelect(x, 0.5), 'median'],
  ] as const) {
    const xa = values(A.used, A.c[col]);
    const xb = values(B.used, B.c[col]);
    if (xa.length < 10 || xb.length < 10)
      mb.insufficient(
        id,
        label,
        'heap',
        null,
        'MB',
        xa.length > 0 ? stat(Float64Array.from(xa)) : null,
        xb.length > 0 ? stat(Float64Array.from(xb)) : null,
        xa.length,
        xb.length,
        `needs heap sizes of at least 10 GCs on each side (A ${formatInt(xa.length)}, B ${formatInt(xb.length)})`,
      );
    else mb.bootstrap(id, label, 'heap', null, 'MB', xa, xb, stat, what);
  }
  mb.finish();
  for (const m of mb.metrics) {
    m.direction = direction(m);
    m.aText = formatValue(m.a, m.unit);
    m.bText = formatValue(m.b, m.unit);
    m.changeText = describeChange(m);
    m.intervalText = describeInterval(m);
  }

  const method = [
    `Pauses compared per stratum (gen0, gen1, blocking gen2, background gen2, foreground, induced), never pooled: a change of mix shows as a change of counts.`,
    `Medians: Mann–Whitney U and the Hodges–Lehmann shift with its ${o.level * 100} % interval; p-values of these and of the rate tests adjusted by Benjamini–Hochberg (q = ${o.alpha}).`,
    `p90/p99, % time paused, allocation rate and heap: moving-block bootstrap of the B/A ratio (${formatInt(o.resamples)} resamples, fewer above 25,000 values a side; blocks of n^1/3 consecutive values, seed ${o.seed}); p90/p99 only with at least ${o.minTailCount} GCs beyond the quantile on each side.`,
    `Counts normalised by allocation (GCs per GB allocated), tested by the exact Poisson rate-ratio test.`,
    `A change is reported when it is significant and at least ${formatFixed(o.relativeThreshold * 100, 0)} % (pauses: and ${o.pauseThresholdMSec} ms); "small change" when significant but smaller; "no change" when the interval lies within that threshold; "no detectable change" otherwise.`,
    `A bootstrapped change that does not hold without its one most extreme GC or time window (the largest on the side that is higher) is that outlier's, and reads "no detectable change".`,
    o.includeWarmup ? 'Warm-up included (--include-warmup).' : 'Warm-up excluded: GCs before the live data settles (see each side).',
  ];
  return {
    verdict: overallVerdict(mb.metrics),
    a: A.side,
    b: B.side,
    differences: differences(A.side, B.side),
    options: o,
    metrics: mb.metrics,
    distributions,
    heap: { a: heapSeries(A), b: heapSeries(B) },
    findings: compareFindings(inputA.findings, inputB.findings),
    method,
  };
}
