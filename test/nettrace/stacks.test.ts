/**
 * Stack blocks (issue 14): the call stack each event refers to by id, in NetTrace V4, V5 and V6
 * streams built from the specs (perfview NetTraceFormat_v5.md / NetTraceFormat.md "StackBlock"),
 * fed whole and split at every byte boundary; stack ids restarting after a sequence point; an
 * event whose stack id no block defined; 32-bit pointers; corrupt stack blocks.
 */
import { describe, expect, it } from 'vitest';
import { NettraceError } from '../../src-main/nettrace/errors.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { Bytes, gcStartV2, V4Builder, V6Builder, type BuiltEvent, type V5Metadata } from '../helpers/nettrace-builder.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
const SYNC = 1_000_000n;

function ev(seq: number, t: number, stackId: number, tid = 10): BuiltEvent {
  return { metadataId: 1, threadId: tid, captureThreadId: tid, sequenceNumber: seq, timestamp: SYNC + BigInt(t), payload: gcStartV2(seq, 0, 0, 0), stackId };
}

// Two stacks before the sequence point (ids 1, 2); after it the writer numbers from 1 again.
const A = [0x7f12_3456_7890n, 0x7f12_3456_0010n, 0x7f00_0000_0001n];
const B = [0x0000_5555_0000_1000n];
const C = [0x7fff_ffff_fff0n, 0x1n];
/** What each event should resolve to, in delivery order. */
const EXPECTED: (bigint[] | undefined)[] = [A, B, undefined, undefined, A, C, undefined];

function eventsBefore(): BuiltEvent[] {
  // Thread 20's events interleave in time with thread 10's: the sorter releases them later than
  // they were read, and they must still find their stacks.
  return [ev(1, 100, 1), ev(1, 150, 2, 20), ev(2, 200, 0), ev(2, 250, 9, 20), ev(3, 300, 1)];
}
function eventsAfter(): BuiltEvent[] {
  return [ev(4, 400, 1), ev(5, 500, 5)];
}

function v4Stream(v5: boolean): Uint8Array {
  const md: V5Metadata = { id: 1, provider: RT, eventId: 1, version: 2 };
  // V5 is V4 plus metadata tags: an OpCode tag (kind 1, one byte) marks it.
  if (v5) md.tags = new Bytes().i32(1).u8(1).u8(1);
  return new V4Builder()
    .trace({ syncQpc: SYNC, freq: 1_000_000_000, pointerSize: 8, pid: 1 })
    .metadata([md])
    .stacks(1, [A, B])
    .events(eventsBefore())
    .sequencePoint([
      [10, 3],
      [20, 2],
    ])
    .stacks(1, [C])
    .events(eventsAfter())
    .sequencePoint([
      [10, 5],
      [20, 2],
    ])
    .end();
}

function v6Stream(): Uint8Array {
  return new V6Builder(0)
    .trace({ syncQpc: SYNC, freq: 1_000_000_000, pointerSize: 8, kv: { ProcessId: '1' } })
    .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
    .threads([
      { index: 10, tid: 10 },
      { index: 20, tid: 20 },
    ])
    .stacks(1, [A, B])
    .events(eventsBefore())
    .sequencePoint([
      [10, 3],
      [20, 2],
    ])
    .stacks(1, [C])
    .events(eventsAfter(), false)
    .sequencePoint([
      [10, 5],
      [20, 2],
    ])
    .end();
}

interface Seen {
  stacks: (bigint[] | undefined)[];
  state: string;
  error: NettraceError | undefined;
}

/** Decodes with stacks on and records each event's stack as it is delivered. */
function decodeStacks(bytes: Uint8Array, chunk: number[] = [bytes.length]): Seen {
  const seen: Seen = { stacks: [], state: '', error: undefined };
  const r: NettraceReader = new NettraceReader(
    {
      onEvent: (e) => {
        const s = r.stack(e.stackId);
        seen.stacks.push(s === undefined ? undefined : Array.from(s, (x) => BigInt(x)));
      },
    },
    { stacks: true },
  );
  try {
    let pos = 0;
    for (let i = 0; pos < bytes.length; i++) {
      const n = Math.max(1, chunk[i % chunk.length]!);
      r.push(bytes.subarray(pos, pos + n));
      pos += n;
    }
    r.end();
  } catch (e) {
    if (!(e instanceof NettraceError)) throw e;
    r.end(); // delivers what was queued before the damage, as a caller does
  }
  seen.state = r.state;
  seen.error = r.error;
  return seen;
}

describe('events carry their call stacks from stack blocks', () => {
  const streams: [string, Uint8Array][] = [
    ['NetTrace V4', v4Stream(false)],
    ['NetTrace V5', v4Stream(true)],
    ['NetTrace V6', v6Stream()],
  ];
  for (const [name, bytes] of streams) {
    it(`${name}: each event gets its stack, ids restart after a sequence point, id 0 and unknown ids give no stack`, () => {
      const d = decodeStacks(bytes);
      expect(d.state).toBe('complete');
      expect(d.stacks).toEqual(EXPECTED);
    });

    it(`${name}: split at every byte boundary (and one byte at a time) gives the same stacks`, () => {
      for (let cut = 1; cut < bytes.length; cut++) {
        expect(decodeStacks(bytes, [cut, bytes.length]).stacks, `split at byte ${cut}`).toEqual(EXPECTED);
      }
      expect(decodeStacks(bytes, [1]).stacks).toEqual(EXPECTED);
    });
  }

  it('without the stacks option, stack blocks are skipped and no event has a stack', () => {
    const stacks: (Float64Array | undefined)[] = [];
    const r: NettraceReader = new NettraceReader({ onEvent: (e) => stacks.push(r.stack(e.stackId)) });
    r.push(v4Stream(false));
    r.end();
    expect(r.state).toBe('complete');
    expect(stacks).toHaveLength(EXPECTED.length);
    expect(stacks.every((s) => s === undefined)).toBe(true);
  });

  it('reads 32-bit return addresses in a trace whose pointer size is 4', () => {
    const bytes = new V4Builder()
      .trace({ syncQpc: SYNC, freq: 1_000_000_000, pointerSize: 4, pid: 1 })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .stacks(7, [[0x0804_8000, 0xffff_fff0]], 4)
      .events([ev(1, 100, 7)])
      .end();
    expect(decodeStacks(bytes).stacks).toEqual([[0x0804_8000n, 0xffff_fff0n]]);
  });
});

describe('corrupt stack blocks are typed errors at their byte offset', () => {
  function withRawStackBlock(content: Bytes): Uint8Array {
    return new V4Builder()
      .trace({ syncQpc: SYNC, freq: 1_000_000_000, pointerSize: 8, pid: 1 })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .events([ev(1, 100, 0)])
      .rawStackBlock(content)
      .end();
  }

  it('a stack whose length is not a whole number of addresses', () => {
    const d = decodeStacks(withRawStackBlock(new Bytes().u32(1).u32(1).u32(12).zeros(12)));
    expect(d.state).toBe('failed');
    expect(d.error?.code).toBe('bad-block');
    expect(d.error?.message).toMatch(/stack 1 is 12 bytes/);
    // The event before the damage was still delivered.
    expect(d.stacks).toEqual([undefined]);
  });

  it('a stack longer than its block', () => {
    const d = decodeStacks(withRawStackBlock(new Bytes().u32(1).u32(1).u32(64).zeros(8)));
    expect(d.error?.code).toBe('bad-block');
    expect(d.error?.message).toMatch(/claims 64 bytes/);
  });

  it('a count of stacks the block cannot hold', () => {
    const d = decodeStacks(withRawStackBlock(new Bytes().u32(1).u32(1_000_000).u32(0)));
    expect(d.error?.code).toBe('bad-block');
    expect(d.error?.message).toMatch(/claims 1000000 stacks/);
  });
});
