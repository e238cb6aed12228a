/**
 * Who caused it (issue 14): allocation by type and by call stack, and what triggered each GC —
 * the shapes the CLI, `report --format json`, the store and the UI share.
 *
 * AllocationTick (GC/AllocationTick) is a sample: the runtime fires it each time about 100 KB
 * has been allocated on one object heap, naming the type of the object that crossed the mark.
 * `sampledBytes` is the sum of the ticks' AllocationAmount (TraceEvent's per-type sum, what
 * PerfView's "GC Heap Alloc Ignore Free" view weighs by): an estimate of the bytes each type
 * accounts for. AllocationTick V4 (.NET 8+) also gives the sampled object's own size
 * (`objectBytes`); older versions do not, and then objectBytes is null.
 */

export type AllocationKindName = 'small' | 'large' | 'pinned';

/** Frames that belong to the runtime's own GC entry points (System.GC.Collect and its helpers). */
export function isGcEntryFrame(name: string): boolean {
  return name.startsWith('System.GC.') || name.startsWith('System.GC+');
}

/**
 * The first managed frame (innermost first) below the runtime's GC entry points, or null. Native
 * frames — the runtime's allocation helpers, named only `clr.dll!0x…` or `? 0x…` — are passed
 * over: on .NET Framework ETW stacks start with several of them, and "Caller: clr.dll!0x48041d"
 * tells a user nothing. A stack with no managed frame gives its first non-GC frame.
 */
export function callerOf(frames: readonly string[]): string | null {
  const callers = frames.filter((f) => !isGcEntryFrame(f));
  return callers.find((f) => !isModuleFrameName(f) && !f.startsWith('? 0x')) ?? callers[0] ?? null;
}

/** Types beyond this many share one aggregate entry per stack and kind (TickGroups). */
const AGG_TYPES = 262144;

/**
 * The entries of allocation samples summed per (stack, type, kind): per stack, a map keyed by
 * type × 4 + kind (small integers, no boxing). What a trace read whole (symbols/stack-events.ts)
 * and a stored session read whole (store/stack-store.ts) aggregate by, so both give the same
 * entries in the same order.
 */
export class TickGroups {
  private groups: (Map<number, number> | undefined)[] = [];
  /** The last (stack, type and kind) looked up and its entry: samples come in runs of one type. */
  private lastStack = -1;
  private lastSub = -1;
  private lastAt = -1;

  /** The entry of (stack, type, kind); when it has none yet, `next` becomes it and -1 is returned. */
  entryOr(stack: number, type: number, kind: number, next: number): number {
    const sub = (type < AGG_TYPES ? type : AGG_TYPES - 1) * 4 + (kind & 3);
    if (stack === this.lastStack && sub === this.lastSub) return this.lastAt;
    let g = this.groups[stack];
    if (g === undefined) this.groups[stack] = g = new Map<number, number>();
    const at = g.get(sub);
    this.lastStack = stack;
    this.lastSub = sub;
    if (at !== undefined) return (this.lastAt = at);
    g.set(sub, next);
    this.lastAt = next;
    return -1;
  }

  clear(): void {
    this.groups = [];
    this.lastStack = -1;
  }
}

/** AllocationTick's AllocationKind: 0 small object heap, 1 large object heap, 2 pinned object heap. */
export const ALLOCATION_KIND_NAMES: readonly AllocationKindName[] = ['small', 'large', 'pinned'];

export interface AllocationTypeRow {
  typeName: string;
  kind: AllocationKindName;
  ticks: number;
  /** Sum of the ticks' allocation amounts (≈ bytes allocated, by sampling). */
  sampledBytes: number;
  /** Sum of the sampled objects' own sizes (AllocationTick V4+), else null. */
  objectBytes: number | null;
  /** sampledBytes / all sampled bytes in the range. */
  share: number;
}

/** One node of a call tree over allocation stacks (top-down: callers first; bottom-up: allocating frames first). */
export interface CallTreeNode {
  name: string;
  /** Sampled bytes of the stacks through this node. */
  totalBytes: number;
  /** Sampled bytes of stacks that end here. */
  selfBytes: number;
  ticks: number;
  children: CallTreeNode[];
  /**
   * The root of a searched tree: the samples through a matching frame, by type (the types table
   * shows these while a search is on); absent without a search. Shares are of every sample in the range.
   */
  matchingTypes?: AllocationTypeRow[];
}

/** How well a trace's stacks resolve to methods, in words a user can act on. */
export interface StackResolution {
  /** Distinct frames (return addresses) in the stacks used. */
  frames: number;
  /** Of those, frames neither a method event nor a native image covers (shown as `? 0x…`). */
  unresolvedFrames: number;
  /** Of those, frames no method covers inside a native image the trace places (ETW), shown as `module!0xRVA`. */
  moduleFrames?: number;
  /** Method code ranges known: from load events while recording, and from the rundown at the end. */
  methodsFromLoadEvents: number;
  methodsFromRundown: number;
  /** Why some frames cannot be resolved (null when all resolve). */
  note: string | null;
}

export interface GcTrigger {
  gcNumber: number;
  /** GC/Triggered's time (ms from the trace start, as TraceEvent's MSec). */
  timeMSec: number;
  /** Managed frames of the GC/Triggered event, innermost first; [] when it had no stack. */
  frames: string[];
  /**
   * The first frame below the runtime's own GC entry points (System.GC.*): for an induced GC the
   * caller of GC.Collect, for an allocation-triggered one the allocating method. Null without a stack.
   */
  caller: string | null;
}

export interface AllocationsSummary {
  /** AllocationTick events seen (0: the trace has none — record with gc-verbose). */
  ticks: number;
  sampledBytes: number;
  /** Which size the rows carry: the V4 object size as well, or only the sample amount. */
  sizeSource: 'object-size' | 'sample-amount';
  /** A sentence for users: what the numbers are. */
  sizeNote: string;
  /** Ticks that carried a stack. */
  ticksWithStacks: number;
  byType: AllocationTypeRow[];
  resolution: StackResolution;
}

/** A frame name that gives only the native image and the offset in it (`clr.dll!0x1a2b`), not a method. */
export function isModuleFrameName(name: string): boolean {
  return /!0x[0-9a-f]+$/.test(name);
}

/** Name shown for a frame no method event covers. */
export function unresolvedFrameName(address: number): string {
  return `? 0x${address.toString(16)}`;
}

/** One call stack and what it accounts for. */
export interface StackWeight {
  /** Frames, innermost first. */
  frames: string[];
  sampledBytes: number;
  ticks: number;
}

/** Everything "who caused it" a report carries (report JSON "allocations" and "triggers"). */
export interface WhoCausedIt {
  allocations: AllocationsSummary;
  /** Large-object (LOH) allocation: its types and the stacks allocating most. */
  largeObjectStacks: StackWeight[];
  /** The stacks allocating most, all kinds. */
  topStacks: StackWeight[];
  /** Each GC's GC/Triggered stack, by GC number. */
  triggers: GcTrigger[];
}

/**
 * A finding's type evidence as one line, "System.Byte[] (SOH) 11.5 GB, System.String 288 MB":
 * a type sampled on several heaps (small and large arrays of one type) names its heap, or the
 * list repeats a name with nothing to tell the entries apart.
 */
export function typeListText(
  types: readonly { typeName: string; kind: 'small' | 'large' | 'pinned'; sampledBytes: number }[],
  size: (bytes: number) => string,
): string {
  const names = types.map((t) => t.typeName);
  const heap = { small: 'SOH', large: 'LOH', pinned: 'POH' } as const;
  return types
    .map((t) => `${t.typeName}${names.indexOf(t.typeName) !== names.lastIndexOf(t.typeName) ? ` (${heap[t.kind]})` : ''} ${size(t.sampledBytes)}`)
    .join(', ');
}
