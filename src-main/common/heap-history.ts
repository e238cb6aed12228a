/**
 * One heap's history for one GC, as the store keeps it (GCPerHeapHistory, docs/formats.md §3.5: per heap,
 * allocation counters, condemned reasons, mechanisms, and ten values per generation). The decoder
 * (clr/gc-events.ts) produces records of this shape; the store depends on this type, not on the
 * decoder's. Types, and the order of a generation's values (code reads them by name).
 */

/**
 * One generation's values (bytes). .NET Framework 4.5.x's private layout (clr/gc-events.ts
 * decodePerHeapHistoryV2) gives what survived as one total, not split by pinning: it is kept in
 * nonePinnedSurv with pinnedSurv 0, so their sum (what every reader uses) is the runtime's.
 */
export interface HeapGenerationHistory {
  sizeBefore: number;
  freeListSpaceBefore: number;
  freeObjSpaceBefore: number;
  sizeAfter: number;
  freeListSpaceAfter: number;
  freeObjSpaceAfter: number;
  in: number;
  pinnedSurv: number;
  nonePinnedSurv: number;
  newAllocation: number;
}

/**
 * A generation's ten values in GCPerHeapHistory's payload order, which is also the order the store
 * keeps them in (gc_heaps.gens, one array per generation): the one place that maps a position to
 * its name, so no reader indexes them by number.
 */
export const HEAP_GENERATION_FIELDS = [
  'sizeBefore',
  'freeListSpaceBefore',
  'freeObjSpaceBefore',
  'sizeAfter',
  'freeListSpaceAfter',
  'freeObjSpaceAfter',
  'in',
  'pinnedSurv',
  'nonePinnedSurv',
  'newAllocation',
] as const satisfies readonly (keyof HeapGenerationHistory)[];

export interface HeapHistory {
  /** The heap's number (undefined in versions that do not carry it: the position stands in). */
  heapIndex: number | undefined;
  /**
   * The allocation counters (V3+, .NET Framework 4.6+ and .NET Core): null in .NET Framework
   * 4.5.x's private layout, which has none.
   */
  freeListAllocated: number | null;
  freeListRejected: number | null;
  endOfSegAllocated: number | null;
  condemnedAllocated: number | null;
  pinnedAllocated: number | null;
  condemnReasons0: number;
  condemnReasons1: number;
  compactMechanisms: number;
  expandMechanisms: number;
  /** Null where the layout has none (.NET Framework 4.5's private layout; 4.5.2's has it). */
  extraGen0Commit: number | null;
  /** gen0, gen1, gen2, LOH[, POH]. */
  generations: readonly HeapGenerationHistory[];
}
