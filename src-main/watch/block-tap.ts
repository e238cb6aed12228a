/**
 * The bytes of each block of a stream, as the reader finds them. The nettrace reader reports a
 * block's absolute [start, end) once it has read it (`ReaderHandlers.onBlock`); the tap keeps the
 * stream's chunks from the oldest byte still needed, so the block can be copied out, and lets go
 * of everything before the last block end. Memory: at most one block plus one chunk.
 */
export class BlockTap {
  private chunks: Uint8Array[] = [];
  /** Stream offset of chunks[0][0]. */
  private base = 0;
  private total = 0;

  /** Appends the next chunk of the stream (call before the reader sees it). */
  append(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /** A copy of stream bytes [start, end); they must still be held. */
  slice(start: number, end: number): Uint8Array {
    if (start < this.base || end > this.base + this.total || end < start)
      throw new RangeError(`bytes ${start}–${end} are not held (held ${this.base}–${this.base + this.total})`);
    const out = new Uint8Array(end - start);
    let pos = this.base;
    let o = 0;
    for (const c of this.chunks) {
      const cEnd = pos + c.length;
      if (cEnd > start && pos < end) {
        const from = Math.max(start, pos) - pos;
        const to = Math.min(end, cEnd) - pos;
        out.set(c.subarray(from, to), o);
        o += to - from;
      }
      pos = cEnd;
      if (pos >= end) break;
    }
    return out;
  }

  /** Forgets the bytes before `offset`. */
  release(offset: number): void {
    while (this.chunks.length > 0 && this.base + this.chunks[0]!.length <= offset) {
      const c = this.chunks.shift()!;
      this.base += c.length;
      this.total -= c.length;
    }
  }

  /** Bytes held. */
  get held(): number {
    return this.total;
  }
}
