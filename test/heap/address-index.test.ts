/**
 * Address → node index (heap/address-index.ts), which turns every reference of a heap walk into a
 * node: checked against a plain Map on walks laid out as the runtime writes them (regions in
 * address order, the regions themselves out of order), on overlapping runs, duplicates and misses.
 */
import { describe, expect, it } from 'vitest';
import { AddressIndex, IdMap, sortByAddress } from '../../src-main/heap/address-index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

/** Addresses of `regions` regions of objects (8-aligned, 24..200 bytes apart), regions in a shuffled order. */
function walkAddresses(seed: number, regions: number, perRegion: number, overlap: boolean): Float64Array {
  const r = rng(seed);
  const base = 0x7f0000000000;
  const order = Array.from({ length: regions }, (_, i) => i).sort(() => r() - 0.5);
  const out: number[] = [];
  for (const k of order) {
    // Overlapping: every region starts near the same address, so runs interleave.
    let a = base + (overlap ? k * 8 : k * 0x4000000);
    for (let i = 0; i < perRegion; i++) out.push((a += 24 + 8 * Math.floor(r() * 22)));
  }
  return Float64Array.from(out);
}

function checkAgainstMap(addr: Float64Array, probes: number[]): void {
  const ix = new AddressIndex(addr, addr.length);
  const m = new Map<number, number>();
  addr.forEach((a, i) => {
    if (!m.has(a)) m.set(a, i);
  });
  for (const a of [...addr, ...probes]) expect(ix.find(a)).toBe(m.get(a) ?? -1);
}

describe('address → node index of a heap walk', () => {
  it('finds every walked object and nothing else when regions are walked out of order', () => {
    const addr = walkAddresses(1, 40, 500, false);
    checkAgainstMap(addr, [0, 1, addr[0]! - 8, addr[0]! + 4, Math.max(...addr) + 8, 2 ** 52]);
  });

  it('finds the same objects when the walk order has overlapping runs (merged, not concatenated)', () => {
    const addr = walkAddresses(2, 17, 300, true);
    // Overlapping runs can repeat an address: the first object in walk order wins, as a Map's first set.
    checkAgainstMap(addr, [addr[5]! + 1, addr[100]! - 1]);
  });

  it('keeps walk order when it is already sorted, and handles one object and none', () => {
    const addr = Float64Array.from([16, 40, 64, 4096, 2 ** 47]);
    expect(sortByAddress(addr, addr.length)).toBeUndefined();
    checkAgainstMap(addr, [8, 48, 2 ** 47 + 8]);
    checkAgainstMap(Float64Array.from([0x1000]), [0x1008]);
    expect(new AddressIndex(new Float64Array(0), 0).find(0)).toBe(-1);
  });

  it('sorts indexes by address, stable for equal addresses', () => {
    const addr = Float64Array.from([50, 60, 10, 60, 20, 5, 60]);
    expect(Array.from(sortByAddress(addr, addr.length)!)).toEqual([5, 2, 4, 0, 1, 3, 6]);
  });

  it('numbers 64-bit type ids in the order they are first seen', () => {
    const m = new IdMap();
    const ids = Array.from({ length: 5000 }, (_, i) => 0x7f1234560000 + i * 0x48);
    ids.forEach((id, i) => expect(m.index(id)).toBe(i));
    ids.forEach((id, i) => expect(m.index(id)).toBe(i));
    expect(m.size).toBe(5000);
  });
});
