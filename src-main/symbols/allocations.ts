/**
 * Who caused it, computed from collected stack events (stack-events.ts): allocations by type for
 * a time range, a call tree over allocation stacks (top-down or bottom-up, with search), and the
 * stack that triggered each GC. Frames resolve through the method map when asked, so methods
 * known only from the final rundown name frames seen earlier. Pure.
 */
import {
  ALLOCATION_KIND_NAMES,
  callerOf,
  isModuleFrameName,
  unresolvedFrameName,
  type AllocationKindName,
  type AllocationsSummary,
  type AllocationTypeRow,
  type CallTreeNode,
  type GcTrigger,
  type StackResolution,
  type StackWeight,
  type WhoCausedIt,
} from '../shared/allocations.js';
import type { HandleEventName, StackData, StackEvents } from './stack-events.js';

/** A time range in ms from the trace start; both ends inclusive. Undefined: the whole trace. */
export interface MsecRange {
  from: number;
  to: number;
}

/** Resolves frame ids to names once per frame. */
export class FrameNames {
  private readonly names: (string | undefined)[] = [];
  unresolved = 0;
  resolved = 0;
  /** Frames named only by their native image (`module!0xRVA`); counted in `resolved` too. */
  inModules = 0;

  constructor(private readonly data: StackData) {}

  name(frame: number): string {
    let n = this.names[frame];
    if (n === undefined) {
      const m = this.data.frameName(frame);
      if (m === undefined) this.unresolved++;
      else {
        this.resolved++;
        if (isModuleFrameName(m)) this.inModules++;
      }
      n = m ?? unresolvedFrameName(this.data.stacks.frameAddresses[frame]!);
      this.names[frame] = n;
    }
    return n;
  }
}

function kindName(k: number): AllocationKindName {
  return ALLOCATION_KIND_NAMES[k] ?? 'small';
}

function inRange(t: number, r: MsecRange | undefined): boolean {
  return r === undefined || (t >= r.from && t <= r.to);
}

/**
 * Allocation by type (and kind) over a range, largest sampled bytes first. `keep` narrows the
 * samples (a call-tree search); shares stay of every sample in the range, so a narrowed table
 * reads against the same whole as the full one.
 */
export function allocationsByType(ev: StackData, range?: MsecRange, keep?: (tick: number) => boolean): AllocationTypeRow[] {
  const rows = new Map<string, AllocationTypeRow>();
  const hasSize = ev.tickVersion >= 4;
  let total = 0;
  for (let i = 0; i < ev.tickCount; i++) {
    if (!inRange(ev.tickTime[i]!, range)) continue;
    total += ev.tickAmount[i]!;
    if (keep !== undefined && !keep(i)) continue;
    const typeName = ev.typeNames[ev.tickType[i]!] || '(type not recorded: AllocationTick before V2)';
    const kind = kindName(ev.tickKind[i]!);
    const key = `${kind}\0${typeName}`;
    let r = rows.get(key);
    if (r === undefined) {
      r = { typeName, kind, ticks: 0, sampledBytes: 0, objectBytes: hasSize ? 0 : null, share: 0 };
      rows.set(key, r);
    }
    r.ticks += ev.tickSamples?.[i] ?? 1;
    r.sampledBytes += ev.tickAmount[i]!;
    if (r.objectBytes !== null) r.objectBytes += ev.tickObjectSize[i]!;
  }
  const out = [...rows.values()];
  for (const r of out) r.share = total > 0 ? r.sampledBytes / total : 0;
  return out.sort((a, b) => b.sampledBytes - a.sampledBytes || (a.typeName < b.typeName ? -1 : 1));
}

export interface CallTreeOptions {
  range?: MsecRange;
  /** 'top-down': outermost caller at the root; 'bottom-up': the allocating frame at the root. */
  direction: 'top-down' | 'bottom-up';
  /** Only ticks of this kind (e.g. 'large' for LOH allocation stacks). */
  kind?: AllocationKindName;
  /** Only ticks of this type. */
  typeName?: string;
  /** Only stacks with a frame whose name contains this text (case-insensitive). */
  search?: string;
  /** Children below this share of the root's bytes are folded into "(other)" (default 0: keep all). */
  minShare?: number;
}

interface Building {
  name: string;
  totalBytes: number;
  selfBytes: number;
  ticks: number;
  children: Map<string, Building>;
}

/** A call tree over the AllocationTick stacks, weighted by sampled bytes. */
export function allocationCallTree(ev: StackData, names: FrameNames, o: CallTreeOptions): CallTreeNode {
  const root: Building = { name: 'all allocations', totalBytes: 0, selfBytes: 0, ticks: 0, children: new Map() };
  const search = o.search?.toLowerCase();
  const searching = search !== undefined && search !== '';
  const matches = new Map<number, boolean>();
  /** Whether a tick's stack has a frame whose name contains the search (always, without one). */
  const matchesSearch = (i: number): boolean => {
    if (!searching) return true;
    const sid = ev.tickStack[i]!;
    let m = matches.get(sid);
    if (m === undefined) {
      m = false;
      for (const f of ev.stacks.stacks[sid]!) if (names.name(f).toLowerCase().includes(search)) m = true;
      matches.set(sid, m);
    }
    return m;
  };
  for (let i = 0; i < ev.tickCount; i++) {
    if (!inRange(ev.tickTime[i]!, o.range)) continue;
    if (o.kind !== undefined && kindName(ev.tickKind[i]!) !== o.kind) continue;
    if (o.typeName !== undefined && ev.typeNames[ev.tickType[i]!] !== o.typeName) continue;
    if (!matchesSearch(i)) continue;
    const frames = ev.stacks.stacks[ev.tickStack[i]!]!;
    const w = ev.tickAmount[i]!;
    root.totalBytes += w;
    const n0 = ev.tickSamples?.[i] ?? 1;
    root.ticks += n0;
    let node = root;
    const n = frames.length;
    // Stacks are innermost first: top-down walks them from the end.
    for (let k = 0; k < n; k++) {
      const f = frames[o.direction === 'top-down' ? n - 1 - k : k]!;
      const name = names.name(f);
      let child = node.children.get(name);
      if (child === undefined) {
        child = { name, totalBytes: 0, selfBytes: 0, ticks: 0, children: new Map() };
        node.children.set(name, child);
      }
      child.totalBytes += w;
      child.ticks += n0;
      node = child;
    }
    if (n === 0) {
      let none = root.children.get('(no stack)');
      if (none === undefined) {
        none = { name: '(no stack)', totalBytes: 0, selfBytes: 0, ticks: 0, children: new Map() };
        root.children.set('(no stack)', none);
      }
      none.totalBytes += w;
      none.ticks += n0;
      node = none;
    }
    node.selfBytes += w;
  }
  // The types table follows the search too: the same samples by type (every kind and type —
  // the table filters the heap itself, and a picked type must not hide the others).
  const matchingTypes = searching ? allocationsByType(ev, o.range, matchesSearch) : undefined;
  const min = (o.minShare ?? 0) * root.totalBytes;
  const finish = (b: Building): CallTreeNode => {
    const kids = [...b.children.values()].sort((x, y) => y.totalBytes - x.totalBytes);
    const kept = kids.filter((k) => k.totalBytes >= min);
    const folded = kids.filter((k) => k.totalBytes < min);
    const children = kept.map(finish);
    if (folded.length > 0) {
      const bytes = folded.reduce((s, k) => s + k.totalBytes, 0);
      children.push({
        name: `(other: ${folded.length} smaller)`,
        totalBytes: bytes,
        selfBytes: bytes,
        ticks: folded.reduce((s, k) => s + k.ticks, 0),
        children: [],
      });
    }
    return { name: b.name, totalBytes: b.totalBytes, selfBytes: b.selfBytes, ticks: b.ticks, children };
  };
  const tree = finish(root);
  return matchingTypes !== undefined ? { ...tree, matchingTypes } : tree;
}

/** Frame names of a stack id, innermost first. */
export function stackFrames(ev: StackData, names: FrameNames, stack: number): string[] {
  return Array.from(ev.stacks.stacks[stack] ?? [], (f) => names.name(f));
}

/**
 * The GC/Triggered event of each GC: the last one at or before the GC's start and after the
 * previous GC's start (the runtime fires it on the triggering thread just before GCStart).
 */
export function gcTriggers(ev: StackData, names: FrameNames, gcs: readonly { number: number; startMSec: number }[]): GcTrigger[] {
  const out: GcTrigger[] = [];
  const t = ev.triggers;
  let i = 0;
  let prevStart = -Infinity;
  for (const gc of gcs) {
    let found: (typeof t)[number] | undefined;
    while (i < t.length && t[i]!.timeMSec <= gc.startMSec) {
      if (t[i]!.timeMSec > prevStart) found = t[i];
      i++;
    }
    prevStart = gc.startMSec;
    if (found === undefined) continue;
    const frames = stackFrames(ev, names, found.stack);
    out.push({ gcNumber: gc.number, timeMSec: found.timeMSec, frames, caller: callerOf(frames) });
  }
  return out;
}

/** How well the stacks used resolved, with a sentence on why some did not. */
export function stackResolution(ev: StackData, names: FrameNames): StackResolution {
  const frames = names.resolved + names.unresolved;
  const m = ev.methodCounts;
  let note: string | null = null;
  if (frames > 0 && m.total === 0) {
    note =
      "The trace has no method load or rundown events, so frames show as addresses. Record with stacks and the rundown (GCScope's gc-verbose profile; dotnet-trace does a rundown by default).";
  } else if (names.unresolved > 0 || names.inModules > 0) {
    const parts: string[] = [];
    if (names.inModules > 0)
      parts.push(
        `${names.inModules} of ${frames} frames fall in no method the trace describes but in a native image it places (the runtime, NGEN or ready-to-run images, the OS): they show as module!0xRVA; naming the method would need that module's symbols`,
      );
    if (names.unresolved > 0)
      parts.push(
        `${names.unresolved} of ${frames} frames fall in no method the trace describes${names.inModules > 0 ? ' and no image' : ''}: native runtime code, or methods that ran before recording started and had no rundown at the end. They show as addresses; resolving them would need the runtime's native symbols`,
      );
    note = parts.join('. ') + '.';
  }
  return {
    frames,
    unresolvedFrames: names.unresolved,
    ...(names.inModules > 0 ? { moduleFrames: names.inModules } : {}),
    methodsFromLoadEvents: m.load,
    methodsFromRundown: m.rundown,
    note,
  };
}

/** The allocations summary for a range: by type, totals and how stacks resolved. */
export function allocationsSummary(ev: StackData, range?: MsecRange, names = new FrameNames(ev)): AllocationsSummary {
  const byType = allocationsByType(ev, range);
  let ticks = 0;
  let sampledBytes = 0;
  let withStacks = 0;
  for (let i = 0; i < ev.tickCount; i++) {
    if (!inRange(ev.tickTime[i]!, range)) continue;
    const n = ev.tickSamples?.[i] ?? 1;
    ticks += n;
    sampledBytes += ev.tickAmount[i]!;
    const s = ev.tickStack[i]!;
    if (s !== 0) {
      withStacks += n;
      for (const f of ev.stacks.stacks[s]!) names.name(f);
    }
  }
  const v4 = ev.tickVersion >= 4;
  return {
    ticks,
    sampledBytes,
    sizeSource: v4 ? 'object-size' : 'sample-amount',
    sizeNote: v4
      ? "Sampled bytes: each AllocationTick stands for about 100 KB allocated, counted for the type of the object that crossed the mark. The trace is AllocationTick V4 (.NET 8+), so the sampled objects' own sizes are shown too."
      : "Sampled bytes: each AllocationTick stands for about 100 KB allocated, counted for the type of the object that crossed the mark. This runtime's AllocationTick (before V4, .NET 8) does not give the sampled object's size.",
    ticksWithStacks: withStacks,
    byType,
    resolution: stackResolution(ev, names),
  };
}

/**
 * The stacks accounting for most sampled bytes (optionally of one kind), heaviest first. Stacks
 * are merged by their frame names: two call sites in one method (or a method's tier-0 and tier-1
 * code) are one stack to a reader.
 */
export function topAllocationStacks(ev: StackData, names: FrameNames, o: { range?: MsecRange; kind?: AllocationKindName; limit: number }): StackWeight[] {
  const byId = new Map<number, { sampledBytes: number; ticks: number }>();
  for (let i = 0; i < ev.tickCount; i++) {
    if (!inRange(ev.tickTime[i]!, o.range)) continue;
    if (o.kind !== undefined && kindName(ev.tickKind[i]!) !== o.kind) continue;
    const s = ev.tickStack[i]!;
    const w = byId.get(s);
    const n = ev.tickSamples?.[i] ?? 1;
    if (w === undefined) byId.set(s, { sampledBytes: ev.tickAmount[i]!, ticks: n });
    else {
      w.sampledBytes += ev.tickAmount[i]!;
      w.ticks += n;
    }
  }
  const byName = new Map<string, StackWeight>();
  for (const [stack, w] of byId) {
    const frames = stackFrames(ev, names, stack);
    const key = frames.join('\n');
    const m = byName.get(key);
    if (m === undefined) byName.set(key, { frames, sampledBytes: w.sampledBytes, ticks: w.ticks });
    else {
      m.sampledBytes += w.sampledBytes;
      m.ticks += w.ticks;
    }
  }
  return [...byName.values()].sort((a, b) => b.sampledBytes - a.sampledBytes).slice(0, o.limit);
}

/** What a report says about who caused the GCs and allocations of a trace. */
export function whoCausedIt(ev: StackData, gcs: readonly { number: number; startMSec: number }[], range?: MsecRange): WhoCausedIt {
  const names = new FrameNames(ev);
  const triggers = gcTriggers(ev, names, gcs);
  const largeObjectStacks = topAllocationStacks(ev, names, { ...(range !== undefined ? { range } : {}), kind: 'large', limit: 5 });
  const topStacks = topAllocationStacks(ev, names, { ...(range !== undefined ? { range } : {}), limit: 10 });
  // The summary's resolution counts every frame named above, the triggers' included.
  const allocations = allocationsSummary(ev, range, names);
  return { allocations, largeObjectStacks, topStacks, triggers };
}

/**
 * The stacks that created pinned handles (GC/SetGCHandle of kind Pinned is not told apart here:
 * every SetGCHandle) and that held pinned objects at GC time (GC/PinObjectAtGCTime), by count,
 * heaviest first. Only a trace being read has them (sessions do not store handle events).
 */
export function handleStacks(ev: StackEvents, names: FrameNames, limit: number): { event: HandleEventName; frames: string[]; count: number }[] {
  const by = new Map<string, { event: HandleEventName; frames: string[]; count: number }>();
  for (const [key, count] of ev.handleCounts) {
    const event: HandleEventName = key % 2 === 1 ? 'SetGCHandle' : 'PinObjectAtGCTime';
    const frames = stackFrames(ev, names, Math.floor(key / 2));
    const k = `${event}\n${frames.join('\n')}`;
    const e = by.get(k);
    if (e === undefined) by.set(k, { event, frames, count });
    else e.count += count;
  }
  return [...by.values()].sort((a, b) => b.count - a.count).slice(0, limit);
}
