/**
 * M15 — Server GC heap imbalance (insights.md §1 M15, derived): the slowest heap sets the pause,
 * so imbalance = max over heaps / mean over heaps of promoted bytes, its median over GCs. Needs
 * per-heap promoted bytes (mark events per heap); not applicable to workstation GC.
 */
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
    { name: 'infoRatio', default: 2, unit: '×', description: 'median of (busiest heap / mean heap) promoted bytes for an info finding' },
    { name: 'warnRatio', default: 4, unit: '×', description: 'median for a warning' },
  ],
  evaluate({ columns: c, rows, facts, s }) {
    let maxHeaps = facts.heapCount ?? 0;
    for (const i of rows) if (c.heapCount[i]! > maxHeaps) maxHeaps = c.heapCount[i]!;
    if (facts.gcMode !== 'server' && maxHeaps <= 1) return notApplicable('workstation GC: one heap');
    if (facts.perHeapPromotedMB === undefined) return notMeasured('promoted bytes per heap (GCMarkWithType events, GC keyword at Informational)');
    const ratios: number[] = [];
    const judgedRows: number[] = [];
    for (const i of rows) {
      const h = facts.perHeapPromotedMB.get(i);
      if (h === undefined || h.length < 2) continue;
      const mean = h.reduce((a, b) => a + b, 0) / h.length;
      if (!(mean > 0)) continue;
      ratios.push(Math.max(...h) / mean);
      judgedRows.push(i);
    }
    if (ratios.length === 0) return judged(0, 'no GC with per-heap promoted bytes');
    const med = median(ratios);
    const score = mapExp100Two(med, s.infoRatio!, s.warnRatio!);
    const reason = `median busiest-heap/mean promoted ${med.toFixed(2)}× over ${ratios.length} GCs (info at ${s.infoRatio}×, warning at ${s.warnRatio}×)`;
    return judged(score, reason, {
      title: `Server GC heaps are unbalanced: the busiest heap promotes ${med.toFixed(1)}× the average (median over ${ratios.length} GCs)`,
      evidence: evidenceOf(c, judgedRows.filter((_, k) => ratios[k]! >= s.infoRatio!)),
      explanation: 'Each Server GC thread marks from its own heap\'s roots; the pause lasts as long as the busiest thread. When one heap has much more to mark, the others wait.',
      advice: '.NET 5+ balances marking of old generations across GC threads; upgrade if you are older. Spread allocations across threads (one hot thread allocating everything fills one heap).',
    });
  },
};
