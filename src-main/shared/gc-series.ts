/**
 * Columnar GC data for charts (uPlot wants `[x[], ...ys[]]` typed arrays): one entry per GC in
 * GC order, one array per registry entry with a `series` key (gc-column-registry.ts), typed as
 * the entry says — pause starts and pauses Float64; suspensions, durations, sizes, rates and
 * percentages Float32 (7 significant digits: 0.6 µs at 10 s, for half the bytes to ship; the
 * service's summaries and findings read its own Float64 columns, not these); codes Uint8. Built
 * from a session's columns, for stored sessions and for live batches alike (a live batch is
 * columns too). NaN marks a value the trace does not have (uPlot draws a gap).
 */
import type { RangeSummary } from './gc-summary.js';
import type { PauseInterval, RequestLaneDelta, RequestSpan } from './requests.js';
import { isInducedReason } from './gc-record.js';
import { SERIES_COLUMN_DEFS, viewValue, type ArrayKind, type GcColumns, type GcRecord, type SeriesArrays, type SeriesColumnKey } from './gc-column-registry.js';

export type GcSeries = SeriesArrays & {
  length: number;
  /** TraceEvent's IsInduced, from the reason. */
  induced: Uint8Array;
};

const CTORS = { f64: Float64Array, f32: Float32Array, i32: Int32Array, u8: Uint8Array } as const;

function alloc(kind: ArrayKind, n: number): Float64Array | Float32Array | Int32Array | Uint8Array {
  return new CTORS[kind](n);
}

function inducedOf(reason: ArrayLike<number>, n: number): Uint8Array {
  const induced = new Uint8Array(n);
  for (let i = 0; i < n; i++) induced[i] = isInducedReason(reason[i]!) ? 1 : 0;
  return induced;
}

/**
 * A series from columns (store snapshots, in-memory pipelines and live batches share that shape):
 * all their rows, or the rows at `rows` in that order.
 */
export function seriesFromColumns(c: LiveColumns, rows?: ArrayLike<number>): GcSeries {
  const n = rows === undefined ? c.index.length : rows.length;
  const out = { length: n } as Record<string, unknown>;
  for (const d of SERIES_COLUMN_DEFS) {
    const a = alloc(d.array, n);
    const from = c[d.key as SeriesColumnKey];
    // A typed-array copy converts natively (NaN stays NaN in floats and becomes 0 in the integer
    // arrays, whose columns are never unavailable); so does assigning one element.
    if (rows === undefined) a.set(from);
    else for (let k = 0; k < n; k++) a[k] = from[rows[k]!]!;
    out[d.key] = a;
  }
  out.induced = inducedOf(out.reason as Uint8Array, n);
  return out as GcSeries;
}

export function seriesFromRecords(records: readonly GcRecord[]): GcSeries {
  const n = records.length;
  const out = { length: n } as Record<string, unknown>;
  for (const d of SERIES_COLUMN_DEFS) {
    const a = alloc(d.array, n);
    const integer = d.array === 'i32' || d.array === 'u8';
    for (let i = 0; i < n; i++) {
      const v = viewValue(records[i]!, d);
      a[i] = integer && Number.isNaN(v) ? 0 : v;
    }
    out[d.key] = a;
  }
  out.induced = inducedOf(out.reason as Uint8Array, n);
  return out as GcSeries;
}

/**
 * A live batch's GCs, column by column: one Float64Array per chart series column of the registry
 * (gc-column-registry.ts), a row per GC, NaN where a value is unavailable. The recorder sends
 * every view column (GcColumns: the service's summary and findings read them); the service
 * passes the chart's on to the page. Typed arrays cross a worker, Electron's IPC and the
 * WebSocket frame (shared/wire.ts) as bytes, where rows of objects were cloned or written as
 * JSON field by field.
 */
export type LiveColumns = Pick<GcColumns, SeriesColumnKey>;

/** What a live recording publishes (at most 10 times a second). */
export interface LiveBatch<C extends LiveColumns = LiveColumns> {
  sessionId: number;
  /**
   * GCs stored since the previous batch, in the order they ended (a background GC after the GCs
   * that ran beside it), and GCs stored again with changed values: a GC whose number was sent
   * before replaces it (within a batch too: the later row wins).
   */
  gcs: C;
  /** Events read and bytes received so far. */
  events: number;
  bytes: number;
  droppedEvents: number;
  /** Now on the trace's clock (ms since sync): the newest event's time, or while recording the wall clock's if later (an idle process sends nothing). */
  nowMSec: number | null;
  state: 'recording' | 'stopping' | 'ended';
  /** Why the recording ended (set with state 'ended'). */
  endReason?: string;
  /**
   * The whole session's summary through this batch's GCs, kept up to date by the service as GCs
   * arrive (never by re-reading the session), so the tiles follow a recording.
   */
  summary?: RangeSummary;
  /**
   * Request spans and GC pause intervals read since the previous batch (issue 42; a recording with
   * request sources), from the recorder to the service, which keeps the recording's Requests lane
   * (requests/lane.ts LiveRequestLane) and sends the page `requests` instead.
   */
  requestSpans?: { spans: RequestSpan[]; pauses: PauseInterval[] };
  /** What changed in the Requests lane with this batch (shared/requests.ts applyRequestDelta), for the page. */
  requests?: RequestLaneDelta;
}

/** How many GC rows a live batch carries. */
export function batchSize(b: LiveBatch): number {
  return b.gcs.index.length;
}

/** A batch's chart columns only (what the page draws; the service keeps the rest). */
export function chartColumns(c: LiveColumns): LiveColumns {
  const out = {} as Record<SeriesColumnKey, Float64Array>;
  for (const d of SERIES_COLUMN_DEFS) out[d.key as SeriesColumnKey] = c[d.key as SeriesColumnKey];
  return out;
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
