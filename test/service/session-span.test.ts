/**
 * Ranged answers are computed inside the session (issue 40): a range is put in order and clamped
 * to where the session lies; a recording's end is still moving, so its ranges may run past its
 * last GC (the live view runs to "now") but not to 1e308.
 */
import { describe, expect, it } from 'vitest';
import { clampRange, clampSpan, RECORDING_END_SLACK_MSEC, sessionSpan } from '../../src-main/service/session-span.js';

const gcs = { time: [100, 250, 200], pause: [5, 10, 80] };

describe('session span and clamped ranges', () => {
  it('the span runs from the earliest GC or event to the latest end, whatever the GCs’ order', () => {
    expect(sessionSpan({ firstEventMSec: null, lastEventMSec: null }, gcs)).toEqual({ startMSec: 100, endMSec: 280 });
    expect(sessionSpan({ firstEventMSec: 50, lastEventMSec: 400 }, gcs)).toEqual({ startMSec: 50, endMSec: 400 });
    expect(sessionSpan({ firstEventMSec: null, lastEventMSec: null }, { time: [], pause: [] })).toEqual({ startMSec: 0, endMSec: 0 });
  });

  it('clamps a range to the span and puts it in order; a range outside is empty at the edge', () => {
    const span = { startMSec: 100, endMSec: 280 };
    expect(clampRange(span, -1e308, 1e308)).toEqual({ fromMSec: 100, toMSec: 280 });
    expect(clampRange(span, 150, 200)).toEqual({ fromMSec: 150, toMSec: 200 });
    expect(clampRange(span, 200, 150)).toEqual({ fromMSec: 150, toMSec: 200 });
    expect(clampRange(span, 1e307, 1e308)).toEqual({ fromMSec: 280, toMSec: 280 });
    expect(clampRange(span, -1e308, -1e307)).toEqual({ fromMSec: 100, toMSec: 100 });
  });

  it('a recording’s ranges may start at its sync time and end a day past its last GC', () => {
    const span = clampSpan({ startMSec: 100, endMSec: 280 }, true);
    expect(clampRange(span, 0, 5000)).toEqual({ fromMSec: 0, toMSec: 5000 });
    expect(clampRange(span, -1e308, 1e308)).toEqual({ fromMSec: 0, toMSec: 280 + RECORDING_END_SLACK_MSEC });
    expect(clampSpan({ startMSec: 100, endMSec: 280 }, false)).toEqual({ startMSec: 100, endMSec: 280 });
  });
});
