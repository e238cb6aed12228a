/**
 * Where a recording's warm-up ends (insights §6.2, step 3): the first GC at which the live-data
 * proxy — gen2 + LOH size after the GC — reaches 90 % of its median over the last half of the
 * recording (JMC's 90 % rule, transposed from loaded classes to live data), and, when the heap
 * count changes (DATAS), the first GC at which the heap count reaches 90 % of its steady median.
 * The later of the two is the end of the warm-up. If it falls in the last half of the recording
 * (the live data was still growing where its steady level is measured) or leaves less than a
 * quarter of the GCs, the recording has no steady state (Barrett et al.): nothing is excluded,
 * and the note says so.
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import { quantileSorted } from './quantile.js';
import { formatInt } from '../shared/format.js';

export interface WarmupEnd {
  /** Index into `rows` of the first GC after the warm-up (0 when none is excluded). */
  firstKept: number;
  note: string;
}

function median(values: number[]): number {
  return quantileSorted(Float64Array.from(values).sort(), 0.5);
}

/** The first position from which `value(row) ≥ threshold`, searching from 0; -1 when never. */
function firstReaching(rows: ArrayLike<number>, value: (row: number) => number, threshold: number): number {
  for (let k = 0; k < rows.length; k++) if (value(rows[k]!) >= threshold) return k;
  return -1;
}

export function findWarmupEnd(c: Pick<GcColumns, 'time' | 'gen2' | 'loh' | 'heapCount'>, rows: ArrayLike<number>): WarmupEnd {
  const n = rows.length;
  if (n < 8) return { firstKept: 0, note: 'too few GCs to find a warm-up' };
  const t0 = c.time[rows[0]!]!;
  const t1 = c.time[rows[n - 1]!]!;
  const half = (t0 + t1) / 2;
  const lastHalf: number[] = [];
  for (let k = 0; k < n; k++) if (c.time[rows[k]!]! >= half) lastHalf.push(rows[k]!);
  const lds = (i: number): number => c.gen2[i]! + c.loh[i]!;
  const notes: string[] = [];
  let first = 0;
  const steadyLds = lastHalf.map(lds).filter((v) => Number.isFinite(v));
  if (steadyLds.length > 0) {
    const m = median(steadyLds);
    const k = m > 0 ? firstReaching(rows, (i) => (Number.isFinite(lds(i)) ? lds(i) : -Infinity), 0.9 * m) : 0;
    if (k > 0) notes.push(`gen2 + LOH after the GC reached 90 % of its steady median (${m.toFixed(1)} MB)`);
    first = Math.max(first, k < 0 ? 0 : k);
  }
  const counts = lastHalf.map((i) => c.heapCount[i]!).filter((v) => Number.isFinite(v));
  if (counts.length > 0) {
    const h = median(counts);
    const k = firstReaching(rows, (i) => (Number.isFinite(c.heapCount[i]!) ? c.heapCount[i]! : -Infinity), 0.9 * h);
    if (k > first) notes.push(`the heap count reached 90 % of its steady median (${h})`);
    first = Math.max(first, k < 0 ? 0 : k);
  }
  if (first === 0) return { firstKept: 0, note: 'no warm-up: the live data and heap count were steady from the first GC' };
  if (c.time[rows[first]!]! >= half || n - first < n / 4)
    return { firstKept: 0, note: `no steady state: the live data was still growing after ${formatInt(first)} of ${formatInt(n)} GCs, so nothing was excluded` };
  return { firstKept: first, note: `warm-up ends when ${notes.join(' and ')}` };
}
