/**
 * D1 — DATAS oscillation (docs/diagnosis.md DATAS rules, derived): the heap count goes up and down again and
 * again. Counted over the decisions in view: a reversal is a change whose direction is opposite to
 * the previous change; a finding when some 10 consecutive decisions hold at least 3 reversals.
 */
import { formatInt } from '../../shared/format.js';
import { datasInView, rowsOfNumbers } from '../datas-data.js';
import { evidenceOf } from '../gc-set.js';
import { judged, notApplicable, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const datasOscillation: Rule = {
  id: 'datas-oscillation',
  name: 'DATAS heap count oscillates',
  source: "D1 (derived; docs/diagnosis.md, DATAS rules over the runtime's SizeAdaptationTuning decisions)",
  goal: 'throughput',
  settings: [
    { name: 'window', default: 10, unit: 'decisions', description: 'consecutive decisions looked at together' },
    { name: 'infoReversals', default: 3, unit: 'reversals', description: 'direction reversals within the window for an info finding' },
    { name: 'warnReversals', default: 5, unit: 'reversals', description: 'reversals within the window for a warning' },
  ],
  evaluate({ columns: c, facts, s, fromMSec, toMSec }) {
    const d = facts.serverGc;
    if (d === undefined || !d.serverGc) return notApplicable('not Server GC');
    const v = datasInView(d, fromMSec, toMSec);
    if (v.tunings.length === 0)
      return notMeasured('DATAS heap-count decisions (SizeAdaptationTuning / HeapCountTuning: Server GC with DATAS, GC keyword at Informational)');
    // Each change: the decision index and its direction (+1 up, −1 down).
    const changes: { at: number; dir: number; gc: number }[] = [];
    let count = v.tunings[0]!.heapCount ?? v.tunings[0]!.newHeapCount;
    v.tunings.forEach((t, k) => {
      if (t.newHeapCount !== count) changes.push({ at: k, dir: Math.sign(t.newHeapCount - count), gc: t.gcNumber });
      count = t.newHeapCount;
    });
    const reversals: { at: number; gc: number }[] = [];
    for (let k = 1; k < changes.length; k++) if (changes[k]!.dir !== changes[k - 1]!.dir) reversals.push({ at: changes[k]!.at, gc: changes[k]!.gc });
    let worst = 0;
    let worstFrom = 0;
    for (let a = 0; a < reversals.length; a++) {
      let b = a;
      while (b + 1 < reversals.length && reversals[b + 1]!.at - reversals[a]!.at < s.window!) b++;
      if (b - a + 1 > worst) {
        worst = b - a + 1;
        worstFrom = a;
      }
    }
    const reason = `${formatInt(reversals.length)} direction reversals over ${formatInt(v.tunings.length)} decisions; at most ${worst} within ${s.window} consecutive decisions (info at ${s.infoReversals}, warning at ${s.warnReversals})`;
    const score = mapExp100Two(worst, s.infoReversals!, s.warnReversals!);
    if (worst < s.infoReversals!) return judged(score, reason);
    const gcs = reversals.slice(worstFrom, worstFrom + worst).map((r) => r.gc);
    return judged(score, reason, {
      title: `DATAS changed direction ${worst} times within ${s.window} heap-count decisions`,
      evidence: evidenceOf(c, rowsOfNumbers(c, gcs)),
      explanation:
        "DATAS grows the heap count when the GC's throughput cost is above its target and shrinks it when below. Going back and forth means the cost hovers around the target; each change costs a pause outside any GC and a background GC to rethread free lists.",
      advice:
        'Look at the throughput-cost lane: if the cost sits near the target, raise the target (GCDTargetTCP) or fix the heap count (DOTNET_GCHeapCount, or turn DATAS off with GCDynamicAdaptationMode=0) for a steady load.',
    });
  },
};
