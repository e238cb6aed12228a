/**
 * The WebSocket frame format (shared/wire.ts): typed arrays travel as raw bytes, and a column whose
 * values are all the same (a trace without per-heap history has NaN survival for every GC) as one
 * value and a count. What the browser decodes must equal what the service sent, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire, WireError } from '../../src-main/shared/wire.js';

const N = 1000;
function sample() {
  const varying = new Float64Array(N).map((_, i) => i * 0.25);
  return {
    session: { id: 3, name: 'x' },
    series: {
      length: N,
      time: varying,
      survived: new Float32Array(N).fill(Number.NaN),
      heapCount: new Float32Array(N).fill(1),
      complete: new Uint8Array(N).fill(1),
      number: new Int32Array(N).map((_, i) => i + 1),
      // The same high 32 bits throughout; only the last element's low word differs.
      lowWord: new Float64Array(N).fill(1).map((v, i) => (i === N - 1 ? 1 + 2 ** -40 : v)),
      // The same low 32 bits throughout; only the last element's high word differs.
      highWord: new Float64Array(N).fill(1).map((v, i) => (i === N - 1 ? 3 : v)),
      nanF64: new Float64Array(N).fill(Number.NaN),
      shortConstant: new Uint16Array(10).fill(7),
      countdown: new Int16Array(N).map((_, i) => N - i),
      reason: new Uint8Array(N).map((_, i) => (i === 500 ? 4 : 0)),
    },
  };
}

function expectSameArrays(a: Record<string, unknown>, b: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(a)) {
    if (!ArrayBuffer.isView(v)) continue;
    const w = b[k] as unknown as ArrayLike<number>;
    expect(w.constructor, k).toBe(v.constructor);
    const x = v as unknown as ArrayLike<number>;
    expect(w.length, k).toBe(x.length);
    for (let i = 0; i < x.length; i++) if (!Object.is(w[i], x[i])) throw new Error(`${k}[${i}]: ${w[i]} instead of ${x[i]}`);
  }
}

describe('wire frames', () => {
  it('every column reads back exactly, constant ones included, and constant columns are sent as one value', () => {
    const v = sample();
    const plain = encodeWire(v);
    const filled = encodeWire(v, { fill: true });
    const a = decodeWire(plain) as ReturnType<typeof sample>;
    const b = decodeWire(filled) as ReturnType<typeof sample>;
    expect(b.session).toEqual(v.session);
    expectSameArrays(v.series, a.series);
    expectSameArrays(v.series, b.series);
    // survived, heapCount, complete and nanF64 are constant, and number (1, 2, 3…) and countdown
    // go by one step: (4 + 4 + 1 + 8 + 4 + 2) bytes × N fewer, less their one value each (padded to 8 bytes) and the longer header.
    expect(plain.byteLength - filled.byteLength).toBeGreaterThanOrEqual(23 * N - 160);
    expect(plain.byteLength - filled.byteLength).toBeLessThan(23 * N + 160);
  });

  it('row indexes and GC numbers that go up by one travel as their first value and step, and read back exactly', () => {
    const index = new Int32Array(N).map((_, i) => i);
    const odd = new Int32Array(N).map((_, i) => 3 + 2 * i);
    // One GC missing (a recording that began mid-run skips none, a filtered one may): sent whole.
    const gap = new Int32Array(N).map((_, i) => (i < 500 ? i : i + 1));
    // A float ramp is never stepped (a sum of floats need not be exact).
    const time = new Float64Array(N).map((_, i) => i * 0.1);
    const v = { index, odd, gap, time };
    const f = encodeWire(v, { fill: true });
    expectSameArrays(v, decodeWire(f) as Record<string, unknown>);
    const header = JSON.parse(new TextDecoder().decode(f.subarray(4, 4 + new DataView(f.buffer).getUint32(0, true)))) as Record<string, { step?: number }>;
    expect(header.index!.step).toBe(1);
    expect(header.odd!.step).toBe(2);
    expect(header.gap!.step).toBeUndefined();
    expect(header.time!.step).toBeUndefined();
    // A stepped column is its own array, and counts against the receiver's fill budget.
    const d = decodeWire(f) as typeof v;
    d.index[0] = 42;
    expect(d.index[1]).toBe(1);
    expect(() => decodeWire(f, { maxFillBytes: 4 * N })).toThrow(/more than/);
  });

  it('a frame at an odd offset of a larger buffer (as the server receives it) decodes its 8-byte arrays', () => {
    const f = encodeWire({ t: new Float64Array([1.5, 2.5]) });
    const pool = Buffer.alloc(f.byteLength + 3);
    pool.set(f, 3);
    const b = decodeWire(pool.subarray(3)) as { t: Float64Array };
    expect([...b.t]).toEqual([1.5, 2.5]);
  });

  it('a decoded filled column is its own array: writing to it changes nothing else', () => {
    const b = decodeWire(encodeWire(sample(), { fill: true })) as ReturnType<typeof sample>;
    b.series.heapCount[3] = 8;
    expect(b.series.heapCount[2]).toBe(1);
    expect(b.series.heapCount[4]).toBe(1);
  });

  it('refuses fills beyond the receiver\u2019s budget, unknown array types and malformed fill marks', () => {
    const f = encodeWire({ a: new Float32Array(N).fill(2) }, { fill: true });
    expect(() => decodeWire(f, { maxFillBytes: 0 })).toThrow(WireError);
    expect(() => decodeWire(f, { maxFillBytes: 4 * N - 1 })).toThrow(/more than/);
    expect((decodeWire(f, { maxFillBytes: 4 * N }) as { a: Float32Array }).a[N - 1]).toBe(2);
    const frame = (header: unknown): Uint8Array => {
      const h = new TextEncoder().encode(JSON.stringify(header));
      const out = new Uint8Array(((4 + h.length + 7) & ~7) + 8);
      new DataView(out.buffer).setUint32(0, h.length, true);
      out.set(h, 4);
      return out;
    };
    expect(() => decodeWire(frame({ a: { $ta: 'constructor', o: 0, n: 1 } }))).toThrow(WireError);
    expect(() => decodeWire(frame({ a: { $ta: 'Float64Array', o: 0, n: 4, fill: 2 } }))).toThrow(WireError);
    expect(() => decodeWire(frame({ a: { $ta: 'Float64Array', o: 8, n: 4, fill: 1 } }))).toThrow(/outside the frame/);
    expect((decodeWire(frame({ a: { $ta: 'Float64Array', o: 0, n: 4, fill: 1 } })) as { a: Float64Array }).a).toEqual(new Float64Array(4));
    expect(() => decodeWire(frame({ a: { $ta: 'Float64Array', o: 0, n: 4, step: 1 } }))).toThrow(/step/);
    expect(() => decodeWire(frame({ a: { $ta: 'Int32Array', o: 0, n: 4, step: 0.5 } }))).toThrow(/step/);
    expect(() => decodeWire(frame({ a: { $ta: 'Int32Array', o: 0, n: 4, step: 1, fill: 1 } }))).toThrow(/step/);
    expect((decodeWire(frame({ a: { $ta: 'Int32Array', o: 0, n: 4, step: -1 } })) as { a: Int32Array }).a).toEqual(new Int32Array([0, -1, -2, -3]));
  });
});
