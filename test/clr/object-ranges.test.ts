/**
 * Survival and movement (GCHeapSurvivalAndMovement keyword): GCBulkSurvivingObjectRanges (21) and
 * GCBulkMovedObjectRanges (22) decoded field by field from hand-built payloads on both pointer
 * sizes; a GC whose range list the runtime split over several events adds up to one total; and on
 * real traces the bytes the ranges cover equal what the GC promoted.
 */
import { describe, expect, it } from 'vitest';
import { decodeGCEvent, type GCObjectRanges } from '../../src-main/clr/gc-events.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import type { TraceEventRecord, TraceInfo } from '../../src-main/nettrace/types.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { eventRecord } from '../helpers/event-record.js';
import { Bytes } from '../helpers/nettrace-builder.js';
import { TRACES } from '../helpers/fixtures.js';

let seq = 0;
function event(eventId: number, payload: Bytes, opts: { t?: number; thread?: number; version?: number } = {}): TraceEventRecord {
  return eventRecord(eventId, payload, {
    version: opts.version ?? 0,
    timestamp: opts.t ?? 0,
    threadId: opts.thread ?? 7,
    captureThreadId: 7,
    sequenceNumber: ++seq,
  });
}
const ptr = (b: Bytes, v: number, size: number): Bytes => (size === 8 ? b.u64(v) : b.u32(v));

/** Header (Index, Count, ClrInstanceID), then the ranges: surviving {base, len}, moved {old, new, len}. */
function surviving(index: number, ranges: [number, number][], size: number): Bytes {
  const b = new Bytes().u32(index).u32(ranges.length).u16(3);
  for (const [base, len] of ranges) ptr(b, base, size).u64(len);
  return b;
}
function moved(index: number, ranges: [number, number, number][], size: number): Bytes {
  const b = new Bytes().u32(index).u32(ranges.length).u16(3);
  for (const [from, to, len] of ranges) ptr(ptr(b, from, size), to, size).u64(len);
  return b;
}

describe('survival and movement events', () => {
  for (const size of [4, 8]) {
    const hi = size === 8 ? 0x7f12_3400_0000 : 0x0200_0000;
    it(`GCBulkSurvivingObjectRanges, ${size}-byte pointers: index, count, bytes and the address span`, () => {
      const d = decodeGCEvent(
        event(
          21,
          surviving(
            2,
            [
              [hi + 0x1000, 0x30],
              [hi + 0x40, 0x18],
              [hi + 0x9000, 0x1000],
            ],
            size,
          ),
        ),
        size,
      ) as GCObjectRanges;
      expect(d).toEqual({
        kind: 'GCBulkSurvivingObjectRanges',
        index: 2,
        count: 3,
        totalBytes: 0x30 + 0x18 + 0x1000,
        minAddress: hi + 0x40,
        maxAddress: hi + 0xa000,
        relocatedBytes: 0,
      });
    });

    it(`GCBulkMovedObjectRanges, ${size}-byte pointers: moved bytes, and relocated only where the address changed`, () => {
      // The second range is a pinned plug: reported, but its address stays.
      const d = decodeGCEvent(
        event(
          22,
          moved(
            0,
            [
              [hi + 0x5000, hi + 0x100, 0x200],
              [hi + 0x8000, hi + 0x8000, 0x80],
              [hi + 0x9000, hi + 0x300, 0x40],
            ],
            size,
          ),
        ),
        size,
      ) as GCObjectRanges;
      expect(d).toEqual({
        kind: 'GCBulkMovedObjectRanges',
        index: 0,
        count: 3,
        totalBytes: 0x2c0,
        minAddress: hi + 0x5000,
        maxAddress: hi + 0x9040,
        relocatedBytes: 0x240,
      });
    });
  }

  it('a payload cut inside its ranges decodes the whole ranges only (Count is not trusted past the end)', () => {
    const full = surviving(
      0,
      [
        [0x1000, 0x10],
        [0x2000, 0x20],
      ],
      8,
    ).toUint8Array();
    const cut = new Bytes().bytes(full.subarray(0, full.length - 4));
    const d = decodeGCEvent(event(21, cut), 8) as GCObjectRanges;
    expect(d.count).toBe(2);
    expect(d.totalBytes).toBe(0x10);
  });

  it('a GC whose ranges the runtime split over several events gets one total, on the GC they happened in', () => {
    const a = new GCAnalyzer();
    a.setTrace({ pointerSize: 8, qpcFrequency: 1000 } as TraceInfo);
    const gc = (n: number, t: number, ranges: () => TraceEventRecord[]): void => {
      a.onEvent(event(9, new Bytes().u32(1).u32(n).u16(0), { t, version: 1 })); // SuspendEEBegin, for GC
      a.onEvent(event(8, new Bytes().u16(0), { t: t + 1, version: 1 })); // SuspendEEEnd
      a.onEvent(event(1, new Bytes().u32(n).u32(0).u32(0).u32(0).u16(0), { t: t + 2, version: 1 })); // GCStart gen0
      for (const r of ranges()) a.onEvent(r);
      a.onEvent(event(2, new Bytes().u32(n).u32(0).u16(0), { t: t + 5, version: 1 })); // GCEnd
      a.onEvent(event(3, new Bytes().u16(0), { t: t + 6, version: 1 })); // RestartEEEnd
    };
    gc(1, 100, () => [
      event(22, moved(0, [[0x10000, 0x1000, 0x100]], 8), { t: 103 }),
      event(
        22,
        moved(
          1,
          [
            [0x20000, 0x2000, 0x80],
            [0x30000, 0x30000, 0x40],
          ],
          8,
        ),
        { t: 103 },
      ),
      event(21, surviving(0, [[0x40000, 0x20]], 8), { t: 104 }),
    ]);
    gc(2, 200, () => []);
    a.finish();
    expect(a.gcs.length).toBe(2);
    const [first, second] = a.gcs.map((g) => toGcRecord(g!));
    expect(first).toMatchObject({
      movedRanges: 3,
      movedMB: (0x100 + 0x80 + 0x40) / 1e6,
      relocatedMB: (0x100 + 0x80) / 1e6,
      survivedRanges: 1,
      survivedMB: 0x20 / 1e6,
      rangeLowAddress: 0x10000,
      rangeHighAddress: 0x40020,
    });
    // No events for this GC: unknown, not zero.
    expect(second).toMatchObject({ movedRanges: null, movedMB: null, survivedRanges: null, survivedMB: null, rangeLowAddress: null });
  });

  for (const [trace, tolerance] of [
    ['eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 0],
    ['eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip', 16e-6],
  ] as const) {
    it(`${trace}: every GC's ranges cover the bytes it promoted, and compacting GCs report moves`, async () => {
      // Why this holds: the runtime reports each surviving plug (a run of live objects) of the
      // condemned generations exactly once — as moved if the GC compacted it, as surviving in
      // place otherwise — so the lengths add up to the marked (promoted) bytes. The 32-bit
      // 2.1 runtime differs by at most 16 bytes (one minimal object) per GC.
      const { analyzer } = await analyzeTraceFile(TRACES + trace);
      const gcs = analyzer.gcs.filter((g) => g !== undefined).map(toGcRecord);
      expect(gcs.length).toBeGreaterThan(5);
      for (const g of gcs) {
        expect(g.survivedRanges, `GC ${g.number} has range events`).not.toBeNull();
        expect(Math.abs(g.survivedMB! + g.movedMB! - g.promotedMB!), `GC ${g.number}`).toBeLessThanOrEqual(tolerance + 1e-9);
        if (g.compacted === true) expect(g.movedRanges, `compacting GC ${g.number}`).toBeGreaterThan(0);
        if (g.compacted === false) expect(g.movedRanges, `sweeping GC ${g.number}`).toBe(0);
        expect(g.relocatedMB!).toBeLessThanOrEqual(g.movedMB!);
      }
    });
  }
});
