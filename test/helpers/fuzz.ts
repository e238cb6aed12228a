/**
 * Seeded mutation fuzzing of the reader and the GC decoders. A mutated trace may be rejected,
 * but only with a typed decode error (TraceDecodeError: the reader's NettraceError, or a CLR
 * decoder refusing a value no runtime writes): any other exception, a hang or a runaway allocation is a bug.
 */
import { decodeGCEvent } from '../../src-main/clr/gc-events.js';
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import { decodePayload } from '../../src-main/nettrace/payload.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';

/** mulberry32: small, fast, seedable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Mutation = 'bitflip' | 'cut' | 'huge-size' | 'overwrite' | 'duplicate';

export function mutate(src: Uint8Array, rand: () => number): { bytes: Uint8Array; kind: Mutation } {
  const kinds: Mutation[] = ['bitflip', 'cut', 'huge-size', 'overwrite', 'duplicate'];
  const kind = kinds[Math.floor(rand() * kinds.length)]!;
  const at = (): number => Math.floor(rand() * src.length);
  let b = src.slice();
  switch (kind) {
    case 'bitflip':
      for (let i = 1 + Math.floor(rand() * 8); i > 0; i--) {
        const p = at();
        b[p]! ^= 1 << Math.floor(rand() * 8);
      }
      break;
    case 'cut':
      b = b.subarray(0, at());
      break;
    case 'huge-size': {
      // Plant a huge or negative 32-bit size where a length field may be.
      const p = Math.min(at(), b.length - 4);
      const v = [0x7fffffff, 0xffffffff, 0x80000000, 0x00ffffff, 0x10000000][Math.floor(rand() * 5)]!;
      new DataView(b.buffer, b.byteOffset).setUint32(Math.max(0, p), v, true);
      break;
    }
    case 'overwrite': {
      const p = at();
      for (let i = 0; i < 1 + Math.floor(rand() * 64) && p + i < b.length; i++) b[p + i] = Math.floor(rand() * 256);
      break;
    }
    case 'duplicate': {
      const p = at();
      const n = Math.min(1 + Math.floor(rand() * 4096), b.length - p);
      const out = new Uint8Array(b.length + n);
      out.set(b.subarray(0, p + n));
      out.set(b.subarray(p), p + n);
      b = out;
      break;
    }
  }
  return { bytes: b, kind };
}

/** Decodes a (possibly hostile) stream fully; throws only if something other than a TraceDecodeError escapes. */
export function fuzzOne(bytes: Uint8Array, chunk: number): { events: number; outcome: string } {
  let pointerSize = 8;
  let events = 0;
  const reader = new NettraceReader({
    onTrace: (t) => (pointerSize = t.pointerSize),
    onEvent: (e) => {
      events++;
      try {
        decodeGCEvent(e, pointerSize);
        if (e.metadata.fields.length > 0) decodePayload(e);
      } catch (err) {
        if (!(err instanceof TraceDecodeError)) throw err;
      }
    },
  });
  try {
    for (let p = 0; p < bytes.length; p += chunk) reader.push(bytes.subarray(p, p + chunk));
    reader.end();
  } catch (err) {
    if (!(err instanceof TraceDecodeError)) throw err;
  }
  return { events, outcome: reader.error?.code ?? reader.state };
}
