/**
 * The trace formats GCScope reads, in the order their sniffs are asked (trace/detect.ts), and the
 * one way the rest of the code makes a reader: `openTraceReader` recognizes the format by the
 * stream's first bytes, so a file, a zip entry and a live stream are read alike whatever their
 * names. A new format is a TraceFormat (its reader in a folder of its own) and one line here, or
 * one `registerTraceFormat` call.
 */
import { Registry } from '../common/registry.js';
import { ETL_FORMAT } from '../etl/format.js';
import { NETTRACE_FORMAT } from '../nettrace/format.js';
import { DetectingReader } from '../trace/detect.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';

/** NetTrace/NetPerf and ETW's .etl are built in (they cannot be unregistered); others are asked after them. */
const FORMATS = new Registry<TraceFormat>([NETTRACE_FORMAT, ETL_FORMAT]);

/** The formats known, in sniffing order. */
export function traceFormats(): readonly TraceFormat[] {
  return FORMATS.list();
}

/** Adds a format (after those known; a format already in the list is not added twice). */
export function registerTraceFormat(f: TraceFormat): void {
  FORMATS.register(f);
}

/** Removes a format added with registerTraceFormat (tests). */
export function unregisterTraceFormat(f: TraceFormat): void {
  FORMATS.unregister(f);
}

/**
 * A reader for whatever format the stream turns out to be. An unrecognized stream fails with
 * 'bad-magic' saying what it looks like.
 */
export function openTraceReader(handlers: TraceReaderHandlers, options: TraceReaderOptions = {}): TraceReader {
  return new DetectingReader(FORMATS.list(), handlers, options);
}
