/**
 * AllocationTick read once (issue 36): AllocationTickReader reads a tick's amount, kind and TypeID
 * into one object it owns, and the analysis passes it to GCAnalyzer.onAllocationTick and
 * StackEvents.onAllocationTick. Hand-built payloads check the fields; on real traces, the GCs and
 * samples of analyzeTraceFile (the reader's path) equal those of the analyzer and stack events
 * each reading every event on their own (their onEvent path).
 */
import { describe, expect, it } from 'vitest';
import { AllocationTickReader } from '../../src-main/clr/gc-events.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord, TraceInfo } from '../../src-main/nettrace/types.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { StackEvents } from '../../src-main/symbols/stack-events.js';
import { eventRecord } from '../helpers/event-record.js';
import { Bytes } from '../helpers/nettrace-builder.js';
import { TRACES } from '../helpers/fixtures.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
function event(eventId: number, payload: Bytes, version: number, provider = RT): TraceEventRecord {
  return eventRecord(eventId, payload, { version, provider });
}

/** AllocationTick V4 on 8-byte pointers: Amount, Kind, ClrInstanceID, Amount64, TypeID, TypeName, HeapIndex, Address, ObjectSize. */
const tickV4 = (amount64: number, kind: number, typeId: number): Bytes =>
  new Bytes()
    .u32(amount64 % 2 ** 32)
    .u32(kind)
    .u16(0)
    .u64(amount64)
    .u64(typeId)
    .utf16z('System.Byte[]')
    .u32(0)
    .u64(0x7f00_0000_1000)
    .u64(85_000);

describe('AllocationTickReader', () => {
  it('reads amount (Amount64), kind and TypeID of a V4 tick into the one object it owns', () => {
    const r = new AllocationTickReader(); // 8-byte pointers until setTrace says otherwise
    const a = r.read(event(10, tickV4(5_000_000_000, 1, 0x7ff8_1234_5678), 4));
    expect(a).toEqual({ amount: 5_000_000_000, kind: 1, typeId: 0x7ff8_1234_5678 });
    const b = r.read(event(10, tickV4(100_000, 0, 0x7ff8_0000_0010), 4));
    expect(b).toBe(a); // no object per tick
    expect(b).toEqual({ amount: 100_000, kind: 0, typeId: 0x7ff8_0000_0010 });
  });

  it('reads a 4-byte TypeID once the trace says its pointers are 4 bytes', () => {
    const r = new AllocationTickReader();
    r.setTrace({ pointerSize: 4 } as TraceInfo);
    const x86 = new Bytes().u32(100_000).u32(0).u16(0).u64(100_000).u32(0x0a1b_2c3d).utf16z('System.String').u32(0);
    expect(r.read(event(10, x86, 2))).toEqual({ amount: 100_000, kind: 0, typeId: 0x0a1b_2c3d });
  });

  it('a V1 tick has no TypeID (−1); another event, or a tick shorter than its V0 fields, is no tick read', () => {
    const r = new AllocationTickReader();
    expect(r.read(event(10, new Bytes().u32(102_400).u32(2).u16(0), 1))).toEqual({ amount: 102_400, kind: 2, typeId: -1 });
    expect(r.read(event(1, new Bytes().u32(1).u32(0).u32(0).u32(0).u16(0), 1))).toBeUndefined(); // GCStart
    expect(r.read(event(10, new Bytes().u32(1), 1, 'Some-Other-Provider'))).toBeUndefined();
    const short = event(10, new Bytes().u32(1), 1);
    expect(r.read(short)).toBeUndefined();
    // Dispatched as any other event, the analyzer counts it undecodable, as before.
    const a = new GCAnalyzer();
    a.onEvent(short);
    expect(a.counters.undecodableEvents).toBe(1);
  });
});

/** The GC records and samples of a trace with the analyzer and stack events each reading every event (no AllocationTickReader). */
async function eachOnItsOwn(file: string): Promise<{ gcs: unknown[]; analyzer: unknown; ticks: unknown }> {
  const analyzer = new GCAnalyzer();
  const stacks = new StackEvents();
  const reader: NettraceReader = new NettraceReader(
    {
      onTrace: (t) => {
        analyzer.setTrace(t);
        stacks.setTrace(t);
      },
      onEvent: (e) => {
        analyzer.onEvent(e);
        stacks.onEvent(e, (x) => reader.eventStack(x));
      },
    },
    { reuseRecords: true, stacks: true },
  );
  await pumpTraceFile(file, reader, {});
  analyzer.finish();
  return { gcs: analyzer.gcs.map((g) => (g === undefined ? undefined : toGcRecord(g))), analyzer: analyzerOf(analyzer), ticks: ticksOf(stacks) };
}

/** What the analyzer tells beside its GCs that AllocationTicks feed: the event span, whether there were ticks, its counters. */
const analyzerOf = (a: GCAnalyzer): unknown => ({ span: a.eventSpan(), ticks: a.hasAllocTickEvents, counters: a.counters });
const ticksOf = (s: StackEvents): unknown => ({
  n: s.tickCount,
  time: s.tickTime,
  kind: s.tickKind,
  type: s.tickType,
  amount: s.tickAmount,
  size: s.tickObjectSize,
  stack: s.tickStack,
  types: s.typeNames,
});

describe('each tick read once gives what each consumer reading it gave', () => {
  for (const name of ['who-allocates.nettrace.zip', 'problem-loh-alloc-wait.nettrace.zip', 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip']) {
    it(name, async () => {
      const once = await analyzeTraceFile(TRACES + name, { stacks: true });
      const own = await eachOnItsOwn(TRACES + name);
      expect(once.stackEvents!.tickCount).toBeGreaterThan(0);
      expect(once.analyzer.gcs.map((g) => (g === undefined ? undefined : toGcRecord(g)))).toEqual(own.gcs);
      expect(analyzerOf(once.analyzer)).toEqual(own.analyzer);
      expect(ticksOf(once.stackEvents!)).toEqual(own.ticks);
    });
  }
});
