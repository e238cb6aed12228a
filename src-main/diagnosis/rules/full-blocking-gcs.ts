/**
 * M3 — most GCs are full blocking GCs (docs/diagnosis.md M3; MEM "Top level GC metrics"). With
 * background GC available, gen2 work should mostly be background; many full blocking GCs ("2N")
 * mean the GC had to stop everything — usually because of high memory load or gen2
 * fragmentation. Causes other rules report on their own are left out of the count, so one cause
 * makes one finding: induced GCs (induced-gcs) and LOH-triggered gen2s (loh-triggered-gen2).
 */
import { gcReasonName } from '../../shared/gc-enums.js';
import { formatInt, formatMB, formatPercent } from '../../shared/format.js';
import { evidenceOf, isFullBlocking, isInduced, LOH_REASONS } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const fullBlockingGcs: Rule = {
  id: 'full-blocking-gcs',
  name: 'Full blocking GCs',
  source: 'M3 (Maoni Stephens, .NET Memory Performance Analysis: definitive signs)',
  goal: 'latency',
  settings: [
    {
      name: 'infoShare',
      default: 0.25,
      unit: 'ratio',
      description: 'share of GCs that are full blocking (not induced, not LOH-triggered) for an info finding',
    },
    { name: 'warnShare', default: 0.5, unit: 'ratio', description: 'share for a warning ("most GCs")' },
    { name: 'largeHeapMB', default: 1024, unit: 'MB', description: 'a full blocking GC on a heap at least this large is worth an info finding by itself' },
  ],
  evaluate({ columns: c, rows, s }) {
    if (rows.length === 0) return judged(0, 'no completed GC');
    const full = rows.filter((i) => isFullBlocking(c, i) && !isInduced(c, i) && !LOH_REASONS.has(c.reason[i]!));
    const share = full.length / rows.length;
    let score = mapExp100Two(share, s.infoShare!, s.warnShare!);
    const large = full.filter((i) => c.heapBefore[i]! >= s.largeHeapMB!);
    if (large.length > 0) score = Math.max(score, 50);
    const reason = `${formatInt(full.length)} of ${formatInt(rows.length)} GCs are full blocking for other causes (${formatPercent(100 * share, 0)}; info at ${formatPercent(100 * s.infoShare!, 0)}, warning at ${formatPercent(100 * s.warnShare!, 0)}); ${formatInt(large.length)} on a heap ≥ ${formatMB(s.largeHeapMB!)}`;
    if (full.length === 0) return judged(score, reason);
    const byReason = new Map<number, number>();
    for (const i of full) byReason.set(c.reason[i]!, (byReason.get(c.reason[i]!) ?? 0) + 1);
    const causes = [...byReason]
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${gcReasonName(r)} ${n}`)
      .join(', ');
    return judged(score, reason, {
      title: `${formatInt(full.length)} full blocking gen2 GCs: ${formatPercent(100 * share, 0)} of all GCs (${causes})`,
      evidence: evidenceOf(c, full),
      explanation:
        'A full blocking GC stops every thread while it marks and usually compacts the whole heap, which takes longer the larger the heap. ' +
        'With background GC available, most gen2 work should be background; here gen2 GCs escalated to blocking ones. The usual causes are high memory load and gen2 fragmentation.',
      advice:
        'Look at why each escalated (the condemned reasons in the GC detail). High memory load: see high-memory-load, consider GCHeapHardLimit or more memory. Fragmentation with memory to spare: GCLatencyMode.SustainedLowLatency keeps full blocking GCs to when they are needed. Make sure concurrent GC is enabled (System.GC.Concurrent).',
    });
  },
};
