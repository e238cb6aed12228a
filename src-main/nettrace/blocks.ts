/**
 * The block decoders: what is inside each block once the container (reader.ts) has framed it —
 * the trace header, event blocks (V3 fixed headers; V4/V5/V6 compressed or not), metadata
 * blocks, sequence points, and the V6 thread and label-list blocks (docs/formats.md §2.3–2.10).
 * Holds what decoding needs across blocks: the header state, the metadata, thread and label
 * tables, and the time-order sorter that events are handed to.
 */
import { TraceDecodeError } from '../trace/errors.js';
import { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';
import { HeaderState } from './event-blob.js';
import {
  EventSorter,
  F_CAPTURE_THREAD,
  F_PAYLOAD_OFFSET,
  F_PAYLOAD_SIZE,
  F_PAYLOAD_START,
  F_PROCESS,
  F_PROCESSOR,
  F_SEQUENCE,
  F_STACK,
  F_THREAD,
  F_TIMESTAMP,
  newRecord,
} from './event-sorter.js';
import { parseMetadataRowV6, parseMetadataV5 } from './metadata.js';
import { parseTraceBlockV6, parseTraceObjectV3to5 } from './trace-object.js';
import type { EventMetadata, TraceEventRecord, TraceInfo } from './types.js';

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

/** V6 Thread block row entries. */
const enum ThreadInfoKind {
  Name = 1,
  ProcessId = 2,
  ThreadId = 3,
  KeyValue = 4,
}

/** V6 LabelList entries (the high bit of the kind byte ends a list). */
const enum LabelKind {
  ActivityId = 1,
  RelatedActivityId = 2,
  TraceId = 3,
  SpanId = 4,
  KeyValueString = 5,
  KeyValueVarint = 6,
  OpCode = 7,
  Keywords = 8,
  Level = 9,
  Version = 10,
}

interface LabelList {
  activityId?: string;
  opcode?: number;
  keywords?: bigint;
  level?: number;
  version?: number;
}

export interface BlockHandlers {
  onTrace?(info: TraceInfo): void;
  onMetadata?(md: EventMetadata): void;
  /** TraceReaderHandlers.onArrival: each event in stream order, before the sorter holds it. */
  onArrival?(md: EventMetadata, bytes: Uint8Array, payloadStart: number, payloadSize: number): void;
}

export class BlockDecoder {
  /** Set by the container as it reads the format's header. */
  formatVersion = 0;
  formatMinor = 0;
  isNetTrace = false;
  trace: TraceInfo | undefined;
  syncQpc = 0n;
  sorter: EventSorter | undefined;
  /** Metadata records with V5 tags seen (V5 vs V4 is only visible through these). */
  v5TagCount = 0;
  /** NetPerf V3: the stack written inline with the event being dispatched (valid during its dispatch). */
  inlineStack: { bytes: Uint8Array; start: number; size: number } | undefined;
  private header: HeaderState | undefined;
  private readonly metadata = new Map<number, EventMetadata>();
  private readonly threads = new Map<number, { tid: number; pid: number }>();
  private readonly labelLists = new Map<number, LabelList>();
  private readonly overridden = new Map<string, EventMetadata>();

  /** The one record refilled for every dispatched event when records are reused (reader option). */
  private readonly scratch: TraceEventRecord | undefined;

  constructor(
    private readonly handlers: BlockHandlers,
    private readonly sort: boolean,
    private readonly reuseRecords: boolean,
    private readonly dispatchFn: (e: TraceEventRecord) => void,
  ) {
    this.scratch = reuseRecords ? newRecord() : undefined;
  }

  /** Decodes one block's content (the container has framed it). */
  processBlock(kind: BlockKind, c: ByteCursor): void {
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
    this.sorter = new EventSorter(this.dispatchFn, this.formatVersion >= 6, this.reuseRecords);
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
        // After the payload: i32 StackSize and that many bytes of return addresses (NetPerfFormat.md).
        const stackAt = payloadStart + payloadSize + 4;
        if (stackAt <= end) {
          const size = c.view.getInt32(stackAt - 4, true);
          this.inlineStack = size > 0 && stackAt + size <= end ? { bytes: c.bytes, start: stackAt, size } : undefined;
        } else this.inlineStack = undefined;
        if (metadataId === 0) {
          this.defineMetadata(
            parseMetadataV5(new ByteCursor(c.bytes.subarray(payloadStart, payloadStart + payloadSize), c.base + payloadStart)),
            c.base + start,
          );
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
        this.inlineStack = undefined;
        c.pos = end;
      } catch (e) {
        if (partial && e instanceof TraceDecodeError && e.code === 'truncated') {
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
        if (partial && e instanceof TraceDecodeError && e.code === 'truncated') return;
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
      const payloadStart = c.pos;
      c.pos = next;
      this.handlers.onArrival?.(md, c.bytes, payloadStart, h.payloadSize);
      if (sort && !h.isSorted) {
        // Nearly every runtime event: queued as fields until its sequence point, no record yet.
        // The numeric fields go through the sorter's staging row, not as arguments (no boxing).
        const x = sorter.incoming;
        x[F_TIMESTAMP] = h.timestamp;
        x[F_THREAD] = threadId;
        x[F_CAPTURE_THREAD] = captureThreadId;
        x[F_PROCESSOR] = h.processorNumber;
        x[F_SEQUENCE] = h.sequenceNumber;
        x[F_STACK] = h.stackId;
        x[F_PROCESS] = processId;
        x[F_PAYLOAD_START] = payloadStart;
        x[F_PAYLOAD_SIZE] = h.payloadSize;
        x[F_PAYLOAD_OFFSET] = c.base + payloadStart;
        sorter.queueIncoming(md, activityId, c.bytes);
        continue;
      }
      const e: TraceEventRecord = this.scratch ?? newRecord();
      e.metadata = md;
      e.timestamp = h.timestamp;
      e.threadId = threadId;
      e.captureThreadId = captureThreadId;
      e.processorNumber = h.processorNumber;
      e.sequenceNumber = h.sequenceNumber;
      e.stackId = h.stackId;
      e.processId = processId;
      e.activityId = activityId;
      e.bytes = c.bytes;
      e.payloadStart = payloadStart;
      e.payloadSize = h.payloadSize;
      e.payloadOffset = c.base + payloadStart;
      if (sort) sorter.addSorted(e);
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
          case ThreadInfoKind.Name:
            row.utf8v();
            break;
          case ThreadInfoKind.ProcessId:
            t.pid = row.varuint64();
            break;
          case ThreadInfoKind.ThreadId:
            t.tid = row.varuint64();
            break;
          case ThreadInfoKind.KeyValue:
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
          case LabelKind.ActivityId:
            ll.activityId = c.guid();
            break;
          case LabelKind.RelatedActivityId:
            c.skip(16, 'a related activity id');
            break;
          case LabelKind.TraceId:
            c.skip(16, 'a trace id');
            break;
          case LabelKind.SpanId:
            c.skip(8, 'a span id');
            break;
          case LabelKind.KeyValueString:
            c.utf8v();
            c.utf8v();
            break;
          case LabelKind.KeyValueVarint:
            c.utf8v();
            c.varint64();
            break;
          case LabelKind.OpCode:
            ll.opcode = c.u8();
            break;
          case LabelKind.Keywords:
            ll.keywords = c.u64big();
            break;
          case LabelKind.Level:
            ll.level = c.u8();
            break;
          case LabelKind.Version:
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
  decodePartialEventBlock(c: ByteCursor): void {
    if (this.trace === undefined || c.length === 0) return;
    if (this.formatVersion <= 3) this.readEventBlockV3(c, true);
    else this.readEventBlock(c, true);
  }
}
