/**
 * One heap's history for one GC, as the store keeps it (GCPerHeapHistory, docs/formats.md §3.5: per heap,
 * allocation counters, condemned reasons, mechanisms, and ten values per generation). The decoder
 * (clr/gc-events.ts) produces records of this shape; the store depends on this type, not on the
 * decoder's. Types, and the order of a generation's values (code reads them by name).
 */

/** One generation's values (bytes). */
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
  freeListAllocated: number;
  freeListRejected: number;
  endOfSegAllocated: number;
  condemnedAllocated: number;
  pinnedAllocated: number;
  condemnReasons0: number;
  condemnReasons1: number;
  compactMechanisms: number;
  expandMechanisms: number;
  extraGen0Commit: number;
  /** gen0, gen1, gen2, LOH[, POH]. */
  generations: readonly HeapGenerationHistory[];
}
