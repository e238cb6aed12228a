/**
 * Columnar GC data for charts (uPlot wants `[x[], ...ys[]]` typed arrays): one entry per GC in
 * GC order. Built from GcRecords for stored sessions and for live batches alike. NaN marks a
 * value the trace does not have (uPlot draws a gap).
 */
import type { RangeSummary } from './contract.js';
import { isInducedReason, type GcRecord } from './gc-record.js';

export interface GcSeries {
  length: number;
  /** GC index within the session. */
  index: Int32Array;
  number: Int32Array;
  /** Pause start, ms since the trace's sync time (the shared x axis). */
  time: Float64Array;
  pause: Float64Array;
  suspend: Float64Array;
  /** GCStart → GCEnd (a background GC's whole span); NaN without GCEnd. */
  duration: Float64Array;
  generation: Uint8Array;
  /** 0 blocking, 1 background, 2 foreground. */
  type: Uint8Array;
  reason: Uint8Array;
  induced: Uint8Array;
  complete: Uint8Array;
  /** Heap size after, per generation (MB). */
  /** Sizes, rates and percentages are Float32 (7 significant digits, half the bytes to ship). */
  gen0: Float32Array;
  gen1: Float32Array;
  gen2: Float32Array;
  loh: Float32Array;
  poh: Float32Array;
  heapAfter: Float32Array;
  heapBefore: Float32Array;
  allocRate: Float32Array;
  allocated: Float32Array;
  promoted: Float32Array;
  pausePercent: Float32Array;
  committed: Float32Array;
  heapCount: Float32Array;
  /** Survival and movement (gc-survival): MB that survived in place / moved; NaN without events. */
  survived: Float32Array;
  moved: Float32Array;
}

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

/** The store columns a series is built from (see seriesFromColumns). */
export const SERIES_COLUMNS = [
  'idx', 'number', 'pause_start_msec', 'pause_msec', 'suspend_msec', 'duration_msec', 'generation', 'type', 'reason', 'is_complete',
  'gen0_size_after_mb', 'gen1_size_after_mb', 'gen2_size_after_mb', 'loh_size_after_mb', 'poh_size_after_mb', 'heap_after_mb', 'heap_before_mb',
  'alloc_rate_mb_sec', 'alloc_mb', 'promoted_mb', 'pause_pct_since_last_gc', 'committed_after_mb', 'heap_count',
  'survived_mb', 'moved_mb',
] as const;

/** A series from per-column arrays (null = unavailable), as the store returns them. */
export function seriesFromColumns(c: Record<(typeof SERIES_COLUMNS)[number], ArrayLike<number | null>>): GcSeries {
  const n = c.idx.length;
  const f64 = (a: ArrayLike<number | null>): Float64Array => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = nan(a[i]);
    return out;
  };
  const f32 = (a: ArrayLike<number | null>): Float32Array => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = nan(a[i]);
    return out;
  };
  // Plain loops: TypedArray.from with a mapper is several times slower on 100k GCs.
  const u8 = (a: ArrayLike<number | null>): Uint8Array => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = a[i] ?? 0;
    return out;
  };
  const i32 = (a: ArrayLike<number | null>): Int32Array => {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = a[i] ?? 0;
    return out;
  };
  const reason = u8(c.reason);
  const induced = new Uint8Array(n);
  for (let i = 0; i < n; i++) induced[i] = isInducedReason(reason[i]!) ? 1 : 0;
  return {
    length: n,
    index: i32(c.idx),
    number: i32(c.number),
    time: f64(c.pause_start_msec),
    pause: f64(c.pause_msec),
    suspend: f64(c.suspend_msec),
    duration: f64(c.duration_msec),
    generation: u8(c.generation),
    type: u8(c.type),
    reason,
    induced,
    complete: u8(c.is_complete),
    gen0: f32(c.gen0_size_after_mb),
    gen1: f32(c.gen1_size_after_mb),
    gen2: f32(c.gen2_size_after_mb),
    loh: f32(c.loh_size_after_mb),
    poh: f32(c.poh_size_after_mb),
    heapAfter: f32(c.heap_after_mb),
    heapBefore: f32(c.heap_before_mb),
    allocRate: f32(c.alloc_rate_mb_sec),
    allocated: f32(c.alloc_mb),
    promoted: f32(c.promoted_mb),
    pausePercent: f32(c.pause_pct_since_last_gc),
    committed: f32(c.committed_after_mb),
    heapCount: f32(c.heap_count),
    survived: f32(c.survived_mb),
    moved: f32(c.moved_mb),
  };
}

export function seriesFromRecords(records: readonly GcRecord[]): GcSeries {
  const n = records.length;
  const s: GcSeries = {
    length: n,
    index: new Int32Array(n),
    number: new Int32Array(n),
    time: new Float64Array(n),
    pause: new Float64Array(n),
    suspend: new Float64Array(n),
    duration: new Float64Array(n),
    generation: new Uint8Array(n),
    type: new Uint8Array(n),
    reason: new Uint8Array(n),
    induced: new Uint8Array(n),
    complete: new Uint8Array(n),
    gen0: new Float32Array(n),
    gen1: new Float32Array(n),
    gen2: new Float32Array(n),
    loh: new Float32Array(n),
    poh: new Float32Array(n),
    heapAfter: new Float32Array(n),
    heapBefore: new Float32Array(n),
    allocRate: new Float32Array(n),
    allocated: new Float32Array(n),
    promoted: new Float32Array(n),
    pausePercent: new Float32Array(n),
    committed: new Float32Array(n),
    heapCount: new Float32Array(n),
    survived: new Float32Array(n),
    moved: new Float32Array(n),
  };
  records.forEach((r, i) => {
    s.index[i] = r.index;
    s.number[i] = r.number;
    s.time[i] = r.pauseStartRelativeMSec;
    s.pause[i] = r.pauseDurationMSec;
    s.suspend[i] = r.suspendDurationMSec;
    s.duration[i] = nan(r.durationMSec);
    s.generation[i] = r.generation;
    s.type[i] = r.type;
    s.reason[i] = r.reason;
    s.induced[i] = isInducedReason(r.reason) ? 1 : 0;
    s.complete[i] = r.isComplete ? 1 : 0;
    s.gen0[i] = nan(r.genSizeAfterMB[0]);
    s.gen1[i] = nan(r.genSizeAfterMB[1]);
    s.gen2[i] = nan(r.genSizeAfterMB[2]);
    s.loh[i] = nan(r.genSizeAfterMB[3]);
    s.poh[i] = nan(r.genSizeAfterMB[4]);
    s.heapAfter[i] = nan(r.heapSizeAfterMB);
    s.heapBefore[i] = nan(r.heapSizeBeforeMB);
    s.allocRate[i] = nan(r.allocRateMBSec);
    s.allocated[i] = nan(r.allocedSinceLastGCMB);
    s.promoted[i] = nan(r.promotedMB);
    s.pausePercent[i] = nan(r.pauseTimePercentageSinceLastGC);
    s.committed[i] = nan(r.committedInUseAfterMB);
    s.heapCount[i] = nan(r.heapCount);
    s.survived[i] = nan(r.survivedMB);
    s.moved[i] = nan(r.movedMB);
  });
  return s;
}

/** What a live recording publishes (at most 10 times a second). */
export interface LiveBatch {
  sessionId: number;
  /** GCs stored since the previous batch, in order. */
  records: GcRecord[];
  /** Events read and bytes received so far. */
  events: number;
  bytes: number;
  droppedEvents: number;
  /** Time of the newest event (ms since sync). */
  nowMSec: number | null;
  state: 'recording' | 'stopping' | 'ended';
  /** Why the recording ended (set with state 'ended'). */
  endReason?: string;
  /**
   * The whole session's summary through this batch's GCs, kept up to date by the service as GCs
   * arrive (never by re-reading the session), so the tiles follow a recording.
   */
  summary?: RangeSummary;
}

/** Series `a` followed by `b` (live batches extend a session's series). */
export function appendSeries(a: GcSeries, b: GcSeries): GcSeries {
  const out = { length: a.length + b.length } as GcSeries;
  for (const k of Object.keys(a) as (keyof GcSeries)[]) {
    if (k === 'length') continue;
    const x = a[k] as Float64Array;
    const y = b[k] as Float64Array;
    const C = x.constructor as Float64ArrayConstructor;
    const z = new C(x.length + y.length);
    z.set(x);
    z.set(y, x.length);
    (out as unknown as Record<string, unknown>)[k] = z;
  }
  return out;
}
