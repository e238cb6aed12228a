/**
 * Where a blocking GC's pause went (shared/server-gc.ts pauseBreakdown): stopping the threads, the
 * slowest heap's marking (summed over root kinds; the heaps mark in parallel), and the rest that
 * no event times. A 400 ms pause beside ~1 ms of marking per heap said nothing of the other 399 ms.
 */
import { describe, expect, it } from 'vitest';
import { pauseBreakdown, type HeapBalanceRow } from '../../src-main/shared/server-gc.js';

const heap = (n: number, markMSec: number[]): HeapBalanceRow => ({ heap: n, survivedBytes: 0, markBytes: markMSec.map(() => 0), markMSec });

describe("a blocking GC's pause, split", () => {
  it('takes the heap with the longest marking over all its root kinds, and leaves the rest of the pause after suspension and marking', () => {
    const b = pauseBreakdown([heap(0, [0.4, 0.3, 0.1]), heap(1, [0.2, 0.9, 0]), heap(2, [])], 400, 2.5, false);
    expect(b).toMatchObject({ slowestHeap: 1, suspendMSec: 2.5 });
    expect(b!.markMSec).toBeCloseTo(1.1, 12);
    expect(b!.restMSec).toBeCloseTo(400 - 2.5 - 1.1, 9);
  });
  it('says nothing for a background GC (it marks concurrently), without mark times, or without a pause; never a negative rest', () => {
    expect(pauseBreakdown([heap(0, [5])], 400, 1, true)).toBeNull();
    expect(pauseBreakdown([heap(0, [0, 0])], 400, 1, false)).toBeNull();
    expect(pauseBreakdown([], 400, 1, false)).toBeNull();
    expect(pauseBreakdown([heap(0, [5])], 0, 0, false)).toBeNull();
    expect(pauseBreakdown([heap(0, [5])], 4, 1, false)!.restMSec).toBe(0);
    expect(pauseBreakdown([heap(0, [5])], 10, Number.NaN, false)).toMatchObject({ suspendMSec: 0, restMSec: 5 });
  });
});
