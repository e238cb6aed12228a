/**
 * Request latency against GC pauses (issue 42): for each request the GC pause time that
 * overlapped it; for each GC the requests in flight its pauses stopped; overall the share of
 * latency spent in GC pauses, for all requests and for the slowest 1 % and 5 % (Maoni Stephens'
 * measure: "10 % means 90 % is something else"), and the latency percentiles with and without
 * that GC time.
 *
 * Percentiles are nearest-rank: the value at rank ceil(p·n) of the sorted latencies, an actual
 * request's latency. "The slowest 1 %" is the ceil(n/100) slowest requests (at least one), so a
 * run of 50 requests still has a tail to look at. Pure.
 */
import { percentile, tailCount } from '../shared/requests.js';
import type { PauseInterval, RequestSpan } from './spans.js';

export { percentile };

/** A request with the GC pause time that overlapped it. */
export interface AttributedRequest extends RequestSpan {
  gcPauseMSec: number;
  /** The GCs whose pauses overlapped it (GC numbers, in time order, each once). */
  gcNumbers: number[];
}

/** What one GC's pauses did to the requests in flight. */
export interface GcRequestImpact {
  gcNumber: number;
  /** As its GCStart said; -1 when the trace did not show it. */
  generation: number;
  /** 0 non-concurrent, 1 background, 2 foreground; -1 unknown. */
  type: number;
  /** Start of its first pause, ms. */
  pauseStartMSec: number;
  /** Its pauses' total, ms (a background GC's concurrent phase is not in it). */
  pauseMSec: number;
  /** Requests in flight during any of its pauses. */
  requests: number;
  /** The pause time those requests spent stopped, summed over them (ms). */
  requestDelayMSec: number;
}

export interface Attribution {
  requests: AttributedRequest[];
  /** Every GC with a pause, in time order (those that stopped no request too). */
  gcs: GcRequestImpact[];
}

/**
 * The pause time overlapping each span, and per GC the requests it stopped. `pauses` sorted by
 * start and not overlapping one another (a process's suspensions never do: spans.ts clamps
 * them). O(n log p + overlaps).
 */
export function attributePauses(spans: readonly RequestSpan[], pauses: readonly PauseInterval[]): Attribution {
  const byGc = new Map<number, GcRequestImpact>();
  for (const p of pauses) {
    let g = byGc.get(p.gcNumber);
    if (g === undefined) {
      g = { gcNumber: p.gcNumber, generation: p.generation, type: p.type, pauseStartMSec: p.startMSec, pauseMSec: 0, requests: 0, requestDelayMSec: 0 };
      byGc.set(p.gcNumber, g);
    }
    g.pauseMSec += p.endMSec - p.startMSec;
  }
  const requests: AttributedRequest[] = [];
  for (const s of spans) {
    const end = s.startMSec + s.durationMSec;
    // The first pause ending after the span starts.
    let lo = 0;
    let hi = pauses.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pauses[mid]!.endMSec <= s.startMSec) lo = mid + 1;
      else hi = mid;
    }
    let ms = 0;
    const gcs: number[] = [];
    for (let i = lo; i < pauses.length && pauses[i]!.startMSec < end; i++) {
      const p = pauses[i]!;
      const o = Math.min(end, p.endMSec) - Math.max(s.startMSec, p.startMSec);
      if (o <= 0) continue;
      ms += o;
      const g = byGc.get(p.gcNumber)!;
      g.requestDelayMSec += o;
      if (!gcs.includes(p.gcNumber)) {
        gcs.push(p.gcNumber);
        g.requests++;
      }
    }
    // Fields named, not spread: spreading each span cost ~10 µs a request (3 s for 300,000; bench/live-requests.ts).
    requests.push({ startMSec: s.startMSec, durationMSec: s.durationMSec, group: s.group, name: s.name, gcPauseMSec: ms, gcNumbers: gcs });
  }
  return { requests, gcs: [...byGc.values()].sort((a, b) => a.pauseStartMSec - b.pauseStartMSec) };
}

/** Latency percentiles, ms. */
export interface LatencyPercentiles {
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
}

/** From latencies sorted ascending. */
function percentiles(a: Float64Array): LatencyPercentiles {
  return {
    p50: percentile(a, 0.5),
    p90: percentile(a, 0.9),
    p95: percentile(a, 0.95),
    p99: percentile(a, 0.99),
    p999: percentile(a, 0.999),
    max: percentile(a, 1),
  };
}

/** The GC's share of one set of requests' latency. */
export interface GcShare {
  /** Requests in the set. */
  count: number;
  latencyMSec: number;
  gcPauseMSec: number;
  /** gcPauseMSec / latencyMSec, 0..1; null with no latency. */
  share: number | null;
}

function share(rs: readonly AttributedRequest[]): GcShare {
  let lat = 0;
  let gc = 0;
  for (const r of rs) {
    lat += r.durationMSec;
    gc += r.gcPauseMSec;
  }
  return { count: rs.length, latencyMSec: lat, gcPauseMSec: gc, share: lat > 0 ? gc / lat : null };
}

export interface RequestLatencySummary {
  count: number;
  /** Requests with any GC pause in them. */
  pausedCount: number;
  latency: LatencyPercentiles;
  /** The same with each request's GC pause time taken out. */
  latencyWithoutGc: LatencyPercentiles;
  all: GcShare;
  /** The ceil(n/100) slowest requests. */
  slowest1Percent: GcShare;
  /** The ceil(n/20) slowest requests. */
  slowest5Percent: GcShare;
}

/** The slowest ceil(n·fraction) requests (at least one when there are any), slowest first; ties by start. */
export function slowest<T extends { durationMSec: number; startMSec: number }>(rs: readonly T[], fraction: number): T[] {
  return slowestK(rs, tailCount(rs.length, fraction));
}

const bySlowness = (a: { durationMSec: number; startMSec: number }, b: { durationMSec: number; startMSec: number }): number =>
  b.durationMSec - a.durationMSec || a.startMSec - b.startMSec;

/**
 * The `k` slowest, slowest first; ties by start. For a small k, only the requests at least as slow
 * as the k-th slowest are sorted by the comparator (the cut found by a native numeric sort): a
 * live recording's findings sorted all of 150,000 requests' objects twice per tail. The same
 * requests in the same order as sorting them all.
 */
export function slowestK<T extends { durationMSec: number; startMSec: number }>(rs: readonly T[], k: number, sortedDurations?: Float64Array): T[] {
  if (k <= 0) return [];
  if (k * 4 >= rs.length) return [...rs].sort(bySlowness).slice(0, k);
  const d = sortedDurations ?? sortedDurationsOf(rs);
  const cut = d[rs.length - k]!;
  return rs
    .filter((r) => r.durationMSec >= cut)
    .sort(bySlowness)
    .slice(0, k);
}

function sortedDurationsOf(rs: readonly { durationMSec: number }[]): Float64Array {
  const d = new Float64Array(rs.length);
  for (let i = 0; i < rs.length; i++) d[i] = rs[i]!.durationMSec;
  return d.sort();
}

export function summarizeLatency(rs: readonly AttributedRequest[]): RequestLatencySummary {
  // The latencies sorted once: their percentiles, and the cut of each tail (slowestK).
  const durations = sortedDurationsOf(rs);
  const withoutGc = new Float64Array(rs.length);
  let paused = 0;
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]!;
    withoutGc[i] = Math.max(0, r.durationMSec - r.gcPauseMSec);
    if (r.gcPauseMSec > 0) paused++;
  }
  return {
    count: rs.length,
    pausedCount: paused,
    latency: percentiles(durations),
    latencyWithoutGc: percentiles(withoutGc.sort()),
    all: share(rs),
    slowest1Percent: share(slowestK(rs, tailCount(rs.length, 0.01), durations)),
    slowest5Percent: share(slowestK(rs, tailCount(rs.length, 0.05), durations)),
  };
}
