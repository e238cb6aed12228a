/**
 * Heap snapshots taken from a live recording (issue 38), as the recording shows them: a mark on
 * its time axis at the induced gen2 GC that walked the heap, that GC labelled as the snapshot's in
 * the pause lane, the table and the GC detail. The link is stored (the snapshot's GC number and
 * its time on the recording's clock), so a recording reviewed later shows the same marks. Pure:
 * the service resolves a mark's time from the recording's GCs, the renderer labels its GCs.
 */

/** A snapshot taken while a recording ran, as that recording shows it. */
export interface SnapshotMark {
  /** The snapshot: a session of kind 'heap'. */
  snapshotSessionId: number;
  name: string;
  /** The runtime's number of the induced gen2 GC that walked the heap (GCStart's Count); null if the walk did not say. */
  gcNumber: number | null;
  /** That GC's pause start on the recording's clock (ms since its trace began); null until the recording has that GC. */
  atMSec: number | null;
  objects: number;
  bytes: number;
  /** When the heap was walked (ISO-8601), for the tooltip. */
  takenAt: string | null;
}

/** What a Snapshot taken from a live recording answers. */
export interface LiveSnapshotTaken {
  sessionId: number;
  objects: number;
  bytes: number;
  mark: SnapshotMark;
}

/** The columns these functions read: GC number, pause start (ms), complete (0/1), heap after the GC (MB). */
export interface MarkColumns {
  readonly number: ArrayLike<number>;
  readonly time: ArrayLike<number>;
  readonly complete: ArrayLike<number>;
  readonly heapAfter: ArrayLike<number>;
}

/**
 * The heap's size after the recording's last complete GC, in bytes (MB as TraceEvent counts them:
 * 10^6 bytes), or null before any GC with a heap size: what a snapshot says before it pauses the
 * process, from the recording rather than a counters session of its own.
 */
export function lastGcHeapBytes(c: Pick<MarkColumns, 'complete' | 'heapAfter' | 'time'>): number | null {
  let best = -1;
  for (let i = 0; i < c.complete.length; i++) {
    if (c.complete[i] !== 1 || !Number.isFinite(c.heapAfter[i]!)) continue;
    if (best < 0 || c.time[i]! >= c.time[best]!) best = i;
  }
  return best < 0 ? null : Math.round(c.heapAfter[best]! * 1e6);
}

/** The pause start (ms) of the GC numbered `gcNumber` in the columns, or null when the recording has no such GC. */
export function gcTimeByNumber(c: Pick<MarkColumns, 'number' | 'time'>, gcNumber: number): number | null {
  // Newest first: the walk's GC is among the last ones when asked right after the snapshot.
  for (let i = c.number.length - 1; i >= 0; i--) if (c.number[i] === gcNumber && Number.isFinite(c.time[i]!)) return c.time[i]!;
  return null;
}

/** Marks whose time is not known yet, with it filled in from the recording's GCs where it has their GC. */
export function resolveMarkTimes(marks: readonly SnapshotMark[], c: Pick<MarkColumns, 'number' | 'time'>): SnapshotMark[] {
  return marks.map((m) => {
    if (m.atMSec !== null || m.gcNumber === null) return m;
    const t = gcTimeByNumber(c, m.gcNumber);
    return t === null ? m : { ...m, atMSec: t };
  });
}

/** GC number → the snapshot whose heap walk that GC was (a GC walks at most one heap). */
export function snapshotsByGcNumber(marks: readonly SnapshotMark[]): ReadonlyMap<number, SnapshotMark> {
  const out = new Map<number, SnapshotMark>();
  for (const m of marks) if (m.gcNumber !== null) out.set(m.gcNumber, m);
  return out;
}

/** The label a snapshot's GC carries wherever that GC is shown. */
export function snapshotGcLabel(m: SnapshotMark): string {
  return `heap snapshot: ${m.name}`;
}

/**
 * Where a mark sits on the time axis: its left edge as a share of the window [min, max] (seconds
 * since the trace began), or null when it has no time yet or lies outside the window.
 */
export function markPosition(m: SnapshotMark, xRange: { min: number; max: number }): number | null {
  if (m.atMSec === null) return null;
  const x = m.atMSec / 1000;
  const span = xRange.max - xRange.min;
  if (!(span > 0) || x < xRange.min || x > xRange.max) return null;
  return (x - xRange.min) / span;
}

/** One type's growth between two snapshots of a process (second minus first). */
export interface HeapGrowerView {
  name: string;
  count: number;
  bytes: number;
  countDelta: number;
  bytesDelta: number;
  retainedBytesDelta: number;
}

/**
 * The growing-live-set finding's cause (issue 38): the last two snapshots of the recorded process,
 * the types that grew most between them, and the path from a root to the top grower.
 */
export interface HeapGrowthView {
  before: { sessionId: number; name: string; takenAt: string | null; untypedObjects: number };
  after: { sessionId: number; name: string; takenAt: string | null; untypedObjects: number };
  /** Biggest growers first (by bytes, then count); only types that grew. */
  growers: HeapGrowerView[];
  /** The top grower's path to root (from the root to an instance), or null when it has none (unreachable). */
  topPath: { type: string; instances: number; nodes: { name: string }[] } | null;
}
