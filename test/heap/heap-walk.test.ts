/**
 * A heap walk's Bulk events → the graph (heap/heap-walk.ts), on hand-built events with the layouts
 * checked against .NET 10 recordings (heap-snapshots.md §2): roots of each kind, statics named
 * `[static var Type.Field]`, a ConditionalWeakTable value kept by its key, and walks with lost
 * events refused rather than shown wrong.
 */
import { describe, expect, it } from 'vitest';
import { HeapWalkConsumer } from '../../src-main/heap/heap-walk.js';
import { HeapWalkError } from '../../src-main/heap/errors.js';
import { HeapTypeCache, runtimeKey } from '../../src-main/heap/type-cache.js';
import { analyzeHeap, findTypes, pathsForTypes } from '../../src-main/heap/analysis.js';
import { Bytes } from '../helpers/nettrace-builder.js';
import { eventRecord } from '../helpers/event-record.js';

function utf16z(b: Bytes, s: string): Bytes {
  for (const ch of s) b.u16(ch.charCodeAt(0));
  return b.u16(0);
}

const T = { dict: 0x1000, customer: 0x2000, bytes: 0x3000, tag: 0x4000, cache: 0x5000 };
const MODULE = 0x7700;

function bulkType(types: [number, string][]): Bytes {
  const b = new Bytes().u32(types.length).u16(0);
  for (const [id, name] of types) {
    b.u64(id).u64(MODULE).u32(0).u32(0).u8(0);
    utf16z(b, name);
    b.u32(0);
  }
  return b;
}

/** Nodes: [address, size, typeId, edgeCount]. */
function bulkNode(index: number, nodes: [number, number, number, number][]): Bytes {
  const b = new Bytes().u32(index).u32(nodes.length).u16(0);
  for (const [a, size, type, edges] of nodes) b.u64(a).u64(size).u64(type).u64(edges);
  return b;
}

function bulkEdge(index: number, targets: number[]): Bytes {
  const b = new Bytes().u32(index).u32(targets.length).u16(0);
  for (const t of targets) b.u64(t).u32(0);
  return b;
}

/** Roots: [address, kind (0 stack, 1 finalizer, 2 handle), flags (1 pinning, 2 weak)]. */
function bulkRootEdge(index: number, roots: [number, number, number][]): Bytes {
  const b = new Bytes().u32(index).u32(roots.length).u16(0);
  for (const [a, kind, flags] of roots) b.u64(a).u8(kind).u32(flags).u64(0x9999);
  return b;
}

function gc(id: 1 | 2, count: number): Bytes {
  return id === 1 ? new Bytes().u32(count).u32(2).u32(1).u32(0).u16(0) : new Bytes().u32(count).u32(2).u16(0);
}

/**
 * A static `Cache.Items` → Dictionary → 2 customers (each with a byte[]); customer 1 also on a
 * thread's stack; a weak handle to customer 2 (keeps nothing); a CWT: key customer 1 → value Tag.
 */
function walk(o: { nodeIndex?: number; dropEdge?: boolean; types?: [number, string][] } = {}): HeapWalkConsumer {
  const c = new HeapWalkConsumer();
  c.onTrace({ pointerSize: 8 });
  const feed = (id: number, b: Bytes): void => c.onEvent(eventRecord(id, b));
  // A later walk while another session keeps the Type keyword on is told no (or few) types.
  const types = o.types ?? [
    [T.dict, 'System.Collections.Generic.Dictionary`2[System.Int32,Customer]'],
    [T.customer, 'Customer'],
    [T.bytes, 'System.Byte[]'],
    [T.tag, 'Tag'],
  ];
  if (types.length > 0) feed(15, bulkType(types));
  feed(1, gc(1, 7));
  feed(
    18,
    bulkNode(o.nodeIndex ?? 0, [
      [0xa0, 80, T.dict, 2],
      [0xb0, 48, T.customer, 1],
      [0xc0, 48, T.customer, 1],
      [0xd0, 124, T.bytes, 0],
      [0xe0, 124, T.bytes, 0],
      [0xf0, 24, T.tag, 0],
    ]),
  );
  feed(19, bulkEdge(0, o.dropEdge === true ? [0xb0, 0xc0, 0xd0] : [0xb0, 0xc0, 0xd0, 0xe0]));
  feed(
    16,
    bulkRootEdge(0, [
      [0xb0, 0, 0],
      [0xc0, 2, 2],
    ]),
  );
  feed(17, new Bytes().u32(0).u32(1).u16(0).u64(0xb0).u64(0xf0).u64(0x8888));
  const statics = new Bytes().u32(1).u64(1).u16(0).u64(0x5555).u64(0xa0).u64(T.dict).u32(0);
  utf16z(statics, 'Items');
  feed(38, statics);
  feed(2, gc(2, 7));
  return c;
}

describe('a heap walk becomes a graph', () => {
  it('with every object, its references, and roots of each kind', () => {
    const r = walk().build(0);
    const a = analyzeHeap(r.graph);
    expect(a.totals).toMatchObject({ objects: 6, bytes: 80 + 96 + 248 + 24, references: 4, unreachable: 0 });
    expect(r.gcNumber).toBe(7);
    const names = r.graph.types.map((t) => t.name);
    expect(names).toContain('[static var System.Collections.Generic.Dictionary<System.Int32,Customer>.Items]');
    expect(names).toContain('[local vars]');
    // The weak handle is not a root: no handle group at all.
    expect(names).not.toContain('[strong Handles]');
    expect(a.types.find((t) => t.name === 'Dictionary<int, Customer>')).toMatchObject({ count: 1, bytes: 80 });
  });

  it('keeps a ConditionalWeakTable value alive through its key, not as a root', () => {
    const a = analyzeHeap(walk().build(0).graph);
    // The Tag is retained by customer 1 (its key), which the stack and the dictionary both hold.
    const groups = pathsForTypes(
      a,
      findTypes(a, 'Tag').map((t) => t.type),
      5,
    );
    expect(groups[0]!.path.map((n) => n.name)).toEqual([
      '[static var System.Collections.Generic.Dictionary<System.Int32,Customer>.Items]',
      'Dictionary<int, Customer>',
      'Customer',
      'Tag',
    ]);
    const customer = a.types.find((t) => t.name === 'Customer')!;
    // Each customer retains itself and its byte[]; customer 1 also its Tag (the CWT value it keys).
    expect(customer.retainedBytes).toBe(2 * 48 + 2 * 124 + 24);
    // Customer 1 is on the stack and in the dictionary: the dictionary retains only customer 2's part.
    expect(a.types.find((t) => t.name === 'Dictionary<int, Customer>')!.retainedBytes).toBe(80 + 48 + 124);
  });

  it('refuses a walk with an Index gap (a lost BulkNode event)', () => {
    expect(() => walk({ nodeIndex: 1 }).build(0)).toThrow(HeapWalkError);
    expect(() => walk({ nodeIndex: 1 }).build(0)).toThrow(/BulkNode event 0 is missing .*bigger buffer/);
  });

  it('refuses a walk whose references did not all arrive', () => {
    expect(() => walk({ dropEdge: true }).build(0)).toThrow(/4 references but 3 arrived/);
  });

  it('refuses a walk when the session dropped events', () => {
    expect(() => walk().build(12)).toThrow(/12 events were dropped during the heap walk/);
  });

  it('a gen2 GC with no objects is not a walk: the trace holds none', () => {
    const c = new HeapWalkConsumer();
    c.onEvent(eventRecord(1, gc(1, 3)));
    c.onEvent(eventRecord(2, gc(2, 3)));
    expect(() => c.build(0)).toThrow(/holds no heap walk/);
  });
});

describe('a walk the runtime told no type names (a recording of the process keeps the Type keyword on)', () => {
  const key = runtimeKey(4242, '6f1c2a9e-0000-4000-8000-000000000001');
  const firstWalk = (): HeapTypeCache => {
    const cache = new HeapTypeCache();
    const c = walk();
    c.build(0);
    cache.remember(key, c.describedTypes());
    return cache;
  };

  it('is all UNKNOWN without the earlier walks of the process', () => {
    const r = walk({ types: [] }).build(0);
    expect(r.untypedObjects).toBe(6);
    expect(analyzeHeap(r.graph).types.find((t) => t.name === 'UNKNOWN')).toMatchObject({ count: 6 });
  });

  it("takes every name (and the static's type name) from the first walk's table", () => {
    const r = walk({ types: [] }).build(0, firstWalk().typesOf(key));
    expect(r.untypedObjects).toBe(0);
    expect(r.typesFromCache).toBe(4);
    const a = analyzeHeap(r.graph);
    expect(a.types.find((t) => t.name === 'UNKNOWN')).toBeUndefined();
    expect(a.types.find((t) => t.name === 'Customer')).toMatchObject({ count: 2, bytes: 96 });
    expect(a.types.find((t) => t.name === 'Dictionary<int, Customer>')).toMatchObject({ count: 1, bytes: 80 });
    expect(r.graph.types.map((t) => t.name)).toContain('[static var System.Collections.Generic.Dictionary<System.Int32,Customer>.Items]');
  });

  it("prefers the walk's own name, and a type no walk named stays UNKNOWN and counted as untyped", () => {
    const cache = firstWalk();
    // The cache lacks the Tag type; this walk names only the customer (renamed: its own name wins).
    const t = new Map(cache.typesOf(key)!);
    t.delete(T.tag);
    const r = walk({ types: [[T.customer, 'Shop.Customer']] }).build(0, t);
    expect(r.untypedObjects).toBe(1);
    expect(r.typesFromCache).toBe(2);
    const a = analyzeHeap(r.graph);
    expect(a.types.find((x) => x.name === 'UNKNOWN')).toMatchObject({ count: 1, bytes: 24 });
    expect(a.types.find((x) => x.fullName === 'Shop.Customer')).toMatchObject({ count: 2 });
  });

  it('is not named from another process, or from the same pid run again (another runtime cookie)', () => {
    const cache = firstWalk();
    expect(cache.typesOf(runtimeKey(4242, '6f1c2a9e-0000-4000-8000-000000000002'))).toBeUndefined();
    expect(cache.typesOf(runtimeKey(4243, '6f1c2a9e-0000-4000-8000-000000000001'))).toBeUndefined();
    expect(cache.typesOf(key)!.get(T.customer)).toEqual({ name: 'Customer', module: 'Module(0x7700)' });
  });

  it('forgets the least recently used process past its limit', () => {
    const cache = new HeapTypeCache(2);
    cache.remember('a', new Map([[1, { name: 'A', module: '' }]]));
    cache.remember('b', new Map([[1, { name: 'B', module: '' }]]));
    cache.typesOf('a');
    cache.remember('c', new Map([[1, { name: 'C', module: '' }]]));
    expect(cache.typesOf('b')).toBeUndefined();
    expect(cache.typesOf('a')!.get(1)!.name).toBe('A');
  });
});
