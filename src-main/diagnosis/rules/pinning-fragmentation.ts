/**
 * M11 — large heap because gen0 is mostly free space left around pinned objects (docs/diagnosis.md
 * M11; MEM "Large heap: After too large"). Long-lived pins among young objects keep the GC from
 * compacting gen0: the space between the pins stays as fragmentation (often demoted into gen0).
 * A GC is affected when, after it, gen0 is at least fragPercent free space, gen0 is a real share
 * of the heap, and objects were pinned. The score grows with the share of affected GCs.
 */
import { formatInt, formatMB, formatPercent } from '../../shared/format.js';
import { anyFinite, evidenceOf } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast } from '../stats.js';

export const pinningFragmentation: Rule = {
  id: 'pinning-fragmentation',
  name: 'Fragmentation from pinning',
  source: 'M11 (Maoni Stephens, .NET Memory Performance Analysis: After too large, pinning)',
  goal: 'footprint',
  settings: [
    { name: 'fragPercent', default: 50, unit: '%', description: 'gen0 free space (share of gen0 after the GC) for a GC to count' },
    { name: 'gen0ShareOfHeap', default: 0.25, unit: 'ratio', description: 'gen0 size after the GC as a share of the heap after, for a GC to count' },
    { name: 'infoShare', default: 0.1, unit: 'ratio', description: 'share of GCs affected for an info finding' },
    { name: 'warnShare', default: 0.5, unit: 'ratio', description: 'share of GCs affected for a warning' },
  ],
  evaluate({ columns: c, rows, s }) {
    if (!anyFinite(c.frag0, rows)) return notMeasured('gen0 fragmentation from GCPerHeapHistory events (record with gc-collect or gc-verbose)');
    const judgedRows = rows.filter((i) => Number.isFinite(c.frag0[i]!) && c.gen0[i]! > 0 && c.heapAfter[i]! > 0);
    const hit = judgedRows.filter((i) => {
      const fragPct = (100 * c.frag0[i]!) / c.gen0[i]!;
      const pins = c.pinnedObjects[i]!;
      // Without HeapStats' pinned count the free space alone is the evidence.
      return atLeast(fragPct, s.fragPercent!) && atLeast(c.gen0[i]!, s.gen0ShareOfHeap! * c.heapAfter[i]!) && (!Number.isFinite(pins) || pins > 0);
    });
    const share = judgedRows.length > 0 ? hit.length / judgedRows.length : 0;
    const score = mapExp100Two(share, s.infoShare!, s.warnShare!);
    const reason = `${formatInt(hit.length)} of ${formatInt(judgedRows.length)} GCs left gen0 ≥ ${s.fragPercent} % free space and ≥ ${formatPercent(100 * s.gen0ShareOfHeap!, 0)} of the heap with pins (${formatPercent(100 * share, 0)}; info at ${formatPercent(100 * s.infoShare!, 0)}, warning at ${formatPercent(100 * s.warnShare!, 0)})`;
    if (hit.length === 0) return judged(0, reason);
    const last = hit[hit.length - 1]!;
    let maxPins = 0;
    for (const i of hit) if (Number.isFinite(c.pinnedObjects[i]!)) maxPins = Math.max(maxPins, c.pinnedObjects[i]!);
    return judged(score, reason, {
      title: `Gen0 is mostly free space after ${formatInt(hit.length)} of ${formatInt(judgedRows.length)} GCs (${formatPercent((100 * c.frag0[last]!) / c.gen0[last]!, 0)} of ${formatMB(c.gen0[last]!)} after GC #${formatInt(c.number[last]!)}): pinned objects block compaction`,
      evidence: evidenceOf(c, hit),
      explanation:
        `Objects pinned while the GC runs (up to ${maxPins} per GC here) cannot move, so the GC cannot compact gen0 around them: the space between them stays as free space inside gen0, which makes the heap larger than its data. ` +
        'Long-lived pins among young objects (GCHandle.Alloc(…, Pinned), fixed buffers held across awaits) are the usual cause.',
      advice:
        'Allocate buffers that must stay pinned on the pinned object heap (GC.AllocateArray<T>(n, pinned: true), .NET 5+) or pin them early, in a batch, so they sit together in gen2. Keep pins short (Memory<T>.Pin only around the native call). Record with the GCHandle keyword to see who pins.',
    });
  },
};
