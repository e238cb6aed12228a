/**
 * Why is it alive: one shortest path from a root to every object, preferring statics and strong
 * handles. A breadth-first search runs once per root kind in ROOT_PRIORITY order, each reaching
 * only objects no earlier kind reached, so an object held by a static shows the static's path
 * even when a local on some thread's stack is a shorter way to it (heap-snapshots.md §8).
 * Objects left over (roots of kinds a file names its own way) get a path from the virtual root.
 */
import { NO_NODE, type HeapGraph } from './graph.js';
import { ROOT_PRIORITY, type RootKind } from './roots.js';

export interface RootPaths {
  /** The node before each node on its path; NO_NODE for the path's first node and unreached nodes. */
  readonly parent: Uint32Array;
  /** 1 where the node is on some path (reached). */
  readonly reached: Uint8Array;
}

export function rootPaths(g: HeapGraph): RootPaths {
  const n = g.nodeCount;
  const parent = new Uint32Array(n).fill(NO_NODE);
  const reached = new Uint8Array(n);
  const queue = new Uint32Array(n);
  // Each type's root kind as a small number, read per edge below: 0 an object, 1 the virtual root
  // or a group, 2 an undefined node, 3… one per other root kind.
  const kindCode = new Uint8Array(g.types.length);
  const codes = new Map<RootKind, number>();
  g.types.forEach((t, i) => {
    const k = t.root;
    if (k === undefined) return;
    if (k === 'root' || k === 'group') kindCode[i] = 1;
    else if (k === 'undefined') kindCode[i] = 2;
    else {
      if (!codes.has(k)) codes.set(k, 3 + codes.size);
      kindCode[i] = codes.get(k)!;
    }
  });
  const { nodeType } = g;
  const kindOf = (v: number): RootKind | undefined => g.types[nodeType[v]!]!.root;
  // Root pseudo-nodes of each kind, in the order they appear.
  const seeds = new Map<RootKind, number[]>();
  for (let v = 0; v < n; v++) {
    if (kindCode[nodeType[v]!] === 0) continue;
    const k = kindOf(v)!;
    let list = seeds.get(k);
    if (list === undefined) seeds.set(k, (list = []));
    list.push(v);
  }
  const bfs = (starts: readonly number[]): void => {
    let head = 0;
    let tail = 0;
    for (const s of starts) {
      if (reached[s] === 1) continue;
      reached[s] = 1;
      queue[tail++] = s;
    }
    while (head < tail) {
      const v = queue[head++]!;
      for (let e = g.firstChild[v]!, end = g.firstChild[v + 1]!; e < end; e++) {
        const w = g.children[e]!;
        if (reached[w] === 1) continue;
        // Group and root pseudo-nodes are walked only from their own kind's turn.
        const k = kindCode[nodeType[w]!]!;
        if (k === 1 || (k > 2 && k !== kindCode[nodeType[v]!])) continue;
        reached[w] = 1;
        parent[w] = v;
        queue[tail++] = w;
      }
    }
  };
  for (const kind of ROOT_PRIORITY) {
    const s = seeds.get(kind);
    if (s !== undefined) bfs(s);
  }
  // Whatever is left: from the virtual root through anything.
  {
    let head = 0;
    let tail = 0;
    const starts = reached[g.root] === 1 ? [] : [g.root];
    for (let v = 0; v < n; v++) if (reached[v] === 1) queue[tail++] = v;
    for (const s of starts) {
      reached[s] = 1;
      queue[tail++] = s;
    }
    while (head < tail) {
      const v = queue[head++]!;
      for (let e = g.firstChild[v]!, end = g.firstChild[v + 1]!; e < end; e++) {
        const w = g.children[e]!;
        if (reached[w] === 1) continue;
        reached[w] = 1;
        parent[w] = v;
        queue[tail++] = w;
      }
    }
  }
  return { parent, reached };
}

/**
 * The path to `node`, from the root pseudo-node that holds it (`[static var Cache.Items]`,
 * `[strong Handles]`…) to the node itself. Empty when no root reaches it.
 */
export function pathTo(g: HeapGraph, p: RootPaths, node: number): number[] {
  if (p.reached[node] !== 1) return [];
  const path: number[] = [];
  for (let v = node; v !== NO_NODE; v = p.parent[v]!) {
    path.push(v);
    if (path.length > g.nodeCount) break;
  }
  path.reverse();
  // Drop the groups above the root that says the kind: the path starts at `[static var X.F]`,
  // `[strong Handles]`, `[local vars]`…
  let start = 0;
  while (start < path.length - 1) {
    const k = g.types[g.nodeType[path[start]!]!]!.root;
    if (k === 'root' || k === 'group') start++;
    else break;
  }
  return path.slice(start);
}
