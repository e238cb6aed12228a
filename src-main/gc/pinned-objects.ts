/**
 * A GC's PinObjectAtGCTime reports: object address → size, the first report of an address wins
 * (as TraceEvent's dictionary does). gc-verbose traces carry one report per pinned object per GC
 * (hundreds of thousands): typed arrays (an open-addressing set of addresses, and the reports in
 * the order they came) instead of a Map, whose keys — addresses, beyond small integers — were each
 * a boxed number. Sums run in insertion order, as over the Map. Pure.
 */
import { grown } from '../shared/grown.js';

import type { PinnedTypeCount } from '../shared/finding.js';

export type { PinnedTypeCount };

export class PinnedObjects {
  /** The hash set of addresses (NaN: an empty slot); capacity a power of two, at most half full. */
  private slots = new Float64Array(16).fill(Number.NaN);
  private mask = 15;
  /** Distinct addresses and their sizes, in the order first reported. */
  private addresses = new Float64Array(8);
  private sizes = new Float64Array(8);
  /** Each address's type (an index into the names given to byType; -1: unknown). */
  private types = new Int32Array(8);
  /** Distinct addresses held. */
  size = 0;

  /** Records an address's size (and type index); false (and nothing changes) when the address was reported before. */
  add(address: number, size: number, type = -1): boolean {
    const s = this.slots;
    let i = slotHash(address) & this.mask;
    for (;;) {
      const k = s[i]!;
      if (k !== k) break; // NaN: empty
      if (k === address) return false;
      i = (i + 1) & this.mask;
    }
    s[i] = address;
    const n = this.size++;
    if (n === this.addresses.length) {
      this.addresses = grown(this.addresses, n * 2);
      this.sizes = grown(this.sizes, n * 2);
      const t = new Int32Array(n * 2);
      t.set(this.types);
      this.types = t;
    }
    this.addresses[n] = address;
    this.sizes[n] = size;
    this.types[n] = type;
    if (this.size * 2 > this.mask + 1) this.rehash();
    return true;
  }

  /** The sum of the sizes, added in the order they were reported. */
  sizeSum(): number {
    let sum = 0;
    for (let i = 0; i < this.size; i++) sum += this.sizes[i]!;
    return sum;
  }

  /**
   * The pinned objects by type, most objects first (ties by bytes, then name): `names[i]` is type
   * index i's name. Objects of an unknown type are left out.
   */
  byType(names: readonly string[]): PinnedTypeCount[] {
    const objects = new Map<number, { objects: number; bytes: number }>();
    for (let i = 0; i < this.size; i++) {
      const t = this.types[i]!;
      if (t < 0) continue;
      const e = objects.get(t);
      if (e === undefined) objects.set(t, { objects: 1, bytes: this.sizes[i]! });
      else {
        e.objects++;
        e.bytes += this.sizes[i]!;
      }
    }
    return [...objects]
      .map(([t, v]) => ({ typeName: names[t] ?? '', ...v }))
      .sort((a, b) => b.objects - a.objects || b.bytes - a.bytes || (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
  }

  /** The addresses, in the order first reported (a view: valid until the next add). */
  keys(): Float64Array {
    return this.addresses.subarray(0, this.size);
  }

  private rehash(): void {
    const cap = (this.mask + 1) * 2;
    const s = new Float64Array(cap).fill(Number.NaN);
    this.mask = cap - 1;
    for (let j = 0; j < this.size; j++) {
      const k = this.addresses[j]!;
      let i = slotHash(k) & this.mask;
      while (s[i] === s[i]) i = (i + 1) & this.mask;
      s[i] = k;
    }
    this.slots = s;
  }
}

/** A hash of an address (a non-negative integer below 2^64, as a double): both 32-bit halves mixed. */
function slotHash(address: number): number {
  const lo = address >>> 0;
  const hi = (address / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b) ^ (lo >>> 15), 0x9e3779b1) >>> 7;
}
