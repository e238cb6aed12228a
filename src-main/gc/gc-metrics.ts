/**
 * Per-GC derived metrics, computed as TraceEvent's `TraceGC.OnEnd` does when a GC completes
 * (docs/formats.md §4.4): allocation since the previous GC (from per-heap history when this and the
 * previous GC have it, else from AllocationTick), heap size before / peak, pause percentage since
 * the previous GC, pinning. Each function reads only this GC and its neighbours in `gcs`.
 */
import { upperBound } from '../shared/sorted.js';
import { Gen, GCType, objSizeAfter, objSpaceBefore, validGenData, type TraceGC } from './trace-gc.js';

/** What one GC's metrics may read of the others: the GC list (sparse for long-evicted entries). */
export type GCList = readonly (TraceGC | undefined)[];

function prev(gcs: GCList, gc: TraceGC): TraceGC | undefined {
  return gc.index > 0 ? gcs[gc.index - 1] : undefined;
}

/** Bytes of a generation allocated on one heap since the previous GC (V3 per-heap layout). */
function userAllocatedPerHeap(gcs: GCList, gc: TraceGC, heap: number, gen: Gen): number {
  if (!validGenData(gc.perHeapHistories, gen)) return 0;
  let prevObjSize = 0;
  const p = prev(gcs, gc);
  if (p !== undefined) {
    const ph = p.perHeapHistories;
    if (ph.length > 0 && heap < ph.length) {
      const pg = ph[heap]!.generations[gen];
      if (pg !== undefined) {
        prevObjSize = objSizeAfter(pg);
        // LOH/POH "after" sizes are only updated by GCs that collect them: after a gen0 GC use the
        // size before instead.
        if ((gen === Gen.Loh || gen === Gen.Poh) && prevObjSize === 0 && p.generation < Gen.Gen1) prevObjSize = objSpaceBefore(pg);
      }
    }
  }
  const cur = gc.perHeapHistories[heap]!.generations[gen]!;
  return objSpaceBefore(cur) - prevObjSize;
}

/** UserAllocated[gen] for gen0, LOH, POH (MB). */
export function userAllocated(gcs: GCList, gc: TraceGC, gen: Gen): number {
  if (gc.type === GCType.Background && gen === Gen.Gen0) return gc.allocedSinceLastGCBasedOnAllocTickMB[0];
  const p = prev(gcs, gc);
  if (gc.perHeapHistories.length > 0 && gc.index > 0 && p !== undefined && p.perHeapHistories.length > 0) {
    let total = 0;
    for (let i = 0; i < gc.perHeapHistories.length; i++) total += userAllocatedPerHeap(gcs, gc, i, gen) / 1e6;
    return total;
  }
  // TraceEvent's fallback indexes the alloc-tick array with 0 for gen0 and 1 for both LOH and POH.
  return gc.allocedSinceLastGCBasedOnAllocTickMB[gen === Gen.Gen0 ? 0 : 1];
}

export function allocedSinceLastGCMB(gcs: GCList, gc: TraceGC): number {
  return userAllocated(gcs, gc, Gen.Gen0) + userAllocated(gcs, gc, Gen.Loh) + userAllocated(gcs, gc, Gen.Poh);
}

/** Size of a generation before the GC (MB): per-heap history, else estimated from the previous GC. */
export function genSizeBeforeMB(gcs: GCList, gc: TraceGC, gen: Gen): number {
  if (validGenData(gc.perHeapHistories, gen)) {
    let r = 0;
    for (const h of gc.perHeapHistories) {
      const g = h.generations[gen];
      if (g !== undefined) r += g.sizeBefore / 1e6;
    }
    return r;
  }
  const gen0FromTicks = gen === Gen.Gen0 ? gc.allocedSinceLastGCBasedOnAllocTickMB[0] : 0;
  if (gc.index === 0) return gen === Gen.Gen0 ? gen0FromTicks : 0;
  // The most recent earlier GC with HeapStats (TraceEvent stops at index 0 without using it).
  let hs;
  for (let j = gc.index - 1; ; j--) {
    if (j === 0) return 0;
    const g = gcs[j];
    if (g === undefined) return 0;
    hs = g.heapStats;
    if (hs !== undefined) break;
  }
  switch (gen) {
    case Gen.Gen0:
      return Math.max(hs.generationSize[0] / 1e6, gen0FromTicks);
    case Gen.Gen1:
      return hs.generationSize[1] / 1e6;
    case Gen.Gen2:
      return hs.generationSize[2] / 1e6;
    default:
      return gc.heapStats !== undefined ? Math.max(hs.generationSize[gen], gc.heapStats.generationSize[gen]) / 1e6 : hs.generationSize[gen] / 1e6;
  }
}

export function heapSizeBeforeMB(gcs: GCList, gc: TraceGC): number {
  let r = 0;
  for (let g = Gen.Gen0; g <= Gen.Poh; g++) r += genSizeBeforeMB(gcs, gc, g);
  return r;
}

/** Peak heap: the size before; for a background GC, the largest size before any GC during it. */
export function heapSizePeakMB(gcs: GCList, gc: TraceGC): number {
  let r = heapSizeBeforeMB(gcs, gc);
  if (gc.type === GCType.Background) {
    const end = gc.pauseStartRelativeMSec + gc.durationMSec;
    for (let i = gc.index + 1; i < gcs.length; i++) {
      const other = gcs[i];
      if (other === undefined || end < other.pauseStartRelativeMSec) break;
      r = Math.max(r, heapSizeBeforeMB(gcs, other));
    }
  }
  return r;
}

export function pauseTimePercentageSinceLastGC(gcs: GCList, gc: TraceGC): number {
  if (gc.type === GCType.Background) {
    const p = prev(gcs, gc);
    const previousEnd = p !== undefined ? p.startRelativeMSec + p.durationMSec : (gcs[0]?.startRelativeMSec ?? gc.startRelativeMSec);
    return (gc.pauseDurationMSec * 100) / (gc.startRelativeMSec + gc.durationMSec - previousEnd);
  }
  return (gc.pauseDurationMSec * 100) / (gc.pauseDurationMSec + gc.durationSinceLastRestartMSec);
}

/** Pinned object bytes and the share of pinned-plug bytes they explain (TraceEvent's pinning columns). */
/**
 * Marks each plug that holds a pinned object: TraceEvent takes, per object, the first plug in list
 * order whose [start, end) contains its address. The runtime reports a GC's plugs in address order
 * without overlap, so a binary search finds that same plug (one plug at most can contain an
 * address); plugs out of order or overlapping fall back to TraceEvent's linear scan.
 */
export function markUserPlugs(plugs: readonly { start: number; end: number }[], objects: { keys(): Iterable<number> }, byUser: boolean[]): void {
  let ordered = true;
  for (let i = 0; i < plugs.length; i++) {
    if (plugs[i]!.start > plugs[i]!.end || (i > 0 && plugs[i]!.start < plugs[i - 1]!.end)) {
      ordered = false;
      break;
    }
  }
  const starts = ordered ? Float64Array.from(plugs, (p) => p.start) : new Float64Array(0);
  for (const addr of objects.keys()) {
    if (!ordered) {
      const i = plugs.findIndex((p) => addr >= p.start && addr < p.end);
      if (i >= 0) byUser[i] = true;
      continue;
    }
    // The last plug starting at or below addr is the only one that can contain it.
    const at = upperBound(starts, addr) - 1;
    if (at >= 0 && addr < plugs[at]!.end) byUser[at] = true;
  }
}

function computePinning(gc: TraceGC): void {
  let sizes = 0;
  if (gc.pinnedObjects !== undefined) sizes = gc.pinnedObjects.sizeSum();
  gc.pinnedObjectSizes = sizes;
  let total = 0;
  let user = 0;
  if (gc.pinnedPlugs !== undefined) {
    const byUser = new Array<boolean>(gc.pinnedPlugs.length).fill(false);
    if (gc.pinnedObjects !== undefined) markUserPlugs(gc.pinnedPlugs, gc.pinnedObjects, byUser);
    gc.pinnedPlugs.forEach((p, i) => {
      total += p.end - p.start;
      if (byUser[i]) user += p.end - p.start;
    });
  }
  gc.totalPinnedPlugSize = total;
  gc.totalUserPinnedPlugSize = user;
  gc.pinnedObjectPercentage = total === 0 ? -1 : Math.trunc((sizes * 100) / total);
}

/** Computes every derived metric of a completed GC (TraceEvent's OnEnd). */
export function computeGCMetrics(gcs: GCList, gc: TraceGC): void {
  if (gc.pinnedObjects !== undefined || gc.pinnedPlugs !== undefined) computePinning(gc);
  gc.allocedSinceLastGCMB = allocedSinceLastGCMB(gcs, gc);
  gc.heapSizePeakMB = heapSizePeakMB(gcs, gc);
  const after = gc.heapSizeAfterMB;
  gc.ratioPeakAfter = after === 0 ? 0 : gc.heapSizePeakMB / after;
  gc.allocRateMBSec = (gc.allocedSinceLastGCMB * 1000) / gc.durationSinceLastRestartMSec;
  gc.userAllocated[Gen.Gen0] = userAllocated(gcs, gc, Gen.Gen0);
  gc.userAllocated[Gen.Loh] = userAllocated(gcs, gc, Gen.Loh);
  gc.userAllocated[Gen.Poh] = userAllocated(gcs, gc, Gen.Poh);
  gc.heapSizeBeforeMB = heapSizeBeforeMB(gcs, gc);
  for (let g = Gen.Gen0; g <= Gen.Poh; g++) gc.genSizeBeforeMB[g] = genSizeBeforeMB(gcs, gc, g);
  gc.pauseTimePercentageSinceLastGC = pauseTimePercentageSinceLastGC(gcs, gc);
}
