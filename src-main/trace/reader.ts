/**
 * What the rest of GCScope takes instead of one format's reader: push the stream's bytes in
 * chunks of any size, end it, and read the outcome. Events come out through the handlers, in
 * time order (unless `sort: false`), as the format-neutral records of model.ts. A format is one
 * implementation of TraceReader plus a TraceFormat entry (its name, a sniff of the first bytes and
 * a factory) in the format list (recording/trace-formats.ts). Pure: types only.
 */
import type { TraceDecodeError } from './errors.js';
import type { EventMetadata, ReaderState, TraceEventRecord, TraceImage, TraceInfo, TraceProcess } from './model.js';

export interface TraceReaderHandlers {
  /** The trace's header (its facts), once read: before any event. */
  onTrace?(info: TraceInfo): void;
  onMetadata?(md: EventMetadata): void;
  onEvent?(e: TraceEventRecord): void;
  /**
   * Each event as its block is read, in stream order, before the time sort (option `sort`) holds
   * it until a sequence point: its metadata and payload bytes (`bytes[payloadStart ..
   * payloadStart + payloadSize)`, valid during the call only). For a live session that must act on
   * an event as soon as it arrives (a heap walk's end: recording/heap-snapshot.ts). NetTrace V4+;
   * formats that hold nothing back may leave it uncalled (onEvent is then as early).
   */
  onArrival?(md: EventMetadata, bytes: Uint8Array, payloadStart: number, payloadSize: number): void;
  /**
   * A whole container block was processed: its kind (the format's numbering; nettrace/blocks.ts
   * BlockKind for NetTrace) and absolute `start`/`end` offsets. For the flight recorder's ring.
   */
  onBlock?(kind: number, start: number, end: number): void;
}

export interface TraceReaderOptions {
  /**
   * Restore global time order across threads (default true). Off, events come in stream order,
   * which is enough for counting and faster.
   */
  sort?: boolean;
  /** Largest block accepted (default: the format's own cap). */
  maxBlockSize?: number;
  /**
   * Pass the same record object to every onEvent call, refilled each time (default false): for
   * consumers that read what they need during the call and keep nothing of the record itself.
   * Saves an object per event on multi-million-event traces.
   */
  reuseRecords?: boolean;
  /** Decode call stacks (default false): `eventStack(e)` answers only with this on. */
  stacks?: boolean;
  /**
   * Deliver only this process's events (a machine-wide trace: ETW). A format that holds one process
   * ignores it. Unset, every process's events are delivered, each with its own `processId`.
   */
  processId?: number;
}

export interface TraceReader {
  readonly state: ReaderState;
  /** The fatal error (state 'failed') or where the stream stopped (state 'truncated'). */
  readonly error: TraceDecodeError | undefined;
  /** The trace's header, once read. */
  readonly trace: TraceInfo | undefined;
  /** Events delivered so far (metadata not counted). */
  readonly eventCount: number;
  /** Events the producer reported as lost (sequence-number gaps). */
  readonly droppedEvents: number;
  /** The format with its version as known so far, e.g. "NetTrace V5"; 'unknown' before the header. */
  readonly formatName: string;
  /** Container structures seen, by name (`gcscope events`' "blocks"); empty for a format without blocks. */
  readonly blockCounts: Record<string, number>;
  /** Bytes consumed so far (absolute offset of the next structure). */
  readonly offset: number;
  /**
   * The absolute offset before which the reader holds no view into the bytes pushed to it: a file
   * reader may reuse a chunk that ends before it (recording/trace-file.ts). 0 when unknown.
   */
  readonly releasedBefore: number;
  /** More bytes of the stream. Throws the TraceDecodeError that stops it (state 'failed'). */
  push(chunk: Uint8Array): void;
  /**
   * The stream has ended: releases queued events; state 'complete' or 'truncated'. After a
   * failure, delivers (once) the events queued before the damage.
   */
  end(): void;
  /**
   * The processes a machine-wide trace holds (ETW), known by the time the first event is delivered;
   * undefined for a format that records one process (NetTrace).
   */
  readonly processes?: readonly TraceProcess[];
  /**
   * The bytes pushed from now on are the next file of the same recording (ETW: PerfView's
   * unmerged `X.kernel.etl`, `X.etl`, `X.clrRundown.etl`, one clock): its events are merged with
   * those read so far by time. Absent for a format whose recordings are one file. Throws the
   * TraceDecodeError of a file that stopped inside a structure or of a file on another clock.
   */
  nextFile?(): void;
  /** The executable images mapped in a process (ETW kernel Image events), in the order reported; undefined for a format without them. */
  imagesOf?(processId: number): readonly TraceImage[];
  /** The call stack (return addresses, innermost first) of the event being delivered: call it during onEvent. */
  eventStack(e: TraceEventRecord): Float64Array | undefined;
}

/** What a sniff of the first bytes says: this format, not this format, or too few bytes to tell. */
export type SniffResult = 'yes' | 'no' | 'more';

/** One trace format GCScope can read: how to recognize it and how to make its reader. */
export interface TraceFormat {
  /** Short name ('NetTrace'). */
  readonly name: string;
  /** The file extensions it reads (['.nettrace', '.netperf']), for the message about a file no format recognizes. */
  readonly extensions: readonly string[];
  /**
   * Recognizes the format by the stream's first bytes (as many as have arrived: 'more' while a
   * prefix of the format's signature, never reading past what it needs).
   */
  sniff(first: Uint8Array): SniffResult;
  create(handlers: TraceReaderHandlers, options: TraceReaderOptions): TraceReader;
}
