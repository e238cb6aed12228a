/**
 * What the session header says about background GC while a recording is still young: before any
 * background GC has run and before the rundown's settings arrive, the first GCs' latency mode
 * says whether background GC is on (docs/formats.md §3.8).
 */
import { describe, expect, it } from 'vitest';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { backgroundGCAllowedIn, describeProcess, type ProcessDescription } from '../../src-main/gc/process-info.js';
import { GCType } from '../../src-main/gc/trace-gc.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { traceBytes } from '../helpers/fixtures.js';

/**
 * The process as a recording that attached to it describes it when the first GC completes, and as
 * the whole trace describes it. These traces were written by the runtime from its start, so they
 * hold a RuntimeInformation event at the front; a recording that attaches later gets none until
 * the rundown, so the first description leaves it (and the rundown's settings) out.
 */
function describedAtFirstGCAndEnd(name: string): { first: ProcessDescription; firstGCType: number; end: ProcessDescription } {
  let first: ProcessDescription | undefined;
  let firstGCType = -1;
  const analyzer: GCAnalyzer = new GCAnalyzer({
    onGCEnd: (gc) => {
      if (first !== undefined) return;
      expect(analyzer.gcSettings).toBeUndefined();
      const attached = Object.assign(Object.create(analyzer) as GCAnalyzer, { runtimeInfo: undefined, gcSettings: undefined });
      first = describeProcess(attached, {});
      firstGCType = gc.type;
    },
  });
  const reader = new NettraceReader({ onTrace: (t) => analyzer.setTrace(t), onEvent: (e) => analyzer.onEvent(e) });
  reader.push(traceBytes(name));
  reader.end();
  analyzer.finish();
  if (first === undefined) throw new Error(`${name}: no GC completed`);
  return { first, firstGCType, end: describeProcess(analyzer, {}) };
}

describe('background GC on or off, from the first GC', () => {
  for (const [name, concurrent] of [
    ['workload-net8-concurrent.nettrace.zip', true],
    ['workload-net8-workstation.nettrace.zip', false],
  ] as const) {
    it(`${name}: says "${concurrent ? 'concurrent' : 'non-concurrent'}" at the first (blocking) GC, as the rundown later confirms`, () => {
      const d = describedAtFirstGCAndEnd(name);
      // No background GC yet and no rundown: only the GC's own latency mode can say.
      expect(d.firstGCType).not.toBe(GCType.Background);
      expect(d.first.gcMode).toBe('workstation');
      expect(d.first.concurrent).toBe(concurrent);
      expect(d.end.concurrent).toBe(concurrent);
    });
  }

  it('reads the latency modes as the runtime does: Interactive and SustainedLowLatency allow background GC, Batch does not, the others say nothing', () => {
    expect([0, 1, 2, 3, 4].map(backgroundGCAllowedIn)).toEqual([false, true, null, true, null]);
  });
});
