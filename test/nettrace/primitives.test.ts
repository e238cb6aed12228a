/** The byte cursor and chunk queue every decoder relies on. */
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import { describe, expect, it } from 'vitest';
import { ByteCursor } from '../../src-main/trace/byte-cursor.js';
import { ChunkQueue } from '../../src-main/nettrace/chunk-queue.js';
import { Bytes } from '../helpers/nettrace-builder.js';

describe('ByteCursor', () => {
  it('reads little-endian integers, 64-bit values exactly, and knows its absolute offset', () => {
    const c = new ByteCursor(
      new Bytes()
        .u16(0xbeef)
        .i32(-2)
        .u64(2n ** 53n - 1n)
        .u64(2n ** 63n + 5n)
        .toUint8Array(),
      100,
    );
    expect(c.u16()).toBe(0xbeef);
    expect(c.i32()).toBe(-2);
    expect(c.offset).toBe(106);
    expect(c.u64()).toBe(2 ** 53 - 1);
    expect(c.u64big()).toBe(2n ** 63n + 5n);
  });

  it('decodes varuints of every length, including 64-bit values past 2^53 exactly', () => {
    for (const v of [0n, 1n, 127n, 128n, 16383n, 16384n, 2n ** 32n - 1n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      const c = new ByteCursor(new Bytes().varuint(v).toUint8Array());
      expect(c.varuint64big()).toBe(v);
      expect(c.remaining).toBe(0);
    }
    expect(new ByteCursor(new Bytes().varuint(300).toUint8Array()).varuint32()).toBe(300);
  });

  it('refuses an over-long varint with a typed error', () => {
    expect(() => new ByteCursor(new Uint8Array(11).fill(0x80)).varuint64()).toThrow(TraceDecodeError);
  });

  it('never reads past the end: a typed truncation error at the absolute offset', () => {
    const c = new ByteCursor(new Uint8Array([1, 2, 3]), 50);
    c.u16();
    try {
      c.u32();
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'truncated', offset: 52 });
    }
  });

  it('reads UTF-16 strings short and long, and refuses one with no terminator', () => {
    const long = 'x'.repeat(200) + 'é';
    const c = new ByteCursor(new Bytes().utf16z('System.Byte[]').utf16z('').utf16z(long).toUint8Array());
    expect([c.utf16z(), c.utf16z(), c.utf16z()]).toEqual(['System.Byte[]', '', long]);
    expect(() => new ByteCursor(new Uint8Array([65, 0, 66, 0])).utf16z()).toThrow(/no terminator/);
  });

  it('formats GUIDs in registry form', () => {
    const c = new ByteCursor(Uint8Array.from([0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e, 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4]));
    expect(c.guid()).toBe('e13c0d23-ccbc-4e12-931b-d9cc2eee27e4');
  });
});

describe('ChunkQueue', () => {
  it('hands out contiguous views across one-byte chunks and tracks absolute offsets', () => {
    const q = new ChunkQueue();
    for (let i = 0; i < 10; i++) q.push(Uint8Array.of(i));
    expect(q.available).toBe(10);
    expect(Array.from(q.take(3))).toEqual([0, 1, 2]);
    expect(q.consumed).toBe(3);
    expect(Array.from(q.peek(5))).toEqual([3, 4, 5, 6, 7]);
    q.skip(6);
    expect(Array.from(q.rest())).toEqual([9]);
  });

  it('returns a view without copying when the range lies inside one chunk', () => {
    const q = new ChunkQueue();
    const big = new Uint8Array(100).map((_, i) => i);
    q.push(big);
    const v = q.take(40);
    expect(v.buffer).toBe(big.buffer);
    expect(v.byteOffset).toBe(0);
  });
});
