/** Column helpers the rules share: codes, kinds and per-GC values read from a session's columns. */
import { formatInt } from '../shared/format.js';
import type { GcColumns } from '../shared/gc-column-registry.js';

export const GC_TYPE = { NonConcurrent: 0, Background: 1, Foreground: 2 } as const;

/** Induced reasons: Induced, InducedNotForced, InducedLowMemory, InducedCompacting, InducedAggressive (gc.h). */
export const INDUCED_REASONS = new Set([1, 7, 9, 10, 17]);
/** LOH-triggered reasons: AllocLarge (the LOH budget ran out) and OutOfSpaceLOH. */
export const LOH_REASONS = new Set([4, 6]);

export function isInduced(c: GcColumns, i: number): boolean {
  return INDUCED_REASONS.has(c.reason[i]!);
}

/** A full blocking GC ("2N"): gen2, non-concurrent. */
export function isFullBlocking(c: GcColumns, i: number): boolean {
  return c.generation[i] === 2 && c.type[i] === GC_TYPE.NonConcurrent;
}

export function isBackground(c: GcColumns, i: number): boolean {
  return c.type[i] === GC_TYPE.Background;
}

/** GC numbers of these rows. */
export function numbersOf(c: GcColumns, rows: readonly number[]): number[] {
  return rows.map((i) => c.number[i]!);
}

/** The time window spanned by these GCs' pauses (or their whole span for a background GC). */
export function spanOf(c: GcColumns, rows: readonly number[]): { startMSec: number | null; endMSec: number | null } {
  if (rows.length === 0) return { startMSec: null, endMSec: null };
  let s = Number.POSITIVE_INFINITY;
  let e = Number.NEGATIVE_INFINITY;
  for (const i of rows) {
    const t = c.time[i]!;
    const d = Math.max(c.pause[i]! || 0, Number.isFinite(c.duration[i]!) ? c.duration[i]! : 0);
    s = Math.min(s, t);
    e = Math.max(e, t + d);
  }
  return { startMSec: s, endMSec: e };
}

/** Evidence for a set of GCs: their numbers and the window they span. */
export function evidenceOf(c: GcColumns, rows: readonly number[]): { gcs: number[]; startMSec: number | null; endMSec: number | null } {
  return { gcs: numbersOf(c, rows), ...spanOf(c, rows) };
}

/** Live gen2 data after GC i: gen2 size minus its free space (size alone when fragmentation is unknown). */
export function gen2LiveMB(c: GcColumns, i: number): number {
  const size = c.gen2[i]!;
  const frag = c.frag2[i]!;
  return Number.isFinite(frag) ? size - frag : size;
}

/** Live old data after GC i (gen2 + LOH + POH minus their free space): the live-data-size proxy. */
export function oldLiveMB(c: GcColumns, i: number): number {
  let sum = 0;
  const parts: [Float64Array, Float64Array][] = [
    [c.gen2, c.frag2],
    [c.loh, c.fragLoh],
    [c.poh, c.fragPoh],
  ];
  for (const [size, frag] of parts) {
    const s = size[i]!;
    if (!Number.isFinite(s)) continue;
    const f = frag[i]!;
    sum += Number.isFinite(f) ? s - f : s;
  }
  return Number.isFinite(c.gen2[i]!) ? sum : Number.NaN;
}

/**
 * The live-data-size proxy for warm-up detection (docs/diagnosis.md, "Warm-up"), one value per row in
 * GC order: gen2's live data after the GC plus the large and pinned object heaps' live data as
 * the last gen2 GC measured it. Only a gen2 GC collects the LOH and POH: after a gen0/gen1 GC
 * their size still holds every large object allocated since, dead or not — LOH churn would read
 * as live data and end the warm-up at once. Gen2 after an ephemeral GC grows only by what
 * survived into it, so it stands. Before the first gen2 GC the LOH/POH part is unknown and left
 * out (the warm-up can end only later for it, never earlier).
 */
/** A UOH generation's size less its free space (0 when its size is unknown). */
function uohLive(size: number, frag: number): number {
  if (!Number.isFinite(size)) return 0;
  return Number.isFinite(frag) ? size - frag : size;
}

export function liveDataSeries(c: GcColumns, rows: readonly number[]): number[] {
  let uoh = 0;
  return rows.map((i) => {
    if (c.generation[i] === 2) {
      uoh = uohLive(c.loh[i]!, c.fragLoh[i]!) + uohLive(c.poh[i]!, c.fragPoh[i]!);
    }
    const g2 = gen2LiveMB(c, i);
    return Number.isFinite(g2) ? g2 + uoh : Number.NaN;
  });
}

export function anyFinite(a: ArrayLike<number>, rows: readonly number[]): boolean {
  for (const i of rows) if (Number.isFinite(a[i]!)) return true;
  return false;
}

/** "GC #12" or "GCs #12, #15 and 8 more". */
export function gcList(numbers: readonly number[], max = 3): string {
  if (numbers.length === 0) return 'no GC';
  const shown = numbers.slice(0, max).map((n) => `#${n}`);
  const more = numbers.length - shown.length;
  if (numbers.length === 1) return `GC ${shown[0]}`;
  return `GCs ${shown.join(', ')}${more > 0 ? ` and ${formatInt(more)} more` : ''}`;
}
