/**
 * The session view's GC filter (generation, kind, trigger reason, minimum pause), defined once:
 * the renderer's table rows and filter mask, and the service's filtered range summary (the
 * tiles) apply this same predicate, so the tiles always describe the rows the table shows.
 * Pure.
 */

export interface GcFilter {
  /** gen0, gen1, gen2 shown. */
  generations: [boolean, boolean, boolean];
  /** GCStart.Type shown: blocking, background, foreground. */
  kinds: [boolean, boolean, boolean];
  /** Trigger reason code, or -1 for any. */
  reason: number;
  /** Pause at least this long (ms); 0 (or empty) for any. */
  minPauseMSec: number | null;
  /** Only these GC numbers (a finding's evidence, picked in the Findings panel); null or absent for any. */
  gcs?: number[] | null;
}

export function noFilter(): GcFilter {
  return { generations: [true, true, true], kinds: [true, true, true], reason: -1, minPauseMSec: 0 };
}

export function isFilterActive(f: GcFilter): boolean {
  return f.generations.some((g) => !g) || f.kinds.some((k) => !k) || f.reason >= 0 || (f.minPauseMSec ?? 0) > 0 || (f.gcs !== undefined && f.gcs !== null);
}

/** The GC-number list as a set, built once per list (the predicate runs once per GC). */
const gcSets = new WeakMap<number[], Set<number>>();
function gcSetOf(gcs: number[]): Set<number> {
  let s = gcSets.get(gcs);
  if (s === undefined) gcSets.set(gcs, (s = new Set(gcs)));
  return s;
}

/** Whether one GC passes the filter. An unknown pause (NaN) passes a minimum-pause filter only at 0. */
export function passesFilter(f: GcFilter, generation: number, type: number, reason: number, pauseMSec: number, gcNumber?: number): boolean {
  if (f.gcs !== undefined && f.gcs !== null && (gcNumber === undefined || !gcSetOf(f.gcs).has(gcNumber))) return false;
  if (f.generations[generation] === false) return false;
  if (f.kinds[type] === false) return false;
  if (f.reason >= 0 && reason !== f.reason) return false;
  const min = f.minPauseMSec ?? 0;
  if (min > 0 && !(pauseMSec >= min)) return false;
  return true;
}
