/**
 * M5 — LOH allocations triggering gen2s (docs/diagnosis.md M5; MEM "GC triggers"; PerfView's Heap
 * Analyzer). Running out of LOH budget (AllocLarge, OutOfSpaceLOH) always triggers a gen2; the
 * most common trigger should be AllocSmall, so gen2s mostly triggered by LOH allocations mean the
 * program churns large objects.
 */
import { formatInt, formatMB, formatPercent } from '../../shared/format.js';
import { evidenceOf, LOH_REASONS } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const lohTriggeredGen2: Rule = {
  id: 'loh-triggered-gen2',
  name: 'LOH allocations trigger gen2 GCs',
  source: 'M5 (Maoni Stephens, .NET Memory Performance Analysis: GC triggers)',
  goal: 'throughput',
  settings: [
    {
      name: 'infoShare',
      default: 0.1,
      unit: 'ratio',
      description: 'share of gen2 GCs triggered by LOH allocation for an info finding (any one is at least info)',
    },
    { name: 'warnShare', default: 0.5, unit: 'ratio', description: 'share for a warning' },
    { name: 'minGCs', default: 3, unit: 'GCs', description: 'LOH-triggered gen2 GCs needed for a warning' },
  ],
  evaluate({ columns: c, rows, s }) {
    const gen2 = rows.filter((i) => c.generation[i] === 2);
    const loh = gen2.filter((i) => LOH_REASONS.has(c.reason[i]!));
    const share = gen2.length > 0 ? loh.length / gen2.length : 0;
    let score = mapExp100Two(share, s.infoShare!, s.warnShare!);
    if (loh.length > 0) score = Math.max(score, 25);
    if (loh.length < s.minGCs!) score = Math.min(score, 74);
    const reason = `${formatInt(loh.length)} of ${formatInt(gen2.length)} gen2 GCs triggered by LOH allocation (${formatPercent(100 * share, 0)}; warning at ${formatPercent(100 * s.warnShare!, 0)} with at least ${s.minGCs} GCs)`;
    if (loh.length === 0) return judged(0, reason);
    return judged(score, reason, {
      title: `${formatInt(loh.length)} of ${formatInt(gen2.length)} gen2 GCs (${formatPercent(100 * share, 0)}) were triggered by large-object allocations`,
      evidence: evidenceOf(c, loh),
      explanation:
        `Objects of 85,000 bytes or more go to the large object heap (LOH), which is collected only with gen2. When the LOH budget runs out the GC must collect gen2, however little the rest of the heap needs it. ` +
        `These gen2 GCs happened because of large allocations (the heap was ${formatMB(c.heapBefore[loh[loh.length - 1]!]!)} before the last one), each one as expensive as any gen2.`,
      advice:
        'Find the large allocations (record gc-verbose: AllocationTick events of kind Large, by type) and reuse the buffers (ArrayPool<T>.Shared, RecyclableMemoryStream) instead of allocating them per request. ' +
        'If the objects are only just above 85,000 bytes, GCLOHThreshold can raise the limit; pinned buffers belong on the POH (GC.AllocateArray(pinned: true)).',
    });
  },
};
