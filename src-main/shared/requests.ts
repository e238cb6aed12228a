/**
 * Request spans and GC pause intervals (issue 42): what the store keeps per session, the
 * requests analysis (src-main/requests/) reads and the renderer's Requests lane draws. Types only.
 */

/** One request: from its Start to its Stop, ms on the trace's clock (as every GC time). */
export interface RequestSpan {
  startMSec: number;
  durationMSec: number;
  /** Provider/stem ('Microsoft-AspNetCore-Server-Kestrel/Request'), an Activity source's name, or an explicit source's label. */
  group: string;
  /** What the start's payload says the request was ('GET /alloc'), or ''. */
  name: string;
}

/** One GC pause: suspension start to restart end, ms. */
export interface PauseInterval {
  startMSec: number;
  endMSec: number;
  gcNumber: number;
  /** The GC's generation and type (0 non-concurrent, 1 background, 2 foreground) as its GCStart said; -1 unknown. */
  generation: number;
  type: number;
}

/**
 * A session's requests for the Requests lane, the tiles and a GC's detail (issue 42): one group of
 * spans (the requests), columns by request in start order, each with the GC pause time that
 * overlapped it and the GCs that paused it (`gcOffsets[i]..gcOffsets[i+1]` into `gcNumbers`).
 */
export interface RequestLaneData {
  /** Which spans are the requests ('Microsoft-AspNetCore-Server-Kestrel/Request'); null: the session has none. */
  group: string | null;
  startMSec: Float64Array;
  durationMSec: Float64Array;
  gcPauseMSec: Float64Array;
  /** Index into `names`. */
  nameIndex: Uint32Array;
  names: string[];
  gcOffsets: Uint32Array;
  gcNumbers: Float64Array;
}

/** Nearest-rank percentile of ascending values (p in 0..1): the value at rank ceil(p·n); null for none. */
export function percentile(ascending: ArrayLike<number>, p: number): number | null {
  const n = ascending.length;
  if (n === 0) return null;
  const rank = Math.min(n, Math.max(1, Math.ceil(p * n)));
  return ascending[rank - 1]!;
}

/** How many requests "the slowest `fraction`" is: ceil(n·fraction), at least one when there are any. */
export function tailCount(n: number, fraction: number): number {
  return n === 0 ? 0 : Math.max(1, Math.ceil(n * fraction));
}

/** The lane's tiles for the requests started in [fromMSec, toMSec]. */
export interface RequestWindowStats {
  count: number;
  p99LatencyMSec: number | null;
  p99WithoutGcMSec: number | null;
  /** GC pause time over latency of the slowest 1 %; null without requests. */
  gcShareOfSlowest1Percent: number | null;
}

export function requestWindowStats(d: RequestLaneData, fromMSec: number, toMSec: number): RequestWindowStats {
  const idx: number[] = [];
  for (let i = 0; i < d.startMSec.length; i++) if (d.startMSec[i]! >= fromMSec && d.startMSec[i]! <= toMSec) idx.push(i);
  const n = idx.length;
  if (n === 0) return { count: 0, p99LatencyMSec: null, p99WithoutGcMSec: null, gcShareOfSlowest1Percent: null };
  const lat = Float64Array.from(idx, (i) => d.durationMSec[i]!).sort();
  const without = Float64Array.from(idx, (i) => Math.max(0, d.durationMSec[i]! - d.gcPauseMSec[i]!)).sort();
  // The slowest 1 %, ties broken by start (as requests/latency.ts's `slowest`).
  const bySlowest = [...idx].sort((a, b) => d.durationMSec[b]! - d.durationMSec[a]! || d.startMSec[a]! - d.startMSec[b]!);
  let l = 0;
  let g = 0;
  for (const i of bySlowest.slice(0, tailCount(n, 0.01))) {
    l += d.durationMSec[i]!;
    g += d.gcPauseMSec[i]!;
  }
  return { count: n, p99LatencyMSec: percentile(lat, 0.99), p99WithoutGcMSec: percentile(without, 0.99), gcShareOfSlowest1Percent: l > 0 ? g / l : null };
}
