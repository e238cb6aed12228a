/**
 * D6 — DATAS data missing (docs/diagnosis.md, DATAS rules): a Server GC process on .NET 9 or later (DATAS on
 * by default) whose trace has no DATAS events at all. Either DATAS is off for it, or the GC
 * keyword was not enabled at Informational level, so the DATAS rules cannot judge anything.
 */
import { judged, notApplicable, type Rule } from '../rule.js';

export const datasMissingData: Rule = {
  id: 'datas-missing-data',
  name: 'No DATAS data for a Server GC on .NET 9+',
  source: 'D6 (derived; docs/diagnosis.md, DATAS rules)',
  goal: 'throughput',
  settings: [],
  evaluate({ facts }) {
    const d = facts.serverGc;
    if (d === undefined || !d.serverGc) return notApplicable('not Server GC');
    if (!d.missingDynamicEvents)
      return judged(0, d.samples.length + d.tunings.length > 0 ? 'DATAS events present' : 'runtime older than .NET 9, or its version unknown');
    return judged(30, 'Server GC on .NET 9+ and no GC dynamic events in the trace', {
      title: 'Server GC on .NET 9+ but the trace has no DATAS data: DATAS is off, or the GC events were not recorded at Informational level',
      evidence: { gcs: [], startMSec: null, endMSec: null },
      explanation:
        'From .NET 9 Server GC adapts its heap count (DATAS) by default and reports each decision as a GC dynamic event. None is here, so the heap-count findings cannot be judged.',
      advice:
        'If DATAS should be on, check GCDynamicAdaptationMode / System.GC.DynamicAdaptationMode; record with the gc-collect or gc-verbose profile (GC keyword at Informational or above).',
    });
  },
};
