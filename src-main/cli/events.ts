/** `gcscope events FILE`: the trace header and event counts by TraceEvent name. */
import { EventCensus } from '../clr/event-census.js';
import type { TraceInfo } from '../trace/model.js';
import { readTraceFile } from '../recording/trace-file.js';
import { formatInt } from '../shared/format.js';
import { CliError, describeInputError, escapeControl, EXIT_BAD_INPUT, EXIT_OK } from './output.js';

export interface EventsReport {
  trace: (TraceInfo & { formatName: string; fileFormatVersion: number }) | null;
  counts: Record<string, number>;
  totalEvents: number;
  droppedEvents: number;
  newerVersionEvents: number;
  gcDecodeErrors: number;
  blocks: Record<string, number>;
  state: 'complete' | 'truncated' | 'failed';
  error: { code: string; offset: number; message: string } | null;
}

export async function collectEvents(file: string): Promise<EventsReport> {
  let trace: TraceInfo | undefined;
  const census = new EventCensus(() => trace?.pointerSize ?? 8);
  let failure: unknown;
  let reader;
  try {
    reader = await readTraceFile(
      file,
      {
        onTrace: (t) => {
          trace = t;
        },
        onMetadata: census.onMetadata,
        onEvent: census.onEvent,
      },
      // Counting needs no time order: stream order is faster. The census keeps no record.
      { sort: false, reuseRecords: true },
    );
  } catch (e) {
    failure = e;
  }
  const err = describeInputError(file, failure);
  if (failure !== undefined && err === undefined) throw failure as Error;
  const r = reader;
  const total = [...census.counts.values()].reduce((a, b) => a + b, 0);
  const nettraceErr = failure ?? r?.error;
  return {
    trace: trace === undefined ? null : { ...trace, formatName: r?.formatName ?? 'unknown', fileFormatVersion: trace.formatVersion },
    counts: census.sortedCounts(),
    totalEvents: total,
    droppedEvents: r?.droppedEvents ?? 0,
    newerVersionEvents: census.newerVersionEvents,
    gcDecodeErrors: census.decodeErrors,
    blocks: r?.blockCounts ?? {},
    state: failure !== undefined ? 'failed' : r!.state === 'complete' ? 'complete' : 'truncated',
    error:
      nettraceErr === undefined
        ? null
        : {
            code: (nettraceErr as { code?: string }).code ?? 'error',
            offset: (nettraceErr as { offset?: number }).offset ?? -1,
            message: (nettraceErr as Error).message,
          },
  };
}

export async function runEvents(file: string, opts: { json: boolean }): Promise<number> {
  const rep = await collectEvents(file);
  if (opts.json) {
    process.stdout.write(JSON.stringify(rep, null, 2) + '\n');
  } else if (rep.trace !== null) {
    const t = rep.trace;
    const lines = [
      `Trace:        ${file}`,
      `Format:       ${t.formatName}`,
      `Process id:   ${t.processId}`,
      `Pointer size: ${t.pointerSize} bytes (${t.pointerSize * 8}-bit process)`,
      `CPUs:         ${t.numberOfProcessors}`,
      `Clock:        ${formatInt(t.qpcFrequency)} ticks/s`,
      `Start time:   ${t.syncTimeUtc}`,
      `Events:       ${formatInt(rep.totalEvents)} (${formatInt(rep.droppedEvents)} dropped by the runtime)`,
      '',
    ];
    const w = Math.max(10, ...Object.values(rep.counts).map((n) => formatInt(n).length));
    // Provider and event names come from the file's metadata: printed with control characters escaped.
    for (const [k, n] of Object.entries(rep.counts)) lines.push(`${formatInt(n).padStart(w)}  ${escapeControl(k)}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
  if (rep.state !== 'complete') {
    const e = rep.error!;
    // File errors already name the file; decode errors get the file and their code in front.
    throw new CliError(e.message.startsWith(file) ? e.message : `${file}: ${e.code}: ${e.message}`, EXIT_BAD_INPUT);
  }
  return EXIT_OK;
}
