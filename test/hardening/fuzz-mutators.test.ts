/**
 * The fuzzer's NetTrace/NetPerf layout model and mutator (test/fuzz/mutators): if the layout
 * parser misread a file, "layout-aware" mutations would land on the wrong bytes and the fuzz run
 * would test far less than it claims. So: every seed re-serializes byte for byte; every block's
 * blobs (V4–V6) and events (V3) do too; each mutation family applies to the formats it targets,
 * changes the input, and the same (seed, index) gives the same input.
 */
import { describe, expect, it } from 'vitest';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { inputRand } from '../fuzz/input-rand.js';
import {
  KIND,
  encodeVarint,
  parseEventBlock,
  parseLayout,
  parseV3Events,
  serialize,
  serializeEventBlock,
  serializeV3Events,
} from '../fuzz/mutators/nettrace-layout.js';
import { mutateNettrace, nettraceSeeds } from '../fuzz/mutators/nettrace.js';
import { pickWeighted } from '../fuzz/mutators/types.js';

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('the fuzzer reads the NetTrace/NetPerf layout right', () => {
  const seeds = nettraceSeeds();

  it('has seeds of every container version: NetPerf V3, NetTrace V4, V5 and V6', () => {
    expect(new Set(seeds.map((s) => s.format))).toEqual(new Set(['NetPerf V3', 'NetTrace V4', 'NetTrace V5', 'NetTrace V6']));
  });

  for (const s of nettraceSeeds()) {
    it(`${s.name} (${s.format}): the layout re-serializes byte for byte, block by block and event by event`, () => {
      const l = parseLayout(s.bytes);
      expect(same(serialize(l).bytes, s.bytes)).toBe(true);
      expect(l.objects[0]!.kind).toBe(KIND.Trace);
      let blobs = 0;
      for (const o of l.objects) {
        if (l.container === 'netperf' && o.kind === KIND.Event) {
          const evs = parseV3Events(o.content);
          blobs += evs.length;
          expect(same(serializeV3Events(evs), o.content)).toBe(true);
        } else if (o.kind === KIND.Event || (o.kind === KIND.Metadata && l.container !== 'v6')) {
          const eb = parseEventBlock(o.content, l.container === 'v6');
          blobs += eb.blobs.length;
          expect(same(serializeEventBlock(eb), o.content)).toBe(true);
        }
      }
      expect(blobs).toBeGreaterThan(0);
    });
  }

  it('the V6 seed re-written from a real trace is read by the reader as V6 with its events', () => {
    const v6 = seeds.find((s) => s.name.startsWith('v6-from:'))!;
    const r = new NettraceReader({});
    r.push(v6.bytes);
    r.end();
    expect(r.state).toBe('complete');
    expect(r.formatName).toBe('NetTrace V6.0');
    expect(r.eventCount).toBeGreaterThan(1000);
  });

  it('varints are encoded at every length up to 10 bytes and decode to the same value', () => {
    for (const v of [0n, 127n, 128n, (1n << 32n) - 1n, (1n << 64n) - 1n]) {
      const minimal = encodeVarint(v).length;
      for (let len = minimal; len <= 10; len++) {
        const e = encodeVarint(v, len);
        expect(e.length).toBe(len);
        let x = 0n;
        for (let i = e.length - 1; i >= 0; i--) x = (x << 7n) | BigInt(e[i]! & 0x7f);
        expect(x).toBe(v);
        expect(e[len - 1]! & 0x80).toBe(0);
      }
    }
  });

  it('every mutation family fires on the formats it targets, changes the input, and (seed, index) gives the same input', () => {
    const families = new Map<string, Set<string>>();
    let unchanged = 0;
    for (let i = 0; i < 800; i++) {
      const rand = inputRand(3, i);
      const seed = pickWeighted(seeds, rand);
      const m = mutateNettrace(seed, rand);
      if (same(m.bytes, seed.bytes)) unchanged++;
      for (const part of m.mutation.split('; ')) {
        const fam = part.split(':')[0]!.split(' ')[0]!;
        if (!families.has(fam)) families.set(fam, new Set());
        families.get(fam)!.add(seed.format);
      }
      if (i % 100 === 0) {
        const again = inputRand(3, i);
        const m2 = mutateNettrace(pickWeighted(seeds, again), again);
        expect(m2.mutation).toBe(m.mutation);
        expect(same(m2.bytes, m.bytes)).toBe(true);
      }
    }
    for (const fam of [
      'block-duplicate',
      'block-drop',
      'block-swap',
      'event-varint',
      'event-flags',
      'metadata',
      'stack',
      'sequence-point',
      'trace-header',
      'frame',
      'gc-payload',
    ]) {
      expect(families.get(fam), fam).toBeDefined();
    }
    for (const fam of ['event-varint', 'stack', 'metadata', 'block-duplicate', 'gc-payload']) {
      expect([...families.get(fam)!].sort(), fam).toEqual(expect.arrayContaining(['NetTrace V4', 'NetTrace V5', 'NetTrace V6']));
    }
    expect([...families.get('v3-events')!]).toEqual(['NetPerf V3']);
    // A mutation can undo itself (a swap of two equal blocks): rare, never the rule.
    expect(unchanged).toBeLessThan(16);
  });
});
