/**
 * The rollup panel's rows: a range's GCs grouped by generation and by trigger reason, each group
 * rolled up like one of GCStats' generation rows. `rangeGroups` computes them from columns (a
 * stored session, or any range and filter); live-summary.ts keeps the same rollups up to date GC
 * by GC while a session records (gc/rollup.ts's accumulators), and rows them with `groupRow`.
 */
import { rollup, type GenerationRollup, type RollupColumns } from '../gc/rollup.js';
import type { GroupRollup } from '../shared/contract.js';
import { gcReasonName } from '../shared/gc-enums.js';

export function groupRow(label: string, key: number, g: GenerationRollup): GroupRollup {
  return {
    label,
    key,
    count: g.count,
    inducedCount: g.numInduced,
    backgroundCount: g.numBackground,
    totalPauseMSec: g.totalPauseTimeMSec,
    meanPauseMSec: g.meanPauseDurationMSec,
    maxPauseMSec: g.count > 0 ? g.maxPauseDurationMSec : null,
    pauseP90MSec: g.pauseP90MSec,
    allocatedMB: g.totalAllocatedMB,
    promotedMB: g.totalPromotedMB,
    survivalPercent: g.survivalPercent,
  };
}

/** Most pause first, then most GCs. */
export const byPause = (a: GroupRollup, b: GroupRollup): number => b.totalPauseMSec - a.totalPauseMSec || b.count - a.count;

/** The rows' groups by generation (from their rollup) and by reason. */
export function rangeGroups(
  c: RollupColumns,
  rows: ArrayLike<number>,
  generations: GenerationRollup[],
): { byGeneration: GroupRollup[]; byReason: GroupRollup[] } {
  const groups = new Map<number, number[]>();
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const reason = c.reason[i]!;
    const g = groups.get(reason);
    if (g === undefined) groups.set(reason, [i]);
    else g.push(i);
  }
  return {
    byGeneration: generations.map((g, i) => groupRow(`gen${i}`, i, g)),
    byReason: [...groups].map(([reason, idx]) => groupRow(gcReasonName(reason), reason, rollup(c, idx, 0).all)).sort(byPause),
  };
}
