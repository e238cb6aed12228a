/** Sample streams built from the specs, shared by the V4, V6 and framing tests. */
import { Bytes, gcEndV1, gcStartV2, heapStatsV2, V4Builder, V6Builder, type BuiltEvent } from './nettrace-builder.js';

const RT = 'Microsoft-Windows-DotNETRuntime';

// V4 sample
const SYNC4 = 5_000_000n;
function ev4(md: number, tid: number, seq: number, t: bigint, payload: Uint8Array, extra: Partial<BuiltEvent> = {}): BuiltEvent {
  return { metadataId: md, threadId: tid, captureThreadId: tid, sequenceNumber: seq, timestamp: SYNC4 + t, payload, ...extra };
}

export function buildV4Sample(): Uint8Array {
  return (
    new V4Builder()
      .trace({ syncQpc: SYNC4, freq: 10_000_000, pointerSize: 8, pid: 77 })
      .metadata([
        { id: 1, provider: RT, eventId: 1, version: 2 },
        { id: 2, provider: RT, eventId: 2, version: 1 },
        {
          id: 3,
          provider: 'MySource',
          eventId: 1,
          name: 'Hello',
          // V5: V1 field count 0, then a V2Params tag (an array of int) and an OpCode tag.
          tags: (() => {
            const field = new Bytes().utf16z('values').i32(19).i32(9);
            const params = new Bytes()
              .i32(1)
              .i32(field.length + 4)
              .bytes(field);
            return new Bytes().i32(params.length).u8(2).bytes(params).i32(1).u8(1).u8(24);
          })(),
        },
      ])
      .stack()
      // Thread 10's events, then thread 20's: the reader must merge them by time.
      .events([
        ev4(1, 10, 1, 100n, gcStartV2(1, 0, 0, 0)),
        ev4(2, 10, 2, 300n, gcEndV1(1, 0)),
        // 300 → 50: a negative delta, written as its 64-bit two's complement.
        ev4(3, 20, 1, 50n, new Bytes().u16(2).i32(-5).i32(6).toUint8Array()),
        ev4(1, 20, 2, 200n, gcStartV2(9, 2, 1, 0), { activityId: [1, 0, 0, 0, 2, 0, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11] }),
      ])
      .events([ev4(2, 30, 1, 400n, gcEndV1(9, 2))], false)
      .sequencePoint([
        [10, 2],
        [20, 2],
        [30, 1],
      ])
      .end()
  );
}

// V6 sample: a Linux CLOCK_MONOTONIC value after ~120 days of uptime, above 2^53.
export const SYNC6 = 10_368_000_000_000_000n + 7n;
function ev6(md: number, seq: number, dt: bigint, payload: Uint8Array, extra: Partial<BuiltEvent> = {}): BuiltEvent {
  return { metadataId: md, threadId: 1, captureThreadId: 1, sequenceNumber: seq, timestamp: SYNC6 + dt, payload, ...extra };
}

export function buildV6Sample(): Uint8Array {
  const activity = [0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
  return new V6Builder(1)
    .trace({ syncQpc: SYNC6, freq: 1_000_000_000, pointerSize: 8, kv: { ProcessId: '4242', HardwareThreadCount: '16', ExpectedCPUSamplingRate: '1000000' } })
    .metadata([
      { id: 1, provider: RT, eventId: 1, version: 2, level: 4, keywords: 1n },
      { id: 2, provider: RT, eventId: 2, version: 1 },
      { id: 3, provider: RT, eventId: 4, version: 1 },
      {
        id: 4,
        provider: 'MyCompany-Events',
        eventId: 7,
        name: 'Tick',
        opcode: 0,
        fields: [
          { name: 'count', type: new Bytes().u8(21) },
          { name: 'delta', type: new Bytes().u8(20) },
          { name: 'ok', type: new Bytes().u8(26) },
          { name: 'samples', type: new Bytes().u8(22).u8(8).u16(3) },
          { name: 'when', type: new Bytes().u8(19).u8(9) },
        ],
      },
    ])
    .threads([
      { index: 1, tid: 5001, pid: 4242, name: 'main' },
      { index: 2, tid: 5002 },
    ])
    .labelLists(1, [
      new Bytes().u8(0x80 | 1).bytes(activity),
      new Bytes()
        .u8(10)
        .u8(2)
        .u8(0x80 | 9)
        .u8(5),
    ])
    .stack()
    .events([
      ev6(1, 1, 1_000n, gcStartV2(1, 0, 0, 0)),
      // HeapStats declared v1 in metadata; label list 2 overrides the version to 2 (POH fields).
      ev6(3, 2, 5_000n, heapStatsV2([10, 20, 30, 40, 50], [1, 2, 3, 4, 5]), { labelListId: 2 }),
      ev6(2, 3, 6_000n, gcEndV1(1, 0), { labelListId: 1 }),
      ev6(4, 1, 3_000n, new Bytes().varuint(300).varuint(5).u8(1).u16(1).u16(2).u16(3).u16(2).i32(-1).i32(9).toUint8Array(), {
        threadId: 2,
        captureThreadId: 2,
      }),
    ])
    .unknownBlock(99, 12)
    .events([ev6(1, 4, 7_000n, gcStartV2(2, 1, 4, 0), { sorted: true })], false)
    .sequencePoint(
      [
        [1, 4],
        [2, 1],
      ],
      2,
    )
    .end();
}
