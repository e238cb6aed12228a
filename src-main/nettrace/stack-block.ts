/**
 * Stack blocks: the call stacks events refer to by id (NetTrace V4/V5 `StackBlock`, V6 block
 * kind 5 — the same content in both).
 *
 * Content (perfview NetTraceFormat_v5.md / NetTraceFormat.md "StackBlock"; runtime ep-block.c
 * `ep_stack_block_write_stack`):
 *   u32 FirstId, u32 Count, then Count × (u32 byteLength, byteLength bytes of return addresses,
 *   each PointerSize bytes, innermost frame first).
 * Ids are FirstId, FirstId+1, …; id 0 means "no stack". The writer numbers stacks afresh after
 * every sequence point (ep-file.c resets its stack cache there), so ids are only meaningful until
 * the next sequence point: the reader clears this table once the events queued before the
 * sequence point have been delivered.
 *
 * Addresses are kept as doubles: user-space code addresses on 64-bit platforms are below 2^48
 * (x64 and arm64 canonical user addresses), well inside the 2^53 a double holds exactly.
 */
import type { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';

/** The most frames a runtime stack can hold (EP_MAX_STACK_DEPTH is 100); anything far beyond is corrupt. */
const MAX_FRAMES = 4096;

interface StackBlockIndex {
  firstId: number;
  count: number;
  bytes: Uint8Array;
  /** Byte offset in `bytes` of each stack's first address, then one past the last stack. */
  offsets: Int32Array;
}

/**
 * The stack blocks since the last sequence point. A block is framed when it arrives (its stack
 * lengths checked) and a stack decoded only when an event's consumer asks for it: most events'
 * stacks are never looked at.
 */
export class StackTable {
  private blocks: StackBlockIndex[] = [];
  /** Stacks decoded since the last sequence point: the same id gives the same array (callers may cache by it). */
  private readonly decoded = new Map<number, Float64Array>();

  constructor(private readonly pointerSize: number) {}

  /** Number of stacks currently known. */
  get size(): number {
    return this.blocks.reduce((n, b) => n + b.count, 0);
  }

  /**
   * The return addresses of stack `id`, innermost first; undefined for id 0 and for an id no
   * stack block defined (an event whose stack the runtime could not or did not walk).
   */
  get(id: number): Float64Array | undefined {
    if (id === 0) return undefined;
    const hit = this.decoded.get(id);
    if (hit !== undefined) return hit;
    const bl = this.blocks;
    // Blocks arrive in id order: the last one starting at or before the id.
    let lo = 0;
    let hi = bl.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (bl[mid]!.firstId <= id) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0) return undefined;
    const b = bl[at]!;
    const i = id - b.firstId;
    if (i >= b.count) return undefined;
    const p = this.pointerSize;
    const from = b.offsets[i]!;
    const n = (b.offsets[i + 1]! - 4 - from) / p;
    const frames = new Float64Array(n);
    const v = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    for (let f = 0, o = from; f < n; f++, o += p) frames[f] = p === 8 ? v.getUint32(o + 4, true) * 4294967296 + v.getUint32(o, true) : v.getUint32(o, true);
    this.decoded.set(id, frames);
    return frames;
  }

  /** Frames one stack block's content (the stacks are decoded when asked for). */
  readBlock(c: ByteCursor): void {
    const firstId = c.u32();
    const count = c.u32();
    // Each stack takes at least its 4-byte length: a count beyond that is corrupt.
    if (count > c.remaining / 4) {
      throw new NettraceError('bad-block', c.offset - 4, `stack block claims ${count} stacks, more than its ${c.remaining} bytes can hold`);
    }
    const p = this.pointerSize;
    const offsets = new Int32Array(count + 1);
    for (let i = 0; i < count; i++) {
      const at = c.offset;
      const size = c.u32();
      if (size % p !== 0 || size / p > MAX_FRAMES) {
        throw new NettraceError('bad-block', at, `stack ${firstId + i} is ${size} bytes, not a whole number of ${p}-byte addresses (or implausibly deep)`);
      }
      if (size > c.remaining) {
        throw new NettraceError('bad-block', at, `stack ${firstId + i} claims ${size} bytes but its block has ${c.remaining} left`);
      }
      offsets[i] = c.pos;
      c.skip(size);
    }
    // The end of the last stack, plus the 4-byte length field get() subtracts.
    offsets[count] = c.pos + 4;
    // A view, not a copy: blocks are dropped at the next sequence point (about every 10 MB of
    // events), so the read chunks they keep alive are bounded; copying every block cost more.
    if (count > 0) this.blocks.push({ firstId, count, bytes: c.bytes, offsets });
  }

  /** Forgets every stack (at a sequence point, after the events before it were delivered). */
  clear(): void {
    this.blocks = [];
    this.decoded.clear();
  }
}
