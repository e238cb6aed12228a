/**
 * GC payload decoders field by field against PerfView: for each GC event kind, the first event of
 * that kind in a real trace must decode to the values TraceEvent printed in its baseline sample
 * (test/fixtures/baselines). Covers both pointer sizes (3.0 x64, 2.1 x86).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ALLOCATION_KIND_NAMES,
  COMPACT_MECHANISMS,
  EXPAND_MECHANISMS,
  GC_REASON_NAMES,
  GLOBAL_MECHANISMS,
  SUSPEND_REASON_NAMES,
  flagNames,
  mechanismName,
} from '../../src-main/shared/gc-enums.js';
import { eventDisplayName } from '../../src-main/clr/event-names.js';
import { decodeGCEvent, type ClrGCEvent, type GCObjectRanges } from '../../src-main/clr/gc-events.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { FIXTURES, traceBytes, unzippedName } from '../helpers/fixtures.js';

function samples(file: string): Map<string, string> {
  const text = readFileSync(`${FIXTURES}baselines/${unzippedName(file)}.baseline.txt`, 'utf8').replace(/^\uFEFF/, '');
  const m = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [k, , ...rest] = line.split(', ');
    if (k) m.set(k, rest.join(', '));
  }
  return m;
}

/** Attribute values of the event element (and of the first nested GenData, prefixed "Gen0."). */
function attrs(sample: string): Record<string, string> {
  const out: Record<string, string> = {};
  const head = sample.split('/>')[0]!;
  for (const m of head.matchAll(/(\w+)=\s*"([^"]*)"/g)) out[m[1]!] = m[2]!.trim();
  const gen0 = /<GenData Name="Gen0"([^/]*)\/>/.exec(sample);
  if (gen0) for (const m of gen0[1]!.matchAll(/(\w+)="([^"]*)"/g)) out['Gen0.' + m[1]!] = m[2]!;
  return out;
}

const num = (s: string): number => (s.startsWith('0x') ? Number.parseInt(s, 16) : Number(s.replace(/,/g, '')));

function firstOfEach(file: string): { first: Map<string, ClrGCEvent>; ps: number } {
  let ps = 8;
  const first = new Map<string, ClrGCEvent>();
  const r = new NettraceReader({
    onTrace: (t) => (ps = t.pointerSize),
    onEvent: (e: TraceEventRecord) => {
      const name = eventDisplayName(e.metadata);
      if (!first.has(name) && /\/GC\//.test(name)) {
        const d = decodeGCEvent(e, ps);
        if (d !== undefined) first.set(name, d);
      }
    },
  });
  r.push(traceBytes(file));
  r.end();
  return { first, ps };
}

/** Our field → expected value from the sample's attributes. */
type Check = (d: any, a: Record<string, string>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHECKS: Record<string, Check> = {
  'GC/Triggered': (d, a) => expect(GC_REASON_NAMES[d.reason]).toBe(a.Reason),
  'GC/SuspendEEStart': (d, a) => {
    expect(SUSPEND_REASON_NAMES[d.reason]).toBe(a.Reason);
    expect(d.count).toBe(num(a.Count!));
  },
  'GC/Stop': (d, a) => expect([d.count, d.depth]).toEqual([num(a.Count!), num(a.Depth!)]),
  'GC/HeapStats': (d, a) => {
    expect(d.generationSize).toEqual([0, 1, 2, 3, 4].map((g) => num(a[`GenerationSize${g}`] ?? '0')));
    expect(d.totalPromotedSize).toEqual([0, 1, 2, 3, 4].map((g) => num(a[`TotalPromotedSize${g}`] ?? '0')));
    expect([d.finalizationPromotedSize, d.finalizationPromotedCount, d.pinnedObjectCount, d.sinkBlockCount, d.gcHandleCount]).toEqual(
      [a.FinalizationPromotedSize, a.FinalizationPromotedCount, a.PinnedObjectCount, a.SinkBlockCount, a.GCHandleCount].map((v) => num(v!)),
    );
  },
  'GC/GlobalHeapHistory': (d, a) => {
    expect([d.finalYoungestDesired, d.numHeaps, d.condemnedGeneration, d.gen0ReductionCount]).toEqual(
      [a.FinalYoungestDesired, a.NumHeaps, a.CondemnedGeneration, a.Gen0ReductionCount].map((v) => num(v!)),
    );
    expect(GC_REASON_NAMES[d.reason]).toBe(a.Reason);
    expect(flagNames(d.globalMechanisms, GLOBAL_MECHANISMS).join(', ')).toBe(a.GlobalMechanisms);
  },
  'GC/PerHeapHistory': (d, a) => {
    for (const f of [
      'FreeListAllocated',
      'FreeListRejected',
      'EndOfSegAllocated',
      'CondemnedAllocated',
      'PinnedAllocated',
      'PinnedAllocatedAdvance',
      'RunningFreeListEfficiency',
      'CondemnReasons0',
      'CondemnReasons1',
      'HeapIndex',
      'ExtraGen0Commit',
    ]) {
      expect([f, d[f[0]!.toLowerCase() + f.slice(1)]]).toEqual([f, num(a[f]!)]);
    }
    expect(mechanismName(d.compactMechanisms, COMPACT_MECHANISMS)).toBe(a.CompactMechanisms);
    expect(mechanismName(d.expandMechanisms, EXPAND_MECHANISMS)).toBe(a.ExpandMechanisms);
    expect(d.generations.length).toBe(num(a.Count!));
    const g = d.generations[0];
    expect([
      g.sizeBefore,
      g.sizeAfter,
      g.freeListSpaceBefore,
      g.freeObjSpaceBefore,
      g.freeListSpaceAfter,
      g.freeObjSpaceAfter,
      g.in,
      g.pinnedSurv,
      g.nonePinnedSurv,
      g.newAllocation,
    ]).toEqual(
      [
        'SizeBefore',
        'SizeAfter',
        'FreeListSpaceBefore',
        'FreeObjSpaceBefore',
        'FreeListSpaceAfter',
        'FreeObjSpaceAfter',
        'In',
        'PinnedSurv',
        'NonePinnedSurv',
        'NewAllocation',
      ].map((k) => num(a['Gen0.' + k]!)),
    );
  },
  'GC/AllocationTick': (d, a) => {
    expect([d.amount, d.typeId, d.heapIndex, d.address]).toEqual([num(a.AllocationAmount64!), num(a.TypeID!), num(a.HeapIndex!), num(a.Address!)]);
    expect(ALLOCATION_KIND_NAMES[d.allocationKind]).toBe(a.AllocationKind);
    expect(d.typeName).toBe(a.TypeName);
  },
  'GC/GenerationRange': (d, a) =>
    expect([d.generation, d.rangeStart, d.rangeUsedLength, d.rangeReservedLength]).toEqual(
      [a.Generation, a.RangeStart, a.RangeUsedLength, a.RangeReservedLength].map((v) => num(v!)),
    ),
  'GC/PinObjectAtGCTime': (d, a) => {
    expect([d.handleId, d.objectId, d.objectSize]).toEqual([num(a.HandleID!), num(a.ObjectID!), num(a.ObjectSize!)]);
    expect(d.typeName).toBe(a.TypeName);
  },
  'GC/BulkMovedObjectRanges': (d, a) => expect([d.index, d.count]).toEqual([num(a.Index!), num(a.Count!)]),
  'GC/BulkSurvivingObjectRanges': (d, a) => expect([d.index, d.count]).toEqual([num(a.Index!), num(a.Count!)]),
  'GC/MarkWithType': (d, a) => expect([d.heapNum, d.type, d.bytes]).toEqual([num(a.HeapNum!), num(a.Type!), num(a.Promoted!)]),
  'GC/FinalizersStop': (d, a) => expect(d.count).toBe(num(a.Count!)),
  'GC/PinPlugAtGCTime': (d, a) => expect([d.plugStart, d.plugEnd, d.gapBeforeSize]).toEqual([num(a.PlugStart!), num(a.PlugEnd!), num(a.GapBeforeSize!)]),
};

for (const file of ['eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip']) {
  describe(`GC payloads decode to PerfView's values: ${file}`, () => {
    const base = samples(file);
    const { first } = firstOfEach(file);
    for (const [key, sample] of base) {
      const short = key.replace(/^Microsoft-Windows-DotNETRuntime(Private)?\//, '');
      const check = CHECKS[short];
      if (check === undefined) continue;
      it(short, () => {
        const d = first.get(key);
        expect(d, `${key} decoded`).toBeDefined();
        check(d, attrs(sample));
      });
    }
  });
}

describe('range events', () => {
  it('BulkSurvivingObjectRanges sums ranges from a real 32-bit trace', () => {
    const { first } = firstOfEach('eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip');
    const d = first.get('Microsoft-Windows-DotNETRuntime/GC/BulkSurvivingObjectRanges') as GCObjectRanges;
    // Baseline sample: four ranges of 0x1000, 0x210, 0x1000, 0x1FF0 bytes from 0x07F21020.
    expect(d.totalBytes).toBe(0x1000 + 0x210 + 0x1000 + 0x1ff0);
    expect(d.minAddress).toBe(0x07f21020);
    expect(d.maxAddress).toBe(0x07f23260 + 0x1ff0);
  });
});
