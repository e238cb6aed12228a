/**
 * Where a session lies in time, and a requested range clamped to it: what the view opens on
 * (getSessionData's startMSec and endMSec), and the bounds every ranged answer is computed within
 * (getRangeSummary, getFindings, compareSessions). A range's ends from the page are finite but
 * may be anything (issue 40: getFindings(1, -1e308, 1e308) wedged the analysis worker).
 */
import type { SessionInfo } from '../shared/session.js';

/**
 * Where a session lies: the earliest start and latest end of any GC or event (getSessionData's
 * startMSec and endMSec, the range the view opens on). Not the first and last GC by number: while
 * recording, the first and last event times are not stored yet, and GC numbers and pause starts
 * need not be in the same order (a background GC's pause is not at its start). A span that cut
 * one off made the view's whole-session summary a range that left that GC out: the tiles were one
 * GC behind the table after opening a recording. An incomplete GC's unknown pause counts from its
 * start.
 */
export function sessionSpan(
  session: Pick<SessionInfo, 'firstEventMSec' | 'lastEventMSec'>,
  gcs: { time: ArrayLike<number>; pause: ArrayLike<number> },
): { startMSec: number; endMSec: number } {
  let start = session.firstEventMSec ?? Number.POSITIVE_INFINITY;
  let end = session.lastEventMSec ?? 0;
  const n = gcs.time.length;
  for (let i = 0; i < n; i++) {
    const t = gcs.time[i]!;
    const e = t + gcs.pause[i]!;
    if (t < start) start = t;
    if (e > end) end = e;
    else if (t > end) end = t;
  }
  if (start === Number.POSITIVE_INFINITY) start = 0;
  return { startMSec: start, endMSec: end };
}

/**
 * How far past its last GC or event a recording's range may end: its end is still moving (the
 * page's live view runs to "now", later than the last GC when the process is idle), so only a
 * range absurdly far past it is cut.
 */
export const RECORDING_END_SLACK_MSEC = 24 * 3600 * 1000;

/**
 * A span as ranges are clamped to it. A recording's runs from the trace's sync time (its first
 * event time is stored only when it ends: the page may have opened it at 0, before its first GC)
 * to RECORDING_END_SLACK_MSEC past its last GC.
 */
export function clampSpan(span: { startMSec: number; endMSec: number }, recording: boolean): { startMSec: number; endMSec: number } {
  return recording ? { startMSec: Math.min(span.startMSec, 0), endMSec: span.endMSec + RECORDING_END_SLACK_MSEC } : span;
}

/** A range in order and inside `span` (a range outside it becomes the empty range at its edge). */
export function clampRange(span: { startMSec: number; endMSec: number }, a: number, b: number): { fromMSec: number; toMSec: number } {
  const lo = Math.min(span.startMSec, span.endMSec);
  const hi = Math.max(span.startMSec, span.endMSec);
  const clamp = (v: number): number => Math.min(Math.max(v, lo), hi);
  return { fromMSec: clamp(Math.min(a, b)), toMSec: clamp(Math.max(a, b)) };
}
