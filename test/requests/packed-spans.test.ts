/**
 * Request spans packed as columns for the findings worker (requests/packed-spans.ts) come back
 * exactly as they went: times, durations, groups and names, shared strings stored once.
 */
import { describe, expect, it } from 'vitest';
import { packSpans, unpackSpans, withUnpackedRequests } from '../../src-main/requests/packed-spans.js';

describe('request spans packed for the findings worker', () => {
  it('round-trips every field, keeps each distinct string once, and leaves facts without requests as they are', () => {
    const spans = Array.from({ length: 1000 }, (_, i) => ({
      startMSec: i * 1.5 + 0.125,
      durationMSec: (i % 13) * 0.7,
      group: i % 3 === 0 ? 'System.Net.Http/Request' : 'Microsoft-AspNetCore-Server-Kestrel/Request',
      name: i % 2 === 0 ? `GET /item/${i % 5}` : '',
    }));
    const packed = packSpans(spans);
    expect(packed.strings.length).toBe(2 + 5 + 1);
    expect(unpackSpans(packed)).toEqual(spans);
    expect(unpackSpans(packSpans([]))).toEqual([]);
    const facts = { gcMode: 'workstation' };
    expect(withUnpackedRequests(facts, undefined)).toBe(facts);
    const pauses = [{ startMSec: 1, endMSec: 2, gcNumber: 1, generation: 0, type: 0 }];
    expect(withUnpackedRequests(facts, { spans: packed, pauses })).toEqual({ gcMode: 'workstation', requests: { spans, pauses } });
  });
});
