/**
 * `.gcdump` files (dotnet-gcdump, PerfView, Visual Studio): a FastSerialization stream whose
 * entry object is a `GCHeapDump` holding a `Graphs.MemoryGraph` (heap-snapshots.md §4; layouts
 * checked against dotnet/diagnostics' GCHeapDump.cs, Graph.cs and MemoryGraph.cs, read not copied).
 *
 * MemoryGraph (version 1): i64 TotalSize, i32 RootIndex; i32 nTypes × {string Name, i32 Size
 * (the first instance's), string ModuleName}; i32 nNodes × i32 offset into the node blob; i32
 * blob length + blob; i32 nAddresses × i64; tagged bool Is64Bit; EndObject. A node in the blob:
 * compressed `typeIndex << 1 | hasOwnSize`, [size], childCount, then `child − node` per child.
 * GCHeapDump (version ≥ 9) continues: bool, f32 count and size multipliers (sampled graphs),
 * JSHeapInfo, DotNetHeapInfo, CollectionLog, i64 ticks, machine, process, i32 pid, i64 commit,
 * i64 working set, per-type multipliers, tagged InteropInfo, tagged CreationTool.
 */
import { HeapDecodeError } from './errors.js';
import { compressedIntInto, FsReader, FsWriter, MAGIC, Tag } from './fast-serialization.js';
import { HeapGraphBuilder, type HeapGraph } from './graph.js';
import { rootKindOfName } from './roots.js';
import { displayName, stripSizeBucket } from './type-names.js';

export interface GcdumpInfo {
  readonly creationTool: string | undefined;
  readonly processName: string | undefined;
  readonly processId: number | undefined;
  /** .NET ticks (100 ns since 0001-01-01) converted to Unix ms; undefined when not written. */
  readonly collectedAtMs: number | undefined;
  /** PerfView samples big heaps: each kept object stands for this many (1 = not sampled). */
  readonly countMultiplier: number;
  readonly sizeMultiplier: number;
  /** The file's own node count (root pseudo-nodes included): what `dotnet-gcdump report` calls "GC Heap objects". */
  readonly fileNodeCount: number;
  /** The file's TotalSize: "GC Heap bytes". */
  readonly fileTotalSize: number;
}

export interface GcdumpSnapshot {
  readonly graph: HeapGraph;
  readonly info: GcdumpInfo;
}

/** True when the bytes start like a .gcdump (FastSerialization whose first object is GCHeapDump). */
export function looksLikeGcdump(first: Uint8Array): boolean {
  if (first.length < 45) return false;
  const r = new FsReader(first);
  try {
    if (r.string() !== MAGIC) return false;
    r.tag(Tag.BeginObject, 'GCHeapDump');
    return r.typeHeader('GCHeapDump').name === 'GCHeapDump';
  } catch {
    return false;
  }
}

const TICKS_AT_UNIX_EPOCH = 621355968000000000;

export function readGcdump(bytes: Uint8Array): GcdumpSnapshot {
  const r = new FsReader(bytes);
  // Header: the string "!FastSerialization.1" (i32 20, then the characters).
  {
    const at = r.pos;
    let magic: string | null = null;
    try {
      magic = r.string('the file header');
    } catch {
      magic = null;
    }
    if (magic !== MAGIC) throw new HeapDecodeError('bad-magic', at, 'this is not a .gcdump file: it does not start with "!FastSerialization.1"');
  }
  r.tag(Tag.BeginObject, 'the GCHeapDump object');
  const dumpType = r.typeHeader('GCHeapDump');
  if (dumpType.name !== 'GCHeapDump')
    throw new HeapDecodeError('bad-magic', r.pos, `this FastSerialization file holds a ${dumpType.name}, not a heap snapshot (GCHeapDump)`);
  if (dumpType.version < 9)
    throw new HeapDecodeError(
      'unsupported-version',
      r.pos,
      `GCHeapDump version ${dumpType.version} is older than this reader supports (9 and later; PerfView before 2014 wrote older ones)`,
    );
  if (dumpType.minReaderVersion > 10)
    throw new HeapDecodeError('unsupported-version', r.pos, `this .gcdump needs a reader of version ${dumpType.minReaderVersion}; GCScope reads up to 10`);
  r.tag(Tag.BeginObject, 'the MemoryGraph object');
  const graphType = r.typeHeader('MemoryGraph');
  if (graphType.name !== 'Graphs.MemoryGraph') throw new HeapDecodeError('malformed', r.pos, `expected a Graphs.MemoryGraph, found ${graphType.name}`);
  if (graphType.minReaderVersion >= 1)
    throw new HeapDecodeError('unsupported-version', r.pos, 'this .gcdump holds deferred (ProjectN / .NET Native) type names, which GCScope does not read');

  const totalSize = r.i64('the total size');
  const rootAt = r.pos;
  const rootIndex = r.i32('the root index');
  const typeCount = r.count('the type count', 12);
  const fileTypes: { name: string; size: number; module: string }[] = [];
  for (let i = 0; i < typeCount; i++) {
    const name = r.string(`type ${i}'s name`) ?? '';
    const size = r.i32(`type ${i}'s size`);
    const module = r.string(`type ${i}'s module`) ?? '';
    fileTypes.push({ name, size, module });
  }
  const nodeCount = r.count('the node count', 4);
  if (nodeCount === 0) throw new HeapDecodeError('malformed', r.pos, 'the heap graph has no nodes');
  if (rootIndex < 0 || rootIndex >= nodeCount)
    throw new HeapDecodeError('malformed', rootAt, `the root index ${rootIndex} is not one of the ${nodeCount} nodes`);
  const offsetsAt = r.pos;
  r.need(nodeCount * 4, 'the node offsets');
  const offsets = new Int32Array(nodeCount);
  for (let k = 0; k < nodeCount; k++) offsets[k] = r.i32();
  const blobLength = r.count('the node blob length', 1);
  const blobAt = r.pos;
  const blob = bytes.subarray(blobAt, blobAt + blobLength);
  r.pos += blobLength;
  const addressCount = r.count('the address count', 8);
  if (addressCount !== 0 && addressCount !== nodeCount)
    throw new HeapDecodeError('malformed', r.pos - 4, `the file has ${addressCount} addresses for ${nodeCount} nodes`);
  const address = new Float64Array(addressCount);
  r.need(addressCount * 8, 'the node addresses');
  for (let k = 0; k < addressCount; k++) address[k] = r.i64();
  // Tagged Is64Bit, then the MemoryGraph's EndObject (tagged fields may be absent in old files).
  if (r.remaining > 0 && r.bytes[r.pos] === Tag.Byte) r.pos += 2;
  r.tag(Tag.EndObject, 'the end of the MemoryGraph');
  const info = readDumpTail(r, nodeCount, totalSize);

  // Types: buckets merged (`System.Object[] (Bytes > 100K)` is `System.Object[]`), root kinds by name.
  const b = new HeapGraphBuilder(addressCount > 0, nodeCount);
  const typeMap = new Uint32Array(typeCount);
  fileTypes.forEach((t, i) => {
    const fullName = stripSizeBucket(t.name);
    const root = rootKindOfName(fullName);
    typeMap[i] = b.type({ fullName, name: root === undefined ? displayName(fullName) : fullName, module: t.module, ...(root !== undefined ? { root } : {}) });
  });
  // The root node's type is the virtual root whatever it is called (JScript dumps name it their own way).
  const rootFileType = decodeNodeType(blob, offsets[rootIndex]!, blobAt, typeCount);
  const rootName = fileTypes[rootFileType]!.name;
  const virtualRootType = b.type({ fullName: rootName, name: rootName, module: fileTypes[rootFileType]!.module, root: 'root' });

  let references = 0;
  // Every node's record has bytes of its own and each child costs at least one of them, so the
  // file's references are at most its blob's length. Offsets may alias (a record shared by many
  // nodes): without this bound a 400 KB file could claim half a billion references.
  let edges = 0;
  const blobEnd = blob.length;
  let p = 0;
  const fail = (code: 'truncated' | 'malformed', what: string): never => {
    throw new HeapDecodeError(code, blobAt + Math.min(p, blobEnd), what);
  };
  // What a compressed integer is, named only when it is bad (not a string per read: 12 M nodes).
  let i = 0;
  const FIELD = ['type', 'size', 'child count', 'children'] as const;
  const what = (field: number): string => `node ${i}'s ${FIELD[field]!}`;
  const compressed = (field: number): number => {
    if (p >= blobEnd) fail('truncated', `the node blob ends inside ${what(field)}`);
    let bt = blob[p++]!;
    let v = (bt << 25) >> 25;
    for (let k = 1; k < 5 && (bt & 0x80) !== 0; k++) {
      if (p >= blobEnd) fail('truncated', `the node blob ends inside ${what(field)}`);
      bt = blob[p++]!;
      v = (v << 7) + (k === 4 ? bt : bt & 0x7f);
      if (k === 4 && (bt & 0x80) !== 0) fail('malformed', `a compressed integer in ${what(field)} runs past 5 bytes`);
    }
    return v;
  };
  for (i = 0; i < nodeCount; i++) {
    const off = offsets[i]!;
    if (off < 0 || off >= blobEnd)
      throw new HeapDecodeError('malformed', offsetsAt + i * 4, `node ${i}'s offset ${off} is outside the ${blobEnd}-byte node blob`);
    p = off;
    const typeAndSize = compressed(0);
    const t = typeAndSize >> 1;
    if (t < 0 || t >= typeCount) fail('malformed', `node ${i} has type ${t}, but the file has ${typeCount} types`);
    const size = (typeAndSize & 1) !== 0 ? compressed(1) : fileTypes[t]!.size;
    const childCount = compressed(2);
    if (childCount < 0 || childCount > blobEnd - p) fail('malformed', `node ${i} claims ${childCount} children, more than its bytes could hold`);
    edges += childCount;
    if (edges > blobEnd)
      throw new HeapDecodeError(
        'malformed',
        offsetsAt + i * 4,
        `the nodes up to node ${i} claim ${edges.toLocaleString('en-US')} references, more than the ${blobEnd.toLocaleString('en-US')}-byte node blob holds: node offsets overlap, the file is damaged`,
      );
    const type = i === rootIndex ? virtualRootType : typeMap[t]!;
    b.node(type, Math.max(0, size), addressCount > 0 ? address[i]! : 0);
    const pseudo = b.typeIsPseudo(type);
    for (let c = 0; c < childCount; c++) {
      const child = compressed(3) + i;
      if (child < 0 || child >= nodeCount) fail('malformed', `node ${i} points at node ${child}, but the file has ${nodeCount} nodes`);
      b.child(child);
    }
    if (!pseudo) references += childCount;
  }
  // The stream ends with the trailer's label: the position of the trailer, 8 bytes before the
  // end. A file cut short anywhere after the graph fails here.
  const end = bytes.length;
  const suffix = end >= 8 ? new DataView(bytes.buffer, bytes.byteOffset, end).getUint32(end - 4, true) : -1;
  if (suffix !== end - 8) throw new HeapDecodeError('truncated', end, 'the file ends without its trailer: it was cut short (or is still being written)');
  const graph = b.finish(rootIndex, references);
  return { graph, info };
}

function decodeNodeType(blob: Uint8Array, off: number, blobAt: number, typeCount: number): number {
  if (off < 0 || off >= blob.length) throw new HeapDecodeError('malformed', blobAt, `the root node's offset ${off} is outside the node blob`);
  let bt = blob[off]!;
  let v = (bt << 25) >> 25;
  let p = off + 1;
  for (let k = 1; k < 5 && (bt & 0x80) !== 0 && p < blob.length; k++) {
    bt = blob[p++]!;
    v = (v << 7) + (k === 4 ? bt : bt & 0x7f);
  }
  const t = v >> 1;
  if (t < 0 || t >= typeCount) throw new HeapDecodeError('malformed', blobAt + off, `the root node has type ${t}, but the file has ${typeCount} types`);
  return t;
}

/**
 * The GCHeapDump fields after the graph. Only descriptive (tool, process, time, sampling): a
 * file whose tail this reader cannot follow (PerfView's DotNetHeapInfo segments) still opens, with
 * those fields unknown.
 */
function readDumpTail(r: FsReader, fileNodeCount: number, fileTotalSize: number): GcdumpInfo {
  let countMultiplier = 1;
  let sizeMultiplier = 1;
  let processName: string | undefined;
  let processId: number | undefined;
  let collectedAtMs: number | undefined;
  let creationTool: string | undefined;
  try {
    r.u8(); // Is64Bit (again)
    countMultiplier = r.f32();
    sizeMultiplier = r.f32();
    if (r.u8() !== Tag.Null) throw new Error('JSHeapInfo');
    if (r.u8() !== Tag.Null) throw new Error('DotNetHeapInfo');
    r.string(); // CollectionLog
    const ticks = r.i64();
    r.string(); // machine
    processName = r.string() ?? undefined;
    const pid = r.i32();
    processId = pid !== 0 ? pid : undefined;
    collectedAtMs = ticks > 0 ? (ticks - TICKS_AT_UNIX_EPOCH) / 10000 : undefined;
    r.i64();
    r.i64();
    const n = r.count('the per-type multipliers', 4);
    r.pos += n * 4;
    if (r.u8() === Tag.SkipRegion) {
      r.i32();
      if (r.u8() !== Tag.Null) throw new Error('InteropInfo');
      if (r.u8() === Tag.String) creationTool = r.string() ?? undefined;
    }
  } catch (e) {
    // A file cut short is damaged; a structure this reader does not follow (PerfView's
    // DotNetHeapInfo) only leaves the descriptive fields unknown.
    if (e instanceof HeapDecodeError && e.code === 'truncated') throw e;
  }
  if (!(countMultiplier > 0) || !Number.isFinite(countMultiplier)) countMultiplier = 1;
  if (!(sizeMultiplier > 0) || !Number.isFinite(sizeMultiplier)) sizeMultiplier = 1;
  return { creationTool, processName, processId, collectedAtMs, countMultiplier, sizeMultiplier, fileNodeCount, fileTotalSize };
}

export interface GcdumpWriteInfo {
  readonly processName?: string;
  readonly processId?: number;
  readonly collectedAtMs?: number;
}

/**
 * Writes a graph as a .gcdump that dotnet-gcdump, PerfView and Visual Studio open: the same
 * object layout dotnet-gcdump writes, with `CreationTool` "GCScope". Type names are written as
 * their full names (PerfView's spelling), each type's size is its first instance's and other
 * instances carry their own.
 */
export function writeGcdump(g: HeapGraph, meta: GcdumpWriteInfo = {}): Uint8Array {
  const w = new FsWriter();
  w.string(MAGIC);
  w.u8(Tag.BeginObject);
  w.typeHeader('GCHeapDump', 10, 8);
  w.u8(Tag.BeginObject);
  w.typeHeader('Graphs.MemoryGraph', 1, 0);
  let total = 0;
  for (let i = 0; i < g.nodeCount; i++) total += g.nodeSize[i]!;
  w.i64(total);
  w.i32(g.root);
  // Type sizes: the first instance's.
  const typeSize = new Float64Array(g.types.length).fill(-1);
  for (let i = 0; i < g.nodeCount; i++) if (typeSize[g.nodeType[i]!]! < 0) typeSize[g.nodeType[i]!] = g.nodeSize[i]!;
  w.i32(g.types.length);
  g.types.forEach((t, i) => {
    w.string(t.fullName);
    w.i32(Math.max(0, Math.min(0x7fffffff, typeSize[i]!)));
    w.string(t.module.length > 0 ? t.module : null);
  });
  // The node blob first (offsets depend on it), then offsets, blob and addresses in file order.
  // Written into one byte array with the compressed ints inline (a node takes at most 15 bytes
  // plus 5 per reference); it grows when a node would not fit.
  const n = g.nodeCount;
  const { nodeType, nodeSize, firstChild, children } = g;
  const typeSizeClamped = typeSize.map((s) => Math.max(0, Math.min(0x7fffffff, s)));
  let blob = new Uint8Array(Math.max(1024, n * 4 + children.length * 3));
  let p = 0;
  const offsets = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const first = firstChild[i]!;
    const end = firstChild[i + 1]!;
    const need = 15 + 5 * (end - first);
    if (p + need > blob.length) {
      const bigger = new Uint8Array(Math.max(blob.length * 2, p + need));
      bigger.set(blob.subarray(0, p));
      blob = bigger;
    }
    if (p > 0x7fffffff) throw new RangeError('the heap graph is too large for a .gcdump (node offsets are 32-bit)');
    offsets[i] = p;
    const t = nodeType[i]!;
    const size = Math.min(0x7fffffff, nodeSize[i]!);
    if (size === typeSizeClamped[t]!) p = compressedIntInto(blob, p, t << 1);
    else {
      p = compressedIntInto(blob, p, (t << 1) | 1);
      p = compressedIntInto(blob, p, size);
    }
    p = compressedIntInto(blob, p, end - first);
    for (let e = first; e < end; e++) p = compressedIntInto(blob, p, children[e]! - i);
  }
  w.reserve(4 + 4 * n + 4 + p + 4 + 8 * n + 256);
  w.i32(n);
  w.i32s(offsets);
  w.i32(p);
  w.bytes(blob.subarray(0, p));
  const addr = g.address;
  w.i32(n);
  for (let i = 0; i < n; i++) w.i64(addr?.[i] ?? 0);
  w.u8(Tag.Byte);
  w.u8(1); // Is64Bit
  w.u8(Tag.EndObject);
  // GCHeapDump's own fields.
  w.u8(1);
  w.f32(1);
  w.f32(1);
  w.u8(Tag.Null); // JSHeapInfo
  w.u8(Tag.Null); // DotNetHeapInfo
  w.string(null); // CollectionLog
  w.i64(meta.collectedAtMs !== undefined ? Math.round(meta.collectedAtMs * 10000) + TICKS_AT_UNIX_EPOCH : 0);
  w.string(null); // machine
  w.string(meta.processName ?? null);
  w.i32(meta.processId ?? 0);
  w.i64(0);
  w.i64(0);
  w.i32(0); // per-type multipliers
  // Tagged InteropInfo (null) in a skippable region: forward reference 0 is defined right after it.
  w.u8(Tag.SkipRegion);
  w.i32(0);
  w.u8(Tag.Null);
  const forwardDefinition = w.pos;
  w.u8(Tag.String);
  w.string('GCScope');
  w.u8(Tag.EndObject); // GCHeapDump
  w.u8(Tag.EndObject); // the unbalanced end of objects
  const forwardTable = w.pos;
  w.i32(1);
  w.u32(forwardDefinition);
  const trailer = w.pos;
  w.u32(forwardTable);
  w.u32(trailer);
  return w.result();
}
