/**
 * Which GCs the table shows, in which order: the selected time range, the generation / kind /
 * reason / minimum-pause filters, and a sort on any column (unavailable values last). Pure, so it
 * is unit-tested without a browser.
 */
import type { GcSeries } from '../../src-main/shared/gc-series.js';

export type SortKey = 'number' | 'time' | 'pause' | 'suspend' | 'generation' | 'reason' | 'heapAfter' | 'heapBefore' | 'promoted' | 'allocated' | 'survived' | 'moved';

export interface TableFilter {
  generations: [boolean, boolean, boolean];
  kinds: [boolean, boolean, boolean];
  /** Reason code, or -1 for any. */
  reason: number;
  minPauseMSec: number;
}

const SORT_COLUMN: Record<SortKey, (s: GcSeries, i: number) => number> = {
  number: (s, i) => s.number[i]!,
  time: (s, i) => s.time[i]!,
  pause: (s, i) => s.pause[i]!,
  suspend: (s, i) => s.suspend[i]!,
  generation: (s, i) => s.generation[i]! * 4 + s.type[i]!,
  reason: (s, i) => s.reason[i]!,
  heapAfter: (s, i) => s.heapAfter[i]!,
  heapBefore: (s, i) => s.heapBefore[i]!,
  promoted: (s, i) => s.promoted[i]!,
  allocated: (s, i) => s.allocated[i]!,
  survived: (s, i) => s.survived[i]!,
  moved: (s, i) => s.moved[i]!,
};

export function computeRows(s: GcSeries, range: { from: number; to: number } | null, f: TableFilter, key: SortKey, desc: boolean): Int32Array {
  const picked = new Int32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const t = s.time[i]!;
    if (range !== null && (t < range.from || t > range.to)) continue;
    if (!f.generations[s.generation[i]!]) continue;
    if (!f.kinds[s.type[i]!]) continue;
    if (f.reason >= 0 && s.reason[i] !== f.reason) continue;
    if (s.pause[i]! < f.minPauseMSec) continue;
    picked[n++] = i;
  }
  const out = picked.subarray(0, n);
  const get = SORT_COLUMN[key];
  // The default order (by time or number) usually is GC order already: no sort for 100k rows.
  if (key === 'time' || key === 'number') {
    let increasing = true;
    for (let k = 1; k < n && increasing; k++) increasing = get(s, out[k]!) > get(s, out[k - 1]!);
    if (increasing) return desc ? out.reverse() : out;
  }
  out.sort((a, b) => {
    const x = get(s, a);
    const y = get(s, b);
    // NaN (unavailable) always last.
    if (Number.isNaN(x)) return Number.isNaN(y) ? a - b : 1;
    if (Number.isNaN(y)) return -1;
    return (desc ? y - x : x - y) || a - b;
  });
  return out;
}
