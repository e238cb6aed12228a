/**
 * The fuzzer's model of an ETW log file (.etl), parsed without the reader under test
 * (src-main/etl) so a misreading there cannot hide here. Layout (docs/formats.md §2.11,
 * /work/shared/reference/etl.md):
 *
 * - the file is a sequence of buffers, each a 0x48-byte WMI_BUFFER_HEADER — u32 BufferSize (the
 *   physical size: the stride to the next buffer) @0, u32 SavedOffset @4, u32 CurrentOffset @8,
 *   u8 ProcessorNumber @0x28, u32 Offset @0x30, u16 BufferFlag @0x34 (0x40: the rest is MS-XCA
 *   plain LZ77, decompressing to SavedOffset − 0x48 bytes), u16 BufferType @0x36 — then its data;
 * - a buffer's (logical) data is 8-byte-aligned events, up to max(SavedOffset, Offset) for a
 *   plain buffer and SavedOffset for a compressed one, ended early by a u32 0 or 0xFFFFFFFF;
 * - every event starts `u16, u8 HeaderType, u8 MarkerFlags (0xC0)`; SYSTEM (1/2), COMPACT (3/4)
 *   and PERFINFO (16/17) headers keep their u16 Size at +4, the others (EVENT_HEADER 18/19,
 *   FULL 10/20, INSTANCE, WNODE, MESSAGE) at +0. EVENT_HEADER: u16 Flags @4 (bit 0: extended
 *   data items follow the 0x50-byte header, each `u16 ItemSize, u16 ExtType, u16 Linkage (bit 0:
 *   another follows), u16 DataSize`), provider GUID @0x18, u16 Id @0x28, u8 Version @0x2A;
 * - the first event of the first buffer is a SYSTEM header "EventTrace/Header" whose payload
 *   (+0x20) is TRACE_LOGFILE_HEADER: BufferSize @0, NumberOfProcessors @0xC, PointerSize @0x2C,
 *   EventsLost @0x30, two pointers, TIME_ZONE_INFORMATION (0xAC), then 8-byte aligned BootTime,
 *   PerfFreq, StartTime, u32 ClockType, u32 BuffersLost, the UTF-16 names. PointerSize moves
 *   everything after 0x38 (PerfFreq at 0x100 with 8, 0xF8 with 4).
 *
 * `serialize(parse(x))` gives x byte for byte as long as no buffer is touched (untouched
 * buffers keep their physical bytes, compressed or not). A buffer whose events are edited is
 * rebuilt from them uncompressed: flag 0x40 cleared, BufferSize the new length, SavedOffset and
 * Offset moved with the events' end — so every size around a mutation stays consistent.
 */

export const BUFFER_HEADER = 0x48;
export const FLAG_COMPRESSED = 0x40;

export interface EtlEvent {
  /** The event's bytes with its padding to 8 (what the buffer holds from this event to the next). */
  bytes: Uint8Array;
  type: number;
}

export interface EtlBuffer {
  /** The buffer's physical bytes as the file holds them (BufferSize of them). */
  raw: Uint8Array;
  compressed: boolean;
  /** Events, when the buffer's data was parsed (undefined: not walkable — kept raw). */
  events?: EtlEvent[];
  /** Logical bytes after the events (end marker, fill) up to the logical end. */
  trailer?: Uint8Array;
  /** Offset in the logical buffer where the events end. */
  eventsEnd?: number;
  /** The logical buffer's length (BufferSize for plain, SavedOffset for compressed). */
  logicalLength?: number;
  /** When compressed: where the match tokens and length escapes are in `raw` (absolute in raw). */
  tokens?: Lz77Token[];
  /** Set when a mutation changed events/trailer: serialize rebuilds the buffer uncompressed. */
  dirty?: boolean;
}

export interface EtlLayout {
  buffers: EtlBuffer[];
  /** Bytes after the last whole buffer (zero padding of a preallocated file, or a partial buffer). */
  tail: Uint8Array;
}

export interface Lz77Token {
  /** Offset in the compressed stream (from the start of raw) of the u16 match token. */
  at: number;
  /** Where its extra length field(s) are: a nibble (in a byte shared by two matches: nibbleHigh says which half), a byte, a u16, a u32. */
  escapes: { at: number; width: 1 | 2 | 4; nibbleHigh?: boolean }[];
}

export const u16 = (b: Uint8Array, p: number): number => b[p]! | (b[p + 1]! << 8);
export const u32 = (b: Uint8Array, p: number): number => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
export function setU16(b: Uint8Array, p: number, v: number): void {
  b[p] = v & 255;
  b[p + 1] = (v >>> 8) & 255;
}
export function setU32(b: Uint8Array, p: number, v: number): void {
  b[p] = v & 255;
  b[p + 1] = (v >>> 8) & 255;
  b[p + 2] = (v >>> 16) & 255;
  b[p + 3] = (v >>> 24) & 255;
}

/** Header types whose u16 Size is at +4 (SYSTEM, COMPACT, PERFINFO); the rest keep it at +0. */
export const SIZE_AT_4 = new Set([1, 2, 3, 4, 16, 17]);
export const HEADER_SIZE: Record<number, number> = { 1: 0x20, 2: 0x20, 3: 0x18, 4: 0x18, 10: 0x30, 20: 0x30, 16: 0x10, 17: 0x10, 18: 0x50, 19: 0x50 };
export const sizeAt = (type: number): number => (SIZE_AT_4.has(type) ? 4 : 0);
export const eventSizeOf = (e: Uint8Array, type: number): number => u16(e, sizeAt(type));

/**
 * MS-XCA plain LZ77 (MS-XCA §2.4), written here for the fuzzer, recording where each match token
 * and its length escapes are so mutations can aim at them. Returns undefined when the stream is
 * not plain LZ77 of exactly `size` bytes.
 */
export function lz77Decode(input: Uint8Array, start: number, size: number): { out: Uint8Array; tokens: Lz77Token[] } | undefined {
  const out = new Uint8Array(size);
  const tokens: Lz77Token[] = [];
  let ip = start;
  let op = 0;
  let flags = 0;
  let nflags = 0;
  let nibbleAt = -1;
  const n = input.length;
  for (;;) {
    if (nflags === 0) {
      if (ip + 4 > n) break;
      flags = u32(input, ip);
      ip += 4;
      nflags = 32;
    }
    nflags--;
    if (((flags >>> nflags) & 1) === 0) {
      if (ip >= n) break;
      if (op >= size) return undefined;
      out[op++] = input[ip++]!;
      continue;
    }
    if (ip === n) break;
    if (ip + 2 > n) return undefined;
    const tok: Lz77Token = { at: ip, escapes: [] };
    const t = u16(input, ip);
    ip += 2;
    let len = t & 7;
    const off = (t >>> 3) + 1;
    if (len === 7) {
      if (nibbleAt < 0) {
        if (ip >= n) return undefined;
        nibbleAt = ip;
        tok.escapes.push({ at: ip, width: 1, nibbleHigh: false });
        len = input[ip++]! & 15;
      } else {
        tok.escapes.push({ at: nibbleAt, width: 1, nibbleHigh: true });
        len = input[nibbleAt]! >>> 4;
        nibbleAt = -1;
      }
      if (len === 15) {
        if (ip >= n) return undefined;
        tok.escapes.push({ at: ip, width: 1 });
        len = input[ip++]!;
        if (len === 255) {
          if (ip + 2 > n) return undefined;
          tok.escapes.push({ at: ip, width: 2 });
          len = u16(input, ip);
          ip += 2;
          if (len === 0) {
            if (ip + 4 > n) return undefined;
            tok.escapes.push({ at: ip, width: 4 });
            len = u32(input, ip);
            ip += 4;
          }
          if (len < 22) return undefined;
          len -= 22;
        }
        len += 15;
      }
      len += 7;
    }
    len += 3;
    if (off > op || op + len > size) return undefined;
    for (let k = 0; k < len; k++, op++) out[op] = out[op - off]!;
    tokens.push(tok);
  }
  return op === size ? { out, tokens } : undefined;
}

/** Walks a logical buffer's events from 0x48 to `end`; undefined when they do not walk cleanly. */
export function walkEvents(logical: Uint8Array, end: number): { events: EtlEvent[]; eventsEnd: number } | undefined {
  const events: EtlEvent[] = [];
  let p = BUFFER_HEADER;
  while (p + 4 <= end) {
    const marker = u32(logical, p);
    if (marker === 0 || marker === 0xffffffff) break;
    const type = logical[p + 2]!;
    if ((logical[p + 3]! & 0xc0) !== 0xc0) return undefined;
    const size = u16(logical, p + sizeAt(type));
    if (size < Math.max(4, HEADER_SIZE[type] ?? 0) || p + size > end) return undefined;
    const next = Math.min(logical.length, p + ((size + 7) & ~7));
    events.push({ bytes: logical.slice(p, next), type });
    p = next;
  }
  return { events, eventsEnd: p };
}

export function parseBuffer(raw: Uint8Array): EtlBuffer {
  const compressed = (u16(raw, 0x34) & FLAG_COMPRESSED) !== 0;
  const b: EtlBuffer = { raw, compressed };
  let logical: Uint8Array;
  let end: number;
  if (compressed) {
    const saved = u32(raw, 4);
    if (saved < BUFFER_HEADER) return b;
    const d = lz77Decode(raw, BUFFER_HEADER, saved - BUFFER_HEADER);
    if (d === undefined) return b;
    logical = new Uint8Array(saved);
    logical.set(raw.subarray(0, BUFFER_HEADER));
    logical.set(d.out, BUFFER_HEADER);
    b.tokens = d.tokens;
    end = saved;
  } else {
    logical = raw;
    end = Math.min(raw.length, Math.max(u32(raw, 4), u32(raw, 0x30)));
  }
  const w = walkEvents(logical, end);
  if (w === undefined) return b;
  b.events = w.events;
  b.eventsEnd = w.eventsEnd;
  b.trailer = logical.slice(w.eventsEnd);
  b.logicalLength = logical.length;
  return b;
}

export function parseEtl(bytes: Uint8Array): EtlLayout {
  const buffers: EtlBuffer[] = [];
  let p = 0;
  while (p + BUFFER_HEADER <= bytes.length) {
    const size = u32(bytes, p);
    if (size < BUFFER_HEADER || p + size > bytes.length) break;
    buffers.push(parseBuffer(bytes.slice(p, p + size)));
    p += size;
  }
  return { buffers, tail: bytes.slice(p) };
}

/** The logical (uncompressed) bytes of a parsed buffer as a rebuilt plain buffer, sizes moved with its events. */
export function rebuildBuffer(b: EtlBuffer): Uint8Array {
  if (b.events === undefined) return b.raw;
  const evLen = b.events.reduce((s, e) => s + e.bytes.length, 0);
  const eventsEnd = BUFFER_HEADER + evLen;
  const out = new Uint8Array(eventsEnd + b.trailer!.length);
  out.set(b.raw.subarray(0, BUFFER_HEADER));
  let p = BUFFER_HEADER;
  for (const e of b.events) {
    out.set(e.bytes, p);
    p += e.bytes.length;
  }
  out.set(b.trailer!, p);
  const delta = eventsEnd - b.eventsEnd!;
  setU32(out, 0, out.length);
  const moved = (v: number): number => (v >= b.eventsEnd! ? v + delta : v);
  if (b.compressed) {
    // The logical buffer ends at SavedOffset: all of it is data.
    setU32(out, 4, out.length);
    setU32(out, 0x30, out.length);
    setU16(out, 0x34, u16(out, 0x34) & ~FLAG_COMPRESSED);
  } else {
    setU32(out, 4, moved(u32(b.raw, 4)));
    setU32(out, 0x30, moved(u32(b.raw, 0x30)));
  }
  return out;
}

export interface Serialized {
  bytes: Uint8Array;
  /** Start offset of each buffer in `bytes`. */
  starts: number[];
  /** Per buffer: start offsets of its events in `bytes` (rebuilt or plain buffers only). */
  eventStarts: number[][];
}

export function serialize(l: EtlLayout): Serialized {
  const parts: Uint8Array[] = [];
  const starts: number[] = [];
  const eventStarts: number[][] = [];
  let p = 0;
  for (const b of l.buffers) {
    const bytes = b.dirty ? rebuildBuffer(b) : b.raw;
    starts.push(p);
    const es: number[] = [];
    if (b.events !== undefined && (b.dirty || !b.compressed)) {
      let q = p + BUFFER_HEADER;
      for (const e of b.events) {
        es.push(q);
        q += e.bytes.length;
      }
    }
    eventStarts.push(es);
    parts.push(bytes);
    p += bytes.length;
  }
  parts.push(l.tail);
  const out = new Uint8Array(p + l.tail.length);
  let q = 0;
  for (const x of parts) {
    out.set(x, q);
    q += x.length;
  }
  return { bytes: out, starts, eventStarts };
}

// ---- TRACE_LOGFILE_HEADER ---------------------------------------------------------------------

export interface LogfileFields {
  /** Offsets inside the header event's bytes (the payload starts at +0x20). */
  bufferSize: number;
  numberOfProcessors: number;
  pointerSize: number;
  eventsLost: number;
  bias: number;
  perfFreq: number;
  startTime: number;
  clockType: number;
  names: number;
  ptr: number;
}

/** Where the fields of the log-file header are in the first event (a SYSTEM header, payload at +0x20). */
export function logfileFields(ev: Uint8Array): LogfileFields | undefined {
  const P = 0x20;
  if (ev.length < P + 0x38) return undefined;
  const ptr = u32(ev, P + 0x2c);
  if (ptr !== 4 && ptr !== 8) return undefined;
  const bias = 0x38 + 2 * ptr;
  const boot = (bias + 0xac + 7) & ~7;
  return {
    bufferSize: P,
    numberOfProcessors: P + 0x0c,
    pointerSize: P + 0x2c,
    eventsLost: P + 0x30,
    bias: P + bias,
    perfFreq: P + boot + 8,
    startTime: P + boot + 16,
    clockType: P + boot + 24,
    names: P + boot + 32,
    ptr,
  };
}

// ---- event fields -----------------------------------------------------------------------------

export const CLR_RUNTIME_GUID = 'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4';
export const CLR_RUNDOWN_GUID = 'a669021c-c450-4609-a035-5af59af4df18';

export function guidAt(b: Uint8Array, p: number): string {
  const h = (i: number): string => b[p + i]!.toString(16).padStart(2, '0');
  return h(3) + h(2) + h(1) + h(0) + '-' + h(5) + h(4) + '-' + h(7) + h(6) + '-' + h(8) + h(9) + '-' + h(10) + h(11) + h(12) + h(13) + h(14) + h(15);
}

/** Where an EVENT_HEADER event's payload starts (after its extended data items), or undefined when they do not chain cleanly. */
export function eventHeaderPayload(e: Uint8Array): { start: number; items: number[] } | undefined {
  const size = u16(e, 0);
  let p = 0x50;
  const items: number[] = [];
  if ((u16(e, 4) & 1) !== 0) {
    for (let k = 0; k < 64; k++) {
      if (p + 8 > size) return undefined;
      const item = u16(e, p);
      if (item < 8 || p + item > size) return undefined;
      items.push(p);
      const link = u16(e, p + 4);
      p += item;
      if ((link & 1) === 0) break;
    }
  }
  return { start: p, items };
}
