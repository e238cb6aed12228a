/**
 * The fuzzer's model of a `.gcdump`, parsed without the reader under test (src-main/heap): the
 * FastSerialization header and the two object headers (GCHeapDump, Graphs.MemoryGraph), the
 * MemoryGraph's fields — total size, root index, the type table, the node offsets, the node blob
 * split into one record per node (each compressed integer kept as its exact bytes, so overlong
 * encodings survive), the addresses, the tagged Is64Bit — and the GCHeapDump tail after it as
 * bytes. `serialize(parse(x))` is `x` byte for byte; after a mutation, the node offsets are
 * recomputed from the records (unless a mutation sets them on purpose), every count is written
 * from its table (unless a mutation lies about it on purpose) and the tail's absolute positions
 * (the forward-reference table and the trailer, which the reader checks) move with it.
 *
 * Compressed integers (Graph.cs): big-endian 7-bit groups, the high bit says another group
 * follows, the first group is sign-extended, at most 5 bytes.
 */

export interface CInt {
  /** The exact encoding. */
  raw: Uint8Array;
  /** Its value (as decoded; a damaged encoding keeps its bytes). */
  v: number;
}

export interface NodeRec {
  typeAndSize: CInt;
  size?: CInt;
  childCount: CInt;
  children: CInt[];
  /** Bytes between the end of this record and the next node's offset (none in real files). */
  extra: Uint8Array;
}

export interface TypeRec {
  /** name, size, module: the name and module as raw FastSerialization strings (kept exactly). */
  name: Uint8Array;
  size: number;
  module: Uint8Array;
}

export interface GcdumpLayout {
  /** Magic, BeginObject + GCHeapDump type header, BeginObject + MemoryGraph type header. */
  head: Uint8Array;
  totalSize: bigint;
  rootIndex: number;
  types: TypeRec[];
  /** Node i's record is records[order[i]]; records are in blob order. */
  order: number[];
  /** Bytes before the first node's record (dotnet-gcdump leaves 2 there). */
  blobLead: Uint8Array;
  records: NodeRec[];
  addresses: bigint[];
  /** The tagged Is64Bit (Byte tag + value) and the MemoryGraph's EndObject. */
  graphEnd: Uint8Array;
  /** The GCHeapDump fields after the graph, the forward table and the trailer. */
  tail: Uint8Array;
  /** Where the tail started in the seed (its absolute positions are relative to this). */
  tailAt: number;
  /** Lies written instead of the true values (undefined = the truth). */
  lie: {
    typeCount?: number;
    nodeCount?: number;
    blobLength?: number;
    addressCount?: number;
    offsets?: Map<number, number>;
  };
}

export function decodeCInt(b: Uint8Array, p: number): { v: number; len: number } {
  let bt = b[p]!;
  let v = (bt << 25) >> 25;
  let len = 1;
  while ((bt & 0x80) !== 0 && len < 5) {
    if (p + len >= b.length) throw new RangeError('compressed int past the end');
    bt = b[p + len]!;
    v = (v << 7) + (len === 4 ? bt : bt & 0x7f);
    len++;
  }
  return { v, len };
}

/** `v` in exactly `len` groups (overlong when `len` is more than it needs; `len` > 5 runs past what a reader allows). */
export function encodeCInt(v: number, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let k = 0; k < len; k++) {
    const shift = 7 * (len - 1 - k);
    const g = shift >= 32 ? (v < 0 ? 0x7f : 0) : (v >> shift) & 0x7f;
    out[k] = g | (k < len - 1 ? 0x80 : 0);
  }
  return out;
}

/** The shortest encoding's length. */
export function cintLen(v: number): number {
  const x = v | 0;
  for (let len = 1; len < 5; len++) {
    const bits = 7 * len;
    if ((x << (32 - bits)) >> (32 - bits) === x) return len;
  }
  return 5;
}

export const cint = (v: number, len = cintLen(v)): CInt => ({ raw: encodeCInt(v, len), v });

class Cur {
  p = 0;
  readonly dv: DataView;
  constructor(readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  i32(): number {
    if (this.p + 4 > this.b.length) throw new RangeError('i32 past the end');
    const v = this.dv.getInt32(this.p, true);
    this.p += 4;
    return v;
  }
  i64(): bigint {
    if (this.p + 8 > this.b.length) throw new RangeError('i64 past the end');
    const v = this.dv.getBigInt64(this.p, true);
    this.p += 8;
    return v;
  }
  u8(): number {
    if (this.p >= this.b.length) throw new RangeError('u8 past the end');
    return this.b[this.p++]!;
  }
  /** A FastSerialization string's raw bytes: i32 count of UTF-16 units (−1 = null), each 1–3 bytes. */
  stringRaw(): Uint8Array {
    const at = this.p;
    const n = this.i32();
    for (let i = 0; i < n; i++) {
      const c = this.u8();
      if (c >= 0xe0) this.p += 2;
      else if (c >= 0x80) this.p += 1;
    }
    return this.b.slice(at, this.p);
  }
  typeHeader(): void {
    this.expect(4);
    this.expect(1);
    this.i32();
    this.i32();
    this.stringRaw();
    this.expect(6);
  }
  expect(tag: number): void {
    const t = this.u8();
    if (t !== tag) throw new RangeError(`expected tag ${tag} at ${this.p - 1}, found ${t}`);
  }
}

export function parseGcdump(bytes: Uint8Array): GcdumpLayout {
  const c = new Cur(bytes);
  c.stringRaw();
  c.expect(4);
  c.typeHeader();
  c.expect(4);
  c.typeHeader();
  const head = bytes.slice(0, c.p);
  const totalSize = c.i64();
  const rootIndex = c.i32();
  const nTypes = c.i32();
  const types: TypeRec[] = [];
  for (let i = 0; i < nTypes; i++) {
    const name = c.stringRaw();
    const size = c.i32();
    types.push({ name, size, module: c.stringRaw() });
  }
  const nNodes = c.i32();
  const offsets: number[] = [];
  for (let i = 0; i < nNodes; i++) offsets.push(c.i32());
  const blobLen = c.i32();
  const blob = bytes.subarray(c.p, c.p + blobLen);
  c.p += blobLen;
  const nAddr = c.i32();
  const addresses: bigint[] = [];
  for (let i = 0; i < nAddr; i++) addresses.push(c.i64());
  const geAt = c.p;
  if (bytes[c.p] === 8) c.p += 2;
  c.expect(6);
  const graphEnd = bytes.slice(geAt, c.p);

  // The blob: one record per distinct offset, in blob order.
  const starts = [...new Set(offsets)].sort((a, b) => a - b);
  const blobLead = blob.slice(0, starts[0] ?? 0);
  const recAt = new Map<number, number>();
  const records: NodeRec[] = [];
  starts.forEach((off, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]! : blob.length;
    let p = off;
    const take = (): CInt => {
      const d = decodeCInt(blob, p);
      const x = { raw: blob.slice(p, p + d.len), v: d.v };
      p += d.len;
      return x;
    };
    const typeAndSize = take();
    const size = (typeAndSize.v & 1) !== 0 ? take() : undefined;
    const childCount = take();
    const children: CInt[] = [];
    for (let i = 0; i < childCount.v; i++) children.push(take());
    if (p > end) throw new RangeError(`node record at ${off} runs into the next`);
    recAt.set(off, records.length);
    records.push({ typeAndSize, ...(size !== undefined ? { size } : {}), childCount, children, extra: blob.slice(p, end) });
  });
  return {
    head,
    totalSize,
    rootIndex,
    types,
    order: offsets.map((o) => recAt.get(o)!),
    blobLead,
    records,
    addresses,
    graphEnd,
    tail: bytes.slice(c.p),
    tailAt: c.p,
    lie: {},
  };
}

/** A copy whose arrays can be edited without touching the cached parse (records are replaced, never edited in place). */
export function cloneLayout(l: GcdumpLayout): GcdumpLayout {
  return { ...l, types: [...l.types], order: [...l.order], records: [...l.records], addresses: [...l.addresses], lie: { ...l.lie } };
}

export function recordBytes(r: NodeRec): Uint8Array {
  const parts = [r.typeAndSize.raw, ...(r.size !== undefined ? [r.size.raw] : []), r.childCount.raw, ...r.children.map((x) => x.raw), r.extra];
  return concat(parts);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const i32 = (v: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v | 0, true);
  return b;
};
const i64 = (v: bigint): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
  return b;
};

/**
 * The tail moved by `delta` bytes: the trailer (last u32 = its own position) and the forward
 * table (second-to-last u32 = the table's position; the table: i32 count, u32 positions) follow.
 */
function moveTail(tail: Uint8Array, tailAt: number, delta: number): Uint8Array {
  if (delta === 0 || tail.length < 8) return tail;
  const t = tail.slice();
  const dv = new DataView(t.buffer);
  const end = t.length;
  const trailer = dv.getUint32(end - 4, true);
  const table = dv.getUint32(end - 8, true);
  if (trailer !== tailAt + end - 8) return t; // not the layout this model knows: left alone
  dv.setUint32(end - 4, trailer + delta, true);
  dv.setUint32(end - 8, table + delta, true);
  const tableRel = table - tailAt;
  if (tableRel >= 0 && tableRel + 4 <= end - 8) {
    const n = dv.getInt32(tableRel, true);
    if (n >= 0 && tableRel + 4 + n * 4 <= end - 8)
      for (let i = 0; i < n; i++) dv.setUint32(tableRel + 4 + i * 4, dv.getUint32(tableRel + 4 + i * 4, true) + delta, true);
  }
  return t;
}

export function serializeGcdump(l: GcdumpLayout): Uint8Array {
  const recBytes = l.records.map(recordBytes);
  const recOff: number[] = [];
  let o = l.blobLead.length;
  for (const b of recBytes) {
    recOff.push(o);
    o += b.length;
  }
  const blob = concat([l.blobLead, ...recBytes]);
  const parts: Uint8Array[] = [l.head, i64(l.totalSize), i32(l.rootIndex), i32(l.lie.typeCount ?? l.types.length)];
  for (const t of l.types) parts.push(t.name, i32(t.size), t.module);
  parts.push(i32(l.lie.nodeCount ?? l.order.length));
  l.order.forEach((r, i) => parts.push(i32(l.lie.offsets?.get(i) ?? recOff[r] ?? blob.length)));
  parts.push(i32(l.lie.blobLength ?? blob.length), blob, i32(l.lie.addressCount ?? l.addresses.length));
  for (const a of l.addresses) parts.push(i64(a));
  parts.push(l.graphEnd);
  const body = concat(parts);
  return concat([body, moveTail(l.tail, l.tailAt, body.length - l.tailAt)]);
}

/** Structure boundaries (absolute offsets in the serialized layout) a cut can land on. */
export function boundaries(l: GcdumpLayout): { at: number; what: string }[] {
  const out: { at: number; what: string }[] = [
    { at: 24, what: 'after the magic' },
    { at: l.head.length, what: 'after the object headers' },
  ];
  let p = l.head.length + 12;
  out.push({ at: p, what: 'before the type count' });
  p += 4;
  l.types.forEach((t, i) => {
    if (i < 3 || i === l.types.length - 1) out.push({ at: p, what: `at type ${i}` });
    p += t.name.length + 4 + t.module.length;
  });
  out.push({ at: p, what: 'before the node count' });
  p += 4;
  out.push({ at: p + 4 * Math.floor(l.order.length / 2), what: 'in the middle of the node offsets' });
  p += 4 * l.order.length;
  out.push({ at: p, what: 'before the blob length' });
  p += 4;
  const blobAt = p;
  let q = blobAt + l.blobLead.length;
  l.records.forEach((r, i) => {
    if (i === 1 || i === Math.floor(l.records.length / 2) || i === l.records.length - 1) {
      out.push({ at: q, what: `at node record ${i}` });
      out.push({ at: q + r.typeAndSize.raw.length, what: `inside node record ${i}` });
    }
    q += recordBytes(r).length;
  });
  p = q;
  out.push({ at: p, what: 'before the address count' });
  p += 4 + 8 * l.addresses.length;
  out.push({ at: p - 4 * l.addresses.length, what: 'in the middle of the addresses' });
  out.push({ at: p, what: 'before Is64Bit' });
  p += l.graphEnd.length;
  out.push({ at: p, what: 'after the MemoryGraph' });
  out.push({ at: p + Math.floor(l.tail.length / 2), what: 'in the GCHeapDump fields' });
  out.push({ at: p + l.tail.length - 8, what: 'before the trailer' });
  out.push({ at: p + l.tail.length - 1, what: 'one byte short' });
  return out;
}
