/**
 * A session's GC columns that grow while it is recorded. Each column is a typed array with spare
 * capacity, doubled when full, so appending a live batch copies only the batch (amortised O(1)
 * per GC) instead of reallocating every column of the session on every batch, which made a long
 * recording quadratic. `view()` hands out `subarray` views of the filled part: no copy.
 */
import { seriesFromRecords, type GcSeries } from '../../src-main/shared/gc-series.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';

type Column = Exclude<keyof GcSeries, 'length'>;
type Typed = GcSeries[Column];
type TypedCtor = { new (n: number): Typed };

export class GrowableSeries {
  private cols: Record<Column, Typed>;
  private n: number;
  private cap: number;

  /** Adopts `initial`'s arrays (a stored session's snapshot) without copying until the first append. */
  constructor(initial: GcSeries = seriesFromRecords([])) {
    const { length, ...cols } = initial;
    this.cols = cols as Record<Column, Typed>;
    this.n = length;
    this.cap = length;
  }

  get length(): number {
    return this.n;
  }

  get capacity(): number {
    return this.cap;
  }

  /** Appends GCs with a number above the last one held (a live batch may repeat the snapshot's tail). Returns how many were added. */
  append(records: readonly GcRecord[]): number {
    const last = this.n > 0 ? this.cols.number[this.n - 1]! : -1;
    const fresh = records.filter((r) => r.number > last);
    if (fresh.length === 0) return 0;
    const add = seriesFromRecords(fresh);
    this.reserve(this.n + add.length);
    for (const k of Object.keys(this.cols) as Column[]) this.cols[k].set(add[k], this.n);
    this.n += add.length;
    return add.length;
  }

  private reserve(need: number): void {
    if (need <= this.cap) return;
    const cap = Math.max(need, this.cap * 2, 256);
    for (const k of Object.keys(this.cols) as Column[]) {
      const old = this.cols[k];
      const grown = new (old.constructor as TypedCtor)(cap);
      grown.set(old.subarray(0, this.n));
      this.cols[k] = grown;
    }
    this.cap = cap;
  }

  /** The filled part as a GcSeries of views (valid until the next append that grows a column). */
  view(): GcSeries {
    const out = { length: this.n } as Record<string, unknown>;
    for (const k of Object.keys(this.cols) as Column[]) out[k as string] = this.cols[k].subarray(0, this.n);
    return out as unknown as GcSeries;
  }
}
