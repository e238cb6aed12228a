/**
 * Typed records for the CLR's GC events, decoded from compiled-in layouts (formats.md §3.5).
 *
 * Native runtime events carry no field descriptions in EventPipe metadata, so each layout is
 * keyed by (provider, event id, version) as TraceEvent's ClrTraceEventParser does. Fields are
 * packed in manifest order without padding; `Pointer` fields are the trace's pointer size.
 * Newer versions only append fields: an event with a higher version than we know decodes the
 * prefix we know (and is flagged `newerVersion`), and trailing bytes are ignored.
 */
import { ByteCursor } from '../nettrace/byte-cursor.js';
import type { TraceEventRecord } from '../nettrace/types.js';
import { decodeDynamicEvent, type GCDynamicData } from './gc-dynamic.js';
import type { HeapGenerationHistory, HeapHistory } from '../shared/heap-history.js';

export const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
export const RUNDOWN = 'Microsoft-Windows-DotNETRuntimeRundown';
export const PRIVATE = 'Microsoft-Windows-DotNETRuntimePrivate';

export interface GCStart { kind: 'GCStart'; count: number; depth: number; reason: number; type: number; clrInstanceId: number; clientSequenceNumber: number }
export interface GCEnd { kind: 'GCEnd'; count: number; depth: number }
export interface GCSuspendEEBegin { kind: 'GCSuspendEEBegin'; reason: number; count: number }
export interface GCMarker {
  kind: 'GCSuspendEEEnd' | 'GCRestartEEBegin' | 'GCRestartEEEnd' | 'GCFinalizersBegin' | 'GCCreateConcurrentThread' | 'GCTerminateConcurrentThread'
    | 'BGCBegin' | 'BGC1stNonConEnd' | 'BGC1stConEnd' | 'BGC2ndNonConBegin' | 'BGC2ndNonConEnd' | 'BGC2ndConBegin' | 'BGC2ndConEnd' | 'BGCPlanEnd' | 'BGCSweepEnd';
}
export interface GCHeapStats {
  kind: 'GCHeapStats';
  /** Generation sizes after the GC: gen0, gen1, gen2, LOH, POH (POH 0 before V2). */
  generationSize: [number, number, number, number, number];
  /** Bytes promoted out of each generation by this GC. */
  totalPromotedSize: [number, number, number, number, number];
  finalizationPromotedSize: number;
  finalizationPromotedCount: number;
  pinnedObjectCount: number;
  sinkBlockCount: number;
  gcHandleCount: number;
  hasPoh: boolean;
}
export interface GCCreateSegment { kind: 'GCCreateSegment'; address: number; size: number; type: number }
export interface GCFreeSegment { kind: 'GCFreeSegment'; address: number }
export interface GCAllocationTick {
  kind: 'GCAllocationTick';
  /** Bytes allocated since the previous tick of this kind (AllocationAmount64 when present). */
  amount: number;
  /** 0 small (SOH), 1 large (LOH), 2 pinned (POH). */
  allocationKind: number;
  typeId: number;
  typeName: string;
  heapIndex: number;
  address: number;
  objectSize: number;
}
export interface GCFinalizersEnd { kind: 'GCFinalizersEnd'; count: number }
export interface GCObjectRanges {
  kind: 'GCBulkSurvivingObjectRanges' | 'GCBulkMovedObjectRanges';
  index: number;
  count: number;
  /** Sum of RangeLength over the ranges in this event. */
  totalBytes: number;
  /** Lowest and highest address covered (surviving: range base; moved: old range base). */
  minAddress: number;
  maxAddress: number;
  /** Moved ranges: sum of RangeLength where new base ≠ old base (bytes that actually moved). */
  relocatedBytes: number;
}
export interface GCGenerationRange { kind: 'GCGenerationRange'; generation: number; rangeStart: number; rangeUsedLength: number; rangeReservedLength: number }
export interface GCMarkRoots { kind: 'GCMarkStackRoots' | 'GCMarkFinalizeQueueRoots' | 'GCMarkHandles' | 'GCMarkOlderGenerationRoots'; heapNum: number }
export interface GCFinalizeObject { kind: 'GCFinalizeObject'; typeId: number; objectId: number }
export interface GCPinObjectAtGCTime { kind: 'GCPinObjectAtGCTime'; handleId: number; objectId: number; objectSize: number; typeName: string }
export interface GCTriggered { kind: 'GCTriggered'; reason: number }
export interface GCDynamicEvent { kind: 'GCDynamicEvent'; name: string; data: GCDynamicData }
export interface GCMemoryPressure { kind: 'IncreaseMemoryPressure' | 'DecreaseMemoryPressure'; bytes: number }
export interface GCMarkWithType { kind: 'GCMarkWithType'; heapNum: number; type: number; bytes: number }
export interface GCJoin { kind: 'GCJoin'; heap: number; joinTime: number; joinType: number; joinId: number }

/** One generation record of GCPerHeapHistory (10 pointer-sized values): the shape the store keeps. */
export type GenerationData = HeapGenerationHistory;
/** GCPerHeapHistory, decoded: the store's HeapHistory (shared/heap-history.ts) plus what only the analysis reads. */
export interface GCPerHeapHistory extends HeapHistory {
  kind: 'GCPerHeapHistory';
  freeListAllocated: number;
  freeListRejected: number;
  endOfSegAllocated: number;
  condemnedAllocated: number;
  pinnedAllocated: number;
  pinnedAllocatedAdvance: number;
  runningFreeListEfficiency: number;
  condemnReasons0: number;
  condemnReasons1: number;
  compactMechanisms: number;
  expandMechanisms: number;
  heapIndex: number;
  extraGen0Commit: number;
  /** gen0, gen1, gen2, LOH[, POH]. */
  generations: GenerationData[];
}
export interface GCGlobalHeapHistory {
  kind: 'GCGlobalHeapHistory';
  finalYoungestDesired: number;
  numHeaps: number;
  condemnedGeneration: number;
  gen0ReductionCount: number;
  reason: number;
  globalMechanisms: number;
  /** V2+; undefined before. */
  pauseMode: number | undefined;
  memoryPressure: number | undefined;
  /** V3+. */
  condemnReasons0: number | undefined;
  condemnReasons1: number | undefined;
  /** V4: per-phase times (TraceEvent shows them raw). */
  times: number[];
}
export interface GenAware { kind: 'GenAwareBegin' | 'GenAwareEnd'; count: number }
export interface GCLOHCompact { kind: 'GCLOHCompact'; heaps: { timePlan: number; timeCompact: number; timeRelocate: number; totalRefs: number; zeroRefs: number }[] }
export interface GCFitBucketInfo { kind: 'GCFitBucketInfo'; bucketKind: number; totalSize: number; buckets: { index: number; count: number; size: number }[] }
export interface AllocationSampled { kind: 'AllocationSampled'; allocationKind: number; typeId: number; typeName: string; address: number; objectSize: number; sampledByteOffset: number }
export interface GCSettingsRundown {
  kind: 'GCSettingsRundown';
  hardLimit: number;
  lohThreshold: number;
  physicalMemoryConfig: number;
  gen0MinBudgetConfig: number;
  gen0MaxBudgetConfig: number;
  highMemPercentConfig: number;
  bitSettings: number;
}
export interface RuntimeInformation {
  kind: 'RuntimeInformation';
  sku: number;
  bclVersion: string;
  vmVersion: string;
  startupFlags: number;
  startupMode: number;
  commandLine: string;
  runtimeDllPath: string;
}
export interface GCDecision { kind: 'GCDecision'; doCompact: boolean }
export interface GCSettingsPrivate { kind: 'GCSettings'; segmentSize: number; largeObjectSegmentSize: number; serverGC: boolean }
export interface GCOptimized { kind: 'GCOptimized'; desiredAllocation: number; newAllocation: number; generationNumber: number }
export interface BGCDrainMark { kind: 'BGCDrainMark'; objects: number }
export interface BGCRevisit { kind: 'BGCRevisit'; pages: number; objects: number; isLarge: number }
export interface BGCOverflow { kind: 'BGCOverflow'; min: number; max: number; objects: number; isLarge: number }
export interface BGCAllocWait { kind: 'BGCAllocWaitBegin' | 'BGCAllocWaitEnd'; reason: number }
export interface GCFullNotify { kind: 'GCFullNotify'; genNumber: number; isAlloc: number }
export interface PinPlugAtGCTime { kind: 'PinPlugAtGCTime'; plugStart: number; plugEnd: number; gapBeforeSize: number }

export type ClrGCEvent =
  | GCStart | GCEnd | GCSuspendEEBegin | GCMarker | GCHeapStats | GCCreateSegment | GCFreeSegment
  | GCAllocationTick | GCFinalizersEnd | GCObjectRanges | GCGenerationRange | GCMarkRoots | GCFinalizeObject
  | GCPinObjectAtGCTime | GCTriggered | GCDynamicEvent | GCMemoryPressure | GCMarkWithType | GCJoin
  | GCPerHeapHistory | GCGlobalHeapHistory | GenAware | GCLOHCompact | GCFitBucketInfo | AllocationSampled
  | GCSettingsRundown | RuntimeInformation | GCDecision | GCSettingsPrivate | GCOptimized | BGCDrainMark
  | BGCRevisit | BGCOverflow | BGCAllocWait | GCFullNotify | PinPlugAtGCTime;

/** Highest version of each runtime-provider GC event whose layout we know. */
export const KNOWN_RUNTIME_VERSIONS: Record<number, number> = {
  1: 2, 2: 1, 3: 1, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 4, 11: 1, 12: 1, 13: 1, 14: 1,
  21: 0, 22: 0, 23: 0, 25: 0, 26: 0, 27: 0, 28: 0, 29: 0, 33: 0, 35: 0, 39: 0,
  200: 0, 201: 0, 202: 0, 203: 2, 204: 3, 205: 4, 206: 0, 207: 0, 208: 0, 209: 0, 303: 0,
};

export function payloadCursor(e: TraceEventRecord): ByteCursor {
  return new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
}

/** Reads a field only if the payload still has room for it (older versions end earlier). */
function opt(c: ByteCursor, size: number, read: () => number, dflt = 0): number {
  return c.remaining >= size ? read() : dflt;
}

const marker = <K extends GCMarker['kind']>(kind: K): GCMarker => ({ kind });

function decodeRanges(c: ByteCursor, p: number, moved: boolean, kind: GCObjectRanges['kind']): GCObjectRanges {
  const index = c.u32();
  const count = c.u32();
  c.u16();
  const stride = moved ? 2 * p + 8 : p + 8;
  const n = Math.min(count, Math.floor(c.remaining / stride));
  let totalBytes = 0;
  let relocatedBytes = 0;
  let minAddress = Number.POSITIVE_INFINITY;
  let maxAddress = 0;
  for (let i = 0; i < n; i++) {
    const base = c.ptr(p);
    const newBase = moved ? c.ptr(p) : base;
    const len = c.u64();
    totalBytes += len;
    if (newBase !== base) relocatedBytes += len;
    if (base < minAddress) minAddress = base;
    if (base + len > maxAddress) maxAddress = base + len;
  }
  return { kind, index, count, totalBytes, minAddress: n > 0 ? minAddress : 0, maxAddress, relocatedBytes };
}

function decodePerHeapHistory(c: ByteCursor, p: number): GCPerHeapHistory {
  c.u16(); // ClrInstanceID comes first in V3
  const r: GCPerHeapHistory = {
    kind: 'GCPerHeapHistory',
    freeListAllocated: c.ptr(p),
    freeListRejected: c.ptr(p),
    endOfSegAllocated: c.ptr(p),
    condemnedAllocated: c.ptr(p),
    pinnedAllocated: c.ptr(p),
    pinnedAllocatedAdvance: c.ptr(p),
    runningFreeListEfficiency: c.u32(),
    condemnReasons0: c.u32(),
    condemnReasons1: c.u32(),
    compactMechanisms: c.u32(),
    expandMechanisms: c.u32(),
    heapIndex: c.u32(),
    extraGen0Commit: c.ptr(p),
    generations: [],
  };
  const count = c.u32();
  const n = Math.min(count, Math.floor(c.remaining / (10 * p)), 8);
  for (let i = 0; i < n; i++) {
    r.generations.push({
      sizeBefore: c.ptr(p),
      freeListSpaceBefore: c.ptr(p),
      freeObjSpaceBefore: c.ptr(p),
      sizeAfter: c.ptr(p),
      freeListSpaceAfter: c.ptr(p),
      freeObjSpaceAfter: c.ptr(p),
      in: c.ptr(p),
      pinnedSurv: c.ptr(p),
      nonePinnedSurv: c.ptr(p),
      newAllocation: c.ptr(p),
    });
  }
  return r;
}

function decodeGlobalHeapHistory(c: ByteCursor): GCGlobalHeapHistory {
  const r: GCGlobalHeapHistory = {
    kind: 'GCGlobalHeapHistory',
    finalYoungestDesired: c.u64(),
    numHeaps: c.i32(),
    condemnedGeneration: c.u32(),
    gen0ReductionCount: c.u32(),
    reason: c.u32(),
    globalMechanisms: c.u32(),
    pauseMode: undefined,
    memoryPressure: undefined,
    condemnReasons0: undefined,
    condemnReasons1: undefined,
    times: [],
  };
  if (c.remaining >= 2) c.u16();
  if (c.remaining >= 8) {
    r.pauseMode = c.u32();
    r.memoryPressure = c.u32();
  }
  if (c.remaining >= 8) {
    r.condemnReasons0 = c.u32();
    r.condemnReasons1 = c.u32();
  }
  if (c.remaining >= 4) {
    const n = Math.min(c.u32(), Math.floor(c.remaining / 4));
    for (let i = 0; i < n; i++) r.times.push(c.u32());
  }
  return r;
}

function decodeRuntime(id: number, version: number, c: ByteCursor, p: number): ClrGCEvent | undefined {
  switch (id) {
    case 1: {
      // TraceEvent picks the V0 or V1 layout by length, not by version.
      if (c.length < 16) return { kind: 'GCStart', count: c.u32(), depth: 0, reason: c.u32(), type: 0, clrInstanceId: 0, clientSequenceNumber: 0 };
      return {
        kind: 'GCStart',
        count: c.u32(),
        depth: c.u32(),
        reason: c.u32(),
        type: c.u32(),
        clrInstanceId: opt(c, 2, () => c.u16()),
        clientSequenceNumber: opt(c, 8, () => c.u64()),
      };
    }
    case 2:
      return version === 0 && c.length < 8 ? { kind: 'GCEnd', count: c.u32(), depth: c.u16() } : { kind: 'GCEnd', count: c.u32(), depth: c.u32() };
    case 3: return marker('GCRestartEEEnd');
    case 4: {
      const size: number[] = [];
      const promoted: number[] = [];
      for (let g = 0; g < 4; g++) {
        size.push(c.u64());
        promoted.push(c.u64());
      }
      const r: GCHeapStats = {
        kind: 'GCHeapStats',
        generationSize: [size[0]!, size[1]!, size[2]!, size[3]!, 0],
        totalPromotedSize: [promoted[0]!, promoted[1]!, promoted[2]!, promoted[3]!, 0],
        finalizationPromotedSize: c.u64(),
        finalizationPromotedCount: c.u64(),
        pinnedObjectCount: c.u32(),
        sinkBlockCount: c.u32(),
        gcHandleCount: c.u32(),
        hasPoh: false,
      };
      if (c.remaining >= 2) c.u16();
      if (c.remaining >= 16) {
        r.generationSize[4] = c.u64();
        r.totalPromotedSize[4] = c.u64();
        r.hasPoh = true;
      }
      return r;
    }
    case 5: return { kind: 'GCCreateSegment', address: c.u64(), size: c.u64(), type: c.u32() };
    case 6: return { kind: 'GCFreeSegment', address: c.u64() };
    case 7: return marker('GCRestartEEBegin');
    case 8: return marker('GCSuspendEEEnd');
    case 9:
      if (version === 0) return { kind: 'GCSuspendEEBegin', reason: c.u16(), count: -1 };
      return { kind: 'GCSuspendEEBegin', reason: c.u32(), count: c.i32() };
    case 10: {
      const amount32 = c.u32();
      const r: GCAllocationTick = { kind: 'GCAllocationTick', amount: amount32, allocationKind: c.u32(), typeId: 0, typeName: '', heapIndex: 0, address: 0, objectSize: 0 };
      if (c.remaining >= 2) c.u16();
      if (version >= 2 && c.remaining >= 8) {
        r.amount = c.u64();
        r.typeId = c.ptr(p);
        r.typeName = c.utf16z();
        r.heapIndex = c.u32();
        if (version >= 3 && c.remaining >= p) r.address = c.ptr(p);
        if (version >= 4 && c.remaining >= 8) r.objectSize = c.u64();
      }
      return r;
    }
    case 11: return marker('GCCreateConcurrentThread');
    case 12: return marker('GCTerminateConcurrentThread');
    case 13: return { kind: 'GCFinalizersEnd', count: c.u32() };
    case 14: return marker('GCFinalizersBegin');
    case 21: return decodeRanges(c, p, false, 'GCBulkSurvivingObjectRanges');
    case 22: return decodeRanges(c, p, true, 'GCBulkMovedObjectRanges');
    case 23: return { kind: 'GCGenerationRange', generation: c.u8(), rangeStart: c.ptr(p), rangeUsedLength: c.u64(), rangeReservedLength: c.u64() };
    case 25: return { kind: 'GCMarkStackRoots', heapNum: c.u32() };
    case 26: return { kind: 'GCMarkFinalizeQueueRoots', heapNum: c.u32() };
    case 27: return { kind: 'GCMarkHandles', heapNum: c.u32() };
    case 28: return { kind: 'GCMarkOlderGenerationRoots', heapNum: c.u32() };
    case 29: return { kind: 'GCFinalizeObject', typeId: c.ptr(p), objectId: c.ptr(p) };
    case 33: return { kind: 'GCPinObjectAtGCTime', handleId: c.ptr(p), objectId: c.ptr(p), objectSize: c.u64(), typeName: c.utf16z() };
    case 35: return { kind: 'GCTriggered', reason: c.u32() };
    case 39: {
      const name = c.utf16z();
      const size = c.u32();
      const data = c.bytesView(size, 'GCDynamicEvent data');
      return { kind: 'GCDynamicEvent', name, data: decodeDynamicEvent(name, new ByteCursor(data, c.offset - size)) };
    }
    case 200: return { kind: 'IncreaseMemoryPressure', bytes: c.u64() };
    case 201: return { kind: 'DecreaseMemoryPressure', bytes: c.u64() };
    case 202: {
      const heapNum = c.u32();
      c.u16();
      return { kind: 'GCMarkWithType', heapNum, type: c.u32(), bytes: c.u64() };
    }
    case 203: {
      const heap = c.u32();
      const joinTime = c.u32();
      const joinType = c.u32();
      c.u16();
      return { kind: 'GCJoin', heap, joinTime, joinType, joinId: opt(c, 4, () => c.u32()) };
    }
    case 204: return version >= 3 ? decodePerHeapHistory(c, p) : undefined;
    case 205: return decodeGlobalHeapHistory(c);
    case 206: return { kind: 'GenAwareBegin', count: c.u32() };
    case 207: return { kind: 'GenAwareEnd', count: c.u32() };
    case 208: {
      c.u16();
      const n = c.u16();
      const heaps: GCLOHCompact['heaps'] = [];
      for (let i = 0; i < n; i++) {
        const timePlan = c.u32();
        const timeCompact = c.u32();
        const timeRelocate = c.u32();
        if (p === 8) c.skip(4, 'GCLOHCompact padding');
        heaps.push({ timePlan, timeCompact, timeRelocate, totalRefs: c.ptr(p), zeroRefs: c.ptr(p) });
      }
      return { kind: 'GCLOHCompact', heaps };
    }
    case 209: {
      c.u16();
      const bucketKind = c.u16();
      const totalSize = c.u64();
      const n = c.u16();
      const buckets: GCFitBucketInfo['buckets'] = [];
      for (let i = 0; i < n; i++) {
        const index = c.u16();
        c.skip(2, 'GCFitBucketInfo padding');
        const count = c.u32();
        buckets.push({ index, count, size: c.ptr(p) });
      }
      return { kind: 'GCFitBucketInfo', bucketKind, totalSize, buckets };
    }
    case 187:
      // RuntimeInformationStart: the rundown layout, also fired by the runtime provider.
      return decodeRundown(187, c);
    case 303: {
      const allocationKind = c.u32();
      c.u16();
      return { kind: 'AllocationSampled', allocationKind, typeId: c.ptr(p), typeName: c.utf16z(), address: c.ptr(p), objectSize: c.u64(), sampledByteOffset: c.u64() };
    }
    default:
      return undefined;
  }
}

function decodeRundown(id: number, c: ByteCursor): ClrGCEvent | undefined {
  if (id === 10) {
    return {
      kind: 'GCSettingsRundown',
      hardLimit: c.u64(),
      lohThreshold: c.u64(),
      physicalMemoryConfig: c.u64(),
      gen0MinBudgetConfig: c.u64(),
      gen0MaxBudgetConfig: c.u64(),
      highMemPercentConfig: c.u32(),
      bitSettings: c.u32(),
    };
  }
  if (id === 187) {
    c.u16();
    const sku = c.u16();
    const v = (): string => [c.u16(), c.u16(), c.u16(), c.u16()].join('.');
    const bclVersion = v();
    const vmVersion = v();
    const startupFlags = c.u32();
    const startupMode = c.u8();
    const commandLine = c.utf16z();
    c.skip(16, 'ComObjectGuid');
    return { kind: 'RuntimeInformation', sku, bclVersion, vmVersion, startupFlags, startupMode, commandLine, runtimeDllPath: c.utf16z() };
  }
  return undefined;
}

const PRIVATE_MARKERS: Record<number, GCMarker['kind']> = {
  11: 'BGCBegin', 12: 'BGC1stNonConEnd', 13: 'BGC1stConEnd', 14: 'BGC2ndNonConBegin', 15: 'BGC2ndNonConEnd',
  16: 'BGC2ndConBegin', 17: 'BGC2ndConEnd', 18: 'BGCPlanEnd', 19: 'BGCSweepEnd',
};

function decodePrivate(id: number, c: ByteCursor, p: number): ClrGCEvent | undefined {
  const m = PRIVATE_MARKERS[id];
  if (m !== undefined) return marker(m);
  switch (id) {
    case 1: return { kind: 'GCDecision', doCompact: c.u32() !== 0 };
    case 2: return { kind: 'GCSettings', segmentSize: c.u64(), largeObjectSegmentSize: c.u64(), serverGC: c.u32() !== 0 };
    case 3: return { kind: 'GCOptimized', desiredAllocation: c.u64(), newAllocation: c.u64(), generationNumber: c.u32() };
    case 4: return c.length >= 2 + 7 * p + 32 ? decodePerHeapHistory(c, p) : undefined;
    case 5: return decodeGlobalHeapHistory(c);
    case 6: {
      const heap = c.u32();
      const joinTime = c.u32();
      const joinType = c.u32();
      c.u16();
      return { kind: 'GCJoin', heap, joinTime, joinType, joinId: opt(c, 4, () => c.u32()) };
    }
    case 7: return { kind: 'GCMarkStackRoots', heapNum: c.u32() };
    case 8: return { kind: 'GCMarkFinalizeQueueRoots', heapNum: c.u32() };
    case 9: return { kind: 'GCMarkHandles', heapNum: c.u32() };
    case 10: return { kind: 'GCMarkOlderGenerationRoots', heapNum: c.u32() };
    case 20: return { kind: 'BGCDrainMark', objects: c.u64() };
    case 21: return { kind: 'BGCRevisit', pages: c.u64(), objects: c.u64(), isLarge: c.u32() };
    case 22: return { kind: 'BGCOverflow', min: c.u64(), max: c.u64(), objects: c.u64(), isLarge: c.u32() };
    case 23: return { kind: 'BGCAllocWaitBegin', reason: c.u32() };
    case 24: return { kind: 'BGCAllocWaitEnd', reason: c.u32() };
    case 25: return { kind: 'GCFullNotify', genNumber: c.u32(), isAlloc: c.u32() };
    case 199: return { kind: 'PinPlugAtGCTime', plugStart: c.ptr(p), plugEnd: c.ptr(p), gapBeforeSize: c.ptr(p) };
    default: return undefined;
  }
}

export interface DecodeResult {
  event: ClrGCEvent | undefined;
  /** The event's version is newer than any layout we know (decoded from the known prefix). */
  newerVersion: boolean;
}

/**
 * Decodes a GC-related CLR event. Returns undefined for events that are not GC events of the
 * CLR providers. Throws NettraceError('truncated') when a payload is shorter than its layout.
 */
export function decodeGCEvent(e: TraceEventRecord, pointerSize: number): ClrGCEvent | undefined {
  const md = e.metadata;
  const c = payloadCursor(e);
  if (md.provider === RUNTIME) return decodeRuntime(md.eventId, md.version, c, pointerSize);
  if (md.provider === RUNDOWN) return decodeRundown(md.eventId, c);
  if (md.provider === PRIVATE) return decodePrivate(md.eventId, c, pointerSize);
  return undefined;
}

/** True when (provider, id) has a GC decoder and the event's version is above the newest known. */
export function isNewerThanKnown(provider: string, eventId: number, version: number): boolean {
  if (provider !== RUNTIME) return false;
  const known = KNOWN_RUNTIME_VERSIONS[eventId];
  return known !== undefined && version > known;
}
