/**
 * The Requests lane's columns (shared/requests.ts RequestLaneData) from a session's spans and
 * pauses: the request group, each request's GC pause time and GCs, in start order. Pure.
 */
import type { RequestLaneData } from '../shared/requests.js';
import { attributePauses } from './latency.js';
import { requestGroup } from './report.js';
import type { PauseInterval, RequestSpan } from './spans.js';

export function requestLaneData(spans: readonly RequestSpan[], pauses: readonly PauseInterval[]): RequestLaneData {
  const group = requestGroup(spans);
  const chosen = spans.filter((s) => s.group === group).sort((a, b) => a.startMSec - b.startMSec);
  const a = attributePauses(chosen, pauses).requests;
  const names: string[] = [];
  const nameOf = new Map<string, number>();
  const gcOffsets = new Uint32Array(a.length + 1);
  const gcs: number[] = [];
  const nameIndex = new Uint32Array(a.length);
  a.forEach((q, i) => {
    let k = nameOf.get(q.name);
    if (k === undefined) {
      k = names.length;
      names.push(q.name);
      nameOf.set(q.name, k);
    }
    nameIndex[i] = k;
    gcOffsets[i] = gcs.length;
    gcs.push(...q.gcNumbers);
  });
  gcOffsets[a.length] = gcs.length;
  return {
    group,
    startMSec: Float64Array.from(a, (q) => q.startMSec),
    durationMSec: Float64Array.from(a, (q) => q.durationMSec),
    gcPauseMSec: Float64Array.from(a, (q) => q.gcPauseMSec),
    nameIndex,
    names,
    gcOffsets,
    gcNumbers: Float64Array.from(gcs),
  };
}
