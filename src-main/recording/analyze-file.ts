/**
 * Reads a trace file through the GC analyzer in memory (no store): what `report FILE` and the
 * oracle comparison use. A trace damaged part-way is analysed up to the damage (`failure` says
 * where); a file that is not a trace rejects.
 */
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import { TraceFacts } from '../gc/trace-facts.js';
import { NettraceError } from '../nettrace/errors.js';
import { NettraceReader } from '../nettrace/reader.js';
import type { TraceInfo } from '../nettrace/types.js';
import { pumpTraceFile, type ReadTraceOptions } from './trace-file.js';

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
}

export async function analyzeTraceFile(path: string, options: ReadTraceOptions = {}): Promise<FileAnalysis> {
  const analyzer = new GCAnalyzer();
  const facts = new TraceFacts();
  const out: { trace: TraceInfo | undefined; failure: NettraceError | undefined } = { trace: undefined, failure: undefined };
  const reader = new NettraceReader(
    {
      onTrace: (t) => {
        out.trace = t;
        analyzer.setTrace(t);
      },
      onEvent: (e) => {
        if (!facts.onEvent(e)) analyzer.onEvent(e);
      },
    },
    // The facts and the analyzer read each event during the call and keep none.
    { ...options, reuseRecords: true },
  );
  try {
    await pumpTraceFile(path, reader, options);
  } catch (e) {
    if (!(e instanceof NettraceError) || out.trace === undefined) throw e;
    out.failure = e;
    reader.end();
  }
  analyzer.finish();
  const { commandLine, os, arch, hasPerHeapHistory, hasPinEvents } = facts;
  return { analyzer, reader, ...out, commandLine, os, arch, hasPerHeapHistory, hasPinEvents };
}
