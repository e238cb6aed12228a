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

/**
 * While the lanes follow a live recording: the last GC, when it is before the window shown (the
 * process stopped collecting and the window runs on with the clock, leaving every lane empty).
 * Times in seconds on the lanes' axis; null when the window holds a GC or nothing is followed.
 */
export function idleFollow(
  lastGc: { sec: number; number: number } | null,
  window: { min: number; max: number },
  following: boolean,
): { agoSec: number; number: number } | null {
  if (!following || lastGc === null || lastGc.sec >= window.min) return null;
  return { agoSec: window.max - lastGc.sec, number: lastGc.number };
}
