/**
 * Which GCs the table shows, in which order: the selected time range, the generation / kind /
 * reason / minimum-pause filters (as a per-GC mask the charts also use to dim the others), and a
 * sort on any column (unavailable values last). Pure, so it is unit-tested without a browser.
 */
import { isFilterActive, passesFilter, type GcFilter } from '../../src-main/shared/gc-filter.js';
import type { TableExtraColumn } from '../../src-main/shared/contract.js';
import type { GcSeries } from '../../src-main/shared/gc-series.js';

export type SeriesSortKey = 'number' | 'time' | 'pause' | 'suspend' | 'generation' | 'reason' | 'heapAfter' | 'heapBefore' | 'promoted' | 'allocated' | 'survived' | 'moved';
/** A series column, or one of the table's optional columns (its values passed to computeRows). */
export type SortKey = SeriesSortKey | TableExtraColumn;

export type TableFilter = GcFilter;

/**
 * The filter as a per-GC mask: index = GC index in the series, 1 = passes. null when no filter
 * is active (everything passes), so charts and the table skip the work.
 */
export function filterMask(s: GcSeries, f: GcFilter): Uint8Array | null {
  if (!isFilterActive(f)) return null;
  const m = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) m[i] = passesFilter(f, s.generation[i]!, s.type[i]!, s.reason[i]!, s.pause[i]!, s.number[i]!) ? 1 : 0;
  return m;
}

const SORT_COLUMN: Record<SeriesSortKey, (s: GcSeries, i: number) => number> = {
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

/**
 * `mask` is `filterMask(s, f)`, passed in when the caller already has it; `extra` holds the values
 * of an optional column when `key` is one (index = GC index; missing or NaN sorts last).
 */
export function computeRows(s: GcSeries, range: { from: number; to: number } | null, f: TableFilter, key: SortKey, desc: boolean, mask: Uint8Array | null = filterMask(s, f), extra?: ArrayLike<number>): Int32Array {
  const picked = new Int32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const t = s.time[i]!;
    if (range !== null && (t < range.from || t > range.to)) continue;
    if (mask !== null && mask[i] === 0) continue;
    picked[n++] = i;
  }
  const out = picked.subarray(0, n);
  const get = key in SORT_COLUMN ? SORT_COLUMN[key as SeriesSortKey] : (_: GcSeries, i: number): number => (extra !== undefined && i < extra.length ? extra[i]! : Number.NaN);
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
