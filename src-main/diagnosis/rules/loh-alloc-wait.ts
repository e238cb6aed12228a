/**
 * M6 — LOH allocation waits during background GC (insights.md §1 M6; PerfView GCStats' "LOH
 * Allocation Pause (due to background GC) > 200 Msec" table). While a background GC runs, the GC
 * throttles LOH allocations; threads wait. Only the private provider's BGCAllocWaitStart/Stop
 * events show it — without them the rule says "not measured" rather than "fine".
 */
import { formatMs } from '../../shared/format.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const lohAllocWait: Rule = {
  id: 'loh-alloc-wait',
  name: 'LOH allocations wait for background GC',
  source: 'M6 (Maoni Stephens, .NET Memory Performance Analysis; PerfView GCStats)',
  goal: 'latency',
  settings: [
    { name: 'infoMSec', default: 50, unit: 'ms', description: 'longest wait for an info finding' },
    { name: 'warnMSec', default: 200, unit: 'ms', description: 'longest wait for a warning (GCStats lists waits over 200 ms)' },
  ],
  evaluate({ facts, columns: c, rows, s }) {
    if (facts.lohAllocWaits === undefined) {
      // GCScope's profiles enable the private provider, but the waits are not decoded into facts yet.
      return notMeasured('BGCAllocWaitStart/Stop events (Microsoft-Windows-DotNETRuntimePrivate, keyword 0x1) paired into waits, which GCScope does not do yet');
    }
    const inView = new Set(rows.map((i) => c.number[i]!));
    const waits = facts.lohAllocWaits.filter((w) => inView.has(w.gcNumber));
    if (waits.length === 0) return judged(0, 'no LOH allocation waited for a background GC');
    const worst = waits.reduce((a, w) => (w.waitMSec > a.waitMSec ? w : a));
    const score = mapExp100Two(worst.waitMSec, s.infoMSec!, s.warnMSec!);
    const gcs = [...new Set(waits.filter((w) => w.waitMSec >= s.infoMSec!).map((w) => w.gcNumber))].sort((a, b) => a - b);
    return judged(score, `longest LOH allocation wait ${formatMs(worst.waitMSec)} (info at ${formatMs(s.infoMSec!)}, warning at ${formatMs(s.warnMSec!)})`, {
      title: `A large allocation waited ${formatMs(worst.waitMSec)} for background GC #${worst.gcNumber}`,
      evidence: { gcs: gcs.length > 0 ? gcs : [worst.gcNumber], startMSec: null, endMSec: null },
      explanation: 'While a background GC runs, the GC slows down large-object allocations so the LOH does not outgrow what the GC can sweep; the allocating threads wait.',
      advice: 'Allocate fewer large objects (pool and reuse large buffers); every large allocation during a background GC may block.',
    });
  },
};
