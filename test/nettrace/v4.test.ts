/**
 * NetTrace V4/V5 edge cases built from the spec: uncompressed event headers (legal, not written
 * by current runtimes), negative timestamp deltas that wrap modulo 2^64, activity ids, V5
 * metadata tags, stack and sequence point blocks, and dropped-event detection.
 */
import { describe, expect, it } from 'vitest';
import { decodeGCEvent, type GCEnd, type GCStart } from '../../src-main/clr/gc-events.js';
import { decodePayload } from '../../src-main/nettrace/payload.js';
import { gcStartV2, V4Builder, type BuiltEvent } from '../helpers/nettrace-builder.js';
import { decode } from '../helpers/decode.js';
import { buildV4Sample } from '../helpers/samples.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
const SYNC = 5_000_000n;

function ev(md: number, tid: number, seq: number, t: bigint, payload: Uint8Array, extra: Partial<BuiltEvent> = {}): BuiltEvent {
  return { metadataId: md, threadId: tid, captureThreadId: tid, sequenceNumber: seq, timestamp: SYNC + t, payload, ...extra };
}

describe('NetTrace V4/V5 streams built from the spec', () => {
  const d = decode(buildV4Sample());

  it('decodes compressed and uncompressed headers and merges threads by time', () => {
    expect(d.state).toBe('complete');
    expect(d.events.map((e) => [e.threadId, e.timestamp])).toEqual([
      [20, 50],
      [10, 100],
      [20, 200],
      [10, 300],
      [30, 400],
    ]);
    expect(d.dropped).toBe(0);
  });

  it('wraps a negative timestamp delta modulo 2^64 (an out-of-order event)', () => {
    // The thread-20 event at t=50 follows one at t=300 in the block: its delta is negative.
    expect(d.events[0]!.timestamp).toBe(50);
  });

  it('reads activity ids, V5 V2Params arrays and OpCode tags', () => {
    expect(d.events[2]!.activityId).toBe('00000001-0002-0003-0405-060708090a0b');
    const hello = d.events[0]!;
    expect(hello.metadata.opcode).toBe(24);
    expect(hello.metadata.hasV5Tags).toBe(true);
    expect(decodePayload(hello)).toEqual({ values: [-5, 6] });
  });

  it('decodes the GC payloads of both header kinds', () => {
    expect(decodeGCEvent(d.events[2]!, 8)).toMatchObject({ kind: 'GCStart', count: 9, depth: 2, reason: 1 } satisfies Partial<GCStart>);
    expect(decodeGCEvent(d.events[4]!, 8)).toMatchObject({ kind: 'GCEnd', count: 9, depth: 2 } satisfies Partial<GCEnd>);
  });

  it('counts events the runtime dropped (sequence gap and a sequence point ahead of the last event)', () => {
    const b = new V4Builder()
      .trace({ syncQpc: 0n, freq: 1000, pointerSize: 8, pid: 1 })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .events([ev(1, 10, 1, 1n, gcStartV2(1, 0, 0, 0)), ev(1, 10, 4, 2n, gcStartV2(2, 0, 0, 0))])
      .sequencePoint([[10, 6]])
      .end();
    expect(decode(b).dropped).toBe(4);
  });

  it('refuses a stream that is not a trace with a typed bad-magic error at offset 0', () => {
    const r = decode(new TextEncoder().encode('PK\u0003\u0004 definitely not a trace file'));
    expect(r.state).toBe('failed');
    expect(r.error).toMatchObject({ code: 'bad-magic', offset: 0 });
  });
});
