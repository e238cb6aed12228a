/**
 * The incremental NetPerf/NetTrace reader: push chunks of any size, get the trace header,
 * metadata and time-ordered events through callbacks. The same code reads files (big chunks)
 * and live diagnostics streams (whatever the socket delivers).
 *
 * Containers (formats.md §2, perfview NetPerfFormat.md / NetTraceFormat_v5.md / NetTraceFormat.md):
 * - NetPerf V3: `i32 20 "!FastSerialization.1"`, objects opened with tag 4.
 * - NetTrace V4/V5: `"Nettrace"` then the same FastSerialization stream with tag 5.
 *   Each object: begin tag, begin tag, null tag, i32 version, i32 minVersion, i32 nameLength,
 *   name, end tag; then (blocks only) i32 BlockSize, zero padding to a 4-byte *stream* offset,
 *   BlockSize content bytes, end tag. A lone null tag (1) ends the stream.
 * - NetTrace V6: `"Nettrace" u32 0 u32 major u32 minor`, then blocks of `u32 (kind << 24 | size)`
 *   + content, ending with an EndOfStream block (kind 0). Unknown kinds are skipped.
 * NetPerf V1/V2 (`Microsoft.DotNet.Runtime.EventPipeFile` version 1/2) are refused with
 * UnsupportedVersionError, as current TraceEvent does.
 *
 * Errors: malformed input throws a NettraceError from push() (state 'failed'); everything
 * decoded before it has been delivered. A stream that simply stops is not an error: end()
 * releases what is complete (including the complete events of a partly received event block)
 * and leaves state 'truncated' with `error` describing where it stopped.
 */
import { ByteCursor } from './byte-cursor.js';
import { ChunkQueue } from './chunk-queue.js';
import { asNettraceError, NettraceError, UnsupportedVersionError } from './errors.js';
import { EventSorter } from './event-sorter.js';
import { HeaderState } from './event-blob.js';
import { parseMetadataRowV6, parseMetadataV5 } from './metadata.js';
import { parseTraceBlockV6, parseTraceObjectV3to5 } from './trace-object.js';
import type { EventMetadata, ReaderState, TraceEventRecord, TraceInfo } from './types.js';

export interface ReaderHandlers {
  onTrace?(info: TraceInfo): void;
  onMetadata?(md: EventMetadata): void;
  onEvent?(e: TraceEventRecord): void;
  /** A whole block was processed; `start`/`end` are absolute offsets of the object/block. */
  onBlock?(kind: BlockKind, start: number, end: number): void;
}

export interface ReaderOptions {
  /**
   * Restore global time order across threads (default true). Off, events come in stream
   * order, which is enough for counting and faster.
   */
  sort?: boolean;
  /** Largest block accepted (default 64 MiB; real runtime blocks are ~100 KB, V6 caps at 16 MiB). */
  maxBlockSize?: number;
}

/** Block kinds, with the V6 numeric values (FastSerialization blocks are mapped onto them). */
export const enum BlockKind {
  EndOfStream = 0,
  Trace = 1,
  Event = 2,
  Metadata = 3,
  SequencePoint = 4,
  Stack = 5,
  Thread = 6,
  RemoveThread = 7,
  LabelList = 8,
}

const BLOCK_NAMES: Record<string, BlockKind> = {
  EventBlock: BlockKind.Event,
  MetadataBlock: BlockKind.Metadata,
  StackBlock: BlockKind.Stack,
  SPBlock: BlockKind.SequencePoint,
};

export const BLOCK_KIND_NAMES = [
  'EndOfStream',
  'Trace',
  'EventBlock',
  'MetadataBlock',
  'SPBlock',
  'StackBlock',
  'ThreadBlock',
  'RemoveThreadBlock',
  'LabelListBlock',
] as const;

const FS_MAGIC = '!FastSerialization.1';
const NETTRACE_MAGIC = [0x4e, 0x65, 0x74, 0x74, 0x72, 0x61, 0x63, 0x65];
const TAG_NULL = 1;
const TAG_BEGIN_OBJECT = 4;
const TAG_BEGIN_PRIVATE = 5;
const TAG_END = 6;

type Phase =
  | { k: 'magic' }
  | { k: 'afterMagic' }
  | { k: 'fsHeader' }
  | { k: 'v6Version' }
  | { k: 'fsObject' }
  /** FastSerialization block or trace object content, followed by the end tag. */
  | { k: 'fsContent'; kind: BlockKind; size: number; version: number; start: number }
  | { k: 'v6Block' }
  | { k: 'v6Content'; kind: BlockKind; size: number; start: number }
  | { k: 'done' };

interface LabelList {
  activityId?: string;
  opcode?: number;
  keywords?: bigint;
  level?: number;
  version?: number;
}

export class NettraceReader {
  state: ReaderState = 'reading';
  /** The fatal error (state 'failed') or where the stream stopped (state 'truncated'). */
  error: NettraceError | undefined;
  trace: TraceInfo | undefined;
  /** Events the runtime reported as lost (sequence-number gaps). */
  get droppedEvents(): number {
    return this.sorter?.droppedEvents ?? 0;
  }
  /** Non-metadata events delivered so far. */
  eventCount = 0;
  readonly blockCounts: Record<string, number> = {};
  /** Metadata records with V5 tags seen (V5 vs V4 is only visible through these). */
  v5TagCount = 0;

  private readonly q = new ChunkQueue();
  private flushedAfterFailure = false;
  private phase: Phase = { k: 'magic' };
  private isNetTrace = false;
  private formatVersion = 0;
  private formatMinor = 0;
  private syncQpc = 0n;
  private header: HeaderState | undefined;
  private sorter: EventSorter | undefined;
  private readonly metadata = new Map<number, EventMetadata>();
  private readonly threads = new Map<number, { tid: number; pid: number }>();
  private readonly labelLists = new Map<number, LabelList>();
  private readonly overridden = new Map<string, EventMetadata>();
  private readonly sort: boolean;
  private readonly maxBlockSize: number;
  private readonly dispatchFn: (e: TraceEventRecord) => void;

  constructor(
    private readonly handlers: ReaderHandlers,
    options: ReaderOptions = {},
  ) {
    this.sort = options.sort ?? true;
    this.maxBlockSize = options.maxBlockSize ?? 64 * 1024 * 1024;
    this.dispatchFn = (e) => {
      this.eventCount++;
      this.handlers.onEvent?.(e);
    };
  }

  /** Bytes consumed so far (absolute offset of the next structure). */
  get offset(): number {
    return this.q.consumed;
  }

  get formatName(): string {
    if (this.formatVersion === 0) return 'unknown';
    if (!this.isNetTrace) return `NetPerf V${this.formatVersion}`;
    if (this.formatVersion >= 6) return `NetTrace V${this.formatVersion}.${this.formatMinor}`;
    return this.v5TagCount > 0 ? 'NetTrace V5' : 'NetTrace V4';
  }

  push(chunk: Uint8Array): void {
    if (this.state !== 'reading') {
      if (this.state === 'failed') throw this.error!;
      return;
    }
    this.q.push(chunk);
    try {
      this.run();
    } catch (e) {
      // Whatever went wrong, the caller gets a typed error at the structure being decoded.
      const err = asNettraceError(e, this.q.consumed);
      this.state = 'failed';
      this.error = err;
      throw err;
    }
  }

  /** The stream has ended. Releases queued events; sets state 'complete' or 'truncated'. */
  end(): void {
    if (this.state === 'failed' && !this.flushedAfterFailure) {
      // Deliver what was queued before the damage, once.
      this.flushedAfterFailure = true;
      this.sorter?.flush();
      return;
    }
    if (this.state !== 'reading') return;
    if (this.phase.k === 'done') {
      this.sorter?.flush();
      this.state = 'complete';
      return;
    }
    const where = this.q.consumed;
    let what = 'before the end-of-stream marker';
    try {
      if (this.phase.k === 'fsContent' || this.phase.k === 'v6Content') {
        const p = this.phase;
        what = `inside a ${BLOCK_KIND_NAMES[p.kind] ?? 'block'} of ${p.size} bytes (${this.q.available} present)`;
        if (p.kind === BlockKind.Event) this.decodePartialEventBlock();
      } else if (this.phase.k === 'magic' || this.phase.k === 'afterMagic' || this.phase.k === 'fsHeader') {
        what = 'inside the file header';
      }
    } catch {
      // Damage inside the partial block is reported as the truncation below.
    }
    this.sorter?.flush();
    this.state = 'truncated';
    this.error = new NettraceError(
      'truncated',
      where,
      `trace is truncated: it stops ${what}; the events before that point were read`,
    );
  }

  // ---------------------------------------------------------------------------------------

  private run(): void {
    const q = this.q;
    for (;;) {
      const p = this.phase;
      switch (p.k) {
        case 'magic': {
          if (q.available < 8) return;
          const b = q.peek(8);
          if (NETTRACE_MAGIC.every((v, i) => b[i] === v)) {
            q.skip(8);
            this.isNetTrace = true;
            this.phase = { k: 'afterMagic' };
          } else {
            this.phase = { k: 'fsHeader' };
          }
          break;
        }
        case 'afterMagic': {
          if (q.available < 4) return;
          const c = new ByteCursor(q.peek(4), q.consumed);
          if (c.u32() !== 0) this.phase = { k: 'fsHeader' };
          else {
            q.skip(4);
            this.phase = { k: 'v6Version' };
          }
          break;
        }
        case 'fsHeader': {
          if (q.available < 24) return;
          const c = new ByteCursor(q.peek(24), q.consumed);
          const len = c.i32();
          const magic = len === 20 ? String.fromCharCode(...c.bytesView(20)) : '';
          if (magic !== FS_MAGIC) {
            throw new NettraceError(
              'bad-magic',
              q.consumed,
              'not a .nettrace or .netperf file: it starts with neither "Nettrace" nor the FastSerialization header',
            );
          }
          q.skip(24);
          this.phase = { k: 'fsObject' };
          break;
        }
        case 'v6Version': {
          if (q.available < 8) return;
          const c = new ByteCursor(q.take(8), q.consumed - 8);
          const major = c.u32();
          const minor = c.u32();
          if (major < 6) throw new NettraceError('bad-magic', c.base, `invalid NetTrace version header (major ${major})`);
          if (major > 6) throw new UnsupportedVersionError(major, 3, 6, c.base);
          this.formatVersion = major;
          this.formatMinor = minor;
          this.phase = { k: 'v6Block' };
          break;
        }
        case 'fsObject':
          if (!this.readFsObjectHeader()) return;
          break;
        case 'fsContent': {
          if (p.kind === BlockKind.Stack) {
            // Stacks are not needed for GC analysis: skip without copying.
            if (q.available < p.size + 1) return;
            q.skip(p.size);
          } else {
            if (q.available < p.size + 1) return;
            const base = q.consumed;
            this.processBlock(p.kind, new ByteCursor(q.take(p.size), base), p.version);
          }
          const endTag = q.take(1)[0];
          if (endTag !== TAG_END) {
            throw new NettraceError('bad-tag', q.consumed - 1, `expected end-of-object tag 6 after a block, found ${endTag}`);
          }
          this.count(p.kind);
          this.handlers.onBlock?.(p.kind, p.start, q.consumed);
          this.phase = { k: 'fsObject' };
          break;
        }
        case 'v6Block': {
          if (q.available < 4) return;
          const c = new ByteCursor(q.take(4), q.consumed - 4);
          const x = c.u32();
          const size = x & 0xffffff;
          const kind = x >>> 24;
          if (this.trace === undefined && kind !== BlockKind.Trace) {
            throw new NettraceError('bad-block', c.base, `expected the Trace block first, found block kind ${kind}`);
          }
          this.phase = { k: 'v6Content', kind, size, start: c.base };
          break;
        }
        case 'v6Content': {
          if (q.available < p.size) return;
          if (p.kind === BlockKind.Stack || p.kind > BlockKind.LabelList) q.skip(p.size);
          else {
            const base = q.consumed;
            this.processBlock(p.kind, new ByteCursor(q.take(p.size), base), 0);
          }
          this.count(p.kind);
          this.handlers.onBlock?.(p.kind, p.start, q.consumed);
          this.phase = p.kind === BlockKind.EndOfStream ? { k: 'done' } : { k: 'v6Block' };
          break;
        }
        case 'done':
          // Anything after the end-of-stream marker is ignored.
          q.skip(q.available);
          return;
      }
    }
  }

  private count(kind: BlockKind): void {
    const name = BLOCK_KIND_NAMES[kind] ?? `Block${kind}`;
    this.blockCounts[name] = (this.blockCounts[name] ?? 0) + 1;
  }

  /** Parses a FastSerialization object header; returns false when more bytes are needed. */
  private readFsObjectHeader(): boolean {
    const q = this.q;
    if (q.available < 1) return false;
    const c = new ByteCursor(q.peek(Math.min(q.available, 96)), q.consumed);
    const tag = c.u8();
    if (tag === TAG_NULL) {
      q.skip(1);
      this.phase = { k: 'done' };
      this.sorter?.flush();
      this.count(BlockKind.EndOfStream);
      this.handlers.onBlock?.(BlockKind.EndOfStream, c.base, c.base + 1);
      return true;
    }
    const begin = this.isNetTrace ? TAG_BEGIN_PRIVATE : TAG_BEGIN_OBJECT;
    try {
      if (tag !== begin) throw new NettraceError('bad-tag', c.offset - 1, `expected begin-object tag ${begin}, found ${tag}`);
      const t2 = c.u8();
      if (t2 !== begin) throw new NettraceError('bad-tag', c.offset - 1, `expected begin-object tag ${begin} for the type, found ${t2}`);
      const t3 = c.u8();
      if (t3 !== TAG_NULL) throw new NettraceError('bad-tag', c.offset - 1, `expected null type-of-type tag, found ${t3}`);
      const version = c.i32();
      c.i32(); // minimum reader version
      const nameLen = c.i32();
      if (nameLen < 0 || nameLen > 64) throw new NettraceError('bad-block', c.offset - 4, `implausible object type name length ${nameLen}`);
      const name = String.fromCharCode(...c.bytesView(nameLen, 'an object type name'));
      const t4 = c.u8();
      if (t4 !== TAG_END) throw new NettraceError('bad-tag', c.offset - 1, `expected end tag after type "${name}", found ${t4}`);
      if (name === 'Trace' || name === 'Microsoft.DotNet.Runtime.EventPipeFile') {
        if (this.trace !== undefined) throw new NettraceError('bad-block', c.base, 'a second Trace object');
        if (version < 3) throw new UnsupportedVersionError(version, 3, 6, c.base);
        if (version > 4) throw new NettraceError('bad-block', c.base, `unrecognized Trace object version ${version}`);
        if ((version === 4) !== this.isNetTrace) {
          throw new NettraceError('bad-block', c.base, `Trace object version ${version} does not match the ${this.isNetTrace ? 'Nettrace' : 'NetPerf'} header`);
        }
        this.formatVersion = version;
        q.skip(c.pos);
        this.phase = { k: 'fsContent', kind: BlockKind.Trace, size: 48, version, start: c.base };
        return true;
      }
      if (this.trace === undefined) throw new NettraceError('bad-block', c.base, `expected the Trace object first, found "${name}"`);
      const kind = BLOCK_NAMES[name];
      if (kind === undefined) throw new NettraceError('bad-block', c.base, `unrecognized block type "${name}"`);
      if (version > 2) throw new NettraceError('bad-block', c.base, `unrecognized ${name} version ${version}`);
      const size = c.i32();
      if (size < 0 || size > this.maxBlockSize) {
        throw new NettraceError('too-large', c.offset - 4, `${name} claims ${size} bytes, more than any real trace block`);
      }
      const pad = (4 - (c.offset % 4)) % 4;
      c.skip(pad, 'block alignment padding');
      q.skip(c.pos);
      this.phase = { k: 'fsContent', kind, size, version, start: c.base };
      return true;
    } catch (e) {
      // Ran out of bytes while the header is still within the peeked window: wait for more.
      if (e instanceof NettraceError && e.code === 'truncated' && c.length === q.available && c.length < 96) return false;
      throw e;
    }
  }

  private processBlock(kind: BlockKind, c: ByteCursor, _version: number): void {
    switch (kind) {
      case BlockKind.Trace:
        this.readTrace(c);
        break;
      case BlockKind.Event:
        if (this.formatVersion <= 3) this.readEventBlockV3(c, false);
        else this.readEventBlock(c, false);
        break;
      case BlockKind.Metadata:
        if (this.formatVersion >= 6) this.readMetadataBlockV6(c);
        else this.readMetadataBlockV5(c);
        break;
      case BlockKind.SequencePoint:
        this.readSequencePoint(c);
        break;
      case BlockKind.Thread:
        this.readThreadBlock(c);
        break;
      case BlockKind.RemoveThread:
        this.readRemoveThreadBlock(c);
        break;
      case BlockKind.LabelList:
        this.readLabelListBlock(c);
        break;
      case BlockKind.EndOfStream:
        this.sorter?.flush();
        break;
      case BlockKind.Stack:
        break;
    }
  }

  private readTrace(c: ByteCursor): void {
    const r =
      this.formatVersion >= 6
        ? parseTraceBlockV6(c, this.formatVersion, this.formatMinor)
        : parseTraceObjectV3to5(c, this.isNetTrace ? 'NetTrace' : 'NetPerf', this.formatVersion);
    this.trace = r.info;
    this.syncQpc = r.syncQpc;
    this.header = new HeaderState(r.syncQpc);
    this.sorter = new EventSorter(this.dispatchFn, this.formatVersion >= 6);
    this.handlers.onTrace?.(r.info);
  }

  private defineMetadata(md: EventMetadata, offset: number): void {
    const old = this.metadata.get(md.id);
    if (old !== undefined) {
      throw new NettraceError(
        'bad-metadata',
        offset,
        `metadata id ${md.id} defined twice (first ${old.provider}/${old.eventId}, now ${md.provider}/${md.eventId})`,
      );
    }
    if (md.hasV5Tags) this.v5TagCount++;
    this.metadata.set(md.id, md);
    this.handlers.onMetadata?.(md);
  }

  private lastMetadata: EventMetadata | undefined;

  private lookupMetadata(id: number, offset: number): EventMetadata {
    const last = this.lastMetadata;
    if (last !== undefined && last.id === id) return last;
    const md = this.metadata.get(id);
    this.lastMetadata = md;
    if (md === undefined) throw new NettraceError('unknown-metadata', offset, `event refers to metadata id ${id}, which the trace never defined`);
    return md;
  }

  /** V3: events (metadata inline, id 0) with a fixed header, already time-sorted. */
  private readEventBlockV3(c: ByteCursor, partial: boolean): void {
    const h = this.header!;
    const pid = this.trace!.processId;
    while (c.remaining > 0) {
      const start = c.pos;
      try {
        const eventSize = c.i32();
        if (eventSize < 4 || eventSize > c.remaining) {
          if (eventSize >= 0 && eventSize > c.remaining) throw c.truncated(eventSize, 'a NetPerf event');
          throw new NettraceError('bad-event', c.offset - 4, `NetPerf event size ${eventSize} does not fit its block`);
        }
        const end = c.pos + eventSize;
        const metadataId = c.i32();
        const threadId = c.i32();
        const lo = c.u32();
        const hi = c.u32();
        const act = c.guid();
        c.skip(16, 'a related activity id');
        const payloadSize = c.i32();
        if (payloadSize < 0 || c.pos + payloadSize > end) {
          throw new NettraceError('bad-event', c.offset - 4, `NetPerf payload size ${payloadSize} does not fit its event`);
        }
        const payloadStart = c.pos;
        if (metadataId === 0) {
          this.defineMetadata(parseMetadataV5(new ByteCursor(c.bytes.subarray(payloadStart, payloadStart + payloadSize), c.base + payloadStart)), c.base + start);
        } else {
          const e: TraceEventRecord = {
            metadata: this.lookupMetadata(metadataId, c.base + start),
            timestamp: h.absToRel(hi, lo),
            threadId,
            captureThreadId: threadId,
            processorNumber: 0,
            sequenceNumber: 0,
            stackId: 0,
            processId: pid,
            activityId: act === '00000000-0000-0000-0000-000000000000' ? undefined : act,
            bytes: c.bytes,
            payloadStart,
            payloadSize,
            payloadOffset: c.base + payloadStart,
          };
          this.dispatchFn(e);
        }
        c.pos = end;
      } catch (e) {
        if (partial && e instanceof NettraceError && e.code === 'truncated') {
          c.pos = start;
          return;
        }
        throw e;
      }
    }
  }

  /** V4/V5/V6 event block: header (u16 size incl. itself ≥ 20, u16 flags, min/max timestamps), events. */
  private readEventBlock(c: ByteCursor, partial: boolean): void {
    const headerSize = c.u16();
    if (headerSize < 20) throw new NettraceError('bad-block', c.offset - 2, `event block header size ${headerSize} is below 20`);
    const flags = c.u16();
    c.skip(headerSize - 4, 'the event block header');
    const compressed = (flags & 1) !== 0;
    const v6 = this.formatVersion >= 6;
    const h = this.header!;
    const sorter = this.sorter!;
    const sort = this.sort;
    const pid = this.trace!.processId;
    h.reset();
    while (c.remaining > 0) {
      const start = c.pos;
      let next: number;
      try {
        if (compressed) {
          h.readCompressed(c, v6);
          next = c.pos + h.payloadSize;
        } else {
          next = h.readUncompressed(c, v6);
        }
        if (next > c.length) {
          if (partial) throw c.truncated(next - c.length, 'an event payload');
          throw new NettraceError('bad-event', c.base + start, `event payload of ${h.payloadSize} bytes runs past the end of its block`);
        }
      } catch (e) {
        if (partial && e instanceof NettraceError && e.code === 'truncated') return;
        throw e;
      }
      if (h.metadataId === 0) {
        throw new NettraceError('bad-event', c.base + start, 'an event block holds a metadata record (metadata id 0)');
      }
      let md = this.lookupMetadata(h.metadataId, c.base + start);
      let threadId = h.threadId;
      let captureThreadId = h.captureThreadId;
      let processId = pid;
      let activityId = h.activityId;
      if (v6) {
        const t = this.threads.get(h.threadId);
        if (t !== undefined) {
          threadId = t.tid;
          processId = t.pid;
        }
        const ct = this.threads.get(h.captureThreadId);
        if (ct !== undefined) captureThreadId = ct.tid;
        if (h.labelListId !== 0) {
          const ll = this.labelLists.get(h.labelListId);
          if (ll !== undefined) {
            activityId = ll.activityId;
            md = this.withOverrides(md, h.labelListId, ll);
          }
        } else activityId = undefined;
      }
      const e: TraceEventRecord = {
        metadata: md,
        timestamp: h.timestamp,
        threadId,
        captureThreadId,
        processorNumber: h.processorNumber,
        sequenceNumber: h.sequenceNumber,
        stackId: h.stackId,
        processId,
        activityId,
        bytes: c.bytes,
        payloadStart: c.pos,
        payloadSize: h.payloadSize,
        payloadOffset: c.base + c.pos,
      };
      c.pos = next;
      if (sort) sorter.add(e, h.isSorted);
      else {
        sorter.track(e);
        this.dispatchFn(e);
      }
    }
  }

  /** V6 label-list values that override the metadata's opcode/keywords/level/version. */
  private withOverrides(md: EventMetadata, labelId: number, ll: LabelList): EventMetadata {
    if (ll.opcode === undefined && ll.keywords === undefined && ll.level === undefined && ll.version === undefined) return md;
    const key = `${md.id}:${labelId}`;
    let o = this.overridden.get(key);
    if (o === undefined) {
      o = {
        ...md,
        opcode: ll.opcode ?? md.opcode,
        keywords: ll.keywords ?? md.keywords,
        level: ll.level ?? md.level,
        version: ll.version ?? md.version,
      };
      this.overridden.set(key, o);
    }
    return o;
  }

  private readMetadataBlockV5(c: ByteCursor): void {
    const headerSize = c.u16();
    if (headerSize < 20) throw new NettraceError('bad-block', c.offset - 2, `metadata block header size ${headerSize} is below 20`);
    const flags = c.u16();
    c.skip(headerSize - 4, 'the metadata block header');
    const compressed = (flags & 1) !== 0;
    const h = this.header!;
    h.reset();
    while (c.remaining > 0) {
      const start = c.pos;
      const next = compressed ? (h.readCompressed(c, false), c.pos + h.payloadSize) : h.readUncompressed(c, false);
      if (next > c.length) throw new NettraceError('bad-event', c.base + start, 'metadata record runs past the end of its block');
      const payload = new ByteCursor(c.bytes.subarray(c.pos, c.pos + h.payloadSize), c.base + c.pos);
      this.defineMetadata(parseMetadataV5(payload), c.base + start);
      c.pos = next;
    }
  }

  private readMetadataBlockV6(c: ByteCursor): void {
    const headerSize = c.u16();
    c.skip(headerSize, 'the metadata block header');
    while (c.remaining > 0) {
      const start = c.offset;
      this.defineMetadata(parseMetadataRowV6(c), start);
    }
  }

  private readSequencePoint(c: ByteCursor): void {
    const sorter = this.sorter!;
    c.u64(); // timestamp
    if (this.formatVersion >= 6) {
      const flags = c.u32();
      const n = c.u32();
      sorter.flush();
      for (let i = 0; i < n; i++) {
        const index = c.varuint64();
        const seq = c.varuint32() | 0;
        sorter.checkpoint(index, seq);
      }
      if ((flags & 1) !== 0) {
        sorter.forgetThreads();
        this.threads.clear();
      }
      if ((flags & 2) !== 0) {
        this.metadata.clear();
        this.lastMetadata = undefined;
        this.overridden.clear();
      }
    } else {
      const n = c.u32();
      sorter.flush();
      if (n > c.remaining / 12) throw new NettraceError('bad-block', c.offset - 4, `sequence point lists ${n} threads, more than its block holds`);
      for (let i = 0; i < n; i++) {
        const tid = c.u64();
        const seq = c.u32() | 0;
        sorter.checkpoint(tid, seq);
      }
    }
    // Label lists are only valid until the next sequence point.
    this.labelLists.clear();
    this.overridden.clear();
  }

  /** V6 Thread block: rows of u16 size, varuint64 index, then {u8 kind, value} entries. */
  private readThreadBlock(c: ByteCursor): void {
    while (c.remaining > 0) {
      const size = c.u16();
      const row = new ByteCursor(c.bytesView(size, 'a thread row'), c.offset - size);
      const index = row.varuint64();
      const t = { tid: -1, pid: this.trace!.processId };
      while (row.remaining > 0) {
        const kind = row.u8();
        switch (kind) {
          case 1:
            row.utf8v();
            break;
          case 2:
            t.pid = row.varuint64();
            break;
          case 3:
            t.tid = row.varuint64();
            break;
          case 4:
            row.utf8v();
            row.utf8v();
            break;
          default:
            throw new NettraceError('bad-block', row.offset - 1, `unknown thread info kind ${kind}`);
        }
      }
      if (this.threads.has(index)) throw new NettraceError('bad-block', row.base, `thread index ${index} declared twice`);
      this.threads.set(index, t);
    }
  }

  private readRemoveThreadBlock(c: ByteCursor): void {
    while (c.remaining > 0) {
      const index = c.varuint64();
      const seq = c.varuint32() | 0;
      this.sorter!.checkpoint(index, seq, true);
    }
  }

  /** V6 LabelList block: u32 firstIndex, u32 count, then `count` lists of labels. */
  private readLabelListBlock(c: ByteCursor): void {
    const first = c.u32();
    const count = c.u32();
    for (let i = 0; i < count; i++) {
      const ll: LabelList = {};
      for (;;) {
        const k = c.u8();
        const kind = k & 0x7f;
        switch (kind) {
          case 1:
            ll.activityId = c.guid();
            break;
          case 2:
            c.skip(16, 'a related activity id');
            break;
          case 3:
            c.skip(16, 'a trace id');
            break;
          case 4:
            c.skip(8, 'a span id');
            break;
          case 5:
            c.utf8v();
            c.utf8v();
            break;
          case 6:
            c.utf8v();
            c.varint64();
            break;
          case 7:
            ll.opcode = c.u8();
            break;
          case 8:
            ll.keywords = c.u64big();
            break;
          case 9:
            ll.level = c.u8();
            break;
          case 10:
            ll.version = c.u8();
            break;
          default:
            throw new NettraceError('bad-block', c.offset - 1, `unknown label kind ${kind}`);
        }
        if ((k & 0x80) !== 0) break;
      }
      this.labelLists.set(first + i, ll);
    }
  }

  /** At end of input inside an event block: deliver the complete events of the part received. */
  private decodePartialEventBlock(): void {
    if (this.trace === undefined || this.q.available === 0) return;
    const base = this.q.consumed;
    const c = new ByteCursor(this.q.rest(), base);
    if (this.formatVersion <= 3) this.readEventBlockV3(c, true);
    else this.readEventBlock(c, true);
  }

  /** Exact sync tick value (for converting relative ticks back to absolute). */
  get syncTimeQpc(): bigint {
    return this.syncQpc;
  }
}
