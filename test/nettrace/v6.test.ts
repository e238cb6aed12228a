/**
 * NetTrace V6: no real V6 file exists (PROVENANCE.md), so streams are built from the spec
 * (perfview NetTraceFormat.md) and decoded: trace key/values, thread table, label lists,
 * compressed and uncompressed rows, sequence points, unknown blocks, metadata flush.
 */
import { describe, expect, it } from 'vitest';
import { decodeGCEvent, type GCHeapStats, type GCStart } from '../../src-main/clr/gc-events.js';
import { decodePayload } from '../../src-main/nettrace/payload.js';
import { Bytes, gcEndV1, gcStartV2, V6Builder, type BuiltEvent } from '../helpers/nettrace-builder.js';
import { decode } from '../helpers/decode.js';
import { buildV6Sample } from '../helpers/samples.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
// A Linux CLOCK_MONOTONIC value after ~120 days of uptime: above 2^53, so exactness matters.
const SYNC = 10_368_000_000_000_000n + 7n;

function ev(md: number, seq: number, dt: bigint, payload: Uint8Array, extra: Partial<BuiltEvent> = {}): BuiltEvent {
  return { metadataId: md, threadId: 1, captureThreadId: 1, sequenceNumber: seq, timestamp: SYNC + dt, payload, ...extra };
}

describe('NetTrace V6 streams built from the spec', () => {
  const bytes = buildV6Sample();
  const d = decode(bytes);

  it('reads the V6 header and the Trace block key/value pairs', () => {
    expect(d.state).toBe('complete');
    expect(d.trace).toMatchObject({
      format: 'NetTrace',
      formatVersion: 6,
      formatMinorVersion: 1,
      processId: 4242,
      numberOfProcessors: 16,
      pointerSize: 8,
      qpcFrequency: 1e9,
    });
    expect(d.trace!.syncTimeQpc).toBe(SYNC.toString());
  });

  it('delivers every event in time order with exact relative timestamps above 2^53', () => {
    expect(d.events.map((e) => e.timestamp)).toEqual([1000, 3000, 5000, 6000, 7000]);
    expect(d.dropped).toBe(0);
  });

  it('maps thread indexes to OS thread and process ids through the Thread block', () => {
    expect(d.events.map((e) => e.threadId)).toEqual([5001, 5002, 5001, 5001, 5001]);
    expect(d.events[0]!.processId).toBe(4242);
  });

  it('applies label lists: activity id, and version override selecting the POH layout', () => {
    const end = d.events[3]!;
    expect(end.activityId).toBe('00112233-4455-6677-8899-aabbccddeeff');
    const hs = decodeGCEvent(d.events[2]!, 8) as GCHeapStats;
    expect(d.events[2]!.metadata.version).toBe(2);
    expect(hs.hasPoh).toBe(true);
    expect(hs.generationSize).toEqual([10, 20, 30, 40, 50]);
  });

  it('decodes GC events from the same compiled-in layouts as V4/V5', () => {
    const s = decodeGCEvent(d.events[4]!, 8) as GCStart;
    expect(s).toMatchObject({ kind: 'GCStart', count: 2, depth: 1, reason: 4, type: 0 });
  });

  it('decodes V6 self-describing fields: VarUInt, VarInt, Boolean8, FixedLengthArray, Array', () => {
    const tick = d.events[1]!;
    expect(tick.metadata.eventName).toBe('Tick');
    expect(decodePayload(tick)).toEqual({ count: 300, delta: -3, ok: true, samples: [1, 2, 3], when: [-1, 9] });
  });

  it('counts events lost between sequence numbers', () => {
    const gap = new V6Builder()
      .trace({ syncQpc: 0n, freq: 1000, pointerSize: 8, kv: {} })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .events([ev(1, 1, 1n, gcStartV2(1, 0, 0, 0)), ev(1, 5, 2n, gcStartV2(2, 0, 0, 0))])
      .sequencePoint([[1, 9]])
      .end();
    // 3 missing between 1 and 5, then 4 more before the sequence point's 9.
    expect(decode(gap).dropped).toBe(7);
  });

  it('forgets metadata after a sequence point with flag 2, so ids can be reused', () => {
    const reuse = new V6Builder()
      .trace({ syncQpc: 0n, freq: 1000, pointerSize: 8, kv: {} })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .events([ev(1, 1, 1n, gcStartV2(1, 0, 0, 0))])
      .sequencePoint([[1, 1]], 2)
      .metadata([{ id: 1, provider: RT, eventId: 2, version: 1 }])
      .events([ev(1, 2, 2n, gcEndV1(1, 0))])
      .end();
    const r = decode(reuse);
    expect(r.state).toBe('complete');
    expect(r.events.map((e) => e.metadata.eventId)).toEqual([1, 2]);
  });

  it('refuses a major version above 6 with the typed unsupported-version error', () => {
    const b = new Bytes().ascii('Nettrace').u32(0).u32(7).u32(0).toUint8Array();
    const r = decode(b);
    expect(r.state).toBe('failed');
    expect(r.error).toMatchObject({ code: 'unsupported-version', version: 7, offset: 12 });
  });
});
