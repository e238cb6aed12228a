/**
 * Call stacks and allocation by type against TraceEvent (issue 14), on the who-allocates workload
 * trace (test/fixtures/PROVENANCE.md): a .NET 10 run whose only GC.Collect() caller is
 * WhoAllocates+ReportCache.Flush, recorded with stacks, method load events and the rundown — and
 * on PerfView's own NetPerf V3 test trace (.NET Core 2.1, 32-bit Windows), whose events carry their
 * stacks inline and whose methods are known only from its rundown.
 *
 * Goldens (test/oracle/golden, produced by `GcOracle TRACE --stacks` and `--alloc-types`, see
 * test/oracle/README.md): TraceLog's resolution of every GC/Triggered event's stack and of every
 * 10th AllocationTick's, frame by frame; TraceEvent's per-type AllocationTick sums.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { analyzeTraceFile, type FileAnalysis } from '../../src-main/recording/analyze-file.js';
import { allocationsByType, FrameNames, gcTriggers, stackFrames } from '../../src-main/symbols/allocations.js';
import { unresolvedFrameName } from '../../src-main/shared/allocations.js';
import { STACK_ORACLE_TRACES, traceBytes, unzippedName } from '../helpers/fixtures.js';

const [TRACE, V3] = STACK_ORACLE_TRACES.map(unzippedName) as [string, string];
const GOLDEN = join(import.meta.dirname, '..', 'oracle', 'golden');
const TMP = join(process.cwd(), 'test-output', 'symbols');

interface GoldenEvent {
  event: 'GC/Triggered' | 'GC/AllocationTick';
  msec: string;
  frames: [string, string][];
}

const goldenOf = (trace: string): GoldenEvent[] =>
  readFileSync(join(GOLDEN, `${trace}.stacks.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as GoldenEvent);

/** TraceLog names a frame it cannot resolve with an empty FullMethodName; we show the address. */
function theirName([address, name]: [string, string]): string {
  return name !== '' ? name : unresolvedFrameName(parseInt(address, 16));
}

const analyses = new Map<string, FileAnalysis>();
let a: FileAnalysis;
beforeAll(async () => {
  mkdirSync(TMP, { recursive: true });
  for (const t of [TRACE, V3]) {
    const file = join(TMP, t);
    writeFileSync(file, traceBytes(`${t}.zip`));
    analyses.set(t, await analyzeTraceFile(file, { stacks: true }));
  }
  a = analyses.get(TRACE)!;
});

/** Our events of a kind as (time, frames), in time order. */
function ours(kind: 'GC/Triggered' | 'GC/AllocationTick', trace: string): { msec: number; frames: string[] }[] {
  const ev = analyses.get(trace)!.stackEvents!;
  const names = new FrameNames(ev);
  if (kind === 'GC/Triggered') return ev.triggers.map((t) => ({ msec: t.timeMSec, frames: stackFrames(ev, names, t.stack) }));
  return ev.tickTime.map((t, i) => ({ msec: t, frames: stackFrames(ev, names, ev.tickStack[i]!) }));
}

function matchByTime(kind: 'GC/Triggered' | 'GC/AllocationTick', trace: string): { msec: number; ours: string[] | undefined; theirs: string[] }[] {
  const mine = ours(kind, trace);
  return goldenOf(trace)
    .filter((g) => g.event === kind)
    .map((g) => {
      const t = Number(g.msec);
      const m = mine.find((x) => Math.abs(x.msec - t) < 1e-6);
      return { msec: t, ours: m?.frames, theirs: g.frames.map(theirName) };
    });
}

describe("call stacks resolve to the methods TraceEvent's TraceLog names", () => {
  for (const trace of [TRACE, V3]) {
    it(`${trace}: every GC/Triggered event: same frames, frame by frame`, () => {
      const rows = matchByTime('GC/Triggered', trace);
      expect(rows.length).toBe(analyses.get(trace)!.stackEvents!.triggers.length);
      expect(rows.length).toBeGreaterThanOrEqual(trace === V3 ? 9 : 16);
      for (const r of rows) expect(r.ours, `GC/Triggered at ${r.msec} ms`).toEqual(r.theirs);
    });

    it(`${trace}: a sample of AllocationTick events (every 10th): same frames, frame by frame`, () => {
      const rows = matchByTime('GC/AllocationTick', trace);
      expect(rows.length).toBe(Math.ceil(analyses.get(trace)!.stackEvents!.tickCount / 10));
      for (const r of rows) expect(r.ours, `AllocationTick at ${r.msec} ms`).toEqual(r.theirs);
    });
  }

  it('the only caller of GC.Collect() is named as what triggered each induced GC', () => {
    const ev = a.stackEvents!;
    const names = new FrameNames(ev);
    const gcs = a.analyzer.gcs.filter((g) => g !== undefined);
    const triggers = gcTriggers(
      ev,
      names,
      gcs.map((g) => ({ number: g.number, startMSec: g.startRelativeMSec })),
    );
    const induced = gcs.filter((g) => g.reason === 1 /* Induced */);
    expect(induced.length).toBe(8);
    for (const g of induced) {
      const t = triggers.find((x) => x.gcNumber === g.number);
      expect(t?.frames[0], `GC ${g.number}`).toBe('System.GC.Collect()');
      expect(t?.caller, `GC ${g.number}`).toBe('WhoAllocates+ReportCache.Flush()');
    }
    // The others were triggered by the large arrays ImageBuffers.Render allocates.
    for (const g of gcs.filter((x) => x.reason !== 1))
      expect(triggers.find((x) => x.gcNumber === g.number)?.caller).toBe('WhoAllocates+ImageBuffers.Render(int32)');
  });
});

describe("allocation by type equals TraceEvent's AllocationTick sums", () => {
  for (const trace of [TRACE, V3])
    it(`${trace}: per type and kind: ticks, sampled bytes (AllocationAmount64) and object sizes (V4 ObjectSize; 0 before V4)`, () => {
      const lines = readFileSync(join(GOLDEN, `${trace}.alloc-types.csv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      const theirs = lines
        .map((l) => {
          const m = /^(\w+),(\d+),(\d+),(\d+),"(.*)"$/.exec(l)!;
          return { kind: m[1]!.toLowerCase(), ticks: Number(m[2]), sampledBytes: Number(m[3]), objectBytes: Number(m[4]), typeName: m[5]! };
        })
        .sort((x, y) => (x.kind + x.typeName < y.kind + y.typeName ? -1 : 1));
      const mine = allocationsByType(analyses.get(trace)!.stackEvents!)
        .map((r) => ({ kind: r.kind as string, ticks: r.ticks, sampledBytes: r.sampledBytes, objectBytes: r.objectBytes ?? 0, typeName: r.typeName }))
        .sort((x, y) => (x.kind + x.typeName < y.kind + y.typeName ? -1 : 1));
      expect(mine).toEqual(theirs);
    });
});
