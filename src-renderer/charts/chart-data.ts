/**
 * Shaping GC series for uPlot (pure, unit-tested): x in seconds since the session's start, one
 * y column per mark kind (NaN = no point), stacked heap layers, a rolling % of time paused, and
 * decimation so very long sessions stay fast.
 */
import type { GcSeries } from '../../src-main/shared/gc-series.js';

export type Columns = [Float64Array, ...Float64Array[]];

/**
 * Pause marks: x, then gen0 / gen1 / gen2 blocking, background, foreground gen0 / gen1 (a
 * foreground GC is ephemeral, coloured by its generation like every other mark), induced.
 */
export const PAUSE_SERIES = ['gen0', 'gen1', 'gen2', 'background', 'foreground gen0', 'foreground gen1', 'induced'] as const;

export function pauseColumns(s: GcSeries, t0: number, pick?: Int32Array): Columns {
  const idx = pick ?? identity(s.length);
  const n = idx.length;
  const x = new Float64Array(n);
  const ys = PAUSE_SERIES.map(() => new Float64Array(n).fill(Number.NaN));
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    x[k] = (s.time[i]! - t0) / 1000;
    const p = s.pause[i]!;
    const type = s.type[i]!;
    if (type === 1) ys[3]![k] = p;
    else if (type === 2) ys[s.generation[i] === 0 ? 4 : 5]![k] = p;
    else ys[Math.min(2, s.generation[i]!)]![k] = p;
    if (s.induced[i] === 1) ys[6]![k] = p;
  }
  return [x, ...ys];
}

/** Heap after each GC, stacked: gen0, +gen1, +gen2, +LOH, +POH (so areas fill between). */
export function heapColumns(s: GcSeries, t0: number, pick?: Int32Array): Columns {
  const idx = pick ?? identity(s.length);
  const n = idx.length;
  const x = new Float64Array(n);
  const layers = [s.gen0, s.gen1, s.gen2, s.loh, s.poh];
  const ys = layers.map(() => new Float64Array(n));
  const committed = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    x[k] = (s.time[i]! - t0) / 1000;
    let acc = 0;
    let any = false;
    for (let g = 0; g < 5; g++) {
      const v = layers[g]![i]!;
      if (!Number.isNaN(v)) {
        acc += v;
        any = true;
      }
      ys[g]![k] = any ? acc : Number.NaN;
    }
    committed[k] = s.committed[i]!;
  }
  return [x, ...ys, committed];
}

/**
 * Allocation rate (MB/s, from each GC's allocation since the previous one) and % of time paused
 * over a rolling window ending at each GC.
 */
export function rateColumns(s: GcSeries, t0: number, windowMSec: number, pick?: Int32Array): Columns {
  return pickedColumns(s, t0, [s.allocRate, rollingPausePercent(s, windowMSec)], pick);
}

/** Survival and movement per GC: MB that survived in place and MB moved (NaN = no data). */
export function survivalColumns(s: GcSeries, t0: number, pick?: Int32Array): Columns {
  return pickedColumns(s, t0, [s.survived, s.moved], pick);
}

/** x (seconds since t0) and the given per-GC values, for the picked GCs (all without a pick). */
function pickedColumns(s: GcSeries, t0: number, sources: ArrayLike<number>[], pick?: Int32Array): Columns {
  const idx = pick ?? identity(s.length);
  const n = idx.length;
  const x = new Float64Array(n);
  const ys = sources.map(() => new Float64Array(n));
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    x[k] = (s.time[i]! - t0) / 1000;
    for (let c = 0; c < sources.length; c++) ys[c]![k] = sources[c]![i]!;
  }
  return [x, ...ys];
}

/** Whether any GC of the series carries survival/movement data (the lane shows only then). */
export function hasSurvivalData(s: GcSeries): boolean {
  for (let i = 0; i < s.length; i++) if (!Number.isNaN(s.survived[i]!)) return true;
  return false;
}

/** % of the window [t − w, t] spent in GC pauses, at each GC's time (two-pointer, O(n)). */
export function rollingPausePercent(s: GcSeries, windowMSec: number): Float64Array {
  const out = new Float64Array(s.length);
  let lo = 0;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    const end = s.time[i]! + s.pause[i]!;
    sum += s.pause[i]!;
    while (lo < i && s.time[lo]! + s.pause[lo]! < end - windowMSec) {
      sum -= s.pause[lo]!;
      lo++;
    }
    const span = Math.min(windowMSec, Math.max(end - s.time[0]!, s.pause[i]!));
    out[i] = span > 0 ? Math.min(100, (sum * 100) / span) : Number.NaN;
  }
  return out;
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * Indexes of GCs to draw when there are more than `maxPoints`: per time bucket, the GC with the
 * longest pause and the one with the largest heap, so spikes are never lost. Returns undefined
 * (draw everything) for small sessions.
 */
export function decimate(s: GcSeries, maxPoints: number): Int32Array | undefined {
  if (s.length <= maxPoints) return undefined;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const t0 = s.time[0]!;
  const span = Math.max(1e-9, s.time[s.length - 1]! - t0);
  const keep = new Uint8Array(s.length);
  let b = -1;
  let bestPause = -1;
  let bestHeap = -1;
  const flush = (): void => {
    if (bestPause >= 0) keep[bestPause] = 1;
    if (bestHeap >= 0) keep[bestHeap] = 1;
  };
  for (let i = 0; i < s.length; i++) {
    const bi = Math.min(buckets - 1, Math.floor(((s.time[i]! - t0) / span) * buckets));
    if (bi !== b) {
      flush();
      b = bi;
      bestPause = i;
      bestHeap = i;
    } else {
      if (s.pause[i]! > s.pause[bestPause]!) bestPause = i;
      if ((s.heapAfter[i]! || 0) > (s.heapAfter[bestHeap]! || 0)) bestHeap = i;
    }
  }
  flush();
  keep[s.length - 1] = 1;
  let n = 0;
  for (let i = 0; i < keep.length; i++) n += keep[i]!;
  const out = new Int32Array(n);
  for (let i = 0, k = 0; i < keep.length; i++) if (keep[i] === 1) out[k++] = i;
  return out;
}

/** GC indexes whose pause starts within [from, to] ms. */
export function indexesInRange(s: GcSeries, fromMSec: number, toMSec: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) if (s.time[i]! >= fromMSec && s.time[i]! <= toMSec) out.push(i);
  return out;
}
