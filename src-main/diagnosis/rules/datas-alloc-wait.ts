/**
 * D3 — allocation-wait-dominated throughput cost (docs/diagnosis.md DATAS rules, derived; .NET docs on DATAS):
 * the share of DATAS samples in which the more-space-lock waits per heap are at least the GC pause.
 * Typical with 1 heap at startup or when load rises: threads wait to get allocation space.
 */
import { formatInt } from '../../shared/format.js';
import { datasInView, rowsOfNumbers } from '../datas-data.js';
import { evidenceOf } from '../gc-set.js';
import { judged, notApplicable, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const datasAllocWait: Rule = {
  id: 'datas-alloc-wait',
  name: 'DATAS cost dominated by allocation waits',
  source: 'D3 (derived; docs/diagnosis.md, DATAS rules)',
  goal: 'throughput',
  settings: [
    { name: 'infoShare', default: 0.5, unit: 'share of samples', description: 'share of samples where waits ÷ heaps ≥ pause, for an info finding' },
    { name: 'warnShare', default: 0.8, unit: 'share of samples', description: 'share for a warning' },
    { name: 'minSamples', default: 10, unit: 'samples', description: 'samples needed to judge' },
  ],
  evaluate({ columns: c, facts, s, fromMSec, toMSec }) {
    const d = facts.serverGc;
    if (d === undefined || !d.serverGc) return notApplicable('not Server GC');
    const v = datasInView(d, fromMSec, toMSec);
    if (v.samples.length === 0) return notMeasured('DATAS samples (SizeAdaptationSample / HeapCountSample: Server GC with DATAS, GC keyword at Informational)');
    if (v.samples.length < s.minSamples!) return judged(0, `${formatInt(v.samples.length)} DATAS samples (fewer than ${s.minSamples})`);
    const waiting = v.samples.filter((x) => x.mslWaitUs > 0 && x.mslWaitUs / Math.max(1, x.heapCount) >= x.pauseUs);
    const share = waiting.length / v.samples.length;
    const reason = `${formatInt(waiting.length)} of ${formatInt(v.samples.length)} samples (${(share * 100).toFixed(0)} %) had allocation waits ÷ heaps ≥ the GC pause (info at ${s.infoShare! * 100} %, warning at ${s.warnShare! * 100} %)`;
    const score = mapExp100Two(share, s.infoShare!, s.warnShare!);
    if (share < s.infoShare!) return judged(score, reason);
    return judged(score, reason, {
      title: `Allocation waits, not GC pauses, made most of DATAS's throughput cost (${(share * 100).toFixed(0)} % of samples)`,
      evidence: evidenceOf(
        c,
        rowsOfNumbers(
          c,
          waiting.map((x) => x.gcNumber),
        ),
      ),
      explanation:
        'DATAS counts both GC pauses and the time threads wait on the more-space lock for allocation space. When the waits dominate, too few heaps serve too many allocating threads — typical right after start (DATAS begins with one heap) and when load rises.',
      advice:
        'If this is startup, it settles as DATAS adds heaps (see the heap-count lane). If it persists, start with more heaps (GCHeapCount) or turn DATAS off for a startup-critical service (GCDynamicAdaptationMode=0).',
    });
  },
};
