/**
 * M14, headroom part (docs/diagnosis.md M14): with a hard limit (GCHeapHardLimit, or the container
 * default of 75 % of its memory limit) the gap between committed memory and the limit is what is
 * left before out-of-memory. A finding when the tightest gap is a small share of the limit.
 */
import { formatInt, formatMB } from '../../shared/format.js';
import { memoryHeadroom } from '../../shared/server-gc.js';
import { evidenceOf } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const hardLimitHeadroom: Rule = {
  id: 'hard-limit-headroom',
  name: 'Little headroom below the hard limit',
  source: 'M14 (Maoni Stephens, .NET Memory Performance Analysis: hard limit; gcpriv.h container default)',
  goal: 'footprint',
  settings: [
    { name: 'infoUsedShare', default: 0.8, unit: 'share of limit', description: 'committed (or heap) at this share of the hard limit for an info finding' },
    { name: 'warnUsedShare', default: 0.95, unit: 'share of limit', description: 'share for a warning' },
  ],
  evaluate({ columns: c, rows, facts, s }) {
    const settings = facts.serverGc?.settings ?? null;
    if (settings === null) return notMeasured('GCSettingsRundown (the hard limit; .NET 8+ rundown at the end of a recording)');
    if (settings.hardLimitBytes <= 0) return judged(0, 'no hard limit configured');
    const pick = (a: ArrayLike<number>): number[] => rows.map((i) => a[i]!);
    const h = memoryHeadroom({ number: pick(c.number), heapAfter: pick(c.heapAfter), committed: pick(c.committed), memoryLoad: pick(c.memoryLoad) }, settings);
    if (h.minHeadroomMB === null || h.hardLimitMB === null) return judged(0, 'no heap size to compare with the limit');
    const used = 1 - h.minHeadroomMB / h.hardLimitMB;
    const reason = `at most ${(used * 100).toFixed(1)} % of the ${formatMB(h.hardLimitMB)} hard limit in use (headroom ${formatMB(h.minHeadroomMB)} at GC #${formatInt(h.minHeadroomGcNumber)}; info at ${s.infoUsedShare! * 100} %, warning at ${s.warnUsedShare! * 100} %)`;
    const score = mapExp100Two(used, s.infoUsedShare!, s.warnUsedShare!);
    if (used < s.infoUsedShare!) return judged(score, reason);
    const at = rows.filter((i) => c.number[i] === h.minHeadroomGcNumber);
    return judged(score, reason, {
      title: `Only ${formatMB(h.minHeadroomMB)} left below the ${formatMB(h.hardLimitMB)} hard limit (GC #${formatInt(h.minHeadroomGcNumber)})`,
      evidence: evidenceOf(c, at),
      explanation:
        'The GC cannot commit beyond its hard limit: as the heap nears it the GC works harder (compacting full GCs) and then throws OutOfMemoryException.',
      advice:
        "Raise the limit (GCHeapHardLimit / GCHeapHardLimitPercent, or the container's memory limit, of which the default hard limit is 75 %), or reduce the live data (see the footprint findings).",
    });
  },
};
