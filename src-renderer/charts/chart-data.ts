/**
 * Questions about a whole GC series for the session view (pure, unit-tested): decimation so very
 * long sessions stay fast, the GCs in a range, the marks worth drawing. The lanes' own columns are
 * built incrementally in lane-data.ts.
 */
import type { GcSeries } from '../../src-main/shared/gc-series.js';
import { lowerBound, upperBound } from '../../src-main/shared/sorted.js';

/**
 * Indexes of GCs to draw when there are more than `maxPoints`: per time bucket, the GC with the
 * longest pause and the one with the largest heap, so spikes are never lost. Returns undefined
 * (draw everything) for small sessions. `i0`…`i1` (exclusive) limits it to part of the series.
 */
export function decimate(s: GcSeries, maxPoints: number, i0 = 0, i1 = s.length): Int32Array | undefined {
  if (i1 - i0 <= maxPoints) return undefined;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const t0 = s.time[i0]!;
  const span = Math.max(1e-9, s.time[i1 - 1]! - t0);
  const keep = new Uint8Array(i1 - i0);
  let b = -1;
  let bestPause = -1;
  let bestHeap = -1;
  const flush = (): void => {
    if (bestPause >= 0) keep[bestPause - i0] = 1;
    if (bestHeap >= 0) keep[bestHeap - i0] = 1;
  };
  for (let i = i0; i < i1; i++) {
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
  keep[keep.length - 1] = 1;
  let n = 0;
  for (let k = 0; k < keep.length; k++) n += keep[k]!;
  const out = new Int32Array(n);
  for (let k = 0, j = 0; k < keep.length; k++) if (keep[k] === 1) out[j++] = i0 + k;
  return out;
}

/** What a long session's lanes draw for one zoomed-in window: see windowPick. */
export interface WindowPick {
  /** Series indexes to draw, ascending. */
  pick: Int32Array;
  /** The window (ms since sync) drawn in detail. */
  fromMSec: number;
  toMSec: number;
  /** Every GC of that window is drawn (none decimated away). */
  complete: boolean;
}

/** How many GCs' pauses start within [fromMSec, toMSec]. */
export function gcsBetween(s: GcSeries, fromMSec: number, toMSec: number): number {
  return upperBound(s.time, toMSec, s.length) - lowerBound(s.time, fromMSec, s.length);
}

/**
 * The GCs to draw for a long session zoomed in on [fromMSec, toMSec]: every GC of the window when
 * it holds at most `maxPoints` (else the window decimated to `maxPoints`), and the rest of the
 * session decimated to `coarsePoints` so a pan shows marks at once, before the lanes are built
 * again for the new window. Decimating the whole session once would show a zoomed-in window of a
 * 100,000-GC session with only about one GC in five.
 */
export function windowPick(s: GcSeries, fromMSec: number, toMSec: number, maxPoints: number, coarsePoints = Math.floor(maxPoints / 4)): WindowPick {
  const i0 = lowerBound(s.time, fromMSec, s.length);
  const i1 = upperBound(s.time, toMSec, s.length);
  const inside = decimate(s, maxPoints, i0, i1);
  const coarse = decimate(s, Math.max(2, coarsePoints)) ?? Int32Array.from({ length: s.length }, (_, i) => i);
  const c0 = lowerBound(coarse, i0);
  const c1 = lowerBound(coarse, i1);
  const nInside = inside === undefined ? i1 - i0 : inside.length;
  const pick = new Int32Array(c0 + nInside + (coarse.length - c1));
  pick.set(coarse.subarray(0, c0), 0);
  if (inside === undefined) for (let k = 0; k < nInside; k++) pick[c0 + k] = i0 + k;
  else pick.set(inside, c0);
  pick.set(coarse.subarray(c1), c0 + nInside);
  return { pick, fromMSec, toMSec, complete: inside === undefined };
}

/** GC indexes whose pause starts within [from, to] ms. */
export function indexesInRange(s: GcSeries, fromMSec: number, toMSec: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) if (s.time[i]! >= fromMSec && s.time[i]! <= toMSec) out.push(i);
  return out;
}

/** No value for this GC: the session lanes hold NaN there (lane-data.ts), other charts null. */
export const isGap = (v: number | null | undefined): boolean => v == null || Number.isNaN(v);

/**
 * The marks of one scatter series worth drawing in points `i0`…`i1` of a lane: at most one per
 * pixel column — the highest there (a longer pause hides a shorter one drawn under it anyway).
 * Drawing work then depends on the plot's width, not on how many GCs are in view: a live view
 * following the last 30 s at 100 GCs/s, or a whole long session, draws no more marks than fit.
 * Returns null (draw every point) when the points in view already fit one per column.
 */
export function thinToPixels(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  i0: number,
  i1: number,
  xMin: number,
  xMax: number,
  widthPx: number,
): number[] | null {
  const cols = Math.max(1, Math.floor(widthPx));
  let present = 0;
  for (let i = i0; i <= i1; i++) if (!isGap(ys[i])) present++;
  if (present <= cols) return null;
  const best = new Int32Array(cols).fill(-1);
  const scale = xMax > xMin ? cols / (xMax - xMin) : 0;
  for (let i = i0; i <= i1; i++) {
    const y = ys[i];
    if (isGap(y)) continue;
    const c = Math.min(cols - 1, Math.max(0, Math.floor((xs[i]! - xMin) * scale)));
    const b = best[c]!;
    if (b < 0 || y! > ys[b]!) best[c] = i;
  }
  const out: number[] = [];
  for (let c = 0; c < cols; c++) if (best[c]! >= 0) out.push(best[c]!);
  return out;
}
