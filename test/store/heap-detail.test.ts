/**
 * Per-heap history is stored as one array of numbers per generation (gc_heaps.gens) and read back
 * by name (common/heap-history.ts HEAP_GENERATION_FIELDS): a generation written through GcWriter
 * comes back from getHeapDetail with every value under the name it was written with, and the
 * survivors the diagnosis reads are the pinned plus non-pinned ones.
 */
import { describe, expect, it } from 'vitest';
import { HEAP_GENERATION_FIELDS, type HeapGenerationHistory, type HeapHistory } from '../../src-main/common/heap-history.js';
import { Database } from '../../src-main/store/db.js';
import { GcWriter, getHeapDetail, getPerHeapSurvivedMB } from '../../src-main/store/gc-store.js';
import { createSession } from '../../src-main/store/sessions.js';

/** Distinct values, so a value read from the wrong position shows. */
function generation(seed: number): HeapGenerationHistory {
  const g = {} as HeapGenerationHistory;
  HEAP_GENERATION_FIELDS.forEach((k, i) => (g[k] = seed * 1e6 + (i + 1) * 1000));
  return g;
}

function heap(heapIndex: number): HeapHistory {
  return {
    heapIndex,
    freeListAllocated: 1,
    freeListRejected: 2,
    endOfSegAllocated: 3,
    condemnedAllocated: 4,
    pinnedAllocated: 5,
    condemnReasons0: 6,
    condemnReasons1: 7,
    compactMechanisms: 8,
    expandMechanisms: 9,
    extraGen0Commit: 10,
    generations: [0, 1, 2, 3, 4].map((g) => generation(heapIndex * 10 + g)),
  };
}

describe('per-heap values by name', () => {
  it('every field of a generation has a stored position', () => {
    // tsc fails this line when HeapGenerationHistory gains a field HEAP_GENERATION_FIELDS lacks.
    const everyFieldPlaced: [Exclude<keyof HeapGenerationHistory, (typeof HEAP_GENERATION_FIELDS)[number]>] extends [never] ? true : false = true;
    expect(everyFieldPlaced).toBe(true);
    expect(new Set(HEAP_GENERATION_FIELDS).size).toBe(HEAP_GENERATION_FIELDS.length);
  });

  it('a generation written by GcWriter reads back under the same names', async () => {
    const db = await Database.open(':memory:');
    try {
      const id = await createSession(db, { kind: 'gc', name: 'heaps', source: 'import', status: 'complete' });
      const w = new GcWriter(db, id);
      const heaps = [heap(0), heap(1)];
      w.addHeaps(0, heaps);
      await w.close();
      const detail = await getHeapDetail(db, id, 0);
      expect(detail.map((h) => h.heap)).toEqual([0, 1]);
      expect(detail.map((h) => h.gens)).toEqual(heaps.map((h) => h.generations));
      const survived = (await getPerHeapSurvivedMB(db, id)).get(0)!;
      expect(survived).toEqual(heaps.map((h) => h.generations.map((g) => (g.pinnedSurv + g.nonePinnedSurv) / 1e6)));
    } finally {
      await db.close();
    }
  });
});
