/**
 * A synthetic NetTrace V4 stream of AllocationTick V4 events with call stacks (issue 14's storage
 * test and bench): `methods` jitted methods (MethodLoadVerbose V1, each 0x100 bytes of code),
 * `stacks` distinct call stacks of 8 frames over them (one stack block), and `ticks` ticks cycling
 * through `types` type names, kinds and the stacks. Built from the spec like the other streams in
 * nettrace-builder.ts.
 */
import { Bytes, V4Builder, type BuiltEvent } from './nettrace-builder.js';

const RT = 'Microsoft-Windows-DotNETRuntime';
const SYNC = 1_000_000n;
const CODE = 0x7f00_0000_0000;

export interface AllocTraceShape {
  ticks: number;
  stacks: number;
  types: number;
  methods: number;
}

/**
 * Return address of frame `f` (0–7) of stack `s`: inside method (s * 7 + f * 3) % methods, at an
 * offset that also depends on s / methods, so every stack (s < 3 × methods) is distinct.
 */
export function frameAddress(s: number, f: number, methods: number): number {
  return CODE + ((s * 7 + f * 3) % methods) * 0x100 + 0x10 + f + 0x40 * Math.floor(s / methods);
}

export function methodName(m: number): string {
  return `App.Module${m % 5}+Worker${m}.Step${m}(int32)`;
}

export function buildAllocationTickTrace(shape: AllocTraceShape): Uint8Array {
  const b = new V4Builder().trace({ syncQpc: SYNC, freq: 1_000_000_000, pointerSize: 8, pid: 4321 }).metadata([
    { id: 1, provider: RT, eventId: 143, version: 1 },
    { id: 2, provider: RT, eventId: 10, version: 4 },
  ]);
  const stacks: number[][] = [];
  for (let s = 0; s < shape.stacks; s++) stacks.push(Array.from({ length: 8 }, (_, f) => frameAddress(s, f, shape.methods)));
  b.stacks(1, stacks);
  let seq = 0;
  let t = 0;
  const ev = (md: number, payload: Uint8Array, stackId = 0): BuiltEvent => ({
    metadataId: md,
    threadId: 7,
    captureThreadId: 7,
    sequenceNumber: ++seq,
    timestamp: SYNC + BigInt((t += 1000)),
    payload,
    stackId,
  });
  const loads: BuiltEvent[] = [];
  for (let m = 0; m < shape.methods; m++) {
    const name = methodName(m);
    const dot = name.lastIndexOf('.', name.indexOf('('));
    const p = new Bytes()
      .u64(m + 1)
      .u64(1)
      .u64(CODE + m * 0x100)
      .u32(0x100)
      .u32(0x06000000 + m)
      .u32(0x8)
      .utf16z(name.slice(0, dot))
      .utf16z(name.slice(dot + 1, name.indexOf('(')))
      .utf16z('void  (int32)')
      .u16(7);
    loads.push(ev(1, p.toUint8Array()));
  }
  b.events(loads);
  const payloads = Array.from({ length: shape.types }, (_, k) => {
    const kind = k % 4 === 3 ? 1 : 0;
    return new Bytes()
      .u32(100_000 + k)
      .u32(kind)
      .u16(7)
      .u64(100_000 + k)
      .u64(0x5500 + k)
      .utf16z(`App.Type${k}${kind === 1 ? '[]' : ''}`)
      .u32(0)
      .u64(0x1000 + k)
      .u64(kind === 1 ? 90_000 : 24 + k)
      .toUint8Array();
  });
  const CHUNK = 2000;
  for (let i = 0; i < shape.ticks; i += CHUNK) {
    const batch: BuiltEvent[] = [];
    for (let k = i; k < Math.min(shape.ticks, i + CHUNK); k++) batch.push(ev(2, payloads[k % shape.types]!, 1 + (k % shape.stacks)));
    b.events(batch);
  }
  b.sequencePoint([[7, seq]]);
  return b.end();
}
