/**
 * Event blob headers, decoded into one mutable header state per block.
 *
 * Compressed V4/V5/V6 headers (NetTraceFormat_v5.md / NetTraceFormat.md "Event blobs"): a flags
 * byte, then only the fields that changed since the previous event of the same block:
 *   0x01 MetadataId (varuint32)
 *   0x02 SequenceNumber delta (varuint32, +1 implied), CaptureThreadId (varuint64),
 *        ProcessorNumber (varuint32); without it the sequence number advances by one for
 *        non-metadata events
 *   0x04 ThreadId (varuint64)            0x08 StackId (varuint32)
 *   always: TimeStamp delta (varuint64, added modulo 2^64 — out-of-order events wrap)
 *   0x10 V4/V5 ActivityId (16 bytes) | V6 LabelListId (varuint32)
 *   0x20 V4/V5 RelatedActivityId (16 bytes)
 *   0x40 IsSorted                          0x80 PayloadSize (varuint32)
 * Uncompressed V4/V5: i32 EventSize, u32 MetadataId (bit 31 = not sorted), u32 Sequence,
 *   u64 ThreadId, u64 CaptureThreadId, u32 Processor, u32 StackId, u64 TimeStamp,
 *   16-byte ActivityId, 16-byte RelatedActivityId, i32 PayloadSize, payload, pad to 4.
 * Uncompressed V6: the same up to TimeStamp, then u32 LabelListId, u32 PayloadSize, payload.
 *
 * Timestamps are kept as ticks relative to the trace's sync time, as plain numbers, so the hot
 * path never allocates a BigInt: only a delta ≥ 2^53 (a wrapped, i.e. negative, delta) or an
 * absolute timestamp ≥ 2^53 goes through BigInt.
 */
import type { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_32 = 4294967296;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

export class HeaderState {
  metadataId = 0;
  sequenceNumber = 0;
  captureThreadId = 0;
  processorNumber = 0;
  threadId = 0;
  stackId = 0;
  /** Relative ticks; meaningful only when !timestampIsZero. */
  timestamp = 0;
  /** True at block start, where the previous absolute timestamp is 0. */
  timestampIsZero = true;
  activityId: string | undefined = undefined;
  labelListId = 0;
  isSorted = false;
  payloadSize = 0;

  constructor(private readonly syncQpc: bigint) {}

  reset(): void {
    this.metadataId = 0;
    this.sequenceNumber = 0;
    this.captureThreadId = 0;
    this.processorNumber = 0;
    this.threadId = 0;
    this.stackId = 0;
    this.timestamp = 0;
    this.timestampIsZero = true;
    this.activityId = undefined;
    this.labelListId = 0;
    this.isSorted = false;
    this.payloadSize = 0;
  }

  /** Converts an absolute tick value (two 32-bit halves) to ticks relative to sync time. */
  absToRel(hi: number, lo: number): number {
    if (hi < 0x200000 && this.syncQpc <= MAX_SAFE_BIG) return hi * TWO_32 + lo - Number(this.syncQpc);
    return Number(BigInt.asIntN(64, ((BigInt(hi) << 32n) | BigInt(lo)) - this.syncQpc));
  }

  readCompressed(c: ByteCursor, v6: boolean): void {
    // Hot path: most varints are a single byte, so they are read inline and only multi-byte
    // values go through the cursor (which also bounds-checks them).
    const b = c.bytes;
    const len = b.length;
    if (c.pos >= len) throw c.truncated(1, 'an event header');
    const flags = b[c.pos++]!;
    let x: number;
    if ((flags & 0x01) !== 0) this.metadataId = c.pos < len && (x = b[c.pos]!) < 0x80 ? (c.pos++, x) : c.varuint32();
    if ((flags & 0x02) !== 0) {
      const d = c.pos < len && (x = b[c.pos]!) < 0x80 ? (c.pos++, x) : c.varuint32();
      this.sequenceNumber = (this.sequenceNumber + d + 1) | 0;
      this.captureThreadId = c.varuint64();
      this.processorNumber = c.pos < len && (x = b[c.pos]!) < 0x80 ? (c.pos++, x) : c.varuint32();
    } else if (this.metadataId !== 0) {
      this.sequenceNumber = (this.sequenceNumber + 1) | 0;
    }
    if ((flags & 0x04) !== 0) this.threadId = c.varuint64();
    if ((flags & 0x08) !== 0) this.stackId = c.pos < len && (x = b[c.pos]!) < 0x80 ? (c.pos++, x) : c.varuint32();
    const deltaStart = c.pos;
    const delta = c.varuint64();
    if (this.timestampIsZero) {
      // Previous absolute timestamp is 0: the delta is the absolute timestamp.
      if (delta <= MAX_SAFE && this.syncQpc <= MAX_SAFE_BIG) {
        this.timestamp = delta - Number(this.syncQpc);
      } else {
        c.pos = deltaStart;
        this.timestamp = Number(BigInt.asIntN(64, c.varuint64big() - this.syncQpc));
      }
      this.timestampIsZero = false;
    } else if (delta <= MAX_SAFE) {
      this.timestamp += delta;
    } else {
      c.pos = deltaStart;
      this.timestamp += Number(BigInt.asIntN(64, c.varuint64big()));
    }
    if (v6) {
      if ((flags & 0x10) !== 0) this.labelListId = c.varuint32();
    } else {
      this.activityId = (flags & 0x10) !== 0 ? c.guid() : undefined;
      if ((flags & 0x20) !== 0) c.skip(16, 'a related activity id');
    }
    this.isSorted = (flags & 0x40) !== 0;
    if ((flags & 0x80) !== 0) this.payloadSize = c.varuint32();
  }

  /** Uncompressed V4/V5 (v6 = false) or V6 header. Returns the offset just past the padded event. */
  readUncompressed(c: ByteCursor, v6: boolean): number {
    const start = c.pos;
    const eventSize = c.i32();
    if (eventSize < 0) throw new NettraceError('bad-event', c.offset - 4, `negative event size ${eventSize}`);
    const md = c.u32();
    this.metadataId = md & 0x7fffffff;
    this.isSorted = (md & 0x80000000) === 0;
    this.sequenceNumber = c.i32();
    this.threadId = c.u64();
    this.captureThreadId = c.u64();
    this.processorNumber = c.u32();
    this.stackId = c.u32();
    const lo = c.u32();
    const hi = c.u32();
    this.timestamp = this.absToRel(hi, lo);
    this.timestampIsZero = false;
    if (v6) {
      this.labelListId = c.u32();
    } else {
      const act = c.guid();
      this.activityId = act === '00000000-0000-0000-0000-000000000000' ? undefined : act;
      c.skip(16, 'a related activity id');
    }
    this.payloadSize = c.i32();
    if (this.payloadSize < 0) throw new NettraceError('bad-event', c.offset - 4, `negative payload size ${this.payloadSize}`);
    const end = start + 4 + eventSize;
    // V4/V5 uncompressed events are padded to 4 bytes; the size field excludes the padding.
    // Plain arithmetic, not `(4 + eventSize + 3) & ~3`: bitwise operators work on 32 bits, and
    // a hostile size near 2^31 would wrap to a negative position.
    return v6 ? end : end + ((4 - (eventSize % 4)) % 4);
  }
}
