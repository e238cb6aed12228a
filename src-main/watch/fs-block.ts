/**
 * Moving a NetTrace V4/V5 block to another file offset (docs/formats.md §2; perfview
 * NetTraceFormat.md "Block"). A block is a FastSerialization object:
 *
 *   tag 5 (BeginPrivateObject), tag 5, tag 1 (NullReference: type of type), i32 version,
 *   i32 minimum reader version, i32 name length, name (ASCII), tag 6 (EndObject),
 *   i32 block size, 0–3 padding bytes, content (block size bytes), tag 6 (EndObject)
 *
 * The padding aligns the content to 4 bytes *of the file offset* (readers check it), so a block
 * copied verbatim to an offset with a different remainder would be misread. `reframeBlock` keeps
 * everything but the padding, recomputed for the new offset. Contents never depend on their
 * absolute position: event headers are compressed relative to the block start, and uncompressed
 * events are aligned relative to the content, which stays 4-byte aligned.
 */

/** A block's parts: the header up to and including the size field, and the content. */
export interface FsBlockParts {
  header: Uint8Array;
  content: Uint8Array;
}

const TAG_BEGIN_PRIVATE = 5;
const TAG_END = 6;

/** Splits a block as it was read (header, padding, content, end tag) into its header and content. */
export function splitFsBlock(raw: Uint8Array, fileOffset: number): FsBlockParts {
  if (raw.length < 20 || raw[0] !== TAG_BEGIN_PRIVATE || raw[1] !== TAG_BEGIN_PRIVATE)
    throw new Error('not a NetTrace block (it does not start with two BeginPrivateObject tags)');
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const nameLen = dv.getInt32(11, true);
  const sizeAt = 15 + nameLen + 1;
  if (nameLen < 0 || sizeAt + 4 > raw.length || raw[15 + nameLen] !== TAG_END) throw new Error('not a NetTrace block (bad type name)');
  const size = dv.getInt32(sizeAt, true);
  const afterSize = sizeAt + 4;
  const pad = (4 - ((fileOffset + afterSize) % 4)) % 4;
  const start = afterSize + pad;
  if (size < 0 || start + size + 1 !== raw.length || raw[raw.length - 1] !== TAG_END)
    throw new Error(`a NetTrace block of ${raw.length} bytes does not match its size field (${size})`);
  return { header: raw.subarray(0, afterSize), content: raw.subarray(start, start + size) };
}

/** The bytes of a block written at `fileOffset`: header, the padding that offset needs, content, end tag. */
export function reframeBlock(parts: FsBlockParts, fileOffset: number): Uint8Array[] {
  const pad = (4 - ((fileOffset + parts.header.length) % 4)) % 4;
  return [parts.header, new Uint8Array(pad), parts.content, END];
}

const END = Uint8Array.of(TAG_END);

/** Bytes a reframed block takes at `fileOffset`. */
export function reframedLength(parts: FsBlockParts, fileOffset: number): number {
  return parts.header.length + ((4 - ((fileOffset + parts.header.length) % 4)) % 4) + parts.content.length + 1;
}

/**
 * The min/max timestamps of an event block's header (u16 header size, u16 flags, i64 min, i64 max),
 * as raw ticks; undefined when the content is too short to have them.
 */
export function eventBlockTimestamps(content: Uint8Array): { min: bigint; max: bigint } | undefined {
  if (content.length < 20) return undefined;
  const dv = new DataView(content.buffer, content.byteOffset, content.byteLength);
  if (dv.getUint16(0, true) < 20) return undefined;
  return { min: dv.getBigInt64(4, true), max: dv.getBigInt64(12, true) };
}
