/**
 * MS-XCA "plain LZ77" (a.k.a. Xpress without Huffman) decompression, written from the MS-XCA
 * specification §2.4 (Microsoft Open Specifications) — no maintained npm package implements it
 * (the registry holds none for LZ77/Xpress/MS-XCA). ETW's relogger compresses each buffer of a
 * PerfView-merged .etl with it (docs/formats.md, "ETL").
 *
 * The stream: a 32-bit little-endian flag word read MSB-first (bit set = a match, clear = a
 * literal byte); a match is a u16 token whose low 3 bits are length−3 and high 13 bits offset−1.
 * Length 7 in the token means "more": a nibble (two matches share one byte, low nibble first),
 * 15 there means a following byte, 255 there a following u16, and 0 there a following u32 (the
 * whole length − 3). A match flag with no input left ends the stream (a spare FFFFFFFF word).
 *
 * The output size is known in advance (the buffer's logical fill), so the output is allocated
 * once and anything that would write past it, reach before its start or read past the input is
 * a refusal (undefined), never an over-allocation. Pure.
 */

/**
 * Decompresses `input` into exactly `outputSize` bytes; undefined when the input is not plain
 * LZ77 producing exactly that many bytes (another Xpress variant, damage). With `into`, the
 * output goes to `into[at, at + outputSize)` (which must fit) and `into` is returned.
 */
export function decompressLz77(input: Uint8Array, outputSize: number, into?: Uint8Array, at = 0): Uint8Array | undefined {
  // `into` (from `at`): decompress in place into the caller's buffer (ETL buffers keep their header before the data).
  const out = into ?? new Uint8Array(outputSize);
  const n = input.length;
  let ip = 0;
  let op = at;
  outputSize += at;
  let flags = 0;
  let flagCount = 0;
  let halfByte = -1;
  for (;;) {
    if (flagCount === 0) {
      if (ip + 4 > n) break; // input exhausted on a flag boundary
      flags = (input[ip]! | (input[ip + 1]! << 8) | (input[ip + 2]! << 16) | (input[ip + 3]! << 24)) >>> 0;
      ip += 4;
      flagCount = 32;
    }
    flagCount--;
    if (((flags >>> flagCount) & 1) === 0) {
      if (ip >= n) break;
      if (op >= outputSize) return undefined;
      out[op++] = input[ip++]!;
      continue;
    }
    if (ip === n) break; // a match flag with nothing after it: the end
    if (ip + 2 > n) return undefined;
    const token = input[ip]! | (input[ip + 1]! << 8);
    ip += 2;
    let length = token & 7;
    const offset = (token >>> 3) + 1;
    if (length === 7) {
      if (halfByte < 0) {
        if (ip >= n) return undefined;
        halfByte = ip;
        length = input[ip++]! & 15;
      } else {
        length = input[halfByte]! >>> 4;
        halfByte = -1;
      }
      if (length === 15) {
        if (ip >= n) return undefined;
        length = input[ip++]!;
        if (length === 255) {
          if (ip + 2 > n) return undefined;
          length = input[ip]! | (input[ip + 1]! << 8);
          ip += 2;
          if (length === 0) {
            if (ip + 4 > n) return undefined;
            length = (input[ip]! | (input[ip + 1]! << 8) | (input[ip + 2]! << 16) | (input[ip + 3]! << 24)) >>> 0;
            ip += 4;
          }
          if (length < 15 + 7) return undefined;
          length -= 15 + 7;
        }
        length += 15;
      }
      length += 7;
    }
    length += 3;
    if (offset > op - at || op + length > outputSize) return undefined;
    // Byte by byte: a match may overlap its own output (offset < length repeats a pattern).
    let from = op - offset;
    const stop = op + length;
    if (offset >= length) {
      out.copyWithin(op, from, from + length);
      op = stop;
    } else {
      while (op < stop) out[op++] = out[from++]!;
    }
  }
  return op === outputSize ? out : undefined;
}

/**
 * A plain-LZ77 compressor for tests (spec round trips and hand-made compressed buffers): greedy
 * matches through a small hash of 3-byte prefixes. Not used on any user path.
 */
export function compressLz77(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let flagPos = 0;
  let flags = 0;
  let flagCount = 0;
  let halfByte = -1;
  const startFlags = (): void => {
    flagPos = out.length;
    out.push(0, 0, 0, 0);
    flags = 0;
    flagCount = 0;
  };
  const putFlag = (bit: number): void => {
    if (flagCount === 32) {
      writeFlags();
      startFlags();
    }
    flags = ((flags << 1) | bit) >>> 0;
    flagCount++;
  };
  const writeFlags = (): void => {
    const f = (flags << (32 - flagCount)) >>> 0;
    out[flagPos] = f & 255;
    out[flagPos + 1] = (f >>> 8) & 255;
    out[flagPos + 2] = (f >>> 16) & 255;
    out[flagPos + 3] = f >>> 24;
  };
  startFlags();
  const table = new Map<number, number>();
  let i = 0;
  while (i < input.length) {
    let bestLen = 0;
    let bestOff = 0;
    if (i + 3 <= input.length) {
      const key = input[i]! | (input[i + 1]! << 8) | (input[i + 2]! << 16);
      const cand = table.get(key);
      table.set(key, i);
      if (cand !== undefined && i - cand <= 8192) {
        let l = 0;
        while (i + l < input.length && input[cand + l] === input[i + l] && l < 70000) l++;
        if (l >= 3) {
          bestLen = l;
          bestOff = i - cand;
        }
      }
    }
    if (bestLen === 0) {
      putFlag(0);
      out.push(input[i++]!);
      continue;
    }
    putFlag(1);
    const l = bestLen - 3;
    out.push((((bestOff - 1) << 3) | Math.min(l, 7)) & 255, ((bestOff - 1) << 3) >>> 8);
    if (l >= 7) {
      const rest = l - 7;
      const nib = Math.min(rest, 15);
      if (halfByte < 0) {
        halfByte = out.length;
        out.push(nib);
      } else {
        out[halfByte] = out[halfByte]! | (nib << 4);
        halfByte = -1;
      }
      if (rest >= 15) {
        const r2 = rest - 15;
        if (r2 < 255) out.push(r2);
        else {
          out.push(255);
          const full = l; // the whole length − 3
          if (full < 65536) out.push(full & 255, full >>> 8);
          else out.push(0, 0, full & 255, (full >>> 8) & 255, (full >>> 16) & 255, full >>> 24);
        }
      }
    }
    i += bestLen;
  }
  writeFlags();
  return Uint8Array.from(out);
}
