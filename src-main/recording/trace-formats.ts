/**
 * The trace formats GCScope reads, in the order their sniffs are asked (trace/detect.ts), and the
 * one way the rest of the code makes a reader: `openTraceReader` recognizes the format by the
 * stream's first bytes, so a file, a zip entry and a live stream are read alike whatever their
 * names. A new format is a TraceFormat (its reader in a folder of its own) and one line here, or
 * one `registerTraceFormat` call.
 */
import { NETTRACE_FORMAT } from '../nettrace/format.js';
import { DetectingReader } from '../trace/detect.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';

const FORMATS: TraceFormat[] = [NETTRACE_FORMAT];

/** The formats known, in sniffing order. */
export function traceFormats(): readonly TraceFormat[] {
  return FORMATS;
}

/** Adds a format (after those known; a format already in the list is not added twice). */
export function registerTraceFormat(f: TraceFormat): void {
  if (!FORMATS.includes(f)) FORMATS.push(f);
}

/** Removes a format added with registerTraceFormat (tests). */
export function unregisterTraceFormat(f: TraceFormat): void {
  const i = FORMATS.indexOf(f);
  if (i > 0) FORMATS.splice(i, 1);
}

/**
 * A reader for whatever format the stream turns out to be. An unrecognized stream fails with
 * 'bad-magic' saying what it looks like.
 */
export function openTraceReader(handlers: TraceReaderHandlers, options: TraceReaderOptions = {}): TraceReader {
  return new DetectingReader(FORMATS, handlers, options);
}
