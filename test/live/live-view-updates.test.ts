/**
 * What a live view builds from a recording's batches equals the stored session: the GCs in the
 * order they end (a background GC after the GCs beside it), and GCs sent again when their values
 * change later (here: the allocation since the previous GC, once a background GC before it has
 * ended) or when the recording ends. The recording is played from a committed trace through the
 * same pipeline a live recording uses (SessionPipeline), in batches, into the renderer's growable
 * columns and the service's live summary.
 */
import { describe, expect, it } from 'vitest';
import { LiveSummary } from '../../src-main/service/live-summary.js';
import { seriesFromColumns, type GcSeries } from '../../src-main/shared/gc-series.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import { GrowableSeries } from '../../src-renderer/state/growable-series.js';
import { playRecording } from '../helpers/played-recording.js';

async function record(trace: string): Promise<{ sent: { r: GcRecord; again: boolean }[]; stored: GcSeries }> {
  const { sent, columns, gcCount } = await playRecording(trace);
  // The stored session's view columns, as the pipeline wrote them (its rows round times and sizes
  // to a nanosecond / a byte on the way into SQLite; the column snapshot is written from these).
  expect(columns.index.length).toBe(gcCount);
  return { sent, stored: seriesFromColumns(columns) };
}

/** Every series column as plain arrays (NaN kept), for a deep comparison. */
const plain = (s: GcSeries): Record<string, number[]> =>
  Object.fromEntries(
    Object.entries(s)
      .filter(([k]) => k !== 'length')
      .map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]),
  );

describe('a live view of a recording', () => {
  it("ends with the stored session's values for every GC, background GCs and late-changing values included", async () => {
    const { sent, stored } = await record('problem-loh-alloc-wait.nettrace.zip');
    // The trace has both: GCs out of number order, and GCs sent again.
    expect(sent.some((x, k) => k > 0 && !x.again && x.r.number < sent[k - 1]!.r.number)).toBe(true);
    expect(sent.filter((x) => x.again).length).toBeGreaterThan(5);
    const live = new GrowableSeries();
    const firstOnly = new GrowableSeries();
    const tiles = new LiveSummary();
    for (let k = 0; k < sent.length; k += 4) {
      // A batch as the recorder sends it: the GCs' columns.
      const batch = columnsFromRecords(sent.slice(k, k + 4).map((x) => x.r));
      live.append(batch);
      firstOnly.append(
        columnsFromRecords(
          sent
            .slice(k, k + 4)
            .filter((x) => !x.again)
            .map((x) => x.r),
        ),
      );
      tiles.add(batch);
    }
    expect(plain(live.view())).toEqual(plain(stored));
    // Without the GCs sent again, the live view would keep values the stored session does not have.
    expect(plain(firstOnly.view()).allocated).not.toEqual(plain(stored).allocated);
    // The tiles count each complete GC once, however often it was sent.
    expect(tiles.summary().gcCount).toBe(Array.from(stored.complete).filter((c) => c === 1).length);
  });
});
