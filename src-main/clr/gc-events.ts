/**
 * Typed records for the CLR's GC events, decoded from compiled-in layouts (docs/formats.md §3.5).
 *
 * Native runtime events carry no field descriptions in EventPipe metadata, so each layout is
 * keyed by (provider, event id, version) as TraceEvent's ClrTraceEventParser does. Fields are
 * packed in manifest order without padding; `Pointer` fields are the trace's pointer size.
 * Newer versions only append fields: an event with a higher version than we know decodes the
 * prefix we know (and is flagged `newerVersion`), and trailing bytes are ignored.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import { decodeDynamicEvent, type GCDynamicData } from './gc-dynamic.js';
import type { HeapGenerationHistory, HeapHistory } from '../common/heap-history.js';

export const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
export const RUNDOWN = 'Microsoft-Windows-DotNETRuntimeRundown';
export const PRIVATE = 'Microsoft-Windows-DotNETRuntimePrivate';

export interface GCStart {
  kind: 'GCStart';
  count: number;
  depth: number;
  reason: number;
  type: number;
  clrInstanceId: number;
  clientSequenceNumber: number;
}
export interface GCEnd {
  kind: 'GCEnd';
  count: number;
  depth: number;
}
export interface GCSuspendEEBegin {
  kind: 'GCSuspendEEBegin';
  reason: number;
  count: number;
}
export interface GCMarker {
  kind:
    | 'GCSuspendEEEnd'
    | 'GCRestartEEBegin'
    | 'GCRestartEEEnd'
    | 'GCFinalizersBegin'
    | 'GCCreateConcurrentThread'
    | 'GCTerminateConcurrentThread'
    | 'BGCBegin'
    | 'BGC1stNonConEnd'
    | 'BGC1stConEnd'
    | 'BGC2ndNonConBegin'
    | 'BGC2ndNonConEnd'
    | 'BGC2ndConBegin'
    | 'BGC2ndConEnd'
    | 'BGCPlanEnd'
    | 'BGCSweepEnd';
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
export interface GCCreateSegment {
  kind: 'GCCreateSegment';
  address: number;
  size: number;
  type: number;
}
export interface GCFreeSegment {
  kind: 'GCFreeSegment';
  address: number;
}
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
export interface GCFinalizersEnd {
  kind: 'GCFinalizersEnd';
  count: number;
}
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
export interface GCGenerationRange {
  kind: 'GCGenerationRange';
  generation: number;
  rangeStart: number;
  rangeUsedLength: number;
  rangeReservedLength: number;
}
export interface GCMarkRoots {
  kind: 'GCMarkStackRoots' | 'GCMarkFinalizeQueueRoots' | 'GCMarkHandles' | 'GCMarkOlderGenerationRoots';
  heapNum: number;
}
export interface GCFinalizeObject {
  kind: 'GCFinalizeObject';
  typeId: number;
  objectId: number;
}
export interface GCPinObjectAtGCTime {
  kind: 'GCPinObjectAtGCTime';
  handleId: number;
  objectId: number;
  objectSize: number;
  typeName: string;
}
export interface GCTriggered {
  kind: 'GCTriggered';
  reason: number;
}
export interface GCDynamicEvent {
  kind: 'GCDynamicEvent';
  name: string;
  data: GCDynamicData;
}
export interface GCMemoryPressure {
  kind: 'IncreaseMemoryPressure' | 'DecreaseMemoryPressure';
  bytes: number;
}
export interface GCMarkWithType {
  kind: 'GCMarkWithType';
  heapNum: number;
  type: number;
  bytes: number;
}
export interface GCJoin {
  kind: 'GCJoin';
  heap: number;
  joinTime: number;
  joinType: number;
  joinId: number;
}

/** One generation record of GCPerHeapHistory (10 pointer-sized values): the shape the store keeps. */
export type GenerationData = HeapGenerationHistory;
/** GCPerHeapHistory, decoded: the store's HeapHistory (common/heap-history.ts) plus what only the analysis reads. */
export interface GCPerHeapHistory extends HeapHistory {
  kind: 'GCPerHeapHistory';
  /** Null in .NET Framework 4.5.x's private layout (V2), as the other allocation counters. */
  pinnedAllocatedAdvance: number | null;
  runningFreeListEfficiency: number | null;
  /** The memory load (%) the GC saw: only .NET Framework 4.x's private layout carries it; 0 where that GC did not look. */
  memoryPressure: number | null;
  condemnReasons0: number;
  condemnReasons1: number;
  compactMechanisms: number;
  expandMechanisms: number;
  heapIndex: number;
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
export interface GenAware {
  kind: 'GenAwareBegin' | 'GenAwareEnd';
  count: number;
}
export interface GCLOHCompact {
  kind: 'GCLOHCompact';
  heaps: { timePlan: number; timeCompact: number; timeRelocate: number; totalRefs: number; zeroRefs: number }[];
}
export interface GCFitBucketInfo {
  kind: 'GCFitBucketInfo';
  bucketKind: number;
  totalSize: number;
  buckets: { index: number; count: number; size: number }[];
}
export interface AllocationSampled {
  kind: 'AllocationSampled';
  allocationKind: number;
  typeId: number;
  typeName: string;
  address: number;
  objectSize: number;
  sampledByteOffset: number;
}
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
export interface GCDecision {
  kind: 'GCDecision';
  doCompact: boolean;
}
export interface GCSettingsPrivate {
  kind: 'GCSettings';
  segmentSize: number;
  largeObjectSegmentSize: number;
  serverGC: boolean;
}
export interface GCOptimized {
  kind: 'GCOptimized';
  desiredAllocation: number;
  newAllocation: number;
  generationNumber: number;
}
export interface BGCDrainMark {
  kind: 'BGCDrainMark';
  objects: number;
}
export interface BGCRevisit {
  kind: 'BGCRevisit';
  pages: number;
  objects: number;
  isLarge: number;
}
export interface BGCOverflow {
  kind: 'BGCOverflow';
  min: number;
  max: number;
  objects: number;
  isLarge: number;
}
export interface BGCAllocWait {
  kind: 'BGCAllocWaitBegin' | 'BGCAllocWaitEnd';
  reason: number;
}
export interface GCFullNotify {
  kind: 'GCFullNotify';
  genNumber: number;
  isAlloc: number;
}
export interface PinPlugAtGCTime {
  kind: 'PinPlugAtGCTime';
  plugStart: number;
  plugEnd: number;
  gapBeforeSize: number;
}

export type ClrGCEvent =
  | GCStart
  | GCEnd
  | GCSuspendEEBegin
  | GCMarker
  | GCHeapStats
  | GCCreateSegment
  | GCFreeSegment
  | GCAllocationTick
  | GCFinalizersEnd
  | GCObjectRanges
  | GCGenerationRange
  | GCMarkRoots
  | GCFinalizeObject
  | GCPinObjectAtGCTime
  | GCTriggered
  | GCDynamicEvent
  | GCMemoryPressure
  | GCMarkWithType
  | GCJoin
  | GCPerHeapHistory
  | GCGlobalHeapHistory
  | GenAware
  | GCLOHCompact
  | GCFitBucketInfo
  | AllocationSampled
  | GCSettingsRundown
  | RuntimeInformation
  | GCDecision
  | GCSettingsPrivate
  | GCOptimized
  | BGCDrainMark
  | BGCRevisit
  | BGCOverflow
  | BGCAllocWait
  | GCFullNotify
  | PinPlugAtGCTime;

export function payloadCursor(e: TraceEventRecord): ByteCursor {
  return new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
}

/**
 * Bounds on the values a trace supplies that the analysis uses as an index or a count (README
 * "Values a trace supplies"): a value outside them is one no runtime writes — a damaged trace —
 * and its event is refused with an `implausible-value` TraceDecodeError, which the analyzer counts
 * as undecodable (and the session reports) instead of storing a GC of generation 258 or growing
 * an array to 2^32 entries.
 */
export const IMPLAUSIBLE_VALUE = 'implausible-value';
/** The most GC heaps a runtime makes: MAX_SUPPORTED_CPUS on 64-bit (runtime gc.h); heap numbers are below it. */
export const MAX_GC_HEAPS = 1024;
/**
 * GCMarkWithType root kinds: the runtime's gc_root_kind has 10 (shared/server-gc.ts
 * MARK_ROOT_KINDS); kinds up to this one are kept, so a newer runtime's added kinds still show.
 */
export const MAX_MARK_ROOT_KIND = 31;
/** The highest generation a GC condemns (max_generation). */
export const MAX_GENERATION = 2;
/** GCStart Type: 0 non-concurrent, 1 background, 2 foreground. */
export const MAX_GC_TYPE = 2;
/** GCAllocationTick AllocationKind: 0 small, 1 large, 2 pinned object heap. */
export const MAX_ALLOCATION_KIND = 2;

/** Reads a u32 (an i32 when `signed`) and refuses it outside min..max: no runtime writes it. */
function bounded(c: ByteCursor, what: string, min: number, max: number, signed = false): number {
  const at = c.offset;
  const v = signed ? c.i32() : c.u32();
  if (v < min || v > max) throw new TraceDecodeError(IMPLAUSIBLE_VALUE, at, `${what} is ${v} (a runtime writes ${min}..${max})`);
  return v;
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
    memoryPressure: null,
    condemnReasons0: c.u32(),
    condemnReasons1: c.u32(),
    compactMechanisms: c.u32(),
    expandMechanisms: c.u32(),
    heapIndex: bounded(c, 'GCPerHeapHistory HeapIndex', 0, MAX_GC_HEAPS - 1),
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

/** The generation records of .NET Framework's private GCPerHeapHistory: gen0, gen1, gen2, LOH, and a second gen0 record. */
const V2_GEN_RECORDS = 5;
/** The tail after the generation records: six u32, [u64 ExtraGen0Commit,] u8 ClrInstanceID (4.5: 25 bytes, 4.5.2: 33). */
const V2_TAIL_45 = 25;
const V2_TAIL_452 = 33;

/**
 * GCPerHeapHistory as .NET Framework 4.5 and 4.5.2 write it (private provider, id 4, version 2):
 * not the V3 layout but the GC's own per-heap record, pointer-sized values, so its length names
 * it — `50·p + 25` (4.5) or `50·p + 33` (4.5.2). TraceEvent tells them apart the same way
 * (GCPerHeapHistoryTraceData.ParseMinorVersion); any other length is a layout we do not know.
 *
 * - Five generation records of ten values: SizeBefore, FreeListSpaceBefore, FreeObjSpaceBefore,
 *   SizeAfter, FreeListSpaceAfter, FreeObjSpaceAfter, In, Out (what survived, not split by
 *   pinning), NewAllocation (the budget), SurvRate (%). The first four are gen0, gen1, gen2 and
 *   LOH; the fifth is a second gen0 record, not a POH (there is none before .NET 5), so it is
 *   left out.
 * - Then u32 CondemnReasons0, CondemnReasons1 (the V3 encoding), MemoryPressure, ExpandMechanisms,
 *   CompactMechanisms, HeapIndex; u64 ExtraGen0Commit (4.5.2 only, 8 bytes whatever the pointer
 *   size); u8 ClrInstanceID.
 * - Checked on net.4.5.2.x64.etl.zip: 64-bit (433 bytes, 263 GCs) and a 32-bit process (233
 *   bytes), whose gen1 GC has CondemnReasons 4 / 0x30, MemoryPressure 31 and CompactMechanisms
 *   0x80000001. Every GC's SizeAfter of gen0..LOH equals its HeapStats generation size; gen0's
 *   Out equals HeapStats' gen0 promoted size in all 263 gen0 GCs (in the gen1 GC the fifth
 *   record's Out does; TraceEvent reads the first, and so does this); every SurvRate equals
 *   Out·100/ObjSpaceBefore truncated. TraceEvent reads HeapIndex one byte early (it takes
 *   ClrInstanceID for a u16); the six u32 are read here in order.
 */
function decodePerHeapHistoryV2(c: ByteCursor, p: number): GCPerHeapHistory | undefined {
  const genBytes = V2_GEN_RECORDS * 10 * p;
  const tail = c.length - genBytes;
  if (tail !== V2_TAIL_45 && tail !== V2_TAIL_452) return undefined;
  const generations: GenerationData[] = [];
  for (let i = 0; i < V2_GEN_RECORDS; i++) {
    const sizeBefore = c.ptr(p);
    const freeListSpaceBefore = c.ptr(p);
    const freeObjSpaceBefore = c.ptr(p);
    const sizeAfter = c.ptr(p);
    const freeListSpaceAfter = c.ptr(p);
    const freeObjSpaceAfter = c.ptr(p);
    const inBytes = c.ptr(p);
    const out = c.ptr(p);
    const newAllocation = c.ptr(p);
    c.ptr(p); // SurvRate: the runtime's Out·100/ObjSpaceBefore, which trace-gc.ts survRate computes from the same values
    if (i < V2_GEN_RECORDS - 1)
      generations.push({
        sizeBefore,
        freeListSpaceBefore,
        freeObjSpaceBefore,
        sizeAfter,
        freeListSpaceAfter,
        freeObjSpaceAfter,
        in: inBytes,
        pinnedSurv: 0,
        nonePinnedSurv: out,
        newAllocation,
      });
  }
  const condemnReasons0 = c.u32();
  const condemnReasons1 = c.u32();
  const memoryPressure = c.u32();
  const expandMechanisms = c.u32();
  const compactMechanisms = c.u32();
  const heapIndex = bounded(c, 'GCPerHeapHistory HeapIndex', 0, MAX_GC_HEAPS - 1);
  const extraGen0Commit = tail === V2_TAIL_452 ? c.u64() : null;
  c.u8(); // ClrInstanceID
  return {
    kind: 'GCPerHeapHistory',
    freeListAllocated: null,
    freeListRejected: null,
    endOfSegAllocated: null,
    condemnedAllocated: null,
    pinnedAllocated: null,
    pinnedAllocatedAdvance: null,
    runningFreeListEfficiency: null,
    memoryPressure,
    condemnReasons0,
    condemnReasons1,
    compactMechanisms,
    expandMechanisms,
    heapIndex,
    extraGen0Commit,
    generations,
  };
}

function decodeGlobalHeapHistory(c: ByteCursor): GCGlobalHeapHistory {
  const r: GCGlobalHeapHistory = {
    kind: 'GCGlobalHeapHistory',
    finalYoungestDesired: c.u64(),
    numHeaps: bounded(c, 'GCGlobalHeapHistory NumHeaps', 1, MAX_GC_HEAPS, true),
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

/** GCJoin (runtime 203, private 6): u32 Heap, u32 JoinTime, u32 JoinType, u16 ClrInstanceID, [u32 JoinID]. */
function decodeJoin(c: ByteCursor): GCJoin {
  const heap = c.u32();
  const joinTime = c.u32();
  const joinType = c.u32();
  c.u16();
  return { kind: 'GCJoin', heap, joinTime, joinType, joinId: opt(c, 4, () => c.u32()) };
}

/** GCMark*Roots (runtime 25–28, private 7–10): u32 HeapNum, u16 ClrInstanceID. */
const markRoots =
  (kind: GCMarkRoots['kind']): Decoder =>
  (c) => ({ kind, heapNum: c.u32() });

/** GCAllocationTick (runtime 10) V0–V4: u32 Amount, u32 Kind, [u16 ClrInstanceID, u64 Amount64, ptr TypeID, UTF16z TypeName, u32 HeapIndex, [ptr Address, [u64 ObjectSize]]]. */
function decodeAllocationTick(c: ByteCursor, version: number, p: number): GCAllocationTick {
  const amount32 = c.u32();
  const r: GCAllocationTick = {
    kind: 'GCAllocationTick',
    amount: amount32,
    allocationKind: bounded(c, 'GCAllocationTick AllocationKind', 0, MAX_ALLOCATION_KIND),
    typeId: 0,
    typeName: '',
    heapIndex: 0,
    address: 0,
    objectSize: 0,
  };
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

/**
 * The fields of a GCAllocationTick that the analysis and the allocation samples need, as
 * readAllocationTick fills them. Whoever reads ticks owns one and fills it again for each tick:
 * a million ticks need no million objects. Every field only ever holds a number (`typeId` is −1
 * when absent, never `undefined`): a field that may hold `undefined` boxes every pointer-sized
 * number stored in it, 16 bytes of garbage per tick.
 */
export interface AllocationTickFields {
  /** TraceEvent's amount: AllocationAmount64 (V2+) when non-zero, else AllocationAmount. */
  amount: number;
  /** AllocationKind: 0 small object heap, 1 large object heap, 2 pinned object heap. */
  kind: number;
  /** TypeID, the type's MethodTable address (V2+ when the payload holds it); −1: none. */
  typeId: number;
}

export function allocationTickFields(): AllocationTickFields {
  return { amount: 0, kind: 0, typeId: -1 };
}

/**
 * Reads a GCAllocationTick's fields into `out` straight from the payload bytes (the most
 * frequent GC event: no cursor, no record, no string) — the same layout as
 * decodeAllocationTick. False (and `out` untouched) when the payload is shorter than the V0
 * fields or its AllocationKind is one no runtime writes (decodeAllocationTick refuses it too).
 */
export function readAllocationTick(e: TraceEventRecord, pointerSize: number, out: AllocationTickFields): boolean {
  const b = e.bytes;
  const o = e.payloadStart;
  const n = e.payloadSize;
  if (n < 8) return false;
  let amount = u32At(b, o);
  const kind = u32At(b, o + 4);
  if (kind > MAX_ALLOCATION_KIND) return false;
  let typeId = -1;
  // V2+: u16 ClrInstanceID, then u64 AllocationAmount64 at 10 and the TypeID pointer at 18.
  if (e.metadata.version >= 2 && n >= 18) {
    const a64 = u32At(b, o + 14) * 4294967296 + u32At(b, o + 10);
    if (a64 !== 0) amount = a64;
    if (n >= 18 + pointerSize) typeId = pointerSize === 8 ? u32At(b, o + 22) * 4294967296 + u32At(b, o + 18) : u32At(b, o + 18);
  }
  out.amount = amount;
  out.kind = kind;
  out.typeId = typeId;
  return true;
}

/** Metadata ids below this have their answer cached in arrays (real traces use a few hundred). */
const MAX_CACHED_METADATA_ID = 1 << 16;

/**
 * Reads each AllocationTick of one trace once, for every consumer of it (the GC analyzer's
 * allocation per GC, the stack events' samples): whoever dispatches a trace's events holds one,
 * asks it first, and passes the fields it returns to each consumer. Read twice, 12 M ticks were
 * 13 % of a 1.1 GB trace's report.
 */
export class AllocationTickReader {
  /** What `read` returns: the last tick's fields, overwritten by the next tick (read them during the dispatch). */
  private readonly tick = allocationTickFields();
  private pointerSize = 8;
  /** Per metadata id: the record last asked about and whether its events are AllocationTicks (ids are per trace; V6 may redefine them). */
  private readonly mdById: (TraceEventRecord['metadata'] | undefined)[] = [];
  private readonly tickById: boolean[] = [];

  setTrace(t: TraceInfo): void {
    this.pointerSize = t.pointerSize;
  }

  /**
   * The fields of `e` when it is an AllocationTick that holds them; undefined for any other
   * event, and for a tick too short to read (dispatched as any other event, the analyzer counts
   * it undecodable).
   */
  read(e: TraceEventRecord): AllocationTickFields | undefined {
    const md = e.metadata;
    const id = md.id;
    let isTick: boolean;
    // Decided once per metadata record: the provider string is compared once, not per event.
    if (id >= 0 && id < MAX_CACHED_METADATA_ID) {
      if (this.mdById[id] === md) isTick = this.tickById[id]!;
      else {
        isTick = md.provider === RUNTIME && md.eventId === RuntimeEvent.GCAllocationTick;
        this.mdById[id] = md;
        this.tickById[id] = isTick;
      }
    } else isTick = md.provider === RUNTIME && md.eventId === RuntimeEvent.GCAllocationTick;
    return isTick && readAllocationTick(e, this.pointerSize, this.tick) ? this.tick : undefined;
  }
}

function u32At(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/**
 * True when decodeAllocationTick would decode this payload without throwing: the same reads and
 * bounds (u32 Amount, u32 Kind, [u16 ClrInstanceID], V2+ with 8 bytes left: u64 Amount64, ptr
 * TypeID, UTF-16z TypeName, u32 HeapIndex; the later fields are read only when present; an
 * AllocationKind no runtime writes refused), without
 * building the record or the type name. `gcscope events` checks every tick this way.
 */
export function allocationTickFits(e: TraceEventRecord, pointerSize: number): boolean {
  const b = e.bytes;
  const o = e.payloadStart;
  const n = e.payloadSize;
  if (n < 8 || u32At(b, o + 4) > MAX_ALLOCATION_KIND) return false;
  let at = 8;
  if (n - at >= 2) at += 2;
  if (e.metadata.version < 2 || n - at < 8) return true;
  at += 8 + pointerSize;
  if (at > n) return false;
  // It fits when the name has a terminator with 4 bytes after it; any terminator there will do,
  // since the first one is no later (the tails are at least 4 bytes). The runtime puts it just
  // before the fixed tail (V2 u32 HeapIndex; V3 + ptr Address; V4 + u64 ObjectSize): checked
  // first, it spares scanning the name of nearly every tick (12 % of `gcscope events` on a
  // gc-verbose trace).
  const v = e.metadata.version;
  const end = n - 2 - (v >= 4 ? 12 + pointerSize : v === 3 ? 4 + pointerSize : 4);
  if (end >= at && ((end - at) & 1) === 0 && b[o + end] === 0 && b[o + end + 1] === 0) return true;
  while (at < n - 1 && (b[o + at] !== 0 || b[o + at + 1] !== 0)) at += 2;
  if (at >= n - 1) return false;
  return n - (at + 2) >= 4;
}

/** What readPinObject returns: one object reused for every call (read it before the next). */
const PIN_SCRATCH = { objectId: 0, objectSize: 0, nameStart: 0, nameEnd: 0 };

/**
 * GC/PinObjectAtGCTime's object address and size, read straight from the payload bytes: gc-verbose
 * traces carry one per pinned object per GC (millions), and the analysis needs neither the record
 * nor the TypeName string. Same layout and the same bounds as the catalogue's decoder (ptr
 * HandleID, ptr ObjectID, u64 ObjectSize, UTF-16z TypeName): undefined exactly where that decoder
 * throws (payload shorter than the fixed fields, or no TypeName terminator). The TypeName is left
 * as a byte range (nameStart/nameEnd in e.bytes, the terminator excluded) for pinTypeName. The
 * result is a shared object, overwritten by the next call.
 */
export function readPinObject(
  e: TraceEventRecord,
  pointerSize: number,
): { objectId: number; objectSize: number; nameStart: number; nameEnd: number } | undefined {
  const b = e.bytes;
  const o = e.payloadStart;
  const n = e.payloadSize;
  const fixed = 2 * pointerSize + 8;
  if (n < fixed) return undefined;
  // utf16z: a 2-byte NUL at an even distance from the string's start, inside the payload.
  let p = fixed;
  while (p < n - 1 && (b[o + p] !== 0 || b[o + p + 1] !== 0)) p += 2;
  if (p >= n - 1) return undefined;
  // u32At, not a closure over the payload: a closure per call was ~110 bytes of garbage per event.
  PIN_SCRATCH.objectId = pointerSize === 8 ? u32At(b, o + 12) * 4294967296 + u32At(b, o + 8) : u32At(b, o + 4);
  PIN_SCRATCH.objectSize = u32At(b, o + pointerSize * 2 + 4) * 4294967296 + u32At(b, o + pointerSize * 2);
  // The TypeName's UTF-16 code units: e.bytes[nameStart, nameEnd), decoded only when asked (pinTypeName).
  PIN_SCRATCH.nameStart = o + fixed;
  PIN_SCRATCH.nameEnd = o + p;
  return PIN_SCRATCH;
}

/** A PinObjectAtGCTime's TypeName from the range readPinObject gave ('' when empty). */
export function pinTypeName(bytes: Uint8Array, nameStart: number, nameEnd: number): string {
  let s = '';
  for (let i = nameStart; i + 1 < nameEnd; i += 2) s += String.fromCharCode(bytes[i]! | (bytes[i + 1]! << 8));
  return s;
}

/** A GCAllocationTick's TypeName (V2+), decoded only when asked (a type's first tick); undefined without one. */
export function allocationTickTypeName(e: TraceEventRecord, pointerSize: number): string | undefined {
  const at = 18 + pointerSize;
  if (e.metadata.version < 2 || e.payloadSize <= at) return undefined;
  try {
    return new ByteCursor(e.bytes.subarray(e.payloadStart + at, e.payloadStart + e.payloadSize), e.payloadOffset + at).utf16z() || undefined;
  } catch {
    return undefined; // no terminator
  }
}

/** RuntimeInformation (rundown 187, also fired by the runtime provider). */
function decodeRuntimeInformation(c: ByteCursor): RuntimeInformation {
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

/** Decodes one payload: the cursor over it, the event's version and the trace's pointer size. Undefined: a version we do not read. */
type Decoder = (c: ByteCursor, version: number, p: number) => ClrGCEvent | undefined;

/** One GC event the catalogue knows: who fires it, its id and name (ClrEtwAll.man), the newest layout we read, and its decoder. */
export interface GcEventSpec {
  provider: string;
  id: number;
  name: string;
  /** The newest version whose layout we know (runtime provider; newer versions decode the known prefix). */
  maxVersion: number | undefined;
  decode: Decoder;
  /** The GC analysis (gc/gc-analyzer.ts) subscribes to it. */
  analysis?: true;
}

/** Event ids of Microsoft-Windows-DotNETRuntime GC events, named as in the runtime manifest (ClrEtwAll.man). */
export const RuntimeEvent = {
  GCStart: 1,
  GCEnd: 2,
  GCRestartEEEnd: 3,
  GCHeapStats: 4,
  GCCreateSegment: 5,
  GCFreeSegment: 6,
  GCRestartEEBegin: 7,
  GCSuspendEEEnd: 8,
  GCSuspendEEBegin: 9,
  GCAllocationTick: 10,
  GCCreateConcurrentThread: 11,
  GCTerminateConcurrentThread: 12,
  GCFinalizersEnd: 13,
  GCFinalizersBegin: 14,
  GCBulkSurvivingObjectRanges: 21,
  GCBulkMovedObjectRanges: 22,
  GCGenerationRange: 23,
  GCMarkStackRoots: 25,
  GCMarkFinalizeQueueRoots: 26,
  GCMarkHandles: 27,
  GCMarkOlderGenerationRoots: 28,
  FinalizeObject: 29,
  PinObjectAtGCTime: 33,
  GCTriggered: 35,
  GCDynamicEvent: 39,
  RuntimeInformationStart: 187,
  IncreaseMemoryPressure: 200,
  DecreaseMemoryPressure: 201,
  GCMarkWithType: 202,
  GCJoin: 203,
  GCPerHeapHistory: 204,
  GCGlobalHeapHistory: 205,
  GenAwareBegin: 206,
  GenAwareEnd: 207,
  GCLOHCompact: 208,
  GCFitBucketInfo: 209,
  AllocationSampled: 303,
} as const;

/** Event ids of Microsoft-Windows-DotNETRuntimeRundown events the GC analysis reads. */
export const RundownEvent = {
  GCSettingsRundown: 10,
  RuntimeInformationDCStart: 187,
} as const;

/** Event ids of Microsoft-Windows-DotNETRuntimePrivate GC events. */
export const PrivateEvent = {
  GCDecision: 1,
  GCSettings: 2,
  GCOptimized: 3,
  GCPerHeapHistory: 4,
  GCGlobalHeapHistory: 5,
  GCJoin: 6,
  GCMarkStackRoots: 7,
  GCMarkFinalizeQueueRoots: 8,
  GCMarkHandles: 9,
  GCMarkOlderGenerationRoots: 10,
  BGCBegin: 11,
  BGC1stNonConEnd: 12,
  BGC1stConEnd: 13,
  BGC2ndNonConBegin: 14,
  BGC2ndNonConEnd: 15,
  BGC2ndConBegin: 16,
  BGC2ndConEnd: 17,
  BGCPlanEnd: 18,
  BGCSweepEnd: 19,
  BGCDrainMark: 20,
  BGCRevisit: 21,
  BGCOverflow: 22,
  BGCAllocWaitBegin: 23,
  BGCAllocWaitEnd: 24,
  GCFullNotify: 25,
  PinPlugAtGCTime: 199,
} as const;

type Named<T extends Record<string, number>> = { provider: string; id: number; name: keyof T & string };
const rt = (name: keyof typeof RuntimeEvent): Named<typeof RuntimeEvent> => ({ provider: RUNTIME, id: RuntimeEvent[name], name });
const rd = (name: keyof typeof RundownEvent): Named<typeof RundownEvent> => ({ provider: RUNDOWN, id: RundownEvent[name], name });
const pv = (name: keyof typeof PrivateEvent): Named<typeof PrivateEvent> => ({ provider: PRIVATE, id: PrivateEvent[name], name });

/**
 * The catalogue: every GC event of the CLR providers, once. The census (`gcscope events`: which
 * events decode, which are newer than we know), the analyzer's subscription set and
 * `decodeGCEvent` all read this table.
 */
export const GC_EVENTS: readonly GcEventSpec[] = [
  {
    ...rt('GCStart'),
    maxVersion: 2,
    analysis: true,
    // TraceEvent picks the V0 or V1 layout by length, not by version.
    decode: (c) =>
      c.length < 16
        ? { kind: 'GCStart', count: c.u32(), depth: 0, reason: c.u32(), type: 0, clrInstanceId: 0, clientSequenceNumber: 0 }
        : {
            kind: 'GCStart',
            count: c.u32(),
            depth: bounded(c, 'GCStart Depth (the generation)', 0, MAX_GENERATION),
            reason: c.u32(),
            type: bounded(c, 'GCStart Type', 0, MAX_GC_TYPE),
            clrInstanceId: opt(c, 2, () => c.u16()),
            clientSequenceNumber: opt(c, 8, () => c.u64()),
          },
  },
  {
    ...rt('GCEnd'),
    maxVersion: 1,
    analysis: true,
    decode: (c, version) =>
      version === 0 && c.length < 8 ? { kind: 'GCEnd', count: c.u32(), depth: c.u16() } : { kind: 'GCEnd', count: c.u32(), depth: c.u32() },
  },
  { ...rt('GCRestartEEEnd'), maxVersion: 1, analysis: true, decode: () => marker('GCRestartEEEnd') },
  {
    ...rt('GCHeapStats'),
    maxVersion: 2,
    analysis: true,
    decode: (c) => {
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
    },
  },
  { ...rt('GCCreateSegment'), maxVersion: 1, decode: (c) => ({ kind: 'GCCreateSegment', address: c.u64(), size: c.u64(), type: c.u32() }) },
  { ...rt('GCFreeSegment'), maxVersion: 1, decode: (c) => ({ kind: 'GCFreeSegment', address: c.u64() }) },
  { ...rt('GCRestartEEBegin'), maxVersion: 1, decode: () => marker('GCRestartEEBegin') },
  { ...rt('GCSuspendEEEnd'), maxVersion: 1, analysis: true, decode: () => marker('GCSuspendEEEnd') },
  {
    ...rt('GCSuspendEEBegin'),
    maxVersion: 1,
    analysis: true,
    decode: (c, version) =>
      version === 0 ? { kind: 'GCSuspendEEBegin', reason: c.u16(), count: -1 } : { kind: 'GCSuspendEEBegin', reason: c.u32(), count: c.i32() },
  },
  { ...rt('GCAllocationTick'), maxVersion: 4, analysis: true, decode: decodeAllocationTick },
  { ...rt('GCCreateConcurrentThread'), maxVersion: 1, decode: () => marker('GCCreateConcurrentThread') },
  { ...rt('GCTerminateConcurrentThread'), maxVersion: 1, decode: () => marker('GCTerminateConcurrentThread') },
  { ...rt('GCFinalizersEnd'), maxVersion: 1, analysis: true, decode: (c) => ({ kind: 'GCFinalizersEnd', count: c.u32() }) },
  { ...rt('GCFinalizersBegin'), maxVersion: 1, decode: () => marker('GCFinalizersBegin') },
  { ...rt('GCBulkSurvivingObjectRanges'), maxVersion: 0, analysis: true, decode: (c, _v, p) => decodeRanges(c, p, false, 'GCBulkSurvivingObjectRanges') },
  { ...rt('GCBulkMovedObjectRanges'), maxVersion: 0, analysis: true, decode: (c, _v, p) => decodeRanges(c, p, true, 'GCBulkMovedObjectRanges') },
  {
    ...rt('GCGenerationRange'),
    maxVersion: 0,
    decode: (c, _v, p) => ({ kind: 'GCGenerationRange', generation: c.u8(), rangeStart: c.ptr(p), rangeUsedLength: c.u64(), rangeReservedLength: c.u64() }),
  },
  { ...rt('GCMarkStackRoots'), maxVersion: 0, decode: markRoots('GCMarkStackRoots') },
  { ...rt('GCMarkFinalizeQueueRoots'), maxVersion: 0, decode: markRoots('GCMarkFinalizeQueueRoots') },
  { ...rt('GCMarkHandles'), maxVersion: 0, decode: markRoots('GCMarkHandles') },
  { ...rt('GCMarkOlderGenerationRoots'), maxVersion: 0, decode: markRoots('GCMarkOlderGenerationRoots') },
  { ...rt('FinalizeObject'), maxVersion: 0, decode: (c, _v, p) => ({ kind: 'GCFinalizeObject', typeId: c.ptr(p), objectId: c.ptr(p) }) },
  {
    ...rt('PinObjectAtGCTime'),
    maxVersion: 0,
    analysis: true,
    decode: (c, _v, p) => ({ kind: 'GCPinObjectAtGCTime', handleId: c.ptr(p), objectId: c.ptr(p), objectSize: c.u64(), typeName: c.utf16z() }),
  },
  { ...rt('GCTriggered'), maxVersion: 0, decode: (c) => ({ kind: 'GCTriggered', reason: c.u32() }) },
  {
    ...rt('GCDynamicEvent'),
    maxVersion: 0,
    analysis: true,
    decode: (c) => {
      const name = c.utf16z();
      const size = c.u32();
      const data = c.bytesView(size, 'GCDynamicEvent data');
      return { kind: 'GCDynamicEvent', name, data: decodeDynamicEvent(name, new ByteCursor(data, c.offset - size)) };
    },
  },
  // RuntimeInformationStart: the rundown layout, also fired by the runtime provider.
  { ...rt('RuntimeInformationStart'), maxVersion: undefined, analysis: true, decode: decodeRuntimeInformation },
  { ...rt('IncreaseMemoryPressure'), maxVersion: 0, decode: (c) => ({ kind: 'IncreaseMemoryPressure', bytes: c.u64() }) },
  { ...rt('DecreaseMemoryPressure'), maxVersion: 0, decode: (c) => ({ kind: 'DecreaseMemoryPressure', bytes: c.u64() }) },
  {
    ...rt('GCMarkWithType'),
    maxVersion: 0,
    analysis: true,
    decode: (c) => {
      // Both index arrays in the analysis (markByHeap[heapNum], bytes[type]): bounded.
      const heapNum = bounded(c, 'GCMarkWithType HeapNum', 0, MAX_GC_HEAPS - 1);
      c.u16();
      return { kind: 'GCMarkWithType', heapNum, type: bounded(c, 'GCMarkWithType Type', 0, MAX_MARK_ROOT_KIND), bytes: c.u64() };
    },
  },
  { ...rt('GCJoin'), maxVersion: 2, decode: decodeJoin },
  { ...rt('GCPerHeapHistory'), maxVersion: 3, analysis: true, decode: (c, version, p) => (version >= 3 ? decodePerHeapHistory(c, p) : undefined) },
  { ...rt('GCGlobalHeapHistory'), maxVersion: 4, analysis: true, decode: (c) => decodeGlobalHeapHistory(c) },
  { ...rt('GenAwareBegin'), maxVersion: 0, decode: (c) => ({ kind: 'GenAwareBegin', count: c.u32() }) },
  { ...rt('GenAwareEnd'), maxVersion: 0, decode: (c) => ({ kind: 'GenAwareEnd', count: c.u32() }) },
  {
    ...rt('GCLOHCompact'),
    maxVersion: 0,
    decode: (c, _v, p) => {
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
    },
  },
  {
    ...rt('GCFitBucketInfo'),
    maxVersion: 0,
    decode: (c, _v, p) => {
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
    },
  },
  {
    ...rt('AllocationSampled'),
    maxVersion: 0,
    decode: (c, _v, p) => {
      const allocationKind = c.u32();
      c.u16();
      return {
        kind: 'AllocationSampled',
        allocationKind,
        typeId: c.ptr(p),
        typeName: c.utf16z(),
        address: c.ptr(p),
        objectSize: c.u64(),
        sampledByteOffset: c.u64(),
      };
    },
  },
  // ---- rundown ----
  {
    ...rd('GCSettingsRundown'),
    maxVersion: undefined,
    analysis: true,
    decode: (c) => ({
      kind: 'GCSettingsRundown',
      hardLimit: c.u64(),
      lohThreshold: c.u64(),
      physicalMemoryConfig: c.u64(),
      gen0MinBudgetConfig: c.u64(),
      gen0MaxBudgetConfig: c.u64(),
      highMemPercentConfig: c.u32(),
      bitSettings: c.u32(),
    }),
  },
  { ...rd('RuntimeInformationDCStart'), maxVersion: undefined, analysis: true, decode: decodeRuntimeInformation },
  // ---- private (older runtimes and verbose-only events) ----
  { ...pv('GCDecision'), maxVersion: undefined, decode: (c) => ({ kind: 'GCDecision', doCompact: c.u32() !== 0 }) },
  {
    ...pv('GCSettings'),
    maxVersion: undefined,
    decode: (c) => ({ kind: 'GCSettings', segmentSize: c.u64(), largeObjectSegmentSize: c.u64(), serverGC: c.u32() !== 0 }),
  },
  {
    ...pv('GCOptimized'),
    maxVersion: undefined,
    decode: (c) => ({ kind: 'GCOptimized', desiredAllocation: c.u64(), newAllocation: c.u64(), generationNumber: c.u32() }),
  },
  // .NET Framework 4.x writes its heap histories only here (4.5/4.5.2: PerHeapHistory V2 in the GC's
  // own layout, GlobalHeapHistory V0 in the public V0 layout); the analysis reads them as the
  // public ones. Framework 4.0's PerHeapHistory V0 (another layout, no sample) is not decoded.
  {
    ...pv('GCPerHeapHistory'),
    maxVersion: undefined,
    analysis: true,
    decode: (c, version, p) =>
      version >= 3 ? (c.length >= 2 + 7 * p + 32 ? decodePerHeapHistory(c, p) : undefined) : version === 2 ? decodePerHeapHistoryV2(c, p) : undefined,
  },
  { ...pv('GCGlobalHeapHistory'), maxVersion: undefined, analysis: true, decode: (c) => decodeGlobalHeapHistory(c) },
  { ...pv('GCJoin'), maxVersion: undefined, decode: decodeJoin },
  { ...pv('GCMarkStackRoots'), maxVersion: undefined, decode: markRoots('GCMarkStackRoots') },
  { ...pv('GCMarkFinalizeQueueRoots'), maxVersion: undefined, decode: markRoots('GCMarkFinalizeQueueRoots') },
  { ...pv('GCMarkHandles'), maxVersion: undefined, decode: markRoots('GCMarkHandles') },
  { ...pv('GCMarkOlderGenerationRoots'), maxVersion: undefined, decode: markRoots('GCMarkOlderGenerationRoots') },
  ...(
    [
      'BGCBegin',
      'BGC1stNonConEnd',
      'BGC1stConEnd',
      'BGC2ndNonConBegin',
      'BGC2ndNonConEnd',
      'BGC2ndConBegin',
      'BGC2ndConEnd',
      'BGCPlanEnd',
      'BGCSweepEnd',
    ] as const
  ).map(
    // The analysis reads them as proof that the private provider was on during a BGC (one each per BGC).
    (kind): GcEventSpec => ({ ...pv(kind), maxVersion: undefined, analysis: true, decode: () => marker(kind) }),
  ),
  { ...pv('BGCDrainMark'), maxVersion: undefined, decode: (c) => ({ kind: 'BGCDrainMark', objects: c.u64() }) },
  { ...pv('BGCRevisit'), maxVersion: undefined, decode: (c) => ({ kind: 'BGCRevisit', pages: c.u64(), objects: c.u64(), isLarge: c.u32() }) },
  { ...pv('BGCOverflow'), maxVersion: undefined, decode: (c) => ({ kind: 'BGCOverflow', min: c.u64(), max: c.u64(), objects: c.u64(), isLarge: c.u32() }) },
  { ...pv('BGCAllocWaitBegin'), maxVersion: undefined, analysis: true, decode: (c) => ({ kind: 'BGCAllocWaitBegin', reason: c.u32() }) },
  { ...pv('BGCAllocWaitEnd'), maxVersion: undefined, analysis: true, decode: (c) => ({ kind: 'BGCAllocWaitEnd', reason: c.u32() }) },
  { ...pv('GCFullNotify'), maxVersion: undefined, decode: (c) => ({ kind: 'GCFullNotify', genNumber: c.u32(), isAlloc: c.u32() }) },
  {
    ...pv('PinPlugAtGCTime'),
    maxVersion: undefined,
    analysis: true,
    decode: (c, _v, p) => ({ kind: 'PinPlugAtGCTime', plugStart: c.ptr(p), plugEnd: c.ptr(p), gapBeforeSize: c.ptr(p) }),
  },
];

const BY_PROVIDER = new Map<string, Map<number, GcEventSpec>>();
for (const spec of GC_EVENTS) {
  let m = BY_PROVIDER.get(spec.provider);
  if (m === undefined) BY_PROVIDER.set(spec.provider, (m = new Map()));
  m.set(spec.id, spec);
}

/** The catalogue's entry for (provider, id), if it is a GC event we know. */
export function gcEventSpec(provider: string, id: number): GcEventSpec | undefined {
  return BY_PROVIDER.get(provider)?.get(id);
}

/**
 * Decodes a GC-related CLR event. Returns undefined for events that are not GC events of the
 * CLR providers. Throws a TraceDecodeError ('truncated', from the byte cursor) when a payload is shorter than its layout.
 */
export function decodeGCEvent(e: TraceEventRecord, pointerSize: number): ClrGCEvent | undefined {
  const spec = gcEventSpec(e.metadata.provider, e.metadata.eventId);
  return spec === undefined ? undefined : spec.decode(payloadCursor(e), e.metadata.version, pointerSize);
}

/** True when (provider, id) has a GC decoder and the event's version is above the newest known. */
export function isNewerThanKnown(provider: string, eventId: number, version: number): boolean {
  const known = gcEventSpec(provider, eventId)?.maxVersion;
  return known !== undefined && version > known;
}
