/**
 * Columnar GC data for charts (uPlot wants `[x[], ...ys[]]` typed arrays): one entry per GC in
 * GC order. Built from GcRecords for stored sessions and for live batches alike. NaN marks a
 * value the trace does not have (uPlot draws a gap).
 */
import type { GcRecord } from './gc-record.js';

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
  gen0: Float64Array;
  gen1: Float64Array;
  gen2: Float64Array;
  loh: Float64Array;
  poh: Float64Array;
  heapAfter: Float64Array;
  heapBefore: Float64Array;
  allocRate: Float64Array;
  allocated: Float64Array;
  promoted: Float64Array;
  pausePercent: Float64Array;
  committed: Float64Array;
  heapCount: Float64Array;
}

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

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
    gen0: new Float64Array(n),
    gen1: new Float64Array(n),
    gen2: new Float64Array(n),
    loh: new Float64Array(n),
    poh: new Float64Array(n),
    heapAfter: new Float64Array(n),
    heapBefore: new Float64Array(n),
    allocRate: new Float64Array(n),
    allocated: new Float64Array(n),
    promoted: new Float64Array(n),
    pausePercent: new Float64Array(n),
    committed: new Float64Array(n),
    heapCount: new Float64Array(n),
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
    s.induced[i] = r.reason === 1 || r.reason === 7 ? 1 : 0;
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
