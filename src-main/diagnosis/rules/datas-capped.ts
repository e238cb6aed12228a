/**
 * D2 — DATAS capped while expensive (docs/diagnosis.md DATAS rules, derived): the heap count is at the most
 * DATAS allows (its budget-implied MaxHeapCountDatas, or the machine's cores) while the median
 * throughput cost stays above twice the target for a while — more heaps cannot help.
 */
import { datasInView, rowsOfNumbers } from '../datas-data.js';
import { evidenceOf } from '../gc-set.js';
import { judged, notApplicable, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const datasCapped: Rule = {
  id: 'datas-capped',
  name: 'DATAS at its heap-count cap while expensive',
  source: 'D2 (derived; docs/diagnosis.md, DATAS rules)',
  goal: 'throughput',
  settings: [
    { name: 'costFactor', default: 2, unit: '× target', description: 'median throughput cost above this multiple of the target counts as expensive' },
    { name: 'infoSeconds', default: 30, unit: 's', description: 'time capped and expensive for an info finding' },
    { name: 'warnSeconds', default: 120, unit: 's', description: 'time for a warning' },
  ],
  evaluate({ columns: c, facts, s, fromMSec, toMSec }) {
    const d = facts.serverGc;
    if (d === undefined || !d.serverGc) return notApplicable('not Server GC');
    const v = datasInView(d, fromMSec, toMSec);
    if (v.tunings.length === 0) return notMeasured('DATAS heap-count decisions (SizeAdaptationTuning: Server GC with DATAS on .NET 9+)');
    const cores = facts.cpuCount ?? null;
    const capped = (t: (typeof v.tunings)[number]): boolean => {
      const n = t.heapCount ?? t.newHeapCount;
      const max = t.fields.maxHeapCountDatas ?? 0;
      return (max > 0 && n >= max) || (cores !== null && n >= cores);
    };
    const limit = v.targetTcpPercent * s.costFactor!;
    // Longest run of consecutive decisions that are capped and expensive, by time.
    let best = { ms: 0, gcs: [] as number[] };
    let run: typeof v.tunings = [];
    const close = (): void => {
      if (run.length >= 2) {
        const ms = run[run.length - 1]!.timeMSec - run[0]!.timeMSec;
        if (ms > best.ms) best = { ms, gcs: run.map((t) => t.gcNumber) };
      }
      run = [];
    };
    for (const t of v.tunings) {
      if (capped(t) && t.medianTcpPercent > limit) run.push(t);
      else close();
    }
    close();
    const sec = best.ms / 1000;
    const reason = `longest stretch capped with median throughput cost above ${limit} %: ${sec.toFixed(1)} s (info at ${s.infoSeconds} s, warning at ${s.warnSeconds} s)${cores === null ? '; cores unknown, cap = MaxHeapCountDatas' : `; ${cores} cores`}`;
    const score = mapExp100Two(sec, s.infoSeconds!, s.warnSeconds!);
    if (sec < s.infoSeconds!) return judged(score, reason);
    return judged(score, reason, {
      title: `DATAS was at its heap-count cap for ${sec.toFixed(0)} s while the GC cost more than ${limit} % of the time`,
      evidence: evidenceOf(c, rowsOfNumbers(c, best.gcs)),
      explanation:
        "DATAS adds heaps to bring the GC's throughput cost down to its target, but it cannot go above the count its budget or the machine allows. Here it was at that cap and the cost stayed high: more heaps were not an option.",
      advice:
        'Consider a higher target (GCDTargetTCP), less memory conservation (GCConserveMemory), or turning DATAS off for this workload (GCDynamicAdaptationMode=0: fixed Server GC heaps); also reduce allocation (see the other findings).',
    });
  },
};
