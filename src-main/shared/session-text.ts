/**
 * How a stored session is described in lists (Home's recent sessions and the Sessions page): when
 * it was taken, one date format for both, and its % of time paused with the span that % is over
 * (docs/ui.md "Numbers people can trust"). Pure; shared with the renderer.
 */
import { formatCount, formatMs, formatPercent, NA } from './format.js';
import { heapCountText } from './server-gc.js';
import { isKnownSessionKind, type SessionInfo } from './session.js';

// One formatter (Intl builds a new one on every toLocaleString call with options): the user's
// locale and time zone, day and minute precision.
let dateFmt: Intl.DateTimeFormat | undefined;

/** A date and time as every list shows it: "Nov 23, 2026, 07:54 AM" (the user's locale and time zone). */
export function formatDateTime(t: string | number | Date): string {
  const d = t instanceof Date ? t : new Date(t);
  if (Number.isNaN(d.getTime())) return NA;
  dateFmt ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return dateFmt.format(d);
}

/** When the trace was taken (the trace header's own time; a recording's start otherwise), and a tooltip saying which. */
export function sessionTakenAt(s: Pick<SessionInfo, 'traceStartUtc' | 'createdAt' | 'source'>): { text: string; title: string } {
  const imported = `${s.source === 'record' ? 'recorded' : 'imported'} ${formatDateTime(s.createdAt)}`;
  if (s.traceStartUtc === null) return { text: formatDateTime(s.createdAt), title: `the trace does not say when it was taken; ${imported}` };
  return { text: formatDateTime(s.traceStartUtc), title: `trace started ${new Date(s.traceStartUtc).toISOString()} (UTC); ${imported}` };
}

/**
 * When the session was added, for Home's recent sessions (listed newest added first, so the date
 * beside each is the one they are in order of), with when the trace was taken in the tooltip.
 */
export function sessionAddedAt(s: Pick<SessionInfo, 'traceStartUtc' | 'createdAt' | 'source'>): { text: string; title: string } {
  const text = `${s.source === 'record' ? 'recorded' : 'imported'} ${formatDateTime(s.createdAt)}`;
  if (s.traceStartUtc === null) return { text, title: 'the trace does not say when it was taken' };
  return { text, title: `trace taken ${formatDateTime(s.traceStartUtc)} (started ${new Date(s.traceStartUtc).toISOString()} UTC)` };
}

/**
 * A session's % of time paused, with the span it is over. The % is TraceEvent's (GCStats'): the
 * completed GCs' pauses over the time from the first GC's pause start to the last GC's heap
 * statistics — not over the trace's duration, which is often much longer (a trace of 683 ms
 * whose GCs span 33 ms is "41 % paused" of those 33 ms).
 */
export function sessionPaused(
  s: Pick<SessionInfo, 'pauseTimePercentage' | 'totalPauseMSec' | 'firstGcMSec' | 'lastHeapStatsMSec' | 'firstEventMSec' | 'lastEventMSec'>,
): { text: string; over: string; title: string } {
  const span = s.firstGcMSec !== null && s.lastHeapStatsMSec !== null ? s.lastHeapStatsMSec - s.firstGcMSec : null;
  if (s.pauseTimePercentage === null || span === null || !(span > 0)) {
    return { text: formatPercent(s.pauseTimePercentage, 2), over: '', title: 'no completed GC with heap statistics: nothing to divide the pauses by' };
  }
  const trace = s.firstEventMSec !== null && s.lastEventMSec !== null ? s.lastEventMSec - s.firstEventMSec : null;
  const vsTrace = trace !== null && Math.abs(trace - span) >= 0.0005 * trace ? `, not over the trace's ${formatMs(trace)}` : '';
  return {
    text: formatPercent(s.pauseTimePercentage, 2),
    over: `of ${formatMs(span)}`,
    title: `${formatMs(s.totalPauseMSec)} paused over ${formatMs(span)}: from the first GC to the last GC's heap statistics, as PerfView's GCStats and \`gcscope report\` count it${vsTrace}`,
  };
}

/**
 * What a list says of a session that is not a GC recording (null for a GC recording, which lists
 * as it always has): its kind's name, and for a kind this version does not know, where it came
 * from ("unknown kind: foo — made by a newer GCScope").
 */
export function sessionKindLabel(s: Pick<SessionInfo, 'kind'>): { text: string; title: string } | null {
  if (s.kind === 'gc') return null;
  if (isKnownSessionKind(s.kind)) return { text: s.kind, title: `a ${s.kind} session: it has no GCs` };
  return {
    text: `unknown kind: ${s.kind} — made by a newer GCScope`,
    title: `This session holds data of kind "${s.kind}", which this version of GCScope does not know: it can be renamed or deleted here, and opened with a newer GCScope.`,
  };
}

/**
 * The GC mode as the Sessions list shows it: "workstation, concurrent", "server · 2 heaps", and
 * under DATAS the range of heaps its GCs had ("server (DATAS) · 1–4 heaps") — the session view's
 * header and `compare` say the same range (issue 39: the list said the largest count alone).
 */
export function sessionGcModeText(s: Pick<SessionInfo, 'gcMode' | 'concurrent' | 'heapCount' | 'gcHeapCounts'>): string {
  if (s.gcMode === null) return 'unknown';
  let heaps = '';
  if (s.gcMode.startsWith('server')) {
    const text =
      s.gcHeapCounts !== null ? heapCountText(s.gcHeapCounts.min, s.gcHeapCounts.max) : s.heapCount !== null ? formatCount(s.heapCount, 'heap') : null;
    if (text !== null) heaps = ` · ${text}`;
  }
  return `${s.gcMode}${s.concurrent === true ? ', concurrent' : ''}${heaps}`;
}
