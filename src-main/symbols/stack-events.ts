/**
 * Collects, as a trace's events go by, what "who caused it" needs: method code ranges (load and
 * rundown events), and the stacks of GC/Triggered, GC/AllocationTick, GC/SetGCHandle and
 * GC/PinObjectAtGCTime events, interned (stack-interner.ts). AllocationTicks are kept as columns
 * (time, kind, type, amount, object size, stack) so 100,000 ticks are a few arrays, not objects.
 *
 * The reader must be created with `stacks: true`; the caller passes each event with its stack
 * (`reader.eventStack(e)`) during the reader's onEvent call. Pure.
 */
import { allocationTickFields, allocationTickTypeName, readAllocationTick, RUNTIME, RuntimeEvent, type AllocationTickFields } from '../clr/gc-events.js';
import { methodSourceOf, type MethodSource } from '../clr/method-events.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import { TickGroups } from '../shared/allocations.js';
import { MethodMap, type StreamBytes } from './method-map.js';
import { ModuleMap } from './module-map.js';
import { StackInterner } from './stack-interner.js';

export interface TriggerEvent {
  timeMSec: number;
  reason: number;
  threadId: number;
  stack: number;
}

/** The handle events StackEvents counts (`handles` option). */
export type HandleEventName = 'SetGCHandle' | 'PinObjectAtGCTime';

const SET_GC_HANDLE = 30;

/** Metadata ids below this have their route cached in arrays (real traces use a few hundred). */
const MAX_CACHED_METADATA_ID = 1 << 16;

/** What StackEvents does with the events of one metadata record. */
const enum StackRoute {
  Skip,
  Tick,
  Trigger,
  Handle,
  Method,
}

/**
 * What the allocation and trigger views read: AllocationTick columns, GC/Triggered events,
 * interned stacks and a name for each frame. A trace being read (StackEvents) and a stored
 * session (store/stack-store.ts) both provide it.
 */
export interface StackData {
  readonly tickTime: ArrayLike<number>;
  readonly tickKind: ArrayLike<number>;
  readonly tickType: ArrayLike<number>;
  readonly tickAmount: ArrayLike<number>;
  readonly tickObjectSize: ArrayLike<number>;
  readonly tickStack: ArrayLike<number>;
  /**
   * Samples each entry stands for, when entries are aggregates (StackEvents' `aggregate` option:
   * one entry per stack, type and kind, amounts summed); absent: one sample per entry.
   */
  readonly tickSamples?: ArrayLike<number>;
  readonly tickCount: number;
  /** Type names by index (tickType); '' when the tick version carries none (V0/V1). */
  readonly typeNames: readonly string[];
  /** Highest AllocationTick version seen (-1: none). */
  readonly tickVersion: number;
  readonly triggers: readonly TriggerEvent[];
  /** Stack id → frame ids (innermost first), frame id → address. */
  readonly stacks: { readonly stacks: readonly Int32Array[]; readonly frameAddresses: readonly number[] };
  /** Method code ranges known, by where they came from. */
  readonly methodCounts: { load: number; rundown: number; total: number };
  /**
   * The method name of a frame; `module!0xRVA` when no method covers its address but a native
   * image the trace places does (ETW); undefined when neither.
   */
  frameName(frame: number): string | undefined;
}

export interface StackEventsOptions {
  /**
   * Keep one entry per (stack, type, kind) with amounts summed instead of one per sample: memory
   * bounded by the distinct stacks and types, not by the trace's length — what a whole-trace
   * report needs. Time ranges are then unavailable (each entry keeps its first sample's time).
   */
  aggregate?: boolean;
  /**
   * Count GC/SetGCHandle and PinObjectAtGCTime events per stack (`gcscope allocs FILE`, their
   * only reader). Off by default: gc-verbose traces carry one per pinned object per GC; sessions
   * do not store them. Counted, not kept one by one: kept, they grew with the trace (1.8 M
   * objects in a 1.1 GB trace's `allocs`).
   */
  handles?: boolean;
  /**
   * Reads bytes of the trace back by stream offset (a plain trace file: offsets are file
   * offsets): method names are then left in the file until a stack needs one (MethodMap).
   */
  stream?: StreamBytes;
}

export class StackEvents implements StackData {
  readonly methods: MethodMap;
  /** Native images of the process (ETW kernel Image events), for frames no method covers. */
  readonly modules = new ModuleMap();
  readonly stacks = new StackInterner();
  readonly triggers: TriggerEvent[] = [];
  /**
   * Handle events per (event, stack), in the order each pair was first seen: key stack × 2 + 1
   * for SetGCHandle, stack × 2 for PinObjectAtGCTime; value the count.
   */
  readonly handleCounts = new Map<number, number>();
  /** AllocationTick columns, one entry per tick in delivery (time) order; entries [0, tickCount) are the ticks held. */
  readonly tickTime: number[] = [];
  readonly tickKind: number[] = [];
  readonly tickType: number[] = [];
  readonly tickAmount: number[] = [];
  readonly tickObjectSize: number[] = [];
  readonly tickStack: number[] = [];
  /** Type names by index (tickType); '' when the tick version carries none (V0/V1). */
  readonly typeNames: string[] = [];
  /** Highest AllocationTick version seen (V4 carries the object size). */
  tickVersion = -1;
  private readonly typeIndex = new Map<string, number>();
  private readonly typeById = new Map<number, number>();
  /** aggregate: the entry of each (stack, type, kind). */
  private readonly groups = new TickGroups();
  readonly tickSamples: number[] | undefined;

  constructor(private readonly opts: StackEventsOptions = {}) {
    this.tickSamples = opts.aggregate === true ? [] : undefined;
    this.methods = new MethodMap(opts.stream);
  }
  private pointerSize = 8;
  private msecPerTick = 1e-6;

  setTrace(t: TraceInfo): void {
    this.pointerSize = t.pointerSize;
    this.msecPerTick = 1000 / t.qpcFrequency;
  }

  /**
   * Takes what it needs from one event. `stackOf` gives the event's return addresses (the
   * reader's eventStack); it is called only for the events whose stacks are kept, since decoding
   * every event's stack would cost more than the rest of the analysis. A caller that reads
   * AllocationTicks for other consumers too passes them to onAllocationTick instead
   * (AllocationTickReader); an AllocationTick given here is read here.
   */
  onEvent(e: TraceEventRecord, stackOf?: (e: TraceEventRecord) => Float64Array | undefined): void {
    const md = e.metadata;
    // What to do with a metadata record's events is decided once per record (the provider string
    // compared once, not per event): a million AllocationTicks go straight to onAllocationTick.
    const route = md === this.lastMd ? this.lastRoute : this.routeOf(md);
    switch (route) {
      case StackRoute.Tick:
        if (readAllocationTick(e, this.pointerSize, this.tick)) this.onAllocationTick(e, this.tick, stackOf);
        return;
      case StackRoute.Trigger:
        this.triggers.push({
          timeMSec: this.msec(e),
          reason: e.payloadSize >= 4 ? readU32(e, 0) : -1,
          threadId: e.threadId,
          stack: this.stacks.intern(stackOf?.(e)),
        });
        return;
      case StackRoute.Handle:
        if (this.opts.handles !== true) return;
        {
          const key = this.stacks.intern(stackOf?.(e)) * 2 + (md.eventId === SET_GC_HANDLE ? 1 : 0);
          this.handleCounts.set(key, (this.handleCounts.get(key) ?? 0) + 1);
        }
        return;
      case StackRoute.Method:
        this.methods.addEvent(this.lastSource, e);
        return;
      case StackRoute.Skip:
        return;
    }
  }

  private lastMd: TraceEventRecord['metadata'] | undefined;
  private lastRoute = StackRoute.Skip;
  /** The method event kind of lastMd (StackRoute.Method). */
  private lastSource: MethodSource = 'load';
  /** Route by metadata id, checked to be the same record (ids are per trace; V6 may redefine them). */
  private readonly routeMd: (TraceEventRecord['metadata'] | undefined)[] = [];
  private readonly routeById: StackRoute[] = [];
  private readonly sourceById: MethodSource[] = [];

  private routeOf(md: TraceEventRecord['metadata']): StackRoute {
    const id = md.id;
    const cached = id >= 0 && id < MAX_CACHED_METADATA_ID;
    let r: StackRoute;
    let source: MethodSource = 'load';
    if (cached && this.routeMd[id] === md) {
      r = this.routeById[id]!;
      source = this.sourceById[id]!;
    } else {
      r = StackRoute.Method;
      if (md.provider === RUNTIME) {
        if (md.eventId === RuntimeEvent.GCAllocationTick) r = StackRoute.Tick;
        else if (md.eventId === RuntimeEvent.GCTriggered) r = StackRoute.Trigger;
        else if (md.eventId === SET_GC_HANDLE || md.eventId === RuntimeEvent.PinObjectAtGCTime) r = StackRoute.Handle;
      }
      if (r === StackRoute.Method) {
        const s = methodSourceOf(md);
        if (s === undefined) r = StackRoute.Skip;
        else source = s;
      }
      if (cached) {
        this.routeMd[id] = md;
        this.routeById[id] = r;
        this.sourceById[id] = source;
      }
    }
    this.lastMd = md;
    this.lastRoute = r;
    this.lastSource = source;
    return r;
  }

  /** Ticks held: entries [0, tickCount) of the tick columns (after clearTicks the columns may be longer). */
  get tickCount(): number {
    return this.ticks;
  }

  private ticks = 0;

  /**
   * Forgets the ticks held so far (a store that has written them keeps memory bounded by the
   * working set); type names, stacks and triggers stay. The columns keep their length and are
   * overwritten from entry 0: emptied, they grew again from nothing after every chunk an import
   * stored (six arrays of ~10,000 entries per 1 MB chunk of a gc-verbose trace).
   */
  clearTicks(): void {
    this.ticks = 0;
    this.groups.clear();
  }

  get methodCounts(): { load: number; rundown: number; total: number } {
    return { load: this.methods.loadEvents, rundown: this.methods.rundownEvents, total: this.methods.size };
  }

  frameName(frame: number): string | undefined {
    const address = this.stacks.frameAddresses[frame]!;
    return this.methods.find(address)?.name ?? this.modules.frameName(address);
  }

  /** onEvent's AllocationTick fields (a caller with an AllocationTickReader passes its own). */
  private readonly tick = allocationTickFields();

  /** Takes one AllocationTick, its fields already read (readAllocationTick) by whoever dispatches it. */
  onAllocationTick(e: TraceEventRecord, tick: AllocationTickFields, stackOf?: (e: TraceEventRecord) => Float64Array | undefined): void {
    const amount = tick.amount;
    const kind = tick.kind;
    // The type name (a UTF-16 string) is decoded once per TypeID (a MethodTable address); types
    // without a TypeID (V0/V1) share the empty name.
    // typeId stays a plain number (−1: none), never `number | undefined`: a variable that may be
    // undefined holds its number boxed, 16 bytes of garbage per tick.
    const typeId = tick.typeId;
    let type: number | undefined;
    let slot = 0;
    if (typeId >= 0) {
      // A direct-mapped cache before the map: a Map keyed by pointers boxes each key looked up.
      slot = Math.imul((typeId >>> 3) ^ ((typeId / 4294967296) >>> 0), 0x9e3779b1) >>> 24;
      type = this.typeCacheKey[slot] === typeId ? this.typeCacheValue[slot] : this.typeById.get(typeId);
    }
    if (type === undefined) {
      const name = allocationTickTypeName(e, this.pointerSize) ?? '';
      type = this.typeIndex.get(name);
      if (type === undefined) {
        type = this.typeNames.length;
        this.typeNames.push(name);
        this.typeIndex.set(name, type);
      }
      if (typeId >= 0) this.typeById.set(typeId, type);
    }
    if (typeId >= 0) {
      this.typeCacheKey[slot] = typeId;
      this.typeCacheValue[slot] = type;
    }
    const version = e.metadata.version;
    if (version > this.tickVersion) this.tickVersion = version;
    const objectSize = version >= 4 ? objectSizeOf(e, this.pointerSize, this.typeNames[type]!) : 0;
    const stack = this.stacks.intern(stackOf?.(e));
    if (this.tickSamples !== undefined) {
      // One entry per (stack, type, kind).
      const at = this.groups.entryOr(stack, type, kind, this.ticks);
      if (at >= 0) {
        this.tickAmount[at] = this.tickAmount[at]! + amount;
        this.tickObjectSize[at] = this.tickObjectSize[at]! + objectSize;
        this.tickSamples[at] = this.tickSamples[at]! + 1;
        return;
      }
      this.tickSamples[this.ticks] = 1;
    }
    const n = this.ticks++;
    this.tickTime[n] = this.msec(e);
    this.tickKind[n] = kind;
    this.tickType[n] = type;
    this.tickAmount[n] = amount;
    this.tickObjectSize[n] = objectSize;
    this.tickStack[n] = stack;
  }

  /** TypeID → type index for 256 recent TypeIDs (key NaN: empty). */
  private readonly typeCacheKey = new Float64Array(256).fill(Number.NaN);
  private readonly typeCacheValue = new Int32Array(256);

  private msec(e: TraceEventRecord): number {
    return e.timestamp * this.msecPerTick;
  }
}

function readU32(e: TraceEventRecord, at: number): number {
  const b = e.bytes;
  const o = e.payloadStart + at;
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

/**
 * AllocationTick V4's ObjectSize: after u32 Amount, u32 Kind, u16 ClrInstanceID, u64 Amount64,
 * ptr TypeID, UTF16z TypeName, u32 HeapIndex, ptr Address (docs/formats.md §3.5).
 */
function objectSizeOf(e: TraceEventRecord, p: number, typeName: string): number {
  const at = 18 + p + (typeName.length + 1) * 2 + 4 + p;
  if (e.payloadSize < at + 8) return 0;
  return readU32(e, at + 4) * 4294967296 + readU32(e, at);
}
