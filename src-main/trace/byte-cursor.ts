/**
 * The one bounds-checked little-endian reader used by every decoder.
 *
 * It reads from a Uint8Array view (always with its byteOffset honoured) and knows the absolute
 * stream offset of its first byte, so every error names the byte where decoding stopped.
 * Reading past the end throws TraceDecodeError('truncated'); it never returns a made-up zero.
 * Shared by every container reader (nettrace/, etl/) and the CLR payload decoders (clr/); a
 * reader turns these into its own error subclass where it needs one (nettrace/errors.ts).
 *
 * 64-bit integers: `u64()` returns a number and is exact below 2^53 (sizes, addresses of real
 * processes, thread ids). `u64big()` returns the exact bigint for values that can exceed it
 * (raw timestamps, varuint64 deltas that wrap).
 */
import { TraceDecodeError } from './errors.js';

const TWO_32 = 4294967296;
const utf16 = new TextDecoder('utf-16le');
const utf8 = new TextDecoder('utf-8');

export class ByteCursor {
  pos = 0;
  private _view: DataView | undefined;

  constructor(
    readonly bytes: Uint8Array,
    /** Absolute stream offset of bytes[0]. */
    readonly base = 0,
  ) {}

  /**
   * A DataView over the same bytes, made on first use: integer reads assemble bytes directly,
   * which is faster than allocating a DataView for every small payload.
   */
  get view(): DataView {
    return (this._view ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
  }

  get length(): number {
    return this.bytes.length;
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  /** Absolute stream offset of the next byte to read. */
  get offset(): number {
    return this.base + this.pos;
  }

  truncated(wanted: number, what: string): TraceDecodeError {
    return new TraceDecodeError('truncated', this.base + this.pos, `stream ends inside ${what}: needed ${wanted} more byte(s), ${this.remaining} available`);
  }

  need(n: number, what = 'a field'): void {
    if (n > this.bytes.length - this.pos || n < 0) throw this.truncated(n, what);
  }

  u8(): number {
    if (this.pos >= this.bytes.length) throw this.truncated(1, 'a byte field');
    return this.bytes[this.pos++]!;
  }
  u16(): number {
    const p = this.pos;
    if (p + 2 > this.bytes.length) throw this.truncated(2, 'a 16-bit field');
    const b = this.bytes;
    this.pos = p + 2;
    return b[p]! | (b[p + 1]! << 8);
  }
  i16(): number {
    return (this.u16() << 16) >> 16;
  }
  i32(): number {
    const p = this.pos;
    if (p + 4 > this.bytes.length) throw this.truncated(4, 'a 32-bit field');
    const b = this.bytes;
    this.pos = p + 4;
    return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
  }
  u32(): number {
    return this.i32() >>> 0;
  }
  /** Unsigned 64-bit as a number (exact below 2^53). */
  u64(): number {
    const lo = this.u32();
    const hi = this.u32();
    return hi * TWO_32 + lo;
  }
  /** Signed 64-bit as a number (exact within ±2^53). */
  i64(): number {
    const lo = this.u32();
    const hi = this.i32();
    return hi * TWO_32 + lo;
  }
  u64big(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  i64big(): bigint {
    this.need(8);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }
  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** A pointer-sized unsigned integer (4 or 8 bytes) as a number. */
  ptr(size: number): number {
    return size === 8 ? this.u64() : this.u32();
  }

  /** LEB128, at most 5 bytes, as the runtime writes uint32 values. */
  varuint32(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.bytes.length) throw this.truncated(1, 'a varuint32');
      const b = this.bytes[this.pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
    }
    throw new TraceDecodeError('bad-event', this.offset - 5, 'varuint32 longer than 5 bytes');
  }

  /**
   * LEB128 up to 10 bytes as a number. Exact below 2^53; callers that must handle wrap-around
   * (timestamp deltas) use varuint64big when this returns a value >= 2^53.
   */
  varuint64(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw this.truncated(1, 'a varuint64');
      const b = this.bytes[this.pos++]!;
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return result;
      mul *= 128;
    }
    throw new TraceDecodeError('bad-event', this.offset - 10, 'varuint64 longer than 10 bytes');
  }

  /** Exact LEB128 uint64 (mod 2^64). */
  varuint64big(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw this.truncated(1, 'a varuint64');
      const b = this.bytes[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new TraceDecodeError('bad-event', this.offset - 10, 'varuint64 longer than 10 bytes');
  }

  /** Zig-zag varint64 (V6) as a number. */
  varint64(): number {
    const v = this.varuint64big();
    return Number((v >> 1n) ^ -(v & 1n));
  }

  bytesView(n: number, what = 'a byte range'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  skip(n: number, what = 'skipped bytes'): void {
    this.need(n, what);
    this.pos += n;
  }

  /** UTF-16LE terminated by a 2-byte NUL (the terminator is consumed, not returned). */
  utf16z(): string {
    const b = this.bytes;
    const start = this.pos;
    const end = b.length - 1;
    let p = start;
    while (p < end) {
      if (b[p] === 0 && b[p + 1] === 0) {
        this.pos = p + 2;
        const units = (p - start) >> 1;
        if (units === 0) return '';
        // Short strings (type names, event names): assembling code units beats a TextDecoder call.
        if (units <= 64) {
          const codes = new Array<number>(units);
          for (let i = 0, q = start; i < units; i++, q += 2) codes[i] = b[q]! | (b[q + 1]! << 8);
          return String.fromCharCode.apply(null, codes);
        }
        return utf16.decode(b.subarray(start, p));
      }
      p += 2;
    }
    throw this.truncated(2, 'a UTF-16 string (no terminator)');
  }

  /** V6 string: varuint32 byte length + UTF-8. */
  utf8v(): string {
    const n = this.varuint32();
    return utf8.decode(this.bytesView(n, 'a UTF-8 string'));
  }

  utf8(n: number): string {
    return utf8.decode(this.bytesView(n, 'a UTF-8 string'));
  }

  /** GUID in its registry form (first three groups little-endian). */
  guid(): string {
    this.need(16, 'a GUID');
    const b = this.bytes;
    const p = this.pos;
    this.pos += 16;
    const h = (i: number): string => b[p + i]!.toString(16).padStart(2, '0');
    return h(3) + h(2) + h(1) + h(0) + '-' + h(5) + h(4) + '-' + h(7) + h(6) + '-' + h(8) + h(9) + '-' + h(10) + h(11) + h(12) + h(13) + h(14) + h(15);
  }
}
