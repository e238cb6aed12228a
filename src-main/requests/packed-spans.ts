/**
 * Request spans as columns, for crossing to a worker thread. The findings' worker was sent a
 * session's spans as objects on every findings request: structured-cloning 150,000 of them
 * (two strings each) took 0.2–0.4 s, more than the diagnosis itself, and a live recording's
 * findings fell behind its lanes. As typed arrays and one table of distinct strings the copy is a
 * few MB of memcpy. Pure.
 */
import type { PauseInterval, RequestSpan } from '../shared/requests.js';

export interface PackedSpans {
  startMSec: Float64Array;
  durationMSec: Float64Array;
  /** Index into `strings` of each span's group, and of its name. */
  group: Uint32Array;
  name: Uint32Array;
  strings: string[];
}

export function packSpans(spans: readonly RequestSpan[]): PackedSpans {
  const n = spans.length;
  const p: PackedSpans = {
    startMSec: new Float64Array(n),
    durationMSec: new Float64Array(n),
    group: new Uint32Array(n),
    name: new Uint32Array(n),
    strings: [],
  };
  const index = new Map<string, number>();
  const intern = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = p.strings.length;
      p.strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    const s = spans[i]!;
    p.startMSec[i] = s.startMSec;
    p.durationMSec[i] = s.durationMSec;
    p.group[i] = intern(s.group);
    p.name[i] = intern(s.name);
  }
  return p;
}

export function unpackSpans(p: PackedSpans): RequestSpan[] {
  const n = p.startMSec.length;
  const out = new Array<RequestSpan>(n);
  for (let i = 0; i < n; i++)
    out[i] = { startMSec: p.startMSec[i]!, durationMSec: p.durationMSec[i]!, group: p.strings[p.group[i]!]!, name: p.strings[p.name[i]!]! };
  return out;
}

/** A diagnosis's request facts as they cross to the worker. */
export interface PackedRequests {
  spans: PackedSpans;
  pauses: readonly PauseInterval[];
}

/** `facts` with its packed requests as the rules read them (spans as objects again); as it is without. */
export function withUnpackedRequests<F extends object>(
  facts: F,
  requests: PackedRequests | undefined,
): F & { requests?: { spans: RequestSpan[]; pauses: readonly PauseInterval[] } } {
  return requests === undefined ? facts : { ...facts, requests: { spans: unpackSpans(requests.spans), pauses: requests.pauses } };
}
