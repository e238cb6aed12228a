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
 *
 * Bounded on any input: windows are walked one by one (as JMC does) while there are at most
 * MAX_WINDOWS of them; more (a tiny window setting, or times far apart — a range from -1e308, a
 * damaged trace's GC at 10^15 ms) and the windows that hold no pause are skipped (a later window
 * wins only with more pause, so an empty one never does), the windows placed by multiplication;
 * and the work of one call (windows plus pauses looked at) never exceeds MAX_WORK: the walk from
 * -1e308 by 30 s steps, each lost below the number's precision, never ended (issue 40).
 */

/** Windows walked one by one, as JMC does; beyond this the empty ones are skipped. */
export const MAX_WINDOWS = 1_000_000;
/** Windows plus pauses looked at by one call, at most (a few tenths of a second). */
export const MAX_WORK = 50_000_000;

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

/** Pause time of `pauses` (sorted by start) clipped to [from, to), and how many pauses were looked at. */
function pauseIn(pauses: readonly PauseInterval[], from: number, to: number, firstCandidate: number): { sum: number; looked: number } {
  let sum = 0;
  let i = firstCandidate;
  for (; i < pauses.length; i++) {
    const p = pauses[i]!;
    if (p.startMSec >= to) break;
    const s = Math.max(from, p.startMSec);
    const e = Math.min(to, p.startMSec + p.durationMSec);
    if (e > s) sum += e - s;
  }
  return { sum, looked: i - firstCandidate };
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
  // Walked one by one (JMC's windows, to the bit) when there are not too many.
  const walk = (lastEnd - first) / slide <= MAX_WINDOWS;
  /** Skipping: the window's number (its start is origin + k·slide) and the first pause not yet passed. */
  let origin = first;
  let k = 0;
  let ahead = 0;
  let work = 0;
  for (let slid = first; ;) {
    // The last window ends where the recording (or the selected range) ends instead of running
    // past it: JMC's would, and report a window over time nothing was recorded in.
    const start = Math.max(first, Math.min(slid, end - w));
    while (lo < pauses.length && pauses[lo]!.startMSec + longest < start) lo++;
    const { sum: pause, looked } = pauseIn(pauses, start, start + w, lo);
    if (best === undefined || pause > best.pauseMSec) best = { startMSec: start, endMSec: start + w, pauseMSec: pause, ratio: pause / w };
    // JMC keeps sliding until a window starts at or after the last event's end; a window that
    // already reaches the end of the recording covers everything later ones would.
    if (start + w >= end || slid + slide >= lastEnd) break;
    work += looked + 1;
    if (work >= MAX_WORK) break;
    let next = slid + slide;
    if (!walk) {
      k++;
      if (!(pause > 0)) {
        // Nothing in this window: every pause that starts before its end is over by its start,
        // so the next window with any pause is one that reaches the first pause starting after it.
        while (ahead < pauses.length && !(pauses[ahead]!.startMSec >= start + w)) ahead++;
        if (ahead === pauses.length) break;
        const target = pauses[ahead]!.startMSec - w;
        k = Math.max(k, Math.floor((target - origin) / slide));
        // A grid from -1e308 in 30 s steps cannot be placed near 0 (the steps are below the
        // numbers' precision there): it restarts one window before that pause.
        if (!(Math.abs(origin + k * slide - target) <= 2 * slide)) {
          origin = target;
          k = 0;
        }
      }
      next = origin + k * slide;
    }
    // Beyond the numbers' precision no later window can be placed.
    if (!(next > slid)) break;
    slid = next;
  }
  return best;
}
