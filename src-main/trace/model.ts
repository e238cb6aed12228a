/**
 * The format-neutral event model every trace reader emits and everything downstream (CLR
 * decoders, GC analysis, stacks, the store) consumes: the trace's facts (its header), event
 * metadata, events. A reader for another container (NetTrace/NetPerf today: nettrace/) fills
 * these in; nothing here knows how the bytes were laid out. Pure: types only.
 */

export interface TraceInfo {
  /**
   * The container's name as its reader spells it ('NetTrace', 'NetPerf', …): a plain string, so a
   * new format needs no change here. Shown with `formatVersion` ("NetTrace V4").
   */
  format: string;
  /** The container's major version (NetPerf 3, NetTrace V4/V5 4 as TraceEvent's FileFormatVersionNumber, 6+ for V6). */
  formatVersion: number;
  /** The container's minor version; 0 when it has none. */
  formatMinorVersion: number;
  /** UTC wall clock at the sync point, as ISO-8601 with milliseconds. */
  syncTimeUtc: string;
  /** Milliseconds since the Unix epoch for syncTimeUtc. */
  syncTimeUnixMs: number;
  /** Raw tick value captured at syncTimeUtc (exact, as a decimal string, since it can exceed 2^53). */
  syncTimeQpc: string;
  /** Ticks per second. */
  qpcFrequency: number;
  /** Width of pointers in the delivered events: 8 or 4 (for a machine-wide trace, that of the selected process). */
  pointerSize: number;
  /**
   * The process whose events are delivered. A machine-wide trace (ETW) holds many processes: its
   * reader delivers one (TraceReaderOptions.processId) or, unfiltered, all of them with 0 here.
   */
  processId: number;
  numberOfProcessors: number;
  expectedCpuSamplingRate: number;
  /** Key/value pairs the container carries about the trace (NetTrace V6's trace block; empty otherwise). */
  keyValues: Record<string, string>;
}

export interface FieldType {
  /** A TypeCode (nettrace/types.ts: .NET's TypeCode numbering, which self-describing metadata uses). */
  code: number;
  /** Array / FixedLengthArray / RelLoc / DataLoc element type. */
  element?: FieldType;
  /** FixedLengthArray element count. */
  count?: number;
  /** Object (nested struct) fields. */
  fields?: FieldDescriptor[];
}

export interface FieldDescriptor {
  name: string;
  type: FieldType;
}

export interface EventMetadata {
  id: number;
  provider: string;
  eventId: number;
  /** As written in the metadata; empty for native runtime events (they carry no name). */
  eventName: string;
  keywords: bigint;
  version: number;
  level: number;
  opcode: number | undefined;
  /** Field descriptions; empty for native runtime events (decoded from compiled-in layouts). */
  fields: FieldDescriptor[];
  /** True when the record carried V5 tags (OpCode / V2Params) — how V5 is told from V4. */
  hasV5Tags: boolean;
  /** Resolved display name (`Provider/Task/Opcode`), filled in by the consumer's namer. */
  displayName?: string;
}

/**
 * One decoded event. The payload is `bytes[payloadStart, payloadStart + payloadSize)`: `bytes` is
 * the block the event came in, which the reader never reuses, so the record stays valid for as
 * long as the consumer keeps it — but decode what you need rather than keeping many.
 */
export interface TraceEventRecord {
  metadata: EventMetadata;
  /** Ticks relative to the trace's sync time (exact as long as the trace spans < 2^53 ticks). */
  timestamp: number;
  threadId: number;
  captureThreadId: number;
  processorNumber: number;
  sequenceNumber: number;
  stackId: number;
  processId: number;
  /** Activity id GUID string, or undefined when absent. */
  activityId: string | undefined;
  bytes: Uint8Array;
  payloadStart: number;
  payloadSize: number;
  /** Absolute stream offset of the payload's first byte. */
  payloadOffset: number;
}

/** One process a machine-wide trace (ETW) holds, named from the kernel's Process events. */
export interface TraceProcess {
  processId: number;
  /** Image file name as the kernel wrote it ('Test.x64.exe'); '' when the trace has no Process event for it. */
  name: string;
  /** '' when unknown. */
  commandLine: string;
  /** 8 or 4: the width of pointers in its events (a 32-bit process on 64-bit Windows writes 4). */
  pointerSize: number;
}

/** An executable image mapped in a process (ETW kernel Image events): frames in it that no CLR method covers are named `module!0xRVA`. */
export interface TraceImage {
  processId: number;
  imageBase: number;
  imageSize: number;
  /** The path as the kernel wrote it ('\\Device\\HarddiskVolume2\\Windows\\…\\clr.dll'). */
  fileName: string;
}

/**
 * Where a reader is: still reading; at the end of a well-formed stream; stopped early (the
 * stream ended mid-structure: what came before was delivered); or stopped by damage.
 */
export type ReaderState = 'reading' | 'complete' | 'truncated' | 'failed';
