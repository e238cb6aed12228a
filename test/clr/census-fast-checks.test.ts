/**
 * `gcscope events` checks that every GC payload decodes; for AllocationTick (the most frequent GC
 * event) it checks the bounds without building the record. The check must agree with the decoder
 * on every real tick and on every cut-short payload, in both pointer sizes and all versions the
 * fixtures hold.
 */
import { describe, expect, it } from 'vitest';
import { allocationTickFits, decodeGCEvent, RUNTIME, RuntimeEvent } from '../../src-main/clr/gc-events.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { traceBytes } from '../helpers/fixtures.js';

// .NET 10 (V4 ticks, 8-byte pointers), .NET Core 3.0 (V3), the 2.1-era x86 NetPerf (4-byte pointers).
const TRACES = ['workload-datas.nettrace.zip', 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip'];

function ticks(name: string): { ticks: TraceEventRecord[]; pointerSize: number } {
  const out: TraceEventRecord[] = [];
  let pointerSize = 8;
  const r = new NettraceReader(
    {
      onTrace: (t) => (pointerSize = t.pointerSize),
      onEvent: (e) => {
        if (e.metadata.provider === RUNTIME && e.metadata.eventId === RuntimeEvent.GCAllocationTick) out.push(e);
      },
    },
    { sort: false },
  );
  r.push(traceBytes(name));
  r.end();
  return { ticks: out, pointerSize };
}

const decodes = (e: TraceEventRecord, pointerSize: number): boolean => {
  try {
    decodeGCEvent(e, pointerSize);
    return true;
  } catch {
    return false;
  }
};

describe('the AllocationTick payload check of gcscope events', () => {
  for (const name of TRACES) {
    it(`${name}: agrees with the decoder on every tick and on every cut-short length of the first ones`, () => {
      const { ticks: all, pointerSize } = ticks(name);
      expect(all.length).toBeGreaterThan(0);
      for (const e of all) expect(allocationTickFits(e, pointerSize)).toBe(decodes(e, pointerSize));
      for (const e of all.slice(0, 3)) {
        for (let n = 0; n <= e.payloadSize; n++) {
          const cut = { ...e, payloadSize: n };
          expect(allocationTickFits(cut, pointerSize), `cut to ${n} of ${e.payloadSize} bytes, V${e.metadata.version}`).toBe(decodes(cut, pointerSize));
        }
        // Damaged names: the terminator moved, doubled or gone, zeros inside the name and the tail.
        let seed = 99;
        const rand = (k: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % k;
        for (let m = 0; m < 300; m++) {
          // A byte more or less at the end sometimes: odd lengths put the tail off the name's alignment.
          const len = e.payloadSize + (m % 3) - 1;
          const bytes = new Uint8Array(len);
          bytes.set(e.bytes.subarray(e.payloadStart, e.payloadStart + Math.min(len, e.payloadSize)));
          for (let k = 1 + rand(3); k > 0; k--) bytes[rand(bytes.length)] = rand(3) === 0 ? rand(256) : 0;
          const hurt = { ...e, bytes, payloadStart: 0, payloadSize: len };
          expect(allocationTickFits(hurt, pointerSize), `damaged copy ${m}`).toBe(decodes(hurt, pointerSize));
        }
        // Older versions of the same bytes (the layout is chosen by version).
        for (let v = 0; v < e.metadata.version; v++) {
          const older = { ...e, metadata: { ...e.metadata, version: v } };
          expect(allocationTickFits(older, pointerSize)).toBe(decodes(older, pointerSize));
        }
      }
    });
  }
});

describe('the AllocationTick payload check on made-up payloads', () => {
  it('agrees with the decoder on short payloads of zeros and letters, every version and both pointer sizes, odd lengths included', () => {
    const { ticks: real } = ticks(TRACES[0]!);
    const base = real[0]!;
    let seed = 7;
    const rand = (k: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % k;
    let fitting = 0;
    for (let m = 0; m < 20000; m++) {
      const pointerSize = rand(2) === 0 ? 4 : 8;
      const version = rand(5);
      const len = 8 + rand(48);
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = rand(2) === 0 ? 0 : 0x41;
      // Mostly an AllocationKind a runtime writes (0..2), so the rest of the layout is exercised;
      // otherwise whatever the letters made, which both refuse as a value no runtime writes.
      if (rand(4) !== 0) bytes.set([rand(3), 0, 0, 0], 4);
      const e = { ...base, metadata: { ...base.metadata, version }, bytes, payloadStart: 0, payloadSize: len };
      const want = decodes(e, pointerSize);
      if (want) fitting++;
      expect(allocationTickFits(e, pointerSize), `V${version}, ${pointerSize}-byte pointers, ${len} bytes: ${Array.from(bytes).join(',')}`).toBe(want);
    }
    expect(fitting).toBeGreaterThan(1000);
  });
});
