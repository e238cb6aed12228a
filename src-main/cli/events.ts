/**
 * `gcscope events FILE`: the trace header and event counts by TraceEvent name; for a machine-wide
 * trace (ETW), also its .NET processes (name, PID, runtime, GCs, command line), counted in the
 * same pass.
 */
import { EventCensus } from '../clr/event-census.js';
import { ProcessCensus } from '../gc/process-census.js';
import { runtimeLabel, type DotNetProcessInfo } from '../shared/trace-process.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import type { TraceReader } from '../trace/reader.js';
import { pumpTraceFile } from '../recording/trace-file.js';
import { openTraceReader } from '../recording/trace-formats.js';
import { etlSessionNote } from '../recording/trace-processes.js';
import { formatCount, formatInt } from '../shared/format.js';
import { CliError, describeInputError, escapeControl, EXIT_BAD_INPUT, EXIT_OK } from './output.js';

export interface EventsReport {
  trace: (TraceInfo & { formatName: string; fileFormatVersion: number }) | null;
  counts: Record<string, number>;
  totalEvents: number;
  droppedEvents: number;
  newerVersionEvents: number;
  gcDecodeErrors: number;
  blocks: Record<string, number>;
  /** A machine-wide trace's .NET processes, most GCs first; null for a one-process trace. */
  processes: DotNetProcessInfo[] | null;
  /** What an unmerged PerfView session file lacks (recording/trace-processes.ts etlSessionNote); null when nothing. */
  sessionNote: string | null;
  state: 'complete' | 'truncated' | 'failed';
  error: { code: string; offset: number; message: string } | null;
}

export async function collectEvents(file: string, opts: { entry?: string } = {}): Promise<EventsReport> {
  let trace: TraceInfo | undefined;
  let reader: TraceReader | undefined;
  // Each event is checked with its own process's pointer size: a machine-wide trace can hold a
  // 32-bit process beside 64-bit ones (net.4.5.2.x64's PerfView). The reader knows a process's
  // size by the time it delivers its first CLR event (the header type of its CLR events).
  const sizes = new Map<number, number>();
  const pointerSizeOf = (e: TraceEventRecord): number => {
    let s = sizes.get(e.processId);
    if (s === undefined) {
      s = reader?.processes?.find((p) => p.processId === e.processId)?.pointerSize ?? trace?.pointerSize ?? 8;
      sizes.set(e.processId, s);
    }
    return s;
  };
  const census = new EventCensus(pointerSizeOf);
  const processes = new ProcessCensus();
  let failure: unknown;
  try {
    reader = openTraceReader(
      {
        onTrace: (t) => {
          trace = t;
        },
        onMetadata: census.onMetadata,
        onEvent: (e) => {
          census.onEvent(e);
          processes.onEvent(e);
        },
      },
      // Counting needs no time order: stream order is faster. The censuses keep no record.
      { sort: false, reuseRecords: true },
    );
    await pumpTraceFile(file, reader, opts.entry !== undefined ? { entry: opts.entry } : {});
  } catch (e) {
    failure = e;
  }
  const err = describeInputError(file, failure);
  if (failure !== undefined && err === undefined) throw failure as Error;
  const r = reader;
  const total = [...census.counts.values()].reduce((a, b) => a + b, 0);
  const dotnet = r?.processes !== undefined ? processes.processes(r.processes) : null;
  const nettraceErr = failure ?? r?.error;
  return {
    trace: trace === undefined ? null : { ...trace, formatName: r?.formatName ?? 'unknown', fileFormatVersion: trace.formatVersion },
    counts: census.sortedCounts(),
    totalEvents: total,
    droppedEvents: r?.droppedEvents ?? 0,
    newerVersionEvents: census.newerVersionEvents,
    gcDecodeErrors: census.decodeErrors,
    blocks: r?.blockCounts ?? {},
    processes: dotnet,
    sessionNote: dotnet !== null ? ((await etlSessionNote(file, dotnet)) ?? null) : null,
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

export async function runEvents(file: string, opts: { json: boolean; format?: string | undefined; entry?: string | undefined }): Promise<number> {
  if (opts.format !== undefined && opts.format !== 'text' && opts.format !== 'json')
    throw new CliError(`unknown --format ${opts.format}: use text or json`, EXIT_BAD_INPUT);
  const rep = await collectEvents(file, opts.entry !== undefined ? { entry: opts.entry } : {});
  if (opts.json) {
    process.stdout.write(JSON.stringify(rep, null, 2) + '\n');
  } else if (rep.trace !== null) {
    const t = rep.trace;
    const lines = [
      `Trace:        ${file}`,
      `Format:       ${t.formatName}`,
      `Process id:   ${rep.processes !== null ? 'every process (a machine-wide trace; its .NET processes are listed below)' : t.processId}`,
      `Pointer size: ${t.pointerSize} bytes (${t.pointerSize * 8}-bit process)`,
      `CPUs:         ${t.numberOfProcessors}`,
      `Clock:        ${formatInt(t.qpcFrequency)} ticks/s`,
      `Start time:   ${t.syncTimeUtc}`,
      `Events:       ${formatInt(rep.totalEvents)} (${formatInt(rep.droppedEvents)} dropped by the runtime)`,
      // What --format json always said; the text said nothing of payloads the GC analysis cannot read.
      ...(rep.gcDecodeErrors > 0
        ? [
            `Undecodable:  ${formatCount(rep.gcDecodeErrors, 'runtime event')} with a payload that does not fit the event's layout (the GC analysis skips ${rep.gcDecodeErrors === 1 ? 'it' : 'them'})`,
          ]
        : []),
      ...(rep.newerVersionEvents > 0
        ? [`Newer:        ${formatCount(rep.newerVersionEvents, 'event')} of a version newer than this GCScope knows (read by the fields it knows)`]
        : []),
      '',
    ];
    if (rep.processes !== null)
      lines.push(...processLines(rep.processes), ...(rep.sessionNote !== null ? [`Note: ${escapeControl(rep.sessionNote)}`] : []), '');
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

/** The .NET processes of a machine-wide trace as a table (names and command lines come from the file: escaped). */
function processLines(ps: readonly DotNetProcessInfo[]): string[] {
  if (ps.length === 0) return ['.NET processes: none (no CLR events in this trace)'];
  const rows = ps.map((p) => [String(p.processId), escapeControl(p.name || '?'), runtimeLabel(p), formatInt(p.gcCount), escapeControl(p.commandLine)]);
  const head = ['PID', 'Name', 'Runtime', 'GCs', 'Command line'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => (i === 0 || i === 3 ? c.padStart(w[i]!) : i === r.length - 1 ? c : c.padEnd(w[i]!)))
      .join('  ')
      .trimEnd();
  return [`.NET processes: ${ps.length} (report, diagnose, allocs, log and compare take --pid; import stores one session each)`, line(head), ...rows.map(line)];
}
