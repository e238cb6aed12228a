/**
 * A heap walk's events → the object graph. With the GCHeapSnapshot keywords (0x1980001) the
 * runtime induces a blocking gen2 GC and, between its GCStart and GCEnd, writes every live object
 * (BulkNode), their references (BulkEdge), the roots (BulkRootEdge, BulkRootStaticVar,
 * BulkRootConditionalWeakTableElementEdge) and, once per type epoch, the type names (BulkType).
 * Layouts (heap-snapshots.md §2, checked on .NET 10 recordings; TraceEvent's ClrTraceEventParser):
 * Bulk headers are `Index u32, Count u32, ClrInstanceID u16` (BulkType: `Count u32, ClrInstanceID
 * u16`; BulkRootStaticVar: `Count u32, AppDomainID u64, ClrInstanceID u16`).
 *
 * Edges are paired with nodes by position: node k owns the next EdgeCount entries of the
 * concatenated BulkEdge stream. One lost event shifts every later edge onto the wrong object, so
 * an Index gap, a mismatch between ΣEdgeCount and the edges received, or a drop the reader counted
 * makes `finish` refuse the walk ('lost-events') rather than build a wrong graph.
 *
 * The graph mirrors PerfView's (DotNetHeapDumpGraphReader) so an exported .gcdump reads the same
 * in dotnet-gcdump: `[.NET Roots]` → `[static vars]` → `[static var Type.Field]`, `[local vars]`,
 * `[other roots]` → handle groups; a referenced address that was not walked (a null stack root)
 * is an UNDEFINED node. One difference: a ConditionalWeakTable value is kept by its key (an edge
 * key → value), not rooted, so it is retained by what retains the key.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import type { TraceConsumer } from '../trace/consumer.js';
import type { TraceEventRecord } from '../trace/model.js';
import { decodeCodeEvent } from '../clr/method-events.js';
import { RUNTIME } from '../clr/gc-events.js';
import { HeapWalkError } from './errors.js';
import { HeapGraphBuilder, type HeapGraph } from './graph.js';
import { ROOT_NAMES, staticRootName, type RootKind } from './roots.js';
import { clrToPerfViewName, displayName } from './type-names.js';

const EV = { gcStart: 1, gcEnd: 2, bulkType: 15, rootEdge: 16, rootCwt: 17, node: 18, edge: 19, rootStatic: 38 } as const;

/** GCRootKind and GCRootFlag (ClrEtwAll.man). */
const ROOT_KIND = { stack: 0, finalizer: 1, handle: 2 } as const;
const ROOT_FLAG = { pinning: 1, weak: 2, refCounted: 8 } as const;

class F64List {
  a = new Float64Array(1024);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export interface HeapWalkProgress {
  readonly objects: number;
  readonly bytes: number;
  readonly references: number;
  /** The walk's GCEnd was seen. */
  readonly complete: boolean;
}

export interface HeapWalkResult {
  readonly graph: HeapGraph;
  /** The induced GC's number (its GCStart Count). */
  readonly gcNumber: number;
  /** Objects whose type the walk never named (another session held the Type keyword). */
  readonly untypedObjects: number;
}

export class HeapWalkConsumer implements TraceConsumer {
  private gcNumber = -1;
  private state: 'waiting' | 'walking' | 'done' = 'waiting';
  private pointerSize = 8;
  // Nodes in walk order.
  private nodeAddr = new F64List();
  private nodeSize = new F64List();
  private nodeTypeId = new F64List();
  private nodeEdges = new F64List();
  private edgeTarget = new F64List();
  private expectedEdges = 0;
  private totalBytes = 0;
  private readonly nextIndex = new Map<string, number>();
  private gap: string | undefined;
  private readonly roots: { kind: RootKind; address: number }[] = [];
  private readonly statics: { typeId: number; field: string; object: number; threadLocal: boolean }[] = [];
  private readonly cwt: { key: number; value: number }[] = [];
  private readonly types = new Map<number, { name: string; moduleId: number }>();
  private readonly modules = new Map<number, string>();

  constructor(private readonly onProgress?: (p: HeapWalkProgress) => void) {}

  get progress(): HeapWalkProgress {
    return { objects: this.nodeAddr.n, bytes: this.totalBytes, references: this.edgeTarget.n, complete: this.state === 'done' };
  }
  /** True once a heap walk started (its GCStart was seen). */
  get started(): boolean {
    return this.state !== 'waiting';
  }
  get complete(): boolean {
    return this.state === 'done';
  }

  onTrace(t: { pointerSize: number }): void {
    this.pointerSize = t.pointerSize;
  }

  onEvent(e: TraceEventRecord): void {
    const md = e.metadata;
    const code = decodeCodeEvent(e);
    if (code?.kind === 'module') {
      this.modules.set(code.moduleId, code.ilPath.length > 0 ? code.ilPath : code.nativePath);
      return;
    }
    if (md.provider !== RUNTIME) return;
    const c = new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
    switch (md.eventId) {
      case EV.bulkType:
        this.bulkType(c);
        return;
      case EV.gcStart: {
        if (this.state !== 'waiting') return;
        const count = c.u32();
        const depth = c.u32();
        c.u32(); // reason
        const type = c.remaining >= 4 ? c.u32() : 0;
        // The first blocking gen2 (Type 1 is a background GC, which does not walk the heap).
        if (depth === 2 && type !== 1) {
          this.gcNumber = count;
          this.state = 'walking';
        }
        return;
      }
      case EV.gcEnd: {
        if (this.state === 'walking' && c.u32() === this.gcNumber) {
          // A gen2 GC with no object in it was not a heap walk (a trace recorded without the
          // heap-dump keywords, or an earlier GC than the walked one): wait for the next.
          if (this.nodeAddr.n === 0) {
            this.state = 'waiting';
            this.nextIndex.clear();
            this.roots.length = 0;
            this.statics.length = 0;
            this.cwt.length = 0;
            return;
          }
          this.state = 'done';
          this.onProgress?.(this.progress);
        }
        return;
      }
    }
    if (this.state !== 'walking') return;
    const p = this.pointerSize;
    switch (md.eventId) {
      case EV.node: {
        const count = this.header(c, 'BulkNode');
        for (let i = 0; i < count; i++) {
          this.nodeAddr.push(c.ptr(p));
          const size = c.u64();
          this.nodeSize.push(size);
          this.totalBytes += size;
          this.nodeTypeId.push(c.u64());
          const edges = c.u64();
          this.nodeEdges.push(edges);
          this.expectedEdges += edges;
        }
        this.onProgress?.(this.progress);
        return;
      }
      case EV.edge: {
        const count = this.header(c, 'BulkEdge');
        for (let i = 0; i < count; i++) {
          this.edgeTarget.push(c.ptr(p));
          c.u32(); // ReferencingFieldID (always 0)
        }
        return;
      }
      case EV.rootEdge: {
        const count = this.header(c, 'BulkRootEdge');
        for (let i = 0; i < count; i++) {
          const address = c.ptr(p);
          const kind = c.u8();
          const flags = c.u32();
          c.ptr(p); // GCRootID
          if ((flags & ROOT_FLAG.weak) !== 0) continue; // weak handles keep nothing alive
          let k: RootKind;
          if (kind === ROOT_KIND.stack) k = 'stack';
          else if ((flags & ROOT_FLAG.refCounted) !== 0) k = 'com';
          else if (kind === ROOT_KIND.finalizer) k = 'finalizer';
          else if (kind === ROOT_KIND.handle) k = flags === ROOT_FLAG.pinning ? 'pinned-handle' : 'strong-handle';
          else k = 'other-handle';
          this.roots.push({ kind: k, address });
        }
        return;
      }
      case EV.rootCwt: {
        const count = this.header(c, 'BulkRootConditionalWeakTableElementEdge');
        for (let i = 0; i < count; i++) {
          const key = c.ptr(p);
          const value = c.ptr(p);
          c.ptr(p);
          if (key !== 0) this.cwt.push({ key, value });
        }
        return;
      }
      case EV.rootStatic: {
        const count = c.u32();
        c.u64(); // AppDomainID
        c.u16();
        for (let i = 0; i < count; i++) {
          c.u64(); // GCRootID
          const object = c.u64();
          const typeId = c.u64();
          const flags = c.u32();
          const field = c.utf16z();
          this.statics.push({ typeId, field, object, threadLocal: (flags & 1) !== 0 });
        }
        return;
      }
    }
  }

  /** A Bulk header; an Index that is not the next one means an event was lost. */
  private header(c: ByteCursor, what: string): number {
    const index = c.u32();
    const count = c.u32();
    c.u16();
    const id = what; // one Index sequence per event kind
    const expected = this.nextIndex.get(id) ?? 0;
    if (index !== expected && this.gap === undefined) this.gap = `${what} event ${expected} is missing (the next one has Index ${index})`;
    this.nextIndex.set(id, index + 1);
    return count;
  }

  private bulkType(c: ByteCursor): void {
    const count = c.u32();
    c.u16();
    for (let i = 0; i < count; i++) {
      const typeId = c.u64();
      const moduleId = c.u64();
      const nameId = c.u32();
      const flags = c.u32();
      c.u8(); // CorElementType
      let name = c.utf16z();
      const params = c.u32();
      c.skip(params * 8);
      if (name.length === 0) name = `${(flags & 0x8) !== 0 ? 'ArrayType' : 'Type'}(0x${nameId.toString(16)})`;
      this.types.set(typeId, { name: clrToPerfViewName(name), moduleId });
    }
  }

  /**
   * The graph, or a 'lost-events' error saying what was lost and what to change. `droppedEvents`
   * is what the reader or the session counted as dropped.
   */
  build(droppedEvents: number): HeapWalkResult {
    if (this.state === 'waiting')
      throw new HeapWalkError('no-walk', 'the trace holds no heap walk (no gen2 GC with heap-dump events: record with the keywords 0x1980001 at level 5)');
    if (this.state === 'walking')
      throw new HeapWalkError(
        'unfinished-walk',
        'the trace holds the start of a heap walk but not its end (its GC never ended in the trace): record until the walk completes',
      );
    const advice = 'the graph would be wrong, so it is not shown; give the session a bigger buffer (gcscope snapshot --buffer-mb) or snapshot a smaller heap';
    if (droppedEvents > 0)
      throw new HeapWalkError('lost-events', `${droppedEvents.toLocaleString('en-US')} events were dropped during the heap walk: ${advice}`);
    if (this.gap !== undefined) throw new HeapWalkError('lost-events', `${this.gap}: ${advice}`);
    if (this.expectedEdges !== this.edgeTarget.n)
      throw new HeapWalkError('lost-events', `the walk's objects have ${this.expectedEdges} references but ${this.edgeTarget.n} arrived: ${advice}`);
    return this.assemble();
  }

  private assemble(): HeapWalkResult {
    const n = this.nodeAddr.n;
    const addr = this.nodeAddr.a;
    // Address → node index: open addressing over typed arrays (addresses are 8-aligned, < 2^53).
    let cap = 1;
    while (cap < n * 2 + 2) cap <<= 1;
    const keys = new Float64Array(cap);
    const vals = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    const slot = (a: number): number => {
      const lo = (a % 4294967296) | 0;
      const hi = (a / 4294967296) | 0;
      let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
      h ^= h >>> 15;
      let s = h & mask;
      while (vals[s] !== -1 && keys[s] !== a) s = (s + 1) & mask;
      return s;
    };
    for (let i = 0; i < n; i++) {
      const s = slot(addr[i]!);
      if (vals[s] === -1) {
        keys[s] = addr[i]!;
        vals[s] = i;
      }
    }
    const b = new HeapGraphBuilder(true);
    // Types.
    const typeIndex = new Map<number, number>();
    let untypedObjects = 0;
    const typeOf = (typeId: number): number => {
      let t = typeIndex.get(typeId);
      if (t === undefined) {
        const bt = this.types.get(typeId);
        const fullName = bt?.name ?? 'UNKNOWN';
        const module = bt !== undefined ? (this.modules.get(bt.moduleId) ?? `Module(0x${bt.moduleId.toString(16)})`) : '';
        t = b.type({ fullName, name: displayName(fullName), module });
        typeIndex.set(typeId, t);
      }
      return t;
    };
    // Node indexes: objects 0..n-1 in walk order, then undefined nodes (referenced, never walked),
    // then the root pseudo-nodes.
    const undefinedAt = new Map<number, number>();
    let next = n;
    const indexOf = (a: number): number => {
      const s = slot(a);
      if (vals[s] !== -1) return vals[s]!;
      let u = undefinedAt.get(a);
      if (u === undefined) undefinedAt.set(a, (u = next++));
      return u;
    };
    const extra = new Map<number, number[]>();
    for (const { key, value } of this.cwt) {
      const s = slot(key);
      if (vals[s] === -1) {
        // The key was not walked: keep the value alive as PerfView does, from a dependent-handle root.
        this.roots.push({ kind: 'dependent-handle', address: value });
        continue;
      }
      const list = extra.get(vals[s]!) ?? [];
      list.push(indexOf(value));
      extra.set(vals[s]!, list);
    }
    // Resolve every edge target first (indexes of undefined nodes are handed out here).
    const targets = new Uint32Array(this.edgeTarget.n);
    for (let i = 0; i < targets.length; i++) targets[i] = indexOf(this.edgeTarget.a[i]!);
    const rootTargets = this.roots.map((r) => indexOf(r.address));
    const staticTargets = this.statics.map((s) => indexOf(s.object));

    let e = 0;
    for (let i = 0; i < n; i++) {
      const typeId = this.nodeTypeId.a[i]!;
      if (!this.types.has(typeId)) untypedObjects++;
      b.node(typeOf(typeId), this.nodeSize.a[i]!, addr[i]!);
      for (let k = this.nodeEdges.a[i]!; k > 0; k--) b.child(targets[e++]!);
      const x = extra.get(i);
      if (x !== undefined) for (const v of x) b.child(v);
    }
    const undefinedType = b.type({ fullName: 'UNDEFINED', name: 'UNDEFINED', module: '', root: 'undefined' });
    for (const [a] of undefinedAt) b.node(undefinedType, 0, a);

    // Root pseudo-nodes: [.NET Roots] and below it, in PerfView's names.
    const pseudo = (name: string, kind: RootKind): number => b.type({ fullName: name, name, module: '', root: kind });
    const groups: { name: string; kind: RootKind; parent: string; children: number[] }[] = [];
    const group = (name: string, kind: RootKind, parent: string): { children: number[] } => {
      let g = groups.find((x) => x.name === name);
      if (g === undefined) groups.push((g = { name, kind, parent, children: [] }));
      return g;
    };
    const ROOT = ROOT_NAMES.root;
    this.roots.forEach((r, i) => {
      const name =
        r.kind === 'stack'
          ? ROOT_NAMES.localVars
          : r.kind === 'com'
            ? ROOT_NAMES.com
            : r.kind === 'finalizer'
              ? ROOT_NAMES.finalizer
              : r.kind === 'pinned-handle'
                ? ROOT_NAMES.pinning
                : r.kind === 'strong-handle'
                  ? ROOT_NAMES.strong
                  : r.kind === 'dependent-handle'
                    ? ROOT_NAMES.dependent
                    : ROOT_NAMES.other;
      group(name, r.kind, r.kind === 'stack' ? ROOT : ROOT_NAMES.otherRoots).children.push(rootTargets[i]!);
    });
    this.statics.forEach((s, i) => {
      const typeName = this.types.get(s.typeId)?.name ?? `Type(0x${s.typeId.toString(16)})`;
      group(
        staticRootName(typeName, s.field),
        s.threadLocal ? 'thread-static' : 'static',
        s.threadLocal ? ROOT_NAMES.threadStaticVars : ROOT_NAMES.staticVars,
      ).children.push(staticTargets[i]!);
    });
    // Intermediate groups exist when something hangs below them.
    const parents = new Set(groups.map((g) => g.parent));
    for (const p of [ROOT_NAMES.staticVars, ROOT_NAMES.threadStaticVars, ROOT_NAMES.otherRoots])
      if (parents.has(p)) groups.push({ name: p, kind: 'group', parent: ROOT, children: [] });
    // Indexes: the root first, then groups in order.
    const rootIndex = next;
    const indexOfGroup = new Map<string, number>();
    groups.forEach((g, i) => indexOfGroup.set(g.name, rootIndex + 1 + i));
    b.node(pseudo(ROOT, 'root'), 0);
    for (const g of groups) if (g.parent === ROOT) b.child(indexOfGroup.get(g.name)!);
    for (const g of groups) {
      b.node(pseudo(g.name, g.kind), 0);
      for (const c of g.children) b.child(c);
      for (const h of groups) if (h.parent === g.name) b.child(indexOfGroup.get(h.name)!);
    }
    const graph = b.finish(rootIndex, this.expectedEdges);
    return { graph, gcNumber: this.gcNumber, untypedObjects };
  }
}
