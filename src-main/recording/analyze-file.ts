/**
 * Reads a trace file through the GC analyzer in memory (no store): what `report FILE` and the
 * oracle comparison use. A trace damaged part-way is analysed up to the damage (`failure` says
 * where); a file that is not a trace rejects.
 */
import { GCAnalyzer } from '../gc/gc-analyzer.js';
import { NettraceError } from '../nettrace/errors.js';
import { decodePayload } from '../nettrace/payload.js';
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
  const out: Omit<FileAnalysis, 'reader'> = {
    analyzer,
    trace: undefined,
    commandLine: undefined,
    os: undefined,
    arch: undefined,
    hasPerHeapHistory: false,
    hasPinEvents: false,
    failure: undefined,
  };
  const reader = new NettraceReader(
    {
      onTrace: (t) => {
        out.trace = t;
        analyzer.setTrace(t);
      },
      onEvent: (e) => {
        const md = e.metadata;
        if (md.provider === 'Microsoft-DotNETCore-EventPipe' && md.eventName === 'ProcessInfo') {
          const p = decodePayload(e);
          if (typeof p.CommandLine === 'string') out.commandLine = p.CommandLine;
          if (typeof p.OSInformation === 'string') out.os = p.OSInformation;
          if (typeof p.ArchInformation === 'string') out.arch = p.ArchInformation;
          return;
        }
        if (md.provider === 'Microsoft-Windows-DotNETRuntime') {
          if (md.eventId === 204) out.hasPerHeapHistory = true;
          else if (md.eventId === 33) out.hasPinEvents = true;
        }
        analyzer.onEvent(e);
      },
    },
    options,
  );
  try {
    await pumpTraceFile(path, reader, options);
  } catch (e) {
    if (!(e instanceof NettraceError) || out.trace === undefined) throw e;
    out.failure = e;
    reader.end();
  }
  analyzer.finish();
  return { ...out, reader };
}
