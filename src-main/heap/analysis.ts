/**
 * One snapshot analysed: dominators, retained sizes, paths to roots, and the tables the CLI and
 * the app show (types, biggest retainers, paths for a type). Built once per graph; every view
 * reads from it.
 */
import { isPseudoNode, type HeapGraph } from './graph.js';
import { dominatorTree, type DominatorTree } from './dominators.js';
import { dominatedChildren, retainedByType, retainedSizes, type DominatedChildren } from './retained.js';
import { pathTo, rootPaths, type RootPaths } from './paths.js';

export interface TypeRow {
  readonly type: number;
  /** As people write it (`Dictionary<int, Customer>`). */
  readonly name: string;
  readonly fullName: string;
  readonly module: string;
  readonly count: number;
  readonly bytes: number;
  readonly retainedBytes: number;
}

export interface HeapTotals {
  /** Real objects (root pseudo-nodes left out). */
  readonly objects: number;
  readonly bytes: number;
  readonly references: number;
  /** Nodes no root reaches (none in a walk of live objects; files can hold some). */
  readonly unreachable: number;
}

export interface HeapAnalysis {
  readonly graph: HeapGraph;
  readonly dominators: DominatorTree;
  readonly retained: Float64Array;
  readonly dominated: DominatedChildren;
  /** Made on first use. */
  readonly paths: RootPaths;
  readonly totals: HeapTotals;
  /** Object types with at least one instance, biggest retained first. */
  readonly types: readonly TypeRow[];
}

export function analyzeHeap(g: HeapGraph): HeapAnalysis {
  const dominators = dominatorTree(g);
  const retained = retainedSizes(g, dominators);
  const dominated = dominatedChildren(g, dominators);
  const byTypeRetained = retainedByType(g, dominators, retained, dominated);
  const count = new Float64Array(g.types.length);
  const bytes = new Float64Array(g.types.length);
  for (let i = 0; i < g.nodeCount; i++) {
    const t = g.nodeType[i]!;
    count[t]!++;
    bytes[t]! += g.nodeSize[i]!;
  }
  const types: TypeRow[] = [];
  let objects = 0;
  let totalBytes = 0;
  g.types.forEach((t, i) => {
    if (t.root !== undefined || count[i] === 0) return;
    objects += count[i]!;
    totalBytes += bytes[i]!;
    types.push({ type: i, name: t.name, fullName: t.fullName, module: t.module, count: count[i]!, bytes: bytes[i]!, retainedBytes: byTypeRetained[i]! });
  });
  types.sort((a, b) => b.retainedBytes - a.retainedBytes || b.bytes - a.bytes || b.count - a.count || a.name.localeCompare(b.name));
  const unreachable = g.nodeCount - dominators.order.length;
  // Paths to roots (a BFS over every edge, ~0.4 s at 12 M objects) are made when a view first
  // asks for one, not before the types table can be shown.
  let paths: RootPaths | undefined;
  return {
    graph: g,
    dominators,
    retained,
    dominated,
    get paths(): RootPaths {
      return (paths ??= rootPaths(g));
    },
    totals: { objects, bytes: totalBytes, references: g.references, unreachable },
    types,
  };
}

/** One object or root in a view: what it is, its own and retained size. */
export interface NodeView {
  readonly node: number;
  readonly name: string;
  readonly bytes: number;
  readonly retainedBytes: number;
  readonly address?: string;
}

export function nodeView(a: HeapAnalysis, node: number): NodeView {
  const g = a.graph;
  const t = g.types[g.nodeType[node]!]!;
  const addr = g.address?.[node];
  return {
    node,
    name: t.name,
    bytes: g.nodeSize[node]!,
    retainedBytes: a.retained[node]!,
    ...(addr !== undefined && addr !== 0 ? { address: '0x' + addr.toString(16) } : {}),
  };
}

export interface Retainer extends NodeView {
  /** The objects it immediately dominates, biggest first (to `depth`). */
  readonly children: readonly Retainer[];
}

/**
 * The biggest retainers: objects directly below a root in the dominator tree (nothing but a root
 * keeps them alive), biggest retained first, each with the biggest objects it dominates.
 */
export function topRetainers(a: HeapAnalysis, top: number, depth = 2, fanout = 5): Retainer[] {
  const g = a.graph;
  const tops: number[] = [];
  for (const v of a.dominators.order) {
    if (isPseudoNode(g, v)) continue;
    const d = a.dominators.idom[v]!;
    if (isPseudoNode(g, d)) tops.push(v);
  }
  tops.sort((x, y) => a.retained[y]! - a.retained[x]!);
  const expand = (v: number, level: number): Retainer => {
    let children: Retainer[] = [];
    if (level < depth) {
      const kids = Array.from(a.dominated.kids.subarray(a.dominated.first[v]!, a.dominated.first[v + 1]!));
      kids.sort((x, y) => a.retained[y]! - a.retained[x]!);
      children = kids.slice(0, fanout).map((k) => expand(k, level + 1));
    }
    return { ...nodeView(a, v), children };
  };
  return tops.slice(0, top).map((v) => expand(v, 0));
}

/** The types whose name or full name is `query` (exactly, then case-insensitively as a substring). */
export function findTypes(a: HeapAnalysis, query: string): TypeRow[] {
  const exact = a.types.filter((t) => t.name === query || t.fullName === query);
  if (exact.length > 0) return exact;
  const q = query.toLowerCase();
  return a.types.filter((t) => t.name.toLowerCase().includes(q) || t.fullName.toLowerCase().includes(q));
}

export interface PathGroup {
  /** From the root (its name says its kind: `[static var Cache.Items]`, `[strong Handles]`…) to an instance. */
  readonly path: readonly NodeView[];
  /** How many instances of the types have a path through the same chain of types. */
  readonly instances: number;
}

/**
 * Paths to root for instances of some types: one path per distinct chain of type names (the
 * instance with the biggest retained size stands for its chain), chains holding the most
 * instances first.
 */
export function pathsForTypes(a: HeapAnalysis, typeIndexes: readonly number[], top: number): PathGroup[] {
  const g = a.graph;
  const wanted = new Uint8Array(g.types.length);
  for (const t of typeIndexes) wanted[t] = 1;
  const groups = new Map<string, { node: number; instances: number }>();
  for (let v = 0; v < g.nodeCount; v++) {
    if (wanted[g.nodeType[v]!] !== 1) continue;
    const p = pathTo(g, a.paths, v);
    const key = p.length === 0 ? '(unreachable)' : p.map((n) => g.nodeType[n]!).join(',');
    const cur = groups.get(key);
    if (cur === undefined) groups.set(key, { node: v, instances: 1 });
    else {
      cur.instances++;
      if (a.retained[v]! > a.retained[cur.node]!) cur.node = v;
    }
  }
  return [...groups.values()]
    .sort((x, y) => y.instances - x.instances || a.retained[y.node]! - a.retained[x.node]!)
    .slice(0, top)
    .map(({ node, instances }) => ({ path: pathTo(g, a.paths, node).map((n) => nodeView(a, n)), instances }));
}
