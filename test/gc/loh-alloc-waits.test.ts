/**
 * LOH allocation waits during background GCs (gc/bgc-alloc-waits.ts): the pairing of the private
 * provider's BGCAllocWaitBegin/End on its own, then on the real trace of the workload's
 * loh-alloc-wait mode against TraceEvent's own `TraceGC.LOHWaitThreads` (test/oracle/golden
 * `<trace>.loh-waits.csv`, printed by GcOracle --loh-waits). A failure means the Findings panel
 * shows LOH waits that PerfView's GCStats would not, or misses ones it lists.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BgcAllocWaitPairer, lohWaitColumns, type WaitHolder } from '../../src-main/gc/bgc-alloc-waits.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { PROBLEM_TRACES, TRACES, problemTraceName, traceBytes, unzippedName } from '../helpers/fixtures.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { diagnose } from '../../src-main/diagnosis/diagnose.js';
import { diagnosisFacts } from '../../src-main/diagnosis/facts.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';

const holder = (): WaitHolder => ({ lohAllocWaits: undefined });

describe('pairing BGCAllocWaitBegin/End into waits', () => {
  it('pairs a begin with the next end on the same thread, attributed to the BGC running at the begin', () => {
    const p = new BgcAllocWaitPairer<WaitHolder>();
    const bgc = holder();
    p.begin(bgc, 7, 11, 100);
    p.begin(bgc, 8, 10, 105);
    expect(p.end(8, 130)).toBe(bgc);
    expect(p.end(7, 400)).toBe(bgc);
    expect(bgc.lohAllocWaits).toEqual([
      { threadId: 8, reason: 10, startMSec: 105, durationMSec: 25 },
      { threadId: 7, reason: 11, startMSec: 100, durationMSec: 300 },
    ]);
    expect(lohWaitColumns(bgc)).toEqual({ lohAllocWaitMaxMSec: 300, lohAllocWaitTotalMSec: 325, lohAllocWaitCount: 2 });
  });
  it('ignores waits for other reasons and waits with no background GC running (not LOH waits, as TraceEvent)', () => {
    const p = new BgcAllocWaitPairer<WaitHolder>();
    const bgc = holder();
    p.begin(bgc, 7, 3, 100); // awr_loh_alloc: not a BGC LOH wait
    p.begin(undefined, 8, 11, 100);
    expect(p.end(7, 200)).toBeUndefined();
    expect(p.end(8, 200)).toBeUndefined();
    expect(bgc.lohAllocWaits).toBeUndefined();
    expect(lohWaitColumns(bgc)).toEqual({ lohAllocWaitMaxMSec: null, lohAllocWaitTotalMSec: null, lohAllocWaitCount: null });
  });
  it('keeps the first begin of a thread that begins twice, and drops an end whose begin is not in the trace', () => {
    const p = new BgcAllocWaitPairer<WaitHolder>();
    const bgc = holder();
    expect(p.end(7, 50)).toBeUndefined();
    p.begin(bgc, 7, 11, 100);
    p.begin(bgc, 7, 11, 120);
    p.end(7, 160);
    expect(bgc.lohAllocWaits).toEqual([{ threadId: 7, reason: 11, startMSec: 100, durationMSec: 60 }]);
  });
  it('a BGC whose provider events were seen but where nothing waited reads 0, not unknown', () => {
    expect(lohWaitColumns({ lohAllocWaits: [] })).toEqual({ lohAllocWaitMaxMSec: 0, lohAllocWaitTotalMSec: 0, lohAllocWaitCount: 0 });
  });
});

const GOLDEN = join(import.meta.dirname, '..', 'oracle', 'golden');
const TMP = join(process.cwd(), 'test-output', 'golden-traces');
const withWaits = PROBLEM_TRACES.filter((t) => readdirSync(GOLDEN).includes(`${unzippedName(t)}.loh-waits.csv`));

describe("LOH waits on a real trace equal TraceEvent's LOHWaitThreads", () => {
  it('the loh-alloc-wait problem trace has TraceEvent waits to compare with', () => {
    expect(withWaits.map(unzippedName)).toEqual(['problem-loh-alloc-wait.nettrace']);
  });
  for (const name of withWaits) {
    const base = unzippedName(name);
    it(`${base}: every wait's BGC, thread, reason, start and end; each BGC's longest and total`, async () => {
      mkdirSync(TMP, { recursive: true });
      const file = join(TMP, base);
      writeFileSync(file, traceBytes(name));
      const rows = readFileSync(join(GOLDEN, `${base}.loh-waits.csv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').map(Number));
      const { analyzer } = await analyzeTraceFile(file);
      const gcs = analyzer.gcs.filter((g) => g !== undefined);
      const byNumber = new Map(gcs.map((g) => [g.number, g]));
      const ours = gcs.flatMap((g) => (g.lohAllocWaits ?? []).map((w) => ({ number: g.number, ...w })));
      // TraceEvent lists a thread whose wait had not ended by the end of the trace with stop 0;
      // GCScope counts only waits it saw end.
      const complete = rows.filter(([, , , start, stop]) => start !== 0 && stop !== 0);
      expect(complete.length).toBeGreaterThanOrEqual(10);
      expect(ours.map((w) => [w.number, w.threadId, w.reason])).toEqual(complete.map(([n, t, r]) => [n, t, r]));
      ours.forEach((w, k) => {
        const [, , , start, stop] = complete[k]!;
        expect(w.startMSec).toBeCloseTo(start!, 6);
        expect(w.startMSec + w.durationMSec).toBeCloseTo(stop!, 6);
      });
      // Per BGC, the stored columns: the longest wait and the total, as GCStats would add them up.
      for (const n of new Set(complete.map(([x]) => x!))) {
        const te = complete.filter(([x]) => x === n).map(([, , , s, e]) => e! - s!);
        const r = toGcRecord(byNumber.get(n)!);
        expect(r.lohAllocWaitMaxMSec).toBeCloseTo(Math.max(...te), 6);
        expect(r.lohAllocWaitTotalMSec).toBeCloseTo(
          te.reduce((a, b) => a + b, 0),
          6,
        );
        expect(r.lohAllocWaitCount).toBe(te.length);
      }
      // Longer than GCStats' 200 ms table: the problem the mode causes.
      expect(Math.max(...ours.map((w) => w.durationMSec))).toBeGreaterThan(200);
    });
  }
});

/** The diagnosis of a trace file, optionally without the events of one provider (as if it had not been enabled). */
async function diagnoseTrace(file: string, withoutProvider?: string) {
  const analyzer = new GCAnalyzer();
  const reader = new NettraceReader(
    {
      onTrace: (t) => analyzer.setTrace(t),
      onEvent: (e) => {
        if (e.metadata.provider !== withoutProvider) analyzer.onEvent(e);
      },
    },
    { reuseRecords: true },
  );
  await pumpTraceFile(file, reader, {});
  analyzer.finish();
  const gcs = analyzer.gcs.filter((g) => g !== undefined && g.isComplete).map((g) => toGcRecord(g!));
  const facts = diagnosisFacts({ ...analyzer.eventSpan(), hasPerHeapHistory: true, gcMode: 'workstation', heapCount: 1, concurrent: true });
  return diagnose(columnsFromRecords(gcs), facts);
}

describe('loh-alloc-wait on the real trace: measured with the private provider, "not measured" without it', () => {
  const file = TRACES + problemTraceName('loh-alloc-wait');
  it('with the provider: a warning naming the background GCs the allocating thread waited for', async () => {
    const d = await diagnoseTrace(file);
    const f = d.findings.find((x) => x.id === 'loh-alloc-wait');
    expect(f?.severity).toBe('warning');
    expect(f!.evidence.gcs.length).toBeGreaterThanOrEqual(10);
    expect(d.notMeasured.map((n) => n.id)).not.toContain('loh-alloc-wait');
  });
  it('the same trace without the private provider\'s events: not measured, saying which provider to enable — not "no waits"', async () => {
    const d = await diagnoseTrace(file, 'Microsoft-Windows-DotNETRuntimePrivate');
    expect(d.findings.map((x) => x.id)).not.toContain('loh-alloc-wait');
    const n = d.notMeasured.find((x) => x.id === 'loh-alloc-wait');
    expect(n?.needs).toContain('Microsoft-Windows-DotNETRuntimePrivate');
    expect(n?.needs).toContain('BGCAllocWaitBegin/End');
    // Everything else is judged as before: the BGCs are still there.
    expect(d.findings.find((x) => x.id === 'loh-triggered-gen2')?.severity).toBe('warning');
  });
});
