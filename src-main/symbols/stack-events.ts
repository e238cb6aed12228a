/**
 * Collects, as a trace's events go by, what "who caused it" needs: method code ranges (load and
 * rundown events), and the stacks of GC/Triggered, GC/AllocationTick, GC/SetGCHandle and
 * GC/PinObjectAtGCTime events, interned (stack-interner.ts). AllocationTicks are kept as columns
 * (time, kind, type, amount, object size, stack) so 100,000 ticks are a few arrays, not objects.
 *
 * The reader must be created with `stacks: true`; the caller passes each event with its stack
 * (`reader.eventStack(e)`) during the reader's onEvent call. Pure.
 */
import { allocationTickTypeName, readAllocationTick, RUNTIME, RuntimeEvent } from '../clr/gc-events.js';
import { readMethodCode } from '../clr/method-events.js';
import type { TraceEventRecord, TraceInfo } from '../nettrace/types.js';
import { MethodMap } from './method-map.js';
import { StackInterner } from './stack-interner.js';

export interface TriggerEvent {
  timeMSec: number;
  reason: number;
  threadId: number;
  stack: number;
}

export interface HandleEvent {
  event: 'SetGCHandle' | 'PinObjectAtGCTime';
  timeMSec: number;
  stack: number;
}

const SET_GC_HANDLE = 30;

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
  /** The method name of a frame, or undefined when no method covers its address. */
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
   * Collect GC/SetGCHandle and PinObjectAtGCTime events with their stacks (`gcscope allocs FILE`,
   * their only reader). Off by default: gc-verbose traces carry one per pinned object per GC, and
   * kept they grew with the trace (the 1.04 GB trace's import peaked at 652 MB); sessions do not
   * store them.
   */
  handles?: boolean;
}

/** Types beyond this many share one aggregate key space entry per type index (keys stay exact below 2^53). */
const AGG_TYPES = 262144;

export class StackEvents implements StackData {
  readonly methods = new MethodMap();
  readonly stacks = new StackInterner();
  readonly triggers: TriggerEvent[] = [];
  readonly handles: HandleEvent[] = [];
  /** AllocationTick columns, one entry per tick in delivery (time) order. */
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
  /** aggregate: (stack, type, kind) key → entry index. */
  private readonly groups = new Map<number, number>();
  readonly tickSamples: number[] | undefined;

  constructor(private readonly opts: StackEventsOptions = {}) {
    this.tickSamples = opts.aggregate === true ? [] : undefined;
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
   * every event's stack would cost more than the rest of the analysis.
   */
  onEvent(e: TraceEventRecord, stackOf?: (e: TraceEventRecord) => Float64Array | undefined): void {
    const md = e.metadata;
    if (md.provider === RUNTIME) {
      switch (md.eventId) {
        case RuntimeEvent.GCAllocationTick:
          this.onTick(e, stackOf?.(e));
          return;
        case RuntimeEvent.GCTriggered:
          this.triggers.push({ timeMSec: this.msec(e), reason: e.payloadSize >= 4 ? readU32(e, 0) : -1, threadId: e.threadId, stack: this.stacks.intern(stackOf?.(e)) });
          return;
        case SET_GC_HANDLE:
          if (this.opts.handles !== true) return;
          this.handles.push({ event: 'SetGCHandle', timeMSec: this.msec(e), stack: this.stacks.intern(stackOf?.(e)) });
          return;
        case RuntimeEvent.PinObjectAtGCTime:
          if (this.opts.handles !== true) return;
          this.handles.push({ event: 'PinObjectAtGCTime', timeMSec: this.msec(e), stack: this.stacks.intern(stackOf?.(e)) });
          return;
      }
    }
    const m = readMethodCode(e);
    if (m !== undefined) this.methods.add(m);
  }

  get tickCount(): number {
    return this.tickTime.length;
  }

  /**
   * Forgets the ticks held so far (a store that has written them keeps memory bounded by the
   * working set); type names, stacks and triggers stay.
   */
  clearTicks(): void {
    for (const a of [this.tickTime, this.tickKind, this.tickType, this.tickAmount, this.tickObjectSize, this.tickStack]) a.length = 0;
    if (this.tickSamples !== undefined) this.tickSamples.length = 0;
    this.groups.clear();
  }

  get methodCounts(): { load: number; rundown: number; total: number } {
    return { load: this.methods.loadEvents, rundown: this.methods.rundownEvents, total: this.methods.size };
  }

  frameName(frame: number): string | undefined {
    return this.methods.find(this.stacks.frameAddresses[frame]!)?.name;
  }

  private onTick(e: TraceEventRecord, stackOf: Float64Array | undefined): void {
    const t = readAllocationTick(e, this.pointerSize);
    if (t === undefined) return;
    const amount = t.amount;
    const kind = t.kind;
    // The type name (a UTF-16 string) is decoded once per TypeID (a MethodTable address), as the
    // session pipeline does; types without a TypeID (V0/V1) share the empty name.
    const typeId = t.typeId;
    let type = typeId !== undefined ? this.typeById.get(typeId) : undefined;
    if (type === undefined) {
      const name = allocationTickTypeName(e, this.pointerSize) ?? '';
      type = this.typeIndex.get(name);
      if (type === undefined) {
        type = this.typeNames.length;
        this.typeNames.push(name);
        this.typeIndex.set(name, type);
      }
      if (typeId !== undefined) this.typeById.set(typeId, type);
    }
    const name = this.typeNames[type]!;
    if (e.metadata.version > this.tickVersion) this.tickVersion = e.metadata.version;
    const objectSize = e.metadata.version >= 4 ? objectSizeOf(e, this.pointerSize, name) : 0;
    const stack = this.stacks.intern(stackOf);
    if (this.tickSamples !== undefined) {
      const key = (stack * AGG_TYPES + Math.min(type, AGG_TYPES - 1)) * 4 + (kind & 3);
      const at = this.groups.get(key);
      if (at !== undefined) {
        this.tickAmount[at] = this.tickAmount[at]! + amount;
        this.tickObjectSize[at] = this.tickObjectSize[at]! + objectSize;
        this.tickSamples[at] = this.tickSamples[at]! + 1;
        return;
      }
      this.groups.set(key, this.tickTime.length);
      this.tickSamples.push(1);
    }
    this.tickTime.push(this.msec(e));
    this.tickKind.push(kind);
    this.tickType.push(type);
    this.tickAmount.push(amount);
    this.tickObjectSize.push(objectSize);
    this.tickStack.push(stack);
  }

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
