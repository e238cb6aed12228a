/**
 * midlife-crisis — objects that live just long enough to reach gen2 and then die there. The idea
 * is Rico Mariani's "mid-life crisis" (Performance Tidbits, MSDN blogs, 2003; cited by the
 * Visual Studio profiler's rule DA0005 "Frequent GC2 collections"): the generational bet is that
 * objects die young or live forever; objects that survive gen0 and gen1 and then die make the
 * program pay for gen2 GCs to reclaim what gen0 should have. docs/diagnosis.md derives the rule:
 *
 * - promoted into gen2 P = Σ over gen0/gen1 GCs of the growth of gen2's live data (size − free
 *   space) across the GC, the GCs taken in the order their after-sizes were measured (end of
 *   the pause; a background GC's at the end of its span);
 * - reclaimed in gen2 R = Σ of every shrinkage of gen2's live data from one GC to the next (only
 *   gen2 GCs free gen2 objects; a background GC's sweep turns them into free space that shows by
 *   the next GC's numbers, so the drop is counted wherever it appears);
 * - it fires when gen2 GCs reclaim most of what was promoted before the last of them (later
 *   promotions had no gen2 GC to die in before the recording ended) (R / P ≥ minReclaimedShare: the
 *   objects died there — a leak would keep them) and what reaches gen2 is a real share of what
 *   the program allocates (P / allocated: info at 5 %, warning at 15 %), with enough gen2 GCs
 *   (non-induced) to see the pattern.
 */
import { formatInt, formatMB, formatPercent } from '../../shared/format.js';
import { evidenceOf, gen2LiveMB, isInduced } from '../gc-set.js';
import { judged, type Rule, type RuleContext } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast } from '../stats.js';

export const midlifeCrisis: Rule = {
  id: 'midlife-crisis',
  name: 'Mid-life crisis',
  source: 'derived (Rico Mariani, "Mid-life crisis"; Visual Studio profiler rule DA0005); docs/diagnosis.md',
  goal: 'throughput',
  settings: [
    { name: 'infoPromotedShare', default: 0.05, unit: 'ratio', description: 'bytes promoted into gen2 / bytes allocated, for an info finding' },
    { name: 'warnPromotedShare', default: 0.15, unit: 'ratio', description: 'the same share for a warning' },
    { name: 'minReclaimedShare', default: 0.5, unit: 'ratio', description: 'gen2 GCs must reclaim at least this share of what was promoted into gen2' },
    { name: 'minGen2GCs', default: 3, unit: 'GCs', description: 'non-induced gen2 GCs needed to judge' },
  ],
  evaluate({ columns: c, rows, s }) {
    let promoted = 0;
    let reclaimed = 0;
    let allocated = 0;
    /** Promoted before the last gen2 GC started: what gen2 GCs had a chance to reclaim. */
    let promotedBeforeLastGen2 = 0;
    const gen2: number[] = [];
    // In the order the after-sizes were taken (pause start + duration), not by GC number: a
    // background GC reports gen2 after its sweep, the ephemeral GC nested in it (the next number)
    // before it, so by number each sweep would count once as promotion and twice as reclaim.
    const byEnd = [...rows].sort((x, y) => afterAt(c, x) - afterAt(c, y) || x - y);
    for (let k = 0; k < byEnd.length; k++) {
      const i = byEnd[k]!;
      if (Number.isFinite(c.allocated[i]!)) allocated += c.allocated[i]!;
      if (k === 0) continue;
      const prev = byEnd[k - 1]!;
      const d = gen2LiveMB(c, i) - gen2LiveMB(c, prev);
      if (!Number.isFinite(d)) continue;
      if (d < 0) reclaimed -= d;
      if (c.generation[i]! < 2) {
        if (d > 0) promoted += d;
      } else if (!isInduced(c, i)) {
        gen2.push(i);
        promotedBeforeLastGen2 = promoted;
      }
    }
    gen2.sort((x, y) => x - y);
    const promotedShare = allocated > 0 ? promoted / allocated : 0;
    // Objects promoted after the last gen2 GC cannot have died there yet (the recording ended).
    const reclaimedShare = promotedBeforeLastGen2 > 0 ? reclaimed / promotedBeforeLastGen2 : 0;
    const reason = `${formatMB(promoted)} promoted into gen2 of ${formatMB(allocated)} allocated (${formatPercent(100 * promotedShare)}; info at ${formatPercent(100 * s.infoPromotedShare!, 0)}, warning at ${formatPercent(100 * s.warnPromotedShare!, 0)}); ${formatInt(gen2.length)} gen2 GCs reclaimed ${formatMB(reclaimed)} (${formatPercent(100 * reclaimedShare, 0)} of the ${formatMB(promotedBeforeLastGen2)} promoted before the last one; needs ${formatPercent(100 * s.minReclaimedShare!, 0)})`;
    if (gen2.length < s.minGen2GCs!) return judged(0, `${reason}; fewer than ${s.minGen2GCs} gen2 GCs`);
    if (!atLeast(reclaimedShare, s.minReclaimedShare!)) return judged(0, reason);
    const score = mapExp100Two(promotedShare, s.infoPromotedShare!, s.warnPromotedShare!);
    return judged(score, reason, {
      // The share reclaimed is of what was promoted before the last gen2 GC, not of all promoted:
      // "reclaim 100 % of it" beside 3.26 GB promoted read as 3.26 GB reclaimed by GCs whose heap
      // never reached 200 MB.
      title: `Mid-life crisis: ${formatPercent(100 * promotedShare, promotedShare < 0.1 ? 1 : 0)} of allocations reach gen2 (${formatMB(promoted)}); ${formatInt(gen2.length)} gen2 GCs reclaim ${formatPercent(100 * Math.min(reclaimedShare, 1), 0)} of the ${formatMB(promotedBeforeLastGen2)} promoted before the last of them`,
      evidence: evidenceOf(c, gen2),
      explanation:
        'Generational GC bets that objects die young or live for good. These objects live just long enough to survive gen0 and gen1, get promoted to gen2, and then die there — so the program pays for copying them twice and for gen2 GCs to reclaim memory that gen0 GCs should have.',
      advice:
        'Find objects held for a while and then dropped: request-scoped data cached across requests, queues and batches held for seconds, buffers kept in a list until a flush. Shorten their life (process and drop sooner), reuse them (pool them so they live for good), or keep them out of the GC heap (structs, ArrayPool). A heap snapshot taken between two gen2 GCs shows which types they are.',
    });
  },
};

/** When GC i's after-sizes were taken: the end of its pause, or of a background GC's whole span. */
function afterAt(c: RuleContext['columns'], i: number): number {
  const d = c.duration[i]!;
  return c.time[i]! + (Number.isFinite(d) ? Math.max(d, c.pause[i]!) : c.pause[i]!);
}
