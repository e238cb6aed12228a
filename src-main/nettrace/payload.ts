/**
 * Generic decoding of self-describing payloads (EventSource events, whose metadata lists their
 * fields). Encoding per type code (NetTraceFormat_v5.md / NetTraceFormat.md): fixed-size
 * little-endian scalars, Boolean32 = 4 bytes, UTF16z strings, Array (V5 V2Params) = u16 count +
 * elements, V6 VarInt/VarUInt/FixedLengthArray/UTF8CodeUnit/Boolean8. RelLoc/DataLoc (V6) are
 * decoded as the referenced element array.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';
import { TypeCode, type FieldDescriptor, type FieldType, type TraceEventRecord } from './types.js';

export type PayloadValue = number | bigint | string | boolean | PayloadValue[] | { [k: string]: PayloadValue };

const MAX_ELEMENTS = 1 << 20;

function readValue(c: ByteCursor, t: FieldType, payloadStart: number): PayloadValue {
  switch (t.code) {
    case TypeCode.Object:
      return readFields(c, t.fields ?? [], payloadStart);
    case TypeCode.Boolean32:
      return c.u32() !== 0;
    case TypeCode.Boolean8:
      return c.u8() !== 0;
    case TypeCode.UTF16CodeUnit:
      return c.u16();
    case TypeCode.UTF8CodeUnit:
      return c.u8();
    case TypeCode.SByte:
      return (c.u8() << 24) >> 24;
    case TypeCode.Byte:
      return c.u8();
    case TypeCode.Int16:
      return c.i16();
    case TypeCode.UInt16:
      return c.u16();
    case TypeCode.Int32:
      return c.i32();
    case TypeCode.UInt32:
      return c.u32();
    case TypeCode.Int64:
      return c.i64big();
    case TypeCode.UInt64:
      return c.u64big();
    case TypeCode.Single:
      return c.f32();
    case TypeCode.Double:
      return c.f64();
    case TypeCode.Decimal:
      c.skip(16, 'a decimal');
      return 0;
    case TypeCode.DateTime:
      return c.i64big();
    case TypeCode.Guid:
      return c.guid();
    case TypeCode.String:
      return c.utf16z();
    case TypeCode.VarInt:
      return c.varint64();
    case TypeCode.VarUInt:
      return c.varuint64();
    case TypeCode.Array:
      return readArray(c, t.element!, c.u16(), payloadStart);
    case TypeCode.FixedLengthArray:
      return readArray(c, t.element!, t.count ?? 0, payloadStart);
    case TypeCode.RelLoc:
    case TypeCode.DataLoc: {
      const loc = c.u32();
      const size = loc >>> 16;
      const off = loc & 0xffff;
      const at = t.code === TypeCode.RelLoc ? c.pos + off : payloadStart + off;
      const sub = new ByteCursor(c.bytes.subarray(at, at + size), c.base + at);
      sub.need(size, 'a RelLoc/DataLoc array');
      const out: PayloadValue[] = [];
      while (sub.remaining > 0) out.push(readValue(sub, t.element!, payloadStart));
      return out;
    }
    default:
      throw new NettraceError('bad-metadata', c.offset, `cannot decode field type code ${t.code}`);
  }
}

function readArray(c: ByteCursor, element: FieldType, n: number, payloadStart: number): PayloadValue[] {
  if (n > MAX_ELEMENTS) throw new NettraceError('too-large', c.offset, `array of ${n} elements`);
  const out: PayloadValue[] = [];
  for (let i = 0; i < n; i++) out.push(readValue(c, element, payloadStart));
  return out;
}

function readFields(c: ByteCursor, fields: FieldDescriptor[], payloadStart: number): { [k: string]: PayloadValue } {
  const out: { [k: string]: PayloadValue } = {};
  for (const f of fields) out[f.name] = readValue(c, f.type, payloadStart);
  return out;
}

/** Decodes an event's payload from its metadata field list. */
export function decodePayload(e: TraceEventRecord): { [k: string]: PayloadValue } {
  const c = new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
  return readFields(c, e.metadata.fields, 0);
}
