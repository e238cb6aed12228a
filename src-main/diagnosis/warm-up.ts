/**
 * Warm-up detection (docs/diagnosis.md, "Warm-up", derived from JMC's IncreasingLiveSet rule): the
 * warm-up ends the first time the live-data-size proxy reaches 90 % of its median over the last
 * half of the recording — JMC's "90 % of the maximum loaded classes", transposed from classes to
 * live data. Trends (a growing live set) are judged after it only: a process filling its caches
 * at startup is not leaking.
 *
 * Barrett et al. (warmup_stats) found many runs never settle, so "no steady state" is an answer:
 * when the last quarter of the recording is not level with its second half (medians more than
 * 10 % apart) — the live set is still moving when the recording ends. When it is moving *up*
 * (the last quarter's median above the second half's by more than that), the live set is still
 * climbing: a live set that never levels off is a leak's signature (issue 39), so the warm-up
 * found on it is no warm-up at all, and growing-live-set judges every gen2 GC (`climbing`).
 */

import type { GcColumns } from '../shared/gc-column-registry.js';
import { liveDataSeries } from './gc-set.js';

export interface WarmUp {
  /** Index (into the series) of the first steady sample; the series' length when none. */
  endIndex: number;
  /** Time of that sample (ms), or null. */
  endMSec: number | null;
  /** The level warm-up had to reach (90 % of the late median). */
  levelMB: number;
  /** False when the last quarter's median is more than 10 % away from the second half's. */
  steady: boolean;
  /** Not steady, and the last quarter's median is above the second half's: the live set is still climbing at the end. */
  climbing: boolean;
}

export const WARM_UP_FRACTION = 0.9;
export const STEADY_TOLERANCE = 0.1;

/**
 * `times` ascending (ms), `values` the live-data proxy at those times (NaN where unknown).
 * `fraction` is the share of the late median warm-up must reach (0.9 by default).
 */
export function detectWarmUp(times: ArrayLike<number>, values: ArrayLike<number>, fraction = WARM_UP_FRACTION): WarmUp {
  const idx: number[] = [];
  for (let i = 0; i < times.length; i++) if (Number.isFinite(values[i]!) && Number.isFinite(times[i]!)) idx.push(i);
  if (idx.length === 0) return { endIndex: times.length, endMSec: null, levelMB: Number.NaN, steady: false, climbing: false };
  const t0 = times[idx[0]!]!;
  const t1 = times[idx[idx.length - 1]!]!;
  const mid = t0 + (t1 - t0) / 2;
  const q3 = t0 + (3 * (t1 - t0)) / 4;
  const late: number[] = [];
  const last: number[] = [];
  for (const i of idx) {
    if (times[i]! >= mid) late.push(values[i]!);
    if (times[i]! >= q3) last.push(values[i]!);
  }
  const lateMedian = medianOf(late);
  const lastMedian = medianOf(last);
  const steady = Math.abs(lastMedian - lateMedian) <= STEADY_TOLERANCE * Math.abs(lateMedian);
  const climbing = !steady && lastMedian > lateMedian;
  const level = fraction * lateMedian;
  for (const i of idx) if (values[i]! >= level) return { endIndex: i, endMSec: times[i]!, levelMB: level, steady, climbing };
  return { endIndex: times.length, endMSec: null, levelMB: level, steady: false, climbing };
}

/** Median of finite values (the callers keep only those): one numeric typed-array sort. */
function medianOf(values: number[]): number {
  const a = Float64Array.from(values).sort();
  const m = a.length >> 1;
  const r = a.length % 2 === 1 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
  return r === 0 ? 0 : r;
}

/**
 * The warm-up of a session's GCs in view (`rows`, in GC order), from their live data
 * (gc-set.ts liveDataSeries). `endIndex` indexes `rows`.
 */
export function warmUpOfGcs(c: GcColumns, rows: readonly number[], fraction = WARM_UP_FRACTION): WarmUp {
  return detectWarmUp(
    rows.map((i) => c.time[i]!),
    liveDataSeries(c, rows),
    fraction,
  );
}

/** "warm-up ends at 9.1 s" (and whether the live data was still moving), for explain reasons. */
export function describeWarmUp(wu: WarmUp): string {
  return wu.endMSec === null
    ? 'no warm-up end found'
    : `warm-up ends at ${(wu.endMSec / 1000).toFixed(1)} s${wu.steady ? '' : wu.climbing ? ' (no steady state: still climbing at the end)' : ' (no steady state: still moving at the end)'}`;
}
