/**
 * NetPerf/NetTrace names for the format-neutral model (trace/model.ts) the reader emits: the
 * container names and the self-describing metadata's type codes. The model's types are
 * re-exported here so this folder's modules (and older imports) read them from one place.
 */

/** Which container the bytes were in (TraceInfo.format). V5 is V4 plus optional metadata tags; both say "Trace v4". */
export type NettraceContainer = 'NetPerf' | 'NetTrace';

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

// The format-neutral model (trace/model.ts), which this reader fills in.
export type { EventMetadata, FieldDescriptor, FieldType, ReaderState, TraceEventRecord, TraceInfo } from '../trace/model.js';
