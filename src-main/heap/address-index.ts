/**
 * Address → node index for a heap walk's objects, in typed arrays (no Map, no per-object
 * allocation): the walk's addresses sorted (a natural merge sort of walk order — the runtime walks
 * each region in address order, so a .NET 10 walk of 12 M objects is ~40 sorted runs), a bucket
 * table over the address range, and a binary search inside the bucket. 12 B per object plus 4 B
 * per bucket; lookups touch two or three cache lines where a hash table of 2^25 slots misses on
 * every one.
 *
 * Addresses are user-space pointers (< 2^53, exact as doubles). Duplicate addresses (a malformed
 * walk) resolve to the first object in walk order that has it.
 */

/** Small open-addressing map from a 64-bit id held as a double (a type id, a module id) to 0..n-1. */
export class IdMap {
  private keys = new Float64Array(256);
  private vals = new Int32Array(256).fill(-1);
  private count = 0;
  private lastKey = NaN;
  private lastVal = -1;

  get size(): number {
    return this.count;
  }

  /** The id's index, made (the next index) on first sight. */
  index(key: number): number {
    if (key === this.lastKey) return this.lastVal;
    let s = slotOf(key, this.keys.length - 1);
    const mask = this.keys.length - 1;
    while (this.vals[s] !== -1 && this.keys[s] !== key) s = (s + 1) & mask;
    let v = this.vals[s]!;
    if (v === -1) {
      v = this.count++;
      this.keys[s] = key;
      this.vals[s] = v;
      if (this.count * 2 > this.keys.length) this.grow();
    }
    this.lastKey = key;
    this.lastVal = v;
    return v;
  }

  private grow(): void {
    const keys = this.keys;
    const vals = this.vals;
    this.keys = new Float64Array(keys.length * 2);
    this.vals = new Int32Array(keys.length * 2).fill(-1);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (vals[i] === -1) continue;
      let s = slotOf(keys[i]!, mask);
      while (this.vals[s] !== -1) s = (s + 1) & mask;
      this.keys[s] = keys[i]!;
      this.vals[s] = vals[i]!;
    }
  }
}

function slotOf(a: number, mask: number): number {
  const lo = (a % 4294967296) | 0;
  const hi = (a / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 13;
  return h & mask;
}

/** Indexes 0..n-1 ordered by address (stable: equal addresses keep walk order); undefined when walk order already is. */
export function sortByAddress(addr: Float64Array, n: number): Uint32Array | undefined {
  let runs: number[] = [0];
  for (let i = 1; i < n; i++) if (addr[i]! < addr[i - 1]!) runs.push(i);
  runs.push(n);
  if (runs.length <= 2) return undefined;
  // Runs that do not overlap (each region walked in address order): laid end to end by their
  // first address, no merging.
  const byStart = Array.from({ length: runs.length - 1 }, (_, r) => r).sort((x, y) => addr[runs[x]!]! - addr[runs[y]!]!);
  let disjoint = true;
  for (let k = 1; k < byStart.length && disjoint; k++) disjoint = addr[runs[byStart[k - 1]! + 1]! - 1]! < addr[runs[byStart[k]!]!]!;
  if (disjoint) {
    const out = new Uint32Array(n);
    let k = 0;
    for (const r of byStart) for (let i = runs[r]!, end = runs[r + 1]!; i < end; i++) out[k++] = i;
    return out;
  }
  let src = new Uint32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let dst = new Uint32Array(n);
  // Bottom-up merges of adjacent runs until one is left: log2(runs) passes over n.
  while (runs.length > 2) {
    const next: number[] = [0];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const lo = runs[r]!;
      const mid = runs[r + 1]!;
      const hi = r + 2 < runs.length ? runs[r + 2]! : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // `<=` keeps the left (earlier) one first on equal addresses.
        if (addr[src[i]!]! <= addr[src[j]!]!) dst[k++] = src[i++]!;
        else dst[k++] = src[j++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
      next.push(hi);
    }
    if (next[next.length - 1] !== n) next.push(n);
    runs = next;
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

export class AddressIndex {
  /** Addresses in ascending order. */
  private readonly sorted: Float64Array;
  /** The node of each sorted address; undefined when it is its position (walk order is sorted). */
  private readonly nodeOf: Uint32Array | undefined;
  /** Bucket b holds sorted[bucketStart[b] .. bucketStart[b+1]). */
  private readonly bucketStart: Uint32Array;
  private readonly min: number;
  private readonly max: number;
  private readonly scale: number;

  constructor(addr: Float64Array, n: number) {
    const order = sortByAddress(addr, n);
    this.nodeOf = order;
    if (order === undefined) this.sorted = addr.subarray(0, n);
    else {
      const s = new Float64Array(n);
      for (let i = 0; i < n; i++) s[i] = addr[order[i]!]!;
      this.sorted = s;
    }
    this.min = n > 0 ? this.sorted[0]! : 0;
    this.max = n > 0 ? this.sorted[n - 1]! : -1;
    // About 4 objects per bucket over a dense range; the bucket width is a power of two so the
    // division below is exact.
    const want = Math.max(1, Math.min(1 << 24, Math.ceil(n / 4)));
    let width = 1;
    while ((this.max - this.min) / width >= want) width *= 2;
    this.scale = 1 / width;
    const buckets = Math.floor((this.max - this.min) * this.scale) + 1;
    const start = new Uint32Array(buckets + 1);
    for (let i = 0; i < n; i++) start[Math.floor((this.sorted[i]! - this.min) * this.scale) + 1]!++;
    for (let b = 1; b <= buckets; b++) start[b]! += start[b - 1]!;
    this.bucketStart = start;
  }

  /** The node at `a`, or -1 when no walked object has that address. */
  find(a: number): number {
    if (!(a >= this.min && a <= this.max)) return -1;
    const b = Math.floor((a - this.min) * this.scale);
    let lo = this.bucketStart[b]!;
    let hi = this.bucketStart[b + 1]!;
    const s = this.sorted;
    // Leftmost position with sorted[pos] >= a.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! < a) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.bucketStart[b + 1]! || s[lo] !== a) return -1;
    return this.nodeOf === undefined ? lo : this.nodeOf[lo]!;
  }
}
