/**
 * M15 — Server GC heap imbalance (docs/diagnosis.md M15, derived): each GC thread marks its own
 * heap and the slowest sets the pause, so imbalance = max over heaps / mean over heaps of the
 * bytes promoted on each heap (GCMarkWithType per heap), its median over GCs. Without mark
 * events, what survived on each heap's condemned generations (pinned + non-pinned survivors of
 * GCPerHeapHistory) stands in. Not applicable with one heap.
 */
import { formatInt } from '../../shared/format.js';
import { judged, notApplicable, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { median } from '../stats.js';
import { evidenceOf } from '../gc-set.js';

export const serverHeapImbalance: Rule = {
  id: 'server-heap-imbalance',
  name: 'Server GC heap imbalance',
  source: 'M15 (derived from Maoni Stephens, .NET Memory Performance Analysis: Server GC balancing)',
  goal: 'latency',
  settings: [
    { name: 'infoRatio', default: 2, unit: '×', description: 'median of (busiest heap / mean heap) of the bytes promoted (or survived), for an info finding' },
    { name: 'warnRatio', default: 4, unit: '×', description: 'median for a warning' },
  ],
  evaluate({ columns: c, rows, facts, s }) {
    let maxHeaps = facts.heapCount ?? 0;
    for (const i of rows) if (c.heapCount[i]! > maxHeaps) maxHeaps = c.heapCount[i]!;
    if (maxHeaps <= 1)
      return notApplicable(
        facts.gcMode?.startsWith('server') === true ? 'one heap in use (DATAS or GCHeapCount=1): nothing to balance' : 'workstation GC: one heap',
      );
    const promoted = facts.perHeapPromotedMB;
    const survived = facts.perHeapSurvivedMB;
    if (promoted === undefined && survived === undefined)
      return notMeasured(
        'promoted bytes per heap (GCMarkWithType events) or survivors per heap (GCPerHeapHistory events): record with gc-collect or gc-verbose',
      );
    // Promoted bytes per heap (mark events) when the trace has them; else what survived on each heap.
    const what = promoted !== undefined ? 'promoted' : 'survived';
    const ratios: number[] = [];
    const judgedRows: number[] = [];
    for (const i of rows) {
      let h: readonly number[] | undefined;
      if (promoted !== undefined) h = promoted.get(i);
      else {
        const perHeap = survived!.get(c.index[i]!);
        // A gen2 GC condemns LOH and POH too.
        const gens = c.generation[i]! >= 2 ? [0, 1, 2, 3, 4] : c.generation[i] === 1 ? [0, 1] : [0];
        h = perHeap?.map((g) => gens.reduce((a, k) => a + (Number.isFinite(g[k]) ? g[k]! : 0), 0));
      }
      if (h === undefined || h.length < 2) continue;
      const mean = h.reduce((a, b) => a + b, 0) / h.length;
      if (!(mean > 0.1)) continue; // under 100 KB a heap: nothing to balance
      ratios.push(Math.max(...h) / mean);
      judgedRows.push(i);
    }
    if (ratios.length === 0) return judged(0, `no GC with per-heap ${what} bytes (over 100 KB a heap)`);
    const med = median(ratios);
    const score = mapExp100Two(med, s.infoRatio!, s.warnRatio!);
    const reason = `median busiest-heap/mean ${what} bytes ${med.toFixed(2)}× over ${formatInt(ratios.length)} GCs (info at ${s.infoRatio}×, warning at ${s.warnRatio}×)`;
    return judged(score, reason, {
      title: `Server GC heaps are unbalanced: the busiest heap has ${med.toFixed(1)}× the average ${what} bytes (median over ${formatInt(ratios.length)} GCs)`,
      evidence: evidenceOf(
        c,
        judgedRows.filter((_, k) => ratios[k]! >= s.infoRatio!),
      ),
      explanation:
        'Each Server GC thread marks and compacts its own heap; the pause lasts as long as the busiest thread. When one heap has much more surviving data, the other threads wait for it.',
      advice:
        '.NET 5+ balances marking of old generations across GC threads; upgrade if you are older. Spread allocations across threads (one hot thread allocating everything fills one heap).',
    });
  },
};
