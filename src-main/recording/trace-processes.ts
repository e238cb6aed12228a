/**
 * Machine-wide traces (ETW's .etl holds every process on the machine): which .NET processes a
 * trace file holds, and which one a command or an import reads. Format-neutral: a reader that
 * lists processes (TraceReader.processes, known by its first event) is machine-wide; any other
 * holds the one process its header names.
 *
 * The survey is one pass in stream order (`sort: false`), decoding only GCStart and
 * RuntimeInformation (gc/process-census.ts). For a one-process trace it stops at the first event
 * (the header named the process) unless a `--pid` that does not match has to be refused with
 * what the trace holds.
 */
import { ProcessCensus } from '../gc/process-census.js';
import { processLabel, type DotNetProcessInfo } from '../shared/trace-process.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import type { TraceReader } from '../trace/reader.js';
import { basename } from 'node:path';
import { etlSessionFiles, pumpTraceFile, TraceFileError, type ReadProgress } from './trace-file.js';
import { openTraceReader } from './trace-formats.js';

/** Thrown from the survey's event handler to stop reading a one-process trace at its first event. */
const SURVEY_DONE = new Error('survey done');

export interface TraceSurvey {
  /** The reader listed processes: a machine-wide trace. */
  machineWide: boolean;
  /** The trace's header (undefined when the file stopped before it). */
  trace: TraceInfo | undefined;
  /**
   * The .NET processes, most GCs first. A one-process trace surveyed only to its first event
   * lists its process with `gcCount` -1 (not counted).
   */
  processes: DotNetProcessInfo[];
}

export interface SurveyOptions {
  entry?: string;
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  /** Read a one-process trace to its end too (its GC count). */
  whole?: boolean;
}

/** The survey of `path`'s processes (see the module comment). A file that is not a trace rejects as reading it does. */
export async function surveyTraceProcesses(path: string, options: SurveyOptions = {}): Promise<TraceSurvey> {
  const census = new ProcessCensus();
  let trace: TraceInfo | undefined;
  let first = true;
  let stopped = false;
  let machineWide = false;
  const handlers = {
    onTrace: (t: TraceInfo) => {
      trace = t;
    },
    onEvent: (e: TraceEventRecord) => {
      if (stopped) return;
      if (first) {
        first = false;
        // The reader made below: a machine-wide one lists its processes by now.
        machineWide = reader.processes !== undefined;
        if (!machineWide && options.whole !== true) {
          // Stops the reader here, mid-chunk: the header named the process, nothing more to count.
          stopped = true;
          throw SURVEY_DONE;
        }
      }
      census.onEvent(e);
    },
  };
  const reader: TraceReader = openTraceReader(handlers, { sort: false, reuseRecords: true });
  try {
    await pumpTraceFile(path, reader, {
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.entry !== undefined ? { entry: options.entry } : {}),
      ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    });
  } catch (e) {
    // Stopped by us at the first event; damage after the header still leaves what was counted.
    if (e !== SURVEY_DONE && !(trace !== undefined && e instanceof TraceDecodeError)) throw e;
  }
  machineWide ||= reader.processes !== undefined;
  let processes = census.processes(reader.processes);
  if (!machineWide && trace !== undefined) {
    // One process: the header's, counted (whole) or not; its events carry its id.
    const counted = processes.find((p) => p.processId === trace!.processId) ?? processes[0];
    processes = [
      {
        processId: trace.processId,
        name: counted?.name ?? '',
        commandLine: counted?.commandLine ?? '',
        runtime: counted?.runtime ?? 'unknown',
        runtimeVersion: counted?.runtimeVersion ?? '',
        gcCount: stopped ? -1 : (counted?.gcCount ?? 0),
        pointerSize: trace.pointerSize,
      },
    ];
  }
  return { machineWide, trace, processes };
}

export interface ProcessChoice {
  /** The process to read (TraceReaderOptions.processId); undefined for a one-process trace (nothing to filter). */
  processId: number | undefined;
  /** The chosen process, for a machine-wide trace. */
  process: DotNetProcessInfo | undefined;
  /** What to tell the user on stderr when the choice was made for them (a machine-wide trace without --pid). */
  note: string | undefined;
}

/**
 * The process a file command reads: `pid` when given (refused, listing the processes with GCs,
 * when the trace does not hold it), else the one with most GCs (said in `note`). One line each.
 */
export async function chooseTraceProcess(path: string, pid: number | undefined, options: Omit<SurveyOptions, 'whole'> = {}): Promise<ProcessChoice> {
  // A one-process trace is read whole only to refuse a --pid with what it holds.
  let survey = await surveyTraceProcesses(path, options);
  if (!survey.machineWide) {
    if (pid === undefined || survey.trace === undefined || pid === survey.trace.processId) return { processId: undefined, process: undefined, note: undefined };
    survey = await surveyTraceProcesses(path, { ...options, whole: true });
    throw noSuchProcess(path, pid, survey.processes);
  }
  const all = survey.processes;
  if (pid !== undefined) {
    const p = all.find((x) => x.processId === pid);
    if (p === undefined) throw noSuchProcess(path, pid, all);
    return { processId: pid, process: p, note: undefined };
  }
  const best = all[0];
  const session = await etlSessionNote(path, all);
  if (best === undefined || best.gcCount <= 0) {
    throw new TraceFileError(
      'no-dotnet-process',
      (all.length === 0
        ? `${path}: no .NET process in this trace (no CLR events): record with the CLR provider enabled (PerfView's default or /GCCollectOnly)`
        : `${path}: no .NET process in this trace ran a GC (.NET processes: ${all.map((p) => processLabel(p)).join(', ')})`) +
        (session !== undefined ? `; ${session}` : ''),
    );
  }
  const n = all.length;
  return {
    processId: best.processId,
    process: best,
    note:
      `${path} holds ${n} .NET process${n === 1 ? '' : 'es'}; showing PID ${best.processId}${best.name !== '' ? ` ${best.name}` : ''} (${gcs(best.gcCount)})${n > 1 ? '; choose another with --pid' : ''}` +
      (session !== undefined ? `; ${session}` : ''),
  };
}

/** The processes to import: every .NET process with GCs, or the `pid` one (refused as for a file command). */
export async function processesToImport(
  path: string,
  pid: number | undefined,
  options: Omit<SurveyOptions, 'whole'> = {},
): Promise<TraceSurvey & { chosen: DotNetProcessInfo[] }> {
  const survey = await surveyTraceProcesses(path, { ...options, whole: pid !== undefined });
  if (!survey.machineWide) {
    if (pid !== undefined && survey.trace !== undefined && pid !== survey.trace.processId) throw noSuchProcess(path, pid, survey.processes);
    return { ...survey, chosen: [] };
  }
  if (pid !== undefined) {
    const p = survey.processes.find((x) => x.processId === pid);
    if (p === undefined) throw noSuchProcess(path, pid, survey.processes);
    return { ...survey, chosen: [p] };
  }
  const chosen = survey.processes.filter((p) => p.gcCount > 0);
  if (chosen.length === 0) await chooseTraceProcess(path, undefined, options); // throws the one-line refusal
  return { ...survey, chosen };
}

function gcs(n: number): string {
  return n < 0 ? 'GCs not counted' : `${n.toLocaleString('en-US')} GC${n === 1 ? '' : 's'}`;
}

/** "…: no PID 99 in this trace; processes with GCs: 1234 Test.x64.exe (264 GCs), 5678 (3 GCs)". */
function noSuchProcess(path: string, pid: number, all: readonly DotNetProcessInfo[]): TraceFileError {
  const withGcs = all.filter((p) => p.gcCount > 0);
  const list = withGcs.map((p) => `${p.processId}${p.name !== '' ? ` ${p.name}` : ''} (${gcs(p.gcCount)})`).join(', ');
  return new TraceFileError(
    'no-such-process',
    `${path}: no PID ${pid} in this trace; ${withGcs.length === 0 ? 'no process in it ran a GC' : `processes with GCs: ${list}`}`,
  );
}

/**
 * What an unmerged PerfView session file lacks, in a clause (undefined when nothing is): a part
 * opened on its own (`X.clrRundown.etl`, `X.kernel.etl`) is not the session; an `X.etl` whose
 * .NET processes have no names was read without its kernel file (`X.kernel.etl`, where PerfView
 * writes process names), and without `X.clrRundown.etl` when that is missing too (method names).
 */
export async function etlSessionNote(path: string, processes: readonly DotNetProcessInfo[]): Promise<string | undefined> {
  const name = basename(path);
  const part = /^(.*)\.(clr|kernel)[^.]*\.etl$/i.exec(name);
  if (part !== null) {
    const what = part[2]!.toLowerCase() === 'clr' ? 'CLR rundown' : 'kernel';
    return `${name} is the ${what} part of an unmerged PerfView session: open ${part[1]}.etl beside it instead (GCScope reads its parts together)`;
  }
  if (!/\.etl$/i.test(name) || !processes.some((p) => p.name === '')) return undefined;
  const { missing } = await etlSessionFiles(path);
  const kernel = missing.find((m) => /\.kernel\.etl$/i.test(m));
  if (kernel === undefined) return undefined;
  const rundown = missing.find((m) => /\.clrRundown\.etl$/i.test(m));
  return `process names unknown: ${kernel} (PerfView's kernel session) is not beside ${name}${rundown !== undefined ? `, nor ${rundown} (method names)` : ''}`;
}
