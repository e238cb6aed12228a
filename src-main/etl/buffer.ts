/**
 * One ETW buffer: the 0x48-byte WMI_BUFFER_HEADER (docs/formats.md "ETL"; Geoff Chappell's
 * WMI_BUFFER_HEADER) and its logical bytes — the buffer itself, or, when BufferFlag has 0x40,
 * the header followed by the MS-XCA plain-LZ77 decompression of the rest to exactly
 * SavedOffset − 0x48 bytes. Pure.
 *
 *   0x00 u32 BufferSize (the physical size: the stride of uncompressed buffers, the packed size of
 *        compressed ones) · 0x04 u32 SavedOffset · 0x08 u32 CurrentOffset · 0x10 i64 TimeStamp
 *   0x18 i64 SequenceNumber · 0x28 u8 ProcessorNumber, u8 Alignment, u16 LoggerId · 0x2C u32 State
 *   0x30 u32 Offset · 0x34 u16 BufferFlag · 0x36 u16 BufferType
 */
import { EtlError } from './errors.js';
import { decompressLz77 } from './xpress.js';

export const BUFFER_HEADER_SIZE = 0x48;
/** BufferFlag: the bytes after the header are MS-XCA compressed. */
export const BUFFER_FLAG_COMPRESSED = 0x40;
/**
 * The largest buffer accepted. ETW buffers are at most 1 MiB (EVENT_TRACE_PROPERTIES.BufferSize
 * is capped at 1024 KB; PerfView writes 64 KiB): 16 MiB leaves room and still never lets a
 * damaged size allocate much.
 */
export const MAX_BUFFER_SIZE = 16 << 20;

export interface BufferHeader {
  bufferSize: number;
  savedOffset: number;
  offset: number;
  processor: number;
  flags: number;
  type: number;
}

function u32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

/** The header of the buffer at `b[0]` (which holds at least 0x48 bytes); `at` is its stream offset. */
export function readBufferHeader(b: Uint8Array, at: number): BufferHeader {
  const h: BufferHeader = {
    bufferSize: u32(b, 0),
    savedOffset: u32(b, 4),
    offset: u32(b, 0x30),
    processor: b[0x28]!,
    flags: b[0x34]! | (b[0x35]! << 8),
    type: b[0x36]! | (b[0x37]! << 8),
  };
  if (h.bufferSize < BUFFER_HEADER_SIZE || h.bufferSize > MAX_BUFFER_SIZE) {
    throw new EtlError(
      'bad-buffer',
      at,
      `this ETW buffer claims a size of ${h.bufferSize} bytes, which no logger writes (a buffer is ${BUFFER_HEADER_SIZE} bytes to ${MAX_BUFFER_SIZE >> 20} MiB): the file is damaged here`,
    );
  }
  const compressed = (h.flags & BUFFER_FLAG_COMPRESSED) !== 0;
  if (compressed && (h.savedOffset < BUFFER_HEADER_SIZE || h.savedOffset > MAX_BUFFER_SIZE)) {
    throw new EtlError(
      'bad-buffer',
      at + 4,
      `this compressed ETW buffer claims ${h.savedOffset} bytes of events, which cannot be right: the file is damaged here`,
    );
  }
  return h;
}

/**
 * The buffer's logical bytes (header included) and where its events end. `raw` is the whole
 * physical buffer (BufferSize bytes), owned by the caller's copy.
 */
export function logicalBuffer(raw: Uint8Array, h: BufferHeader, at: number): { bytes: Uint8Array; end: number } {
  if ((h.flags & BUFFER_FLAG_COMPRESSED) === 0) {
    // Valid data runs to max(SavedOffset, Offset) (a header buffer can hold an event past SavedOffset).
    const end = Math.min(raw.length, Math.max(h.savedOffset, h.offset));
    return { bytes: raw, end };
  }
  const bytes = new Uint8Array(h.savedOffset);
  bytes.set(raw.subarray(0, BUFFER_HEADER_SIZE));
  if (decompressLz77(raw.subarray(BUFFER_HEADER_SIZE), h.savedOffset - BUFFER_HEADER_SIZE, bytes, BUFFER_HEADER_SIZE) === undefined) {
    throw new EtlError(
      'unsupported-compression',
      at,
      `unsupported compression: this ETW buffer does not decompress with LZ77 (plain Xpress) to its ${h.savedOffset - BUFFER_HEADER_SIZE} bytes; it may use Xpress-Huffman (wpr -compress / xperf -CompressMode) — relog or merge it with PerfView, or record without compression`,
    );
  }
  return { bytes, end: h.savedOffset };
}
