/**
 * D5 — the cost of heap-count changes (docs/formats.md §3.6, docs/diagnosis.md DATAS rules): DATAS applies a change outside any GC
 * by suspending the runtime (SuspendForGCPrep) to move regions and rethread free lists. Those
 * pauses belong to no GC; this rule sums them and flags the longest.
 */
import { formatInt } from '../../shared/format.js';
import { datasInView, rowsOfNumbers } from '../datas-data.js';
import { evidenceOf } from '../gc-set.js';
import { judged, notApplicable, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const datasChangeCost: Rule = {
  id: 'datas-change-cost',
  name: 'Heap-count change pauses',
  source: 'D5 (derived; runtime dynamic_heap_count.cpp; docs/formats.md §3.6)',
  goal: 'latency',
  settings: [
    { name: 'infoMaxMSec', default: 10, unit: 'ms', description: 'longest change pause for an info finding' },
    { name: 'warnMaxMSec', default: 50, unit: 'ms', description: 'longest change pause for a warning' },
  ],
  evaluate({ columns: c, facts, s, fromMSec, toMSec }) {
    const d = facts.serverGc;
    if (d === undefined || !d.serverGc) return notApplicable('not Server GC');
    const v = datasInView(d, fromMSec, toMSec);
    if (v.changePauses.length === 0) return judged(0, 'no heap-count change pause in view');
    const total = v.changePauses.reduce((a, p) => a + p.durationMSec, 0);
    const max = Math.max(...v.changePauses.map((p) => p.durationMSec));
    const reason = `${formatInt(v.changePauses.length)} heap-count change pauses, ${total.toFixed(3)} ms in all, longest ${max.toFixed(3)} ms (info at ${s.infoMaxMSec} ms, warning at ${s.warnMaxMSec} ms)`;
    const score = mapExp100Two(max, s.infoMaxMSec!, s.warnMaxMSec!);
    if (max < s.infoMaxMSec!) return judged(score, reason);
    const longest = v.changePauses.filter((p) => p.durationMSec >= s.infoMaxMSec!);
    return judged(score, reason, {
      title: `Heap-count changes paused the application for up to ${max.toFixed(1)} ms outside any GC (${formatInt(v.changePauses.length)} changes, ${total.toFixed(1)} ms in all)`,
      evidence: {
        ...evidenceOf(
          c,
          rowsOfNumbers(
            c,
            longest.map((p) => p.afterGCNumber),
          ),
        ),
        startMSec: longest[0]!.startMSec,
        endMSec: longest[longest.length - 1]!.startMSec + longest[longest.length - 1]!.durationMSec,
      },
      explanation:
        'To change the heap count DATAS suspends the runtime between GCs (SuspendEE for GC prep) and moves regions and free lists to the new heaps. These pauses are not part of any GC, so GC pause statistics miss them; the next GC is also made a background GC to rebuild gen2 free lists.',
      advice: 'Frequent or long changes: see datas-oscillation; a steady service can fix the heap count (GCHeapCount with GCDynamicAdaptationMode=0).',
    });
  },
};
