/**
 * The fuzzer's .gcdump layout model and mutator (test/fuzz/mutators/gcdump*.ts): if the layout
 * parser misread a snapshot, its "layout-aware" mutations would land on the wrong bytes and the
 * fuzz run would test far less than it claims. So: every seed re-serializes byte for byte and the
 * reader finds the same counts in it; a re-serialization with every node record moved still reads
 * as the same graph; each mutation family applies, changes the input, and the same (seed, index)
 * gives the same input.
 */
import { describe, expect, it } from 'vitest';
import { readGcdump } from '../../src-main/heap/gcdump.js';
import { inputRand } from '../fuzz/input-rand.js';
import { cint, cintLen, cloneLayout, decodeCInt, encodeCInt, parseGcdump, serializeGcdump } from '../fuzz/mutators/gcdump-layout.js';
import { gcdumpSeeds, mutateGcdump } from '../fuzz/mutators/gcdump.js';

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('the fuzzer reads the .gcdump layout right', () => {
  it('has the four real snapshots as seeds (CoreCLR, MonoVM, PerfView JScript)', () => {
    expect(gcdumpSeeds().map((s) => s.name)).toHaveLength(4);
  });

  for (const s of gcdumpSeeds()) {
    it(`${s.name}: the layout re-serializes byte for byte and holds the counts the reader finds`, () => {
      const l = parseGcdump(s.bytes);
      expect(same(serializeGcdump(l), s.bytes)).toBe(true);
      const snap = readGcdump(s.bytes);
      expect(l.order.length).toBe(snap.info.fileNodeCount);
      expect(new Set(l.order).size).toBe(l.order.length);
      // Every child in the layout's records is an edge of the reader's graph.
      expect(l.order.reduce((n, k) => n + l.records[k]!.children.length, 0)).toBe(snap.graph.children.length);
    });

    it(`${s.name}: with the node records reversed in the blob (offsets recomputed, tail positions moved) the reader reads the same graph`, () => {
      const l = cloneLayout(parseGcdump(s.bytes));
      const n = l.records.length;
      l.records.reverse();
      l.order = l.order.map((k) => n - 1 - k);
      // One record re-encoded overlong: the blob grows, so the trailer and forward table must move.
      l.records[0] = { ...l.records[0]!, childCount: { raw: encodeCInt(l.records[0]!.childCount.v, 5), v: l.records[0]!.childCount.v } };
      const out = serializeGcdump(l);
      expect(same(out, s.bytes)).toBe(false);
      const a = readGcdump(s.bytes);
      const b = readGcdump(out);
      expect(b.graph.nodeCount).toBe(a.graph.nodeCount);
      expect(Array.from(b.graph.children)).toEqual(Array.from(a.graph.children));
      expect(b.info).toEqual(a.info);
    });
  }

  it('compressed integers: every length decodes to its value, overlong too', () => {
    for (const v of [0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8193, 1048575, 1048576, 0x7ffffff, 0x8000000, 0x7fffffff, -0x80000000]) {
      for (let len = cintLen(v); len <= 5; len++) expect(decodeCInt(encodeCInt(v, len), 0)).toEqual({ v, len });
      expect(cint(v).raw.length).toBe(cintLen(v));
    }
  });

  const FAMILIES = [
    'counts',
    'drop-nodes',
    'root',
    'total-size',
    'types',
    'node-type',
    'node-size',
    'child-count',
    'children',
    'encoding',
    'offsets',
    'records',
    'addresses',
    'tags',
    'tail',
    'cut',
  ];
  for (const f of FAMILIES) {
    it(`mutation family ${f} applies, changes the input and is deterministic`, () => {
      const seeds = gcdumpSeeds();
      let applied = 0;
      for (let i = 0; i < 12; i++) {
        const seed = seeds[i % seeds.length]!;
        const m = mutateGcdump(seed, inputRand(3, i), [f]);
        if (!m.mutation.startsWith(`${f}:`)) continue;
        applied++;
        expect(same(m.bytes, seed.bytes)).toBe(false);
        expect(same(mutateGcdump(seed, inputRand(3, i), [f]).bytes, m.bytes)).toBe(true);
      }
      expect(applied).toBeGreaterThan(0);
    });
  }
});
