/**
 * Reads a trace file through the GC analyzer in memory (no store): what `report FILE` and the
 * oracle comparison use. A trace damaged part-way is analysed up to the damage (`failure` says
 * where); a file that is not a trace rejects.
 */
import type { GCAnalyzer } from '../gc/gc-analyzer.js';
import type { TraceGC } from '../gc/trace-gc.js';
import type { StackEvents, StackEventsOptions } from '../symbols/stack-events.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { TraceInfo } from '../trace/model.js';
import type { TraceReader } from '../trace/reader.js';
import { RequestSpanCollector } from '../requests/spans.js';
import { TraceAnalysis } from './trace-analysis.js';
import { fileStreamBytes, pumpTraceFile, type ReadTraceOptions } from './trace-file.js';

export interface FileAnalysis {
  analyzer: GCAnalyzer;
  reader: TraceReader;
  trace: TraceInfo | undefined;
  /** From the EventPipe ProcessInfo event (or a machine-wide trace's process list), when present. */
  commandLine: string | undefined;
  /** A machine-wide trace's name for the process (its kernel events); undefined otherwise. */
  processName: string | undefined;
  os: string | undefined;
  arch: string | undefined;
  hasPerHeapHistory: boolean;
  hasPinEvents: boolean;
  /** The decode error that stopped reading early, if any. */
  failure: TraceDecodeError | undefined;
  /** Stacks, method ranges and allocation ticks (issue 14), when asked for with `stacks`. */
  stackEvents: StackEvents | undefined;
  /** Request spans and GC pause intervals (issue 42): the registered consumer's. */
  requestSpans: RequestSpanCollector | undefined;
}

export interface AnalyzeOptions extends ReadTraceOptions {
  /**
   * Called when a GC completes, and again when a later event changes it (finalizers queued).
   * With `window`, the caller takes what it needs of a GC here: it may be released after.
   */
  onGC?: (gc: TraceGC) => void;
  /**
   * Keep only this many GCs behind the newest completed one (what a GC's metrics read: the
   * previous GC; a background GC the GCs during it), so memory does not grow with the trace.
   * Without it every GC stays in `analyzer.gcs`.
   */
  window?: number;
  /** Also collect call stacks, methods and allocation ticks (decodes stack blocks). */
  stacks?: boolean;
  /** With stacks: how (StackEvents' options: aggregate the ticks, collect handle events). */
  stackOptions?: StackEventsOptions;
}

export async function analyzeTraceFile(path: string, options: AnalyzeOptions = {}): Promise<FileAnalysis> {
  const { onGC, window, stacks, stackOptions, ...readOptions } = options;
  const analysis = new TraceAnalysis({
    ...(onGC !== undefined ? { gc: { onGCEnd: onGC, onGCUpdated: onGC } } : {}),
    ...(window !== undefined ? { window } : {}),
    // Method names stay in the file until a stack needs one (a plain trace; a zip's are copied).
    ...(stacks === true ? { stacks: { stream: await fileStreamBytes(path), ...stackOptions } } : {}),
    // The facts and the analyzer read each event during the call and keep none.
    reader: { ...readOptions, reuseRecords: true },
  });
  const { reader, analyzer, facts } = analysis;
  try {
    await pumpTraceFile(path, reader, readOptions);
  } catch (e) {
    if (!(e instanceof TraceDecodeError) || analysis.trace === undefined) throw e;
  }
  analysis.finish();
  const { processName, commandLine, os, arch, hasPerHeapHistory, hasPinEvents } = facts;
  return {
    analyzer,
    reader,
    trace: analysis.trace,
    failure: analysis.failure,
    processName,
    commandLine,
    os,
    arch,
    hasPerHeapHistory,
    hasPinEvents,
    stackEvents: analysis.stackEvents,
    requestSpans: analysis.consumerOf(RequestSpanCollector),
  };
}
