/**
 * M6 — LOH allocation waits during background GC (docs/diagnosis.md M6; PerfView GCStats' "LOH
 * Allocation Pause (due to background GC) > 200 Msec" table). While a background GC runs, the GC
 * throttles LOH allocations; threads wait. Only the private provider's BGCAllocWaitBegin/End
 * events show it (paired into waits per thread and attributed to their BGC by
 * gc/bgc-alloc-waits.ts; per BGC the longest wait and the total are columns). A background GC
 * during which the provider was on has numbers (0: nothing waited); without the provider they are
 * unknown, and the rule says "not measured" rather than "fine".
 *
 * Warning when one wait reaches warnMSec (GCStats' 200 ms table); info when the waits of one BGC
 * add up to infoMSec (docs/diagnosis.md M6: Σ waits per BGC ≥ 50 ms) — several threads each waiting a
 * little cost as much as one waiting long, but only a single long wait is a definitive sign.
 */
import { formatInt, formatMs } from '../../shared/format.js';
import { evidenceOf, gcList, isBackground, numbersOf } from '../gc-set.js';
import { judged, notApplicable, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast } from '../stats.js';

/** The highest score the total of a BGC's waits alone can give: an info finding, never a warning. */
const TOTAL_ONLY_MAX_SCORE = 74.9;

export const LOH_WAIT_NEEDS =
  'BGCAllocWaitBegin/End events of the private provider (Microsoft-Windows-DotNETRuntimePrivate, keyword 0x1 GC, level Informational — every GCScope profile asks for it; a session stored before GCScope read these events needs importing again)';

export const lohAllocWait: Rule = {
  id: 'loh-alloc-wait',
  name: 'LOH allocations wait for background GC',
  source: 'M6 (Maoni Stephens, .NET Memory Performance Analysis; PerfView GCStats)',
  goal: 'latency',
  settings: [
    { name: 'infoMSec', default: 50, unit: 'ms', description: 'waits of one background GC adding up to this make an info finding' },
    { name: 'warnMSec', default: 200, unit: 'ms', description: 'one wait this long makes a warning (GCStats lists waits over 200 ms)' },
  ],
  evaluate({ columns: c, rows, s }) {
    const bgcs = rows.filter((i) => isBackground(c, i));
    if (bgcs.length === 0) return notApplicable('no background GC in view: large allocations only wait for background GCs');
    const measured = bgcs.filter((i) => Number.isFinite(c.lohWaitMax[i]!));
    if (measured.length === 0) return notMeasured(LOH_WAIT_NEEDS);
    let longest = measured[0]!;
    let most = measured[0]!;
    for (const i of measured) {
      if (c.lohWaitMax[i]! > c.lohWaitMax[longest]!) longest = i;
      if (c.lohWaitTotal[i]! > c.lohWaitTotal[most]!) most = i;
    }
    const maxWait = c.lohWaitMax[longest]!;
    const maxTotal = c.lohWaitTotal[most]!;
    const unmeasured = bgcs.length - measured.length;
    const of = `${formatInt(measured.length)} background GC${measured.length === 1 ? '' : 's'}${unmeasured > 0 ? ` (${formatInt(unmeasured)} more without the private provider's events)` : ''}`;
    if (maxTotal <= 0) return judged(0, `no LOH allocation waited during ${of}`);
    const score = Math.max(mapExp100Two(maxWait, s.infoMSec!, s.warnMSec!), Math.min(TOTAL_ONLY_MAX_SCORE, mapExp100Two(maxTotal, s.infoMSec!, s.warnMSec!)));
    const reason =
      `longest LOH allocation wait ${formatMs(maxWait)} (BGC #${formatInt(c.number[longest]!)}; warning at ${formatMs(s.warnMSec!)}), ` +
      `most waited during one BGC ${formatMs(maxTotal)} (BGC #${formatInt(c.number[most]!)}; info at ${formatMs(s.infoMSec!)}), over ${of}`;
    // Evidence: the BGCs whose waits reach a finding on their own (or the worst one).
    const ev = measured.filter((i) => atLeast(c.lohWaitMax[i]!, s.warnMSec!) || atLeast(c.lohWaitTotal[i]!, s.infoMSec!));
    const evidence = ev.length > 0 ? ev : [most];
    const waitedIn = measured.filter((i) => c.lohWaitTotal[i]! > 0);
    const totalAll = waitedIn.reduce((a, i) => a + c.lohWaitTotal[i]!, 0);
    return judged(score, reason, {
      title: `A large allocation waited ${formatMs(maxWait)} for background GC #${formatInt(c.number[longest]!)} to finish (${formatMs(totalAll)} of waits in ${formatInt(waitedIn.length)} of ${formatInt(measured.length)} background GCs)`,
      evidence: evidenceOf(c, evidence),
      explanation:
        'While a background GC runs, the GC limits how much the large object heap may grow, so that it does not outgrow what the GC can sweep: a thread that allocates more large objects (≥ 85,000 bytes) waits until the background GC is done. ' +
        `Threads allocating on the LOH stood still during ${gcList(numbersOf(c, evidence))}: to the application this is a pause, though no GC pause shows it.`,
      advice:
        'Allocate fewer large objects: pool and reuse large buffers (ArrayPool<T>.Shared), stream instead of building large arrays or strings, and raise GCLOHThreshold if most are just above 85,000 bytes. ' +
        'Fewer LOH allocations also mean fewer background GCs triggered by the LOH budget (see loh-triggered-gen2 if raised).',
    });
  },
};
