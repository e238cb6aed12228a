/**
 * The stable intermediate model the reader emits: trace header, metadata, events.
 * Everything downstream (CLR decoders, GC analysis, the store) consumes only these.
 */

/** Which container the bytes were in. V5 is V4 plus optional metadata tags; both say "Trace v4". */
export type TraceFormat = 'NetPerf' | 'NetTrace';

export interface TraceInfo {
  format: TraceFormat;
  /** 3 for NetPerf, 4 for NetTrace V4/V5 (TraceEvent's FileFormatVersionNumber), 6+ for V6. */
  formatVersion: number;
  /** V6 minor version; 0 otherwise. */
  formatMinorVersion: number;
  /** UTC wall clock at the sync point, as ISO-8601 with milliseconds. */
  syncTimeUtc: string;
  /** Milliseconds since the Unix epoch for syncTimeUtc. */
  syncTimeUnixMs: number;
  /** Raw tick value captured at syncTimeUtc (exact, as a decimal string, since it can exceed 2^53). */
  syncTimeQpc: string;
  /** Ticks per second. */
  qpcFrequency: number;
  pointerSize: number;
  processId: number;
  numberOfProcessors: number;
  expectedCpuSamplingRate: number;
  /** V6 trace block key/value pairs (empty for older formats). */
  keyValues: Record<string, string>;
}

/** Type codes of self-describing metadata (V3–V6). */
export const enum TypeCode {
  Object = 1,
  Boolean32 = 3,
  UTF16CodeUnit = 4,
  SByte = 5,
  Byte = 6,
  Int16 = 7,
  UInt16 = 8,
  Int32 = 9,
  UInt32 = 10,
  Int64 = 11,
  UInt64 = 12,
  Single = 13,
  Double = 14,
  Decimal = 15,
  DateTime = 16,
  Guid = 17,
  String = 18,
  Array = 19,
  VarInt = 20,
  VarUInt = 21,
  FixedLengthArray = 22,
  UTF8CodeUnit = 23,
  RelLoc = 24,
  DataLoc = 25,
  Boolean8 = 26,
}

export interface FieldType {
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

export type ReaderState = 'reading' | 'complete' | 'truncated' | 'failed';
