/** Reads a trace file through the GC analyzer (no store): what `report FILE` uses. */
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import type { NettraceReader } from '../nettrace/reader.js';
import type { TraceInfo } from '../nettrace/types.js';
import { readTraceFile, type ReadTraceOptions } from './trace-file.js';

export interface FileAnalysis {
  analyzer: GCAnalyzer;
  reader: NettraceReader;
  trace: TraceInfo | undefined;
  /** Process command line from the EventPipe ProcessInfo event, when present. */
  commandLine: string | undefined;
}

export async function analyzeTraceFile(path: string, options: ReadTraceOptions = {}): Promise<FileAnalysis> {
  const analyzer = new GCAnalyzer();
  let trace: TraceInfo | undefined;
  let commandLine: string | undefined;
  const { decodePayload } = await import('../nettrace/payload.js');
  const reader = await readTraceFile(
    path,
    {
      onTrace: (t) => {
        trace = t;
        analyzer.setTrace(t);
      },
      onEvent: (e) => {
        if (e.metadata.provider === 'Microsoft-DotNETCore-EventPipe' && e.metadata.eventName === 'ProcessInfo') {
          const v = decodePayload(e).CommandLine;
          if (typeof v === 'string') commandLine = v;
          return;
        }
        analyzer.onEvent(e);
      },
    },
    options,
  );
  analyzer.finish();
  return { analyzer, reader, trace, commandLine };
}
