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
import { AddressIndex, IdMap } from './address-index.js';
import { HeapTypeTable, type HeapGraph } from './graph.js';
import { ROOT_NAMES, staticRootName, type RootKind } from './roots.js';
import { clrToPerfViewName, displayName } from './type-names.js';

const EV = { gcStart: 1, gcEnd: 2, bulkType: 15, rootEdge: 16, rootCwt: 17, node: 18, edge: 19, rootStatic: 38 } as const;

/** GCRootKind and GCRootFlag (ClrEtwAll.man). */
const ROOT_KIND = { stack: 0, finalizer: 1, handle: 2 } as const;
const ROOT_FLAG = { pinning: 1, weak: 2, refCounted: 8 } as const;

const TWO_32 = 4294967296;

/** Typed arrays that double as a walk's objects and references arrive. */
class F64List {
  a = new Float64Array(1024);
  n = 0;
  /** Room for `k` more; returns the array to write a[n .. n+k) into. */
  reserve(k: number): Float64Array {
    if (this.n + k > this.a.length) {
      let len = this.a.length * 2;
      while (len < this.n + k) len *= 2;
      const b = new Float64Array(len);
      b.set(this.a.subarray(0, this.n));
      this.a = b;
    }
    return this.a;
  }
}
class U32List {
  a = new Uint32Array(1024);
  n = 0;
  reserve(k: number): Uint32Array {
    if (this.n + k > this.a.length) {
      let len = this.a.length * 2;
      while (len < this.n + k) len *= 2;
      const b = new Uint32Array(len);
      b.set(this.a.subarray(0, this.n));
      this.a = b;
    }
    return this.a;
  }
}

export interface HeapWalkProgress {
  readonly objects: number;
  readonly bytes: number;
  readonly references: number;
  /** The walk's GCEnd was seen. */
  readonly complete: boolean;
}

/** A type as an earlier walk of the same process named it (heap/type-cache.ts): its name and module path. */
export interface KnownType {
  readonly name: string;
  readonly module: string;
}
/** Runtime type id (the MethodTable address) → what an earlier walk said of it. */
export type KnownTypes = ReadonlyMap<number, KnownType>;

export interface HeapWalkResult {
  readonly graph: HeapGraph;
  /** The induced GC's number (its GCStart Count). */
  readonly gcNumber: number;
  /**
   * Objects whose type neither the walk nor an earlier walk of the process named (the runtime
   * names each type once while the Type keyword stays enabled in any session: a recording's).
   */
  readonly untypedObjects: number;
  /** Node types named from the earlier walks' table, not by this walk. */
  readonly typesFromCache: number;
}

export class HeapWalkConsumer implements TraceConsumer {
  private gcNumber = -1;
  private state: 'waiting' | 'walking' | 'done' = 'waiting';
  private pointerSize = 8;
  // Nodes in walk order: address, size, type (an index into typeIds, given on first sight), edge count.
  private nodeAddr = new F64List();
  private nodeSize = new F64List();
  private nodeType = new U32List();
  private nodeEdges = new U32List();
  private edgeTarget = new F64List();
  /** The runtime's type id of each node type index. */
  private readonly typeIds = new IdMap();
  private typeIdOf: number[] = [];
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
        // Each node: Address (pointer), Size u64, TypeID u64, EdgeCount u64. A payload too short
        // for `count` nodes is read field by field so the error names the byte where it ends.
        const rec = p + 24;
        if (c.remaining < count * rec) {
          for (let i = 0; i < count; i++) {
            this.addNode(c.ptr(p), c.u64(), c.u64(), c.u64());
          }
        } else {
          const b = e.bytes;
          const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
          let off = e.payloadStart + c.pos;
          const addr = this.nodeAddr.reserve(count);
          const size = this.nodeSize.reserve(count);
          const type = this.nodeType.reserve(count);
          const edges = this.nodeEdges.reserve(count);
          let k = this.nodeAddr.n;
          let bytes = 0;
          let expected = 0;
          for (let i = 0; i < count; i++, k++, off += rec) {
            addr[k] = p === 8 ? dv.getUint32(off + 4, true) * TWO_32 + dv.getUint32(off, true) : dv.getUint32(off, true);
            const sz = dv.getUint32(off + p + 4, true) * TWO_32 + dv.getUint32(off + p, true);
            size[k] = sz;
            bytes += sz;
            type[k] = this.typeIndex(dv.getUint32(off + p + 12, true) * TWO_32 + dv.getUint32(off + p + 8, true));
            const ec = dv.getUint32(off + p + 20, true) * TWO_32 + dv.getUint32(off + p + 16, true);
            edges[k] = Math.min(ec, 0xffffffff);
            expected += ec;
          }
          c.skip(count * rec);
          this.nodeAddr.n = this.nodeSize.n = this.nodeType.n = this.nodeEdges.n = k;
          this.totalBytes += bytes;
          this.expectedEdges += expected;
        }
        this.onProgress?.(this.progress);
        return;
      }
      case EV.edge: {
        const count = this.header(c, 'BulkEdge');
        // Each edge: Value (pointer), ReferencingFieldID u32 (always 0).
        const rec = p + 4;
        if (c.remaining < count * rec) {
          for (let i = 0; i < count; i++) {
            const t = c.ptr(p);
            c.u32();
            this.edgeTarget.reserve(1)[this.edgeTarget.n++] = t;
          }
        } else {
          const b = e.bytes;
          const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
          let off = e.payloadStart + c.pos;
          const t = this.edgeTarget.reserve(count);
          let k = this.edgeTarget.n;
          if (p === 8) for (let i = 0; i < count; i++, off += rec) t[k++] = dv.getUint32(off + 4, true) * TWO_32 + dv.getUint32(off, true);
          else for (let i = 0; i < count; i++, off += rec) t[k++] = dv.getUint32(off, true);
          c.skip(count * rec);
          this.edgeTarget.n = k;
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

  private addNode(address: number, size: number, typeId: number, edges: number): void {
    const k = this.nodeAddr.n;
    this.nodeAddr.reserve(1)[k] = address;
    this.nodeSize.reserve(1)[k] = size;
    this.nodeType.reserve(1)[k] = this.typeIndex(typeId);
    this.nodeEdges.reserve(1)[k] = Math.min(edges, 0xffffffff);
    this.nodeAddr.n = this.nodeSize.n = this.nodeType.n = this.nodeEdges.n = k + 1;
    this.totalBytes += size;
    this.expectedEdges += edges;
  }

  private typeIndex(typeId: number): number {
    const t = this.typeIds.index(typeId);
    if (t === this.typeIdOf.length) this.typeIdOf.push(typeId);
    return t;
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
  build(droppedEvents: number, known?: KnownTypes): HeapWalkResult {
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
    return this.assemble(known);
  }

  /** The types this walk named (BulkType), with their module paths: what a later walk of the same process may not be told again. */
  describedTypes(): Map<number, KnownType> {
    const out = new Map<number, KnownType>();
    for (const [typeId, t] of this.types) out.set(typeId, { name: t.name, module: this.moduleName(t.moduleId) });
    return out;
  }

  private moduleName(moduleId: number): string {
    return this.modules.get(moduleId) ?? `Module(0x${moduleId.toString(16)})`;
  }

  /**
   * The graph in one pass per array, no per-object allocation: objects 0..n-1 in walk order (their
   * edges are the BulkEdge stream in the same order, so `children` is it with each address
   * resolved), then undefined nodes (referenced, never walked), then the root pseudo-nodes.
   */
  private assemble(known: KnownTypes | undefined): HeapWalkResult {
    const n = this.nodeAddr.n;
    const addr = this.nodeAddr.a;
    const index = new AddressIndex(addr, n);
    // Undefined nodes: addresses referenced but not walked (a null stack root), numbered from n
    // in the order they are first met: CWT values, edges, roots, statics.
    const undefinedAt = new Map<number, number>();
    let next = n;
    const indexOf = (a: number): number => {
      const v = index.find(a);
      if (v !== -1) return v;
      let u = undefinedAt.get(a);
      if (u === undefined) undefinedAt.set(a, (u = next++));
      return u;
    };
    // A ConditionalWeakTable value is kept by its key: an edge key → value after the key's own.
    const extraFrom: number[] = [];
    const extraTo: number[] = [];
    for (const { key, value } of this.cwt) {
      const k = index.find(key);
      if (k === -1) {
        // The key was not walked: keep the value alive as PerfView does, from a dependent-handle root.
        this.roots.push({ kind: 'dependent-handle', address: value });
        continue;
      }
      extraFrom.push(k);
      extraTo.push(indexOf(value));
    }
    // By key node, in CWT order for one key (a stable sort of a few thousand pairs).
    const extraOrder = extraFrom.map((_, i) => i).sort((x, y) => extraFrom[x]! - extraFrom[y]! || x - y);

    // Root pseudo-nodes: [.NET Roots] and below it, in PerfView's names.
    const groups: { name: string; kind: RootKind; parent: string; members: number[] }[] = [];
    const byName = new Map<string, number>();
    const group = (name: string, kind: RootKind, parent: string): number[] => {
      let i = byName.get(name);
      if (i === undefined) {
        byName.set(name, (i = groups.length));
        groups.push({ name, kind, parent, members: [] });
      }
      return groups[i]!.members;
    };
    const ROOT = ROOT_NAMES.root;
    const rootGroup = (k: RootKind): string =>
      k === 'stack'
        ? ROOT_NAMES.localVars
        : k === 'com'
          ? ROOT_NAMES.com
          : k === 'finalizer'
            ? ROOT_NAMES.finalizer
            : k === 'pinned-handle'
              ? ROOT_NAMES.pinning
              : k === 'strong-handle'
                ? ROOT_NAMES.strong
                : k === 'dependent-handle'
                  ? ROOT_NAMES.dependent
                  : ROOT_NAMES.other;
    // Members are resolved after the objects' edges (undefined nodes keep the order above).
    const rootMember: { list: number[]; at: number }[] = [];
    for (const r of this.roots) {
      const list = group(rootGroup(r.kind), r.kind, r.kind === 'stack' ? ROOT : ROOT_NAMES.otherRoots);
      rootMember.push({ list, at: list.push(0) - 1 });
    }
    const staticMember: { list: number[]; at: number }[] = [];
    for (const st of this.statics) {
      const typeName = this.types.get(st.typeId)?.name ?? known?.get(st.typeId)?.name ?? `Type(0x${st.typeId.toString(16)})`;
      const list = group(
        staticRootName(typeName, st.field),
        st.threadLocal ? 'thread-static' : 'static',
        st.threadLocal ? ROOT_NAMES.threadStaticVars : ROOT_NAMES.staticVars,
      );
      staticMember.push({ list, at: list.push(0) - 1 });
    }
    // Intermediate groups exist when something hangs below them.
    const parents = new Set(groups.map((g) => g.parent));
    for (const p of [ROOT_NAMES.staticVars, ROOT_NAMES.threadStaticVars, ROOT_NAMES.otherRoots]) if (parents.has(p)) group(p, 'group', ROOT);

    // Objects' children, straight into the graph's array.
    const objectEdges = this.edgeTarget.n + extraFrom.length;
    let pseudoEdges = groups.length;
    for (const g of groups) pseudoEdges += g.members.length;
    const children = new Uint32Array(objectEdges + pseudoEdges);
    const objFirst = new Uint32Array(n + 1);
    const edgeCount = this.nodeEdges.a;
    const target = this.edgeTarget.a;
    let e = 0;
    let pos = 0;
    let x = 0;
    for (let i = 0; i < n; i++) {
      objFirst[i] = pos;
      for (let end = e + edgeCount[i]!; e < end; e++) {
        const a = target[e]!;
        const v = index.find(a);
        children[pos++] = v !== -1 ? v : indexOf(a);
      }
      while (x < extraOrder.length && extraFrom[extraOrder[x]!] === i) children[pos++] = extraTo[extraOrder[x++]!]!;
    }
    objFirst[n] = pos;
    this.roots.forEach((r, i) => (rootMember[i]!.list[rootMember[i]!.at] = indexOf(r.address)));
    this.statics.forEach((st, i) => (staticMember[i]!.list[staticMember[i]!.at] = indexOf(st.object)));

    // Types: object types in the order the walk met them, then UNDEFINED, then the roots'.
    const table = new HeapTypeTable();
    const local = this.typeIdOf;
    const typeOfLocal = new Uint32Array(local.length);
    const typed = new Uint8Array(local.length);
    let typesFromCache = 0;
    local.forEach((typeId, t) => {
      const bt = this.types.get(typeId);
      // This walk's BulkType first; else what an earlier walk of the process said (a type the
      // runtime already named in this type-keyword epoch is not named again).
      const kt = bt === undefined ? known?.get(typeId) : undefined;
      if (kt !== undefined) typesFromCache++;
      if (bt !== undefined || kt !== undefined) typed[t] = 1;
      const fullName = bt?.name ?? kt?.name ?? 'UNKNOWN';
      const module = bt !== undefined ? this.moduleName(bt.moduleId) : (kt?.module ?? '');
      typeOfLocal[t] = table.type({ fullName, name: displayName(fullName), module });
    });
    const undefinedType = table.type({ fullName: 'UNDEFINED', name: 'UNDEFINED', module: '', root: 'undefined' });

    const rootIndex = next;
    const total = rootIndex + 1 + groups.length;
    const nodeType = new Uint32Array(total);
    const nodeSize = new Float64Array(total);
    const address = new Float64Array(total);
    const firstChild = new Uint32Array(total + 1);
    const srcType = this.nodeType.a;
    let untypedObjects = 0;
    for (let i = 0; i < n; i++) {
      const t = srcType[i]!;
      nodeType[i] = typeOfLocal[t]!;
      untypedObjects += 1 - typed[t]!;
    }
    nodeSize.set(this.nodeSize.a.subarray(0, n));
    address.set(addr.subarray(0, n));
    firstChild.set(objFirst);
    for (const [a, u] of undefinedAt) {
      nodeType[u] = undefinedType;
      address[u] = a;
      firstChild[u + 1] = pos;
    }
    // Indexes: the root first, then groups in order; each group's members, then its subgroups.
    const pseudo = (name: string, kind: RootKind): number => table.type({ fullName: name, name, module: '', root: kind });
    nodeType[rootIndex] = pseudo(ROOT, 'root');
    groups.forEach((g, i) => {
      if (g.parent === ROOT) children[pos++] = rootIndex + 1 + i;
    });
    firstChild[rootIndex + 1] = pos;
    groups.forEach((g, i) => {
      nodeType[rootIndex + 1 + i] = pseudo(g.name, g.kind);
      for (const c of g.members) children[pos++] = c;
      groups.forEach((h, j) => {
        if (h.parent === g.name) children[pos++] = rootIndex + 1 + j;
      });
      firstChild[rootIndex + 2 + i] = pos;
    });
    const graph: HeapGraph = {
      nodeCount: total,
      root: rootIndex,
      types: table.types,
      nodeType,
      nodeSize,
      firstChild,
      children: children.subarray(0, pos),
      address,
      references: this.expectedEdges,
    };
    return { graph, gcNumber: this.gcNumber, untypedObjects, typesFromCache };
  }
}
