/**
 * The object graph of one heap snapshot, in typed arrays (CSR): node i's children are
 * `children[firstChild[i] .. firstChild[i+1])`. One graph holds both the objects and the root
 * pseudo-nodes (a virtual root, `[static var Type.Field]`, `[strong Handles]`…) whose kind is on
 * their type (roots.ts), so every algorithm here walks one structure: dominators from `root`,
 * retained sizes, paths to roots. Memory: 20 B per node (type u32, size f64, firstChild u32,
 * address f64 when known) + 4 B per edge.
 */
import type { RootKind } from './roots.js';

export interface HeapType {
  /** The full name as the source wrote it, normalized (type-names.ts): `System.Collections.Generic.Dictionary<System.Int32,Customer>`. */
  readonly fullName: string;
  /** As people write it: `Dictionary<int, Customer>`, `byte[]`. */
  readonly name: string;
  /** The module (file path or name) that defines it, when known. */
  readonly module: string;
  /** Set on the types of root pseudo-nodes (the virtual root, static-variable roots, handle groups…). */
  readonly root?: RootKind;
}

export interface HeapGraph {
  readonly nodeCount: number;
  /** The virtual root: every root pseudo-node hangs below it. */
  readonly root: number;
  readonly types: readonly HeapType[];
  readonly nodeType: Uint32Array;
  /** Bytes of the object itself (0 for pseudo-nodes). */
  readonly nodeSize: Float64Array;
  /** Length nodeCount + 1. */
  readonly firstChild: Uint32Array;
  readonly children: Uint32Array;
  /** Object addresses when the source has them (0 for pseudo-nodes); below 2^53 on every platform .NET runs on. */
  readonly address: Float64Array | undefined;
  /**
   * Object-to-object references as the source counts them (BulkEdge's EdgeCount sum; a .gcdump's
   * children of object nodes). Edges the importer adds (a ConditionalWeakTable key → its value)
   * are in `children` but not here.
   */
  readonly references: number;
}

export const NO_NODE = 0xffffffff;

/** True for nodes that stand for a root or a group of roots, not for an object. */
export function isPseudoNode(g: HeapGraph, node: number): boolean {
  return g.types[g.nodeType[node]!]!.root !== undefined;
}

/** The number of real objects (nodes that are not root pseudo-nodes). */
export function objectCount(g: HeapGraph): number {
  let pseudoTypes = 0;
  const isPseudo = new Uint8Array(g.types.length);
  g.types.forEach((t, i) => {
    if (t.root !== undefined) {
      isPseudo[i] = 1;
      pseudoTypes++;
    }
  });
  if (pseudoTypes === 0) return g.nodeCount;
  let n = 0;
  for (let i = 0; i < g.nodeCount; i++) if (isPseudo[g.nodeType[i]!] === 0) n++;
  return n;
}

/** A graph's types, each made once per (fullName, module, root kind). */
export class HeapTypeTable {
  readonly types: HeapType[] = [];
  private readonly typeIndex = new Map<string, number>();

  /** The index of a type, made once per (fullName, module, root kind). */
  type(t: HeapType): number {
    const key = `${t.root ?? ''}\u0000${t.module}\u0000${t.fullName}`;
    let i = this.typeIndex.get(key);
    if (i === undefined) {
      i = this.types.length;
      this.types.push(t);
      this.typeIndex.set(key, i);
    }
    return i;
  }
}

/** Grows typed arrays as nodes and edges arrive; `finish()` hands over exact-length views. */
export class HeapGraphBuilder {
  private readonly typeTable = new HeapTypeTable();
  private readonly types = this.typeTable.types;
  private nodeType = new Uint32Array(1024);
  private nodeSize = new Float64Array(1024);
  private firstChild = new Uint32Array(1025);
  private children = new Uint32Array(4096);
  private address: Float64Array | undefined;
  private n = 0;
  private m = 0;

  /** `nodes`: how many nodes are coming, when known (the arrays are made that big once). */
  constructor(withAddresses = false, nodes = 1024) {
    const cap = Math.max(1024, nodes + 1);
    this.nodeType = new Uint32Array(cap);
    this.nodeSize = new Float64Array(cap);
    this.firstChild = new Uint32Array(cap + 1);
    if (withAddresses) this.address = new Float64Array(cap);
  }

  get nodeCount(): number {
    return this.n;
  }
  get edgeCount(): number {
    return this.m;
  }

  /** The index of a type, made once per (fullName, module, root kind). */
  type(t: HeapType): number {
    return this.typeTable.type(t);
  }

  typeIsPseudo(type: number): boolean {
    return this.types[type]?.root !== undefined;
  }

  /** Adds a node whose children follow with `child()`; returns its index. */
  node(type: number, size: number, address = 0): number {
    const i = this.n;
    if (i + 1 >= this.nodeType.length) this.growNodes();
    this.nodeType[i] = type;
    this.nodeSize[i] = size;
    if (this.address !== undefined) this.address[i] = address;
    this.firstChild[i] = this.m;
    this.firstChild[i + 1] = this.m;
    this.n = i + 1;
    return i;
  }

  /** A child of the node added last. */
  child(target: number): void {
    if (this.m >= this.children.length) {
      const c = new Uint32Array(this.children.length * 2);
      c.set(this.children);
      this.children = c;
    }
    this.children[this.m++] = target;
    this.firstChild[this.n] = this.m;
  }

  finish(root: number, references: number): HeapGraph {
    const n = this.n;
    for (let i = 0; i < this.m; i++)
      if (this.children[i]! >= n) throw new RangeError(`edge ${i} points at node ${this.children[i]!}, past the last node ${n - 1}`);
    if (root >= n) throw new RangeError(`root ${root} is past the last node ${n - 1}`);
    return {
      nodeCount: n,
      root,
      types: this.types,
      nodeType: this.nodeType.subarray(0, n),
      nodeSize: this.nodeSize.subarray(0, n),
      firstChild: this.firstChild.subarray(0, n + 1),
      children: this.children.subarray(0, this.m),
      address: this.address?.subarray(0, n),
      references,
    };
  }

  private growNodes(): void {
    const len = this.nodeType.length * 2;
    const t = new Uint32Array(len);
    t.set(this.nodeType);
    this.nodeType = t;
    const s = new Float64Array(len);
    s.set(this.nodeSize);
    this.nodeSize = s;
    const f = new Uint32Array(len + 1);
    f.set(this.firstChild);
    this.firstChild = f;
    if (this.address !== undefined) {
      const a = new Float64Array(len);
      a.set(this.address);
      this.address = a;
    }
  }
}
