/**
 * MS-XCA plain LZ77 (xpress.ts): the specification's own examples, every compressed buffer of
 * the real PerfView-merged file (each must decompress to exactly SavedOffset − 0x48 bytes), round
 * trips through the test compressor (long matches use the nibble, byte, u16 and u32 lengths), and
 * refusals that never write out of bounds.
 */
import { describe, expect, it } from 'vitest';
import { BUFFER_FLAG_COMPRESSED, BUFFER_HEADER_SIZE, readBufferHeader } from '../../src-main/etl/buffer.js';
import { compressLz77, decompressLz77 } from '../../src-main/etl/xpress.js';
import { etlBytes } from './helpers.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g)!.map((h) => Number.parseInt(h, 16)));
const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Every compressed buffer of a file: its compressed bytes and its logical size. */
function compressedBuffers(bytes: Uint8Array): { data: Uint8Array; size: number }[] {
  const out: { data: Uint8Array; size: number }[] = [];
  for (let at = 0; at + BUFFER_HEADER_SIZE <= bytes.length;) {
    const h = readBufferHeader(bytes.subarray(at), at);
    if ((h.flags & BUFFER_FLAG_COMPRESSED) !== 0)
      out.push({ data: bytes.subarray(at + BUFFER_HEADER_SIZE, at + h.bufferSize), size: h.savedOffset - BUFFER_HEADER_SIZE });
    at += h.bufferSize;
  }
  return out;
}

describe('MS-XCA plain LZ77', () => {
  it('decodes the specification examples (literals only; "abc" × 100 as one long match)', () => {
    expect(new TextDecoder().decode(decompressLz77(hex('3f000000' + '6162636465666768696a6b6c6d6e6f707172737475767778797a'), 26))).toBe(
      'abcdefghijklmnopqrstuvwxyz',
    );
    expect(new TextDecoder().decode(decompressLz77(hex('ffffff1f6162631700' + '0fff2601'), 300))).toBe('abc'.repeat(100));
  });

  it('decompresses every compressed buffer of the PerfView-merged file to exactly its logical size', () => {
    const buffers = compressedBuffers(etlBytes('net.4.5.2.x64.etl.zip'));
    expect(buffers).toHaveLength(359);
    for (const b of buffers) expect(decompressLz77(b.data, b.size)?.length).toBe(b.size);
    // and the plain .etl's two
    expect(compressedBuffers(etlBytes('SelfDescribingSingleEvent.etl')).map((b) => decompressLz77(b.data, b.size)?.length === b.size)).toEqual([true, true]);
  });

  it('round-trips real buffers and long runs through the compressor', () => {
    const real = compressedBuffers(etlBytes('net.4.5.2.x64.etl.zip')).slice(0, 4);
    for (const b of real) {
      const plain = decompressLz77(b.data, b.size)!;
      expect(decompressLz77(compressLz77(plain), plain.length)).toEqual(plain);
    }
    for (const n of [0, 1, 3, 9, 10, 24, 25, 40, 300, 5000, 70000]) {
      const data = new Uint8Array(n).fill(0x41);
      for (let k = 0; k < n; k += 97) data[k] = k & 255;
      expect(decompressLz77(compressLz77(data), n), `${n} bytes`).toEqual(data);
    }
  });

  it('refuses an output of any other length, a match before the start, and input cut short', () => {
    const abc = hex('ffffff1f6162631700' + '0fff2601');
    expect(decompressLz77(abc, 299)).toBeUndefined();
    expect(decompressLz77(abc, 301)).toBeUndefined();
    // A match reaching 9 bytes back after 3 literals.
    expect(decompressLz77(hex('ffffff1f616263' + '4000'), 6)).toBeUndefined();
    for (let cut = 4; cut < abc.length; cut++) expect(decompressLz77(abc.subarray(0, cut), 300)).toBeUndefined();
    expect(decompressLz77(ascii(''), 0)?.length).toBe(0);
  });
});
