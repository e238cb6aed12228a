/**
 * A session's requests (issue 42) for the Requests lane and a GC's detail, fetched once per
 * session and shared; `refresh` fetches again (a recording's requests grow).
 */
import type { RequestLaneData } from '../../src-main/shared/requests';
import { api } from './api';

const cache = new Map<number, Promise<RequestLaneData>>();

export function requestData(sessionId: number): Promise<RequestLaneData> {
  let p = cache.get(sessionId);
  if (p === undefined) {
    p = api.getRequestSpans(sessionId);
    cache.set(sessionId, p);
    // A failed fetch is not kept: the next caller asks again.
    p.catch(() => cache.delete(sessionId));
  }
  return p;
}

export function refreshRequestData(sessionId: number): Promise<RequestLaneData> {
  cache.delete(sessionId);
  return requestData(sessionId);
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
