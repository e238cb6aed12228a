/**
 * Builds NetTrace byte streams from the specs (perfview NetTraceFormat.md for V6,
 * NetTraceFormat_v5.md for V4/V5) for edge cases no real file has: V6 (no real V6 file exists),
 * uncompressed V4 headers, wrapped timestamps, dropped events, label-list overrides.
 */

export class Bytes {
  private parts: number[] = [];
  get length(): number {
    return this.parts.length;
  }
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >>> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16((v >>> 16) & 0xffff);
  }
  i32(v: number): this {
    return this.u32(v >>> 0);
  }
  u64(v: bigint | number): this {
    const b = BigInt.asUintN(64, BigInt(v));
    return this.u32(Number(b & 0xffffffffn)).u32(Number(b >> 32n));
  }
  f32(v: number): this {
    const a = new Uint8Array(new Float32Array([v]).buffer);
    a.forEach((x) => this.u8(x));
    return this;
  }
  varuint(v: bigint | number): this {
    let b = BigInt.asUintN(64, BigInt(v));
    do {
      let byte = Number(b & 0x7fn);
      b >>= 7n;
      if (b !== 0n) byte |= 0x80;
      this.u8(byte);
    } while (b !== 0n);
    return this;
  }
  utf8v(s: string): this {
    const e = new TextEncoder().encode(s);
    this.varuint(e.length);
    return this.bytes(e);
  }
  utf16z(s: string): this {
    for (let i = 0; i < s.length; i++) this.u16(s.charCodeAt(i));
    return this.u16(0);
  }
  ascii(s: string): this {
    for (let i = 0; i < s.length; i++) this.u8(s.charCodeAt(i));
    return this;
  }
  bytes(b: Uint8Array | number[] | Bytes): this {
    const arr = b instanceof Bytes ? b.parts : Array.from(b);
    for (const x of arr) this.parts.push(x);
    return this;
  }
  zeros(n: number): this {
    for (let i = 0; i < n; i++) this.parts.push(0);
    return this;
  }
  toUint8Array(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function systemTime(b: Bytes, d = new Date(Date.UTC(2026, 10, 22, 1, 2, 3, 456))): Bytes {
  return b
    .u16(d.getUTCFullYear())
    .u16(d.getUTCMonth() + 1)
    .u16(d.getUTCDay())
    .u16(d.getUTCDate())
    .u16(d.getUTCHours())
    .u16(d.getUTCMinutes())
    .u16(d.getUTCSeconds())
    .u16(d.getUTCMilliseconds());
}

export interface BuiltEvent {
  metadataId: number;
  /** V4/V5: OS thread id; V6: thread index. */
  threadId: number;
  captureThreadId: number;
  sequenceNumber: number;
  processorNumber?: number;
  stackId?: number;
  /** Absolute tick value. */
  timestamp: bigint;
  payload: Uint8Array;
  sorted?: boolean;
  labelListId?: number;
  activityId?: number[];
}

/** Compressed header encoding shared by V4/V5 (v6 = false) and V6 event blocks. */
export function compressedEvents(events: BuiltEvent[], v6: boolean): Bytes {
  const b = new Bytes();
  let prev = { md: 0, seq: 0, cap: 0, proc: 0, tid: 0, stack: 0, ts: 0n, label: 0, size: 0 };
  for (const e of events) {
    let flags = 0;
    if (e.metadataId !== prev.md) flags |= 0x01;
    const proc = e.processorNumber ?? 0;
    const expectedSeq = e.metadataId !== 0 ? prev.seq + 1 : prev.seq;
    const seqChanged = e.sequenceNumber !== expectedSeq || e.captureThreadId !== prev.cap || proc !== prev.proc;
    if (seqChanged) flags |= 0x02;
    if (e.threadId !== prev.tid) flags |= 0x04;
    if ((e.stackId ?? 0) !== prev.stack) flags |= 0x08;
    if (v6 && (e.labelListId ?? 0) !== prev.label) flags |= 0x10;
    if (!v6 && e.activityId !== undefined) flags |= 0x10;
    if (e.sorted === true) flags |= 0x40;
    if (e.payload.length !== prev.size) flags |= 0x80;
    b.u8(flags);
    if (flags & 0x01) b.varuint(e.metadataId);
    if (flags & 0x02)
      b.varuint((e.sequenceNumber - prev.seq - 1) >>> 0)
        .varuint(e.captureThreadId)
        .varuint(proc);
    if (flags & 0x04) b.varuint(e.threadId);
    if (flags & 0x08) b.varuint(e.stackId ?? 0);
    b.varuint(BigInt.asUintN(64, e.timestamp - prev.ts));
    if (v6 && flags & 0x10) b.varuint(e.labelListId ?? 0);
    if (!v6 && flags & 0x10) b.bytes(e.activityId!);
    if (flags & 0x80) b.varuint(e.payload.length);
    b.bytes(e.payload);
    prev = {
      md: e.metadataId,
      seq: e.sequenceNumber,
      cap: e.captureThreadId,
      proc,
      tid: e.threadId,
      stack: e.stackId ?? 0,
      ts: e.timestamp,
      label: e.labelListId ?? 0,
      size: e.payload.length,
    };
  }
  return b;
}

function eventBlockHeader(compressed: boolean, headerSize = 20): Bytes {
  return new Bytes()
    .u16(headerSize)
    .u16(compressed ? 1 : 0)
    .u64(0)
    .u64(0)
    .zeros(headerSize - 20);
}

// ------------------------------------------------------------------------------------------
// V6

export interface V6Field {
  name: string;
  /** Type bytes: type code followed by any element type / count / nested fields. */
  type: Bytes;
}

export interface V6Metadata {
  id: number;
  provider: string;
  eventId: number;
  name?: string;
  fields?: V6Field[];
  version?: number;
  opcode?: number;
  level?: number;
  keywords?: bigint;
}

export class V6Builder {
  private out = new Bytes();
  constructor(minor = 0) {
    this.out.ascii('Nettrace').u32(0).u32(6).u32(minor);
  }
  private block(kind: number, content: Bytes): this {
    this.out.u32((kind << 24) | content.length).bytes(content);
    return this;
  }
  trace(o: { syncQpc: bigint; freq: number; pointerSize: number; kv: Record<string, string> }): this {
    const b = systemTime(new Bytes()).u64(o.syncQpc).u64(o.freq).i32(o.pointerSize).i32(Object.keys(o.kv).length);
    for (const [k, v] of Object.entries(o.kv)) b.utf8v(k).utf8v(v);
    return this.block(1, b);
  }
  metadata(rows: V6Metadata[]): this {
    const b = new Bytes().u16(2).u16(0);
    for (const m of rows) {
      const row = new Bytes()
        .varuint(m.id)
        .utf8v(m.provider)
        .varuint(m.eventId)
        .utf8v(m.name ?? '');
      const fields = m.fields ?? [];
      row.u16(fields.length);
      for (const f of fields) {
        const fd = new Bytes().utf8v(f.name).bytes(f.type);
        row.u16(fd.length).bytes(fd);
      }
      const opt = new Bytes();
      if (m.opcode !== undefined) opt.u8(1).u8(m.opcode);
      if (m.keywords !== undefined) opt.u8(3).u64(m.keywords);
      if (m.level !== undefined) opt.u8(8).u8(m.level);
      if (m.version !== undefined) opt.u8(9).u8(m.version);
      row.u16(opt.length).bytes(opt);
      b.u16(row.length).bytes(row);
    }
    return this.block(3, b);
  }
  threads(rows: { index: number; tid: number; pid?: number; name?: string }[]): this {
    const b = new Bytes();
    for (const t of rows) {
      const row = new Bytes().varuint(t.index);
      if (t.name !== undefined) row.u8(1).utf8v(t.name);
      if (t.pid !== undefined) row.u8(2).varuint(t.pid);
      row.u8(3).varuint(t.tid);
      row.u8(4).utf8v('k').utf8v('v');
      b.u16(row.length).bytes(row);
    }
    return this.block(6, b);
  }
  labelLists(first: number, lists: Bytes[]): this {
    const b = new Bytes().u32(first).u32(lists.length);
    for (const l of lists) b.bytes(l);
    return this.block(8, b);
  }
  events(events: BuiltEvent[], compressed = true): this {
    const b = eventBlockHeader(compressed);
    if (compressed) b.bytes(compressedEvents(events, true));
    else {
      for (const e of events) {
        const body = new Bytes()
          .u32((e.metadataId | (e.sorted === true ? 0 : 0x80000000)) >>> 0)
          .i32(e.sequenceNumber)
          .u64(e.threadId)
          .u64(e.captureThreadId)
          .u32(e.processorNumber ?? 0)
          .u32(e.stackId ?? 0)
          .u64(e.timestamp)
          .u32(e.labelListId ?? 0)
          .u32(e.payload.length)
          .bytes(e.payload);
        b.i32(body.length).bytes(body);
      }
    }
    return this.block(2, b);
  }
  stack(): this {
    return this.block(5, new Bytes().u32(1).u32(1).u32(8).u64(0x1234n));
  }
  stacks(firstId: number, stacks: (bigint | number)[][], pointerSize = 8): this {
    return this.block(5, stackBlockContent(firstId, stacks, pointerSize));
  }
  rawStackBlock(content: Bytes): this {
    return this.block(5, content);
  }
  sequencePoint(threads: [number, number][], flags = 0, ts = 0n): this {
    const b = new Bytes().u64(ts).u32(flags).u32(threads.length);
    for (const [i, s] of threads) b.varuint(i).varuint(s);
    return this.block(4, b);
  }
  removeThreads(rows: [number, number][]): this {
    const b = new Bytes();
    for (const [i, s] of rows) b.varuint(i).varuint(s);
    return this.block(7, b);
  }
  unknownBlock(kind: number, size: number): this {
    return this.block(kind, new Bytes().zeros(size));
  }
  end(): Uint8Array {
    this.block(0, new Bytes());
    return this.out.toUint8Array();
  }
}

/**
 * Stack block content (NetTraceFormat_v5.md "StackBlock", the same in V6): u32 FirstId, u32 Count,
 * then per stack u32 byte length and the return addresses, each `pointerSize` bytes.
 */
export function stackBlockContent(firstId: number, stacks: (bigint | number)[][], pointerSize = 8): Bytes {
  const b = new Bytes().u32(firstId).u32(stacks.length);
  for (const s of stacks) {
    b.u32(s.length * pointerSize);
    for (const a of s) {
      if (pointerSize === 8) b.u64(a);
      else b.u32(Number(a));
    }
  }
  return b;
}

// ------------------------------------------------------------------------------------------
// V4/V5 (FastSerialization)

export interface V5Metadata {
  id: number;
  provider: string;
  eventId: number;
  name?: string;
  version?: number;
  keywords?: bigint;
  level?: number;
  /** V1 field list bytes (count + fields) — omitted for native runtime events. */
  fieldsV1?: Bytes;
  /** Raw V5 tags (i32 size, u8 kind, payload) appended after the field list. */
  tags?: Bytes;
}

export function metadataPayloadV5(m: V5Metadata): Uint8Array {
  const b = new Bytes()
    .i32(m.id)
    .utf16z(m.provider)
    .i32(m.eventId)
    .utf16z(m.name ?? '')
    .u64(m.keywords ?? 1n)
    .i32(m.version ?? 0)
    .i32(m.level ?? 4);
  if (m.fieldsV1 !== undefined) b.bytes(m.fieldsV1);
  else if (m.tags !== undefined) b.i32(0);
  if (m.tags !== undefined) b.bytes(m.tags);
  return b.toUint8Array();
}

export class V4Builder {
  private out = new Bytes();
  constructor() {
    this.out.ascii('Nettrace').i32(20).ascii('!FastSerialization.1');
  }
  private typeHeader(name: string, version: number, minVersion: number): void {
    this.out.u8(5).u8(5).u8(1).i32(version).i32(minVersion).i32(name.length).ascii(name).u8(6);
  }
  trace(o: { syncQpc: bigint; freq: number; pointerSize: number; pid: number; cpus?: number }): this {
    this.typeHeader('Trace', 4, 4);
    systemTime(this.out)
      .u64(o.syncQpc)
      .u64(o.freq)
      .i32(o.pointerSize)
      .i32(o.pid)
      .i32(o.cpus ?? 2)
      .i32(1000000);
    this.out.u8(6);
    return this;
  }
  private block(name: string, content: Bytes): this {
    this.typeHeader(name, 2, 2);
    this.out.i32(content.length);
    this.out.zeros((4 - (this.out.length % 4)) % 4);
    this.out.bytes(content).u8(6);
    return this;
  }
  metadata(rows: V5Metadata[]): this {
    const events: BuiltEvent[] = rows.map((m) => ({
      metadataId: 0,
      threadId: 0,
      captureThreadId: 0,
      sequenceNumber: 0,
      timestamp: 0n,
      payload: metadataPayloadV5(m),
    }));
    return this.block('MetadataBlock', eventBlockHeader(true).bytes(compressedEvents(events, false)));
  }
  events(events: BuiltEvent[], compressed = true): this {
    const b = eventBlockHeader(compressed);
    if (compressed) b.bytes(compressedEvents(events, false));
    else {
      for (const e of events) {
        const body = new Bytes()
          .u32((e.metadataId | (e.sorted === true ? 0 : 0x80000000)) >>> 0)
          .i32(e.sequenceNumber)
          .u64(e.threadId)
          .u64(e.captureThreadId)
          .u32(e.processorNumber ?? 0)
          .u32(e.stackId ?? 0)
          .u64(e.timestamp)
          .bytes(e.activityId ?? new Array<number>(16).fill(0))
          .zeros(16)
          .i32(e.payload.length)
          .bytes(e.payload);
        b.i32(body.length).bytes(body);
        b.zeros((4 - (body.length % 4)) % 4);
      }
    }
    return this.block('EventBlock', b);
  }
  stack(): this {
    return this.block('StackBlock', new Bytes().u32(1).u32(1).u32(8).u64(0x1234n));
  }
  stacks(firstId: number, stacks: (bigint | number)[][], pointerSize = 8): this {
    return this.block('StackBlock', stackBlockContent(firstId, stacks, pointerSize));
  }
  rawStackBlock(content: Bytes): this {
    return this.block('StackBlock', content);
  }
  sequencePoint(threads: [number, number][], ts = 0n): this {
    const b = new Bytes().u64(ts).u32(threads.length);
    for (const [t, s] of threads) b.u64(t).u32(s);
    return this.block('SPBlock', b);
  }
  end(): Uint8Array {
    this.out.u8(1);
    return this.out.toUint8Array();
  }
  /** Bytes so far without the end-of-stream tag. */
  partial(): Uint8Array {
    return this.out.toUint8Array();
  }
}

// ------------------------------------------------------------------------------------------
// GC payloads (docs/formats.md §3.5, P = 8)

export function gcStartV2(count: number, depth: number, reason: number, type: number, seq = 0n): Uint8Array {
  return new Bytes().u32(count).u32(depth).u32(reason).u32(type).u16(7).u64(seq).toUint8Array();
}
export function gcEndV1(count: number, depth: number): Uint8Array {
  return new Bytes().u32(count).u32(depth).u16(7).toUint8Array();
}
export function heapStatsV2(sizes: number[], promoted: number[]): Uint8Array {
  const b = new Bytes();
  for (let g = 0; g < 4; g++) b.u64(sizes[g]!).u64(promoted[g]!);
  b.u64(111).u64(3).u32(4).u32(5).u32(6).u16(7).u64(sizes[4]!).u64(promoted[4]!);
  return b.toUint8Array();
}
