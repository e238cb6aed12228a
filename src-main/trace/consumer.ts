/**
 * An event consumer: one kind of data made from a trace's events (per-GC rows, stacks and
 * allocation samples, a heap graph, request spans…). The one trace analysis
 * (recording/trace-analysis.ts) calls every consumer in its list with every event; a new kind of
 * data is one module implementing this and one line registering it (recording/trace-consumers.ts).
 * Pure: types only.
 */
import type { TraceEventRecord, TraceInfo } from './model.js';
import type { TraceReader } from './reader.js';

/** What a consumer may ask of the analysis while it runs. */
export interface AnalysisContext {
  /** The reader the events come from (format, counts, state once ended). */
  readonly reader: TraceReader;
  /** The trace's header, once read. */
  readonly trace: TraceInfo | undefined;
  /**
   * The call stack of the event being delivered (return addresses, innermost first), or
   * undefined (none, or the analysis reads no stacks). Only during onEvent.
   */
  stackOf(e: TraceEventRecord): Float64Array | undefined;
}

export interface TraceConsumer {
  /** The trace's header: before any event. */
  onTrace?(t: TraceInfo, ctx: AnalysisContext): void;
  /**
   * Every event, in time order. The record may be refilled for the next event (the reader's
   * `reuseRecords`): read what is needed now, keep none of it.
   */
  onEvent?(e: TraceEventRecord, ctx: AnalysisContext): void;
  /** Now and then while reading (a live recording's batches, an import's write batches). */
  flush?(ctx: AnalysisContext): void;
  /** The stream has ended and every event was delivered. */
  finish?(ctx: AnalysisContext): void;
}
