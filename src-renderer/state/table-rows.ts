/**
 * Which GCs the table shows, in which order: the selected time range, the generation / kind /
 * reason / minimum-pause filters (as a per-GC mask the charts also use to dim the others), and a
 * sort on any column (unavailable values last). Pure, so it is unit-tested without a browser.
 */
import { isFilterActive, passesFilter, type GcFilter } from '../../src-main/shared/gc-filter.js';
import type { TableExtraColumn } from '../../src-main/shared/contract.js';
import type { GcSeries } from '../../src-main/shared/gc-series.js';

export type SeriesSortKey =
  'number' | 'time' | 'pause' | 'suspend' | 'generation' | 'reason' | 'heapAfter' | 'heapBefore' | 'promoted' | 'allocated' | 'survived' | 'moved';
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
export function computeRows(
  s: GcSeries,
  range: { from: number; to: number } | null,
  f: TableFilter,
  key: SortKey,
  desc: boolean,
  mask: Uint8Array | null = filterMask(s, f),
  extra?: ArrayLike<number>,
): Int32Array {
  // Read once: the range is usually reactive state (a proxy), and reading it for every GC made
  // one pan step over 100,000 GCs cost 30–75 ms instead of about one.
  const len = s.length;
  const time = s.time;
  const from = range !== null ? range.from : Number.NEGATIVE_INFINITY;
  const to = range !== null ? range.to : Number.POSITIVE_INFINITY;
  const picked = new Int32Array(len);
  let n = 0;
  for (let i = 0; i < len; i++) {
    const t = time[i]!;
    if (t < from || t > to) continue;
    if (mask !== null && mask[i] === 0) continue;
    picked[n++] = i;
  }
  const out = picked.subarray(0, n);
  const get =
    key in SORT_COLUMN
      ? SORT_COLUMN[key as SeriesSortKey]
      : (_: GcSeries, i: number): number => (extra !== undefined && i < extra.length ? extra[i]! : Number.NaN);
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

/**
 * What the table needs from the whole series that can be kept as a live session grows instead of
 * recomputed from every GC on every batch: the rows in GC order (both directions: the default
 * sort, with no range or filter), the incomplete GCs among them, the reason codes seen and which
 * columns have a value. `sync` takes in the GCs appended since the last call (a shorter series
 * is another session: everything starts over), so a live batch costs its own GCs.
 */
export class SeriesIndex {
  private asc = new Int32Array(0);
  private desc = new Int32Array(0);
  private n = 0;
  private lastTime = Number.NEGATIVE_INFINITY;
  private lastNumber = Number.NEGATIVE_INFINITY;
  /** Whether the GCs so far are in increasing pause-start time / GC number order. */
  timeIncreasing = true;
  numberIncreasing = true;
  /** GCs whose events were not all seen. */
  incomplete = 0;
  /** Their series indexes, ascending. */
  private incompleteAt: number[] = [];
  /** The longest pause of the GCs seen (ms; only ever widens, like the reasons). */
  maxPause = 0;
  /** Reason codes seen, ascending (a new array when one is added). */
  reasons: readonly number[] = [];
  private readonly reasonSet = new Set<number>();
  private readonly presentAt = new Map<string, { scanned: number; found: boolean }>();
  private series: GcSeries | undefined;

  sync(s: GcSeries): this {
    if (s.length < this.n) this.reset();
    this.series = s;
    const from = this.n;
    const to = s.length;
    if (to === from) return this;
    if (to > this.asc.length) {
      const cap = Math.max(to, this.asc.length * 2, 256);
      const asc = new Int32Array(cap);
      asc.set(this.asc.subarray(0, from));
      this.asc = asc;
      // desc fills from the end: its last `n` slots hold n-1 … 0.
      const desc = new Int32Array(cap);
      desc.set(this.desc.subarray(this.desc.length - from), cap - from);
      this.desc = desc;
    }
    let added = false;
    for (let i = from; i < to; i++) {
      this.asc[i] = i;
      this.desc[this.desc.length - 1 - i] = i;
      const t = s.time[i]!;
      const num = s.number[i]!;
      if (!(t > this.lastTime)) this.timeIncreasing = false;
      if (!(num > this.lastNumber)) this.numberIncreasing = false;
      this.lastTime = t;
      this.lastNumber = num;
      if (s.complete[i] === 0) {
        this.incomplete++;
        this.incompleteAt.push(i);
      }
      const p = s.pause[i]!;
      if (p > this.maxPause) this.maxPause = p;
      const r = s.reason[i]!;
      if (!this.reasonSet.has(r)) {
        this.reasonSet.add(r);
        added = true;
      }
    }
    if (added) this.reasons = [...this.reasonSet].sort((a, b) => a - b);
    this.n = to;
    return this;
  }

  /**
   * Forgets the GCs from series index `p` on (a late GC was inserted before them: see
   * GrowableSeries.append); the next sync takes them in again. The flags and the reasons only
   * ever widen, so they stay; the incomplete count is taken again over what is kept.
   */
  truncate(p: number): void {
    if (p >= this.n || this.series === undefined) return;
    const s = this.series;
    this.n = p;
    this.lastTime = p > 0 ? s.time[p - 1]! : Number.NEGATIVE_INFINITY;
    this.lastNumber = p > 0 ? s.number[p - 1]! : Number.NEGATIVE_INFINITY;
    // The incomplete GCs' indexes ascend: keep those below p (a batch costs its GCs, not the session).
    while (this.incompleteAt.length > 0 && this.incompleteAt[this.incompleteAt.length - 1]! >= p) this.incompleteAt.pop();
    this.incomplete = this.incompleteAt.length;
    for (const v of this.presentAt.values()) if (!v.found) v.scanned = Math.min(v.scanned, p);
  }

  /** The rows in GC order, oldest first (`descending`: newest first): views, valid until the next sync. */
  inOrder(descending: boolean): Int32Array {
    return descending ? this.desc.subarray(this.desc.length - this.n) : this.asc.subarray(0, this.n);
  }

  /** Whether a column of the series has a value for some GC (scanned once up to the first value). */
  hasValues(key: SeriesSortKey): boolean {
    const s = this.series;
    if (s === undefined) return false;
    let p = this.presentAt.get(key);
    if (p === undefined) this.presentAt.set(key, (p = { scanned: 0, found: false }));
    if (p.found) return true;
    const col = s[key] as ArrayLike<number>;
    for (; p.scanned < this.n; p.scanned++) {
      if (!Number.isNaN(col[p.scanned]!)) {
        p.found = true;
        return true;
      }
    }
    return false;
  }

  reset(): void {
    this.asc = new Int32Array(0);
    this.desc = new Int32Array(0);
    this.n = 0;
    this.lastTime = this.lastNumber = Number.NEGATIVE_INFINITY;
    this.timeIncreasing = this.numberIncreasing = true;
    this.incomplete = 0;
    this.maxPause = 0;
    this.incompleteAt = [];
    this.reasons = [];
    this.reasonSet.clear();
    this.presentAt.clear();
  }
}
