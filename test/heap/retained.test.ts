import { describe, expect, it } from 'vitest';
import { HeapGraphBuilder, NO_NODE, type HeapGraph } from '../../src-main/heap/graph.js';
import { dominatorTree } from '../../src-main/heap/dominators.js';
import { dominatedChildren, retainedByType, retainedSizes } from '../../src-main/heap/retained.js';
import { generateGraph } from './generated-graphs.js';

/** Nodes reachable from the root when `removed` is taken out of the graph. */
function reachableWithout(g: HeapGraph, removed: number): Uint8Array {
  const seen = new Uint8Array(g.nodeCount);
  if (removed === g.root) return seen;
  const stack = [g.root];
  seen[g.root] = 1;
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let e = g.firstChild[v]!; e < g.firstChild[v + 1]!; e++) {
      const w = g.children[e]!;
      if (w === removed || seen[w] === 1) continue;
      seen[w] = 1;
      stack.push(w);
    }
  }
  return seen;
}

/** By definition: v's retained set is v plus every node no longer reachable once v is gone. */
function bruteForce(g: HeapGraph): { retained: Float64Array; dominatedBy: Uint8Array[] } {
  const all = reachableWithout(g, NO_NODE);
  const retained = new Float64Array(g.nodeCount);
  const dominatedBy: Uint8Array[] = [];
  for (let v = 0; v < g.nodeCount; v++) {
    const set = new Uint8Array(g.nodeCount);
    dominatedBy.push(set);
    if (all[v] !== 1) continue;
    const after = reachableWithout(g, v);
    for (let w = 0; w < g.nodeCount; w++)
      if (all[w] === 1 && (w === v || after[w] !== 1)) {
        set[w] = 1;
        retained[v]! += g.nodeSize[w]!;
      }
  }
  return { retained, dominatedBy };
}

function check(g: HeapGraph): void {
  const d = dominatorTree(g);
  const retained = retainedSizes(g, d);
  const brute = bruteForce(g);
  for (let v = 0; v < g.nodeCount; v++) expect(retained[v], `retained size of node ${v}`).toBe(brute.retained[v]);
  // idom[v] dominates v, and is dominated by every other strict dominator of v.
  for (const v of d.order) {
    if (v === g.root) continue;
    const i = d.idom[v]!;
    expect(brute.dominatedBy[i]![v], `idom of ${v} dominates it`).toBe(1);
    for (let x = 0; x < g.nodeCount; x++) if (x !== v && brute.dominatedBy[x]![v] === 1) expect(brute.dominatedBy[x]![i], `${x} dominates idom(${v})`).toBe(1);
  }
  // Per type: the union of the instances' dominated sets, each node once.
  const byType = retainedByType(g, d, retained, dominatedChildren(g, d));
  for (let t = 0; t < g.types.length; t++) {
    const union = new Uint8Array(g.nodeCount);
    for (let v = 0; v < g.nodeCount; v++) if (g.nodeType[v] === t) for (let w = 0; w < g.nodeCount; w++) if (brute.dominatedBy[v]![w] === 1) union[w] = 1;
    let sum = 0;
    for (let w = 0; w < g.nodeCount; w++) if (union[w] === 1) sum += g.nodeSize[w]!;
    expect(byType[t], `retained bytes of type ${g.types[t]!.name}`).toBe(sum);
  }
}

describe('retained sizes equal a brute-force computation', () => {
  it('on random graphs with cycles, self-references and shared children (40 seeds)', () => {
    for (let seed = 1; seed <= 40; seed++)
      check(generateGraph({ objects: 20 + (seed % 7) * 10, degree: 1 + (seed % 3), roots: 1 + (seed % 4), types: 1 + (seed % 5), seed }));
  });

  it('on a dense cyclic graph where almost every node is shared', () => {
    check(generateGraph({ objects: 60, degree: 4, roots: 2, types: 3, seed: 99, backEdges: 0.6, selfLoops: 0.1 }));
  });

  it('on a chain of one type: the type retains the chain once, not once per link', () => {
    const b = new HeapGraphBuilder();
    const root = b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' });
    const node = b.type({ fullName: 'App.Node', name: 'Node', module: 'app' });
    b.node(root, 0);
    b.child(1);
    for (let i = 1; i <= 100; i++) {
      b.node(node, 32);
      if (i < 100) b.child(i + 1);
      b.child(i); // a self-reference on every link
    }
    const g = b.finish(0, 199);
    const d = dominatorTree(g);
    const r = retainedSizes(g, d);
    expect(r[1]).toBe(3200);
    expect(retainedByType(g, d, r, dominatedChildren(g, d))[node]).toBe(3200);
    check(g);
  });

  it('leaves nodes no root reaches out (no dominator, nothing retained)', () => {
    const b = new HeapGraphBuilder();
    const root = b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' });
    const t = b.type({ fullName: 'X', name: 'X', module: '' });
    b.node(root, 0);
    b.child(1);
    b.node(t, 10);
    b.node(t, 20); // unreachable, points at 1
    b.child(1);
    const g = b.finish(0, 1);
    const d = dominatorTree(g);
    expect(d.idom[2]).toBe(NO_NODE);
    expect(d.order.length).toBe(2);
    const r = retainedSizes(g, d);
    expect([r[0], r[1], r[2]]).toEqual([10, 10, 0]);
  });
});
