/**
 * M12 — gen2 fragmentation when a background GC starts (docs/diagnosis.md M12; MEM "Gen2
 * fragmentation"). A background GC sweeps (never compacts), leaving a free list that later
 * promotions should fill; 70–80 % free space when the next one starts means that free list went
 * unused (typical after a load peak). The entry fragmentation is gen2's free space / size after
 * the GC just before the background GC. GCConserveMemory ≈ (100 − target %) / 10 trades CPU for
 * compaction.
 */
import { formatInt, formatPercent } from '../../shared/format.js';
import { anyFinite, evidenceOf, isBackground } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { median } from '../stats.js';

export const gen2FragmentationBgc: Rule = {
  id: 'gen2-fragmentation-bgc',
  name: 'Gen2 fragmentation at background GC',
  source: 'M12 (Maoni Stephens, .NET Memory Performance Analysis: gen2 fragmentation on entry of a BGC)',
  goal: 'footprint',
  settings: [
    { name: 'infoPercent', default: 50, unit: '%', description: 'median gen2 free space when background GCs start, for an info finding' },
    { name: 'warnPercent', default: 70, unit: '%', description: 'median for a warning' },
    { name: 'targetPercent', default: 20, unit: '%', description: 'fragmentation the GCConserveMemory advice aims for' },
  ],
  evaluate({ columns: c, rows, s }) {
    if (!anyFinite(c.frag2, rows)) return notMeasured('gen2 fragmentation from GCPerHeapHistory events (record with gc-collect or gc-verbose)');
    const bgcs: number[] = [];
    const entry: number[] = [];
    for (const i of rows) {
      if (!isBackground(c, i) || i === 0) continue;
      const size = c.gen2[i - 1]!;
      const frag = c.frag2[i - 1]!;
      if (!(size > 0) || !Number.isFinite(frag)) continue;
      bgcs.push(i);
      entry.push((100 * frag) / size);
    }
    if (bgcs.length === 0) return judged(0, 'no background GC with gen2 sizes before it');
    const med = median(entry);
    const score = mapExp100Two(med, s.infoPercent!, s.warnPercent!);
    const reason = `median gen2 free space when ${formatInt(bgcs.length)} background GCs started: ${formatPercent(med, 0)} (info at ${s.infoPercent} %, warning at ${s.warnPercent} %)`;
    const conserve = Math.min(9, Math.max(1, Math.round((100 - s.targetPercent!) / 10)));
    return judged(score, reason, {
      title: `Gen2 was ${formatPercent(med, 0)} free space when background GCs started (median of ${formatInt(bgcs.length)})`,
      evidence: evidenceOf(
        c,
        bgcs.filter((_, k) => entry[k]! >= s.infoPercent!),
      ),
      explanation:
        'A background GC does not compact: it builds a free list in gen2 that later promotions are meant to fill. When the next one starts with most of gen2 still free, that space went unused — the heap is much larger than its data, typically after a load peak.',
      advice: `GCConserveMemory=${conserve} (DOTNET_GCConserveMemory, .NET 6+) makes the GC compact gen2 when fragmentation is high, aiming for about ${s.targetPercent} % free space; it costs some CPU in those GCs.`,
    });
  },
};
