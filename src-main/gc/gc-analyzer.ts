/**
 * The collection state machine, equivalent to TraceEvent's GC handlers in
 * `TraceLoadedDotNetRuntime.SetupCallbacks` (docs/formats.md §4.2–4.3): it turns time-ordered CLR
 * events into TraceGC records.
 *
 * - A pause runs from SuspendEEBegin (reason ForGC, or any reason other than ForGCPrep, which
 *   only starts a background GC's later pauses) to RestartEEEnd on the same thread. Suspensions
 *   for other reasons are not GCs (a sampling profiler suspends the runtime thousands of times).
 * - GCStart is accepted only while a GC (or other) suspension is tracked and is not a duplicate of
 *   the previous GC's number.
 * - A blocking GC completes at RestartEEEnd once its HeapStats arrived; a background GC completes
 *   at its HeapStats, with foreground GCs nested inside it as separate records.
 * - Global/per-heap history, mark, pinning, join and dynamic events attach to the current GC.
 * - The private provider's BGC events mark a background GC as watched for LOH allocation waits,
 *   and its BGCAllocWaitBegin/End pairs become those waits (bgc-alloc-waits.ts). Its heap
 *   histories (.NET Framework 4.x writes them only there) count as the public ones, as in
 *   TraceEvent, unless the runtime provider has its own.
 *
 * Pure: feed it events with `onEvent`; it calls back when a GC starts and completes, so a live
 * session can show and store GCs as they happen.
 */
import {
  allocationTickFields,
  decodeGCEvent,
  GC_EVENTS,
  IMPLAUSIBLE_VALUE,
  MAX_GC_HEAPS,
  PRIVATE,
  readAllocationTick,
  pinTypeName,
  readPinObject,
  RUNTIME,
  RuntimeEvent,
  type AllocationTickFields,
  type ClrGCEvent,
  type GCSettingsRundown,
  type RuntimeInformation,
} from '../clr/gc-events.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { EventMetadata, TraceEventRecord, TraceInfo } from '../trace/model.js';
import { BgcAllocWaitPairer } from './bgc-alloc-waits.js';
import { computeGCMetrics } from './gc-metrics.js';
import { PinnedObjects } from './pinned-objects.js';
import { GCType, GCReasonCode, TraceGC, type ObjectRangeTotals } from './trace-gc.js';

/** The events the analysis uses (the catalogue's `analysis` entries), by provider: everything else is skipped without decoding. */
const USED = new Map<string, Set<number>>();
for (const s of GC_EVENTS) if (s.analysis === true) USED.set(s.provider, (USED.get(s.provider) ?? new Set()).add(s.id));

/** What onEvent does with an event of a given metadata record. */
const enum Route {
  Skip,
  AllocationTick,
  PinObject,
  Decode,
}
/** Metadata ids below this are cached in arrays (real traces use a few hundred). */
const MAX_CACHED_METADATA_ID = 1 << 16;

const SUSPEND_FOR_GC = 1;
const SUSPEND_FOR_GC_PREP = 6;

export interface GCAnalyzerCallbacks {
  onGCStart?(gc: TraceGC): void;
  /** A GC completed and its metrics were computed. */
  onGCEnd?(gc: TraceGC): void;
  /** An event that arrived after a GC completed changed what is known of it (finalizers queued). */
  onGCUpdated?(gc: TraceGC): void;
}

export interface AnalyzerCounters {
  /** GC events whose payload did not fit its layout or held a value no runtime writes (skipped). */
  undecodableEvents: number;
  /**
   * Of those, the events refused for a value no runtime writes (a GCStart of generation 258, a
   * heap number past the most heaps a runtime makes: clr/gc-events.ts bounds) and the first
   * one's message, which the stored session's status reason repeats.
   */
  implausibleEvents: number;
  firstImplausible: string | undefined;
  /** SuspendEE/RestartEE pairs for reasons other than a GC (profilers, debuggers). */
  nonGCSuspensions: number;
  /** GCStart events ignored because no suspension was tracked (attach mid-GC) or a duplicate. */
  ignoredGCStarts: number;
  /** PerHeapHistory/GlobalHeapHistory or survival/movement range events that arrived with no GC to attach to. */
  orphanHistories: number;
  /** GCDynamicEvent sub-events kept as raw bytes (an unknown name, or shorter than its layout), by name. */
  rawDynamicEvents: Record<string, number>;
}

/** The GCDynamicEvent sub-events only DATAS emits (.NET 8: HeapCount*, .NET 9+: SizeAdaptation*). */
const DATAS_EVENTS: ReadonlySet<string> = new Set([
  'HeapCountTuning',
  'HeapCountSample',
  'SizeAdaptationTuning',
  'SizeAdaptationFullGCTuning',
  'SizeAdaptationSample',
]);

/**
 * A suspension for SuspendForGCPrep that belongs to no GC: DATAS applying a heap-count change
 * between GCs (heap 0's GC thread suspends the runtime to move regions and rethread free lists;
 * runtime dynamic_heap_count.cpp). A real pause the application sees, outside any GC's pause.
 */
export interface GCPrepPause {
  startMSec: number;
  durationMSec: number;
  /** The last GC that started before it (-1 before the first). */
  afterGCNumber: number;
}

const emptyRanges = (): ObjectRangeTotals => ({
  survivedBytes: 0,
  survivedRanges: 0,
  movedBytes: 0,
  movedRanges: 0,
  relocatedBytes: 0,
  minAddress: Number.POSITIVE_INFINITY,
  maxAddress: 0,
  events: 0,
});

export class GCAnalyzer {
  readonly gcs: (TraceGC | undefined)[] = [];
  readonly counters: AnalyzerCounters = {
    undecodableEvents: 0,
    implausibleEvents: 0,
    firstImplausible: undefined,
    nonGCSuspensions: 0,
    ignoredGCStarts: 0,
    orphanHistories: 0,
    rawDynamicEvents: {},
  };
  /**
   * Heap count from the first GlobalHeapHistory (−1 until seen): TraceEvent's process-level
   * `HeapCount`, fixed at the first GC. Under DATAS it is wrong for later GCs; each GC's own
   * count is `TraceGC.heapCount`.
   */
  heapCount = -1;
  /** The newest GlobalHeapHistory.NumHeaps (−1 until seen): the count a GC starting now runs with. */
  lastNumHeaps = -1;
  /**
   * The GlobalHeapHistory NumHeaps maximum: the runtime's own statement of its heap count, unlike
   * `maxGCHeapCount`, which also counts PerHeapHistory events (a capture or a cut trace can file
   * two GCs' per-heap events under one GC: a workstation process read as "server · 2 heaps").
   */
  maxGlobalHeapCount = 0;
  /** A DATAS event (GCDynamicEvent HeapCountSample/Tuning, SizeAdaptation*) was seen: DATAS is on, whether or not the count changed. */
  sawDatasEvent = false;
  /** DATAS heap-count changes applied between GCs (SuspendForGCPrep outside any GC). */
  readonly prepPauses: GCPrepPause[] = [];
  /** Heap counts seen over time (DATAS changes it between GCs): [gcNumber, count]. */
  readonly heapCountChanges: [number, number][] = [];
  gcSettings: GCSettingsRundown | undefined;
  runtimeInfo: RuntimeInformation | undefined;
  hasAllocTickEvents = false;
  /** Time of the last HeapStats: TraceEvent's `lastRestartEndTimeRelativeMSec`. */
  lastRestartEndTimeRelativeMSec = 0;
  /** Type name → objects finalized (FinalizeObject events; names need the Type keyword). */
  readonly finalizedObjects = new Map<string, number>();
  firstEventMSec = Number.NaN;
  lastEventMSec = Number.NaN;
  /**
   * The most heaps any GC had (its GlobalHeapHistory.NumHeaps or its PerHeapHistory count), and
   * whether any GC was a background GC: kept as events arrive, so they cover GCs already
   * released (process-info.ts describes the process from them).
   */
  maxGCHeapCount = 0;
  sawBackgroundGC = false;
  /**
   * The latency (pause) mode of the newest GC that reported one (GlobalHeapHistory V2+). The GC
   * starts in Interactive when background GC is enabled and in Batch when it is not, and runs a
   * background GC only in Interactive or SustainedLowLatency (docs/formats.md §3.8): a live
   * recording knows from its first GC what the rundown's settings would only say at the end.
   */
  lastPauseMode: number | undefined = undefined;

  /** The first and last GC event times as stored and reported (null before any event). */
  eventSpan(): { firstEventMSec: number | null; lastEventMSec: number | null } {
    return {
      firstEventMSec: Number.isNaN(this.firstEventMSec) ? null : this.firstEventMSec,
      lastEventMSec: Number.isNaN(this.lastEventMSec) ? null : this.lastEventMSec,
    };
  }

  private suspendThreadIDOther = -1;
  private suspendThreadIDBGC = -1;
  private suspendThreadIDGC = -1;
  private suspendTimeRelativeMSec = -1;
  private suspendEndTimeRelativeMSec = -1;
  private lastSuspendReason = 0;
  private currentBGC: TraceGC | undefined;
  private lastCompletedGC: TraceGC | undefined;
  private readonly allocTickCurrentMB = [0, 0, 0];
  private readonly allocTickAtLastGC = [0, 0, 0];
  private seenBadAllocTick = false;
  private pointerSize = 8;
  private sawObjectRanges = false;
  private freq = 1;
  private lastGCNumber = -1;
  private prepOutsideGC = false;
  private readonly lohWaits = new BgcAllocWaitPairer<TraceGC>();
  /** An event of the private provider was seen: from then on a BGC's LOH waits are measured. */
  private sawPrivateProvider = false;
  /**
   * A heap history came from the runtime provider: the private provider's (.NET Framework 4.x's
   * only source of them) are then set aside, so no runtime that wrote both is counted twice.
   */
  private sawPublicHistory = false;
  /** PinObjectAtGCTime type names by index (PinnedObjects' type indexes), and the index by name and by the name bytes' hash. */
  readonly pinnedTypeNames: string[] = [];
  private readonly pinnedTypeIndex = new Map<string, number>();
  private readonly pinnedTypeByHash = new Map<number, number>();

  constructor(private readonly callbacks: GCAnalyzerCallbacks = {}) {}

  setTrace(t: TraceInfo): void {
    this.pointerSize = t.pointerSize;
    this.freq = t.qpcFrequency;
  }

  /** TraceEvent's TimeStampRelativeMSec: ticks since sync time, clamped at 0. */
  msec(e: TraceEventRecord): number {
    return ((e.timestamp < 0 ? 0 : e.timestamp) * 1000) / this.freq;
  }

  /** The last GC in the list if incomplete, else the background GC in progress. */
  currentGC(): TraceGC | undefined {
    const last = this.gcs.length > 0 ? this.gcs[this.gcs.length - 1] : undefined;
    if (last !== undefined && !last.isComplete) return last;
    return this.currentBGC;
  }

  /**
   * Per metadata record, what the analysis does with its events, decided once per record: a
   * lookup by metadata id (checked to be the same record: ids are per trace) instead of a
   * WeakMap, which cost ~7 % of a report on a 1.5 M-event trace.
   */
  private readonly routeMd: (EventMetadata | undefined)[] = [];
  private readonly routeOf: Route[] = [];

  private route(md: EventMetadata): Route {
    const id = md.id;
    const cached = id >= 0 && id < MAX_CACHED_METADATA_ID;
    if (cached && this.routeMd[id] === md) return this.routeOf[id]!;
    let r = Route.Skip;
    // The first event of its kind: the private provider is on once any of its events shows.
    if (md.provider === PRIVATE) this.sawPrivateProvider = true;
    if (USED.get(md.provider)?.has(md.eventId) === true) {
      const runtime = md.provider === RUNTIME;
      r =
        runtime && md.eventId === RuntimeEvent.GCAllocationTick
          ? Route.AllocationTick
          : runtime && md.eventId === RuntimeEvent.PinObjectAtGCTime
            ? Route.PinObject
            : Route.Decode;
    }
    if (cached) {
      this.routeMd[id] = md;
      this.routeOf[id] = r;
    }
    return r;
  }

  /**
   * Takes one event. A caller that reads AllocationTicks for other consumers too passes them to
   * onAllocationTick instead (AllocationTickReader); an AllocationTick given here is read here.
   */
  onEvent = (e: TraceEventRecord): void => {
    const r = this.route(e.metadata);
    if (r === Route.Skip) return;
    if (r === Route.AllocationTick) {
      // AllocationTick is the most frequent GC event: read the fields needed, nothing else.
      if (readAllocationTick(e, this.pointerSize, this.tick)) this.onAllocationTick(e, this.tick);
      else this.onUndecodableTick(e);
      return;
    }
    if (r === Route.PinObject) {
      // One per pinned object per GC in gc-verbose traces: address and size only, no record.
      this.onPinObjectPayload(e);
      return;
    }
    let ev: ClrGCEvent | undefined;
    try {
      ev = decodeGCEvent(e, this.pointerSize);
    } catch (err) {
      if (!(err instanceof TraceDecodeError)) throw err;
      this.counters.undecodableEvents++;
      if (err.code === IMPLAUSIBLE_VALUE) this.implausible(err.message);
      return;
    }
    if (ev === undefined) return;
    if (ev.kind === 'GCPerHeapHistory' || ev.kind === 'GCGlobalHeapHistory') {
      if (e.metadata.provider === RUNTIME) this.sawPublicHistory = true;
      else if (this.sawPublicHistory) return;
    }
    const t = this.msec(e);
    if (ev.kind.startsWith('BGC')) {
      // Private provider BGC events: not part of the GC event span (which TraceEvent-compatible
      // timings and the recording's span are taken from), only of the BGC they happen in.
      this.onPrivateBgcEvent(ev, t, e.threadId);
      return;
    }
    if (Number.isNaN(this.firstEventMSec)) this.firstEventMSec = t;
    this.lastEventMSec = t;
    this.apply(ev, t, e.threadId);
  };

  /** onEvent's AllocationTick fields (a caller with an AllocationTickReader passes its own). */
  private readonly tick = allocationTickFields();

  /** A tick readAllocationTick refused (rare): the decoder says whether for a value no runtime writes. */
  private onUndecodableTick(e: TraceEventRecord): void {
    this.counters.undecodableEvents++;
    try {
      decodeGCEvent(e, this.pointerSize);
    } catch (err) {
      if (err instanceof TraceDecodeError && err.code === IMPLAUSIBLE_VALUE) this.implausible(err.message);
    }
  }

  /** Takes one AllocationTick, its fields already read (readAllocationTick) by whoever dispatches it. */
  onAllocationTick(e: TraceEventRecord, tick: AllocationTickFields): void {
    const t = this.msec(e);
    if (Number.isNaN(this.firstEventMSec)) this.firstEventMSec = t;
    this.lastEventMSec = t;
    this.addAllocation(tick.amount, tick.kind);
  }

  private apply(ev: ClrGCEvent, t: number, threadId: number): void {
    switch (ev.kind) {
      case 'GCSuspendEEBegin':
        if (ev.reason === SUSPEND_FOR_GC) this.suspendThreadIDGC = threadId;
        else if (ev.reason === SUSPEND_FOR_GC_PREP) this.suspendThreadIDBGC = threadId;
        else {
          this.suspendThreadIDOther = threadId;
          this.counters.nonGCSuspensions++;
          return;
        }
        this.lastSuspendReason = ev.reason;
        this.suspendTimeRelativeMSec = t;
        // ForGCPrep with no GC running (no background GC to finish): a DATAS heap-count change.
        this.prepOutsideGC = ev.reason === SUSPEND_FOR_GC_PREP && this.currentGC() === undefined;
        return;
      case 'GCSuspendEEEnd':
        if (threadId !== this.suspendThreadIDBGC && threadId !== this.suspendThreadIDGC) return;
        if (this.suspendThreadIDBGC > 0 && this.currentBGC !== undefined) this.currentBGC.suspendDurationMSec += t - this.suspendTimeRelativeMSec;
        this.suspendEndTimeRelativeMSec = t;
        return;
      case 'GCRestartEEEnd':
        this.onRestartEnd(t, threadId);
        return;
      case 'GCAllocationTick':
        this.addAllocation(ev.amount, ev.allocationKind);
        return;
      case 'GCStart':
        this.onGCStart(ev.count, ev.depth, ev.reason, ev.type, t);
        return;
      case 'GCEnd': {
        const gc = this.currentGC();
        if (gc !== undefined) {
          gc.durationMSec = t - gc.startRelativeMSec;
          gc.sawGCEnd = true;
        }
        return;
      }
      case 'GCHeapStats':
        this.onHeapStats(ev, t);
        return;
      case 'GCGlobalHeapHistory': {
        if (this.heapCount === -1) this.heapCount = ev.numHeaps;
        this.lastNumHeaps = ev.numHeaps;
        if (ev.numHeaps > this.maxGlobalHeapCount) this.maxGlobalHeapCount = ev.numHeaps;
        const last = this.heapCountChanges[this.heapCountChanges.length - 1];
        const gc = this.currentGC();
        if (last === undefined || last[1] !== ev.numHeaps) this.heapCountChanges.push([gc?.number ?? 0, ev.numHeaps]);
        if (gc === undefined) {
          this.counters.orphanHistories++;
          return;
        }
        gc.globalHeapHistory = ev;
        if (gc.processHeapCount === -1) gc.processHeapCount = ev.numHeaps;
        // The GC's own count: under DATAS it changes between GCs.
        gc.heapCount = ev.numHeaps;
        if (ev.numHeaps > this.maxGCHeapCount) this.maxGCHeapCount = ev.numHeaps;
        if (ev.pauseMode !== undefined) this.lastPauseMode = ev.pauseMode;
        return;
      }
      case 'GCPerHeapHistory': {
        const gc = this.currentGC();
        if (gc === undefined) this.counters.orphanHistories++;
        else if (gc.perHeapHistories.length >= MAX_GC_HEAPS) {
          // One per heap per GC: more than a runtime has heaps is a damaged (duplicated) trace.
          this.counters.undecodableEvents++;
          this.implausible(`GC ${gc.number} has more than ${MAX_GC_HEAPS} GCPerHeapHistory events, more than a runtime has heaps`);
        } else {
          gc.perHeapHistories.push(ev);
          if (gc.perHeapHistories.length > this.maxGCHeapCount) this.maxGCHeapCount = gc.perHeapHistories.length;
        }
        return;
      }
      case 'GCPinObjectAtGCTime':
        this.onPinObject(ev.objectId, ev.objectSize, this.pinnedTypeOf(ev.typeName));
        return;
      case 'PinPlugAtGCTime': {
        const gc = this.currentGC();
        if (gc === undefined) return;
        (gc.pinnedPlugs ??= []).push({ start: ev.plugStart, end: ev.plugEnd });
        return;
      }
      case 'GCMarkWithType': {
        const gc = this.currentGC();
        if (gc === undefined) return;
        const m = (gc.markPromotedBytes ??= []);
        m[ev.type] = (m[ev.type] ?? 0) + ev.bytes;
        // Each heap's GC thread fires one event as it finishes marking a root kind, so the time
        // since its previous one (or since the GC started) is that kind's mark time on that heap.
        const heaps = (gc.markByHeap ??= []);
        const h = (heaps[ev.heapNum] ??= { bytes: [], msec: [], lastMSec: gc.startRelativeMSec });
        h.bytes[ev.type] = (h.bytes[ev.type] ?? 0) + ev.bytes;
        h.msec[ev.type] = (h.msec[ev.type] ?? 0) + Math.max(0, t - h.lastMSec);
        h.lastMSec = t;
        return;
      }
      case 'GCDynamicEvent': {
        const gc = this.currentGC();
        if (gc === undefined) return;
        if (ev.data.name === 'CommittedUsage') {
          const d = ev.data;
          const usage = {
            totalCommittedInUse: d.totalCommittedInUse,
            totalCommittedInGlobalDecommit: d.totalCommittedInGlobalDecommit,
            totalCommittedInFree: d.totalCommittedInFree,
            totalCommittedInGlobalFree: d.totalCommittedInGlobalFree,
            totalBookkeepingCommitted: d.totalBookkeepingCommitted,
          };
          if (gc.committedUsageBefore === undefined) gc.committedUsageBefore = usage;
          else gc.committedUsageAfter = usage;
        } else {
          if (DATAS_EVENTS.has(ev.data.name)) this.sawDatasEvent = true;
          if (ev.data.name === 'Raw') this.counters.rawDynamicEvents[ev.data.eventName] = (this.counters.rawDynamicEvents[ev.data.eventName] ?? 0) + 1;
          gc.dynamicEvents.push({ ...ev.data, timeMSec: t });
        }
        return;
      }
      case 'GCBulkSurvivingObjectRanges':
      case 'GCBulkMovedObjectRanges': {
        // The runtime reports a GC's surviving (non-compacting) or moved (compacting) ranges while
        // the GC runs, split over as many events as the list needs (Index counts them per GC).
        const gc = this.currentGC();
        if (gc === undefined) {
          this.counters.orphanHistories++;
          return;
        }
        this.sawObjectRanges = true;
        const r = (gc.objectRanges ??= emptyRanges());
        if (ev.kind === 'GCBulkSurvivingObjectRanges') {
          r.survivedBytes += ev.totalBytes;
          r.survivedRanges += ev.count;
        } else {
          r.movedBytes += ev.totalBytes;
          r.movedRanges += ev.count;
          r.relocatedBytes += ev.relocatedBytes;
        }
        if (ev.count > 0) {
          r.minAddress = Math.min(r.minAddress, ev.minAddress);
          r.maxAddress = Math.max(r.maxAddress, ev.maxAddress);
        }
        r.events++;
        return;
      }
      case 'GCFinalizersEnd': {
        const gc = this.lastCompletedGC;
        if (gc !== undefined) {
          gc.finalizersQueued += ev.count;
          this.callbacks.onGCUpdated?.(gc);
        }
        return;
      }
      case 'GCSettingsRundown':
        this.gcSettings = ev;
        return;
      case 'RuntimeInformation':
        this.runtimeInfo ??= ev;
        return;
      default:
        return;
    }
  }

  /**
   * What a trace read whole says of its GC events refused for a value no runtime writes (the
   * status reason of its session, the report's quality); null when none was.
   */
  implausibleReason(): string | null {
    const n = this.counters.implausibleEvents;
    if (n === 0) return null;
    return `${n} GC event${n === 1 ? '' : 's'} skipped for a value no runtime writes: ${this.counters.firstImplausible ?? ''}`;
  }

  private implausible(message: string): void {
    this.counters.implausibleEvents++;
    this.counters.firstImplausible ??= message;
  }

  /** A BGC phase event or an LOH allocation wait's begin/end (private provider). */
  private onPrivateBgcEvent(ev: ClrGCEvent, t: number, threadId: number): void {
    if (ev.kind === 'BGCAllocWaitBegin') {
      this.lohWaits.begin(this.currentBGC, threadId, ev.reason, t);
    } else if (ev.kind === 'BGCAllocWaitEnd') {
      const gc = this.lohWaits.end(threadId, t);
      // Usually after the BGC completed (the waiting thread wakes once it is done): its row changes.
      if (gc !== undefined && gc.isComplete) this.callbacks.onGCUpdated?.(gc);
    } else if (this.currentBGC !== undefined) {
      // The provider is on during this BGC: its LOH waits are measured (none so far).
      this.currentBGC.lohAllocWaits ??= [];
    }
  }

  private onPinObjectPayload(e: TraceEventRecord): void {
    const pin = readPinObject(e, this.pointerSize);
    if (pin === undefined) {
      this.counters.undecodableEvents++;
      return;
    }
    const t = this.msec(e);
    if (Number.isNaN(this.firstEventMSec)) this.firstEventMSec = t;
    this.lastEventMSec = t;
    this.onPinObject(pin.objectId, pin.objectSize, this.pinnedTypeOfBytes(e.bytes, pin.nameStart, pin.nameEnd));
  }

  private onPinObject(objectId: number, objectSize: number, type: number): void {
    const gc = this.currentGC();
    if (gc === undefined) return;
    gc.pinnedObjects ??= new PinnedObjects();
    if (!gc.pinnedObjects.add(objectId, objectSize, type)) gc.duplicatedPinningReports++;
  }

  /** A pinned object's type index (pinnedTypeNames) by name. */
  private pinnedTypeOf(name: string): number {
    let t = this.pinnedTypeIndex.get(name);
    if (t === undefined) {
      t = this.pinnedTypeNames.length;
      this.pinnedTypeNames.push(name);
      this.pinnedTypeIndex.set(name, t);
    }
    return t;
  }

  /**
   * The same from the TypeName's UTF-16 bytes, without making a string per event (gc-verbose
   * traces carry one per pinned object per GC, and few distinct types): the bytes' FNV-1a hash
   * and length find the name decoded the first time.
   */
  private pinnedTypeOfBytes(b: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    const key = (h >>> 0) * 4096 + Math.min(end - start, 4095);
    let t = this.pinnedTypeByHash.get(key);
    if (t === undefined) {
      t = this.pinnedTypeOf(pinTypeName(b, start, end));
      this.pinnedTypeByHash.set(key, t);
    }
    return t;
  }

  private addAllocation(amount: number, kind: number): void {
    this.hasAllocTickEvents = true;
    // TraceEvent: use the 64-bit amount, else the 32-bit one read as a signed int; once a
    // negative amount was seen (old runtimes), clamp every amount to a plausible range.
    let a = amount > 0x7fffffff && amount <= 0xffffffff ? amount - 0x100000000 : amount;
    if (a < 0) this.seenBadAllocTick = true;
    if (this.seenBadAllocTick) a = Math.min(Math.max(a, 90 * 1024), kind === 0 ? 110 * 1024 : 2 * 1024 * 1024);
    this.allocTickCurrentMB[kind === 0 ? 0 : kind === 1 ? 1 : 2]! += a / 1e6;
  }

  private onGCStart(count: number, depth: number, reason: number, type: number, t: number): void {
    const last = this.gcs.length > 0 ? this.gcs[this.gcs.length - 1] : undefined;
    if (!(this.suspendThreadIDGC > 0 || this.suspendThreadIDOther > 0) || this.lastGCNumber === count) {
      this.counters.ignoredGCStarts++;
      return;
    }
    const gc = new TraceGC();
    gc.processHeapCount = this.heapCount;
    gc.heapCountInForce = this.lastNumHeaps;
    gc.generation = depth;
    gc.reason = reason;
    gc.number = count;
    gc.type = type;
    gc.index = this.gcs.length;
    // The ephemeral GC a background GC may run as it starts: its pause starts at its own GCStart.
    const ephemeralAtBGCStart = last !== undefined && last.type === GCType.Background && !last.isComplete && type === GCType.NonConcurrent;
    if (ephemeralAtBGCStart || reason === GCReasonCode.PMFullGC) {
      gc.pauseStartRelativeMSec = t;
      if (reason === GCReasonCode.PMFullGC) {
        const cur = this.currentGC();
        if (cur !== undefined) this.complete(cur);
      }
    } else {
      gc.pauseStartRelativeMSec = this.suspendTimeRelativeMSec;
      if (this.suspendEndTimeRelativeMSec === -1) this.suspendEndTimeRelativeMSec = t;
      gc.suspendDurationMSec = this.suspendEndTimeRelativeMSec - this.suspendTimeRelativeMSec;
    }
    gc.startRelativeMSec = t;
    this.gcs.push(gc);
    this.lastGCNumber = count;
    if (type === GCType.Background) {
      this.sawBackgroundGC = true;
      this.currentBGC = gc;
      // The private provider is on: this BGC's LOH waits will be seen (none so far). (Traces
      // recorded from process start show a first "background" GC with no BGC phase events whose
      // GCEnd comes from the thread that started it: it ran in the foreground and made nothing
      // wait; without this it would read as not measured.)
      if (this.sawPrivateProvider) gc.lohAllocWaits = [];
      // Seeded with the suspension so far; the first RestartEEEnd overwrites it with the full pause.
      gc.pauseDurationMSec = gc.suspendDurationMSec;
    }
    this.callbacks.onGCStart?.(gc);
  }

  private onRestartEnd(t: number, threadId: number): void {
    if (threadId === this.suspendThreadIDOther) this.suspendThreadIDOther = -1;
    if (threadId !== this.suspendThreadIDBGC && threadId !== this.suspendThreadIDGC) return;
    if (this.prepOutsideGC && threadId === this.suspendThreadIDBGC && this.currentGC() === undefined) {
      const last = this.gcs.length > 0 ? this.gcs[this.gcs.length - 1] : undefined;
      this.prepPauses.push({
        startMSec: this.suspendTimeRelativeMSec,
        durationMSec: t - this.suspendTimeRelativeMSec,
        afterGCNumber: last?.number ?? this.lastGCNumber,
      });
    }
    this.prepOutsideGC = false;
    const gc = this.currentGC();
    if (gc !== undefined) {
      if (gc.type === GCType.Background) this.addConcurrentPauseTime(gc, t);
      else if (gc.durationMSec === 0 && !gc.sawGCEnd) {
        // No GCEnd before the restart: a 2.0-era concurrent GC; its pause adds up.
        gc.isConcurrentGC = true;
        this.addConcurrentPauseTime(gc, t);
      } else {
        gc.pauseDurationMSec = t - gc.pauseStartRelativeMSec;
        if (gc.heapStats !== undefined) this.complete(gc);
      }
    }
    this.suspendTimeRelativeMSec = -1;
    this.suspendThreadIDBGC = -1;
    this.suspendThreadIDGC = -1;
  }

  private addConcurrentPauseTime(gc: TraceGC, restartMSec: number): void {
    if (this.suspendThreadIDBGC > 0) {
      const pause = restartMSec - this.suspendTimeRelativeMSec;
      gc.pauseDurationMSec += pause;
      if (this.lastSuspendReason === SUSPEND_FOR_GC_PREP) gc.bgcFinalPauseMSec = pause;
    } else {
      gc.pauseDurationMSec = restartMSec - gc.pauseStartRelativeMSec;
    }
  }

  private onHeapStats(hs: Extract<ClrGCEvent, { kind: 'GCHeapStats' }>, t: number): void {
    const gc = this.currentGC();
    if (gc !== undefined) {
      gc.heapStats = hs;
      gc.heapStatsRelativeMSec = t;
      gc.durationSinceLastRestartMSec =
        gc.type === GCType.Background ? t - this.lastRestartEndTimeRelativeMSec : gc.pauseStartRelativeMSec - this.lastRestartEndTimeRelativeMSec;
      if (this.hasAllocTickEvents) {
        gc.hasAllocTickEvents = true;
        for (let k = 0; k < 3; k++) gc.allocedSinceLastGCBasedOnAllocTickMB[k] = this.allocTickCurrentMB[k]! - this.allocTickAtLastGC[k]!;
      }
      // A background GC ends here.
      if (gc.type === GCType.Background && this.currentBGC !== undefined) {
        const bgc = this.currentBGC;
        this.currentBGC = undefined;
        this.complete(bgc);
      }
      if (gc.isConcurrentGC) this.complete(gc);
    }
    for (let k = 0; k < 3; k++) this.allocTickAtLastGC[k] = this.allocTickCurrentMB[k]!;
    this.lastRestartEndTimeRelativeMSec = t;
  }

  private complete(gc: TraceGC): void {
    gc.isComplete = true;
    // The runtime sends no range event when nothing survived: once a trace has shown it carries
    // them (the GCHeapSurvivalAndMovement keyword is on), a GC without any means zero, not unknown.
    if (this.sawObjectRanges && gc.objectRanges === undefined) gc.objectRanges = emptyRanges();
    this.lastCompletedGC = gc;
    computeGCMetrics(this.gcs, gc);
    // Who is pinned: the pinned objects by type, kept (small) when the maps go.
    if (gc.pinnedObjects !== undefined) gc.pinnedTypes = gc.pinnedObjects.byType(this.pinnedTypeNames);
    // Pinning detail is summarised by computeGCMetrics; drop the maps (they can be large).
    gc.pinnedObjects = undefined;
    gc.pinnedPlugs = undefined;
    this.callbacks.onGCEnd?.(gc);
  }

  /**
   * Recomputes the metrics of every completed GC still held, as TraceEvent does before reporting
   * (late events may have changed inputs). Returns the GCs whose metrics changed.
   */
  finish(): TraceGC[] {
    const changed: TraceGC[] = [];
    for (const gc of this.gcs) {
      if (gc === undefined || !gc.isComplete) continue;
      // Its predecessor was released: release() already gave it its final metrics.
      if (gc.index > 0 && this.gcs[gc.index - 1] === undefined) continue;
      if (this.recompute(gc)) changed.push(gc);
    }
    return changed;
  }

  /** computeGCMetrics again; true when a stored metric changed. */
  private recompute(gc: TraceGC): boolean {
    const before = metricValues(gc);
    computeGCMetrics(this.gcs, gc);
    const after = metricValues(gc);
    for (let i = 0; i < before.length; i++) if (!Object.is(before[i], after[i])) return true;
    return false;
  }

  /**
   * Forgets GCs before `index` (already stored) so memory stays bounded on long traces, giving
   * each its final metrics first, as finish() would with every GC held: a GC's metrics read the
   * previous GC (and the most recent earlier one with HeapStats), a background GC's peak the GCs
   * during it, and a GC completed while its predecessor was still running (the ephemeral GCs
   * inside a background GC) read that predecessor's histories only once it completes. So only
   * GCs below every GC still in progress are released, each is recomputed while its predecessor
   * is still held (onGCUpdated when a metric changed), and the last GC with HeapStats below the
   * cut stays.
   */
  release(index: number): void {
    const gcs = this.gcs;
    let limit = Math.min(index, gcs.length);
    // The background GC in progress and the newest GC, if incomplete, still change.
    if (this.currentBGC !== undefined) limit = Math.min(limit, this.currentBGC.index);
    const newest = gcs[gcs.length - 1];
    if (newest !== undefined && !newest.isComplete) limit = Math.min(limit, newest.index);
    // A background GC's peak reads the GCs that started during it: it is final once a later GC started after it ended.
    for (let i = this.recomputedBelow; i < limit; i++) {
      const gc = gcs[i];
      if (gc !== undefined && gc.type === GCType.Background && !this.endedBefore(gc, limit)) {
        limit = i;
        break;
      }
    }
    for (let i = this.recomputedBelow; i < limit; i++) {
      const gc = gcs[i];
      if (gc === undefined || !gc.isComplete) continue;
      if (gc.index === 0 || gcs[i - 1] !== undefined) {
        if (this.recompute(gc)) this.callbacks.onGCUpdated?.(gc);
      }
    }
    if (limit > this.recomputedBelow) this.recomputedBelow = limit;
    // Keep the newest GC with HeapStats below the cut: the next GCs' sizes before read it.
    let keep = limit - 1;
    while (keep >= this.releasedBelow && gcs[keep] !== undefined && gcs[keep]!.heapStats === undefined) keep--;
    let low = this.releasedBelow;
    for (let i = low; i < keep; i++) {
      const gc = gcs[i];
      if (gc !== undefined && gc.isComplete && gc !== this.currentBGC) gcs[i] = undefined;
      if (i === low && gcs[i] === undefined) low++;
    }
    this.releasedBelow = low;
  }

  /** A background GC ended before some GC below `limit` paused (heapSizePeakMB stops there). */
  private endedBefore(bgc: TraceGC, limit: number): boolean {
    const end = bgc.pauseStartRelativeMSec + bgc.durationMSec;
    for (let i = bgc.index + 1; i < limit; i++) {
      const other = this.gcs[i];
      if (other === undefined || end < other.pauseStartRelativeMSec) return true;
    }
    return false;
  }

  /** GCs below this index already had their final metrics (release). */
  private recomputedBelow = 0;
  /** GCs below this index are all released. */
  private releasedBelow = 0;

  /** GCs never completed by the end of the trace (kept, flagged incomplete). */
  incompleteGCs(): TraceGC[] {
    return this.gcs.filter((g): g is TraceGC => g !== undefined && !g.isComplete);
  }
}

/** The metrics computeGCMetrics sets that a stored row shows (finish and release compare them). */
function metricValues(gc: TraceGC): number[] {
  return [
    gc.allocedSinceLastGCMB,
    gc.heapSizePeakMB,
    gc.heapSizeBeforeMB,
    gc.pauseTimePercentageSinceLastGC,
    gc.allocRateMBSec,
    gc.ratioPeakAfter,
    ...gc.genSizeBeforeMB,
    ...gc.userAllocated,
  ];
}
