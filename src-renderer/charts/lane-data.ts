/**
 * The session view's lane data, built incrementally (pure, unit-tested). Each lane is uPlot's
 * `[x, ...ys]`, every column a typed-array view (x in seconds since the trace's start), NaN where
 * the GC has no value. A live batch appends only its GCs: the per-batch cost depends on the batch,
 * not on the length of the session.
 *
 * Why NaN and not null: a plain array mixing null and fractional numbers keeps every number as a
 * heap object, ~24 per GC across the lanes, all long-lived — at 80,000 GCs two million objects
 * that every major GC of the page had to mark (bench:live-ui: 30–40 ms pauses, most of the long
 * tasks, 700 bytes per GC). uPlot ranges and hovers NaN wrongly, so chart-options.ts ranges
 * the y scales itself and treats NaN as "no value" when hovering (`isGap`, chart-data.ts).
 */
import type { GcSeries } from '../../src-main/shared/gc-series.js';
import { lowerBound } from '../../src-main/shared/sorted.js';
import { growsAhead } from '../lib/grow-ahead.js';

/** uPlot's `[x, ...ys]`: the session lanes' are Float64Arrays (NaN = no value), the Server GC lanes' plain arrays (null). */
export type LaneColumns = [ArrayLike<number>, ...ArrayLike<number | null>[]];

/** Pause lane series, in uPlot order after x. */
export const PAUSE_SERIES = ['gen0', 'gen1', 'gen2', 'background', 'foreground gen0', 'foreground gen1', 'induced', 'suspension', 'filtered out'] as const;
/** Heap layers, bottom first (gen0 sits on the axis). */
export const HEAP_LAYERS = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'] as const;

/**
 * Versions count across all lanes and overviews ever built: a new SessionLanes (another session,
 * a changed filter mask) must never reuse the number a chart last drew, or it would not redraw.
 */
let versions = 0;

/**
 * A typed array with spare capacity (doubling), appended a whole column at once: one copy, not a
 * call per value (a cold page opening a long session spent 20 ms in a per-value push alone).
 */
class Grow<T extends Float64Array | Int32Array> {
  n = 0;
  constructor(public a: T) {}
  append(values: T): void {
    const need = this.n + values.length;
    if (need > this.a.length) {
      let cap = this.a.length * 2;
      while (cap < need) cap *= 2;
      this.resize(cap);
    }
    this.a.set(values, this.n);
    this.n = need;
  }
  /** Doubles the capacity now if the column is nearly full (lib/grow-ahead.ts); whether it did. */
  growAhead(): boolean {
    if (!growsAhead(this.n, this.a.length)) return false;
    this.resize(this.a.length * 2);
    return true;
  }
  private resize(cap: number): void {
    const b = new (this.a.constructor as new (length: number) => T)(cap);
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }
  view(): T {
    return this.a.subarray(0, this.n) as T;
  }
}

class GrowF64 extends Grow<Float64Array> {
  constructor() {
    super(new Float64Array(256));
  }
}

class GrowI32 extends Grow<Int32Array> {
  constructor() {
    super(new Int32Array(256));
  }
}

/** One lane: x plus y columns, appended point by point. */
class Lane {
  readonly x = new GrowF64();
  readonly ys: GrowF64[];
  constructor(ySeries: number) {
    this.ys = Array.from({ length: ySeries }, () => new GrowF64());
  }
  columns(): LaneColumns {
    return [this.x.view(), ...this.ys.map((y) => y.view())];
  }
}

export interface BgcSpan {
  from: number;
  to: number;
  y: number;
  /** The background GC's series index. */
  i: number;
}

/**
 * All lanes of one session view. `sync(series)` appends the GCs not seen yet (every call after a
 * live batch), `reset()` starts over (another session, a changed filter mask, a decimated
 * snapshot). Point k of every lane is the GC `gcIndex[k]` of the series.
 */
export class SessionLanes {
  readonly pauses = new Lane(PAUSE_SERIES.length);
  /**
   * Stacked after-GC layers drawn top layer first (POH total … gen0), then committed, heap before
   * GC, and the GC's total fragmentation (legend only; the hatching is drawn from heapFrag).
   */
  readonly heap = new Lane(8);
  /** Each generation's own size after the GC (MB; legend and hover values), bottom first. */
  readonly heapOwn: GrowF64[] = HEAP_LAYERS.map(() => new GrowF64());
  /** Each generation's fragmentation (free space inside its size, MB), bottom first; NaN where the trace has none. */
  readonly heapFrag: GrowF64[] = HEAP_LAYERS.map(() => new GrowF64());
  /** Whether any drawn GC has fragmentation data (the legend says so only then). */
  hasFragmentation = false;
  readonly rates = new Lane(2);
  readonly survival = new Lane(2);
  /**
   * Memory headroom: heap after GC, committed (MB) and memory load (%); the hard limit and the
   * high-load threshold are constants the lane adds (ConstantColumn).
   */
  readonly headroom = new Lane(3);
  readonly spans: BgcSpan[] = [];
  private readonly index = new GrowI32();
  /** GCs of the series consumed so far (picked or not). */
  private done = 0;
  /** Rolling % paused: window start and pause sum in it. */
  private lo = 0;
  private sum = 0;
  /** GCs the rolling window has taken in (more than `done` right after a truncate). */
  private rolled = 0;
  /** The window's start and pause sum after each GC of the series: a truncate resumes from there. */
  private readonly loAt = new GrowI32();
  private readonly sumAt = new GrowF64();
  hasSurvival = false;
  /** Bumped on every change, so a chart knows to redraw. */
  version = 0;

  constructor(
    /** Time origin (ms since sync): x = 0 (the view's is the trace's start, 0). */
    readonly t0: number,
    /** Window of the rolling % paused (ms). */
    readonly windowMSec = 1000,
    /** 1 = passes the table's filters, 0 = drawn dimmed; null = no filter. */
    readonly mask: Uint8Array | null = null,
    /** Where the session begins (ms since sync): no rolling window reaches before it. */
    readonly startMSec = t0,
  ) {}

  get length(): number {
    return this.index.n;
  }

  /** GCs of the series taken in so far (drawn or decimated away). */
  get consumed(): number {
    return this.done;
  }

  /** Series index of lane point k. */
  gcIndex(k: number): number {
    return this.index.a[k]!;
  }

  /** The series index of every lane point (a view, valid until the next sync). */
  drawnIndexes(): Int32Array {
    return this.index.a.subarray(0, this.index.n);
  }

  /** Generation g's own size after lane point k's GC (MB); null where the trace has none. */
  ownAt(g: number, k: number): number | null {
    return valueAt(this.heapOwn[g], k);
  }

  /** Generation g's fragmentation at lane point k (MB); null where the trace has none. */
  fragAt(g: number, k: number): number | null {
    return valueAt(this.heapFrag[g], k);
  }

  /** Generation g's fragmentation per lane point (MB, NaN where the trace has none), for drawing: a view, valid until the next sync. */
  fragColumn(g: number): Float64Array | undefined {
    const c = this.heapFrag[g];
    return c === undefined ? undefined : c.a.subarray(0, c.n);
  }

  /** Lane point of series index i (binary search; -1 if not drawn). */
  pointOf(i: number): number {
    const k = lowerBound(this.index.a, i, this.index.n);
    return k < this.index.n && this.index.a[k] === i ? k : -1;
  }

  /** Every column with one value per lane point. */
  private *pointColumns(): Generator<Grow<Float64Array> | Grow<Int32Array>> {
    for (const lane of [this.pauses, this.heap, this.rates, this.survival, this.headroom]) {
      yield lane.x;
      yield* lane.ys;
    }
    yield* this.heapOwn;
    yield* this.heapFrag;
    yield this.index;
  }

  /** Every column that grows with the lanes (the rolling window's per-GC state too). */
  private *allColumns(): Generator<Grow<Float64Array> | Grow<Int32Array>> {
    yield* this.pointColumns();
    yield this.loAt;
    yield this.sumAt;
  }

  /**
   * Forgets the GCs from series index `p` on: a live batch inserted a background GC before GCs
   * already drawn (it ends after them). The next sync takes them in again, so the cost is the
   * GCs since the background GC started, not the session.
   */
  truncate(p: number): void {
    if (p >= this.done) return;
    const k = lowerBound(this.drawnIndexes(), p);
    for (const c of this.pointColumns()) c.n = k;
    while (this.spans.length > 0 && this.spans[this.spans.length - 1]!.i >= p) this.spans.pop();
    this.done = p;
    this.version = ++versions;
  }

  /**
   * Appends the series' GCs from the last one seen. `pick` (decimation of a long stored session)
   * lists the series indexes to draw; without it every GC is drawn.
   *
   * Column by column, not GC by GC: opening a 100,000-GC session runs this once over the whole
   * series in code the page has never run before, and one short loop per column gets optimised
   * within the loop (a per-GC method filling thirty arrays measured 300 ms cold, 45 ms warm).
   */
  sync(s: GcSeries, pick?: Int32Array): void {
    if (s.length <= this.done) return;
    // One column a sync grows ahead of need, so the lanes' ~40 columns never all double in one batch.
    for (const g of this.allColumns()) if (g.growAhead()) break;
    const from = this.done;
    const to = s.length;
    let rows: Int32Array;
    if (pick === undefined) {
      rows = new Int32Array(to - from);
      for (let k = 0; k < rows.length; k++) rows[k] = from + k;
    } else rows = pick.subarray(lowerBound(pick, from), lowerBound(pick, to));
    const pct = this.rollingPaused(s, from, to, rows);
    const n = rows.length;
    const x = new Float64Array(n);
    for (let k = 0; k < n; k++) x[k] = (s.time[rows[k]!]! - this.t0) / 1000;
    this.index.append(rows);
    for (const lane of [this.pauses, this.heap, this.rates, this.survival, this.headroom]) lane.x.append(x);
    this.addPauses(s, rows);
    this.addHeap(s, rows);
    pushColumn(this.rates.ys[0]!, s.allocRate, rows);
    this.rates.ys[1]!.append(pct);
    if (pushColumn(this.survival.ys[0]!, s.survived, rows)) this.hasSurvival = true;
    pushColumn(this.survival.ys[1]!, s.moved, rows);
    pushColumn(this.headroom.ys[0]!, s.heapAfter, rows);
    pushColumn(this.headroom.ys[1]!, s.committed, rows);
    pushColumn(this.headroom.ys[2]!, s.memoryLoad, rows);
    this.done = to;
    this.version = ++versions;
  }

  /**
   * The rolling % paused of each drawn GC (over every GC, drawn or not), and the background GCs'
   * spans. The window never reaches before the session's start: the first GC of a session is not
   * "100 % paused" because its window would otherwise be just its own pause.
   */
  private rollingPaused(s: GcSeries, from: number, to: number, rows: Int32Array): Float64Array {
    const pct = new Float64Array(rows.length);
    const time = s.time;
    const pause = s.pause;
    if (from < this.rolled) {
      // After a truncate: the window's state as it was just after GC `from - 1`.
      this.lo = from > 0 ? this.loAt.a[from - 1]! : 0;
      this.sum = from > 0 ? this.sumAt.a[from - 1]! : 0;
      this.loAt.n = this.sumAt.n = from;
    }
    this.rolled = to;
    const loAt = new Int32Array(to - from);
    const sumAt = new Float64Array(to - from);
    let k = 0;
    for (let i = from; i < to; i++) {
      const t = time[i]!;
      const p = pause[i]!;
      const end = t + p;
      this.sum += p;
      while (this.lo < i && time[this.lo]! + pause[this.lo]! < end - this.windowMSec) {
        this.sum -= pause[this.lo]!;
        this.lo++;
      }
      if (s.type[i] === 1) {
        const d = s.duration[i]!;
        const x0 = (t - this.t0) / 1000;
        this.spans.push({ from: x0, to: x0 + (Number.isNaN(d) ? 0 : d / 1000), y: p, i });
      }
      if (k < rows.length && rows[k] === i) {
        const span = Math.min(this.windowMSec, Math.max(end - this.startMSec, p));
        pct[k++] = span > 0 ? Math.min(100, (this.sum * 100) / span) : Number.NaN;
      }
      loAt[i - from] = this.lo;
      sumAt[i - from] = this.sum;
    }
    this.loAt.append(loAt);
    this.sumAt.append(sumAt);
    return pct;
  }

  /**
   * Pauses: one mark per GC in the series of its kind (blocking by generation, background,
   * foreground by generation), the induced dot on top, the suspension part of the pause as its
   * own mark; a GC the filters leave out goes only to the dimmed series.
   */
  private addPauses(s: GcSeries, rows: Int32Array): void {
    const n = rows.length;
    const slot = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const i = rows[k]!;
      const type = s.type[i]!;
      slot[k] = this.mask !== null && this.mask[i] === 0 ? 8 : type === 1 ? 3 : type === 2 ? (s.generation[i] === 0 ? 4 : 5) : Math.min(2, s.generation[i]!);
    }
    const ys = this.pauses.ys;
    const pause = s.pause;
    for (let c = 0; c < 6; c++) {
      const col = new Float64Array(n);
      for (let k = 0; k < n; k++) col[k] = slot[k] === c ? pause[rows[k]!]! : Number.NaN;
      ys[c]!.append(col);
    }
    const induced = new Float64Array(n);
    const suspend = new Float64Array(n);
    const out = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const i = rows[k]!;
      const dim = slot[k] === 8;
      induced[k] = !dim && s.induced[i] === 1 ? pause[i]! : Number.NaN;
      suspend[k] = dim ? Number.NaN : s.suspend[i]!;
      out[k] = dim ? pause[i]! : Number.NaN;
    }
    ys[6]!.append(induced);
    ys[7]!.append(suspend);
    ys[8]!.append(out);
  }

  /** Heap: stacked running totals for the areas, each generation's own value for the legend. */
  private addHeap(s: GcSeries, rows: Int32Array): void {
    const n = rows.length;
    const acc = new Float64Array(n);
    const any = new Uint8Array(n);
    const fragTotal = new Float64Array(n);
    const anyFrag = new Uint8Array(n);
    for (let g = 0; g < 5; g++) {
      const own = HEAP_COLUMNS[g]!(s);
      const frag = FRAG_COLUMNS[g]!(s);
      const ownOut = new Float64Array(n);
      const stacked = new Float64Array(n);
      const fragOut = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        const i = rows[k]!;
        const v = own[i]!;
        ownOut[k] = v;
        if (!Number.isNaN(v)) {
          acc[k] = acc[k]! + v;
          any[k] = 1;
        }
        stacked[k] = any[k] === 1 ? acc[k]! : Number.NaN;
        const f = frag[i]!;
        fragOut[k] = f;
        if (!Number.isNaN(f)) {
          fragTotal[k] = fragTotal[k]! + f;
          anyFrag[k] = 1;
          this.hasFragmentation = true;
        }
      }
      // Series 1 is the top layer (POH total) … series 5 gen0.
      this.heap.ys[4 - g]!.append(stacked);
      this.heapOwn[g]!.append(ownOut);
      this.heapFrag[g]!.append(fragOut);
    }
    pushColumn(this.heap.ys[5]!, s.committed, rows);
    pushColumn(this.heap.ys[6]!, s.heapBefore, rows);
    const total = new Float64Array(n);
    for (let k = 0; k < n; k++) total[k] = anyFrag[k] === 1 ? fragTotal[k]! : Number.NaN;
    this.heap.ys[7]!.append(total);
  }
}

/** Each generation's size after the GC (MB), bottom layer first. */
const HEAP_COLUMNS: readonly ((s: GcSeries) => ArrayLike<number>)[] = [(s) => s.gen0, (s) => s.gen1, (s) => s.gen2, (s) => s.loh, (s) => s.poh];
/** Each generation's fragmentation (MB), bottom layer first. */
const FRAG_COLUMNS: readonly ((s: GcSeries) => ArrayLike<number>)[] = [(s) => s.frag0, (s) => s.frag1, (s) => s.frag2, (s) => s.fragLoh, (s) => s.fragPoh];

/**
 * A column of one value for a lane's horizontal line (a limit, a threshold): filled once and
 * handed out as views as the lane grows, not a new array of the session's length per redraw.
 */
export class ConstantColumn {
  private a = new Float64Array(0);
  private v = Number.NaN;

  view(n: number, v: number): Float64Array {
    if (this.a.length < n || !Object.is(v, this.v)) {
      this.a = new Float64Array(Math.max(n, this.a.length * 2, 256)).fill(v);
      this.v = v;
    }
    return this.a.subarray(0, n);
  }
}

function valueAt(col: GrowF64 | undefined, k: number): number | null {
  if (col === undefined || k < 0 || k >= col.n) return null;
  const v = col.a[k]!;
  return Number.isNaN(v) ? null : v;
}

/** Appends a series column's values at `rows`; whether any was a value (not NaN). */
function pushColumn(out: GrowF64, col: ArrayLike<number>, rows: Int32Array): boolean {
  const n = rows.length;
  const vs = new Float64Array(n);
  let any = false;
  for (let k = 0; k < n; k++) {
    const v = col[rows[k]!]!;
    vs[k] = v;
    if (!Number.isNaN(v)) any = true;
  }
  out.append(vs);
  return any;
}

/**
 * The overview strip's data: the whole session in at most `buckets` time buckets (max pause and
 * max heap per bucket). When the session outgrows the buckets, neighbours merge and the bucket
 * width doubles, so appending stays O(1) amortised however long a recording runs.
 */
export class OverviewBuckets {
  readonly maxPause: Float64Array;
  readonly maxHeap: Float64Array;
  /** Bucket width (seconds). */
  width: number;
  /** Buckets in use. */
  used = 0;
  private done = 0;
  version = 0;

  constructor(
    readonly t0: number,
    readonly buckets = 512,
    initialWidth = 0.05,
  ) {
    this.maxPause = new Float64Array(buckets);
    this.maxHeap = new Float64Array(buckets);
    this.width = initialWidth;
  }

  sync(s: GcSeries): void {
    const n = s.length;
    if (n <= this.done) return;
    const { time, pause, heapAfter } = s;
    const { maxPause, maxHeap, t0, buckets } = this;
    // Widened for the batch's last GC first (times ascend), so opening a long session does not
    // merge buckets over and over while it fills them (100,000 GCs: 20 ms in this loop).
    while ((time[n - 1]! - t0) / 1000 / this.width >= buckets) this.halve();
    let used = this.used;
    for (let i = this.done; i < n; i++) {
      const x = (time[i]! - t0) / 1000;
      let b = Math.max(0, Math.floor(x / this.width));
      while (b >= buckets) {
        this.used = used;
        this.halve();
        used = this.used;
        b = Math.max(0, Math.floor(x / this.width));
      }
      const p = pause[i]!;
      if (p > maxPause[b]!) maxPause[b] = p;
      const h = heapAfter[i]!;
      if (h > maxHeap[b]!) maxHeap[b] = h;
      if (b >= used) used = b + 1;
    }
    this.used = used;
    this.version = ++versions;
    this.done = n;
  }

  /** Takes the GCs from index `p` on in again at the next sync (a late GC moved them; a bucket's maximum only grows, so nothing is undone). */
  truncate(p: number): void {
    this.done = Math.min(this.done, p);
  }

  /** Merges bucket pairs: the same span in half the buckets, twice as wide. */
  private halve(): void {
    const n = this.buckets;
    for (let b = 0; b < n / 2; b++) {
      this.maxPause[b] = Math.max(this.maxPause[2 * b]!, this.maxPause[2 * b + 1]!);
      this.maxHeap[b] = Math.max(this.maxHeap[2 * b]!, this.maxHeap[2 * b + 1]!);
    }
    this.maxPause.fill(0, n / 2);
    this.maxHeap.fill(0, n / 2);
    this.used = Math.ceil(this.used / 2);
    this.width *= 2;
  }
}

/**
 * The y range of a lane whose one spike would flatten everything else: up to a high percentile
 * (with headroom) when the maximum is far above it, else up to the maximum. Returns the upper
 * bound and whether points are clipped (drawn as markers at the top).
 */
export function clampedMax(values: ArrayLike<number | null>, from: number, to: number, pct = 99): { max: number; clipped: boolean } {
  const lo = Math.max(0, from);
  const hi = Math.min(values.length - 1, to);
  const vs = new Float64Array(Math.max(0, hi - lo + 1));
  let n = 0;
  for (let i = lo; i <= hi; i++) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) vs[n++] = v;
  }
  if (n === 0) return { max: 1, clipped: false };
  const sorted = vs.subarray(0, n).sort();
  const top = sorted[sorted.length - 1]!;
  const p = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((pct / 100) * sorted.length) - 1))]!;
  if (p > 0 && top > p * 3) return { max: p * 1.3, clipped: true };
  return { max: top > 0 ? top * 1.05 : 1, clipped: false };
}
