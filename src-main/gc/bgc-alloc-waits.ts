/**
 * LOH allocation waits during background GCs: TraceEvent's `TraceGC.LOHWaitThreads`, what PerfView
 * GCStats lists as "LOH Allocation Pause (due to background GC)" (docs/formats.md §3.7, §4.2 item
 * 15). While a background GC runs, the GC limits how much the large (and pinned) object heaps may
 * grow — a thread that allocates more waits until the BGC is done (runtime gc.cpp,
 * `background_gc_wait`). The private provider (Microsoft-Windows-DotNETRuntimePrivate, keyword
 * 0x1, Informational) reports each wait as BGCAllocWaitBegin (id 23) and BGCAllocWaitEnd (id 24)
 * on the waiting thread, with the wait reason; only three reasons are LOH waits (TraceEvent's
 * `BGCAllocWaitReason`): GetLOHSeg (9), AllocDuringSweep (10), AllocDuringBGC (11).
 *
 * Pairing: a begin opens a wait on its thread, attributed to the background GC in progress (no
 * BGC: not a LOH wait, as TraceEvent ignores it); the next end on that thread closes it. A second
 * begin while one is open is ignored (TraceEvent keeps the first start too). An end without an
 * open wait (its begin came before the trace started) and a wait still open when the trace ends
 * have no length and are not counted. The waiting thread wakes only after the BGC has reported its
 * HeapStats (the GC is complete by then), so the end usually updates a completed GC.
 *
 * TraceEvent keeps one entry per thread per BGC (first start, last stop); here every begin/end
 * pair is its own wait. They differ only if one thread waited twice during one BGC, which the
 * runtime's reasons 10/11 make all but impossible (the thread waits until the BGC ends).
 */
export const LOH_WAIT_REASONS: ReadonlySet<number> = new Set([9, 10, 11]);

export interface LohAllocWait {
  threadId: number;
  /** BGCAllocWaitReason: 9 GetLOHSeg, 10 AllocDuringSweep, 11 AllocDuringBGC. */
  reason: number;
  startMSec: number;
  durationMSec: number;
}

/** A GC that can hold LOH waits (TraceGC). */
export interface WaitHolder {
  /** Undefined until the private provider was seen during this BGC; [] when it was and no LOH allocation waited. */
  lohAllocWaits: LohAllocWait[] | undefined;
}

export class BgcAllocWaitPairer<G extends WaitHolder> {
  private readonly open = new Map<number, { gc: G; reason: number; startMSec: number }>();

  /** BGCAllocWaitBegin on `threadId` at `t`, during background GC `bgc` (undefined: none running). */
  begin(bgc: G | undefined, threadId: number, reason: number, t: number): void {
    if (bgc === undefined || !LOH_WAIT_REASONS.has(reason)) return;
    bgc.lohAllocWaits ??= [];
    if (!this.open.has(threadId)) this.open.set(threadId, { gc: bgc, reason, startMSec: t });
  }

  /** BGCAllocWaitEnd on `threadId` at `t`: the GC the closed wait was added to, if any. */
  end(threadId: number, t: number): G | undefined {
    const w = this.open.get(threadId);
    if (w === undefined) return undefined;
    this.open.delete(threadId);
    (w.gc.lohAllocWaits ??= []).push({ threadId, reason: w.reason, startMSec: w.startMSec, durationMSec: t - w.startMSec });
    return w.gc;
  }
}

/** The per-GC columns: longest wait, total of waits and their count; null where not measured. */
export function lohWaitColumns(gc: WaitHolder): { lohAllocWaitMaxMSec: number | null; lohAllocWaitTotalMSec: number | null; lohAllocWaitCount: number | null } {
  const w = gc.lohAllocWaits;
  if (w === undefined) return { lohAllocWaitMaxMSec: null, lohAllocWaitTotalMSec: null, lohAllocWaitCount: null };
  let max = 0;
  let total = 0;
  for (const x of w) {
    max = Math.max(max, x.durationMSec);
    total += x.durationMSec;
  }
  return { lohAllocWaitMaxMSec: max, lohAllocWaitTotalMSec: total, lohAllocWaitCount: w.length };
}
