/**
 * The worst sliding window of pause time (JMC's `SlidingWindowToolkit` as GcPauseRatio uses it,
 * docs/diagnosis.md, "A finding"): windows of length W every W/2, the first starting at the earliest pause,
 * until a window starts at or after the last pause's end; each pause counts only for the part
 * inside the window; the ratio's denominator is the window's length. The window with the most
 * pause wins (the earliest on ties).
 *
 * One deliberate difference: a recording shorter than W is judged over its own span (JMC would
 * divide a 5 s recording's pauses by 60 s and never see anything), but never over less than
 * `minWindowMSec` (a 35 ms trace of ten back-to-back GCs is not "83 % paused" in any useful
 * sense). The caller passes the recording's end; the last window is moved back to end there.
 */

export interface PauseInterval {
  startMSec: number;
  durationMSec: number;
}

export interface WorstWindow {
  startMSec: number;
  endMSec: number;
  /** Pause inside the window (ms) and its share of the window (0–1). */
  pauseMSec: number;
  ratio: number;
}

/** Pause time of `pauses` (sorted by start) clipped to [from, to). */
function pauseIn(pauses: readonly PauseInterval[], from: number, to: number, firstCandidate: number): number {
  let sum = 0;
  for (let i = firstCandidate; i < pauses.length; i++) {
    const p = pauses[i]!;
    if (p.startMSec >= to) break;
    const s = Math.max(from, p.startMSec);
    const e = Math.min(to, p.startMSec + p.durationMSec);
    if (e > s) sum += e - s;
  }
  return sum;
}

/**
 * The worst window of `windowMSec` over `pauses` (sorted by start time). `spanEndMSec` is where
 * the recording ends (at least the last pause's end); when the recording (from the first pause)
 * is shorter than the window, the window shrinks to it. `spanStartMSec` is where it starts when
 * that is not the first pause (a selected range starts where the user put it). Undefined without
 * pauses.
 */
export function worstPauseWindow(
  pauses: readonly PauseInterval[],
  windowMSec: number,
  spanEndMSec?: number,
  minWindowMSec = 0,
  spanStartMSec?: number,
): WorstWindow | undefined {
  if (pauses.length === 0 || !(windowMSec > 0)) return undefined;
  const first = Math.min(pauses[0]!.startMSec, spanStartMSec ?? Number.POSITIVE_INFINITY);
  let lastEnd = first;
  // The longest pause bounds how far back a window's first overlapping pause can start.
  let longest = 0;
  for (const p of pauses) {
    lastEnd = Math.max(lastEnd, p.startMSec + p.durationMSec);
    longest = Math.max(longest, p.durationMSec);
  }
  const end = Math.max(lastEnd, spanEndMSec ?? lastEnd);
  const w = Math.min(windowMSec, Math.max(end - first, minWindowMSec, Number.MIN_VALUE));
  const slide = w / 2;
  let best: WorstWindow | undefined;
  let lo = 0;
  for (let slid = first; ; slid += slide) {
    // The last window ends where the recording (or the selected range) ends instead of running
    // past it: JMC's would, and report a window over time nothing was recorded in.
    const start = Math.max(first, Math.min(slid, end - w));
    while (lo < pauses.length && pauses[lo]!.startMSec + longest < start) lo++;
    const pause = pauseIn(pauses, start, start + w, lo);
    if (best === undefined || pause > best.pauseMSec) best = { startMSec: start, endMSec: start + w, pauseMSec: pause, ratio: pause / w };
    // JMC keeps sliding until a window starts at or after the last event's end; a window that
    // already reaches the end of the recording covers everything later ones would.
    if (start + w >= end || slid + slide >= lastEnd) break;
  }
  return best;
}
