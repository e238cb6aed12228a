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
  /**
   * How many live changes made this data (a recording's lane, requests/live-lane.ts): a live
   * batch's delta applies to the data of the version before it. 0 for a stored session's.
   */
  version: number;
  /** Each request's span number: its place among the session's spans in the order they ended (the store's seq). Rows are in start order, ties by seq. */
  seq: Float64Array;
  startMSec: Float64Array;
  durationMSec: Float64Array;
  gcPauseMSec: Float64Array;
  /** Index into `names`. */
  nameIndex: Uint32Array;
  names: string[];
  gcOffsets: Uint32Array;
  gcNumbers: Float64Array;
}

/**
 * What a live batch carries for the Requests lane (issue 42): the requests added since the previous
 * batch and those whose GC pause time changed (a pause read after a request that it overlapped),
 * each with its seq, in start order; `reset`: these rows are the whole lane (the request group
 * changed). `version` is the lane's after this change.
 */
export interface RequestLaneDelta extends RequestLaneData {
  reset: boolean;
}

/** Each names list's index by name, kept with the list (a lane's names are looked up at every delta). */
const nameIndexes = new WeakMap<readonly string[], Map<string, number>>();

function indexOfNames(names: readonly string[]): Map<string, number> {
  let m = nameIndexes.get(names);
  if (m === undefined) {
    m = new Map();
    names.forEach((n, i) => m!.set(n, i));
    nameIndexes.set(names, m);
  }
  return m;
}

/** First index whose value is at least `v` (ascending `a`). */
function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `d` with a live delta applied: its rows replace the rows with the same seq, new ones are merged
 * in start order (ties by seq), as requests/lane.ts orders a stored session's. A delta that is not
 * the next version is not applied: null when it comes after a missing one (fetch the lane again),
 * `d` unchanged when `d` already has it. Pure (d is not changed). Every row the delta holds starts
 * at or after its earliest start, so the rows before that are copied as they are (one memcpy per
 * column) and only the tail is merged: O(rows) copying, O(tail + delta) work.
 */
export function applyRequestDelta(d: RequestLaneData, x: RequestLaneDelta): RequestLaneData | null {
  if (x.version <= d.version) return d;
  if (x.version !== d.version + 1) return null;
  if (x.reset) {
    const { reset: _reset, ...rest } = x;
    return rest;
  }
  // Names: the delta's indexes into its own list, re-pointed into d's (a new list only when it has new names).
  let names = d.names;
  let nameOf = indexOfNames(names);
  const nameMap = x.names.map((n) => {
    let k = nameOf.get(n);
    if (k === undefined) {
      if (names === d.names) {
        names = d.names.slice();
        nameOf = new Map(nameOf);
      }
      k = names.length;
      (names as string[]).push(n);
      nameOf.set(n, k);
    }
    return k;
  });
  if (names !== d.names) nameIndexes.set(names, nameOf);
  let minStart = Infinity;
  for (let j = 0; j < x.startMSec.length; j++) minStart = Math.min(minStart, x.startMSec[j]!);
  // Rows before p are not in the delta (a replaced row has the start it had) and come before all of its rows.
  const p = lowerBound(d.startMSec, minStart);
  const changed = new Set<number>();
  for (let j = 0; j < x.seq.length; j++) changed.add(x.seq[j]!);
  const keep: number[] = [];
  for (let i = p; i < d.seq.length; i++) if (!changed.has(d.seq[i]!)) keep.push(i);
  const n = p + keep.length + x.seq.length;
  const gp = d.gcOffsets[p]!;
  const out: RequestLaneData = {
    group: x.group,
    version: x.version,
    seq: new Float64Array(n),
    startMSec: new Float64Array(n),
    durationMSec: new Float64Array(n),
    gcPauseMSec: new Float64Array(n),
    nameIndex: new Uint32Array(n),
    names,
    gcOffsets: new Uint32Array(n + 1),
    gcNumbers: new Float64Array(d.gcNumbers.length + x.gcNumbers.length),
  };
  out.seq.set(d.seq.subarray(0, p));
  out.startMSec.set(d.startMSec.subarray(0, p));
  out.durationMSec.set(d.durationMSec.subarray(0, p));
  out.gcPauseMSec.set(d.gcPauseMSec.subarray(0, p));
  out.nameIndex.set(d.nameIndex.subarray(0, p));
  out.gcOffsets.set(d.gcOffsets.subarray(0, p));
  out.gcNumbers.set(d.gcNumbers.subarray(0, gp));
  let a = 0;
  let b = 0;
  let g = gp;
  for (let k = p; k < n; k++) {
    const i = keep[a];
    const fromD = i !== undefined && (b >= x.seq.length || d.startMSec[i]! < x.startMSec[b]! || (d.startMSec[i] === x.startMSec[b] && d.seq[i]! < x.seq[b]!));
    const src = fromD ? d : x;
    const r = fromD ? i : b;
    out.seq[k] = src.seq[r]!;
    out.startMSec[k] = src.startMSec[r]!;
    out.durationMSec[k] = src.durationMSec[r]!;
    out.gcPauseMSec[k] = src.gcPauseMSec[r]!;
    out.nameIndex[k] = fromD ? d.nameIndex[r]! : nameMap[x.nameIndex[r]!]!;
    out.gcOffsets[k] = g;
    for (let q = src.gcOffsets[r]!; q < src.gcOffsets[r + 1]!; q++) out.gcNumbers[g++] = src.gcNumbers[q]!;
    if (fromD) a++;
    else b++;
  }
  out.gcOffsets[n] = g;
  if (g < out.gcNumbers.length) out.gcNumbers = out.gcNumbers.slice(0, g);
  return out;
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
