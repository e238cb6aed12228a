/**
 * A session's GC columns that grow while it is recorded. Each column is a typed array with spare
 * capacity, doubled when full (or, one column a batch, when nearly full: lib/grow-ahead.ts), so
 * appending a live batch copies only the batch (amortised O(1) per GC) instead of reallocating
 * every column of the session on every batch, which made a long recording quadratic. `view()`
 * hands out `subarray` views of the filled part: no copy.
 */
import { seriesFromColumns, seriesFromRecords, type GcSeries, type LiveColumns } from '../../src-main/shared/gc-series.js';
import { lowerBound } from '../../src-main/shared/sorted.js';
import { grown } from '../../src-main/shared/grown.js';
import { growsAhead } from '../lib/grow-ahead.js';

type Column = Exclude<keyof GcSeries, 'length'>;
type Typed = GcSeries[Column];

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

  /**
   * Adds a live batch's GCs (its columns, a row per GC) in GC-number order and returns how many
   * were new (a batch may repeat the snapshot's tail). A GC arrives when it ends, so a background
   * GC comes after the GCs that ran during it, which have higher numbers: it is inserted at its
   * place, and the GCs after it move up. A GC sent again (its values changed: LiveBatch.gcs)
   * replaces the one held. Consumers that keep state per index ask `rewrittenSince` and take the
   * GCs in again from there.
   */
  append(gcs: LiveColumns): number {
    // The last row of each GC the batch carries.
    const latest = new Map<number, number>();
    for (let k = 0; k < gcs.number.length; k++) latest.set(gcs.number[k]!, k);
    const last = this.n > 0 ? this.cols.number[this.n - 1]! : -1;
    const tail: number[] = [];
    const late: number[] = [];
    const again: number[] = [];
    for (const [number, k] of latest) {
      if (number > last) tail.push(k);
      else if (this.holds(number)) again.push(k);
      else late.push(k);
    }
    this.lastInserted = late.length > 0;
    // Whether a new GC (not one sent again) is a background GC.
    this.lastAddedBackground = [...tail, ...late].some((k) => gcs.type[k] === 1);
    this.growOneAhead();
    if (again.length > 0) this.replace(gcs, again);
    const byNumber = (a: number, b: number): number => gcs.number[a]! - gcs.number[b]!;
    if (late.length > 0) this.insert(gcs, late.sort(byNumber));
    // Within a batch, too, a background GC comes after the GCs it ran beside.
    tail.sort(byNumber);
    if (tail.length > 0) {
      const add = seriesFromColumns(gcs, tail);
      this.reserve(this.n + add.length);
      for (const k of Object.keys(this.cols) as Column[]) this.cols[k].set(add[k], this.n);
      this.n += add.length;
    }
    return tail.length + late.length;
  }

  /** Whether the last append moved GCs already held (an insertion, not only new or replaced GCs). */
  lastInserted = false;
  /** Whether the last append brought a new background GC. */
  lastAddedBackground = false;

  /** Writes GCs sent again (rows `again` of `gcs`) over the ones held, in place. */
  private replace(gcs: LiveColumns, again: number[]): void {
    const add = seriesFromColumns(gcs, again);
    let at = Number.POSITIVE_INFINITY;
    const rows = again.map((k) => lowerBound(this.cols.number, gcs.number[k]!, this.n));
    for (const key of Object.keys(this.cols) as Column[]) {
      const col = this.cols[key];
      const neu = add[key];
      for (let k = 0; k < rows.length; k++) col[rows[k]!] = neu[k]!;
    }
    for (const r of rows) at = Math.min(at, r);
    this.moves.push({ seq: ++this.seqNo, at });
    if (this.moves.length > 64) this.moves.shift();
  }

  /** Changes so far to GCs already held (insertions, replacements): their count, and the lowest index each changed. */
  private seqNo = 0;
  private readonly moves: { seq: number; at: number }[] = [];

  /** A counter of those changes: pass it to `rewrittenSince` later. */
  get seq(): number {
    return this.seqNo;
  }

  /**
   * The lowest index whose GC changed since insertion number `seq` (null: none did): state kept
   * per index from there on is stale.
   */
  rewrittenSince(seq: number): number | null {
    if (seq >= this.seqNo) return null;
    // Older than the insertions remembered: everything may have moved.
    if (this.moves.length === 0 || this.moves[0]!.seq > seq + 1) return 0;
    let at = Number.POSITIVE_INFINITY;
    for (const m of this.moves) if (m.seq > seq) at = Math.min(at, m.at);
    return at;
  }

  private holds(number: number): boolean {
    const i = lowerBound(this.cols.number, number, this.n);
    return i < this.n && this.cols.number[i] === number;
  }

  /** Inserts GCs numbered below the last one held (none held yet), keeping number order: rows `late` of `gcs`, by number. */
  private insert(gcs: LiveColumns, late: number[]): void {
    const add = seriesFromColumns(gcs, late);
    const at = lowerBound(this.cols.number, gcs.number[late[0]!]!, this.n);
    const moved = this.n - at;
    // Where each of the merged rows comes from: the held rows from `at` on (o) and the new ones (a).
    const fromOld = new Int32Array(moved + late.length).fill(-1);
    const fromNew = new Int32Array(moved + late.length).fill(-1);
    for (let o = 0, a = 0, k = 0; k < fromOld.length; k++) {
      if (a < late.length && (o >= moved || gcs.number[late[a]!]! < this.cols.number[at + o]!)) fromNew[k] = a++;
      else fromOld[k] = o++;
    }
    this.reserve(this.n + late.length);
    for (const key of Object.keys(this.cols) as Column[]) {
      const col = this.cols[key];
      const old = col.slice(at, this.n);
      const neu = add[key];
      for (let k = 0; k < fromOld.length; k++) col[at + k] = fromOld[k]! >= 0 ? old[fromOld[k]!]! : neu[fromNew[k]!]!;
    }
    this.n += late.length;
    this.moves.push({ seq: ++this.seqNo, at });
    if (this.moves.length > 64) this.moves.shift();
  }

  /** Gives every column room for `need` GCs (a column grown ahead already has it). */
  private reserve(need: number): void {
    if (need <= this.cap) return;
    for (const k of Object.keys(this.cols) as Column[]) if (this.cols[k].length < need) this.resize(k, Math.max(need, this.cols[k].length * 2, 256));
    this.cap = this.leastCapacity();
  }

  /** Doubles one nearly full column ahead of need (lib/grow-ahead.ts), so they never all double in one batch. */
  private growOneAhead(): void {
    for (const k of Object.keys(this.cols) as Column[]) {
      if (!growsAhead(this.n, this.cols[k].length)) continue;
      this.resize(k, this.cols[k].length * 2);
      this.cap = this.leastCapacity();
      return;
    }
  }

  private resize(k: Column, cap: number): void {
    this.cols[k] = grown(this.cols[k], cap, undefined, this.n);
  }

  private leastCapacity(): number {
    let cap = Number.POSITIVE_INFINITY;
    for (const k of Object.keys(this.cols) as Column[]) cap = Math.min(cap, this.cols[k].length);
    return cap;
  }

  /** The filled part as a GcSeries of views (valid until the next append that grows a column). */
  view(): GcSeries {
    const out = { length: this.n } as Record<string, unknown>;
    for (const k of Object.keys(this.cols) as Column[]) out[k as string] = this.cols[k].subarray(0, this.n);
    return out as unknown as GcSeries;
  }
}
