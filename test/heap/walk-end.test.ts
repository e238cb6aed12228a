/**
 * The heap walk's end seen as events arrive (heap/walk-end.ts), before the reader's time sort
 * holds them: what lets a small snapshot stop its session at once instead of at the capture's
 * timeout (the reader releases unsorted events only at a sequence point, which a small walk never
 * reaches, or the end of the stream).
 */
import { describe, expect, it } from 'vitest';
import { WalkEndWatch } from '../../src-main/heap/walk-end.js';
import { openTraceReader } from '../../src-main/recording/trace-formats.js';
import type { EventMetadata } from '../../src-main/trace/model.js';
import { Bytes, V4Builder, gcEndV1, gcStartV2, type BuiltEvent } from '../helpers/nettrace-builder.js';
import { eventRecord } from '../helpers/event-record.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
const node = (index: number): Uint8Array => new Bytes().u32(index).u32(1).u16(0).u64(0xa0).u64(24).u64(0x1000).u64(0).toUint8Array();

/** Feeds one event to the watch as the reader would; true at the walk's end. */
function arrive(w: WalkEndWatch, id: number, payload: Uint8Array, provider = RT): boolean {
  const e = eventRecord(id, payload, { provider });
  return w.onArrival(e.metadata, e.bytes, e.payloadStart, e.payloadSize);
}

describe("a heap walk's end as its events arrive", () => {
  it("is the walk's GCEnd (same GC number) after its objects, and only that", () => {
    const w = new WalkEndWatch();
    expect(arrive(w, 1, gcStartV2(12, 2, 1, 0))).toBe(false);
    expect(arrive(w, 18, node(0))).toBe(false);
    expect(arrive(w, 2, gcEndV1(11, 2))).toBe(false); // another GC's end
    expect(arrive(w, 2, gcEndV1(12, 2), 'Some-Other-Provider')).toBe(false);
    expect(w.ended).toBe(false);
    expect(arrive(w, 2, gcEndV1(12, 2))).toBe(true);
    expect(w.ended).toBe(true);
    expect(arrive(w, 2, gcEndV1(12, 2))).toBe(false); // said once
  });

  it('is not a gen2 GC without objects, a background gen2 or a gen1: the next blocking gen2 is the walk', () => {
    const w = new WalkEndWatch();
    arrive(w, 1, gcStartV2(3, 1, 0, 0));
    arrive(w, 18, node(0)); // not in a gen2: ignored
    expect(arrive(w, 2, gcEndV1(3, 1))).toBe(false);
    arrive(w, 1, gcStartV2(4, 2, 0, 1)); // background
    expect(arrive(w, 2, gcEndV1(4, 2))).toBe(false);
    arrive(w, 1, gcStartV2(5, 2, 1, 0)); // blocking gen2, no objects: not the walk
    expect(arrive(w, 2, gcEndV1(5, 2))).toBe(false);
    arrive(w, 1, gcStartV2(6, 2, 1, 0));
    arrive(w, 18, node(0));
    expect(arrive(w, 2, gcEndV1(6, 2))).toBe(true);
  });

  it('is seen by the reader before the time sort releases the walk (no sequence point yet)', () => {
    const ev = (md: number, seq: number, payload: Uint8Array): BuiltEvent => ({
      metadataId: md,
      threadId: 7,
      captureThreadId: 7,
      sequenceNumber: seq,
      timestamp: 1000n + BigInt(seq),
      payload,
    });
    const stream = new V4Builder()
      .trace({ syncQpc: 1000n, freq: 1_000_000_000, pointerSize: 8, pid: 77 })
      .metadata([
        { id: 1, provider: RT, eventId: 1, version: 2 },
        { id: 2, provider: RT, eventId: 2, version: 1 },
        { id: 3, provider: RT, eventId: 18 },
      ])
      .events([ev(1, 1, gcStartV2(9, 2, 1, 0)), ev(3, 2, node(0)), ev(2, 3, gcEndV1(9, 2))])
      .partial();
    const w = new WalkEndWatch();
    const delivered: EventMetadata[] = [];
    let endSeenAfter = -1;
    const reader = openTraceReader({
      onEvent: (e) => delivered.push(e.metadata),
      onArrival: (md, bytes, start, size) => {
        if (w.onArrival(md, bytes, start, size)) endSeenAfter = delivered.length;
      },
    });
    reader.push(stream);
    // The walk's end is known, while the reader still holds every event for the time sort.
    expect(w.ended).toBe(true);
    expect(endSeenAfter).toBe(0);
    expect(delivered).toHaveLength(0);
    // The stream's end (what stopping the session brings) releases them in order.
    reader.push(new Uint8Array([1]));
    reader.end();
    expect(delivered.map((m) => m.eventId)).toEqual([1, 18, 2]);
  });
});
