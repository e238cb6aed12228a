/**
 * A snapshot taken from a live recording shows on the recording as a mark at its induced gen2
 * GC, and that GC is labelled as the snapshot's (src-main/shared/snapshot-marks.ts): the heap size
 * said before the pause is the recording's last complete GC's, a mark's time comes from the GC
 * with the walk's number, and a mark outside the window is not drawn.
 */
import { describe, expect, it } from 'vitest';
import {
  gcTimeByNumber,
  lastGcHeapBytes,
  markPosition,
  resolveMarkTimes,
  snapshotGcLabel,
  snapshotsByGcNumber,
  type SnapshotMark,
} from '../../src-main/shared/snapshot-marks.js';

const cols = {
  number: [7, 8, 9, 10],
  time: [1000, 2000, 3000, 4000],
  complete: [1, 1, 1, 0],
  heapAfter: [10.5, 12.25, Number.NaN, 99],
};

const mark = (over: Partial<SnapshotMark>): SnapshotMark => ({
  snapshotSessionId: 5,
  name: 'app (pid 1) heap 12:00:00',
  gcNumber: 9,
  atMSec: null,
  objects: 100,
  bytes: 1000,
  takenAt: null,
  ...over,
});

describe('snapshot marks on a recording', () => {
  it('says the heap size of the last complete GC that measured it, in bytes (an incomplete GC or one without a size is skipped)', () => {
    expect(lastGcHeapBytes(cols)).toBe(12_250_000);
    expect(lastGcHeapBytes({ complete: [], heapAfter: [], time: [] })).toBeNull();
    expect(lastGcHeapBytes({ complete: [0], heapAfter: [5], time: [1] })).toBeNull();
  });

  it("places a mark at the pause start of the GC with the walk's number, and leaves it unplaced while the recording lacks that GC", () => {
    expect(gcTimeByNumber(cols, 9)).toBe(3000);
    expect(gcTimeByNumber(cols, 11)).toBeNull();
    const [a, b, c] = resolveMarkTimes(
      [mark({}), mark({ snapshotSessionId: 6, gcNumber: 11 }), mark({ snapshotSessionId: 7, gcNumber: 8, atMSec: 1999 })],
      cols,
    );
    expect(a!.atMSec).toBe(3000);
    expect(b!.atMSec).toBeNull();
    // A stored time is kept as stored.
    expect(c!.atMSec).toBe(1999);
  });

  it("labels the snapshot's GC by its number, with the snapshot's name", () => {
    const byGc = snapshotsByGcNumber([mark({}), mark({ snapshotSessionId: 6, gcNumber: null })]);
    expect([...byGc.keys()]).toEqual([9]);
    expect(snapshotGcLabel(byGc.get(9)!)).toBe('heap snapshot: app (pid 1) heap 12:00:00');
  });

  it('draws a mark at its share of the window, and not at all outside it or before its time is known', () => {
    expect(markPosition(mark({ atMSec: 3000 }), { min: 2, max: 4 })).toBeCloseTo(0.5);
    expect(markPosition(mark({ atMSec: 3000 }), { min: 3.5, max: 4 })).toBeNull();
    expect(markPosition(mark({ atMSec: null }), { min: 0, max: 10 })).toBeNull();
    expect(markPosition(mark({ atMSec: 3000 }), { min: 3, max: 3 })).toBeNull();
  });
});
