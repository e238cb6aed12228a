/**
 * The layout of a NetPerf/NetTrace file as the fuzzer sees it, parsed independently of the reader
 * under test (src-main/nettrace) so a reader bug cannot hide in both: the container's objects or
 * blocks with their headers and contents, and — on demand — the inside of one block (event blobs
 * field by field, metadata payloads, stack lists, sequence points).
 *
 * Containers (docs/formats.md §2; perfview NetPerfFormat.md, NetTraceFormat_v5.md, NetTraceFormat.md):
 * - NetPerf V3 / NetTrace V4–V5: FastSerialization objects. Each: begin tag ×2 (4 NetPerf, 5
 *   NetTrace), null tag, i32 version, i32 minVersion, i32 nameLength, name, end tag; then the
 *   Trace object's 48 bytes, or a block's i32 size, zero padding to a 4-byte stream offset, the
 *   content; then an end tag. A null tag ends the stream.
 * - NetTrace V6: "Nettrace", u32 0, u32 major, u32 minor; blocks of u32 (kind << 24 | size) +
 *   content; an EndOfStream block (kind 0) ends it.
 *
 * serialize(parse(x)) gives x back byte for byte (test/hardening/fuzz-mutators.test.ts), so a
 * mutation changes exactly what it says and every size, padding and alignment around it stays
 * consistent — unless the mutation is a lie about a size on purpose.
 */

export type Container = 'netperf' | 'fs' | 'v6';

/** One FastSerialization object or V6 block. */
export interface LayoutObject {
  /** FastSerialization type name ("Trace", "EventBlock", "MetadataBlock", "StackBlock", "SPBlock") or the V6 kind's name. */
  name: string;
  /** V6 block kind, or the FastSerialization name's equivalent (Trace 1, Event 2, Metadata 3, SP 4, Stack 5). */
  kind: number;
  version: number;
  minVersion: number;
  content: Uint8Array;
}

export interface Layout {
  container: Container;
  /** Magic and format header: 32 bytes (NetTrace FS), 24 (NetPerf) or 20 (V6). */
  prefix: Uint8Array;
  objects: LayoutObject[];
  /** Whatever ends the stream: the null tag, or the V6 EndOfStream block (and anything after it). */
  trailer: Uint8Array;
  pointerSize: number;
}

export const KIND = { EndOfStream: 0, Trace: 1, Event: 2, Metadata: 3, SequencePoint: 4, Stack: 5, Thread: 6, RemoveThread: 7, LabelList: 8 } as const;
const FS_KIND: Record<string, number> = { Trace: 1, EventBlock: 2, MetadataBlock: 3, SPBlock: 4, StackBlock: 5 };
export const V6_NAMES = ['EndOfStream', 'Trace', 'EventBlock', 'MetadataBlock', 'SPBlock', 'StackBlock', 'ThreadBlock', 'RemoveThreadBlock', 'LabelListBlock'];

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

export function parseLayout(b: Uint8Array): Layout {
  const v = dv(b);
  const isNettrace = b.length >= 8 && String.fromCharCode(...b.subarray(0, 8)) === 'Nettrace';
  if (isNettrace && v.getUint32(8, true) === 0) {
    // V6
    const objects: LayoutObject[] = [];
    let p = 20;
    for (;;) {
      const x = v.getUint32(p, true);
      const kind = x >>> 24;
      const size = x & 0xffffff;
      if (kind === KIND.EndOfStream) break;
      objects.push({ name: V6_NAMES[kind] ?? `Block${kind}`, kind, version: 0, minVersion: 0, content: b.subarray(p + 4, p + 4 + size) });
      p += 4 + size;
    }
    const trace = objects[0]!.content;
    return { container: 'v6', prefix: b.subarray(0, 20), objects, trailer: b.subarray(p), pointerSize: dv(trace).getInt32(32, true) };
  }
  const container: Container = isNettrace ? 'fs' : 'netperf';
  let p = isNettrace ? 32 : 24;
  const prefix = b.subarray(0, p);
  const objects: LayoutObject[] = [];
  while (b[p] !== 1) {
    // begin, begin, null, version, minVersion, nameLength, name, end
    const version = v.getInt32(p + 3, true);
    const minVersion = v.getInt32(p + 7, true);
    const nameLen = v.getInt32(p + 11, true);
    const name = String.fromCharCode(...b.subarray(p + 15, p + 15 + nameLen));
    p += 15 + nameLen + 1;
    const kind = FS_KIND[name] ?? (name === 'Microsoft.DotNet.Runtime.EventPipeFile' ? 1 : -1);
    if (kind === KIND.Trace) {
      objects.push({ name, kind, version, minVersion, content: b.subarray(p, p + 48) });
      p += 48 + 1;
      continue;
    }
    const size = v.getInt32(p, true);
    p += 4;
    p += (4 - (p % 4)) % 4;
    objects.push({ name, kind, version, minVersion, content: b.subarray(p, p + size) });
    p += size + 1;
  }
  const trace = objects[0]!.content;
  return { container, prefix, objects, trailer: b.subarray(p), pointerSize: dv(trace).getInt32(32, true) };
}

/** Where things landed in a serialized layout: for size lies and cuts at structure boundaries. */
export interface SerializedMap {
  /** Per object: its first byte, where its size field is (-1 for the FS Trace object), where its content starts and ends. */
  objects: { start: number; sizeAt: number; contentStart: number; contentEnd: number; end: number }[];
}

export class Out {
  private buf = new Uint8Array(1 << 16);
  length = 0;
  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.buf.subarray(0, this.length));
    this.buf = nb;
  }
  bytes(b: Uint8Array | number[]): this {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  u8(x: number): this {
    this.grow(1);
    this.buf[this.length++] = x & 0xff;
    return this;
  }
  u16(x: number): this {
    return this.u8(x).u8(x >>> 8);
  }
  i32(x: number): this {
    this.grow(4);
    dv(this.buf).setInt32(this.length, x | 0, true);
    this.length += 4;
    return this;
  }
  u32(x: number): this {
    return this.i32(x >>> 0);
  }
  u64(x: bigint): this {
    this.grow(8);
    dv(this.buf).setBigUint64(this.length, BigInt.asUintN(64, x), true);
    this.length += 8;
    return this;
  }
  zeros(n: number): this {
    this.grow(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  varuint(x: bigint | number): this {
    return this.bytes(encodeVarint(BigInt(x)));
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** LEB128; `len` > the minimal length pads with continuation bytes carrying zeros (an overlong but valid encoding). */
export function encodeVarint(x: bigint, len = 0): Uint8Array {
  const out: number[] = [];
  let v = BigInt.asUintN(64, x);
  do {
    out.push(Number(v & 0x7fn));
    v >>= 7n;
  } while (v !== 0n);
  while (out.length < len) out.push(0);
  for (let i = 0; i < out.length - 1; i++) out[i]! |= 0x80;
  return Uint8Array.from(out);
}

export function serialize(l: Layout): { bytes: Uint8Array; map: SerializedMap } {
  const o = new Out();
  const map: SerializedMap = { objects: [] };
  o.bytes(l.prefix);
  if (l.container === 'v6') {
    for (const ob of l.objects) {
      const start = o.length;
      o.u32(((ob.kind & 0xff) << 24) | (ob.content.length & 0xffffff));
      o.bytes(ob.content);
      map.objects.push({ start, sizeAt: start, contentStart: start + 4, contentEnd: o.length, end: o.length });
    }
  } else {
    const begin = l.container === 'fs' ? 5 : 4;
    for (const ob of l.objects) {
      const start = o.length;
      o.u8(begin).u8(begin).u8(1).i32(ob.version).i32(ob.minVersion).i32(ob.name.length);
      for (let i = 0; i < ob.name.length; i++) o.u8(ob.name.charCodeAt(i));
      o.u8(6);
      let sizeAt = -1;
      if (ob.kind !== KIND.Trace) {
        sizeAt = o.length;
        o.i32(ob.content.length);
        o.zeros((4 - (o.length % 4)) % 4);
      }
      const contentStart = o.length;
      o.bytes(ob.content);
      const contentEnd = o.length;
      o.u8(6);
      map.objects.push({ start, sizeAt, contentStart, contentEnd, end: o.length });
    }
  }
  o.bytes(l.trailer);
  return { bytes: o.result(), map };
}

// ---------------------------------------------------------------------------------------------
// Inside blocks

/** One field of an event blob: its name and raw bytes (varints keep their exact encoding). */
export interface BlobField {
  name: string;
  raw: Uint8Array;
  /** Set for varint fields. */
  varint?: boolean;
}

/** A compressed event blob (V4–V6): flags byte, the fields it says are present, the payload. */
export interface Blob {
  fields: BlobField[];
  payload: Uint8Array;
}

/** A V4–V6 event or metadata block: its header, then compressed blobs (or, uncompressed, one opaque tail). */
export interface EventBlockContent {
  header: Uint8Array;
  compressed: boolean;
  blobs: Blob[];
  /** Uncompressed blocks are not split: their events stay one opaque run. */
  rest: Uint8Array;
}

function readVarint(b: Uint8Array, p: number): { value: bigint; len: number } {
  let value = 0n;
  let shift = 0n;
  let i = p;
  for (;;) {
    if (i >= b.length) throw new RangeError('varint runs past the end');
    const x = b[i++]!;
    value |= BigInt(x & 0x7f) << shift;
    shift += 7n;
    if ((x & 0x80) === 0) break;
    if (i - p > 10) throw new RangeError('varint longer than 10 bytes');
  }
  return { value, len: i - p };
}

/** Splits a V4–V6 event or metadata block into its compressed blobs (the real writer compresses every block). */
export function parseEventBlock(c: Uint8Array, v6: boolean): EventBlockContent {
  const headerSize = dv(c).getUint16(0, true);
  const flags = dv(c).getUint16(2, true);
  const header = c.subarray(0, headerSize);
  const compressed = (flags & 1) !== 0;
  if (!compressed) return { header, compressed, blobs: [], rest: c.subarray(headerSize) };
  const blobs: Blob[] = [];
  let p = headerSize;
  let payloadSize = 0;
  while (p < c.length) {
    const fields: BlobField[] = [];
    const f = c[p]!;
    fields.push({ name: 'flags', raw: c.subarray(p, p + 1) });
    p++;
    const vfield = (name: string): bigint => {
      const r = readVarint(c, p);
      fields.push({ name, raw: c.subarray(p, p + r.len), varint: true });
      p += r.len;
      return r.value;
    };
    const fixed = (name: string, n: number): void => {
      fields.push({ name, raw: c.subarray(p, p + n) });
      p += n;
    };
    if (f & 0x01) vfield('metadataId');
    if (f & 0x02) {
      vfield('sequenceDelta');
      vfield('captureThreadId');
      vfield('processorNumber');
    }
    if (f & 0x04) vfield('threadId');
    if (f & 0x08) vfield('stackId');
    vfield('timestampDelta');
    if (v6) {
      if (f & 0x10) vfield('labelListId');
    } else {
      if (f & 0x10) fixed('activityId', 16);
      if (f & 0x20) fixed('relatedActivityId', 16);
    }
    if (f & 0x80) payloadSize = Number(vfield('payloadSize'));
    blobs.push({ fields, payload: c.subarray(p, p + payloadSize) });
    p += payloadSize;
  }
  return { header, compressed, blobs, rest: new Uint8Array(0) };
}

export function serializeEventBlock(b: EventBlockContent): Uint8Array {
  const o = new Out().bytes(b.header);
  for (const blob of b.blobs) {
    for (const f of blob.fields) o.bytes(f.raw);
    o.bytes(blob.payload);
  }
  return o.bytes(b.rest).result();
}

/** A NetPerf V3 event: i32 size (of what follows, padding included), then a fixed 52-byte header, payload, i32 stack size, stack, padding. */
export interface V3Event {
  /** The 52 header bytes after the size: metadataId, threadId, timestamp, activity ids, payload size. */
  head: Uint8Array;
  payload: Uint8Array;
  stack: Uint8Array;
}

export function parseV3Events(c: Uint8Array): V3Event[] {
  const v = dv(c);
  const out: V3Event[] = [];
  let p = 0;
  while (p + 4 <= c.length) {
    const size = v.getInt32(p, true);
    const end = p + 4 + size;
    const head = c.subarray(p + 4, p + 56);
    const payloadSize = v.getInt32(p + 52, true);
    const payload = c.subarray(p + 56, p + 56 + payloadSize);
    const sp = p + 56 + payloadSize;
    const stackSize = sp + 4 <= end ? v.getInt32(sp, true) : 0;
    out.push({ head, payload, stack: c.subarray(sp + 4, sp + 4 + Math.max(0, stackSize)) });
    p = end;
  }
  return out;
}

/** Re-frames V3 events with consistent sizes and padding (payload size in the header is rewritten unless `keepPayloadSize`). */
export function serializeV3Events(events: V3Event[], keepPayloadSize = false): Uint8Array {
  const o = new Out();
  for (const e of events) {
    const head = e.head.slice();
    if (!keepPayloadSize) dv(head).setInt32(48, e.payload.length, true);
    const body = 52 + e.payload.length + 4 + e.stack.length;
    const padded = body + ((4 - (body % 4)) % 4);
    o.i32(padded)
      .bytes(head)
      .bytes(e.payload)
      .i32(e.stack.length)
      .bytes(e.stack)
      .zeros(padded - body);
  }
  return o.result();
}

/** A named spot in a structure: an integer field of `size` bytes at `at` (or a string's first byte). */
export interface Spot {
  what: string;
  at: number;
  size: 1 | 2 | 4 | 8;
}

/** Spots in a V3–V5 metadata payload: ids, counts, type codes, name starts, tag lengths. */
export function metadataSpotsV5(m: Uint8Array): Spot[] {
  const spots: Spot[] = [];
  const v = dv(m);
  let p = 0;
  const need = (n: number): boolean => p + n <= m.length;
  const utf16z = (what: string): void => {
    spots.push({ what, at: p, size: 2 });
    while (need(2) && v.getUint16(p, true) !== 0) p += 2;
    p += 2;
  };
  if (!need(4)) return spots;
  spots.push({ what: 'metadata id', at: p, size: 4 });
  p += 4;
  utf16z('provider name');
  if (!need(4)) return spots;
  spots.push({ what: 'event id', at: p, size: 4 });
  p += 4;
  utf16z('event name');
  if (!need(16)) return spots;
  spots.push({ what: 'keywords', at: p, size: 8 }, { what: 'version', at: p + 8, size: 4 }, { what: 'level', at: p + 12, size: 4 });
  p += 16;
  const fields = (depth: number): boolean => {
    if (!need(4) || depth > 8) return false;
    const n = v.getInt32(p, true);
    spots.push({ what: 'field count', at: p, size: 4 });
    p += 4;
    for (let i = 0; i < n && i < 256; i++) {
      if (!need(4)) return false;
      const code = v.getInt32(p, true);
      spots.push({ what: 'field type code', at: p, size: 4 });
      p += 4;
      if (code === 1 && !fields(depth + 1)) return false;
      if (!need(2)) return false;
      utf16z('field name');
    }
    return true;
  };
  if (p < m.length && fields(0)) {
    while (need(5)) {
      spots.push({ what: 'tag length', at: p, size: 4 }, { what: 'tag kind', at: p + 4, size: 1 });
      const len = v.getInt32(p, true);
      if (m[p + 4] === 2 && need(13)) spots.push({ what: 'V2Params field count', at: p + 5, size: 4 }, { what: 'V2Params field size', at: p + 9, size: 4 });
      p += 5 + Math.max(0, len);
    }
  }
  return spots.filter((s) => s.at + s.size <= m.length);
}

/** Spots in a V6 metadata block: header size, row sizes, ids, field counts and sizes, type codes. */
export function metadataSpotsV6(c: Uint8Array): Spot[] {
  const spots: Spot[] = [{ what: 'metadata block header size', at: 0, size: 2 }];
  const v = dv(c);
  let p = 2 + v.getUint16(0, true);
  while (p + 2 <= c.length) {
    const size = v.getUint16(p, true);
    spots.push({ what: 'metadata row size', at: p, size: 2 }, { what: 'metadata id', at: p + 2, size: 1 });
    const row = p + 2;
    const end = row + size;
    // id, provider, event id, name: varint-prefixed; then u16 field count and {u16 size, name, type} fields.
    let q = row;
    try {
      q += readVarint(c, q).len;
      const pl = readVarint(c, q);
      q += pl.len + Number(pl.value);
      spots.push({ what: 'event id', at: q, size: 1 });
      q += readVarint(c, q).len;
      const nl = readVarint(c, q);
      spots.push({ what: 'event name length', at: q, size: 1 });
      q += nl.len + Number(nl.value);
      if (q + 2 <= end) {
        spots.push({ what: 'field count', at: q, size: 2 });
        const n = v.getUint16(q, true);
        q += 2;
        for (let i = 0; i < n && q + 2 <= end; i++) {
          const fs = v.getUint16(q, true);
          spots.push({ what: 'field size', at: q, size: 2 });
          const fl = readVarint(c, q + 2);
          const typeAt = q + 2 + fl.len + Number(fl.value);
          if (typeAt < end) spots.push({ what: 'field type code', at: typeAt, size: 1 });
          q += 2 + fs;
        }
        if (q + 2 <= end) spots.push({ what: 'optional metadata size', at: q, size: 2 });
        if (q + 3 <= end) spots.push({ what: 'optional metadata kind', at: q + 2, size: 1 });
      }
    } catch {
      // A row the walker cannot follow: its size spot is enough.
    }
    p = end;
  }
  return spots.filter((s) => s.at + s.size <= c.length);
}

/** Spots in a stack block: first id, count, each stack's byte length. */
export function stackSpots(c: Uint8Array): Spot[] {
  const spots: Spot[] = [
    { what: 'first stack id', at: 0, size: 4 },
    { what: 'stack count', at: 4, size: 4 },
  ];
  const v = dv(c);
  let p = 8;
  while (p + 4 <= c.length && spots.length < 2000) {
    spots.push({ what: 'stack byte length', at: p, size: 4 });
    p += 4 + v.getUint32(p, true);
  }
  return spots.filter((s) => s.at + s.size <= c.length);
}

/** Spots in a sequence point: timestamp, (V6 flags), thread count, per-thread id and sequence number. */
export function sequencePointSpots(c: Uint8Array, v6: boolean): Spot[] {
  const spots: Spot[] = [{ what: 'sequence point timestamp', at: 0, size: 8 }];
  if (v6) {
    spots.push({ what: 'sequence point flags', at: 8, size: 4 }, { what: 'sequence point thread count', at: 12, size: 4 });
    if (c.length > 16) spots.push({ what: 'sequence point thread index', at: 16, size: 1 });
  } else {
    spots.push({ what: 'sequence point thread count', at: 8, size: 4 });
    for (let p = 12; p + 12 <= c.length && spots.length < 200; p += 12) {
      spots.push({ what: 'sequence point thread id', at: p, size: 8 }, { what: 'sequence point sequence number', at: p + 8, size: 4 });
    }
  }
  return spots.filter((s) => s.at + s.size <= c.length);
}

/** Spots in the trace header (V3–V5 48 bytes; V6 up to the key/value count). */
export function traceSpots(v6: boolean): Spot[] {
  const s: Spot[] = [
    { what: 'sync time year', at: 0, size: 2 },
    { what: 'sync time month', at: 2, size: 2 },
    { what: 'sync time day', at: 6, size: 2 },
    { what: 'sync time QPC', at: 16, size: 8 },
    { what: 'QPC frequency', at: 24, size: 8 },
    { what: 'pointer size', at: 32, size: 4 },
  ];
  if (v6) s.push({ what: 'key/value count', at: 36, size: 4 }, { what: 'first key length', at: 40, size: 1 });
  else s.push({ what: 'process id', at: 36, size: 4 }, { what: 'processor count', at: 40, size: 4 }, { what: 'sampling rate', at: 44, size: 4 });
  return s;
}
