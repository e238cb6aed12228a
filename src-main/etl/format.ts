/**
 * ETW log files (.etl) as one entry of the format list (trace/reader.ts TraceFormat): recognized
 * by the first buffer's WMI_BUFFER_HEADER (a BufferSize from 0x48 bytes to 16 MiB) followed by the
 * EventTrace/Header event (a SYSTEM_TRACE_HEADER, type 1 or 2, marker flags 0xC0, group 0 and
 * opcode 0, at least 0x20 bytes) — what every logger writes first. Each byte is judged as it
 * arrives, so a stream that is not an .etl is refused at its first contradicting byte.
 */
import type { SniffResult, TraceFormat } from '../trace/reader.js';
import { BUFFER_FLAG_COMPRESSED, BUFFER_HEADER_SIZE, MAX_BUFFER_SIZE } from './buffer.js';
import { readLogFileHeader } from './logfile-header.js';
import { EtlReader } from './reader.js';

/** Bytes needed to be sure: the buffer header and the header event's first 8 bytes. */
const SNIFF_BYTES = BUFFER_HEADER_SIZE + 8;

export function sniffEtl(b: Uint8Array): SniffResult {
  // BufferSize ≤ 16 MiB: its top byte is 0 or 1 (and 1 only for exactly 16 MiB).
  if (b.length > 3 && b[3]! > 1) return 'no';
  if (b.length >= 4) {
    const size = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
    if (size < BUFFER_HEADER_SIZE + 0x20 || size > MAX_BUFFER_SIZE) return 'no';
  }
  const p = BUFFER_HEADER_SIZE;
  if (b.length > p + 2 && b[p + 2] !== 1 && b[p + 2] !== 2) return 'no';
  if (b.length > p + 3 && b[p + 3] !== 0xc0) return 'no';
  if (b.length > p + 5 && (b[p + 4]! | (b[p + 5]! << 8)) < 0x20) return 'no';
  if (b.length > p + 6 && b[p + 6] !== 0) return 'no';
  if (b.length > p + 7 && b[p + 7] !== 0) return 'no';
  return b.length >= SNIFF_BYTES ? 'yes' : 'more';
}

/** Bytes of a file's start enough for etlClock (the header event is a few hundred bytes). */
export const ETL_CLOCK_BYTES = 4096;

/**
 * The clock of an .etl from its first bytes (the log-file header in an uncompressed first buffer,
 * as PerfView's raw session files have): what decides whether two files can be merged. Undefined
 * when the bytes do not show it (not an .etl, a compressed first buffer, too few bytes).
 */
export function etlClock(b: Uint8Array): { perfFreq: number; clockType: number } | undefined {
  if (sniffEtl(b) !== 'yes') return undefined;
  if (((b[0x34]! | (b[0x35]! << 8)) & BUFFER_FLAG_COMPRESSED) !== 0) return undefined;
  const p = BUFFER_HEADER_SIZE;
  const size = b[p + 4]! | (b[p + 5]! << 8);
  if (p + size > b.length) return undefined;
  try {
    const h = readLogFileHeader(b.subarray(p + 0x20, p + size), p + 0x20);
    return { perfFreq: h.perfFreq, clockType: h.clockType };
  } catch {
    return undefined;
  }
}

export const ETL_FORMAT: TraceFormat = {
  name: 'ETL',
  extensions: ['.etl', '.etl.zip'],
  sniff: sniffEtl,
  create: (handlers, options) => new EtlReader(handlers, options),
};
