/**
 * What the DATAS rules (D1–D6, docs/diagnosis.md, DATAS rules) read: the session's DATAS samples, decisions and
 * heap-count change pauses inside the window in view, and the GC rows they belong to.
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { DatasSample, DatasTuning, HeapCountChangePause, ServerGcData } from '../shared/server-gc.js';

export interface DatasInView {
  samples: DatasSample[];
  /** Heap-count decisions (not the gen2 backstop), in order. */
  tunings: DatasTuning[];
  fullGcTunings: DatasTuning[];
  changePauses: HeapCountChangePause[];
  targetTcpPercent: number;
}

export function datasInView(d: ServerGcData, fromMSec: number, toMSec: number): DatasInView {
  const inView = (t: number): boolean => t >= fromMSec && t <= toMSec;
  const tunings = d.tunings.filter((t) => inView(t.timeMSec));
  return {
    samples: d.samples.filter((s) => inView(s.timeMSec)),
    tunings: tunings.filter((t) => t.kind !== 'full-gc-tuning'),
    fullGcTunings: tunings.filter((t) => t.kind === 'full-gc-tuning'),
    changePauses: d.changePauses.filter((p) => inView(p.startMSec)),
    targetTcpPercent: d.targetTcpPercent,
  };
}

/** The rows (GC indexes in the columns) of these GC numbers, in GC order. */
export function rowsOfNumbers(c: GcColumns, numbers: Iterable<number>): number[] {
  const want = new Set(numbers);
  const out: number[] = [];
  for (let i = 0; i < c.number.length; i++) if (want.has(c.number[i]!)) out.push(i);
  return out;
}
