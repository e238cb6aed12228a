/**
 * The NetPerf/NetTrace mutator: real traces (NetPerf V3, NetTrace V4, V5, and V6 re-written from a
 * real V5 trace) parsed into their layout (nettrace-layout.ts) and mutated with knowledge of it:
 *
 * - structure: blocks duplicated, dropped, swapped, moved; renamed or re-versioned; the trace
 *   header duplicated or moved; the end-of-stream marker dropped;
 * - framing lies: a block's size field set to 0, −1, ±1, 2^31−1, just above the reader's 64 MiB
 *   limit…; begin/end tags changed; V6 kind bytes changed;
 * - truncation exactly at structure boundaries (object start, size field, content start and end,
 *   event blob starts);
 * - inside blocks, with every size around kept consistent so the damage reaches the decoder it is
 *   aimed at: event blob varints set to huge values or encoded at every length up to 10 bytes (and
 *   past it), header flags bits flipped, blobs duplicated/dropped/swapped, payload integers set to
 *   boundary values, payloads cut or grown; event/metadata block header size and flags; metadata
 *   ids, field counts, type codes, names, tag lengths (V5) and row/field sizes (V6); stack block
 *   first id, count and stack lengths; sequence point counts, ids and sequence numbers; trace
 *   header pointer size, clock frequency, sync time; NetPerf V3 events' fixed header fields;
 * - and, at a low rate, the old byte-level mutations (test/helpers/fuzz.ts mutate) and a valid zip
 *   around a mutant (the unzip path).
 */
import { zipSync } from 'fflate';
import { mutate as byteMutate } from '../../helpers/fuzz.js';
import { traceBytes } from '../../helpers/fixtures.js';
import { buildV6Sample } from '../../helpers/samples.js';
import {
  encodeVarint,
  KIND,
  metadataSpotsV5,
  metadataSpotsV6,
  Out,
  parseEventBlock,
  parseLayout,
  parseV3Events,
  sequencePointSpots,
  serialize,
  serializeEventBlock,
  serializeV3Events,
  stackSpots,
  traceSpots,
  V6_NAMES,
  type Blob,
  type Layout,
  type LayoutObject,
  type Spot,
} from './nettrace-layout.js';
import { transcodeToV6 } from './nettrace-v6-seed.js';
import { pick, type Mutant, type Rand, type ReaderMutator, type Seed } from './types.js';

const FIXTURE_SEEDS: { name: string; weight: number; format: string }[] = [
  { name: 'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip', weight: 6, format: 'NetPerf V3' },
  // 10 MB, GC events, 32-bit pointers: slow per input, so picked rarely.
  { name: 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip', weight: 1, format: 'NetPerf V3' },
  { name: 'eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip', weight: 4, format: 'NetTrace V4' },
  { name: 'only_managed_samples.nettrace.zip', weight: 4, format: 'NetTrace V4' },
  // 4.8 MB, 478 GCs with the full GC event set.
  { name: 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', weight: 1, format: 'NetTrace V4' },
  { name: 'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip', weight: 5, format: 'NetTrace V5' },
  { name: 'workload-net10-hardlimit.nettrace.zip', weight: 10, format: 'NetTrace V5' },
  { name: 'who-allocates.nettrace.zip', weight: 8, format: 'NetTrace V5' },
  { name: 'problem-induced-gcs.nettrace.zip', weight: 4, format: 'NetTrace V5' },
];

/** The seed name of the V6 re-write of a fixture. */
export const V6_FROM = 'who-allocates.nettrace.zip';

let seedCache: Seed[] | undefined;

export function nettraceSeeds(): Seed[] {
  if (seedCache !== undefined) return seedCache;
  const seeds: Seed[] = FIXTURE_SEEDS.map((s) => ({
    name: s.name,
    bytes: traceBytes(s.name),
    ext: s.name.includes('.netperf') ? '.netperf' : '.nettrace',
    weight: s.weight,
    format: s.format,
  }));
  seeds.push({ name: `v6-from:${V6_FROM}`, bytes: transcodeToV6(traceBytes(V6_FROM)), ext: '.nettrace', weight: 8, format: 'NetTrace V6' });
  // The spec sample: thread, label-list and unknown-kind blocks, V6 optional metadata.
  seeds.push({ name: 'v6-sample', bytes: buildV6Sample(), ext: '.nettrace', weight: 4, format: 'NetTrace V6' });
  seedCache = seeds;
  return seeds;
}

const layouts = new Map<string, Layout>();
function layoutOf(seed: Seed): Layout {
  let l = layouts.get(seed.name);
  if (l === undefined) layouts.set(seed.name, (l = parseLayout(seed.bytes)));
  return l;
}

// ---------------------------------------------------------------------------------------------
// Values

const P = (n: number): bigint => 1n << BigInt(n);
const VARINT_VALUES: bigint[] = [
  0n,
  1n,
  127n,
  128n,
  16383n,
  16384n,
  P(21) - 1n,
  P(21),
  P(28) - 1n,
  P(28),
  P(31) - 1n,
  P(31),
  P(32) - 1n,
  P(32),
  P(35),
  P(49),
  P(53) - 1n,
  P(53),
  P(56),
  P(63) - 1n,
  P(63),
  P(64) - 1n,
];

function describeBig(x: bigint): string {
  for (let n = 8; n <= 64; n++) {
    if (x === P(n)) return `2^${n}`;
    if (x === P(n) - 1n) return `2^${n}-1`;
  }
  return x.toString();
}

function interesting(size: 1 | 2 | 4 | 8, orig: bigint, rand: Rand): bigint {
  const common = [0n, 1n, orig + 1n, orig - 1n];
  const bySize: Record<number, bigint[]> = {
    1: [0x7fn, 0x80n, 0xffn, 2n, 3n, 8n, 26n, 27n, 19n, 22n],
    2: [0x7fffn, 0x8000n, 0xffffn, 0xfffen, 19n, 20n, 21n, orig * 2n],
    4: [2n, 3n, 4n, 7n, 8n, 0xffn, 0x100n, 0xffffn, 0x10000n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0xfffffffen, orig * 2n, orig + 0x1000n, 4097n * 8n],
    8: [P(31), P(32), P(53), P(63), P(64) - 1n, orig * 2n],
  };
  const all = [...common, ...bySize[size]!];
  return BigInt.asUintN(size * 8, pick(all, rand));
}

function readUint(b: Uint8Array, at: number, size: number): bigint {
  let x = 0n;
  for (let i = size - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[at + i] ?? 0);
  return x;
}

function writeUint(b: Uint8Array, at: number, size: number, v: bigint): void {
  for (let i = 0; i < size; i++) b[at + i] = Number((v >> BigInt(8 * i)) & 0xffn);
}

/** A copy of `content` with one spot set to a boundary value; returns the description. */
function mutateSpot(content: Uint8Array, spots: Spot[], rand: Rand): { content: Uint8Array; what: string } | undefined {
  if (spots.length === 0) return undefined;
  const s = pick(spots, rand);
  const c = content.slice();
  const orig = readUint(c, s.at, s.size);
  const v = interesting(s.size, orig, rand);
  writeUint(c, s.at, s.size, v);
  return { content: c, what: `${s.what} ${orig} -> ${v}` };
}

function randomVarint(orig: bigint, rand: Rand): { raw: Uint8Array; what: string } {
  const r = rand();
  if (r < 0.08) {
    // Never terminated within 10 bytes (continuation bit on every byte), or a 10th byte that
    // carries bits beyond 64.
    const raw = rand() < 0.5 ? new Uint8Array(11).fill(0xff) : Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f]);
    return { raw, what: raw.length === 11 ? 'an 11-byte unterminated varint' : 'a 10-byte varint with bits beyond 64' };
  }
  const v = rand() < 0.15 ? BigInt.asUintN(64, orig + (rand() < 0.5 ? 1n : -1n)) : pick(VARINT_VALUES, rand);
  const minimal = encodeVarint(v).length;
  const len = r < 0.4 ? minimal + Math.floor(rand() * (11 - minimal)) : minimal;
  return { raw: encodeVarint(v, Math.min(len, 10)), what: `${describeBig(v)} (${Math.min(len, 10)} bytes)` };
}

// ---------------------------------------------------------------------------------------------
// Structured mutations on the layout

type Mutation = (l: Layout, rand: Rand) => string | undefined;

const isV6 = (l: Layout): boolean => l.container === 'v6';
const indexesOf = (l: Layout, pred: (o: LayoutObject) => boolean): number[] => l.objects.flatMap((o, i) => (pred(o) ? [i] : []));
const nonTrace = (l: Layout): number[] => indexesOf(l, (o) => o.kind !== KIND.Trace);
const label = (l: Layout, i: number): string => `${l.objects[i]!.name} #${i}`;

function withContent(l: Layout, i: number, content: Uint8Array): void {
  l.objects[i] = { ...l.objects[i]!, content };
}

/** Blocks whose content is compressed blobs: V4–V6 event blocks, V4/V5 metadata blocks. */
function blobBlocks(l: Layout): number[] {
  if (l.container === 'netperf') return [];
  return indexesOf(l, (o) => o.kind === KIND.Event || (o.kind === KIND.Metadata && !isV6(l)));
}

/** Edits the blobs of one blob block; `fn` returns a description or undefined (nothing applicable). */
function editBlobs(l: Layout, rand: Rand, fn: (blobs: Blob[], block: string) => string | undefined, only?: number): string | undefined {
  const cands = only === undefined ? blobBlocks(l) : blobBlocks(l).filter((i) => l.objects[i]!.kind === only);
  if (cands.length === 0) return undefined;
  const i = pick(cands, rand);
  const eb = parseEventBlock(l.objects[i]!.content, isV6(l));
  if (eb.blobs.length === 0) return undefined;
  const blobs = eb.blobs.map((b) => ({ fields: [...b.fields], payload: b.payload }));
  const what = fn(blobs, label(l, i));
  if (what === undefined) return undefined;
  withContent(l, i, serializeEventBlock({ ...eb, blobs }));
  return what;
}

/** Rewrites a blob's payload, keeping its PayloadSize varint consistent when the blob carries one. */
function setPayload(blob: Blob, payload: Uint8Array): boolean {
  const f = blob.fields.findIndex((x) => x.name === 'payloadSize');
  if (f < 0 && payload.length !== blob.payload.length) return false;
  if (f >= 0) blob.fields[f] = { name: 'payloadSize', raw: encodeVarint(BigInt(payload.length)), varint: true };
  blob.payload = payload;
  return true;
}

const MUTATIONS: Record<string, Mutation> = {
  'block-duplicate': (l, rand) => {
    const i = rand() < 0.1 ? 0 : pick(nonTrace(l), rand);
    const at = rand() < 0.5 ? i + 1 : Math.floor(rand() * (l.objects.length + 1));
    l.objects.splice(at, 0, l.objects[i]!);
    return `duplicated ${label(l, i)} at ${at}`;
  },
  'block-drop': (l, rand) => {
    const i = rand() < 0.05 ? 0 : pick(nonTrace(l), rand);
    const what = `dropped ${label(l, i)}`;
    l.objects.splice(i, 1);
    return what;
  },
  'block-swap': (l, rand) => {
    if (l.objects.length < 3) return undefined;
    const i = rand() < 0.05 ? 0 : pick(nonTrace(l), rand);
    const j = rand() < 0.5 ? Math.min(l.objects.length - 1, i + 1) : Math.floor(rand() * l.objects.length);
    if (i === j) return undefined;
    const what = `swapped ${label(l, i)} and ${label(l, j)}`;
    [l.objects[i], l.objects[j]] = [l.objects[j]!, l.objects[i]!];
    return what;
  },
  'block-move': (l, rand) => {
    const i = pick(nonTrace(l), rand);
    const [o] = l.objects.splice(i, 1);
    const at = 1 + Math.floor(rand() * l.objects.length);
    l.objects.splice(at, 0, o!);
    return `moved ${o!.name} #${i} to ${at}`;
  },
  'block-rename': (l, rand) => {
    const i = rand() < 0.1 ? 0 : pick(nonTrace(l), rand);
    const o = l.objects[i]!;
    if (isV6(l)) {
      const kind = pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x7f, 0xff], rand);
      l.objects[i] = { ...o, kind, name: V6_NAMES[kind] ?? `Block${kind}` };
      return `${label(l, i)} given kind ${kind}`;
    }
    const name = pick(
      ['Trace', 'EventBlock', 'MetadataBlock', 'StackBlock', 'SPBlock', 'Microsoft.DotNet.Runtime.EventPipeFile', 'EventBlocK', '', 'x'.repeat(65)],
      rand,
    );
    const kind = ({ Trace: 1, EventBlock: 2, MetadataBlock: 3, SPBlock: 4, StackBlock: 5 } as Record<string, number>)[name] ?? -1;
    // The serializer frames by kind: a block renamed "Trace" keeps its size field (kind stays a block's).
    l.objects[i] = { ...o, name, kind: o.kind === KIND.Trace ? KIND.Trace : kind === KIND.Trace ? o.kind : kind < 0 ? o.kind : kind };
    return `${label(l, i)} renamed "${name.slice(0, 20)}"`;
  },
  'block-version': (l, rand) => {
    if (isV6(l)) return undefined;
    const i = rand() < 0.3 ? 0 : pick(nonTrace(l), rand);
    const v = pick([0, 1, 2, 3, 4, 5, -1, 0x7fffffff], rand);
    const minV = rand() < 0.5;
    l.objects[i] = minV ? { ...l.objects[i]!, minVersion: v } : { ...l.objects[i]!, version: v };
    return `${label(l, i)} ${minV ? 'minVersion' : 'version'} ${v}`;
  },
  'event-varint': (l, rand) =>
    editBlobs(l, rand, (blobs, block) => {
      const bi = Math.floor(rand() * blobs.length);
      const vf = blobs[bi]!.fields.flatMap((f, k) => (f.varint === true ? [k] : []));
      if (vf.length === 0) return undefined;
      const k = pick(vf, rand);
      const f = blobs[bi]!.fields[k]!;
      let orig = 0n;
      for (let s = f.raw.length - 1; s >= 0; s--) orig = (orig << 7n) | BigInt(f.raw[s]! & 0x7f);
      const v = randomVarint(orig, rand);
      blobs[bi]!.fields[k] = { ...f, raw: v.raw };
      return `${block} blob ${bi}: ${f.name} ${orig} -> ${v.what}`;
    }),
  'event-flags': (l, rand) =>
    editBlobs(l, rand, (blobs, block) => {
      const bi = Math.floor(rand() * blobs.length);
      const bit = Math.floor(rand() * 8);
      const f = blobs[bi]!.fields[0]!;
      blobs[bi]!.fields[0] = { ...f, raw: Uint8Array.of(f.raw[0]! ^ (1 << bit)) };
      return `${block} blob ${bi}: header flags ${f.raw[0]} ^ 0x${(1 << bit).toString(16)}`;
    }),
  'event-blobs': (l, rand) =>
    editBlobs(l, rand, (blobs, block) => {
      const i = Math.floor(rand() * blobs.length);
      const j = Math.floor(rand() * blobs.length);
      const op = pick(['duplicate', 'drop', 'swap'], rand);
      if (op === 'duplicate') blobs.splice(j, 0, blobs[i]!);
      else if (op === 'drop') blobs.splice(i, 1);
      else [blobs[i], blobs[j]] = [blobs[j]!, blobs[i]!];
      return `${block}: ${op} blob ${i}${op === 'drop' ? '' : ` / ${j}`} (of ${blobs.length})`;
    }),
  'event-payload': (l, rand) => {
    if (l.container === 'netperf') return v3Payload(l, rand);
    return editBlobs(
      l,
      rand,
      (blobs, block) => {
        const bi = Math.floor(rand() * blobs.length);
        const blob = blobs[bi]!;
        const p = blob.payload;
        if (rand() < 0.3) {
          const n = rand() < 0.5 ? Math.floor(rand() * p.length) : p.length + 1 + Math.floor(rand() * 64);
          const np = new Uint8Array(n);
          np.set(p.subarray(0, Math.min(n, p.length)));
          for (let x = p.length; x < n; x++) np[x] = Math.floor(rand() * 256);
          return setPayload(blob, np) ? `${block} blob ${bi}: payload ${p.length} -> ${n} bytes` : undefined;
        }
        if (p.length < 2) return undefined;
        const size = pick([1, 2, 4, 8] as const, rand);
        if (p.length < size) return undefined;
        const at = Math.floor((rand() * (p.length - size + 1)) / size) * size;
        const np = p.slice();
        const orig = readUint(np, at, size);
        const v = interesting(size, orig, rand);
        writeUint(np, at, size, v);
        blob.payload = np;
        return `${block} blob ${bi}: payload u${size * 8} at ${at} ${orig} -> ${v}`;
      },
      rand() < 0.8 ? KIND.Event : undefined,
    );
  },
  'gc-payload': (l, rand) => gcPayload(l, rand),
  'block-header': (l, rand) => {
    const cands = l.container === 'netperf' ? [] : indexesOf(l, (o) => (o.kind === KIND.Event || o.kind === KIND.Metadata) && o.content.length >= 4);
    if (cands.length === 0) return undefined;
    const i = pick(cands, rand);
    const c = l.objects[i]!.content.slice();
    const v = new DataView(c.buffer);
    if (rand() < 0.5) {
      const orig = v.getUint16(0, true);
      const hs = pick([0, 2, 4, 19, 20, 21, 24, 0xffff, c.length, c.length + 1], rand);
      v.setUint16(0, hs, true);
      withContent(l, i, c);
      return `${label(l, i)} header size ${orig} -> ${hs}`;
    }
    const orig = v.getUint16(2, true);
    const flags = orig ^ pick([1, 2, 0x8000, 0xffff], rand);
    v.setUint16(2, flags, true);
    withContent(l, i, c);
    return `${label(l, i)} header flags ${orig} -> ${flags}`;
  },
  metadata: (l, rand) => {
    if (isV6(l)) {
      const i = pick(
        indexesOf(l, (o) => o.kind === KIND.Metadata),
        rand,
      );
      if (i === undefined) return undefined;
      const r = mutateSpot(l.objects[i]!.content, metadataSpotsV6(l.objects[i]!.content), rand);
      if (r === undefined) return undefined;
      withContent(l, i, r.content);
      return `${label(l, i)}: ${r.what}`;
    }
    if (l.container === 'netperf') return v3Metadata(l, rand);
    return editBlobs(
      l,
      rand,
      (blobs, block) => {
        const bi = Math.floor(rand() * blobs.length);
        const blob = blobs[bi]!;
        const spots = metadataSpotsV5(blob.payload);
        if (rand() < 0.2 && spots.length > 0) {
          const s = pick(spots, rand);
          return setPayload(blob, blob.payload.slice(0, s.at + Math.floor(rand() * (s.size + 1))))
            ? `${block} metadata ${bi}: payload cut inside ${s.what}`
            : undefined;
        }
        const r = mutateSpot(blob.payload, spots, rand);
        if (r === undefined) return undefined;
        blob.payload = r.content;
        return `${block} metadata ${bi}: ${r.what}`;
      },
      KIND.Metadata,
    );
  },
  stack: (l, rand) => {
    const cands = indexesOf(l, (o) => o.kind === KIND.Stack);
    if (cands.length === 0) return undefined;
    const i = pick(cands, rand);
    const r = mutateSpot(l.objects[i]!.content, stackSpots(l.objects[i]!.content), rand);
    if (r === undefined) return undefined;
    withContent(l, i, r.content);
    return `${label(l, i)}: ${r.what}`;
  },
  'sequence-point': (l, rand) => {
    const cands = indexesOf(l, (o) => o.kind === KIND.SequencePoint);
    if (cands.length === 0) return undefined;
    const i = pick(cands, rand);
    const r = mutateSpot(l.objects[i]!.content, sequencePointSpots(l.objects[i]!.content, isV6(l)), rand);
    if (r === undefined) return undefined;
    withContent(l, i, r.content);
    return `${label(l, i)}: ${r.what}`;
  },
  'trace-header': (l, rand) => {
    const r = mutateSpot(l.objects[0]!.content, traceSpots(isV6(l)), rand);
    if (r === undefined) return undefined;
    withContent(l, 0, r.content);
    return `trace header: ${r.what}`;
  },
  'v3-events': (l, rand) => {
    if (l.container !== 'netperf') return undefined;
    const i = pick(
      indexesOf(l, (o) => o.kind === KIND.Event),
      rand,
    );
    const evs = parseV3Events(l.objects[i]!.content);
    if (evs.length === 0) return undefined;
    const a = Math.floor(rand() * evs.length);
    const b = Math.floor(rand() * evs.length);
    const r = rand();
    let what: string;
    if (r < 0.2) {
      what = `duplicate event ${a}`;
      evs.splice(b, 0, evs[a]!);
    } else if (r < 0.35) {
      what = `drop event ${a}`;
      evs.splice(a, 1);
    } else if (r < 0.5) {
      what = `swap events ${a}/${b}`;
      [evs[a], evs[b]] = [evs[b]!, evs[a]!];
    } else {
      // The fixed header: metadataId @0, threadId @4, timestamp @8, payload size @48.
      const [at, size, name] = pick(
        [
          [0, 4, 'metadata id'],
          [4, 4, 'thread id'],
          [8, 8, 'timestamp'],
          [48, 4, 'payload size'],
          [44, 4, 'related activity'],
        ] as const,
        rand,
      );
      const head = evs[a]!.head.slice();
      const orig = readUint(head, at, size);
      const v = interesting(size, orig, rand);
      writeUint(head, at, size, v);
      evs[a] = { ...evs[a]!, head };
      withContent(l, i, serializeV3Events(evs, name === 'payload size'));
      return `${label(l, i)} event ${a}: ${name} ${orig} -> ${v}`;
    }
    withContent(l, i, serializeV3Events(evs, true));
    return `${label(l, i)}: ${what}`;
  },
  'block-bytes': (l, rand) => {
    // The old byte-level mutations, confined to one block's content: framing stays valid.
    const i = pick(nonTrace(l), rand);
    const r = byteMutate(l.objects[i]!.content, rand);
    withContent(l, i, r.bytes);
    return `${label(l, i)}: byte-level ${r.kind} inside`;
  },
};

/** Runtime provider names as the metadata spells them (V3–V5 UTF-16, V6 UTF-8: both decoded). */
const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
/**
 * GC event ids of the runtime provider (docs/formats.md §3.5): GCStart 1, GCEnd 2, HeapStats 4,
 * CreateSegment 5, FreeSegment 6, RestartEE 3/7, SuspendEE 8/9, AllocationTick 10, CreateConcurrentThread 11,
 * Triggered 35, Finalizers 13/14, BGC* 23–27 and 29–31, GCDynamicEvent 39, Heap count tuning, MarkWithType 202,
 * JoinEnd 203, PerHeapHistory 204, GlobalHeapHistory 205, GenAwareBegin/End 206/207, LOH compact 208, fit bucket 209.
 */
const GC_EVENT_IDS = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 23, 24, 25, 26, 27, 29, 30, 31, 35, 38, 39, 202, 203, 204, 205, 206, 207, 208, 209]);

/** Values a GC payload field (a count, a generation, a heap number, a reason, an index) must survive. */
const GC_FIELD_VALUES = [0n, 1n, 2n, 3n, 4n, 5n, 9n, 10n, 64n, 65n, 255n, 256n, 258n, 1024n, 0x10000n, 0x7fffffffn, 0x80000000n, 0xfffffffen, 0xffffffffn];

function utf16z(b: Uint8Array, p: number): { s: string; end: number } {
  let s = '';
  while (p + 1 < b.length && (b[p]! | b[p + 1]!) !== 0) {
    s += String.fromCharCode(b[p]! | (b[p + 1]! << 8));
    p += 2;
  }
  return { s, end: p + 2 };
}

/** By the trace header's bytes: the same for every mutant of a seed (a metadata mutation is not seen: ids are a target list, not a truth). */
const gcIdsCache = new WeakMap<Uint8Array, Set<number>>();

/** The metadata ids that stand for runtime GC events in this layout (read from its metadata, any version). */
function gcMetadataIds(l: Layout): Set<number> {
  const key = l.objects[0]!.content;
  const hit = gcIdsCache.get(key);
  if (hit !== undefined) return hit;
  const ids = new Set<number>();
  const v5 = (payload: Uint8Array): void => {
    if (payload.length < 8) return;
    const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const id = dv.getInt32(0, true);
    const prov = utf16z(payload, 4);
    if (prov.end + 4 > payload.length) return;
    if (prov.s === RUNTIME && GC_EVENT_IDS.has(dv.getInt32(prov.end, true) & 0xffff)) ids.add(id);
  };
  for (const o of l.objects) {
    try {
      if (l.container === 'netperf' && o.kind === KIND.Event) {
        for (const e of parseV3Events(o.content)) if (new DataView(e.head.buffer, e.head.byteOffset).getInt32(0, true) === 0) v5(e.payload);
      } else if (o.kind === KIND.Metadata && !isV6(l)) {
        for (const b of parseEventBlock(o.content, false).blobs) v5(b.payload);
      } else if (o.kind === KIND.Metadata) {
        // V6 rows: u16 size, varuint id, string provider (varuint length + UTF-8), varuint event id.
        const c = o.content;
        let p = 2 + (c[0]! | (c[1]! << 8));
        while (p + 2 <= c.length) {
          const size = c[p]! | (c[p + 1]! << 8);
          let q = p + 2;
          const varint = (): number => {
            let x = 0;
            let sh = 0;
            while (q < c.length && sh < 35) {
              const b = c[q++]!;
              x += (b & 0x7f) * 2 ** sh;
              sh += 7;
              if ((b & 0x80) === 0) break;
            }
            return x;
          };
          const id = varint();
          const n = varint();
          const provider = new TextDecoder().decode(c.subarray(q, q + n));
          q += n;
          if (provider === RUNTIME && GC_EVENT_IDS.has(varint() & 0xffff)) ids.add(id);
          p += 2 + size;
        }
      }
    } catch {
      // A metadata block the walker cannot follow contributes nothing.
    }
  }
  gcIdsCache.set(key, ids);
  return ids;
}

/**
 * A runtime GC event's payload field set to a value no runtime writes (a heap number of 2^32−1, a
 * generation of 258, a count of 2^31): the fields the GC analysis uses as indexes, counts and
 * sizes. Fields sit at 2-byte boundaries (GCMarkWithType's Type is at 6), so any even offset.
 */
function gcPayload(l: Layout, rand: Rand): string | undefined {
  const gc = gcMetadataIds(l);
  if (gc.size === 0) return undefined;
  const set = (p: Uint8Array, what: string): { payload: Uint8Array; what: string } | undefined => {
    if (p.length < 2) return undefined;
    const size = p.length >= 4 && rand() < 0.75 ? 4 : 2;
    // Counts, generations, heap numbers and reasons mostly lead the payload: the first 16 bytes more often.
    const span = Math.min(p.length, rand() < 0.6 ? 16 : 64);
    const at = Math.floor(rand() * Math.floor((Math.max(span, size) - size) / 2 + 1)) * 2;
    const np = p.slice();
    const orig = readUint(np, at, size);
    const v = BigInt.asUintN(size * 8, pick(GC_FIELD_VALUES, rand));
    writeUint(np, at, size, v);
    return { payload: np, what: `${what}: GC payload u${size * 8} at ${at} ${orig} -> ${v}` };
  };
  if (l.container === 'netperf') {
    const blocks = indexesOf(l, (o) => o.kind === KIND.Event);
    const i = pick(blocks, rand);
    const evs = parseV3Events(l.objects[i]!.content);
    const hits = evs.flatMap((e, k) => (gc.has(new DataView(e.head.buffer, e.head.byteOffset).getInt32(0, true)) ? [k] : []));
    if (hits.length === 0) return undefined;
    const k = pick(hits, rand);
    const r = set(evs[k]!.payload, `${label(l, i)} event ${k}`);
    if (r === undefined) return undefined;
    evs[k] = { ...evs[k]!, payload: r.payload };
    withContent(l, i, serializeV3Events(evs));
    return r.what;
  }
  return editBlobs(
    l,
    rand,
    (blobs, block) => {
      // A blob's metadata id is inherited from the previous blob of its block unless it carries one.
      let md = 0;
      const hits: number[] = [];
      blobs.forEach((b, k) => {
        const f = b.fields.find((x) => x.name === 'metadataId');
        if (f !== undefined) {
          md = 0;
          for (let s = f.raw.length - 1; s >= 0; s--) md = md * 128 + (f.raw[s]! & 0x7f);
        }
        if (gc.has(md)) hits.push(k);
      });
      if (hits.length === 0) return undefined;
      const k = pick(hits, rand);
      const r = set(blobs[k]!.payload, `${block} blob ${k}`);
      if (r === undefined) return undefined;
      blobs[k]!.payload = r.payload;
      return r.what;
    },
    KIND.Event,
  );
}

function v3Payload(l: Layout, rand: Rand): string | undefined {
  const i = pick(
    indexesOf(l, (o) => o.kind === KIND.Event),
    rand,
  );
  const evs = parseV3Events(l.objects[i]!.content);
  const a = Math.floor(rand() * evs.length);
  const e = evs[a];
  if (e === undefined || e.payload.length < 4) return undefined;
  const at = Math.floor((rand() * (e.payload.length - 3)) / 4) * 4;
  const p = e.payload.slice();
  const orig = readUint(p, at, 4);
  const v = interesting(4, orig, rand);
  writeUint(p, at, 4, v);
  evs[a] = { ...e, payload: p };
  withContent(l, i, serializeV3Events(evs));
  return `${label(l, i)} event ${a}: payload u32 at ${at} ${orig} -> ${v}`;
}

/** NetPerf metadata is inline: events with metadata id 0 in event blocks. */
function v3Metadata(l: Layout, rand: Rand): string | undefined {
  const i = pick(
    indexesOf(l, (o) => o.kind === KIND.Event),
    rand,
  );
  const evs = parseV3Events(l.objects[i]!.content);
  const md = evs.flatMap((e, k) => (new DataView(e.head.buffer, e.head.byteOffset).getInt32(0, true) === 0 ? [k] : []));
  if (md.length === 0) return undefined;
  const a = pick(md, rand);
  const r = mutateSpot(evs[a]!.payload, metadataSpotsV5(evs[a]!.payload), rand);
  if (r === undefined) return undefined;
  evs[a] = { ...evs[a]!, payload: r.content };
  withContent(l, i, serializeV3Events(evs));
  return `${label(l, i)} metadata event ${a}: ${r.what}`;
}

const STRUCTURED: [string, number][] = [
  ['block-duplicate', 6],
  ['block-drop', 6],
  ['block-swap', 5],
  ['block-move', 3],
  ['block-rename', 3],
  ['block-version', 2],
  ['event-varint', 14],
  ['event-flags', 6],
  ['event-blobs', 5],
  ['event-payload', 8],
  ['gc-payload', 12],
  ['block-header', 4],
  ['metadata', 10],
  ['stack', 6],
  ['sequence-point', 5],
  ['trace-header', 4],
  ['v3-events', 6],
  ['block-bytes', 4],
];

// ---------------------------------------------------------------------------------------------
// Lies and cuts on the serialized bytes

function frameLie(l: Layout, rand: Rand): { bytes: Uint8Array; what: string } {
  const { bytes, map } = serialize(l);
  const b = bytes;
  const v = new DataView(b.buffer);
  const k = Math.floor(rand() * map.objects.length);
  const m = map.objects[k]!;
  const r = rand();
  if (r < 0.45) {
    // A cut exactly at a structure boundary (or one byte either side of it).
    const spots = [
      m.start,
      m.start + 1,
      m.sizeAt,
      m.sizeAt + 2,
      m.contentStart,
      m.contentStart + 2,
      m.contentStart + 20,
      m.contentEnd,
      m.end - 1,
      m.end,
    ].filter((x) => x > 0 && x <= b.length);
    const at = pick(spots, rand) + (rand() < 0.2 ? pick([-1, 1], rand) : 0);
    const cut = Math.max(0, Math.min(b.length, at));
    return { bytes: b.slice(0, cut), what: `cut at ${cut} (object ${k} spans ${m.start}..${m.end})` };
  }
  if (r < 0.8 && m.sizeAt >= 0) {
    const size = m.contentEnd - m.contentStart;
    if (l.container === 'v6') {
      const ns = pick([0, 1, size - 1, size + 1, size + 4, 0xffffff], rand) & 0xffffff;
      v.setUint32(m.sizeAt, ((v.getUint32(m.sizeAt, true) & 0xff000000) | ns) >>> 0, true);
      return { bytes: b, what: `block ${k} size ${size} -> ${ns}` };
    }
    const ns = pick([0, -1, size - 1, size + 1, size + 4, size - 4, 0x7fffffff, -0x80000000, 64 * 1024 * 1024 + 1, 64 * 1024 * 1024], rand);
    v.setInt32(m.sizeAt, ns, true);
    return { bytes: b, what: `object ${k} size ${size} -> ${ns}` };
  }
  if (l.container !== 'v6' && r < 0.92) {
    const at = pick([m.start, m.start + 1, m.start + 2, m.end - 1], rand);
    const t = pick([0, 1, 2, 3, 4, 5, 6, 7, 0xff], rand);
    const orig = b[at];
    b[at] = t;
    return { bytes: b, what: `tag at ${at} ${orig} -> ${t}` };
  }
  // The end of the stream: missing, or followed by garbage.
  const end = map.objects[map.objects.length - 1]!.end;
  if (rand() < 0.5) return { bytes: b.slice(0, end), what: 'end-of-stream marker dropped' };
  const out = new Out().bytes(b);
  for (let i = 0; i < 64; i++) out.u8(Math.floor(rand() * 256));
  return { bytes: out.result(), what: '64 random bytes after the end of the stream' };
}

export function mutateNettrace(seed: Seed, rand: Rand, only?: readonly string[]): Mutant {
  const r = rand();
  const allowed = (name: string): boolean => only === undefined || only.includes(name);
  const families = STRUCTURED.filter(([name]) => allowed(name));
  if ((r < 0.07 && allowed('byte-level')) || families.length === 0) {
    const m = byteMutate(seed.bytes, rand);
    return { bytes: m.bytes, mutation: `byte-level ${m.kind}`, ext: seed.ext };
  }
  const base = layoutOf(seed);
  const l: Layout = { ...base, objects: [...base.objects] };
  const done: string[] = [];
  const n = r < 0.75 ? 1 : r < 0.93 ? 2 : 3;
  for (let tries = 0; done.length < n && tries < 20; tries++) {
    const name = pickByWeight(families, rand);
    const before = [...l.objects];
    let what: string | undefined;
    try {
      what = MUTATIONS[name]!(l, rand);
    } catch {
      // A block an earlier mutation of this input already damaged cannot be split into blobs or
      // events any more (or there is no block of the kind wanted): another mutation is tried.
      what = undefined;
    }
    if (what !== undefined && l.objects.every((o) => o !== undefined) && l.objects.length > 0) done.push(`${name}: ${what}`);
    else l.objects = before;
  }
  let bytes: Uint8Array;
  if (rand() < 0.18 && allowed('frame')) {
    const lie = frameLie(l, rand);
    bytes = lie.bytes;
    done.push(`frame: ${lie.what}`);
  } else bytes = serialize(l).bytes;
  if (rand() < 0.04 && allowed('zipped')) {
    const name = `fuzz${seed.ext}`;
    // A fixed time stamp: the same (seed, index) gives the same bytes.
    return {
      bytes: zipSync({ [name]: bytes }, { mtime: new Date(Date.UTC(2026, 0, 1)) }),
      mutation: [...done, `zipped as ${name}`].join('; '),
      ext: `${seed.ext}.zip`,
    };
  }
  return { bytes, mutation: done.join('; '), ext: seed.ext };
}

function pickByWeight(items: [string, number][], rand: Rand): string {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = rand() * total;
  for (const [name, w] of items) if ((x -= w) < 0) return name;
  return items[items.length - 1]![0];
}

export const nettraceMutator: ReaderMutator = {
  reader: 'nettrace',
  seeds: nettraceSeeds,
  mutate: mutateNettrace,
};
