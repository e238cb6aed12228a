/**
 * Restores time order across capture threads and counts dropped events, as TraceEvent's
 * EventCache does (NetTraceFormat_v5.md "Event Sequence Numbers" / "Event TimeStamp sorting").
 *
 * Guarantees the writer gives: events of one capture thread arrive in timestamp order; an event
 * flagged IsSorted is not later than anything after it in the stream; a sequence point is a
 * barrier. So: queue unsorted events per capture thread; when a sorted event arrives, release
 * (merging thread queues by timestamp) everything older than it, then the event itself; at a
 * sequence point or the end of the stream, release everything.
 *
 * Dropped events: per capture thread, sequence numbers advance by exactly one. A gap, or a
 * sequence point naming a higher number than last seen, means the runtime dropped events
 * (buffers full). In V4/V5 a thread whose last number is 0 is a new (or recycled) thread and
 * is not checked. Unlike TraceEvent, a *negative* gap (number went backwards, which only a
 * recycled thread id produces) counts nothing instead of int.MaxValue.
 */
import type { EventMetadata, TraceEventRecord } from './types.js';

/**
 * Most payload bytes held for time ordering before everything queued is released anyway. The
 * runtime writes a sequence point at least every ~10 MB of events (EventPipe's sequence point
 * allocation budget), so real traces never reach this; a file without sequence points would
 * otherwise keep every event (and the chunks its payload views point into) until its end.
 */
export const MAX_QUEUED_BYTES = 64 << 20;
/** Per-event overhead counted against MAX_QUEUED_BYTES (the queued row). */
const EVENT_OVERHEAD = 160;

/**
 * The numeric fields of one queued event, as a row of a Float64Array (every field is an integer
 * below 2^53, or a relative timestamp, which is a double anyway).
 */
export const F_TIMESTAMP = 0;
export const F_THREAD = 1;
export const F_CAPTURE_THREAD = 2;
export const F_PROCESSOR = 3;
export const F_SEQUENCE = 4;
export const F_STACK = 5;
export const F_PROCESS = 6;
export const F_PAYLOAD_START = 7;
export const F_PAYLOAD_SIZE = 8;
export const F_PAYLOAD_OFFSET = 9;
const STRIDE = 10;

/**
 * The events one capture thread has queued, as columns: nearly every event of a runtime trace is
 * written unsorted and waits here until the next sequence point (~10 MB of events), so a record
 * object per queued event would live long enough to be promoted and collected as old garbage —
 * the largest cost of decoding. Rows are turned into records only when released, in time order.
 */
interface ThreadQueue {
  id: number;
  seq: number;
  /** Queued rows are [head, count). */
  head: number;
  count: number;
  rows: Float64Array;
  metadata: EventMetadata[];
  bytes: Uint8Array[];
  activityIds: (string | undefined)[];
  removalPending: boolean;
}

const EMPTY_ROWS = new Float64Array(0);

const NO_METADATA: EventMetadata = {
  id: 0,
  provider: '',
  eventId: 0,
  eventName: '',
  keywords: 0n,
  version: 0,
  level: 0,
  opcode: undefined,
  fields: [],
  hasV5Tags: false,
};
const NO_BYTES = new Uint8Array(0);

/** A record with every field present, in one fixed order (one object shape for every event). */
export function newRecord(): TraceEventRecord {
  return {
    metadata: NO_METADATA,
    timestamp: 0,
    threadId: 0,
    captureThreadId: 0,
    processorNumber: 0,
    sequenceNumber: 0,
    stackId: 0,
    processId: 0,
    activityId: undefined,
    bytes: NO_BYTES,
    payloadStart: 0,
    payloadSize: 0,
    payloadOffset: 0,
  };
}

export class EventSorter {
  private threads = new Map<number, ThreadQueue>();
  private active: ThreadQueue[] = [];
  private last: ThreadQueue | undefined;
  private queuedBytes = 0;
  droppedEvents = 0;

  /** Refilled for every released event when records are reused (see ReaderOptions.reuseRecords). */
  private readonly scratch: TraceEventRecord | undefined;

  constructor(
    private readonly dispatch: (e: TraceEventRecord) => void,
    private readonly checkNewThreads: boolean,
    reuseRecords = false,
  ) {
    this.scratch = reuseRecords ? newRecord() : undefined;
  }

  private thread(id: number, seqIfNew: number): ThreadQueue {
    const last = this.last;
    if (last !== undefined && last.id === id) return last;
    let t = this.threads.get(id);
    if (t === undefined) {
      t = { id, seq: seqIfNew, head: 0, count: 0, rows: EMPTY_ROWS, metadata: [], bytes: [], activityIds: [], removalPending: false };
      this.threads.set(id, t);
    }
    this.last = t;
    return t;
  }

  private noteSequence(t: ThreadQueue, expectedPrevious: number): void {
    if (this.checkNewThreads || t.seq !== 0) {
      const gap = (expectedPrevious - t.seq) | 0;
      if (gap > 0) this.droppedEvents += gap;
    }
  }

  /** Sequence-number bookkeeping only (stream-order mode, no queueing). */
  track(e: TraceEventRecord): void {
    const t = this.thread(e.captureThreadId, e.sequenceNumber - 1);
    this.noteSequence(t, e.sequenceNumber - 1);
    t.seq = e.sequenceNumber;
  }

  add(e: TraceEventRecord, isSorted: boolean): void {
    if (isSorted) this.addSorted(e);
    else {
      this.addUnsorted(
        e.metadata,
        e.timestamp,
        e.threadId,
        e.captureThreadId,
        e.processorNumber,
        e.sequenceNumber,
        e.stackId,
        e.processId,
        e.activityId,
        e.bytes,
        e.payloadStart,
        e.payloadSize,
        e.payloadOffset,
      );
    }
  }

  /** An event flagged IsSorted: releases everything older, then the event itself. */
  addSorted(e: TraceEventRecord): void {
    const t = this.thread(e.captureThreadId, e.sequenceNumber - 1);
    this.noteSequence(t, e.sequenceNumber - 1);
    t.seq = e.sequenceNumber;
    if (this.active.length > 0) this.release(e.timestamp);
    this.dispatch(e);
  }

  /**
   * The numeric fields of the next unsorted event (F_* columns), written by the block decoder
   * before queueIncoming: passed as a dozen arguments, the doubles among them (timestamps) were
   * boxed on every call, ~90 bytes of garbage per event.
   */
  readonly incoming = new Float64Array(STRIDE);

  /** An unsorted event, queued by its fields (no record is made until it is released). */
  addUnsorted(
    metadata: EventMetadata,
    timestamp: number,
    threadId: number,
    captureThreadId: number,
    processorNumber: number,
    sequenceNumber: number,
    stackId: number,
    processId: number,
    activityId: string | undefined,
    bytes: Uint8Array,
    payloadStart: number,
    payloadSize: number,
    payloadOffset: number,
  ): void {
    const x = this.incoming;
    x[F_TIMESTAMP] = timestamp;
    x[F_THREAD] = threadId;
    x[F_CAPTURE_THREAD] = captureThreadId;
    x[F_PROCESSOR] = processorNumber;
    x[F_SEQUENCE] = sequenceNumber;
    x[F_STACK] = stackId;
    x[F_PROCESS] = processId;
    x[F_PAYLOAD_START] = payloadStart;
    x[F_PAYLOAD_SIZE] = payloadSize;
    x[F_PAYLOAD_OFFSET] = payloadOffset;
    this.queueIncoming(metadata, activityId, bytes);
  }

  /** Queues the unsorted event whose numeric fields are in `incoming`. */
  queueIncoming(metadata: EventMetadata, activityId: string | undefined, bytes: Uint8Array): void {
    const x = this.incoming;
    const sequenceNumber = x[F_SEQUENCE]!;
    const t = this.thread(x[F_CAPTURE_THREAD]!, sequenceNumber - 1);
    this.noteSequence(t, sequenceNumber - 1);
    t.seq = sequenceNumber;
    if (t.head === t.count) {
      t.head = 0;
      t.count = 0;
      this.active.push(t);
    }
    const i = t.count++;
    if ((i + 1) * STRIDE > t.rows.length) {
      const grown = new Float64Array(Math.max(1024, 2 * (i + 1)) * STRIDE);
      grown.set(t.rows);
      t.rows = grown;
    }
    const r = t.rows;
    const o = i * STRIDE;
    for (let k = 0; k < STRIDE; k++) r[o + k] = x[k]!;
    t.metadata[i] = metadata;
    t.bytes[i] = bytes;
    t.activityIds[i] = activityId;
    this.queuedBytes += x[F_PAYLOAD_SIZE]! + EVENT_OVERHEAD;
    if (this.queuedBytes > MAX_QUEUED_BYTES) this.release(Infinity);
  }

  /** A sequence point's (or RemoveThread's) statement of a thread's last sequence number. */
  checkpoint(threadId: number, sequenceNumber: number, remove = false): void {
    const t = this.thread(threadId, sequenceNumber);
    this.noteSequence(t, sequenceNumber);
    t.seq = sequenceNumber;
    if (remove) t.removalPending = true;
  }

  /** Release everything queued (sequence point or end of stream). */
  flush(): void {
    if (this.active.length > 0) this.release(Infinity);
    for (const t of this.threads.values()) {
      if (t.removalPending && t.head === t.count) {
        this.threads.delete(t.id);
        if (this.last === t) this.last = undefined;
      }
    }
  }

  /** V6 sequence point flag 1: forget thread state. */
  forgetThreads(): void {
    this.threads.clear();
    this.last = undefined;
  }

  get queued(): number {
    let n = 0;
    for (const t of this.active) n += t.count - t.head;
    return n;
  }

  /** Makes the record of a thread's head row, and advances past it. */
  private take(t: ThreadQueue): TraceEventRecord {
    const i = t.head++;
    const r = t.rows;
    const o = i * STRIDE;
    const payloadSize = r[o + F_PAYLOAD_SIZE]!;
    this.queuedBytes -= payloadSize + EVENT_OVERHEAD;
    const e = this.scratch ?? newRecord();
    e.metadata = t.metadata[i]!;
    e.timestamp = r[o + F_TIMESTAMP]!;
    e.threadId = r[o + F_THREAD]!;
    e.captureThreadId = r[o + F_CAPTURE_THREAD]!;
    e.processorNumber = r[o + F_PROCESSOR]!;
    e.sequenceNumber = r[o + F_SEQUENCE]!;
    e.stackId = r[o + F_STACK]!;
    e.processId = r[o + F_PROCESS]!;
    e.activityId = t.activityIds[i];
    e.bytes = t.bytes[i]!;
    e.payloadStart = r[o + F_PAYLOAD_START]!;
    e.payloadSize = payloadSize;
    e.payloadOffset = r[o + F_PAYLOAD_OFFSET]!;
    return e;
  }

  /** Dispatch, in timestamp order, every queued event older than `stop`. */
  private release(stop: number): void {
    const dispatch = this.dispatch;
    const active = this.active;
    if (active.length === 1) {
      // One thread with queued events (common between sorted events): no merge needed.
      const t = active[0]!;
      while (t.head < t.count && t.rows[t.head * STRIDE]! < stop) dispatch(this.take(t));
    } else {
      // Binary min-heap over the active queues keyed by their head event's timestamp.
      const heap: ThreadQueue[] = [];
      for (const t of active) if (t.rows[t.head * STRIDE]! < stop) heap.push(t);
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
      while (heap.length > 0) {
        const t = heap[0]!;
        dispatch(this.take(t));
        if (t.head < t.count && t.rows[t.head * STRIDE]! < stop) {
          siftDown(heap, 0);
        } else {
          const lastT = heap.pop()!;
          if (heap.length > 0) {
            heap[0] = lastT;
            siftDown(heap, 0);
          }
        }
      }
    }
    // Drop emptied queues from the active list; their references to blocks go with them (the
    // rows are reused; the reference arrays keep their length, so refilling them allocates
    // nothing — emptied, they grew again from nothing after every sequence point, ~50 bytes of
    // garbage per event — and are overwritten with placeholders so the blocks can be collected).
    let w = 0;
    for (const t of active) {
      if (t.head < t.count) active[w++] = t;
      else {
        t.metadata.fill(NO_METADATA, 0, t.count);
        t.bytes.fill(NO_BYTES, 0, t.count);
        t.activityIds.fill(undefined, 0, t.count);
        t.head = 0;
        t.count = 0;
      }
    }
    active.length = w;
  }
}

const headTs = (t: ThreadQueue): number => t.rows[t.head * STRIDE]!;

function siftDown(h: ThreadQueue[], i: number): void {
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && headTs(h[l]!) < headTs(h[m]!)) m = l;
    if (r < n && headTs(h[r]!) < headTs(h[m]!)) m = r;
    if (m === i) return;
    const tmp = h[i]!;
    h[i] = h[m]!;
    h[m] = tmp;
    i = m;
  }
}
