/** The time window the session view's lanes show. Pure, so it is unit-tested without a browser. */

/**
 * A window kept inside the session [start, end]: moved back in whole (its width kept) when it
 * sticks out on one side, cut to the session when it is wider. Panning or centring near an edge
 * must never show time before the session started (negative times on every axis).
 */
export function clampRange(r: { from: number; to: number }, start: number, end: number): { from: number; to: number } {
  const w = r.to - r.from;
  if (w >= end - start) return { from: start, to: end };
  if (r.from < start) return { from: start, to: start + w };
  if (r.to > end) return { from: end - w, to: end };
  return r;
}
