/**
 * One GC mode and heap count for a process (issue 39), from what the runtime itself says: DATAS is
 * named whenever DATAS reported, even at a steady heap count; a trace without the runtime's
 * rundown (a capture, a killed target) takes its heap count from the GCs' GlobalHeapHistory, not
 * from per-heap events that a gap filed under the wrong GC; and a GC without its own
 * GlobalHeapHistory (a Server GC's background GC) has the heap count in force, not n/a.
 */
import { describe, expect, it } from 'vitest';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { describeProcess, gcModeLabel } from '../../src-main/gc/process-info.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { GCType } from '../../src-main/gc/trace-gc.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { traceBytes } from '../helpers/fixtures.js';

function analyze(name: string): GCAnalyzer {
  const analyzer = new GCAnalyzer({});
  const reader = new NettraceReader({ onTrace: (t) => analyzer.setTrace(t), onEvent: (e) => analyzer.onEvent(e) });
  reader.push(traceBytes(name));
  reader.end();
  analyzer.finish();
  return analyzer;
}

describe('issue 39: the GC mode and heap count', () => {
  it('.NET 8 Server GC with DATAS at a steady one heap says "server (DATAS)", not plain "server"', () => {
    const a = analyze('workload-net8-datas.nettrace.zip');
    // The heap count never changed in this trace: only DATAS's own events tell.
    expect(new Set(a.heapCountChanges.map(([, n]) => n)).size).toBe(1);
    const p = describeProcess(a, {});
    expect(gcModeLabel(p)).toBe('server (DATAS)');
    expect(p.heapCount).toBe(1);
  });

  it('plain Server GC (no DATAS events) stays "server" with its two heaps', () => {
    const p = describeProcess(analyze('workload-net8-server.nettrace.zip'), {});
    expect(gcModeLabel(p)).toBe('server');
    expect(p.heapCount).toBe(2);
  });

  it('a workstation trace without its rundown, one GC holding two GCs\' per-heap events, says "workstation", 1 heap — not "server · 2 heaps"', () => {
    const a = analyze('workload-net8-workstation.nettrace.zip');
    // Cut before the rundown (no RuntimeInformation, no settings), and a gap that filed the next
    // GC's PerHeapHistory under this one: two per-heap events for one GC.
    const cut = Object.assign(Object.create(a) as GCAnalyzer, { runtimeInfo: undefined, gcSettings: undefined, maxGCHeapCount: 2 });
    const p = describeProcess(cut, {});
    expect(p.gcMode).toBe('workstation');
    expect(p.heapCount).toBe(1);
  });

  it("a Server GC's background GCs, which carry no GlobalHeapHistory of their own, have the process's heap count, not n/a", () => {
    const a = analyze('workload-server.nettrace.zip');
    const bgcs = a.gcs.filter((g) => g !== undefined && g.type === GCType.Background && g.heapCount <= 0 && g.perHeapHistories.length === 0);
    expect(bgcs.length).toBeGreaterThan(0);
    for (const g of bgcs) expect(toGcRecord(g!).heapCount, `GC #${g!.number}`).toBe(2);
  });
});
