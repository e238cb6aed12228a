/**
 * DATAS / Server GC view of a session (docs/formats.md §3.6; the rules read it: docs/diagnosis.md, "DATAS rules"): the samples
 * (each GC's pause, allocation waits and time since the previous GC), the tuning decisions and
 * the heap-count change pauses, from the dynamic events as the analyzer attached them to GCs —
 * the same rows whether they come from a trace file in memory or from the store.
 */
import type { GCDynamicData } from '../clr/gc-dynamic.js';
import {
  DEFAULT_TARGET_TCP_PERCENT,
  type DatasSample,
  type DatasTuning,
  type DynamicEventRecord,
  type HeapCountChangePause,
  type MemorySettings,
  type ServerGcData,
} from '../shared/server-gc.js';
import type { GCPrepPause } from './gc-analyzer.js';
import type { TraceGC } from './trace-gc.js';

const PREP = 'SuspendForGCPrep';

/** The dynamic events and change pauses of GCs in memory, as the store keeps them. */
export function dynamicEventRecords(
  gcs: readonly Pick<TraceGC, 'index' | 'number' | 'dynamicEvents'>[],
  prepPauses: readonly GCPrepPause[],
): DynamicEventRecord[] {
  const out: DynamicEventRecord[] = [];
  for (const gc of gcs) {
    for (const { timeMSec, ...d } of gc.dynamicEvents)
      out.push({
        gcIndex: gc.index,
        gcNumber: gc.number,
        timeMSec,
        name: d.name === 'Raw' ? d.eventName : d.name,
        data: d as unknown as Record<string, unknown>,
      });
  }
  for (const p of prepPauses) out.push({ gcIndex: null, gcNumber: p.afterGCNumber, timeMSec: p.startMSec, name: PREP, data: { durationMSec: p.durationMSec } });
  return out.sort((a, b) => a.timeMSec - b.timeMSec);
}

const num = (d: Record<string, unknown>, k: string): number => (typeof d[k] === 'number' ? (d[k] as number) : Number.NaN);

export interface ServerGcInput {
  events: readonly DynamicEventRecord[];
  /** Each GC's own heap count by GC number (null when the GC has none). */
  heapCountOf: (gcNumber: number) => number | null;
  serverGc: boolean;
  gcMode: string | null;
  /** Major runtime version (8, 9, 10…), null when unknown. */
  runtimeMajor: number | null;
  settings: MemorySettings | null;
  rawDynamicEvents: Record<string, number>;
}

export function buildServerGcData(input: ServerGcInput): ServerGcData {
  const samples: DatasSample[] = [];
  const tunings: DatasTuning[] = [];
  const changePauses: HeapCountChangePause[] = [];
  let dynamicCount = 0;
  for (const e of input.events) {
    const d = e.data;
    const gcNumber = e.gcNumber ?? -1;
    if (e.name === PREP) {
      changePauses.push({ startMSec: e.timeMSec, durationMSec: num(d, 'durationMSec'), afterGCNumber: gcNumber });
      continue;
    }
    dynamicCount++;
    const heapCount = input.heapCountOf(gcNumber);
    switch (e.name as GCDynamicData['name']) {
      case 'SizeAdaptationSample':
        samples.push({
          gcNumber,
          timeMSec: e.timeMSec,
          elapsedUs: num(d, 'elapsedTimeBetweenGCs'),
          pauseUs: num(d, 'gcPauseTime'),
          mslWaitUs: num(d, 'sohMslWaitTime') + num(d, 'uohMslWaitTime'),
          heapCount: heapCount ?? 1,
          gen0BudgetPerHeap: num(d, 'gen0BudgetPerHeap'),
          sohStableSize: num(d, 'totalSohStableSize'),
        });
        break;
      case 'HeapCountSample':
        samples.push({
          gcNumber,
          timeMSec: e.timeMSec,
          elapsedUs: num(d, 'elapsedTimeBetweenGCs'),
          pauseUs: num(d, 'gcPauseTime'),
          mslWaitUs: num(d, 'mslWaitTime'),
          heapCount: heapCount ?? 1,
          gen0BudgetPerHeap: null,
          sohStableSize: null,
        });
        break;
      case 'SizeAdaptationTuning':
      case 'SizeAdaptationFullGCTuning':
      case 'HeapCountTuning': {
        const fields: Record<string, number> = {};
        for (const [k, v] of Object.entries(d))
          if (typeof v === 'number' && !['version', 'gcIndex', 'newHeapCount', 'medianThroughputCostPercent'].includes(k)) fields[k] = v;
        const s = d.samples;
        if (Array.isArray(s))
          (s as { age: number; percent: number }[]).forEach((x, i) => ((fields[`gen2Sample${i}Age`] = x.age), (fields[`gen2Sample${i}Percent`] = x.percent)));
        tunings.push({
          kind: e.name === 'SizeAdaptationTuning' ? 'tuning' : e.name === 'SizeAdaptationFullGCTuning' ? 'full-gc-tuning' : 'net8-tuning',
          gcNumber,
          timeMSec: e.timeMSec,
          heapCount,
          newHeapCount: num(d, 'newHeapCount'),
          medianTcpPercent: num(d, 'medianThroughputCostPercent'),
          fields,
        });
        break;
      }
      default:
        break;
    }
  }
  return {
    serverGc: input.serverGc,
    gcMode: input.gcMode,
    targetTcpPercent: DEFAULT_TARGET_TCP_PERCENT,
    samples,
    tunings,
    changePauses,
    rawDynamicEvents: input.rawDynamicEvents,
    settings: input.settings,
    missingDynamicEvents:
      input.serverGc && input.runtimeMajor !== null && input.runtimeMajor >= 9 && dynamicCount === 0 && Object.keys(input.rawDynamicEvents).length === 0,
  };
}
