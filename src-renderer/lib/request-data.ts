/**
 * A session's requests (issue 42) for the Requests lane, its tiles and a GC's detail, fetched once
 * per session and shared by whoever watches it. A recording's grow with its live batches, as its
 * GC lanes do: each batch's delta (LiveBatch.requests) is applied to the lane the service answered
 * with (shared/requests.ts applyRequestDelta) and the watchers get the new data. The batch stream
 * is subscribed to before the fetch, so no delta falls between them; one the fetched lane already
 * has is skipped, and after a missing one the lane is fetched again.
 */
import { applyRequestDelta, type RequestLaneData, type RequestLaneDelta } from '../../src-main/shared/requests';
import { api, on } from './api';

interface Entry {
  data: RequestLaneData | null;
  watchers: Set<(d: RequestLaneData) => void>;
  /** Deltas that came before the fetched lane. */
  early: RequestLaneDelta[];
  stop: () => void;
  /** Bumped by each fetch: an older fetch's answer is dropped. */
  fetches: number;
}

const entries = new Map<number, Entry>();

function publish(e: Entry, d: RequestLaneData): void {
  e.data = d;
  for (const w of e.watchers) w(d);
}

function apply(sessionId: number, e: Entry, x: RequestLaneDelta): void {
  if (e.data === null) {
    e.early.push(x);
    return;
  }
  const next = applyRequestDelta(e.data, x);
  if (next === null) fetchLane(sessionId, e, () => undefined);
  else if (next !== e.data) publish(e, next);
}

function fetchLane(sessionId: number, e: Entry, onError: (err: unknown) => void): void {
  const n = ++e.fetches;
  e.data = null;
  api.getRequestSpans(sessionId).then(
    (d) => {
      if (entries.get(sessionId) !== e || e.fetches !== n) return;
      e.data = d;
      const early = e.early;
      e.early = [];
      let cur: RequestLaneData | null = d;
      for (const x of early) {
        cur = cur === null ? null : applyRequestDelta(cur, x);
      }
      if (cur === null) fetchLane(sessionId, e, onError);
      else publish(e, cur);
    },
    (err: unknown) => {
      if (entries.get(sessionId) === e && e.fetches === n) onError(err);
    },
  );
}

/**
 * Calls `cb` with the session's requests now (once fetched) and again each time a live batch
 * changes them; returns the function that stops watching. A failed fetch goes to `onError`.
 */
export function watchRequestData(sessionId: number, cb: (d: RequestLaneData) => void, onError: (err: unknown) => void = () => undefined): () => void {
  let e = entries.get(sessionId);
  if (e === undefined) {
    const entry: Entry = { data: null, watchers: new Set(), early: [], stop: () => undefined, fetches: 0 };
    entry.stop = on('live-batch', (b) => {
      if (b.sessionId === sessionId && b.requests !== undefined) apply(sessionId, entry, b.requests);
    });
    entries.set(sessionId, entry);
    e = entry;
    fetchLane(sessionId, entry, (err) => {
      // A failed fetch is not kept: the next watcher asks again.
      if (entries.get(sessionId) === entry) {
        entries.delete(sessionId);
        entry.stop();
      }
      onError(err);
    });
  } else if (e.data !== null) cb(e.data);
  e.watchers.add(cb);
  const entry = e;
  return () => {
    entry.watchers.delete(cb);
    if (entry.watchers.size === 0 && entries.get(sessionId) === entry) {
      entries.delete(sessionId);
      entry.stop();
    }
  };
}

/** Indexes of the requests GC `gcNumber` paused, slowest first. */
export function requestsPausedBy(d: RequestLaneData, gcNumber: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < d.startMSec.length; i++) {
    for (let k = d.gcOffsets[i]!; k < d.gcOffsets[i + 1]!; k++) {
      if (d.gcNumbers[k] === gcNumber) {
        out.push(i);
        break;
      }
    }
  }
  return out.sort((a, b) => d.durationMSec[b]! - d.durationMSec[a]!);
}

/**
 * How many requests started in [fromMSec, toMSec) (rows are in start order). Just after a blocking
 * GC's pause ends, these are mostly requests that arrived during it and waited unread in their
 * sockets: a span starts when the server reads the request, so that wait is in no request's
 * latency (the GC share is a lower bound of what clients saw).
 */
export function requestsStartedIn(d: RequestLaneData, fromMSec: number, toMSec: number): number {
  const at = (v: number): number => {
    let lo = 0;
    let hi = d.startMSec.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (d.startMSec[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return at(toMSec) - at(fromMSec);
}
