/**
 * Reads a trace file through the GC analyzer in memory (no store): what `report FILE` and the
 * oracle comparison use. A trace damaged part-way is analysed up to the damage (`failure` says
 * where); a file that is not a trace rejects.
 */
import { AllocationTickReader } from '../clr/gc-events.js';
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import { TraceFacts } from '../gc/trace-facts.js';
import type { TraceGC } from '../gc/trace-gc.js';
import { NettraceError } from '../nettrace/errors.js';
import { NettraceReader } from '../nettrace/reader.js';
import { StackEvents, type StackEventsOptions } from '../symbols/stack-events.js';
import type { TraceEventRecord, TraceInfo } from '../nettrace/types.js';
import { fileStreamBytes, pumpTraceFile, type ReadTraceOptions } from './trace-file.js';

export interface FileAnalysis {
  analyzer: GCAnalyzer;
  reader: NettraceReader;
  trace: TraceInfo | undefined;
  /** From the EventPipe ProcessInfo event, when present. */
  commandLine: string | undefined;
  os: string | undefined;
  arch: string | undefined;
  hasPerHeapHistory: boolean;
  hasPinEvents: boolean;
  /** The decode error that stopped reading early, if any. */
  failure: NettraceError | undefined;
  /** Stacks, method ranges and allocation ticks (issue 14), when asked for with `stacks`. */
  stackEvents: StackEvents | undefined;
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
  let newestCompleted = -1;
  let releasedTo = 0;
  const completed = (gc: TraceGC): void => {
    if (gc.index > newestCompleted) newestCompleted = gc.index;
    onGC?.(gc);
  };
  const analyzer = new GCAnalyzer(onGC === undefined && window === undefined ? {} : { onGCEnd: completed, onGCUpdated: (gc) => onGC?.(gc) });
  const facts = new TraceFacts();
  const ticks = new AllocationTickReader();
  // Method names stay in the file until a stack needs one (a plain trace; a zip's are copied).
  const stackEvents = stacks === true ? new StackEvents({ stream: await fileStreamBytes(path), ...stackOptions }) : undefined;
  const out: { trace: TraceInfo | undefined; failure: NettraceError | undefined } = { trace: undefined, failure: undefined };
  const stackOf = (e: TraceEventRecord): Float64Array | undefined => reader.eventStack(e);
  const reader = new NettraceReader(
    {
      onTrace: (t) => {
        out.trace = t;
        analyzer.setTrace(t);
        stackEvents?.setTrace(t);
        ticks.setTrace(t);
      },
      onEvent: (e) => {
        // Each AllocationTick read once, for the analyzer and the stack events.
        const tick = ticks.read(e);
        if (tick !== undefined) {
          analyzer.onAllocationTick(e, tick);
          stackEvents?.onAllocationTick(e, tick, stackOf);
        } else {
          if (!facts.onEvent(e)) analyzer.onEvent(e);
          stackEvents?.onEvent(e, stackOf);
        }
        // Released in steps of a window, between events (never while the analyzer is in a GC's completion).
        if (window !== undefined && newestCompleted - window >= releasedTo + window) {
          releasedTo = newestCompleted - window;
          analyzer.release(releasedTo);
        }
      },
    },
    // The facts and the analyzer read each event during the call and keep none.
    { ...readOptions, reuseRecords: true, stacks: stackEvents !== undefined },
  );
  try {
    await pumpTraceFile(path, reader, readOptions);
  } catch (e) {
    if (!(e instanceof NettraceError) || out.trace === undefined) throw e;
    out.failure = e;
    reader.end();
  }
  analyzer.finish();
  const { commandLine, os, arch, hasPerHeapHistory, hasPinEvents } = facts;
  return { analyzer, reader, ...out, commandLine, os, arch, hasPerHeapHistory, hasPinEvents, stackEvents };
}
