/**
 * GC payload layouts built by hand from docs/formats.md §3.5 for the versions and shapes no fixture
 * trace has: GlobalHeapHistory V4 times, AllocationTick V4, LOHCompact / FitBucketInfo padding on
 * both pointer sizes, GCStart V0, dynamic events, and events newer than any layout we know.
 */
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import { describe, expect, it } from 'vitest';
import { EventCensus } from '../../src-main/clr/event-census.js';
import { decodeGCEvent } from '../../src-main/clr/gc-events.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { eventRecord } from '../helpers/event-record.js';
import { Bytes } from '../helpers/nettrace-builder.js';
import { traceBytes } from '../helpers/fixtures.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';

function event(provider: string, eventId: number, version: number, payload: Bytes | Uint8Array): TraceEventRecord {
  return eventRecord(eventId, payload, { provider, version, metadataId: 1, threadId: 1, payloadOffset: 1000 });
}
const RT = 'Microsoft-Windows-DotNETRuntime';

describe('GC payload layouts', () => {
  it('GCStart V0 (8 bytes) and V1 (18 bytes) by payload length, as TraceEvent does', () => {
    expect(decodeGCEvent(event(RT, 1, 0, new Bytes().u32(5).u32(1)), 8)).toMatchObject({ count: 5, depth: 0, reason: 1 });
    expect(decodeGCEvent(event(RT, 1, 1, new Bytes().u32(6).u32(2).u32(4).u32(1).u16(9)), 8)).toMatchObject({
      count: 6,
      depth: 2,
      reason: 4,
      type: 1,
      clrInstanceId: 9,
      clientSequenceNumber: 0,
    });
  });

  it('GCGlobalHeapHistory V4 with pause mode, memory load, condemn reasons and phase times', () => {
    const p = new Bytes().u64(0x358f40).i32(4).u32(2).u32(0).u32(1).u32(0x7).u16(3).u32(1).u32(67).u32(0x2a).u32(0x4001).u32(3).u32(10).u32(20).u32(30);
    expect(decodeGCEvent(event(RT, 205, 4, p), 8)).toEqual({
      kind: 'GCGlobalHeapHistory',
      finalYoungestDesired: 0x358f40,
      numHeaps: 4,
      condemnedGeneration: 2,
      gen0ReductionCount: 0,
      reason: 1,
      globalMechanisms: 7,
      pauseMode: 1,
      memoryPressure: 67,
      condemnReasons0: 0x2a,
      condemnReasons1: 0x4001,
      times: [10, 20, 30],
    });
  });

  it('GCGlobalHeapHistory V1 leaves the later fields undefined rather than 0', () => {
    const d = decodeGCEvent(event(RT, 205, 1, new Bytes().u64(1).i32(1).u32(0).u32(0).u32(0).u32(2).u16(3)), 8);
    expect(d).toMatchObject({ pauseMode: undefined, memoryPressure: undefined, condemnReasons0: undefined, times: [] });
  });

  it('GCAllocationTick V4 on 32- and 64-bit processes (pointer-sized TypeID and Address)', () => {
    for (const ps of [4, 8]) {
      const ptr = (b: Bytes, v: number): Bytes => (ps === 8 ? b.u64(v) : b.u32(v));
      const p = new Bytes().u32(0x19000).u32(2).u16(3).u64(5_000_000_000);
      ptr(p, 0x7ffe0000).utf16z('System.Byte[]').u32(1);
      ptr(p, 0x1a0000).u64(4096);
      expect(decodeGCEvent(event(RT, 10, 4, p), ps)).toEqual({
        kind: 'GCAllocationTick',
        amount: 5_000_000_000,
        allocationKind: 2,
        typeId: 0x7ffe0000,
        typeName: 'System.Byte[]',
        heapIndex: 1,
        address: 0x1a0000,
        objectSize: 4096,
      });
    }
  });

  it('GCLOHCompact and GCFitBucketInfo keep the C struct padding of each pointer size', () => {
    const loh8 = new Bytes().u16(1).u16(1).u32(1).u32(2).u32(3).zeros(4).u64(40).u64(50);
    const loh4 = new Bytes().u16(1).u16(1).u32(1).u32(2).u32(3).u32(40).u32(50);
    const want = { kind: 'GCLOHCompact', heaps: [{ timePlan: 1, timeCompact: 2, timeRelocate: 3, totalRefs: 40, zeroRefs: 50 }] };
    expect(decodeGCEvent(event(RT, 208, 0, loh8), 8)).toEqual(want);
    expect(decodeGCEvent(event(RT, 208, 0, loh4), 4)).toEqual(want);
    const fit8 = new Bytes().u16(1).u16(1).u64(1000).u16(1).u16(7).zeros(2).u32(3).u64(96);
    expect(decodeGCEvent(event(RT, 209, 0, fit8), 8)).toEqual({
      kind: 'GCFitBucketInfo',
      bucketKind: 1,
      totalSize: 1000,
      buckets: [{ index: 7, count: 3, size: 96 }],
    });
  });

  it('GCDynamicEvent CommittedUsage and an unknown sub-event kept as raw bytes', () => {
    const cu = new Bytes().u16(1).u64(100).u64(200).u64(300).u64(400).u64(500);
    const p = new Bytes().utf16z('CommittedUsage').u32(cu.length).bytes(cu).u16(3);
    expect(decodeGCEvent(event(RT, 39, 0, p), 8)).toEqual({
      kind: 'GCDynamicEvent',
      name: 'CommittedUsage',
      data: {
        name: 'CommittedUsage',
        version: 1,
        totalCommittedInUse: 100,
        totalCommittedInGlobalDecommit: 200,
        totalCommittedInFree: 300,
        totalCommittedInGlobalFree: 400,
        totalBookkeepingCommitted: 500,
      },
    });
    const raw = new Bytes().utf16z('SomethingNew').u32(3).u16(2).u8(9).u16(3);
    expect(decodeGCEvent(event(RT, 39, 0, raw), 8)).toMatchObject({ data: { name: 'Raw', eventName: 'SomethingNew', version: 2, size: 3 } });
  });

  it('an event newer than any known layout decodes its known prefix and is counted, not fatal', () => {
    const census = new EventCensus(() => 8);
    const e = event(RT, 1, 9, new Bytes().u32(3).u32(1).u32(0).u32(0).u16(1).u64(0).u32(0xdeadbeef).u64(1));
    census.onEvent(e);
    expect(decodeGCEvent(e, 8)).toMatchObject({ kind: 'GCStart', count: 3, depth: 1 });
    expect(census.newerVersionEvents).toBe(1);
    expect(census.decodeErrors).toBe(0);
  });

  it('a payload shorter than its layout is a typed truncation error with the byte offset', () => {
    expect(() => decodeGCEvent(event(RT, 4, 2, new Bytes().u64(1).u64(2)), 8)).toThrow(TraceDecodeError);
    try {
      decodeGCEvent(event(RT, 4, 2, new Bytes().u64(1).u64(2)), 8);
    } catch (e) {
      expect(e).toMatchObject({ code: 'truncated', offset: 1016 });
    }
  });

  it('CommittedUsage from a real .NET 10 trace is plausible (in use ≤ total, fired in pairs)', () => {
    const seen: { inUse: number; free: number }[] = [];
    const r = new NettraceReader({
      onEvent: (e) => {
        if (e.metadata.eventId === 39 && e.metadata.provider === RT) {
          const d = decodeGCEvent(e, 8);
          if (d?.kind === 'GCDynamicEvent' && d.data.name === 'CommittedUsage')
            seen.push({ inUse: d.data.totalCommittedInUse, free: d.data.totalCommittedInFree });
        }
      },
    });
    r.push(traceBytes('wait.nettrace'));
    r.end();
    expect(seen.length).toBe(12); // two per GC, six GCs
    for (const s of seen) expect(s.inUse).toBeGreaterThan(0);
  });
});
