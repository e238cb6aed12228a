/**
 * Accumulates pushed chunks (of any size, down to one byte as a socket delivers them) and hands
 * out contiguous views. A view that lies inside one chunk is returned without copying; only a
 * range that spans chunks is copied into a new buffer (once per block, not per event).
 *
 * Offsets are absolute: `consumed` counts every byte ever taken off the front.
 */
const EMPTY = new Uint8Array(0);

export class ChunkQueue {
  private chunks: Uint8Array[] = [];
  /** Index of the first live chunk in `chunks` and read position inside it. */
  private head = 0;
  private headPos = 0;
  private _available = 0;
  private _consumed = 0;

  get available(): number {
    return this._available;
  }
  /** Absolute offset of the next unread byte. */
  get consumed(): number {
    return this._consumed;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this._available += chunk.length;
  }

  /** A contiguous view of the next `n` bytes (n ≤ available) without consuming them. */
  peek(n: number): Uint8Array {
    if (n > this._available) throw new RangeError(`peek(${n}) with ${this._available} available`);
    const first = this.chunks[this.head];
    if (first === undefined || n === 0) return new Uint8Array(0);
    if (first.length - this.headPos >= n) return first.subarray(this.headPos, this.headPos + n);
    // Spans chunks: merge exactly the chunks needed into one, and keep the merged chunk so the
    // next peek/take of the same range is zero-copy.
    const merged = new Uint8Array(n);
    let filled = 0;
    let i = this.head;
    let pos = this.headPos;
    while (filled < n) {
      const c = this.chunks[i]!;
      const take = Math.min(c.length - pos, n - filled);
      merged.set(c.subarray(pos, pos + take), filled);
      filled += take;
      pos += take;
      if (pos === c.length) {
        i++;
        pos = 0;
      }
    }
    // Replace chunks [head, i) and the consumed part of chunk i with `merged` + the rest of i.
    const rest: Uint8Array[] = [];
    if (i < this.chunks.length && pos > 0) {
      rest.push(this.chunks[i]!.subarray(pos));
      i++;
    }
    this.chunks = [merged, ...rest, ...this.chunks.slice(i)];
    this.head = 0;
    this.headPos = 0;
    return merged;
  }

  /** Consume `n` bytes and return them as one contiguous view. */
  take(n: number): Uint8Array {
    const v = this.peek(n);
    this.skip(n);
    return v;
  }

  skip(n: number): void {
    if (n > this._available) throw new RangeError(`skip(${n}) with ${this._available} available`);
    this._available -= n;
    this._consumed += n;
    while (n > 0) {
      const c = this.chunks[this.head]!;
      const left = c.length - this.headPos;
      if (n < left) {
        this.headPos += n;
        return;
      }
      n -= left;
      // Release the consumed chunk now (the array itself is compacted below, in batches).
      this.chunks[this.head] = EMPTY;
      this.head++;
      this.headPos = 0;
    }
    // Drop references to fully consumed chunks so they can be collected.
    if (this.head > 64 || this.head === this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** Everything still buffered, as one view (used when the stream ends mid-structure). */
  rest(): Uint8Array {
    return this.peek(this._available);
  }
}
