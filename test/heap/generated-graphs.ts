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
