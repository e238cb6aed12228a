/**
 * The ETL mutator: real ETW log files (test/fixtures/etl) parsed into buffers and events
 * (etl-layout.ts, independent of src-main/etl) and mutated with knowledge of the layout:
 *
 * - structure: buffers duplicated, dropped, swapped, moved, the first buffer (the log-file header)
 *   moved away or repeated; events duplicated, dropped, swapped inside a buffer;
 * - framing lies: BufferSize (0, under the header, ±8, the 16 MiB limit ±1, 2^32−1), SavedOffset
 *   and Offset, event Size (0, under its header, past the buffer, odd), and cuts exactly at
 *   buffer and event boundaries;
 * - buffer header fields: the compressed flag toggled, BufferType, ProcessorNumber;
 * - event headers: the header type (every kind, unknown ones), marker flags, EVENT_HEADER flags
 *   (the extended-data bit set on events that have none), time stamps;
 * - extended data chains: ItemSize 0/7/past the event, DataSize above ItemSize, Linkage set on
 *   the last item (a chain running into the payload);
 * - the TRACE_LOGFILE_HEADER: PointerSize 4 ↔ 8 and others (every later field moves), PerfFreq
 *   0/−1/1/2^63−1, StartTime, ClockType, BufferSize, NumberOfProcessors, names unterminated;
 * - CLR events: GC event ids and versions re-labelled, GC payload fields (generation 258, heap
 *   numbers, counts) set to boundary values; kernel Process events' strings unterminated or cut;
 * - compressed buffers: a buffer whose events change is re-emitted uncompressed (flag 0x40
 *   cleared, sizes rewritten); at a low rate the LZ77 token stream itself is mutated (match
 *   offsets before the output's start, lengths past its end, the length escapes, a cut stream,
 *   SavedOffset lies);
 * - and, at a low rate, byte-level mutations, a zip around the mutant (.etl.zip) and zips with
 *   two .etl entries.
 */
import { readFileSync } from 'node:fs';
import { unzipSync, zipSync } from 'fflate';
import { mutate as byteMutate } from '../../helpers/fuzz.js';
import { FIXTURES } from '../../helpers/fixtures.js';
import {
  BUFFER_HEADER,
  CLR_RUNDOWN_GUID,
  CLR_RUNTIME_GUID,
  eventHeaderPayload,
  FLAG_COMPRESSED,
  guidAt,
  HEADER_SIZE,
  logfileFields,
  parseEtl,
  serialize,
  setU16,
  setU32,
  sizeAt,
  u16,
  u32,
  type EtlBuffer,
  type EtlEvent,
  type EtlLayout,
} from './etl-layout.js';
import { pick, type Mutant, type Rand, type ReaderMutator, type Seed } from './types.js';

const ETL_DIR = FIXTURES + 'etl/';

/** The fixture's .etl bytes (the first .etl entry of a zip). */
export function etlFixture(name: string): Uint8Array {
  const bytes = new Uint8Array(readFileSync(ETL_DIR + name));
  if (!name.endsWith('.zip')) return bytes;
  const entries = unzipSync(bytes);
  const key = Object.keys(entries).find((k) => k.toLowerCase().endsWith('.etl'));
  if (key === undefined) throw new Error(`${name} holds no .etl`);
  return entries[key]!;
}

/** The first `n` buffers of an .etl (a smaller seed cut from a big real trace at a buffer boundary). */
export function etlPrefix(bytes: Uint8Array, n: number): Uint8Array {
  let p = 0;
  for (let k = 0; k < n && p + 4 <= bytes.length; k++) p += u32(bytes, p);
  return bytes.slice(0, Math.min(p, bytes.length));
}

const FIXTURE_SEEDS: { name: string; weight: number; format: string }[] = [
  // A PerfView merge: a plain header buffer and two LZ77-compressed buffers.
  { name: 'SelfDescribingSingleEvent.etl', weight: 8, format: 'ETL compressed' },
  { name: 'gcevents.etl.zip', weight: 12, format: 'ETL plain' },
  { name: 'gcrundownevents.etl.zip', weight: 8, format: 'ETL plain' },
  { name: 'primitive-types.etl.zip', weight: 6, format: 'ETL plain' },
  // 360 buffers, 359 compressed (4.8 MB, 23 MB of events, .NET Framework 4.5.2): slow per input, so picked rarely.
  { name: 'net.4.5.2.x64.etl.zip', weight: 1, format: 'ETL compressed' },
];

/** The seed name of the first 60 buffers of net.4.5.2.x64 (781 KB, compressed: kernel and CLR events, 33 GCs of Test.x64.exe). */
export const NET452_PREFIX = 'net.4.5.2.x64.etl.zip:first-60-buffers';

let seedCache: Seed[] | undefined;

export function etlSeeds(): Seed[] {
  if (seedCache !== undefined) return seedCache;
  const seeds: Seed[] = FIXTURE_SEEDS.map((s) => ({ name: s.name, bytes: etlFixture(s.name), ext: '.etl', weight: s.weight, format: s.format }));
  seeds.push({ name: NET452_PREFIX, bytes: etlPrefix(etlFixture('net.4.5.2.x64.etl.zip'), 60), ext: '.etl', weight: 8, format: 'ETL compressed' });
  seedCache = seeds;
  return seeds;
}

const layouts = new Map<string, EtlLayout>();
export function etlLayoutOf(seed: Seed): EtlLayout {
  let l = layouts.get(seed.name);
  if (l === undefined) layouts.set(seed.name, (l = parseEtl(seed.bytes)));
  return l;
}

// ---------------------------------------------------------------------------------------------
// Values

const U32_VALUES = [0, 1, 2, 3, 4, 7, 8, 0x47, 0x48, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 258, 1000, 4097 * 8];

function boundary32(orig: number, rand: Rand): number {
  return pick([...U32_VALUES, orig + 1, orig - 1, orig * 2, orig + 0x1000], rand) >>> 0;
}

/** Sets an 8-byte little-endian integer. */
function setU64(b: Uint8Array, p: number, v: bigint): void {
  for (let i = 0; i < 8; i++) b[p + i] = Number((v >> BigInt(8 * i)) & 0xffn);
}
const I64_VALUES: [bigint, string][] = [
  [0n, '0'],
  [1n, '1'],
  [0xffffffffffffffffn, '-1'],
  [0x7fffffffffffffffn, '2^63-1'],
  [0x8000000000000000n, '-2^63'],
  [1n << 53n, '2^53'],
  [(1n << 53n) + 1n, '2^53+1'],
  [1000n, '1000'],
];

// ---------------------------------------------------------------------------------------------
// Editing a copy of the layout

type Mutation = (l: EtlLayout, rand: Rand) => string | undefined;

/** A writable copy of buffer i (its events array and header copied; event bytes shared until edited). */
function editable(l: EtlLayout, i: number): EtlBuffer {
  const b = l.buffers[i]!;
  const c: EtlBuffer = { ...b, raw: b.raw.slice(), events: b.events ? [...b.events] : undefined, dirty: b.dirty };
  l.buffers[i] = c;
  return c;
}

/** Buffers whose events parsed (every real buffer of the seeds). */
const walkable = (l: EtlLayout): number[] => l.buffers.flatMap((b, i) => (b.events !== undefined && b.events.length > 0 ? [i] : []));

/** Picks an event matching `pred` across the walkable buffers; returns the buffer (made editable) and the event index. */
function pickEvent(l: EtlLayout, rand: Rand, pred: (e: EtlEvent, bi: number, ei: number) => boolean): { b: EtlBuffer; bi: number; ei: number } | undefined {
  const cands: [number, number][] = [];
  for (const bi of walkable(l)) {
    const evs = l.buffers[bi]!.events!;
    for (let ei = 0; ei < evs.length; ei++) if (pred(evs[ei]!, bi, ei)) cands.push([bi, ei]);
  }
  if (cands.length === 0) return undefined;
  const [bi, ei] = pick(cands, rand);
  const b = editable(l, bi);
  b.dirty = true;
  return { b, bi, ei };
}

/** Replaces event ei of b with edited bytes. */
function setEvent(b: EtlBuffer, ei: number, bytes: Uint8Array): void {
  b.events![ei] = { bytes, type: bytes[2]! };
}

const isEventHeader = (e: EtlEvent): boolean => e.type === 18 || e.type === 19;
const isClr = (e: EtlEvent): boolean => isEventHeader(e) && e.bytes.length >= 0x50 && [CLR_RUNTIME_GUID, CLR_RUNDOWN_GUID].includes(guidAt(e.bytes, 0x18));
const isKernelProcess = (e: EtlEvent): boolean => [1, 2, 3, 4, 16, 17].includes(e.type) && e.bytes[7] === 3 && e.bytes[6]! >= 1 && e.bytes[6]! <= 4;
const where = (bi: number, ei: number): string => `buffer ${bi} event ${ei}`;

// ---- structure --------------------------------------------------------------------------------

const bufferDuplicate: Mutation = (l, rand) => {
  const i = Math.floor(rand() * l.buffers.length);
  const to = Math.floor(rand() * (l.buffers.length + 1));
  l.buffers.splice(to, 0, l.buffers[i]!);
  return `buffer ${i} duplicated at ${to}`;
};
const bufferDrop: Mutation = (l, rand) => {
  if (l.buffers.length < 2) return undefined;
  const i = rand() < 0.15 ? 0 : Math.floor(rand() * l.buffers.length);
  l.buffers.splice(i, 1);
  return `buffer ${i} dropped`;
};
const bufferSwap: Mutation = (l, rand) => {
  if (l.buffers.length < 2) return undefined;
  const i = Math.floor(rand() * l.buffers.length);
  let j = Math.floor(rand() * (l.buffers.length - 1));
  if (j >= i) j++;
  [l.buffers[i], l.buffers[j]] = [l.buffers[j]!, l.buffers[i]!];
  return `buffers ${i} and ${j} swapped`;
};
const bufferMove: Mutation = (l, rand) => {
  if (l.buffers.length < 3) return undefined;
  if (rand() < 0.3) {
    l.buffers.reverse();
    return 'buffers reversed';
  }
  const i = Math.floor(rand() * l.buffers.length);
  const [b] = l.buffers.splice(i, 1);
  const to = Math.floor(rand() * (l.buffers.length + 1));
  l.buffers.splice(to, 0, b!);
  return `buffer ${i} moved to ${to}`;
};

const eventStructure: Mutation = (l, rand) => {
  const bi = pick(walkable(l), rand);
  if (bi === undefined) return undefined;
  const b = editable(l, bi);
  b.dirty = true;
  const evs = b.events!;
  const i = Math.floor(rand() * evs.length);
  const r = rand();
  if (r < 0.35) {
    const times = rand() < 0.1 ? 200 : 1;
    for (let k = 0; k < times; k++) evs.splice(i, 0, evs[i]!);
    return `buffer ${bi}: event ${i} duplicated${times > 1 ? ` ${times} times` : ''}`;
  }
  if (r < 0.65 || evs.length < 2) {
    if (rand() < 0.1) {
      evs.length = 0;
      return `buffer ${bi}: every event dropped`;
    }
    evs.splice(i, 1);
    return `buffer ${bi}: event ${i} dropped`;
  }
  const j = Math.floor(rand() * evs.length);
  [evs[i], evs[j]] = [evs[j]!, evs[i]!];
  return `buffer ${bi}: events ${i} and ${j} swapped`;
};

// ---- buffer header fields --------------------------------------------------------------------

const bufferHeader: Mutation = (l, rand) => {
  const i = Math.floor(rand() * l.buffers.length);
  const b = editable(l, i);
  const r = rand();
  if (r < 0.3) {
    // Toggle the compressed flag: a plain buffer read as LZ77, a compressed one read as plain.
    const f = u16(b.raw, 0x34) ^ FLAG_COMPRESSED;
    setU16(b.raw, 0x34, f);
    b.dirty = false;
    b.compressed = (f & FLAG_COMPRESSED) !== 0;
    b.events = undefined; // keep raw: the flag is the lie
    return `buffer ${i} BufferFlag 0x40 toggled (now 0x${f.toString(16)})`;
  }
  if (r < 0.55) {
    const v = pick([0, 0xff, 0x7f, 63, 64, 1], rand);
    b.raw[0x28] = v;
    return `buffer ${i} ProcessorNumber -> ${v}`;
  }
  if (r < 0.7) {
    const v = pick([0, 1, 2, 3, 4, 5, 8, 0xffff], rand);
    setU16(b.raw, 0x36, v);
    return `buffer ${i} BufferType -> ${v}`;
  }
  // Timestamp / sequence number of the buffer.
  const at = pick([0x10, 0x18], rand);
  const [v, d] = pick(I64_VALUES, rand);
  setU64(b.raw, at, v);
  return `buffer ${i} ${at === 0x10 ? 'TimeStamp' : 'SequenceNumber'} -> ${d}`;
};

// ---- event headers ---------------------------------------------------------------------------

const eventSize: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, () => true);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes.slice();
  const type = e[2]!;
  const orig = u16(e, sizeAt(type));
  const hs = HEADER_SIZE[type] ?? 4;
  const v = pick([0, 1, 3, 4, hs - 1, hs, orig - 1, orig + 1, orig + 8, orig + 0x100, 0xffff, 0x8000], rand) & 0xffff;
  setU16(e, sizeAt(type), v);
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} (type ${type}) Size ${orig} -> ${v}`;
};

const eventType: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, () => true);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes.slice();
  if (rand() < 0.2) {
    const v = pick([0, 0x40, 0x80, 0xc1, 0xff], rand);
    const o = e[3]!;
    e[3] = v;
    setEvent(pe.b, pe.ei, e);
    return `${where(pe.bi, pe.ei)} marker flags 0x${o.toString(16)} -> 0x${v.toString(16)}`;
  }
  const o = e[2]!;
  const v = pick([1, 2, 3, 4, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 0, 5, 31, 32, 0xff], rand);
  e[2] = v;
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} header type ${o} -> ${v}`;
};

const eventTime: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, (e) => e.bytes.length >= 0x18);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes.slice();
  const at = e[2] === 16 || e[2] === 17 ? 8 : 0x10;
  const [v, d] = pick(I64_VALUES, rand);
  setU64(e, at, v);
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} time stamp -> ${d}`;
};

/** EVENT_HEADER flags, and the extended data items. */
const extendedData: Mutation = (l, rand) => {
  const withItems = (e: EtlEvent): boolean => isEventHeader(e) && (u16(e.bytes, 4) & 1) !== 0 && (eventHeaderPayload(e.bytes)?.items.length ?? 0) > 0;
  const r = rand();
  let pe = r < 0.75 ? pickEvent(l, rand, withItems) : undefined;
  if (pe === undefined) {
    // Set the extended-data bit on an event without items: its payload is read as an item chain.
    pe = pickEvent(l, rand, (e) => isEventHeader(e) && (u16(e.bytes, 4) & 1) === 0);
    if (pe === undefined) return undefined;
    const e = pe.b.events![pe.ei]!.bytes.slice();
    setU16(e, 4, u16(e, 4) | 1);
    setEvent(pe.b, pe.ei, e);
    return `${where(pe.bi, pe.ei)} EVENT_HEADER Flags |= 1 (extended data) on an event without items`;
  }
  const e = pe.b.events![pe.ei]!.bytes.slice();
  const items = eventHeaderPayload(e)!.items;
  const k = Math.floor(rand() * items.length);
  const at = items[k]!;
  const f = rand();
  let what: string;
  if (f < 0.35) {
    const v = pick([0, 1, 7, 8, 9, u16(e, at) + 8, 0xffff, 0x7fff], rand);
    what = `ItemSize ${u16(e, at)} -> ${v}`;
    setU16(e, at, v);
  } else if (f < 0.55) {
    const v = pick([u16(e, at), u16(e, at) - 7, u16(e, at) + 1, 0xffff], rand) & 0xffff;
    what = `DataSize ${u16(e, at + 6)} -> ${v}`;
    setU16(e, at + 6, v);
  } else if (f < 0.8) {
    // Linkage set on the last item: the chain runs on into the payload (or loops on a repeated item).
    what = `Linkage ${u16(e, at + 4)} -> 1`;
    setU16(e, at + 4, 1);
    if (rand() < 0.3) {
      // An item of size 8 with Linkage 1, repeated: a long chain of empty items.
      setU16(e, at, 8);
      setU16(e, at + 6, 0);
      what += ', ItemSize 8, DataSize 0';
    }
  } else {
    const v = pick([0, 1, 2, 3, 5, 6, 9, 11, 0xffff], rand);
    what = `ExtType ${u16(e, at + 2)} -> ${v}`;
    setU16(e, at + 2, v);
  }
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} extended item ${k}: ${what}`;
};

// ---- log-file header -------------------------------------------------------------------------

const logfileHeader: Mutation = (l, rand) => {
  const b0 = l.buffers[0];
  if (b0?.events === undefined || b0.events.length === 0) return undefined;
  const ev = b0.events[0]!.bytes;
  const f = logfileFields(ev);
  if (f === undefined) return undefined;
  const b = editable(l, 0);
  b.dirty = true;
  const e = ev.slice();
  const r = rand();
  let what: string;
  if (r < 0.25) {
    const v = pick([4, 8, 0, 2, 16, 0xffffffff], rand);
    what = `PointerSize ${f.ptr} -> ${v}`;
    setU32(e, f.pointerSize, v);
  } else if (r < 0.45) {
    const [v, d] = pick([...I64_VALUES, [10_000_000n, '10^7'] as [bigint, string]], rand);
    what = `PerfFreq -> ${d}`;
    setU64(e, f.perfFreq, v);
  } else if (r < 0.55) {
    const [v, d] = pick(I64_VALUES, rand);
    what = `StartTime -> ${d}`;
    setU64(e, f.startTime, v);
  } else if (r < 0.65) {
    const v = pick([0, 1, 2, 3, 4, 0xffffffff], rand);
    what = `ClockType -> ${v}`;
    if (f.clockType + 4 <= e.length) setU32(e, f.clockType, v);
  } else if (r < 0.75) {
    const v = boundary32(u32(e, f.bufferSize), rand);
    what = `BufferSize ${u32(e, f.bufferSize)} -> ${v}`;
    setU32(e, f.bufferSize, v);
  } else if (r < 0.83) {
    const v = pick([0, 1, 64, 65, 256, 0xffffffff], rand);
    what = `NumberOfProcessors -> ${v}`;
    setU32(e, f.numberOfProcessors, v);
  } else if (r < 0.9) {
    const v = pick([0, 1, 0x7fffffff, 0xffffffff], rand);
    what = `EventsLost -> ${v}`;
    setU32(e, f.eventsLost, v);
  } else {
    // The names run to the end of the event without a terminator.
    const size = u16(e, 4);
    for (let p = f.names; p < Math.min(size, e.length); p++) e[p] = 0x41;
    what = 'logger and log-file names unterminated';
  }
  setEvent(b, 0, e);
  return `log-file header: ${what}`;
};

// ---- CLR and kernel payloads -----------------------------------------------------------------

/** The CLR GC events (Microsoft-Windows-DotNETRuntime ids). */
const GC_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 35, 38, 39, 40, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209];

const clrEvent: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, isClr);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes.slice();
  const r = rand();
  const id = u16(e, 0x28);
  if (r < 0.35) {
    // Re-label: the payload is read as another GC event's (or a known one at another version).
    const nid = rand() < 0.7 ? pick(GC_IDS, rand) : id;
    const nv = pick([0, 1, 2, 3, 4, 5, 0xff], rand);
    const ov = e[0x2a]!;
    setU16(e, 0x28, nid);
    e[0x2a] = nv;
    setEvent(pe.b, pe.ei, e);
    return `${where(pe.bi, pe.ei)} CLR event ${id} v${ov} -> id ${nid} v${nv}`;
  }
  const pl = eventHeaderPayload(e);
  if (pl === undefined) return undefined;
  const size = u16(e, 0);
  const len = size - pl.start;
  if (len < 4) return undefined;
  // Integers at 4-byte steps (GC fields: Count, Depth/generation, Reason, Type, heap numbers, ClrInstanceID…).
  const at = pl.start + 4 * Math.floor(rand() * Math.min(len >> 2, 24));
  const orig = u32(e, at);
  const v = pick([258, 3, 4, 5, 0xff, 0x100, 1000, 0x10000, 0x7fffffff, 0xffffffff, orig + 1, 0], rand) >>> 0;
  setU32(e, at, v);
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} CLR event ${id} payload u32 at +${at - pl.start} ${orig} -> ${v}`;
};

const clrPayloadLength: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, isClr);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes;
  const pl = eventHeaderPayload(e);
  if (pl === undefined) return undefined;
  const size = u16(e, 0);
  const len = size - pl.start;
  // The payload cut short (Size kept consistent with the bytes) or grown with 0xFF.
  const nlen = pick([0, 1, 2, Math.max(0, len - 1), len >> 1, len + 8, len + 64], rand);
  const nsize = pl.start + nlen;
  const out = new Uint8Array((nsize + 7) & ~7);
  out.set(e.subarray(0, Math.min(e.length, out.length)));
  for (let p = size; p < out.length; p++) out[p] = 0xff;
  setU16(out, 0, nsize);
  setEvent(pe.b, pe.ei, out);
  return `${where(pe.bi, pe.ei)} CLR event ${u16(e, 0x28)} payload length ${len} -> ${nlen}`;
};

const processPayload: Mutation = (l, rand) => {
  const pe = pickEvent(l, rand, isKernelProcess);
  if (pe === undefined) return undefined;
  const e = pe.b.events![pe.ei]!.bytes.slice();
  const type = e[2]!;
  const hs = HEADER_SIZE[type]!;
  const size = u16(e, 4);
  const r = rand();
  if (r < 0.5) {
    // Every byte of the payload's tail non-zero: the image name / command line never end.
    const from = hs + Math.floor(rand() * Math.max(1, size - hs));
    for (let p = from; p < size; p++) e[p] = 0x41;
    setEvent(pe.b, pe.ei, e);
    return `${where(pe.bi, pe.ei)} kernel Process/${e[6]} strings unterminated from +${from - hs}`;
  }
  if (r < 0.8) {
    const nlen = Math.floor(rand() * (size - hs));
    const out = new Uint8Array((hs + nlen + 7) & ~7);
    out.set(e.subarray(0, out.length));
    setU16(out, 4, hs + nlen);
    setEvent(pe.b, pe.ei, out);
    return `${where(pe.bi, pe.ei)} kernel Process/${e[6]} payload cut to ${nlen} bytes`;
  }
  const v = pick([0, 1, 2, 3, 4, 5, 0xff], rand);
  const o = u16(e, 0);
  setU16(e, 0, v);
  setEvent(pe.b, pe.ei, e);
  return `${where(pe.bi, pe.ei)} kernel Process/${e[6]} version ${o} -> ${v}`;
};

// ---- compressed buffers ------------------------------------------------------------------------

const lz77: Mutation = (l, rand) => {
  const cands = l.buffers.flatMap((b, i) => (b.compressed && b.dirty !== true && b.tokens !== undefined && b.tokens.length > 0 ? [i] : []));
  if (cands.length === 0) return undefined;
  const i = pick(cands, rand);
  const b = editable(l, i);
  b.events = undefined; // the raw stream is the subject: serialize keeps it
  const raw = b.raw;
  const r = rand();
  if (r < 0.3) {
    const t = pick(b.tokens!, rand);
    // Offset field (high 13 bits) at its maximum: before the output's start for early tokens.
    const tok = u16(raw, t.at);
    const v = rand() < 0.5 ? (tok | 0xfff8) & 0xffff : (tok & 7) | 0;
    setU16(raw, t.at, v);
    return `buffer ${i} LZ77 match token at ${t.at} 0x${tok.toString(16)} -> 0x${v.toString(16)}`;
  }
  if (r < 0.55) {
    const withEsc = b.tokens!.filter((t) => t.escapes.length > 0);
    if (withEsc.length === 0) return undefined;
    const t = pick(withEsc, rand);
    const esc = pick(t.escapes, rand);
    if (esc.width === 1 && esc.nibbleHigh !== undefined) {
      const v = pick([0, 15], rand);
      raw[esc.at] = esc.nibbleHigh ? (raw[esc.at]! & 0x0f) | (v << 4) : (raw[esc.at]! & 0xf0) | v;
      return `buffer ${i} LZ77 length nibble at ${esc.at} -> ${v}`;
    }
    if (esc.width === 1) {
      const v = pick([0, 254, 255], rand);
      raw[esc.at] = v;
      return `buffer ${i} LZ77 length byte at ${esc.at} -> ${v}`;
    }
    if (esc.width === 2) {
      const v = pick([0, 21, 22, 0xffff], rand);
      setU16(raw, esc.at, v);
      return `buffer ${i} LZ77 length u16 at ${esc.at} -> ${v}`;
    }
    const v = pick([0, 0xffffffff, 0x7fffffff, 0x1000000], rand) >>> 0;
    setU32(raw, esc.at, v);
    return `buffer ${i} LZ77 length u32 at ${esc.at} -> ${v}`;
  }
  if (r < 0.7) {
    // A match token's length set to 7 (an escape that steals the next bytes).
    const t = pick(b.tokens!, rand);
    raw[t.at] = raw[t.at]! | 7;
    return `buffer ${i} LZ77 match token at ${t.at}: length field -> 7 (escape)`;
  }
  if (r < 0.85) {
    const saved = u32(raw, 4);
    const v = pick([0, 0x47, 0x48, saved - 1, saved + 1, saved + 8, saved * 2, 16 << 20, (16 << 20) + 1, 0xffffffff], rand) >>> 0;
    setU32(raw, 4, v);
    return `buffer ${i} compressed SavedOffset ${saved} -> ${v}`;
  }
  // The stream cut (BufferSize kept consistent with the shorter buffer).
  const cut = BUFFER_HEADER + Math.floor(rand() * (raw.length - BUFFER_HEADER));
  const nb = raw.slice(0, cut);
  setU32(nb, 0, cut);
  b.raw = nb;
  return `buffer ${i} LZ77 stream cut to ${cut - BUFFER_HEADER} of ${raw.length - BUFFER_HEADER} bytes`;
};

/** Re-emit a compressed buffer uncompressed with no other change (the logical bytes read as a plain buffer). */
const decompressBuffer: Mutation = (l, rand) => {
  const cands = l.buffers.flatMap((b, i) => (b.compressed && b.dirty !== true && b.events !== undefined ? [i] : []));
  if (cands.length === 0) return undefined;
  const i = pick(cands, rand);
  const b = editable(l, i);
  b.dirty = true;
  return `buffer ${i} re-emitted uncompressed`;
};

const MUTATIONS: Record<string, Mutation> = {
  'buffer-duplicate': bufferDuplicate,
  'buffer-drop': bufferDrop,
  'buffer-swap': bufferSwap,
  'buffer-move': bufferMove,
  'buffer-header': bufferHeader,
  'event-structure': eventStructure,
  'event-size': eventSize,
  'event-type': eventType,
  'event-time': eventTime,
  'extended-data': extendedData,
  'logfile-header': logfileHeader,
  'gc-payload': clrEvent,
  'clr-payload-length': clrPayloadLength,
  'process-payload': processPayload,
  lz77,
  'decompress-buffer': decompressBuffer,
};

const STRUCTURED: [string, number][] = [
  ['buffer-duplicate', 5],
  ['buffer-drop', 5],
  ['buffer-swap', 4],
  ['buffer-move', 3],
  ['buffer-header', 5],
  ['event-structure', 6],
  ['event-size', 8],
  ['event-type', 6],
  ['event-time', 4],
  ['extended-data', 6],
  ['logfile-header', 8],
  ['gc-payload', 12],
  ['clr-payload-length', 5],
  ['process-payload', 5],
  ['lz77', 3],
  ['decompress-buffer', 2],
];

// ---------------------------------------------------------------------------------------------
// Lies and cuts on the serialized bytes

function frameLie(l: EtlLayout, rand: Rand): { bytes: Uint8Array; what: string } {
  const { bytes: b, starts, eventStarts } = serialize(l);
  const k = Math.floor(rand() * starts.length);
  const start = starts[k]!;
  const end = k + 1 < starts.length ? starts[k + 1]! : b.length - l.tail.length;
  const r = rand();
  if (r < 0.4) {
    // A cut at a buffer or event boundary (or one byte either side).
    const evs = eventStarts[k]!;
    const spots = [
      start,
      start + 4,
      start + BUFFER_HEADER - 1,
      start + BUFFER_HEADER,
      end - 1,
      end,
      ...(evs.length > 0 ? [pick(evs, rand), pick(evs, rand) + 4] : []),
    ];
    const at = Math.max(0, Math.min(b.length, pick(spots, rand) + (rand() < 0.2 ? pick([-1, 1], rand) : 0)));
    return { bytes: b.slice(0, at), what: `cut at ${at} (buffer ${k} spans ${start}..${end})` };
  }
  if (r < 0.75) {
    const size = end - start;
    const v = pick([0, 1, 0x47, 0x48, 0x49, size - 8, size + 8, size - 1, size * 2, 16 << 20, (16 << 20) + 1, 0xffffffff], rand) >>> 0;
    setU32(b, start, v);
    return { bytes: b, what: `buffer ${k} BufferSize ${size} -> ${v}` };
  }
  if (r < 0.9) {
    const at = pick([4, 0x30], rand);
    const orig = u32(b, start + at);
    const v = boundary32(orig, rand);
    setU32(b, start + at, v);
    return { bytes: b, what: `buffer ${k} ${at === 4 ? 'SavedOffset' : 'Offset'} ${orig} -> ${v}` };
  }
  // After the last buffer: zero padding, or garbage.
  const tail = new Uint8Array(pick([0x48, 4096, 100], rand));
  const zero = rand() < 0.5;
  if (!zero) for (let i = 0; i < tail.length; i++) tail[i] = Math.floor(rand() * 256);
  const out = new Uint8Array(b.length + tail.length);
  out.set(b);
  out.set(tail, b.length);
  return { bytes: out, what: `${tail.length} ${zero ? 'zero' : 'random'} bytes after the last buffer` };
}

function pickByWeight(items: [string, number][], rand: Rand): string {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = rand() * total;
  for (const [name, w] of items) if ((x -= w) < 0) return name;
  return items[items.length - 1]![0];
}

const ZIP_TIME = { mtime: new Date(Date.UTC(2026, 0, 1)) };

export function mutateEtl(seed: Seed, rand: Rand, only?: readonly string[]): Mutant {
  const r = rand();
  const allowed = (name: string): boolean => only === undefined || only.includes(name);
  const families = STRUCTURED.filter(([name]) => allowed(name));
  let bytes: Uint8Array;
  const done: string[] = [];
  if ((r < 0.06 && allowed('byte-level')) || families.length === 0) {
    const m = byteMutate(seed.bytes, rand);
    bytes = m.bytes;
    done.push(`byte-level ${m.kind}`);
  } else {
    const base = etlLayoutOf(seed);
    const l: EtlLayout = { buffers: [...base.buffers], tail: base.tail };
    const n = r < 0.75 ? 1 : r < 0.93 ? 2 : 3;
    for (let tries = 0; done.length < n && tries < 20; tries++) {
      const name = pickByWeight(families, rand);
      const before = [...l.buffers];
      const what = MUTATIONS[name]!(l, rand);
      if (what !== undefined) done.push(`${name}: ${what}`);
      else l.buffers = before;
    }
    if (rand() < 0.2 && allowed('frame')) {
      const lie = frameLie(l, rand);
      bytes = lie.bytes;
      done.push(`frame: ${lie.what}`);
    } else bytes = serialize(l).bytes;
  }
  const z = rand();
  if (z < 0.05 && allowed('zipped')) {
    // PerfView's .etl.zip: the trace (and sometimes a second .etl, or a log) inside a zip.
    const entries: Record<string, Uint8Array> = { 'PerfViewData.etl': bytes };
    let what = 'zipped as PerfViewData.etl';
    const two = rand();
    if (two < 0.3) {
      entries['PerfViewData.kernel.etl'] = seed.bytes;
      what += ' with the unmutated seed as a second .etl';
    } else if (two < 0.45) {
      entries['LogFile.txt'] = new TextEncoder().encode('PerfView log\n');
      what += ' with a LogFile.txt';
    }
    return { bytes: zipSync(entries, ZIP_TIME), mutation: [...done, what].join('; '), ext: '.etl.zip' };
  }
  return { bytes, mutation: done.join('; '), ext: seed.ext };
}

export const etlMutator: ReaderMutator = {
  reader: 'etl',
  seeds: etlSeeds,
  mutate: mutateEtl,
};
