/**
 * Metadata records: what an event id in this stream means.
 *
 * V3–V5 (NetTraceFormat_v5.md "Metadata event encoding"): the payload of an event blob with
 * MetadataId 0 is
 *   i32 MetadataId, UTF16z ProviderName, i32 EventId, UTF16z EventName, i64 Keywords,
 *   i32 Version, i32 Level, [i32 FieldCount, fields (TypeCode, [nested], UTF16z Name)]
 *   then optional V5 tags until the end: { i32 TagPayloadBytes, u8 TagKind, payload }
 *   with kind 1 = OpCode (u8) and 2 = V2Params (i32 count, per field: i32 FieldSize incl. itself,
 *   UTF16z Name, i32 TypeCode, [element type if Array], [nested if Object]).
 * Native runtime events (every GC event) carry an empty name and no fields: they are decoded
 * from compiled-in layouts in clr/.
 *
 * V6 (NetTraceFormat.md "Metadata block"): rows of u16 Size, varuint32 MetadataId,
 * string ProviderName, varuint32 EventId, string EventName, u16 FieldCount + fields
 * {u16 FieldSize, string Name, Type}, then u16 OptionalSize + entries.
 * Strings are varuint32 length + UTF-8.
 */
import { TraceDecodeError } from '../trace/errors.js';
import { ByteCursor } from '../trace/byte-cursor.js';
import { NettraceError } from './errors.js';
import { TypeCode, type EventMetadata, type FieldDescriptor, type FieldType } from './types.js';

const MAX_FIELDS = 4096;
const MAX_NESTING = 16;

/** Parses the V3–V5 metadata payload. The cursor covers exactly the payload. */
export function parseMetadataV5(c: ByteCursor): EventMetadata {
  const id = c.i32();
  const provider = c.utf16z();
  const eventId = c.i32() & 0xffff;
  const eventName = c.utf16z();
  const keywords = c.u64big();
  const version = c.i32() & 0xff;
  const level = c.i32() & 0xff;
  const md: EventMetadata = {
    id,
    provider,
    eventId,
    eventName,
    keywords,
    version,
    level,
    opcode: undefined,
    fields: [],
    hasV5Tags: false,
  };
  if (c.remaining > 0) {
    // Like TraceEvent: unparsable field descriptions do not fail the trace; the event just has
    // no named fields.
    try {
      md.fields = parseFieldsV5(c, false, 0);
    } catch (e) {
      if (!(e instanceof TraceDecodeError)) throw e;
      md.fields = [];
      c.pos = c.length;
    }
  }
  while (c.remaining > 0) {
    const tagLength = c.i32();
    const kind = c.u8();
    if (tagLength < 0) throw new NettraceError('bad-metadata', c.offset, `negative metadata tag length ${tagLength}`);
    const tag = new ByteCursor(c.bytesView(tagLength, 'a metadata tag'), c.offset - tagLength);
    md.hasV5Tags = true;
    if (kind === 1) md.opcode = tag.u8();
    else if (kind === 2) {
      try {
        md.fields = parseFieldsV5(tag, true, 0);
      } catch (e) {
        if (!(e instanceof TraceDecodeError)) throw e;
        md.fields = [];
      }
    }
  }
  return md;
}

function parseFieldsV5(c: ByteCursor, v2: boolean, depth: number): FieldDescriptor[] {
  if (depth > MAX_NESTING) throw new NettraceError('bad-metadata', c.offset, 'metadata nests structs too deeply');
  const count = c.i32();
  if (count < 0 || count > MAX_FIELDS) {
    throw new NettraceError('bad-metadata', c.offset - 4, `implausible metadata field count ${count}`);
  }
  const fields: FieldDescriptor[] = [];
  for (let i = 0; i < count; i++) {
    if (v2) {
      const size = c.i32();
      if (size < 4) throw new NettraceError('bad-metadata', c.offset - 4, `bad V2Params field size ${size}`);
      const f = new ByteCursor(c.bytesView(size - 4, 'a V2Params field'), c.offset - (size - 4));
      const name = f.utf16z();
      fields.push({ name, type: parseTypeV5(f, true, depth) });
    } else {
      const type = parseTypeV5(c, false, depth);
      fields.push({ name: c.utf16z(), type });
    }
  }
  return fields;
}

function parseTypeV5(c: ByteCursor, v2: boolean, depth: number): FieldType {
  const code = c.i32();
  if (code === TypeCode.Object) return { code, fields: parseFieldsV5(c, v2, depth + 1) };
  if (code === TypeCode.Array) {
    if (!v2) throw new NettraceError('bad-metadata', c.offset - 4, 'Array type code outside V2Params');
    return { code, element: parseTypeV5(c, v2, depth + 1) };
  }
  if (code < 3 || code > 18) throw new NettraceError('bad-metadata', c.offset - 4, `unknown field type code ${code}`);
  return { code };
}

/** Parses one V6 metadata row (cursor at its u16 Size). */
export function parseMetadataRowV6(c: ByteCursor): EventMetadata {
  const size = c.u16();
  const row = new ByteCursor(c.bytesView(size, 'a V6 metadata row'), c.offset - size);
  const id = row.varuint32();
  const provider = row.utf8v();
  const eventId = row.varuint32() & 0xffff;
  const eventName = row.utf8v();
  const md: EventMetadata = {
    id,
    provider,
    eventId,
    eventName,
    keywords: 0n,
    version: 0,
    level: 0,
    opcode: undefined,
    fields: [],
    hasV5Tags: false,
  };
  md.fields = parseFieldsV6(row, 0);
  if (row.remaining >= 2) {
    const optSize = row.u16();
    const opt = new ByteCursor(row.bytesView(optSize, 'V6 optional metadata'), row.offset - optSize);
    while (opt.remaining > 0) {
      const kind = opt.u8();
      switch (kind) {
        case 1:
          md.opcode = opt.u8();
          break;
        case 3:
          md.keywords = opt.u64big();
          break;
        case 4: // MessageTemplate
        case 5: // Description
          opt.utf8v();
          break;
        case 6:
          opt.utf8v();
          opt.utf8v();
          break;
        case 7:
          opt.guid();
          break;
        case 8:
          md.level = opt.u8();
          break;
        case 9:
          md.version = opt.u8();
          break;
        default:
          throw new NettraceError('bad-metadata', opt.offset - 1, `unknown V6 optional metadata kind ${kind}`);
      }
    }
  }
  return md;
}

function parseFieldsV6(c: ByteCursor, depth: number): FieldDescriptor[] {
  if (depth > MAX_NESTING) throw new NettraceError('bad-metadata', c.offset, 'metadata nests structs too deeply');
  const count = c.u16();
  const fields: FieldDescriptor[] = [];
  for (let i = 0; i < count; i++) {
    const size = c.u16();
    const f = new ByteCursor(c.bytesView(size, 'a V6 field description'), c.offset - size);
    const name = f.utf8v();
    fields.push({ name, type: parseTypeV6(f, depth) });
  }
  return fields;
}

function parseTypeV6(c: ByteCursor, depth: number): FieldType {
  const code = c.u8();
  switch (code) {
    case TypeCode.Object:
      return { code, fields: parseFieldsV6(c, depth + 1) };
    case TypeCode.Array:
    case TypeCode.RelLoc:
    case TypeCode.DataLoc:
      return { code, element: parseTypeV6(c, depth + 1) };
    case TypeCode.FixedLengthArray: {
      const element = parseTypeV6(c, depth + 1);
      return { code, element, count: c.u16() };
    }
    default:
      if (code < 3 || code > 26) throw new NettraceError('bad-metadata', c.offset - 1, `unknown field type code ${code}`);
      return { code };
  }
}
