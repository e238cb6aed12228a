/**
 * Reading and writing FastSerialization (PerfView's serializer, which .gcdump files use; the
 * NetPerf container is the same family). Little-endian; a string is an i32 count of UTF-16 code
 * units (−1 = null) followed by each unit in 1–3 UTF-8-style bytes — a count, not a byte length.
 * Objects are `BeginObject`, their type (inline or a reference), their fields, `EndObject`.
 */
import { HeapDecodeError } from './errors.js';

export const Tag = {
  Null: 1,
  ObjectReference: 2,
  ForwardReference: 3,
  BeginObject: 4,
  BeginPrivateObject: 5,
  EndObject: 6,
  ForwardDefinition: 7,
  Byte: 8,
  Int16: 9,
  Int32: 10,
  Int64: 11,
  SkipRegion: 12,
  String: 13,
} as const;

export const MAGIC = '!FastSerialization.1';

/** A bounds-checked reader: every read past the end is a 'truncated' error at that offset. */
export class FsReader {
  private readonly view: DataView;
  pos = 0;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  need(n: number, what: string): void {
    if (n > this.remaining)
      throw new HeapDecodeError('truncated', this.pos, `the file ends inside ${what} (${n} bytes needed, ${this.remaining} left): it was cut short`);
  }
  u8(what = 'a byte'): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  i32(what = 'a 32-bit integer'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u32(what = 'a 32-bit integer'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f32(what = 'a float'): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  /** An i64 as a number; values beyond 2^53 lose their low bits (addresses and sizes never get there). */
  i64(what = 'a 64-bit integer'): number {
    this.need(8, what);
    // High half signed, low half unsigned: the same number as Number(getBigInt64), no BigInt.
    const v = this.view.getInt32(this.pos + 4, true) * 4294967296 + this.view.getUint32(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** A count that must be non-negative and fit in what is left at `minBytesEach` per item. */
  count(what: string, minBytesEach: number): number {
    const at = this.pos;
    const n = this.i32(what);
    if (n < 0) throw new HeapDecodeError('malformed', at, `${what} is negative (${n}): the file is damaged`);
    if (n * minBytesEach > this.remaining)
      throw new HeapDecodeError(
        'too-large',
        at,
        `${what} claims ${n.toLocaleString('en-US')} items, more than the ${this.remaining.toLocaleString('en-US')} bytes left could hold: the file is damaged or cut short`,
      );
    return n;
  }
  string(what = 'a string'): string | null {
    const at = this.pos;
    const n = this.i32(`the length of ${what}`);
    if (n === -1) return null;
    if (n < 0 || n > this.remaining)
      throw new HeapDecodeError(
        n < 0 ? 'malformed' : 'truncated',
        at,
        `${what} claims ${n} characters, ${n < 0 ? 'a negative length' : `more than the ${this.remaining} bytes left`}: the file is damaged`,
      );
    const units = new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const b = this.u8(what);
      if (b < 0x80) units[i] = b;
      else if (b < 0xe0) units[i] = ((b & 0x1f) << 6) | (this.u8(what) & 0x3f);
      else {
        const b1 = this.u8(what);
        units[i] = ((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (this.u8(what) & 0x3f);
      }
    }
    // Chunked: String.fromCharCode on a huge array would overflow the call stack.
    let s = '';
    for (let i = 0; i < n; i += 8192) s += String.fromCharCode(...units.subarray(i, Math.min(n, i + 8192)));
    return s;
  }
  tag(expected: number, what: string): void {
    const at = this.pos;
    const t = this.u8(what);
    if (t !== expected) throw new HeapDecodeError('malformed', at, `expected ${what} (tag ${expected}), found tag ${t}: the file is damaged or not a .gcdump`);
  }
  /** An inline type header `BeginObject, Null, version, minReaderVersion, name, EndObject`; returns its fields. */
  typeHeader(what: string): { version: number; minReaderVersion: number; name: string } {
    this.tag(Tag.BeginObject, `the start of ${what}'s type`);
    this.tag(Tag.Null, `${what}'s type header`);
    const version = this.i32();
    const minReaderVersion = this.i32();
    const name = this.string(`${what}'s type name`) ?? '';
    this.tag(Tag.EndObject, `the end of ${what}'s type`);
    return { version, minReaderVersion, name };
  }
}

const TWO_32 = 4294967296;

/** A growable little-endian writer; `label` is the current stream position (what references point at). */
export class FsWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  pos = 0;
  /** Room for `n` more bytes (one allocation for a big write instead of doublings). */
  reserve(n: number): void {
    this.ensure(n);
  }
  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let len = this.buf.length * 2;
    while (len < this.pos + n) len *= 2;
    const b = new Uint8Array(len);
    b.set(this.buf.subarray(0, this.pos));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }
  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }
  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }
  f32(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }
  i64(v: number): void {
    this.ensure(8);
    const t = Math.trunc(v);
    if (t >= 0 && t <= Number.MAX_SAFE_INTEGER) {
      // Two 32-bit halves: no BigInt per value (a .gcdump holds one i64 per object).
      this.view.setUint32(this.pos, t % TWO_32, true);
      this.view.setUint32(this.pos + 4, Math.floor(t / TWO_32), true);
    } else this.view.setBigInt64(this.pos, BigInt(t), true);
    this.pos += 8;
  }
  /** Each value as an i32. */
  i32s(values: Int32Array): void {
    this.ensure(values.length * 4);
    for (let i = 0; i < values.length; i++) this.view.setInt32(this.pos + i * 4, values[i]!, true);
    this.pos += values.length * 4;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  string(s: string | null): void {
    if (s === null) {
      this.i32(-1);
      return;
    }
    this.i32(s.length);
    this.ensure(s.length * 3);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) this.buf[this.pos++] = c;
      else if (c < 0x800) {
        this.buf[this.pos++] = 0xc0 | (c >> 6);
        this.buf[this.pos++] = 0x80 | (c & 0x3f);
      } else {
        this.buf[this.pos++] = 0xe0 | ((c >> 12) & 0x0f);
        this.buf[this.pos++] = 0x80 | ((c >> 6) & 0x3f);
        this.buf[this.pos++] = 0x80 | (c & 0x3f);
      }
    }
  }
  typeHeader(name: string, version: number, minReaderVersion: number): void {
    this.u8(Tag.BeginObject);
    this.u8(Tag.Null);
    this.i32(version);
    this.i32(minReaderVersion);
    this.string(name);
    this.u8(Tag.EndObject);
  }
  result(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
  /** The buffer written so far (valid until the next write that grows it). */
  get buffer(): Uint8Array {
    return this.buf;
  }
}

/**
 * The node blob's compressed signed integers (Graph.cs): big-endian 7-bit groups, the high bit
 * says another group follows, the first group is sign-extended; at most 5 bytes.
 */
export function writeCompressedInt(w: FsWriter, value: number): void {
  w.reserve(5);
  w.pos = compressedIntInto(w.buffer, w.pos, value);
}

/** `writeCompressedInt` into `buf` at `p` (which has 5 bytes of room); returns the position after it. */
export function compressedIntInto(buf: Uint8Array, p: number, value: number): number {
  const v = value | 0;
  if ((v << 25) >> 25 === v) {
    buf[p++] = v & 0x7f;
  } else if ((v << 18) >> 18 === v) {
    buf[p++] = ((v >> 7) & 0x7f) | 0x80;
    buf[p++] = v & 0x7f;
  } else if ((v << 11) >> 11 === v) {
    buf[p++] = ((v >> 14) & 0x7f) | 0x80;
    buf[p++] = ((v >> 7) & 0x7f) | 0x80;
    buf[p++] = v & 0x7f;
  } else if ((v << 4) >> 4 === v) {
    buf[p++] = ((v >> 21) & 0x7f) | 0x80;
    buf[p++] = ((v >> 14) & 0x7f) | 0x80;
    buf[p++] = ((v >> 7) & 0x7f) | 0x80;
    buf[p++] = v & 0x7f;
  } else {
    buf[p++] = ((v >> 28) & 0x7f) | 0x80;
    buf[p++] = ((v >> 21) & 0x7f) | 0x80;
    buf[p++] = ((v >> 14) & 0x7f) | 0x80;
    buf[p++] = ((v >> 7) & 0x7f) | 0x80;
    buf[p++] = v & 0x7f;
  }
  return p;
}
