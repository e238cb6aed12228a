/**
 * The session view's lane data, built incrementally (pure, unit-tested). Each lane is uPlot's
 * `[x, ...ys]`: x a typed-array view (seconds since the session's start), each y a plain array
 * holding `null` where the GC has no value. NaN, which breaks uPlot's scale ranging, becomes null
 * here, once per GC as it is appended, never again per frame. A live batch appends only its GCs:
 * the per-batch cost depends on the batch, not on the length of the session.
 */
import type { GcSeries } from '../../src-main/shared/gc-series.js';

export type LaneColumns = [ArrayLike<number>, ...(number | null)[][]];

/** Pause lane series, in uPlot order after x. */
export const PAUSE_SERIES = ['gen0', 'gen1', 'gen2', 'background', 'foreground gen0', 'foreground gen1', 'induced', 'suspension', 'filtered out'] as const;
/** Heap layers, bottom first (gen0 sits on the axis). */
export const HEAP_LAYERS = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'] as const;

const val = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * Versions count across all lanes and overviews ever built: a new SessionLanes (another session,
 * a changed filter mask) must never reuse the number a chart last drew, or it would not redraw.
 */
let versions = 0;

/** A Float64Array with spare capacity (doubling). */
class GrowF64 {
  a = new Float64Array(256);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  view(): Float64Array {
    return this.a.subarray(0, this.n);
  }
}

class GrowI32 {
  a = new Int32Array(256);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

/** One lane: x plus y columns, appended point by point. */
class Lane {
  readonly x = new GrowF64();
  readonly ys: (number | null)[][];
  constructor(ySeries: number) {
    this.ys = Array.from({ length: ySeries }, () => []);
  }
  columns(): LaneColumns {
    return [this.x.view(), ...this.ys];
  }
}

export interface BgcSpan {
  from: number;
  to: number;
  y: number;
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
  readonly heapOwn: (number | null)[][] = HEAP_LAYERS.map(() => []);
  /** Each generation's fragmentation (free space inside its size, MB), bottom first; null where the trace has none. */
  readonly heapFrag: (number | null)[][] = HEAP_LAYERS.map(() => []);
  /** Whether any drawn GC has fragmentation data (the legend says so only then). */
  hasFragmentation = false;
  readonly rates = new Lane(2);
  readonly survival = new Lane(2);
  readonly spans: BgcSpan[] = [];
  private readonly index = new GrowI32();
  /** GCs of the series consumed so far (picked or not). */
  private done = 0;
  /** Rolling % paused: window start and pause sum in it. */
  private lo = 0;
  private sum = 0;
  hasSurvival = false;
  /** Bumped on every change, so a chart knows to redraw. */
  version = 0;

  constructor(
    /** Session time origin (ms since sync): x = 0. */
    readonly t0: number,
    /** Window of the rolling % paused (ms). */
    readonly windowMSec = 1000,
    /** 1 = passes the table's filters, 0 = drawn dimmed; null = no filter. */
    readonly mask: Uint8Array | null = null,
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

  /** Lane point of series index i (binary search; -1 if not drawn). */
  pointOf(i: number): number {
    let lo = 0;
    let hi = this.index.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.index.a[mid]!;
      if (v === i) return mid;
      if (v < i) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Appends the series' GCs from the last one seen. `pick` (decimation of a long stored session)
   * lists the series indexes to draw; without it every GC is drawn.
   */
  sync(s: GcSeries, pick?: Int32Array): void {
    if (s.length <= this.done) return;
    const start = this.done;
    if (pick === undefined) for (let i = start; i < s.length; i++) this.add(s, i);
    else {
      let k = lowerBound(pick, start);
      for (let i = start; i < s.length; i++) {
        const drawn = k < pick.length && pick[k] === i;
        if (drawn) k++;
        this.add(s, i, drawn);
      }
    }
    this.done = s.length;
    this.version = ++versions;
  }

  private add(s: GcSeries, i: number, drawn = true): void {
    // The rolling window runs over every GC, drawn or not.
    const t = s.time[i]!;
    const p = s.pause[i]!;
    const end = t + p;
    this.sum += p;
    while (this.lo < i && s.time[this.lo]! + s.pause[this.lo]! < end - this.windowMSec) {
      this.sum -= s.pause[this.lo]!;
      this.lo++;
    }
    // The window never reaches before the session's start: the first GC of a session is not
    // "100 % paused" because its window would otherwise be just its own pause.
    const span = Math.min(this.windowMSec, Math.max(end - this.t0, p));
    const pct = span > 0 ? Math.min(100, (this.sum * 100) / span) : Number.NaN;
    const type = s.type[i]!;
    if (type === 1) {
      const d = s.duration[i]!;
      const from = (t - this.t0) / 1000;
      this.spans.push({ from, to: from + (Number.isNaN(d) ? 0 : d / 1000), y: p });
    }
    if (!drawn) return;
    const x = (t - this.t0) / 1000;
    this.index.push(i);

    // Pauses: one mark per GC in the series of its kind (blocking by generation, background,
    // foreground by generation), the induced dot on top, the suspension part of the pause as its
    // own mark; a GC the filters leave out goes only to the dimmed series.
    const ys = this.pauses.ys;
    this.pauses.x.push(x);
    const out = this.mask !== null && this.mask[i] === 0;
    const slot = out ? 8 : type === 1 ? 3 : type === 2 ? (s.generation[i] === 0 ? 4 : 5) : Math.min(2, s.generation[i]!);
    for (let c = 0; c < PAUSE_SERIES.length; c++) ys[c]!.push(c === slot ? p : null);
    if (!out && s.induced[i] === 1) ys[6]![ys[6]!.length - 1] = p;
    if (!out) ys[7]![ys[7]!.length - 1] = val(s.suspend[i]!);

    // Heap: stacked running totals for the areas, each generation's own value for the legend.
    const layers = [s.gen0[i]!, s.gen1[i]!, s.gen2[i]!, s.loh[i]!, s.poh[i]!];
    this.heap.x.push(x);
    let acc = 0;
    let any = false;
    const stacked: (number | null)[] = [];
    for (let g = 0; g < 5; g++) {
      const v = layers[g]!;
      this.heapOwn[g]!.push(val(v));
      if (!Number.isNaN(v)) {
        acc += v;
        any = true;
      }
      stacked.push(any ? acc : null);
    }
    for (let g = 0; g < 5; g++) this.heap.ys[g]!.push(stacked[4 - g]!);
    this.heap.ys[5]!.push(val(s.committed[i]!));
    this.heap.ys[6]!.push(val(s.heapBefore[i]!));
    const frags = [s.frag0[i]!, s.frag1[i]!, s.frag2[i]!, s.fragLoh[i]!, s.fragPoh[i]!];
    let fragTotal: number | null = null;
    for (let g = 0; g < 5; g++) {
      const f = val(frags[g]!);
      this.heapFrag[g]!.push(f);
      if (f !== null) {
        fragTotal = (fragTotal ?? 0) + f;
        this.hasFragmentation = true;
      }
    }
    this.heap.ys[7]!.push(fragTotal);

    this.rates.x.push(x);
    this.rates.ys[0]!.push(val(s.allocRate[i]!));
    this.rates.ys[1]!.push(val(pct));

    this.survival.x.push(x);
    const sv = val(s.survived[i]!);
    if (sv !== null) this.hasSurvival = true;
    this.survival.ys[0]!.push(sv);
    this.survival.ys[1]!.push(val(s.moved[i]!));
  }
}

function lowerBound(a: Int32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
    for (let i = this.done; i < s.length; i++) {
      const x = (s.time[i]! - this.t0) / 1000;
      let b = Math.max(0, Math.floor(x / this.width));
      while (b >= this.buckets) {
        this.halve();
        b = Math.max(0, Math.floor(x / this.width));
      }
      this.maxPause[b] = Math.max(this.maxPause[b]!, s.pause[i]!);
      const h = s.heapAfter[i]!;
      if (!Number.isNaN(h)) this.maxHeap[b] = Math.max(this.maxHeap[b]!, h);
      this.used = Math.max(this.used, b + 1);
    }
    if (s.length > this.done) this.version = ++versions;
    this.done = s.length;
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
  const vs: number[] = [];
  for (let i = Math.max(0, from); i <= Math.min(values.length - 1, to); i++) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) vs.push(v);
  }
  if (vs.length === 0) return { max: 1, clipped: false };
  const sorted = Float64Array.from(vs).sort();
  const top = sorted[sorted.length - 1]!;
  const p = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((pct / 100) * sorted.length) - 1))]!;
  if (p > 0 && top > p * 3) return { max: p * 1.3, clipped: true };
  return { max: top > 0 ? top * 1.05 : 1, clipped: false };
}
