/**
 * The summary tiles and rollup rows of a session being recorded, kept up to date GC by GC: the
 * batch summary (gc/summary.ts, gc/rollup.ts: `SummaryAccumulator`, `RollupAccumulator`) applied
 * incrementally, over the recording's columns, which this holds (the service's findings and
 * filtered summaries read them too). Each live batch sets its GCs' rows; a GC already counted
 * (sent again with changed values, LiveBatch.gcs) is first taken back out with the values it had,
 * then added with its new ones, so the tiles always equal `summarize()` over the completed GCs
 * as getRangeSummary computes it for the whole session while it records (the newest GC's end
 * stands in for the last HeapStats), and so do the rows by generation and by reason. A batch
 * costs its own GCs however long the recording is; in the rare case that a GC sent again held a
 * maximum and no longer does, the state is rebuilt from the columns once.
 */
import { RollupAccumulator, RunningMax } from '../gc/rollup.js';
import { SummaryAccumulator } from '../gc/summary.js';
import type { RangeSummary } from '../shared/contract.js';
import { GcColumnBuilder, type GcColumns } from '../shared/gc-column-registry.js';
import { gcReasonName } from '../shared/gc-enums.js';
import { grown } from '../shared/grown.js';
import { byPause, groupRow } from './group-rollup.js';

export class LiveSummary {
  private readonly cols = new GcColumnBuilder();
  private acc = new SummaryAccumulator();
  private reasons = new Map<number, RollupAccumulator>();
  /** The lowest completed GC index (as −index: a maximum), whose pause start begins the session's span. */
  private first = new RunningMax(Number.NEGATIVE_INFINITY);
  /** The latest pause end and pause start of the completed GCs. */
  private lastEnd = new RunningMax(0);
  private lastStart = new RunningMax(0);
  /** GC indexes counted in the summary (1: complete and added). */
  private counted = new Uint8Array(1024);

  /** Sets a batch's GCs into the columns and the summary; returns the summary through them. */
  add(batch: GcColumns): RangeSummary {
    const c = this.cols.arraysAtCapacity;
    for (let k = 0; k < batch.index.length; k++) {
      const at = batch.index[k]!;
      if (at >= this.counted.length) this.counted = grown(this.counted, Math.max(at + 1, this.counted.length * 2));
      // Sent again: out with the values it had.
      if (this.counted[at] === 1) this.take(c, at, -1);
      this.cols.setRow(batch, k);
      if (c.complete[at] === 1) this.take(c, at, 1);
    }
    return this.summary();
  }

  private take(c: GcColumns, at: number, sign: 1 | -1): void {
    this.counted[at] = sign > 0 ? 1 : 0;
    this.acc.add(c, at, sign);
    const reason = c.reason[at]!;
    let g = this.reasons.get(reason);
    if (g === undefined) this.reasons.set(reason, (g = new RollupAccumulator('ALL')));
    g.add(c, at, sign);
    // A reason no GC has any more is no row (the batch summary has none for it).
    if (g.count === 0) this.reasons.delete(reason);
    this.first.add(-at, sign);
    this.lastEnd.add(c.time[at]! + c.pause[at]!, sign);
    this.lastStart.add(c.time[at]!, sign);
  }

  /** Every counted GC added again, in GC order (a maximum's holder was taken out). */
  private rebuild(): void {
    const c = this.cols.arraysAtCapacity;
    this.acc = new SummaryAccumulator();
    this.reasons = new Map();
    this.first = new RunningMax(Number.NEGATIVE_INFINITY);
    this.lastEnd = new RunningMax(0);
    this.lastStart = new RunningMax(0);
    for (let i = 0; i < this.cols.length; i++) if (this.counted[i] === 1) this.take(c, i, 1);
  }

  /** The recording's columns so far (views, valid until the next batch). */
  columns(): GcColumns {
    return this.cols.columns();
  }

  private firstStart(): number | undefined {
    const f = this.first.skippingNaN;
    return f === null ? undefined : this.cols.arraysAtCapacity.time[-f]!;
  }

  /** Whether [from, to] holds every GC added so far (the whole session's tiles). */
  covers(fromMSec: number, toMSec: number): boolean {
    if (this.first.stale || this.lastStart.stale) this.rebuild();
    const first = this.firstStart();
    return first === undefined || (fromMSec <= first && toMSec >= this.lastStart.value);
  }

  summary(): RangeSummary {
    if (this.acc.stale || this.first.stale || this.lastEnd.stale || this.lastStart.stale || [...this.reasons.values()].some((g) => g.stale)) this.rebuild();
    const { summary, rollup } = this.acc.result(this.firstStart(), { lastHeapStatsMSec: this.lastEnd.value });
    return {
      ...summary,
      byGeneration: rollup.generations.map((g, i) => groupRow(`gen${i}`, i, g)),
      byReason: [...this.reasons].map(([reason, g]) => groupRow(gcReasonName(reason), reason, g.result())).sort(byPause),
      pausedOverMSec: summary.processDurationMSec,
    };
  }
}
