/**
 * The end of a heap walk as the events arrive, before any time sort. A live session's NetTrace
 * reader holds the runtime's events until a sequence point or the end of the stream (to merge
 * capture threads by time), and a small walk never reaches the runtime's sequence-point budget
 * (~10 MB of events): its GCEnd would reach HeapWalkConsumer only once the session ended for
 * another reason — the capture's 30 s timeout. The walk is written by one thread while the runtime
 * is suspended, so in stream order its GCEnd follows every Bulk event of the walk: once it is seen
 * here the walk's events are all in the runtime's buffers, and stopping the session (StopTracing
 * flushes them and ends the stream) loses nothing. This only decides *when to stop*; whether the
 * walk is whole is still HeapWalkConsumer.build's call (a walk cut short is refused).
 *
 * The same rule as the consumer: the first blocking gen2 GCStart (Type ≠ 1, background) opens a
 * walk; its GCEnd (same Count) closes it if BulkNode events came between, else it was not the
 * walk and the next gen2 is awaited.
 */
import { RUNTIME } from '../clr/gc-events.js';
import type { EventMetadata } from '../trace/model.js';

const GC_START = 1;
const GC_END = 2;
const BULK_NODE = 18;

export class WalkEndWatch {
  private state: 'waiting' | 'walking' | 'ended' = 'waiting';
  private gcNumber = -1;
  private nodeEvents = 0;

  get ended(): boolean {
    return this.state === 'ended';
  }

  /** One event in stream order (TraceReaderHandlers.onArrival); true when it is the walk's end. */
  onArrival(md: EventMetadata, bytes: Uint8Array, payloadStart: number, payloadSize: number): boolean {
    if (this.state === 'ended' || md.provider !== RUNTIME) return false;
    const id = md.eventId;
    if (id !== GC_START && id !== GC_END && id !== BULK_NODE) return false;
    if (id === BULK_NODE) {
      if (this.state === 'walking') this.nodeEvents++;
      return false;
    }
    if (payloadSize < 4) return false;
    const dv = new DataView(bytes.buffer, bytes.byteOffset + payloadStart, payloadSize);
    const count = dv.getUint32(0, true);
    if (id === GC_START) {
      if (this.state !== 'waiting' || payloadSize < 12) return false;
      const depth = dv.getUint32(4, true);
      const type = payloadSize >= 16 ? dv.getUint32(12, true) : 0;
      if (depth === 2 && type !== 1) {
        this.state = 'walking';
        this.gcNumber = count;
        this.nodeEvents = 0;
      }
      return false;
    }
    if (this.state !== 'walking' || count !== this.gcNumber) return false;
    if (this.nodeEvents === 0) {
      this.state = 'waiting';
      return false;
    }
    this.state = 'ended';
    return true;
  }
}
