/**
 * The `.gcdump` mutator (issue 40): real snapshots from test/fixtures/heap, parsed once into
 * their layout (gcdump-layout.ts, independent of src-main/heap), mutated where the reader makes
 * decisions — the counts, the root index, the type table, the node offsets, each node's
 * compressed type/size/child count/children (values and encodings), the records themselves
 * (dropped, duplicated, swapped), cycles and self-references, the tags and the tail — with every
 * other size kept consistent, plus cuts at structure boundaries and byte-level damage at a low
 * rate. Inputs go through `gcscope heap` with each of its views.
 */
import { readFileSync } from 'node:fs';
import { mutate as byteMutate } from '../../helpers/fuzz.js';
import { FIXTURES } from '../../helpers/fixtures.js';
import {
  boundaries,
  cint,
  cintLen,
  cloneLayout,
  concat,
  encodeCInt,
  parseGcdump,
  serializeGcdump,
  type CInt,
  type GcdumpLayout,
  type NodeRec,
} from './gcdump-layout.js';
import { pick, type FuzzCommand, type Mutant, type Rand, type ReaderMutator, type Seed } from './types.js';

const FIXTURE_SEEDS = [
  { name: 'workload-3000.gcdump', weight: 10, format: 'dotnet-gcdump (CoreCLR)' },
  { name: 'workload-3500.gcdump', weight: 8, format: 'dotnet-gcdump (CoreCLR)' },
  { name: 'heapview-sample-monovm.gcdump', weight: 8, format: 'dotnet-gcdump (MonoVM)' },
  { name: 'perfview-test1-jscript.gcdump', weight: 6, format: 'PerfView (JScript)' },
];

let seedCache: Seed[] | undefined;
export function gcdumpSeeds(): Seed[] {
  seedCache ??= FIXTURE_SEEDS.map((s) => ({
    name: s.name,
    bytes: new Uint8Array(readFileSync(FIXTURES + 'heap/' + s.name)),
    ext: '.gcdump',
    weight: s.weight,
    format: s.format,
  }));
  return seedCache;
}

const layouts = new Map<string, GcdumpLayout>();
export function gcdumpLayoutOf(seed: Seed): GcdumpLayout {
  let l = layouts.get(seed.name);
  if (l === undefined) layouts.set(seed.name, (l = parseGcdump(seed.bytes)));
  return l;
}

const int = (rand: Rand, n: number): number => Math.floor(rand() * n);
const I32_EDGES = [0, 1, -1, 0x7f, 0x80, 0x3fff, 0x4000, 0x7fffffff, -0x80000000, 0x0fffffff, 0x10000000];
/** Lies about a count n: off by one, doubled, zero, negative, the i32 edges. */
const countLie = (n: number, rand: Rand): number => (rand() < 0.3 ? pick(I32_EDGES, rand) : pick([n - 1, n + 1, n * 2, Math.floor(n / 2), 1 << 20], rand)) | 0;
/** A compressed value: the boundaries of each encoded length, signed. */
const cintEdge = (rand: Rand): number =>
  pick([0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8192, 1048575, 1048576, 0x7ffffff, 0x8000000, 0x7fffffff, -0x80000000], rand);

type Family = (l: GcdumpLayout, rand: Rand) => string | undefined;

/** Replaces node record k (records are shared with the cached parse: never edited in place). */
function setRecord(l: GcdumpLayout, k: number, r: NodeRec): void {
  l.records[k] = r;
}
const nodeOf = (l: GcdumpLayout, rand: Rand): number => int(rand, l.order.length);
/** A node with at least one child. */
function parentOf(l: GcdumpLayout, rand: Rand): number | undefined {
  for (let t = 0; t < 50; t++) {
    const i = nodeOf(l, rand);
    if (l.records[l.order[i]!]!.children.length > 0) return i;
  }
  return undefined;
}
/** A child field pointing at node `target` from node `i` (children are stored as target − i). */
const childTo = (i: number, target: number): CInt => cint(target - i);

const FAMILIES: Record<string, [number, Family]> = {
  counts: [
    10,
    (l, rand) => {
      const which = pick(['typeCount', 'nodeCount', 'blobLength', 'addressCount'] as const, rand);
      const truth = which === 'typeCount' ? l.types.length : which === 'nodeCount' ? l.order.length : which === 'addressCount' ? l.addresses.length : undefined;
      const v = countLie(truth ?? serializeGcdump(l).length, rand);
      l.lie[which] = v;
      return `${which} ${truth ?? '(blob)'} → ${v}`;
    },
  ],
  'drop-nodes': [
    5,
    (l, rand) => {
      // Consistently fewer nodes: the last k nodes' offsets and addresses go (their records stay, unreferenced; children may now point past the end).
      const k = 1 + int(rand, Math.max(1, Math.floor(l.order.length / 10)));
      l.order.splice(l.order.length - k, k);
      if (l.addresses.length > 0) l.addresses.splice(l.addresses.length - k, k);
      return `last ${k} nodes dropped from the node table`;
    },
  ],
  root: [
    5,
    (l, rand) => {
      const v = pick([-1, l.order.length, l.order.length - 1, 0x7fffffff, nodeOf(l, rand)], rand);
      l.rootIndex = v;
      return `root index → ${v}`;
    },
  ],
  'total-size': [
    2,
    (l, rand) => {
      const v = pick([0n, -1n, 1n << 62n, -(1n << 63n), (1n << 63n) - 1n], rand);
      l.totalSize = v;
      return `total size → ${v}`;
    },
  ],
  types: [
    8,
    (l, rand) => {
      const k = int(rand, l.types.length);
      const t = l.types[k]!;
      const what = pick(['size', 'name-len', 'name-null', 'name-root', 'drop-last', 'duplicate', 'module-len'], rand);
      const str = (s: string): Uint8Array => concat([i32b(s.length), new TextEncoder().encode(s)]);
      switch (what) {
        case 'size': {
          const v = pick([-1, 0, 0x7fffffff, -0x80000000, 1 << 30], rand);
          if (v === t.size) return undefined;
          l.types[k] = { ...t, size: v };
          return `type ${k} size → ${v}`;
        }
        case 'name-len': {
          const v = pick([0x7fffffff, -2, t.name.length * 4, 1 << 24], rand);
          const name = t.name.slice();
          new DataView(name.buffer).setInt32(0, v, true);
          l.types[k] = { ...t, name };
          return `type ${k} name length → ${v}`;
        }
        case 'module-len': {
          const v = pick([0x7fffffff, -2, 1 << 24], rand);
          const module = t.module.length >= 4 ? t.module.slice() : new Uint8Array(4);
          new DataView(module.buffer).setInt32(0, v, true);
          l.types[k] = { ...t, module };
          return `type ${k} module length → ${v}`;
        }
        case 'name-null':
          l.types[k] = { ...t, name: i32b(-1) };
          return `type ${k} name → null`;
        case 'name-root': {
          const n = pick(
            ['[static vars]', '[strong Handles]', '[.NET Roots]', '[other roots]', '', 'System.Object[] (Bytes > 100K)', '\u0000\u001b[2J', 'x'.repeat(70000)],
            rand,
          );
          l.types[k] = { ...t, name: str(n) };
          return `type ${k} name → ${JSON.stringify(n.slice(0, 20))}${n.length > 20 ? '…' : ''}`;
        }
        case 'drop-last':
          l.types.pop();
          return `last type dropped (${l.types.length} left)`;
        default:
          l.types.splice(k, 0, t);
          return `type ${k} duplicated (later indexes shift by one)`;
      }
    },
  ],
  'node-type': [
    8,
    (l, rand) => {
      const i = nodeOf(l, rand);
      const k = l.order[i]!;
      const r = l.records[k]!;
      const t = pick([-1, l.types.length, l.types.length - 1, 0x3fffffff, -0x40000000, int(rand, l.types.length)], rand);
      const own = r.size !== undefined ? 1 : 0;
      const v = (t << 1) | own;
      setRecord(l, k, { ...r, typeAndSize: cint(v) });
      return `node ${i} type → ${t}`;
    },
  ],
  'node-size': [
    6,
    (l, rand) => {
      const i = nodeOf(l, rand);
      const k = l.order[i]!;
      const r = l.records[k]!;
      const s = cintEdge(rand);
      setRecord(l, k, { ...r, typeAndSize: cint((r.typeAndSize.v & ~1) | 1), size: cint(s) });
      return `node ${i} own size → ${s}`;
    },
  ],
  'child-count': [
    8,
    (l, rand) => {
      const i = nodeOf(l, rand);
      const k = l.order[i]!;
      const r = l.records[k]!;
      const v = pick([0, r.children.length + 1, r.children.length * 2 + 5, -1, 0x7fffffff, 1 << 20, cintEdge(rand)], rand);
      if (v === r.childCount.v) return undefined;
      setRecord(l, k, { ...r, childCount: cint(v) });
      return `node ${i} child count ${r.children.length} → ${v} (children unchanged)`;
    },
  ],
  children: [
    12,
    (l, rand) => {
      const i = parentOf(l, rand);
      if (i === undefined) return undefined;
      const k = l.order[i]!;
      const r = l.records[k]!;
      const c = int(rand, r.children.length);
      const what = pick(['self', 'parent-cycle', 'out-of-range', 'root', 'fan', 'edge'], rand);
      let children = [...r.children];
      let desc: string;
      switch (what) {
        case 'self':
          children[c] = childTo(i, i);
          desc = `node ${i} child ${c} → itself`;
          break;
        case 'parent-cycle': {
          // Child c points back at i: i → child → i (when the child has children to repoint).
          const target = c + i + r.children[c]!.v - c;
          const tk = l.order[target];
          const tr = tk === undefined ? undefined : l.records[tk];
          if (tr === undefined || tr.children.length === 0) return undefined;
          const cc = [...tr.children];
          cc[0] = childTo(target, i);
          setRecord(l, tk!, { ...tr, children: cc });
          desc = `cycle: node ${target} (a child of ${i}) → ${i}`;
          break;
        }
        case 'out-of-range': {
          const t = pick([-1, l.order.length, 0x7ffffff, -0x8000000], rand);
          children[c] = childTo(i, t);
          desc = `node ${i} child ${c} → node ${t}`;
          break;
        }
        case 'root':
          children[c] = childTo(i, l.rootIndex);
          desc = `node ${i} child ${c} → the root`;
          break;
        case 'fan': {
          // Many edges from one node (to itself and its first child): a bigger but honest graph.
          const n = pick([1000, 20000, 100000], rand);
          children = [...children, ...Array.from({ length: n }, (_, j) => (j % 2 === 0 ? childTo(i, i) : r.children[0]!))];
          desc = `node ${i} gets ${n} more children (itself, its first child)`;
          break;
        }
        default: {
          const v = cintEdge(rand);
          children[c] = cint(v);
          desc = `node ${i} child ${c} delta → ${v}`;
        }
      }
      setRecord(l, k, { ...l.records[k]!, children, childCount: cint(children.length) });
      return desc;
    },
  ],
  encoding: [
    8,
    (l, rand) => {
      const i = nodeOf(l, rand);
      const k = l.order[i]!;
      const r = l.records[k]!;
      const fields = ['typeAndSize', 'childCount', ...(r.size !== undefined ? ['size'] : []), ...(r.children.length > 0 ? ['child'] : [])] as const;
      const f = pick(fields, rand);
      const c = int(rand, r.children.length);
      const old: CInt = f === 'child' ? r.children[c]! : f === 'size' ? r.size! : f === 'childCount' ? r.childCount : r.typeAndSize;
      const how = pick(['overlong', 'runaway', 'unterminated'], rand);
      let raw: Uint8Array;
      if (how === 'overlong') raw = encodeCInt(old.v, Math.min(5, cintLen(old.v) + 1 + int(rand, 4)));
      else if (how === 'runaway') raw = new Uint8Array(6 + int(rand, 6)).fill(0x80 | int(rand, 128));
      else raw = concat([old.raw.subarray(0, old.raw.length - 1), new Uint8Array([old.raw[old.raw.length - 1]! | 0x80])]);
      const x = { raw, v: old.v };
      if (f === 'child') {
        const ch = [...r.children];
        ch[c] = x;
        setRecord(l, k, { ...r, children: ch });
      } else setRecord(l, k, { ...r, [f]: x });
      return `node ${i} ${f === 'child' ? `child ${c}` : f} ${how} (${raw.length} bytes)`;
    },
  ],
  offsets: [
    8,
    (l, rand) => {
      const i = nodeOf(l, rand);
      const blobLen = serializeGcdump(l).length; // an upper bound is enough for the lies below
      const what = pick(['outside', 'alias', 'all-to-one', 'fan-self', 'swap', 'mid-record'], rand);
      const offs = (l.lie.offsets = new Map(l.lie.offsets));
      switch (what) {
        case 'outside': {
          const v = pick([-1, blobLen, 0x7fffffff, -0x80000000], rand);
          offs.set(i, v);
          return `node ${i} offset → ${v}`;
        }
        case 'alias': {
          const j = nodeOf(l, rand);
          l.order[i] = l.order[j]!;
          return `node ${i} shares node ${j}'s record`;
        }
        case 'all-to-one': {
          // Every node's offset at the record with the most children: edges = nodes × children.
          let best = 0;
          l.records.forEach((r, k) => {
            if (r.children.length > l.records[best]!.children.length) best = k;
          });
          l.order = l.order.map(() => best);
          return `every node's offset at record ${best} (${l.records[best]!.children.length} children)`;
        }
        case 'fan-self': {
          // One record of K self-references (child − node = 0 is in range for every node) shared
          // by every node but the root: a small file claiming nodes × K references.
          const K = pick([1000, 5000, 20000], rand);
          const r = l.records[l.order[i]!]!;
          l.records.push({ ...r, childCount: cint(K), children: Array.from({ length: K }, () => cint(0)) });
          const k = l.records.length - 1;
          l.order = l.order.map((x, j) => (j === l.rootIndex ? x : k));
          return `every node but the root shares one record of ${K} self-references (${(K * (l.order.length - 1)).toLocaleString('en-US')} claimed)`;
        }
        case 'swap': {
          const j = nodeOf(l, rand);
          [l.order[i], l.order[j]] = [l.order[j]!, l.order[i]!];
          return `nodes ${i} and ${j} swap records`;
        }
        default: {
          const r = l.records[l.order[i]!]!;
          // Into the middle of its own record: the reader decodes a child as a type.
          let p = l.blobLead.length;
          for (let k = 0; k < l.order[i]!; k++) p += recLen(l.records[k]!);
          const v = p + 1 + int(rand, Math.max(1, recLen(r) - 1));
          offs.set(i, v);
          return `node ${i} offset → ${v} (inside its record)`;
        }
      }
    },
  ],
  records: [
    6,
    (l, rand) => {
      const k = int(rand, l.records.length);
      const what = pick(['drop', 'duplicate', 'swap'], rand);
      if (what === 'drop') {
        // The record goes; nodes that used it now read the next one (offsets recomputed).
        l.records.splice(k, 1);
        l.order = l.order.map((x) => (x > k ? x - 1 : Math.min(x, l.records.length - 1)));
        return `node record ${k} dropped`;
      }
      if (what === 'duplicate') {
        const n = 1 + int(rand, 50);
        l.records.splice(k, 0, ...Array.from({ length: n }, () => l.records[k]!));
        l.order = l.order.map((x) => (x > k ? x + n : x));
        return `node record ${k} duplicated ×${n} (later nodes keep theirs)`;
      }
      const j = int(rand, l.records.length);
      [l.records[k], l.records[j]] = [l.records[j]!, l.records[k]!];
      return `node records ${k} and ${j} swapped in the blob (offsets follow)`;
    },
  ],
  addresses: [
    3,
    (l, rand) => {
      if (rand() < 0.5) {
        const n = int(rand, l.addresses.length);
        l.addresses.splice(n);
        return `addresses cut to ${n}`;
      }
      const i = int(rand, l.addresses.length);
      const v = pick([0n, -1n, 1n << 63n, 1n << 53n], rand);
      l.addresses[i] = v;
      return `address ${i} → ${v}`;
    },
  ],
  tags: [
    4,
    (l, rand) => {
      const what = pick(['is64', 'end', 'version', 'min-version', 'graph-min-version'], rand);
      if (what === 'is64') {
        l.graphEnd = new Uint8Array(l.graphEnd.length === 3 ? [pick([0, 7, 9, 13, 255], rand), l.graphEnd[1]!, 6] : [8, 1, 6]);
        return `Is64Bit tag → ${l.graphEnd[0]}`;
      }
      if (what === 'end') {
        const g = l.graphEnd.slice();
        g[g.length - 1] = pick([0, 4, 5, 7, 255], rand);
        l.graphEnd = g;
        return `MemoryGraph EndObject → ${g[g.length - 1]}`;
      }
      // The version fields: GCHeapDump's at 24+1+2, MemoryGraph's after its name.
      const h = l.head.slice();
      const dv = new DataView(h.buffer);
      const v = pick([0, 8, 9, 11, -1, 0x7fffffff], rand);
      // The head ends with the MemoryGraph's minReaderVersion, its name (i32 18 + "Graphs.MemoryGraph") and EndObject.
      const at = what === 'version' ? 27 : what === 'min-version' ? 31 : h.length - 1 - 22 - 4;
      if (at < 0 || at + 4 > h.length) return undefined;
      dv.setInt32(at, v, true);
      l.head = h;
      return `${what} → ${v}`;
    },
  ],
  tail: [
    4,
    (l, rand) => {
      // The GCHeapDump fields: Is64Bit, f32 multipliers, two Null tags, strings, ticks…
      const t = l.tail.slice();
      const dv = new DataView(t.buffer);
      const what = pick(['multiplier', 'null-tag', 'string-len', 'trailer'], rand);
      if (t.length < 20) return undefined;
      if (what === 'multiplier') {
        const v = pick([NaN, 0, -1, Infinity, 1e30, 1e-30], rand);
        dv.setFloat32(1 + 4 * int(rand, 2), v, true);
        l.tail = t;
        return `sampling multiplier → ${v}`;
      }
      if (what === 'null-tag') {
        t[9 + int(rand, 2)] = pick([4, 2, 3, 13, 0], rand);
        l.tail = t;
        return `JSHeapInfo/DotNetHeapInfo tag → ${t[9]}/${t[10]}`;
      }
      if (what === 'string-len') {
        dv.setInt32(11, pick([0x7fffffff, -2, 1 << 20], rand), true);
        l.tail = t;
        return `CollectionLog length → ${dv.getInt32(11, true)}`;
      }
      dv.setUint32(t.length - 4, pick([0, 0xffffffff, dv.getUint32(t.length - 4, true) + 1], rand), true);
      l.tail = t;
      return `trailer → ${dv.getUint32(t.length - 4, true)}`;
    },
  ],
};

const recLen = (r: NodeRec): number =>
  r.typeAndSize.raw.length + (r.size?.raw.length ?? 0) + r.childCount.raw.length + r.children.reduce((s, c) => s + c.raw.length, 0) + r.extra.length;
const i32b = (v: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v, true);
  return b;
};

const NAMES = Object.keys(FAMILIES);

export function mutateGcdump(seed: Seed, rand: Rand, only?: readonly string[]): Mutant {
  const r = rand();
  const allowed = (name: string): boolean => only === undefined || only.includes(name);
  const families = NAMES.filter(allowed);
  if ((r < 0.06 && allowed('byte-level')) || (families.length === 0 && !allowed('cut'))) {
    const m = byteMutate(seed.bytes, rand);
    return { bytes: m.bytes, mutation: `byte-level ${m.kind}`, ext: seed.ext };
  }
  const l = cloneLayout(gcdumpLayoutOf(seed));
  const done: string[] = [];
  const n = r < 0.75 ? 1 : r < 0.93 ? 2 : 3;
  for (let tries = 0; families.length > 0 && done.length < n && tries < 20; tries++) {
    const total = families.reduce((s, f) => s + FAMILIES[f]![0], 0);
    let x = rand() * total;
    const name = families.find((f) => (x -= FAMILIES[f]![0]) < 0) ?? families[0]!;
    const what = FAMILIES[name]![1](l, rand);
    if (what !== undefined) done.push(`${name}: ${what}`);
  }
  let bytes = serializeGcdump(l);
  // Cut at a structure boundary, on its own or after the other mutations.
  if (allowed('cut') && (done.length === 0 || rand() < 0.08)) {
    const b = pick(boundaries(l), rand);
    const at = Math.max(0, Math.min(bytes.length - 1, b.at + pick([0, 0, -1, 1], rand)));
    bytes = bytes.slice(0, at);
    done.push(`cut: at ${at} (${b.what})`);
  }
  return { bytes, mutation: done.join('; '), ext: seed.ext };
}

/** `gcscope heap` with each of its views; BASE is the unmutated seed. */
export const GCDUMP_COMMANDS: FuzzCommand[] = [
  { name: 'heap', argv: ['heap', 'FILE'], weight: 25 },
  { name: 'heap-json', argv: ['heap', 'FILE', '--format', 'json'], weight: 15 },
  { name: 'heap-dominators', argv: ['heap', 'FILE', '--by', 'dominators'], weight: 20 },
  { name: 'heap-path', argv: ['heap', 'FILE', '--path', 'String'], weight: 15 },
  { name: 'heap-diff', argv: ['heap', 'FILE', '--diff', 'BASE'], weight: 10 },
  { name: 'heap-diff-rev', argv: ['heap', 'BASE', '--diff', 'FILE', '--format', 'json'], weight: 5 },
];

export const gcdumpMutator: ReaderMutator = {
  reader: 'gcdump',
  seeds: gcdumpSeeds,
  mutate: mutateGcdump,
  commands: GCDUMP_COMMANDS,
};
