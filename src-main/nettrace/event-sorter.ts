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
import type { TraceEventRecord } from './types.js';

/**
 * Most payload bytes held for time ordering before everything queued is released anyway. The
 * runtime writes a sequence point at least every ~10 MB of events (EventPipe's sequence point
 * allocation budget), so real traces never reach this; a file without sequence points would
 * otherwise keep every event (and the chunks its payload views point into) until its end.
 */
export const MAX_QUEUED_BYTES = 64 << 20;
/** Per-event overhead counted against MAX_QUEUED_BYTES (the record object itself). */
const EVENT_OVERHEAD = 160;

interface ThreadQueue {
  id: number;
  seq: number;
  items: TraceEventRecord[];
  head: number;
  removalPending: boolean;
}

export class EventSorter {
  private threads = new Map<number, ThreadQueue>();
  private active: ThreadQueue[] = [];
  private last: ThreadQueue | undefined;
  private queuedBytes = 0;
  droppedEvents = 0;

  constructor(
    private readonly dispatch: (e: TraceEventRecord) => void,
    private readonly checkNewThreads: boolean,
  ) {}

  private thread(id: number, seqIfNew: number): ThreadQueue {
    const last = this.last;
    if (last !== undefined && last.id === id) return last;
    let t = this.threads.get(id);
    if (t === undefined) {
      t = { id, seq: seqIfNew, items: [], head: 0, removalPending: false };
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
    const t = this.thread(e.captureThreadId, e.sequenceNumber - 1);
    this.noteSequence(t, e.sequenceNumber - 1);
    t.seq = e.sequenceNumber;
    if (isSorted) {
      if (this.active.length > 0) this.release(e.timestamp);
      this.dispatch(e);
    } else {
      if (t.head === t.items.length) {
        t.items.length = 0;
        t.head = 0;
        this.active.push(t);
      }
      t.items.push(e);
      this.queuedBytes += e.payloadSize + EVENT_OVERHEAD;
      if (this.queuedBytes > MAX_QUEUED_BYTES) this.release(Infinity);
    }
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
      if (t.removalPending && t.head === t.items.length) {
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
    for (const t of this.active) n += t.items.length - t.head;
    return n;
  }

  /** Dispatch, in timestamp order, every queued event older than `stop`. */
  private release(stop: number): void {
    const dispatch = this.dispatch;
    const active = this.active;
    if (active.length === 1) {
      // One thread with queued events (common between sorted events): no merge needed.
      const t = active[0]!;
      const items = t.items;
      while (t.head < items.length && items[t.head]!.timestamp < stop) {
        const e = items[t.head++]!;
        this.queuedBytes -= e.payloadSize + EVENT_OVERHEAD;
        dispatch(e);
      }
    } else {
      // Binary min-heap over the active queues keyed by their head event's timestamp.
      const heap: ThreadQueue[] = [];
      for (const t of active) if (t.items[t.head]!.timestamp < stop) heap.push(t);
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
      while (heap.length > 0) {
        const t = heap[0]!;
        const e = t.items[t.head++]!;
        this.queuedBytes -= e.payloadSize + EVENT_OVERHEAD;
        dispatch(e);
        if (t.head < t.items.length && t.items[t.head]!.timestamp < stop) {
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
    // Drop emptied queues from the active list and release their memory.
    let w = 0;
    for (const t of active) {
      if (t.head < t.items.length) active[w++] = t;
      else {
        t.items = [];
        t.head = 0;
      }
    }
    active.length = w;
  }
}

const headTs = (t: ThreadQueue): number => t.items[t.head]!.timestamp;

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
