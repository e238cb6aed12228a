/**
 * The pinning analysis reads GC/PinObjectAtGCTime without the catalogue's decoder (gc-verbose
 * traces carry one per pinned object per GC) and finds each object's plug by binary search. Both
 * are shortcuts: these tests hold them to the decoder and to TraceEvent's linear scan, on the
 * pin events and pinned plugs of real workload traces.
 */
import { describe, expect, it } from 'vitest';
import { decodeGCEvent, pinTypeName, PrivateEvent, PRIVATE, readPinObject, RUNTIME, RuntimeEvent } from '../../src-main/clr/gc-events.js';
import { markUserPlugs } from '../../src-main/gc/gc-metrics.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { traceBytes } from '../helpers/fixtures.js';

const TRACES = ['workload-concurrent.nettrace.zip', 'workload-net8-server.nettrace.zip'];

function collect(name: string): {
  pins: TraceEventRecord[];
  plugsPerGc: { start: number; end: number }[][];
  objectsPerGc: Map<number, number>[];
  pointerSize: number;
} {
  const pins: TraceEventRecord[] = [];
  const plugsPerGc: { start: number; end: number }[][] = [];
  const objectsPerGc: Map<number, number>[] = [];
  let pointerSize = 8;
  const r = new NettraceReader({
    onTrace: (t) => (pointerSize = t.pointerSize),
    onEvent: (e) => {
      const md = e.metadata;
      if (md.provider === RUNTIME && md.eventId === RuntimeEvent.GCStart) {
        plugsPerGc.push([]);
        objectsPerGc.push(new Map());
      } else if (md.provider === RUNTIME && md.eventId === RuntimeEvent.PinObjectAtGCTime) {
        pins.push(e);
        const d = decodeGCEvent(e, pointerSize);
        if (d?.kind === 'GCPinObjectAtGCTime') objectsPerGc.at(-1)?.set(d.objectId, d.objectSize);
      } else if (md.provider === PRIVATE && md.eventId === PrivateEvent.PinPlugAtGCTime) {
        const d = decodeGCEvent(e, pointerSize);
        if (d?.kind === 'PinPlugAtGCTime') plugsPerGc.at(-1)?.push({ start: d.plugStart, end: d.plugEnd });
      }
    },
  });
  r.push(traceBytes(name));
  r.end();
  return { pins, plugsPerGc, objectsPerGc, pointerSize };
}

describe('pinning without the per-event decoder', () => {
  for (const name of TRACES) {
    it(`${name}: every pinned object's address, size and type name match the PinObjectAtGCTime decoder`, () => {
      const { pins, pointerSize } = collect(name);
      expect(pins.length).toBeGreaterThan(0);
      for (const e of pins) {
        const d = decodeGCEvent(e, pointerSize);
        expect(d?.kind).toBe('GCPinObjectAtGCTime');
        const fast = readPinObject(e, pointerSize);
        expect(fast).toBeDefined();
        if (d?.kind === 'GCPinObjectAtGCTime') {
          expect({ objectId: fast!.objectId, objectSize: fast!.objectSize }).toEqual({ objectId: d.objectId, objectSize: d.objectSize });
          // Who is pinned (issue 39): the type name read from the byte range the fast path gives.
          expect(pinTypeName(e.bytes, fast!.nameStart, fast!.nameEnd)).toBe(d.typeName);
        }
      }
    });

    it(`${name}: a cut-short pin event is undecodable on both paths (every length of one payload)`, () => {
      const { pins, pointerSize } = collect(name);
      const e = pins[0]!;
      for (let n = 0; n <= e.payloadSize; n++) {
        const cut = { ...e, payloadSize: n };
        let threw = false;
        try {
          decodeGCEvent(cut, pointerSize);
        } catch {
          threw = true;
        }
        expect(readPinObject(cut, pointerSize) === undefined, `payload cut to ${n} of ${e.payloadSize} bytes`).toBe(threw);
      }
    });

    it(`${name}: the plugs marked as holding user-pinned objects are the ones TraceEvent's linear scan marks`, () => {
      const { plugsPerGc, objectsPerGc } = collect(name);
      let compared = 0;
      plugsPerGc.forEach((plugs, i) => {
        const objects = objectsPerGc[i]!;
        if (plugs.length === 0 || objects.size === 0) return;
        const expected = plugs.map(() => false);
        for (const addr of objects.keys()) {
          const at = plugs.findIndex((p) => addr >= p.start && addr < p.end);
          if (at >= 0) expected[at] = true;
        }
        const got = plugs.map(() => false);
        markUserPlugs(plugs, objects, got);
        expect(got).toEqual(expected);
        compared++;
      });
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('overlapping or unordered plugs fall back to the first plug in list order, as TraceEvent does', () => {
    const plugs = [
      { start: 100, end: 200 },
      { start: 50, end: 150 },
      { start: 300, end: 300 },
      { start: 300, end: 400 },
    ];
    const got = plugs.map(() => false);
    markUserPlugs(
      plugs,
      new Map([
        [120, 8],
        [60, 8],
        [300, 8],
      ]),
      got,
    );
    expect(got).toEqual([true, true, false, true]);
  });
});
