/**
 * How the session lists describe a session: one date format for Home and Sessions, and a % paused
 * that says which span it is over (the who-allocates trace: 683 ms of events, GCs over 33.3 ms,
 * 13.6 ms of pause — "40.97 %" beside "683 ms" read as wrong).
 */
import { describe, expect, it } from 'vitest';
import { formatDateTime, sessionAddedAt, sessionPaused, sessionTakenAt } from '../../src-main/shared/session-text.js';

const WHO_ALLOCATES = {
  pauseTimePercentage: 40.973103712810016,
  totalPauseMSec: 13.636543000000074,
  firstGcMSec: 447.5,
  lastHeapStatsMSec: 447.5 + 33.281694000000016,
  firstEventMSec: 0.2,
  lastEventMSec: 0.2 + 683.1186399999999,
};

describe('session list wording', () => {
  it("% paused says the span it is over, and that it is not the trace's duration", () => {
    const p = sessionPaused(WHO_ALLOCATES);
    expect(p.text).toBe('40.97 %');
    expect(p.over).toBe('of 33.3 ms');
    expect(p.title).toBe(
      "13.6 ms paused over 33.3 ms: from the first GC to the last GC's heap statistics, as PerfView's GCStats and `gcscope report` count it, not over the trace's 683 ms",
    );
  });

  it('a session without GCs says why there is no %', () => {
    const p = sessionPaused({ ...WHO_ALLOCATES, pauseTimePercentage: null, firstGcMSec: null });
    expect(p).toEqual({ text: 'n/a', over: '', title: 'no completed GC with heap statistics: nothing to divide the pauses by' });
  });

  it("Home and Sessions share one date format: day and minute, in the user's locale and time zone", () => {
    const t = '2026-11-23T07:54:23.090Z';
    expect(formatDateTime(t)).toBe(
      new Date(t).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
    );
    expect(sessionTakenAt({ traceStartUtc: t, createdAt: '2026-11-24T10:00:00.000Z', source: 'import' })).toEqual({
      text: formatDateTime(t),
      title: `trace started 2026-11-23T07:54:23.090Z (UTC); imported ${formatDateTime('2026-11-24T10:00:00.000Z')}`,
    });
    expect(sessionTakenAt({ traceStartUtc: null, createdAt: t, source: 'record' }).title).toBe(
      `the trace does not say when it was taken; recorded ${formatDateTime(t)}`,
    );
    expect(formatDateTime('not a date')).toBe('n/a');
  });

  it("Home's recent sessions (newest added first) say when each was added, the trace's own date in the tooltip", () => {
    const t = '2021-03-02T12:00:00.000Z';
    expect(sessionAddedAt({ traceStartUtc: t, createdAt: '2026-11-24T10:00:00.000Z', source: 'import' })).toEqual({
      text: `imported ${formatDateTime('2026-11-24T10:00:00.000Z')}`,
      title: `trace taken ${formatDateTime(t)} (started 2021-03-02T12:00:00.000Z UTC)`,
    });
    expect(sessionAddedAt({ traceStartUtc: null, createdAt: t, source: 'record' })).toEqual({
      text: `recorded ${formatDateTime(t)}`,
      title: 'the trace does not say when it was taken',
    });
  });
});
