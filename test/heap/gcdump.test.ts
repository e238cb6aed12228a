import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readGcdump, writeGcdump, looksLikeGcdump } from '../../src-main/heap/gcdump.js';
import { analyzeHeap } from '../../src-main/heap/analysis.js';
import { HeapDecodeError } from '../../src-main/heap/errors.js';
import { moduleFileName } from '../../src-main/heap/type-names.js';
import { generateGraph } from './generated-graphs.js';
import { countsByType, parseReport } from './gcdump-report.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/heap/${name}`, import.meta.url));

describe('opening the public .gcdump files', () => {
  for (const [file, nodes, bytes] of [
    ['heapview-sample-monovm', 24062, 1309128],
    ['perfview-test1-jscript', 6482, 1009270],
  ] as const) {
    it(`${file}.gcdump opens with the node count, bytes and per-type counts dotnet-gcdump reports`, () => {
      const s = readGcdump(fixture(`${file}.gcdump`));
      const report = parseReport(fixture(`${file}.report.txt`).toString('utf8'));
      expect(report.objects).toBe(nodes);
      expect(s.info.fileNodeCount).toBe(nodes);
      expect(s.graph.nodeCount).toBe(nodes);
      expect(s.info.fileTotalSize).toBe(bytes);
      const a = analyzeHeap(s.graph);
      expect(a.totals.bytes).toBe(bytes);
      const mine = new Map<string, number>();
      for (const t of a.types) mine.set(`${moduleFileName(t.module)}!${t.fullName}`, (mine.get(`${moduleFileName(t.module)}!${t.fullName}`) ?? 0) + t.count);
      const theirs = countsByType(report.rows);
      expect(theirs.size).toBeGreaterThan(100);
      for (const [k, count] of theirs) expect(mine.get(k), k).toBe(count);
    });
  }

  it('names types as people write them and classifies the roots', () => {
    const s = readGcdump(fixture('heapview-sample-monovm.gcdump'));
    const a = analyzeHeap(s.graph);
    const names = new Set(a.types.map((t) => t.name));
    expect(names).toContain('Dictionary<string, object>');
    expect(names).toContain('string');
    expect(names).toContain('Type[]');
    expect(s.info.creationTool).toBe('dotnet-gcdump');
    const statics = s.graph.types.filter((t) => t.root === 'static');
    expect(statics.length).toBeGreaterThan(10);
    expect(statics.every((t) => t.name.startsWith('[static var '))).toBe(true);
  });
});

describe('writing .gcdump files', () => {
  it('a written snapshot reads back as the same graph', () => {
    for (const g of [readGcdump(fixture('heapview-sample-monovm.gcdump')).graph, generateGraph({ objects: 3000, degree: 3, roots: 6, types: 20, seed: 7 })]) {
      const back = readGcdump(writeGcdump(g)).graph;
      expect(back.nodeCount).toBe(g.nodeCount);
      expect(back.root).toBe(g.root);
      expect(Array.from(back.children)).toEqual(Array.from(g.children));
      expect(Array.from(back.firstChild)).toEqual(Array.from(g.firstChild));
      expect(Array.from(back.nodeSize)).toEqual(Array.from(g.nodeSize));
      for (let i = 0; i < g.nodeCount; i++) expect(back.types[back.nodeType[i]!]!.fullName).toBe(g.types[g.nodeType[i]!]!.fullName);
      expect(analyzeHeap(back).totals).toEqual(analyzeHeap(g).totals);
    }
  });
});

describe('bad .gcdump input is a typed error at an offset, never a crash', () => {
  const good = fixture('perfview-test1-jscript.gcdump');

  it('is recognized by its first bytes, and other files are not', () => {
    expect(looksLikeGcdump(good.subarray(0, 64))).toBe(true);
    expect(looksLikeGcdump(new TextEncoder().encode('Nettrace!FastSerialization.1 and more bytes here, enough of them'))).toBe(false);
  });

  it('cut at every 1999th byte and in the last 40: a truncated/malformed error with an offset inside the file', () => {
    const cuts = [...Array.from({ length: Math.ceil(good.length / 1999) }, (_, i) => i * 1999), ...Array.from({ length: 40 }, (_, i) => good.length - 1 - i)];
    for (const cut of cuts) {
      let err: unknown;
      try {
        readGcdump(good.subarray(0, cut));
      } catch (e) {
        err = e;
      }
      expect(err, `cut at ${cut}`).toBeInstanceOf(HeapDecodeError);
      expect((err as HeapDecodeError).offset).toBeLessThanOrEqual(cut);
    }
  });

  it('random byte damage opens or fails with a typed error', () => {
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0);
    for (let round = 0; round < 120; round++) {
      const bad = Uint8Array.from(good);
      for (let k = 0; k < 4; k++) bad[next() % bad.length] = next() & 0xff;
      try {
        readGcdump(bad);
      } catch (e) {
        expect(e, `round ${round}`).toBeInstanceOf(HeapDecodeError);
      }
    }
  });

  it('an absurd node count is refused before anything is allocated for it', () => {
    // The node count follows the types; find it by reading the good file's layout: patch the type count instead.
    const bad = Uint8Array.from(good);
    // MemoryGraph fields start after its type header: i64 total, i32 root, i32 type count.
    const header = 4 + 20 + 1 + (1 + 1 + 4 + 4 + 4 + 10 + 1) + 1 + (1 + 1 + 4 + 4 + 4 + 18 + 1);
    new DataView(bad.buffer).setInt32(header + 12, 0x7ffffff0, true);
    let err: unknown;
    try {
      readGcdump(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HeapDecodeError);
    expect((err as HeapDecodeError).code).toBe('too-large');
    expect((err as HeapDecodeError).offset).toBe(header + 12);
  });

  it('node offsets sharing one record of 20,000 self-references (a 400 KB file claiming 481 M references) are refused, not walked', () => {
    // Found by `npm run fuzz -- --reader gcdump` (seed 7, input 22): before the bound it took minutes and gigabytes.
    const bad = gunzipSync(readFileSync(new URL('../fixtures/fuzz-regressions/gcdump/hang-heap-json-seed7-input22.gcdump.gz', import.meta.url)));
    let err: unknown;
    try {
      readGcdump(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HeapDecodeError);
    expect((err as HeapDecodeError).code).toBe('malformed');
    expect((err as HeapDecodeError).message).toMatch(/more than the [\d,]+-byte node blob holds/);
  });
});
