/** Seeded random heap graphs for the algorithm tests and the bench: cycles, self-references, shared children. */
import { HeapGraphBuilder, type HeapGraph } from '../../src-main/heap/graph.js';

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

export interface GenOptions {
  objects: number;
  /** Average out-degree of an object. */
  degree: number;
  /** Root pseudo-nodes (statics, a handle group, the stack), each pointing at a few objects. */
  roots: number;
  types: number;
  seed: number;
  /** Share of edges that point back at an earlier node (cycles) — the rest point forward. */
  backEdges?: number;
  selfLoops?: number;
}

/** Node 0 is the virtual root; nodes 1..roots are root pseudo-nodes; then the objects. */
export function generateGraph(o: GenOptions): HeapGraph {
  const r = rng(o.seed);
  const b = new HeapGraphBuilder(true);
  const rootType = b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' });
  const kinds = ['static', 'strong-handle', 'stack', 'finalizer'] as const;
  const rootTypes = Array.from({ length: o.roots }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const name = kind === 'static' ? `[static var Holder${i}.Field]` : `[${kind} ${i}]`;
    return b.type({ fullName: name, name, module: '', root: kind });
  });
  const objTypes = Array.from({ length: o.types }, (_, i) => b.type({ fullName: `App.T${i}`, name: `T${i}`, module: 'app.dll' }));
  const first = 1 + o.roots;
  const n = first + o.objects;
  b.node(rootType, 0);
  for (let i = 1; i <= o.roots; i++) b.child(i);
  for (let i = 1; i <= o.roots; i++) {
    b.node(rootTypes[i - 1]!, 0);
    const k = 1 + Math.floor(r() * 3);
    for (let j = 0; j < k; j++) b.child(first + Math.floor(r() * Math.min(o.objects, 50)));
  }
  let refs = 0;
  for (let v = first; v < n; v++) {
    b.node(objTypes[Math.floor(r() * o.types)]!, 8 + Math.floor(r() * 200), 0x10000 + v * 64);
    const k = Math.floor(r() * (2 * o.degree + 1));
    for (let j = 0; j < k; j++) {
      let w: number;
      const x = r();
      if (x < (o.selfLoops ?? 0.02)) w = v;
      else if (x < (o.selfLoops ?? 0.02) + (o.backEdges ?? 0.2)) w = first + Math.floor(r() * (v - first + 1));
      else w = v + 1 + Math.floor(r() * Math.min(40, n - v - 1));
      if (w >= n) continue;
      b.child(w);
      refs++;
    }
  }
  return b.finish(0, refs);
}

/**
 * The leak the reference measured (heap-snapshots.md §5), as a graph: a static
 * Dictionary<int, Customer> whose Entry[] holds `n` customers, each with a name string, a byte[],
 * an Order[] of 3 Orders and a link to the previous customer (7 objects, 7 references each).
 * 1.75 M customers ≈ 12.25 M objects, the scale target.
 */
export function leakHeap(n: number): HeapGraph {
  const b = new HeapGraphBuilder(true);
  const t = {
    root: b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' }),
    statics: b.type({ fullName: '[static vars]', name: '[static vars]', module: '', root: 'group' }),
    stat: b.type({ fullName: '[static var Cache.Customers]', name: '[static var Cache.Customers]', module: '', root: 'static' }),
    dict: b.type({
      fullName: 'System.Collections.Generic.Dictionary<System.Int32,Customer>',
      name: 'Dictionary<int, Customer>',
      module: 'System.Private.CoreLib.dll',
    }),
    entries: b.type({ fullName: 'Entry<System.Int32,Customer>[]', name: 'Entry<int, Customer>[]', module: 'System.Private.CoreLib.dll' }),
    customer: b.type({ fullName: 'Customer', name: 'Customer', module: 'app.dll' }),
    string: b.type({ fullName: 'System.String', name: 'string', module: 'System.Private.CoreLib.dll' }),
    bytes: b.type({ fullName: 'System.Byte[]', name: 'byte[]', module: 'System.Private.CoreLib.dll' }),
    orders: b.type({ fullName: 'Order[]', name: 'Order[]', module: 'app.dll' }),
    order: b.type({ fullName: 'Order', name: 'Order', module: 'app.dll' }),
  };
  // 0 root, 1 [static vars], 2 static, 3 dict, 4 entries, then 7 nodes per customer.
  const base = 5;
  b.node(t.root, 0);
  b.child(1);
  b.node(t.statics, 0);
  b.child(2);
  b.node(t.stat, 0);
  b.child(3);
  b.node(t.dict, 80, 0x1000);
  b.child(4);
  b.node(t.entries, 24 + 24 * n, 0x2000);
  for (let i = 0; i < n; i++) b.child(base + i * 7);
  let addr = 0x100000;
  for (let i = 0; i < n; i++) {
    const c = base + i * 7;
    b.node(t.customer, 48, (addr += 48));
    b.child(c + 1);
    b.child(c + 2);
    b.child(c + 3);
    if (i > 0) b.child(c - 7);
    b.node(t.string, 40 + (i % 7) * 2, (addr += 56));
    b.node(t.bytes, 124, (addr += 128));
    b.node(t.orders, 48, (addr += 48));
    b.child(c + 4);
    b.child(c + 5);
    b.child(c + 6);
    for (let k = 0; k < 3; k++) b.node(t.order, 40, (addr += 40));
  }
  return b.finish(0, n * 7);
}
